"""Steam Works images, drawn only from the engine's views (bot/games/steamworks/engine.py `view`),
for Discord's phone preview (390 px wide): every image is 800 px wide, no text is smaller than
SMALL (24 px; min_font(800) is 23) and none is taller than about twice its width (MAX_H): what
does not fit goes on into another image rather than being shrunk.

render_boards (the thread's images): the table (render_board: the header, the belt of each
unlocked age as tiles wide enough for every word of a name, the basic sources left as power
symbols with counts, and each player's counts and free persona spaces), then the workshops: each
player's devices as rows under their name in their colour: the tile grid (tiles keyed by number,
open sources outlined in green, a disc of the user's colour on a busy one), the sources (open, or
whose mechanic is on them) and what each tile does in a few words. render_hand (the DM, what a
decision needs): the whole devices the build offers, numbered as its menu lists them, or the
device being built or activated, the seat's supply tiles with what each does, its own devices as
rows where there is room, and every device on the table as a line. render_results: the final scores.

Cost: tiles, texts and device rows are drawn once and pasted after; a workshop image that shows
what it showed before is not drawn again; PNGs are written in the images' own palette
(bot/tools/bench/steamworks.py measures them on seeded game states).
"""

from __future__ import annotations

import io
import json
import threading
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.steamworks.content import setup, tiles
from bot.i18n import msg
from rendering.common import (
    BACKGROUND,
    MUTED,
    PANEL,
    PLAYER_COLOURS,
    TEXT,
    Draw,
    drawing_in,
    text_mask,
    fit,
    font,
    not_recording,
    note_text,
    player_name,
    tx,
    words,
    wrap,
)

W = 800
M = 16
SMALL = 24  # the smallest text anywhere (min_font(W) is 23)
LINE = 31  # the height of a line of SMALL text
TILES = tiles()
POWER_COLOURS = {"C": (222, 164, 58), "S": (120, 186, 240), "E": (214, 92, 226)}
KIND_FILL = {
    "source": (70, 58, 48),
    "component": (236, 228, 206),
    "modifier": (208, 226, 214),
    "converter": (214, 214, 236),
}
KIND_INK = {"source": (245, 236, 220), "component": (30, 30, 34), "modifier": (30, 30, 34), "converter": (30, 30, 34)}
POWER_KEYS = {"C": "clockwork", "S": "steam", "E": "electrickal"}
AGE_ROMAN = {"1": "I", "2": "II", "3": "III"}
EMPTY = (80, 83, 90)
HIGHLIGHT = (255, 214, 10)
DARK = (16, 16, 18)
FREE = (120, 220, 140)
SPACES = [(sp["id"], sp["name"]) for sp in setup().spaces]
MAX_H = 1560  # an image taller than about twice its width shows too small on a phone: split it


def _palette() -> Image.Image:
    """The images' colours, and the steps between each text colour and what it is drawn on (the
    edges of its letters), as one palette: every image is flat colours and such edges."""
    texts = [TEXT, MUTED, FREE, HIGHLIGHT, *PLAYER_COLOURS, *POWER_COLOURS.values()]
    pairs = [(b, f) for b in (BACKGROUND, PANEL) for f in texts]
    pairs += [(KIND_FILL[k], KIND_INK[k]) for k in KIND_FILL] + [((180, 40, 50), (255, 255, 255))]
    colours = dict.fromkeys([c for pair in pairs for c in pair] + [EMPTY, DARK, (200, 30, 30)])
    for b, f in pairs:
        for k in (0.15, 0.3, 0.45, 0.6, 0.75, 0.9):
            r, g, bl = (round(b[i] + (f[i] - b[i]) * k) for i in range(3))
            colours[(r, g, bl)] = None
    assert len(colours) <= 256
    flat = [c for col in colours for c in col]
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat + [0] * (768 - len(flat)))
    return pal


PALETTE = _palette()


def _png(image: Image.Image) -> bytes:
    """PNG in the images' palette: a fifth of the encoding time and half the bytes of full colour
    (measured: 5 ms against 21 ms for a workshop image), the same look at phone size."""
    buf = io.BytesIO()
    image.quantize(palette=PALETTE, dither=Image.Dither.NONE).save(buf, "PNG", compress_level=3)
    return buf.getvalue()


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


def draw_tile(
    d: Pen,
    x: float,
    y: float,
    size: float,
    tid: str,
    r: int = 0,
    outline: tuple[int, int, int] | None = None,
    key: str | None = None,
) -> None:
    """A square tile: its fill by kind, its power lines from the centre to each side that has one
    (one coloured stripe per power type), its prestige, and its name (or `key`, a short mark that
    a list next to the drawing explains). A basic source is a disc of its power's colour."""
    t = TILES.get(tid)
    kind = t.kind if t else "component"
    d.rounded_rectangle(
        [x, y, x + size, y + size],
        radius=max(4, int(size / 14)),
        fill=KIND_FILL[kind],
        outline=outline or DARK,
        width=4 if outline else 2,
    )
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
        # a small tile: the key up and left of centre, clear of the prestige badge in its corner
        kx, ky = (x + size * 0.38, y + size * 0.38) if t and t.prestige and size < 90 else (cx, cy)
        d.text((kx, ky), key, font=f, fill=ink, anchor="mm")
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


class _Collect(ImageDraw.ImageDraw):
    """Draws a cached sprite and keeps its texts, so that each paste can note them where they land."""

    def __init__(self, im: Image.Image) -> None:
        super().__init__(im)
        self.image = im  # the image drawn on (texts are pasted onto it)
        self.calls: list[tuple[tuple[float, float], str, Any, str | None]] = []

    def text(self, xy, text, fill=None, font=None, anchor=None, *args, **kwargs):  # noqa: A002
        self.calls.append((xy, text, font, anchor))
        size = getattr(font, "size", None)
        if (
            self.image.mode == "RGB"
            and not args
            and not kwargs
            and isinstance(size, int)
            and isinstance(fill, tuple)
            and text.strip()
            and "\n" not in text
        ):  # a row: cached masks
            mask, left, top = text_mask(text, size, anchor)
            self.image.paste(fill, (int(round(xy[0])) + left, int(round(xy[1])) + top), mask)
            return None
        return super().text(xy, text, fill, font, anchor, *args, **kwargs)


