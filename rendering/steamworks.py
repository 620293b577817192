"""Steam Works images, drawn only from the engine's views (bot/games/steamworks/engine.py `view`),
for Discord's phone preview (390 px wide): every image is 800 px wide and no text is smaller than
SMALL (24 px; min_font(800) is 23).

render_board (near square, for the thread): the header (age, round, who plays, the next mechanic's
cost), the conveyor belt of each unlocked age as large tiles (locked or empty ones are one line),
the basic sources left, and two lines per player (money, points, clocks, mechanics, sources, how
many tiles and devices). render_hand (the DM, what a decision needs): the device being built (with
the grid coordinates the lay options name) or activated, the seat's supply tiles with what each
does, and every device on the table as a line naming its tiles, with its mechanics.
render_results: the final scores.

Tiles are squares filled by kind with a stripe for each power line; their names are drawn inside
(long words broken with a hyphen) when the tile is large, and as a number keyed to a list when it
is small.
"""
from __future__ import annotations

from typing import Any

from PIL import Image

from bot.games.steamworks.content import tiles
from bot.i18n import msg
from rendering.common import (BACKGROUND, MUTED, PANEL, PLAYER_COLOURS, TEXT, Draw, drawing_in, fit, font,
                              player_name, png_bytes, tx, words, wrap)

W = 800
M = 16
SMALL = 24  # the smallest text anywhere (min_font(W) is 23)
LINE = 31  # the height of a line of SMALL text
TILES = tiles()
POWER_COLOURS = {"C": (222, 164, 58), "S": (120, 186, 240), "E": (214, 92, 226)}
KIND_FILL = {"source": (70, 58, 48), "component": (236, 228, 206), "modifier": (208, 226, 214),
             "converter": (214, 214, 236)}
KIND_INK = {"source": (245, 236, 220), "component": (30, 30, 34), "modifier": (30, 30, 34),
            "converter": (30, 30, 34)}
AGE_ROMAN = {"1": "I", "2": "II", "3": "III"}
EMPTY = (80, 83, 90)
HIGHLIGHT = (255, 214, 10)
DARK = (16, 16, 18)


def _int(v: Any, default: int = 0) -> int:
    return v if isinstance(v, int) and not isinstance(v, bool) else default


def _tile_name(tid: str) -> str:
    t = TILES.get(tid)
    return words(msg(t.name)) if t else "?"


def _sides(tid: str, r: int) -> list[str]:
    base = TILES[tid].sides if tid in TILES else ("", "", "", "")
    return [base[(i - r) % 4] for i in range(4)]


def _tile_lines(name: str, size: int, width: float, max_lines: int = 3) -> list[str] | None:
    """The name in lines of at most `width` px: words kept whole where they fit, a long word
    broken with a hyphen; None if it needs more than `max_lines` lines."""
    f = font(size)
    pieces: list[str] = []
    for word in name.split():
        while f.getlength(word) > width:
            cut = len(word) - 1
            while cut > 1 and f.getlength(word[:cut] + ("-" if word[:cut].isascii() else "")) > width:
                cut -= 1
            while cut > 1 and word[cut] in "ー、。ァィゥェォッャュョ":  # no line starts with these
                cut -= 1
            hy = "-" if word[:cut].isascii() and word[cut - 1].isalpha() else ""
            pieces.append(word[:cut] + hy + "\x00")  # \x00: ends a line
            word = word[cut:]
        pieces.append(word)
    lines: list[str] = []
    line = ""
    for p in pieces:
        forced = p.endswith("\x00")
        p = p.rstrip("\x00")
        trial = f"{line} {p}".strip()
        if line and f.getlength(trial) > width:
            lines.append(line)
            line = p
        else:
            line = trial
        if forced:
            lines.append(line)
            line = ""
    if line:
        lines.append(line)
    return lines if len(lines) <= max_lines else None


