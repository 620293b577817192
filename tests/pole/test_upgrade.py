"""A game saved before schema 2 (the number of cars was "n"): upgraded, it plays on exactly as the
code of its day did. stored_schema1.json holds a race state as that code stored it (options:
a bot, DRS, collisions, stress, events, drivers), the moves that followed and the state they led to."""

import json
from pathlib import Path

from bot.games.pole.engine import ENGINE as E
from bot.games.pole.engine import SCHEMA

STORED = json.loads((Path(__file__).parent / "stored_schema1.json").read_text())


def test_a_schema_1_state_upgrades_and_plays_on_as_before():
    old = STORED["state"]
    assert old["schema"] == 1 and "n" in old and "seats" not in old
    st = E.upgrade(json.loads(json.dumps(old)))
    assert st["schema"] == SCHEMA == 2 and st["seats"] == old["n"] and "n" not in st
    for seat, action in STORED["moves"]:
        st, _ = E.apply(st, seat, action)
    assert st == E.upgrade(STORED["final"])


def test_the_options_a_stored_game_kept_are_accepted_as_they_are():
    kept = STORED["options"]
    assert E.validate_options(kept, 2) == kept
    assert E.validate_options({"circuit": "great_britain"}, 2) == {"circuit": "great_britain"}
    assert E.validate_options({"circuit": "monaco"}, 1) == {"circuit": "monaco", "bots": 0, "bot_side": "A"}


def test_upgrade_leaves_todays_state_alone():
    st = E.new_game({}, 2, 1)
    assert E.upgrade(st) is st
