"""Stand-in pictures for the end-to-end tests that never look at one: a board, a hand or a
game-end animation drawn for real costs far more CPU than the rest of a move (a whole Pole race:
8 of its 12 CPU seconds), and those tests only check that a post carries its images. A stand-in
renderer keeps each game's shape (a results image at the end where the game draws one, several
board images for Steam Works) and draws a blank 16 x 16 PNG at once; the stand-in animation is a
blank one-frame GIF. tests/core and tests/rendering test the drawings themselves; the modules
listed in conftest.REAL_IMAGES and REAL_ANIMATION look at the real ones end to end.

A bot run as a subprocess gets them too when started as
``python -m bot.tools.emulator.launch tests.e2e.standins bot``: this module installs them, then
runs the module named next as ``__main__`` (BOT_ARGV below)."""

from __future__ import annotations

import io
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


STAND_IN_IMAGE = _blank("PNG")
STAND_IN_ANIMATION = export.Drawn(
    data=_blank("GIF"), format="gif", frames=1, boards=1, size=(16, 16), seconds=0.0, whole=True
)


def _image(view: dict[str, Any], names: list[str], locale: str) -> bytes:
    return STAND_IN_IMAGE


def _images(view: dict[str, Any], names: list[str], locale: str) -> list[bytes]:
    return [STAND_IN_IMAGE, STAND_IN_IMAGE]


def stand_in_renderer(kind: str) -> Renderer:
    """The game's renderer with every drawing a blank PNG, in the real one's shape."""
    real = real_renderer(kind)
    return Renderer(
        board=_image,
        hand=_image,
        results=_image if real.results is not None else None,
        boards=_images if real.boards is not None else None,
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
