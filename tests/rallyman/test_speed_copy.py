"""Rallyman's own copy_state (issue #34: it shares the log's lines, the cars' time cards and the
roll's faces, which no move changes): the copy is equal to the state, keys in the same order, and
no move through apply changes the state it was given, over seeded random games (a whole rally
among them); keys it does not know are copied deep."""

from __future__ import annotations

import random

import pytest

from bot.games.rallyman.engine import ENGINE as E
from tests.digests import apply_untouched


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
        act = rnd.choice(E.legal_actions(st, seat))
        nxt, _ = apply_untouched(E, st, seat, act)
        st = nxt


def test_a_key_the_copy_does_not_know_is_copied_deep():
    """copy_state copies the keys it knows by their shape; any other (a newer engine's, a stored
    game's) by a JSON round trip, in the state and in a car alike."""
    st = E.new_game({"stage": "Rally4 SS1"}, 2, 5)
    st["extra"] = {"a": [1, [2]]}
    st["cars"][0]["extra"] = [{"b": 1}]
    copy = E.copy_state(st)
    assert copy == st and list(copy) == list(st) and list(copy["cars"][0]) == list(st["cars"][0])
    copy["extra"]["a"][1].append(3)
    copy["cars"][0]["extra"][0]["b"] = 2
    assert st["extra"] == {"a": [1, [2]]} and st["cars"][0]["extra"] == [{"b": 1}]