class _FastDraw(Draw):
    """Draw whose texts come from a cache of their coverage masks (the font's rendering was most
    of an image's cost: the same words come back in image after image)."""

    def __init__(self, im: Image.Image) -> None:
        super().__init__(im)
        self.image = im  # the image drawn on (texts and sprites are pasted onto it)
        self.calls: list[tuple[tuple[float, float], str, Any, str | None]] = []  # the texts noted

    def note(self, xy, text, fnt, anchor) -> None:
        self.calls.append((xy, text, fnt, anchor))
        note_text(self.image.size[0], xy, text, fnt, anchor)

    def text(self, xy, text, fill=None, font=None, anchor=None, *args, **kwargs):  # noqa: A002
        size = getattr(font, "size", None)
        if args or kwargs or not isinstance(size, int) or not isinstance(fill, tuple) or "\n" in text:
            self.calls.append((xy, text, font, anchor))
            return super().text(xy, text, fill, font, anchor, *args, **kwargs)
        self.note(xy, text, font, anchor)
        if not text.strip():
            return None
        mask, left, top = text_mask(text, size, anchor)
        self.image.paste(fill, (int(round(xy[0])) + left, int(round(xy[1])) + top), mask)
        return None


Pen = _FastDraw | _Collect  # what this module draws with: both paste cached texts and sprites onto `image`


@lru_cache(maxsize=512)
def _sprite(
    tid: str, r: int, size: int, outline: tuple[int, int, int] | None, key: str | None, locale_name: str
) -> tuple[Image.Image, tuple]:
    """A tile drawn once (per size, rotation, outline, key and tile-name text) and pasted after."""
    im = Image.new("RGBA", (size + 1, size + 1), (0, 0, 0, 0))
    c = _Collect(im)
    draw_tile(c, 0, 0, size, tid, r, outline=outline, key=key)
    return im, tuple(c.calls)


def paste_tile(
    d: Pen,
    x: float,
    y: float,
    size: float,
    tid: str,
    r: int = 0,
    outline: tuple[int, int, int] | None = None,
    key: str | None = None,
) -> None:
    """draw_tile, from the sprite cache: a tile costs a paste, not its lines and text again."""
    img = d.image
    name = _tile_name(tid) if key is None else ""
    im, calls = _sprite(tid, r % 4, int(size), outline, key, name)
    x0, y0 = int(round(x)), int(round(y))
    img.paste(im, (x0, y0), im)
    for xy, text, fnt, anchor in calls:
        _note(d, (x0 + xy[0], y0 + xy[1]), text, fnt, anchor)


def _note(d: Any, xy: tuple[float, float], text: str, fnt: Any, anchor: str | None) -> None:
    """Note a text pasted (not drawn) where it lands: kept by a sprite being drawn, else recorded."""
    if isinstance(d, (_Collect, _FastDraw)):
        if isinstance(d, _FastDraw):
            d.note(xy, text, fnt, anchor)
        else:
            d.calls.append((xy, text, fnt, anchor))
    else:
        note_text(d.im.size[0], xy, text, fnt, anchor)


def _disc(d: Pen, x: float, y: float, p: str, size: int = SMALL) -> float:
    """A basic source's symbol (a disc of its power's colour) with the power's initial mark; returns its width."""
    dia = size - 2
    d.ellipse([x, y + 5, x + dia, y + 5 + dia], fill=POWER_COLOURS[p], outline=(245, 236, 220), width=2)
    return dia + 5


Run = list  # a group of str and ("P", power) items drawn together on one line


def _runs(
    d: Pen, x: float, y: float, groups: list[Run], width: float, fill=MUTED, size: int = SMALL, sep: str = " · "
) -> float:
    """Groups of words and power symbols in lines of `width`: a line breaks between groups (with
    `sep` between them on a line), never inside one. Returns the y below the last line."""
    f = font(size)

    def glen(g: Run) -> float:
        return sum(f.getlength(i) if isinstance(i, str) else 0 if i[0] == "F" else size + 3 for i in g)

    cx = x
    for g in groups:
        w = glen(g)
        if cx > x and cx + f.getlength(sep) + w > x + width:
            cx, y = x, y + size + 7
        elif cx > x:
            d.text((cx, y), sep, font=f, fill=fill)
            cx += f.getlength(sep)
        col = fill
        for item in g:
            if isinstance(item, str):
                if item.strip():
                    d.text((cx, y), item, font=f, fill=col)
                cx += f.getlength(item)
            elif item[0] == "F":
                col = item[1]
            else:
                cx += _disc(d, cx, y, item[1], size)
    return y + size + 7


def _power_run(counts: dict, label: str = "") -> Run:
    """The three power symbols, each with its count: "● 2  ● 0  ● 1"."""
    out: Run = [label] if label else []
    for i, p in enumerate(("C", "S", "E")):
        out += [("P", p), f"{_int(counts.get(p))}" + ("   " if i < 2 else "")]
    return out


