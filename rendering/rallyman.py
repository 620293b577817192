"""Rallyman: DIRT images: the hex stage around the cars (road spaces, lanes, corner limits, danger
colours, jumps, water, shortcuts, slides, start and finish), the cars, the planned dice, and a
time sheet per player. Built from the engine's view only."""

from __future__ import annotations

import math
from functools import lru_cache
from PIL import Image, ImageDraw

from bot.games.rallyman import board as B
from rendering.animation import lossless_webp
from rendering.common import (
    BACKGROUND,
    MUTED,
    PANEL,
    seat_colour,
    TEXT,
    Draw,
    drawing_in,
    fit,
    font,
    note_label,
    note_text,
    player_name,
    png_bytes,
    tx,
)

W = 800
MAP_H = 600
HEADER_H = 56
ROW_H = 70
SMALL = 24  # the smallest text anywhere: Discord's phone preview shows the 800 px image 390 px wide
SCALE = 130.0  # pixels per hex radius when zoomed: a space is about 50 px wide
MIN_SCALE = 100.0  # the whole stage is shown when it fits at this scale

TERRAIN = {"gravel": (120, 98, 70), "asphalt": (78, 80, 86), "snow": (178, 190, 204), None: (100, 100, 100)}
ROAD = {"gravel": (206, 186, 146), "asphalt": (150, 152, 158), "snow": (236, 240, 246), None: (180, 180, 180)}
DANGER = {"y": (250, 204, 21), "o": (245, 130, 32), "r": (225, 45, 45)}
WATER = (70, 150, 235)
SHORTCUT = (150, 110, 60)
DARK = (20, 20, 24)
WHITE = (255, 255, 255)


class _Map:
    """World (hex units, north up) to image pixels for a window of the stage: the whole stage when
    it fits at a readable scale, else a window on the cars (all of them if they fit, else the
    car to play and its dice)."""

    def __init__(self, stage: B.Stage, focus: list[int], main: list[int], width: int, height: int) -> None:
        xs = [B.hex_centre(t[1], t[2])[0] for t in stage.tiles]
        ys = [B.hex_centre(t[1], t[2])[1] for t in stage.tiles]
        x0, x1, y0, y1 = min(xs) - 1.05, max(xs) + 1.05, min(ys) - 0.95, max(ys) + 0.95
        fit_scale = min(width / (x1 - x0), height / (y1 - y0))
        self.w, self.h = width, height
        if fit_scale >= MIN_SCALE:
            self.s = min(fit_scale, SCALE)
            self.cx, self.cy = (x0 + x1) / 2, (y0 + y1) / 2
            return
        self.s = SCALE
        hw, hh = width / 2 / self.s, height / 2 / self.s
        pts = [(stage.spaces[i].x, stage.spaces[i].y) for i in focus]
        if (
            not pts
            or max(p[0] for p in pts) - min(p[0] for p in pts) > 2 * hw - 1.2
            or max(p[1] for p in pts) - min(p[1] for p in pts) > 2 * hh - 1.2
        ):
            pts = [(stage.spaces[i].x, stage.spaces[i].y) for i in main] or [
                (stage.spaces[i].x, stage.spaces[i].y) for i in stage.starts
            ]
        cx = (min(p[0] for p in pts) + max(p[0] for p in pts)) / 2
        cy = (min(p[1] for p in pts) + max(p[1] for p in pts)) / 2
        self.cx = min(max(cx, x0 + hw), x1 - hw) if x1 - x0 > 2 * hw else (x0 + x1) / 2
        self.cy = min(max(cy, y0 + hh), y1 - hh) if y1 - y0 > 2 * hh else (y0 + y1) / 2

    @classmethod
    def at(cls, cx: float, cy: float, scale: float, width: int, height: int) -> "_Map":
        m = cls.__new__(cls)
        m.cx, m.cy, m.s, m.w, m.h = cx, cy, scale, width, height
        return m

    def p(self, x: float, y: float) -> tuple[float, float]:
        return self.w / 2 + (x - self.cx) * self.s, self.h / 2 - (y - self.cy) * self.s


