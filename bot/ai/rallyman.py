"""The AI's Rallyman: DIRT: judged by each car's time so far plus the rest of the stage at a steady
pace; the look-ahead plays the automatic player (the steady driver)."""

from __future__ import annotations

from bot.ai.game import GameAI
from bot.games.base import State
from bot.games.rallyman import board as rally_board

# Seconds a Rallyman car needs for one unit of stage length at a steady pace (designed: the par
# driver's time over a stage's length on the generated stages, rounded).
RALLY_PACE = 9.0


def score(state: State) -> list[float]:
    """Each car's time so far plus the rest of the stage at a steady pace (less is better)."""
    stage = rally_board.stage(state["stage"])
    out = []
    for car in state["cars"]:
        time = car["past"] + sum(c[1] for c in car["cards"])
        front = stage.spaces[car["sp"]].front if car["sp"] is not None else 0.0
        rest = 0.0 if car["fin"] else max(0.0, stage.length - front)
        out.append(-(time + rest * RALLY_PACE))
    return out


# A move is built die by die: taking the last die back or clearing the plan only steps back.
AI = GameAI(score=score, scale=8.0, depth=24, playouts=100, navigation=("undo", "clear"))
