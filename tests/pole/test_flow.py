"""Pole Position engine flow: the seed's examples played through apply(), with scripted dice."""

import json

import pytest

from bot.games.base import GameError
from bot.games.pole import ENGINE as E
from bot.games.pole import engine as eng
from bot.games.pole import race as RACE
from bot.games.pole import driving as DRIVE
from bot.games.rng import Rng
from tests.pole.helpers import Dice, pit_ready, race, said, turn


def test_q1_flow_with_six_cars(monkeypatch):
    # first rolls red 2, blue 3, green 4, orange 4, yellow 5, purple 6 (seed 3.1.1)
    Dice(monkeypatch, [1, 1, 1, 2, 3, 4, 4, 5, 6])  # weather 1,1,1 then Q1 first rolls
    st = E.new_game({}, 6, 5)
    assert st["quali"]["sessions"] == ["Q1", "Q2", "Q3"]
    assert st["quali"]["first"] == {"0": 2, "1": 3, "2": 4, "3": 4, "4": 5, "5": 6}
    # choices are secret until everyone has chosen
    st, _ = E.apply(st, 0, {"type": "quali", "reroll": True})
    assert "mine" not in E.view(st, 1)["quali"] and E.view(st, 0)["quali"]["mine"] is True
    assert E.view(st, None)["quali"]["chosen"] == [0]
    Dice(monkeypatch, [1, 5, 2, 2, 2, 2, 2, 2])  # red's two extra rolls, then Q2 first rolls
    for s in range(1, 6):
        st, _ = E.apply(st, s, {"type": "quali", "reroll": False})
    q = st["quali"]
    assert q["back"] == [1]  # blue is out and starts last
    assert st["cars"][0]["sp"] == 9 - 1 - 1  # red: the reroll and going on to Q2
    assert st["cars"][1]["sp"] == 9  # blue pays nothing
    assert all(st["cars"][s]["sp"] == 8 for s in (2, 3, 4, 5))
    assert q["sessions"][q["idx"]] == "Q2" and sorted(q["in"]) == [0, 2, 3, 4, 5]


def test_secret_tyre_choice_then_reveal():
    st = E.new_game({}, 2, 3)
    while st["phase"] == "quali":
        for s in E.to_act(st):
            st, _ = E.apply(st, s, {"type": "quali", "reroll": False})
    st, _ = E.apply(st, 0, {"type": "tyre", "tyre": "hard"})
    v1, v0, spec = E.view(st, 1), E.view(st, 0), E.view(st, None)
    assert v1 == {**v0, "my_tyre": v1.get("my_tyre")} or "my_tyre" not in v1
    assert "my_tyre" not in spec and all(c["tyre"] is None for c in spec["cars"])
    private = ("my_tyre", "viewer", "me")
    assert {k: v for k, v in v0.items() if k not in private} == {k: v for k, v in spec.items() if k not in private}
    assert v0["my_tyre"] == "hard"
    st, _ = E.apply(st, 1, {"type": "tyre", "tyre": "soft"})
    assert st["phase"] == "race"
    assert st["cars"][0]["tyre"] == "hard" and st["cars"][0]["life"] == 4  # 3.2.3 yellow's example
    assert st["cars"][1]["life"] == 2 and st["cars"][1]["sets"]["soft"] == []


def test_start_rounds_use_the_purple_die_and_reroll_keeps_the_higher(monkeypatch):
    Dice(monkeypatch, [])
    st = race()
    assert st["round"] == 1 and st["turn"]["die"] == "purple"
    seat = st["turn"]["seat"]
    Dice(monkeypatch, [6])
    first = st["turn"]["rolls"][0]
    st2, _ = E.apply(st, seat, {"type": "reroll"})
    assert st2["cars"][seat]["sp"] == st["cars"][seat]["sp"] - 1
    assert eng.face_value(st2["turn"]["rolls"][st2["turn"]["use"]]) == max(eng.face_value(first), 6)


