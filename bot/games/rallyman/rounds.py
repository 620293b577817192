"""Rounds and stages of Rallyman: DIRT, on the state in place: the next driver, a new round (cars
entering one per round, the running order), the end of a special stage (the next one of a rally,
or the result and a solo driver's par time)."""

from __future__ import annotations

from bot.games.base import Event, seat_ref
import bot.games.rallyman.board as B
import bot.games.rallyman.rules as R
from bot.i18n import msg


def next_turn(st: dict, events: list[Event]) -> None:
    """The next driver of the round that has not finished, else a new round (or the stage's end)."""
    st["plan"], st["roll"], st["draft"] = [], None, []
    st["phase"] = "plan"
    st["turn"] += 1
    while st["turn"] < len(st["order"]) and st["cars"][st["order"][st["turn"]]]["fin"]:
        st["turn"] += 1
    if st["turn"] >= len(st["order"]):
        new_round(st)
        if st["phase"] == "over":
            finish(st, events)  # the rally's next stage starts here, if there is one
            if st["phase"] == "over":
                return
    begin_turn(st)


def mark_round(st: dict, events: list[Event]) -> None:
    """The thread marks each round as its first driver moves: its number, the stage, the drivers
    in order. Until then the round's thread post is the last one's ("post" in the view), so
    the post of a round holds its turns only, from its mark to the end of its last turn."""
    here = [st["leg"], st["round"]]
    if st.get("marked") != here:
        st["marked"] = here
        events.append(
            Event(
                msg(
                    "Round {n} of {stage}: {order}.",
                    n=st["round"],
                    stage=st["stage"],
                    order=[seat_ref(s) for s in st["order"]],
                )
            )
        )


def begin_turn(st: dict) -> None:
    """A driver's turn begins: a car off the lane is back on it if its space is free."""
    seat = st["order"][st["turn"]]
    car = st["cars"][seat]
    if not car["track"]:
        # back on the lane (after a crash or the spare tyre) if the space is free
        if car["sp"] not in R.occupied(st, seat):
            car["track"] = True
    st["turn_no"] += 1


def new_round(st: dict) -> None:
    """The next round: the round's entrant joins at a free start space; the running order is by
    distance, then gear, then the inside lane. No one left to drive: the stage is over."""
    stage = B.stage(st["stage"])
    st["round"] += 1
    k = st["round"]
    for seat in st["entry"][:k]:
        car = st["cars"][seat]
        if car["entered"]:
            continue
        occ = R.occupied(st, seat)
        free = [s for s in stage.starts if s not in occ]
        if not free:
            continue  # designed: waits a round when both start spaces are taken
        free.sort(key=lambda s: not stage.spaces[s].inside)
        car.update(sp=free[0], entered=True, track=True, gear=0)
    active = [s for s in range(len(st["cars"])) if st["cars"][s]["entered"] and not st["cars"][s]["fin"]]
    if not active and all(c["entered"] for c in st["cars"]):
        st["phase"] = "over"
        st["order"] = []
        return
    if not active:  # everyone on the stage has finished before the last car entered
        new_round(st)
        return

    def key(s: int) -> tuple:
        c = st["cars"][s]
        sp = stage.spaces[c["sp"]]
        return (-sp.front, -c["gear"], 0 if sp.inside else 1, st["entry"].index(s))

    st["order"] = sorted(active, key=key)
    st["turn"] = 0


def finish(st: dict, events: list[Event]) -> None:
    """A special stage is over: the rally's next one begins, or the result is kept."""
    legs = [sum(c[1] for c in car["cards"]) for car in st["cars"]]
    best_leg = min(legs)
    if len(st["legs"]) > 1:  # a rally: each stage's fastest; a lone stage is said once, below
        events.append(
            Event(
                msg(
                    "{stage} done. Fastest: {who} in {secs} s.",
                    stage=st["stage"],
                    who=[seat_ref(s) for s in range(len(legs)) if legs[s] == best_leg],
                    secs=best_leg,
                )
            )
        )
    if st["leg"] + 1 < len(st["legs"]):
        next_leg(st, legs)
        return
    totals = [car["past"] + legs[seat] - car["chips"] for seat, car in enumerate(st["cars"])]
    ranking = sorted(range(len(totals)), key=lambda s: totals[s])
    places = [1 + sum(1 for t in totals if t < totals[s]) for s in range(len(totals))]  # ties shared
    st["result"] = {"totals": totals, "places": places}
    best = min(totals)
    winners = [seat_ref(s) for s in ranking if totals[s] == best]
    if len(st["legs"]) > 1:
        events.append(Event(msg("Rally over. Fastest in all: {who} in {secs} s.", who=winners, secs=best)))
    else:
        events.append(Event(msg("Stage over. Fastest: {who} in {secs} s.", who=winners, secs=best)))
    par_times = R.par_times()
    if len(totals) == 1 and all(leg in par_times for leg in st["legs"]):
        par = sum(par_times[leg] for leg in st["legs"])  # solo: against the simulated par
        st["result"]["par"] = par
        events.append(
            Event(
                msg(
                    "Par time: {par} s. You are {diff} s {side}.",
                    par=par,
                    diff=abs(totals[0] - par),
                    side=msg("under par") if totals[0] <= par else msg("over par"),
                )
            )
        )


def next_leg(st: dict, legs: list[int]) -> None:
    """The next special stage of the rally. Designed (no source): the service park between
    stages repairs all damage and gives a fresh spare tyre; seconds chips are kept; the
    running order is the standings so far, fastest first."""
    ru = R.rules()
    for seat, car in enumerate(st["cars"]):
        car["past"] += legs[seat]
        car.update(
            sp=None,
            gear=0,
            track=False,
            side=False,
            fin=False,
            entered=False,
            dmg={"gear": 0, "brake": 0, "coast": 0},
            cards=[],
            spare=True,
            tokens=[],
        )
    st["leg"] += 1
    st["stage"] = st["legs"][st["leg"]]
    st["mud"], st["bag"] = {}, dict(ru.tokens)
    st["entry"] = sorted(
        range(len(st["cars"])), key=lambda s: (st["cars"][s]["past"] - st["cars"][s]["chips"], st["entry"].index(s))
    )
    st["round"] = 0
    st["phase"] = "plan"
    new_round(st)
