"""`python -m bot arena`: seeded games between the AI levels and today's automatic player, for every
game, printing one figure per line like the bench (`name: value unit`). A dev tool: the product
never imports it.

Per game:
- `ai_<game>_strong_2p_wins_vs_auto`: strong's share of 2-player games won against the automatic
  player (ties half), where the game seats two;
- `ai_<game>_strong_share_vs_auto`: strong's wins at a table of 4 (PON's 3) with the automatic
  player in the other seats, as a multiple of the fair share (1.0 is fair);
- `ai_<game>_ladder_<level>_share`: strong, normal and easy at one 3-seat table, each level's
  wins as a multiple of the fair share;
- Heat solo against 3 Legends and Pole Position alone with 3 section-17 bots:
  `ai_<game>_strong_ahead_of_all_<them>`, the share of races strong finishes ahead of every one;
- `ai_<game>_<level>_decision_p95_s`: decision times.
Each share comes with its 95% interval (Wilson) as `..._lo` and `..._hi`. Seats rotate between
games so no level keeps the best starting place.

  python -m bot arena [--quick] [--games N] [--only heat,pon] [--figures rivals] [--workers N] [--results FILE]

With --results FILE every finished game is kept in FILE (one JSON line each, with a fingerprint of
the code that played it) and a later run with the same FILE plays only the games still missing, so a
200-game run can be spread over several sittings; games played by other code are not counted.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import math
import random
import time
from collections import defaultdict
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bot.ai.search import choose, decisions
from bot.games.registry import engines

KINDS = ("heat", "pon", "pole", "rallyman", "steamworks")
OPTIONS = {"heat": {"track": "usa"}, "pole": {"circuit": "monaco"}, "rallyman": {"stage": "Rally4 SS1"}}
AUTO = "auto"


@dataclass
class Result:
    places: list[int]  # per player (seats first; Legends or bots after them where they count)
    times: dict[str, list[float]] = field(default_factory=dict)


def play(kind: str, players: list[str], seed: int, options: dict | None = None) -> Result:
    """One seeded game; players[i] is seat i's level, or AUTO (today's automatic player)."""
    engine = engines()[kind]
    opts = engine.validate_options(dict(OPTIONS.get(kind, {}), **(options or {})), len(players))
    state = engine.new_game(opts, len(players), seed)
    times: dict[str, list[float]] = defaultdict(list)
    rng = random.Random(seed)
    for _ in range(20000):
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        level = players[seat]
        if level == AUTO:
            action = engine.auto_action(state, seat)
        else:
            started = time.perf_counter()
            action = choose(engine, state, seat, level, rng.getrandbits(63))
            if len(decisions(engine, state, seat)) > 1:
                times[level].append(time.perf_counter() - started)
        state, _ = engine.apply(state, seat, action)
    places = engine.placings(state) or []
    if kind == "heat" and len(players) == 1:  # solo: where the Legends finished too
        cars = state["cars"]
        places = [c["place"] or len(cars) for c in cars]
    if kind == "pole":  # every car, bots included: the race order at the finish
        places = [state["order"].index(s) + 1 for s in range(len(state["order"]))]
    return Result(places, dict(times))


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def won(places: list[int], seat: int, players: int) -> float:
    """1 for a win alone, a share for a shared win, 0 otherwise."""
    best = min(places[:players])
    if places[seat] != best:
        return 0.0
    return 1.0 / sum(1 for p in places[:players] if p == best)


def rotations(levels: list[str], games: int) -> list[list[str]]:
    return [levels[i % len(levels) :] + levels[: i % len(levels)] for i in range(games)]


def matches(kind: str, games: int) -> list[tuple[str, str, list[str], dict]]:
    """(figure, focus level, players, options) for every game to play."""
    engine = engines()[kind]
    out: list[tuple[str, str, list[str], dict]] = []
    if engine.min_seats <= 2 <= engine.max_seats:
        out += [("2p", "strong", p, {}) for p in rotations(["strong", AUTO], games)]
    table = min(engine.max_seats, 4)
    out += [("table", "strong", p, {}) for p in rotations(["strong"] + [AUTO] * (table - 1), games)]
    out += [("ladder", "", p, {}) for p in rotations(["strong", "normal", "easy"], games)]
    if kind == "heat":
        out += [("rivals", "strong", ["strong"], {"legends": 3}) for _ in range(games)]
    if kind == "pole":
        out += [("rivals", "strong", ["strong"], {"bots": 3}) for _ in range(games)]
    return out


def _one(job: tuple[str, int, str, str, list[str], dict]) -> tuple[str, str, list[str], Result]:
    kind, seed, figure, focus, players, options = job
    return figure, focus, players, play(kind, players, seed, options)


def report(kind: str, results: list[tuple[str, str, list[str], Result]]) -> list[str]:
    wins: dict[str, float] = defaultdict(float)  # figure -> games won (shared wins in part)
    played: dict[str, int] = defaultdict(int)
    fair: dict[str, float] = {}  # figure -> the fair share of wins (1 for a plain share)
    times: dict[str, list[float]] = defaultdict(list)
    for figure, focus, players, result in results:
        for level, ts in result.times.items():
            times[level] += ts
        n = len(players)
        if figure == "rivals":  # ahead of every Legend / bot at the finish
            wins[figure] += all(result.places[0] < p for p in result.places[1:])
            played[figure] += 1
            fair[figure] = 1.0
            continue
        for seat, level in enumerate(players):
            if figure == "ladder" or level == focus:
                key = f"ladder_{level}" if figure == "ladder" else figure
                wins[key] += won(result.places, seat, n)
                played[key] += 1
                fair[key] = 1.0 if figure == "2p" else 1.0 / n
    names = {
        "2p": f"ai_{kind}_strong_2p_wins_vs_auto",
        "table": f"ai_{kind}_strong_share_vs_auto",
        "rivals": f"ai_{kind}_strong_ahead_of_all_{'legends' if kind == 'heat' else 'bots'}",
    }
    lines = []
    for key in sorted(played):
        name = names.get(key, f"ai_{kind}_{key}_share")
        lo, hi = wilson(wins[key], played[key])
        unit = "share" if fair[key] == 1.0 else "x fair"
        lines += [
            f"{name}: {wins[key] / played[key] / fair[key]:.2f} {unit}",
            f"{name}_lo: {lo / fair[key]:.2f} {unit}",
            f"{name}_hi: {hi / fair[key]:.2f} {unit}",
            f"{name}_games: {played[key]} games",
        ]
    for level, ts in sorted(times.items()):
        lines.append(f"ai_{kind}_{level}_decision_p95_s: {percentile(ts, 0.95):.3f} s")
        lines.append(f"ai_{kind}_{level}_decision_median_s: {percentile(ts, 0.5):.3f} s")
    return lines


def percentile(times: list[float], share: float) -> float:
    """The time `share` of them take at most: the sorted list's int(n x share)-th (0 for none)."""
    ts = sorted(times)
    return ts[min(len(ts) - 1, int(len(ts) * share))] if ts else 0.0


