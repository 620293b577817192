"""Pole Position images: the race board (circuit with cells, lanes and cars, the weather grids,
the position track with every car's dashboard), a seat's own dashboard (DM) and the results.

Only the engine's views are read; the circuit's drawing comes from its data (data/pole), the
static layer is cached per circuit."""
from __future__ import annotations

import io
import math
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.pole.content import circuits
from rendering.common import (BACKGROUND, MUTED, PANEL, seat_colour, TEXT, drawing_in, fit, font, player_name,
                              png_bytes, tx, words)
from rendering.pole_bots import with_bots

W = 1280
HEADER_H = 84
TRACK_H = 820
LANE_W = 19
ROW_H = 64
TYRE_COLOURS = {"soft": (220, 40, 40), "hard": (240, 240, 240), "inter": (40, 170, 70), "wet": (40, 110, 230)}
TYRE_LETTER = {"soft": "S", "hard": "H", "inter": "I", "wet": "W"}
WEATHER_COLOURS = {"dry": (250, 204, 21), "light": (125, 200, 245), "heavy": (25, 60, 150)}
ASPHALT = (88, 90, 96)
CORNER = (110, 112, 120)
SHADED = (62, 64, 70)
ARROW = (250, 250, 250)
ARROW_TECH = (235, 60, 60)
LOW_GRIP = (150, 120, 90)
BROWN = (160, 110, 60)
PIT = (60, 140, 90)



@lru_cache(maxsize=16)
def _fit_box(key: str) -> tuple[float, float, float]:
    """Scale and offsets that fill the track area with this circuit's drawing."""
    c = circuits()[key]
    xs, ys = [p[0] for p in c.points], [p[1] for p in c.points]
    bw, bh = max(xs) - min(xs), max(ys) - min(ys)
    k = min((W - 140) / bw, (TRACK_H - 120) / bh)
    return k, (W - bw * k) / 2 - min(xs) * k, HEADER_H + 60 - min(ys) * k


def _track_h(key: str) -> int:
    c = circuits()[key]
    ys = [p[1] for p in c.points]
    return int((max(ys) - min(ys)) * _fit_box(key)[0] + 120)


def _pt(c, x: float, y: float) -> tuple[float, float]:
    k, ox, oy = _fit_box(c.key)
    return ox + x * k, oy + y * k


def _cell_centre(c, row: int, lane: float) -> tuple[float, float, float]:
    x, y, h = c.points[row % c.length]
    cx, cy = _pt(c, x, y)
    # lanes left (0) to right (2) across the direction of travel
    nx, ny = -math.sin(math.radians(h)), math.cos(math.radians(h))
    off = (lane - 1) * LANE_W
    return cx + nx * off, cy + ny * off, h


def _quad(cx: float, cy: float, h: float, length: float, width: float) -> list[tuple[float, float]]:
    dx, dy = math.cos(math.radians(h)), math.sin(math.radians(h))
    nx, ny = -dy, dx
    hl, hw = length / 2, width / 2
    return [(cx + dx * hl + nx * hw, cy + dy * hl + ny * hw), (cx + dx * hl - nx * hw, cy + dy * hl - ny * hw),
            (cx - dx * hl - nx * hw, cy - dy * hl - ny * hw), (cx - dx * hl + nx * hw, cy - dy * hl + ny * hw)]


def _row_len(c, row: int) -> float:
    x0, y0, _ = c.points[row % c.length]
    x1, y1, _ = c.points[(row + 1) % c.length]
    return max(6.0, math.hypot(x1 - x0, y1 - y0) * _fit_box(c.key)[0])


def _pit_cell(c, key: str, i: int = 0) -> tuple[float, float, float]:
    """Where a pit-lane position is drawn: a strip outside the pit-side lane along the main
    straight (entry cells before the line, the pit at the line, exit cells after it)."""
    side = -1.6 if c.pit_side == 0 else 3.6
    if key == "pin":
        row = c.pit_entry_row + 1 + i
    elif key == "pit":
        row = c.length - 1
    elif key == "g":
        row = i
    else:
        row = 2 + i
    return _cell_centre(c, min(row, c.length - 1) if key in ("pin", "pit") else row, side)


