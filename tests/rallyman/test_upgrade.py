"""A game stored before issue #29 (schema 1: the seats counted by the cars only) loads through
`upgrade` and plays on exactly as the code of that day played it (stored_v1.json: a 3-seat Rally1
game after 60 random moves, the next 80 moves and the state they led to, made by that code)."""

from __future__ import annotations

import json
from pathlib import Path

from bot.games.rallyman.engine import ENGINE as E
from bot.games.rallyman.engine import SCHEMA

STORED = json.loads((Path(__file__).parent / "stored_v1.json").read_text("utf-8"))


def test_a_schema_1_state_upgrades_and_plays_on_as_it_did():
    old = STORED["state"]
    assert old["schema"] == 1 and "seats" not in old
    st = E.upgrade(json.loads(json.dumps(old)))
    assert st["schema"] == SCHEMA and st["seats"] == len(old["cars"]) == 3
    for seat, action in STORED["then"]:
        assert action in E.legal_actions(st, seat)
        st, _ = E.apply(st, seat, action)
    assert st == {**STORED["after"], "schema": SCHEMA, "seats": 3}


def test_a_state_of_today_is_left_as_it_is():
    st = E.new_game({"stage": "Rally1 SS1"}, 2, 3)
    assert E.upgrade(st) is st and st["seats"] == 2 and st["schema"] == SCHEMA


def test_the_stored_options_are_still_accepted():
    for stage in ("Rally1 SS1", "Rally2", "random 10", "random 4", "TheClimb SS2"):
        assert E.validate_options({"stage": stage}, 2) == {"stage": stage}
    assert E.validate_options({"stage": "Random"}, 1) == {"stage": "random 10"}
    assert E.validate_options({}, 6) == {"stage": "Rally1 SS1"}