def effect_text(tid: str) -> str:
    """What a tile does when powered, in a few words (its owner's bonus after it)."""
    t = TILES.get(tid)
    if t is None:
        return ""
    if t.kind == "source":
        return tx("source") if t.is_basic else tx("source: changes power")
    if t.kind == "converter":
        return tx("passes power on as any type")
    e = t.effect
    op = e.get("op")
    texts = {
        "coins": lambda: tx("+£{n}", n=e.get("coins", 0)),
        "vp": lambda: tx("+{n} VP", n=e.get("vp", 0)),
        "gain_same": lambda: tx("+{n} sources of that power", n=e.get("n", 0)),
        "gain_any": lambda: tx("+{n} source(s) of any power", n=e.get("n", 0)),
        "sell_source": lambda: tx("a source for £{n}", n=e.get("coins", 0)),
        "turbine": lambda: tx("draw a tile from a stack"),
        "stack_by_power": lambda: tx("draw a tile from a stack"),
        "belt_take": lambda: tx("take a belt tile"),
        "advance_start": lambda: tx("move the start marker"),
        "build": lambda: tx("build {n} tiles", n=e.get("n", 0)),
        "upgrade": lambda: tx("add a tile to a device"),
        "per_component_coins": lambda: tx("£1 per component"),
        "buy_vp": lambda: tx("£{p} for {n} VP", p=e.get("price", 0), n=e.get("vp", 0)),
        "clocks": lambda: tx("+{n} clocks", n=e.get("n", 0)),
        "vp_per_device": lambda: tx("1 VP per device (up to {n})", n=e.get("max", 0)),
        "reuse": lambda: tx("powers a used tile again"),
    }
    out = texts[op]() if op in texts else ""
    if e.get("coins") and op not in ("coins", "sell_source"):
        out += " " + tx("+£{n}", n=e["coins"])
    if e.get("price") and op in ("build", "upgrade"):
        out += " " + tx("(pay £{n})", n=e["price"])
    bonus = []
    if t.owner.get("coins"):
        bonus.append(tx("+£{n}", n=t.owner["coins"]))
    if t.owner.get("vp"):
        bonus.append(tx("+{n} VP", n=t.owner["vp"]))
    if t.owner.get("source"):
        bonus.append(tx("+{n} source", n=t.owner["source"]))
    if bonus:
        out += tx("; owner {bonus}", bonus=" ".join(bonus))
    return out


def _text(d: Pen, xy: tuple[float, float], s: str, size: int = SMALL, fill=TEXT, width: float = W - 2 * M) -> None:
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


def _lines(d: Pen, x: float, y: float, s: str, width: float, max_lines: int, fill=TEXT, size: int = SMALL) -> float:
    for line in _wrap(s, size, width, max_lines):
        d.text((x, y), line, font=font(size), fill=fill)
        y += size + 7
    return y


def _device_box(tiles_: list[dict], cell: int) -> tuple[int, int, int, int]:
    xs = [_int(t.get("x")) for t in tiles_] or [0]
    ys = [_int(t.get("y")) for t in tiles_] or [0]
    return min(xs), min(ys), (max(xs) - min(xs) + 1) * cell, (max(ys) - min(ys) + 1) * cell


def _dev_tiles(dev: dict) -> list[dict]:
    return sorted(
        [t for t in dev.get("tiles") or [] if isinstance(t, dict)], key=lambda t: (_int(t.get("y")), _int(t.get("x")))
    )


def draw_device(
    d: Pen,
    x: float,
    y: float,
    dev: dict,
    cell: int,
    keyed: bool = False,
    mark: set[str] | None = None,
    free: set[str] | None = None,
    free_col: tuple[int, int, int] = FREE,
    keys: dict[str, str] | None = None,
) -> list[str]:
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
        if keys is not None:
            key = keys.get(tid)
        elif keyed and not (tid in TILES and TILES[tid].is_basic):
            legend.append(_tile_name(tid))
            key = str(len(legend))
        pos = f"{tx_},{ty_}"
        paste_tile(
            d,
            px + 2,
            py + 2,
            cell - 4,
            tid,
            _int(t.get("r")),
            outline=(free_col if free and pos in free else HIGHLIGHT if mark and pos in mark else None),
            key=key,
        )
        if pos in busy:
            col = PLAYER_COLOURS[_int(busy[pos]) % len(PLAYER_COLOURS)]
            rad = max(8, cell * 0.13)
            d.ellipse([px + 6, py + 6, px + 6 + 2 * rad, py + 6 + 2 * rad], fill=col, outline=(255, 255, 255), width=2)
    return legend


def _legend(d: Pen, x: float, y: float) -> float:
    f = font(SMALL)
    for p, key in (("C", tx("clockwork")), ("S", tx("steam")), ("E", tx("electrickal"))):
        d.line([x, y + 15, x + 30, y + 15], fill=POWER_COLOURS[p], width=8)
        d.text((x + 38, y), key, font=f, fill=TEXT)
        x += 62 + f.getlength(key)
    return y + LINE + 4


def render_board(view: dict, names: list[str], locale: str = "en") -> bytes:
    """The table: the belts of the ages and each player's counts (render_boards adds the workshops)."""
    with drawing_in(locale):
        return _render_board(view, names)


def render_boards(view: dict, names: list[str], locale: str = "en") -> list[bytes]:
    """The thread's images: the table (render_board), then the workshops: every player's devices
    drawn, split over as many images as keep each under about twice its width."""
    with drawing_in(locale):
        return [_render_board(view, names)] + _render_workshops(view, names)


def _canvas(h: int) -> tuple[Image.Image, _FastDraw]:
    img = Image.new("RGB", (W, h), BACKGROUND)
    return img, _FastDraw(img)


