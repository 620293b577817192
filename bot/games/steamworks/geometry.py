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


# Fast tables (the search below asks millions of times): a tile's kind, and its lines per
# rotation as bit masks of power types (C 1, S 2, E 4), so a connection is one `&`.
_BIT = {"C": 1, "S": 2, "E": 4}
_TYPES = tuple("".join(p for p in "CSE" if m & _BIT[p]) for m in range(8))  # mask -> "CSE" order
KIND = {tid: t.kind for tid, t in TILES.items()}
MASKS = {tid: tuple(tuple(sum(_BIT[c] for c in s) for s in sides(tid, r)) for r in range(4)) for tid in TILES}
_ROTS = {tid: tuple(sorted({sides(tid, r): r for r in (3, 2, 1, 0)}.values())) for tid in TILES}
_DX = (0, 1, 0, -1)
_DY = (-1, 0, 1, 0)
_FED = ("component", "modifier")


def _link(grid: dict, a: tuple[int, int], d: int) -> int:
    """link() as a mask of power types (0: no connection)."""
    ga = grid.get(a)
    if ga is None:
        return 0
    gb = grid.get((a[0] + _DX[d], a[1] + _DY[d]))
    if gb is None:
        return 0
    return MASKS[ga[0]][ga[1]][d] & MASKS[gb[0]][gb[1]][(d + 2) % 4]


def link(grid: dict, a: tuple[int, int], d: int) -> str:
    """The power types a line joins from the tile at `a` to its neighbour in direction d ("" when
    there is no neighbour or the lines do not match: a connection is matching line types)."""
    return _TYPES[_link(grid, a, d)]


def _kind(grid: dict, pos: tuple[int, int]) -> str:
    return KIND[grid[pos][0]]


def neighbours(pos: tuple[int, int]) -> list[tuple[int, tuple[int, int]]]:
    return [(d, (pos[0] + dx, pos[1] + dy)) for d, (dx, dy) in enumerate(DIRS)]


def _relay_masks(grid: dict, src: tuple[int, int]) -> tuple[dict[tuple[int, int], int], set[tuple[int, int]]]:
    """_relay() with the power types as masks."""
    targets: dict[tuple[int, int], int] = {}
    convs: set[tuple[int, int]] = set()
    todo = [src]
    while todo:
        here = todo.pop()
        hx, hy = here
        t, r = grid[here]
        mine = MASKS[t][r]
        for d in range(4):
            m = mine[d]
            if not m:
                continue
            q = (hx + _DX[d], hy + _DY[d])
            g = grid.get(q)
            if g is None:
                continue
            types = m & MASKS[g[0]][g[1]][(d + 2) % 4]
            if not types:
                continue
            k = KIND[g[0]]
            if k in _FED:
                targets[q] = targets.get(q, 0) | types
            elif k == "converter" and q not in convs:
                convs.add(q)
                todo.append(q)
    return targets, convs


def _relay(grid: dict, src: tuple[int, int]) -> tuple[dict[tuple[int, int], set[str]], set[tuple[int, int]]]:
    """Where power from the source at `src` goes: ({component or modifier: power types it can
    receive}, {converters reached}). Directly connected components; a connected Power Converter
    sends power on, of any type, through its other sides (the seed: it sends power three ways),
    and so on through converters joined to it."""
    targets, convs = _relay_masks(grid, src)
    return {q: set(_TYPES[m]) for q, m in targets.items()}, convs


def _unmet(grid: dict) -> list[tuple[int, int]]:
    """The tiles that break rule 3 or 4: a source that powers no component (directly or through
    Power Converters), a component or modifier no source powers, a converter no power reaches."""
    fed: set[tuple[int, int]] = set()
    out = []
    for p, (t, _) in grid.items():
        if KIND[t] == "source":
            targets, convs = _relay_masks(grid, p)
            # Rule reading: rule 3 asks each source to reach a *component*; a source joined only to
            # a converter that passes power to nothing is not connected (it would power nothing).
            if not targets:
                out.append(p)
            fed.update(targets)
            fed |= convs
    out += [p for p, (t, _) in grid.items() if KIND[t] != "source" and p not in fed]
    return out


