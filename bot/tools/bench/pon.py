"""PON's public board, timed on seeded game states (issue #33: the slowest board, p95 <= 60 ms):

    .venv/bin/python -m bot.tools.bench.pon [samples]

Plays seeded random games (3 and 4 players, simulate.py's greedy players) and keeps a spread of
their states; each is drawn from the spectator view, as the thread's board is. Prints
pon_board_ms_p50, pon_board_ms_p95 (CPU time of the drawing process: steady on a shared machine),
pon_board_wall_ms_p95 (wall time: what a player waits on an idle machine), pon_board_kb (mean PNG size) and
pon_board_ratio_max (the tallest image's height / width)."""

from __future__ import annotations

import io
import random
import statistics
import sys
import time

from bot.games.pon.engine import ENGINE
from bot.games.pon.simulate import choose

NAMES = ["Alice", "Bob", "Carol", "Dave"]


def seeded_states(samples: int = 60) -> list[dict]:
    """`samples` states from seeded games: every few moves of games 0, 1, 2…"""
    states: list[dict] = []
    seed = 0
    while len(states) < samples:
        seats = 3 + seed % 2
        rnd = random.Random(seed)
        st = ENGINE.new_game({}, seats, seed)
        moves = 0
        while not ENGINE.is_over(st) and moves < 4000:
            seat = ENGINE.to_act(st)[0]
            st, _ = ENGINE.apply(st, seat, choose(st, seat, "greedy", rnd))
            moves += 1
            if moves % 17 == 0 and len(states) < samples:
                states.append(st)
        if len(states) < samples:
            states.append(st)  # the race over
        seed += 1
    return states


def board_figures(samples: int = 60) -> dict[str, float]:
    from PIL import Image

    from rendering.pon import render_board

    views = [ENGINE.view(st, None) for st in seeded_states(samples)]
    render_board(views[0], NAMES, "en")  # (fonts and caches loaded once, as in the running bot)
    times, walls, sizes, ratios = [], [], [], []
    for view in views:
        t, w0 = time.process_time(), time.perf_counter()
        png = render_board(view, NAMES, "en")
        times.append((time.process_time() - t) * 1000)
        walls.append((time.perf_counter() - w0) * 1000)
        sizes.append(len(png) / 1024)
        w, h = Image.open(io.BytesIO(png)).size
        ratios.append(h / w)
    times.sort()
    walls.sort()
    p95 = min(len(times) - 1, int(0.95 * len(times)))
    return {
        "p50_ms": statistics.median(times),
        "p95_ms": times[p95],
        "wall_p95_ms": walls[p95],
        "kb": statistics.mean(sizes),
        "ratio_max": max(ratios),
    }


if __name__ == "__main__":
    r = board_figures(int(sys.argv[1]) if len(sys.argv) > 1 else 60)
    print(f"pon_board_ms_p50: {r['p50_ms']:.1f} ms")
    print(f"pon_board_ms_p95: {r['p95_ms']:.1f} ms")
    print(f"pon_board_wall_ms_p95: {r['wall_p95_ms']:.1f} ms")
    print(f"pon_board_kb: {r['kb']:.0f} KB")
    print(f"pon_board_ratio_max: {r['ratio_max']:.2f}")
