"""Rallyman: DIRT stages as a graph of spaces, built from data/rallyman/{tiles,stages}.json.

A stage is a chain of hex tiles. Each tile's road is a sequence of segments (see
data/rallyman/convert.py): rows of two lanes (lane 0 = left, 1 = right, seen driving), slide rows,
full-width single spaces, and corners (an inner lane of few spaces with the lower limit, an outer
lane of more spaces with the higher limit, maybe a shortcut). Every space knows the spaces a die
may go to next (forward or diagonally forward: all spaces of the next segment's entry), and slide
spaces also the sideways step along the dotted line.

Geometry: flat-topped hexes of circumradius 1, axial q (east) and r (north); space centres are
placed along a curve from the entry edge's midpoint through the hex centre to the exit edge's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import bot.games.rallyman.generator as generator
from bot.games.rallyman.tiles import (
    DANGERS,
    DATA_DIR,
    EDGES,
    NEIGHBOUR,
    SQ3,
    DataError,
    Segment,
    Tile,
    check,
    direction,
    hex_centre,
    load_json,
    parse_segment,
    tiles,
)

__all__ = [
    "DANGERS",
    "DATA_DIR",
    "EDGES",
    "NEIGHBOUR",
    "Corner",
    "DataError",
    "Segment",
    "Space",
    "Stage",
    "Tile",
    "hex_centre",
    "is_stage",
    "parse_segment",
    "reachable",
    "stage",
    "stage_names",
    "tiles",
    "validate_all",
]


@dataclass
class Space:
    id: int
    tile: int  # index in the stage's road
    kind: str  # "row", "slide", "single", "inner", "outer", "shortcut"
    lane: int  # 0 left, 1 right; -1 for single/corner/shortcut spaces
    front: float  # how far along the stage its front edge is
    x: float
    y: float
    heading: float  # radians, direction of travel
    danger: str
    limit: int = 0  # 0 = no limit
    corner: int = -1  # corner index for inner/outer/shortcut spaces
    index: int = 0  # position within its corner lane / shortcut
    row: int = -1  # row index for row/slide spaces (two lanes share it)
    jump: int = 0
    water: bool = False
    shortcut: int = 0  # shortcut value on shortcut spaces
    inside: bool = False  # on the inside of the current or next corner
    start: bool = False  # a starting space (just behind the start line)
    finish: bool = False  # past the finish line (a car reaching it has finished)
    succ: list[int] = field(default_factory=list)  # forward / diagonally forward
    side: list[int] = field(default_factory=list)  # sideways along a slide's dotted line


@dataclass
class Corner:
    id: int
    tile: int
    turn: str
    inner: list[int]
    outer: list[int]
    shortcut: list[int]
    shortcut_value: int
    before: list[int]  # the slide (or other) spaces a shortcut is entered from


@dataclass
class Stage:
    key: str
    tiles: list[tuple[Tile, int, int, int, str, str]]  # (tile, q, r, rot, entry, exit)
    spaces: list[Space]
    corners: list[Corner]
    starts: list[int]
    length: float  # front of the finish spaces

    def beside(self, sid: int) -> int | None:
        s = self.spaces[sid]
        if s.row < 0:
            return None
        for o in self._rows[s.row]:
            if o != sid:
                return o
        return None

    def __post_init__(self) -> None:
        self._rows: dict[int, list[int]] = {}
        for s in self.spaces:
            if s.row >= 0:
                self._rows.setdefault(s.row, []).append(s.id)

    def row_spaces(self, row: int) -> list[int]:
        return self._rows.get(row, [])


@lru_cache(maxsize=1)
def stage_names() -> tuple[str, ...]:
    return tuple(load_json("stages.json")["stages"])


def is_stage(key: str) -> bool:
    return key in stage_names() or generator.parse(key) is not None


@lru_cache(maxsize=64)
def stage(key: str) -> Stage:
    raw = load_json("stages.json")["stages"]
    gen = generator.parse(key) if isinstance(key, str) else None
    check(key in raw or gen is not None, f"unknown stage {key!r}")
    tl = tiles()
    laid = raw[key]["road"] if key in raw or gen is None else generator.road(*gen)
    road = []
    for i, (tid, q, r, rot, ee) in enumerate(laid):
        check(tid in tl, f"{key}: tile {tid}")
        t = tl[tid]
        check(len(ee) == 2 and set(ee) == set(t.edges), f"{key}: tile {i} {tid} entry/exit {ee}")
        check(0 <= rot < 6, f"{key}: rotation")
        road.append((t, int(q), int(r), int(rot), ee[0], ee[1]))
    for i in range(len(road) - 1):  # consecutive tiles meet edge to edge
        t, q, r, rot, _, ex = road[i]
        t2, q2, r2, rot2, en2, _ = road[i + 1]
        w = (rot + EDGES.index(ex)) % 6
        check((q2 - q, r2 - r) == NEIGHBOUR[w], f"{key}: tile {i} exit does not lead to tile {i + 1}")
        check((rot2 + EDGES.index(en2)) % 6 == (w + 3) % 6, f"{key}: tile {i + 1} entry edge")
    return _build(key, road)


def _build(key: str, road: list) -> Stage:
    """The stage's spaces and corners, segment by segment along the road, then its start, finish
    and inside lanes."""
    flat = _segments(road)
    units_in_tile: dict[int, float] = {}
    for ti, s, _ in flat:
        units_in_tile[ti] = units_in_tile.get(ti, 0.0) + _units(s)
    builder = _Builder(road, units_in_tile)
    for ti, s, turn in flat:
        builder.add(ti, s, turn)
    return builder.stage(key)


def _segments(road: list) -> list[tuple[int, Segment, str]]:
    """(tile index, segment, turn) in driving order: a tile entered by its second edge is read
    backwards, its turns mirrored."""
    flat: list[tuple[int, Segment, str]] = []
    for ti, (t, q, r, rot, en, ex) in enumerate(road):
        seq = list(t.seq)
        turns = list(t.turns)
        if en != t.edges[0]:
            seq.reverse()
            turns = ["L" if c == "R" else "R" for c in reversed(turns)]
        k = 0
        for s in seq:
            if s.kind == "C":
                flat.append((ti, s, turns[k]))
                k += 1
            else:
                flat.append((ti, s, ""))
    return flat


class _Builder:
    """A stage's spaces laid segment by segment: geometry per tile (units of road in the tile,
    positions along a quadratic curve) and the links from each segment's exits to the next's
    entries."""

    def __init__(self, road: list, units_in_tile: dict[int, float]) -> None:
        self.road = road
        self.units_in_tile = units_in_tile
        self.spaces: list[Space] = []
        self.corners: list[Corner] = []
        self.last_entries: list[int] = []
        self.pending: list[int] = []  # spaces whose successors are the next segment's entry spaces
        self.last_unit: list[int] = []  # spaces of the previous row-like unit (shortcut sources)
        self.u = 0.0
        self.row_no = 0
        self.start_row: list[int] = []
        self.finish_next = False
        self.first_finish: list[int] = []
        self.tile_u: dict[int, float] = {}

    def place(self, ti: int, along: float, offset: float) -> tuple[float, float, float]:
        t, q, r, rot, en, ex = self.road[ti]
        cx, cy = hex_centre(q, r)
        ax, ay = direction(rot + EDGES.index(en))
        bx, by = direction(rot + EDGES.index(ex))
        h = SQ3 / 2
        p0 = (cx + ax * h, cy + ay * h)
        p2 = (cx + bx * h, cy + by * h)
        tt = along / max(self.units_in_tile[ti], 1e-9)
        mt = 1 - tt
        x = mt * mt * p0[0] + 2 * mt * tt * cx + tt * tt * p2[0]
        y = mt * mt * p0[1] + 2 * mt * tt * cy + tt * tt * p2[1]
        dx = 2 * mt * (cx - p0[0]) + 2 * tt * (p2[0] - cx)
        dy = 2 * mt * (cy - p0[1]) + 2 * tt * (p2[1] - cy)
        n = math.hypot(dx, dy) or 1.0
        dx, dy = dx / n, dy / n
        # left normal of the heading is (-dy, dx)
        return x - dy * offset, y + dx * offset, math.atan2(dy, dx)

    def new(self, ti: int, kind: str, lane: int, front: float, along: float, offset: float, **kw: Any) -> Space:
        x, y, hd = self.place(ti, along, offset)
        sp = Space(len(self.spaces), ti, kind, lane, front, x, y, hd, self.road[ti][0].danger, **kw)
        self.spaces.append(sp)
        return sp

    def add(self, ti: int, s: Segment, turn: str) -> None:
        """One segment: a line (start, finish), a row of two lanes, a single space or a corner."""
        base = self.tile_u.get(ti, 0.0)
        if s.kind == "S|":
            self.start_row = list(self.last_unit)
            return
        if s.kind == "F|":
            self.finish_next = True
            return
        if s.kind in ("r", "s"):
            entries = exits = self.row(ti, s, base)
        elif s.kind == "m":
            sp = self.new(ti, "single", -1, self.u + 1, base + 0.5, 0.0, limit=s.limit)
            entries = exits = [sp.id]
            self.u += 1
        else:
            entries, exits = self.corner(ti, s, turn, base)
        for p in self.pending:
            for e in entries:
                if e not in self.spaces[p].succ:
                    self.spaces[p].succ.append(e)
        self.last_entries = list(entries)
        if self.finish_next and not self.first_finish:
            self.first_finish = list(entries)
            for e in entries:
                self.spaces[e].finish = True
        self.pending = list(exits)
        self.last_unit = list(exits) if s.kind != "C" else []
        self.tile_u[ti] = base + _units(s)

    def row(self, ti: int, s: Segment, base: float) -> list[int]:
        """A row of two lanes (a slide row: each lane also steps sideways to the other)."""
        ids = []
        for lane in (0, 1):
            sp = self.new(
                ti,
                "row" if s.kind == "r" else "slide",
                lane,
                self.u + 1,
                base + 0.5,
                0.22 if lane == 0 else -0.22,
                row=self.row_no,
                jump=s.jump,
                water=s.water,
            )
            ids.append(sp.id)
        if s.kind == "s":
            self.spaces[ids[0]].side.append(ids[1])
            self.spaces[ids[1]].side.append(ids[0])
        self.row_no += 1
        self.u += 1
        return ids

    def corner(self, ti: int, s: Segment, turn: str, base: float) -> tuple[list[int], list[int]]:
        """A corner's outer and inner lanes and shortcut; its entries and exits."""
        u, spaces = self.u, self.spaces
        cid = len(self.corners)
        sign = -1.0 if turn == "R" else 1.0  # offset toward the inside of the turn
        outer, inner, short = [], [], []
        for k in range(s.outer):
            outer.append(
                self.new(
                    ti, "outer", -1, u + k + 1, base + k + 0.5, -sign * 0.25, limit=s.outer_limit, corner=cid, index=k
                ).id
            )
        for k in range(s.inner):
            f = (k + 1) * s.outer / s.inner
            inner.append(
                self.new(
                    ti,
                    "inner",
                    -1,
                    u + f,
                    base + f - s.outer / s.inner / 2,
                    sign * 0.2,
                    limit=s.inner_limit,
                    corner=cid,
                    index=k,
                    inside=True,
                ).id
            )
        for k in range(s.shortcut_len if s.shortcut else 0):
            f = (k + 1) * s.outer / s.shortcut_len
            short.append(
                self.new(
                    ti,
                    "shortcut",
                    -1,
                    u + f,
                    base + f - s.outer / s.shortcut_len / 2,
                    sign * 0.55,
                    corner=cid,
                    index=k,
                    shortcut=s.shortcut,
                    inside=True,
                ).id
            )
        for lane in (outer, inner, short):
            for a, b in zip(lane, lane[1:]):
                spaces[a].succ.append(b)
        if short:
            for p in self.last_unit:
                spaces[p].succ.append(short[0])
        self.corners.append(Corner(cid, ti, turn, inner, outer, short, s.shortcut, list(self.last_unit)))
        self.u += s.outer
        return [inner[0], outer[0]], [inner[-1], outer[-1]] + ([short[-1]] if short else [])

    def stage(self, key: str) -> Stage:
        """The stage once every segment is laid: its finish, start spaces and inside lanes."""
        spaces, corners = self.spaces, self.corners
        check(bool(self.start_row), f"{key}: no start line")
        first_finish = self.first_finish
        if not first_finish:
            # designed: a stage without a finish tile (IceTrack1 SS1) finishes on its last row
            first_finish = self.last_entries
            for e in first_finish:
                spaces[e].finish = True
        # nothing moves on from the finish; spaces past the first finish row are dropped from play
        limit_front = max(spaces[i].front for i in first_finish)
        for sp in spaces:
            if sp.finish:
                sp.succ = []
            sp.succ = [n for n in sp.succ if spaces[n].front <= limit_front]
        for i in self.start_row:
            spaces[i].start = True
        # inside lane of the current or next corner (the last corner after the last one)
        for sp in spaces:
            if sp.lane < 0:
                continue
            nxt = [c for c in corners if spaces[c.outer[0]].front > sp.front - 1e-9]
            c = nxt[0] if nxt else (corners[-1] if corners else None)
            if c is not None:
                sp.inside = (sp.lane == 1) == (c.turn == "R")
        return Stage(key, self.road, spaces, corners, sorted(self.start_row), limit_front)


def _units(s: Segment) -> float:
    if s.kind in ("r", "s", "m"):
        return 1.0
    if s.kind == "C":
        return float(s.outer)
    return 0.0


def reachable(st: Stage, froms: list[int]) -> set[int]:
    seen = set(froms)
    todo = list(froms)
    while todo:
        a = todo.pop()
        for b in st.spaces[a].succ + st.spaces[a].side:
            if b not in seen:
                seen.add(b)
                todo.append(b)
    return seen


def validate_all() -> None:
    for name in stage_names():
        st = stage(name)
        reach = reachable(st, st.starts)
        check(any(st.spaces[i].finish for i in reach), f"{name}: finish not reachable")
