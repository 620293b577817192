"""The variants (seed 002, section 16), table options: no retirements (16.1) and the long race
(16.2)."""

import json

from bot.games.pole.variants import breakdown
from bot.games.pole import ENGINE as E
from bot.games.pole import engine as eng
from bot.games.pole import race as RACE
from bot.games.rng import Rng
from tests.pole.helpers import Dice, event_round, race, said, turn


def test_long_race_dashboard_laps_and_second_hard_set():
    st = race(n=2, long_race=True, bots=1)
    gb = eng.circuits()["great_britain"]
    assert st["circuit"] == "great_britain@long" and eng.circuits()[st["circuit"]].laps == 2 * gb.laps
    assert E.view(st, None)["laps"] == 2 * gb.laps
    for s in range(2):
        car = st["cars"][s]
        assert car["ep"] == 12 and car["bp"] == 12 and car["sp0"] == 15
        assert car["sets"]["hard"] == [4]  # two hard sets: one fitted at the start, the "12" set left
    assert st["cars"][2]["ep"] == 0 and st["cars"][2]["sp"] == 0  # a bot's dashboard stays empty
    assert list(eng.circuits()) == list(eng.CIRCUIT_KEYS)  # the long variant is no ninth circuit


def test_long_race_with_circuit_rules():
    st = E.new_game({"circuit": "brazil", "long_race": True, "circuit_rules": True}, 2, 1)
    assert [(c["ep"], c["bp"]) for c in st["cars"]] == [(12, 11)] * 2


def test_long_race_four_breakdown_points():
    st = race(n=1, long_race=True)
    ev = []
    breakdown(st, ev, 0, "heavy")
    st["cars"][0]["bd"][0][1] = True  # repaired
    breakdown(st, ev, 0, "heavy")
    assert st["cars"][0]["out"] is None  # 4 points: still in
    st2 = race(n=1)
    breakdown(st2, ev, 0, "heavy")
    st2["cars"][0]["bd"][0][1] = True
    breakdown(st2, ev, 0, "heavy")
    assert st2["cars"][0]["out"] == "breakdown"  # 4 > 3 in the normal race


def _sc(st, lead_row, lead_laps, monkeypatch):
    st = json.loads(json.dumps(st))
    for i, s in enumerate(st["order"]):
        st["cars"][s].update(pos=["t", lead_row - 2 * i, 1], laps=lead_laps, line=[], life=4, pitted=True)
    st["turn"], st["queue"] = None, []
    st["sc_due"] = {"causers": []}
    Dice(monkeypatch, ["sun"] * 4)
    rng = Rng(st["rng"])
    RACE.next_turn(st, rng, [])
    st["rng"] = rng.state
    for s in list(st["sc"]["order"]):
        st, _ = E.apply(st, s, {"type": "sc", "tyre": None})
    return st


def test_long_race_safety_car_moves_the_lap_counter_one_more(monkeypatch):
    gb = eng.circuits()["great_britain"]
    st = _sc(race(n=2, long_race=True, safety_car=True), 60, 1, monkeypatch)  # before the SC line
    assert all(st["cars"][s]["laps"] == 2 for s in range(2))  # normally it would stay at 1
    st = _sc(race(n=2, long_race=True, safety_car=True), gb.sc_row + 1, 1, monkeypatch)
    assert all(st["cars"][s]["laps"] == 3 for s in range(2))  # normally 2
    st = _sc(race(n=2, safety_car=True), 60, 1, monkeypatch)
    assert all(st["cars"][s]["laps"] == 1 for s in range(2))


def test_no_retire_too_many_breakdowns_means_a_pit_stop():
    st = race(n=1, no_retire=True)
    st["turn"] = None  # outside a turn the line goes out at once (in a turn: in the turn's line)
    ev = []
    breakdown(st, ev, 0, "heavy")
    breakdown(st, ev, 0, "light")
    car = st["cars"][0]
    assert car["out"] is None and car["must_pit"] and E.view(st, None)["cars"][0]["must_pit"]
    assert any(e.text.key == "{p} is not out (no retirements) but must pit as soon as possible." for e in said(ev))


def test_no_retire_lost_point_means_a_pit_stop(monkeypatch):
    st = race(n=1, no_retire=True, events=True)
    st["cars"][0]["bp"] = 0
    st, ev = event_round(st, ["bp"], ["!", "!"], monkeypatch)
    assert st["cars"][0]["out"] is None and st["cars"][0]["must_pit"] and st["cars"][0]["bp"] == 0


def test_must_pit_only_the_pit_when_in_reach_then_cleared(monkeypatch):
    st = race(n=1, no_retire=True)
    c = eng.circuits()["great_britain"]
    s = 0
    st["cars"][s].update(
        pos=["t", c.pit_entry_row - 2, c.pit_side],
        laps=1,
        line=[],
        must_pit=True,
        life=3,
        bd=[["heavy", False], ["light", False]],
    )
    for o in range(1, st["seats"]):
        st["cars"][o].update(pos=["t", 20, 0], laps=1)
    st["order"] = [s] + list(range(1, st["seats"]))
    Dice(monkeypatch, [9])
    st = turn(st, s)
    kinds = {o["kind"] for o in st["turn"]["opts"]}
    assert kinds <= {"pit"} or all(o["kind"] == "pit" or o["pos"][0] == "pin" for o in st["turn"]["opts"])
    i = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "pit")
    st, _ = E.apply(st, s, {"type": "move", "i": i})
    assert "must_pit" not in st["cars"][s] and st["cars"][s]["pos"] == ["pit"]
    assert st["cars"][s]["bd"] == [["heavy", True], ["light", True]]
    # the points stay on the dashboard: the next breakdown sends the car back to the pits
    ev = []
    breakdown(st, ev, s, "light")
    assert st["cars"][s]["must_pit"] and st["cars"][s]["out"] is None


def test_without_the_variant_a_car_still_retires():
    st = race(n=1)
    ev = []
    breakdown(st, ev, 0, "heavy")
    breakdown(st, ev, 0, "light")
    assert st["cars"][0]["out"] == "breakdown"
