"""Heat images: the race board (channel), a seat's hand (DM) and the final standings.

Only the engine's views are read (see the keys used below; extra keys are ignored). The circuit
itself is a cached static layer (rendering/heat_track.py); each board copies it, draws the cars,
their name labels and the player panel, then maps the picture onto a fixed 256-colour palette
(built once per circuit) so that PNG encoding stays fast and the file small.
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
from rendering.common import (BACKGROUND, MUTED, PANEL, PLAYER_COLOURS, TEXT, clean_text, drawing_in, english, fit, font,
                              player_name, tx, words, wrap)

W = ht.CANVAS_W
HEADER_H = 68
CAPTION_H = 34
ROW_H = 72
BOTTOM_PAD = 10
LABEL_FONT = 24  # car name labels on the circuit
HAND_HEAD = 96  # hand image: height of the title area above the cards
ROW_ALT = (54, 57, 63)
WAITING = (255, 214, 10)
GOLD, SILVER, BRONZE = (255, 200, 40), (200, 205, 215), (205, 127, 50)
ORANGE = (245, 120, 40)

KIND_STYLE = {  # fill, text
    "speed": ((241, 236, 220), (20, 20, 24)),
    "heat": ((226, 78, 27), (255, 255, 255)),
    "stress": ((120, 64, 200), (255, 255, 255)),
    "upgrade": ((20, 140, 130), (255, 255, 255)),
}

# Panel columns: (caption, centre x)
NAME_X = 80
STAT_COLS = [("Lap", 388), ("Gear", 452), ("Heat", 516), ("Hand", 580), ("Deck", 644),
             ("Discard", 712)]
PLAYED_X = 770
SPEED_X = 1222


# ---------------------------------------------------------------- small helpers

@lru_cache(maxsize=4096)
def _text_mask(text: str, size: int, anchor: str, stroke: int) -> tuple[Image.Image, int, int]:
    """A text's coverage mask and its offset from the anchor point (cached: names, numbers
    and captions repeat on every board)."""
    f = font(size)
    left, top, right, bottom = f.getbbox(text, anchor=anchor, stroke_width=stroke)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)))
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor,
                              stroke_width=stroke, stroke_fill=255)
    return mask, left, top


class _Draw(ImageDraw.ImageDraw):
    """ImageDraw whose single-colour text comes from cached masks (same look, less time)."""

    def __init__(self, image: Image.Image):
        super().__init__(image)
        self._target = image

    def text(self, xy, text, fill=None, font=None, anchor=None, spacing=4, align="left",
             direction=None, features=None, language=None, stroke_width=0, stroke_fill=None,
             *args, **kwargs):
        size = getattr(font, "size", None)
        if (args or kwargs or direction or features or language or size is None
                or not isinstance(fill, tuple) or "\n" in text
                or (stroke_width and stroke_fill not in (None, fill))):
            return super().text(xy, text, fill, font, anchor, spacing, align, direction,
                                features, language, stroke_width, stroke_fill, *args, **kwargs)
        mask, left, top = _text_mask(text, size, anchor or "la", int(stroke_width))
        self._target.paste(fill, (int(round(xy[0])) + left, int(round(xy[1])) + top), mask)


def _colour(seat: int) -> tuple[int, int, int]:
    return PLAYER_COLOURS[int(seat) % len(PLAYER_COLOURS)]


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
        pieces = [label.params["card"], label.params["found"]] if label.key == "{card} → {found}" else [label]
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


def _tag(d: ImageDraw.ImageDraw, x: float, y: float, text: str, fill, size: int = 18,
         ink=None) -> float:
    """A small rounded tag; returns its width."""
    f = font(size)
    w = f.getlength(text) + 14
    d.rounded_rectangle([x, y, x + w, y + size + 8], radius=6, fill=fill)
    d.text((x + 7, y + (size + 8) / 2), text, font=f, fill=ink or _ink(fill), anchor="lm")
    return w


def _chip_width(label: str, size: int = 22, h: int = 30) -> float:
    f = font(size)
    return sum(max(h, f.getlength(fit(text, size, 150)) + 16)
               for text, _ in _chip_parts(label)) + 12 * (len(_chip_parts(label)) - 1)


def _chip(d: ImageDraw.ImageDraw, x: float, y: float, label: str, size: int = 22,
          h: int = 30) -> float:
    """One revealed card (segments joined for a flipped Stress); returns its width."""
    f = font(size)
    x0 = x
    for i, (text, kind) in enumerate(_chip_parts(label)):
        fill, ink = KIND_STYLE[kind]
        text = fit(text, size, 150)
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

@lru_cache(maxsize=512)
def _car_sprite(seat_colour: tuple[int, int, int], heading: int, length: int, width: int
                ) -> Image.Image:
    """A top-down car pointing along `heading` (degrees, clockwise from +x), anti-aliased."""
    k = 4
    L, Wd = length * k, width * k
    pad = 3 * k
    im = Image.new("RGBA", (L + 2 * pad, Wd + 2 * pad), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    x0, y0 = pad, pad
    d.rounded_rectangle([x0, y0, x0 + L, y0 + Wd], radius=int(Wd * 0.42),
                        fill=seat_colour + (255,), outline=(15, 15, 18, 255), width=2 * k)
    # windscreen towards the front (+x), leaving the middle of the car in the player colour
    wx = x0 + L * 0.66
    d.rounded_rectangle([wx, y0 + Wd * 0.22, wx + L * 0.12, y0 + Wd * 0.78], radius=k,
                        fill=(25, 28, 34, 255))
    # a light nose stripe
    d.rounded_rectangle([x0 + L * 0.84, y0 + Wd * 0.38, x0 + L * 0.95, y0 + Wd * 0.62],
                        radius=k, fill=(255, 255, 255, 220))
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


def _place_labels(geo: ht.Geometry, cars: list[tuple[int, float, float, int, str]]) -> dict:
    """Greedy label placement beside the road: each label takes the cheapest free place.

    Costs: distance from the car, covering another label, a car, a speed sign or a spot.
    cars: (seat, x, y, space, text) in track coordinates, leader first. Returns seat -> rect."""
    f = font(LABEL_FONT)
    placed: dict[int, tuple] = {}
    spot_r = geo.tile[1] * 0.55
    car_r = geo.tile[0] * 0.55
    hw = geo.half_width
    obstacles = [(x2, y2, car_r, 500.0) for _, x2, y2, *_ in cars]
    obstacles += [(sx, sy, ht.SIGN_R + 2, 300.0) for sx, sy, _ in geo.signs]
    for seat, x, y, space, text in cars:
        w, h = f.getlength(text) + 18, LABEL_FONT + 10
        nx, ny = geo.normal(space)
        dx, dy = -ny, nx
        cx0, cy0 = geo.centre[space]
        own_side = 1 if (x - cx0) * nx + (y - cy0) * ny >= 0 else -1
        others = [(x2, y2) for s2, x2, y2, *_ in cars if s2 != seat]
        near = [(sx, sy, spot_r, 60.0) for sx, sy, _ in geo.spots.values()
                if abs(sx - x) < 240 and abs(sy - y) < 240]
        near += [o for o in obstacles if abs(o[0] - x) < 260 and abs(o[1] - y) < 260]
        candidates = sorted(
            (0.5 * dist + 0.3 * abs(along), dist, side, along)
            for dist in (hw + 20, hw + 44, hw + 72, hw + 104, hw + 140, hw + 180)
            for side in (1, -1) for along in (0, 26, -26, 52, -52, 80, -80, 110, -110))
        best = None
        for base, dist, side, along in candidates:
            if best is not None and base >= best[0]:
                break  # every later candidate starts dearer than the best found
            cx = x + side * nx * dist + dx * along
            cy = y + side * ny * dist + dy * along
            rect = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            if rect[0] < 4 or rect[1] < 4 or rect[2] > geo.width - 4 \
                    or rect[3] > geo.height - 4:
                continue
            cost = base + sum(_rect_overlap(rect, o) for o in placed.values()) * 2.0
            if side != own_side:
                cost += 45  # the label sits on the side of the car's own lane when it can
            # the leader line must not run across another car
            lx, ly = min(max(x, rect[0]), rect[2]), min(max(y, rect[1]), rect[3])
            for ox, oy in others:
                if _segment_dist(x, y, lx, ly, ox, oy) < car_r * 0.75:
                    cost += 400
            for ox, oy, r, penalty in near:
                if rect[0] - r < ox < rect[2] + r and rect[1] - r < oy < rect[3] + r \
                        and _circle_hits(rect, ox, oy, r):
                    cost += penalty
            if best is None or cost < best[0]:
                best = (cost, rect)
        if best is None:  # nowhere inside the area: sit on the car
            cx = min(max(x, w / 2 + 4), geo.width - w / 2 - 4)
            cy = min(max(y - 30, h / 2 + 4), geo.height - h / 2 - 4)
            best = (0, (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
        placed[seat] = best[1]
    return placed


# ---------------------------------------------------------------- static base and palette

def _corners_key(view: dict, circuit: ht.Circuit | None) -> tuple[tuple[int, int], ...]:
    corners = []
    for c in view.get("corners") or []:
        if isinstance(c, dict) and "space" in c:
            corners.append((_int(c["space"]), _int(c.get("speed"))))
    if not corners and circuit is not None:
        corners = list(circuit.corners)
    return tuple(corners)


def _track(view: dict) -> tuple[Image.Image, ht.Geometry]:
    return ht.track_layer(*_board_key(view))


MIN_BASE_ROWS = 6  # Heat seats up to 6 cars; a base this tall serves every smaller race


@lru_cache(maxsize=12)
def _base(key: str, spaces: int, corners: tuple, rows: int = MIN_BASE_ROWS) -> Image.Image:
    """Whole-board background for up to `rows` cars: header band, circuit, panel band with
    alternate row shading (no text). Renders crop it to their own height, which copies it."""
    layer, geo = ht.track_layer(key, spaces, corners)
    height = HEADER_H + geo.height + CAPTION_H + rows * ROW_H + BOTTOM_PAD
    im = Image.new("RGB", (W, height), BACKGROUND)
    im.paste(layer, (0, HEADER_H))
    d = ImageDraw.Draw(im)
    y = HEADER_H + geo.height
    d.rectangle([0, y, W, height], fill=PANEL)
    for i in range(rows):
        if i % 2:
            top = y + CAPTION_H + i * ROW_H
            d.rectangle([0, top, W, top + ROW_H - 1], fill=ROW_ALT)
    return im


_KEY_COLOURS = [BACKGROUND, PANEL, ROW_ALT, TEXT, MUTED, (255, 255, 255), (20, 20, 24),
                (15, 15, 18), (25, 28, 34), WAITING, GOLD, SILVER, BRONZE, ORANGE,
                ht.FIELD, ht.KERB, ht.ASPHALT, ht.TILE, ht.TILE_EDGE, ht.NUMBER, ht.SIGN_RED,
                ht.WHITE, ht.BLACK, ht.FLOODED, ht.TUNNEL]
_KEY_COLOURS += list(PLAYER_COLOURS) + [s[0] for s in KIND_STYLE.values()]


@lru_cache(maxsize=12)
def _palette(key: str, spaces: int, corners: tuple) -> Image.Image:
    """A fixed 256-colour palette for one circuit: the exact UI colours first, then the most
    useful blends found in a sample board drawn with every player colour and element."""
    sample = _draw_board(_calibration_view(key, spaces, corners), [
        "Alice", "Bob", "Chandra", "Dmitri", "Eve", "Fumiko"])
    keys = list(dict.fromkeys(tuple(c) for c in _KEY_COLOURS))
    rest = sample.quantize(256 - len(keys), method=Image.Quantize.FASTOCTREE)
    flat_rest = rest.getpalette()[: 3 * (256 - len(keys))]
    extra = [tuple(flat_rest[i:i + 3]) for i in range(0, len(flat_rest), 3)]
    # Leave out blends within a few units of a UI colour, so that near-misses (resampling
    # round-off inside a car, say) snap to the exact colour.
    extra = [c for c in extra
             if min(sum(abs(a - b) for a, b in zip(c, k)) for k in keys) > 6]
    flat = [v for c in keys + extra for v in c]
    flat += flat[:3] * ((768 - len(flat)) // 3)
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


def _calibration_view(key: str, spaces: int, corners: tuple) -> dict:
    n = spaces or 60
    cars = []
    labels = [["Speed 1", "Speed 2", "Heat", "Stress \u2192 Speed 4"], ["Speed 4", "Speed 3"],
              ["Upgrade 0", "Upgrade 5"], ["Heat"], ["Stress \u2192 Heat"],
              ["Speed 2", "Speed 2", "Speed 3"]]
    for seat in range(6):
        c = corners[seat % len(corners)][0] if corners else 5 + seat * 7
        cars.append({
            "seat": seat, "space": (c - seat // 2 - 1) % n + 1, "lane": 1 + seat % 2, "lap": 1,
            "finished": seat == 5, "place": 1 if seat == 5 else None, "gear": 1 + seat % 4,
            "engine_heat": seat, "hand_count": 7, "deck_count": 12, "discard_count": 3,
            "revealed": labels[seat], "speed": 9, "submitted": seat % 2 == 0,
            "spun": seat == 1, "adrenaline": seat == 2, "slipstreamed": seat == 3,
            "heat_paid": 2 if seat == 4 else 0})
    return {"kind": "heat", "track": key, "track_name": key, "laps": 2, "spaces": n,
            "round": 3, "phase": "decide", "corners": [{"space": s, "speed": v}
                                                       for s, v in corners],
            "cars": cars, "order": [5, 0, 1, 2, 3, 4], "waiting_for": [0]}


# ---------------------------------------------------------------- the board

def render_board(view: dict, names: list[str], locale: str = "en") -> bytes:
    """The public race board as PNG bytes: circuit with cars, header, one panel row per car;
    its texts in `locale`."""
    key, spaces, corners = _board_key(view)
    with drawing_in(locale):
        image = _draw_board(view, names)
    pal = _palette(key, spaces, corners)
    return _encode(image.quantize(palette=pal, dither=Image.Dither.NONE))


def _board_key(view: dict) -> tuple[str, int, tuple]:
    """(circuit key, spaces, corners): what the static layer and the palette are cached by."""
    name = view.get("track_name")
    key = ht.resolve_key(view.get("track"), view.get("circuit"), english(name) if name is not None else None)
    circuit = ht.load_circuit(key)
    spaces = _int(view.get("spaces"), circuit.spaces if circuit else 60)
    return key, spaces, _corners_key(view, circuit)


def board_spot(view: dict, space: int, lane: int) -> tuple[int, int]:
    """Canvas pixel of a spot's centre on the board image (used by tests and tools)."""
    _, geo = _track(view)
    x, y, _ = geo.spot(space, lane)
    return int(round(x)), int(round(y + HEADER_H))


