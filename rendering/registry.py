"""Each game's renderer (rendering.Renderer), named entry by entry: the one place the bot finds
how a game is drawn."""

from __future__ import annotations

from rendering import Renderer, heat, pole, pon, rallyman, steamworks

RENDERERS: dict[str, Renderer] = {
    "heat": Renderer(board=heat.render_board, hand=heat.render_hand, results=heat.render_results),
    "pon": Renderer(board=pon.render_board, hand=pon.render_hand, results=pon.render_results),
    "pole": Renderer(board=pole.render_board, hand=pole.render_hand, results=pole.render_results),
    "rallyman": Renderer(board=rallyman.render_board, hand=rallyman.render_hand, results=rallyman.render_results),
    "steamworks": Renderer(
        board=steamworks.render_board,
        hand=steamworks.render_hand,
        results=steamworks.render_results,
        boards=steamworks.render_boards,
    ),
}


def renderer(kind: str) -> Renderer:
    """The renderer of a game kind (KeyError: no such game)."""
    return RENDERERS[kind]