def _all_met(grid: dict) -> bool:
    """not _unmet(grid), stopping at the first source that powers nothing."""
    fed: set[tuple[int, int]] = set()
    others = 0
    for p, (t, _) in grid.items():
        if KIND[t] == "source":
            targets, convs = _relay_masks(grid, p)
            if not targets:
                return False
            fed.update(targets)
            fed |= convs
        else:
            others += 1
    return len(fed) == others


def _grid(placed_key: tuple) -> dict[tuple[int, int], tuple[str, int]]:
    return {(x, y): (t, r) for t, x, y, r in placed_key}


@lru_cache(maxsize=200000)
def _problems(placed_key: tuple) -> tuple[str, ...]:
    """problems() of a device given as its _normal key (where it lies changes nothing)."""
    grid = _grid(placed_key)
    kinds = {KIND[k[0]] for k in placed_key}
    out = []
    if "source" not in kinds:
        out.append("source")
    if "component" not in kinds and "modifier" not in kinds:
        out.append("component")
    bad = _unmet(grid)
    if any(KIND[grid[p][0]] == "source" for p in bad):
        out.append("source_link")
    if any(KIND[grid[p][0]] != "source" for p in bad):
        out.append("component_link")
    return tuple(out)


def problems(placed: list[dict[str, Any]]) -> list[str]:
    """Which of the four building rules the device breaks (empty: a legal device).
    1 at least one source; 2 at least one component; 3 every source connected to a component;
    4 every component connected to a source. A Power Converter relays: a component joined to a
    converter that a source powers counts as connected (and the converter itself must be reached)."""
    return list(_problems(_normal(_key(placed))))


def powered(placed: list[dict[str, Any]], src: tuple[int, int]) -> dict[str, list[str]]:
    """What a source at `src` powers: {"x,y": power types it can receive}: directly connected
    components and modifiers, and those a Power Converter (or a chain of them) passes power on to."""
    return {at: list(types) for at, types in _powered(_key(placed), src)}


@lru_cache(maxsize=20000)
def _powered(placed_key: tuple, src: tuple[int, int]) -> tuple[tuple[str, str], ...]:
    """powered() of a device given as its _key (a device's tiles rarely change; the simulations
    and every menu ask again and again)."""
    targets, _ = _relay_masks(_grid(placed_key), src)
    return tuple((f"{q[0]},{q[1]}", _TYPES[m]) for q, m in sorted(targets.items()))


def _frontier(grid: dict) -> list[tuple[int, int]]:
    if not grid:
        return [(0, 0)]
    free = {q for p in grid for _, q in neighbours(p) if q not in grid}
    return sorted(free, key=lambda q: (q[1], q[0]))


def _key(placed: Iterable[dict[str, Any]]) -> tuple:
    return tuple(sorted((p["t"], p["x"], p["y"], p["r"]) for p in placed))


def candidates(placed: list[dict[str, Any]], supply: Counter) -> list[dict[str, Any]]:
    spots = _spots(grid_of(placed))
    return [
        {"t": tid, "x": x, "y": y, "r": r}
        for tid in sorted(t for t, n in supply.items() if n > 0)
        for (x, y) in spots
        for r in _ROTS[tid]
    ]


def links_at(grid: dict, c: dict[str, Any]) -> int:
    """How many lines of a tile laid at a free place join its neighbours' (the links it would
    make: sum(1 for d in range(4) if link(grid with c, c's place, d)))."""
    x, y = c["x"], c["y"]
    mine = MASKS[c["t"]][c["r"]]
    n = 0
    for d in range(4):
        if mine[d]:
            g = grid.get((x + _DX[d], y + _DY[d]))
            if g is not None and mine[d] & MASKS[g[0]][g[1]][(d + 2) % 4]:
                n += 1
    return n


def _normal(placed_key: tuple) -> tuple:
    """The same device shifted so its top-left corner is (0, 0) (the search does not care where)."""
    if not placed_key:
        return placed_key
    mx = min(k[1] for k in placed_key)
    my = min(k[2] for k in placed_key)
    if mx == 0 and my == 0:
        return placed_key if _is_sorted(placed_key) else tuple(sorted(placed_key))
    return tuple(sorted((t, x - mx, y - my, r) for t, x, y, r in placed_key))


