"""How the AI imagines every seat playing on in a look-ahead: a game's automatic player, or where
that is too weak to judge by, something better. Heat's automatic player submits a random gear and
cards, so a look-ahead with it says little about a move; the AI's Heat racer (bot/ai/heat.py)
weighs a few plans per gear and keeps the one worth the most spaces, the Heat it spends and cools
counted."""

from __future__ import annotations

from collections.abc import Callable

from bot.ai import heat, pole_plan
from bot.games.base import Action, Engine, State


def _heat(engine: Engine, state: State, seat: int) -> Action:
    if state["phase"] != "submit":
        return engine.auto_action(state, seat)
    return heat.best_plan(state, seat) or engine.auto_action(state, seat)


POLICIES: dict[str, Callable[[Engine, State, int], Action]] = {"heat": _heat, "pole": pole_plan.policy}
# Where a game can tell promising moves before looking ahead, the AI weighs the most promising.
PROMISE: dict[str, Callable[[State, int, Action], float]] = {"heat": heat.promise}
# Standing choices the AI makes before its first decision (Heat: its preferences), where a game
# has them: a move through the commit path like any player's (None once they are made).
STANDING: dict[str, Callable[[State, int], Action | None]] = {"heat": heat.standing}
# A race-long plan, where a game has one: of the seat's options, the ones the searching levels weigh,
# for the level named last (Pole Position: its pit stops, tyres, points and where each move ends,
# bot/ai/pole_plan.py).
PLANS: dict[str, Callable[[State, int, list[Action], str], list[Action]]] = {"pole": pole_plan.allowed}


def policy(engine: Engine) -> Callable[[Engine, State, int], Action]:
    return POLICIES.get(engine.kind, lambda e, s, seat: e.auto_action(s, seat))
