"""The AI's Steam Works: judged by the score as the game would count it now; the look-ahead plays
the automatic player (greedy)."""

from __future__ import annotations

from bot.ai.game import GameAI
from bot.games.base import State
from bot.games.steamworks.engine import ENGINE as STEAMWORKS


def score(state: State) -> list[float]:
    """The score as the game would count it now, money (the tie-break, and tomorrow's devices) a
    little."""
    return [r["total"] + 0.2 * state["players"][r["seat"]]["money"] for r in STEAMWORKS.scores(state)]


# A machine is built tile by tile: taking a tile back, or picking a tile before its place and back,
# only steps back. A look-ahead cannot tell "lay, then take it back" from laying once, so the
# strong seat laid and took back the same tile for ever (an arena game ran 20000 moves).
AI = GameAI(score=score, scale=2.0, depth=20, playouts=80, navigation=("undo", "tile"))
