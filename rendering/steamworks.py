"""Steam Works images, drawn only from the engine's views (bot/games/steamworks/engine.py `view`).

render_board: the central board (age, clock stacks, the conveyor belts, the basic source supply)
and each player's area (money, points, clocks, mechanics, tiles in supply, devices as tile grids
with their power lines), then the last log lines. render_hand: the viewing seat's own supply as
tiles, and the device being built (with the grid coordinates the lay options name) or the
activation in progress. render_results: the final scores.

The canvas is 780 px wide with fonts of 18 px and more, stacked vertically, so that it stays
legible scaled to a phone's width.
"""
from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from bot.games.base import name_seats
from bot.games.steamworks.content import tiles
from bot.i18n import msg
from rendering.common import (BACKGROUND, MUTED, PANEL, PLAYER_COLOURS, TEXT, drawing_in, fit, font, player_name,
                              png_bytes, tx, words, wrap)

W = 780
M = 16
TILES = tiles()
POWER_COLOURS = {"C": (222, 164, 58), "S": (120, 186, 240), "E": (214, 92, 226)}
KIND_FILL = {"source": (70, 58, 48), "component": (236, 228, 206), "modifier": (208, 226, 214),
             "converter": (214, 214, 236)}
KIND_INK = {"source": (245, 236, 220), "component": (30, 30, 34), "modifier": (30, 30, 34),
            "converter": (30, 30, 34)}
AGE_ROMAN = {"1": "I", "2": "II", "3": "III"}
EMPTY = (60, 63, 70)
HIGHLIGHT = (255, 214, 10)


def _int(v: Any, default: int = 0) -> int:
    return v if isinstance(v, int) and not isinstance(v, bool) else default


def _tile_name(tid: str) -> str:
    t = TILES.get(tid)
    return words(msg(t.name)) if t else "?"


def _sides(tid: str, r: int) -> list[str]:
    base = TILES[tid].sides if tid in TILES else ("", "", "", "")
    return [base[(i - r) % 4] for i in range(4)]


def draw_tile(d: ImageDraw.ImageDraw, x: float, y: float, size: float, tid: str, r: int = 0,
              outline: tuple[int, int, int] | None = None, label_size: int = 17) -> None:
    """A square tile: its fill by kind, its power lines from the centre to each side that has one
    (one coloured stripe per power type), its name and prestige."""
    t = TILES.get(tid)
    kind = t.kind if t else "component"
    d.rounded_rectangle([x, y, x + size, y + size], radius=8, fill=KIND_FILL[kind],
                        outline=outline or (20, 20, 22), width=4 if outline else 2)
    cx, cy = x + size / 2, y + size / 2
    ink = KIND_INK[kind]
    if t and t.is_basic:  # a basic source: a disc of its power's colour (the legend names it)
        rad = size * 0.2
        d.ellipse([cx - rad, cy - rad, cx + rad, cy + rad], fill=POWER_COLOURS[t.id[-1]], outline=ink, width=2)
    else:
        f = font(label_size)
        lines = wrap(_tile_name(tid), label_size, size * 0.88, max_lines=3)
        lh = label_size + 3
        ty = cy - lh * len(lines) / 2
        widest = max((f.getlength(line) for line in lines), default=0)
        d.rectangle([cx - widest / 2 - 3, ty - 1, cx + widest / 2 + 3, ty + lh * len(lines) + 1], fill=KIND_FILL[kind])
        for line in lines:
            d.text((cx - f.getlength(line) / 2, ty), line, font=f, fill=ink)
            ty += lh
    sides = _sides(tid, r) if t else ["", "", "", ""]
    for i, s in enumerate(sides):
        for k, p in enumerate(s):
            off = (k - (len(s) - 1) / 2) * 9
            w = 7
            if i == 0:
                d.line([cx + off, y + 2, cx + off, y + size * 0.2], fill=POWER_COLOURS[p], width=w)
            elif i == 2:
                d.line([cx + off, y + size * 0.8, cx + off, y + size - 2], fill=POWER_COLOURS[p], width=w)
            elif i == 1:
                d.line([x + size * 0.8, cy + off, x + size - 2, cy + off], fill=POWER_COLOURS[p], width=w)
            else:
                d.line([x + 2, cy + off, x + size * 0.2, cy + off], fill=POWER_COLOURS[p], width=w)
    if t and t.prestige:
        d.ellipse([x + size - 26, y + size - 26, x + size - 6, y + size - 6], fill=(180, 40, 50))
        f = font(14)
        s = str(t.prestige)
        d.text((x + size - 16 - f.getlength(s) / 2, y + size - 25), s, font=f, fill=(255, 255, 255))
    if t and t.owner:
        d.rectangle([x + 5, y + size - 15, x + 15, y + size - 5], outline=(200, 30, 30), width=3)


