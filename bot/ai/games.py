"""Every game's AI parts (bot/ai/game.py GameAI), by the engine's kind."""

from __future__ import annotations

from collections.abc import Callable

from bot.ai import heat, pole, pon, rallyman, steamworks
from bot.ai.game import GameAI
from bot.games.base import Action, Engine, State

AI: dict[str, GameAI] = {
    "heat": heat.AI,
    "pon": pon.AI,
    "pole": pole.AI,
    "rallyman": rallyman.AI,
    "steamworks": steamworks.AI,
}


def _auto(engine: Engine, state: State, seat: int) -> Action:
    return engine.auto_action(state, seat)


def policy(engine: Engine) -> Callable[[Engine, State, int], Action]:
    """How every seat plays on in the game's look-ahead: its own policy, else the automatic player."""
    return AI[engine.kind].policy or _auto
