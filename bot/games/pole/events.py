"""Events (seed 002 sections 2.2 and 9, appendix 3), a table option.

The deck (data/pole/events.json): the "A" cards in every race, the "B" card (the second SC card)
on the circuits appendix 4 names (Monaco, the USA), the "C" cards only with the events_c option.
When the leader's weather roll shows "!", the purple die is rolled; a "!" (or a 3 with the
events_often option) reveals the top card. It goes face up on the discard pile; an empty deck
is made again from the shuffled discards. A card for one player: every player rolls the black
die and the lowest takes it (ties roll again). Bots take no events (17.12); reading: only the
players (not the bots) roll for it, so with no player left in the race the card is discarded.
A point (EP / BP) the player cannot lose puts the car out. An SC card without the safety-car
option: a second card is drawn.

The circuit special rules (appendix 4) that concern events are here too: Great Britain (each new
event moves weather token B 2 more), Monaco (light-breakdown events become heavy), China (a first
card at the end of the third start round), Spain (a card each time light rain begins).
"""

from __future__ import annotations

import json
from functools import lru_cache

import bot.games.pole.rules as R
import bot.games.pole.specials as SP
import bot.games.pole.variants as V
from bot.games.pole.common import START_ROUNDS, car_name, log, roll, running, weather_name
from bot.games.pole.content import CIRCUIT_KEYS, DATA_DIR, circuits
from bot.i18n import msg

EFFECTS = ("light", "heavy", "ep", "bp", "sc", "weather")


@lru_cache(maxsize=1)
def deck_data() -> dict:
    d = json.loads((DATA_DIR / "events.json").read_text("utf-8"))
    cards = d["cards"]
    ok = (
        len(cards) == 9
        and len({c["id"] for c in cards}) == 9
        and all(c["letter"] in "ABC" and c["effect"] in EFFECTS for c in cards)
        and sorted(c["letter"] for c in cards if c["effect"] == "sc") == ["A", "B"]
        and {c["effect"] for c in cards} == set(EFFECTS)
        and sorted(c["steps"] for c in cards if c["effect"] == "weather") == [3, 6]
        and set(d["b_circuits"]) <= set(CIRCUIT_KEYS)
    )
    if not ok:
        raise ValueError("data/pole/events.json: nine cards, the seven effects of appendix 3, SC cards A and B")
    return d


def card(cid: str) -> dict:
    return next(c for c in deck_data()["cards"] if c["id"] == cid)


def on(st: dict) -> bool:
    return bool(st["options"].get("events"))


def new_deck(options: dict, rng) -> dict:
    d = deck_data()
    base = SP.base_key(options["circuit"])
    ids = [
        c["id"]
        for c in d["cards"]
        if c["letter"] == "A"
        or (c["letter"] == "B" and base in d["b_circuits"])
        or (c["letter"] == "C" and options.get("events_c"))
    ]
    rng.shuffle(ids)
    return {"deck": ids, "discard": [], "last": None, "due": 0}


def name(cid: str):
    c = card(cid)
    e = c["effect"]
    if e == "weather":
        return msg("the weather moves on {n} spaces", n=c["steps"])
    return {
        "light": msg("a light breakdown"),
        "heavy": msg("a heavy breakdown"),
        "ep": msg("1 EP lost"),
        "bp": msg("1 BP lost"),
        "sc": msg("safety car"),
    }[e]


def round_start(st, rng, ev, face, before: str) -> None:
    """Called once a round has begun (after the weather roll, `face`, None in the start rounds)."""
    if not on(st):
        return
    e = st["events"]
    if SP.get(st, "event_after_start") and st["round"] == START_ROUNDS + 1:
        e["due"] += 1  # China: the first card at the end of the third start round
    if face == "!":
        p = roll(rng, "purple")
        often = st["options"].get("events_often") and p == 3  # 9: a 3 counts as "!" too
        log(st, ev, msg("The leader rolls the purple die for an event: {f}.", f=str(p)))
        if p == "!" or often:
            e["due"] += 1
    weather_moved(st, before)
    run(st, rng, ev)


def weather_moved(st: dict, before: str) -> None:
    """Spain: each time light rain begins, a card (reading: any change into light rain, from dry
    weather or from heavy rain). Cards due under the safety car come at the next round's start."""
    if on(st) and SP.get(st, "event_on_light_rain"):
        now = R.weather_now(st["weather"], circuits()[st["circuit"]])
        if now == "light" and before != "light":
            st["events"]["due"] += 1