def draw_tile(d: Draw, x: float, y: float, size: float, tid: str, r: int = 0,
              outline: tuple[int, int, int] | None = None, key: str | None = None) -> None:
    """A square tile: its fill by kind, its power lines from the centre to each side that has one
    (one coloured stripe per power type), its prestige, and its name (or `key`, a short mark that
    a list next to the drawing explains). A basic source is a disc of its power's colour."""
    t = TILES.get(tid)
    kind = t.kind if t else "component"
    d.rounded_rectangle([x, y, x + size, y + size], radius=max(4, int(size / 14)), fill=KIND_FILL[kind],
                        outline=outline or DARK, width=4 if outline else 2)
    cx, cy = x + size / 2, y + size / 2
    ink = KIND_INK[kind]
    sides = _sides(tid, r) if t else ["", "", "", ""]
    tight = False
    w = max(4, int(size / 14))
    stub = size * 0.2
    for i, s in enumerate(sides):
        for k, p in enumerate(s):
            off = (k - (len(s) - 1) / 2) * (w + 3)
            if i == 0:
                d.line([cx + off, y + 2, cx + off, y + stub], fill=POWER_COLOURS[p], width=w)
            elif i == 2:
                d.line([cx + off, y + size - stub, cx + off, y + size - 2], fill=POWER_COLOURS[p], width=w)
            elif i == 1:
                d.line([x + size - stub, cy + off, x + size - 2, cy + off], fill=POWER_COLOURS[p], width=w)
            else:
                d.line([x + 2, cy + off, x + stub, cy + off], fill=POWER_COLOURS[p], width=w)
    if t and t.is_basic:
        rad = size * 0.2
        d.ellipse([cx - rad, cy - rad, cx + rad, cy + rad], fill=POWER_COLOURS[t.id[-1]], outline=ink, width=2)
    elif key is not None:
        f = font(max(SMALL, int(size * 0.42)))
        d.text((cx, cy), key, font=f, fill=ink, anchor="mm")
    else:
        lines = _tile_lines(_tile_name(tid), SMALL, size - 10) or wrap(_tile_name(tid), SMALL, size - 10, 3)
        f = font(SMALL)
        lh = SMALL + 4
        ty = cy - lh * len(lines) / 2
        widest = max((f.getlength(line) for line in lines), default=0)
        rr0 = max(13, size * 0.13)
        badge_top = y + size - 2 * rr0 - 4
        if t and t.prestige and cx + widest / 2 + 3 > x + size - 2 * rr0 - 4 and ty + lh * len(lines) + 2 > badge_top:
            # a wide name would reach the prestige badge: move it up (below the north line if it
            # fits), or in a small tile set closer lines from the top above a smaller badge
            ty = badge_top - lh * len(lines) - 3
            if ty < y + stub:
                lh = SMALL + 1
                ty = y + 3
                tight = True
        d.rectangle([cx - widest / 2 - 3, ty, cx + widest / 2 + 3, ty + lh * len(lines) + 2], fill=KIND_FILL[kind])
        for line in lines:
            d.text((cx, ty + lh / 2 + 1), line, font=f, fill=ink, anchor="mm")
            ty += lh
    if t and t.prestige:
        rr = 12 if tight else max(13, size * 0.13)
        bx, by = x + size - rr - (2 if tight else 4), y + size - rr - (2 if tight else 4)
        d.ellipse([bx - rr, by - rr, bx + rr, by + rr], fill=(180, 40, 50))
        if rr * 2 >= SMALL:
            d.text((bx, by), str(t.prestige), font=font(SMALL), fill=(255, 255, 255), anchor="mm")
    if t and t.owner:
        d.rectangle([x + 5, y + size - 17, x + 17, y + size - 5], outline=(200, 30, 30), width=3)


def _text(d: Draw, xy: tuple[float, float], s: str, size: int = SMALL, fill=TEXT, width: float = W - 2 * M) -> None:
    d.text(xy, fit(s, size, width), font=font(size), fill=fill)


def _wrap(s: str, size: int, width: float, max_lines: int) -> list[str]:
    """wrap(), but a number cut between two lines (Japanese breaks between any characters) moves
    whole to the second line."""
    lines = wrap(s, size, width, max_lines=max_lines)
    for i in range(1, len(lines)):
        prev, cur = lines[i - 1], lines[i]
        if prev and cur and prev[-1].isdigit() and cur[0].isdigit():
            k = len(prev)
            while k > 0 and prev[k - 1].isdigit():
                k -= 1
            if k > 0 and font(size).getlength(prev[k:] + cur) <= width:
                lines[i - 1], lines[i] = prev[:k], prev[k:] + cur
    return lines