def _render_board(view: dict, names: list[str]) -> bytes:
    img, d = _canvas(5000)
    y: float = M
    age = _int(view.get("age"), 1)
    over = view.get("stage") == "over"
    head = tx(
        "Steam Works · {age} · round {n}",
        age=tx("Age {roman}", roman=AGE_ROMAN.get(str(age), "?")),
        n=_int(view.get("round"), 1),
    )
    _text(d, (M, y), head, 34)
    y += 50
    active = view.get("active")
    y = _status_lines(d, y, view, names, active, over)
    y = _belts(d, y, view, age, over)
    sup = view.get("supply_sources") or {}  # with the powers' names: the key to the colours
    groups: list[Run] = [[("P", p), f"{tx(POWER_KEYS[p])} {_int(sup.get(p))}"] for p in ("C", "S", "E")]
    groups[0] = [tx("Basic sources left:") + " "] + groups[0]
    y = _runs(d, M, y, groups, W - 2 * M) + 8
    devices = [dv for dv in view.get("devices") or [] if isinstance(dv, dict)]
    for pl in view.get("players") or []:
        if isinstance(pl, dict):
            y = _player_panel(
                d, y, pl, names, [dv for dv in devices if dv.get("owner") == pl.get("seat")], active, over
            )
    return _png(img.crop((0, 0, W, y + M)))


def _status_lines(d: Pen, y: float, view: dict, names: list[str], active: Any, over: bool) -> float:
    """Under the title: the game is over, or who plays, the start player and the next mechanic's
    cost (and where an Alarm Chronometer put the start marker); returns the y below."""
    if over:
        _text(d, (M, y), tx("The game is over."), 28, HIGHLIGHT)
        y += 40
    elif isinstance(active, int):
        start = _int(view.get("start"))
        y = (
            _lines(
                d,
                M,
                y,
                tx(
                    "To play: {p} · start player: {s} · next mechanic costs £{n}",
                    p=player_name(names, active),
                    s=player_name(names, start),
                    n=_int(view.get("cost")),
                ),
                W - 2 * M,
                2,
                HIGHLIGHT,
                26,
            )
            + 4
        )
        marker = view.get("marker")
        if isinstance(marker, int) and marker != start:  # an Alarm Chronometer moved it
            y = (
                _lines(
                    d,
                    M,
                    y,
                    tx(
                        "The start marker is at {m}: {s} starts next round",
                        m=player_name(names, marker),
                        s=player_name(names, _int(view.get("next_start"))),
                    ),
                    W - 2 * M,
                    2,
                    HIGHLIGHT,
                    26,
                )
                + 4
            )
    return y


def _belts(d: Pen, y: float, view: dict, age: int, over: bool) -> float:
    """The central board at `y`, each age's belt of tiles (the current age outlined); returns the y below."""
    # the central board: the belt of each unlocked age as tiles wide enough for every word of a
    # name (the longest English word is 183 px at 24 px), the locked ages in a line
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
        gap = 6
        cell = min(190, int((W - 2 * 8 - 2 * 8 - gap * (n - 1)) / n))
        h = 44 + cell + 8
        d.rounded_rectangle(
            [8, y, W - 8, y + h],
            radius=10,
            fill=PANEL,
            outline=HIGHLIGHT if str(age) == a and not over else None,
            width=3,
        )
        d.text((M + 8, y + 6), label, font=font(28), fill=TEXT)
        _text(
            d,
            (M + 20 + font(28).getlength(label), y + 9),
            f"· {info}",
            SMALL,
            MUTED,
            W - 3 * M - 40 - font(28).getlength(label),
        )
        for i, tid in enumerate(belt):
            x = 16 + i * (cell + gap)
            if tid:
                paste_tile(d, x, y + 44, cell, tid)
            else:
                d.rounded_rectangle([x, y + 44, x + cell, y + 44 + cell], radius=8, outline=EMPTY, width=2)
        y += h + 10
    return y


def _player_panel(
    d: Pen, y: float, pl: dict, names: list[str], devs: list[dict], active: Any, over: bool = False
) -> float:
    """A player's public counts: name and persona; money, points, clocks, mechanics, the basic
    sources as power symbols with counts, tiles in supply and devices; the persona spaces still free."""
    seat = _int(pl.get("seat"))
    col = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
    inner = W - 2 * M - 40
    _, dd = _canvas(400)  # measured first, then drawn on the board
    mech = _int(pl.get("mechanics"), 2)
    groups: list[Run] = [
        [tx("£{m}", m=_int(pl.get("money")))],
        [tx("{vp} VP", vp=_int(pl.get("vp")))],
        [tx("{c} clocks", c=_int(pl.get("clocks")))],
        *([] if over else [[tx("mechanics {left}/{n}", left=mech - _int(pl.get("used")), n=mech)]]),
        _power_run(pl.get("sources") or {}),
        [tx("{t} tile(s)", t=len(pl.get("tiles") or []))],
        [tx("{d} devices", d=len(devs))],
    ]
    spaces = pl.get("spaces") or {}
    free = [words(msg(name)) for sid, name in SPACES if not spaces.get(sid)]
    if not over:  # the persona spaces still free this round
        groups += (
            [[("F", FREE), tx("Free spaces:") + " " + free[0]]] + [[("F", FREE), f] for f in free[1:]]
            if free
            else [[tx("No free space")]]
        )
    with not_recording():
        h = 52 + _runs(dd, 0, 0, groups, inner) + 6
    d.rounded_rectangle([M, y, W - M, y + h], radius=10, fill=PANEL, outline=col if active == seat else None, width=4)
    d.rectangle([M, y + 10, M + 8, y + h - 10], fill=col)
    _text(d, (M + 24, y + 10), f"{player_name(names, seat)} · {words(pl.get('persona'))}", 28, TEXT, inner)
    _runs(d, M + 24, y + 52, groups, inner)
    return y + h + 8


# -- the workshops: every device drawn, for the thread --------------------------------------------------

GRID_W = 240  # the widest a device's drawing gets in a workshop row


