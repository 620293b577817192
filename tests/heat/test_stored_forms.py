"""Issue #29: the engine contract (one `apply`, handlers in place, options by their specs, `upgrade`)
keeps what a stored game holds working. stored_games.json was written by the code before that
refactor: the options it kept for a set of `/heat new` inputs, and two games in their stored form
(a Garage + weather + Legends race, a custom championship about to end its first race) with the
next moves played on and a digest of every move's events and of the state they led to."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from bot.games.heat import ENGINE as E
from bot.i18n import render

STORED = json.loads((Path(__file__).parent / "stored_games.json").read_text("utf-8"))


@pytest.mark.parametrize("case", STORED["options"], ids=lambda c: json.dumps(c["given"]))
def test_options_keep_their_stored_form_and_accept_it_again(case):
    assert E.validate_options(case["given"], case["seats"]) == case["kept"]
    assert E.validate_options(case["kept"], case["seats"]) == case["kept"]  # (new_game reads the kept form)
    E.new_game(case["kept"], case["seats"], 1)


def _digest(events) -> str:
    return hashlib.sha256(json.dumps([(e.to, e.log, render(e.text, "en")) for e in events]).encode()).hexdigest()[:16]


@pytest.mark.parametrize("game", STORED["games"], ids=["race", "championship"])
def test_a_stored_game_upgrades_and_plays_on_as_before(game):
    st = E.upgrade(json.loads(json.dumps(game["stored"])))
    assert st == game["stored"]  # (today's schema: nothing to change)
    for i, step in enumerate(game["moves"]):
        st, events = E.apply(st, step["seat"], step["action"])
        assert _digest(events) == step["events"], (i, step["action"])
    assert hashlib.sha256(json.dumps(st, sort_keys=True).encode()).hexdigest() == game["after"]
