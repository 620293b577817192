"""Balance simulation for PON's designed content: `python -m bot.games.pon.simulate`.

Plays many seeded games per player count with a random mix of simple strategies and prints:
- win rate per seat index and per starting position (the random provisional order),
- win rate per strategy,
- for every designed racing card: how often a player who used its event won the game
  (against the 1/players baseline), and for every course card how often a player who gained
  places on it won; a card that strongly predicts the winner would show up here.

Strategies:
  random    every decision uniformly at random among the legal moves (all prefs on "ask")
  greedy    plays the course number to attack or take the block right, slipstreams when it
            can, uses events when they plainly help; standing prefs left on "auto"
  ponhappy  greedy, but declares PON whenever it holds a pair and sets itself up for PON
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bot.games.pon.content import CARDS, RACING_IDS, COURSE_IDS
from bot.games.pon.engine import ENGINE
from bot.games.pon.strategy import STRATEGIES, choose

ASK_ALL = {
    "type": "prefs",
    "pon": {n: "ask" for n in "1234"},
    "block": "ask",
    "refill": "ask",
    "discard": "ask",
    "decay": "ask",
    "events": "ask",
}
PON_ASK = {"type": "prefs", "pon": {n: "ask" for n in "1234"}}


def play_game(seats: int, seed: int, strategies: list[str]) -> dict[str, Any]:
    rnd = random.Random(seed * 7919 + seats)
    st = ENGINE.new_game({}, seats, seed)
    ev: list[Any] = []
    for seat, strat in enumerate(strategies):
        if strat == "random":
            ENGINE.apply_in_place(st, seat, dict(ASK_ALL), ev)
        elif strat == "ponhappy":
            ENGINE.apply_in_place(st, seat, dict(PON_ASK), ev)
    start_order = list(st["order"])
    used: dict[int, set[int]] = defaultdict(set)  # seat -> racing cards whose event it used
    gained: dict[int, set[int]] = defaultdict(set)  # seat -> course cards it gained places on
    snaps: list[tuple[int, int, int]] = []  # (turn, seat, place) at each turn start
    uses: list[tuple[int, int, int, int]] = []  # (card, seat, turn, place when used)
    gains: list[tuple[int, int, int, int]] = []  # (course card, seat, turn, place at turn start)
    turn_start: dict[int, int] = {}
    last_turn = -1
    pons = overtakes = lead_changes = 0
    steps = 0
    while not ENGINE.is_over(st):
        steps += 1
        if steps > 5000:
            raise RuntimeError(f"game {seats}p seed {seed} does not end")
        if st["phase"] != "peek" and st["current"] != last_turn:
            last_turn = st["current"]
            turn_start = {s: st["order"].index(s) for s in range(seats)}
            snaps.extend((last_turn, s, r) for s, r in turn_start.items())
        seat = rnd.choice(ENGINE.to_act(st))
        action = choose(st, seat, strategies[seat], rnd)
        before = list(st["order"])
        course = st["circuit"][st["current"]]
        sets_before = sum(len(s) for s in st["pon"])
        if action["type"] == "event":
            used[seat].add(action["card"])
            uses.append((action["card"], seat, st["current"], before.index(seat)))
        ev.clear()
        ENGINE.apply_in_place(st, seat, action, ev)
        if sum(len(s) for s in st["pon"]) > sets_before:
            pons += 1
        if st["order"] != before:
            if st["order"][0] != before[0]:
                lead_changes += 1
            for s in range(seats):
                if st["order"].index(s) < before.index(s):
                    if course not in gained[s]:
                        gains.append((course, s, last_turn, turn_start.get(s, before.index(s))))
                    gained[s].add(course)
                    overtakes += before.index(s) - st["order"].index(s)
    return {
        "winner": st["winner"],
        "start": start_order,
        "strategies": strategies,
        "used": {s: sorted(v) for s, v in used.items()},
        "gained": {s: sorted(v) for s, v in gained.items()},
        "snaps": snaps,
        "uses": uses,
        "gains": gains,
        "pons": pons,
        "overtakes": overtakes,
        "lead_changes": lead_changes,
    }


def _batch(args: tuple[int, int, int, str]) -> list[dict[str, Any]]:
    seats, first, count, table = args
    out = []
    for seed in range(first, first + count):
        pick = random.Random(seed * 31 + seats)
        if table == "mixed":
            strategies = [pick.choice(STRATEGIES) for _ in range(seats)]
        else:
            strategies = [table] * seats
        out.append(play_game(seats, seed, strategies))
    return out


def run(seats: int, games: int, workers: int, table: str = "mixed") -> list[dict[str, Any]]:
    chunk = max(1, games // (workers * 4))
    jobs = [(seats, first, min(chunk, games - first), table) for first in range(0, games, chunk)]
    if workers <= 1:
        return [r for job in jobs for r in _batch(job)]
    with ProcessPoolExecutor(workers) as pool:
        return [r for part in pool.map(_batch, jobs) for r in part]


def _closeness(results: list[dict[str, Any]]) -> str:
    """How often the leader at the start of each turn goes on to win, turn by turn."""
    turns = 1 + max((k for r in results for k, _, _ in r["snaps"]), default=0)
    lead_wins: Counter[int] = Counter()
    lead_n: Counter[int] = Counter()
    for r in results:
        for k, s, place in r["snaps"]:
            if place == 0:
                lead_n[k] += 1
                lead_wins[k] += r["winner"] == s
    return " ".join(f"{lead_wins[k] / lead_n[k]:.0%}" if lead_n[k] else "-" for k in range(turns))


def _position_baseline(results: list[dict[str, Any]]) -> dict[tuple[int, int, str], float]:
    """What a player in place r at the start of turn k, playing strategy x, wins on average: the
    baseline against which a card's users are compared ("vs position"). A plain "win rate of
    users" would mostly say WHEN a card is used (a defensive card is used by leaders, who win
    more anyway), not what it does."""
    cell_games: Counter[tuple[int, int, str]] = Counter()
    cell_wins: Counter[tuple[int, int, str]] = Counter()
    for r in results:
        for k, s, place in r["snaps"]:
            key = (k, place, r["strategies"][s])
            cell_games[key] += 1
            cell_wins[key] += r["winner"] == s
    return {key: cell_wins[key] / cell_games[key] for key in cell_games}


def _card_rows(
    results: list[dict[str, Any]],
    expect: dict[tuple[int, int, str], float],
    base: float,
    cards: dict[int, tuple[int, float, float]],
    what: tuple[str, str, str],
    ids: list[int],
) -> tuple[list[str], list[float]]:
    """One report row per card: its users (`what`: the result's key of cards per seat, the key of
    its records, the word for them), their win rate and how much more they won than their position
    (`expect`) says; each card's figures also go into `cards`."""
    key, records, word = what
    rows, deltas = [], []
    for cid in ids:
        users = wins = 0
        for r in results:
            for s, held in r[key].items():
                if cid in held:
                    users += 1
                    wins += r["winner"] == int(s)
        rate = wins / users if users else 0.0
        n_rec = 0
        gap = 0.0
        for r in results:
            for c, s, k, place in r[records]:
                if c == cid:
                    n_rec += 1
                    gap += (r["winner"] == s) - expect.get((k, place, r["strategies"][s]), base)
        delta = gap / n_rec if n_rec else 0.0
        cards[cid] = (users, rate, delta)
        deltas.append(delta)
        rows.append(f"  {CARDS[cid].label:<34} {word} {users:5d}  win {rate:6.1%}  vs position {delta:+6.1%}")
    return rows, deltas


