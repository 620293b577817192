"""A seeded game hashed move by move, for the engines' speed work (issue #34): the seat and its
action, the events (words and who gets them), the state after the move, the spectator's view and
the mover's, the next seat's menu and the labels of its legal actions. Any change in what a move
does or shows changes the hash (tests/pole and tests/pon test_speed_digests.py). Also: `apply` checked
to leave its input untouched, for the random games."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

import orjson

from bot.games.base import Action, Engine, Event, State
from bot.i18n import Msg


def _wire(value: Any) -> Any:
    if isinstance(value, Msg):
        return {"msg": value.key, "params": value.params}
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(type(value))


def dump(value: Any) -> bytes:
    return orjson.dumps(value, default=_wire, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)


def apply_untouched(engine: Engine, st: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    """engine.apply, checking that it leaves its input as it was (bytes compared: cheap at every step)."""
    before = orjson.dumps(st)
    result = engine.apply(st, seat, action)
    assert orjson.dumps(st) == before, ("apply changed its input", seat, action)
    return result


def random_decision(engine: Engine, st: State, seat: int, rnd: random.Random) -> Action:
    """A random choice among the seat's decisions, as the engine bench plays (bot/tools/bench/engines.py)."""
    return rnd.choice([a for a in engine.legal_actions(st, seat) if a.get("type") != "prefs"])


def digest(
    engine: Engine,
    options: dict,
    seats: int,
    seed: int,
    choose: Callable[[State, int, random.Random], Action],
    moves: int = 3000,
) -> str:
    """The hash of a seeded game's first `moves` moves (or to the end), everything each move shows."""
    rnd = random.Random(seed)
    h = hashlib.sha256()
    st = engine.new_game(engine.validate_options(dict(options), seats), seats, seed)
    h.update(dump(st))
    for _ in range(moves):
        if engine.is_over(st):
            break
        seat = rnd.choice(engine.to_act(st))
        action = choose(st, seat, rnd)
        st, events = engine.apply(st, seat, action)
        h.update(dump([seat, action, [[e.text, e.to, e.log] for e in events], st]))
        h.update(dump([engine.view(st, None), engine.view(st, seat)]))
        waiting = engine.to_act(st)
        if waiting:
            nxt = waiting[0]
            acts = engine.legal_actions(st, nxt)
            h.update(dump([nxt, engine.menu(st, nxt), acts, [engine.describe_action(st, nxt, a) for a in acts]]))
    h.update(dump([engine.is_over(st), st]))
    return h.hexdigest()[:16]
