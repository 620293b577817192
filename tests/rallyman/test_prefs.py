"""Standing preferences (how far to push without being asked) and the plan list's first entry.
Not rules of the seed: the design's "whole plans with sensible defaults and standing preferences"
(DESIGN.md). The seed's push-your-luck stays the player's: "1個ずつ振って...いつでも止められる" —
a die is rolled only after the previous one, and the player can still stop before any die."""

from __future__ import annotations

import copy

import pytest

from bot.games.base import GameError
from bot.games.rallyman import board as B
from bot.games.rallyman import rules as R
from bot.games.rallyman.engine import ENGINE as E
from bot.i18n import render
from tests.rallyman.helpers import decisions, force, game, plan

S1 = "Rally1 SS1"
STEPS = [["g4", 15, 4, ""], ["g5", 17, 5, ""], ["g6", 19, 6, ""]]  # from 13 in gear 3


def test_default_rolls_the_whole_plan_while_no_die_crosses_the_line(monkeypatch):
    st = game(S1, 1, {0: (13, 3)})
    st["cars"][0]["prefs"] = {}  # the defaults
    force(monkeypatch, faces=[[False], [False], [False]], backs=["crash"])
    st, ev = plan(st, 0, STEPS)  # one click: planned, rolled, time card
    assert st["cars"][0]["sp"] == 19 and st["cars"][0]["cards"] == [[6, 10, "time"]]
    assert sum("rolls" in render(e.text, "en") for e in ev) == 3


def test_default_asks_when_the_next_die_risk_is_above_the_line(monkeypatch):
    st = game(S1, 1, {0: (13, 3)})
    st["cars"][0]["prefs"] = {}
    force(monkeypatch, faces=[[True], [True], [False]], backs=["crash"])
    st, _ = plan(st, 0, STEPS)
    # two "!" showing: the third die (gear 6, 2 "!" faces of 6: 33%) is above the 20% line
    assert st["phase"] == "roll" and st["roll"]["i"] == 2
    assert decisions(st, 0)[-1] == {"type": "stop"}
    st, _ = E.apply(st, 0, {"type": "stop"})
    assert st["cars"][0]["sp"] == 17 and st["cars"][0]["cards"] == [[5, 15, "time"]]


def test_ask_every_die_and_roll_the_whole_plan(monkeypatch):
    st = game(S1, 1, {0: (13, 3)})  # helpers: "ask"
    st2, _ = plan(st, 0, STEPS)
    assert st2["phase"] == "roll" and st2["roll"]["i"] == 0 and {"type": "flat"} in decisions(st2, 0)
    st["cars"][0]["prefs"] = {"dice": "all"}
    force(monkeypatch, faces=[[True], [True], [False]], backs=["crash"])
    st, _ = plan(st, 0, STEPS)  # never asked, even with two "!" showing
    assert st["cars"][0]["sp"] == 19 and st["phase"] == "plan"


def test_a_preference_changed_while_asked_rolls_on(monkeypatch):
    st = game(S1, 1, {0: (13, 3)})
    force(monkeypatch, faces=[[False], [False], [False]], backs=["crash"])
    st, _ = plan(st, 0, STEPS)
    assert st["phase"] == "roll"
    st, ev = E.apply(st, 0, {"type": "prefs", "dice": "line"})
    assert st["cars"][0]["sp"] == 19 and st["phase"] == "plan"
    assert ev[0].to == 0 and "Preferences set" in render(ev[0].text, "en")


def test_preferences_from_a_waiting_seat_and_bad_ones():
    st = game(S1, 2, {0: (13, 3), 1: (0, 0)})
    assert {"type": "prefs", "line": 35} in E.legal_actions(st, 1)
    new, _ = E.apply(st, 1, {"type": "prefs", "line": 35})
    assert new["cars"][1]["prefs"]["line"] == 35 and E.to_act(new) == [0]
    before = copy.deepcopy(st)
    for bad in (
        {"type": "prefs"},
        {"type": "prefs", "line": 33},
        {"type": "prefs", "line": True},
        {"type": "prefs", "speed": 1},
        {"type": "prefs", "dice": "ask"},
    ):  # "ask" is already set
        with pytest.raises(GameError):
            E.apply(st, 1 if bad.get("dice") is None else 0, bad)
    assert st == before


def test_first_plan_is_the_farthest_within_the_line_and_never_certain():
    st = E.new_game({"stage": S1}, 1, 3)  # the first turn of Rally1 SS1 (the example)
    menu = E.menu(st, 0)
    first = menu[0]["options"][0]
    steps = R.match_steps(st, B.stage(st["stage"]), 0, first["value"])[0]
    risk = R.loc_chance(steps, True)
    assert risk <= 0.20
    assert "within your 20% risk line" in render(first["description"], "en")
    gains = [R.match_steps(st, B.stage(st["stage"]), 0, o["value"])[0] for o in menu[0]["options"]]
    under = [s for s in gains if R.loc_chance(s, True) <= 0.20]
    front = B.stage(st["stage"]).spaces
    assert front[steps[-1][1]].front == max(front[s[-1][1]].front for s in under)
    # a higher line moves the first entry on, never to a certain loss of control
    st, _ = E.apply(st, 0, {"type": "prefs", "line": 50})
    first = E.menu(st, 0)[0]["options"][0]
    assert R.loc_chance(R.match_steps(st, B.stage(st["stage"]), 0, first["value"])[0], True) < 1


def test_flat_out_straight_from_the_plan_list(monkeypatch):
    st = game(S1, 1, {0: (13, 3)})
    force(monkeypatch, faces=[[False], [False], [True]], backs=["crash"])
    flat = next(g for g in E.menu(st, 0) if g.get("action", {}).get("type") == "flat")
    assert flat["options"][0]["value"] == E.menu(st, 0)[0]["options"][0]["value"]
    st, ev = E.apply(st, 0, {"type": "flat", "values": [R.encode(STEPS)]})
    assert st["cars"][0]["chips"] == 3 and st["cars"][0]["sp"] == 19
    with pytest.raises(GameError):  # in the plan phase, flat out needs a plan
        E.apply(st, 0, {"type": "flat"})
