"""Steam Works' end-of-game statistics (issue #35): VP by source, devices built and borrowed. The
final score's parts (VP tokens, clocks, the prestige of one's devices) from the last state; VP
tokens split by how they came (one's own turns, or the owner's bonus when another player powers
one's device) from each step's change; devices from the public lines."""

from __future__ import annotations

from typing import Any

from bot.games.base import Engine, State
from bot.games.stats import Step, places_row, row, tally
from bot.i18n import msg

BUILDS = "{p} builds device {n}: {tiles}."
ADDS = "{p} adds {tile} to device {n}."
BORROWS = "{p} uses {owner}'s device {n}; {owner} gains a clock."
OWN = "{p} uses their own device {n}."


def compute(engine: Engine, first: State, steps: list[Step]) -> dict[str, Any]:
    seats = first["seats"]
    final = steps[-1][3] if steps else first
    mine, bonus = [0] * seats, [0] * seats  # VP tokens gained on one's own moves / from others' moves
    for before, seat, _, after, _ in steps:
        for s in range(seats):
            gained = after["players"][s]["vp"] - before["players"][s]["vp"]
            if gained > 0:
                (mine if s == seat else bonus)[s] += gained
    scores = {sc["seat"]: sc for sc in (final.get("final") or {}).get("scores") or []}
    part = lambda key: [scores[s][key] if s in scores else "—" for s in range(seats)]  # noqa: E731
    return {
        "title": msg("Steam Works — statistics"),
        "rows": [
            places_row(engine, final, seats),
            row(msg("Total VP"), part("total"), section=msg("VP by source")),
            row(msg("Prestige of your devices"), part("prestige")),
            row(msg("Clocks"), part("clocks")),
            row(msg("VP tokens, own turns"), mine),
            row(msg("VP tokens, owner bonus"), bonus),
            row(msg("Devices built"), tally(steps, seats, BUILDS, "p"), section=msg("Devices")),
            row(msg("Tiles added to devices"), tally(steps, seats, ADDS, "p")),
            row(msg("Own devices powered"), tally(steps, seats, OWN, "p"), best=None),
            row(msg("Devices borrowed"), tally(steps, seats, BORROWS, "p"), best=None),
            row(msg("Your devices borrowed"), tally(steps, seats, BORROWS, "owner")),
        ],
    }
