"""How well each seat stands in a game that is not over yet: the AI's judgement at the end of a
short look-ahead. Each game gives a score per car (higher is better, comparable between cars);
the AI turns it into a share of the field beaten, like a place at the finish.

These read the whole state, but the AI only ever calls them on states it has redrawn from what
its seat may see (`Engine.redraw_hidden`), so they learn nothing hidden.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from bot.games.base import Engine, State
from bot.games.heat import rules as heat_rules
from bot.games.rallyman import board as rally_board
from bot.games.steamworks.engine import ENGINE as STEAMWORKS


# What a Heat card left in the Engine is worth, in spaces (designed: a Heat card pays for a boost,
# a shift of two gears or a corner taken too fast, each worth a space or more), while the finish is
# more than HEAT_HORIZON spaces away; nearer, Heat left over is worth less and less (at the finish
# line, nothing). Without it the look-ahead spent the Engine in the first laps and crawled in gear
# 1 for the rest of the race (a solo race against 3 Legends: 4th, 10 rounds with an empty Engine).
HEAT_WORTH = 1.0
HEAT_HORIZON = 24


def _heat(state: State) -> list[float]:
    """Every car, Legends too: a finished car by its place, a racing one by how far it has come,
    and the Heat left in its Engine (Legends have none)."""
    finish = heat_rules.track_of(state).finish
    out = []
    for c in state["cars"]:
        if c["fin"] and c["place"]:
            out.append(10_000 - c["place"])
            continue
        pos = float(c["pos"])
        out.append(pos + HEAT_WORTH * len(c["engine"]) * min(1.0, max(0.0, finish - pos) / HEAT_HORIZON))
    return out


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
    "heat": _heat,
    "pon": _by_order,
    "pole": _by_order,
    "rallyman": _rallyman,
    "steamworks": _steamworks,
}


# How big a lead in each game's score is worth a sure place (designed): the standing between two
# cars is a smooth function of their gap, so a look-ahead that ends before the finish still tells
# a move that gains two spaces from one that gains none.
SCALE = {"heat": 6.0, "pon": 0.5, "pole": 0.5, "rallyman": 8.0, "steamworks": 2.0}


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
