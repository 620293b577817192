"""Stress (seed 002, section 12), a table option: levels 0-6 with cumulative effects, gained at most
once a round (collision, the leader crossing the line, a follower's DRS, a car ending 1 MP behind
the leader, the leader pitting), brought down one level a turn for 3 MP (dry dice) or 2 (wet)."""

import json

import pytest

from bot.games.base import replay
from bot.games.pole import ENGINE as E
from bot.games.pole import engine as eng
from bot.games.pole import driving as DRIVE
from tests.pole.helpers import attack, Dice, drs_go, fight_setup, play_race, race_with_collisions, red_turn, turn


def test_pole_sitter_starts_at_1_bots_never():
    st = race_with_collisions(n=2, stress=True, bots=2)
    humans = [s for s in range(st["seats"]) if not st["cars"][s].get("bot")]
    for s in range(st["seats"]):
        if st["cars"][s].get("bot"):
            assert "stress" not in st["cars"][s]
        else:
            assert st["cars"][s]["stress"] == (1 if s == st["grid"][0] else 0)
    assert humans
    assert "stress" not in E.validate_options({}, 2)
    assert all("stress" not in c for c in race_with_collisions(n=2)["cars"])


def test_example_stress_4_rolls_9_counts_6_and_goes_to_3(monkeypatch):
    st = race_with_collisions(stress=True)
    a = st["order"][0]
    st["cars"][a]["stress"] = 4
    Dice(monkeypatch, [9])
    st = turn(st, a)
    assert st["turn"]["n"] == 9 and {"type": "calm"} in E.legal_actions(st, a)
    st, ev = E.apply(st, a, {"type": "calm"})
    assert st["cars"][a]["stress"] == 3 and st["turn"]["n"] == 6
    assert {"type": "calm"} not in E.legal_actions(st, a)  # one level a turn


def test_wet_dice_give_2_mp(monkeypatch):
    st = race_with_collisions(stress=True)
    a = st["order"][0]
    st["cars"][a].update(stress=2, tyre="inter", life=3)
    Dice(monkeypatch, [7])
    st = turn(st, a)
    st, _ = E.apply(st, a, {"type": "calm"})
    assert st["turn"]["n"] == 5 and st["cars"][a]["stress"] == 1


def test_level_6_must_calm_down(monkeypatch):
    st = race_with_collisions(stress=True)
    a = st["order"][0]
    st["cars"][a]["stress"] = 6
    Dice(monkeypatch, [9])
    st = turn(st, a)
    assert [x for x in E.legal_actions(st, a) if x["type"] != "prefs"] == [{"type": "calm"}]


def test_levels_limit_points(monkeypatch):
    st = race_with_collisions(stress=True)
    a = st["order"][0]
    for lv in (0, 2, 4, 5):
        s2 = json.loads(json.dumps(st))
        s2["cars"][a]["stress"] = lv
        Dice(monkeypatch, [9])
        s2 = turn(s2, a)
        opts = s2["turn"]["opts"]
        acts = E.legal_actions(s2, a)
        if lv >= 2:
            assert not any(o["ep"] and o["bp"] for o in opts)
        if lv >= 4:
            assert all(o["ep"] == 0 and o["bp"] == 0 for o in opts)
        if lv >= 5:
            assert all(o["sp"] == 0 for o in opts) and {"type": "reroll"} not in acts
        if lv == 0:
            assert any(o["ep"] for o in opts) and {"type": "reroll"} in acts


def test_level_3_no_sp_in_fights(monkeypatch):
    st = race_with_collisions(stress=True)
    a, d, _ = fight_setup(st)
    st["cars"][d]["stress"] = 3
    sp_d = st["cars"][d]["sp"]
    st, _ = attack(monkeypatch, st, a, d, [5, 4])  # 5 + 2 against 4: the defender may not bid
    assert st["cars"][d]["sp"] == sp_d and st["order"].index(a) < st["order"].index(d)


def test_a_collision_raises_stress_once_a_round(monkeypatch):
    st = race_with_collisions(stress=True, collisions=True)
    a, d, _ = fight_setup(st)
    st["cars"][a]["stress"] = st["cars"][d]["stress"] = 0
    st["cars"][d]["sp"] = 0
    st, _ = attack(monkeypatch, st, a, d, [4, 4, 1, 1])
    assert st["cars"][a]["stress"] == 1 and st["cars"][d]["stress"] == 1
    st["round"] = st["cars"][a]["stress_r"]  # (the turn ended and a new round began: go back to it)
    DRIVE.stress(st, [], a)  # the same round: no second level
    assert st["cars"][a]["stress"] == 1
    st["round"] += 1
    DRIVE.stress(st, [], a)
    assert st["cars"][a]["stress"] == 2


