"""Balance report: many seeded games between simple strategies, then how far each persona, each
turn-order position and each strategy is from a fair share, and what favouring one tile is worth.

    python -m bot.tools.bench.steamworks_balance [greedy|mixed|tiles] [games per player count] [seed] [workers] [--counts 2,3]
                                           [--tile T]

Tables (the strategies are simulate.py's `Style`s):
  greedy  every seat plays greedy;
  mixed   every seat draws greedy, builder, borrower or miser at random (from the game's seed);
  tiles   the causal tile test: one seat favours one tile of the age stacks (greedy, but it takes,
          keeps and builds that tile whenever it can), the others play greedy; the tile and the
          seat rotate with the seed, the personas are dealt at random. Favouring a tile that
          decides the game would lift that seat's share far above fair (DECIDES). With --tile T
          every game favours T (the seat still rotates): a closer look at one tile.
Numbers are ratios to the fair share (1.00 = wins exactly 1/players of its games; a shared win
counts as a fraction), then ± one standard error and n, the seat-games behind the figure.
"Position" is the seat's place in the first round's turn order (1 = the first start player).
"""

from __future__ import annotations

import argparse
import math
import random
from collections import defaultdict
from functools import partial
from typing import Any

from bot.games.steamworks.engine import ENGINE as E
from bot.games.steamworks.engine import SETUP, TILES
from bot.games.steamworks.simulate import GREEDY, STYLES, Style, favouring, play, spread

TARGET = 0.15  # the aim: every persona and position within about ±15% of fair
DECIDES = 1.35  # a favoured tile lifting its seat above this ratio decides the game (see BALANCE.md)
TABLES = ("greedy", "mixed", "tiles")
PARTS = ("vp", "clocks", "prestige", "total")  # a final score's parts (tie-breaks aside)
STACK_TILES = sorted(t for t in TILES if TILES[t].age >= 1)  # what a seat can go out and get


