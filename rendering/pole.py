"""Pole Position images, drawn for Discord's phone preview (390 px wide): every image is 800 px
wide and no text is smaller than SMALL (24 px; min_font(800) is 23).

render_board: a header (circuit, lap, weather with its grids), a zoomed view of the cars' part of
the circuit (cells, lanes, corner lines and arrows, row numbers as the move select names them,
pit lane, cars numbered by race position) with a small overview of the whole lap when zoomed; in
the race, strips under it: the track straightened, every row numbered and the lanes named as the
move select names them ("lap 3 row 21 left"), first the car to play's stretch (where it may go),
then one per group of cars the map does not show (a field too spread for both gives up the map);
one two-line row per car (position, name, tyre and life, failures, status; lap, EP, BP, SP).
render_hand: the seat's own dashboard (tyres, points, damage, fight preferences, dice) and, in the
race, the circuit around its own car and its strip. render_results: the final classification.

Only the engine's views are read; the circuit's drawing comes from its data (data/pole)."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.pole.content import circuits
from rendering.common import (
    BACKGROUND,
    MUTED,
    PANEL,
    TEXT,
    Draw,
    drawing_in,
    fit,
    font,
    note_label,
    note_text,
    player_name,
    png_bytes,
    seat_colour,
    tx,
    wrap,
)
from rendering.pole_bots import with_bots
from rendering.animation import lossless_webp
from rendering import pole_championship, pole_drivers, pole_events

W = 800
SMALL = 24  # the smallest text anywhere (min_font(W) is 23)
LEGEND_H = 40  # the weather grids' legend, the header's last line
HEADER_H = 104 + LEGEND_H
MAP_H = 470
HAND_MAP_H = 560  # the map around the seat's car and, below it, its strip
OV_W, OV_H = 190, 130  # the overview of the whole lap shown in a corner of a zoomed map
ROW_H = 72
LANE_U = 14.4  # a lane's width in circuit units (0..1000 across the drawing)
K_MAX = 2.3  # the closest zoom: a lane is about 33 px wide
K_MIN = 2.0  # the widest zoom with cars on it (a lane 29 px, a car's disc fits in it); a wider view
# shows only the car to play, where it may go and the cars near it (the overview shows the rest)
AHEAD = 8  # rows ahead of the car to play that the view keeps in sight (where it may go)
TYRE_COLOURS = {"soft": (220, 40, 40), "hard": (240, 240, 240), "inter": (40, 170, 70), "wet": (40, 110, 230)}
TYRE_LETTER = {"soft": "S", "hard": "H", "inter": "I", "wet": "W"}
TYRE_WORD = {"soft": "soft", "hard": "hard", "inter": "intermediate", "wet": "wet"}
WEATHER_COLOURS = {"dry": (250, 204, 21), "light": (125, 200, 245), "heavy": (25, 60, 150)}
ASPHALT = (88, 90, 96)
CORNER = (110, 112, 120)
SHADED = (62, 64, 70)
ARROW = (250, 250, 250)
ARROW_TECH = (235, 60, 60)
LOW_GRIP = (150, 120, 90)
BROWN = (160, 110, 60)
PIT = (60, 140, 90)
HIGHLIGHT = (255, 214, 10)
ROW_ALT = (54, 57, 63)
DARK = (16, 16, 18)


# -- the circuit in its own units ----------------------------------------------------------------------


def _centre_u(c, row: int, lane: float) -> tuple[float, float, float]:
    """A cell's centre in circuit units and the heading there; lanes left (0) to right (2)."""
    x, y, h = c.points[row % c.length]
    nx, ny = -math.sin(math.radians(h)), math.cos(math.radians(h))
    off = (lane - 1) * LANE_U
    return x + nx * off, y + ny * off, h


def _row_len_u(c, row: int) -> float:
    x0, y0, _ = c.points[row % c.length]
    x1, y1, _ = c.points[(row + 1) % c.length]
    return max(4.5, math.hypot(x1 - x0, y1 - y0))


def _pit_side(c) -> float:
    return -1.6 if c.pit_side == 0 else 3.6


def _pos_u(c, pos) -> tuple[float, float, int] | None:
    """Where a car's position is drawn (units) and the track row it is nearest to."""
    if not isinstance(pos, list) or not pos:
        return None
    kind = pos[0]
    if kind == "t":
        row = int(pos[1])
        x, y, _ = _centre_u(c, row, int(pos[2]))
        return x, y, row
    # the pit lane: a strip outside the pit-side lane along the main straight
    if kind == "pin":
        row = min(c.pit_entry_row + 1 + int(pos[1]), c.length - 1)
    elif kind == "pit":
        row = c.length - 1
    elif kind in ("g", "pout"):
        row = int(pos[1]) if kind == "g" else 2 + int(pos[1])
    else:
        return None
    x, y, _ = _centre_u(c, row, _pit_side(c))
    return x, y, row


def _quad(cx: float, cy: float, h: float, length: float, width: float) -> list[tuple[float, float]]:
    dx, dy = math.cos(math.radians(h)), math.sin(math.radians(h))
    nx, ny = -dy, dx
    hl, hw = length / 2, width / 2
    return [
        (cx + dx * hl + nx * hw, cy + dy * hl + ny * hw),
        (cx + dx * hl - nx * hw, cy + dy * hl - ny * hw),
        (cx - dx * hl - nx * hw, cy - dy * hl - ny * hw),
        (cx - dx * hl + nx * hw, cy - dy * hl + ny * hw),
    ]


@lru_cache(maxsize=16)
def _bounds(key: str) -> tuple[float, float, float, float]:
    c = circuits()[key]
    pts = [_centre_u(c, r, lane) for r in range(c.length) for lane in (-2.3, 4.3)]
    return min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts)


class _View:
    """Circuit units to pixels of a w x h map: centre (cx, cy) at zoom k."""

    def __init__(self, cx: float, cy: float, k: float, w: int, h: int) -> None:
        self.cx, self.cy, self.k, self.w, self.h = cx, cy, k, w, h

    def p(self, x: float, y: float) -> tuple[float, float]:
        return self.w / 2 + (x - self.cx) * self.k, self.h / 2 + (y - self.cy) * self.k


def _whole_view(key: str, w: int, h: int) -> _View:
    x0, y0, x1, y1 = _bounds(key)
    k = min((w - 20) / (x1 - x0), (h - 20) / (y1 - y0))
    return _View((x0 + x1) / 2, (y0 + y1) / 2, k, w, h)


def _window(c, pts: list[tuple[float, float]], w: int, h: int, pad: float = 46) -> _View:
    """The closest view that shows every point with `pad` px around, never wider than the whole lap."""
    whole = _whole_view(c.key, w, h)
    if not pts:
        return whole
    x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
    y0, y1 = min(p[1] for p in pts), max(p[1] for p in pts)
    k = min(K_MAX, (w - 2 * pad) / max(x1 - x0, 1e-6), (h - 2 * pad) / max(y1 - y0, 1e-6))
    if k <= whole.k * 1.05:
        return whole
    return _View((x0 + x1) / 2, (y0 + y1) / 2, k, w, h)


