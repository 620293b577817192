"""How the AI imagines every seat playing on in a look-ahead: a game's automatic player, or where
that is too weak to judge by, something better. Heat's automatic player submits a random gear and
cards, so a look-ahead with it says little about a move; the AI's Heat racer draws a few random
submissions and keeps the one that takes the car farthest without a spin (Heat spent counts
against it)."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.games.base import Action, Engine, State
from bot.games.heat import plans as heat_plans
from bot.games.heat import rules as heat_rules
from bot.games.heat.racer import random_submission

HEAT_DRAWS = 6  # random submissions weighed per decision (designed: enough to avoid the worst)


def _heat_promise(state: State, seat: int, action: Action) -> float:
    """How good a submission looks before any look-ahead: spaces gained, less the Heat it costs,
    a spin much worse (other moves: no opinion)."""
    if action.get("type") != "submit" or state["phase"] != "submit":
        return 0.0
    reach = heat_plans.reach(state, seat, action["cards"])
    if reach is None:
        return -20.0
    return reach[0] - 0.5 * reach[1] - (8 if reach[1] > reach[2] else 0)


def _heat(engine: Engine, state: State, seat: int) -> Action:
    if state["phase"] != "submit":
        return engine.auto_action(state, seat)
    rnd = random.Random(state["rng"] ^ (seat * 7919 + state["round"]))
    car = state["cars"][seat]
    best, best_score = None, float("-inf")
    for _ in range(HEAT_DRAWS):
        act = random_submission(state, seat, rnd)
        if heat_rules.check_submission(state, car, act["cards"]) is not None:
            continue
        score = _heat_promise(state, seat, act)
        if score > best_score:
            best, best_score = act, score
    return best if best is not None else engine.auto_action(state, seat)


POLICIES: dict[str, Callable[[Engine, State, int], Action]] = {"heat": _heat}
# Where a game can tell promising moves before looking ahead, the AI weighs the most promising.
PROMISE: dict[str, Callable[[State, int, Action], float]] = {"heat": _heat_promise}


def policy(engine: Engine) -> Callable[[Engine, State, int], Action]:
    return POLICIES.get(engine.kind, lambda e, s, seat: e.auto_action(s, seat))
