"""Legends module (seed 000, 「レジェンドモジュール」; cards: heat.md §4a). Legends are cars after the
seats that the engine drives with one shared Legend card a round.

USA: corner lines after 12 (limit 7, Legend line after 2), 33 (3, line after 27), 49 (3, 43),
57 (2, 52). Italy: 10 (5, 2), 19 (2, 14), 26 (3, 20)."""

from __future__ import annotations

import random

import pytest

from bot.games.base import GameError
from bot.games.heat import ENGINE as E
from bot.games.heat import content
from bot.i18n import render
from tests.heat.helpers import en, parked
from tests.heat.playouts import legend_race
from tests.heat.legends import legend_round, lnew


def test_data_ten_cards_each_colour_helmets_10_to_19():
    cards = content.legend_cards()
    assert len(cards) == 10
    assert cards[0] == ((16, 2), (18, 3), (15, 2), (13, 1), (14, 1), (11, 0))  # L1
    for row in cards:  # the diamond follows from the helmet number on every card
        for h, d in row:
            assert d == (0 if h <= 11 else 1 if h <= 14 else 2 if h <= 17 else 3)


def test_options_only_with_three_players_or_fewer_and_six_cars():
    assert E.validate_options({"legends": 3}, 3)["legends"] == 3
    assert E.validate_options({"modules": ["legends"]}, 2)["legends"] == 2  # the suggested two
    for opts in ({"legends": 6}, {"legends": -1}, {"legends": "two"}):  # (5: one player's solo race)
        with pytest.raises(GameError):
            E.validate_options(opts, 6)
    E.validate_options({"legends": 2}, 6)  # the lobby's check, before the players sit down
    for opts, seats in (({"legends": 1}, 4), ({"legends": 4}, 3), ({"modules": ["legends"]}, 4), ({"legends": 5}, 2)):
        with pytest.raises(GameError) as err:  # the player count is checked when the race starts
            E.new_game(opts, seats, 1)
        assert "Legends" in render(err.value.args[0], "en")
    words = [render(m, "en") for m in E.describe_options(E.validate_options({"legends": 3}, 2))]
    assert "3 Legends (cars the bot drives)" in words
    # Issue #33: the lobby says the player limit before anyone sits down, not only at Start.
    assert "at most 3 players with 3 Legends" in words
    words = [render(m, "en") for m in E.describe_options(E.validate_options({"legends": 5}, 1))]
    assert "at most 1 players with 5 Legends" not in words and "at most 1 player with 5 Legends" in words


def test_legends_are_cars_after_the_seats_on_the_grid():
    st = lnew(seats=2, legends=3)
    assert len(st["cars"]) == 5 and st["seats"] == 2 and st["adrenaline"] == 2  # 5 cars: last two
    assert [c.get("legend") for c in st["cars"]] == [None, None, 0, 1, 2]
    assert E.to_act(st) == [0, 1]
    spots = [(c["pos"], c["lane"]) for c in st["cars"]]
    assert len(set(spots)) == 5
    v = E.view(st, None)
    assert [render(c.get("name"), "en") for c in v["cars"] if c.get("legend")] == ["Legend 1", "Legend 2", "Legend 3"]
    assert len(st["legend_deck"]) == 10 and "legend_deck" not in v


def test_approach_a_corner_stops_on_its_diamond():
    """B: before the Legend line: the helmet number, but a move over the corner stops on the
    diamond space (L1, black column: helmet 16, diamond 2)."""
    st = lnew(seats=1 + 1, legends=1)
    parked(st, 0, 60)
    parked(st, 1, 61)
    st["cars"][2]["pos"], st["cars"][2]["lane"] = -2, 1  # space 67, before the Legend line after 2
    st, ev = legend_round(st, 1, {0: ["start0"], 1: ["start0"]})
    legend = st["cars"][2]
    assert legend["pos"] == 10  # 16 would cross the line after 12: diamond 2 = space 10
    assert any("stops at diamond 2 before corner 1" in en(e.text) for e in ev)


def test_approach_without_reaching_the_corner_moves_the_helmet_number():
    st = lnew(seats=2, legends=1)
    parked(st, 0, 60)
    parked(st, 1, 61)
    st["cars"][2]["pos"], st["cars"][2]["lane"] = -10, 1  # space 59, before corner 1's Legend line
    st, ev = legend_round(st, 10)  # L10 black: helmet 10 -> space 69
    assert st["cars"][2]["pos"] == 0
    assert any("Legend card: helmet 10" in en(e.text) for e in ev)