def _lines(d: Draw, x: float, y: float, s: str, width: float, max_lines: int, fill=TEXT, size: int = SMALL) -> float:
    for line in _wrap(s, size, width, max_lines):
        d.text((x, y), line, font=font(size), fill=fill)
        y += size + 7
    return y


def _device_box(tiles_: list[dict], cell: int) -> tuple[int, int, int, int]:
    xs = [_int(t.get("x")) for t in tiles_] or [0]
    ys = [_int(t.get("y")) for t in tiles_] or [0]
    return min(xs), min(ys), (max(xs) - min(xs) + 1) * cell, (max(ys) - min(ys) + 1) * cell


def _dev_tiles(dev: dict) -> list[dict]:
    return sorted([t for t in dev.get("tiles") or [] if isinstance(t, dict)],
                  key=lambda t: (_int(t.get("y")), _int(t.get("x"))))


def draw_device(d: Draw, x: float, y: float, dev: dict, cell: int, keyed: bool = False,
                mark: set[str] | None = None) -> list[str]:
    """A device as a grid of tiles, with a disc of the seat's colour on each tile a mechanic is
    on. keyed: tiles carry numbers (returned: the names they stand for) instead of names."""
    tiles_ = _dev_tiles(dev)
    busy = dev.get("busy") or {}
    x0, y0, _, _ = _device_box(tiles_, cell)
    legend: list[str] = []
    for t in tiles_:
        tx_, ty_ = _int(t.get("x")), _int(t.get("y"))
        px, py = x + (tx_ - x0) * cell, y + (ty_ - y0) * cell
        tid = str(t.get("t"))
        key = None
        if keyed and not (tid in TILES and TILES[tid].is_basic):
            legend.append(_tile_name(tid))
            key = str(len(legend))
        pos = f"{tx_},{ty_}"
        draw_tile(d, px + 2, py + 2, cell - 4, tid, _int(t.get("r")),
                  outline=HIGHLIGHT if mark and pos in mark else None, key=key)
        if pos in busy:
            col = PLAYER_COLOURS[_int(busy[pos]) % len(PLAYER_COLOURS)]
            rad = max(8, cell * 0.13)
            d.ellipse([px + 6, py + 6, px + 6 + 2 * rad, py + 6 + 2 * rad], fill=col, outline=(255, 255, 255), width=2)
    return legend


def _legend(d: Draw, x: float, y: float) -> float:
    f = font(SMALL)
    for p, key in (("C", tx("clockwork")), ("S", tx("steam")), ("E", tx("electrickal"))):
        d.line([x, y + 15, x + 30, y + 15], fill=POWER_COLOURS[p], width=8)
        d.text((x + 38, y), key, font=f, fill=TEXT)
        x += 62 + f.getlength(key)
    return y + LINE + 4


def _stats(pl: dict, mechanics: bool = True) -> str:
    src = pl.get("sources") or {}
    if mechanics:
        mech = _int(pl.get("mechanics"), 2)
        return tx("£{m} · {vp} VP · {c} clocks · mechanics {left}/{n} · sources C{sc} S{ss} E{se}",
                  m=_int(pl.get("money")), vp=_int(pl.get("vp")), c=_int(pl.get("clocks")),
                  left=mech - _int(pl.get("used")), n=mech, sc=_int(src.get("C")), ss=_int(src.get("S")),
                  se=_int(src.get("E")))
    return tx("£{m} · {vp} VP · {c} clocks · sources C{sc} S{ss} E{se}", m=_int(pl.get("money")),
              vp=_int(pl.get("vp")), c=_int(pl.get("clocks")), sc=_int(src.get("C")), ss=_int(src.get("S")),
              se=_int(src.get("E")))


def _device_line(dev: dict) -> str:
    names = [_tile_name(str(t.get("t"))) for t in _dev_tiles(dev)]
    return tx("Device {n}: {tiles}", n=_int(dev.get("id")), tiles=tx(", ").join(names))  # 、 in Japanese


# -- the board -----------------------------------------------------------------------------------------

def render_board(view: dict, names: list[str], locale: str = "en") -> bytes:
    with drawing_in(locale):
        return _render_board(view, names)


