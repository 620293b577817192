"""Figures for `python -m bot bench` and by hand:

    .venv/bin/python -m bot.tools.bench.rallyman [seconds]

rallyman_turns_per_s: random full turns (plan, rolls, end of turn) on one core, over all stages;
rallyman_render_ms_p95: board images of random positions, 95th percentile.
"""

from __future__ import annotations

import random
import sys
import time

from bot.games.rallyman import board as B
from bot.games.rallyman.engine import ENGINE

_SKIP = ("add", "undo", "clear", "prefs")  # the builder and preferences: whole plans are what a random player picks


def random_rally(seed: int, seats: int, stage: str, on_state=None) -> tuple[dict, int]:
    """A random rally to the end; returns the final state and the number of turns played."""
    rnd = random.Random(seed)
    state = ENGINE.new_game({"stage": stage}, seats, seed)
    turns = moves = 0
    while not ENGINE.is_over(state):
        moves += 1
        if moves > 20000:
            raise RuntimeError(f"random rally {stage} seed {seed} does not end")
        seat = ENGINE.to_act(state)[0]
        before = sum(len(c["cards"]) for c in state["cars"])
        acts = [a for a in ENGINE.legal_actions(state, seat) if a["type"] not in _SKIP]
        state, _ = ENGINE.apply(state, seat, rnd.choice(acts))
        turns += sum(len(c["cards"]) for c in state["cars"]) - before
        if on_state is not None:
            on_state(state)
    return state, turns


def turns_per_second(seconds: float = 3.0) -> float:
    names = B.stage_names()
    start = time.process_time()
    turns = n = 0
    while True:
        _, t = random_rally(n, 1 + n % 6, names[n % len(names)])
        turns += t
        n += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return turns / elapsed


def render_ms_p95(samples: int = 40) -> float:
    from rendering.rallyman import render_board

    states: list[dict] = []
    names = B.stage_names()
    k = 0
    while len(states) < samples:
        rnd = random.Random(k)
        random_rally(
            k,
            4,
            names[k % len(names)],
            lambda st: states.append(st) if rnd.random() < 0.08 and len(states) < samples else None,
        )
        k += 1
    times = []
    for st in states:
        t = time.perf_counter()
        render_board(ENGINE.view(st, None), ["Alice", "Bob", "Carol", "Dave"], "en")
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return times[min(len(times) - 1, int(0.95 * len(times)))]


if __name__ == "__main__":
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"rallyman_turns_per_s: {turns_per_second(secs):.0f}")
    print(f"rallyman_render_ms_p95: {render_ms_p95():.0f}")
