"""What the AI knows of one game. Each game's module (bot/ai/<kind>.py) declares one `GameAI`, and
bot/ai/games.py lists them: the search (bot/ai/search.py) and the judgement (bot/ai/value.py) are
the same for every game and read a game's own parts from here, so a change to one game's AI leaves
the others' as they were (the arena keeps their games: bot/tools/arena.py code_fingerprint)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.games.base import Action, Engine, State


@dataclass(frozen=True)
class GameAI:
    # Each car's standing, higher is better and comparable between cars (bot/ai/value.py turns the
    # gaps into a share of the field beaten). Read on states redrawn from the seat's view only.
    score: Callable[[State], list[float]]
    # How big a lead in `score` is worth a sure place (designed): the standing between two cars is
    # a smooth function of their gap, so a look-ahead that ends before the finish still tells a
    # move that gains two spaces from one that gains none.
    scale: float
    # The look-ahead, in moves of any seat before the standing is judged.
    depth: int
    # Imagined games per strong decision: what one core plays in about a second (`python -m bot
    # arena` measures the decision times: ai_<game>_strong_decision_p95_s).
    playouts: int
    # Where a game plays in rounds every seat moves in, the look-ahead ends after so many rounds
    # instead, whatever the number of seats (`depth` still caps its moves).
    rounds: int | None = None
    # Moves that only step back through a choice being built: never the AI's (bot/ai/search.py
    # ai_options), which builds a choice straight on.
    navigation: tuple[str, ...] = ()
    # How every seat plays on in the look-ahead (None: the game's automatic player).
    policy: Callable[[Engine, State, int], Action] | None = None
    # Where a game can tell promising moves before looking ahead: how promising (the AI weighs the
    # most promising when there are too many to weigh all).
    promise: Callable[[State, int, Action], float] | None = None
    # A standing choice the AI makes before its first decision (Heat: its preferences), a move
    # through the commit path like any player's (None once it is made).
    standing: Callable[[State, int], Action | None] | None = None
    # A race-long plan, where a game has one: of the seat's options, the ones the searching levels
    # weigh, for the level named last, on a state redrawn from the seat's view (Pole Position: its
    # pit stops, tyres, points and where each move ends).
    plan: Callable[[State, int, list[Action], str], list[Action]] | None = None


def by_order(state: State) -> list[float]:
    """The race order, leader first (cars off the race are behind it)."""
    order = state["order"]
    return [float(-order.index(s)) if s in order else float(-len(order)) for s in range(len(order))]