def _device_texts(dv: dict, names: list[str]) -> tuple[Run, list[str]]:
    """A device's first line (its number, and each source: free, or whose mechanic is on it) and
    one line per other tile, numbered as in its drawing: name and what it does."""
    busy = dv.get("busy") or {}
    head: Run = [f"#{_int(dv.get('id'))}"]
    rest: list[str] = []
    k = 0
    for t in _dev_tiles(dv):
        tid = str(t.get("t"))
        pos = f"{_int(t.get('x'))},{_int(t.get('y'))}"
        basic = tid in TILES and TILES[tid].is_basic
        if not basic:
            k += 1
        if tid in TILES and TILES[tid].is_source:
            who = busy.get(pos)
            state = tx("open") if who is None else player_name(names, _int(who))
            head += ["  ", ("P", tid[-1]) if basic else f"{k}", f" {state}"]
            if not basic:
                rest.append(f"{k} {_tile_name(tid)}")
        elif not basic:
            rest.append(tx("{k} {name}: {effect}", k=k, name=_tile_name(tid), effect=effect_text(tid)))
    return head, rest


def _lying(dv: dict) -> dict:
    """A device taller than wide, turned a quarter clockwise for its row (a device works the same
    turned whole: its tiles keep their links); the mechanics on it turn with it."""
    tiles_ = _dev_tiles(dv)
    _, _, cols, rows = _device_box(tiles_, 1)
    if rows <= cols:
        return dv
    moved = {f"{_int(t.get('x'))},{_int(t.get('y'))}": f"{-_int(t.get('y'))},{_int(t.get('x'))}" for t in tiles_}
    return {
        **dv,
        "tiles": [
            {"t": t.get("t"), "x": -_int(t.get("y")), "y": _int(t.get("x")), "r": (_int(t.get("r")) + 1) % 4}
            for t in tiles_
        ],
        "busy": {moved.get(k, k): v for k, v in (dv.get("busy") or {}).items()},
    }


def _row_layout(dv: dict, names: list[str]) -> tuple[int, float, float, Run, list[list[str]], float]:
    """cell, grid width, grid height, first line, wrapped tile lines, row height."""
    tiles_ = _dev_tiles(dv)
    _, _, cols, rows = _device_box(tiles_, 1)
    cell = max(56, min(84, int(GRID_W / max(cols, 1))))
    gw, gh = cols * cell, rows * cell
    room = W - 2 * M - gw - 16
    head, rest = _device_texts(dv, names)
    wrapped = [_wrap(line, SMALL, room, 3) for line in rest]
    text_h = LINE * (1 + sum(len(w) for w in wrapped))
    return cell, gw, gh, head, wrapped, max(gh, text_h) + 12


@lru_cache(maxsize=96)
def _row_sprite(dv_json: str, names: tuple[str, ...], locale_mark: str) -> tuple[tuple, Image.Image, tuple]:
    """A device's row drawn once (per device, mechanics on it, names and locale) and pasted after:
    (its layout, the image, its texts)."""
    dv = json.loads(dv_json)
    lay = _row_layout(dv, list(names))
    im = Image.new("RGB", (W, int(lay[-1])), BACKGROUND)
    c = _Collect(im)
    _draw_row(c, 0, dv, lay)
    return lay, im, tuple(c.calls)


def row_layout(dv: dict, names: list[str]) -> tuple:
    """_row_layout of the device as its row shows it (lying), from the row cache."""
    return _row_sprite(json.dumps(_lying(dv), sort_keys=True), tuple(names), tx("open"))[0]


def _device_row(d: Pen, y: float, dv: dict, names: list[str], layout: tuple | None = None) -> float:
    """A device's row, pasted from the cache (a late table has dozens of devices, most unchanged
    from one image to the next). tx("open") marks the locale the texts were drawn in."""
    lay, im, calls = _row_sprite(json.dumps(_lying(dv), sort_keys=True), tuple(names), tx("open"))
    img = d.image
    y0 = int(round(y))
    img.paste(im, (0, y0))
    for xy, text, fnt, anchor in calls:
        _note(d, (xy[0], y0 + xy[1]), text, fnt, anchor)
    return y0 + lay[-1]


def _draw_row(d: Pen, y: float, dv: dict, layout: tuple) -> float:
    cell, gw, gh, head, wrapped, h = layout
    busy = dv.get("busy") or {}
    free = {
        f"{_int(t.get('x'))},{_int(t.get('y'))}"
        for t in _dev_tiles(dv)
        if str(t.get("t")) in TILES and TILES[str(t.get("t"))].is_source
    } - set(busy)
    draw_device(d, M, y, dv, cell, keyed=True, free=free)
    x = M + gw + 16
    mark = [i for i, item in enumerate(head) if isinstance(item, str) and item.strip() == tx("open")]
    _runs_coloured(d, x, y, head, {i: FREE for i in mark})
    yy = y + LINE
    for lines in wrapped:
        for line in lines:
            d.text((x, yy), line, font=font(SMALL), fill=MUTED)
            yy += LINE
    return y + h


def _runs_coloured(d: Pen, x: float, y: float, items: Run, colours: dict[int, tuple]) -> None:
    """One line of words and power symbols, some words in their own colour (free sources in green)."""
    f = font(SMALL)
    for i, item in enumerate(items):
        if isinstance(item, str):
            if item.strip():
                d.text((x, y), item, font=f, fill=colours.get(i, TEXT))
            x += f.getlength(item)
        else:
            x += _disc(d, x, y, item[1])


def _workshop_head(d: Pen, y: float, pl: dict, names: list[str], n: int, more: bool) -> float:
    seat = _int(pl.get("seat"))
    col = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
    d.rectangle([M, y + 4, M + 10, y + 36], fill=col)
    title = tx("{p}'s workshop · {n} devices", p=player_name(names, seat), n=n)
    if more:
        title = tx("{title} (continued)", title=title)
    _text(d, (M + 22, y), title, 28, TEXT, W - 2 * M - 22)
    return y + 44


