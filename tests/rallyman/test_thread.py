"""What the thread is told: each round marked, the end of a stage said once (issue #31)."""
from __future__ import annotations

from bot.games.rallyman import par as P
from bot.games.rallyman.engine import ENGINE as E
from bot.i18n import render


def _play(stage, seats, seed):
    st = E.new_game({"stage": stage}, seats, seed)
    lines = []
    while not E.is_over(st):
        seat = E.to_act(st)[0]
        st, ev = E.apply(st, seat, P.good_action(st, seat))
        lines += [render(e.text, "en").replace("<seat:", "p").replace(">", "") for e in ev if e.to is None]
    return st, lines


def test_rounds_are_marked_and_a_stage_ends_once():
    st, lines = _play("Rally4 SS1", 2, 4)
    rounds = [ln for ln in lines if ln.startswith("Round ")]
    assert rounds[0].startswith("Round 2 of Rally4 SS1: ") and len(rounds) == st["round"] - 2  # the last count ends the stage
    ends = [ln for ln in lines if "Fastest" in ln]
    assert len(ends) == 1 and ends[0].startswith("Stage over. Fastest: ")


def test_a_rally_says_each_stage_and_the_rally_once():
    st, lines = _play("Rally1", 1, 2)
    ends = [ln for ln in lines if "Fastest" in ln]
    assert [e.split(" Fastest")[0] for e in ends] == ["Rally1 SS1 done.", "Rally1 SS2 done.", "Rally1 SS3 done.",
                                                      "Rally over."]
    assert "Round 1 of Rally1 SS2: p0." in lines
