"""`python -m bot.tools.heat_oracle`: how far a Heat racer can get against 3 Legends when it knows
everything (issue #34's ceiling). A dev tool: the product never imports it.

Heat's randomness lives in the state (every deck's order, the Legends' deck, the reshuffles' RNG),
so with the raw state a solo race is a deterministic one-car planning problem. The oracle plays the
racer's seat by a beam search over whole rounds through the real engine: from each state it keeps,
every submission and every decision of the round that follows it (boost, slipstream, adrenaline,
which cards to discard: the slowest first, any number) is played out to the next round's
submission; of all the states reached, the best `beam` by `value` (distinct states only) go on. The
first round in which a state finishes decides: the best place, then the farthest past the line.

  python -m bot.tools.heat_oracle --seeds 100039-100134 [--beam 16] [--cards-only]
      [--play oracle,ai,fair,clairvoyant] [--out FILE]
      [--decision-seed K] [--playouts N] [--rounds R] [--depth D]

--cards-only: the oracle keeps the AI's preferences and chooses only its cards. --play names who
races the seeds: the oracle; the strong AI as the arena plays it (`ai`); the fair planner, the
oracle's planning on states redrawn from the seat's view (`fair`), or on the real state
(`clairvoyant`). With the AI and another, the races the AI did not win are summarised for each
(`summary`: rounds, gear, Heat paid per lap, boosts, slipstreams, spin-outs, Adrenaline, cards
discarded, positions); `trace` gives a race round by round. --decision-seed K seeds the AI's
decisions from seed + K instead of the race's seed (0: as the arena); --playouts, --rounds and
--depth change the strong AI's look-ahead for the run only (bot/ai/heat.py AI). The AI's decision
times are printed as the arena prints them (p95 and median of the decisions with a choice). Figures measured (seeds
100039-100134, USA, 3 Legends): the oracle, beam 16, ahead of all in 91 of 96 (about 9 s a race),
choosing only its cards 87; the strong AI 51. Seeds 100039-100086: fair planner 25 of 48,
clairvoyant 46, strong AI 29.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
import time
from bisect import bisect_left
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bot.ai import games as ai_games
from bot.ai import heat as heat_ai
from bot.ai.search import choose, decisions
from bot.games.base import Action, GameError, State
from bot.games.heat import rules as heat_rules
from bot.games.heat.rules import DISCARDABLE, KIND, SPEED
from bot.games.registry import engines
from bot.tools.arena import OPTIONS as ARENA_OPTIONS
from bot.tools.arena import percentile

ENGINE = engines()["heat"]
OPTIONS = {**ARENA_OPTIONS["heat"], "legends": 3}  # the arena's solo race against 3 Legends
SEAT = 0
# The oracle decides every choice of its round itself (the cooldown stays automatic: cooling the
# most it may is never worse; the boost/adrenaline order stays the engine's best).
ASK: Action = {"type": "prefs", "slipstream": "ask", "boost": "ask", "adrenaline": "ask", "discard": "ask"}


# The AI's own preferences (bot/ai/heat.py PREFS): an oracle that chooses only its cards.
AI_PREFS: Action = {"type": "prefs", **{k: v for k, (_, v) in heat_ai.PREFS.items()}}


def new_race(seed: int) -> State:
    return ENGINE.new_game(ENGINE.validate_options(dict(OPTIONS), 1), 1, seed)


def decision_options(state: State) -> list[Action]:
    """The oracle's answers to the decision its seat is asked: all of them, but a discard: the
    slowest cards first, any number of them (a handful of sets, not every subset)."""
    pending = state["pending"]
    if pending["type"] != "discard":
        return [a for a in decisions(ENGINE, state, SEAT) if a["type"] == pending["type"]]
    cards = state["cards"]
    car = state["cars"][SEAT]
    disc = sorted((c for c in car["hand"] if DISCARDABLE[cards[c]]), key=lambda c: SPEED[cards[c]])
    return [{"type": "discard", "cards": disc[:n]} for n in range(len(disc) + 1)]


def round_children(state: State) -> Iterator[tuple[list[Action], State]]:
    """Every way the seat may play the round from its submission: (its moves, the state at the next
    round's submission or the race's end)."""
    for sub in decisions(ENGINE, state, SEAT):
        if sub["type"] != "submit":
            continue
        st, _ = ENGINE.apply(state, SEAT, sub)
        yield from _decide(st, [sub])


def _decide(state: State, moves: list[Action]) -> Iterator[tuple[list[Action], State]]:
    if state["phase"] != "decide":
        yield moves, state
        return
    for answer in decision_options(state):
        try:
            st, _ = ENGINE.apply(state, SEAT, answer)
        except GameError:
            continue
        yield from _decide(st, [*moves, answer])


def key(state: State) -> tuple:
    """What tells two states apart for the rest of the race (card ids of one type are alike)."""
    cards = state["cards"]
    car = state["cars"][SEAT]
    return (
        car["pos"],
        car["lane"],
        car["gear"],
        tuple(sorted(cards[c] for c in car["hand"])),
        tuple(cards[c] for c in car["deck"]),
        tuple(sorted(cards[c] for c in car["discard"])),
        len(car["engine"]),
        state["rng"],
        tuple((c["pos"], c["lane"]) for c in state["cars"][1:]),
        tuple(state.get("legend_deck", ())),
    )


def value(state: State) -> float:
    """How well the racer stands, in spaces (states of the same round compared): the rounds it
    still needs at a Legend's pace and the Heat in its Engine (bot/ai/heat.py's score), Heat and
    Stress clogging its cards."""
    car = state["cars"][SEAT]
    if car["fin"]:
        return 10_000.0 - car["place"] * 100 + car["pos"]
    tr = heat_rules.track_of(state)
    cards = state["cards"]
    pos = car["pos"]
    clog = sum(1 for c in car["hand"] + car["deck"] + car["discard"] if KIND[cards[c]] in ("heat", "stress"))
    return -heat_ai.TEMPO * heat_ai.rounds_left(tr, pos) + heat_ai.heat_value(tr, pos, len(car["engine"])) - 0.3 * clog


@dataclass
class Race:
    seed: int
    place: int
    rounds: int
    moves: list[Action] = field(default_factory=list)
    seconds: float = 0.0
    decision_seconds: list[float] = field(default_factory=list)  # the AI's, where it had a choice


def oracle(seed: int, beam: int = 64, prefs: Action = ASK) -> Race:
    """The oracle's race on `seed`: the beam search over whole rounds, with these preferences
    (ASK: it decides everything; the AI's (bot/ai/heat.py PREFS): it chooses only its cards)."""
    started = time.perf_counter()
    root, _ = ENGINE.apply(new_race(seed), SEAT, prefs)
    frontier: list[tuple[list[Action], State]] = [([prefs], root)]
    while True:
        seen: dict[tuple, tuple[float, list[Action], State]] = {}
        done: list[tuple[float, list[Action], State]] = []
        for moves, st in frontier:
            for more, child in round_children(st):
                v = value(child)
                if child["phase"] == "over":
                    done.append((v, moves + more, child))
                    continue
                k = key(child)
                if k not in seen or seen[k][0] < v:
                    seen[k] = (v, moves + more, child)
        if done:
            v, moves, st = max(done, key=lambda d: d[0])
            car = st["cars"][SEAT]
            return Race(seed, car["place"], st["round"], moves, time.perf_counter() - started)
        if not seen:
            raise RuntimeError(f"seed {seed}: no way on")
        best = sorted(seen.values(), key=lambda d: -d[0])[:beam]
        frontier = [(m, s) for _, m, s in best]


# The fair planner: the oracle's planning on states redrawn from the seat's view (perfect-information
# Monte Carlo, the method issue #34 names): at each submission, on PLAN_DEALS redrawn states, a
# beam search over the racer's plans (bot/ai/heat.py plans) from its PLAN_WIDTH best-judged
# submissions to the finish; the submission best on average is played. Clairvoyant, it plans on
# the real state instead: what the same planner makes of knowing the decks' order.
PLAN_DEALS = 4
PLAN_WIDTH = 12
PLAN_ROUNDS = 20
PLAN_BEAM = 8


def play_round(state: State, ids: list[int]) -> State | None:
    """The state after the seat submits `ids` and the round is played (None: refused)."""
    try:
        st, _ = ENGINE.apply(state, SEAT, {"type": "submit", "cards": ids})
    except GameError:
        return None
    while st["phase"] == "decide":  # (an asked decision: the racer's own preferences never ask)
        st, _ = ENGINE.apply(st, SEAT, ENGINE.auto_action(st, SEAT))
    return st


def next_rounds(state: State) -> list[State]:
    """The states the racer's plans (one per set of card types) lead to after a round."""
    cards = state["cards"]
    out, tried = [], set()
    for ids in heat_ai.plans(state, SEAT):
        kinds = tuple(sorted(cards[c] for c in ids))
        if kinds not in tried:
            tried.add(kinds)
            st = play_round(state, ids)
            if st is not None:
                out.append(st)
    return out


def plan_deal(world: State, subs: list[Action]) -> list[float]:
    """On one state, each submission's worth: a beam search over the racer's plans from all of
    them at once (PLAN_BEAM states a round, each remembering its submission) to the finish; the
    best `value` among the states it leads to at the end, or, fallen out of the beam earlier,
    less than all of them by the rounds it fell short."""
    frontier = []
    for i, a in enumerate(subs):
        st = play_round(world, a["cards"])
        if st is not None:
            frontier.append((value(st), i, st))
    worth = [-1e6] * len(subs)
    for left in range(PLAN_ROUNDS - 1, -1, -1):
        frontier.sort(key=lambda f: -f[0])
        floor = frontier[-1][0] if frontier else 0.0
        for v, i, _ in frontier[PLAN_BEAM:]:
            worth[i] = max(worth[i], min(v, floor) - heat_ai.TEMPO * (left + 1))
        frontier = frontier[:PLAN_BEAM]
        if left == 0 or all(st["phase"] == "over" for _, _, st in frontier):
            break
        grown = []
        for v, i, st in frontier:
            more = [] if st["phase"] == "over" else next_rounds(st)
            grown += [(value(n), i, n) for n in more] or [(v, i, st)]
        frontier = grown
    for v, i, _ in frontier:
        worth[i] = max(worth[i], v)
    return worth


def planned_move(state: State, seed: int, clairvoyant: bool) -> Action | None:
    """The fair planner's submission (None: not a submission, or only one on offer)."""
    if state["phase"] != "submit":
        return None
    subs = [a for a in decisions(ENGINE, state, SEAT) if a["type"] == "submit"]
    if len(subs) <= 1:
        return None
    subs.sort(key=lambda a: -heat_ai.judge(state, SEAT, a["cards"]))
    subs = subs[:PLAN_WIDTH]
    totals = [0.0] * len(subs)
    rng = random.Random(seed)
    for _ in range(1 if clairvoyant else PLAN_DEALS):
        world = state if clairvoyant else ENGINE.redraw_hidden(state, SEAT, rng.getrandbits(63))
        for i, w in enumerate(plan_deal(world, subs)):
            totals[i] += w
    return subs[max(range(len(subs)), key=lambda i: (totals[i], -i))]


@contextmanager
def look_ahead(playouts: int | None = None, rounds: int | None = None, depth: int | None = None) -> Iterator[None]:
    """Within it the Heat AI imagines so many playouts a decision (the strong level's), rounds and
    moves ahead (None: as the product's); the product's own is back after it."""
    product = ai_games.AI["heat"]
    ai_games.AI["heat"] = dataclasses.replace(
        product,
        playouts=product.playouts if playouts is None else playouts,
        rounds=product.rounds if rounds is None else rounds,
        depth=product.depth if depth is None else depth,
    )
    try:
        yield
    finally:
        ai_games.AI["heat"] = product


def ai_race(seed: int, level: str = "strong", planner: str = "", decision_seed: int = 0) -> Race:
    """The AI's race on `seed`, as the arena plays it (bot/tools/arena.py play), its decisions
    seeded from seed + `decision_seed` (0: as the arena's); with a `planner` ("fair" or
    "clairvoyant") its submissions are the planner's (`planned_move`)."""
    started = time.perf_counter()
    state = new_race(seed)
    rng = random.Random(seed + decision_seed)
    moves: list[Action] = []
    times: list[float] = []
    while state["phase"] != "over":
        deal = rng.getrandbits(63)
        asked = time.perf_counter()
        action = choose(ENGINE, state, SEAT, level, deal)
        if len(decisions(ENGINE, state, SEAT)) > 1:  # (as the arena counts them)
            times.append(time.perf_counter() - asked)
        if planner and action["type"] == "submit":
            action = planned_move(state, deal, planner == "clairvoyant") or action
        moves.append(action)
        state, _ = ENGINE.apply(state, SEAT, action)
    place, rounds = state["cars"][SEAT]["place"], state["round"]
    return Race(seed, place, rounds, moves, time.perf_counter() - started, times)


def replay(seed: int, moves: list[Action]) -> Iterator[State]:
    """The race's states, one after each move."""
    state = new_race(seed)
    for action in moves:
        state, _ = ENGINE.apply(state, SEAT, action)
        yield state


def trace(race: Race) -> list[dict]:
    """The racer's rounds: where it started and ended, gear, Heat paid, boost, slipstream, spin-out,
    cooled, the Engine's Heat and the Stress in its cards after the round, and its place then
    among the Legends (their positions)."""
    out = []
    last = None
    for state in replay(race.seed, race.moves):
        car = state["cars"][SEAT]
        rd = car["rd"]
        if rd is None or (last is not None and rd["round"] == last):
            continue
        if state["phase"] == "decide":
            continue
        last = rd["round"]
        cards = state["cards"]
        out.append(
            {
                "round": rd["round"],
                "start": rd["start"],
                "pos": car["pos"],
                "gear": car["gear"],
                "speed": rd["speed"],
                "heat": rd["heat"],
                "boost": rd["boost"],
                "slip": bool(rd["slip"]),
                "spun": rd["spun"],
                "cool": rd["cool"],
                "adr": rd["adr"],
                "engine": len(car["engine"]),
                "stress": sum(1 for c in car["hand"] + car["deck"] + car["discard"] if KIND[cards[c]] == "stress"),
                "legends": sorted((c["pos"] for c in state["cars"][1:]), reverse=True),
            }
        )
    return out


def discarded(moves: list[Action]) -> int:
    """How many cards the racer discarded over the race."""
    return sum(len(m["cards"]) for m in moves if m["type"] == "discard")


def summary(races: list[Race]) -> dict[str, float]:
    """Averages over races: rounds, gear, Heat paid (lap 1, lap 2), boosts, slipstreams, spin-outs,
    Adrenaline used, cards discarded, the Engine's Heat at the end of lap 1, the position after 5,
    10 and 15 rounds, rounds spent below gear 3; and per stretch of the race (the spaces before the
    k-th corner line of the race; the last: to the finish) the rounds begun in it and the Heat paid."""
    out: dict[str, float] = {}
    n = len(races) or 1
    tr = heat_rules.track_of(new_race(races[0].seed)) if races else None
    lap = tr.spaces if tr else 0
    for race in races:
        rounds = trace(race)
        if tr is not None:
            for r in rounds:
                line = bisect_left(tr.line_pos, r["start"]) + 1
                out[f"rounds_before_line_{line}"] = out.get(f"rounds_before_line_{line}", 0.0) + 1 / n
                out[f"heat_before_line_{line}"] = out.get(f"heat_before_line_{line}", 0.0) + r["heat"] / n
        first = [r for r in rounds if r["start"] < lap]
        second = [r for r in rounds if r["start"] >= lap]
        row = {
            "rounds": race.rounds,
            "gear": sum(r["gear"] for r in rounds) / len(rounds),
            "heat_lap1": sum(r["heat"] for r in first),
            "heat_lap2": sum(r["heat"] for r in second),
            "boosts": sum(r["boost"] for r in rounds),
            "slipstreams": sum(r["slip"] for r in rounds),
            "spins": sum(r["spun"] for r in rounds),
            "adrenaline": sum(r["adr"] for r in rounds),
            "discarded": discarded(race.moves),
            "engine_after_lap1": first[-1]["engine"] if first else 0,
            "pos_after_5": rounds[4]["pos"] if len(rounds) > 4 else 0,
            "pos_after_10": rounds[9]["pos"] if len(rounds) > 9 else 0,
            "pos_after_15": rounds[14]["pos"] if len(rounds) > 14 else 0,
            "low_gear_rounds": sum(r["gear"] <= 2 for r in rounds),
        }
        for name, v in row.items():
            out[name] = out.get(name, 0.0) + v / n
    return out


def parse_seeds(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += range(int(a), int(b or a) + 1)
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.tools.heat_oracle", description=__doc__.split("\n\n")[0].replace("\n", " ")
    )
    parser.add_argument("--seeds", default="100039-100134", help="the races: FIRST-LAST seeds")
    parser.add_argument("--beam", type=int, default=64, help="the states kept each round (the figures above: 16)")
    parser.add_argument(
        "--play", default="oracle", help="who races the seeds, comma-separated: oracle, ai, fair, clairvoyant"
    )
    parser.add_argument(
        "--cards-only", action="store_true", help="the oracle keeps the AI's preferences and chooses only its cards"
    )
    parser.add_argument("--out", type=Path, default=None, help="one JSON line per race (moves included)")
    parser.add_argument("--decision-seed", type=int, default=0, help="the AI's decisions seeded from seed + K")
    parser.add_argument("--playouts", type=int, default=None, help="the strong AI's playouts a decision")
    parser.add_argument("--rounds", type=int, default=None, help="the AI's look-ahead in rounds")
    parser.add_argument("--depth", type=int, default=None, help="the AI's look-ahead in moves at most")
    args = parser.parse_args(argv)
    with look_ahead(args.playouts, args.rounds, args.depth):
        return run(args)


def run(args: argparse.Namespace) -> int:
    who = [w for w in args.play.split(",") if w]
    ahead = dict.fromkeys(who, 0)
    seconds = dict.fromkeys(who, 0.0)
    races: dict[str, list[Race]] = {w: [] for w in who}
    seeds = parse_seeds(args.seeds)
    prefs = AI_PREFS if args.cards_only else ASK
    for seed in seeds:
        row: dict = {"seed": seed}
        for w in who:
            if w == "oracle":
                race = oracle(seed, args.beam, prefs)
            else:
                race = ai_race(seed, planner="" if w == "ai" else w, decision_seed=args.decision_seed)
            races[w].append(race)
            ahead[w] += race.place == 1
            seconds[w] += race.seconds
            row[w] = {
                "place": race.place,
                "rounds": race.rounds,
                "seconds": round(race.seconds, 1),
                "moves": race.moves,
                "decision_seconds": [round(t, 4) for t in race.decision_seconds],
            }
        print(
            f"seed {seed}: " + ", ".join(f"{w} place {row[w]['place']} in {row[w]['rounds']} rounds" for w in who),
            file=sys.stderr,
            flush=True,
        )
        if args.out:
            with args.out.open("a") as f:
                f.write(json.dumps(row) + "\n")
    for w in who:
        name = {"oracle": "heat_oracle", "ai": "heat_ai_strong"}.get(w, f"heat_{w}_planner")
        print(f"{name}_ahead_of_all_legends: {ahead[w] / len(seeds):.2f} share")
        print(f"{name}_seconds_per_race: {seconds[w] / len(seeds):.1f} s")
    print(f"heat_oracle_races: {len(seeds)} races")
    if "ai" in who:
        times = [t for race in races["ai"] for t in race.decision_seconds]
        print(f"heat_ai_strong_decision_p95_s: {percentile(times, 0.95):.3f} s")
        print(f"heat_ai_strong_decision_median_s: {percentile(times, 0.5):.3f} s")
    if "ai" in who and len(who) > 1:  # where they differ: the races the AI did not win
        lost = [i for i, race in enumerate(races["ai"]) if race.place != 1]
        print(f"heat_ai_lost_races: {len(lost)} races")
        for w in who:
            if lost:
                for k, v in summary([races[w][i] for i in lost]).items():
                    print(f"heat_{w}_in_ai_lost_{k}: {v:.2f} mean")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