def _workshop_pages(view: dict, names: list[str]) -> list[list[tuple]]:
    """The workshops laid out in images under MAX_H: each a list of ("head", player, n, more) and
    ("row", device)."""
    devices = [dv for dv in view.get("devices") or [] if isinstance(dv, dict)]
    pages: list[list[tuple]] = [[]]
    y: float = M
    for pl in view.get("players") or []:
        if not isinstance(pl, dict):
            continue
        mine = sorted((dv for dv in devices if dv.get("owner") == pl.get("seat")), key=lambda v: _int(v.get("id")))
        if not mine:
            continue
        if y > M and y + 44 + row_layout(mine[0], names)[-1] > MAX_H:
            pages.append([])
            y = M
        pages[-1].append(("head", _int(pl.get("seat")), len(mine), False))
        y += 44
        for dv in mine:
            h = row_layout(dv, names)[-1]
            if y + h > MAX_H:
                pages.append([("head", _int(pl.get("seat")), len(mine), True)])
                y = M + 44
            pages[-1].append(("row", dv))
            y += h
        y += 12
    return [p for p in pages if p]


_PAGES: dict[str, tuple[bytes, tuple]] = {}  # the newest workshop images, by what they show
PAGES_KEPT = 48
_PAGES_LOCK = threading.Lock()  # images are drawn in worker threads


def _render_workshops(view: dict, names: list[str]) -> list[bytes]:
    """Each player's devices as rows (the drawing, then what each tile does and who is on it),
    under the player's name in their colour, in as many images as keep each under MAX_H. An image
    showing just what it showed before (most turns change no device) is not drawn again."""
    out: list[bytes] = []
    for page in _workshop_pages(view, names):
        key = json.dumps([page, names, tx("open"), tx("{title} (continued)", title="")], sort_keys=True)
        with _PAGES_LOCK:
            hit = _PAGES.pop(key, None)
            if hit is not None:
                _PAGES[key] = hit
        if hit is not None:
            data, calls = hit
            for xy, text, fnt, anchor in calls:
                note_text(W, xy, text, fnt, anchor)
            out.append(data)
            continue
        img, d = _canvas(MAX_H + 200)
        y: float = M
        last = None
        for op in page:
            if op[0] == "head":
                if last == "row":
                    y += 12
                y = _workshop_head(d, y, {"seat": op[1]}, names, op[2], op[3])
            else:
                y = _device_row(d, y, op[1], names)
                d.line([M, y - 6, W - M, y - 6], fill=PANEL, width=2)
            last = op[0]
        data = _png(img.crop((0, 0, W, y + M + 4)))
        with _PAGES_LOCK:
            _PAGES[key] = (data, tuple(d.calls))
            while len(_PAGES) > PAGES_KEPT:
                _PAGES.pop(next(iter(_PAGES)))
        out.append(data)
    return out


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
    d = _FastDraw(img)
    y: float = M
    _text(d, (M, y), tx("Your workshop, {p}", p=player_name(names, seat)), 32)
    y += 48
    y = (
        _runs(
            d,
            M,
            y,
            [
                [tx("£{m}", m=_int(pl.get("money")))],
                [tx("{vp} VP", vp=_int(pl.get("vp")))],
                [tx("{c} clocks", c=_int(pl.get("clocks")))],
                _power_run(pl.get("sources") or {}),
            ],
            W - 2 * M,
            TEXT,
        )
        + 4
    )
    y = _legend(d, M, y) + 4
    devices = [x for x in view.get("devices") or [] if isinstance(x, dict)]
    build = view.get("build") if isinstance(view.get("build"), dict) else None
    act = view.get("act") if isinstance(view.get("act"), dict) else None
    plans = [pl_ for pl_ in view.get("plans") or [] if isinstance(pl_, list)]
    if build and view.get("active") == seat and plans:
        y = _plan_cards(d, y + 4, plans) + 6
    elif build and view.get("active") == seat:
        y = _build_preview(d, y + 4, build, devices) + 6
    reveal = view.get("reveal") if isinstance(view.get("reveal"), dict) else None
    if reveal and reveal.get("seat") == seat and isinstance(reveal.get("tiles"), list):
        y = _reveal_tiles(d, y, reveal)
    elif act and view.get("active") == seat and not plans:
        dv = next((x for x in devices if x.get("id") == act.get("dev")), None)
        if dv:
            y = (
                _lines(
                    d,
                    M,
                    y + 4,
                    tx("Activating device {n}: highlighted tiles can be powered", n=_int(dv.get("id"))),
                    W - 2 * M,
                    2,
                    HIGHLIGHT,
                    26,
                )
                + 6
            )
            y = _device_block(d, y, dv, set(act.get("targets") or {})) + 6
    # the supply: one tile a row with what it does
    supply = [str(t) for t in pl.get("tiles") or []]
    y = _supply_rows(d, y, supply, bool(plans and view.get("active") == seat and len(plans) > 8))
    deciding = view.get("active") == seat and (build or act or reveal)
    listed = bool(devices and not (build and view.get("active") == seat))  # while laying tiles: the preview and supply
    y = _hand_devices(d, y, (devices, names, seat), bool(deciding), listed)
    return _png(img.crop((0, 0, W, y + M)))


def _reveal_tiles(d: Pen, y: float, reveal: dict) -> float:
    """The Innovation Turbine's private look: the two tiles, only in this seat's image."""
    age = AGE_ROMAN.get(str(reveal.get("age")), "?")
    y = (
        _lines(
            d,
            M,
            y + 4,
            tx(
                "Innovation Turbine: keep one of these two tiles; the other goes under the Age {roman} stack", roman=age
            ),
            W - 2 * M,
            2,
            HIGHLIGHT,
            26,
        )
        + 6
    )
    cell = 110
    for tid in [str(t) for t in reveal["tiles"]]:
        paste_tile(d, M, y, cell, tid)
        t = TILES.get(tid)
        _text(d, (M + cell + 14, y - 4), _tile_name(tid), 28, TEXT, W - 3 * M - cell)
        if t:
            _lines(d, M + cell + 14, y + 32, words(msg(t.text)), W - 3 * M - cell, 3, MUTED)
        y += cell + 14
    d.line([M, y, W - M, y], fill=HIGHLIGHT, width=3)  # below: the seat's own supply
    return y + 16


