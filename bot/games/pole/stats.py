"""Pole Position's end-of-game statistics (issue #35): overtakes, position fights won, pit stops, SP,
EP and BP spent, laps led. The players' cars only (bots are no seats). Overtakes, fights and pit
stops from the replayed game's public lines (a turn's line carries its parts); points spent and
laps led from the states: every drop of a car's SP, EP and BP, and each lap a car completes while
it leads the race order."""

from __future__ import annotations

from typing import Any

from bot.games.base import Engine, State
from bot.games.stats import Step, public, row, seat_in, tally
from bot.i18n import msg

OVERTAKES = "{a} overtakes {d}."
HOLDS = "{d} holds the position."
FIGHTS = (
    "Position fight {a} vs {d}: purple dice {x} and {y}.",
    "Position fight {a} vs {d}: {b} has overtaking value {v}, {h} rolls {r}.",
    "Position fight {a} vs {d}: black dice {ra} and {rd}.",
    "{a} {at} against {d} {dt}: {a} bids {ba}, {d} bids {bd}.",
)
PITS = ("{p} pits ({g} MP kept).", "{p} pits under the safety car and fits {t} tyres.")
POINTS = ("sp", "ep", "bp")


def compute(engine: Engine, first: State, steps: list[Step]) -> dict[str, Any]:
    seats = sum(1 for car in first["cars"] if not car.get("bot"))
    final = steps[-1][3] if steps else first
    fights, won = [0] * seats, [0] * seats
    fight: tuple[int | None, int | None] | None = None  # the fight under way: (attacker, defender)
    for text in public(steps):
        a, d = seat_in(text.params.get("a")), seat_in(text.params.get("d"))
        if text.key in FIGHTS:
            fight = (a, d)
            for s in {x for x in (a, d) if x is not None}:
                if s < seats:
                    fights[s] += 1
        elif text.key == OVERTAKES and fight is not None and fight == (a, d):
            if a is not None and a < seats:
                won[a] += 1
            fight = None
        elif text.key == HOLDS and fight is not None and fight[1] == d:
            if d is not None and d < seats:
                won[d] += 1
            fight = None
    spent = {k: [0] * seats for k in POINTS}
    led = [0] * seats
    for before, _, _, after, _ in steps:
        for s in range(seats):
            old, new = before["cars"][s], after["cars"][s]
            for k in POINTS:
                spent[k][s] += max(0, (old.get(k) or 0) - (new.get(k) or 0))
            if (new.get("laps") or 0) > (old.get("laps") or 0) and after["order"] and after["order"][0] == s:
                led[s] += 1
    ranked: list[int | None] = list(engine.placings(final) or [])
    places = (ranked or [None] * seats)[:seats]
    pits = [a + b for a, b in zip(*(tally(steps, seats, key, "p") for key in PITS))]
    return {
        "title": msg("Pole Position — statistics"),
        "rows": [
            {"label": msg("Final place"), "values": [p if p is not None else "—" for p in places], "best": "min"},
            row(msg("Overtakes"), tally(steps, seats, OVERTAKES, "a")),
            row(msg("Overtaken"), tally(steps, seats, OVERTAKES, "d"), best="min"),
            row(msg("Position fights"), fights, best=None),
            row(msg("Fights won"), won),
            row(msg("Pit stops"), pits, best=None),
            row(msg("SP spent"), spent["sp"], best=None),
            row(msg("EP spent"), spent["ep"], best=None),
            row(msg("BP spent"), spent["bp"], best=None),
            row(msg("Laps led"), led),
        ],
    }