def _focus(c, cars: list[dict], order: list[int], primary: int | None, w: int, h: int) -> _View:
    """The action: every car on the circuit if they fit at a readable zoom, else the car to play,
    the rows it may reach and the cars near it."""
    placed = {}
    for s in order:
        car = cars[s]
        if car.get("out") or car.get("finished"):
            continue
        at = _pos_u(c, car.get("pos"))
        if at is not None:
            placed[s] = at
    if not placed:
        return _whole_view(c.key, w, h)
    if primary not in placed:
        primary = next(iter(placed))
    prow = placed[primary][2]
    ahead = [_centre_u(c, prow + i, 1)[:2] for i in range(0, AHEAD + 1, 2)]
    view = _window(c, [p[:2] for p in placed.values()] + ahead, w, h)
    if view.k >= K_MIN:
        return view
    near = [p[:2] for p in placed.values() if min((p[2] - prow) % c.length, (prow - p[2]) % c.length) <= 6]
    view = _window(c, near + ahead, w, h)
    if view.k >= K_MIN:
        return view
    pts = [placed[primary][:2]] + ahead  # still too wide: the car to play and where it may go
    cx = (min(p[0] for p in pts) + max(p[0] for p in pts)) / 2
    cy = (min(p[1] for p in pts) + max(p[1] for p in pts)) / 2
    # the car to play stays in sight (46 px in) when where it may go does not fit
    mx, my = max(0.0, w / 2 - 46) / K_MIN, max(0.0, h / 2 - 46) / K_MIN
    x, y = placed[primary][:2]
    return _View(min(max(cx, x - mx), x + mx), min(max(cy, y - my), y + my), K_MIN, w, h)


class _MapDraw(Draw):
    """Draws on a map pasted `top` px down the image: texts are recorded where they land there."""

    def __init__(self, im: Image.Image, top: int, image_w: int) -> None:
        super().__init__(im)
        self.top, self.image_w = top, image_w

    def text(self, xy, text, fill=None, font=None, anchor=None, *args, **kwargs):  # noqa: A002
        note_text(self.image_w, (xy[0], xy[1] + self.top), text, font, anchor, int(kwargs.get("stroke_width") or 0))
        return ImageDraw.ImageDraw.text(self, xy, text, fill, font, anchor, *args, **kwargs)

    def cover(self, box) -> None:
        """Write down a car's circle (what is drawn under it is hidden)."""
        note_label((box[0], box[1] + self.top, box[2], box[3] + self.top), self.image_w, kind="car")


# -- drawing the map -------------------------------------------------------------------------------------


def _pit_rows(c) -> set[int]:
    """The rows the pit lane runs beside."""
    return set(range(c.pit_entry_row + 1, c.length)) | set(range(0, c.pit_merge_row))


def _cell_fill(c, row, lane: int, lines: set, arrows: dict) -> tuple[int, int, int]:
    """A cell's colour: the corner's arrow (red: technical), its shaded line, low grip, a brown
    (lap 1 only) row, a corner's or a straight's asphalt."""
    if (row.index, lane) in arrows:
        return ARROW_TECH if arrows[(row.index, lane)] else ARROW
    if (row.index, lane) in lines:
        return SHADED
    if (row.index, lane) in c.low_grip:
        return LOW_GRIP
    if row.brown:
        return BROWN
    return CORNER if row.corner >= 0 else ASPHALT


def _map(
    c,
    cars: list[dict],
    order: list[int],
    primary: int | None,
    w: int,
    h: int,
    top: int,
    elsewhere: frozenset = frozenset(),
) -> Image.Image:
    """The map, to be pasted `top` px down the image; the cars in `elsewhere` (drawn on a strip
    below it) get no marker at its edge."""
    v = _focus(c, cars, order, primary, w, h)
    img = Image.new("RGB", (w, h), BACKGROUND)
    d = _MapDraw(img, top, w)
    _map_track(d, c, v, w, h)
    _map_finish_line(d, c, v)
    r = max(13.5, min(19.0, LANE_U * v.k * 0.48))  # a disc fits in its lane: neighbours never cover each other
    inset = _map_inset(c, cars, order, v, w, h, r)
    blocked = _map_row_numbers(d, c, v, w, h, inset)
    taken, outside = _map_cars(d, c, cars, order, v, w, h, r, primary, elsewhere)
    if inset is not None:
        _overview(d, inset, c, v, cars, order)
    _edge_markers(d, outside, r, w, h, blocked + [(x - r, y - r, x + r, y + r) for x, y in taken])
    return img


def _map_track(d: _MapDraw, c, v: _View, w: int, h: int) -> None:
    """The cells of the rows in view (racing line, arrows, technical corners' red lines, the pit lane)."""
    k = v.k
    lines = {cell for co in c.corners for cell in co.line}
    arrows = {co.arrow: co.technical for co in c.corners}
    margin = 60 * k

    def visible(x: float, y: float) -> bool:
        px, py = v.p(x, y)
        return -margin <= px <= w + margin and -margin <= py <= h + margin

    pit_rows = _pit_rows(c)
    for row in c.rows:
        cx, cy, hd = _centre_u(c, row.index, 1)
        if not visible(cx, cy):
            continue
        ln = _row_len_u(c, row.index)
        for lane in row.lanes:
            x, y, hd = _centre_u(c, row.index, lane)
            fill = _cell_fill(c, row, lane, lines, arrows)
            d.polygon([v.p(*q) for q in _quad(x, y, hd, ln * 0.9, LANE_U * 0.88)], fill=fill)
        if row.corner >= 0 and c.corners[row.corner].technical:
            co = c.corners[row.corner]
            if row.index in (co.first, co.last):  # the two red lines of a technical corner
                a = _centre_u(c, row.index, min(row.lanes) - 0.6)
                b = _centre_u(c, row.index, max(row.lanes) + 0.6)
                d.line([v.p(a[0], a[1]), v.p(b[0], b[1])], fill=ARROW_TECH, width=max(3, int(k * 1.6)))
        if row.index in pit_rows:
            x, y, hd = _centre_u(c, row.index, _pit_side(c))
            d.polygon([v.p(*q) for q in _quad(x, y, hd, ln * 0.9, LANE_U * 0.75)], fill=PIT)


def _map_finish_line(d: _MapDraw, c, v: _View) -> None:
    """The finish line: a chequered strip across the lanes at the start of row 0."""
    x0, y0, h0 = _centre_u(c, 0, 1)
    back = _row_len_u(c, c.length - 1) / 2
    fx, fy = x0 - math.cos(math.radians(h0)) * back, y0 - math.sin(math.radians(h0)) * back
    nx, ny = -math.sin(math.radians(h0)), math.cos(math.radians(h0))
    n = 8
    sq = 3 * LANE_U / n
    for i in range(n):
        off = (i - (n - 1) / 2) * sq
        for j, along in enumerate((-sq / 2, sq / 2)):
            px, py = (
                fx + nx * off + math.cos(math.radians(h0)) * along,
                fy + ny * off + math.sin(math.radians(h0)) * along,
            )
            q = [v.p(*pt) for pt in _quad(px, py, h0, sq, sq)]
            d.polygon(q, fill=(255, 255, 255) if (i + j) % 2 else (0, 0, 0))


