"""Balance report: many seeded games between simple strategies, then how far each persona, each
turn-order position and each player count is from a fair share, and the win-rate lift of owning
each tile.

    python -m bot.games.steamworks.balance [games per player count] [seed] [workers]

Every seat plays the simulator's greedy strategy (bot/games/steamworks/simulate.py: a rough value
for each placement with a little noise, every component powered in the suggested order). Numbers
are printed as a ratio to the fair share (1.00 = wins exactly 1/players of its games; a shared win
counts as a fraction). "Position" is the seat's place in the first round's turn order (1 = the
first start player). A tile's lift is the mean fair-share ratio of the seats that finished the game
with the tile in one of their devices, divided by that of the seats that did not.
"""
from __future__ import annotations

import sys
from collections import defaultdict
from typing import Any

from bot.games.steamworks.engine import ENGINE as E
from bot.games.steamworks.engine import SETUP, TILES
from bot.games.steamworks.simulate import play, spread

TARGET = 0.15  # the aim: every persona and position within about ±15% of fair


def _records(args: tuple[int, list[int]]) -> list[dict[str, Any]]:
    """One record per seat and game: its player count, position, persona, result and built tiles."""
    seats, seeds = args
    out = []
    for seed in seeds:
        start = E.new_game({}, seats, seed)["start"]
        st = play(seats, seed)
        winners = st["final"]["winners"]
        for s in range(seats):
            out.append({"seats": seats, "seed": seed, "position": (s - start) % seats + 1,
                        "persona": st["players"][s]["persona"],
                        "fair": seats / len(winners) if s in winners else 0.0,  # 1.0 on average if fair
                        "built": sorted({pt["t"] for d in st["devices"] if d["owner"] == s for pt in d["tiles"]}),
                        "total": next(r["total"] for r in st["final"]["scores"] if r["seat"] == s),
                        "rounds": st["round"], "last": (s - st["start"]) % seats + 1})
    return out


def simulate(games: int, base_seed: int = 1, workers: int = 2, counts: list[int] | None = None) -> list[dict[str, Any]]:
    _, parts = spread(_records, games, base_seed, workers, counts)
    return [r for p in parts for r in p]


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else float("nan")


def report(recs: list[dict[str, Any]]) -> dict[str, Any]:
    """The ratios to the fair share: per persona (pooled and per player count), per position and
    player count, and each tile's lift."""
    by: dict[Any, list[float]] = defaultdict(list)
    for r in recs:
        by[("persona", r["persona"])].append(r["fair"])
        by[("persona", r["persona"], r["seats"])].append(r["fair"])
        by[("position", r["seats"], r["position"])].append(r["fair"])
        by[("last", r["seats"], r["last"])].append(r["fair"])
        by[("count", r["seats"])].append(r["total"])
        by[("rounds", r["seats"])].append(r["rounds"])
    tiles = {}
    for t in TILES:
        has = [r["fair"] for r in recs if t in r["built"]]
        hasnt = [r["fair"] for r in recs if t not in r["built"]]
        if len(has) >= 20 and hasnt:
            tiles[t] = {"owners": len(has), "owner_ratio": _mean(has), "lift": _mean(has) / max(_mean(hasnt), 1e-9)}
    counts = sorted({r["seats"] for r in recs})
    out = {
        "counts": {n: {"games": len(by[("rounds", n)]) // n, "rounds": _mean(by[("rounds", n)]),
                       "score": _mean(by[("count", n)]),
                       "position": [_mean(by[("position", n, p)]) for p in range(1, n + 1)],
                       "last": [_mean(by[("last", n, p)]) for p in range(1, n + 1)],
                       "persona": {k: _mean(by[("persona", k, n)]) for k in SETUP.personas if by[("persona", k, n)]}}
                   for n in counts},
        "persona": {k: _mean(by[("persona", k)]) for k in SETUP.personas if by[("persona", k)]},
        "tiles": tiles,
    }
    out["worst_persona"] = max(abs(v - 1) for v in out["persona"].values())
    out["worst_position"] = max(abs(v - 1) for c in out["counts"].values() for v in c["position"])
    return out


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    workers = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    rep = report(simulate(games, seed, workers))
    print(f"Steam Works balance: {games} greedy games per player count, seed {seed}; 1.00 = a fair share")
    for n, c in rep["counts"].items():
        print(f"\n{n} players: {c['games']} games, mean {c['rounds']:.1f} rounds, mean score {c['score']:.1f}")
        print("  position in the first round (1 = start player):",
              "  ".join(f"{p + 1}: {v:.2f}" for p, v in enumerate(c["position"])))
        print("  position in the last round:", "  ".join(f"{p + 1}: {v:.2f}" for p, v in enumerate(c["last"])))
        print("  persona:", "  ".join(f"{k} {v:.2f}" for k, v in sorted(c["persona"].items())))
    print("\npersona, all player counts:", "  ".join(f"{k} {v:.2f}" for k, v in sorted(rep["persona"].items())))
    print("\ntile lift (owners' ratio / non-owners' ratio; owners = seat-games with it in a finished device):")
    for t, v in sorted(rep["tiles"].items(), key=lambda kv: -kv[1]["lift"]):
        print(f"  {t:22s} lift {v['lift']:.2f}  owners {v['owner_ratio']:.2f} ({v['owners']})")
    print(f"\nworst persona {rep['worst_persona']:+.2f}, worst position {rep['worst_position']:+.2f} "
          f"(target within ±{TARGET:.2f})")


if __name__ == "__main__":
    main()
