"""Devices as tile grids: rotation, connections, the four building rules, what a source powers,
and which tiles may be laid next so that the device can still be finished legally.

A placed tile is a dict {"t": tile id, "x": int, "y": int, "r": rotation 0-3 (quarter turns
clockwise)}; y grows downwards. Sides are [north, east, south, west].
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any, Iterable

from bot.games.steamworks.content import tiles

DIRS = ((0, -1), (1, 0), (0, 1), (-1, 0))  # N E S W
TILES = tiles()


@lru_cache(maxsize=None)
def sides(tid: str, r: int) -> tuple[str, str, str, str]:
    """The tile's lines after turning it r quarter turns clockwise."""
    base = TILES[tid].sides
    return tuple(base[(i - r) % 4] for i in range(4))  # type: ignore[return-value]


def rotations(tid: str) -> list[int]:
    """The rotations that give different line layouts (a basic source has one)."""
    seen: dict[tuple[str, ...], int] = {}
    for r in range(4):
        seen.setdefault(sides(tid, r), r)
    return sorted(seen.values())


def grid_of(placed: Iterable[dict[str, Any]]) -> dict[tuple[int, int], tuple[str, int]]:
    return {(p["x"], p["y"]): (p["t"], p["r"]) for p in placed}


def link(grid: dict, a: tuple[int, int], d: int) -> str:
    """The power types a line joins from the tile at `a` to its neighbour in direction d ("" when
    there is no neighbour or the lines do not match: a connection is matching line types)."""
    b = (a[0] + DIRS[d][0], a[1] + DIRS[d][1])
    if a not in grid or b not in grid:
        return ""
    ta, ra = grid[a]
    tb, rb = grid[b]
    common = set(sides(ta, ra)[d]) & set(sides(tb, rb)[(d + 2) % 4])
    return "".join(p for p in "CSE" if p in common)


def _kind(grid: dict, pos: tuple[int, int]) -> str:
    return TILES[grid[pos][0]].kind


def neighbours(pos: tuple[int, int]) -> list[tuple[int, tuple[int, int]]]:
    return [(d, (pos[0] + dx, pos[1] + dy)) for d, (dx, dy) in enumerate(DIRS)]


def _relay(grid: dict, src: tuple[int, int]) -> tuple[dict[tuple[int, int], set[str]], set[tuple[int, int]]]:
    """Where power from the source at `src` goes: ({component or modifier: power types it can
    receive}, {converters reached}). Directly connected components; a connected Power Converter
    sends power on, of any type, through its other sides (the seed: it sends power three ways),
    and so on through converters joined to it."""
    targets: dict[tuple[int, int], set[str]] = {}
    convs: set[tuple[int, int]] = set()
    todo = [src]
    while todo:
        here = todo.pop()
        for d, q in neighbours(here):
            types = link(grid, here, d)
            if not types:
                continue
            k = _kind(grid, q)
            if k in ("component", "modifier"):
                targets.setdefault(q, set()).update(types)
            elif k == "converter" and q not in convs:
                convs.add(q)
                todo.append(q)
    return targets, convs


def _unmet(grid: dict) -> list[tuple[int, int]]:
    """The tiles that break rule 3 or 4: a source that powers no component (directly or through
    Power Converters), a component or modifier no source powers, a converter no power reaches."""
    fed: set[tuple[int, int]] = set()
    out = []
    for p in grid:
        if _kind(grid, p) == "source":
            targets, convs = _relay(grid, p)
            # Rule reading: rule 3 asks each source to reach a *component*; a source joined only to
            # a converter that passes power to nothing is not connected (it would power nothing).
            if not targets:
                out.append(p)
            fed |= set(targets) | convs
    out += [p for p in grid if _kind(grid, p) != "source" and p not in fed]
    return out


