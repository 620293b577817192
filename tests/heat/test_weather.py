"""Weather and road conditions module (seed 000, 「天候と路面状況モジュール」; facts: heat.md §5).

USA (69 spaces): corner lines after 12 (limit 7), 33 (3), 49 (3), 57 (2). Corner 1's sector is
spaces 13-33, corner 2's 34-49, corner 3's 50-57, corner 4's 58-69 and 1-12."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from bot.games.base import GameError
from bot.games.heat import ENGINE as E
from bot.games.heat import content, rules
from bot.i18n import render
from tests.heat.helpers import QUIET, car, codes, en, parked, round_, setcar

TILES = ("cloud", "fog", "storm", "snow", "rain", "sun")


def wnew(tile="cloud", road=("plus1", "plus1", "plus1", "plus1"), seats=2, track="usa"):
    """A weather race with the given tile and road tokens (decks as the seed drew them)."""
    st = E.new_game({"track": track, "grid": "seats", "weather": True}, seats, 1)
    st["weather"] = {"tile": tile, "road": list(road)}
    return st


def seed_for(tile, track="usa", seats=3):
    for seed in range(500):
        st = E.new_game({"track": track, "weather": True}, seats, seed)
        if st["weather"]["tile"] == tile:
            return st
    raise AssertionError(tile)


# ---------------------------------------------------------------- data and options


def test_data_six_tiles_and_twelve_tokens():
    w = content.weather()
    assert sorted(w["tiles"]) == sorted(TILES)
    assert Counter(content.road_pool()) == {k: 2 for k in content.TOKENS}
    assert len(content.road_pool()) == 12


def test_option_and_lobby_text():
    assert E.validate_options({"weather": True}, 3)["modules"] == ["weather"]
    assert E.validate_options({}, 3)["modules"] == []
    with pytest.raises(GameError):
        E.validate_options({"weather": "maybe"}, 3)
    assert E.validate_options({"weather": "yes"}, 3)["modules"] == ["weather"]  # (text, as a slash command gives it)
    words = [render(m, "en") for m in E.describe_options(E.validate_options({"weather": True}, 3))]
    assert "weather and road conditions (drawn at the start)" in words
    assert len([render(m, "en") for m in E.describe_options(E.validate_options({}, 3))]) == 2


def test_base_race_has_no_weather():
    st = E.new_game({"track": "usa"}, 3, 5)
    assert "weather" not in st and "weather" not in E.view(st, None)
    assert rules.track_of(st) is content.tracks()["usa"]


def test_one_tile_and_one_token_per_corner_drawn_with_the_seed():
    tiles = Counter()
    for seed in range(120):
        st = E.new_game({"track": "france", "weather": True}, 3, seed)
        w = st["weather"]
        tiles[w["tile"]] += 1
        assert len(w["road"]) == 5  # France: 5 corners, one token each
        assert all(n <= 2 for n in Counter(w["road"]).values())  # two of each kind
        assert E.new_game({"track": "france", "weather": True}, 3, seed) == st
        assert json.loads(json.dumps(st)) == st
    assert set(tiles) == set(TILES)


# ---------------------------------------------------------------- setup changes (tile, lower left)


@pytest.mark.parametrize(
    "tile,expected",
    [
        ("cloud", (2, 6, 1, 0)),  # -1 Stress in the deck
        ("fog", (3, 7, 1, 0)),  # +1 Heat in the Engine
        ("storm", (4, 6, 1, 0)),  # +1 Stress
        ("snow", (3, 5, 1, 0)),  # -1 Heat
        ("rain", (3, 3, 4, 0)),  # 3 Engine Heat shuffled into the deck (may be drawn)
        ("sun", (3, 3, 1, 3)),  # 3 Engine Heat to the discard pile
    ],
)
def test_weather_setup_changes(tile, expected):
    """(Stress in deck+hand, Engine Heat, Heat in deck+hand counting the Starting Upgrade Heat card,
    Heat in the discard pile) for every player after setup."""
    st = seed_for(tile)
    for seat in range(3):
        c = st["cars"][seat]
        allc = c["hand"] + c["deck"] + c["discard"]
        assert (
            codes(st, allc).count("stress"),
            len(c["engine"]),
            codes(st, c["hand"] + c["deck"]).count("heat"),
            codes(st, c["discard"]).count("heat"),
        ) == expected
        assert len(c["hand"]) == 7


# ---------------------------------------------------------------- corner tokens


def test_limit_tokens_change_the_corner_limits():
    st = wnew(road=["minus1", "plus1", "overheat", "weather"])
    tr = rules.track_of(st)
    assert [c.speed for c in tr.corners] == [6, 4, 3, 2]
    assert tr.printed == (7, 3, 3, 2)
    assert tr.overheat == {2}
    v = E.view(st, None)
    assert [c["speed"] for c in v["corners"]] == [6, 4, 3, 2]
    assert [r["printed"] for r in v["weather"]["road"]] == [7, 3, 3, 2]


def test_minus_one_corner_costs_one_heat_more():
    st = wnew(road=["minus1", "plus1", "plus1", "plus1"])
    setcar(
        st,
        0,
        pos=5,
        lane=1,
        gear=2,
        hand=["speed4", "speed3"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs=QUIET,
    )
    parked(st, 1, 40)
    st, ev = round_(st, {0: ["speed4", "speed3"]})
    assert car(st, 0)["pos"] == 12 + 0  # 5 + 7 = 12: not over the line yet
    st = wnew(road=["minus1", "plus1", "plus1", "plus1"])
    setcar(
        st,
        0,
        pos=6,
        lane=1,
        gear=2,
        hand=["speed4", "speed3"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs=QUIET,
    )
    parked(st, 1, 40)
    st, ev = round_(st, {0: ["speed4", "speed3"]})
    assert car(st, 0)["pos"] == 13 and len(car(st, 0)["engine"]) == 5  # speed 7 at a 7-1 = 6 corner
    assert any("Corner 1 (limit 6): paid 1 Heat" in en(e.text) for e in ev)


def test_plus_one_corner_is_free_at_the_printed_limit_plus_one():
    st = wnew(road=["plus1", "plus1", "plus1", "plus1"])
    setcar(
        st,
        0,
        pos=6,
        lane=1,
        gear=2,
        hand=["speed4", "speed4"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs=QUIET,
    )
    parked(st, 1, 40)
    st, _ = round_(st, {0: ["speed4", "speed4"]})
    assert car(st, 0)["pos"] == 14 and len(car(st, 0)["engine"]) == 6  # speed 8 at a 7+1 corner


def test_overheat_adds_one_heat_when_over_the_limit():
    st = wnew(road=["overheat", "plus1", "plus1", "plus1"])
    setcar(
        st,
        0,
        pos=5,
        lane=1,
        gear=2,
        hand=["speed4", "start5"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs=QUIET,
    )
    parked(st, 1, 40)
    st, ev = round_(st, {0: ["speed4", "start5"]})
    assert car(st, 0)["pos"] == 14 and len(car(st, 0)["engine"]) == 3  # 2 over + 1 Overheat
    assert any("Corner 1 (limit 7, Overheat): paid 3 Heat" in en(e.text) for e in ev)


def test_overheat_costs_nothing_at_the_limit():
    st = wnew(road=["overheat", "plus1", "plus1", "plus1"])
    setcar(
        st,
        0,
        pos=6,
        lane=1,
        gear=2,
        hand=["speed4", "speed3"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs=QUIET,
    )
    parked(st, 1, 40)
    st, _ = round_(st, {0: ["speed4", "speed3"]})
    assert car(st, 0)["pos"] == 13 and len(car(st, 0)["engine"]) == 6


def test_overheat_heat_that_cannot_be_paid_is_a_spin():
    st = wnew(road=["overheat", "plus1", "plus1", "plus1"])
    setcar(
        st,
        0,
        pos=5,
        lane=1,
        gear=2,
        hand=["speed4", "start5"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=2,
        prefs=QUIET,
    )
    parked(st, 1, 40)
    st, _ = round_(st, {0: ["speed4", "start5"]})
    c = car(st, 0)
    assert c["pos"] == 12 and c["gear"] == 1 and len(c["engine"]) == 0 and c["stress"] == 1


# ---------------------------------------------------------------- sector tokens


def test_free_boost_sector_boosts_without_heat():
    st = wnew(road=["free_boost", "plus1", "plus1", "plus1"])
    setcar(
        st,
        0,
        pos=15,
        lane=2,
        gear=1,
        hand=["speed1"] * 7,
        deck=["speed3"] * 9,
        engine=0,
        prefs={"boost": "always", "adrenaline": "never", "slipstream": "never"},
    )
    parked(st, 1, 2)
    st, ev = round_(st, {0: ["speed1"]})
    assert car(st, 0)["pos"] == 19 and len(car(st, 0)["engine"]) == 0  # 1 + free boost 3
    assert E.view(st, None)["cars"][0]["heat_paid"] == 0
    assert any("Free boost (road token): +3" in en(e.text) for e in ev)


def test_free_boost_is_judged_where_the_car_boosts():
    st = wnew(road=["free_boost", "plus1", "plus1", "plus1"])
    setcar(
        st,
        0,
        pos=10,
        lane=1,
        gear=1,
        hand=["speed1"] * 7,
        deck=["speed3"] * 9,
        engine=2,
        prefs={"boost": "always", "adrenaline": "never", "slipstream": "never"},
    )
    parked(st, 1, 40)
    st, _ = round_(st, {0: ["speed1"]})  # lands on 11: corner 4's sector, not the free one
    assert car(st, 0)["pos"] == 14 and len(car(st, 0)["engine"]) == 1  # the boost paid 1 Heat


def test_free_boost_still_once_per_round():
    st = wnew(road=["free_boost", "plus1", "plus1", "plus1"])
    setcar(
        st,
        0,
        pos=15,
        lane=2,
        gear=1,
        hand=["speed1"] * 7,
        deck=["speed2"] * 9,
        engine=0,
        prefs={"boost": "always", "adrenaline": "never", "slipstream": "never"},
    )
    parked(st, 1, 2)
    st, _ = round_(st, {0: ["speed1"]})
    assert car(st, 0)["pos"] == 18


def _cool_case(tile, token, pos):
    st = wnew(tile=tile, road=[token, "plus1", "plus1", "plus1"])
    setcar(
        st,
        0,
        pos=pos,
        lane=2,
        gear=2,
        hand=["speed1", "speed1"] + ["heat"] * 5,
        deck=["speed1"] * 10,
        engine=0,
        prefs=QUIET,
    )
    parked(st, 1, 2)
    st, _ = round_(st, {0: ["speed1", "speed1"]})
    return len(car(st, 0)["engine"])


@pytest.mark.parametrize("tile,cooled", [("cloud", 0), ("snow", 2), ("rain", 2), ("fog", 1), ("storm", 1), ("sun", 1)])
def test_weather_token_cooldown_in_its_sector(tile, cooled):
    """Gear 2 gives Cooldown 1: cloudy's weather sector takes it away, snow's and rain's add 1."""
    assert _cool_case(tile, "weather", 18) == cooled


