"""A game saved by yesterday's engine (schema 1: the phase was "stage") loads through `upgrade` and
plays on exactly as that engine played it (tests/pon/stored_schema1.json: a 4-player game with
"ask" preferences, its next 60 moves, the state and events they led to, all from schema-1 code)."""

import json
from pathlib import Path

from bot.games.base import replay
from bot.games.pon import ENGINE as E
from bot.games.pon.engine import SCHEMA

STORED = json.loads((Path(__file__).parent / "stored_schema1.json").read_text("utf-8"))


def test_a_schema_1_state_upgrades_and_plays_on_as_before():
    old = STORED["state"]
    assert old["schema"] == 1 and "stage" in old
    st = E.upgrade(old)
    assert st["schema"] == SCHEMA and "stage" not in st and st["phase"] == old["stage"]
    assert "phase" not in old  # the stored state itself is left as it was
    assert E.upgrade(st) is st  # today's states pass through
    for (seat, action), events in zip(STORED["moves"], STORED["events"]):
        st, ev = E.apply(st, seat, action)
        assert [str(e.text) for e in ev] == events
    assert st == E.upgrade(STORED["after"])


def test_todays_new_game_is_on_the_current_schema():
    st = replay(E, {}, 3, 1, [])
    assert st["schema"] == SCHEMA and st["phase"] == "peek"


def test_the_options_a_stored_game_kept_are_accepted_as_they_are():
    assert STORED["state"]["options"] == {}
    assert E.validate_options(STORED["state"]["options"], 4) == {}