def _supply_rows(d: Pen, y: float, supply: list[str], crowded: bool) -> float:
    """The seat's supply, one tile a row with what it does; in two columns of names when there are
    too many for a phone with their texts (or they sit below many devices to choose from: `crowded`)."""
    cell = 76
    if len(set(supply)) > COMPACT_SUPPLY or crowded:
        y = _supply_columns(d, y, supply, cell)
        supply = []
    for tid in dict.fromkeys(supply):  # the same tile twice is one row, "×2"
        paste_tile(d, M, y, cell, tid, key="")
        t = TILES.get(tid)
        n = supply.count(tid)
        _text(d, (M + cell + 14, y - 4), _tile_name(tid) + (f" ×{n}" if n > 1 else ""), 28, TEXT, W - 3 * M - cell)
        below = y + 32
        if t:  # the whole text: up to 3 lines (a Japanese one may need them), never cut at 2
            below = _lines(d, M + cell + 14, y + 32, words(msg(t.text)), W - 3 * M - cell, 3, MUTED)
        y = max(y + max(cell, 32 + 2 * (SMALL + 7)), below) + 10
    return y


def _hand_devices(d: Pen, y: float, table: tuple[list[dict], list[str], int], deciding: bool, listed: bool) -> float:
    """The seat's own devices drawn as on the board (where the image has room, and not while it
    decides), then every device on the table as a line (`listed`), the seat's own first."""
    devices, names, seat = table
    mine = sorted((x for x in devices if x.get("owner") == seat), key=lambda v: _int(v.get("id")))
    list_h = (
        (
            48
            + sum(
                LINE * len(_device_lines(dv, W - 2 * M - 24 - 30 * len(set((dv.get("busy") or {}).values()))))
                for dv in devices
            )
        )
        if listed
        else 0
    )
    if mine and not deciding:  # the seat's own devices drawn as on the board, where the image has room
        lays = [row_layout(dv, names) for dv in mine]
        if y + 50 + sum(lay[-1] for lay in lays) + list_h <= MAX_H:
            y += 6
            _text(d, (M, y), tx("Your devices"), 28, TEXT)
            y += 44
            for dv, lay in zip(mine, lays):
                y = _device_row(d, y, dv, names, lay)
    if listed:  # every device on the table as a line, the seat's own first
        y += 6
        _text(d, (M, y), tx("Devices"), 28, TEXT)
        y += 40
        ordered = sorted(devices, key=lambda x: (x.get("owner") != seat, _int(x.get("owner")), _int(x.get("id"))))
        for i, dv in enumerate(ordered):
            if y + 3 * LINE > MAX_H and i < len(ordered) - 1:  # no taller than a phone shows: the rest on the board
                _text(
                    d,
                    (M, y),
                    tx("{n} more: see the workshops on the board in the thread", n=len(ordered) - i),
                    SMALL,
                    MUTED,
                )
                y += LINE
                break
            y = _device_line_drawn(d, y, dv, names)
    return y


COMPACT_SUPPLY = 8  # distinct supply tiles beyond which the hand lists them without their texts


