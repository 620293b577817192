"""Throughput check: random full 6-player races on one core.

.venv/bin/python -m bot.tools.bench.heat [seconds]
"""

from __future__ import annotations

import random
import sys
import time

from bot.games.heat.engine import ENGINE
from bot.games.heat.racer import random_submission


def play_random_race(seed: int, seats: int = 6, track: str = "usa", max_rounds: int = 500) -> dict:
    rnd = random.Random(seed)
    state = ENGINE.new_game({"track": track}, seats, seed)
    while not ENGINE.is_over(state) and state["round"] <= max_rounds:
        for seat in ENGINE.to_act(state):
            if state["phase"] == "submit":
                action = random_submission(state, seat, rnd)
            else:
                action = rnd.choice([a for a in ENGINE.legal_actions(state, seat) if a["type"] != "prefs"])
            state, _ = ENGINE.apply(state, seat, action)
    return state


def races_per_second(seconds: float = 3.0) -> float:
    tracks = ("usa", "france", "great_britain", "italy")
    start = time.process_time()
    n = 0
    while True:
        play_random_race(n, 6, tracks[n % 4])
        n += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return n / elapsed


if __name__ == "__main__":
    print(f"{races_per_second(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0):.1f} races/s")
