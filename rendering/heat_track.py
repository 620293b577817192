"""Heat circuits: drawing data, geometry on the canvas, and the cached static track layer.

The circuit files in data/heat/circuits/<key>.json hold, for every spot, [space, lane, x, y,
heading] on a ~1650x1100 board, plus the corners ([space before the corner line, speed limit]).
Everything here is computed once per circuit (functools cache); rendering/heat.py copies the
static layer and draws cars and panels on top.
"""

from __future__ import annotations

import json
import math
from typing import Any
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw

from rendering.common import font

CIRCUIT_DIR = Path(__file__).resolve().parent.parent / "data" / "heat" / "circuits"

CANVAS_W = 1280
TRACK_MARGIN = 76  # room around the circuit for name labels and speed signs
MAX_TRACK_H = 860
SS = 2  # supersampling factor for the static layer (drawn at 2x, then reduced: smooth edges)

FIELD = (36, 48, 42)  # infield: dark green-grey, so grey asphalt and bright cars stand out
KERB = (196, 200, 204)
ASPHALT = (78, 82, 88)
TILE = (104, 108, 116)
TILE_EDGE = (62, 65, 70)
FLOODED = (58, 104, 150)
TUNNEL = (60, 58, 66)
NUMBER = (168, 172, 180)
SIGN_RED = (214, 40, 40)
CHICANE_BLUE = (40, 110, 220)  # Heavy Rain: a chicane's corner lines have blue kerbs
WHITE = (250, 250, 250)
BLACK = (18, 18, 20)

ALIASES = {
    "italia": "italy",
    "uk": "gb",
    "great britain": "gb",
    "greatbritain": "gb",
    "great_britain": "gb",
    "britain": "gb",
    "us": "usa",
    "spain": "espana",
    "españa": "espana",
    "netherlands": "nederland",
    "holland": "nederland",
    "germany": "deutschland",
    "southafrica": "south_africa",
    "south africa": "south_africa",
}


@dataclass(frozen=True)
class Circuit:
    key: str
    name: str
    spaces: int
    laps: int
    corners: tuple[tuple[int, int], ...]
    cells: dict  # (space, lane) -> (x, y, heading_deg) in board units
    flooded: frozenset = frozenset()
    tunnel: frozenset = frozenset()
    chicanes: frozenset = frozenset()  # corner lines (space before the line) that belong to a chicane


def circuit_key(track: str) -> str:
    key = str(track or "").strip().lower()
    return ALIASES.get(key, key)


def resolve_key(*names: Any) -> str:
    """The first of `names` (track key, circuit name...) that has drawing data, else the first."""
    keys = [circuit_key(n) for n in names if n]
    for key in keys:
        if load_circuit(key) is not None:
            return key
    return keys[0] if keys else ""


@lru_cache(maxsize=16)
def load_circuit(key: str) -> Circuit | None:
    """The circuit drawn for a track key, or None when there is no drawing data for it."""
    path = CIRCUIT_DIR / f"{circuit_key(key)}.json"
    if not path.is_file():
        return None
    raw = json.loads(path.read_text("utf-8"))
    cells = {(s, lane): (float(x), float(y), float(a)) for s, lane, x, y, a in raw["cells"]}
    return Circuit(
        key=raw["key"],
        name=raw["name"],
        spaces=int(raw["spaces"]),
        laps=int(raw["laps"]),
        corners=tuple((int(s), int(v)) for s, v in raw["corners"]),
        cells=cells,
        flooded=frozenset(raw.get("flooded", ())),
        tunnel=frozenset(raw.get("tunnel", ())),
        chicanes=frozenset(raw.get("chicanes", ())),
    )


