"""Random stages from the core box: a start tile, `length` road tiles, a finish tile, laid edge to
edge on the hex grid, never overlapping, each physical tile (number) at most once, one side up.

A generated stage is named "Random <length> #<seed>", so the name alone rebuilds it (replays)."""

from __future__ import annotations

import re

import bot.games.rallyman.tiles as B
from bot.games.rng import Rng

NAME = re.compile(r"^Random (\d{1,2}) #(\d{1,19})$")
MIN_LEN, MAX_LEN = 4, 20
CORE = range(204, 233)  # road tiles of the core box (202 start, 203 finish, 201 the service park)


def name_for(length: int, seed: int) -> str:
    return f"Random {length} #{seed}"


def parse(name: str) -> tuple[int, int] | None:
    m = NAME.match(name)
    if not m:
        return None
    length, seed = int(m[1]), int(m[2])
    if not MIN_LEN <= length <= MAX_LEN:
        return None
    return length, seed


def _place(tile: B.Tile, entry: str, q: int, r: int, facing: int) -> tuple[int, str, int, int, int]:
    """Rotation so that local edge `entry` faces world direction `facing`; the exit edge, its
    world direction and the next hex."""
    rot = (facing - B.EDGES.index(entry)) % 6
    exit_ = tile.edges[1] if entry == tile.edges[0] else tile.edges[0]
    w = (rot + B.EDGES.index(exit_)) % 6
    dq, dr = B.NEIGHBOUR[w]
    return rot, exit_, w, q + dq, r + dr


def road(length: int, seed: int) -> list[list]:
    """The road of a random stage: [tile, q, r, rot, entry+exit] in driving order."""
    tiles = B.tiles()
    rng = Rng(seed)
    start = tiles[rng.choice(["202a", "202b"])]
    finish_key = rng.choice(["203a", "203b"])
    first_entry = start.edges[rng.below(2)]
    rot0, ex0, w0, q1, r1 = _place(start, first_entry, 0, 0, rng.below(6))
    out = [[start.key, 0, 0, rot0, first_entry + ex0]]
    used_cells = {(0, 0)}
    used_nums: set[int] = set()

    def options(q: int, r: int, facing: int, last: bool) -> list[tuple]:
        keys = [finish_key] if last else [f"{n}{s}" for n in CORE if n not in used_nums for s in "ab"]
        opts = []
        for key in keys:
            t = tiles[key]
            for entry in t.edges:
                rot, ex, w, nq, nr = _place(t, entry, q, r, facing)
                if (nq, nr) in used_cells or (q, r) in used_cells:
                    continue
                opts.append((key, entry, rot, ex, w, nq, nr))
        rng.shuffle(opts)
        return opts

    def grow(q: int, r: int, w_prev: int, k: int, budget: list[int]) -> bool:
        budget[0] -= 1
        if budget[0] < 0:
            return False
        last = k == length
        for key, entry, rot, ex, w, nq, nr in options(q, r, (w_prev + 3) % 6, last):
            num = int(key[:3])
            out.append([key, q, r, rot, entry + ex])
            used_cells.add((q, r))
            used_nums.add(num)
            if last or grow(nq, nr, w, k + 1, budget):
                return True
            out.pop()
            used_cells.discard((q, r))
            used_nums.discard(num)
        return False

    if not grow(q1, r1, w0, 0, [20000]):
        raise B.DataError(f"no random stage of length {length} for seed {seed}")
    return out