def table(kind: str, seats: int, seed: int, tile: str | None = None) -> list[Style]:
    """Each seat's strategy in the game of this seed (`tile`: the tile test favours only it)."""
    if kind == "greedy":
        return [GREEDY] * seats
    if kind == "mixed":
        rnd = random.Random(f"mixed {seed}")
        return [STYLES[rnd.choice(sorted(STYLES))] for _ in range(seats)]
    styles = [GREEDY] * seats
    if tile is not None:
        styles[seed % seats] = favouring(tile)
        return styles
    n = len(STACK_TILES)
    styles[(seed // n) % seats] = favouring(STACK_TILES[seed % n])
    return styles


def _records(kind: str, tile: str | None, args: tuple[int, list[int]]) -> list[dict[str, Any]]:
    """One record per seat and game: its player count, position, persona, strategy, result and
    built tiles."""
    seats, seeds = args
    out = []
    for seed in seeds:
        styles = table(kind, seats, seed, tile)
        start = E.new_game({}, seats, seed)["start"]
        st = play(seats, seed, styles)
        winners = st["final"]["winners"]
        scores = {r["seat"]: r for r in st["final"]["scores"]}
        totals = {s: r["total"] for s, r in scores.items()}
        for s in range(seats):
            out.append(
                {
                    "seats": seats,
                    "seed": seed,
                    "position": (s - start) % seats + 1,
                    "persona": st["players"][s]["persona"],
                    "style": styles[s].name,
                    "favourite": styles[s].favourite,
                    "fair": seats / len(winners) if s in winners else 0.0,  # 1.0 on average if fair
                    "built": sorted({pt["t"] for d in st["devices"] if d["owner"] == s for pt in d["tiles"]}),
                    "total": totals[s],
                    # points ahead of the table's other seats: far less noisy than a win
                    "ahead": totals[s] - sum(totals[o] for o in totals if o != s) / (seats - 1),
                    "vp": scores[s]["vp"],
                    "clocks": scores[s]["clocks"],
                    "prestige": scores[s]["prestige"],
                    "rounds": st["round"],
                    "last": (s - st["start"]) % seats + 1,
                }
            )
    return out


def simulate(
    games: int,
    base_seed: int = 1,
    workers: int = 2,
    counts: list[int] | None = None,
    kind: str = "greedy",
    tile: str | None = None,
) -> list[dict[str, Any]]:
    _, parts = spread(partial(_records, kind, tile), games, base_seed, workers, counts)
    return [r for p in parts for r in p]


def stat(xs: list[float]) -> tuple[float, float, int]:
    """Mean, its standard error and n."""
    n = len(xs)
    if n == 0:
        return float("nan"), float("nan"), 0
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else float("nan")
    return m, math.sqrt(var / n), n


def _tiles(recs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per favoured tile: the favouring seat's ratio, and how often it and the greedy seats at the
    same tables ended with the tile in a device (the favour at work)."""
    fav: dict[str, list[dict[str, Any]]] = defaultdict(list)
    others: dict[str, list[dict[str, Any]]] = defaultdict(list)
    by_game = defaultdict(list)
    for r in recs:
        by_game[(r["seats"], r["seed"])].append(r)
    for game in by_game.values():
        t = next((r["favourite"] for r in game if r["favourite"]), None)
        for r in game:
            if t is not None:
                (fav if r["favourite"] == t else others)[t].append(r)
    out: dict[Any, Any] = {}
    for t, rs in sorted(fav.items()):
        ratio, se, n = stat([r["fair"] for r in rs])
        out[t] = {
            "ratio": ratio,
            "se": se,
            "n": n,
            "built": _mean([t in r["built"] for r in rs]),
            "built_by_others": _mean([t in r["built"] for r in others[t]]),
        }
    return out


def _mean(xs: list[Any]) -> float:
    return sum(xs) / len(xs) if xs else float("nan")


def report(recs: list[dict[str, Any]]) -> dict[str, Any]:
    """The ratios to the fair share: per persona (pooled and per player count), per position and
    player count, per strategy, and per favoured tile."""
    by: dict[Any, list[float]] = defaultdict(list)
    for r in recs:
        by[("persona", r["persona"])].append(r["fair"])
        by[("ahead", r["persona"])].append(r["ahead"])
        for part in PARTS:
            by[(part, r["persona"])].append(r[part])
        by[("persona", r["persona"], r["seats"])].append(r["fair"])
        by[("style", r["style"] if not r["favourite"] else "favour")].append(r["fair"])
        by[("persona style", r["persona"], r["style"])].append(r["fair"])
        by[("position", r["seats"], r["position"])].append(r["fair"])
        by[("last", r["seats"], r["last"])].append(r["fair"])
        by[("score", r["seats"])].append(r["total"])
        by[("rounds", r["seats"])].append(r["rounds"])
    counts = sorted({r["seats"] for r in recs})
    out: dict[str, Any] = {
        "counts": {
            n: {
                "games": len(by[("rounds", n)]) // n,
                "rounds": _mean(by[("rounds", n)]),
                "score": _mean(by[("score", n)]),
                "position": [stat(by[("position", n, p)]) for p in range(1, n + 1)],
                "last": [stat(by[("last", n, p)]) for p in range(1, n + 1)],
                "persona": {k: stat(by[("persona", k, n)]) for k in SETUP.personas if by[("persona", k, n)]},
            }
            for n in counts
        },
        "persona": {k: stat(by[("persona", k)]) for k in SETUP.personas if by[("persona", k)]},
        "ahead": {k: stat(by[("ahead", k)]) for k in SETUP.personas if by[("ahead", k)]},
        # where a persona's points come from (mean per seat-game)
        "parts": {k: {part: _mean(by[(part, k)]) for part in PARTS} for k in SETUP.personas if by[("ahead", k)]},
        "style": {k[1]: stat(v) for k, v in sorted(by.items()) if k[0] == "style"},
        # each persona under each strategy (mixed tables): where a persona's edge comes from
        "persona_style": {(k[1], k[2]): stat(v) for k, v in by.items() if k[0] == "persona style"},
        "tiles": _tiles(recs),
    }
    out["worst_persona"] = max(
        abs(v[0] - 1) for c in [out["persona"]] + [c["persona"] for c in out["counts"].values()] for v in c.values()
    )
    out["worst_position"] = max(abs(v[0] - 1) for c in out["counts"].values() for v in c["position"])
    out["worst_tile"] = max(out["tiles"].items(), key=lambda kv: kv[1]["ratio"], default=None)
    return out


def _fmt(v: tuple[float, float, int]) -> str:
    return f"{v[0]:.2f} ± {v[1]:.2f} ({v[2]})"


def print_report(rep: dict[str, Any], kind: str, games: int, seed: int) -> None:
    counts = list(rep["counts"])
    print(
        f"Steam Works balance: {kind} tables, {games} games per player count ({', '.join(map(str, counts))}), "
        f"seed {seed}; 1.00 = a fair share, ± one standard error (seat-games)"
    )
    for n, c in rep["counts"].items():
        print(f"\n{n} players: {c['games']} games, mean {c['rounds']:.1f} rounds, mean score {c['score']:.1f}")
        for p, v in enumerate(c["position"]):
            print(f"  position {p + 1} (first round)  {_fmt(v)}    last round {_fmt(c['last'][p])}")
    print("\npersona" + "".join(f"{f'{n} players':>22s}" for n in counts) + f"{'all':>22s}" + f"{'points ahead':>22s}")
    for k, v in rep["persona"].items():
        cells = [rep["counts"][n]["persona"].get(k, (float("nan"), float("nan"), 0)) for n in counts] + [v]
        print(f"  {k:12s}" + "".join(f"{_fmt(x):>22s}" for x in cells) + f"{_fmt(rep['ahead'][k]):>22s}")
    print("\npoints per seat-game  " + "".join(f"{part:>10s}" for part in PARTS))
    for k, parts in rep["parts"].items():
        print(f"  {k:20s}" + "".join(f"{parts[part]:10.2f}" for part in PARTS))
    print("\nstrategy:", "  ".join(f"{k} {_fmt(v)}" for k, v in rep["style"].items()))
    styles = sorted({st for _, st in rep["persona_style"]})
    if len(styles) > 1 and not rep["tiles"]:
        print("\npersona by strategy" + "".join(f"{st:>22s}" for st in styles))
        for k in rep["persona"]:
            cells = [rep["persona_style"].get((k, st), (float("nan"), float("nan"), 0)) for st in styles]
            print(f"  {k:12s}" + "".join(f"{_fmt(x):>22s}" for x in cells))
    if rep["tiles"]:
        print(
            f"\nfavoured tile: the favouring seat's ratio; how often it / the greedy seats built the tile "
            f"(decides the game above {DECIDES:.2f})"
        )
        for t, v in sorted(rep["tiles"].items(), key=lambda kv: -kv[1]["ratio"]):
            flag = "  DECIDES" if v["ratio"] > DECIDES else ""
            print(
                f"  {t:20s} {_fmt((v['ratio'], v['se'], v['n'])):>20s}   built {v['built']:4.0%} / "
                f"{v['built_by_others']:4.0%}{flag}"
            )
        t, v = rep["worst_tile"]
        print(
            f"\nfavoured tiles {min(x['ratio'] for x in rep['tiles'].values()):.2f}-{v['ratio']:.2f}; "
            f"worst {t} {v['ratio']:.2f} ± {v['se']:.2f} (decides above {DECIDES:.2f})"
        )
    print(
        f"worst persona {rep['worst_persona']:+.2f}, worst position {rep['worst_position']:+.2f} "
        f"(target within ±{TARGET:.2f})"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("tables", nargs="?", default="greedy", choices=TABLES)
    ap.add_argument("games", nargs="?", type=int, default=300, help="games per player count")
    ap.add_argument("seed", nargs="?", type=int, default=1)
    ap.add_argument("workers", nargs="?", type=int, default=2)
    ap.add_argument("--counts", default="", help="player counts, e.g. 2,3 (default: all)")
    ap.add_argument("--tile", choices=STACK_TILES, help="tiles tables: favour only this tile")
    a = ap.parse_args()
    counts = [int(c) for c in a.counts.split(",")] if a.counts else None
    if a.tile and a.tables != "tiles":
        ap.error("--tile goes with tiles tables")
    recs = simulate(a.games, a.seed, a.workers, counts, a.tables, a.tile)
    print_report(report(recs), a.tables, a.games, a.seed)


if __name__ == "__main__":
    main()