def test_clear_a_corner_just_past_the_legend_line():
    st = lnew(seats=2, legends=1, track="great_britain")  # corner 1 after 15 (limit 10), Legend line after 2
    parked(st, 0, 60)
    parked(st, 1, 61)
    st["cars"][2]["pos"], st["cars"][2]["lane"] = 3, 1
    st, _ = legend_round(st, 3)  # L3 black: diamond 2: 10 + 2 = 12 -> 15
    assert st["cars"][2]["pos"] == 15


def test_clear_a_corner_moves_limit_plus_diamond():
    st = lnew(seats=2, legends=1)
    parked(st, 0, 60)
    parked(st, 1, 61)
    st["cars"][2]["pos"], st["cars"][2]["lane"] = 30, 2  # past the Legend line of corner 2 (after 27)
    st, ev = legend_round(st, 2, {0: ["start0"], 1: ["start0"]})  # L2 black: helmet 18, diamond 3
    assert st["cars"][2]["pos"] == 36  # limit 3 + diamond 3
    assert any("clears corner 2: limit 3 + diamond 3" in en(e.text) for e in ev)


def test_never_two_corners_in_one_move():
    st = lnew(seats=2, legends=1, track="usa")
    parked(st, 0, 20)
    parked(st, 1, 21)
    st["cars"][2]["pos"], st["cars"][2]["lane"] = 46, 2  # corner 3 after 49 (limit 3), corner 4 after 57
    st["weather"] = {"tile": "cloud", "road": ["plus1", "plus1", "plus1", "plus1"]}  # corner 3: limit 4
    st, _ = legend_round(st, 2, {0: ["start0"], 1: ["start0"]})  # +4 +3 = 7 -> 53, fine
    assert st["cars"][2]["pos"] == 53
    st = lnew(seats=2, legends=1, track="italy")  # corners after 10 (5) and 19 (2): close together
    parked(st, 0, 40)
    parked(st, 1, 41)
    st["cars"][2]["pos"], st["cars"][2]["lane"] = 7, 1  # past the Legend line after 2
    st, _ = legend_round(st, 2, {0: ["start0"], 1: ["start0"]})  # 5 + 3 = 8 -> 15, before 19: fine
    assert st["cars"][2]["pos"] == 15
    st = lnew(seats=2, legends=1, track="italy")
    parked(st, 0, 40)
    parked(st, 1, 41)
    st["cars"][2]["pos"], st["cars"][2]["lane"] = 9, 1
    st["weather"] = {"tile": "cloud", "road": ["plus1", "plus1", "plus1"]}  # corner 1 limit 6
    st["cars"][2]["legend"] = 4  # gray column: L6 helmet 18, diamond 3 -> 6 + 3 = 9 -> 18, before 19
    st, _ = legend_round(st, 6, {0: ["start0"], 1: ["start0"]})
    assert st["cars"][2]["pos"] == 18
    st = lnew(seats=2, legends=1, track="italy")
    parked(st, 0, 40)
    parked(st, 1, 41)
    st["cars"][2]["pos"], st["cars"][2]["lane"] = 10, 1
    st["weather"] = {"tile": "cloud", "road": ["plus1", "plus1", "plus1"]}
    st["cars"][2]["legend"] = 4
    st, _ = legend_round(st, 6, {0: ["start0"], 1: ["start0"]})  # 10 + 9 = 19: the last space before corner 2
    assert st["cars"][2]["pos"] == 19
    st = lnew(seats=2, legends=1, track="italy")
    parked(st, 0, 40)
    parked(st, 1, 41)
    st["cars"][2]["pos"], st["cars"][2]["lane"] = 9, 2
    st["weather"] = {"tile": "cloud", "road": ["plus1", "plus1", "plus1"]}
    st["cars"][2]["legend"] = 4
    parked(st, 0, 18, 1)
    parked(st, 1, 18, 2)
    st, _ = legend_round(st, 6, {0: ["start0"], 1: ["start0"]})  # 18 is full: the spot behind
    assert st["cars"][2]["pos"] == 17


def test_clearing_one_corner_goes_on_to_the_next_sector():
    st = lnew(seats=2, legends=1, track="italy")  # corner 2 after 19 (limit 2 + 1 token), corner 3 after 26
    parked(st, 0, 40)
    parked(st, 1, 41)
    st["weather"] = {"tile": "cloud", "road": ["plus1", "plus1", "plus1"]}
    st["cars"][2]["pos"], st["cars"][2]["lane"] = 15, 1  # past corner 2's Legend line (after 14)
    st, _ = legend_round(st, 2)  # L2 black: limit 3 + diamond 3 = 6 -> 21
    assert st["cars"][2]["pos"] == 21


