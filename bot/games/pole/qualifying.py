"""Before the race (seed 3.1-3.2, 13.1): the setup step, qualifying sessions Q1-Q3, the secret
choice of starting tyres, and the start of the race on its grid."""

from __future__ import annotations

import bot.games.pole.bots as BOTS
import bot.games.pole.championship as CHAMP
import bot.games.pole.drivers as DRIVERS
import bot.games.pole.rules as R
import bot.games.pole.specials as SPECIALS
import bot.games.pole.driving as DRIVE
import bot.games.pole.race as RACE
import bot.games.pole.waiting as WAIT
from bot.games.base import Event, State
from bot.games.pole.common import car_name, face_value, log, roll, tyre_name
from bot.games.pole.content import circuits
from bot.games.rng import Rng
from bot.i18n import msg


def setup_done(st: State, rng: Rng, ev: list[Event]) -> None:
    st["phase"] = "quali"
    next_session(st, rng, ev)


def next_session(st: State, rng: Rng, ev: list[Event]) -> None:
    q = st["quali"]
    q["idx"] += 1
    st["turn_no"] += 1
    name = q["sessions"][q["idx"]]
    q["first"] = {str(s): roll(rng, "black") for s in q["in"]}
    for s in q["in"]:  # the Rocket: +1 on each session's first roll (appendix 1)
        q["first"][str(s)] += DRIVERS.quali_first(st, s)
    q["choice"] = {}
    log(
        st,
        ev,
        msg(
            "{session}: first rolls {rolls}.",
            session=name,
            rolls=[msg("{p} {r}", p=car_name(st, s), r=q["first"][str(s)]) for s in q["in"]],
        ),
    )
    if not WAIT.to_act(st):  # only bots left in the session: it runs by itself
        resolve_session(st, rng, ev)


def resolve_session(st: State, rng: Rng, ev: list[Event]) -> None:
    q = st["quali"]
    name = q["sessions"][q["idx"]]
    scores = {}
    for s in q["in"]:
        extra = []
        bot = st["cars"][s].get("bot")
        if bot:  # 17.3.1 step 3: at or below the card's value, two purple rolls
            value = BOTS.card(s, bot["side"])["quali"][int(name[1]) - 1]
            if BOTS.quali_rerolls(q["first"][str(s)], value):
                faces = [roll(rng, "purple"), roll(rng, "purple")]
                extra = [face_value(f) for f in faces]
                log(
                    st,
                    ev,
                    msg(
                        "{p} rolls the purple die twice: {a} and {b}.",
                        p=car_name(st, s),
                        a=str(faces[0]),
                        b=str(faces[1]),
                    ),
                )
        elif q["choice"][str(s)]:
            st["cars"][s]["sp"] -= 1
            extra = [roll(rng, "black"), roll(rng, "black")]
            log(st, ev, msg("{p} spends 1 SP and rolls {a} and {b}.", p=car_name(st, s), a=extra[0], b=extra[1]))
        scores[s] = R.quali_best(q["first"][str(s)], extra)
    tb = {}
    vals = list(scores.values())
    for s in scores:  # ties: a die roll (no driver cards), rolled again while still tied
        tb[s] = 0
    for v in set(vals):
        tied = [s for s in scores if scores[s] == v]
        while len(tied) > 1:
            rolls = {s: roll(rng, "black") for s in tied}
            for s in tied:  # 17.3.1 step 4: a bot tied with a human always goes first
                tb[s] = rolls[s] + (1000 if st["cars"][s].get("bot") else 0) + 10 * DRIVERS.quali_value(st, s)
            if len(set(rolls.values())) == len(tied):
                break
    order = R.quali_order(scores, tb)
    if name == "Q3":
        st["grid"] = CHAMP.grid(st, order + q["back"], rng)  # 15.1: new engines at the back
        log(st, ev, msg("Q3: the grid is {grid}.", grid=[car_name(st, s) for s in st["grid"]]))
        start_tyres(st, ev)
        return
    out = order[-1]
    q["back"].insert(0, out)
    q["in"] = order[:-1]
    for s in q["in"]:
        if not st["cars"][s].get("bot"):  # bots have no SP (17.3.1 step 5: humans pay)
            st["cars"][s]["sp"] -= 1  # advancing costs 1 SP (3.1.1)
    log(
        st,
        ev,
        msg(
            "{session}: {p} is out and starts P{pos}; the others pay 1 SP to go on.",
            session=name,
            p=car_name(st, out),
            pos=len(order),
        ),
    )
    next_session(st, rng, ev)


def start_tyres(st: State, ev: list[Event]) -> None:
    st["phase"] = "tyres"
    st["turn_no"] += 1
    st["tyre_pick"] = {}
    c = circuits()[st["circuit"]]
    for slot, s in enumerate(st["grid"]):
        row, lane = c.grid[slot]
        st["cars"][s]["pos"] = ["t", row, lane]
    st["order"] = list(st["grid"])


def start_race(st: State, rng: Rng, ev: list[Event]) -> None:
    c = circuits()[st["circuit"]]
    for s in st["grid"]:  # 17.8: once the humans have chosen, each bot chooses, in grid order
        if st["cars"][s].get("bot"):
            steps, future = BOTS.weather_steps(st["weather"], c)
            st["tyre_pick"][str(s)] = BOTS.first_tyre(
                st["grid"].index(s) + 1, steps, R.weather_now(st["weather"], c), future, lambda: roll(rng, "black")
            )
    for s, t in sorted(st["tyre_pick"].items()):
        if st["cars"][int(s)].get("bot"):
            DRIVE.bot_fit(st["cars"][int(s)], t)
        else:
            DRIVE.fit(st["cars"][int(s)], t)
    log(
        st,
        ev,
        msg(
            "Tyres revealed: {list}.",
            list=[
                msg("{p}: {t}", p=car_name(st, int(s)), t=tyre_name(t))
                for s, t in sorted(st["tyre_pick"].items(), key=lambda x: int(x[0]))
            ],
        ),
    )
    st["phase"] = "race"
    DRIVERS.remember_start(st)
    if st["options"].get("stress"):  # 12: the pole-sitter starts at 1, the others at 0; bots never
        for s in st["grid"]:
            if not st["cars"][s].get("bot"):
                st["cars"][s]["stress"] = SPECIALS.start_stress(st, s, 1 if s == st["grid"][0] else 0)
    RACE.new_round(st, rng, ev)
