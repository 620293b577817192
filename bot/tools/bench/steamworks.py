"""Figures for Steam Works by hand (`name: value unit` lines):

    .venv/bin/python -m bot.tools.bench.steamworks [games]

On real game states: seeded 3-player games played to the end by the simulator's greedy players,
every 4th state sampled (a table from its first round to its last, dozens of devices late on).
steamworks_board_ms_*: the thread's images (the table and the workshops, render_boards);
steamworks_hand_ms_*: the DM of the seat to act (render_hand); their largest size and height;
steamworks_clicks_per_build: the choices from the Workbench to a finished device, laid tile by
tile (the Workbench, each tile, its tile-first choice where more lays than a select holds, the
confirm) and now (the Workbench and one whole device where they are offered).
"""

from __future__ import annotations

import io
import random
import sys
import time
from typing import Any, Callable

from bot.games.steamworks.engine import ENGINE as E
from bot.games.steamworks.simulate import GREEDY, choose

NAMES = ["alice", "bob", "carol"]


def game_states(games: int = 4, every: int = 4, seed: int = 1) -> list[dict[str, Any]]:
    out = []
    for g in range(games):
        rnd = random.Random(seed + g)
        st = E.new_game({}, 3, seed + g)
        k = 0
        while not E.is_over(st):
            (seat,) = E.to_act(st)
            if k % every == 0:
                out.append(st)
            st, _ = E.apply(st, seat, choose(st, seat, rnd, GREEDY))
            k += 1
        out.append(st)
    return out


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


def timed(states: list[dict], draw: Callable[[dict], list[bytes]]) -> dict[str, float]:
    draw(states[-1])  # warm-up: fonts and cached tiles
    times, kb, px = [], 0.0, 0
    for st in states:
        t = time.perf_counter()
        images = draw(st)
        times.append((time.perf_counter() - t) * 1000)
        kb = max(kb, sum(len(b) for b in images) / 1024)
        from PIL import Image

        px = max(px, max(Image.open(io.BytesIO(b)).height for b in images))
    return {"p50": pct(times, 0.5), "p95": pct(times, 0.95), "kb": kb, "px": px}


def board(renderer: Any) -> Callable[[dict], list[bytes]]:
    if hasattr(renderer, "render_boards"):
        return lambda st: renderer.render_boards(E.view(st, None), NAMES)
    return lambda st: [renderer.render_board(E.view(st, None), NAMES)]


def hand(renderer: Any) -> Callable[[dict], list[bytes]]:
    def draw(st: dict) -> list[bytes]:
        seat = E.to_act(st)[0] if not E.is_over(st) else 0
        return [renderer.render_hand(E.view(st, seat), NAMES)]

    return draw


def clicks_per_build(games: int = 6, seed: int = 1) -> tuple[float, float]:
    """Mean choices per new device, tile by tile and now, over the builds of seeded games."""
    before = after = builds = 0
    for g in range(games):
        rnd = random.Random(seed + g)
        st = E.new_game({}, 3, seed + g)
        while not E.is_over(st):
            (seat,) = E.to_act(st)
            b = st["build"]
            if st["phase"] == "build" and b["mode"] == "new" and not b["placed"]:
                builds += 1
                by_tile = 1 + 1  # the space or effect that starts it, and the confirm
                probe = st
                while probe["build"]["left"]:
                    acts = E.legal_actions(probe, seat)
                    by_tile += 1 + (len([a for a in acts if a["type"] == "lay"]) > 25)  # tile first
                    probe, _ = E.apply(probe, seat, next(a for a in acts if a["type"] == "lay"))
                before += by_tile
                plans = [a for a in E.legal_actions(st, seat) if a["type"] == "plan"]
                after += 2 if plans else by_tile
            st, _ = E.apply(st, seat, choose(st, seat, rnd, GREEDY))
    return before / max(1, builds), after / max(1, builds)


def main(argv: list[str]) -> None:
    import rendering.steamworks as R

    states = game_states(int(argv[0]) if argv else 4)
    print(f"steamworks_states: {len(states)} states")
    for name, draw in (("board", board(R)), ("hand", hand(R))):
        r = timed(states, draw)
        print(f"steamworks_{name}_ms_p50: {r['p50']:.1f} ms")
        print(f"steamworks_{name}_ms_p95: {r['p95']:.1f} ms")
        print(f"steamworks_{name}_kb_max: {r['kb']:.0f} KB")
        print(f"steamworks_{name}_px_max: {r['px']} px")
    b, a = clicks_per_build()
    print(f"steamworks_clicks_per_build_tile_by_tile: {b:.2f} clicks")
    print(f"steamworks_clicks_per_build: {a:.2f} clicks")


if __name__ == "__main__":
    main(sys.argv[1:])
