"""Stand-in pictures for the end-to-end tests that never look at one: a board, a hand or a
game-end animation drawn for real costs far more CPU than the rest of a move (a whole Pole race:
8 of its 12 CPU seconds), and those tests only check that a post carries its images. A stand-in
renderer keeps each game's shape (a results image at the end where the game draws one, several
board images for Steam Works) and draws a 16 x 16 PNG at once, the same for the same view and
another for another (a thread post's nonce hashes its images: two boards must not look alike); the
stand-in animation is a blank one-frame GIF. tests/core and tests/rendering test the drawings themselves; the modules
listed in conftest.REAL_IMAGES and REAL_ANIMATION look at the real ones end to end.

A bot run as a subprocess gets them too when started as
``python -m bot.tools.emulator.launch tests.e2e.standins bot``: this module installs them, then
runs the module named next as ``__main__`` (BOT_ARGV below)."""

from __future__ import annotations

import hashlib
import io
import json
import runpy
import sys
from typing import Any

from PIL import Image

import bot.delivery
from bot import export
from rendering import Renderer
from rendering.registry import renderer as real_renderer

# argv of a bot subprocess started with the stand-ins (for BotProcess / start_bot_subprocess)
BOT_ARGV = ["tests.e2e.standins", "bot"]


def _blank(fmt: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (16, 16), "white").save(out, fmt)
    return out.getvalue()


STAND_IN_ANIMATION = export.Drawn(
    data=_blank("GIF"), format="gif", frames=1, boards=1, size=(16, 16), seconds=0.0, whole=True
)


def stand_in_image(view: dict[str, Any], names: list[str], locale: str, part: str = "") -> bytes:
    """A 16 x 16 PNG whose pixels are a digest of what it stands for."""
    key = json.dumps([part, view, names, locale], sort_keys=True, default=str).encode()
    pixels = hashlib.blake2b(key, digest_size=48).digest()  # 16 RGB pixels: the first row
    image = Image.new("RGB", (16, 16), "white")
    image.putdata([tuple(pixels[i : i + 3]) for i in range(0, 48, 3)])
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=1)
    return out.getvalue()


def _board(view: dict[str, Any], names: list[str], locale: str) -> bytes:
    return stand_in_image(view, names, locale, "board")


def _hand(view: dict[str, Any], names: list[str], locale: str) -> bytes:
    return stand_in_image(view, names, locale, "hand")


def _results(view: dict[str, Any], names: list[str], locale: str) -> bytes:
    return stand_in_image(view, names, locale, "results")


def _boards(view: dict[str, Any], names: list[str], locale: str) -> list[bytes]:
    return [stand_in_image(view, names, locale, "board"), stand_in_image(view, names, locale, "workshops")]


def stand_in_renderer(kind: str) -> Renderer:
    """The game's renderer with every drawing a blank PNG, in the real one's shape."""
    real = real_renderer(kind)
    return Renderer(
        board=_board,
        hand=_hand,
        results=_results if real.results is not None else None,
        boards=_boards if real.boards is not None else None,
    )


async def stand_in_draw(*args: Any, **kwargs: Any) -> export.Drawn:
    return STAND_IN_ANIMATION


def install() -> None:
    """Every board, hand and animation the bot of this process draws is a stand-in."""
    bot.delivery.renderer = stand_in_renderer
    export.ANIMATOR.draw = stand_in_draw


if __name__ == "__main__":
    install()
    sys.argv = sys.argv[1:]
    runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