def _map_inset(c, cars: list[dict], order: list[int], v: _View, w: int, h: int, r: float) -> tuple[int, int] | None:
    """Where the overview of the whole lap goes: a corner of the map no car is in (None when the map
    shows the whole lap already, or no corner is free)."""
    spots = [
        v.p(*at[:2])
        for s in order
        if not cars[s].get("out") and not cars[s].get("finished")
        for at in [_pos_u(c, cars[s].get("pos"))]
        if at is not None
    ]
    if v.k <= _whole_view(c.key, w, h).k * 1.05:
        return None
    corners = [(w - OV_W - 8, 8), (8, 8), (w - OV_W - 8, h - OV_H - 8), (8, h - OV_H - 8)]
    return next(
        (
            xy
            for xy in corners
            if not any(xy[0] - r <= px <= xy[0] + OV_W + r and xy[1] - r <= py <= xy[1] + OV_H + r for px, py in spots)
        ),
        None,
    )


def _map_row_numbers(
    d: _MapDraw, c, v: _View, w: int, h: int, inset: tuple[int, int] | None
) -> list[tuple[float, float, float, float]]:
    """Row numbers, as the move select names them (row = index + 1), on the side away from the pits;
    returns what an edge marker must not cover (the numbers and the inset)."""
    k = v.k
    step = 5 if k >= K_MIN else 10
    away = 1 + (1.5 + 24 / k / LANE_U) * (1 if c.pit_side == 0 else -1)  # just outside the track, in lanes
    f = font(SMALL)
    blocked: list[tuple[float, float, float, float]] = []
    if inset is not None:
        blocked.append((inset[0], inset[1], inset[0] + OV_W, inset[1] + OV_H))
    for row in range(step - 1, c.length, step):
        x, y, _ = _centre_u(c, row, away)
        px, py = v.p(x, y)
        label = str(row + 1)
        box = f.getbbox(label, anchor="mm", stroke_width=3)
        under = (
            inset is not None
            and inset[0] - 4 <= px + box[2]
            and px + box[0] <= inset[0] + OV_W + 4
            and inset[1] - 4 <= py + box[3]
            and py + box[1] <= inset[1] + OV_H + 4
        )
        if box[0] + px >= 2 and box[2] + px <= w - 2 and box[1] + py >= 2 and box[3] + py <= h - 2 and not under:
            d.text((px, py), label, font=f, fill=(225, 225, 225), anchor="mm", stroke_width=3, stroke_fill=DARK)
            blocked.append((px + box[0], py + box[1], px + box[2], py + box[3]))
    return blocked


def _map_cars(
    d: _MapDraw,
    c,
    cars: list[dict],
    order: list[int],
    v: _View,
    w: int,
    h: int,
    r: float,
    primary: int | None,
    elsewhere: frozenset,
) -> tuple[list[tuple[float, float]], list]:
    """The cars, last first so the leader is on top; cars sharing a spot (the pits) side by side.
    Returns the spots taken and the cars outside the view (to be marked at its edge)."""
    taken: list[tuple[float, float]] = []
    outside: list[tuple[int, int, float, float]] = []  # cars outside the view: marked at its edge
    for rank, s, px, py in reversed(list(_on_view(c, cars, order, v))):
        car = cars[s]
        while any(math.hypot(px - tx_, py - ty_) < 2 * r + 2 for tx_, ty_ in taken):
            px += 2 * r + 4
        if not (-r < px < w + r and -r < py < h + r):
            if s not in elsewhere:
                outside.append((s, rank, px, py))
            continue  # outside this view: a marker at the edge, toward it (the standings say how far)
        taken.append((px, py))
        col = seat_colour(s)
        ring = (255, 80, 80) if car.get("off") else (HIGHLIGHT if s == primary else DARK)
        d.cover([px - r, py - r, px + r, py + r])
        d.ellipse([px - r, py - r, px + r, py + r], fill=col, outline=ring, width=4 if ring != DARK else 2)
        label = str(rank + 1)
        f = font(max(SMALL, int(r * 1.25)))
        box = f.getbbox(label, anchor="mm")
        if box[0] + px >= 0 and box[2] + px <= w and box[1] + py >= 0 and box[3] + py <= h:
            d.text((px, py), label, font=f, fill=DARK if sum(col) > 400 else (255, 255, 255), anchor="mm")
    return taken, outside


# -- strips: the stretch of track of each group of cars the map does not show ---------------------------

STRIP_ROWS = 15  # the rows a strip shows, the direction of travel to the right
STRIP_NUM_H = 28  # the row numbers above the cells
STRIP_LANE_H = 30  # a car's disc (28 px) fits in a lane
STRIP_PIT_H = 24
STRIP_GAP = 8
STRIP_H = STRIP_GAP + STRIP_NUM_H + 3 * STRIP_LANE_H + STRIP_PIT_H
MAP_H_STRIPS = 330  # the map's height when strips are drawn below it
BADGE_H = 68  # a badge's line (yellow flag, safety car, event) when the board has no map
MAX_RATIO = 1.9  # the board's height / width at most, strips included (a phone shows a taller one too small)
LANE_WORDS = ("left", "centre", "right")  # the move select's words for the lanes


def _on_view(c, cars: list[dict], order: list[int], v: _View):
    """(rank, seat, x, y) in the view's pixels of every car still racing, in race order."""
    for rank, s in enumerate(order):
        car = cars[s]
        if car.get("out") or car.get("finished"):
            continue
        at = _pos_u(c, car.get("pos"))
        if at is not None:
            yield (rank, s, *v.p(at[0], at[1]))


def _off_map(c, cars: list[dict], order: list[int], v: _View) -> list[int]:
    """The racing cars (race order) whose place is outside the map's view."""
    return [s for _, s, px, py in _on_view(c, cars, order, v) if not (0 <= px <= v.w and 0 <= py <= v.h)]


def _strip_groups(c, cars: list[dict], seats: list[int]) -> list[list[int]]:
    """The cars (race order) in groups that each fit one strip: a group is its first car and the
    cars up to STRIP_ROWS - 2 rows behind it."""
    groups: list[list[int]] = []
    first = None
    for s in sorted(seats, key=lambda s: -(_progress(c, cars[s]) or 0)):
        p = _progress(c, cars[s]) or 0
        if first is None or first - p > STRIP_ROWS - 2:
            groups.append([])
            first = p
        groups[-1].append(s)
    return groups


def _strip_start(c, cars: list[dict], group: list[int]) -> int:
    """The first row (in rows along the race) of a group's strip: a little more track ahead than behind."""
    prog = [_progress(c, cars[s]) or 0 for s in group]
    lo = (min(prog) + max(prog)) // 2 - STRIP_ROWS // 2 + 2
    return max(min(lo, min(prog)), max(prog) - STRIP_ROWS + 1)