def _render_board(view: dict, names: list[str]) -> bytes:
    img = Image.new("RGB", (W, 5000), BACKGROUND)
    d = Draw(img)
    y = M
    age = _int(view.get("age"), 1)
    over = view.get("stage") == "over"
    head = tx("Steam Works · {age} · round {n}", age=tx("Age {roman}", roman=AGE_ROMAN.get(str(age), "?")),
              n=_int(view.get("round"), 1))
    _text(d, (M, y), head, 34)
    y += 50
    active = view.get("active")
    if over:
        _text(d, (M, y), tx("The game is over."), 28, HIGHLIGHT)
        y += 40
    elif isinstance(active, int):
        start = _int(view.get("start"))
        y = _lines(d, M, y, tx("To play: {p} · start player: {s} · next mechanic costs £{n}",
                                p=player_name(names, active), s=player_name(names, start),
                                n=_int(view.get("cost"))), W - 2 * M, 2, HIGHLIGHT, 26) + 4
        marker = view.get("marker")
        if isinstance(marker, int) and marker != start:  # an Alarm Chronometer moved it
            y = _lines(d, M, y, tx("The start marker is at {m}: {s} starts next round",
                                    m=player_name(names, marker), s=player_name(names, _int(view.get("next_start")))),
                       W - 2 * M, 2, HIGHLIGHT, 26) + 4
    y = _legend(d, M, y) + 4
    # the central board: the belt of each unlocked age as large tiles, the locked ages in a line
    belts = view.get("belts") or {}
    counts = view.get("stack_counts") or {}
    clocks = view.get("clocks") or {}
    unlocked = set(view.get("unlocked") or [])
    for a in ("1", "2", "3"):
        belt = belts.get(a) or []
        label = tx("Age {roman}", roman=AGE_ROMAN[a])
        info = f"{tx('clocks {n}', n=_int(clocks.get(a)))} · {tx('stack {n}', n=_int(counts.get(a)))}"
        if a not in unlocked or not any(belt):
            state = tx("locked") if a not in unlocked else tx("belt empty")
            _text(d, (M, y), f"{label} · {state} · {info}", SMALL, MUTED)
            y += LINE + 8
            continue
        n = max(len(belt), 1)
        shown = sum(1 for b in ("1", "2", "3") if b in unlocked and any(belts.get(b) or []))
        cell = min({1: 150, 2: 124}.get(shown, 108), int((W - 2 * M - 24 - 8 * (n - 1)) / n))
        h = 44 + cell + 12
        d.rounded_rectangle([M, y, W - M, y + h], radius=10, fill=PANEL,
                            outline=HIGHLIGHT if str(age) == a and not over else None, width=3)
        d.text((M + 12, y + 8), label, font=font(28), fill=TEXT)
        _text(d, (M + 24 + font(28).getlength(label), y + 11), f"· {info}", SMALL,
              MUTED, W - 3 * M - 40 - font(28).getlength(label))
        for i, tid in enumerate(belt):
            x = M + 12 + i * (cell + 8)
            if tid:
                draw_tile(d, x, y + 44, cell, tid)
            else:
                d.rounded_rectangle([x, y + 44, x + cell, y + 44 + cell], radius=8, outline=EMPTY, width=2)
        y += h + 10
    sup = view.get("supply_sources") or {}
    y = _lines(d, M, y, tx("Basic sources left: {c} clockwork · {s} steam · {e} electrickal", c=_int(sup.get("C")),
                           s=_int(sup.get("S")), e=_int(sup.get("E"))), W - 2 * M, 2, MUTED) + 8
    devices = [dv for dv in view.get("devices") or [] if isinstance(dv, dict)]
    for pl in view.get("players") or []:
        if isinstance(pl, dict):
            y = _player_panel(d, y, pl, names, [dv for dv in devices if dv.get("owner") == pl.get("seat")], active)
    return png_bytes(img.crop((0, 0, W, y + M)))