def test_tyre_die_by_compound_and_count_up_to_three_fewer(monkeypatch):
    st = race(tyre="soft")
    seat = st["order"][0]
    Dice(monkeypatch, [9])
    st = turn(st, seat)
    t = st["turn"]
    assert t["die"] == "red" and t["n"] == 9
    # 4: the player may count 6..9 cells; the options' tyre counts stay in that range
    assert all(6 <= o["ms"]["t"] <= 9 for o in t["opts"] if o["kind"] == "end" and o["ms"]["mode"] >= 1)


def test_course_out_and_avoiding_it(monkeypatch):
    # 4.6.1: light rain, hard tyres, 10 -> 3 SP make it 7 and the car stays on
    st = race(tyre="hard")
    seat = st["order"][0]
    Dice(monkeypatch, [10])
    st = turn(st, seat, weather="light")
    acts = E.legal_actions(st, seat)
    assert {"type": "reduce", "sp": 3} in acts and {"type": "off"} in acts
    assert not any(a["type"] == "move" for a in acts)
    sp = st["cars"][seat]["sp"]
    st2, _ = E.apply(st, seat, {"type": "reduce", "sp": 3})
    assert st2["cars"][seat]["sp"] == sp - 3 and st2["turn"]["n"] == 7
    # the blue car (soft, light rain, 10): off, 4 cells, then 4 more next turn with no roll
    before = list(st["cars"][seat]["pos"])
    st3 = json.loads(json.dumps(st))
    rng = Rng(st3["rng"])
    DRIVE.go_off(st3, [], seat)
    car = st3["cars"][seat]
    assert car["off"] == 1 and car["pos"][1] == before[1] + 4
    st3["queue"] = []
    assert RACE.begin_turn(st3, rng, [], seat) is False  # next turn: played out, no roll
    assert car["pos"][1] == before[1] + 8 and car["off"] == 2
    st5, ev = E.apply(st, seat, {"type": "off"})
    assert any(e.text.key.startswith("{a}, goes off the track") for e in said(ev))


def test_heavy_breakdown_does_not_change_the_course_out_roll(monkeypatch):
    # 4.6 ex. 3: soft, light rain, heavy breakdown, 9: off (the raw 9 counts)
    st = race(tyre="soft")
    seat = st["order"][0]
    st["cars"][seat]["bd"] = [["heavy", False]]
    Dice(monkeypatch, [9])
    st = turn(st, seat, weather="light")
    assert {"type": "off"} in E.legal_actions(st, seat)
    st2, _ = E.apply(st, seat, {"type": "reduce", "sp": 1})
    assert st2["turn"]["n"] == 8 - 1  # 9 -1 SP = 8, -1 for the heavy breakdown


def test_worn_tyres_lose_mp(monkeypatch):
    st = race(tyre="hard")
    seat = st["order"][0]
    st["cars"][seat]["life"] = -1
    Dice(monkeypatch, [9])
    assert turn(st, seat)["turn"]["n"] == 8
    st["cars"][seat]["life"] = -2
    Dice(monkeypatch, [9])
    assert turn(st, seat)["turn"]["n"] == 7