def report(seats: int, results: list[dict[str, Any]], out=sys.stdout) -> dict[str, Any]:
    n = len(results)
    base = 1 / seats
    by_seat = Counter(r["winner"] for r in results)
    by_start = Counter(r["start"].index(r["winner"]) for r in results)
    strat_games: Counter[str] = Counter()
    strat_wins: Counter[str] = Counter()
    for r in results:
        for s, strat in enumerate(r["strategies"]):
            strat_games[strat] += 1
            strat_wins[strat] += r["winner"] == s
    p = lambda *a: print(*a, file=out)  # noqa: E731
    p(f"\n=== {seats} players, {n} games (baseline win rate {base:.1%}) ===")
    p("win rate by seat index:      " + "  ".join(f"P{s + 1} {by_seat[s] / n:.1%}" for s in range(seats)))
    p("win rate by starting place:  " + "  ".join(f"{s + 1}. {by_start[s] / n:.1%}" for s in range(seats)))
    p(
        "win rate by strategy:        "
        + "  ".join(
            f"{k} {strat_wins[k] / strat_games[k]:.1%} ({strat_games[k]} seats)" for k in STRATEGIES if strat_games[k]
        )
    )
    mixed = [r for r in results if len(set(r["strategies"])) == 1]
    if mixed:
        ms = Counter(r["start"].index(r["winner"]) for r in mixed)
        p(
            f"  same-strategy tables ({len(mixed)} games), by starting place: "
            + "  ".join(f"{s + 1}. {ms[s] / len(mixed):.1%}" for s in range(seats))
        )
    p(
        "per game: PONs {:.1f}, places gained {:.1f}, lead changes {:.1f}".format(
            sum(r["pons"] for r in results) / n,
            sum(r["overtakes"] for r in results) / n,
            sum(r["lead_changes"] for r in results) / n,
        )
    )
    p("closeness: the leader at the start of turn k goes on to win: " + _closeness(results))
    stats: dict[str, Any] = {
        "seat": {s: by_seat[s] / n for s in range(seats)},
        "start": {s: by_start[s] / n for s in range(seats)},
        "cards": {},
    }

    expect = _position_baseline(results)

    def card_rows(key: str, records: str, ids: list[int], word: str) -> tuple[list[str], list[float]]:
        return _card_rows(results, expect, base, stats["cards"], (key, records, word), ids)

    p("\nevents: players who used it (uses = player-games): their win rate, and how much more they")
    p("won than players in the same place, turn and strategy (vs position)")
    rows, _ = card_rows("used", "uses", RACING_IDS, "uses ")
    p("\n".join(rows))
    p("\ncourses: players who gained places on it: win rate, and vs position (place at the turn start)")
    rows, deltas = card_rows("gained", "gains", COURSE_IDS, "gains")
    p("\n".join(rows))
    mean = sum(deltas) / len(deltas)
    p(f"  (gaining places anywhere helps: mean over courses {mean:+.1%}; compare each course with it)")
    floor = min(50, n // 10)  # ignore cards used too rarely to say anything
    worst_event = max(
        ((abs(stats["cards"][c][2]), CARDS[c].name) for c in RACING_IDS if stats["cards"][c][0] >= floor),
        default=(0.0, "-"),
    )
    worst_course = max(
        ((abs(stats["cards"][c][2] - mean), CARDS[c].name) for c in COURSE_IDS if stats["cards"][c][0] >= floor),
        default=(0.0, "-"),
    )
    stats["worst_event"], stats["worst_course"] = worst_event, worst_course
    p(
        f"\nlargest event effect (vs position): {worst_event[1]} {worst_event[0]:.1%}; "
        f"largest course deviation (vs course mean): {worst_course[1]} {worst_course[0]:.1%}"
    )
    p(
        f"max seat-index win rate {max(stats['seat'].values()):.1%}, "
        f"max starting-place win rate {max(stats['start'].values()):.1%}"
    )
    return stats


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per player count")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4])
    args = parser.parse_args(argv)
    for seats in args.players:
        t0 = time.time()
        results = run(seats, args.games, args.workers)
        report(seats, results)
        for table in ("greedy", "ponhappy"):
            same = run(seats, args.games // 2, args.workers, table)
            n = len(same)
            by_start = Counter(r["start"].index(r["winner"]) for r in same)
            by_seat = Counter(r["winner"] for r in same)
            print(
                f"{table}-only tables ({n} games): by starting place "
                + "  ".join(f"{s + 1}. {by_start[s] / n:.1%}" for s in range(seats))
                + "; by seat "
                + "  ".join(f"P{s + 1} {by_seat[s] / n:.1%}" for s in range(seats))
                + "; PONs {:.1f}, places gained {:.1f}, lead changes {:.1f} per game".format(
                    sum(r["pons"] for r in same) / n,
                    sum(r["overtakes"] for r in same) / n,
                    sum(r["lead_changes"] for r in same) / n,
                )
            )
        print(f"({time.time() - t0:.1f} s)")


if __name__ == "__main__":
    main()
