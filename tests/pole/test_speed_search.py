"""The move search's speed work keeps what it finds and what it leaves behind (issue #34): a search
without paths (the turn's menu) finds the same options as one with them, but for the paths; the
garbage collector is held off only while a search runs, and left as it was found."""

from __future__ import annotations

import gc
import random

import pytest

from bot.games.pole import ENGINE as E
from bot.games.pole import rules as R
from tests.digests import random_decision

RACES = [({"circuit": "monaco"}, 3, 0), ({"circuit": "brazil", "drs": True, "collisions": True}, 4, 3)]


def _searches(options: dict, seats: int, seed: int, moves: int = 150) -> list[tuple]:
    """The arguments of the searches a seeded random race makes in its first moves."""
    calls: list[tuple] = []
    search = R.search

    def kept(*args, **kwargs):
        calls.append((args, {k: v for k, v in kwargs.items() if k != "paths"}))
        return search(*args, **kwargs)

    R.search = kept
    try:
        rnd, st = random.Random(seed), E.new_game(E.validate_options(dict(options), seats), seats, seed)
        for _ in range(moves):
            if E.is_over(st):
                break
            seat = rnd.choice(E.to_act(st))
            st, _ = E.apply(st, seat, random_decision(E, st, seat, rnd))
    finally:
        R.search = search
    return calls


@pytest.mark.parametrize("race", RACES)
def test_a_search_without_paths_finds_the_same_options(race):
    calls = _searches(*race)
    assert len(calls) > 20
    for args, kwargs in calls:
        full = R.search(*args, **kwargs)
        assert any(o.path for o in full)
        assert R.search(*args, **kwargs, paths=False) == [o._replace(path=()) for o in full]


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_left_as_it_was_found(enabled):
    args, kwargs = _searches(*RACES[0], moves=20)[-1]
    seen = []
    moves_from = R._moves_from

    def spy(*a):  # inside the search: the collector is off
        seen.append(gc.isenabled())
        return moves_from(*a)

    was = gc.isenabled()
    R._moves_from = spy
    R._GEO.clear()  # the circuit's steps worked out afresh, through the spy
    try:
        gc.enable() if enabled else gc.disable()
        assert R.search(*args, **kwargs)
        assert gc.isenabled() is enabled
    finally:
        R._moves_from = moves_from
        gc.enable() if was else gc.disable()
    assert seen and not any(seen)