def test_weather_cooldown_effect_only_in_its_sector():
    assert _cool_case("snow", "weather", 5) == 1  # lands on 7: corner 4's sector
    assert _cool_case("cloud", "weather", 5) == 1


def _slip(tile, token, other, mover=(16, 2), pref="always", seats=2):
    st = wnew(tile=tile, road=[token, "plus1", "plus1", "plus1"], seats=seats)
    parked(st, 1, other, 2)
    setcar(
        st,
        0,
        pos=mover[0],
        lane=mover[1],
        gear=2,
        hand=["speed2", "speed2"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs={"slipstream": pref, "adrenaline": "never", "boost": "never"},
    )
    return st


def test_slipstream_plus_one_token():
    st = _slip("cloud", "slip_plus", 21)
    st, ev = round_(st, {0: ["speed2", "speed2"]})  # lands on 20 behind, slips 3
    assert car(st, 0)["pos"] == 23
    assert any("Slipstream +3" in en(e.text) for e in ev)


@pytest.mark.parametrize("tile", ["storm", "sun"])
def test_weather_slipstream_boost(tile):
    st = _slip(tile, "weather", 21)
    st, _ = round_(st, {0: ["speed2", "speed2"]})
    assert car(st, 0)["pos"] == 24  # 2 + 2


def test_fog_no_slipstream_from_its_sector():
    st = _slip("fog", "weather", 21, pref="ask")
    st, _ = round_(st, {0: ["speed2", "speed2"]})
    assert st["phase"] == "submit" and car(st, 0)["pos"] == 20  # not even offered


def test_fog_slipstream_into_its_sector_is_allowed():
    st = wnew(tile="fog", road=["weather", "plus1", "plus1", "plus1"])
    parked(st, 1, 8, 1)
    setcar(
        st,
        0,
        pos=4,
        lane=1,
        gear=2,
        hand=["speed2", "speed1"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs={"slipstream": "always", "adrenaline": "never", "boost": "never"},
    )
    st, _ = round_(st, {0: ["speed2", "speed1"]})  # 7, behind the car on 8: slips to 9
    assert car(st, 0)["pos"] == 9


def test_longer_slipstream_may_be_declined_when_asked():
    st = _slip("cloud", "slip_plus", 21, pref="ask")
    st, _ = round_(st, {0: ["speed2", "speed2"]})
    assert st["phase"] == "decide" and st["pending"]["lengths"] == [2, 3]
    acts = E.legal_actions(st, 0)
    assert {"type": "slipstream", "take": True, "spaces": 2} in acts
    assert {"type": "slipstream", "take": True, "spaces": 3} in acts
    labels = [render(b["label"], "en") for g in E.menu(st, 0) for b in g["options"] if g["kind"] == "buttons"]
    assert "Slipstream +3" in labels and "Slipstream +2" in labels and "No slipstream" in labels
    with pytest.raises(GameError):
        E.apply(st, 0, {"type": "slipstream", "take": True, "spaces": 4})
    st2, _ = E.apply(st, 0, {"type": "slipstream", "take": True, "spaces": 2})
    assert car(st2, 0)["pos"] == 22
    st3, _ = E.apply(st, 0, {"type": "slipstream", "take": True, "spaces": 3})
    assert car(st3, 0)["pos"] == 23


def test_smart_slipstream_takes_the_longest_that_costs_no_heat():
    # Corner 2 (line after 33, limit 3 + 1): speed 5 from 31, a slip of 3 would cross it (1 Heat),
    # one of 2 would not.
    st = wnew(tile="cloud", road=["slip_plus", "plus1", "plus1", "plus1"])
    parked(st, 1, 31, 2)
    setcar(
        st,
        0,
        pos=26,
        lane=2,
        gear=2,
        hand=["speed2", "speed3"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs={"slipstream": "smart", "adrenaline": "never", "boost": "never"},
    )
    st, _ = round_(st, {0: ["speed2", "speed3"]})  # lands on 31 lane 1 beside
    assert car(st, 0)["pos"] == 33 and len(car(st, 0)["engine"]) == 6
    # with no corner in reach it takes the 3:
    st = wnew(tile="cloud", road=["slip_plus", "plus1", "plus1", "plus1"])
    parked(st, 1, 22, 2)
    setcar(
        st,
        0,
        pos=17,
        lane=2,
        gear=2,
        hand=["speed2", "speed3"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs={"slipstream": "smart", "adrenaline": "never", "boost": "never"},
    )
    st, _ = round_(st, {0: ["speed2", "speed3"]})
    assert car(st, 0)["pos"] == 25


def test_no_longer_slipstream_across_the_finish_line():
    st = wnew(tile="cloud", road=["plus1", "plus1", "plus1", "slip_plus"])
    parked(st, 1, 136, 2)
    setcar(
        st,
        0,
        pos=132,
        lane=2,
        gear=2,
        hand=["speed2", "speed2"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs={"slipstream": "always", "adrenaline": "never", "boost": "never"},
    )
    st, _ = round_(st, {0: ["speed2", "speed2"]})  # 136 lane 1, beside; 138 is the last space
    assert car(st, 0)["pos"] == 138 and not car(st, 0)["fin"]


# ---------------------------------------------------------------- view


def test_view_shows_weather_and_road_to_everyone():
    st = wnew(tile="rain", road=["weather", "overheat", "free_boost", "minus1"])
    v = E.view(st, None)
    w = v["weather"]
    assert w["tile"] == "rain" and render(w["name"], "en") == "Rain"
    assert render(w["sector"], "en") == "Cooldown +1"
    assert [r["token"] for r in w["road"]] == ["weather", "overheat", "free_boost", "minus1"]
    assert [r["fx"] for r in w["road"]] == ["cooldown_bonus", None, "free_boost", None]
    assert E.view(st, 0)["weather"] == w


def test_weather_names_have_japanese_entries():
    from bot.i18n import catalog_files

    ja = {}
    for path in catalog_files("ja"):
        ja.update(json.loads(path.read_text("utf-8")))
    w = content.weather()
    names = [t["name"] for t in w["tiles"].values()] + [t["name"] for t in w["tokens"].values()]
    names += [t["name"] for t in w["sector_effects"].values()]
    assert all(n in ja for n in names), [n for n in names if n not in ja]


def test_hand_view_says_the_next_corners_token_and_the_sector_effect_here():
    st = wnew(tile="rain", road=["overheat", "weather", "weather", "minus1"])
    st["cars"][0]["pos"] = 52
    me = E.view(st, 0)["me"]
    assert render(me["road_here"], "en") == "Cooldown +1"
    assert me["next_corner"]["speed"] == 1 and render(me["next_corner"]["token"], "en") == "Limit -1"
    st["cars"][0]["pos"] = 5
    me = E.view(st, 0)["me"]
    assert me["road_here"] is None and "token" in me["next_corner"]
    assert "road_here" not in E.view(E.new_game({"track": "usa"}, 2, 1), 0)["me"]
