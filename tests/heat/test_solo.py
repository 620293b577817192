"""Issue #11: solo play. The Legends module is 「3人以下でプレイする場合にのみ使用する」 and the
number of Legends is free (「何人追加するかは自由」), so one player may race alone against
Legends; without Legends a lone car has no race."""

from __future__ import annotations

import pytest

from bot.games.base import GameError
from bot.games.heat import ENGINE as E
from bot.i18n import render
from tests.heat.playouts import legend_race


def test_one_seat_is_allowed_only_with_legends():
    assert E.min_seats == 1
    with pytest.raises(GameError) as err:
        E.new_game({"track": "usa"}, 1, 3)
    assert "solo race needs Legends" in render(err.value.args[0], "en")
    st = E.new_game({"track": "usa", "legends": 1}, 1, 3)
    assert st["seats"] == 1 and len(st["cars"]) == 2 and E.to_act(st) == [0]
    st = E.new_game({"track": "usa", "legends": 5}, 1, 3)  # six cars: the board's limit
    assert len(st["cars"]) == 6 and st["adrenaline"] == 2  # 5+ cars: the last two
    with pytest.raises(GameError):
        E.new_game({"track": "usa", "legends": 6}, 1, 3)


@pytest.mark.parametrize("legends,track", [(1, "usa"), (2, "italy"), (3, "france"), (5, "great_britain")])
def test_random_solo_race_to_the_end(legends, track):
    st = legend_race({"track": track, "legends": legends}, 1, 11 * legends)
    assert E.is_over(st) and st["cars"][0]["fin"]
    place = st["cars"][0]["place"]
    assert E.placings(st) == [place] and 1 <= place <= 1 + legends


@pytest.mark.parametrize("track", ["japan", "mexico"])
def test_random_solo_race_with_every_module(track):
    st = legend_race(
        {"track": track, "legends": 2, "weather": True, "garage": "all", "legend_bonus": 1, "aggressive_legends": True},
        1,
        5,
    )
    assert E.is_over(st)


def test_solo_place_counts_the_legends_ahead():
    """Solo, the place is the player's among all cars (Legends still racing come after)."""
    st = E.new_game({"track": "usa", "legends": 2}, 1, 3)
    st["phase"] = "over"
    st["places"] = [1, 0]
    st["cars"][0]["fin"], st["cars"][0]["place"] = True, 2
    st["cars"][1]["fin"], st["cars"][1]["place"] = True, 1
    assert E.placings(st) == [2]
    st["places"] = [0]
    st["cars"][0]["place"] = 1
    st["cars"][1]["fin"], st["cars"][1]["place"] = False, None
    assert E.placings(st) == [1]


def test_the_lobby_and_the_history_count_the_legends_for_a_lone_player():
    # the lobby's "starts with N+ players": 1 only when Legends race; /games' "place 3 of N": every car solo
    assert E.least_seats(E.validate_options({"track": "usa", "legends": 2}, 1)) == 1
    assert E.least_seats(E.validate_options({"track": "usa"}, 2)) == 2
    solo = E.new_game(E.validate_options({"track": "usa", "legends": 3}, 1), 1, 5)
    duo = E.new_game(E.validate_options({"track": "usa", "legends": 3}, 2), 2, 5)
    assert (E.field(solo), E.field(duo)) == (4, 2)