def _is_sorted(key: tuple) -> bool:
    return all(key[i] <= key[i + 1] for i in range(len(key) - 1))


def _plus(norm: tuple, c: tuple) -> tuple:
    """_normal(norm + (c,)) for a normal key and a tile laid next to it (c's x and y >= -1)."""
    if c[1] >= 0 and c[2] >= 0:
        return tuple(sorted(norm + (c,)))
    sx = 1 if c[1] < 0 else 0
    sy = 1 if c[2] < 0 else 0
    return tuple(sorted([(t, x + sx, y + sy, r) for t, x, y, r in norm] + [(c[0], c[1] + sx, c[2] + sy, c[3])]))


def _supply_key(supply: Counter) -> tuple:
    return tuple(sorted((t, n) for t, n in supply.items() if n > 0))


@lru_cache(maxsize=20000)
def _less(supply_key: tuple) -> dict[str, tuple]:
    """For each tile of a supply key, the supply key with one fewer of it."""
    return {t: tuple((u, m - (u == t)) for u, m in supply_key if u != t or m > 1) for t, _ in supply_key}


def _spots(grid: dict) -> list[tuple[int, int]]:
    """_frontier(): the free places next to the device, in rows from the top."""
    if not grid:
        return [(0, 0)]
    free = {(x + dx, y + dy) for (x, y) in grid for dx, dy in DIRS}
    free.difference_update(grid)
    return sorted(free, key=lambda q: (q[1], q[0]))


def _cands(grid: dict, supply_key: tuple, allowed: set | None = None) -> list[tuple[str, int, int, int]]:
    """candidates() as (tile, x, y, r) tuples (supply keys are sorted by tile), only at the
    `allowed` places if given."""
    spots = _spots(grid)
    if allowed is not None:
        spots = [q for q in spots if q in allowed]
    return [(t, x, y, r) for t, _ in supply_key for (x, y) in spots for r in _ROTS[t]]