def run(st, rng, ev) -> None:
    e = st["events"]
    guard = 0
    while e["due"] > 0 and guard < 20:
        e["due"] -= 1
        guard += 1
        reveal(st, rng, ev)
    e["due"] = 0


def _draw(st, rng, ev) -> str | None:
    e = st["events"]
    if not e["deck"]:
        if not e["discard"]:
            return None
        e["deck"], e["discard"] = e["discard"], []
        rng.shuffle(e["deck"])
        log(st, ev, msg("The event deck is shuffled again."))
    cid = e["deck"].pop(0)
    e["discard"].append(cid)
    return cid


def target(st, rng, ev) -> int | None:
    """9: every player rolls the black die, the lowest takes the event; ties roll again."""
    cand = [s for s in running(st) if not st["cars"][s].get("bot")]
    while len(cand) > 1:
        rolls = {s: roll(rng, "black") for s in cand}
        log(st, ev, msg("Event rolls: {rolls}.", rolls=[msg("{p} {r}", p=car_name(st, s), r=rolls[s]) for s in cand]))
        low = min(rolls.values())
        cand = [s for s in cand if rolls[s] == low]
    return cand[0] if cand else None


def reveal(st, rng, ev, redraw: int = 0) -> None:
    c = circuits()[st["circuit"]]
    cid = _draw(st, rng, ev)
    if cid is None:
        return
    cd = card(cid)
    e = st["events"]
    e["last"] = {"card": cid, "round": st["round"], "seat": None}
    log(st, ev, msg("Event: {what}.", what=name(cid)))
    before = R.weather_now(st["weather"], c)
    gb = SP.get(st, "event_weather", 0)
    if gb:  # Great Britain: every new event moves weather token B on 2 spaces
        for _ in range(gb):
            st["weather"], _ = R.weather_advance(st["weather"], c.weather_b)
        log(
            st,
            ev,
            msg(
                "Great Britain: the weather moves on {n} spaces; weather {w}.",
                n=gb,
                w=weather_name(R.weather_now(st["weather"], c)),
            ),
        )
    eff = cd["effect"]
    if eff == "weather":  # token B moves on; the new weather applies at once
        for _ in range(cd["steps"]):
            st["weather"], _ = R.weather_advance(st["weather"], c.weather_b)
        log(st, ev, msg("The weather is now {w}.", w=weather_name(R.weather_now(st["weather"], c))))
    elif eff == "sc":
        if not st["options"].get("safety_car"):  # 9: without the SC rule, a second card is drawn
            log(st, ev, msg("No safety car in this race: another card is drawn."))
            weather_moved(st, before)
            if redraw < 9:
                reveal(st, rng, ev, redraw + 1)
            return
        if not st.get("sc_due"):
            st["sc_due"] = {"causers": []}  # 10.2 (B): nobody caused it
    else:
        seat = target(st, rng, ev)
        if seat is None:
            log(st, ev, msg("No player can take the event: it is discarded."))
        else:
            e["last"]["seat"] = seat
            _hit(st, ev, seat, eff)
    weather_moved(st, before)


def _hit(st, ev, seat: int, eff: str) -> None:
    car = st["cars"][seat]
    p = car_name(st, seat)
    if eff in ("light", "heavy"):
        if V.immune_to_breakdown_events(st, seat):
            log(st, ev, msg("{p} is not affected by breakdown events: the card is discarded.", p=p))
            return
        if eff == "light" and SP.get(st, "light_events_heavy"):
            log(st, ev, msg("Monaco: the light breakdown becomes a heavy one."))
            eff = "heavy"
        V.breakdown(st, ev, seat, eff)
        return
    if car[eff] <= 0:
        if V.instead_of_retiring(st, ev, seat):
            return
        car["out"] = "event"
        log(
            st,
            ev,
            msg("{p} has no {what} left to lose and retires.", p=p, what=msg("EP") if eff == "ep" else msg("BP")),
        )
        return
    car[eff] -= 1
    log(st, ev, msg("{p} loses 1 {what}.", p=p, what=msg("EP") if eff == "ep" else msg("BP")))


def view(st: dict) -> dict | None:
    """What the table sees: the last card revealed (and whom it hit), the discard pile (face up)
    and how many cards are left; never the deck's order."""
    if not on(st):
        return None
    e = st["events"]
    return {"last": dict(e["last"]) if e["last"] else None, "discard": list(e["discard"]), "left": len(e["deck"])}