def _supply_columns(d: Pen, y: float, supply: list[str], cell: int) -> float:
    """The supply as two columns of tiles and names, without their texts (a phone-sized image)."""
    col = (W - 2 * M) / 2
    for i, tid in enumerate(dict.fromkeys(supply)):
        x, top = M + (i % 2) * col, y + (i // 2) * (cell + 10)
        paste_tile(d, x, top, cell, tid, key="")
        n = supply.count(tid)
        _lines(d, x + cell + 10, top + 4, _tile_name(tid) + (f" ×{n}" if n > 1 else ""), col - cell - 20, 2, TEXT)
    return y + (len(set(supply)) + 1) // 2 * (cell + 10) + 6


def _device_line(dev: dict) -> str:
    names = [_tile_name(str(t.get("t"))) for t in _dev_tiles(dev)]
    return tx("Device {n}: {tiles}", n=_int(dev.get("id")), tiles=tx(", ").join(names))  # 、 in Japanese


# -- the board -----------------------------------------------------------------------------------------


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


def _device_line_drawn(d: Pen, y: float, dv: dict, names: list[str]) -> float:
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


def _device_block(d: Pen, y: float, dv: dict, mark: set[str] | None) -> float:
    """A device keyed by numbers, the tiles that can be powered outlined, with a list under it:
    each number's tile and what it does."""
    tiles_ = _dev_tiles(dv)
    _, _, cols_w, rows_h = _device_box(tiles_, 1)
    cell = min(130, int((W - 2 * M) / max(cols_w, 1)))
    legend = draw_device(d, M, y, dv, cell, keyed=True, mark=mark)
    ids = [str(t.get("t")) for t in tiles_ if not (str(t.get("t")) in TILES and TILES[str(t.get("t"))].is_basic)]
    yy = y + rows_h * cell + 6
    for i, name in enumerate(legend):
        yy = _lines(
            d, M, yy, tx("{k} {name}: {effect}", k=i + 1, name=name, effect=effect_text(ids[i])), W - 2 * M, 2, TEXT
        )
    return yy + 8


def _plan_cards(d: Pen, y: float, plans: list[list[dict]]) -> float:
    """The whole devices the menu offers, numbered as in its list, four to a row: each drawn as
    it would be built (its tiles, their places and turns)."""
    y = (
        _lines(
            d,
            M,
            y,
            tx("Devices you can build: choose one by its number, or lay the tiles one by one"),
            W - 2 * M,
            2,
            HIGHLIGHT,
            26,
        )
        + 6
    )
    kinds = sorted(
        {
            str(t.get("t"))
            for plan in plans
            for t in plan
            if isinstance(t, dict) and not (str(t.get("t")) in TILES and TILES[str(t.get("t"))].is_basic)
        },
        key=_tile_name,
    )
    marks = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    keys = {tid: marks[i % 26] for i, tid in enumerate(kinds)}
    y = _runs(d, M, y, [[f"{keys[tid]} {_tile_name(tid)}"] for tid in kinds], W - 2 * M, TEXT) + 4
    per_row, gap = 4, 8
    card = int((W - 2 * M - gap * (per_row - 1)) / per_row)
    row_h = 0.0
    for i, plan in enumerate(plans):
        tiles_ = [t for t in plan if isinstance(t, dict)]
        _, _, cols, rows = _device_box(tiles_, 1)
        cell = max(56, min(64, int((card - 12) / max(cols, 1))))
        x = M + (i % per_row) * (card + gap)
        if i % per_row == 0 and i:
            y += row_h + gap
            row_h = 0
        h = 36 + rows * cell + 8
        d.rounded_rectangle([x, y, x + card, y + h], radius=8, fill=PANEL)
        d.text((x + 8, y + 4), f"#{i + 1}", font=font(SMALL), fill=HIGHLIGHT)
        draw_device(d, x + (card - cols * cell) / 2, y + 34, {"tiles": tiles_}, cell, keys=keys)
        row_h = max(row_h, h)
    return y + row_h + 8


def _build_preview(d: Pen, y: float, build: dict, devices: list[dict]) -> float:
    placed = [t for t in build.get("placed") or [] if isinstance(t, dict)]
    base: list[dict] = []
    if build.get("mode") == "upgrade" and build.get("dev") is not None:
        dv = next((x for x in devices if x.get("id") == build.get("dev")), None)
        base = list(dv.get("tiles") or []) if dv else []
    allt = base + placed
    y = (
        _lines(
            d,
            M,
            y,
            tx("Device being built: {n} tile(s) left to lay", n=_int(build.get("left"))),
            W - 2 * M,
            2,
            HIGHLIGHT,
            26,
        )
        + 6
    )
    xs = [_int(t.get("x")) for t in allt] or [0]
    ys = [_int(t.get("y")) for t in allt] or [0]
    x0, y0 = min(xs) - 1, min(ys) - 1
    cols, rows = max(xs) - x0 + 2, max(ys) - y0 + 2
    cell = max(110, min(150, int((W - 2 * M) / cols)))
    cols = min(cols, (W - 2 * M) // cell)
    grid = {(_int(t.get("x")), _int(t.get("y"))): t for t in allt}
    legend: list[str] = []
    for gy in range(rows):
        for gx in range(cols):
            px, py = M + gx * cell, y + gy * cell
            pos = (gx + x0, gy + y0)
            if pos in grid:
                t = grid[pos]
                tid = str(t.get("t"))
                key = None
                if not (tid in TILES and TILES[tid].is_basic):
                    legend.append(tid)
                    key = str(len(legend))
                paste_tile(
                    d,
                    px + 2,
                    py + 2,
                    cell - 4,
                    tid,
                    _int(t.get("r")),
                    outline=HIGHLIGHT if t in placed else None,
                    key=key,
                )
            else:
                d.rounded_rectangle([px + 4, py + 4, px + cell - 4, py + cell - 4], radius=8, outline=EMPTY, width=2)
                d.text(
                    (px + cell / 2, py + cell / 2), f"({pos[0]}, {pos[1]})", font=font(SMALL), fill=MUTED, anchor="mm"
                )
    y += rows * cell + 6
    for i, tid in enumerate(legend):
        y = _lines(
            d,
            M,
            y,
            tx("{k} {name}: {effect}", k=i + 1, name=_tile_name(tid), effect=effect_text(tid)),
            W - 2 * M,
            2,
            TEXT,
        )
    return y + 6


# -- results -------------------------------------------------------------------------------------------


def render_results(view: dict, names: list[str], locale: str = "en") -> bytes:
    with drawing_in(locale):
        return _render_results(view, names)


def _render_results(view: dict, names: list[str]) -> bytes:
    """One block per player: place and name, then the points by kind."""
    final = view.get("final") or {}
    scores = sorted(
        [s for s in final.get("scores") or [] if isinstance(s, dict)],
        key=lambda s: (-_int(s.get("total")), -_int(s.get("tiebreak"))),
    )
    winners = set(final.get("winners") or [])
    block = 44 + LINE + 16
    img = Image.new("RGB", (W, 80 + block * len(scores)), BACKGROUND)
    d = _FastDraw(img)
    _text(d, (M, M), tx("Final scores"), 36)
    y = 76
    for i, s in enumerate(scores):
        seat = _int(s.get("seat"))
        col = HIGHLIGHT if seat in winners else TEXT
        d.rounded_rectangle([M, y, W - M, y + block - 8], radius=8, fill=PANEL)
        d.rectangle([M, y + 8, M + 8, y + block - 16], fill=PLAYER_COLOURS[seat % len(PLAYER_COLOURS)])
        total = str(_int(s.get("total")))
        d.text((W - M - 16, y + 8), total, font=font(34), fill=col, anchor="ra")
        _text(
            d,
            (M + 24, y + 8),
            f"{i + 1}. {player_name(names, seat)}",
            30,
            col,
            W - 3 * M - 40 - font(34).getlength(total),
        )
        parts = [
            (tx("VP won"), s.get("vp")),
            (tx("Clocks"), s.get("clocks")),
            (tx("Devices"), s.get("prestige")),
            (tx("Tie"), s.get("tiebreak")),
        ]
        _text(d, (M + 24, y + 50), " · ".join(f"{label} {_int(v)}" for label, v in parts), SMALL, MUTED, W - 2 * M - 40)
        y += block
    return _png(img)