def _rect(m: _Map, x: float, y: float, heading: float, length: float, width: float) -> list[tuple[float, float]]:
    dx, dy = math.cos(heading), math.sin(heading)
    nx, ny = -dy, dx
    pts = []
    for a, b in ((1, 1), (1, -1), (-1, -1), (-1, 1)):
        pts.append(m.p(x + dx * length / 2 * a + nx * width / 2 * b, y + dy * length / 2 * a + ny * width / 2 * b))
    return pts


class _MapDraw(Draw):
    """Draws on the map (pasted `top` px down the image): each text is recorded where it lands in
    the image, kept (for a cached layer to record again when it is reused), and left out when it
    would be cut by the map's edge."""

    def __init__(self, im: Image.Image, top: int, live: bool = True) -> None:
        super().__init__(im)
        self.top, self.live = top, live
        self.kept: list[tuple] = []

    def cover(self, pts) -> None:
        """Write down what a die or car covers (the stage's marks under it are hidden)."""
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        note_label((min(xs), min(ys) + self.top, max(xs), max(ys) + self.top), self.im.size[0], kind="car")

    def text(self, xy, text, fill=None, font=None, anchor=None, *args, **kwargs):  # noqa: A002
        stroke = int(kwargs.get("stroke_width") or 0)
        box = font.getbbox(text, anchor=anchor or "la", stroke_width=stroke)
        w, h = self.im.size
        if xy[0] + box[0] < 0 or xy[1] + box[1] < 0 or xy[0] + box[2] > w or xy[1] + box[3] > h:
            return None
        at = (xy[0], xy[1] + self.top)
        self.kept.append((at, text, font.size, anchor, stroke))
        if self.live:
            note_text(w, at, text, font, anchor, stroke)
        return ImageDraw.ImageDraw.text(self, xy, text, fill, font, anchor, *args, **kwargs)


def _replay(kept: tuple) -> None:
    """Record the texts of a cached layer again, as if drawn now."""
    for at, text, size, anchor, stroke in kept:
        note_text(W, at, text, font(size), anchor, stroke)


def _place(
    d: ImageDraw.ImageDraw,
    taken: list,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill,
    s: float,
    under: tuple = (),
) -> None:
    """A label at `xy` or, if that covers a mark already drawn, at the nearest free spot around it
    (left out when every spot is taken: the mark under it matters more; left out too when its mark
    is under one of the `under` boxes, a car or die: moved off it, it would seem to name another)."""
    if any(u[0] <= xy[0] <= u[2] and u[1] <= xy[1] <= u[3] for u in under):
        return
    f = font(max(SMALL, size))
    box = f.getbbox(text, anchor="mm", stroke_width=2)
    for dx, dy in (
        (0, 0),
        (0, -0.32),
        (0, 0.32),
        (0.42, 0),
        (-0.42, 0),
        (0.4, -0.32),
        (-0.4, -0.32),
        (0.4, 0.32),
        (-0.4, 0.32),
        (0, -0.6),
        (0, 0.6),
    ):
        x, y = xy[0] + dx * s, xy[1] + dy * s
        here = (x + box[0] - 2, y + box[1] - 2, x + box[2] + 2, y + box[3] + 2)
        if not any(min(here[2], t[2]) > max(here[0], t[0]) and min(here[3], t[3]) > max(here[1], t[1]) for t in taken):
            taken.append(here)
            _label(d, (x, y), text, size, fill)
            return


def _label(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill, stroke=DARK) -> None:
    d.text(xy, text, font=font(max(SMALL, size)), fill=fill, anchor="mm", stroke_width=2, stroke_fill=stroke)


