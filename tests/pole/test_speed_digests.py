"""Pole Position plays exactly as before the engine was made faster (issue #34): seeded races over
several circuits, car counts and options, each hashed move by move: the seat and its action, the
events (words and who gets them), the state after the move, the spectator's view and the acting
seat's, the next seat's menu and the labels of its legal actions. Recorded from the code before the
speed work (73c0227); any change in actions, states, events, views, menus or labels changes a hash.

Three kinds of players drive the races: a random choice among the seat's decisions (as the engine
bench plays, `bot/tools/bench/engines.py`), the tests' random player with preferences
(tests/pole/helpers.py `policy`) and the engine's automatic player (`auto_action`, the AI's look-ahead).

Re-record (only after a deliberate rules change, said in the commit) with
    .venv/bin/python -m tests.pole.test_speed_digests
"""

from __future__ import annotations

import sys

import pytest

from bot.games.pole import ENGINE as E
from tests import digests as hashes
from tests.pole.helpers import policy


def _choose(st, seat, rnd, player):
    if player == "auto" or (player == "mixed" and seat % 2 == 0):
        return E.auto_action(st, seat)
    if player == "tests":
        return policy(st, seat, rnd)
    return hashes.random_decision(E, st, seat, rnd)


def digest(options: dict, seats: int, seed: int, player: str, moves: int = 3000) -> str:
    """The hash of a seeded race's first `moves` moves (or to the end), everything each move shows."""
    return hashes.digest(E, options, seats, seed, lambda st, seat, rnd: _choose(st, seat, rnd, player), moves)


CASES = [
    ({"circuit": "monaco"}, 3, 0, "random"),
    ({"circuit": "monaco"}, 3, 1, "random"),
    ({"circuit": "great_britain"}, 2, 2, "tests"),
    ({"circuit": "brazil", "drs": True, "collisions": True}, 4, 3, "random"),
    ({"circuit": "china", "safety_car": True, "yellow_flag": True, "bots": 2}, 2, 4, "tests"),
    ({"circuit": "spain", "stress": True, "events": True, "events_c": True}, 3, 5, "mixed"),
    ({"circuit": "usa", "drivers": True, "circuit_rules": True}, 3, 6, "random"),
    ({"circuit": "italy", "collisions": True, "constructors": True}, 5, 7, "auto"),
    ({"circuit": "germany", "custom_setup": True, "drs": True, "long_race": True}, 2, 8, "tests"),
    ({"circuit": "great_britain", "championship": 4, "engine_damage": True, "events_often": True}, 3, 9, "mixed"),
    ({"circuit": "monaco", "bots": 3, "bot_side": "B", "no_retire": True}, 3, 10, "auto"),
    ({"circuit": "brazil"}, 6, 11, "random"),
]

DIGESTS = {
    0: "eefa9009515993b2",
    1: "17190a083e1c40e2",
    2: "8726b8c08a78ec1c",
    3: "ab1aa3472f07de2e",
    4: "ff8d84514dd7a2af",
    5: "8b5ae6e6508f1f2a",
    6: "4381f9665222ebc1",
    7: "8576a54566308b9c",
    8: "91291054bf96f1fa",
    9: "e53992a2b2c2e1f5",
    10: "cdc8c4f7b37dd961",
    11: "409e0a07cf37f930",
}


@pytest.mark.parametrize("i", range(len(CASES)))
def test_races_play_as_recorded(i):
    assert digest(*CASES[i]) == DIGESTS[i]


if __name__ == "__main__":
    for i, case in enumerate(CASES):
        print(f"    {i}: {digest(*case)!r},", flush=True)
    sys.exit(0)
