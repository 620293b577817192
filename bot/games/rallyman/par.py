"""Solo par times: each stage driven by the par driver (driver.py), the mean of several runs.

    .venv/bin/python -m bot.games.rallyman.par [runs]   (rewrites data/rallyman/par.json)

The game reads the par times with rules.par_times; this module measures them."""

from __future__ import annotations

import json
import sys

import bot.games.rallyman.board as B
from bot.games.rallyman.driver import LOSS_SECONDS, PAR, Driver, good_action
from bot.games.rallyman.engine import ENGINE
from bot.games.rallyman.rules import PAR_FILE
from bot.games.rallyman.rules import par_times as load

__all__ = ["LOSS_SECONDS", "PAR", "PAR_FILE", "Driver", "compute", "good_action", "load", "run"]


def run(stage: str, seed: int, driver: Driver = PAR) -> int:
    """One solo stage (or rally) by the driver, asked before every die; its total time."""
    state = ENGINE.new_game({"stage": stage}, 1, seed)
    state, _ = ENGINE.apply(state, 0, {"type": "prefs", "dice": "ask"})
    while not ENGINE.is_over(state):
        state, _ = ENGINE.apply(state, 0, driver.action(state, 0))
    return int(state["result"]["totals"][0])


def compute(runs: int = 8) -> dict[str, int]:
    """Each stage's par time: the mean of `runs` seeded solo runs."""
    return {name: round(sum(run(name, 100 + k) for k in range(runs)) / runs) for name in B.stage_names()}


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    PAR_FILE.write_text(
        json.dumps(
            {
                "about": f"designed: solo par times in seconds, the mean of {n} runs of the par driver "
                "in bot/games/rallyman/driver.py (no source gives par times)",
                "par": compute(n),
            },
            indent=1,
        )
        + "\n"
    )