@lru_cache(maxsize=16)
def _static(
    key: str, cx: float, cy: float, scale: float, mud_items: tuple, locale: str, under: tuple = (), avoid: tuple = ()
) -> tuple[Image.Image, tuple]:
    """The stage without cars or dice for one window (cached: it changes only when the window moves,
    mud falls or the cars and dice move; its few texts are in `locale`). Its labels (jumps, water,
    shortcuts, mud) keep off what will be drawn over it: the `under` boxes (cars and dice: a label
    whose mark is under one is left out) and the `avoid` ones (the plan's path)."""
    stage = B.stage(key)
    m = _Map.at(cx, cy, scale, W, MAP_H)
    mud = {k: v for k, v in mud_items}
    img = Image.new("RGB", (W, MAP_H), BACKGROUND)
    d = _MapDraw(img, HEADER_H, live=False)  # recorded by _replay, at each use
    _draw_tiles(d, m, stage)
    _draw_road(d, m, stage)
    # marks on top: the corner limits first, then the labels, each placed where it covers no mark
    # (nor a car, die or path drawn later)
    taken = _draw_limits(d, m, stage, mud)
    taken += list(under) + list(avoid)
    _draw_labels(d, m, stage, mud, taken, under)
    return img, tuple(d.kept)


def _draw_tiles(d: _MapDraw, m: _Map, stage: B.Stage) -> None:
    """The tiles: terrain with the danger colour round the edge."""
    for t, q, r, rot, en, ex in stage.tiles:
        cx, cy = B.hex_centre(q, r)
        pts = [m.p(cx + math.cos(math.radians(60 * k)), cy + math.sin(math.radians(60 * k))) for k in range(6)]
        d.polygon(pts, fill=TERRAIN.get(_terrain(t), TERRAIN[None]))
        d.line(pts + [pts[0]], fill=DANGER[t.danger], width=max(3, int(m.s / 24)))


def _draw_road(d: _MapDraw, m: _Map, stage: B.Stage) -> None:
    """The road's spaces: rows share the tile's length, so short tiles get long spaces and no gaps."""
    fronts: dict[int, set] = {}
    for sp in stage.spaces:
        fronts.setdefault(sp.tile, set()).add(round(sp.front, 3))
    for sp in stage.spaces:
        tile = stage.tiles[sp.tile][0]
        road = ROAD.get(_terrain(tile), ROAD[None])
        length, width = min(0.62, 1.55 / max(1, len(fronts[sp.tile]))), 0.40
        if sp.kind in ("inner", "outer", "shortcut"):
            length, width = 0.36, 0.36
        if sp.kind == "single":
            width = 0.80
        fill = road
        if sp.water:
            fill = WATER
        if sp.kind == "shortcut":
            fill = SHORTCUT
        poly = _rect(m, sp.x, sp.y, sp.heading, length, width)
        d.polygon(poly, fill=fill, outline=DARK)
        if sp.kind == "slide":
            # dotted line across the row (the slide)
            a, b = poly[1], poly[2]
            for k in range(4):
                t0 = (k + 0.2) / 4
                d.point((a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0), fill=DARK)
            mid = ((poly[0][0] + poly[1][0]) / 2, (poly[0][1] + poly[1][1]) / 2)
            end = ((poly[2][0] + poly[3][0]) / 2, (poly[2][1] + poly[3][1]) / 2)
            _dashed(d, mid, end, DARK)
        if sp.finish or sp.start:
            edge = poly[2:4] if sp.finish else poly[0:2]  # the line: ahead of the start row, behind the finish row
            _checker(d, edge)


