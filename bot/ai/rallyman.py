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
# Playouts: the same 100 seeded 2-player races against the automatic player, strong won 0.56 with
# 100, 0.60 with 200, 0.64 with 400 (decision p95 1.1 s; depth 48 or scale 4 or a pace of 7 did not
# help); the engine got faster (#34), so 400 fit in the time a decision may take.
AI = GameAI(score=score, scale=8.0, depth=24, playouts=400, navigation=("undo", "clear"))
