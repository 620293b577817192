"""Pole Position content: dice, tables and the eight circuits, loaded once from data/pole and
validated. The circuit JSON is compact (segments); this module expands it into rows and cells.

Track model: a lap is a sequence of rows 0..R-1 (row 0 is the first row after the finish line).
A row has 1-3 cells, lanes 0 (left in the direction of the race), 1 (centre) and 2 (right); a
narrowing drops lanes. Every row belongs to a straight or a corner; a corner's double-arrow cell
is one cell on the last row of the straight before it, its shaded cells are its racing line.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[3] / "data" / "pole"
TYRES = ("soft", "hard", "inter", "wet")
WEATHERS = ("dry", "light", "heavy")
WEATHER_CODE = {"D": "dry", "L": "light", "H": "heavy"}


def _check(cond: bool, what: str) -> None:
    if not cond:
        raise ValueError(f"data/pole: {what}")


@dataclass(frozen=True)
class Corner:
    index: int
    first: int  # first row of the corner
    last: int  # last row (the row of the last shaded cell)
    technical: bool
    turn: int  # +1 right, -1 left
    arrow: tuple[int, int]  # (row, lane) of the double-arrow cell
    line: tuple[tuple[int, int], ...]  # shaded cells (row, lane), in race order
    outer: int  # the outermost lane of the corner


@dataclass(frozen=True)
class Row:
    index: int
    lanes: tuple[int, ...]
    corner: int  # corner index, or -1 on a straight
    brown: bool  # a brown dashed subdivision: a row on lap 1 only


@dataclass(frozen=True)
class Circuit:
    key: str
    name: str
    laps: int
    rows: tuple[Row, ...]
    corners: tuple[Corner, ...]
    grid: tuple[tuple[int, int], ...]  # grid slot (pole first) -> (row, lane)
    pit_side: int  # the lane the pit lane branches from and rejoins
    pit_entry_row: int  # the track row whose cell in pit_side leads into the pit lane
    pit_entry_cells: int  # entry cells counted in any weather
    pit_entry_rain: int  # extra entry cells (blue dashes) counted only in rain
    pit_exit_cells: int
    pit_exit_rain: int
    pit_merge_row: int  # the exit lane rejoins the track on this row, lane pit_side
    drs_row: int
    sc_row: int
    low_grip: frozenset  # (row, lane)
    weather_a: tuple[str, ...]  # 36 cells, row-major, values in WEATHERS
    weather_b: int  # spaces in grid B (5 or 6)
    points: tuple[tuple[float, float, float], ...]  # per row: centre x, y (0..1000) and heading

    @property
    def length(self) -> int:
        return len(self.rows)

    def corner_at(self, row: int) -> Corner | None:
        c = self.rows[row % self.length].corner
        return self.corners[c] if c >= 0 else None

    def shaded(self, row: int, lane: int) -> Corner | None:
        c = self.corner_at(row)
        if c is not None and (row, lane) in c.line:
            return c
        return None


def _geometry(segments: list[dict], direction: int) -> list[tuple[float, float, float]]:
    """Row centres by turtle drawing (straight rows 1 unit, corner rows 0.75, turning by the row's
    angle), the closure error spread over the lap, scaled into a 1000 x 640 box."""
    pts, x, y, h = [], 0.0, 0.0, 0.0
    for s in segments:
        if s["kind"] == "straight":
            for _ in range(s["rows"]):
                pts.append((x, y, h))
                x += math.cos(math.radians(h))
                y += math.sin(math.radians(h))
        else:
            for a in s["angles"]:
                h += a / 2
                pts.append((x, y, h))
                x += 0.75 * math.cos(math.radians(h))
                y += 0.75 * math.sin(math.radians(h))
                h += a / 2
    n = len(pts)
    ex, ey = x, y  # where the loop should have closed (0, 0)
    pts = [(px - ex * i / n, py - ey * i / n, ph) for i, (px, py, ph) in enumerate(pts)]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    w, hgt = max(xs) - min(xs) or 1, max(ys) - min(ys) or 1
    k = min(880 / w, 520 / hgt)
    ox = 60 + (880 - w * k) / 2 - min(xs) * k
    oy = 60 + (520 - hgt * k) / 2 - min(ys) * k
    return [(ox + px * k, oy + py * k, ph) for px, py, ph in pts]


def _circuit(key: str, c: dict) -> Circuit:
    rows: list[Row] = []
    corners: list[Corner] = []
    brown = set(c["brown_rows"])
    segs = c["segments"]
    _check(segs[0]["kind"] == "straight" and segs[-1]["kind"] == "straight", f"{key}: ends on straights")
    for s in segs:
        lanes = tuple(s["lanes"])
        _check(lanes in ((0, 1, 2), (0, 1), (1,)), f"{key}: lanes {lanes}")
        _check(s["rows"] >= 1, f"{key}: rows")
        start = len(rows)
        if s["kind"] == "corner":
            _check(bool(rows) and rows[-1].corner == -1, f"{key}: corner {len(corners)} needs a straight row before it")
            ci = len(corners)
            n = s["rows"]
            _check(len(s["angles"]) == n, f"{key}: corner {ci} angles")
            line = tuple((start + o, ln) for o, ln in s["line"])
            _check(all(0 <= o < n and ln in lanes for o, ln in s["line"]), f"{key}: corner {ci} line cells")
            _check([o for o, _ in s["line"]] == sorted({o for o, _ in s["line"]}), f"{key}: corner {ci} line order")
            _check(s["line"][-1][0] == n - 1, f"{key}: corner {ci} ends on its last shaded row")
            arrow = (start - 1, s["arrow_lane"])
            _check(arrow[1] in rows[-1].lanes, f"{key}: corner {ci} arrow cell")
            turn = 1 if (sum(s["angles"]) > 0 or (sum(s["angles"]) == 0 and s["angles"][0] > 0)) else -1
            outer = lanes[0] if turn > 0 else lanes[-1]
            corners.append(Corner(ci, start, start + n - 1, bool(s["technical"]), turn, arrow, line, outer))
            rows.extend(Row(start + i, lanes, ci, False) for i in range(n))
        else:
            _check(s["kind"] == "straight", f"{key}: kind")
            rows.extend(Row(start + i, lanes, -1, (start + i) in brown) for i in range(s["rows"]))
    n = len(rows)
    _check(40 <= n <= 120, f"{key}: lap length {n}")
    _check(all(not rows[b].brown or rows[b].corner == -1 for b in brown), f"{key}: brown rows on the straight")
    grid = tuple((int(r), int(ln)) for r, ln in c["grid"])
    _check(len(grid) == 6 and len(set(grid)) == 6 and all(ln in rows[r].lanes for r, ln in grid), f"{key}: grid")
    _check(grid == tuple(sorted(grid, key=lambda g: -g[0])), f"{key}: grid slots run back from pole")
    p = c["pit"]
    side = int(p["side"])
    _check(side in (0, 2), f"{key}: pit side")
    er, mr = int(p["entry_row"]), int(p["merge_row"])
    _check(0 <= er < n and 0 <= mr < n, f"{key}: pit rows")
    _check(rows[er].corner == -1 and side in rows[er].lanes and er > n // 2, f"{key}: pit entry row")
    _check(rows[mr].corner == -1 and side in rows[mr].lanes and 0 < mr < n // 3, f"{key}: pit merge row")
    _check(all(rows[r].corner == -1 for r in range(er, n)), f"{key}: the pit lane runs beside the last straight")
    wa = tuple(WEATHER_CODE[ch] for line in c["weather_a"] for ch in line)
    _check(len(c["weather_a"]) == 6 and all(len(line) == 6 for line in c["weather_a"]), f"{key}: weather grid A 6x6")
    _check(int(c["weather_b"]) in (5, 6), f"{key}: weather grid B")
    lg = frozenset((int(r), int(ln)) for r, ln in c["low_grip"])
    _check(all(ln in rows[r].lanes for r, ln in lg), f"{key}: low-grip cells")
    _check(c["direction"] in ("clockwise", "anticlockwise"), f"{key}: direction")
    _check(0 <= int(c["drs_row"]) < n and 0 <= int(c["sc_row"]) < n, f"{key}: DRS/SC rows")
    pts = _geometry(segs, 1 if c["direction"] == "clockwise" else -1)
    return Circuit(
        key,
        c["name"],
        int(c["laps"]),
        tuple(rows),
        tuple(corners),
        grid,
        side,
        er,
        int(p["entry_cells"]),
        int(p["entry_rain_cells"]),
        int(p["exit_cells"]),
        int(p["exit_rain_cells"]),
        mr,
        int(c["drs_row"]),
        int(c["sc_row"]),
        lg,
        wa,
        int(c["weather_b"]),
        tuple(pts),
    )


CIRCUIT_KEYS = ("great_britain", "monaco", "brazil", "china", "spain", "usa", "italy", "germany")


class _Circuits(dict):
    """The eight circuits; "<key>@long" is the same circuit with twice its laps (the long race,
    seed 16.2), made on first use."""

    def __missing__(self, key: str) -> Circuit:
        base, sep, variant = str(key).partition("@")
        if not sep or variant != "long" or base not in self:
            raise KeyError(key)
        from dataclasses import replace

        c = replace(self[base], laps=self[base].laps * 2)
        self[key] = c
        return c

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def __iter__(self):  # only the eight circuits, in the seed's order
        return iter([k for k in dict.__iter__(self) if "@" not in k])

    def values(self):
        return [self[k] for k in self]

    def items(self):
        return [(k, self[k]) for k in self]


@lru_cache(maxsize=1)
def circuits() -> dict[str, Circuit]:
    raw = json.loads((DATA_DIR / "circuits.json").read_text("utf-8"))
    out = _Circuits((k, _circuit(k, c)) for k, c in raw["circuits"].items())
    _check(tuple(out) == CIRCUIT_KEYS, "the eight circuits of the seed, in its order")
    return out


def circuit_from(key: str, raw: dict) -> Circuit:
    """A circuit from a raw dict (tests build small ones for the seed's worked examples)."""
    return _circuit(key, raw)


@lru_cache(maxsize=1)
def rules() -> dict:
    r = json.loads((DATA_DIR / "rules.json").read_text("utf-8"))
    _check(r["start_points"] == {"ep": 7, "bp": 7, "sp": 9}, "start points 7/7/9 (seed 2.7)")
    _check(tuple(r["tyres"]) == TYRES, "tyres")
    _check(r["tyres"]["hard"]["life"] == 4 and r["tyres"]["soft"]["life"] == 2, "lifespans (seed 6)")
    for t in TYRES:
        faces = r["dice"][r["tyres"][t]["die"]]
        _check(len(faces) == 6 and all(isinstance(f, int) and f > 0 for f in faces), f"die of {t}")
    _check(r["wear"]["dry"]["inter"] == 2, "dry inter wear 2 (seed 6.2)")
    _check(all(set(r["wear"][w]) == set(TYRES) for w in WEATHERS), "wear table")
    co = r["course_out"]
    _check(co["light"]["soft"] == 9 and co["light"]["hard"] == 8 and co["heavy"]["hard"] == 7, "course-out (seed 4.6)")
    _check(r["low_grip"]["light"]["soft"] == 8, "low grip: soft/light 8 is checked, 7 is not (seed 4.6 ex. 4)")
    _check(len(r["dice"]["purple"]) == 6 and "!" in r["dice"]["purple"], "purple die")
    _check(sorted(set(r["dice"]["weather"])) == ["!", "cloud", "sun"], "weather die")
    return r


@lru_cache(maxsize=1)
def bot_cards() -> dict:
    """The six bot cards (two sides each), seed 17; numbers designed where the cards are not public."""
    b = json.loads((DATA_DIR / "bots.json").read_text("utf-8"))
    _check(len(b["cards"]) == 6, "six bot cards (seed 17)")
    for side in ("A", "B"):
        for w in ("dry", "rain"):
            tr = b["tracks"][side][w]
            _check(len(tr) == 7 and tr == sorted(tr) and tr[0] == 0, f"bot track {side} {w}")
    _check(b["tracks"]["A"]["dry"][2] == 1 and b["tracks"]["A"]["rain"][2] == 0, "17.5.2 example: +1 dry, +0 rain at 2")
    _check(b["tracks"]["B"]["dry"][2] == 1 and b["tracks"]["B"]["rain"][2] == 0, "17.5.2 example: +1 dry, +0 rain at 2")
    for card in b["cards"]:
        for side in ("A", "B"):
            s = card[side]
            _check(set(s["speed"]) == set(TYRES) and all(5 <= v <= 13 for v in s["speed"].values()), "bot speeds")
            _check(len(s["quali"]) == 3 and all(1 <= q <= 5 for q in s["quali"]), "bot qualifying values")
            _check(1 <= s["overtake"] <= 6, "bot overtaking value")
    green = next(c for c in b["cards"] if c["colour"] == "green")
    _check(green["A"]["speed"]["hard"] == 10 and green["B"]["speed"]["hard"] == 10, "17.5.2: green on hard: 10")
    blue = next(c for c in b["cards"] if c["colour"] == "blue")
    _check(blue["B"]["quali"][0] == 1, "17.3.1 example: the blue bot's qualifying value is 1")
    _check(b["rain_cells"] == {"light": 8, "heavy": 7}, "17.11: 8 cells in light rain, 7 in heavy")
    co = b["course_out"]
    _check(
        co["light"] == {"hard": 6, "soft": 5, "inter": 1, "wet": 1}
        and co["heavy"] == {"hard": 7, "soft": 6, "inter": 4, "wet": 1},
        "17.11 table",
    )
    return b