def oval_circuit(spaces: int) -> Circuit:
    """A stand-in circuit (a stadium oval) for a track without drawing data."""
    spaces = max(8, int(spaces))
    w, h, lat = 1400.0, 760.0, 36.0
    cells = {}
    for s in range(1, spaces + 1):
        t = 2 * math.pi * (s - 0.5) / spaces
        cx, cy = 825 + w / 2 * math.sin(t), 550 - h / 2 * math.cos(t)
        dx, dy = w / 2 * math.cos(t), h / 2 * math.sin(t)
        heading = math.degrees(math.atan2(dy, dx))
        nx, ny = -math.sin(math.radians(heading)), math.cos(math.radians(heading))
        # lane 1 on the outside, like the start straight of most boards
        cells[(s, 1)] = (cx - nx * lat / 2, cy - ny * lat / 2, heading)
        cells[(s, 2)] = (cx + nx * lat / 2, cy + ny * lat / 2, heading)
    return Circuit(key="", name="", spaces=spaces, laps=1, corners=(), cells=cells)


def _unit(dx: float, dy: float) -> tuple[float, float]:
    n = math.hypot(dx, dy) or 1.0
    return dx / n, dy / n


@dataclass
class Geometry:
    """A circuit placed on the canvas (track-area coordinates, 1x)."""

    circuit: Circuit
    width: int
    height: int
    scale: float
    spots: dict  # (space, lane) -> (x, y, heading_deg)
    centre: dict  # space -> (x, y)
    direction: dict  # space -> unit vector of travel
    half_width: float  # half the road width
    tile: tuple[float, float]  # spot length, spot width
    corners: tuple[tuple[int, int], ...]
    signs: list  # (x, y, speed)

    def spot(self, space: int, lane: int) -> tuple[float, float, float]:
        n = self.circuit.spaces
        space = (int(space) - 1) % n + 1
        lane = 2 if int(lane) == 2 else 1
        return self.spots[(space, lane)]

    def normal(self, space: int) -> tuple[float, float]:
        n = self.circuit.spaces
        dx, dy = self.direction[(int(space) - 1) % n + 1]
        return -dy, dx

    def boundary(self, space: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """Midpoint and travel direction of the line between `space` and the next space."""
        n = self.circuit.spaces
        a = self.centre[(space - 1) % n + 1]
        b = self.centre[space % n + 1]
        return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), _unit(b[0] - a[0], b[1] - a[1])