def problems(placed: list[dict[str, Any]]) -> list[str]:
    """Which of the four building rules the device breaks (empty: a legal device).
    1 at least one source; 2 at least one component; 3 every source connected to a component;
    4 every component connected to a source. A Power Converter relays: a component joined to a
    converter that a source powers counts as connected (and the converter itself must be reached)."""
    grid = grid_of(placed)
    out = []
    if not any(_kind(grid, p) == "source" for p in grid):
        out.append("source")
    if not any(_kind(grid, p) in ("component", "modifier") for p in grid):
        out.append("component")
    bad = _unmet(grid)
    if any(_kind(grid, p) == "source" for p in bad):
        out.append("source_link")
    if any(_kind(grid, p) != "source" for p in bad):
        out.append("component_link")
    return out


def powered(placed: list[dict[str, Any]], src: tuple[int, int]) -> dict[str, list[str]]:
    """What a source at `src` powers: {"x,y": power types it can receive}: directly connected
    components and modifiers, and those a Power Converter (or a chain of them) passes power on to."""
    return {at: list(types) for at, types in _powered(_key(placed), src)}


@lru_cache(maxsize=20000)
def _powered(placed_key: tuple, src: tuple[int, int]) -> tuple[tuple[str, str], ...]:
    """powered() of a device given as its _key (a device's tiles rarely change; the simulations
    and every menu ask again and again)."""
    grid = {(x, y): (t, r) for t, x, y, r in placed_key}
    targets, _ = _relay(grid, src)
    return tuple((f"{q[0]},{q[1]}", "".join(p for p in "CSE" if p in v)) for q, v in sorted(targets.items()))


def _frontier(grid: dict) -> list[tuple[int, int]]:
    if not grid:
        return [(0, 0)]
    free = {q for p in grid for _, q in neighbours(p) if q not in grid}
    return sorted(free, key=lambda q: (q[1], q[0]))


def _key(placed: Iterable[dict[str, Any]]) -> tuple:
    return tuple(sorted((p["t"], p["x"], p["y"], p["r"]) for p in placed))


def candidates(placed: list[dict[str, Any]], supply: Counter) -> list[dict[str, Any]]:
    grid = grid_of(placed)
    out = []
    for tid in sorted(t for t, n in supply.items() if n > 0):
        for (x, y) in _frontier(grid):
            for r in rotations(tid):
                out.append({"t": tid, "x": x, "y": y, "r": r})
    return out


def _normal(placed_key: tuple) -> tuple:
    """The same device shifted so its top-left corner is (0, 0) (the search does not care where)."""
    if not placed_key:
        return placed_key
    mx = min(k[1] for k in placed_key)
    my = min(k[2] for k in placed_key)
    return tuple(sorted((t, x - mx, y - my, r) for t, x, y, r in placed_key))


@lru_cache(maxsize=100000)
def _feasible(placed_key: tuple, supply_key: tuple, left: int) -> bool:
    placed = [{"t": t, "x": x, "y": y, "r": r} for t, x, y, r in placed_key]
    if left == 0:
        return not problems(placed)
    supply = Counter(dict(supply_key))
    kinds = {TILES[t].kind for t in supply if supply[t] > 0} | {TILES[p["t"]].kind for p in placed}
    if "source" not in kinds or not kinds & {"component", "modifier"}:
        return False
    grid = grid_of(placed)
    bad = _unmet(grid)
    # Power Converters relay power on, so one new tile may mend any number of tiles: the count
    # shortcut below holds only without them.
    relays = any(TILES[t].kind == "converter" for t in supply) or any(_kind(grid, p) == "converter" for p in grid)
    if not relays and len(bad) > 4 * left:  # each new tile touches at most four others
        return False
    cands = candidates(placed, supply)
    if left == 1 and bad:
        # The last tile must mend every broken tile: it lies next to each, or next to the group
        # of converters touching it (power reaches a tile only across a neighbour or a converter).
        allowed = None
        for u in bad:
            group = {u}
            todo = [u]
            while todo:
                here = todo.pop()
                for _, q in neighbours(here):
                    if q in grid and q not in group and _kind(grid, q) == "converter":
                        group.add(q)
                        todo.append(q)
            near = {q for g in group for _, q in neighbours(g) if q not in grid}
            allowed = near if allowed is None else allowed & near
        cands = [c for c in cands if (c["x"], c["y"]) in allowed]
    for c in cands:
        rest = supply.copy()
        rest[c["t"]] -= 1
        if _feasible(_normal(_key(placed + [c])), tuple(sorted((t, n) for t, n in rest.items() if n > 0)), left - 1):
            return True
    return False


