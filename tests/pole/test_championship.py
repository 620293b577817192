"""The world championship (seed 002, section 15), table options: several races in one game,
points after each race (the final race its own table), standings with ties by wins then 2nd
places, engine damage carried over (15.1), drivers and teams kept, the constructors (15.2)."""

import json
import random

import pytest

from bot.games.base import GameError, replay
from bot.games.pole import ENGINE as E
from bot.games.pole import championship as CH
from tests.pole.helpers import check, end_race, leaks, policy


def _next(st, engine=None):
    for s in list(E.to_act(st)):
        st, _ = E.apply(st, s, {"type": "next", "engine": bool(engine and s in engine)})
    return st


def test_options():
    assert E.validate_options({"championship": 4}, 2)["championship"] == 4
    for bad in (3, 9, True):
        with pytest.raises(GameError):
            E.validate_options({"championship": bad}, 2)
    with pytest.raises(GameError):
        E.validate_options({"engine_damage": True}, 2)
    with pytest.raises(GameError):  # 15.1 is not compatible with 13.1
        E.validate_options({"championship": 4, "engine_damage": True, "custom_setup": True}, 2)
    assert "season" not in E.new_game({"circuit": "usa"}, 2, 1)


def test_season_circuits_from_the_chosen_one():
    st = E.new_game({"circuit": "italy", "championship": 5}, 2, 1)
    assert st["season"]["races"] == ["italy", "germany", "great_britain", "monaco", "brazil"]


def test_points_standings_and_the_next_race():
    st = E.new_game({"circuit": "great_britain", "championship": 4}, 3, 1)
    st = end_race(st, [2, 0, 1])
    assert st["phase"] == "standings" and st["season"]["points"] == [8, 6, 10]
    assert E.to_act(st) == [0, 1, 2] and not E.is_over(st)
    assert E.view(st, None)["season"]["standings"] == [2, 0, 1]
    st = _next(st)
    assert st["phase"] == "quali" and st["circuit"] == "monaco" and st["season"]["i"] == 1
    assert all(c["ep"] == 7 and c["sp"] <= 9 for c in st["cars"])


def test_final_race_own_table_then_the_game_ends():
    st = E.new_game({"circuit": "great_britain", "championship": 4}, 2, 1)
    for _ in range(3):
        st = _next(end_race(st, [0, 1]))
    st = end_race(st, [1, 0])
    assert E.is_over(st) and st["season"]["points"] == [30 + 16, 24 + 20]
    assert E.placings(st) == [1, 2]


def test_ties_most_wins_then_most_seconds():
    st = E.new_game({"circuit": "great_britain", "championship": 4}, 3, 1)
    st["season"]["points"] = [10, 10, 10]
    st["season"]["results"] = [{"finish": [0, 1, 2]}, {"finish": [1, 2, 0]}, {"finish": [2, 1, 0]}]
    # wins: 0, 1 and 2 one each; seconds: 1 has two -> first; 2 one, 0 none
    assert CH.standings(st) == [1, 2, 0]


def test_engine_damage_carried_over_and_a_new_engine_starts_last():
    st = E.new_game({"circuit": "great_britain", "championship": 6, "engine_damage": True}, 3, 1)
    st = end_race(st, [0, 1, 2], ep={0: 0})
    assert st["season"]["damage"] == [1, 0, 0]
    assert E.legal_actions(st, 0)[-2:] == [{"type": "next", "engine": False}, {"type": "next", "engine": True}]
    st = _next(st)
    assert st["cars"][0]["ep"] == 6  # one less
    st = _next(end_race(st, [0, 1, 2], ep={0: 0}))
    assert st["cars"][0]["ep"] == 5  # "starts with 5 EP"
    st = end_race(st, [0, 1, 2], ep={0: 0})
    assert [a for a in E.legal_actions(st, 0) if a["type"] == "next"] == [{"type": "next", "engine": True}]
    st = _next(st, engine={0})
    assert st["cars"][0]["ep"] == 7 and st["season"]["damage"][0] == 0 and st["season"]["new_engine"] == [0]
    while st["phase"] == "quali":
        for s in E.to_act(st):
            st, _ = E.apply(st, s, {"type": "quali", "reroll": False})
    assert st["grid"][-1] == 0  # from the back of the grid


def test_drivers_and_teams_kept_for_the_season():
    st = E.new_game({"circuit": "great_britain", "championship": 4, "drivers": True}, 2, 1)
    cards = [(c["driver"], c["team"]) for c in st["cars"]]
    eps = [c["ep"] for c in st["cars"]]
    st = _next(end_race(st, [0, 1]))
    assert [(c["driver"], c["team"]) for c in st["cars"]] == cards
    assert [c["ep"] for c in st["cars"]] == eps


def test_constructors_points_and_shared_pit():
    st = E.new_game({"circuit": "great_britain", "championship": 4, "constructors": True, "bots": 2}, 2, 1)
    st = end_race(st, [3, 0, 2, 1])
    assert E.view(st, None)["constructors"] == [{"seats": [2, 3], "points": 16}, {"seats": [0, 1], "points": 12}]
    assert CH.mate(st, 0) == 1 and CH.mate(st, 3) == 2
    single = E.new_game({"circuit": "great_britain", "constructors": True}, 3, 1)
    single["finish"] = [2, 0, 1]
    assert CH.constructors(single) == [{"seats": [0, 1], "points": 14}, {"seats": [2], "points": 10}]


def test_no_pit_while_the_team_mate_is_in_it():
    st = E.new_game({"circuit": "great_britain", "constructors": True}, 2, 1)
    st["turn"] = {"seat": 0}
    opts = [{"kind": "pit"}, {"kind": "end"}]
    st["cars"][1]["pos"] = ["pit"]
    assert CH.restrict(st, opts) == [{"kind": "end"}]
    st["cars"][1]["pos"] = ["pout", 0]
    assert CH.restrict(st, opts) == opts


def test_a_whole_season_plays_and_replays():
    opts = {
        "circuit": "usa",
        "championship": 4,
        "engine_damage": True,
        "constructors": True,
        "bots": 2,
        "drivers": True,
        "events": True,
    }
    rnd = random.Random(4)
    st = E.new_game(opts, 2, 4)
    actions = []
    for _ in range(40000):
        if E.is_over(st):
            break
        seat = rnd.choice(E.to_act(st))
        a = policy(st, seat, rnd)
        st, _ = E.apply(st, seat, a)
        actions.append((seat, a))
        if st["phase"] != "standings":
            check(st)
        leaks(st)
    assert E.is_over(st) and len(st["season"]["results"]) == 4
    assert replay(E, opts, 2, 4, actions) == json.loads(json.dumps(st))