def _median(values: list[float]) -> float:
    values = sorted(values)
    return values[len(values) // 2]


def _percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def place(circuit: Circuit, corners: tuple[tuple[int, int], ...]) -> Geometry:
    xs = [c[0] for c in circuit.cells.values()]
    ys = [c[1] for c in circuit.cells.values()]
    bw, bh = max(xs) - min(xs), max(ys) - min(ys)
    avail_w = CANVAS_W - 2 * TRACK_MARGIN
    scale = min(avail_w / bw, (MAX_TRACK_H - 2 * TRACK_MARGIN) / bh)
    height = int(round(bh * scale + 2 * TRACK_MARGIN))
    ox = (CANVAS_W - bw * scale) / 2 - min(xs) * scale
    oy = TRACK_MARGIN - min(ys) * scale
    spots = {k: (x * scale + ox, y * scale + oy, a) for k, (x, y, a) in circuit.cells.items()}
    n = circuit.spaces
    centre, direction = {}, {}
    lat, lon = [], []
    for s in range(1, n + 1):
        (x1, y1, a1), (x2, y2, a2) = spots[(s, 1)], spots[(s, 2)]
        centre[s] = ((x1 + x2) / 2, (y1 + y2) / 2)
        lat.append(math.hypot(x2 - x1, y2 - y1))
        r1, r2 = math.radians(a1), math.radians(a2)
        direction[s] = _unit(math.cos(r1) + math.cos(r2), math.sin(r1) + math.sin(r2))
    for s in range(1, n + 1):
        a, b = centre[s], centre[s % n + 1]
        lon.append(math.hypot(b[0] - a[0], b[1] - a[1]))
    lat_m, lon_m = _median(lat), _median(lon)
    tile = (0.80 * lon_m, 0.82 * lat_m)
    half_width = _percentile(lat, 0.9) / 2 + tile[1] / 2 + 4
    geo = Geometry(
        circuit=circuit,
        width=CANVAS_W,
        height=height,
        scale=scale,
        spots=spots,
        centre=centre,
        direction=direction,
        half_width=half_width,
        tile=tile,
        corners=corners,
        signs=[],
    )
    geo.signs = _place_signs(geo)
    return geo


def _clearance(geo: Geometry, x: float, y: float, others: list) -> float:
    best = min(math.hypot(x - cx, y - cy) for cx, cy, _ in geo.spots.values())
    for ox, oy, *_ in others:
        best = min(best, math.hypot(x - ox, y - oy) - 20)
    return best


SIGN_R = 23


def _place_signs(geo: Geometry) -> list:
    """Put each corner's speed sign just off the road beside its corner line, on the side with
    the most free room (away from other parts of the circuit and from the other signs)."""
    signs: list = []
    for space, speed in geo.corners:
        if not 1 <= space <= geo.circuit.spaces:
            continue
        (mx, my), (dx, dy) = geo.boundary(space)
        nx, ny = -dy, dx
        best = None
        for dist in (geo.half_width + SIGN_R + 6, geo.half_width + SIGN_R + 26):
            for side in (1, -1):
                for along in (0, -18, 18, -36):
                    x = mx + side * nx * dist + dx * along
                    y = my + side * ny * dist + dy * along
                    if not (SIGN_R + 2 <= x <= geo.width - SIGN_R - 2 and SIGN_R + 2 <= y <= geo.height - SIGN_R - 2):
                        continue
                    room = min(_clearance(geo, x, y, signs), 60.0)
                    score = room - 0.25 * (dist - geo.half_width) - 0.1 * abs(along)
                    if best is None or score > best[0]:
                        best = (score, x, y)
        if best is None:
            best = (0, mx, my)
        signs.append((best[1], best[2], speed))
    return signs


def rotated_rect(
    cx: float, cy: float, length: float, width: float, heading: float, k: float = 1.0
) -> list[tuple[float, float]]:
    r = math.radians(heading)
    c, s = math.cos(r), math.sin(r)
    hl, hw = length / 2, width / 2
    return [
        ((cx + c * u - s * v) * k, (cy + s * u + c * v) * k) for u, v in ((hl, hw), (hl, -hw), (-hl, -hw), (-hl, hw))
    ]


def _scaled(pts, k):
    return [(x * k, y * k) for x, y in pts]


def draw_sign(draw: ImageDraw.ImageDraw, x: float, y: float, speed: int, k: float = 1.0, r: float = SIGN_R) -> None:
    """A round speed-limit sign: white disc, red ring, black number."""
    r *= k
    draw.ellipse([x * k - r, y * k - r, x * k + r, y * k + r], fill=SIGN_RED, outline=BLACK, width=max(1, int(k)))
    ri = r * 0.74
    draw.ellipse([x * k - ri, y * k - ri, x * k + ri, y * k + ri], fill=WHITE)
    size = int((24 if speed < 10 else 20) * k)
    draw.text(
        (x * k, y * k + k),
        str(speed),
        font=font(size),
        fill=BLACK,
        anchor="mm",
        stroke_width=max(1, int(k * 0.6)),
        stroke_fill=BLACK,
    )


@lru_cache(maxsize=12)
def geometry(key: str, spaces: int, corners: tuple[tuple[int, int], ...]) -> Geometry:
    """The circuit placed on the 1280-px canvas (what every layer's coordinates are in)."""
    circuit = load_circuit(key)
    if circuit is None or (spaces and circuit.spaces != spaces):
        circuit = oval_circuit(spaces or 60)
    if not corners:
        corners = circuit.corners
    return place(circuit, corners)


@lru_cache(maxsize=24)
def track_layer(
    key: str, spaces: int, corners: tuple[tuple[int, int], ...], zoom: float = 1.0, texts: bool = True
) -> tuple[Image.Image, Geometry]:
    """The circuit drawn once (field, road, spots, start/finish, corner lines, and with `texts`
    the space numbers and signs) `zoom` times the geometry's size, and its geometry. Callers
    must copy the image before drawing on it."""
    geo = geometry(key, spaces, corners)
    circuit, corners = geo.circuit, geo.corners
    ss = SS if zoom < 2 else 1  # a big layer is shrunk when shown: that smooths it instead
    k = ss * zoom
    im = Image.new("RGB", (int(geo.width * k), int(geo.height * k)), FIELD)
    d = ImageDraw.Draw(im)
    n = circuit.spaces
    # road: a closed thick polyline through the middle of each space, white kerb underneath
    pts = [geo.centre[s] for s in range(1, n + 1)] + [geo.centre[1], geo.centre[2]]
    dense = []  # 4 points per space: round caps everywhere smooth the hairpins
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        dense += [(x0 + (x1 - x0) * i / 4, y0 + (y1 - y0) * i / 4) for i in range(4)]
    hw = geo.half_width
    for width, colour in ((2 * hw + 8, KERB), (2 * hw, ASPHALT)):
        d.line(_scaled(pts, k), fill=colour, width=int(width * k), joint="curve")
        for x, y in dense:
            r = width / 2 * k
            d.ellipse([x * k - r, y * k - r, x * k + r, y * k + r], fill=colour)
    # spots
    tl, tw = geo.tile
    for (s, lane), (x, y, a) in geo.spots.items():
        fill = FLOODED if s in circuit.flooded else TUNNEL if s in circuit.tunnel else TILE
        d.polygon(rotated_rect(x, y, tl, tw, a, k), fill=fill, outline=TILE_EDGE, width=max(1, int(k)))
    # start/finish: chequered band across the road between space N and space 1
    _chequer(d, geo, n, k)
    # corner lines: red/white dashes across the road (blue/white for a chicane's two lines)
    for space, _ in corners:
        if 1 <= space <= n:
            _dashed_across(d, geo, space, k, CHICANE_BLUE if space in circuit.chicanes else SIGN_RED)
    if texts:  # space numbers between the two lanes, small and quiet; the corner signs
        f = font(int(18 * k))
        for s in range(1, n + 1):
            x, y = geo.centre[s]
            d.text((x * k, y * k), str(s), font=f, fill=NUMBER, anchor="mm")
        for x, y, speed in geo.signs:
            draw_sign(d, x, y, speed, k)
    if ss > 1:
        im = im.reduce(ss)
    return im, geo


def _across(geo: Geometry, space: int) -> tuple[float, float, float, float, float, float]:
    (mx, my), (dx, dy) = geo.boundary(space)
    return mx, my, -dy, dx, dx, dy


def _chequer(d: ImageDraw.ImageDraw, geo: Geometry, space: int, k: float) -> None:
    mx, my, nx, ny, dx, dy = _across(geo, space)
    hw = geo.half_width
    cells = 8
    sq = 2 * hw / cells
    for i in range(cells):
        for j in (-1, 0):
            u0 = -hw + i * sq
            v0 = j * sq
            colour = WHITE if (i + j) % 2 == 0 else BLACK
            quad = []
            for u, v in ((u0, v0), (u0 + sq, v0), (u0 + sq, v0 + sq), (u0, v0 + sq)):
                quad.append(((mx + nx * u + dx * v) * k, (my + ny * u + dy * v) * k))
            d.polygon(quad, fill=colour)


def _dashed_across(d: ImageDraw.ImageDraw, geo: Geometry, space: int, k: float, colour=SIGN_RED) -> None:
    mx, my, nx, ny, dx, dy = _across(geo, space)
    hw = geo.half_width + 3
    parts = 6
    step = 2 * hw / parts
    thick = 4.0
    for i in range(parts):
        u0, u1 = -hw + i * step, -hw + (i + 1) * step
        quad = [
            ((mx + nx * u + dx * v) * k, (my + ny * u + dy * v) * k)
            for u, v in ((u0, -thick), (u1, -thick), (u1, thick), (u0, thick))
        ]
        d.polygon(quad, fill=colour if i % 2 == 0 else WHITE)
