"""Heat content and preparation: the seed's track facts, each player's deck, hand, engine, gear."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from bot.games.base import GameError
from bot.games.heat import ENGINE as E
from bot.games.heat import content, rules

BASE = ["usa", "france", "great_britain", "italy"]
DATA = Path(__file__).resolve().parents[2] / "data" / "heat"


# The seed, "準備": USA 2 laps 69 spaces 4 corners; France 2/60/5; Great Britain 2/63/5; Italy 3/54/3.
@pytest.mark.parametrize(
    "key,laps,spaces,ncorners",
    [("usa", 2, 69, 4), ("france", 2, 60, 5), ("great_britain", 2, 63, 5), ("italy", 3, 54, 3)],
)
def test_seed_track_facts(key, laps, spaces, ncorners):
    tr = content.tracks()[key]
    assert (tr.laps, tr.spaces, len(tr.corners)) == (laps, spaces, ncorners)
    assert (tr.heat, tr.stress) == (6, 3)
    assert list(content.base_tracks()) == BASE


def test_corner_positions_and_limits():
    got = {k: [(c.space, c.speed) for c in content.tracks()[k].corners] for k in BASE}
    assert got == {
        "usa": [(12, 7), (33, 3), (49, 3), (57, 2)],
        "france": [(12, 5), (20, 2), (27, 4), (39, 3), (47, 4)],
        "great_britain": [(15, 10), (30, 6), (37, 5), (43, 4), (48, 3)],
        "italy": [(10, 5), (19, 2), (26, 3)],
    }


def test_race_line_follows_the_last_corner_passed():
    tr = content.tracks()["usa"]  # corner lanes 2, 2, 2, 1
    assert tr.race_lane[1] == 1 and tr.race_lane[12] == 1  # start stretch: last corner's lane
    assert tr.race_lane[13] == 2 and tr.race_lane[57] == 2
    assert tr.race_lane[58] == 1 and tr.race_lane[69] == 1


def test_data_files_are_self_contained_and_marked():
    for name in ("tracks.json", "cards.json"):
        raw = json.loads((DATA / name).read_text("utf-8"))
        assert raw["source"] and raw["designed"]
    # every track in the data loads and validates, expansions included
    assert {"japan", "mexico", "nederland", "espana"} <= set(content.tracks())


@pytest.mark.parametrize("key", BASE)
@pytest.mark.parametrize("seats", [2, 6])
def test_each_player_deck_hand_engine_gear(key, seats):
    st = E.new_game({"track": key}, seats, 11)
    tr = content.tracks()[key]
    expected = Counter(
        {"speed1": 3, "speed2": 3, "speed3": 3, "speed4": 3, "start0": 1, "start5": 1, "heat": 1, "stress": tr.stress}
    )
    seen: set[int] = set()
    for car in st["cars"]:
        assert len(car["hand"]) == 7
        assert car["gear"] == 1 and car["discard"] == [] and car["played"] == []
        deck = Counter(st["cards"][c] for c in car["hand"] + car["deck"])
        assert deck == expected  # 12 speed cards, 0, 5, own Heat card, the track's Stress
        assert [st["cards"][c] for c in car["engine"]] == ["heat"] * tr.heat
        ids = set(car["hand"] + car["deck"] + car["engine"])
        assert not ids & seen
        seen |= ids
    assert seen == set(range(len(st["cards"])))


def test_starting_grid_in_seat_order():
    st = E.new_game({"track": "usa", "grid": "seats"}, 6, 1)
    v = E.view(st, None)
    assert [(c["space"], c["lane"], c["lap"]) for c in v["cars"]] == [
        (69, 1, 1),
        (69, 2, 1),
        (68, 1, 1),
        (68, 2, 1),
        (67, 1, 1),
        (67, 2, 1),
    ]
    assert v["order"] == [0, 1, 2, 3, 4, 5]


def test_random_grid_is_seeded():
    a = E.new_game({"track": "france"}, 6, 5)
    b = E.new_game({"track": "france"}, 6, 5)
    assert a == b
    orders = {tuple(E.new_game({"track": "france"}, 6, s)["grid_order"]) for s in range(8)}
    assert len(orders) > 1


def test_options():
    assert E.validate_options({}, 4) == {"track": "usa", "grid": "random", "modules": []}
    assert E.validate_options({"track": "GB"}, 2)["track"] == "great_britain"
    assert E.validate_options({"track": "Italia"}, 2)["track"] == "italy"
    for bad_seats in (0, 7):
        with pytest.raises(GameError):
            E.validate_options({}, bad_seats)
    with pytest.raises(GameError):  # one seat: only a solo race against Legends (issue #11)
        E.new_game({}, 1, 1)
    assert E.validate_options({"track": "japan"}, 3)["track"] == "japan"  # Heavy Rain tracks
    with pytest.raises(GameError):
        E.validate_options({"track": "nederland"}, 3)  # Tunnel Vision tracks are not offered
    with pytest.raises(GameError):
        E.validate_options({"modules": ["tournament"]}, 3)  # (tournament mode is an option, not a module)
    with pytest.raises(GameError):
        E.validate_options({"grid": "reverse"}, 3)
    names = [o.name for o in E.options]
    assert names == [
        "track",
        "grid",
        "weather",
        "garage",
        "garage_deal",
        "legends",
        "legend_bonus",
        "aggressive_legends",
        "tournament",
        "championship",
        "races",
        "season_tracks",
        "modules",
    ]
    assert list(content.offered_tracks()) == BASE + [
        "japan",
        "mexico",
    ]  # (the track option takes aliases too: no fixed choices)


def test_state_is_plain_json():
    st = E.new_game({"track": "italy"}, 5, 99)
    assert json.loads(json.dumps(st)) == st
    assert st["schema"] == rules.SCHEMA and isinstance(st["rng"], int)


def test_fast_shuffle_is_uniform_enough():
    from bot.games.rng import Rng

    rng = Rng(3)
    counts = Counter()
    n = 36000
    for _ in range(n):
        seq = list(range(6))
        rules.shuffle(rng, seq)
        counts[tuple(seq)] += 1
    mean = n / 720
    assert len(counts) == 720
    assert mean / 3 < min(counts.values()) and max(counts.values()) < 2 * mean
