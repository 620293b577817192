"""Whole-plan choices for a Heat submission (issue #8: decide from the DM): each option is a set of
cards for a gear, with what it would do if nobody else moved: the spaces, the corner Heat (or the
next corner ahead), the shift's Heat, and a spin when the Engine cannot pay.

Only what the player can see goes in: their own hand, Engine and position, the printed track (with
the race's road tokens), where the other cars stand now. Cards whose speed is not known before
the reveal (Stress, an upgrade that flips cards or lets the bot pick a value) count as "+?".
"""
from __future__ import annotations

from bisect import bisect_left
from typing import Any

from bot.games.heat import rules
from bot.games.heat.rules import CHOICES, GARAGE, KIND, PLAYABLE, SPEED
from bot.i18n import Msg, msg

MAX_PLANS = 25  # Discord's options in one select


def _known_speed(code: str) -> int | None:
    """A card's speed when it is fixed before the reveal, else None."""
    if KIND[code] == "stress" or code in CHOICES or GARAGE.get(code, {}).get("boost"):
        return None
    return SPEED[code]


def preview(st: dict, seat: int, ids: list[int]) -> Msg:
    """What playing `ids` would do, in one line (the option's description)."""
    car = st["cars"][seat]
    cards = st["cards"]
    if any(not PLAYABLE[cards[c]] for c in ids):
        return msg("Clogged: the car does not move this round")
    speeds = [_known_speed(cards[c]) for c in ids]
    n = sum(s for s in speeds if s is not None)
    unknown = any(s is None for s in speeds)
    tr = rules.track_of(st)
    start = car["pos"]
    end, _ = rules.landing(st, tr, seat, start + n) if n > 0 else (start, car["lane"])
    heat = len(car["engine"]) - rules.shift_heat(st, car, len(ids))  # the shift pays first
    spaces = msg("{n}+? spaces", n=n) if unknown else msg("1 space") if n == 1 else msg("{n} spaces", n=n)
    if end >= tr.finish:
        return msg("{spaces}: over the finish line", spaces=spaces)
    crossed = rules.crossed_lines(tr, start, end)
    cost = rules.corner_cost(tr, start, end, n)
    if cost:
        limit = min(limit for _, _, limit in crossed)
        if cost > heat:
            return msg("{spaces}; corner limit {limit}: {cost} Heat, you have {have}: spin!", spaces=spaces,
                       limit=limit, cost=cost, have=max(heat, 0))
        return msg("{spaces}; corner limit {limit}: pay {cost} Heat", spaces=spaces, limit=limit, cost=cost)
    ahead = bisect_left(tr.line_pos, end)
    if crossed:
        return msg("{spaces}; corner taken within its limit", spaces=spaces)
    if ahead < len(tr.lines):
        line, _, limit = tr.lines[ahead]
        return msg("{spaces}; next corner in {d} (limit {limit})", spaces=spaces, d=line - end, limit=limit)
    return spaces


def plan_options(st: dict, seat: int, submissions: list[list[int]], label) -> list[dict[str, Any]]:
    """Select options for whole submissions: one per gear and distinct known speed (the first such
    submission in the engine's order stands for it), spread over the gears when there are more
    than a select holds. `label(ids)` names a submission."""
    cards = st["cards"]
    by_gear: dict[int, list[list[int]]] = {}
    seen = set()
    for ids in submissions:
        speeds = [_known_speed(cards[c]) for c in ids]
        key = (len(ids), sum(s or 0 for s in speeds), sum(s is None for s in speeds),
               any(not PLAYABLE[cards[c]] for c in ids))
        if key in seen:
            continue
        seen.add(key)
        by_gear.setdefault(len(ids), []).append(ids)
    for plans in by_gear.values():  # the fastest first within a gear
        plans.sort(key=lambda ids: -sum(_known_speed(cards[c]) or 0 for c in ids))
    chosen: list[list[int]] = []
    while len(chosen) < MAX_PLANS and any(by_gear.values()):  # round-robin over the gears
        for g in sorted(by_gear):
            if by_gear[g] and len(chosen) < MAX_PLANS:
                chosen.append(by_gear[g].pop(0))
    chosen.sort(key=lambda ids: (len(ids), -sum(_known_speed(cards[c]) or 0 for c in ids)))
    return [{"label": label(ids), "value": ",".join(map(str, ids)), "description": preview(st, seat, ids)}
            for ids in chosen]