def _text(d: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int, fill=TEXT, width: float = W) -> None:
    d.text(xy, fit(s, size, width), font=font(size), fill=fill)


def _device_size(tiles_: list[dict], cell: int) -> tuple[int, int, int, int]:
    xs = [_int(t.get("x")) for t in tiles_] or [0]
    ys = [_int(t.get("y")) for t in tiles_] or [0]
    return min(xs), min(ys), (max(xs) - min(xs) + 1) * cell, (max(ys) - min(ys) + 1) * cell


def draw_device(d: ImageDraw.ImageDraw, x: float, y: float, dev: dict, cell: int, busy: dict | None = None,
                names: list[str] | None = None, mark: set[str] | None = None) -> None:
    tiles_ = [t for t in dev.get("tiles") or [] if isinstance(t, dict)]
    x0, y0, _, _ = _device_size(tiles_, cell)
    for t in tiles_:
        tx_, ty_ = _int(t.get("x")), _int(t.get("y"))
        px, py = x + (tx_ - x0) * cell, y + (ty_ - y0) * cell
        key = f"{tx_},{ty_}"
        draw_tile(d, px + 2, py + 2, cell - 4, str(t.get("t")), _int(t.get("r")),
                  outline=HIGHLIGHT if mark and key in mark else None, label_size=16 if cell < 100 else 17)
        if busy and key in busy:
            seat = _int(busy[key])
            col = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
            d.ellipse([px + 8, py + 8, px + 34, py + 34], fill=col, outline=(255, 255, 255), width=2)


def _legend(d: ImageDraw.ImageDraw, x: float, y: float) -> float:
    f = font(18)
    for p, key in (("C", tx("clockwork")), ("S", tx("steam")), ("E", tx("electrickal"))):
        d.line([x, y + 12, x + 30, y + 12], fill=POWER_COLOURS[p], width=7)
        d.text((x + 36, y), key, font=f, fill=TEXT)
        x += 48 + f.getlength(key)
    return y + 28


# -- the board -----------------------------------------------------------------------------------------

def render_board(view: dict, names: list[str], locale: str = "en") -> bytes:
    with drawing_in(locale):
        return _render_board(view, names)