def _player_panel(d: Draw, y: float, pl: dict, names: list[str], devs: list[dict], active: Any) -> float:
    """A player's public counts in two lines: name and persona, then money, points, clocks,
    mechanics, sources, tiles in supply and devices (the DM of the player to act lists each
    tile and device)."""
    seat = _int(pl.get("seat"))
    col = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
    inner = W - 2 * M - 40
    counts = tx("{t} tiles · {d} devices", t=len(pl.get("tiles") or []), d=len(devs))
    stats = _wrap(f"{_stats(pl)} · {counts}", SMALL, inner, 2)
    h = 12 + 40 + LINE * len(stats) + 10
    d.rounded_rectangle([M, y, W - M, y + h], radius=10, fill=PANEL, outline=col if active == seat else None,
                        width=4)
    d.rectangle([M, y + 10, M + 8, y + h - 10], fill=col)
    _text(d, (M + 24, y + 10), f"{player_name(names, seat)} · {words(pl.get('persona'))}", 28, TEXT, inner)
    for i, line in enumerate(stats):
        d.text((M + 24, y + 52 + i * LINE), line, font=font(SMALL), fill=MUTED)
    return y + h + 8


# -- the player's own view (DM) -----------------------------------------------------------------------

def render_hand(view: dict, names: list[str], locale: str = "en") -> bytes:
    with drawing_in(locale):
        return _render_hand(view, names)


def _render_hand(view: dict, names: list[str]) -> bytes:
    """What the seat decides with, first: the device it is building or activating, then its
    supply tiles with what each does, then every device on the table as a line (its own first),
    with a disc for each mechanic on it."""
    me = view.get("me") or {}
    seat = _int(me.get("seat"))
    players = [p for p in view.get("players") or [] if isinstance(p, dict)]
    pl = next((p for p in players if p.get("seat") == seat), {})
    img = Image.new("RGB", (W, 6000), BACKGROUND)
    d = Draw(img)
    y = M
    _text(d, (M, y), tx("Your workshop, {p}", p=player_name(names, seat)), 32)
    y += 48
    y = _lines(d, M, y, _stats(pl, mechanics=False), W - 2 * M, 2) + 4
    y = _legend(d, M, y) + 4
    devices = [x for x in view.get("devices") or [] if isinstance(x, dict)]
    build = view.get("build") if isinstance(view.get("build"), dict) else None
    act = view.get("act") if isinstance(view.get("act"), dict) else None
    if build and view.get("active") == seat:
        y = _build_preview(d, y + 4, build, devices) + 6
    reveal = view.get("reveal") if isinstance(view.get("reveal"), dict) else None
    if reveal and reveal.get("seat") == seat and isinstance(reveal.get("tiles"), list):
        # the Innovation Turbine's private look: the two tiles, only in this seat's image
        age = AGE_ROMAN.get(str(reveal.get("age")), "?")
        y = _lines(d, M, y + 4, tx("Innovation Turbine: keep one of these two tiles; the other goes under the "
                                   "Age {roman} stack", roman=age), W - 2 * M, 2, HIGHLIGHT, 26) + 6
        cell = 110
        for tid in [str(t) for t in reveal["tiles"]]:
            draw_tile(d, M, y, cell, tid)
            t = TILES.get(tid)
            _text(d, (M + cell + 14, y - 4), _tile_name(tid), 28, TEXT, W - 3 * M - cell)
            if t:
                _lines(d, M + cell + 14, y + 32, words(msg(t.text)), W - 3 * M - cell, 3, MUTED)
            y += cell + 14
        d.line([M, y, W - M, y], fill=HIGHLIGHT, width=3)  # below: the seat's own supply
        y += 16
    elif act and view.get("active") == seat:
        dv = next((x for x in devices if x.get("id") == act.get("dev")), None)
        if dv:
            y = _lines(d, M, y + 4, tx("Activating device {n}: highlighted tiles can be powered",
                                       n=_int(dv.get("id"))), W - 2 * M, 2, HIGHLIGHT, 26) + 6
            y = _device_block(d, y, dv, set(act.get("targets") or {})) + 6
    # the supply: one tile a row with what it does
    cell = 76
    supply = [str(t) for t in pl.get("tiles") or []]
    if len(set(supply)) > COMPACT_SUPPLY:  # too many for a phone with their texts: two columns of names
        y = _supply_columns(d, y, supply, cell)
        supply = []
    for tid in dict.fromkeys(supply):  # the same tile twice is one row, "×2"
        draw_tile(d, M, y, cell, tid, key="")
        t = TILES.get(tid)
        n = supply.count(tid)
        _text(d, (M + cell + 14, y - 4), _tile_name(tid) + (f" ×{n}" if n > 1 else ""), 28, TEXT, W - 3 * M - cell)
        below = y + 32
        if t:  # the whole text: up to 3 lines (a Japanese one may need them), never cut at 2
            below = _lines(d, M + cell + 14, y + 32, words(msg(t.text)), W - 3 * M - cell, 3, MUTED)
        y = max(y + max(cell, 32 + 2 * (SMALL + 7)), below) + 10
    mine = [x for x in devices if x.get("owner") == seat]
    deciding = view.get("active") == seat and (build or act or reveal)
    if mine and not deciding and len(mine) <= 6:  # (more would make the image too tall for a phone)
        y = _device_grids(d, y + 6, mine) + 4
    if devices and not (build and view.get("active") == seat):  # while laying tiles: the preview and supply
        y += 6
        _text(d, (M, y), tx("Devices"), 28, TEXT)
        y += 40
        for dv in sorted(devices, key=lambda x: (x.get("owner") != seat, _int(x.get("owner")), _int(x.get("id")))):
            y = _device_line_drawn(d, y, dv, names)
    return png_bytes(img.crop((0, 0, W, y + M)))


