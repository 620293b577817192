"""Balance check: many games between simple strategies, then win shares per persona, seat and tile.

    python -m bot.games.steamworks.simulate [games per player count] [seed]

Strategies: "greedy" scores each placement by a rough value (points now, money, tiles, building)
with a little noise and powers everything in the suggested order; "random" picks any legal move.
Each seat plays greedy. A tile "decides the game" if holders of it in a finished device win far
more often than their share; the report prints each tile's win rate next to the baseline.
"""
from __future__ import annotations

import random
import sys
from collections import defaultdict
from typing import Any

from bot.games.steamworks import geometry as geo
from bot.games.steamworks.engine import ENGINE as E
from bot.games.steamworks.engine import TILES

OP_VALUE = {"coins": 0.5, "vp": 1.0, "gain_same": 0.5, "gain_any": 0.5, "sell_source": 1.5, "turbine": 1.5,
            "stack_by_power": 1.5, "belt_take": 1.5, "advance_start": 0.4, "build": 3.0, "upgrade": 1.5,
            "per_component_coins": 1.0, "buy_vp": 1.0, "clocks": 2.0, "vp_per_device": 1.5, "reuse": 0.8}


def _effect_value(tid: str) -> float:
    eff = TILES[tid].effect
    v = OP_VALUE.get(eff.get("op"), 0.0)
    v += eff.get("coins", 0) * 0.3 + eff.get("vp", 0) * 0.8 + eff.get("n", 0) * 0.3
    return v


def place_value(st: dict[str, Any], seat: int, choice: str) -> float:
    parts = choice.split(":")
    space = parts[0]
    if space in ("tile", "workshop"):
        a = parts[1]
        i = E._belt_rightmost(st, a) if space == "tile" else int(parts[2])
        tid = st["belts"][a][i]
        return 1.2 + TILES[tid].prestige * 0.5 + 0.3 * int(a) - (0.8 if space == "workshop" else 0)
    if space == "source":
        return 0.9
    if space == "build":
        return 3.5
    did = int(parts[1])
    d = E._device(st, did)
    x, y = (int(v) for v in parts[2].split(","))
    targets = geo.powered(d["tiles"], (x, y))
    val = sum(_effect_value(E._tile_at(st, did, k)) for k in targets)
    if d["owner"] != seat:
        val -= 0.8  # gives a clock away
    return val


