"""Seeded random championships to the end with module combinations: every step keeps the
invariants (each card in one zone, spots valid, JSON round trip), apply never changes its input,
nobody's private cards show in another viewer's view or menu, and base.replay rebuilds the
same state from the seed and the action log."""

from __future__ import annotations

import copy
import json
import random

import pytest

from bot.games import base
from bot.games.heat import ENGINE as E
from bot.games.heat import championship, rules
from bot.i18n import render
from tests.heat.playouts import check_privacy


def choose(st, seat, rnd):
    acts = E.legal_actions(st, seat)
    assert acts, "a seat to act has no legal action"
    game = [a for a in acts if a["type"] != "prefs"]
    prefs = [a for a in acts if a["type"] == "prefs"]
    if prefs and (not game or rnd.random() < 0.06):
        return rnd.choice(prefs)
    return rnd.choice(game)


def check(st):
    tr = rules.track_of(st)
    spots = []
    seen = []
    for car in st["cars"]:
        ids = car["hand"] + car["deck"] + car["discard"] + car["engine"] + car["played"]
        assert len(set(ids)) == len(ids)
        seen += ids
        assert 1 <= car["gear"] <= 4 and car["lane"] in (1, 2)
        if car["place"] is None:
            spots.append((rules.space_of(tr, car["pos"]), car["lane"]))
        if st["phase"] in championship.PHASES:
            assert car["hand"] == []
    assert len(seen) == len(set(seen))
    assert len(spots) == len(set(spots)), "two cars on one spot"
    ch = st["champ"]
    # Sponsorship cards: in the pile, used, carried, or in one car's zones (42 in all).
    held = sum(1 for c in seen if championship.is_sponsor(st["cards"][c]))
    assert held + len(ch["sponsor_deck"]) + len(ch["sponsor_used"]) + sum(map(len, ch["carry"])) == 42


def season(options, seats, seed, privacy_every=9):
    rnd = random.Random(seed)
    st = E.new_game(options, seats, seed)
    log = []
    steps = 0
    races = len(st["champ"]["races"])
    while not E.is_over(st):
        acting = E.to_act(st)
        assert acting
        seat = rnd.choice(acting)
        action = choose(st, seat, rnd)
        if steps % 7 == 0 or st["phase"] in championship.PHASES:
            labels = [render(E.describe_action(st, seat, a), "en") for a in E.legal_actions(st, seat)]
            assert len(labels) == len(set(labels)) and all(0 < len(x) for x in labels)
            assert "Unknown action" not in labels
        before = copy.deepcopy(st) if steps % 11 == 0 else None
        nxt, events = E.apply(st, seat, action)
        if before is not None:
            assert st == before, "apply changed its input"
        log.append((seat, action))
        st = nxt
        check(st)
        if steps % 3 == 0 or st["phase"] in championship.PHASES:
            assert json.loads(json.dumps(st)) == st
        if steps % privacy_every == 0:
            check_privacy(st, rnd)
        steps += 1
        assert steps < 5000
    ch = st["champ"]
    assert ch["done"] and len(ch["results"]) == races
    assert sum(ch["points"]) == sum(sum(r["points"]) for r in ch["results"])
    assert sorted(E.placings(st)) == list(range(1, seats + 1))
    assert base.replay(E, options, seats, seed, log) == st
    return st


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_custom_two_race_seasons(seats):
    options = {"track": "usa", "championship": "custom", "races": 2}
    season(options, seats, 300 + seats, privacy_every=9 if seats < 5 else 30)


@pytest.mark.parametrize(
    "year,seats,extra",
    [
        ("1961", 2, {"legends": 2}),
        ("1962", 3, {"tournament": True}),
        ("1963", 2, {"legends": 3, "legend_bonus": 1, "garage": "advanced"}),
        ("1964", 3, {"legends": 2, "aggressive_legends": True, "garage": "all"}),
    ],
)
def test_full_seasons_with_modules(year, seats, extra):
    st = season({"track": "usa", "championship": year, **extra}, seats, 41 + seats, privacy_every=25)
    assert [r["track"] for r in st["champ"]["results"]] == [t for t, _ in championship.championship()["seasons"][year]]


def test_custom_season_with_tracks_and_tournament():
    options = {
        "track": "usa",
        "championship": "custom",
        "races": 3,
        "season_tracks": "japan, Italia, mexico",
        "tournament": True,
        "garage": "mixed",
    }
    st = season(options, 4, 77, privacy_every=25)
    assert [r["track"] for r in st["champ"]["results"]] == ["japan", "italy", "mexico"]
