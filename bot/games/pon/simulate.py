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

from bot.games.pon import auto
from bot.games.pon.content import CARDS, RACING_IDS, COURSE_IDS
from bot.games.pon.engine import ENGINE, _rank

STRATEGIES = ("random", "greedy", "ponhappy")
ASK_ALL = {"type": "prefs", "pon": {n: "ask" for n in "1234"}, "block": "ask", "refill": "ask", "discard": "ask",
           "decay": "ask", "events": "ask"}
PON_ASK = {"type": "prefs", "pon": {n: "ask" for n in "1234"}}


def _num(cid: int) -> int:
    return CARDS[cid].number


def _course_no(st: dict[str, Any]) -> int:
    return _num(st["circuit"][st["current"]])


def _play_score(st: dict[str, Any], seat: int, cid: int, ponhappy: bool) -> float:
    n = _num(cid)
    rank = _rank(st, seat)
    score = -0.3 * auto.card_value(st, seat, cid)
    if n == _course_no(st):
        score += 3.0
    if rank > 0 and any(_num(x) == n for x in st["throttles"][st["current"]]):
        score += 1.5
    if ponhappy:
        same = sum(1 for x in st["hands"][seat] if x != cid and _num(x) == n)
        if same >= 2:
            score += 4.0  # play it and PON it ourselves
    return score


def _want_event(st: dict[str, Any], seat: int, cid: int) -> bool:
    op = CARDS[cid].effect["op"]
    hand = st["hands"][seat]
    rank = _rank(st, seat)
    cn = _course_no(st)
    has_course = any(_num(c) == cn for c in hand if c != cid)
    others = [c for c in hand if c != cid]
    if not others and st["phase"] == "play":
        return False
    if op == "line":
        reach = CARDS[cid].effect["reach"]
        return rank > 0 and not has_course and any(abs(_num(c) - cn) <= reach for c in others)
    if op == "attack_boost":
        return rank > 0 and has_course
    if op == "shield":
        return rank == 0
    if op in ("take_discard", "take_throttle"):
        return len(hand) <= 3
    if op == "leader_discard":
        return rank > 0
    if op == "slip_any":
        return rank > 0 and len(hand) <= 3
    if op == "pon_hold":
        return bool(st["pon"][seat])
    if op == "pon_add":
        return True
    spare = len(hand) >= 4
    if op in ("peek", "reveal"):
        return spare and st["phase"] == "take"
    if op == "swap_course":
        # Set the next hidden course to a number we hold twice (an overtake line for later).
        return spare and rank > 0 and st["phase"] == "take"
    return False


def choose(st: dict[str, Any], seat: int, strategy: str, rnd: random.Random) -> dict[str, Any]:
    acts = ENGINE.legal_actions(st, seat)
    if strategy == "random":
        return rnd.choice(acts)
    ponhappy = strategy == "ponhappy"
    kind = acts[0]["type"]
    stage = st["phase"]
    if kind == "discard":
        return {"type": "discard", "card": auto.choose_discard(st, seat)}
    if kind == "decay":
        pset = next(st["pon"][seat][i] for i in st["decay"][str(seat)]["sets"])
        return {"type": "decay", "card": pset[auto.choose_decay(st, seat, pset)]}
    if kind == "peek":
        # Peek at one of the last three courses if possible (they stay hidden longest).
        back = [a for a in acts if a["course"] >= len(st["circuit"]) - 3]
        return rnd.choice(back or acts)
    if stage == "pon":
        pons = [a for a in acts if a["type"] == "pon"]
        if pons and (ponhappy or auto.choose_pon_pair(st, seat, st["window"]["number"])):
            return pons[0]
        return {"type": "pon_pass"}
    if stage in ("play", "slip", "attack", "take"):
        events = [a for a in acts if a["type"] == "event" and _want_event(st, seat, a["card"])]
        if events:
            return events[0]
        main = [a for a in acts if a["type"] != "event"]
        if stage == "play":
            return max(main, key=lambda a: (_play_score(st, seat, a["card"], ponhappy), -a["card"]))
        if stage == "attack":
            return {"type": "attack"}
        return {"type": stage, "card": auto.choose_take(st, seat, [a["card"] for a in main])}
    if kind in ("slip", "salvage", "refill") or (kind == "pick" and "card" in acts[0]):
        cards = [a["card"] for a in acts]
        if kind == "pick" and st["pick"]["op"] in ("pon_add",):
            return acts[0]
        if kind == "pick" and st["pick"]["op"] == "swap_course":
            # Put down a card whose number we still hold, so the course becomes "our" line.
            counts = Counter(_num(c) for c in st["hands"][seat])
            return {"type": "pick", "card": max(cards, key=lambda c: (counts[_num(c)], -c))}
        return {"type": kind, "card": auto.choose_take(st, seat, cards)}
    if stage == "block":
        blocks = [a["cards"] for a in acts if a["type"] == "block"]
        choice = auto.choose_block(st, seat, blocks)
        return {"type": "yield"} if choice is None else {"type": "block", "cards": choice}
    return rnd.choice(acts)


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
    used: dict[int, set[int]] = defaultdict(set)      # seat -> racing cards whose event it used
    gained: dict[int, set[int]] = defaultdict(set)    # seat -> course cards it gained places on
    snaps: list[tuple[int, int, int]] = []            # (turn, seat, place) at each turn start
    uses: list[tuple[int, int, int, int]] = []        # (card, seat, turn, place when used)
    gains: list[tuple[int, int, int, int]] = []       # (course card, seat, turn, place at turn start)
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
    return {"winner": st["winner"], "start": start_order, "strategies": strategies,
            "used": {s: sorted(v) for s, v in used.items()}, "gained": {s: sorted(v) for s, v in gained.items()},
            "snaps": snaps, "uses": uses, "gains": gains,
            "pons": pons, "overtakes": overtakes, "lead_changes": lead_changes}


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


