"""How well each seat stands in a game that is not over yet: the AI's judgement at the end of a
short look-ahead. Each game gives a score per car (higher is better, comparable between cars);
the AI turns it into a share of the field beaten, like a place at the finish.

These read the whole state, but the AI only ever calls them on states it has redrawn from what
its seat may see (`Engine.redraw_hidden`), so they learn nothing hidden.
"""

from __future__ import annotations

import math

from bot.ai.games import AI
from bot.games.base import Engine, State


def _ahead(gap: float, scale: float) -> float:
    """How surely a car `gap` ahead (in score) stays ahead: 0.5 level, towards 1 far ahead."""
    return 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, -gap / scale))))


def share(engine: Engine, state: State, seat: int) -> float:
    """The seat's standing in [0, 1]: the share of the rest of the field it is ahead of, from the
    placings once the game is over (ties half), else from each game's score (bot/ai/game.py GameAI.score), smoothly.
    Alone in the field, its own score decides (a solo rally is a race against the clock)."""
    if engine.is_over(state):
        places = engine.placings(state)
        if places is not None and len(places) > 1:
            mine = places[seat]
            beaten = sum(1 if p > mine else 0.5 if p == mine else 0 for i, p in enumerate(places) if i != seat)
            return beaten / (len(places) - 1)
    game = AI[engine.kind]
    scores = game.score(state)
    if len(scores) <= 1:
        return 1.0 / (1.0 + max(0.0, -scores[0]) / 1000.0) if scores else 0.5
    score = scores[seat]
    return sum(_ahead(score - s, game.scale) for i, s in enumerate(scores) if i != seat) / (len(scores) - 1)