def test_pit_stop_keeps_unused_mp_and_restores(monkeypatch):
    st, seat, c = pit_ready(monkeypatch)
    Dice(monkeypatch, [10])
    st = turn(st, seat)
    pit = [i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "pit"]
    assert pit
    o = st["turn"]["opts"][pit[0]]
    assert o["ms"]["t"] == 7  # 3 to the pit lane, 3 entry cells, across the zigzag (dry: no blue dashes)
    st, _ = E.apply(st, seat, {"type": "move", "i": pit[0]})
    car = st["cars"][seat]
    assert car["pos"] == ["pit"] and car["green"] == 3  # the green "3" counter (7.1)
    assert car["life"] == 1 and car["sets"]["soft"] == [1]  # worn like a crossing, its token kept
    assert car["sp"] == 9  # +3, capped at the starting 9
    assert car["bd"] == [["light", True]]  # repaired, still counted
    assert car["laps"] == 2 and car["pitted"]
    assert E.to_act(st) == [seat] and {"type": "tyre", "tyre": "hard"} in E.legal_actions(st, seat)
    st, _ = E.apply(st, seat, {"type": "tyre", "tyre": "hard"})
    assert st["cars"][seat]["tyre"] == "hard" and st["cars"][seat]["life"] == 4
    # next turns: green cell 1, green cell 2 (played out at once), then purple + 3
    seen = [list(st["cars"][seat]["pos"])]
    while st["cars"][seat]["pit_turn"] != 3:
        st = json.loads(json.dumps(st))
        st["queue"] = []
        rng = Rng(st["rng"])
        assert RACE.begin_turn(st, rng, [], seat) is False
        seen.append(list(st["cars"][seat]["pos"]))
    assert seen[-2:] == [["g", 0], ["g", 1]]
    Dice(monkeypatch, [4])
    st = turn(st, seat)
    assert st["turn"]["die"] == "purple" and st["turn"]["n"] == 7  # 4 + 3 (7.4 example)
    assert all(o["ep"] == 0 and o["bp"] == 0 for o in st["turn"]["opts"] if o["pos"][0] != "t")


def test_mandatory_stop_before_the_last_lap(monkeypatch):
    st = race(tyre="hard")
    seat = st["order"][0]
    c = eng.circuits()[st["circuit"]]
    for i, s in enumerate(x for x in range(st["seats"]) if x != seat):
        st["cars"][s]["pos"] = ["t", 20 + 3 * i, 1]
    car = st["cars"][seat]
    car["pos"] = ["t", c.length - 3, 1]
    car["laps"] = c.laps - 2
    Dice(monkeypatch, [8, 6, 6, 6])
    st = turn(st, seat)
    i = next(i for i, o in enumerate(st["turn"]["opts"]) if o["laps"] == c.laps - 1)
    st, _ = E.apply(st, seat, {"type": "move", "i": i})
    assert st["cars"][seat]["out"] == "no_stop"


def test_crossing_wears_tyres_and_the_last_crossing_finishes(monkeypatch):
    st = race(tyre="inter")
    seat = st["order"][0]
    c = eng.circuits()[st["circuit"]]
    for i, s in enumerate(x for x in range(st["seats"]) if x != seat):
        st["cars"][s]["pos"] = ["t", 20 + 3 * i, 1]
    car = st["cars"][seat]
    car["pos"] = ["t", c.length - 3, 1]
    car["laps"] = 1
    Dice(monkeypatch, [7, 6, 6, 6])
    st = turn(st, seat)
    i = next(i for i, o in enumerate(st["turn"]["opts"]) if o["laps"] == 2)
    st, _ = E.apply(st, seat, {"type": "move", "i": i})
    assert st["cars"][seat]["life"] == 1  # dry weather on intermediates: 3 -> 1
    st = json.loads(json.dumps(st))
    car = st["cars"][seat]
    car["pos"], car["laps"], car["pitted"] = ["t", c.length - 3, 1], c.laps - 1, True
    Dice(monkeypatch, [7, 6, 6, 6])
    st = turn(st, seat)
    fin = [i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "finish"]
    assert fin
    st, _ = E.apply(st, seat, {"type": "move", "i": fin[0]})
    assert st["cars"][seat]["finished"] == 1 and st["finish"] == [seat]


def test_blowout_roll_at_minus_two(monkeypatch):
    st = race(tyre="soft")
    seat = st["order"][0]
    st["cars"][seat]["life"] = -2
    Dice(monkeypatch, [11])
    st = turn(st, seat)
    i = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "end")
    Dice(monkeypatch, [1, 6, 6, 6, 6])  # the blow-out roll: 1
    st, _ = E.apply(st, seat, {"type": "move", "i": i})
    car = st["cars"][seat]
    assert car["bd"] == [["heavy", False]] and car["blown"] and car["blow_done"]


