"""4.1: after rerolls the player picks one of the rolls. Reading: the pick may be changed once
(two "Use roll" picks between rerolls), so nobody can toggle between rolls without end; a new
reroll opens the choice again."""

import pytest

from bot.games.base import GameError
from bot.games.pole import ENGINE as E
from tests.pole.helpers import find


def uses(st, seat):
    return [a for a in E.legal_actions(st, seat) if a["type"] == "use"]


def test_use_roll_can_be_changed_once_then_no_more():
    def rerollable(st):
        t = st["turn"]
        return (
            st["phase"] == "race"
            and t is not None
            and t["seat"] == 0
            and t["stage"] == "move"
            and t["ms"] is None
            and t["die"] != "purple"
            and {"type": "reroll"} in E.legal_actions(st, 0)
            and st["cars"][0]["sp"] >= 2
        )

    *_, st, _ = find(rerollable)
    st, _ = E.apply(st, 0, {"type": "reroll"})
    assert len(uses(st, 0)) == 1
    first = uses(st, 0)[0]
    st, _ = E.apply(st, 0, first)  # pick the other roll
    back = uses(st, 0)
    assert back and back[0]["i"] != first["i"]
    st, _ = E.apply(st, 0, back[0])  # and change the mind once
    assert uses(st, 0) == []
    with pytest.raises(GameError):
        E.apply(st, 0, first)
    assert all(b["label"].key != "Use roll {r}" for g in E.menu(st, 0) if g["kind"] == "buttons" for b in g["options"])
    if {"type": "reroll"} in E.legal_actions(st, 0):  # a new roll: the choice is open again
        st, _ = E.apply(st, 0, {"type": "reroll"})
        assert uses(st, 0)