def test_the_leader_crossing_the_line_and_a_follower_taking_drs(monkeypatch):
    st = E.new_game({"circuit": "great_britain", "drs": True, "stress": True}, 2, 1)
    while st["phase"] == "quali":
        for s in E.to_act(st):
            st, _ = E.apply(st, s, {"type": "quali", "reroll": False})
    for s in range(2):
        st, _ = E.apply(st, s, {"type": "tyre", "tyre": "hard"})
    st["cars"][0]["stress"] = st["cars"][1]["stress"] = 0
    Dice(monkeypatch, [6])
    st = red_turn(st)
    st, ev = drs_go(st, 4, 2)  # red takes DRS 1 MP behind green (the leader): green +1, once
    assert st["cars"][0]["drs"] and st["cars"][1]["stress"] == 1
    assert st["cars"][0]["stress"] == 0  # red crossed the line, but it is not the leader


@pytest.mark.parametrize("n,bots,seed", [(6, 0, 18), (3, 2, 9), (1, 3, 4)])
def test_random_races_with_every_option(n, bots, seed):
    st, actions, options, keys = play_race(
        n, bots, seed, {"safety_car": True, "yellow_flag": True, "drs": True, "stress": True}
    )
    assert E.is_over(st)
    assert all(0 <= c.get("stress", 0) <= 6 for c in st["cars"])
    if n == 6:
        assert keys["{p}'s stress rises to {n}."]
    again = replay(E, options, n, seed, actions)
    assert again == json.loads(json.dumps(st))


def test_the_leader_crossing_the_line_and_pitting(monkeypatch):
    st = race_with_collisions(n=2, stress=True)
    lead, other = st["order"][0], st["order"][1]
    st["cars"][lead].update(pos=["t", 86, 1], laps=1, line=[], stress=0, life=4)
    st["cars"][other].update(pos=["t", 40, 1], laps=1, line=[], stress=0)
    Dice(monkeypatch, [9])
    st = turn(st, lead)
    cross = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "end" and o["laps"] == 2)
    st, ev = E.apply(st, lead, {"type": "move", "i": cross})
    assert st["cars"][lead]["stress"] == 1 and st["cars"][other]["stress"] == 0
    # the leader pitting (another round)
    st = race_with_collisions(n=2, stress=True)
    lead = st["order"][0]
    c = eng.circuits()["great_britain"]
    st["cars"][lead].update(pos=["t", c.pit_entry_row - 2, c.pit_side], laps=1, line=[], stress=0)
    Dice(monkeypatch, [9])
    st = turn(st, lead)
    pit = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "pit")
    st, _ = E.apply(st, lead, {"type": "move", "i": pit})
    assert st["cars"][lead]["stress"] == 1


def test_a_car_ending_1_mp_behind_the_leader_alone(monkeypatch):
    """► トップから1MP 遅れで移動を終えた車がある場合、この場合、トップは1ストレス ポイントを獲得します。"""
    st = race_with_collisions(n=2, collisions=False, stress=True)  # no DRS option: this rule alone
    lead, f = st["order"][0], st["order"][1]
    st["cars"][lead].update(pos=["t", 40, 1], laps=1, line=[], stress=0)
    st["cars"][f].update(pos=["t", 30, 1], laps=1, line=[], stress=0)
    st["order"] = [lead, f]
    for row, gained in ((39, 1), (37, 0)):  # 1 MP behind: +1; 3 rows behind: nothing
        Dice(monkeypatch, [9])
        s2 = turn(st, f)
        i = next(i for i, o in enumerate(s2["turn"]["opts"]) if o["kind"] == "end" and o["pos"] == ["t", row, 1])
        s2, _ = E.apply(s2, f, {"type": "move", "i": i})
        assert s2["cars"][lead]["stress"] == gained and s2["cars"][f]["stress"] == 0
        assert not s2["cars"][f].get("drs")


def test_a_car_crossing_the_line_passes_the_leader_in_the_pits(monkeypatch):
    """► 1台の車がフィニッシュラインを通過したときに、ピットにいるトップを追い越した場合。"""
    st = race_with_collisions(n=2, collisions=False, stress=True)
    lead, f = st["order"][0], st["order"][1]
    st["cars"][lead].update(pos=["g", 0], laps=1, line=[], stress=0, pit_turn=2, pitted=True)
    st["order"] = [lead, f]
    for row, laps, gained in ((86, 2, 1), (70, 1, 0)):  # across the line: +1 for the leader; short of it: 0
        st["cars"][f].update(pos=["t", row, 1], laps=1, line=[], stress=0, life=4)
        Dice(monkeypatch, [9])
        s2 = turn(st, f)
        i = next(i for i, o in enumerate(s2["turn"]["opts"]) if o["kind"] == "end" and o["laps"] == laps)
        s2, _ = E.apply(s2, f, {"type": "move", "i": i})
        assert s2["cars"][lead]["stress"] == gained and s2["cars"][f]["stress"] == 0
