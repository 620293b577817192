"""Heat images: the race board (channel), a seat's hand (DM) and the final standings.

Designed for Discord's phone preview (390 px wide): 800 px canvases, no text under SMALL px.
The board is a header, a map zoomed on the cars' part of the circuit (with the whole circuit in
a corner, the map's window outlined on it), and two-line rows per car. Name labels on the map are
placed so that they never overlap one another nor hide a car or a corner sign.

Only the engine's views are read (see the keys used below; extra keys are ignored). The circuit
itself is a cached static layer (rendering/heat_track.py) the map is cut from; each board then
draws numbers, signs, cars and labels at the map's scale, and maps the picture onto a fixed
256-colour palette (built once per circuit) so that PNG encoding stays fast and the file small.
"""

from __future__ import annotations

import io
import math
import time
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.text import chain
from bot.i18n import Msg
from rendering import heat_track as ht
from rendering.heat_colours import LEGEND_WHITE, legend_seats, seat_colour
from rendering.heat_standings import decorate, press_marks, render_standings
from rendering.common import (
    BACKGROUND,
    MUTED,
    PANEL,
    PLAYER_COLOURS,
    TEXT,
    MaskDraw,
    clean_text,
    drawing_in,
    english,
    fit,
    font,
    not_recording,
    note_label,
    player_name,
    tx,
    words,
    wrap,
)

W = 800  # Discord's phone preview shows images 390 px wide: every text here is >= min_font(W)
HEADER_H = 104
MAP_H = 560  # the zoomed view of the cars' part of the circuit
CAPTION_H = 44
ROW_H = 96
BOTTOM_PAD = 12
LABEL_FONT = 26  # car name labels on the circuit
NUMBER_FONT = 24  # space numbers on the circuit
SMALL = 24  # the smallest text anywhere (min_font(800) is 23)
ZOOM_MAX = 1.5  # map px per circuit-canvas px at the closest
LAYER_ZOOM = ZOOM_MAX  # the circuit layer the map is cut from (drawn supersampled: smooth)
MINI_W = 250  # the whole-circuit overview in a corner of the map
HAND_HEAD = 262  # hand image: height of the header above the cards
ROW_ALT = (54, 57, 63)
WAITING = (255, 214, 10)
GOLD, SILVER, BRONZE = (255, 200, 40), (200, 205, 215), (205, 127, 50)
ORANGE = (245, 120, 40)
CHOSEN = (255, 214, 10)

KIND_STYLE = {  # fill, text
    "speed": ((241, 236, 220), (20, 20, 24)),
    "heat": ((226, 78, 27), (255, 255, 255)),
    "stress": ((120, 64, 200), (255, 255, 255)),
    "upgrade": ((20, 140, 130), (255, 255, 255)),
}

# The numbers a car row shows, as "caption value" tags (tx(caption) in the image's locale).
STAT_COLS = [("Gear", 0), ("Heat", 1)]


# ---------------------------------------------------------------- small helpers


def _ink(fill: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white text, whichever reads better on `fill`."""
    r, g, b = fill[:3]
    return (20, 20, 24) if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (255, 255, 255)


def _short(name: str) -> str:
    return name if len(name) <= 9 else name[:8].rstrip() + "."


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return tx("{n}th", n=n)
    return {1: tx("{n}st", n=n), 2: tx("{n}nd", n=n), 3: tx("{n}rd", n=n)}.get(n % 10) or tx("{n}th", n=n)


def _int(value, default: int = 0) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _cars(view: dict) -> dict[int, dict]:
    out = {}
    for car in view.get("cars") or []:
        if isinstance(car, dict) and "seat" in car:
            out[_int(car["seat"])] = car
    return out


def _race_order(view: dict, cars: dict[int, dict]) -> list[int]:
    order = view.get("order") or []
    if view.get("phase") == "over" and view.get("standings"):
        order = view["standings"]
    order = [s for s in dict.fromkeys(order) if s in cars]
    return order + [s for s in sorted(cars) if s not in order]


def _standings(view: dict, cars: dict[int, dict]) -> list[int]:
    if view.get("standings"):
        seats = [s for s in dict.fromkeys(view["standings"]) if s in cars]
    else:
        placed = sorted((c.get("place") or 99, s) for s, c in cars.items() if c.get("place"))
        seats = [s for _, s in placed]
        seats += [s for s in (view.get("order") or []) if s in cars and s not in seats]
    return seats + [s for s in sorted(cars) if s not in seats]


def _kind_of_label(label: str) -> str:
    low = label.lower()
    if "stress" in low:
        return "stress"
    if "heat" in low:
        return "heat"
    if "upgrade" in low:
        return "upgrade"
    if low.strip().lstrip("+-").isdigit() or low.startswith("speed"):
        return "speed"
    return "upgrade"


def _chip_parts(label) -> list[tuple[str, str]]:
    """A revealed card label (a Msg from the view, or English text) as chip segments:
    "Speed 3" -> [("3", speed)]; "Stress → Speed 2" (a Stress card flipped into a Speed 2) ->
    [("Stress", ...), ("2", ...)]. The kind is read from the English words, the text shown is
    in the image's locale."""
    if isinstance(label, Msg):
        pieces: list = [label.params["card"], label.params["found"]] if label.key == "{card} → {found}" else [label]
    else:
        pieces = str(label).split("\u2192")
    parts = []
    for piece in pieces:
        eng = clean_text(english(piece), "?")
        part = clean_text(words(piece), "?")
        kind = _kind_of_label(eng)
        ws = eng.split()
        if kind in ("speed", "upgrade") and len(ws) == 2 and ws[1].lstrip("-").isdigit():
            part = ws[1]
        parts.append((part, kind))
    return parts


def _tag(d: ImageDraw.ImageDraw, x: float, y: float, text: str, fill, size: int = SMALL, ink=None) -> float:
    """A small rounded tag; returns its width."""
    f = font(size)
    w = f.getlength(text) + 14
    d.rounded_rectangle([x, y, x + w, y + size + 8], radius=6, fill=fill)
    d.text((x + 7, y + (size + 8) / 2), text, font=f, fill=ink or _ink(fill), anchor="lm")
    return w


CHIP_TEXT = 150  # a card's name in a chip, when the row is short of room (else whole)


def _chip_width(label: str, size: int = SMALL, h: int = 34, limit: float = CHIP_TEXT) -> float:
    f = font(size)
    return sum(max(h, f.getlength(fit(text, size, limit)) + 16) for text, _ in _chip_parts(label)) + 12 * (
        len(_chip_parts(label)) - 1
    )


def _chip(
    d: ImageDraw.ImageDraw, x: float, y: float, label: str, size: int = SMALL, h: int = 34, limit: float = CHIP_TEXT
) -> float:
    """One revealed card (segments joined for a flipped Stress); returns its width."""
    f = font(size)
    x0 = x
    for i, (text, kind) in enumerate(_chip_parts(label)):
        fill, ink = KIND_STYLE[kind]
        text = fit(text, size, limit)
        w = max(h, f.getlength(text) + 16)
        if i:
            d.text((x + 1, y + h / 2), "\u203a", font=f, fill=TEXT, anchor="lm")
            x += 12
        d.rounded_rectangle([x, y, x + w, y + h], radius=6, fill=fill, outline=(20, 20, 24))
        d.text((x + w / 2, y + h / 2 + 1), text, font=f, fill=ink, anchor="mm")
        x += w
    return x - x0


def _encode(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, "PNG", compress_level=3)
    return buf.getvalue()


# ---------------------------------------------------------------- cars


@lru_cache(maxsize=4096)
def _car_sprite(seat_colour: tuple[int, int, int], heading: int, length: int, width: int) -> Image.Image:
    """A top-down car pointing along `heading` (degrees, clockwise from +x), anti-aliased
    (drawn at twice the size: the rotation of bigger sprites costs more than it shows)."""
    k = 2
    L, Wd = length * k, width * k
    pad = 3 * k
    im = Image.new("RGBA", (L + 2 * pad, Wd + 2 * pad), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    x0, y0 = pad, pad
    d.rounded_rectangle(
        [x0, y0, x0 + L, y0 + Wd],
        radius=int(Wd * 0.42),
        fill=seat_colour + (255,),
        outline=(15, 15, 18, 255),
        width=2 * k,
    )
    # windscreen towards the front (+x), leaving the middle of the car in the player colour
    wx = x0 + L * 0.66
    d.rounded_rectangle([wx, y0 + Wd * 0.22, wx + L * 0.12, y0 + Wd * 0.78], radius=k, fill=(25, 28, 34, 255))
    # a light nose stripe
    d.rounded_rectangle(
        [x0 + L * 0.84, y0 + Wd * 0.38, x0 + L * 0.95, y0 + Wd * 0.62], radius=k, fill=(255, 255, 255, 220)
    )
    im = im.rotate(-heading, resample=Image.Resampling.BICUBIC, expand=True)
    return im.reduce(k)


def _rect_overlap(a, b) -> float:
    dx = min(a[2], b[2]) - max(a[0], b[0])
    dy = min(a[3], b[3]) - max(a[1], b[1])
    return dx * dy if dx > 0 and dy > 0 else 0.0


def _segment_dist(x1, y1, x2, y2, px, py) -> float:
    """Distance from point p to the segment 1-2."""
    vx, vy = x2 - x1, y2 - y1
    length2 = vx * vx + vy * vy
    k = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - x1) * vx + (py - y1) * vy) / length2))
    return math.hypot(x1 + k * vx - px, y1 + k * vy - py)


