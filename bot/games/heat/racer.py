"""A random racer: the automatic player's card pick for an absent seat (engine.auto_action), and the
bench's random races."""

from __future__ import annotations

import random

import bot.games.heat.rules as rules
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
        return {"type": "submit", "cards": playable + heat[: k - n]}
    rand = rnd.random
    k = lo + int(rand() * (hi - lo + 1))
    # The i-th pick is uniform among the n - i cards still unpicked.
    pop = playable.pop
    picks = [pop(int(rand() * n))]
    while len(picks) < k:
        picks.append(pop(int(rand() * (n - len(picks)))))
    return {"type": "submit", "cards": picks}