@lru_cache(maxsize=8)
def _track_layer(key: str) -> Image.Image:
    c = circuits()[key]
    img = Image.new("RGB", (W, _track_h(key)), BACKGROUND)
    d = ImageDraw.Draw(img)
    shift = -HEADER_H
    lines = {cell for co in c.corners for cell in co.line}
    arrows = {co.arrow: co.technical for co in c.corners}
    for row in c.rows:
        ln = _row_len(c, row.index)
        for lane in row.lanes:
            cx, cy, h = _cell_centre(c, row.index, lane)
            if (row.index, lane) in arrows:
                fill = ARROW_TECH if arrows[(row.index, lane)] else ARROW
            elif (row.index, lane) in lines:
                fill = SHADED
            elif (row.index, lane) in c.low_grip:
                fill = LOW_GRIP
            elif row.brown:
                fill = BROWN
            elif row.corner >= 0:
                fill = CORNER
            else:
                fill = ASPHALT
            q = [(x, y + shift) for x, y in _quad(cx, cy, h, ln * 0.92, LANE_W * 0.9)]
            d.polygon(q, fill=fill)
        if row.corner >= 0 and c.corners[row.corner].technical:
            co = c.corners[row.corner]
            if row.index in (co.first, co.last):  # the two red lines of a technical corner
                a = _cell_centre(c, row.index, min(row.lanes) - 0.6)
                b = _cell_centre(c, row.index, max(row.lanes) + 0.6)
                d.line([(a[0], a[1] + shift), (b[0], b[1] + shift)], fill=ARROW_TECH, width=3)
    # row numbers every 10 rows (the move select names cells by lap, row and lane)
    away = 4.3 if c.pit_side == 0 else -2.3
    for r in range(10, c.length, 10):
        cx, cy, _ = _cell_centre(c, r, away)
        d.text((cx, cy + shift), str(r + 1), font=font(22), fill=(200, 200, 200), anchor="mm")
    # pit lane strip
    for r in list(range(c.pit_entry_row + 1, c.length)) + list(range(0, c.pit_merge_row)):
        side = -1.6 if c.pit_side == 0 else 3.6
        cx, cy, h = _cell_centre(c, r, side)
        d.polygon([(x, y + shift) for x, y in _quad(cx, cy, h, _row_len(c, r) * 0.9, LANE_W * 0.8)], fill=PIT)
    # finish line: chequered
    for k in range(8):
        lane = -0.5 + k * (3 / 8)
        cx, cy, h = _cell_centre(c, 0, lane)
        x0, y0, _ = c.points[0]
        x1, y1, _ = c.points[c.length - 1]
        bx, by = (cx + (_pt(c, x1, y1)[0] - _pt(c, x0, y0)[0]) / 2), (cy + (_pt(c, x1, y1)[1] - _pt(c, x0, y0)[1]) / 2)
        d.rectangle([bx - 3, by - 3 + shift, bx + 3, by + 3 + shift], fill=(255, 255, 255) if k % 2 else (0, 0, 0))
    return img


def _car_xy(c, car: dict) -> tuple[float, float] | None:
    pos = car.get("pos")
    if not isinstance(pos, list) or not pos:
        return None
    if pos[0] == "t":
        x, y, _ = _cell_centre(c, int(pos[1]), int(pos[2]))
    elif pos[0] in ("pin", "g", "pout"):
        x, y, _ = _pit_cell(c, pos[0], int(pos[1]))
    elif pos[0] == "pit":
        x, y, _ = _pit_cell(c, "pit")
    else:
        return None
    return x, y


def _status(car: dict) -> str:
    if car.get("finished"):
        return tx("P{n} at the flag", n=car["finished"])
    if car.get("out"):
        return tx("out")
    pos = car.get("pos") or []
    if pos and pos[0] in ("pit", "g", "pout", "pin"):
        return tx("pits")
    if car.get("off"):
        return tx("off track")
    return ""


def render_board(view: dict, names: list[str], locale: str = "en") -> bytes:
    """The public board; texts in `locale`."""
    with drawing_in(locale):
        names = with_bots(view, names)
        return png_bytes(_board(view, names))