def _draw_board(view: dict, names: list[str]) -> Image.Image:
    key, spaces, corners = _board_key(view)
    _, geo = ht.track_layer(key, spaces, corners)
    cars = _cars(view)
    order = _race_order(view, cars)
    rows = max(1, len(order))
    base = _base(key, spaces, corners, max(rows, MIN_BASE_ROWS))
    im = base.crop((0, 0, W, HEADER_H + geo.height + CAPTION_H + rows * ROW_H + BOTTOM_PAD))
    d = _Draw(im)
    _draw_cars(im, d, geo, (key, spaces, corners), cars, order, names)
    _draw_header(d, view, cars, order, names)
    _draw_panel(d, view, cars, order, names, HEADER_H + geo.height)
    return im


def _draw_cars(im, d, geo, layer_key, cars, order, names) -> None:
    top = HEADER_H
    on_track = []
    used: dict[tuple[int, int], int] = {}
    for seat in order:
        car = cars[seat]
        if car.get("finished"):
            continue
        space = (_int(car.get("space"), 1) - 1) % geo.circuit.spaces + 1
        lane = 2 if _int(car.get("lane"), 1) == 2 else 1
        x, y, a = geo.spot(space, lane)
        nudge = used.get((space, lane), 0)  # never hide a car completely behind another
        used[(space, lane)] = nudge + 1
        if nudge:
            nx, ny = geo.normal(space)
            x, y = x + nx * 8 * nudge, y + ny * 8 * nudge
        on_track.append((seat, x, y, space, _short(player_name(names, seat)), a))
    finished = [s for s in order if cars[s].get("finished")]
    if finished:  # under the cars, so that it never hides one
        _draw_finish_box(d, layer_key, finished, cars, names)
    labels = _place_labels(geo, [c[:5] for c in on_track])
    length = int(round(geo.tile[0] + 4))
    width = int(round(geo.tile[1] + 3))
    # leader lines under everything, then the cars, then the name labels
    for seat, x, y, *_ in on_track:
        r = labels[seat]
        lx = min(max(x, r[0]), r[2])
        ly = min(max(y, r[1]), r[3])
        d.line([(x, y + top), (lx, ly + top)], fill=(15, 15, 18), width=6)
        d.line([(x, y + top), (lx, ly + top)], fill=_colour(seat), width=3)
    for seat, x, y, _, _, a in reversed(on_track):
        sprite = _car_sprite(_colour(seat), int(round(a / 5.0)) * 5 % 360, length, width)
        corner = (int(round(x - sprite.width / 2)), int(round(y + top - sprite.height / 2)))
        im.paste(sprite, corner, sprite)
    f = font(LABEL_FONT)
    for seat, x, y, _, text, _ in on_track:
        r = labels[seat]
        fill = _colour(seat)
        d.rounded_rectangle([r[0], r[1] + top, r[2], r[3] + top], radius=8, fill=fill,
                            outline=(15, 15, 18), width=2)
        d.text(((r[0] + r[2]) / 2, (r[1] + r[3]) / 2 + top + 1), text, font=f, fill=_ink(fill),
               anchor="mm")


