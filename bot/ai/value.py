"""How well each seat stands in a game that is not over yet: the AI's judgement at the end of a
short look-ahead. Each game gives a score per car (higher is better, comparable between cars);
the AI turns it into a share of the field beaten, like a place at the finish.

These read the whole state, but the AI only ever calls them on states it has redrawn from what
its seat may see (`Engine.redraw_hidden`), so they learn nothing hidden.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from bot.ai import heat, pole_plan
from bot.games.base import Engine, State
from bot.games.rallyman import board as rally_board
from bot.games.steamworks.engine import ENGINE as STEAMWORKS


def _by_order(state: State) -> list[float]:
    """PON and Pole Position: the race order, leader first (cars off the race are behind it)."""
    order = state["order"]
    return [float(-order.index(s)) if s in order else float(-len(order)) for s in range(len(order))]


# Seconds a Rallyman car needs for one unit of stage length at a steady pace (designed: the par
# driver's time over a stage's length on the generated stages, rounded).
RALLY_PACE = 9.0


def _rallyman(state: State) -> list[float]:
    """Each car's time so far plus the rest of the stage at a steady pace (less is better)."""
    stage = rally_board.stage(state["stage"])
    out = []
    for car in state["cars"]:
        time = car["past"] + sum(c[1] for c in car["cards"])
        front = stage.spaces[car["sp"]].front if car["sp"] is not None else 0.0
        rest = 0.0 if car["fin"] else max(0.0, stage.length - front)
        out.append(-(time + rest * RALLY_PACE))
    return out


def _steamworks(state: State) -> list[float]:
    """The score as the game would count it now, money (the tie-break, and tomorrow's devices) a
    little."""
    return [r["total"] + 0.2 * state["players"][r["seat"]]["money"] for r in STEAMWORKS.scores(state)]


SCORES: dict[str, Callable[[State], list[float]]] = {
    "heat": heat.score,
    "pon": _by_order,
    "pole": pole_plan.score,
    "rallyman": _rallyman,
    "steamworks": _steamworks,
}


# How big a lead in each game's score is worth a sure place (designed): the standing between two
# cars is a smooth function of their gap, so a look-ahead that ends before the finish still tells
# a move that gains two spaces from one that gains none.
SCALE = {"heat": 6.0, "pon": 0.5, "pole": 10.0, "rallyman": 8.0, "steamworks": 2.0}


def _ahead(gap: float, scale: float) -> float:
    """How surely a car `gap` ahead (in score) stays ahead: 0.5 level, towards 1 far ahead."""
    return 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, -gap / scale))))


def share(engine: Engine, state: State, seat: int) -> float:
    """The seat's standing in [0, 1]: the share of the rest of the field it is ahead of, from the
    placings once the game is over (ties half), else from each game's score (SCORES), smoothly.
    Alone in the field, its own score decides (a solo rally is a race against the clock)."""
    if engine.is_over(state):
        places = engine.placings(state)
        if places is not None and len(places) > 1:
            mine = places[seat]
            beaten = sum(1 if p > mine else 0.5 if p == mine else 0 for i, p in enumerate(places) if i != seat)
            return beaten / (len(places) - 1)
    scores = SCORES[engine.kind](state)
    if len(scores) <= 1:
        return 1.0 / (1.0 + max(0.0, -scores[0]) / 1000.0) if scores else 0.5
    score = scores[seat]
    scale = SCALE.get(engine.kind, 1.0)
    return sum(_ahead(score - s, scale) for i, s in enumerate(scores) if i != seat) / (len(scores) - 1)