def test_position_fight_through_apply(monkeypatch):
    """5.1: the attacker 2 (+1 for 3 unused MP) vs the defender 4; standing maxima settle it."""
    st = race(tyre="hard")
    a, d = st["order"][0], st["order"][1]
    others = [s for s in range(st["seats"]) if s not in (a, d)]
    for i, s in enumerate(others):
        st["cars"][s]["pos"] = ["t", 70 + i, 1]
    st["cars"][d]["pos"] = ["t", 30, 1]
    st["cars"][a]["pos"] = ["t", 28, 0]
    st["order"] = [d, a] + others
    st["prefs"][a] = {"attack": 2, "defend": 3, "yield": False}
    st["prefs"][d] = {"attack": 3, "defend": 0, "yield": False}
    Dice(monkeypatch, [7])
    st = turn(st, a)
    f = [
        i
        for i, o in enumerate(st["turn"]["opts"])
        if o["kind"] == "fight" and o["def"] == [d] and o["pos"] == ["t", 30, 0] and o["unused"] == 5
    ]
    assert f
    Dice(monkeypatch, [2, 4])
    sp_a, sp_d = st["cars"][a]["sp"], st["cars"][d]["sp"]
    st, ev = E.apply(st, a, {"type": "move", "i": f[0]})
    # 2 + 2 (5 unused MP, designed table) = 4 vs 4: the attacker bids 1 and the defender passes
    assert st["cars"][a]["sp"] == sp_a - 1 and st["cars"][d]["sp"] == sp_d
    assert st["order"].index(a) < st["order"].index(d)
    assert st["turn"]["seat"] == a and st["turn"]["opts"]  # it goes on with the MP left


def test_lost_fight_ends_the_move(monkeypatch):
    st = race(tyre="hard")
    a, d = st["order"][0], st["order"][1]
    others = [s for s in range(st["seats"]) if s not in (a, d)]
    for i, s in enumerate(others):
        st["cars"][s]["pos"] = ["t", 70 + i, 1]
    st["cars"][d]["pos"] = ["t", 30, 1]
    st["cars"][a]["pos"] = ["t", 28, 0]
    st["order"] = [d, a] + others
    st["prefs"][a]["attack"] = 0
    Dice(monkeypatch, [7])
    st = turn(st, a)
    f = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "fight" and o["pos"] == ["t", 30, 0])
    Dice(monkeypatch, [1, 6, 6, 6, 6, 6])
    st, _ = E.apply(st, a, {"type": "move", "i": f})
    assert st["cars"][a]["pos"] == ["t", 30, 0] and st["order"].index(d) < st["order"].index(a)
    assert st["turn"] is None or st["turn"]["seat"] != a


def test_illegal_actions_are_refused():
    st = race()
    other = next(s for s in range(st["seats"]) if s not in E.to_act(st))
    with pytest.raises(GameError):
        E.apply(st, other, {"type": "move", "i": 0})
    with pytest.raises(GameError):
        E.apply(st, E.to_act(st)[0], {"type": "move", "i": 99})
    with pytest.raises(GameError):
        E.apply(st, 0, {"type": "nonsense"})


