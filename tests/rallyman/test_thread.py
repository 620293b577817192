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
    assert rounds[0] == "Round 1 of Rally4 SS1: p1." and rounds[1] == "Round 2 of Rally4 SS1: p1, p0."
    assert len(rounds) == st["round"] - 1  # the last count ends the stage
    ends = [ln for ln in lines if "Fastest" in ln]
    assert len(ends) == 1 and ends[0].startswith("Stage over. Fastest: ")


def test_a_rally_says_each_stage_and_the_rally_once():
    st, lines = _play("Rally1", 1, 2)
    ends = [ln for ln in lines if "Fastest" in ln]
    assert [e.split(" Fastest")[0] for e in ends] == [
        "Rally1 SS1 done.",
        "Rally1 SS2 done.",
        "Rally1 SS3 done.",
        "Rally over.",
    ]
    assert "Round 1 of Rally1 SS2: p0." in lines


def test_a_rounds_post_starts_with_its_mark():
    """The view's "post" (one thread post per key) moves on with the round's first move, whose
    lines begin with the round's mark; the move ending a round stays in that round's post."""
    st = E.new_game({"stage": "Rally4 SS1"}, 2, 4)
    posts = {}
    key = tuple(E.view(st, None)["post"])
    while not E.is_over(st):
        seat = E.to_act(st)[0]
        st, ev = E.apply(st, seat, P.good_action(st, seat))
        new = tuple(E.view(st, None)["post"])
        text = [render(e.text, "en") for e in ev if e.to is None]
        if new != key:
            assert text[0].startswith("Round "), text
            posts[new] = text
        else:
            assert not any(t.startswith("Round ") for t in text), text
        key = new
    assert len(posts) == st["round"] - 1