def _render_board(view: dict, names: list[str]) -> bytes:
    img = Image.new("RGB", (W, 6000), BACKGROUND)
    d = ImageDraw.Draw(img)
    y = M
    age = _int(view.get("age"), 1)
    over = view.get("stage") == "over"
    head = tx("Steam Works · {age} · round {n}", age=tx("Age {roman}", roman=AGE_ROMAN.get(str(age), "?")),
              n=_int(view.get("round"), 1))
    _text(d, (M, y), head, 30)
    y += 42
    active = view.get("active")
    if over:
        _text(d, (M, y), tx("The game is over."), 22, HIGHLIGHT)
    elif isinstance(active, int):
        start = _int(view.get("start"))
        _text(d, (M, y), tx("To play: {p} · start player: {s} · next mechanic costs £{n}",
                            p=player_name(names, active), s=player_name(names, start), n=_int(view.get("cost"))),
              21, HIGHLIGHT, W - 2 * M)
    y += 34
    y = _legend(d, M, y) + 6
    # central board: one row per age
    belts = view.get("belts") or {}
    counts = view.get("stack_counts") or {}
    clocks = view.get("clocks") or {}
    unlocked = set(view.get("unlocked") or [])
    belt_cell = 104
    for a in ("1", "2", "3"):
        belt = belts.get(a) or []
        h = belt_cell + 16
        d.rounded_rectangle([M, y, W - M, y + h], radius=10, fill=PANEL,
                            outline=HIGHLIGHT if str(age) == a and not over else None, width=3)
        _text(d, (M + 12, y + 10), tx("Age {roman}", roman=AGE_ROMAN[a]), 24)
        _text(d, (M + 12, y + 42), tx("clocks {n}", n=_int(clocks.get(a))), 20, MUTED, 150)
        _text(d, (M + 12, y + 68), tx("stack {n}", n=_int(counts.get(a))), 20, MUTED, 150)
        if a not in unlocked:
            _text(d, (M + 12, y + 92), tx("locked"), 18, MUTED, 150)
        bx = M + 170
        for i, tid in enumerate(belt):
            x = bx + i * (belt_cell + 6)
            if tid:
                draw_tile(d, x, y + 8, belt_cell, tid)
            else:
                d.rounded_rectangle([x, y + 8, x + belt_cell, y + 8 + belt_cell], radius=8, outline=EMPTY, width=2)
        if belt:
            x = bx + len(belt) * (belt_cell + 6)
            _text(d, (x + 4, y + 8 + belt_cell / 2 - 12), "→", 26, MUTED)
        y += h + 8
    sup = view.get("supply_sources") or {}
    _text(d, (M, y), tx("Basic sources left: {c} clockwork · {s} steam · {e} electrickal", c=_int(sup.get("C")),
                        s=_int(sup.get("S")), e=_int(sup.get("E"))), 19, MUTED, W - 2 * M)
    y += 34
    # players
    devices = [dv for dv in view.get("devices") or [] if isinstance(dv, dict)]
    act = view.get("act") if isinstance(view.get("act"), dict) else None
    for pl in view.get("players") or []:
        if not isinstance(pl, dict):
            continue
        y = _player_panel(d, y, pl, names, [dv for dv in devices if dv.get("owner") == pl.get("seat")], act,
                          view.get("active"))
    # log
    log = view.get("log") or []
    if log:
        _text(d, (M, y), tx("Last moves"), 22)
        y += 30
        for line in log[-8:]:
            for part in wrap(name_seats(words(line), names), 18, W - 2 * M, max_lines=2):
                _text(d, (M, y), part, 18, MUTED)
                y += 24
    return png_bytes(img.crop((0, 0, W, y + M)))