def _board(view: dict, names: list[str]) -> Image.Image:
    c = circuits()[view["circuit"]]
    cars = view.get("cars") or []
    order = [s for s in view.get("order") or [] if 0 <= s < len(cars)]
    rows = len(order)
    th = _track_h(c.key)
    height = HEADER_H + th + 20 + ROW_H * (rows + 1) + 20
    img = Image.new("RGB", (W, height), BACKGROUND)
    img.paste(_track_layer(c.key), (0, HEADER_H))
    d = ImageDraw.Draw(img)
    # header
    lead_laps = max([car.get("laps", 0) for car in cars] or [0])
    d.rectangle([0, 0, W, HEADER_H], fill=PANEL)
    d.text((24, HEADER_H / 2), fit(tx("Pole Position: {name}", name=tx(c.name)), 40, 560), font=font(40), fill=TEXT, anchor="lm")
    phase = view.get("phase")
    if phase == "race":
        info = tx("Lap {lap}/{laps}", lap=min(lead_laps + 1, c.laps), laps=c.laps)
    elif phase == "quali":
        info = tx("Qualifying {session}", session=(view.get("quali") or {}).get("session", ""))
    elif phase == "tyres":
        info = tx("Tyre choice")
    else:
        info = tx("Race over")
    d.text((W - 330, HEADER_H / 2), fit(info, 38, 330), font=font(38), fill=TEXT, anchor="rm")
    wnow = view.get("weather_now", "dry")
    _weather_panel(d, view, c, W - 310, 8)
    # cars on the circuit, last first so the leader is on top
    for rank, s in reversed(list(enumerate(order))):
        car = cars[s]
        if car.get("out") or car.get("finished"):
            continue
        xy = _car_xy(c, car)
        if xy is None:
            continue
        x, y = xy
        r = 20
        d.ellipse([x - r, y - r, x + r, y + r], fill=seat_colour(s), outline=(0, 0, 0) if not car.get("off") else (255, 80, 80), width=3)
        d.text((x, y), str(rank + 1), font=font(28), fill=(0, 0, 0) if seat_colour(s)[1] > 150 else (255, 255, 255), anchor="mm")
    # position track and dashboards
    y0 = HEADER_H + th
    cols = [(tx("Pos"), 20), (tx("Driver"), 134), (tx("Lap"), 470), (tx("Tyre"), 560), (tx("Life"), 660),
            (tx("EP"), 740), (tx("BP"), 850), (tx("SP"), 960), (tx("Failures"), 1060)]
    for label, x in cols:
        d.text((x, y0 + ROW_H / 2), fit(label, 26, 300 if x == 134 else 104), font=font(26), fill=MUTED, anchor="lm")
    ti = view.get("turn_info") or {}
    for i, s in enumerate(order):
        car = cars[s]
        y = y0 + ROW_H * (i + 1)
        if i % 2 == 0:
            d.rectangle([0, y, W, y + ROW_H], fill=PANEL)
        mid = y + ROW_H / 2
        if ti.get("seat") == s or s in (view.get("to_act") or []):
            d.rectangle([0, y, 10, y + ROW_H], fill=(255, 214, 10))
        d.text((40, mid), str(i + 1), font=font(34), fill=TEXT, anchor="lm")
        d.ellipse([90, mid - 16, 122, mid + 16], fill=seat_colour(s))
        d.text((134, mid), fit(player_name(names, s), 34, 320), font=font(34), fill=TEXT, anchor="lm")
        d.text((470, mid), f"{min(car.get('laps', 0) + 1, c.laps)}", font=font(34), fill=TEXT, anchor="lm")
        tyre = car.get("tyre")
        if tyre in TYRE_COLOURS:
            d.ellipse([560, mid - 18, 596, mid + 18], fill=TYRE_COLOURS[tyre], outline=(20, 20, 20), width=2)
            d.text((578, mid), TYRE_LETTER[tyre], font=font(24), fill=(0, 0, 0) if tyre in ("hard", "soft") and tyre == "hard" else (255, 255, 255), anchor="mm")
            life = car.get("life", 0)
            d.text((660, mid), str(life), font=font(34), fill=(255, 90, 90) if life < 0 else TEXT, anchor="lm")
        for key, x in (("ep", 740), ("bp", 850), ("sp", 960)):
            d.text((x, mid), str(car.get(key, 0)), font=font(34), fill=TEXT, anchor="lm")
        bx = 1060
        for kind, rep in car.get("bd") or []:
            fill = (60, 170, 90) if rep else ((220, 50, 50) if kind == "heavy" else (20, 20, 20))
            d.rectangle([bx, mid - 15, bx + 30, mid + 15], fill=fill, outline=(200, 200, 200), width=2)
            d.text((bx + 15, mid), "H" if kind == "heavy" else "L", font=font(22), fill=(255, 255, 255), anchor="mm")
            bx += 36
        st = _status(car)
        if st:
            d.text((W - 20, mid), fit(st, 28, 1270 - max(bx, 1060) - 30), font=font(28), fill=MUTED, anchor="rm")
    return img