def _circle_hits(rect, cx, cy, r) -> bool:
    nx = min(max(cx, rect[0]), rect[2])
    ny = min(max(cy, rect[1]), rect[3])
    return (cx - nx) ** 2 + (cy - ny) ** 2 < r * r


LABEL_GAP = 4  # px kept free between two labels
NUMBER_PENALTY = 60.0  # a label over a space number: dearer than a place a little farther out (issue #33)


def _anywhere(
    x: float,
    y: float,
    w: float,
    h: float,
    area: tuple,
    free,
    cars: list[tuple[float, float]],
    signs: list[tuple],
    car_r: float,
) -> tuple | None:
    """The free w x h place in the area nearest to (x, y) that hides no car nor sign; else the
    nearest free one; None when there is none."""
    ax0, ay0, ax1, ay1 = area
    step = 16
    spots = sorted(
        (math.hypot(cx - x, cy - y), cx, cy)
        for cx in range(int(ax0 + w / 2), int(ax1 - w / 2), step)
        for cy in range(int(ay0 + h / 2), int(ay1 - h / 2), step)
    )
    for _, cx, cy in spots:
        rect = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
        if (
            free(rect)
            and not any(_circle_hits(rect, px, py, car_r) for px, py in cars)
            and not any(_circle_hits(rect, px, py, r) for px, py, r, _ in signs)
        ):
            return rect
    for _, cx, cy in spots:
        rect = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
        if free(rect):
            return rect
    return None


def place_labels(
    cars: list[tuple[int, float, float, float, float, str]],
    area: tuple,
    obstacles: list[tuple[float, float, float, float]],
    keep_out: list[tuple],
    car_r: float,
    road: float,
) -> dict[int, tuple]:
    """Name labels that never overlap one another: each takes the cheapest free place.

    cars: (seat, x, y, nx, ny, text) in map pixels, (nx, ny) the road's normal there, leader
    first. area: (x0, y0, x1, y1) the labels must stay inside. obstacles: (x, y, r, penalty)
    circles a label should not cover (cars, signs); keep_out: rectangles it must not touch.
    Near places beside the road are tried first, then anywhere in the area, nearest first; a
    place overlapping a label already placed is never taken. Returns seat -> rect."""
    f = font(LABEL_FONT)
    placed: dict[int, tuple] = {}
    h = LABEL_FONT + 14
    ax0, ay0, ax1, ay1 = area

    blockers = list(keep_out)

    def free(rect) -> bool:
        if rect[0] < ax0 or rect[1] < ay0 or rect[2] > ax1 or rect[3] > ay1:
            return False
        x0, y0, x1, y1 = rect[0] - LABEL_GAP, rect[1] - LABEL_GAP, rect[2] + LABEL_GAP, rect[3] + LABEL_GAP
        for o in blockers:
            if x0 < o[2] and o[0] < x1 and y0 < o[3] and o[1] < y1:
                return False
        return True

    for seat, x, y, nx, ny, text in cars:
        w = f.getlength(text) + 20
        dx, dy = -ny, nx
        others = [(x2, y2) for s2, x2, y2, *_ in cars if s2 != seat]
        near = [o for o in obstacles if abs(o[0] - x) < 400 and abs(o[1] - y) < 400]
        # (cars are 500: checked above as cars; a space number is only a cost, NUMBER_PENALTY)
        signs = [o for o in obstacles if NUMBER_PENALTY < o[3] < 500]
        ring = sorted(
            (0.5 * dist + 0.3 * abs(along), side * nx * dist + dx * along, side * ny * dist + dy * along)
            for dist in (road + 22, road + 48, road + 78, road + 112, road + 150, road + 195)
            for side in (1, -1)
            for along in (0, 30, -30, 60, -60, 95, -95, 130, -130)
        )
        best = None
        for base, ox, oy in ring:
            if best is not None and base >= best[0]:
                break  # every later candidate starts dearer than the best found
            cx, cy = x + ox, y + oy
            rect = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            if (
                not free(rect)
                or _circle_hits(rect, x, y, car_r)
                or any(_circle_hits(rect, px, py, car_r) for px, py in others)
                or any(_circle_hits(rect, px, py, r) for px, py, r, _ in signs)
            ):
                continue  # a label never hides a car or a corner's sign
            cost = base
            lx, ly = min(max(x, rect[0]), rect[2]), min(max(y, rect[1]), rect[3])
            for px, py in others:  # the leader line must not run across another car
                if _segment_dist(x, y, lx, ly, px, py) < car_r * 0.75:
                    cost += 400
            for px, py, r, penalty in near:
                if _circle_hits(rect, px, py, r):
                    cost += penalty
            if best is None or cost < best[0]:
                best = (cost, rect)
        if best is None:  # crowded: the nearest free place anywhere in the area
            spot = _anywhere(x, y, w, h, area, free, others + [(x, y)], signs, car_r)
            if spot is not None:
                best = (0, spot)
        if best is None:  # no room at all (cannot happen with six cars on the map)
            best = (0, (ax0, ay0, ax0 + w, ay0 + h))
        placed[seat] = best[1]
        blockers.append(best[1])
    return placed


# ---------------------------------------------------------------- the map: a zoomed inset


def _corners_key(view: dict, circuit: ht.Circuit | None) -> tuple[tuple[int, int], ...]:
    corners = []
    for c in view.get("corners") or []:
        if isinstance(c, dict) and "space" in c:
            corners.append((_int(c["space"]), _int(c.get("speed"))))
    if not corners and circuit is not None:
        corners = list(circuit.corners)
    return tuple(corners)


def _geo(view: dict) -> ht.Geometry:
    return ht.geometry(*_board_key(view))


class Inset:
    """The map: circuit-canvas coordinates (x, y) -> image pixels (x0, y0 the window's corner,
    z pixels per canvas px, `top` the map's top in the image)."""

    def __init__(self, x0: float, y0: float, z: float, top: int):
        self.x0, self.y0, self.z, self.top = x0, y0, z, top

    def px(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.x0) * self.z, (y - self.y0) * self.z + self.top

    def window(self) -> tuple[float, float, float, float]:
        return self.x0, self.y0, self.x0 + W / self.z, self.y0 + MAP_H / self.z


def _car_spots(view: dict, geo: ht.Geometry, cars: dict, order: list[int]) -> list[tuple]:
    """(seat, x, y, space, heading) in canvas coordinates of every car still racing; two cars
    given the same spot are nudged apart so that neither hides the other."""
    out: list = []
    used: dict = {}
    for seat in order:
        car = cars[seat]
        if car.get("finished"):
            continue
        space = (_int(car.get("space"), 1) - 1) % geo.circuit.spaces + 1
        lane = 2 if _int(car.get("lane"), 1) == 2 else 1
        x, y, a = geo.spot(space, lane)
        nudge = used.get((space, lane), 0)
        used[(space, lane)] = nudge + 1
        if nudge:
            nx, ny = geo.normal(space)
            x, y = x + nx * 8 * nudge, y + ny * 8 * nudge
        out.append((seat, x, y, space, a))
    return out


def _next_line(geo: ht.Geometry, space: int, within: int = 6) -> tuple[float, float] | None:
    """The sign of the first corner line at most `within` spaces ahead of `space`."""
    n = geo.circuit.spaces
    for (cs, _), sign in zip([c for c in geo.corners if 1 <= c[0] <= n], geo.signs):
        if (cs - space) % n < within:
            return sign[0], sign[1]
    return None


def _inset(view: dict, geo: ht.Geometry, spots: list[tuple]) -> Inset:
    """The closest view (at most ZOOM_MAX) that shows every racing car with room for its
    label, and the next corner line ahead of the leader when it is near; the whole circuit
    when the cars are spread round it."""
    fit_all = min(W / geo.width, MAP_H / geo.height)
    if spots:
        pts = [(x, y) for _, x, y, _, _ in spots]
        ahead = _next_line(geo, spots[0][3])
        if ahead:
            pts.append(ahead)
        margin = 120  # px around the cars, for the labels
    else:  # nobody on the circuit: all of it
        pts = [(0, 0), (geo.width, geo.height)]
        margin = 0
    x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
    y0, y1 = min(p[1] for p in pts), max(p[1] for p in pts)
    z = min(ZOOM_MAX, (W - 2 * margin) / max(1.0, x1 - x0), (MAP_H - 2 * margin) / max(1.0, y1 - y0))
    z = max(z, fit_all)
    ww, wh = W / z, MAP_H / z
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    left = min(max(cx - ww / 2, 0), geo.width - ww) if ww < geo.width else (geo.width - ww) / 2
    top = min(max(cy - wh / 2, 0), geo.height - wh) if wh < geo.height else (geo.height - wh) / 2
    return Inset(left, top, z, HEADER_H)