def _player_panel(d: ImageDraw.ImageDraw, y: float, pl: dict, names: list[str], devs: list[dict],
                  act: dict | None, active: Any) -> float:
    seat = _int(pl.get("seat"))
    col = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
    cell = 96
    # height: header 2 lines + supply + devices laid out in rows
    layout = []
    x, row_h, rows_y = M + 12, 0, 0
    for dv in devs:
        _, _, w, h = _device_size([t for t in dv.get("tiles") or [] if isinstance(t, dict)], cell)
        if x + w > W - M - 12 and x > M + 12:
            x = M + 12
            rows_y += row_h + 34
            row_h = 0
        layout.append((dv, x, rows_y))
        x += w + 16
        row_h = max(row_h, h)
    dev_h = (rows_y + row_h + 34) if devs else 0
    supply = list(pl.get("tiles") or [])
    sup_lines = wrap(tx("Supply: {tiles}", tiles=", ".join(_tile_name(t) for t in supply) or "-"), 18, W - 2 * M - 24,
                     max_lines=3)
    h = 12 + 34 + 28 + len(sup_lines) * 24 + dev_h + 12
    d.rounded_rectangle([M, y, W - M, y + h], radius=10, fill=PANEL, outline=col if active == seat else None,
                        width=4)
    d.rectangle([M, y + 10, M + 6, y + h - 10], fill=col)
    yy = y + 12
    _text(d, (M + 16, yy), f"{player_name(names, seat)} · {words(pl.get('persona'))}", 24, TEXT, W - 2 * M - 30)
    yy += 34
    src = pl.get("sources") or {}
    mech = _int(pl.get("mechanics"), 2)
    used = _int(pl.get("used"))
    stats = tx("£{m} · {vp} VP · {c} clocks · mechanics {left}/{n} · sources C{sc} S{ss} E{se}",
               m=_int(pl.get("money")), vp=_int(pl.get("vp")), c=_int(pl.get("clocks")), left=mech - used, n=mech,
               sc=_int(src.get("C")), ss=_int(src.get("S")), se=_int(src.get("E")))
    _text(d, (M + 16, yy), stats, 19, TEXT, W - 2 * M - 30)
    yy += 28
    for line in sup_lines:
        _text(d, (M + 16, yy), line, 18, MUTED)
        yy += 24
    for dv, dx, dy in layout:
        _text(d, (dx, yy + dy + 4), tx("Device {n}", n=_int(dv.get("id"))), 18, MUTED)
        mark = None
        if act and act.get("dev") == dv.get("id"):
            mark = set(act.get("targets") or {}) | {",".join(str(v) for v in act.get("src") or [])}
        draw_device(d, dx, yy + dy + 28, dv, cell, dv.get("busy") or {}, names, mark)
    return y + h + 10


# -- the player's own view (DM) -----------------------------------------------------------------------

def render_hand(view: dict, names: list[str], locale: str = "en") -> bytes:
    with drawing_in(locale):
        return _render_hand(view, names)


