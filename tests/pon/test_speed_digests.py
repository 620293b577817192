"""PON plays exactly as before the engine was made faster (issue #34): seeded games of 3 and 4
players, each hashed move by move: the seat and its action, the events (words and who gets them),
the state after the move, the spectator's view and the acting seat's, the next seat's menu and the
labels of its legal actions. Recorded from the code before the speed work (73c0227); any change in
actions, states, events, views, menus or labels changes a hash.

Three kinds of players drive the games: a random choice among the seat's decisions (as the engine
bench plays, `bot/tools/bench/engines.py`), a random player that also changes its preferences now
and then (as tests/pon/test_playouts.py does, "ask" included) and the engine's automatic player
(`auto_action`, the AI's look-ahead).

Re-record (only after a deliberate rules change, said in the commit) with
    .venv/bin/python -m tests.pon.test_speed_digests
"""

from __future__ import annotations

import sys

import pytest

from bot.games.pon import ENGINE as E
from tests import digests as hashes
from tests.pon.helpers import PREF_CHANGES


def _choose(st, seat, rnd, player):
    if player == "auto" or (player == "mixed" and seat % 2 == 0):
        return E.auto_action(st, seat)
    if player == "tests" and rnd.random() < 0.05:
        return {"type": "prefs", **rnd.choice(PREF_CHANGES)}
    return hashes.random_decision(E, st, seat, rnd)


def digest(options: dict, seats: int, seed: int, player: str, moves: int = 3000) -> str:
    """The hash of a seeded game's first `moves` moves (or to the end), everything each move shows."""
    return hashes.digest(E, options, seats, seed, lambda st, seat, rnd: _choose(st, seat, rnd, player), moves)


CASES = [
    ({}, 3, 0, "random"),
    ({}, 3, 1, "random"),
    ({}, 4, 2, "random"),
    ({}, 4, 3, "random"),
    ({}, 3, 4, "tests"),
    ({}, 4, 5, "tests"),
    ({}, 3, 6, "auto"),
    ({}, 4, 7, "auto"),
    ({}, 3, 8, "mixed"),
    ({}, 4, 9, "mixed"),
]

DIGESTS = {
    0: "f9a773408ef6ba1e",
    1: "59074746f3be6d0e",
    2: "9ca1d62b53024474",
    3: "52afd33e36770cc4",
    4: "7c9eda9c6987e521",
    5: "5ea3b0c9933e998e",
    6: "e96cffaf28e53490",
    7: "e98c351fe57258fa",
    8: "bdec57ff01d6d6f0",
    9: "5664abbabb38f4e5",
}


@pytest.mark.parametrize("i", range(len(CASES)))
def test_games_play_as_recorded(i):
    assert digest(*CASES[i]) == DIGESTS[i]


if __name__ == "__main__":
    for i, case in enumerate(CASES):
        print(f"    {i}: {digest(*case)!r},", flush=True)
    sys.exit(0)
