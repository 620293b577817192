"""Rallyman: DIRT's end-of-game statistics (issue #35): each stage's time, losses of control (and
how they ended), chips earned and spent. Stage times and chips from the states (a stage's time is
its time cards' seconds, added to the car's past when the next stage begins; chips are counted
as they go up and down), losses of control from the public lines."""

from __future__ import annotations

from typing import Any

from bot.games.base import Engine, State
from bot.games.stats import Step, places_row, row, tally
from bot.i18n import msg

SISU = "{p} loses control in gear {gear}... SISU! Saved: +{secs} s."
SPIN = "{p} loses control in gear {gear} and spins: +{secs} s."
CRASH = "{p} loses control in gear {gear} and crashes: +{secs} s, damage: {tokens}."


def compute(engine: Engine, first: State, steps: list[Step]) -> dict[str, Any]:
    seats = len(first["cars"])
    final = steps[-1][3] if steps else first
    legs = list(first["legs"])
    times = [[None] * len(legs) for _ in range(seats)]
    earned, spent = [0] * seats, [0] * seats
    for before, _, _, after, _ in steps:
        for s in range(seats):
            change = after["cars"][s]["chips"] - before["cars"][s]["chips"]
            earned[s] += max(0, change)
            spent[s] += max(0, -change)
            if after["leg"] != before["leg"]:
                times[s][before["leg"]] = after["cars"][s]["past"] - before["cars"][s]["past"]
    for s in range(seats):
        times[s][final["leg"]] = sum(card[1] for card in final["cars"][s]["cards"])
    sisu, spins, crashes = (tally(steps, seats, key, "p") for key in (SISU, SPIN, CRASH))
    totals = (final.get("result") or {}).get("totals") or [None] * seats
    rows = [places_row(engine, final, seats)]
    for i, leg in enumerate(legs):
        rows.append(
            row(
                leg,
                [times[s][i] if times[s][i] is not None else "—" for s in range(seats)],
                best="min",
                section=msg("Stage times (s)") if i == 0 else None,
            )
        )
    rows += [
        row(msg("Chips kept (s)"), [final["cars"][s]["chips"] for s in range(seats)], best=None),
        row(msg("Total time (s)"), [t if t is not None else "—" for t in totals], best="min"),
        row(
            msg("Losses of control"),
            [a + b + c for a, b, c in zip(sisu, spins, crashes)],
            best="min",
            section=msg("On the stage"),
        ),
        row(msg("Saved by SISU"), sisu, best=None),
        row(msg("Spins"), spins, best="min"),
        row(msg("Crashes"), crashes, best="min"),
        row(msg("Flat outs"), tally(steps, seats, "{p} goes flat out: {faces}.", "p"), best=None),
        row(msg("Chips earned (s)"), earned),
        row(msg("Chips spent (s)"), spent, best=None),
    ]
    return {"title": msg("Rallyman: DIRT — statistics"), "rows": rows}