def report(seats: int, results: list[dict[str, Any]], out=sys.stdout) -> dict[str, Any]:
    n = len(results)
    base = 1 / seats
    by_seat = Counter(r["winner"] for r in results)
    by_start = Counter(r["start"].index(r["winner"]) for r in results)
    strat_games, strat_wins = Counter(), Counter()
    for r in results:
        for s, strat in enumerate(r["strategies"]):
            strat_games[strat] += 1
            strat_wins[strat] += r["winner"] == s
    p = lambda *a: print(*a, file=out)  # noqa: E731
    p(f"\n=== {seats} players, {n} games (baseline win rate {base:.1%}) ===")
    p("win rate by seat index:      " + "  ".join(f"P{s + 1} {by_seat[s] / n:.1%}" for s in range(seats)))
    p("win rate by starting place:  " + "  ".join(f"{s + 1}. {by_start[s] / n:.1%}" for s in range(seats)))
    p("win rate by strategy:        " + "  ".join(
        f"{k} {strat_wins[k] / strat_games[k]:.1%} ({strat_games[k]} seats)" for k in STRATEGIES if strat_games[k]))
    mixed = [r for r in results if len(set(r["strategies"])) == 1]
    if mixed:
        ms = Counter(r["start"].index(r["winner"]) for r in mixed)
        p(f"  same-strategy tables ({len(mixed)} games), by starting place: " +
          "  ".join(f"{s + 1}. {ms[s] / len(mixed):.1%}" for s in range(seats)))
    p("per game: PONs {:.1f}, places gained {:.1f}, lead changes {:.1f}".format(
        sum(r["pons"] for r in results) / n, sum(r["overtakes"] for r in results) / n,
        sum(r["lead_changes"] for r in results) / n))
    turns = 1 + max((k for r in results for k, _, _ in r["snaps"]), default=0)
    lead_wins, lead_n = Counter(), Counter()
    for r in results:
        for k, s, place in r["snaps"]:
            if place == 0:
                lead_n[k] += 1
                lead_wins[k] += r["winner"] == s
    p("closeness: the leader at the start of turn k goes on to win: " + " ".join(
        f"{lead_wins[k] / lead_n[k]:.0%}" if lead_n[k] else "-" for k in range(turns)))
    stats: dict[str, Any] = {"seat": {s: by_seat[s] / n for s in range(seats)},
                             "start": {s: by_start[s] / n for s in range(seats)}, "cards": {}}

    # What a player in place r at the start of turn k, playing strategy x, wins on average: the
    # baseline against which a card's users are compared ("vs position"). A plain "win rate of
    # users" would mostly say WHEN a card is used (a defensive card is used by leaders, who win
    # more anyway), not what it does.
    cell_games, cell_wins = Counter(), Counter()
    for r in results:
        for k, s, place in r["snaps"]:
            key = (k, place, r["strategies"][s])
            cell_games[key] += 1
            cell_wins[key] += r["winner"] == s
    expect = {key: cell_wins[key] / cell_games[key] for key in cell_games}

    def card_rows(key: str, records: str, ids: list[int], word: str) -> tuple[list[str], list[float]]:
        rows, deltas = [], []
        for cid in ids:
            users = wins = 0
            for r in results:
                for s, cards in r[key].items():
                    if cid in cards:
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
            stats["cards"][cid] = (users, rate, delta)
            deltas.append(delta)
            rows.append(f"  {CARDS[cid].label:<34} {word} {users:5d}  win {rate:6.1%}  vs position {delta:+6.1%}")
        return rows, deltas

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
    worst_event = max(((abs(stats["cards"][c][2]), CARDS[c].name) for c in RACING_IDS
                       if stats["cards"][c][0] >= floor), default=(0.0, "-"))
    worst_course = max(((abs(stats["cards"][c][2] - mean), CARDS[c].name) for c in COURSE_IDS
                        if stats["cards"][c][0] >= floor), default=(0.0, "-"))
    stats["worst_event"], stats["worst_course"] = worst_event, worst_course
    p(f"\nlargest event effect (vs position): {worst_event[1]} {worst_event[0]:.1%}; "
      f"largest course deviation (vs course mean): {worst_course[1]} {worst_course[0]:.1%}")
    p(f"max seat-index win rate {max(stats['seat'].values()):.1%}, "
      f"max starting-place win rate {max(stats['start'].values()):.1%}")
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
            print(f"{table}-only tables ({n} games): by starting place " +
                  "  ".join(f"{s + 1}. {by_start[s] / n:.1%}" for s in range(seats)) +
                  "; by seat " + "  ".join(f"P{s + 1} {by_seat[s] / n:.1%}" for s in range(seats)) +
                  "; PONs {:.1f}, places gained {:.1f}, lead changes {:.1f} per game".format(
                      sum(r["pons"] for r in same) / n, sum(r["overtakes"] for r in same) / n,
                      sum(r["lead_changes"] for r in same) / n))
        print(f"({time.time() - t0:.1f} s)")


if __name__ == "__main__":
    main()
