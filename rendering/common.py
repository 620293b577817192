"""Pieces every renderer shares: player colours, fonts, PNG encoding."""
from __future__ import annotations

import io
import unicodedata
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
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
    (230, 57, 70),    # red
    (29, 120, 226),   # blue
    (255, 183, 3),    # yellow
    (42, 157, 80),    # green
    (155, 89, 182),   # purple
    (245, 130, 32),   # orange
]
BACKGROUND = (32, 34, 37)
PANEL = (47, 49, 54)
TEXT = (235, 235, 235)
MUTED = (150, 152, 158)


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font, so no font file has to be installed."""
    return ImageFont.load_default(size=size)


def png_bytes(image: Image.Image) -> bytes:
    """Encode as PNG; a low compression level keeps encoding fast on the executor."""
    buf = io.BytesIO()
    image.save(buf, "PNG", compress_level=3)
    return buf.getvalue()


# -- text: the bundled font draws basic Latin only, so names and labels are cleaned first --------

@lru_cache(maxsize=4096)
def _glyph(ch: str) -> bytes:
    im = Image.new("L", (40, 40))
    ImageDraw.Draw(im).text((4, 4), ch, font=font(20), fill=255)
    return im.tobytes()


@lru_cache(maxsize=4096)
def drawable(ch: str) -> bool:
    """True when the bundled font has a glyph for `ch` (not the missing-glyph box)."""
    if unicodedata.combining(ch):
        return False
    return 32 <= ord(ch) < 127 or _glyph(ch) != _glyph("\uffff")


def clean_text(text: object, fallback: str = "") -> str:
    """Keep what the font can draw: dashes become '-', accents are stripped (é -> e), other
    characters dropped, runs of spaces folded; `fallback` when nothing is left."""
    s = str(text if text is not None else "").replace("—", "-").replace("–", "-").replace("’", "'")
    s = unicodedata.normalize("NFKD", s)
    return " ".join("".join(ch for ch in s if drawable(ch)).split()) or fallback


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


def wrap(text: str, size: int, width: float, max_lines: int | None = None) -> list[str]:
    """Break `text` into lines of at most `width` pixels; the last kept line ends in '…' if cut."""
    f = font(size)
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if f.getlength(trial) <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = fit(lines[-1] + " …", size, width)
    return [fit(x, size, width) for x in lines]