def feasible(placed: list[dict[str, Any]], supply: Counter, left: int) -> bool:
    """Can `left` more tiles from `supply` be laid so that the device obeys the four rules?"""
    return _feasible(_normal(_key(placed)), tuple(sorted((t, n) for t, n in supply.items() if n > 0)), left)


def legal_lays(placed: list[dict[str, Any]], supply: Counter, left: int) -> list[dict[str, Any]]:
    """The next tiles (tile, position, rotation) after which the device can still be finished
    legally, the best-looking first (more connections, more prestige)."""
    out = []
    for c in candidates(placed, supply):
        rest = supply.copy()
        rest[c["t"]] -= 1
        if feasible(placed + [c], rest, left - 1):
            grid = grid_of(placed + [c])
            links = sum(1 for d, _ in neighbours((c["x"], c["y"])) if link(grid, (c["x"], c["y"]), d))
            out.append((-links, -TILES[c["t"]].prestige, c["t"], c["y"], c["x"], c["r"], c))
    out.sort(key=lambda z: z[:6])
    return [z[-1] for z in out]


def _same_turn(tid: str, r: int) -> int:
    """The smallest rotation that gives the tile the same lines as rotation r."""
    return min(k for k in range(4) if sides(tid, k) == sides(tid, r % 4))


def canonical(placed: Iterable[dict[str, Any]]) -> tuple:
    """A device the same whatever its place and its turn as a whole (its tiles keep their links):
    the least of its four turns, each shifted to (0, 0), preferring wider than tall."""
    tiles_ = [(p["t"], p["x"], p["y"], p["r"]) for p in placed]
    best = None
    for k in range(4):
        turned = []
        for t, x, y, r in tiles_:
            for _ in range(k):  # a quarter turn clockwise: (x, y) -> (-y, x)
                x, y = -y, x
            turned.append((t, x, y, _same_turn(t, r + k)))
        mx = min(q[1] for q in turned)
        my = min(q[2] for q in turned)
        key = tuple(sorted((t, x - mx, y - my, r) for t, x, y, r in turned))
        tall = max(q[2] for q in key) > max(q[1] for q in key)
        cand = (tall, key)
        if best is None or cand < best:
            best = cand
    return best[1] if best else ()


@lru_cache(maxsize=4096)
def whole_devices(supply_key: tuple, n: int, limit: int = 25, budget: int = 6000) -> tuple:
    """Every different legal device of exactly `n` tiles from a supply (given as sorted (tile,
    count) pairs), each as sorted (tile, x, y, r) tuples, the best-looking first (more links,
    more prestige); empty when there are more than `limit` of them, or when finding them would
    take more than `budget` steps (then the tiles are laid one at a time)."""
    found: dict[tuple, int] = {}
    steps = 0

    def walk(placed: list[dict[str, Any]], supply: Counter, left: int) -> bool:
        nonlocal steps
        if left == 0:
            if not problems(placed):
                key = canonical(placed)
                if key not in found:
                    grid = grid_of(placed)
                    links = sum(1 for p in grid for d, _ in neighbours(p) if link(grid, p, d))
                    found[key] = -links * 10 - sum(TILES[p["t"]].prestige for p in placed)
            return len(found) <= limit
        for c in legal_lays(placed, supply, left):
            steps += 1
            if steps > budget:
                return False
            rest = supply.copy()
            rest[c["t"]] -= 1
            if not walk(placed + [c], rest, left - 1):
                return False
        return True

    if not walk([], Counter(dict(supply_key)), n) or len(found) > limit:
        return ()
    return tuple(sorted(found, key=lambda k: (found[k], k)))
