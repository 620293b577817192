"""Pillow renderers: a game's public (or one seat's) view -> PNG bytes. Run off the event loop.

Every game's renderer provides the entries of `Renderer`; rendering/registry.py names each game's
explicitly (nothing is found by probing a module for its functions)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# (view, the seats' names, locale) -> one image (PNG, WebP...).
Draw = Callable[[dict[str, Any], list[str], str], bytes]


@dataclass(frozen=True)
class Renderer:
    """What a game's renderer draws, each from a view made by its engine."""

    board: Draw  # the public board: the thread's posts, replays, /game status
    hand: Draw  # one seat's own view: its DMs and "My hand"
    # The standings drawn once more at the end, after the last board. None: the game draws none.
    results: Draw | None = None
    # A board post of several images (Steam Works: one per player's board). None: [board].
    boards: Callable[[dict[str, Any], list[str], str], list[bytes]] | None = None

    def post_images(self, view: dict[str, Any], names: list[str], locale: str, over: bool) -> list[bytes]:
        """The images of one board post: the board (or boards), and at the end the results."""
        images = (
            list(self.boards(view, names, locale)) if self.boards is not None else [self.board(view, names, locale)]
        )
        if over and self.results is not None:
            images.append(self.results(view, names, locale))
        return images