def _quick_lay(st: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The first legal lay of a new device in legal_lays' order (most links, most prestige), found
    without testing every candidate (the search is what makes long simulations slow)."""
    b = st["build"]
    if b["mode"] != "new" or b["left"] == 0:
        return None
    sup = E._supply(st, seat)
    ranked = []
    for c in geo.candidates(b["placed"], sup):
        grid = geo.grid_of(b["placed"] + [c])
        links = sum(1 for d, _ in geo.neighbours((c["x"], c["y"])) if geo.link(grid, (c["x"], c["y"]), d))
        ranked.append((-links, -TILES[c["t"]].prestige, c["t"], c["y"], c["x"], c["r"], c))
    ranked.sort(key=lambda z: z[:6])
    for z in ranked:
        c = z[-1]
        rest = sup.copy()
        rest[c["t"]] -= 1
        if geo.feasible(b["placed"] + [c], rest, b["left"] - 1):
            return {"type": "lay", "choice": f"{c['t']}:{c['x']}:{c['y']}:{c['r']}"}
    return None


def greedy(st: dict[str, Any], seat: int, rnd: random.Random) -> dict[str, Any]:
    stage = st["stage"]
    if stage == "build":
        quick = _quick_lay(st, seat)
        if quick is not None:
            return quick
    acts = E.legal_actions(st, seat)
    if stage == "main":
        places = [a for a in acts if a["type"] == "place"]
        cost = E._cost(st, seat)
        scored = [(place_value(st, seat, a["choice"]) - 0.4 * cost + rnd.random() * 0.8, i, a)
                  for i, a in enumerate(places)]
        best = max(scored, default=None)
        if best is None or best[0] < 0.6:
            return {"type": "pass"}
        return best[2]
    if stage == "activate":
        return {"type": "auto"}
    if stage == "reveal":  # keep the tile of higher prestige (the view shows the looker its two tiles)
        two = E.view(st, seat)["reveal"]["tiles"]
        return {"type": "keep", "choice": "1" if TILES[two[1]].prestige > TILES[two[0]].prestige else "0"}
    for kind in ("confirm", "lay"):
        for a in acts:
            if a["type"] == kind:
                return a
    return acts[0]


def play(seats: int, seed: int) -> dict[str, Any]:
    rnd = random.Random(seed)
    st = E.new_game({}, seats, seed)
    steps = 0
    while not E.is_over(st):
        (seat,) = E.to_act(st)
        st, _ = E.apply(st, seat, greedy(st, seat, rnd))
        steps += 1
    return st


def _play_many(args: tuple[int, list[int]]) -> list[dict[str, Any]]:
    seats, seeds = args
    out = []
    for seed in seeds:
        st = play(seats, seed)
        out.append({"final": st["final"], "round": st["round"], "players": st["players"], "devices": st["devices"]})
    return out


def spread(fn: Any, games: int, base_seed: int, workers: int, counts: list[int] | None) -> tuple[list, list]:
    """`games` seeded games per player count, as (seats, seeds) jobs shared out over `workers`
    processes: the jobs and what `fn` made of each."""
    from concurrent.futures import ProcessPoolExecutor

    counts = counts or list(range(E.min_seats, E.max_seats + 1))
    jobs = []
    for seats in counts:
        seeds = [base_seed * 100000 + seats * 1000 + g for g in range(games)]
        jobs += [(seats, seeds[i::workers]) for i in range(workers)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            return jobs, list(pool.map(fn, jobs))
    return jobs, [fn(j) for j in jobs]


def run(games: int, base_seed: int = 1, workers: int = 2, counts: list[int] | None = None) -> dict[str, Any]:
    """Win shares per seat, persona and tile over `games` games per player count (in `workers`
    processes)."""
    jobs, results = spread(_play_many, games, base_seed, workers, counts)
    finished: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for (seats, _), res in zip(jobs, results):
        finished[seats] += res
    out: dict[str, Any] = {}
    for seats in counts:
        seat_wins = [0.0] * seats
        persona = defaultdict(lambda: [0.0, 0])
        tile = defaultdict(lambda: [0.0, 0])
        rounds = []
        totals = []
        for st in finished[seats]:
            winners = st["final"]["winners"]
            share = 1.0 / len(winners)
            rounds.append(st["round"])
            totals += [r["total"] for r in st["final"]["scores"]]
            for s in range(seats):
                w = share if s in winners else 0.0
                seat_wins[s] += w
                pr = persona[st["players"][s]["persona"]]
                pr[0] += w
                pr[1] += 1
                built = {pt["t"] for d in st["devices"] if d["owner"] == s for pt in d["tiles"]}
                for t in built:
                    tile[t][0] += w
                    tile[t][1] += 1
        out[seats] = {
            "games": games, "baseline": 1 / seats,
            "seat": [w / games for w in seat_wins],
            "persona": {k: (v[0] / v[1], v[1]) for k, v in sorted(persona.items())},
            "tile": {k: (v[0] / v[1], v[1]) for k, v in sorted(tile.items())},
            "rounds": sum(rounds) / len(rounds), "score": sum(totals) / len(totals),
        }
    return out


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    res = run(games, seed)
    for seats, r in res.items():
        print(f"\n== {seats} players, {r['games']} games: mean {r['rounds']:.1f} rounds, mean score {r['score']:.1f}, "
              f"fair share {r['baseline']:.3f}")
        print("seat win share:", " ".join(f"{w:.3f}" for w in r["seat"]))
        print("persona win share (games):", ", ".join(f"{k} {w:.3f} ({n})" for k, (w, n) in r["persona"].items()))
        tiles = sorted(((w, n, k) for k, (w, n) in r["tile"].items() if n >= 20), reverse=True)
        print("tile in a finished device -> win share, top 5:", ", ".join(f"{k} {w:.3f} ({n})" for w, n, k in tiles[:5]))
        print("bottom 5:", ", ".join(f"{k} {w:.3f} ({n})" for w, n, k in tiles[-5:]))


if __name__ == "__main__":
    main()