def _draw_limits(d: _MapDraw, m: _Map, stage: B.Stage, mud: dict) -> list[tuple[float, float, float, float]]:
    """The corner and single-space limits (lowered by mud, in red); the boxes they cover."""
    taken: list[tuple[float, float, float, float]] = []
    for sp in stage.spaces:
        x, y = m.p(sp.x, sp.y)
        if sp.kind in ("inner", "outer", "single") and sp.limit:
            lim = sp.limit - (int(mud.get(str(sp.corner), 0)) if sp.corner >= 0 else 0)
            r = max(m.s * 0.13, 15)
            if any(abs(x - (t[0] + t[2]) / 2) < 2 * r and abs(y - (t[1] + t[3]) / 2) < 2 * r for t in taken):
                continue  # a tight corner: the space next to it shows the same limit (true on every stage)
            d.ellipse((x - r, y - r, x + r, y + r), fill=WHITE, outline=DARK, width=2)
            d.text(
                (x, y),
                str(lim),
                font=font(max(SMALL, int(r * 1.6))),
                fill=DARK if lim == sp.limit else (200, 0, 0),
                anchor="mm",
            )
            taken.append((x - r, y - r, x + r, y + r))
    return taken


def _draw_labels(d: _MapDraw, m: _Map, stage: B.Stage, mud: dict, taken: list, under: tuple) -> None:
    """Shortcut values, jumps, water and mud, each where it covers nothing already `taken`."""
    s = m.s
    for sp in stage.spaces:
        x, y = m.p(sp.x, sp.y)
        if sp.kind == "shortcut":
            _place(d, taken, (x, y), f"≤{sp.shortcut}", int(s * 0.2), WHITE, s, under)
        if (sp.jump or sp.water) and sp.lane == 0:
            other = stage.beside(sp.id)
            ox, oy = m.p(stage.spaces[other].x, stage.spaces[other].y) if other is not None else (x, y)
            if sp.jump:
                _place(
                    d, taken, ((x + ox) / 2, (y + oy) / 2), tx("Jump {n}", n=sp.jump), int(s * 0.2), (255, 230, 120), s
                )  # a jump space looks like any other: its label moves, never goes
            if sp.water:
                _place(d, taken, ((x + ox) / 2, (y + oy) / 2), "≈≈", int(s * 0.24), WHITE, s, under)
    for c in stage.corners:
        n = int(mud.get(str(c.id), 0))
        if n:
            sp = stage.spaces[c.outer[len(c.outer) // 2]]
            x, y = m.p(sp.x, sp.y)
            _place(d, taken, (x, y - s * 0.3), tx("mud -{n}", n=n), int(s * 0.2), (255, 120, 120), s, under)


PATH = (255, 214, 10)  # the plan's path: from the car through its dice


def _hits(box, taken) -> bool:
    return any(min(box[2], t[2]) > max(box[0], t[0]) and min(box[3], t[3]) > max(box[1], t[1]) for t in taken)


def _free(box, taken) -> bool:
    """Inside the map and clear of every box in `taken`."""
    return box[0] >= 0 and box[1] >= 0 and box[2] <= W and box[3] <= MAP_H and not _hits(box, taken)


def _bbox(pts) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def _draw_map(view: dict, names: list[str], plan: list, locale: str, preview: bool = False) -> Image.Image:
    stage = B.stage(view["stage"])
    cars = view["cars"]
    focus = [c["space"] for c in cars if c["space"] is not None and c["entered"] and not c["finished"]]
    focus += [s[1] for s in plan]
    main = [c["space"] for c in cars if c["seat"] in view.get("to_act", []) and c["space"] is not None]
    main += [s[1] for s in plan]
    m = _Map(stage, focus, main, W, MAP_H)
    s = m.s
    # where the path, the dice and the cars go: the stage's labels keep off them
    me = next((c for c in cars if c["seat"] in view.get("to_act", []) and c["space"] is not None), None)
    path = []
    if plan and me is not None:
        path = [m.p(stage.spaces[me["space"]].x, stage.spaces[me["space"]].y)] + [
            m.p(stage.spaces[st[1]].x, stage.spaces[st[1]].y) for st in plan
        ]
    r = max(s * 0.19, 20)
    dice = [(step, *m.p(stage.spaces[step[1]].x, stage.spaces[step[1]].y)) for step in plan]
    shown = _car_shapes(m, stage, cars)
    under = [_bbox(poly) for _, poly in shown] + [(x - r - 4, y - r - 4, x + r + 4, y + r + 4) for _, x, y in dice]
    layer, kept = _static(
        stage.key,
        round(m.cx, 3),
        round(m.cy, 3),
        round(m.s, 3),
        tuple(sorted((k, int(v)) for k, v in view.get("mud", {}).items())),
        locale,
        tuple(tuple(round(v) for v in box) for box in under),
        tuple(tuple(round(v) for v in box) for box in _along(path)),
    )
    img = layer.copy()
    _replay(kept)
    d = _MapDraw(img, HEADER_H)
    # the plan's path from the car through its dice (a preview: the plan list's first entry)
    if path:
        d.line(path, fill=DARK, width=14 if not preview else 10, joint="curve")
        d.line(path, fill=PATH if not preview else (235, 235, 235), width=8 if not preview else 5, joint="curve")
    # the texts drawn so far that stay in sight: the dice's and the cars' texts keep off them
    covers = [_bbox(poly) for _, poly in shown] + [(x - r, y - r, x + r, y + r) for _, x, y in dice]
    texts = _texts_in_sight(kept, covers)
    squares: list[
        tuple[float, float, float, float]
    ] = []  # the dice's squares (a car's number keeps off them when it can)
    # the cars, then the dice over them (a die next to a car stays whole)
    for c, poly in shown:
        col = seat_colour(c["seat"])
        d.cover(poly)
        if not c["on_track"]:
            d.polygon(poly, fill=(90, 90, 90), outline=col, width=3)
        else:
            d.polygon(poly, fill=col, outline=WHITE, width=2)
    for step, x, y in dice:
        _draw_die(d, step, x, y, r, preview, texts, squares)
        squares.append((x - r, y - r, x + r, y + r))
    for c, poly in shown:
        _car_number(d, c, poly, s, texts, squares)
    return img


def _car_shapes(m: _Map, stage: B.Stage, cars: list[dict]) -> list[tuple[dict, list]]:
    """The cars on the stage with their outlines (sideways in a slide or an outer lane; a car off
    the lane drawn beside it)."""
    shown = []
    for c in cars:
        if c["space"] is None or not c["entered"] or c["finished"]:
            continue
        sp = stage.spaces[c["space"]]
        heading = sp.heading + (math.pi / 2 if c["sideways"] or sp.kind == "outer" else 0.0)
        poly = _rect(m, sp.x, sp.y, heading, 0.52, 0.34)
        if not c["on_track"]:
            poly = [(px + m.s * 0.22, py + m.s * 0.22) for px, py in poly]
        shown.append((c, poly))
    return shown


def _along(path: list) -> list[tuple[float, float, float, float]]:
    """Small boxes along the plan's path, every 8 pixels (the stage's labels keep off it)."""
    avoid = []
    for (ax, ay), (bx, by) in zip(path, path[1:]):
        n = max(1, int(math.hypot(bx - ax, by - ay) / 8))
        avoid += [
            (
                ax + (bx - ax) * k / n - 7,
                ay + (by - ay) * k / n - 7,
                ax + (bx - ax) * k / n + 7,
                ay + (by - ay) * k / n + 7,
            )
            for k in range(n + 1)
        ]
    return avoid


def _texts_in_sight(kept: tuple, covers: list) -> list[tuple[float, float, float, float]]:
    """The boxes of the stage's texts that no car or die covers (kept when in doubt)."""
    texts = []
    for at, text, size, anchor, stroke in kept:
        box = font(size).getbbox(text, anchor=anchor or "la", stroke_width=stroke)
        box = (at[0] + box[0], at[1] - HEADER_H + box[1], at[0] + box[2], at[1] - HEADER_H + box[3])
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if not any(c[0] + 3 < cx < c[2] - 3 and c[1] + 3 < cy < c[3] - 3 for c in covers):  # kept when in doubt
            texts.append(box)
    return texts


def _draw_die(d: _MapDraw, step: list, x: float, y: float, r: float, preview: bool, texts: list, squares: list) -> None:
    """A die of the plan where it goes, its value clear of the texts in sight (added to `texts`),
    a "!" on a corner when the step risks a loss of control."""
    die = step[0]
    red = die.endswith("b")
    fill = (240, 240, 240) if die == "c" else (30, 30, 30)
    ink = DARK if die == "c" else WHITE
    d.cover([(x - r, y - r), (x + r, y + r)])
    d.rounded_rectangle(
        (x - r, y - r, x + r, y + r),
        radius=r * 0.3,
        fill=fill,
        outline=(220, 40, 40) if red else PATH if preview else WHITE,
        width=3 if red or preview else 1,
    )
    # its value in the middle, or nudged within the die off a text the die leaves in sight
    label, f = "C" if die == "c" else str(step[2]), font(max(SMALL, int(r * 1.5)))
    box = f.getbbox(label, anchor="mm")
    nudges = [(0, 0)] + [(k * ux, k * uy) for k in (3, 6, 9) for ux, uy in ((0, 1), (0, -1), (1, 0), (-1, 0))]
    tx_, ty_ = next(
        (
            (x + u, y + v)
            for u, v in nudges
            if not _hits((x + u + box[0], y + v + box[1], x + u + box[2], y + v + box[3]), texts)
        ),
        (x, y),
    )
    d.text((tx_, ty_), label, font=f, fill=ink, anchor="mm")
    texts.append((tx_ + box[0], ty_ + box[1], tx_ + box[2], ty_ + box[3]))
    if step[3] in ("ov", "p2", "p1"):  # a "!" on a corner of the die clear of texts and other dice
        box = font(max(SMALL, int(r * 1.3))).getbbox("!", anchor="mm", stroke_width=2)
        ex, ey = next(
            (
                (ex, ey)
                for ex, ey in ((x + r, y - r), (x - r, y - r), (x + r, y + r), (x - r, y + r))
                if not _hits((ex + box[0], ey + box[1], ex + box[2], ey + box[3]), texts + squares)
            ),
            (x + r, y - r),
        )
        texts.append((ex + box[0], ey + box[1], ex + box[2], ey + box[3]))
        _label(d, (ex, ey), "!", int(r * 1.3), (255, 80, 80))


def _car_number(d: _MapDraw, c: dict, poly: list, s: float, texts: list, squares: list) -> None:
    """The car's number on its middle or, when a text or die is there, further along the car or
    beside it (on a die rather than on a text when nothing else is free; in the middle when all is)."""
    cxp = sum(p[0] for p in poly) / 4
    cyp = sum(p[1] for p in poly) / 4
    ax, ay = (poly[0][0] + poly[1][0]) / 2 - cxp, (poly[0][1] + poly[1][1]) / 2 - cyp  # to the car's nose
    bx, by = (poly[1][0] + poly[2][0]) / 2 - cxp, (poly[1][1] + poly[2][1]) / 2 - cyp  # to its side
    text, size = str(c["seat"] + 1), int(s * 0.3)
    box = font(max(SMALL, size)).getbbox(text, anchor="mm", stroke_width=2)
    spots = [
        (0, 0),
        (0.4, 0),
        (-0.4, 0),
        (0.8, 0),
        (-0.8, 0),
        (0, 1.6),
        (0, -1.6),
        (1.5, 0),
        (-1.5, 0),
        (1, 1.6),
        (1, -1.6),
        (-1, 1.6),
        (-1, -1.6),
        (0, 2.6),
        (0, -2.6),
    ]
    x, y = next(
        (
            (px, py)
            for keep_off in (texts + squares, texts)
            for px, py in ((cxp + ax * u + bx * v, cyp + ay * u + by * v) for u, v in spots)
            if _free((px + box[0] - 1, py + box[1] - 1, px + box[2] + 1, py + box[3] + 1), keep_off)
        ),
        (cxp, cyp),
    )
    texts.append((x + box[0], y + box[1], x + box[2], y + box[3]))
    _label(d, (x, y), text, size, WHITE)


def _terrain(t: B.Tile) -> str | None:
    return t.terrain


def _dashed(d: ImageDraw.ImageDraw, a, b, fill) -> None:
    n = 6
    for k in range(0, n, 2):
        t0, t1 = k / n, (k + 1) / n
        d.line(
            (
                a[0] + (b[0] - a[0]) * t0,
                a[1] + (b[1] - a[1]) * t0,
                a[0] + (b[0] - a[0]) * t1,
                a[1] + (b[1] - a[1]) * t1,
            ),
            fill=fill,
            width=2,
        )


def _checker(d: ImageDraw.ImageDraw, edge) -> None:
    (ax, ay), (bx, by) = edge
    n = 6
    for k in range(n):
        t0, t1 = k / n, (k + 1) / n
        d.line(
            (ax + (bx - ax) * t0, ay + (by - ay) * t0, ax + (bx - ax) * t1, ay + (by - ay) * t1),
            fill=WHITE if k % 2 else DARK,
            width=5,
        )


def _sheet(view: dict, names: list[str], img: Image.Image, top: int) -> None:
    d = Draw(img)
    cars = view["cars"]
    order = {s: i for i, s in enumerate(view.get("order", []))}
    to_act = set(view.get("to_act", []))
    heads = [(tx("Gear"), 325), (tx("Time"), 420), (tx("Chips"), 530), (tx("Damage"), 642), (tx("Spare"), 746)]
    for label, x in heads:
        d.text((x, top + 4), label, font=font(SMALL), fill=MUTED, anchor="mt")
    y = top + 36
    for c in sorted(cars, key=lambda c: (order.get(c["seat"], 99), c["seat"])):
        seat = c["seat"]
        if seat in to_act:
            d.rectangle((0, y, W, y + ROW_H - 4), fill=(70, 64, 40))
        else:
            d.rectangle((0, y, W, y + ROW_H - 4), fill=PANEL)
        d.rectangle((0, y, 14, y + ROW_H - 4), fill=seat_colour(seat))
        d.text((28, y + 4), f"{seat + 1}", font=font(28), fill=seat_colour(seat))
        name = fit(player_name(names, seat), 28, 250)
        d.text((58, y + 4), name, font=font(28), fill=TEXT)
        status = ""
        if c["finished"]:
            status = tx("finished")
        elif not c["entered"]:
            status = tx("not started")
        elif not c["on_track"]:
            status = tx("off the road")
        if status:
            d.text((58, y + 38), fit(status, SMALL, 250), font=font(SMALL), fill=MUTED)
        d.text((325, y + ROW_H / 2 - 2), str(c["gear"]), font=font(30), fill=TEXT, anchor="mm")
        d.text((420, y + ROW_H / 2 - 2), tx("{s} s", s=c["time"] - c["chips"]), font=font(28), fill=TEXT, anchor="mm")
        d.text((530, y + ROW_H / 2 - 2), str(c["chips"]), font=font(28), fill=TEXT, anchor="mm")
        dm = c["damage"]
        dmg = " ".join(f"{k}{n}" for k, n in (("G", dm["gear"]), ("B", dm["brake"]), ("C", dm["coast"])) if n) or "–"
        d.text((642, y + ROW_H / 2 - 2), dmg, font=font(26), fill=(255, 140, 140) if dmg != "–" else TEXT, anchor="mm")
        d.text((746, y + ROW_H / 2 - 2), "✓" if c["spare"] else "–", font=font(28), fill=TEXT, anchor="mm")
        y += ROW_H


def _draw(view: dict, names: list[str], plan: list, locale: str, preview: bool = False) -> Image.Image:
    n = len(view["cars"])
    sheet_h = 36 + n * ROW_H + 8
    extra = 40 if view.get("phase") == "roll" else 0
    img = Image.new("RGB", (W, HEADER_H + MAP_H + extra + sheet_h), BACKGROUND)
    d = Draw(img)
    title = tx("Rallyman: DIRT — {stage}", stage=view["stage"])
    if len(view.get("legs", [])) > 1:
        title += "  " + tx("SS {n}/{m}", n=view["leg"] + 1, m=len(view["legs"]))
    d.text((16, HEADER_H / 2), fit(title, 28, 520), font=font(28), fill=TEXT, anchor="lm")
    d.text((W - 16, HEADER_H / 2), tx("Round {n}", n=view["round"]), font=font(26), fill=MUTED, anchor="rm")
    img.paste(_draw_map(view, names, plan, locale, preview), (0, HEADER_H))
    y = HEADER_H + MAP_H
    if extra:
        r = view.get("roll") or {}
        line = tx('"!" so far: {n}/3 — next die: {p}', n=r.get("bangs", 0), p=_pct(view.get("chance_next") or 0.0))
        if view.get("chance_flat") is not None:
            line += "   " + tx("flat out: {p}", p=_pct(view["chance_flat"]))
        d.text((16, y + 20), fit(line, 24, W - 32), font=font(24), fill=(255, 214, 10), anchor="lm")
        y += extra
    _sheet(view, names, img, y)
    return img


def _pct(p: float) -> str:
    return f"{p * 100:.0f}%" if p >= 0.01 or p == 0 else "<1%"


def render_board(view: dict, names: list[str], locale: str = "en") -> bytes:
    """The public board, as a lossless WebP: 39% of the PNG's bytes, no slower to encode
    (rendering/animation.py, WEBP_BOARDS)."""
    with drawing_in(locale):
        return lossless_webp(_draw(view, names, view.get("plan") or [], locale or "en"))


def render_hand(view: dict, names: list[str], locale: str = "en") -> bytes:
    """The seat's DM: the same board, with the plan it is building or rolling, else (dashed) the
    plan list's first entry, so that its "(left)/(inside)" can be followed on the map."""
    plan = view.get("draft") or view.get("plan") or []
    with drawing_in(locale):
        return png_bytes(_draw(view, names, plan or view.get("preview") or [], locale or "en", preview=not plan))


def render_results(view: dict, names: list[str], locale: str = "en") -> bytes:
    with drawing_in(locale):
        res = view.get("result") or {"totals": [], "places": []}
        rows = sorted(range(len(res["totals"])), key=lambda s: (res["places"][s], s))
        img = Image.new("RGB", (W, 80 + ROW_H * len(rows)), BACKGROUND)
        d = Draw(img)
        d.text(
            (16, 40),
            fit(tx("Stage times — {stage}", stage=view["stage"]), 30, W - 220),
            font=font(30),
            fill=TEXT,
            anchor="lm",
        )
        y = 80
        for seat in rows:
            d.rectangle((0, y, W, y + ROW_H - 4), fill=PANEL)
            d.rectangle((0, y, 14, y + ROW_H - 4), fill=seat_colour(seat))
            d.text((40, y + ROW_H / 2 - 2), f"{res['places'][seat]}.", font=font(30), fill=TEXT, anchor="lm")
            d.text(
                (100, y + ROW_H / 2 - 2), fit(player_name(names, seat), 30, 440), font=font(30), fill=TEXT, anchor="lm"
            )
            d.text(
                (W - 24, y + ROW_H / 2 - 2), tx("{s} s", s=res["totals"][seat]), font=font(30), fill=TEXT, anchor="rm"
            )
            y += ROW_H
        if res.get("par"):
            d.text((W - 24, 40), tx("Par {s} s", s=res["par"]), font=font(26), fill=MUTED, anchor="rm")
        return png_bytes(img)