def _strip(
    c, cars: list[dict], order: list[int], group: list[int], lo: int, primary: int | None, top: int
) -> Image.Image:
    """One stretch of track, straightened, from row `lo` along the race: a column per row (its
    number above it, as the move select names it), the lanes left, centre and right from the top
    (named at the left, the lap ahead above them), the pit lane on its side; the cars of `group` on it,
    numbered by race position as on the map."""
    img = Image.new("RGB", (W, STRIP_H), BACKGROUND)
    d = _MapDraw(img, top, W)
    f = font(SMALL)
    words = [tx(x) for x in LANE_WORDS]
    # the lap of the stretch ahead (the last column), in the move select's words; a chequered line
    # marks where the lap before ends
    lap = tx("lap {lap}", lap=max(1, min((lo + STRIP_ROWS - 1) // c.length + 1, c.laps)))
    lw = int(max(f.getlength(x) for x in words + [lap])) + 18
    cw = (W - lw - 8) / STRIP_ROWS
    pit_top = c.pit_side == 0  # the pit lane beside the left lane: above it
    y_num = STRIP_GAP
    y_lanes = STRIP_GAP + STRIP_NUM_H + (STRIP_PIT_H if pit_top else 0)
    y_pit = STRIP_GAP + STRIP_NUM_H if pit_top else y_lanes + 3 * STRIP_LANE_H
    d.rectangle([0, STRIP_GAP - 4, W, STRIP_GAP - 2], fill=PANEL)
    d.text((lw - 10, y_num + STRIP_NUM_H / 2), lap, font=f, fill=HIGHLIGHT, anchor="rm")
    for lane, word in enumerate(words):
        d.text((lw - 10, y_lanes + lane * STRIP_LANE_H + STRIP_LANE_H / 2), word, font=f, fill=MUTED, anchor="rm")
    lines = {cell for co in c.corners for cell in co.line}
    arrows = {co.arrow: co.technical for co in c.corners}
    pit_rows = _pit_rows(c)
    for j in range(STRIP_ROWS):
        row = c.rows[(lo + j) % c.length]
        x0 = lw + j * cw
        label = str(row.index + 1)
        if f.getlength(label) <= cw - 2:
            d.text((x0 + cw / 2, y_num + STRIP_NUM_H / 2), label, font=f, fill=(225, 225, 225), anchor="mm")
        for lane in row.lanes:
            y0 = y_lanes + lane * STRIP_LANE_H
            d.rectangle(
                [x0 + 1, y0 + 1, x0 + cw - 2, y0 + STRIP_LANE_H - 2], fill=_cell_fill(c, row, lane, lines, arrows)
            )
        if row.index in pit_rows:
            d.rectangle([x0, y_pit + 5, x0 + cw, y_pit + STRIP_PIT_H - 5], fill=PIT)
        if row.corner >= 0 and c.corners[row.corner].technical:  # the two red lines of a technical corner
            co = c.corners[row.corner]
            for edge in ([x0] if row.index == co.first else []) + ([x0 + cw - 2] if row.index == co.last else []):
                d.rectangle([edge - 1, y_lanes - 4, edge + 2, y_lanes + 3 * STRIP_LANE_H + 4], fill=ARROW_TECH)
        if row.index == 0:  # the finish line, chequered, before row 1
            sq = 3 * STRIP_LANE_H / 8
            for i in range(8):
                for k in range(2):
                    d.rectangle(
                        [x0 - 4 + 4 * k, y_lanes + i * sq, x0 + 4 * k, y_lanes + (i + 1) * sq],
                        fill=(255, 255, 255) if (i + k) % 2 else (0, 0, 0),
                    )
    r = min(17.0, STRIP_LANE_H * 0.47, cw * 0.45)
    taken: list[tuple[float, float]] = []
    for rank, s in reversed(list(enumerate(order))):
        if s not in group:
            continue
        car = cars[s]
        pos = car.get("pos") or []
        j = (_progress(c, car) or 0) - lo
        if not 0 <= j < STRIP_ROWS:
            continue
        px = lw + (j + 0.5) * cw
        py = y_lanes + (int(pos[2]) + 0.5) * STRIP_LANE_H if pos and pos[0] == "t" else y_pit + STRIP_PIT_H / 2
        while any(abs(px - a) < 2 * r + 2 and abs(py - b) < 2 * r for a, b in taken):
            px += 2 * r + 4
        taken.append((px, py))
        col = seat_colour(s)
        ring = (255, 80, 80) if car.get("off") else (HIGHLIGHT if s == primary else DARK)
        d.cover([px - r, py - r, px + r, py + r])
        d.ellipse([px - r, py - r, px + r, py + r], fill=col, outline=ring, width=4 if ring != DARK else 2)
        d.text((px, py), str(rank + 1), font=font(SMALL), fill=DARK if sum(col) > 400 else (255, 255, 255), anchor="mm")
    return img


def _progress(c, car: dict) -> int | None:
    """Rows along the race (laps times the lap's rows plus the row), for how far apart two cars are."""
    at = _pos_u(c, car.get("pos"))
    if at is None:
        return None
    return int(car.get("laps", 0)) * c.length + at[2]


def _edge_markers(d: _MapDraw, outside: list, r: float, w: int, h: int, blocked: list) -> None:
    """Every car outside the view as a disc at the map's edge, in its direction, with its race
    position as on the map (the standings say how many rows away it is); never over a car, a row
    number or the overview: a marker with no free place along its edge is left out."""
    placed = list(blocked)
    m = r + 6
    for s, rank, px, py in outside:
        dx, dy = px - w / 2, py - h / 2
        t = min((w / 2 - m) / abs(dx) if dx else 1e9, (h / 2 - m) / abs(dy) if dy else 1e9)
        bx0, by0 = w / 2 + dx * t, h / 2 + dy * t
        side = abs(dx) * (h / 2) >= abs(dy) * (w / 2)  # on the left or right edge: move along it
        spot = None
        for k in range(0, 24):
            step = (k + 1) // 2 * (2 * r + 8) * (1 if k % 2 else -1)
            bx, by = (bx0, by0 + step) if side else (bx0 + step, by0)
            if not (m <= bx <= w - m and m <= by <= h - m):
                continue
            box = (bx - r, by - r, bx + r, by + r)
            if not any(
                box[0] < b[2] + 6 and b[0] < box[2] + 6 and box[1] < b[3] + 6 and b[1] < box[3] + 6 for b in placed
            ):
                spot = (bx, by, box)
                break
        if spot is None:
            continue
        bx, by, box = spot
        placed.append(box)
        col = seat_colour(s)
        d.cover(list(box))
        d.ellipse(list(box), fill=col, outline=(235, 235, 235), width=3)
        num = str(rank + 1)
        fr = font(max(SMALL, int(r * 1.25)))
        d.text((bx, by), num, font=fr, fill=DARK if sum(col) > 400 else (255, 255, 255), anchor="mm")


def _overview(d: Draw, at: tuple[float, float], c, v: _View, cars: list[dict], order: list[int]) -> None:
    """The whole lap, small, at `at`: the window shown is outlined, cars are dots."""
    ow, oh = OV_W, OV_H
    ov = _whole_view(c.key, ow, oh)
    ox, oy = at
    d.rounded_rectangle([ox, oy, ox + ow, oy + oh], radius=8, fill=PANEL, outline=(90, 92, 98), width=2)
    pts = [ov.p(*_centre_u(c, r, 1)[:2]) for r in range(c.length)]
    d.line([(ox + x, oy + y) for x, y in pts + pts[:1]], fill=(150, 152, 158), width=4, joint="curve")
    half_w, half_h = v.w / 2 / v.k, v.h / 2 / v.k
    a = ov.p(v.cx - half_w, v.cy - half_h)
    b = ov.p(v.cx + half_w, v.cy + half_h)
    d.rectangle(
        [ox + max(0, a[0]), oy + max(0, a[1]), ox + min(ow, b[0]), oy + min(oh, b[1])], outline=HIGHLIGHT, width=2
    )
    for s in reversed(order):
        car = cars[s]
        if car.get("out") or car.get("finished"):
            continue
        where = _pos_u(c, car.get("pos"))
        if where is None:
            continue
        x, y = ov.p(where[0], where[1])
        d.ellipse([ox + x - 5, oy + y - 5, ox + x + 5, oy + y + 5], fill=seat_colour(s), outline=DARK)


# -- the board -----------------------------------------------------------------------------------------


def _status(car: dict) -> str:
    if car.get("finished"):
        return tx("P{n} at the flag", n=car["finished"])
    if car.get("out"):
        return tx("out")
    if car.get("must_pit"):  # no retirements (16.1)
        return tx("must pit")
    pos = car.get("pos") or []
    if pos and pos[0] in ("pit", "g", "pout", "pin"):
        return tx("pits")
    if car.get("off"):
        return tx("off track")
    return ""


def _phase_line(view: dict, c) -> str:
    cars = view.get("cars") or []
    phase = view.get("phase")
    if phase == "race":
        lead = max([car.get("laps", 0) for car in cars] or [0])
        return tx("Lap {lap}/{laps}", lap=min(lead + 1, c.laps), laps=c.laps)
    if phase == "quali":
        return tx("Qualifying {session}", session=(view.get("quali") or {}).get("session", ""))
    if phase == "tyres":
        return tx("Tyre choice")
    if phase == "setup":  # custom setup (13.1)
        return tx("Custom setup")
    if phase == "standings":
        return tx("Championship standings")
    return tx("Race over")


def _badge(view: dict):
    if view.get("sc"):
        return tx("Safety car: pit or stay out"), (250, 214, 40)
    fl = view.get("flag")
    if fl:
        return tx("Yellow flag: rows {a}-{b}", a=fl["from"] + 1, b=fl["to"] + 1), (250, 214, 40)
    return pole_events.badge(view)  # events (9): the card just revealed


# Qualifying sessions and the tyre picks: every seat chooses at once, and the thread keeps the
# board drawn when they began up while the choices come in (its post's "Waiting for" line is what
# changes), so the board marks no seat as the one to act then.
ALL_AT_ONCE = ("quali", "tyres")


def _acting(view: dict) -> list[int]:
    """The seats the board marks as acting (none while every seat chooses at once)."""
    return [] if view.get("phase") in ALL_AT_ONCE else list(view.get("to_act") or [])


def _primary(view: dict) -> int | None:
    ti = view.get("turn_info") or {}
    if isinstance(ti.get("seat"), int):
        return ti["seat"]
    acting = _acting(view)
    return acting[0] if len(acting) == 1 else None


def render_board(view: dict, names: list[str], locale: str = "en") -> bytes:
    """The public board; texts in `locale`. A lossless WebP: 39% of the PNG's bytes, no slower to
    encode (rendering/animation.py, WEBP_BOARDS)."""
    with drawing_in(locale):
        names = with_bots(view, names)
        return lossless_webp(_board(view, names))


def _racing(car: dict | None) -> bool:
    if not car:
        return False
    return (
        not car.get("out")
        and not car.get("finished")
        and isinstance(car.get("pos"), list)
        and bool(car.get("pos"))
        and car["pos"][0] != "done"
    )


def _map_height(view: dict, c, cars: list[dict], order: list[int], primary: int | None) -> int:
    """The board's map is MAP_H tall, or MAP_H_STRIPS with strips below it: in the race when a car
    is to play (its strip: where it may go, named as the move select names it) or when a car is
    outside the map."""
    if view.get("phase") != "race":
        return MAP_H
    if primary is not None and 0 <= primary < len(cars) and _racing(cars[primary]):
        return MAP_H_STRIPS
    return MAP_H_STRIPS if _off_map(c, cars, order, _focus(c, cars, order, primary, W, MAP_H)) else MAP_H


def _strips(c, cars: list[dict], order: list[int], primary: int | None, v: _View | None) -> list[tuple[list[int], int]]:
    """The strips under the map, each (its cars, its first row along the race): first the car to
    play's, two rows behind it to twelve ahead (where it may go), with the cars on that stretch;
    then one per group of the cars the map (seen as `v`; None: no map) and that strip do not
    show, in race order."""
    out: list[tuple[list[int], int]] = []
    shown: set[int] = set()
    if primary is not None and 0 <= primary < len(cars) and _racing(cars[primary]):
        lo = (_progress(c, cars[primary]) or 0) - 2
        near = [
            s
            for s in order
            if _racing(cars[s])
            and _progress(c, cars[s]) is not None
            and 0 <= (_progress(c, cars[s]) or 0) - lo < STRIP_ROWS
        ]
        out.append((near, lo))
        shown |= set(near)
    off = _off_map(c, cars, order, v) if v is not None else [s for s in order if _racing(cars[s])]
    rest = [s for s in off if s not in shown and _progress(c, cars[s]) is not None]
    for g in _strip_groups(c, cars, rest):
        prog = [_progress(c, cars[s]) or 0 for s in g]
        lo = _strip_start(c, cars, g)
        for _, plo in out:  # next to a strip already drawn rather than over part of it, where the group fits
            if lo < plo + STRIP_ROWS and plo < lo + STRIP_ROWS:
                lo = plo - STRIP_ROWS if max(prog) < plo else plo + STRIP_ROWS
                lo = max(min(lo, min(prog)), max(prog) - STRIP_ROWS + 1)
        if not all(any(0 <= p - plo < STRIP_ROWS for _, plo in out) for p in prog):  # unless shown already
            out.append((g, lo))
    # every strip shows every car on its stretch (two strips may share a few rows)
    return [
        (
            [
                s
                for s in order
                if _racing(cars[s])
                and _progress(c, cars[s]) is not None
                and 0 <= (_progress(c, cars[s]) or 0) - lo < STRIP_ROWS
            ],
            lo,
        )
        for _, lo in out
    ]


def _layout(
    view: dict, c, cars: list[dict], order: list[int], primary: int | None, row_h: int
) -> tuple[int, list[tuple[list[int], int]]]:
    """The map's height (0: no map) and the strips under it. A field spread too far for the map
    and its strips to fit the board's height gives up the map (the car to play's strip shows the
    same stretch, straightened): every car on a strip, as many strips as the height allows."""
    map_h = _map_height(view, c, cars, order, primary)
    if map_h == MAP_H:
        return map_h, []
    room = int(MAX_RATIO * W) - (HEADER_H + row_h * len(order) + 8)
    strips = _strips(c, cars, order, primary, _focus(c, cars, order, primary, W, map_h))
    if map_h + STRIP_H * len(strips) <= room:
        return map_h, strips
    room -= BADGE_H if _badge(view) else 0
    return 0, _strips(c, cars, order, primary, None)[: max(0, room // STRIP_H)]


def _board(view: dict, names: list[str]) -> Image.Image:
    if view.get("phase") == "standings":  # 15: between two races, the championship standings
        return pole_championship.image(view, names)
    c = circuits()[view["circuit"]]
    cars = view.get("cars") or []
    order = [s for s in view.get("order") or [] if 0 <= s < len(cars)]
    # drivers and teams (14): a third line in every car's row
    row_h = ROW_H + (pole_drivers.BOARD_LINE_H if any(pole_drivers.names(cars[s]) for s in order) else 0)
    top = HEADER_H
    primary = _primary(view)
    map_h, strips = _layout(view, c, cars, order, primary, row_h)
    groups = [g for g, _ in strips]
    height = top + (map_h or (BADGE_H if _badge(view) else 0)) + STRIP_H * len(groups) + row_h * len(order) + 8
    img = Image.new("RGB", (W, height), BACKGROUND)
    d = Draw(img)
    d.rectangle([0, 0, W, HEADER_H], fill=PANEL)
    d.text((20, 30), fit(tx("Pole Position: {name}", name=tx(c.name)), 34, 590), font=font(34), fill=TEXT, anchor="lm")
    d.text((20, 78), fit(_phase_line(view, c), 30, 330), font=font(30), fill=HIGHLIGHT, anchor="lm")
    _weather(d, view, c, 360, 78, W - 176)
    _grids(d, view, c, W - 160, 12)
    _legend(d, HEADER_H - LEGEND_H)
    elsewhere = frozenset(s for g in groups for s in g)
    badge = _badge(view)
    if map_h:
        img.paste(_map(c, cars, order, primary, W, map_h, top, elsewhere), (0, top))
    elif badge:  # no map to lay the badge on: a line of its own
        map_h = BADGE_H
    for i, (g, lo) in enumerate(strips):
        y = top + map_h + STRIP_H * i
        img.paste(_strip(c, cars, order, g, lo, primary, y), (0, y))
    if badge:  # a yellow flag (10.1): a badge at the map's top left, with the rows it covers
        label, colour = badge
        d.rounded_rectangle([12, top + 10, 452, top + 58], radius=10, fill=colour, outline=DARK, width=2)
        d.text((232, top + 34), fit(label, 30, 424), font=font(30), fill=DARK, anchor="mm")
    y = top + map_h + STRIP_H * len(groups)
    acting = set(_acting(view))
    ti = view.get("turn_info") or {}
    base = (
        _progress(c, cars[primary])
        if view.get("phase") == "race"
        and primary is not None
        and not cars[primary].get("finished")
        and not cars[primary].get("out")
        else None
    )
    for i, s in enumerate(order):
        gap = None
        if base is not None and s != primary and not cars[s].get("out") and not cars[s].get("finished"):
            p = _progress(c, cars[s])
            gap = None if p is None else p - base
        _car_row(
            d,
            y,
            i,
            s,
            cars[s],
            names,
            c,
            ti.get("seat") == s or s in acting,
            view.get("quali"),
            view.get("chosen") if view.get("phase") == "tyres" else None,
            row_h,
            gap,
        )
        y += row_h
    return img


def _weather(d: Draw, view: dict, c, x: int, y: int, right: int) -> None:
    wnow = view.get("weather_now", "dry")
    name = {"dry": tx("Dry"), "light": tx("Light rain"), "heavy": tx("Heavy rain")}.get(wnow, wnow)
    d.rectangle([x, y - 14, x + 28, y + 14], fill=WEATHER_COLOURS.get(wnow, (200, 200, 200)), outline=DARK)
    d.text((x + 38, y), fit(name, 28, right - x - 44), font=font(28), fill=TEXT, anchor="lm")


def _legend(d: Draw, y: int) -> None:
    """What the weather grids top right say: the colours, the frame on the weather now, and the
    forecast column (a cloud moves it down; from its last space the weather moves on)."""
    d.rectangle([0, y, W, y + LEGEND_H], fill=PANEL)
    mid = y + LEGEND_H / 2 - 2
    x = 16.0
    f = font(SMALL)
    for code, word in (("dry", "Dry"), ("light", "Light rain"), ("heavy", "Heavy rain")):
        d.rectangle([x, mid - 9, x + 18, mid + 9], fill=WEATHER_COLOURS[code], outline=DARK)
        label = tx(word)
        d.text((x + 26, mid), label, font=f, fill=MUTED, anchor="lm")
        x += 26 + f.getlength(label) + 18
    d.rectangle([x, mid - 9, x + 18, mid + 9], outline=(255, 255, 255), width=3)
    label = tx("now")
    d.text((x + 26, mid), label, font=f, fill=MUTED, anchor="lm")
    x += 26 + f.getlength(label) + 18
    d.rectangle([x, mid - 7, x + 22, mid + 7], fill=(255, 255, 255), outline=HIGHLIGHT, width=2)
    d.text((x + 30, mid), fit(tx("forecast"), SMALL, int(W - x - 40)), font=f, fill=MUTED, anchor="lm")


def _grids(d: Draw, view: dict, c, x: int, y: int) -> None:
    """Grid A (6 x 6, the current weather token outlined) and grid B (the forecast)."""
    w = view.get("weather") or {}
    a, b = int(w.get("a", 0)), int(w.get("b", 1))
    cell = 12
    for i, code in enumerate(c.weather_a):
        cx, cy = x + (i % 6) * (cell + 2), y + (i // 6) * (cell + 2)
        d.rectangle([cx, cy, cx + cell, cy + cell], fill=WEATHER_COLOURS[code])
        if i == a:
            d.rectangle([cx - 3, cy - 3, cx + cell + 3, cy + cell + 3], outline=(255, 255, 255), width=3)
    bx = x + 6 * (cell + 2) + 16
    for i in range(1, c.weather_b + 1):
        cy = y + (i - 1) * (cell + 2)
        d.rectangle(
            [bx, cy, bx + cell + 10, cy + cell],
            fill=(255, 255, 255) if i == b else (120, 122, 128),
            outline=HIGHLIGHT if i == b else None,
            width=2,
        )


def _failures(d: Draw, x: float, mid: float, bd: list, size: int = 30) -> float:
    for kind, rep in bd or []:
        fill = (60, 170, 90) if rep else ((220, 50, 50) if kind == "heavy" else (20, 20, 20))
        d.rectangle([x, mid - size / 2, x + size, mid + size / 2], fill=fill, outline=(200, 200, 200), width=2)
        d.text(
            (x + size / 2, mid), "H" if kind == "heavy" else "L", font=font(SMALL), fill=(255, 255, 255), anchor="mm"
        )
        x += size + 6
    return x


def _die(d: Draw, x: float, mid: float, face: str, size: int = 34) -> None:
    """A die showing `face`, centred on (x, mid)."""
    d.rounded_rectangle(
        [x - size / 2, mid - size / 2, x + size / 2, mid + size / 2],
        radius=6,
        fill=(20, 20, 22),
        outline=(230, 230, 230),
        width=2,
    )
    d.text((x, mid), face, font=font(SMALL), fill=(255, 255, 255), anchor="mm")


def _tyre(d: Draw, x: float, mid: float, tyre: str, r: float = 17) -> None:
    d.ellipse([x - r, mid - r, x + r, mid + r], fill=TYRE_COLOURS[tyre], outline=DARK, width=2)
    d.text(
        (x, mid),
        TYRE_LETTER[tyre],
        font=font(max(SMALL, int(r * 1.3))),
        fill=DARK if tyre == "hard" else (255, 255, 255),
        anchor="mm",
    )


def _car_row(
    d: Draw,
    y: int,
    i: int,
    s: int,
    car: dict,
    names: list[str],
    c,
    acting: bool,
    quali: dict | None = None,
    tyres_chosen: list | None = None,
    row_h: int = ROW_H,
    gap: int | None = None,
) -> None:
    """Line 1: position, colour, name, tyre and life, failures, status (in qualifying: the
    session's first roll as a die, ticked once the seat has chosen). Line 2: lap, EP, BP, SP.
    Line 3 (the drivers option): the car's driver and team."""
    if i % 2 == 0:
        d.rectangle([0, y, W, y + row_h], fill=ROW_ALT)
    if acting:
        d.rectangle([0, y, 10, y + row_h], fill=HIGHLIGHT)
    top, bottom = y + 22, y + 54
    d.text((34, y + row_h / 2), str(i + 1), font=font(34), fill=TEXT, anchor="mm")
    team = pole_drivers.names(car)
    if team:
        d.text((100, y + 86), fit(team, 26, W - 114), font=font(26), fill=MUTED, anchor="lm")
    d.ellipse([62, top - 13, 88, top + 13], fill=seat_colour(s), outline=DARK)
    d.text((100, top), fit(player_name(names, s), 28, 330), font=font(28), fill=TEXT, anchor="lm")
    x: float = 440
    tyre = car.get("tyre")
    fx = 540
    if tyre in TYRE_COLOURS:  # the tyre in words with its life, as the dashboard keeps it ("soft 1")
        _tyre(d, x + 17, top, tyre)
        life = car.get("life", 0)
        words = fit(tx("{tyre} {life}", tyre=tx(TYRE_WORD[tyre]), life=life), SMALL, 190)
        d.text((x + 40, top), words, font=font(SMALL), fill=(255, 90, 90) if life < 0 else TEXT, anchor="lm")
        fx = int(x + 40 + font(SMALL).getlength(words) + 12)
    x = _failures(d, fx, top, car.get("bd") or [], 28)
    st = _status(car)
    if st:
        d.text((W - 14, top), fit(st, SMALL, W - 14 - x - 8), font=font(SMALL), fill=MUTED, anchor="rm")
    elif quali and str(s) in (quali.get("first") or {}):
        _die(d, W - 60, top, str(quali["first"][str(s)]))
        if s in (quali.get("chosen") or []):
            d.text((W - 20, top), "✓", font=font(28), fill=(90, 200, 120), anchor="mm")
    elif tyres_chosen is not None and s in tyres_chosen:  # the tyre stays secret until all have chosen
        d.text((W - 20, top), "✓", font=font(28), fill=(90, 200, 120), anchor="mm")
    # line 2: the numbers a rival wants to know (lap, engine, brake and skill points)
    x = 100.0
    parts = [(tx("Lap"), str(min(car.get("laps", 0) + 1, c.laps)))]
    parts += [(tx(k.upper()), str(car.get(k, 0))) for k in ("ep", "bp", "sp")]
    if "stress" in car:  # the stress option (12): the driver's level
        parts.append((tx("Stress"), str(car["stress"])))
    for label, value in parts:
        d.text((x, bottom), label, font=font(SMALL), fill=MUTED, anchor="lm")
        x += font(SMALL).getlength(label) + 6
        d.text((x, bottom), value, font=font(26), fill=TEXT, anchor="lm")
        x += font(26).getlength(value) + 22
    if gap is not None and W - 14 - x > 60:  # how far from the car to play, so a fight can be seen coming
        near = tx("level") if gap == 0 else tx("{n} rows ahead", n=gap) if gap > 0 else tx("{n} rows behind", n=-gap)
        d.text((W - 14, bottom), fit(near, SMALL, int(W - 14 - x)), font=font(SMALL), fill=MUTED, anchor="rm")


# -- the seat's own dashboard (DM) -------------------------------------------------------------------------


def render_hand(view: dict, names: list[str], locale: str = "en") -> bytes:
    """The viewing seat's dashboard: tyres in use and in the box, EP/BP/SP, damage, its fight
    preferences and, on its turn, the dice; in the race, the circuit around its car. Texts in `locale`."""
    with drawing_in(locale):
        names = with_bots(view, names)
        return png_bytes(_hand(view, names))


def _hand_head(d: Draw, view: dict, names: list[str], c, seat: int, order: list[int]) -> None:
    """The hand's top band: the seat's colour and name, its place and the phase."""
    d.rectangle([0, 0, W, 76], fill=PANEL)
    d.ellipse([20, 18, 60, 58], fill=seat_colour(seat), outline=DARK)
    d.text((76, 38), fit(player_name(names, seat), 36, 430), font=font(36), fill=TEXT, anchor="lm")
    side = _phase_line(view, c)
    if seat in order:
        side = f"{tx('P{n}', n=order.index(seat) + 1)} · {side}"
    d.text((W - 20, 38), fit(side, 30, 260), font=font(30), fill=HIGHLIGHT, anchor="rm")


def _hand_tyres(d: Draw, view: dict, car: dict, seat: int, y: int) -> int:
    """The tyres fitted (or the secret choice, or qualifying's rolls) and the sets in the box from
    `y`; returns the y below them."""
    tyre = car.get("tyre") or view.get("my_tyre")
    quali = view.get("quali") or {}
    if tyre in TYRE_COLOURS:
        _tyre(d, 56, y + 30, tyre, 28)
        text = (
            tx("Tyres: {tyre}, life {n}", tyre=tx(TYRE_WORD[tyre]), n=car.get("life", 0))
            if car.get("tyre")
            else tx("Your secret choice")
        )
        d.text((100, y + 30), fit(text, 32, W - 120), font=font(32), fill=TEXT, anchor="lm")
    elif str(seat) in (quali.get("first") or {}):  # qualifying: this session's roll, and the choice made
        text = tx("Your rolls: {rolls}", rolls=str(quali["first"][str(seat)]))
        if "mine" in quali:
            text += " · " + (tx("Spend 1 SP for two more rolls") if quali["mine"] else tx("Keep my roll"))
        d.text((28, y + 30), fit(text, 32, W - 48), font=font(32), fill=HIGHLIGHT, anchor="lm")
    y += 84
    label = tx("In the box:")
    d.text((28, y), label, font=font(28), fill=MUTED, anchor="lm")
    x = int(28 + font(28).getlength(label) + 16)
    for t, lives in (car.get("sets") or {}).items():
        for life in lives:
            if x + 46 > W - 10:
                break
            d.ellipse([x, y - 22, x + 44, y + 22], fill=TYRE_COLOURS.get(t, (128, 128, 128)), outline=DARK, width=2)
            d.text((x + 22, y), str(life), font=font(SMALL), fill=DARK if t == "hard" else (255, 255, 255), anchor="mm")
            x += 52
    y += 50
    return y


def _fights_text(prefs: dict) -> str:
    """The seat's standing fight preferences in words."""
    if prefs.get("yield"):
        return tx("Fights: I let attackers through")
    if prefs.get("ask") and prefs.get("ask_attack"):
        return tx("Fights: ask me when attacking and defending")
    if prefs.get("ask"):
        return tx("Fights: attack up to {a} SP, ask me when defending", a=prefs.get("attack", 0))
    if prefs.get("ask_attack"):
        return tx("Fights: ask me when attacking, defend up to {d} SP", d=prefs.get("defend", 0))
    return tx("Fights: attack up to {a} SP, defend up to {d} SP", a=prefs.get("attack", 0), d=prefs.get("defend", 0))


def _hand(view: dict, names: list[str]) -> Image.Image:
    me = view.get("me") or {}
    seat = int(me.get("seat", view.get("viewer") or 0) or 0)
    cars = view.get("cars") or []
    car = cars[seat] if 0 <= seat < len(cars) else {}
    c = circuits()[view["circuit"]]
    order = [s for s in view.get("order") or [] if 0 <= s < len(cars)]
    on_track = (
        view.get("phase") == "race"
        and not car.get("out")
        and not car.get("finished")
        and _pos_u(c, car.get("pos")) is not None
    )
    special = wrap(pole_events.circuit_rules_text(view), 26, W - 48, 2)  # circuit rules (appendix 4)
    dash_h = 560 + pole_drivers.extra_height(car) + 40 * len(special)  # drivers and teams (14)
    img = Image.new("RGB", (W, dash_h + (HAND_MAP_H if on_track else 0)), BACKGROUND)
    d = Draw(img)
    _hand_head(d, view, names, c, seat, order)
    y = _hand_tyres(d, view, car, seat, 104)
    for i, key in enumerate(("ep", "bp", "sp")):
        bx = 20 + i * 258
        d.rounded_rectangle([bx, y, bx + 244, y + 86], radius=12, fill=PANEL)
        d.text((bx + 16, y + 43), fit(tx(key.upper()), 28, 150), font=font(28), fill=MUTED, anchor="lm")
        d.text((bx + 228, y + 43), str(car.get(key, 0)), font=font(48), fill=TEXT, anchor="rm")
    y += 118
    label = tx("Damage:")
    d.text((28, y), label, font=font(28), fill=MUTED, anchor="lm")
    bx = int(28 + font(28).getlength(label) + 16)
    if not car.get("bd"):
        d.text((bx, y), tx("none"), font=font(28), fill=TEXT, anchor="lm")
    _failures(d, bx, y, car.get("bd") or [], 36)
    y += 56
    prefs = me.get("prefs") or {}
    if prefs:
        d.text((28, y), fit(_fights_text(prefs), 26, W - 48), font=font(26), fill=TEXT, anchor="lm")
    y += 52
    ti = view.get("turn_info") or {}
    if (car.get("bot") or {}).get("for"):  # an absent player's car: a bot drives it (17)
        text = tx("A bot drives your car: take your seat back to race again.")
        d.text((28, y), fit(text, 28, W - 48), font=font(28), fill=HIGHLIGHT, anchor="lm")
    elif ti.get("seat") == seat and ti.get("rolls"):
        text = tx("Your rolls: {rolls}", rolls=", ".join(ti["rolls"]))
        d.text((28, y), fit(text, 34, W - 48), font=font(34), fill=HIGHLIGHT, anchor="lm")
    if pole_drivers.extra_height(car):
        pole_drivers.draw(d, car, 560 + 8, W)
    for i, line in enumerate(special):
        d.text((28, 560 + pole_drivers.extra_height(car) + 20 + 40 * i), line, font=font(26), fill=MUTED, anchor="lm")
    if on_track:  # the circuit around the car, and its strip: where it may go, as the move select names it
        map_h = HAND_MAP_H - STRIP_H
        img.paste(_map(c, cars, order, seat, W, map_h, dash_h), (0, dash_h))
        (near, lo), *_ = _strips(c, cars, order, seat, _whole_view(c.key, W, map_h))
        img.paste(_strip(c, cars, order, near, lo, seat, dash_h + map_h), (0, dash_h + map_h))
    return img


# -- results -------------------------------------------------------------------------------------------


def render_results(view: dict, names: list[str], locale: str = "en") -> bytes:
    """The final classification: finishers in order, then retirements."""
    with drawing_in(locale):
        names = with_bots(view, names)
        if pole_championship.wanted(view):  # 15: the season's standings, the constructors
            return png_bytes(pole_championship.image(view, names))
        cars = view.get("cars") or []
        finish = [s for s in view.get("finish") or [] if 0 <= s < len(cars)]
        out = [s for s in range(len(cars)) if s not in finish]
        img = Image.new("RGB", (W, 110 + 72 * len(cars)), BACKGROUND)
        d = Draw(img)
        c = circuits().get(str(view.get("circuit")))
        title = tx("Race result")
        if c is not None:
            title = f"{title} · {tx(c.name)}"
        d.text((W / 2, 54), fit(title, 40, W - 40), font=font(40), fill=TEXT, anchor="mm")
        for i, s in enumerate(finish + out):
            y = 110 + 72 * i
            if i % 2 == 0:
                d.rectangle([0, y, W, y + 72], fill=PANEL)
            label = str(i + 1) if s in finish else tx("out")
            d.text((24, y + 36), fit(label, 34, 110), font=font(34), fill=TEXT, anchor="lm")
            d.ellipse([140, y + 18, 176, y + 54], fill=seat_colour(s), outline=DARK)
            d.text((196, y + 36), fit(player_name(names, s), 34, 300), font=font(34), fill=TEXT, anchor="lm")
            note = _result_note(cars, s, finish, c)
            d.text((W - 20, y + 36), fit(note, 26, W - 520), font=font(26), fill=MUTED, anchor="rm")
        return png_bytes(img)


OUT_WORDS = {"lapped": "lapped", "breakdown": "breakdowns", "crash": "collision", "no_stop": "no pit stop"}


def _result_note(cars: list[dict], s: int, finish: list[int], c) -> str:
    """Laps and the gap: the winner's laps and round at the flag, the others' rounds behind it; a
    retired car's reason and the lap it was on."""
    car = cars[s]
    laps = c.laps if c is not None else car.get("laps", 0)
    if s in finish:
        lead = cars[finish[0]].get("fin_round")
        r = car.get("fin_round")
        if r is None or lead is None:
            return tx("{n} laps", n=laps)
        if s == finish[0]:
            return tx("{n} laps · round {r}", n=laps, r=r)
        if r == lead:
            return tx("same round")
        return tx("+1 round") if r == lead + 1 else tx("+{n} rounds", n=r - lead)
    why = OUT_WORDS.get(car.get("out") or "", "out")
    return tx("{why} · lap {n}", why=tx(why), n=min(car.get("laps", 0) + 1, laps))
