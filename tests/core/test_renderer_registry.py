"""Issue #29: each game's renderer is declared entry by entry (rendering.Renderer in
rendering/registry.py); the bot never probes a module for what it draws. The registry names every
registered game and every drawing its module has."""

from __future__ import annotations

import importlib

from bot.games.registry import engines
from rendering import Renderer
from rendering.registry import RENDERERS

ENTRIES = {"board": "render_board", "hand": "render_hand", "results": "render_results", "boards": "render_boards"}


def test_every_game_has_its_renderer_with_every_drawing_its_module_has():
    assert set(RENDERERS) == set(engines())
    for kind, entry in RENDERERS.items():
        module = importlib.import_module(f"rendering.{kind}")
        for field, name in ENTRIES.items():
            assert getattr(entry, field) is getattr(module, name, None), (kind, field)


def test_a_post_is_the_board_or_boards_and_at_the_end_the_results():
    def draw(word):
        return lambda view, names, locale: f"{word}:{view['n']}:{names[0]}:{locale}".encode()

    plain = Renderer(board=draw("board"), hand=draw("hand"))
    view = {"n": 1}
    assert plain.post_images(view, ["a"], "ja", over=True) == [b"board:1:a:ja"]
    full = Renderer(
        board=draw("board"),
        hand=draw("hand"),
        results=draw("results"),
        boards=lambda view, names, locale: [b"one", b"two"],
    )
    assert full.post_images(view, ["a"], "en", over=False) == [b"one", b"two"]
    assert full.post_images(view, ["a"], "en", over=True) == [b"one", b"two", b"results:1:a:en"]
