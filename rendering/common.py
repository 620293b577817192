"""Pieces every renderer shares: player colours, fonts, PNG encoding."""

from __future__ import annotations

import io
import unicodedata
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import render, tr

# The locale of the image being drawn: set by a renderer's entry point (render_board(view, names,
# locale)) for the length of the call. A context variable, so images drawn at once in several
# threads (asyncio.to_thread) each keep their own.
_LOCALE: ContextVar[str] = ContextVar("render_locale", default="en")


@contextmanager
def drawing_in(locale: str | None) -> Iterator[None]:
    """Draw the texts of this block in `locale`."""
    token = _LOCALE.set(locale or "en")
    try:
        yield
    finally:
        _LOCALE.reset(token)


def tx(text: str, /, **params: Any) -> str:
    """A renderer's own text (a literal key) in the image's locale: tr(locale, text, ...)."""
    return tr(_LOCALE.get(), text, **params)


def words(value: Any) -> str:
    """An engine text from the view (a Msg, a list of them, or plain text) in the image's locale."""
    return "" if value is None else render(value, _LOCALE.get())


def english(value: Any) -> str:
    """The English words of a view text, for renderers that read meaning from them (card kinds)."""
    return "" if value is None else render(value, "en")


# Distinct on dark and light backgrounds and for the common colour-vision deficiencies.
PLAYER_COLOURS = [
    (230, 57, 70),  # red
    (29, 120, 226),  # blue
    (255, 183, 3),  # yellow
    (42, 157, 80),  # green
    (155, 89, 182),  # purple
    (245, 130, 32),  # orange
]


def seat_colour(seat: int) -> tuple[int, int, int]:
    """A seat's colour, the same in every game's images."""
    return PLAYER_COLOURS[int(seat) % len(PLAYER_COLOURS)]


BACKGROUND = (32, 34, 37)
PANEL = (47, 49, 54)
TEXT = (235, 235, 235)
MUTED = (150, 152, 158)