def _mending(grid: dict, bad: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """Where a last tile may lie when the device has broken tiles: it must mend every one, so it
    lies next to each, or next to the group of converters touching it (power reaches a tile only
    across a neighbour or a converter)."""
    allowed: set[tuple[int, int]] | None = None
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
    return allowed or set()


def _last_tiles(
    grid: dict, supply_key: tuple, bad: list[tuple[int, int]] | None = None, first: bool = False
) -> list[tuple[str, int, int, int]]:
    """The candidates (tile, x, y, r) that finish a device legally as its last tile, or only the
    first found (the grid is changed while testing, and restored)."""
    if bad is None:
        bad = _unmet(grid)
    cands = _cands(grid, supply_key, _mending(grid, bad) if bad else None)
    kinds = {KIND[t] for t, _ in grid.values()}
    source, fed = "source" in kinds, "component" in kinds or "modifier" in kinds
    out = []
    for c in cands:
        t, x, y, r = c
        k = KIND[t]
        if not (source or k == "source") or not (fed or k in _FED):
            continue  # rule 1 or 2 broken whatever the links
        at = (x, y)
        grid[at] = (t, r)
        if bad:
            ok = _all_met(grid)
        elif k == "source":  # the rest of the device obeys the rules: only the new tile may not
            ok = bool(_relay_masks(grid, at)[0])
        else:
            ok = _reached(grid, at)
        del grid[at]
        if ok:
            out.append(c)
            if first:
                break
    return out


def _reached(grid: dict, at: tuple[int, int]) -> bool:
    """Does power reach the tile at `at` in a device whose other tiles all obey the rules? It does
    when a line joins it to a source, or to a converter (every converter there is reached)."""
    t, r = grid[at]
    mine = MASKS[t][r]
    for d in range(4):
        if not mine[d]:
            continue
        g = grid.get((at[0] + _DX[d], at[1] + _DY[d]))
        if g is not None and mine[d] & MASKS[g[0]][g[1]][(d + 2) % 4] and KIND[g[0]] in ("source", "converter"):
            return True
    return False


@lru_cache(maxsize=200000)
def _feasible(placed_key: tuple, supply_key: tuple, left: int) -> bool:
    if left == 0:
        return not _problems(placed_key)
    kinds = {KIND[t] for t, _ in supply_key} | {KIND[k[0]] for k in placed_key}
    if "source" not in kinds or ("component" not in kinds and "modifier" not in kinds):
        return False
    grid = _grid(placed_key)
    bad = _unmet(grid)
    # Power Converters relay power on, so one new tile may mend any number of tiles: the count
    # shortcut below holds only without them.
    if "converter" not in kinds and len(bad) > 4 * left:  # each new tile touches at most four others
        return False
    if left == 1:
        return bool(_last_tiles(grid, supply_key, bad, first=True))
    less = _less(supply_key)
    for c in _cands(grid, supply_key):
        if _feasible(_plus(placed_key, c), less[c[0]], left - 1):
            return True
    return False


def feasible(placed: list[dict[str, Any]], supply: Counter, left: int) -> bool:
    """Can `left` more tiles from `supply` be laid so that the device obeys the four rules?"""
    return _feasible(_normal(_key(placed)), _supply_key(supply), left)


@lru_cache(maxsize=50000)
def _legal_lays(placed_key: tuple, supply_key: tuple, left: int) -> tuple[tuple[str, int, int, int], ...]:
    """legal_lays() of a device given as its _normal key, as (tile, x, y, r) in its frame."""
    grid = _grid(placed_key)
    if left == 1:
        fits = _last_tiles(grid, supply_key)
    else:
        less = _less(supply_key)
        fits = [c for c in _cands(grid, supply_key) if _feasible(_plus(placed_key, c), less[c[0]], left - 1)]
    out = []
    for t, x, y, r in fits:
        grid[(x, y)] = (t, r)
        links = sum(1 for d in range(4) if _link(grid, (x, y), d))
        del grid[(x, y)]
        out.append((-links, -TILES[t].prestige, t, y, x, r))
    out.sort()
    return tuple((t, x, y, r) for _, _, t, y, x, r in out)


def legal_lays(placed: list[dict[str, Any]], supply: Counter, left: int) -> list[dict[str, Any]]:
    """The next tiles (tile, position, rotation) after which the device can still be finished
    legally, the best-looking first (more connections, more prestige)."""
    key = _key(placed)
    mx = min((k[1] for k in key), default=0)
    my = min((k[2] for k in key), default=0)
    lays = _legal_lays(_normal(key), _supply_key(supply), left)
    return [{"t": t, "x": x + mx, "y": y + my, "r": r} for t, x, y, r in lays]


def _same_turn(tid: str, r: int) -> int:
    """The smallest rotation that gives the tile the same lines as rotation r."""
    return min(k for k in range(4) if sides(tid, k) == sides(tid, r % 4))


def canonical(placed: Iterable[dict[str, Any]]) -> tuple:
    """A device the same whatever its place and its turn as a whole (its tiles keep their links):
    the least of its four turns, each shifted to (0, 0), preferring wider than tall."""
    return _canonical(_normal(_key(placed)))


@lru_cache(maxsize=50000)
def _canonical(placed_key: tuple) -> tuple:
    best = None
    for k in range(4):
        turned = []
        for t, x, y, r in placed_key:
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
    take more than `budget` steps (then the tiles are laid one at a time). The devices are
    walked in the frame of their top-left corner (where a device lies changes none of it)."""
    found: dict[tuple, int] = {}
    steps = 0

    def walk(key: tuple, supply: tuple, left: int) -> bool:
        nonlocal steps
        if left == 0:
            if not _problems(key):
                ck = _canonical(key)
                if ck not in found:
                    grid = _grid(key)
                    links = sum(1 for p in grid for d in range(4) if _link(grid, p, d))
                    found[ck] = -links * 10 - sum(TILES[k[0]].prestige for k in key)
            return len(found) <= limit
        less = _less(supply)
        for c in _legal_lays(key, supply, left):
            steps += 1
            if steps > budget:
                return False
            if not walk(_plus(key, c), less[c[0]], left - 1):
                return False
        return True

    if not walk((), _supply_key(Counter(dict(supply_key))), n) or len(found) > limit:
        return ()
    return tuple(sorted(found, key=lambda k: (found[k], k)))
