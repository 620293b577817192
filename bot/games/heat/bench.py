"""Throughput check: random full 6-player races on one core.

    .venv/bin/python -m bot.games.heat.bench [seconds]
"""
from __future__ import annotations

import random
import sys
import time

from bot.games.heat import rules
from bot.games.heat.engine import ENGINE
from bot.games.heat.rules import MAX_GEAR, PLAYABLE


def random_submission(state: dict, seat: int, rnd: random.Random) -> dict:
    """A uniformly random legal gear, then random cards for it (no enumeration of every set)."""
    car = state["cars"][seat]
    cards = state["cards"]
    playable = [c for c in car["hand"] if PLAYABLE[cards[c]]]
    n = len(playable)
    g = car["gear"]
    d = 2 if car["engine"] else 1
    lo, hi = max(1, g - d), min(MAX_GEAR, g + d, n)
    if hi < lo:  # clogged hand: every non-Heat card plus Heat cards
        _, clogged = rules.fillable_gears(state, car)
        k = rnd.choice(clogged)
        heat = [c for c in car["hand"] if not PLAYABLE[cards[c]]]
        return {"type": "submit", "cards": playable + heat[:k - n]}
    rand = rnd.random
    k = lo + int(rand() * (hi - lo + 1))
    # The i-th pick is uniform among the n - i cards still unpicked.
    return {"type": "submit", "cards": [playable.pop(int(rand() * (n - i))) for i in range(k)]}


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