def test_never_two_corners_in_one_move_it_stops_before_the_second_line():
    """「レジェンドは1手番で2つのコーナーを超えることはない」: GB corner 3 (after 37, limit 5) and
    corner 4 (after 43): from 36, 5 + diamond 3 = 8 would reach 44, over both: it stops on 43."""
    st = lnew(seats=2, legends=1, track="great_britain")
    parked(st, 0, 60)
    parked(st, 1, 61)
    st["cars"][2]["legend"] = 4  # gray column: L6 helmet 18, diamond 3
    st["cars"][2]["pos"], st["cars"][2]["lane"] = 36, 1  # past corner 3's Legend line (after 30)
    st, _ = legend_round(st, 6)
    assert st["cars"][2]["pos"] == 43
    st = lnew(seats=2, legends=1, track="great_britain")
    parked(st, 0, 43, 1)
    parked(st, 1, 43, 2)  # 43 full: the first free spot before the line
    st["cars"][2]["legend"] = 4
    st["cars"][2]["pos"], st["cars"][2]["lane"] = 36, 1
    st, _ = legend_round(st, 6)
    assert st["cars"][2]["pos"] == 42


def test_shared_card_no_slipstream_heat_or_spin_and_adrenaline_not_taken():
    st = lnew(seats=2, legends=3, seed=4)
    parked(st, 0, 60)
    parked(st, 1, 61)
    for k, pos in enumerate((30, 31, 32)):
        st["cars"][2 + k]["pos"], st["cars"][2 + k]["lane"] = pos, 1 + k % 2
    st, ev = legend_round(st, 5, {0: ["start0"], 1: ["start0"]})
    assert st["legend_card"] == 4
    v = E.view(st, None)
    for c in v["cars"][2:]:
        assert not c["slipstreamed"] and not c["spun"] and c["heat_paid"] == 0 and not c["adrenaline"]
    assert [len(c["engine"]) for c in st["cars"][2:]] == [0, 0, 0]
    # the last two cars get Adrenaline (5 cars): Legends count, but take nothing
    order = st["last_order"]
    assert set(order[-2:]) == {0, 1} or any("not taken by a Legend" in en(e.text) for e in ev)


def test_legend_deck_reshuffles_when_used_up():
    st = lnew(seats=2, legends=2)
    seen = []
    rnd = random.Random(1)
    while st["round"] <= 12 and not E.is_over(st):
        s = E.to_act(st)[0]
        st, _ = E.apply(st, s, rnd.choice([a for a in E.legal_actions(st, s) if a["type"] != "prefs"]))
        if st["phase"] == "submit" and st["legend_card"] is not None and len(seen) < st["round"] - 1:
            seen.append(st["legend_card"])
    assert sorted(seen[:10]) == list(range(10))  # each card once before the reshuffle


@pytest.mark.parametrize("seats,legends", [(2, 1), (2, 2), (2, 4), (3, 3), (3, 2)])
@pytest.mark.parametrize("track", ["usa", "italy"])
def test_random_race_with_legends(seats, legends, track):
    st = legend_race({"track": track, "legends": legends}, seats, 50 * seats + legends)
    assert len(st["places"]) >= seats


@pytest.mark.parametrize("seats", [2, 3])
def test_random_race_with_every_module(seats):
    legend_race({"track": "france", "legends": 2, "weather": True, "garage": "mixed"}, seats, 77 + seats)


def test_advanced_legends_add_to_the_helmet_numbers():
    """上級レジェンド: 「ヘルメットに示された数字を+1または+2などしてプレイする」."""
    st = E.new_game({"track": "usa", "grid": "seats", "legends": 1, "legend_bonus": 2}, 2, 1)
    assert st["legend_bonus"] == 2
    words = [render(m, "en") for m in E.describe_options(E.validate_options({"legends": 1, "legend_bonus": 2}, 2))]
    assert "advanced Legends: helmets +2" in words
    parked(st, 0, 60)
    parked(st, 1, 61)
    st["cars"][2]["pos"], st["cars"][2]["lane"] = -10, 1
    st, _ = legend_round(st, 10)  # L10 black: helmet 10 + 2 -> 2 spaces further than without
    assert st["cars"][2]["pos"] == 2
    with pytest.raises(GameError):
        E.validate_options({"legends": 1, "legend_bonus": 4}, 2)
