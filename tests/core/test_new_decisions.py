"""Who is told of a new decision (Table.plan via new_decisions): a seat that starts waiting, every
waiting seat with a new turn, and a waiting seat whose decision the engine says changed; never a
seat still in the same decision, whatever its menu looks like."""

from __future__ import annotations

from bot.games.base import Engine
from bot.table import new_decisions


class Toy(Engine):
    """Seats in state["waiting"] are waited for; state["ask"][seat] is what each decides."""

    def to_act(self, state):
        return state["waiting"]

    def is_over(self, state):
        return state.get("over", False)

    def decision(self, state, seat):
        return state["ask"].get(str(seat))


def st(waiting, ask=None, over=False):
    return {"waiting": waiting, "ask": ask or {}, "over": over}


def test_a_seat_that_starts_waiting_is_told_one_still_waiting_is_not():
    assert new_decisions(Toy(), st([0]), st([0, 1])) == [1]
    assert new_decisions(Toy(), st([0, 1]), st([0, 1])) == []


def test_everyone_waiting_is_told_at_the_start_and_with_a_new_turn():
    assert new_decisions(Toy(), None, st([0, 2])) == [0, 2]
    assert new_decisions(Toy(), st([0, 1]), st([0, 1]), new_turn=True) == [0, 1]


def test_the_engine_says_when_a_waiting_seat_decides_anew():
    before, after = st([0, 1], {"0": "Q2", "1": "Q2"}), st([0, 1], {"0": "Q3", "1": "Q2"})
    assert new_decisions(Toy(), before, after) == [0]


def test_nobody_is_told_once_the_game_is_over():
    assert new_decisions(Toy(), st([0]), st([1], over=True)) == []


def test_the_default_decision_leaves_it_to_waiting():
    assert Engine().decision({}, 0) is None
