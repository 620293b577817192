"""Balance check: many games between simple strategies, then win shares per persona, seat and tile.

    python -m bot.games.steamworks.simulate [games per player count] [seed]

Strategies (each a `Style`: the same rough value for each placement, a little noise, every
component powered in the suggested order, with a few weights changed; every style takes the
basic source its components wait for first, and never one that no component of its takes):
  greedy    the plain one: points now, money, tiles and building, each at a middling value;
  builder   prizes the Workbench, building and upgrading effects and taking tiles (big devices);
  borrower  prefers other players' devices to its own persona spaces (it gives clocks away);
  miser     a cautious money-keeper: weighs every placement cost and the Patent Office's £2
            heavily and passes sooner;
  favour:T  greedy, but strongly favours taking tile T (belt, Patent Office, the Turbine's look),
            building while it holds T, and laying T first (balance.py's causal tile test).
This module's report plays greedy mirrors; balance.py is the full report (mixed tables, the tile
test).
"""

from __future__ import annotations

import random
import sys
from collections import defaultdict
from typing import Any

from bot.games.steamworks.engine import ENGINE as E
from bot.games.steamworks.strategy import GREEDY, STYLES, Style, choose, favouring, greedy, place_value

__all__ = ["GREEDY", "STYLES", "Style", "choose", "favouring", "greedy", "place_value", "play", "run", "spread"]


def play(seats: int, seed: int, styles: list[Style] | None = None) -> dict[str, Any]:
    """One seeded game; seat s plays styles[s] (greedy everywhere by default)."""
    styles = styles or [GREEDY] * seats
    rnd = random.Random(seed)
    st = E.new_game({}, seats, seed)
    while not E.is_over(st):
        (seat,) = E.to_act(st)
        st, _ = E.apply(st, seat, choose(st, seat, rnd, styles[seat]))
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
    processes: the jobs and what `fn` made of each. Game g at n players has the seed
    base_seed * 10**6 + n * 10**5 + g."""
    from concurrent.futures import ProcessPoolExecutor

    counts = counts or list(range(E.min_seats, E.max_seats + 1))
    jobs = []
    for seats in counts:
        seeds = [base_seed * 10**6 + seats * 10**5 + g for g in range(games)]
        jobs += [(seats, seeds[i::workers]) for i in range(workers)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            return jobs, list(pool.map(fn, jobs))
    return jobs, [fn(j) for j in jobs]


def run(games: int, base_seed: int = 1, workers: int = 2, counts: list[int] | None = None) -> dict[str, Any]:
    """Win shares per seat, persona and tile over `games` games per player count (in `workers`
    processes)."""
    counts = counts or list(range(E.min_seats, E.max_seats + 1))
    jobs, results = spread(_play_many, games, base_seed, workers, counts)
    finished: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for (seats, _), res in zip(jobs, results):
        finished[seats] += res
    out: dict[Any, Any] = {}
    for seats in counts:
        seat_wins = [0.0] * seats
        persona: defaultdict[str, list[float]] = defaultdict(lambda: [0.0, 0])
        tile: defaultdict[str, list[float]] = defaultdict(lambda: [0.0, 0])
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
            "games": games,
            "baseline": 1 / seats,
            "seat": [w / games for w in seat_wins],
            "persona": {k: (v[0] / v[1], v[1]) for k, v in sorted(persona.items())},
            "tile": {k: (v[0] / v[1], v[1]) for k, v in sorted(tile.items())},
            "rounds": sum(rounds) / len(rounds),
            "score": sum(totals) / len(totals),
        }
    return out


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    res = run(games, seed)
    for seats, r in res.items():
        print(
            f"\n== {seats} players, {r['games']} games: mean {r['rounds']:.1f} rounds, mean score {r['score']:.1f}, "
            f"fair share {r['baseline']:.3f}"
        )
        print("seat win share:", " ".join(f"{w:.3f}" for w in r["seat"]))
        print("persona win share (games):", ", ".join(f"{k} {w:.3f} ({n})" for k, (w, n) in r["persona"].items()))
        tiles = sorted(((w, n, k) for k, (w, n) in r["tile"].items() if n >= 20), reverse=True)
        print(
            "tile in a finished device -> win share (confounded by how much a seat builds; "
            "`balance tiles` is the causal test), top 5:",
            ", ".join(f"{k} {w:.3f} ({n})" for w, n, k in tiles[:5]),
        )
        print("bottom 5:", ", ".join(f"{k} {w:.3f} ({n})" for w, n, k in tiles[-5:]))


if __name__ == "__main__":
    main()
