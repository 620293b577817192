"""The engine contract, checked the same way for every registered engine (issue #29), the way
OpenSpiel's API test runs over every game: a new game gets all of it by registering.

Seeded random playouts to the end (decisions picked at random among the legal actions, not the
automatic player's choice), and at every step:
- every legal action the playout picks applies; `apply` leaves its input untouched;
- sampled illegal actions (another seat's move, a made-up type, no dict at all) are refused with
  a GameError and the state untouched;
- the state round-trips through JSON exactly;
- each waiting seat has a decision to make; nobody waits once the game is over;
- menus keep Discord's limits, and labels are unique among a seat's legal actions and within
  each button group and single-choice select once put into words (a select of several cards
  may offer two alike: either is the same pick);
and at the end the game replays from its seed and log to the same state.
Secrecy by perturbation is tests/core/test_ai.py, over every registered engine too: a state dealt
again in everything one seat cannot see (other hands, decks, dice to come, secret choices) shows
that seat the same view, menu and moves, and its AI the same decision.
"""

from __future__ import annotations

import copy
import random

import orjson
import pytest

from bot.games.base import GameError, is_preference, name_seats, replay
from bot.games.registry import engines
from bot.i18n import render

ENGINES = engines()
MAX_STEPS = 6000
SEEDS = (11, 12)


def seat_counts(engine) -> list[int]:
    fewest = max(engine.min_seats, 2) if engine.max_seats >= 2 else engine.min_seats
    return sorted({fewest, min(engine.max_seats, 4)})


def words(engine, state, seat, action) -> str:
    return render(engine.describe_action(state, seat, action), "en")


def check_menu(engine, state, seat: int, names: list[str]) -> None:
    menu = engine.menu(state, seat)
    rows = 0
    buttons = 0
    for group in menu:
        assert group["kind"] in ("buttons", "select"), group
        if group["kind"] == "select":
            rows += 1
            options = group["options"]
            assert 1 <= len(options) <= 25, (engine.kind, len(options))
            labels = [name_seats(render(o["label"], "en"), names)[:100] for o in options]
            if group.get("max", 1) == 1:  # a pick of one; a pick of several may offer alike cards
                assert len(set(labels)) == len(labels), (engine.kind, "select labels repeat", labels)
            values = [str(o["value"]) for o in options]
            assert len(set(values)) == len(values) and all(len(v) <= 100 for v in values), values
            assert 0 <= group.get("min", 1) <= group.get("max", 1) <= len(options), group
        else:
            n = len(group["options"])
            buttons += n
            rows += (n + 4) // 5
            labels = [name_seats(render(b["label"], "en"), names)[:80] for b in group["options"]]
            assert len(set(labels)) == len(labels), (engine.kind, "button labels repeat", labels)
    assert rows <= 5 and buttons <= 25, (engine.kind, rows, buttons)
    orjson.dumps(menu, default=lambda m: render(m, "en"))  # plain data besides its Msgs


def check_refusals(engine, state, seat: int, seats: int, rnd: random.Random) -> None:
    """Moves the seat may not make are refused, and the state stays as it was."""
    before = copy.deepcopy(state)
    mine = engine.legal_actions(state, seat)
    others = [a for s in range(seats) if s != seat for a in engine.legal_actions(state, s) if a not in mine]
    tries = [{"type": "no-such-move"}, "not a move"] + rnd.sample(others, min(2, len(others)))
    for action in tries:
        with pytest.raises(GameError):
            engine.apply(state, seat, action)
        assert state == before, (engine.kind, "a refused move changed the state", action)


def playout(engine, seats: int, seed: int) -> None:
    options = engine.validate_options({}, seats)
    state = engine.new_game(options, seats, seed)
    names = [f"p{i}" for i in range(seats)]
    rnd = random.Random(seed)
    log = []
    for step in range(MAX_STEPS):
        assert orjson.loads(orjson.dumps(state)) == state, (engine.kind, "the state does not round-trip")
        for seat in range(seats):
            check_menu(engine, state, seat, names)
        if engine.is_over(state):
            assert engine.to_act(state) == [] or all(not engine.legal_actions(state, s) for s in engine.to_act(state))
            break
        waiting = engine.to_act(state)
        assert waiting, (engine.kind, "nobody to move in a game that is not over")
        seat = rnd.choice(waiting)
        legal = engine.legal_actions(state, seat)
        decisions = [a for a in legal if not is_preference(a)]
        assert decisions, (engine.kind, f"seat {seat} waits with no decision to make")
        labels = [name_seats(words(engine, state, seat, a), names) for a in legal]
        assert len(set(labels)) == len(labels), (engine.kind, "move labels repeat", labels)
        if step % 7 == 0:
            check_refusals(engine, state, seat, seats, rnd)
        action = rnd.choice(decisions)
        before = copy.deepcopy(state)
        new, events = engine.apply(state, seat, action)
        assert state == before, (engine.kind, "apply changed its input")
        assert all(e.to is None or 0 <= e.to < seats for e in events)
        log.append((seat, action))
        state = new
    else:
        pytest.fail(f"{engine.kind}: {seats} seats, seed {seed}: not over after {MAX_STEPS} moves")
    assert replay(engine, options, seats, seed, log) == state, (engine.kind, "the log does not replay")


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", sorted(ENGINES))
def test_random_playouts_keep_the_contract(kind, seed):
    engine = ENGINES[kind]
    for seats in seat_counts(engine):
        playout(engine, seats, seed)
