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

DIGESTS = {  # re-recorded for rules_version 4: the move menu keeps each way to pay (driving.py)
    0: "e55022bd9f1e19e8",
    1: "a6891fb2f9fe5762",
    2: "2f436a1d3285961e",
    3: "abae4ed26496932b",
    4: "e86413195b9cd2ff",
    5: "24e4f858eb3aa29e",
    6: "75e40ab1c159a59e",
    7: "9580b9f8c96feed6",
    8: "691503316dd84a14",
    9: "a7d544bba8862fd8",
    10: "8957c7157412c50d",
    11: "0b9d3a62bf228744",
}


@pytest.mark.parametrize("i", range(len(CASES)))
def test_races_play_as_recorded(i):
    assert digest(*CASES[i]) == DIGESTS[i]


if __name__ == "__main__":
    for i, case in enumerate(CASES):
        print(f"    {i}: {digest(*case)!r},", flush=True)
    sys.exit(0)
