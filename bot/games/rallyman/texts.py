"""Rallyman: DIRT's words for dice, places, plans and preferences, as `Msg`s a player can match
with the board image (the engine's labels, log lines and menus share them)."""

from __future__ import annotations

from typing import Any

import bot.games.rallyman.board as B
from bot.i18n import Msg, msg


def pct(p: float) -> str:
    """A chance as players read it: whole percents, "<1%" for a small one that is not zero."""
    return f"{p * 100:.0f}%" if p >= 0.01 or p == 0 else "<1%"


def die_msg(step: list) -> Msg:
    """The die of a plan step: coast, gear N or gear N + brake."""
    die = step[0]
    if die == "c":
        return msg("coast")
    if die.endswith("b"):
        return msg("gear {g} + brake", g=int(die[1:-1]))
    return msg("gear {g}", g=int(die[1:]))


def where(st: B.Stage, frm: int | None, step: list) -> Msg:
    """Where a die goes, in words a player can match with the image."""
    to = st.spaces[step[1]]
    if step[3] in ("eq", "p1", "p2"):
        return msg("jump, landing {lane}", lane=end_where(st, step[1]))
    if to.kind == "shortcut":
        return msg("shortcut")
    if to.kind == "inner":
        return msg("inside lane of the corner")
    if to.kind == "outer":
        return msg("outside lane of the corner")
    if to.kind == "single":
        return msg("ahead")
    f = st.spaces[frm] if frm is not None else None
    if f is not None and step[1] in f.side:
        return msg("slide sideways")
    side = msg("left") if to.lane == 0 else msg("right")
    if f is None or f.lane < 0 or f.lane == to.lane:
        return msg("ahead, {side} lane", side=side)
    return msg("diagonally, {side} lane", side=side)


def end_where(st: B.Stage, sid: int) -> Msg:
    """The lane a move ends in: inside, outside, shortcut, left, right or ahead."""
    sp = st.spaces[sid]
    if sp.kind == "inner":
        return msg("inside")
    if sp.kind == "outer":
        return msg("outside")
    if sp.kind == "shortcut":
        return msg("shortcut")
    if sp.lane == 0:
        return msg("left")
    if sp.lane == 1:
        return msg("right")
    return msg("ahead")


def crash_msg(state: dict, st: B.Stage, seat: int, code: str, dmg: tuple) -> Msg:
    """A re-placing after a flat out's three "!": how far, where, in which gear, how much damage."""
    sid = int(code.split(":")[-2])
    gain = st.spaces[sid].front - st.spaces[state["cars"][seat]["sp"]].front
    return msg(
        "+{spaces} ({where}) in gear {gear}: {n} damage tokens",
        spaces=f"{gain:g}",
        where=end_where(st, sid),
        gear=dmg[2],
        n=dmg[0],
    )


def plan_msg(state: dict, st: B.Stage, seat: int, steps: list[list], risk: float) -> Msg:
    """A whole plan: its dice, how far it goes and where, the gear it ends in, its risk."""
    start = st.spaces[state["cars"][seat]["sp"]].front
    last = steps[-1]
    gain = st.spaces[last[1]].front - start
    dice = " ".join("C" if s[0] == "c" else s[0][1:-1] + "B" if s[0].endswith("b") else s[0][1:] for s in steps)
    return msg(
        "{dice} → +{spaces} ({where}), gear {gear}, risk {risk}",
        dice=dice,
        spaces=f"{gain:g}",
        where=end_where(st, last[1]),
        gear=last[2],
        risk=pct(risk),
    )


def pref_label(key: str, value: Any) -> Msg:
    """A standing preference and its value, as its button shows it."""
    if key == "line":
        return msg("Risk line: {n}%", n=value)
    return {
        "line": msg("Dice: ask above the line"),
        "all": msg("Dice: roll the whole plan"),
        "ask": msg("Dice: ask before every die"),
    }[value]