def _render_hand(view: dict, names: list[str]) -> bytes:
    me = view.get("me") or {}
    seat = _int(me.get("seat"))
    players = [p for p in view.get("players") or [] if isinstance(p, dict)]
    pl = next((p for p in players if p.get("seat") == seat), {})
    img = Image.new("RGB", (W, 4000), BACKGROUND)
    d = ImageDraw.Draw(img)
    y = M
    _text(d, (M, y), tx("Your workshop, {p}", p=player_name(names, seat)), 28)
    y += 40
    src = pl.get("sources") or {}
    _text(d, (M, y), tx("£{m} · {vp} VP · {c} clocks · sources C{sc} S{ss} E{se}", m=_int(pl.get("money")),
                        vp=_int(pl.get("vp")), c=_int(pl.get("clocks")), sc=_int(src.get("C")),
                        ss=_int(src.get("S")), se=_int(src.get("E"))), 20)
    y += 32
    y = _legend(d, M, y) + 6
    supply = list(pl.get("tiles") or [])
    cell = 110
    colw = (W - 2 * M) // 2
    for i, tid in enumerate(supply):
        x = M + (i % 2) * colw
        yy = y + (i // 2) * (cell + 12)
        draw_tile(d, x, yy, cell, tid)
        t = TILES.get(tid)
        if t:
            _text(d, (x + cell + 10, yy + 2), _tile_name(tid), 20, TEXT, colw - cell - 20)
            for k, line in enumerate(wrap(words(msg(t.text)), 18, colw - cell - 20, max_lines=3)):
                d.text((x + cell + 10, yy + 30 + k * 24), line, font=font(18), fill=MUTED)
    if supply:
        y += ((len(supply) - 1) // 2 + 1) * (cell + 12) + 6
    build = view.get("build") if isinstance(view.get("build"), dict) else None
    if build and view.get("active") == seat:
        y = _build_preview(d, y + 10, build, view)
    act = view.get("act") if isinstance(view.get("act"), dict) else None
    if act and view.get("active") == seat:
        dv = next((x for x in view.get("devices") or [] if isinstance(x, dict) and x.get("id") == act.get("dev")), None)
        if dv:
            _text(d, (M, y + 6), tx("Activating device {n}: highlighted tiles can be powered", n=_int(dv.get("id"))),
                  20, HIGHLIGHT)
            mark = set(act.get("targets") or {})
            draw_device(d, M, y + 40, dv, 110, dv.get("busy") or {}, names, mark)
            _, _, _, h = _device_size(dv.get("tiles") or [], 110)
            y += 40 + h + 10
    return png_bytes(img.crop((0, 0, W, y + M)))


def _build_preview(d: ImageDraw.ImageDraw, y: float, build: dict, view: dict) -> float:
    placed = [t for t in build.get("placed") or [] if isinstance(t, dict)]
    base: list[dict] = []
    if build.get("mode") == "upgrade" and build.get("dev") is not None:
        dv = next((x for x in view.get("devices") or [] if isinstance(x, dict) and x.get("id") == build.get("dev")),
                  None)
        base = list(dv.get("tiles") or []) if dv else []
    allt = base + placed
    _text(d, (M, y), tx("Device being built: {n} tile(s) left to lay", n=_int(build.get("left"))), 22, HIGHLIGHT)
    y += 34
    cell = 104
    xs = [_int(t.get("x")) for t in allt] or [0]
    ys = [_int(t.get("y")) for t in allt] or [0]
    x0, y0 = min(xs) - 1, min(ys) - 1
    cols, rows = max(xs) - x0 + 2, max(ys) - y0 + 2
    cols = min(cols, (W - 2 * M) // cell)
    grid = {(_int(t.get("x")), _int(t.get("y"))): t for t in allt}
    for gy in range(rows):
        for gx in range(cols):
            px, py = M + gx * cell, y + gy * cell
            pos = (gx + x0, gy + y0)
            if pos in grid:
                t = grid[pos]
                draw_tile(d, px + 2, py + 2, cell - 4, str(t.get("t")), _int(t.get("r")),
                          outline=HIGHLIGHT if t in placed else None)
            else:
                d.rounded_rectangle([px + 4, py + 4, px + cell - 4, py + cell - 4], radius=8, outline=EMPTY, width=2)
                s = f"({pos[0]}, {pos[1]})"
                d.text((px + cell / 2 - font(18).getlength(s) / 2, py + cell / 2 - 11), s, font=font(18), fill=MUTED)
    return y + rows * cell + 10


# -- results -------------------------------------------------------------------------------------------

def render_results(view: dict, names: list[str], locale: str = "en") -> bytes:
    with drawing_in(locale):
        return _render_results(view, names)


def _render_results(view: dict, names: list[str]) -> bytes:
    final = view.get("final") or {}
    scores = sorted([s for s in final.get("scores") or [] if isinstance(s, dict)],
                    key=lambda s: (-_int(s.get("total")), -_int(s.get("tiebreak"))))
    winners = set(final.get("winners") or [])
    h = 120 + 44 * (len(scores) + 1)
    img = Image.new("RGB", (W, h), BACKGROUND)
    d = ImageDraw.Draw(img)
    _text(d, (M, M), tx("Final scores"), 30)
    cols = [(M, tx("Player")), (300, tx("VP won")), (400, tx("Clocks")), (500, tx("Devices")), (610, tx("Total")),
            (690, tx("Tie"))]
    y = 70
    for x, label in cols:
        _text(d, (x, y), label, 18, MUTED, 100 if x > M else 280)
    y += 34
    for s in scores:
        seat = _int(s.get("seat"))
        col = HIGHLIGHT if seat in winners else TEXT
        vals = [player_name(names, seat), str(_int(s.get("vp"))), str(_int(s.get("clocks"))),
                str(_int(s.get("prestige"))), str(_int(s.get("total"))), str(_int(s.get("tiebreak")))]
        for (x, _), v in zip(cols, vals):
            _text(d, (x, y), v, 22, col, 270 if x == M else 90)
        y += 44
    return png_bytes(img)