def _weather_panel(d: ImageDraw.ImageDraw, view: dict, c, x: int, y: int) -> None:
    """Grid A (6 x 6, current weather token) and grid B (the forecast), small, in the header."""
    w = view.get("weather") or {}
    a, b = int(w.get("a", 0)), int(w.get("b", 1))
    cell = 11
    for i, code in enumerate(c.weather_a):
        cx, cy = x + (i % 6) * (cell + 1), y + (i // 6) * (cell + 1)
        d.rectangle([cx, cy, cx + cell, cy + cell], fill=WEATHER_COLOURS[code])
        if i == a:
            d.rectangle([cx - 2, cy - 2, cx + cell + 2, cy + cell + 2], outline=(255, 255, 255), width=3)
    bx = x + 6 * (cell + 1) + 10
    for i in range(1, c.weather_b + 1):
        cy = y + (i - 1) * (cell + 1)
        d.rectangle([bx, cy, bx + cell, cy + cell], fill=(200, 200, 200) if i != b else (255, 255, 255),
                    outline=(0, 0, 0) if i == b else None, width=3 if i == b else 1)
    wnow = view.get("weather_now", "dry")
    name = {"dry": tx("Dry"), "light": tx("Light rain"), "heavy": tx("Heavy rain")}.get(wnow, wnow)
    d.rectangle([bx + 24, y + 14, bx + 56, y + 46], fill=WEATHER_COLOURS.get(wnow, (200, 200, 200)))
    d.text((bx + 64, y + 30), fit(name, 28, 150), font=font(28), fill=TEXT, anchor="lm")


def render_hand(view: dict, names: list[str], locale: str = "en") -> bytes:
    """The viewing seat's dashboard: tyres in use and in the box, EP/BP/SP, damage, its fight
    preferences and, on its turn, the dice; texts in `locale`."""
    with drawing_in(locale):
        names = with_bots(view, names)
        return png_bytes(_hand(view, names))


def _hand(view: dict, names: list[str]) -> Image.Image:
    me = view.get("me") or {}
    seat = int(me.get("seat", view.get("viewer") or 0) or 0)
    cars = view.get("cars") or []
    car = cars[seat] if 0 <= seat < len(cars) else {}
    img = Image.new("RGB", (900, 600), BACKGROUND)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, 900, 80], fill=PANEL)
    d.ellipse([20, 20, 60, 60], fill=seat_colour(seat))
    d.text((76, 40), fit(player_name(names, seat), 38, 520), font=font(38), fill=TEXT, anchor="lm")
    order = view.get("order") or []
    if seat in order:
        d.text((880, 40), tx("P{n}", n=order.index(seat) + 1), font=font(38), fill=TEXT, anchor="rm")
    y = 110
    tyre = car.get("tyre") or view.get("my_tyre")
    if tyre in TYRE_COLOURS:
        d.ellipse([30, y, 90, y + 60], fill=TYRE_COLOURS[tyre], outline=(20, 20, 20), width=3)
        d.text((60, y + 30), TYRE_LETTER[tyre], font=font(34), fill=(0, 0, 0) if tyre == "hard" else (255, 255, 255), anchor="mm")
        if car.get("tyre"):
            d.text((110, y + 30), tx("Tyre life {n}", n=car.get("life", 0)), font=font(34), fill=TEXT, anchor="lm")
        else:
            d.text((110, y + 30), tx("Your secret choice"), font=font(34), fill=TEXT, anchor="lm")
    y += 90
    label = tx("In the box:")
    d.text((30, y), label, font=font(30), fill=MUTED, anchor="lm")
    x = int(30 + font(30).getlength(label) + 20)
    for t, lives in (car.get("sets") or {}).items():
        for life in lives:
            d.ellipse([x, y - 22, x + 44, y + 22], fill=TYRE_COLOURS.get(t, (128, 128, 128)), outline=(20, 20, 20), width=2)
            d.text((x + 22, y), str(life), font=font(24), fill=(0, 0, 0) if t == "hard" else (255, 255, 255), anchor="mm")
            x += 54
    y += 70
    for i, (key, label) in enumerate((("ep", tx("EP")), ("bp", tx("BP")), ("sp", tx("SP")))):
        bx = 30 + i * 280
        d.rounded_rectangle([bx, y, bx + 250, y + 90], radius=12, fill=PANEL)
        d.text((bx + 20, y + 45), label, font=font(34), fill=MUTED, anchor="lm")
        d.text((bx + 230, y + 45), str(car.get(key, 0)), font=font(48), fill=TEXT, anchor="rm")
    y += 120
    bd = car.get("bd") or []
    label = tx("Damage:")
    d.text((30, y), label, font=font(30), fill=MUTED, anchor="lm")
    bx = int(30 + font(30).getlength(label) + 20)
    if not bd:
        d.text((bx, y), tx("none"), font=font(30), fill=TEXT, anchor="lm")
    for i, (kind, rep) in enumerate(bd):
        fill = (60, 170, 90) if rep else ((220, 50, 50) if kind == "heavy" else (20, 20, 20))
        d.rectangle([bx + i * 50, y - 20, bx + 40 + i * 50, y + 20], fill=fill, outline=(200, 200, 200), width=2)
        d.text((bx + 20 + i * 50, y), "H" if kind == "heavy" else "L", font=font(24), fill=(255, 255, 255), anchor="mm")
    y += 60
    prefs = me.get("prefs") or {}
    if prefs:
        text = tx("Fights: attack up to {a} SP, defend up to {d} SP", a=prefs.get("attack", 0), d=prefs.get("defend", 0))
        if prefs.get("yield"):
            text = tx("Fights: I let attackers through")
        elif prefs.get("ask"):
            text = tx("Fights: attack up to {a} SP, ask me when defending", a=prefs.get("attack", 0))
        d.text((30, y), fit(text, 30, 840), font=font(30), fill=TEXT, anchor="lm")
    y += 60
    ti = view.get("turn_info") or {}
    if ti.get("seat") == seat and ti.get("rolls"):
        rolls = ti["rolls"]
        d.text((30, y), fit(tx("Your rolls: {rolls}", rolls=", ".join(rolls)), 34, 840), font=font(34), fill=TEXT, anchor="lm")
    return img


def render_results(view: dict, names: list[str], locale: str = "en") -> bytes:
    """The final classification: finishers in order, then retirements."""
    with drawing_in(locale):
        names = with_bots(view, names)
        cars = view.get("cars") or []
        finish = [s for s in view.get("finish") or [] if 0 <= s < len(cars)]
        out = [s for s in range(len(cars)) if s not in finish]
        img = Image.new("RGB", (900, 120 + 70 * len(cars)), BACKGROUND)
        d = ImageDraw.Draw(img)
        d.text((450, 60), tx("Race result"), font=font(44), fill=TEXT, anchor="mm")
        for i, s in enumerate(finish + out):
            y = 120 + 70 * i
            if i % 2 == 0:
                d.rectangle([0, y, 900, y + 70], fill=PANEL)
            label = str(i + 1) if s in finish else tx("out")
            d.text((40, y + 35), label, font=font(36), fill=TEXT, anchor="lm")
            d.ellipse([150, y + 17, 186, y + 53], fill=seat_colour(s))
            d.text((206, y + 35), fit(player_name(names, s), 36, 660), font=font(36), fill=TEXT, anchor="lm")
        return png_bytes(img)