# Noto Sans JP (SIL OFL 1.1), subset to Latin, punctuation, kana and the JIS level 1+2 kanji:
# see data/fonts/README.md. Found relative to the repository, as the game data is.
FONT_DIR = Path(__file__).resolve().parents[1] / "data" / "fonts"
FONT_FILE = FONT_DIR / "NotoSansJP-Regular.subset.ttf"


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The shipped font at `size` (Pillow's bundled basic-Latin font if the file is missing)."""
    if FONT_FILE.is_file():
        return ImageFont.truetype(str(FONT_FILE), size=size)
    return ImageFont.load_default(size=size)


def png_bytes(image: Image.Image) -> bytes:
    """Encode as PNG; a low compression level keeps encoding fast on the executor."""
    buf = io.BytesIO()
    image.save(buf, "PNG", compress_level=3)
    return buf.getvalue()


# -- text: names and labels keep what the font can draw, character by character -------------


def _cmap_codepoints(data: bytes) -> frozenset[int]:
    """The characters a TrueType/OpenType font maps to a glyph (its 'cmap' table, formats 4
    and 12), read without fontTools."""
    num_tables = int.from_bytes(data[4:6], "big")
    cmap = None
    for i in range(num_tables):
        rec = 12 + 16 * i
        if data[rec : rec + 4] == b"cmap":
            cmap = int.from_bytes(data[rec + 8 : rec + 12], "big")
    if cmap is None:
        return frozenset()
    u16 = lambda o: int.from_bytes(data[o : o + 2], "big")  # noqa: E731
    u32 = lambda o: int.from_bytes(data[o : o + 4], "big")  # noqa: E731
    subtables: dict[int, int] = {}  # format -> its offset
    for i in range(u16(cmap + 2)):
        rec = cmap + 4 + 8 * i
        sub = cmap + u32(rec + 4)
        if (u16(rec), u16(rec + 2)) in ((3, 10), (0, 4), (0, 6), (3, 1), (0, 3)):
            subtables.setdefault(u16(sub), sub)
    points: set[int] = set()
    if 12 in subtables:
        sub = subtables[12]
        for g in range(u32(sub + 12)):
            grp = sub + 16 + 12 * g
            start, end, glyph = u32(grp), u32(grp + 4), u32(grp + 8)
            points.update(range(start, end + 1) if glyph else range(start + 1, end + 1))
    elif 4 in subtables:
        sub = subtables[4]
        segs = u16(sub + 6) // 2
        ends, starts = sub + 14, sub + 16 + 2 * segs
        deltas, offsets = starts + 2 * segs, starts + 4 * segs
        for k in range(segs):
            start, end = u16(starts + 2 * k), u16(ends + 2 * k)
            delta, ro = u16(deltas + 2 * k), u16(offsets + 2 * k)
            for cp in range(start, min(end, 0xFFFE) + 1):
                if ro:
                    at = offsets + 2 * k + ro + 2 * (cp - start)
                    glyph = u16(at) and (u16(at) + delta) & 0xFFFF
                else:
                    glyph = (cp + delta) & 0xFFFF
                if glyph:
                    points.add(cp)
    return frozenset(points)


@lru_cache(maxsize=1)
def _font_chars() -> frozenset[int]:
    if FONT_FILE.is_file():
        return _cmap_codepoints(FONT_FILE.read_bytes())
    return frozenset(range(32, 127))


@lru_cache(maxsize=8192)
def drawable(ch: str) -> bool:
    """True when the shipped font has a glyph for `ch` and drawing it on its own makes sense
    (not a control, format or combining character)."""
    if unicodedata.combining(ch) or unicodedata.category(ch)[0] == "C":
        return False
    return ord(ch) in _font_chars()


@lru_cache(maxsize=4096)
def _stand_in(ch: str) -> str:
    """What to draw for a character the font lacks: its compatibility form if the font has it
    (a Kangxi radical copied from a PDF -> the kanji, ﬁ -> fi), else its letters without
    accents (ệ -> e), else nothing (emoji and other scripts are dropped, never drawn as boxes)."""
    compat = unicodedata.normalize("NFKC", ch)
    if compat != ch and compat.strip() and all(drawable(c) or c == " " for c in compat):
        return compat
    return "".join(c for c in unicodedata.normalize("NFKD", ch) if drawable(c))


def clean_text(text: object, fallback: str = "") -> str:
    """Keep what the font can draw: long dashes become '-', characters the font lacks get a
    stand-in or are dropped, runs of spaces folded; `fallback` when nothing is left."""
    s = str(text if text is not None else "").replace("—", "-").replace("–", "-").replace("’", "'")
    s = unicodedata.normalize("NFC", s)
    out = "".join(" " if ch.isspace() else ch if drawable(ch) else _stand_in(ch) for ch in s)
    return " ".join(out.split()) or fallback


def player_name(names: list[str], seat: int) -> str:
    """A seat's name as the images show it ("P3" when the name has nothing drawable)."""
    raw = names[seat] if 0 <= seat < len(names) else ""
    return clean_text(raw, fallback=tx("P{n}", n=seat + 1))


def fit(text: str, size: int, width: float) -> str:
    """Cut `text` (adding '…') until it fits in `width` pixels at font `size`."""
    f = font(size)
    if f.getlength(text) <= width:
        return text
    while len(text) > 1 and f.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in "WF"


# Characters a Japanese line must not begin with (the common kinsoku set).
_NO_LINE_START = frozenset("ー、。，．・：；？！」』）］｝〉》ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々ゝゞヽヾ")


def _pieces(word: str, f: Any, width: float) -> list[str]:
    """A word as wrap() places it: whole, or, if it is too long and has wide (CJK) characters
    (Japanese puts no spaces between words), cut between characters."""
    if f.getlength(word) <= width or not any(_wide(ch) for ch in word):
        return [word]
    pieces, cur = [], ""
    for ch in word:
        if cur and f.getlength(cur + ch) > width:
            if ch in _NO_LINE_START and len(cur) > 1:  # kinsoku: "ー", "。"... never open a line
                pieces.append(cur[:-1])
                cur = cur[-1] + ch
            else:
                pieces.append(cur)
                cur = ch
        else:
            cur += ch
    return pieces + [cur] if cur else pieces


def wrap(text: str, size: int, width: float, max_lines: int | None = None) -> list[str]:
    """Break `text` into lines of at most `width` pixels; the last kept line ends in '…' if cut."""
    f = font(size)
    lines: list[str] = []
    line = ""
    for word in text.split():
        for piece in _pieces(word, f, width):
            trial = f"{line} {piece}".strip()
            if f.getlength(trial) <= width or not line:
                line = trial
            else:
                lines.append(line)
                line = piece
    if line:
        lines.append(line)
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = fit(lines[-1] + " …", size, width)
    return [fit(x, size, width) for x in lines]


# -- phone width: what each image's texts and labels look like at Discord's phone preview ------

PHONE_W = 390  # px: the width Discord's phone client shows an image at
MIN_PHONE_TEXT = 11  # px: the smallest em size a text may have once the image is that wide

# While a `recording()` block runs, every text a renderer draws through `Draw` (and every name
# label it places with `note_label`) is written down, so tests can measure them honestly.
_RECORD: ContextVar[list | None] = ContextVar("render_record", default=None)


@contextmanager
def recording() -> Iterator[list[dict]]:
    """Collect {"kind": "text", "text", "size", "box", "image_w"} for each text drawn and
    {"kind": "label" or "car", "box", "image_w"} for each placed label / car in this block."""
    out: list[dict] = []
    token = _RECORD.set(out)
    try:
        yield out
    finally:
        _RECORD.reset(token)


@contextmanager
def not_recording() -> Iterator[None]:
    """Draw something that is not part of the image being recorded (a cached calibration)."""
    token = _RECORD.set(None)
    try:
        yield
    finally:
        _RECORD.reset(token)


def min_font(width: int) -> int:
    """The smallest font size an image `width` px wide may use (MIN_PHONE_TEXT at PHONE_W)."""
    return -(-MIN_PHONE_TEXT * width // PHONE_W)


def note_label(box: tuple[float, float, float, float], image_w: int, kind: str = "label") -> None:
    """Write down a placed name label (or, kind="car", the circle a car fills, as its box)."""
    rec = _RECORD.get()
    if rec is not None:
        rec.append({"kind": kind, "box": tuple(box), "image_w": image_w})


def note_text(image_w: int, xy, text: str, fnt: Any, anchor: str | None, stroke: int = 0) -> None:
    rec = _RECORD.get()
    if rec is None or not str(text).strip():
        return
    size = getattr(fnt, "size", 10)
    left, top, right, bottom = fnt.getbbox(text, anchor=anchor or "la", stroke_width=stroke)
    rec.append(
        {
            "kind": "text",
            "text": text,
            "size": size,
            "image_w": image_w,
            "box": (xy[0] + left, xy[1] + top, xy[0] + right, xy[1] + bottom),
        }
    )


class Draw(ImageDraw.ImageDraw):
    """ImageDraw that writes down what it draws while `recording()` is on."""

    def text(self, xy, text, fill=None, font=None, anchor=None, *args, **kwargs):  # noqa: A002
        note_text(self.im.size[0], xy, text, font, anchor, int(kwargs.get("stroke_width") or 0))
        return super().text(xy, text, fill, font, anchor, *args, **kwargs)


@lru_cache(maxsize=4096)  # a few KB each: names, numbers and captions repeat on every image
def text_mask(text: str, size: int, anchor: str | None = None, stroke: int = 0) -> tuple[Image.Image, int, int]:
    """A line of text's coverage mask, drawn once, and its left and top from the anchor point."""
    f = font(size)
    left, top, right, bottom = f.getbbox(text, anchor=anchor or "la", stroke_width=stroke)
    mask = Image.new("L", (max(1, int(right - left)), max(1, int(bottom - top))))
    ImageDraw.Draw(mask).text(
        (-left, -top), text, font=f, fill=255, anchor=anchor or "la", stroke_width=stroke, stroke_fill=255
    )
    return mask, int(left), int(top)


class MaskDraw(Draw):
    """Draw whose single-colour lines of text come from cached masks (the same look in less time:
    drawing text was most of an image's cost)."""

    def __init__(self, image: Image.Image):
        super().__init__(image)
        self._target = image

    def text(
        self,
        xy,
        text,
        fill=None,
        font=None,
        anchor=None,
        spacing=4,
        align="left",  # noqa: A002
        direction=None,
        features=None,
        language=None,
        stroke_width=0,
        stroke_fill=None,
        *args,
        **kwargs,
    ):
        size = getattr(font, "size", None)
        if (
            args
            or kwargs
            or direction
            or features
            or language
            or size is None
            or not isinstance(fill, tuple)
            or "\n" in text
            or (stroke_width and stroke_fill not in (None, fill))
        ):
            return super().text(
                xy,
                text,
                fill,
                font,
                anchor,
                spacing,
                align,
                direction,
                features,
                language,
                stroke_width,
                stroke_fill,
                *args,
                **kwargs,
            )
        note_text(self._target.width, xy, text, font, anchor, int(stroke_width))
        mask, left, top = text_mask(text, size, anchor, int(stroke_width))
        self._target.paste(fill, (int(round(xy[0])) + left, int(round(xy[1])) + top), mask)
