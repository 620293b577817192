"""Pieces every renderer shares: player colours, fonts, PNG encoding."""
from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageFont

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
