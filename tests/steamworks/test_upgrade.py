"""A game saved by yesterday's engine (schema 2: the phase was "stage") loads through `upgrade` and
plays on exactly as that engine played it (tests/steamworks/stored_schema2.json: a 3-player game,
its next 45 moves, the state and events they led to, all from schema-2 code)."""

import json
from pathlib import Path

from bot.games.steamworks import ENGINE as E
from bot.games.steamworks.engine import SCHEMA

STORED = json.loads((Path(__file__).parent / "stored_schema2.json").read_text("utf-8"))


def test_a_schema_2_state_upgrades_and_plays_on_as_before():
    old = STORED["state"]
    assert old["schema"] == 2 and "stage" in old
    st = E.upgrade(old)
    assert st["schema"] == SCHEMA and "stage" not in st and st["phase"] == old["stage"]
    assert "phase" not in old  # the stored state itself is left as it was
    assert E.upgrade(st) is st  # today's states pass through
    for (seat, action), events in zip(STORED["moves"], STORED["events"]):
        st, ev = E.apply(st, seat, action)
        assert [str(e.text) for e in ev] == events
    assert st == E.upgrade(STORED["after"])


def test_the_options_a_stored_game_kept_are_accepted_as_they_are():
    for kept in (STORED["state"]["options"], {"personas": "seat order"}, {"personas": "random"}):
        assert E.validate_options(dict(kept), 3) == kept