COMPACT_SUPPLY = 8  # distinct supply tiles beyond which the hand lists them without their texts


def _supply_columns(d: Draw, y: float, supply: list[str], cell: int) -> float:
    """The supply as two columns of tiles and names, without their texts (a phone-sized image)."""
    col = (W - 2 * M) / 2
    for i, tid in enumerate(dict.fromkeys(supply)):
        x, top = M + (i % 2) * col, y + (i // 2) * (cell + 10)
        draw_tile(d, x, top, cell, tid, key="")
        n = supply.count(tid)
        _lines(d, x + cell + 10, top + 4, _tile_name(tid) + (f" ×{n}" if n > 1 else ""), col - cell - 20, 2, TEXT)
    return y + (len(set(supply)) + 1) // 2 * (cell + 10) + 6


def _device_lines(dv: dict, room: float) -> list[str]:
    """A device's line, or two when it is too long: broken after a tile's name, not inside one."""
    full = _device_line(dv)
    if font(SMALL).getlength(full) <= room:
        return [full]
    tiles_ = [_tile_name(str(t.get("t"))) for t in _dev_tiles(dv)]
    sep = tx(", ")
    for k in range(len(tiles_) - 1, 0, -1):
        first = tx("Device {n}: {tiles}", n=_int(dv.get("id")), tiles=sep.join(tiles_[:k]) + sep.rstrip())
        if font(SMALL).getlength(first) <= room:
            return [first, fit(sep.join(tiles_[k:]), SMALL, room)]
    return _wrap(full, SMALL, room, 2)


def _device_line_drawn(d: Draw, y: float, dv: dict, names: list[str]) -> float:
    """One device as a line: owner's colour, number, tiles, and a disc per mechanic on it."""
    owner = _int(dv.get("owner"))
    d.rectangle([M, y + 4, M + 10, y + 28], fill=PLAYER_COLOURS[owner % len(PLAYER_COLOURS)])
    busy = sorted({_int(v) for v in (dv.get("busy") or {}).values()})
    room = W - 2 * M - 24 - 30 * len(busy)
    lines = _device_lines(dv, room)
    for i, text in enumerate(lines):
        d.text((M + 20, y + i * LINE), text, font=font(SMALL), fill=TEXT)
    y += (len(lines) - 1) * LINE
    bx = M + 20 + font(SMALL).getlength(lines[-1] if lines else "") + 10
    for s in busy:
        d.ellipse([bx, y + 5, bx + 22, y + 27], fill=PLAYER_COLOURS[s % len(PLAYER_COLOURS)], outline=DARK)
        bx += 30
    return y + LINE


def _device_grids(d: Draw, y: float, devs: list[dict]) -> float:
    """The seat's own devices as tile grids (connector lines and prestige), side by side where they
    fit, each under its number; busy sources carry the user's disc."""
    cell = 120
    x, row_h = M, 0
    for dv in sorted(devs, key=lambda v: _int(v.get("id"))):
        _, _, w, h = _device_box(_dev_tiles(dv), cell)
        if w > W - 2 * M:  # too wide for a row: smaller cells for this one
            c = int((W - 2 * M) / max(w / cell, 1))
            w, h = w * c // cell, h * c // cell
        else:
            c = cell
        if x > M and x + w > W - M:
            x, y, row_h = M, y + row_h + 8, 0
        d.text((x + 4, y), f"#{_int(dv.get('id'))}", font=font(SMALL), fill=MUTED)  # as in the list below
        draw_device(d, x, y + LINE, dv, c)
        x += w + 16
        row_h = max(row_h, LINE + h)
    return y + row_h + 8


def _device_block(d: Draw, y: float, dv: dict, mark: set[str] | None) -> float:
    """A device large enough for its tile names, or keyed by numbers with a list beside it."""
    tiles_ = _dev_tiles(dv)
    _, _, cols_w, rows_h = _device_box(tiles_, 1)
    cell = min(150, int((W - 2 * M) / max(cols_w, 1)))
    if cell >= 120:
        draw_device(d, M, y, dv, cell, mark=mark)
        return y + rows_h * cell + 12
    cell = min(110, cell)
    legend = draw_device(d, M, y, dv, cell, keyed=True, mark=mark)
    yy = y + rows_h * cell + 6
    for i, name in enumerate(legend):
        _text(d, (M, yy), f"{i + 1}  {name}", SMALL, TEXT)
        yy += LINE
    return yy + 8


def _build_preview(d: Draw, y: float, build: dict, devices: list[dict]) -> float:
    placed = [t for t in build.get("placed") or [] if isinstance(t, dict)]
    base: list[dict] = []
    if build.get("mode") == "upgrade" and build.get("dev") is not None:
        dv = next((x for x in devices if x.get("id") == build.get("dev")), None)
        base = list(dv.get("tiles") or []) if dv else []
    allt = base + placed
    y = _lines(d, M, y, tx("Device being built: {n} tile(s) left to lay", n=_int(build.get("left"))), W - 2 * M, 2,
               HIGHLIGHT, 26) + 6
    xs = [_int(t.get("x")) for t in allt] or [0]
    ys = [_int(t.get("y")) for t in allt] or [0]
    x0, y0 = min(xs) - 1, min(ys) - 1
    cols, rows = max(xs) - x0 + 2, max(ys) - y0 + 2
    cell = max(110, min(150, int((W - 2 * M) / cols)))
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
                d.text((px + cell / 2, py + cell / 2), f"({pos[0]}, {pos[1]})", font=font(SMALL), fill=MUTED,
                       anchor="mm")
    return y + rows * cell + 10


# -- results -------------------------------------------------------------------------------------------

def render_results(view: dict, names: list[str], locale: str = "en") -> bytes:
    with drawing_in(locale):
        return _render_results(view, names)


def _render_results(view: dict, names: list[str]) -> bytes:
    """One block per player: place and name, then the points by kind."""
    final = view.get("final") or {}
    scores = sorted([s for s in final.get("scores") or [] if isinstance(s, dict)],
                    key=lambda s: (-_int(s.get("total")), -_int(s.get("tiebreak"))))
    winners = set(final.get("winners") or [])
    block = 44 + LINE + 16
    img = Image.new("RGB", (W, 80 + block * len(scores)), BACKGROUND)
    d = Draw(img)
    _text(d, (M, M), tx("Final scores"), 36)
    y = 76
    for i, s in enumerate(scores):
        seat = _int(s.get("seat"))
        col = HIGHLIGHT if seat in winners else TEXT
        d.rounded_rectangle([M, y, W - M, y + block - 8], radius=8, fill=PANEL)
        d.rectangle([M, y + 8, M + 8, y + block - 16], fill=PLAYER_COLOURS[seat % len(PLAYER_COLOURS)])
        total = str(_int(s.get("total")))
        d.text((W - M - 16, y + 8), total, font=font(34), fill=col, anchor="ra")
        _text(d, (M + 24, y + 8), f"{i + 1}. {player_name(names, seat)}", 30, col,
              W - 3 * M - 40 - font(34).getlength(total))
        parts = [(tx("VP won"), s.get("vp")), (tx("Clocks"), s.get("clocks")), (tx("Devices"), s.get("prestige")),
                 (tx("Tie"), s.get("tiebreak"))]
        _text(d, (M + 24, y + 50), " · ".join(f"{label} {_int(v)}" for label, v in parts), SMALL, MUTED,
              W - 2 * M - 40)
        y += block
    return png_bytes(img)
