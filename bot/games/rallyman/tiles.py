"""Rallyman: DIRT's tiles, from data/rallyman/tiles.json: each tile's road as a sequence of
segments (see data/rallyman/convert.py), and the hex grid they are laid on (flat-topped hexes of
circumradius 1, axial q (east) and r (north)). board.py builds stages from them, generator.py
random roads."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[3] / "data" / "rallyman"
EDGES = "ABCDEF"
DANGERS = ("y", "o", "r")  # yellow, orange, red
SQ3 = math.sqrt(3.0)


class DataError(ValueError):
    """A data file of data/rallyman that does not hold what the game needs."""


def check(cond: bool, what: str) -> None:
    """A DataError naming `what` unless `cond` holds (the data files are checked as they load)."""
    if not cond:
        raise DataError(f"data/rallyman: {what}")


@dataclass(frozen=True)
class Segment:
    kind: str  # "r" row, "s" slide row, "m" single space, "C" corner, "S|"/"F|" line
    jump: int = 0
    water: bool = False
    limit: int = 0  # m: its limit
    outer: int = 0  # C: spaces and limits of the lanes
    outer_limit: int = 0
    inner: int = 0
    inner_limit: int = 0
    shortcut: int = 0  # C: shortcut value (0 = none)
    shortcut_len: int = 0


def parse_segment(tok: str) -> Segment:
    parts = tok.split()
    head = parts[0]
    if head in ("S|", "F|"):
        check(len(parts) == 1, f"segment {tok!r}")
        return Segment(head)
    if head in ("r", "s"):
        jump, water = 0, False
        for p in parts[1:]:
            if p == "w":
                water = True
            elif p[0] == "j" and p[1:].isdigit():
                jump = int(p[1:])
            else:
                raise DataError(f"data/rallyman: segment {tok!r}")
        check(0 <= jump <= 6, f"jump in {tok!r}")
        return Segment(head, jump=jump, water=water)
    if head[0] == "m":
        check(head[1:].isdigit() and len(parts) == 1, f"segment {tok!r}")
        return Segment("m", limit=int(head[1:]))
    if head == "C":
        vals: dict[str, tuple[int, int]] = {}
        for p in parts[1:]:
            k, v = p[0], p[1:]
            if k in "oi":
                n, lim = v.split("@")
                vals[k] = (int(n), int(lim))
            elif k == "x":
                n, _, ln = v.partition("*")
                vals[k] = (int(n), int(ln or 1))
            else:
                raise DataError(f"data/rallyman: segment {tok!r}")
        check("o" in vals and "i" in vals, f"corner lanes in {tok!r}")
        (o, ol), (i, il) = vals["o"], vals["i"]
        x, xl = vals.get("x", (0, 0))
        check(1 <= i <= o <= 4 and 1 <= il <= ol <= 6, f"corner values in {tok!r}")
        check(0 <= x <= 6 and 0 <= xl <= 2, f"shortcut in {tok!r}")
        return Segment("C", outer=o, outer_limit=ol, inner=i, inner_limit=il, shortcut=x, shortcut_len=xl)
    raise DataError(f"data/rallyman: segment {tok!r}")


@dataclass(frozen=True)
class Tile:
    key: str
    danger: str
    edges: str  # the two road edges, in the order of seq
    seq: tuple[Segment, ...]
    turns: str  # per corner: R or L, driving from edges[0] to edges[1]
    designed: bool
    terrain: str | None = None


def load_json(name: str) -> dict:
    """A JSON file of data/rallyman."""
    return json.loads((DATA_DIR / name).read_text("utf-8"))


@lru_cache(maxsize=1)
def tiles() -> dict[str, Tile]:
    """Every tile side by its key (\"210b\"), checked."""
    raw = load_json("tiles.json")["tiles"]
    out: dict[str, Tile] = {}
    for key, t in raw.items():
        check(t.get("d") in DANGERS, f"{key}: danger")
        e = t.get("e", "")
        check(len(e) == 2 and all(c in EDGES for c in e) and e[0] != e[1], f"{key}: edges")
        seq = tuple(parse_segment(s) for s in t["seq"])
        check(any(s.kind not in ("S|", "F|") for s in seq), f"{key}: no road")
        n_c = sum(1 for s in seq if s.kind == "C")
        turns = t.get("t", "")
        check(len(turns) == n_c and all(c in "RL" for c in turns), f"{key}: turns")
        check(t.get("src") in ("research", "designed"), f"{key}: src")
        check(t.get("terrain") in ("gravel", "asphalt", "snow", None), f"{key}: terrain")
        out[key] = Tile(key, t["d"], e, seq, turns, t["src"] == "designed", t.get("terrain"))
    return out


def direction(w: int) -> tuple[float, float]:
    """The unit vector of hex edge direction `w` (0 = north, clockwise)."""
    a = math.radians(90 - 60 * (w % 6))
    return math.cos(a), math.sin(a)


NEIGHBOUR = [(0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)]  # N NE SE S SW NW


def hex_centre(q: int, r: int) -> tuple[float, float]:
    """The centre of hex (q, r)."""
    return 1.5 * q, SQ3 * (r + q / 2)