def _layout(view: dict) -> tuple[ht.Geometry, dict, list[int], list[tuple], Inset]:
    geo = _geo(view)
    cars = _cars(view)
    order = _race_order(view, cars)
    spots = _car_spots(view, geo, cars, order)
    return geo, cars, order, spots, _inset(view, geo, spots)


def _map_image(key: tuple, inset: Inset) -> Image.Image:
    """The circuit under the map window, shrunk from the big layer (field colour outside it)."""
    layer, _ = ht.track_layer(*key, LAYER_ZOOM, False)
    k = LAYER_ZOOM
    wx0, wy0, wx1, wy1 = inset.window()
    s = inset.z / k
    ix0, iy0 = max(0.0, wx0 * k), max(0.0, wy0 * k)
    ix1, iy1 = min(float(layer.width), wx1 * k), min(float(layer.height), wy1 * k)
    out = Image.new("RGB", (W, MAP_H), ht.FIELD)
    size = (max(1, round((ix1 - ix0) * s)), max(1, round((iy1 - iy0) * s)))
    part = layer.resize(size, Image.Resampling.BOX, box=(ix0, iy0, ix1, iy1))
    out.paste(part, (round((ix0 - wx0 * k) * s), round((iy0 - wy0 * k) * s)))
    return out


@lru_cache(maxsize=12)
def _mini_layer(key: str, spaces: int, corners: tuple) -> Image.Image:
    layer, geo = ht.track_layer(key, spaces, corners, 1.0, False)
    h = round(MINI_W * geo.height / geo.width)
    return layer.resize((MINI_W, h), Image.Resampling.LANCZOS)


def _draw_sign(d, x: float, y: float, speed: int, z: float) -> None:
    """A corner's speed-limit sign: white disc, red ring, black number (SMALL type at least)."""
    r = max(ht.SIGN_R * z, 24)
    d.ellipse([x - r, y - r, x + r, y + r], fill=ht.SIGN_RED, outline=ht.BLACK, width=2)
    ri = r * 0.74
    d.ellipse([x - ri, y - ri, x + ri, y + ri], fill=ht.WHITE)
    size = max(SMALL, int(r * (1.0 if speed < 10 else 0.85)))
    d.text((x, y + 1), str(speed), font=font(size), fill=ht.BLACK, anchor="mm", stroke_width=1, stroke_fill=ht.BLACK)


def _draw_mini(im, d, key, geo, inset, spots, signs) -> list[tuple]:
    """The whole circuit in the corner of the map that hides the fewest cars and signs, the map's
    window outlined on it, unless the map shows most of it. Returns the rectangle labels keep out of."""
    wx0, wy0, wx1, wy1 = inset.window()
    mini = _mini_layer(*key)
    car_px = [inset.px(x, y) for _, x, y, _, _ in spots]
    keep_out: list[tuple] = []
    top, bottom = HEADER_H, HEADER_H + MAP_H
    if (wx1 - wx0) * (wy1 - wy0) < 0.6 * geo.width * geo.height:
        mw, mh = mini.size
        boxes = [(W - mw - 10, top + 10), (10, top + 10), (W - mw - 10, bottom - mh - 10), (10, bottom - mh - 10)]
        hidden = [(x, y, 3) for x, y in car_px] + [(x, y, 1) for x, y, _, _ in signs]
        mx, my = min(
            boxes,
            key=lambda b: sum(
                k for x, y, k in hidden if b[0] - 60 < x < b[0] + mw + 60 and b[1] - 60 < y < b[1] + mh + 60
            ),
        )
        d.rectangle([mx - 3, my - 3, mx + mw + 2, my + mh + 2], fill=(15, 15, 18))
        im.paste(mini, (mx, my))
        ks = mw / geo.width
        d.rectangle(
            [
                mx + max(0, wx0) * ks,
                my + max(0, wy0) * ks,
                mx + min(geo.width, wx1) * ks,
                my + min(geo.height, wy1) * ks,
            ],
            outline=(255, 255, 255),
            width=2,
        )
        for seat, x, y, _, _ in reversed(spots):
            d.ellipse(
                [mx + x * ks - 5, my + y * ks - 5, mx + x * ks + 5, my + y * ks + 5],
                fill=seat_colour(seat),
                outline=(15, 15, 18),
            )
        keep_out.append((mx - 3, my - 3, mx + mw + 3, my + mh + 3))
    return keep_out


def _draw_map(im, d, view, key, geo, cars, order, spots, inset, names) -> None:
    im.paste(_map_image(key, inset), (0, HEADER_H))
    z = inset.z
    top, bottom = HEADER_H, HEADER_H + MAP_H

    def inside(x, y, pad=0) -> bool:
        return -pad <= x <= W + pad and top - pad <= y <= bottom + pad

    # space numbers, spaced so that they never touch
    step = max(1, math.ceil((NUMBER_FONT * 1.6) / max(1.0, geo.tile[0] * z)))
    nf = font(NUMBER_FONT)
    n = geo.circuit.spaces
    numbers = []  # (x, y, r, penalty): a name label had rather not cover a space number
    for s in range(1, n + 1):
        if s % step and s != 1:
            continue
        x, y = inset.px(*geo.centre[s])
        if inside(x, y, -14):
            d.text((x, y), str(s), font=nf, fill=(225, 228, 235), anchor="mm")
            numbers.append((x, y, NUMBER_FONT * 0.7, NUMBER_PENALTY))
    signs = []
    for sx, sy, speed in geo.signs:
        x, y = inset.px(sx, sy)
        if inside(x, y, 30):
            _draw_sign(d, x, y, speed, z)
            signs.append((x, y, max(ht.SIGN_R * z, 24) + 2, 300.0))
    signs += _draw_road_on_map(d, view, geo, inset, inside)
    if view.get("champ"):  # Championship: the press stands by their corners' signs
        signs += press_marks(d, view, [inset.px(sx, sy) for sx, sy, _ in geo.signs], inside)
    keep_out = _draw_mini(im, d, key, geo, inset, spots, signs)
    # cars, their name labels and the lines between them
    # sprite sizes in steps of 4 px, so that the rotated sprites are cached across zooms
    length = max(8, int(round((geo.tile[0] * z + 4) / 4)) * 4)
    width = max(6, int(round(length * (geo.tile[1] + 3) / (geo.tile[0] + 4))))
    car_r = geo.tile[0] * z * 0.55
    entries = []
    for seat, x, y, space, _ in spots:
        px, py = inset.px(x, y)
        nx, ny = geo.normal(space)
        entries.append((seat, px, py, nx, ny, _short(player_name(names, seat))))
    obstacles = [(px, py, car_r, 500.0) for _, px, py, *_ in entries] + signs + numbers
    labels = place_labels(entries, (4, top + 4, W - 4, bottom - 4), obstacles, keep_out, car_r, geo.half_width * z)
    for seat, px, py, *_ in entries:
        note_label((px - car_r, py - car_r, px + car_r, py + car_r), W, "car")
        r = labels[seat]
        lx, ly = min(max(px, r[0]), r[2]), min(max(py, r[1]), r[3])
        d.line([(px, py), (lx, ly)], fill=(15, 15, 18), width=6)
        d.line([(px, py), (lx, ly)], fill=seat_colour(seat), width=3)
    deciding = _deciding(view)
    for seat, px, py, *_ in entries:  # the car that has a decision to make: a yellow halo
        if seat in deciding:
            r = car_r + 6
            d.ellipse([px - r, py - r, px + r, py + r], outline=WAITING, width=5)
    for (seat, px, py, *_), (_, _, _, _, a) in zip(reversed(entries), reversed(spots)):
        sprite = _car_sprite(seat_colour(seat), int(round(a / 5.0)) * 5 % 360, length, width)
        im.paste(sprite, (int(round(px - sprite.width / 2)), int(round(py - sprite.height / 2))), sprite)
    f = font(LABEL_FONT)
    for seat, px, py, _, _, text in entries:
        r = labels[seat]
        fill = seat_colour(seat)
        d.rounded_rectangle(
            list(r),
            radius=8,
            fill=fill,
            outline=WAITING if seat in deciding else (15, 15, 18),
            width=4 if seat in deciding else 2,
        )
        d.text(((r[0] + r[2]) / 2, (r[1] + r[3]) / 2 + 1), text, font=f, fill=_ink(fill), anchor="mm")
        note_label(r, W)
    d.line([(0, bottom), (W, bottom)], fill=(15, 15, 18), width=2)


# ---------------------------------------------------------------- palette

