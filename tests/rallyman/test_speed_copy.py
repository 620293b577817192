"""Rallyman's own copy_state (issue #34: it shares the log's lines, which no move changes): the copy
is equal to the state, keys in the same order, and no move through apply changes the state it was
given, over seeded random games (a whole rally among them)."""

from __future__ import annotations

import random

import orjson
import pytest

from bot.games.rallyman.engine import ENGINE as E


@pytest.mark.parametrize(
    ("stage", "seats", "seed"), [("Rally4 SS1", 3, 11), ("Rally1", 4, 12), ("TheClimb SS2", 2, 13)]
)
def test_apply_never_changes_the_state_it_is_given(stage, seats, seed):
    st = E.new_game({"stage": stage}, seats, seed)
    rnd = random.Random(seed)
    while not E.is_over(st):
        copy = E.copy_state(st)
        assert copy == st and list(copy) == list(st)
        seat = E.to_act(st)[0]
        before = orjson.dumps(st)
        act = rnd.choice(E.legal_actions(st, seat))
        nxt, _ = E.apply(st, seat, act)
        assert orjson.dumps(st) == before, act
        st = nxt