def _draw_finish_box(d, layer_key, finished, cars, names) -> None:
    rows = finished[:8]
    shown = [fit(player_name(names, seat), 22, 180) for seat in rows]
    bw = int(max(200, 118 + max(font(22).getlength(n) for n in shown)))
    bw += -bw % 40  # a few sizes only: each size's free place is searched once, then cached
    bh = 58 + 34 * len(rows)
    x, y = ht.free_box(*layer_key, bw, bh)
    y += HEADER_H
    d.rounded_rectangle([x, y, x + bw, y + bh], radius=10, fill=(24, 26, 29),
                        outline=(15, 15, 18), width=2)
    for i in range(int((bw - 20) // 12)):  # a chequered strip on top
        for j in range(2):
            c = (240, 240, 240) if (i + j) % 2 == 0 else (24, 26, 29)
            d.rectangle([x + 10 + i * 12, y + 8 + j * 6, x + 21 + i * 12, y + 13 + j * 6], fill=c)
    d.text((x + 14, y + 36), tx("Finished"), font=font(22), fill=TEXT, anchor="lm")
    for i, seat in enumerate(rows):
        yy = y + 52 + i * 34
        place = _int(cars[seat].get("place"), 0)
        d.text((x + 14, yy + 12), _ordinal(place) if place else "-", font=font(22),
               fill=TEXT, anchor="lm")
        d.rounded_rectangle([x + 70, yy, x + 94, yy + 24], radius=5, fill=_colour(seat),
                            outline=(15, 15, 18))
        d.text((x + 104, yy + 12), shown[i], font=font(22), fill=TEXT, anchor="lm")


def _leader_lap(view: dict, cars: dict, order: list[int]) -> int:
    laps = max(1, _int(view.get("laps"), 1))
    for seat in order:
        if not cars[seat].get("finished"):
            return min(max(_int(cars[seat].get("lap"), 1), 1), laps)
    return laps


def _draw_header(d, view, cars, order, names) -> None:
    laps = max(1, _int(view.get("laps"), 1))
    title = clean_text(words(view.get("track_name")) or view.get("track") or "Heat", "Heat")
    d.text((20, HEADER_H / 2), title, font=font(36), fill=TEXT, anchor="lm",
           stroke_width=1, stroke_fill=TEXT)
    x = 32 + font(36).getlength(title) + 4
    for text in (tx("Lap {lap}/{laps}", lap=_leader_lap(view, cars, order), laps=laps),
                 tx("Round {n}", n=_int(view.get("round"), 1))):
        x += _tag(d, x, HEADER_H / 2 - 18, text, (70, 74, 82), size=26, ink=TEXT) + 10
    phase = view.get("phase")
    waiting = [s for s in (view.get("waiting_for") or []) if isinstance(s, int)]
    if phase == "over":
        standings = _standings(view, cars)
        text = tx("Race over - {name} wins!", name=player_name(names, standings[0])) \
            if standings else tx("Race over")
        colour = GOLD
    elif phase == "submit":
        text = tx("Choose cards: waiting for {n}", n=len(waiting)) if waiting \
            else tx("Choose cards")
        colour = WAITING
    elif waiting:
        text = tx("Waiting for {name}", name=player_name(names, waiting[0]))
        colour = WAITING
    else:
        text, colour = tx("Resolving"), TEXT
    text = fit(clean_text(text), 28, W - x - 40)
    d.text((W - 20, HEADER_H / 2), text, font=font(28), fill=colour, anchor="rm")


def _draw_panel(d, view, cars, order, names, y0) -> None:
    cap = font(19)
    cy = y0 + CAPTION_H / 2 + 2
    d.text((20, cy), tx("Pos"), font=cap, fill=MUTED, anchor="lm")
    d.text((NAME_X, cy), tx("Driver"), font=cap, fill=MUTED, anchor="lm")
    for caption, x in STAT_COLS:
        d.text((x, cy), tx(caption), font=cap, fill=MUTED, anchor="mm")
    phase = view.get("phase")
    # While cards are being chosen, what is shown is the previous round's play.
    played = tx("Played last round") if phase == "submit" else tx("Played this round")
    d.text((PLAYED_X, cy), played, font=cap, fill=MUTED, anchor="lm")
    d.text((SPEED_X, cy), tx("Speed"), font=cap, fill=MUTED, anchor="mm")
    waiting = set(s for s in (view.get("waiting_for") or []) if isinstance(s, int))
    laps = max(1, _int(view.get("laps"), 1))
    value_font = font(30)
    for i, seat in enumerate(order):
        car = cars[seat]
        top = y0 + CAPTION_H + i * ROW_H
        mid = top + ROW_H / 2
        if seat in waiting and phase != "over":
            d.rectangle([0, top, 6, top + ROW_H - 1], fill=WAITING)
        # position badge (finishing place once finished)
        fill = _colour(seat)
        place = _int(car.get("place"), 0) if car.get("finished") or phase == "over" else 0
        badge = _ordinal(place) if place else str(i + 1)
        ring = {1: GOLD, 2: SILVER, 3: BRONZE}.get(place)
        d.rounded_rectangle([14, mid - 26, 68, mid + 26], radius=10, fill=fill,
                            outline=ring or (15, 15, 18), width=4 if ring else 2)
        d.text((41, mid + 1), badge, font=font(26 if len(badge) < 3 else 21),
               fill=_ink(fill), anchor="mm")
        # name and status tags
        tags = []
        if car.get("finished") and phase != "over":
            tags.append((tx("finished"), (240, 240, 240)))
        if car.get("spun"):
            tags.append((tx("spun out"), (214, 40, 40)))
        if _int(car.get("heat_paid")):
            tags.append((tx("+{n} heat", n=_int(car.get("heat_paid"))), ORANGE))
        if car.get("slipstreamed"):
            tags.append((tx("slipstream"), (60, 140, 230)))
        if car.get("adrenaline"):
            tags.append((tx("adrenaline"), (42, 170, 90)))
        if seat in waiting and phase == "decide":
            tags.insert(0, (tx("to decide"), WAITING))
        if phase == "submit" and car.get("submitted") and not car.get("finished") \
                and car.get("revealed"):  # (with nothing revealed the column says it)
            tags.insert(0, (tx("cards chosen"), (110, 210, 130)))
        d.text((NAME_X, top + 22 if tags else mid), fit(player_name(names, seat), 28, 268),
               font=font(28), fill=TEXT, anchor="lm")
        tag_x = NAME_X
        for text, colour in tags:
            if tag_x + font(18).getlength(text) + 14 > STAT_COLS[0][1] - 30:
                break
            tag_x += _tag(d, tag_x, top + 40, text, colour, size=18) + 6
        # numbers
        lap = min(max(_int(car.get("lap"), 1), 1), laps)
        values = [(f"{lap}/{laps}" if not car.get("finished") else "-", TEXT),
                  (str(_int(car.get("gear"), 1)), TEXT),
                  (str(_int(car.get("engine_heat"))), ORANGE),
                  (str(_int(car.get("hand_count"))), TEXT),
                  (str(_int(car.get("deck_count"))), TEXT),
                  (str(_int(car.get("discard_count"))), TEXT)]
        for (caption, x), (text, colour) in zip(STAT_COLS, values):
            d.text((x, mid), text, font=font(26) if "/" in text else value_font, fill=colour,
                   anchor="mm")
        # revealed cards, or the submission state while cards are being chosen
        revealed = list(car.get("revealed") or [])
        if revealed:
            widths = [_chip_width(v) + 6 for v in revealed]
            one_line = PLAYED_X + sum(widths) <= SPEED_X - 44
            x, y = PLAYED_X, (mid - 15 if one_line else top + 5)
            for label, w in zip(revealed, widths):
                if x + w > SPEED_X - 44:
                    if y > top + 10:
                        break
                    x, y = PLAYED_X, top + 38
                x += _chip(d, x, y, label) + 6
        elif phase == "submit" and not car.get("finished"):
            ready = bool(car.get("submitted"))
            text = tx("cards chosen") if ready else tx("choosing...")
            d.text((PLAYED_X, mid), text, font=font(24), fill=(110, 210, 130) if ready else MUTED,
                   anchor="lm")
        speed = car.get("speed")
        d.text((SPEED_X, mid), "-" if speed is None else str(_int(speed)), font=font(38),
               fill=TEXT, anchor="mm", stroke_width=1, stroke_fill=TEXT)


# ---------------------------------------------------------------- the hand (DM)

def render_hand(view: dict, names: list[str], locale: str = "en") -> bytes:
    """The viewing seat's hand as a row of cards, with gear and heat above; texts in `locale`."""
    with drawing_in(locale):
        return _render_hand(view, names)


def _render_hand(view: dict, names: list[str]) -> bytes:
    me = view.get("me") or {}
    seat = _int(me.get("seat"), 0)
    hand = [c for c in (me.get("hand") or []) if isinstance(c, dict)]
    car = _cars(view).get(seat, {})
    n = max(1, len(hand))
    gap, margin = 12, 24
    cw = min(168, (W - 2 * margin - (n - 1) * gap) / n)
    ch = int(cw * 1.4)
    head = HAND_HEAD
    height = head + ch + margin + 10
    im = Image.new("RGB", (W, height), BACKGROUND)
    d = _Draw(im)
    colour = _colour(seat)
    d.rounded_rectangle([margin, 18, margin + 36, 54], radius=8, fill=colour,
                        outline=(15, 15, 18), width=2)
    name = player_name(names, seat)
    d.text((margin + 50, 36), fit(tx("{name}'s hand", name=name), 32, 520), font=font(32),
           fill=TEXT, anchor="lm", stroke_width=1, stroke_fill=TEXT)
    info = [(tx("Gear {n}", n=_int(car.get("gear"), 1)), (70, 74, 82), TEXT),
            (tx("Heat in engine {n}", n=_int(car.get("engine_heat"))), ORANGE, None),
            (tx("Deck {n}", n=_int(car.get("deck_count"))), (70, 74, 82), TEXT),
            (tx("Discard {n}", n=_int(car.get("discard_count"))), (70, 74, 82), TEXT)]
    x = W - margin
    for text, fill, ink in reversed(info):
        w = font(24).getlength(text) + 14
        x -= w
        _tag(d, x, 20, text, fill, size=24, ink=ink)
        x -= 10
    sub = []
    if view.get("track_name"):
        sub.append(clean_text(words(view["track_name"])))
    sub.append(tx("Round {n}", n=_int(view.get("round"), 1)))
    laps = max(1, _int(view.get("laps"), 1))
    sub.append(tx("Lap {lap}/{laps}", lap=min(max(_int(car.get("lap"), 1), 1), laps), laps=laps))
    if car.get("speed") is not None:
        sub.append(tx("Speed {n}", n=_int(car.get("speed"))))
    d.text((margin + 50, 74), words(chain("{a}  |  {b}", sub)), font=font(22), fill=MUTED, anchor="lm")
    if not hand:
        d.text((W / 2, head + ch / 2), tx("No cards in hand"), font=font(30), fill=MUTED,
               anchor="mm")
    for i, card in enumerate(hand):
        x0 = margin + i * (cw + gap)
        _draw_card(d, x0, head, cw, ch, card)
    return _encode(im)


def _draw_card(d, x0, y0, cw, ch, card) -> None:
    kind = str(card.get("kind") or "")
    label = clean_text(words(card.get("label")), "?")
    if kind not in KIND_STYLE:
        kind = _kind_of_label(clean_text(english(card.get("label")), "?"))
    fill, ink = KIND_STYLE[kind]
    d.rounded_rectangle([x0, y0, x0 + cw, y0 + ch], radius=14, fill=fill,
                        outline=(12, 12, 14), width=3)
    d.rounded_rectangle([x0 + 7, y0 + 7, x0 + cw - 7, y0 + ch - 7], radius=10,
                        outline=_blend(fill, ink, 0.25), width=2)
    value = card.get("value")
    if kind == "heat":
        big = tx("HEAT")
    elif kind == "stress":
        big = "?"
    else:
        big = "" if value is None else str(value)
    kind_name = {"speed": tx("speed"), "heat": tx("heat"), "stress": tx("stress"),
                 "upgrade": tx("upgrade")}[kind]
    d.text((x0 + 16, y0 + 24), kind_name, font=font(19), fill=_blend(fill, ink, 0.55),
           anchor="lm")
    if big:
        size = int(min(cw * (0.62 if len(big) <= 2 else 0.26), 100))
        d.text((x0 + cw / 2, y0 + ch * 0.46), big, font=font(size), fill=ink, anchor="mm",
               stroke_width=2 if len(big) <= 2 else 1, stroke_fill=ink)
    # the full label at the bottom, wrapped on two lines if long
    same = label.lower() == big.lower() or (kind == "speed" and label.split()[-1:] == [big])
    lines = [] if same else wrap(label, 20, cw - 20)[:2]
    for j, line in enumerate(lines):
        d.text((x0 + cw / 2, y0 + ch - 22 - 24 * (len(lines) - 1 - j)), line, font=font(20),
               fill=ink, anchor="mm")


def _blend(a, b, k):
    return tuple(int(a[i] + (b[i] - a[i]) * k) for i in range(3))


# ---------------------------------------------------------------- results

def render_results(view: dict, names: list[str], locale: str = "en") -> bytes:
    """End-of-race standings, podium style; texts in `locale`."""
    with drawing_in(locale):
        return _render_results(view, names)


def _render_results(view: dict, names: list[str]) -> bytes:
    cars = _cars(view)
    seats = _standings(view, cars)
    rest = seats[3:]
    height = 560 + 52 * max(0, len(rest)) + (20 if rest else 0)
    im = Image.new("RGB", (W, height), BACKGROUND)
    d = _Draw(im)
    title = clean_text(words(view.get("track_name")) or view.get("track") or "Heat", "Heat")
    d.text((W / 2, 46), tx("Race over - {track}", track=title), font=font(40), fill=TEXT,
           anchor="mm", stroke_width=1, stroke_fill=TEXT)
    d.text((W / 2, 92), tx("Final standings after round {n}", n=_int(view.get("round"), 1)),
           font=font(24), fill=MUTED, anchor="mm")
    base_y = 520
    blocks = {1: (W / 2, 250), 2: (W / 2 - 330, 185), 3: (W / 2 + 330, 135)}
    for place, (cx, bh) in blocks.items():
        if place > len(seats):
            continue
        seat = seats[place - 1]
        fill = _colour(seat)
        ring = {1: GOLD, 2: SILVER, 3: BRONZE}[place]
        d.rounded_rectangle([cx - 150, base_y - bh, cx + 150, base_y], radius=12, fill=fill,
                            outline=ring, width=6)
        d.text((cx, base_y - bh / 2), _ordinal(place), font=font(72 if place == 1 else 58),
               fill=_ink(fill), anchor="mm", stroke_width=2, stroke_fill=_ink(fill))
        d.text((cx, base_y - bh - 40), fit(player_name(names, seat), 36, 300), font=font(36),
               fill=TEXT, anchor="mm", stroke_width=1, stroke_fill=TEXT)
        sprite = _car_sprite(fill, 0, 96, 46)
        im.paste(sprite, (int(cx - sprite.width / 2), int(base_y - bh - 100 - sprite.height / 2)),
                 sprite)
    d.rectangle([60, base_y, W - 60, base_y + 8], fill=(70, 74, 82))
    for i, seat in enumerate(rest):
        y = base_y + 40 + i * 52
        place = i + 4
        d.rounded_rectangle([W / 2 - 260, y, W / 2 - 220, y + 40], radius=8,
                            fill=_colour(seat), outline=(15, 15, 18), width=2)
        d.text((W / 2 - 290, y + 20), _ordinal(place), font=font(28), fill=MUTED, anchor="rm")
        d.text((W / 2 - 200, y + 20), fit(player_name(names, seat), 30, 460), font=font(30),
               fill=TEXT, anchor="lm")
    return _encode(im)


# ---------------------------------------------------------------- benchmark

def sample_view(track: str = "usa", cars: int = 6) -> dict:
    """A busy spectator view (cars bunched before a corner) for benchmarks and previews."""
    circuit = ht.load_circuit(track)
    spaces = circuit.spaces if circuit else 60
    corners = list(circuit.corners) if circuit else [(12, 5)]
    c = corners[0][0]
    out = []
    revealed = [["Speed 4", "Speed 3", "Speed 2"], ["Speed 3", "Upgrade 5"], ["Heat", "Speed 1"],
                ["Speed 4", "Speed 4", "Speed 2", "Speed 1"], ["Speed 2"],
                ["Stress \u2192 Speed 3", "Speed 3", "Upgrade 0"]]
    for seat in range(cars):
        out.append({
            "seat": seat, "space": c - seat // 2, "lane": 1 + seat % 2, "lap": 1,
            "finished": False, "place": None, "gear": 1 + seat % 4, "engine_heat": 6 - seat,
            "hand_count": 7, "deck_count": 10 - seat, "discard_count": seat,
            "revealed": revealed[seat % 6], "speed": 8 - seat, "submitted": True,
            "spun": seat == 3, "adrenaline": seat == cars - 1, "slipstreamed": seat == 1,
            "heat_paid": 1 if seat == 2 else 0})
    return {"kind": "heat", "track": track, "track_name": circuit.name if circuit else track,
            "laps": circuit.laps if circuit else 2, "spaces": spaces, "round": 4,
            "phase": "decide",
            "corners": [{"space": s, "speed": v} for s, v in corners], "cars": out,
            "order": list(range(cars)), "last_round": [], "waiting_for": [min(2, cars - 1)]}


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