_KEY_COLOURS = [
    BACKGROUND,
    PANEL,
    ROW_ALT,
    TEXT,
    MUTED,
    (255, 255, 255),
    (20, 20, 24),
    (15, 15, 18),
    (25, 28, 34),
    WAITING,
    GOLD,
    SILVER,
    BRONZE,
    ORANGE,
    (70, 74, 82),
    ht.FIELD,
    ht.KERB,
    ht.ASPHALT,
    ht.TILE,
    ht.TILE_EDGE,
    ht.NUMBER,
    ht.SIGN_RED,
    ht.WHITE,
    ht.BLACK,
    ht.FLOODED,
    ht.TUNNEL,
    (225, 228, 235),
    (40, 42, 46),
    ht.CHICANE_BLUE,
]
_KEY_COLOURS += list(PLAYER_COLOURS) + [LEGEND_WHITE] + [s[0] for s in KIND_STYLE.values()]


@lru_cache(maxsize=12)
def _palette(key: str, spaces: int, corners: tuple) -> Image.Image:
    """A fixed 256-colour palette for one circuit: the exact UI colours first, then the most
    useful blends found in a sample board drawn with every player colour and element."""
    with not_recording():
        sample = _draw_board(
            _calibration_view(key, spaces, corners), ["Alice", "Bob", "Chandra", "Dmitri", "Eve", "Fumiko"]
        )
    keys = list(dict.fromkeys(tuple(c) for c in _KEY_COLOURS))
    rest = sample.quantize(256 - len(keys), method=Image.Quantize.FASTOCTREE)
    flat_rest = (rest.getpalette() or [])[: 3 * (256 - len(keys))]
    extra = [tuple(flat_rest[i : i + 3]) for i in range(0, len(flat_rest), 3)]
    # Leave out blends within a few units of a UI colour, so that near-misses (resampling
    # round-off inside a car, say) snap to the exact colour.
    extra = [c for c in extra if min(sum(abs(a - b) for a, b in zip(c, k)) for k in keys) > 6]
    flat = [v for c in keys + extra for v in c]
    flat += flat[:3] * ((768 - len(flat)) // 3)
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


def _calibration_view(key: str, spaces: int, corners: tuple) -> dict:
    n = spaces or 60
    cars = []
    labels = [
        ["Speed 1", "Speed 2", "Heat", "Stress \u2192 Speed 4"],
        ["Speed 4", "Speed 3"],
        ["Upgrade 0", "Upgrade 5"],
        ["Heat"],
        ["Stress \u2192 Heat"],
        ["Speed 2", "Speed 2", "Speed 3"],
    ]
    c = corners[0][0] if corners else 5
    for seat in range(6):
        cars.append(
            {
                "seat": seat,
                "space": (c - seat // 2 - 1) % n + 1,
                "lane": 1 + seat % 2,
                "lap": 1,
                "finished": seat == 5,
                "place": 1 if seat == 5 else None,
                "gear": 1 + seat % 4,
                "engine_heat": seat,
                "hand_count": 7,
                "deck_count": 12,
                "discard_count": 3,
                "revealed": labels[seat],
                "speed": 9,
                "submitted": seat % 2 == 0,
                "spun": seat == 1,
                "adrenaline": seat == 2,
                "slipstreamed": seat == 3,
                "heat_paid": 2 if seat == 4 else 0,
            }
        )
    return {
        "kind": "heat",
        "track": key,
        "track_name": key,
        "laps": 2,
        "spaces": n,
        "round": 3,
        "phase": "decide",
        "corners": [{"space": s, "speed": v} for s, v in corners],
        "cars": cars,
        "order": [5, 0, 1, 2, 3, 4],
        "waiting_for": [0],
    }


# ---------------------------------------------------------------- the board


def render_board(view: dict, names: list[str], locale: str = "en") -> bytes:
    """The public race board as PNG bytes: header, a zoomed map of the cars' part of the
    circuit (with the whole circuit in a corner), one row per car; its texts in `locale`."""
    key, spaces, corners = _board_key(view)
    if isinstance(view.get("champ"), dict) and view.get("phase") in ("market", "swap"):
        return render_standings(view, names, locale)
    with drawing_in(locale), legend_seats(view):
        image = _draw_board(view, _with_legends(view, names))
        if isinstance(view.get("champ"), dict):  # Championship: the race, its event, press corners
            image = decorate(image, view)
    pal = _palette(key, spaces, corners)
    return _encode(image.quantize(palette=pal, dither=Image.Dither.NONE))


def _board_key(view: dict) -> tuple[str, int, tuple]:
    """(circuit key, spaces, corners): what the static layers and the palette are cached by."""
    name = view.get("track_name")
    key = ht.resolve_key(view.get("track"), view.get("circuit"), english(name) if name is not None else None)
    circuit = ht.load_circuit(key)
    spaces = _int(view.get("spaces"), circuit.spaces if circuit else 60)
    return key, spaces, _corners_key(view, circuit)


def board_spot(view: dict, space: int, lane: int) -> tuple[int, int] | None:
    """Image pixel of a spot's centre on this view's board, None when it is off the map
    (used by tests and tools)."""
    geo, _, _, _, inset = _layout(view)
    x, y = inset.px(*geo.spot(space, lane)[:2])
    if not (0 <= x < W and HEADER_H <= y < HEADER_H + MAP_H):
        return None
    return int(round(x)), int(round(y))


def board_size(rows: int, band: int = 0) -> tuple[int, int]:
    """The board's size for `rows` cars (band: the weather band's height, 0 without weather)."""
    return W, HEADER_H + MAP_H + band + CAPTION_H + max(1, rows) * ROW_H + BOTTOM_PAD


def _with_legends(view: dict, names: list[str]) -> list[str]:
    """The players' names, then the Legends' (cars the engine drives: their names come from the view)."""
    out = list(names)
    for car in view.get("cars") or []:
        if isinstance(car, dict) and car.get("legend"):
            seat = _int(car.get("seat"), -1)
            if seat >= 0:
                out += [""] * (seat + 1 - len(out))
                out[seat] = clean_text(words(car.get("name")), "")
    return out


def _draw_board(view: dict, names: list[str]) -> Image.Image:
    key = _board_key(view)
    geo, cars, order, spots, inset = _layout(view)
    rows = max(1, len(order))
    band = _weather_items(view)
    band_h = _band_height(band)
    note_h = _flood_note_h(view)
    im = Image.new("RGB", board_size(rows, band_h + note_h), BACKGROUND)
    d = MaskDraw(im)
    _draw_map(im, d, view, key, geo, cars, order, spots, inset, names)
    _draw_header(d, view, cars, order, names)
    if band:
        _draw_band(d, band, HEADER_H + MAP_H, band_h)
    _draw_panel(d, view, cars, order, names, HEADER_H + MAP_H + band_h, note_h)
    return im


# ---------------------------------------------------------------- weather and road conditions

# Tag colours of the road tokens' effects (colours the board already uses, so the palette has them).
FX_COLOUR = {
    "minus1": (214, 40, 40),
    "plus1": (42, 170, 90),
    "overheat": ORANGE,
    "free_boost": KIND_STYLE["upgrade"][0],
    "slip_plus": (60, 140, 230),
    "slipstream_boost": (60, 140, 230),
    "cooldown_bonus": (42, 170, 90),
    "no_cooldown": (70, 74, 82),
    "no_slipstream": (70, 74, 82),
}
BAND_PAD = 10
BAND_LINE = 44


def _road(view: dict) -> list[dict]:
    w = view.get("weather")
    if not isinstance(w, dict):
        return []
    return [r for r in (w.get("road") or []) if isinstance(r, dict)]


def _map_tag_text(r: dict) -> str:
    """What a road token shows on the map: the limit change by the sign, or the effect's name."""
    token = r.get("token")
    if token == "minus1":
        return "−1"
    if token == "plus1":
        return "+1"
    return clean_text(words(r.get("effect") or r.get("name")), "?")


def _weather_items(view: dict) -> list[tuple]:
    """The weather band's lines: [("tile", name, sector effect, setup)], then one
    ("corner", number, text, colour, sector?) per road token."""
    w = view.get("weather")
    if not isinstance(w, dict):
        return []
    items: list[tuple] = [
        (
            "tile",
            clean_text(words(w.get("name")), "?"),
            clean_text(words(w.get("sector")), ""),
            clean_text(words(w.get("setup")), ""),
        )
    ]
    for r in _road(view):
        fx = r.get("fx") or r.get("token")
        text = clean_text(words(r.get("effect") or r.get("name")), "?")
        if r.get("token") in ("minus1", "plus1"):
            text = f"{text} ({_int(r.get('printed'))}→{_int(r.get('speed'))})"
        items.append(
            (
                "corner",
                _int(r.get("corner"), 0),
                text,
                FX_COLOUR.get(str(fx), (70, 74, 82)),
                r.get("where") == "sector",
                _int(r.get("speed"), 0),
            )
        )
    return items


def _corner_name(number: int) -> str:
    return tx("Corner {n}", n=number)


def _corner_chip_w(item: tuple) -> float:
    return (
        font(SMALL).getlength(_corner_name(item[1]))
        + 16
        + 6
        + 34
        + 6
        + font(SMALL).getlength(item[2])
        + 14
        + (font(SMALL).getlength("→") + 4 if item[4] else 0)
    )


def _band_rows(items: list[tuple]) -> list[list[tuple]]:
    rows: list[list[tuple]] = []
    x: float = W
    for it in items[1:]:
        w = _corner_chip_w(it)
        if x + w > W - 16:
            rows.append([])
            x = 16
        rows[-1].append(it)
        x += w + 14
    return rows


def _band_height(items: list[tuple]) -> int:
    if not items:
        return 0
    return 2 * BAND_PAD + BAND_LINE * (1 + len(_band_rows(items)))


def _draw_band(d, items: list[tuple], y0: int, h: int) -> None:
    """Below the map: the weather tile (its sector effect, its setup change) and each corner's
    road token: "Corner 1" (the first after the start line), then its speed-limit sign as on the
    map (a circled number means a speed limit everywhere on the board, issue #33), then the token."""
    d.rectangle([0, y0, W, y0 + h], fill=(25, 28, 34))
    _, name, sector, setup = items[0]
    y = y0 + BAND_PAD
    x = 16 + _tag(d, 16, y + 4, tx("Weather: {name}", name=name), (60, 140, 230), size=26, ink=TEXT) + 12
    d.text((x, y + 21), fit(setup, SMALL, W - x - 16), font=font(SMALL), fill=MUTED, anchor="lm")
    for row in _band_rows(items):
        y += BAND_LINE
        x = 16
        for _, number, text, colour, sector_fx, limit in row:
            x += _tag(d, x, y + 5, _corner_name(number), (70, 74, 82)) + 6
            d.ellipse([x, y + 4, x + 34, y + 38], fill=ht.WHITE, outline=ht.SIGN_RED, width=3)
            d.text((x + 17, y + 22), str(limit), font=font(SMALL), fill=ht.BLACK, anchor="mm")
            x += 40
            if sector_fx:  # from this corner on, up to the next
                d.text((x, y + 21), "→", font=font(SMALL), fill=TEXT, anchor="lm")
                x += font(SMALL).getlength("→") + 4
            x += _tag(d, x, y + 5, text, colour) + 14


def _beside(geo: ht.Geometry, space: int, w: float, inset: Inset) -> tuple[float, float]:
    """Top-left of a w-wide tag beside the road at `space`, on the side (and at the distance) that
    keeps it farthest from the rest of the circuit."""
    z = inset.z
    cx, cy = geo.centre[space]
    nx, ny = geo.normal(space)
    best: tuple | None = None
    need = geo.half_width * 1.6 + (SMALL + 8) / 2 / z
    for k in (1.0, 1.6, 2.4):
        for side in (1, -1):
            off = geo.half_width + (w / 2 + 10) / z * k * (abs(nx) + 0.35)
            tx_, ty_ = cx + side * nx * off, cy + side * ny * off
            clear = min(math.hypot(tx_ - px, ty_ - py) for px, py in geo.centre.values())
            if clear >= need:  # the nearest spot clear of the road
                best = (clear, tx_, ty_)
                break
            if best is None or clear > best[0] + 1:
                best = (clear, tx_, ty_)
        else:
            continue
        break
    assert best is not None  # (the first distance always gives a place)
    px, py = inset.px(best[1], best[2])
    return px - w / 2, py - (SMALL + 8) / 2


def _draw_road_on_map(d, view: dict, geo: ht.Geometry, inset: Inset, inside) -> list[tuple]:
    """Road tokens on the map: a corner token as a tag by its sign, a sector token as a tag beside
    the middle of its sector. Returns their boxes (obstacles for the name labels)."""
    road = _road(view)
    if not road:
        return []
    n = geo.circuit.spaces
    corners = [c for c in geo.corners if 1 <= c[0] <= n]
    f = font(SMALL)
    boxes = []
    z = inset.z
    for i, r in enumerate(road):
        if i >= len(corners) or i >= len(geo.signs):
            break
        text = _map_tag_text(r)
        fx = r.get("fx") or r.get("token")
        colour = FX_COLOUR.get(str(fx), (70, 74, 82))
        w = f.getlength(text) + 14
        if r.get("where") == "sector":
            start = corners[i][0]
            end = corners[(i + 1) % len(corners)][0]
            length = (end - start) % n or n
            mid = (start + max(1, length // 2) - 1) % n + 1
            x, y = _beside(geo, mid, w, inset)
        else:
            sx, sy = inset.px(geo.signs[i][0], geo.signs[i][1])
            if not inside(sx, sy, 30):
                continue  # its sign is off the map
            rr = max(ht.SIGN_R * z, 24)
            # on the far side of the sign from the road (the sign stands beside its corner line)
            ax, ay = inset.px(*geo.centre[corners[i][0]])
            vx, vy = sx - ax, sy - ay
            vl = math.hypot(vx, vy) or 1.0
            vx, vy = vx / vl, vy / vl
            h = SMALL + 8
            x = sx + vx * (rr + 4 + w / 2) - w / 2
            y = sy + vy * (rr + 4 + h / 2) - h / 2
        x = min(max(x, 4), W - w - 4)
        if not (
            inside(x + w / 2, y + (SMALL + 8) / 2, -4) and HEADER_H + 4 <= y and y + SMALL + 8 <= HEADER_H + MAP_H - 4
        ):
            continue  # off the map (or cut by its edge): the band below lists it anyway
        if r.get("where") == "sector" and not inside(*inset.px(*geo.centre[mid]), -4):
            continue  # the sector's middle is off the map: no callout pointing off it (the band lists it)
        if r.get("where") == "sector":  # a leader line to the road
            ax, ay = inset.px(*geo.centre[mid])
            d.line([(ax, ay), (x + w / 2, y + (SMALL + 8) / 2)], fill=(15, 15, 18), width=5)
            d.line([(ax, ay), (x + w / 2, y + (SMALL + 8) / 2)], fill=colour, width=3)
        _tag(d, x, y, text, colour)
        d.rounded_rectangle([x, y, x + w, y + SMALL + 8], radius=6, outline=(15, 15, 18), width=2)
        boxes.append((x + w / 2, y + (SMALL + 8) / 2, w / 2 + 2, 300.0))
    return boxes


def _leader_lap(view: dict, cars: dict, order: list[int]) -> int:
    laps = max(1, _int(view.get("laps"), 1))
    for seat in order:
        if not cars[seat].get("finished"):
            return min(max(_int(cars[seat].get("lap"), 1), 1), laps)
    return laps


def _draw_header(d, view, cars, order, names) -> None:
    laps = max(1, _int(view.get("laps"), 1))
    title = clean_text(words(view.get("track_name")) or view.get("track") or "Heat", "Heat")
    title = fit(title, 36, 360)
    d.text((20, 32), title, font=font(36), fill=TEXT, anchor="lm", stroke_width=1, stroke_fill=TEXT)
    x = 32 + font(36).getlength(title) + 4
    tags = [tx("Lap {lap}/{laps}", lap=_leader_lap(view, cars, order), laps=laps)]
    if view.get("phase") != "draft":  # (the Garage draft comes before round 1)
        tags.append(tx("Round {n}", n=_int(view.get("round"), 1)))
    for text in tags:
        if x + font(26).getlength(text) + 14 > W - 10:
            break
        x += _tag(d, x, 14, text, (70, 74, 82), size=26, ink=TEXT) + 10
    # The thread's board is drawn once a round and stays up while the cards come in (its post's
    # "Waiting for" line is what changes), so while cards or Garage picks are chosen the header
    # names the step, not who has yet to act.
    phase = view.get("phase")
    waiting = [s for s in (view.get("waiting_for") or []) if isinstance(s, int)]
    if phase == "over":
        standings = _standings(view, cars)
        text = tx("Race over - {name} wins!", name=player_name(names, standings[0])) if standings else tx("Race over")
        colour = GOLD
    elif phase == "submit":
        text, colour = tx("Choose cards"), WAITING
    elif phase == "draft":
        text, colour = tx("Garage draft before the race"), WAITING
    elif waiting:
        text = tx("Waiting for {name}", name=player_name(names, waiting[0]))
        colour = WAITING
    else:
        text, colour = tx("Resolving"), TEXT
    d.text((20, 78), fit(clean_text(text), 28, W - 40), font=font(28), fill=colour, anchor="lm")


FLOOD_NOTE_H = 34  # a line of its own under the panel's caption, for a flood note too long beside it


def _flood_note_fits(played: str) -> bool:
    cap = font(SMALL)
    return (
        84 + cap.getlength(played) + 24 + cap.getlength(tx("Blue: flooded (downshift +1 Heat)"))
        <= W - 20 - cap.getlength(tx("Speed")) - 24
    )


def _played_caption(view: dict) -> str:
    # While cards are being chosen, what is shown is the previous round's play; before the first
    # round's (and during the Garage draft) nothing has been played: the cars are on the grid.
    phase = view.get("phase")
    if phase == "draft" or (phase == "submit" and _int(view.get("round"), 1) <= 1):
        return tx("On the starting grid")
    return tx("Played last round") if phase == "submit" else tx("Played this round")


def _flood_note_h(view: dict) -> int:
    """The extra height the flood note needs (Heavy Rain): 0 when it fits beside the caption."""
    return FLOOD_NOTE_H if view.get("flooded") and not _flood_note_fits(_played_caption(view)) else 0


def _row_tags(car: dict, phase: object, deciding: bool) -> list[tuple[str, tuple[int, int, int]]]:
    """A car row's tags (text, colour): what happened to the car this round, a decision it is asked."""
    tags = []
    if car.get("out"):  # Championship event: out of the race after a spin-out
        tags.append((tx("out of the race"), (214, 40, 40)))
    elif car.get("finished") and phase != "over":
        tags.append((tx("finished"), (240, 240, 240)))
    if car.get("spun"):
        tags.append((tx("spun out"), (214, 40, 40)))
    if _int(car.get("heat_paid")):  # Heat that left the engine: paid, not gained
        tags.append((tx("paid {n} Heat", n=_int(car.get("heat_paid"))), ORANGE))
    if car.get("slipstreamed"):
        tags.append((tx("slipstream"), (60, 140, 230)))
    if car.get("adrenaline"):
        tags.append((tx("adrenaline"), (42, 170, 90)))
    if deciding:
        tags.insert(0, (tx("to decide"), WAITING))
    return tags


def _draw_panel_caption(d, view, y0, note_h: int) -> None:
    """The panel's caption: the cards played, "Speed" over the figures, the flooded note if any."""
    cap = font(SMALL)
    cy = y0 + CAPTION_H / 2 + 2
    played = _played_caption(view)
    d.text((84, cy), played, font=cap, fill=MUTED, anchor="lm")
    d.text((W - 20, cy), tx("Speed"), font=cap, fill=MUTED, anchor="rm")
    if view.get("flooded"):  # Heavy Rain: what the blue spaces mean (beside the caption, else under it)
        x0, ny = (84 + cap.getlength(played) + 24, cy) if not note_h else (84, y0 + CAPTION_H + note_h / 2 - 4)
        note = fit(
            tx("Blue: flooded (downshift +1 Heat)"),
            SMALL,
            W - 20 - x0 - (0 if note_h else cap.getlength(tx("Speed")) + 24),
        )
        d.text((x0, ny), note, font=cap, fill=(140, 200, 255), anchor="lm")


def _draw_speed(d, mid: float, speed) -> None:
    """A panel row's speed figure at the right ("-" before the car has one)."""
    d.text(
        (W - 48, mid),
        "-" if speed is None else str(_int(speed)),
        font=font(44),
        fill=TEXT,
        anchor="mm",
        stroke_width=1,
        stroke_fill=TEXT,
    )


def _deciding(view: dict) -> set[int]:
    """The seats a paused decision waits for: the board marks them (map halo, row stripe and tag).
    Nobody is marked while the cards come in: the round's board stays up meanwhile (_draw_header)."""
    if view.get("phase") != "decide":
        return set()
    return {s for s in view.get("waiting_for") or [] if isinstance(s, int)}


def _draw_panel(d, view, cars, order, names, y0, note_h: int = 0) -> None:
    d.rectangle([0, y0, W, y0 + CAPTION_H + note_h + len(order) * ROW_H + BOTTOM_PAD], fill=PANEL)
    _draw_panel_caption(d, view, y0, note_h)
    phase = view.get("phase")
    deciding = _deciding(view)
    for i, seat in enumerate(order):
        car = cars[seat]
        top = y0 + CAPTION_H + note_h + i * ROW_H
        mid = top + ROW_H / 2
        if i % 2:
            d.rectangle([0, top, W, top + ROW_H - 1], fill=ROW_ALT)
        if seat in deciding:
            d.rectangle([0, top, 6, top + ROW_H - 1], fill=WAITING)
        # position badge (finishing place once finished)
        fill = seat_colour(seat)
        place = _int(car.get("place"), 0) if car.get("finished") or phase == "over" else 0
        badge = _ordinal(place) if place else str(i + 1)
        ring = {1: GOLD, 2: SILVER, 3: BRONZE}.get(place)
        d.rounded_rectangle(
            [12, mid - 28, 70, mid + 28], radius=10, fill=fill, outline=ring or (15, 15, 18), width=4 if ring else 2
        )
        d.text((41, mid + 1), badge, font=font(30 if len(badge) < 3 else SMALL), fill=_ink(fill), anchor="mm")
        # line 1: name and what happened to the car
        tags = _row_tags(car, phase, seat in deciding)
        name = fit(player_name(names, seat), 30, 300)
        d.text((84, top + 26), name, font=font(30), fill=TEXT, anchor="lm")
        tag_x = 84 + font(30).getlength(name) + 12
        right = W - 110
        for text, colour in tags:
            w = font(SMALL).getlength(text) + 14
            if tag_x + w > right:
                break
            tag_x += _tag(d, tag_x, top + 9, text, colour) + 6
        # line 2: gear, engine Heat, and the cards played (a Legend: this round's card for it)
        x: float = 84
        if car.get("legend"):
            x += _tag(d, x, top + 52, tx("Legend"), (70, 74, 82), ink=TEXT) + 8
            card = " · ".join(clean_text(words(r), "") for r in (car.get("revealed") or []))
            if card:
                _tag(d, x, top + 52, fit(card, SMALL, right - x - 14), (20, 140, 130))
            _draw_speed(d, mid, car.get("speed"))
            continue
        gear = _int(car.get("gear"), 1)
        x += _tag(d, x, top + 52, tx("Gear {n}", n=gear), (70, 74, 82), ink=TEXT) + 6
        x += (
            _tag(d, x, top + 52, tx("Heat {n}", n=_int(car.get("engine_heat"))), (96, 52, 30), ink=(255, 190, 150)) + 12
        )
        revealed = list(car.get("revealed") or [])
        if revealed:
            # Whole names when the row holds them ("Cooling system 3", not "Cooling syst…")
            whole = W if x + sum(_chip_width(label, limit=W) + 6 for label in revealed) <= right else CHIP_TEXT
            for label in revealed:
                w = _chip_width(label, limit=whole) + 6
                if x + w > right:
                    d.text((x, top + 69), "…", font=font(SMALL), fill=TEXT, anchor="lm")
                    break
                x += _chip(d, x, top + 52, label, limit=whole) + 6
        _draw_speed(d, mid, car.get("speed"))


# ---------------------------------------------------------------- the hand (DM)


def render_hand(view: dict, names: list[str], locale: str = "en") -> bytes:
    """The viewing seat's hand: position, next corner and gear above, the cards below (the
    chosen ones marked once sent, with the gear they make); texts in `locale`."""
    with drawing_in(locale), legend_seats(view):
        return _render_hand(view, _with_legends(view, names))


HAND_COLS = 4
HAND_GAP = 14
HAND_MARGIN = 20


def hand_card_boxes(count: int) -> list[tuple[float, float, float, float]]:
    """Where render_hand draws each of `count` cards (HAND_COLS a row)."""
    cw = (W - 2 * HAND_MARGIN - (HAND_COLS - 1) * HAND_GAP) / HAND_COLS
    ch = round(cw * 1.3)
    out: list[tuple[float, float, float, float]] = []
    for i in range(count):
        r, c = divmod(i, HAND_COLS)
        x0 = HAND_MARGIN + c * (cw + HAND_GAP)
        y0 = HAND_HEAD + r * (ch + HAND_GAP)
        out.append((x0, y0, x0 + cw, y0 + ch))
    return out


def _corner_text(me: dict, car: dict) -> str:
    """The hand's line 3: the next corner (its limit, its road token), or why there is none."""
    nc = me.get("next_corner") if isinstance(me.get("next_corner"), dict) else None
    if nc:
        text = tx("Next corner in {d} spaces: limit {limit}", d=_int(nc.get("distance")), limit=_int(nc.get("speed")))
        if _int(nc.get("distance")) == 1:
            text = tx("Next corner in 1 space: limit {limit}", limit=_int(nc.get("speed")))
        if nc.get("token") is not None:  # weather module: that corner's road token
            text += " · " + clean_text(words(nc["token"]), "")
        return text
    if car.get("finished"):
        return tx("Finished")
    return tx("No corner before the finish line")


def _prompt(
    me: dict, sub: dict | None, draft: dict | None, chosen: int, seat: int, names: list[str]
) -> tuple[str, tuple[int, int, int]]:
    """The hand's line 5 and its colour: what was sent, or what the seat is asked now."""
    if sub:
        text = tx("Cards in: gear {g}, marked below", g=_int(sub.get("gear"), chosen))
        if _int(sub.get("shift_heat")):
            text = tx("Cards in: gear {g}, marked below (2-gear shift: pay 1 Heat)", g=_int(sub.get("gear"), chosen))
        return text, CHOSEN
    if draft:
        picking = _int(draft.get("picking"), -1)
        n, m_ = _int(draft.get("round"), 1), _int(draft.get("rounds"), 3)
        if picking == seat:
            return tx("Garage draft {n}/{m}: take one of these upgrades (select below)", n=n, m=m_), WAITING
        return tx("Garage draft {n}/{m}: {name} is choosing", n=n, m=m_, name=player_name(names, picking)), MUTED
    if me.get("gears"):
        gears = [int(g) for g in me["gears"] if isinstance(g, int)]
        return tx("Choose {lo}-{hi} cards: the number of cards is your new gear", lo=min(gears), hi=max(gears)), WAITING
    if isinstance(me.get("decision"), dict) and me["decision"].get("prompt") is not None:
        return clean_text(words(me["decision"]["prompt"])), WAITING
    return tx("Nothing to do right now"), MUTED


def _draw_hand_title(d, view: dict, cars: dict, seat: int, names: list[str]) -> None:
    """The hand's line 1: the seat's colour, whose hand it is, and the car's race position."""
    me = view.get("me") or {}
    car = cars.get(seat, {})
    m = HAND_MARGIN
    d.rounded_rectangle([m, 14, m + 36, 50], radius=8, fill=seat_colour(seat), outline=(15, 15, 18), width=2)
    name = player_name(names, seat)
    order = _race_order(view, cars)  # finished cars first, in their places, then the racing ones
    position = _int(me.get("position"), order.index(seat) + 1 if seat in order else 0)
    pos = ""
    if car.get("finished") and car.get("place"):
        pos = tx("finished {place}", place=_ordinal(_int(car.get("place"))))
    elif position:
        pos = tx("{pos} of {n}", pos=_ordinal(position), n=len(cars))
    pos_w = font(28).getlength(pos) + 14 if pos else 0
    d.text(
        (m + 48, 32),
        fit(tx("{name}'s hand", name=name), 32, W - 2 * m - 60 - pos_w),
        font=font(32),
        fill=TEXT,
        anchor="lm",
        stroke_width=1,
        stroke_fill=TEXT,
    )
    if pos:
        _tag(d, W - m - pos_w, 14, pos, (70, 74, 82), size=28, ink=TEXT)


def _draw_hand_tags(d, me: dict, car: dict, sub: dict | None, chosen: int) -> None:
    """The hand's line 4: the gear (the new one once cards are in), engine Heat, deck and discard."""
    m = HAND_MARGIN
    x: float = m
    gear = _int(car.get("gear"), 1)
    if sub:
        new = _int(sub.get("gear"), chosen)
        x += _tag(d, x, 148, tx("Gear {a} → {b}", a=gear, b=new), CHOSEN, size=26) + 8
    else:
        x += _tag(d, x, 148, tx("Gear {n}", n=gear), (70, 74, 82), size=26, ink=TEXT) + 8
    engine = _int(me.get("engine_heat"), _int(car.get("engine_heat")))
    x += _tag(d, x, 148, tx("Heat in engine {n}", n=engine), ORANGE, size=26) + 8
    deck = tx(
        "Deck {n} · Discard {m}",
        n=_int(me.get("deck_count"), _int(car.get("deck_count"))),
        m=_int(me.get("discard_count"), _int(car.get("discard_count"))),
    )
    if x + font(26).getlength(deck) + 14 <= W - m:
        _tag(d, x, 148, deck, (70, 74, 82), size=26, ink=TEXT)


def _render_hand(view: dict, names: list[str]) -> bytes:
    me = view.get("me") or {}
    seat = _int(me.get("seat"), 0)
    hand = [c for c in (me.get("hand") or []) if isinstance(c, dict)]
    draft = view.get("draft") if isinstance(view.get("draft"), dict) else None
    if draft:  # the Garage draft: the cards on offer instead of the (not yet drawn) hand
        hand = [c for c in (draft.get("market") or []) if isinstance(c, dict)]
    cars = _cars(view)
    car = cars.get(seat, {})
    sub = me.get("submission") if isinstance(me.get("submission"), dict) else None
    chosen = set(sub.get("cards") or []) if sub else set()
    boxes = hand_card_boxes(len(hand))
    bottom = boxes[-1][3] if boxes else HAND_HEAD + 120
    im = Image.new("RGB", (W, int(bottom) + 24), BACKGROUND)
    d = MaskDraw(im)
    m = HAND_MARGIN
    # line 1: whose hand, and the race position
    _draw_hand_title(d, view, cars, seat, names)
    # line 2: where the car is
    laps = max(1, _int(view.get("laps"), 1))
    where = [
        tx("Lap {lap}/{laps}", lap=min(max(_int(car.get("lap"), 1), 1), laps), laps=laps),
        tx("Space {n}", n=_int(car.get("space"), 1)),
        tx("Round {n}", n=_int(view.get("round"), 1)),
    ]
    where_text = fit(words(chain("{a} · {b}", where)), 28, W - 2 * m)
    d.text((m, 78), where_text, font=font(28), fill=TEXT, anchor="lm")
    # line 3: the next corner
    d.text((m, 120), fit(_corner_text(me, car), 28, W - 2 * m), font=font(28), fill=(255, 190, 150), anchor="lm")
    notes = []
    if me.get("flooded_here"):  # Heavy Rain: the car starts the round on a flooded space
        notes.append(tx("Flooded: shifting down +1 Heat"))
    if me.get("road_here") is not None:  # weather module: the effect of the sector the car is in
        notes.append(tx("Here: {effect}", effect=clean_text(words(me["road_here"]), "")))
    note_room = max(300, W - 2 * m - font(28).getlength(where_text) - 20)
    late_notes = ""  # notes too long beside line 2 go under the prompt (line 5) when it leaves a line free
    if notes and font(24).getlength(" · ".join(notes)) > note_room:
        late_notes = " · ".join(notes)
    elif notes:
        d.text((W - m, 78), fit(" · ".join(notes), 24, note_room), font=font(24), fill=(140, 200, 255), anchor="rm")
    # line 4: gear (the new one once cards are in), engine Heat, deck and discard
    _draw_hand_tags(d, me, car, sub, len(chosen))
    # line 5: what is asked, or what was sent
    text, colour = _prompt(me, sub, draft, len(chosen), seat, names)
    lines = [(line, colour) for line in wrap(text, SMALL, W - 2 * m, 2)]
    if late_notes and len(lines) < 2:
        lines.append((fit(late_notes, SMALL, W - 2 * m), (140, 200, 255)))
    elif late_notes:  # no line free: beside line 2 after all, shortened
        d.text((W - m, 78), fit(late_notes, 24, note_room), font=font(24), fill=(140, 200, 255), anchor="rm")
    for i, (line, ink) in enumerate(lines):
        d.text((m, 204 + 30 * i), line, font=font(SMALL), fill=ink, anchor="lm")
    if not hand:
        d.text((W / 2, HAND_HEAD + 60), tx("No cards in hand"), font=font(30), fill=MUTED, anchor="mm")
    for card, (x0, y0, x1, y1) in zip(hand, boxes):
        _draw_card(d, x0, y0, x1 - x0, y1 - y0, card, card.get("id") in chosen)
    return _encode(im)


def _draw_check(d, x0, y0, cw) -> None:
    """The chosen card's tick in its top right corner."""
    d.rounded_rectangle(
        [x0 + cw - 46, y0 + 8, x0 + cw - 8, y0 + 46], radius=19, fill=CHOSEN, outline=(12, 12, 14), width=2
    )
    d.text((x0 + cw - 27, y0 + 28), "✓", font=font(28), fill=(20, 20, 24), anchor="mm")


def _draw_upgrade_face(d, box, big: str, symbols: list[str], label: str, style) -> None:
    """An upgrade card's face: its value at the top, one symbol a line, the family at the bottom."""
    x0, y0, cw, ch = box
    fill, ink = style
    size = 48 if len(big) <= 3 else 36
    d.text(
        (x0 + cw / 2, y0 + 44),
        fit(big, size, cw - 20),
        font=font(size),
        fill=ink,
        anchor="mm",
        stroke_width=1,
        stroke_fill=ink,
    )
    y = y0 + 92
    for part in symbols[:4]:
        d.text((x0 + cw / 2, y), fit(part, SMALL, cw - 16), font=font(SMALL), fill=ink, anchor="mm")
        y += 28
    d.text(
        (x0 + cw / 2, y0 + ch - 24),
        fit(label, SMALL, cw - 16),
        font=font(SMALL),
        fill=_blend(fill, ink, 0.7),
        anchor="mm",
    )


def _draw_card(d, x0, y0, cw, ch, card, chosen: bool = False) -> None:
    kind = str(card.get("kind") or "")
    # An upgrade shows the family and speed it prints (its symbols tell it from a twin).
    label = clean_text(words(card.get("family") or card.get("label")), "?")
    if kind not in KIND_STYLE:
        kind = _kind_of_label(clean_text(english(card.get("label")), "?"))
    fill, ink = KIND_STYLE[kind]
    if card.get("sponsor"):  # Championship: a sponsorship card (one-time use), gold
        fill, ink = GOLD, (20, 20, 24)
    if chosen:
        d.rounded_rectangle([x0 - 6, y0 - 6, x0 + cw + 6, y0 + ch + 6], radius=18, fill=CHOSEN)
    d.rounded_rectangle([x0, y0, x0 + cw, y0 + ch], radius=14, fill=fill, outline=(12, 12, 14), width=3)
    d.rounded_rectangle([x0 + 7, y0 + 7, x0 + cw - 7, y0 + ch - 7], radius=10, outline=_blend(fill, ink, 0.25), width=2)
    value = card.get("value")
    if kind == "heat":
        big = tx("HEAT")
    elif kind == "stress":
        big = "?"
    else:
        big = "" if value is None else str(value)
    kind_name = {
        "speed": tx("speed"),
        "heat": "",
        "stress": tx("stress"),  # (HEAT says it)
        "upgrade": tx("upgrade"),
    }[kind]
    if card.get("sponsor"):
        kind_name = tx("sponsor")
        d.text((x0 + cw - 14, y0 + 28), "1×", font=font(SMALL), fill=_blend(fill, ink, 0.55), anchor="rm")
    if kind_name and not card.get("symbols"):
        if font(SMALL).getlength(kind_name) <= cw - 32:
            d.text((x0 + 16, y0 + 28), kind_name, font=font(SMALL), fill=_blend(fill, ink, 0.55), anchor="lm")
        else:  # a long kind name (アップグレード): centred, the whole card wide, at the smallest readable size
            d.text(
                (x0 + cw / 2, y0 + 28),
                fit(kind_name, SMALL - 1, cw - 16),
                font=font(SMALL - 1),
                fill=_blend(fill, ink, 0.55),
                anchor="mm",
            )
    symbols = [clean_text(words(x), "") for x in (card.get("symbols") or [])]
    if symbols:  # an upgrade card: its value at the top, one symbol a line, the family at the bottom
        _draw_upgrade_face(d, (x0, y0, cw, ch), big, symbols, label, (fill, ink))
        if chosen:
            _draw_check(d, x0, y0, cw)
        return
    if big:
        size = int(min(cw * (0.6 if len(big) <= 2 else 0.9 / max(1, len(big))), 100))
        size = max(size, SMALL)
        d.text(
            (x0 + cw / 2, y0 + ch * 0.5),
            fit(big, size, cw - 20),
            font=font(size),
            fill=ink,
            anchor="mm",
            stroke_width=2 if len(big) <= 2 else 1,
            stroke_fill=ink,
        )
    # the full label at the bottom, wrapped on two lines if long
    same = (
        label.lower() == big.lower()
        or (kind == "speed" and label.split()[-1:] == [big])
        or (
            kind in ("speed", "upgrade")
            and big
            and label.endswith(big)
            and label[: -len(big)].strip().lower() == kind_name.lower()
        )
    )  # "スピード4": the kind on top, the value big
    lines = [] if same else wrap(label, SMALL, cw - 20)[:2]
    for j, line in enumerate(lines):
        d.text((x0 + cw / 2, y0 + ch - 26 - 28 * (len(lines) - 1 - j)), line, font=font(SMALL), fill=ink, anchor="mm")
    if chosen:
        _draw_check(d, x0, y0, cw)


def _blend(a, b, k):
    return tuple(int(a[i] + (b[i] - a[i]) * k) for i in range(3))


# ---------------------------------------------------------------- results


def render_results(view: dict, names: list[str], locale: str = "en") -> bytes:
    """End-of-race standings, podium style; texts in `locale`."""
    if isinstance(view.get("champ"), dict) and view["champ"].get("done"):
        return render_standings(view, names, locale)
    with drawing_in(locale), legend_seats(view):
        return _render_results(view, _with_legends(view, names))


def _render_results(view: dict, names: list[str]) -> bytes:
    cars = _cars(view)
    seats = _standings(view, cars)
    rest = seats[3:]
    base_y = 500
    height = base_y + 30 + 56 * len(rest) + 10
    im = Image.new("RGB", (W, height), BACKGROUND)
    d = MaskDraw(im)
    title = clean_text(words(view.get("track_name")) or view.get("track") or "Heat", "Heat")
    d.text(
        (W / 2, 40),
        fit(tx("Race over - {track}", track=title), 40, W - 40),
        font=font(40),
        fill=TEXT,
        anchor="mm",
        stroke_width=1,
        stroke_fill=TEXT,
    )
    d.text(
        (W / 2, 88),
        fit(tx("Final standings after round {n}", n=_int(view.get("round"), 1)), 28, W - 40),
        font=font(28),
        fill=MUTED,
        anchor="mm",
    )
    blocks = {1: (W / 2, 210), 2: (W / 2 - 255, 150), 3: (W / 2 + 255, 110)}
    for place, (cx, bh) in blocks.items():
        if place > len(seats):
            continue
        seat = seats[place - 1]
        fill = seat_colour(seat)
        ring = {1: GOLD, 2: SILVER, 3: BRONZE}[place]
        d.rounded_rectangle([cx - 120, base_y - bh, cx + 120, base_y], radius=12, fill=fill, outline=ring, width=6)
        d.text(
            (cx, base_y - bh / 2),
            _ordinal(place),
            font=font(64 if place == 1 else 52),
            fill=_ink(fill),
            anchor="mm",
            stroke_width=2,
            stroke_fill=_ink(fill),
        )
        d.text(
            (cx, base_y - bh - 30),
            fit(player_name(names, seat), 32, 240),
            font=font(32),
            fill=TEXT,
            anchor="mm",
            stroke_width=1,
            stroke_fill=TEXT,
        )
        sprite = _car_sprite(fill, 0, 84, 40)
        im.paste(sprite, (int(cx - sprite.width / 2), int(base_y - bh - 88 - sprite.height / 2)), sprite)
    d.rectangle([30, base_y, W - 30, base_y + 8], fill=(70, 74, 82))
    for i, seat in enumerate(rest):
        y = base_y + 30 + i * 56
        place = i + 4
        d.text((W / 2 - 190, y + 22), _ordinal(place), font=font(30), fill=MUTED, anchor="rm")
        d.rounded_rectangle(
            [W / 2 - 170, y + 2, W / 2 - 130, y + 42], radius=8, fill=seat_colour(seat), outline=(15, 15, 18), width=2
        )
        d.text((W / 2 - 110, y + 22), fit(player_name(names, seat), 30, 400), font=font(30), fill=TEXT, anchor="lm")
    return _encode(im)


# ---------------------------------------------------------------- benchmark


def sample_view(track: str = "usa", cars: int = 6) -> dict:
    """A busy spectator view (cars bunched before a corner) for benchmarks and previews."""
    circuit = ht.load_circuit(track)
    spaces = circuit.spaces if circuit else 60
    corners = list(circuit.corners) if circuit else [(12, 5)]
    c = corners[0][0]
    out = []
    revealed = [
        ["Speed 4", "Speed 3", "Speed 2"],
        ["Speed 3", "Upgrade 5"],
        ["Heat", "Speed 1"],
        ["Speed 4", "Speed 4", "Speed 2", "Speed 1"],
        ["Speed 2"],
        ["Stress \u2192 Speed 3", "Speed 3", "Upgrade 0"],
    ]
    for seat in range(cars):
        out.append(
            {
                "seat": seat,
                "space": c - seat // 2,
                "lane": 1 + seat % 2,
                "lap": 1,
                "finished": False,
                "place": None,
                "gear": 1 + seat % 4,
                "engine_heat": 6 - seat,
                "hand_count": 7,
                "deck_count": 10 - seat,
                "discard_count": seat,
                "revealed": revealed[seat % 6],
                "speed": 8 - seat,
                "submitted": True,
                "spun": seat == 3,
                "adrenaline": seat == cars - 1,
                "slipstreamed": seat == 1,
                "heat_paid": 1 if seat == 2 else 0,
            }
        )
    return {
        "kind": "heat",
        "track": track,
        "track_name": circuit.name if circuit else track,
        "laps": circuit.laps if circuit else 2,
        "spaces": spaces,
        "round": 4,
        "phase": "decide",
        "corners": [{"space": s, "speed": v} for s, v in corners],
        "cars": out,
        "order": list(range(cars)),
        "last_round": [],
        "waiting_for": [min(2, cars - 1)],
    }


def bench_render(samples: int = 50) -> dict:
    """Time render_board on a 6-car view (after one warm-up that builds the cached layers)."""
    view = sample_view("usa", 6)
    names = ["Alice", "Bob", "Chandra", "Dmitri", "Evelyn", "Fumiko"]
    start = time.perf_counter()
    render_board(view, names)
    cold_ms = (time.perf_counter() - start) * 1000
    times, sizes = [], []
    for i in range(max(1, samples)):
        for car in view["cars"]:
            car["space"] = (car["space"] + (i % 3)) % view["spaces"] + 1
        start = time.perf_counter()
        data = render_board(view, names)
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(data) / 1024)
    times.sort()
    return {
        "samples": len(times),
        "p50_ms": round(times[len(times) // 2], 1),
        "p95_ms": round(times[min(len(times) - 1, math.ceil(0.95 * len(times)) - 1)], 1),
        "max_kb": round(max(sizes), 1),
        "kb": round(sorted(sizes)[len(sizes) // 2], 1),
        "cold_ms": round(cold_ms, 1),
    }
