"""Custom setup (seed 002, section 13), a table option.

13.1 At the start, right after the weather is set (before qualifying), each player may move up to
2 points between engine and brake (8 EP and 6 BP, 9 EP and 5 BP, ...): a short step where every
player picks at once; the default keeps the dashboard as it is.
13.2 At every pit stop (under the safety car too), after the tyres: 1 BP for 1 EP or the other way.
Example: 1 BP and 5 EP, a stop, the swap: 2 BP and 4 EP. Bots have no dashboard points (17).
"""

from __future__ import annotations

from typing import Any

from bot.i18n import Msg, msg

SHIFTS = (0, 1, 2, -1, -2)  # EP gained (BP lost); 0 first: the default


def on(st: dict) -> bool:
    return bool(st["options"].get("custom_setup"))


def begin(st: dict) -> bool:
    """True when the game starts with the setup step (then qualifying waits for it)."""
    if not on(st):
        return False
    st["phase"] = "setup"
    st["setup"] = {}
    return True


def to_act(st: dict, human) -> list[int]:
    return [s for s in range(st["seats"]) if human(st, s) and str(s) not in st["setup"]]


def actions(st: dict, seat: int) -> list[dict[str, Any]]:
    car = st["cars"][seat]
    return [{"type": "setup", "ep": d} for d in SHIFTS if car["ep"] + d >= 0 and car["bp"] - d >= 0]


def choose(st: dict, seat: int, d: int) -> None:
    car = st["cars"][seat]
    st["setup"][str(seat)] = d
    car["ep"] += d
    car["bp"] -= d


def label(st: dict, seat: int, action: dict) -> Msg:
    car = st["cars"][seat]
    d = action["ep"]
    if d == 0:
        return msg("Keep {ep} EP and {bp} BP", ep=car["ep"], bp=car["bp"])
    return msg("{ep} EP and {bp} BP", ep=car["ep"] + d, bp=car["bp"] - d)


def pit_swaps(st: dict, seat: int, tyres: list[str], kind: str = "tyre") -> list[dict[str, Any]]:
    """13.2: the same tyre choices with a swap of 1 point each way (when the point is there)."""
    if not on(st):
        return []
    car = st["cars"][seat]
    out = []
    for sw in (1, -1):
        if (sw == 1 and car["bp"] >= 1) or (sw == -1 and car["ep"] >= 1):
            out += [{"type": kind, "tyre": t, "swap": sw} for t in tyres]
    return out


def pit_swap(car: dict, sw: int) -> None:
    if sw:
        car["ep"] += sw
        car["bp"] -= sw


def swap_label(sw: int) -> Msg:
    return msg("1 BP for 1 EP") if sw == 1 else msg("1 EP for 1 BP")
