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

import bot.games.heat.rules as rules
from bot.games.heat.rules import CHOICES, GARAGE, KIND, PLAYABLE, SPEED
from bot.i18n import Msg, msg

MAX_PLANS = 25  # Discord's options in one select


def _known_speed(code: str) -> int | None:
    """A card's speed when it is fixed before the reveal, else None."""
    if KIND[code] == "stress" or code in CHOICES or GARAGE.get(code, {}).get("boost"):
        return None
    return SPEED[code]


# A card's speed when fixed before the reveal (_known_speed), 0 when it is not (the known part).
_KNOWN_SPEED = {code: _known_speed(code) or 0 for code in KIND}


def _move(st: dict, seat: int, ids: list[int], words: bool = True) -> tuple | None:
    """Where playing `ids` takes the car if nobody else moves: (known speed n, the spaces' words,
    start, end, Heat left after the shift, the track); None for a clogged hand."""
    car = st["cars"][seat]
    cards = st["cards"]
    if any(not PLAYABLE[cards[c]] for c in ids):
        return None
    speeds = [_known_speed(cards[c]) for c in ids]
    n = sum(s for s in speeds if s is not None)
    unknown = any(s is None for s in speeds)
    tr = rules.track_of(st)
    start = car["pos"]
    end, _ = rules.landing(st, tr, seat, start + n) if n > 0 else (start, car["lane"])
    heat = len(car["engine"]) - rules.shift_heat(st, car, len(ids))  # the shift pays first
    if not words:  # (the AI's quick judgement: no text)
        return n, None, start, end, heat, tr
    spaces = msg("{n}+? spaces", n=n) if unknown else msg("1 space") if n == 1 else msg("{n} spaces", n=n)
    return n, spaces, start, end, heat, tr


def reach(st: dict, seat: int, ids: list[int]) -> tuple[int, int, int] | None:
    """Where playing `ids` takes the car if nobody else moves, for a quick judgement (the AI's
    look-ahead): (spaces gained at known speed, corner Heat it costs, Heat left after the shift);
    None for a clogged hand. (_move's figures without its words, in one pass: the AI asks it for
    every submission it weighs.)"""
    car = st["cars"][seat]
    cards = st["cards"]
    n = 0
    for c in ids:
        code = cards[c]
        if not PLAYABLE[code]:
            return None
        n += _KNOWN_SPEED[code]
    tr = rules.track_of(st)
    start = car["pos"]
    end = rules.landing(st, tr, seat, start + n)[0] if n > 0 else start
    heat = len(car["engine"]) - rules.shift_heat(st, car, len(ids))  # the shift pays first
    cost = 0
    for _, idx, limit in rules.crossed_lines(tr, start, end):
        if n > limit:  # (_corner_heat)
            cost += n - limit + (1 if idx in tr.overheat else 0)
    return end - start, cost, heat


def summary(st: dict, seat: int, ids: list[int]) -> Msg | None:
    """The short form for a typed move's list (/heat play): the spaces and the corner Heat in
    all (or the spin), None for a clogged hand (its label says it already)."""
    move = _move(st, seat, ids)
    if move is None:
        return None
    n, spaces, start, end, heat, tr = move
    if end >= tr.finish:
        return msg("{spaces}: over the finish line", spaces=spaces)
    cost = sum(_corner_heat(tr, idx, limit, n) for _, idx, limit in rules.crossed_lines(tr, start, end))
    if cost > heat:
        return msg("{spaces}, corner Heat {cost}: spin!", spaces=spaces, cost=cost)
    if cost:
        return msg("{spaces}, corner Heat {cost}", spaces=spaces, cost=cost)
    return spaces


def preview(st: dict, seat: int, ids: list[int]) -> Msg:
    """What playing `ids` would do, in one line (the option's description)."""
    move = _move(st, seat, ids)
    if move is None:
        return msg("Clogged: the car does not move this round")
    n, spaces, start, end, heat, tr = move
    if end >= tr.finish:
        return msg("{spaces}: over the finish line", spaces=spaces)
    crossed = rules.crossed_lines(tr, start, end)
    if crossed:
        # Every corner the move crosses, each with its limit and Heat (at speed n, as the
        # corner checks will ask, an Overheat road token's +1 included), then the total.
        parts = []
        cost = 0
        for _, idx, limit in crossed:
            h = _corner_heat(tr, idx, limit, n)
            cost += h
            if len(crossed) > 2:  # (three corners in one move: no limits, so the line fits 100 characters)
                parts.append(msg("corner {c}: {h} Heat", c=idx + 1, h=h) if h else msg("corner {c}: OK", c=idx + 1))
            else:
                parts.append(
                    msg("corner {c} (limit {l}): {h} Heat", c=idx + 1, l=limit, h=h)
                    if h
                    else msg("corner {c} (limit {l}): OK", c=idx + 1, l=limit)
                )
        corners = parts
        if cost > heat and len(crossed) == 1:
            return msg("{spaces}; {corners}, you have {have}: spin!", spaces=spaces, corners=corners, have=max(heat, 0))
        if cost > heat:
            return msg(
                "{spaces}; {corners}; {cost} Heat, you have {have}: spin!",
                spaces=spaces,
                corners=corners,
                cost=cost,
                have=max(heat, 0),
            )
        if cost and len(crossed) > 1:
            return msg("{spaces}; {corners}; pay {cost} Heat", spaces=spaces, corners=corners, cost=cost)
        return msg("{spaces}; {corners}", spaces=spaces, corners=corners)
    ahead = bisect_left(tr.line_pos, end)
    if ahead < len(tr.lines):
        # A car on `line` has not crossed it: one more space does (never "in 0").
        line, idx, limit = tr.lines[ahead]
        d = line - end + 1
        if d == 1:
            return msg("{spaces}; corner {c} (limit {l}) 1 space ahead", spaces=spaces, c=idx + 1, l=limit)
        return msg("{spaces}; corner {c} (limit {l}) {d} spaces ahead", spaces=spaces, c=idx + 1, l=limit, d=d)
    return spaces


def _corner_heat(tr, idx: int, limit: int, speed: int) -> int:
    """One corner's Heat at this speed (an Overheat road token's +1 when over the limit)."""
    if speed <= limit:
        return 0
    return speed - limit + (1 if idx in tr.overheat else 0)


def plan_options(st: dict, seat: int, submissions: list[list[int]], label) -> list[dict[str, Any]]:
    """Select options for whole submissions: one per gear and distinct known speed (the first such
    submission in the engine's order stands for it), spread over the gears when there are more
    than a select holds. `label(ids)` names a submission."""
    cards = st["cards"]
    by_gear: dict[int, list[list[int]]] = {}
    seen = set()
    for ids in submissions:
        speeds = [_known_speed(cards[c]) for c in ids]
        key = (
            len(ids),
            sum(s or 0 for s in speeds),
            sum(s is None for s in speeds),
            any(not PLAYABLE[cards[c]] for c in ids),
        )
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
    return [
        {"label": label(ids), "value": ",".join(map(str, ids)), "description": preview(st, seat, ids)} for ids in chosen
    ]
