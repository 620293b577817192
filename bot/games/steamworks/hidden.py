"""What a seat cannot see in Steam Works, dealt again at random (`Engine.redraw_hidden`): the
order of each age's face-down stack (and the dice to come)."""

from __future__ import annotations

import random

from bot.games.base import clone


def redraw(state: dict, seat: int, seed: int) -> dict:
    st = clone(state)
    rng = random.Random(seed)
    for age in sorted(st["stacks"]):
        stack = sorted(st["stacks"][age])
        rng.shuffle(stack)
        st["stacks"][age] = stack
    st["rng"] = rng.getrandbits(63)
    return st
