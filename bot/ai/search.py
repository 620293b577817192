"""The AI's decision: flat Monte Carlo over determinized states.

For each move a seat may make it imagines the game many times: everything the seat cannot see is
dealt again at random (`Engine.redraw_hidden`: other hands, deck orders, secret choices, the dice
to come), the move is made, every seat then plays on as the game's automatic player would for a
few turns (or the game's own look-ahead player: bot/ai/<kind>.py), and the seat's standing is judged (`bot.ai.value.share`). The move with the best
average wins. Successive halving spends the playouts on the moves still in the running; every
candidate meets the same imagined deals (common random numbers), so luck cancels out.

Everything is seeded: the same state, seat, level and seed give the same move.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from bot.ai.games import AI, policy
from bot.ai.value import share
from bot.games.base import Action, Engine, GameError, State, clone, is_preference
from bot.games.registry import engines

LEVEL_NAMES = ("easy", "normal", "strong")


@dataclass(frozen=True)
class Level:
    search: float  # the share of the game's playouts (GameAI.playouts) spent per decision (0: no search)
    width: int  # the most moves weighed (the automatic player's pick always among them)
    blunder: float = 0.0  # without search: how often a move is picked at random instead


# The most a decision takes: a slow engine (Pole's move search) or a busy machine stops the search
# with the best move so far, so an AI seat never keeps the table waiting long (#34's goal: strong
# decisions within 2 s at the 95th percentile). Within it, the same seed gives the same move. The
# clock is read between look-ahead moves, and the redraw and shortlist come before it: 1.7 s keeps
# a margin (10 Pole decisions at 2.0: the slowest 2.02 s alone, ~2.2 s in a busy arena; at 1.7: 1.71 s).
MAX_SECONDS = 1.7

LEVELS = {
    "easy": Level(search=0, width=0, blunder=0.35),
    "normal": Level(search=0.25, width=8),
    "strong": Level(search=1.0, width=16),
}


def decide(kind: str, state: State, seat: int, level: str, seed: int, own: bool = True) -> Action:
    """`choose` for the game of that kind: what a worker process runs (it is handed plain data)."""
    return choose(engines()[kind], state, seat, level, seed, own)


def decisions(engine: Engine, state: State, seat: int) -> list[Action]:
    return [a for a in engine.legal_actions(state, seat) if not is_preference(a)]


def ai_options(engine: Engine, state: State, seat: int) -> list[Action]:
    """The moves the AI weighs: the seat's decisions but the ones that only step back through a choice
    being built (GameAI.navigation: take back the last tile or die, clear the plan), unless nothing
    else is left."""
    options = decisions(engine, state, seat)
    back = AI[engine.kind].navigation
    onward = [a for a in options if a.get("type") not in back]
    return onward or options


def choose(engine: Engine, state: State, seat: int, level: str, seed: int, own: bool = True) -> Action:
    """The seat's move. It reads the state only through what the seat may see: its own legal
    moves, and states redrawn from what it sees. Before its first decision an AI seat of its `own`
    may set a standing choice (GameAI.standing: Heat's preferences); standing in for an absent
    player it keeps that player's (they are the player's when the seat is taken back)."""
    game = AI[engine.kind]
    standing = game.standing if own else None
    first = standing(state, seat) if standing is not None else None
    if first is not None:
        return first
    options = ai_options(engine, state, seat)
    if not options:
        raise ValueError(f"seat {seat} has nothing to decide")
    if len(options) == 1:
        return options[0]
    rng = random.Random(seed)
    lv = LEVELS[level]
    seen = engine.redraw_hidden(state, seat, rng.getrandbits(63))
    if game.plan is not None and lv.search > 0:  # a race-long plan narrows the searching levels' options
        options = game.plan(seen, seat, options, level)
        if len(options) == 1:
            return options[0]
    usual = _usual(engine, seen, seat, options)
    budget = round(lv.search * game.playouts)
    if budget == 0:
        return rng.choice(options) if rng.random() < lv.blunder else usual
    return _search(engine, state, seat, _shortlist(engine, state, seat, options, usual, lv.width, rng), budget, rng)


def _usual(engine: Engine, seen: State, seat: int, options: list[Action]) -> Action:
    """What the look-ahead's player would do (bot/ai/games.py policy), on a state redrawn from the seat's view."""
    try:
        pick = policy(engine)(engine, seen, seat)
    except (GameError, StopIteration, IndexError, KeyError):
        return options[0]
    return pick if pick in options else options[0]


def _shortlist(
    engine: Engine, state: State, seat: int, options: list[Action], usual: Action, width: int, rng: random.Random
) -> list[Action]:
    """The moves worth weighing: all that fit, else the usual one and the most promising (where the
    game can tell: GameAI.promise) or a seeded sample."""
    if len(options) <= width:
        return options
    rest = [a for a in options if a != usual]
    promise = AI[engine.kind].promise
    if promise is None:
        return [usual, *rng.sample(rest, width - 1)]
    return [usual, *sorted(rest, key=lambda a: -promise(state, seat, a))[: width - 1]]


def _search(
    engine: Engine,
    state: State,
    seat: int,
    candidates: list[Action],
    budget: int,
    rng: random.Random,
    seconds: float | None = None,
) -> Action:
    deadline = time.monotonic() + (MAX_SECONDS if seconds is None else seconds)
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    alive = list(range(len(candidates)))
    rounds = max(1, math.ceil(math.log2(len(candidates))))
    for _ in range(rounds):
        per = max(1, budget // (rounds * len(alive)))
        deals = [rng.getrandbits(63) for _ in range(per)]
        for i in alive:
            for deal in deals:
                value = _playout(engine, state, seat, candidates[i], deal, deadline)
                if value is not None:
                    totals[i] += value
                    counts[i] += 1
                if value is None or time.monotonic() > deadline:
                    # a slow engine or a busy machine: the best so far (a look-ahead cut short by
                    # the clock counts for nothing; none finished: the first, the usual move)
                    if not any(counts):
                        return candidates[0]
                    return candidates[_best(range(len(candidates)), totals, counts)]
        if len(alive) == 1:
            break
        alive.sort(key=lambda i: -totals[i] / counts[i])
        alive = alive[: max(1, math.ceil(len(alive) / 2))]
    return candidates[_best(alive, totals, counts)]


def _best(indices, totals: list[float], counts: list[int]) -> int:
    """The best average among the candidates imagined at least once (ties: the earlier one)."""
    return max((i for i in indices if counts[i]), key=lambda i: (totals[i] / counts[i], -i))


def _playout(
    engine: Engine, state: State, seat: int, action: Action, deal: int, deadline: float | None = None
) -> float | None:
    """One imagined game: redraw what the seat cannot see, make the move, play on, judge (None:
    the deadline passed before the look-ahead was over)."""
    seen = engine.redraw_hidden(state, seat, deal)
    try:
        seen, _ = engine.apply(seen, seat, action)
    except GameError:
        return 0.0  # (cannot happen while redraw_hidden keeps the seat's own options)
    game = AI[engine.kind]
    ahead = play_on(engine, seen, game.depth, deadline, game.rounds)
    return None if ahead is None else share(engine, ahead, seat)


def play_on(
    engine: Engine, state: State, moves: int, deadline: float | None = None, rounds: int | None = None
) -> State | None:
    """Every seat plays as the look-ahead's player (bot/ai/games.py policy) for up to `moves` moves, or
    until `rounds` more rounds have begun (state["round"]; None if the clock passes `deadline` first:
    a slow engine's look-ahead stops within a move). The state handed in is left as it was."""
    play = policy(engine)
    # The look-ahead's own whole copy (an engine's apply may share parts it does not change, e.g.
    # Heat's copy_state): every move below changes it in place, without a copy per move.
    state = clone(state)
    last = None if rounds is None else state["round"] + rounds
    for _ in range(moves):
        if engine.is_over(state) or (last is not None and state["round"] >= last):
            break
        if deadline is not None and time.monotonic() > deadline:
            return None
        waiting = engine.to_act(state)
        if not waiting:
            break
        who = waiting[0]
        try:
            engine.apply_in_place(state, who, play(engine, state, who), [])
        except GameError:  # refused before any change (the contract): the seat's first decision instead
            try:
                engine.apply_in_place(state, who, decisions(engine, state, who)[0], [])
            except (GameError, IndexError):
                break
    return state