def test_defender_who_asks_decides_live(monkeypatch):
    st = race(tyre="hard")
    a, d = st["order"][0], st["order"][1]
    others = [s for s in range(st["seats"]) if s not in (a, d)]
    for i, s in enumerate(others):
        st["cars"][s]["pos"] = ["t", 70 + i, 1]
    st["cars"][d]["pos"] = ["t", 30, 1]
    st["cars"][a]["pos"] = ["t", 28, 0]
    st["order"] = [d, a] + others
    st, _ = E.apply(st, d, {"type": "prefs", "ask": True})
    st, _ = E.apply(st, a, {"type": "prefs", "attack": 0})
    Dice(monkeypatch, [7])
    st = turn(st, a)
    f = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "fight" and o["pos"] == ["t", 30, 0])
    Dice(monkeypatch, [5, 3])
    st, ev = E.apply(st, a, {"type": "move", "i": f})
    # 5.1: first fight or let them through, before any die is rolled
    assert E.to_act(st) == [d] and st["turn"]["stage"] == "defend" and st["turn"]["fight"]["rolls"] is None
    assert [x for x in E.legal_actions(st, d) if x["type"] != "prefs"] == [{"type": "yield"}, {"type": "fight"}]
    with pytest.raises(GameError):
        E.apply(st, a, {"type": "move", "i": 0})
    sp_d = st["cars"][d]["sp"]
    st3, _ = E.apply(st, d, {"type": "yield"})
    assert st3["cars"][d]["sp"] == sp_d and st3["order"].index(a) < st3["order"].index(d)
    # fighting rolls the dice, then the defender bids knowing them
    st, _ = E.apply(st, d, {"type": "fight"})
    assert E.to_act(st) == [d] and st["turn"]["fight"]["rolls"] == [5, 3]
    assert {"type": "yield"} not in E.legal_actions(st, d)
    # 5 + 2 (5 unused MP) = 7 against 3, the attacker bids nothing more: 4 SP tie, and a tie holds
    st2, _ = E.apply(st, d, {"type": "defend", "max": 4})
    assert st2["cars"][d]["sp"] == sp_d - 4 and st2["cars"][a]["pos"] == ["t", 30, 0]


def test_the_leader_catching_the_last_car_retires_it(monkeypatch):
    st = race(tyre="hard")
    lead, last = st["order"][0], st["order"][-1]
    mid = [s for s in st["order"] if s not in (lead, last)]
    for i, s in enumerate(mid):
        st["cars"][s]["pos"] = ["t", 60 + i, 1]
    st["cars"][lead]["pos"], st["cars"][lead]["laps"] = ["t", 27, 0], 1
    st["cars"][last]["pos"], st["cars"][last]["laps"] = ["t", 31, 2], 0
    Dice(monkeypatch, [8, 6, 6, 6, 6])
    st = turn(st, lead)
    i = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "end" and o["laps"] == 1 and o["pos"][1] >= 31)
    st, ev = E.apply(st, lead, {"type": "move", "i": i})
    assert st["cars"][last]["out"] == "lapped"  # 5.6: no fight needed


def test_low_grip_risk_is_named_in_the_option(monkeypatch):
    st = race(n=2, circuit="italy", tyre="soft")
    seat = st["order"][0]
    c = eng.circuits()[st["circuit"]]
    other = st["order"][1]
    st["cars"][other]["pos"] = ["t", 70, 1]
    row, lane = min(c.low_grip)
    st["cars"][seat]["pos"] = ["t", row - 8, 1]
    Dice(monkeypatch, [9])
    st = turn(st, seat, weather="light")
    st, _ = E.apply(st, seat, {"type": "reduce", "sp": 1})  # 9 -> 8: stays on, but 8 is checked
    risky = [o for o in st["turn"]["opts"] if o["risk"]]
    assert risky and all((o["pos"][1], o["pos"][2]) in c.low_grip for o in risky)
    label = E.describe_action(st, seat, {"type": "move", "i": st["turn"]["opts"].index(risky[0])})
    assert "low grip" in str(label)


def test_a_secret_choice_may_change_until_all_are_in():
    st = E.new_game({}, 3, 3)
    while st["phase"] == "quali":
        for s in E.to_act(st):
            st, _ = E.apply(st, s, {"type": "quali", "reroll": False})
    st, _ = E.apply(st, 0, {"type": "tyre", "tyre": "hard"})
    st, _ = E.apply(st, 0, {"type": "tyre", "tyre": "wet"})
    assert E.view(st, 0)["my_tyre"] == "wet" and E.to_act(st) == [1, 2]
    st, _ = E.apply(st, 1, {"type": "tyre", "tyre": "soft"})
    st, _ = E.apply(st, 2, {"type": "tyre", "tyre": "soft"})
    assert st["phase"] == "race" and st["cars"][0]["tyre"] == "wet"