def code_fingerprint(kind: str) -> str:
    """What decides a game of `kind`: the AI's shared sources and its module for this game if it has
    one, the engines' shared sources and this game's, and how the arena plays a game (`play`; a
    stored result from other code does not count, a change to the arena's options or report does
    not void it)."""
    root = Path(__file__).resolve().parents[1]
    others = {f"{k}.py" for k in KINDS if k != kind}
    files = [p for p in (root / "ai").glob("*.py") if p.name not in others]
    files += [*(root / "games").glob("*.py"), *(root / "games" / kind).rglob("*.py")]
    digest = hashlib.sha256(kind.encode() + inspect.getsource(play).encode())
    for path in sorted(files):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


class ResultsFile:
    """Finished games kept as JSON lines, keyed by (kind, seed, the code's fingerprint)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.kept: dict[tuple[str, int, str], Result] = {}
        self.other_code = 0
        if path is None or not path.exists():
            return
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                self.kept[(row["kind"], row["seed"], row["code"])] = Result(row["places"], row["times"])

    def get(self, kind: str, seed: int, code: str) -> Result | None:
        return self.kept.get((kind, seed, code))

    def add(self, kind: str, seed: int, code: str, result: Result) -> None:
        if self.path is None:
            return
        with self.path.open("a") as out:
            out.write(json.dumps({"kind": kind, "seed": seed, "code": code, **asdict(result)}) + "\n")


def play_kept(pool: Executor, kept: ResultsFile, kind: str, seed: int, code: str, match: tuple) -> Future:
    """One game on the pool, kept in the results file as soon as it ends (an interrupted run keeps
    every game it finished)."""
    future = pool.submit(_one, (kind, seed, *match))

    def keep(done: Future) -> None:
        if done.exception() is None:
            kept.add(kind, seed, code, done.result()[3])

    future.add_done_callback(keep)
    return future


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot arena", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a small sample of every game (wide intervals)")
    parser.add_argument("--games", type=int, default=None, help="games per match (default 200, --quick 2)")
    parser.add_argument("--only", default=",".join(KINDS), help="the games, comma-separated")
    parser.add_argument("--workers", type=int, default=2, help="processes playing games at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--figures", default="", help="play only these figures (2p,table,ladder,rivals; default all)")
    parser.add_argument("--results", type=Path, default=None, help="keep finished games here; play only missing ones")
    args = parser.parse_args(argv)
    games = args.games or (2 if args.quick else 200)
    kinds = [k for k in args.only.split(",") if k]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        parser.error(f"unknown game(s) {unknown}; the games are {', '.join(KINDS)}")
    wanted = {f for f in args.figures.split(",") if f}
    if wanted - {"2p", "table", "ladder", "rivals"}:
        parser.error(
            f"unknown figure(s) {sorted(wanted - {'2p', 'table', 'ladder', 'rivals'})}; the figures are 2p, table, ladder, rivals"
        )
    started = time.perf_counter()
    kept = ResultsFile(args.results)
    with ProcessPoolExecutor(args.workers) as pool:
        # Every game's matches go to the pool at once, so no worker waits idle for the last long
        # game of one kind before the next kind begins; each kind is reported once all its games
        # are in, in the order asked.
        # (a game's seed is its place in the full run: a run of some figures plays the same games)
        jobs = {
            kind: [
                (args.seed * 100003 + i, m) for i, m in enumerate(matches(kind, games)) if not wanted or m[0] in wanted
            ]
            for kind in kinds
        }
        codes = {kind: code_fingerprint(kind) for kind in kinds}
        futures = {
            kind: [
                kept.get(kind, seed, codes[kind]) or play_kept(pool, kept, kind, seed, codes[kind], m)
                for seed, m in jobs[kind]
            ]
            for kind in kinds
        }
        for kind in kinds:
            results = []
            for (_, m), done in zip(jobs[kind], futures[kind]):
                results.append((m[0], m[1], m[2], done if isinstance(done, Result) else done.result()[3]))
            for line in report(kind, results):
                print(line, flush=True)
            print(f"arena_{kind}_done_after_s: {time.perf_counter() - started:.0f} s", flush=True)
    print(f"arena_seconds: {time.perf_counter() - started:.0f} s")
    return 0
