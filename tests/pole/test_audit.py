"""Pole Position audit (tests/pole/AUDIT.md): the items fixed or added in the audit."""

import json

import pytest

from bot.games.base import GameError
from bot.games.pole import ENGINE as E
from bot.games.pole import engine as eng
from bot.games.pole import rules as R
from bot.games.pole import race as RACE
from bot.games.pole import driving as DRIVE
from tests.pole.helpers import Dice, patch_dice, pit_ready, race, said, turn


def _duel(monkeypatch, roll, a_prefs, d_prefs):
    """Attacker a on row 28 lane 0, defender d beside its target on row 30 lane 1; a rolls `roll`
    (hard tyres); returns the state at a's turn and the index of the fight option from row 30."""
    st = race(tyre="hard")
    a, d = st["order"][0], st["order"][1]
    others = [s for s in range(st["seats"]) if s not in (a, d)]
    for i, s in enumerate(others):
        st["cars"][s]["pos"] = ["t", 70 + i, 1]
    st["cars"][d]["pos"] = ["t", 30, 1]
    st["cars"][a]["pos"] = ["t", 28, 0]
    st["order"] = [d, a] + others
    st["prefs"][a].update(a_prefs)
    st["prefs"][d].update(d_prefs)
    Dice(monkeypatch, [roll])
    st = turn(st, a)
    f = next(
        i
        for i, o in enumerate(st["turn"]["opts"])
        if o["kind"] == "fight" and o["def"] == [d] and o["pos"] == ["t", 30, 0]
    )
    return st, a, d, f


# ---- 5.1: both sides have a standing maximum, and "ask me" pauses for a live bid on both sides
def test_auction_example_with_a_live_attacker(monkeypatch):
    """The seed's auction: green (attacker) 2 + 1 for 3 unused MP = 3, yellow 4. Green, asked live,
    bids up to 2 and wins 5 to 4; yellow (standing maximum 0) passes; only green pays, 2 SP."""
    st, a, d, f = _duel(monkeypatch, 5, {"attack": 0, "ask_attack": True}, {"defend": 0, "ask": False})
    assert st["turn"]["opts"][f]["unused"] == 3 and R.unused_mp_modifier(3) == 1
    Dice(monkeypatch, [2, 4])
    sp_a, sp_d = st["cars"][a]["sp"], st["cars"][d]["sp"]
    st, _ = E.apply(st, a, {"type": "move", "i": f})
    assert st["turn"]["stage"] == "attack" and E.to_act(st) == [a]
    bids = [x for x in E.legal_actions(st, a) if x["type"] == "attack"]
    assert bids == [{"type": "attack", "max": k} for k in range(sp_a + 1)]
    with pytest.raises(GameError):
        E.apply(st, d, {"type": "attack", "max": 2})
    menu = E.menu(st, a)
    sel = next(g for g in menu if g.get("action") == {"type": "attack"})
    won, _ = E.apply(st, a, {"type": "attack", "values": ["2"]})
    assert won["cars"][a]["sp"] == sp_a - 2 and won["cars"][d]["sp"] == sp_d
    assert won["order"].index(a) < won["order"].index(d)
    assert won["turn"]["seat"] == a and won["turn"]["stage"] == "move"  # it drives on with the 3 MP
    # with 1 SP at most: 4 against 4, the defender wins the tie and nobody pays
    lost, _ = E.apply(st, a, {"type": "attack", "max": 1})
    assert lost["cars"][a]["sp"] == sp_a and lost["cars"][d]["sp"] == sp_d
    assert lost["cars"][a]["pos"] == ["t", 30, 0] and lost["order"].index(d) < lost["order"].index(a)
    assert sel["options"][2]["value"] == "2"


def test_auction_example_yellow_bids_1_and_green_must_raise_again(monkeypatch):
    """'Had yellow bid 1, a tie: the defender wins and it is the attacker's turn to bid again.'
    Yellow's standing maximum 1: green needs 3 SP (6 to 5); with 2 it loses and yellow pays 1."""
    for live, wins, pa, pd in ((3, True, 3, 0), (2, False, 0, 1)):
        st, a, d, f = _duel(monkeypatch, 5, {"attack": 0, "ask_attack": True}, {"defend": 1, "ask": False})
        Dice(monkeypatch, [2, 4])
        sp_a, sp_d = st["cars"][a]["sp"], st["cars"][d]["sp"]
        st, _ = E.apply(st, a, {"type": "move", "i": f})
        st, _ = E.apply(st, a, {"type": "attack", "max": live})
        assert (st["order"].index(a) < st["order"].index(d)) is wins
        assert (sp_a - st["cars"][a]["sp"], sp_d - st["cars"][d]["sp"]) == (pa, pd)


def test_standing_maxima_on_both_sides_never_pause(monkeypatch):
    st, a, d, f = _duel(monkeypatch, 5, {"attack": 2, "ask_attack": False}, {"defend": 0, "ask": False})
    Dice(monkeypatch, [2, 4])
    sp_a = st["cars"][a]["sp"]
    st, _ = E.apply(st, a, {"type": "move", "i": f})
    assert st["turn"]["stage"] == "move" and st["cars"][a]["sp"] == sp_a - 2  # settled at once


def test_both_ask_defender_first_decides_then_both_bid_live(monkeypatch):
    st, a, d, f = _duel(monkeypatch, 5, {"attack": 0}, {"defend": 0})
    st, _ = E.apply(st, a, {"type": "prefs", "preset": "ask_both"})
    st, _ = E.apply(st, d, {"type": "prefs", "preset": "ask_both"})
    assert st["prefs"][a]["ask_attack"] and st["prefs"][d]["ask"]
    Dice(monkeypatch, [2, 4])
    st, _ = E.apply(st, a, {"type": "move", "i": f})
    assert st["turn"]["stage"] == "defend" and st["turn"]["fight"]["rolls"] is None  # fight or yield first
    st, _ = E.apply(st, d, {"type": "fight"})
    assert st["turn"]["stage"] == "attack" and st["turn"]["fight"]["rolls"] == [2, 4]
    st, _ = E.apply(st, a, {"type": "attack", "max": 2})
    assert st["turn"]["stage"] == "defend" and E.to_act(st) == [d]
    sp_a, sp_d = st["cars"][a]["sp"], st["cars"][d]["sp"]
    st, _ = E.apply(st, d, {"type": "defend", "max": 1})  # 5-5 tie: green's 2 cannot beat it
    assert st["order"].index(d) < st["order"].index(a)
    assert (st["cars"][a]["sp"], st["cars"][d]["sp"]) == (sp_a, sp_d - 1)


def test_an_absent_player_asked_live_bids_its_standing_maximum(monkeypatch):
    st, a, d, f = _duel(monkeypatch, 5, {"attack": 2, "ask_attack": True}, {"defend": 0, "ask": False})
    Dice(monkeypatch, [2, 4])
    st, _ = E.apply(st, a, {"type": "move", "i": f})
    assert E.auto_action(st, a) == {"type": "attack", "max": 2}


def test_no_live_bid_asked_when_there_is_no_sp_to_bid(monkeypatch):
    st, a, d, f = _duel(monkeypatch, 5, {"attack": 0, "ask_attack": True}, {"defend": 0, "ask": False})
    st["cars"][a]["sp"] = 0
    Dice(monkeypatch, [2, 4])
    st, _ = E.apply(st, a, {"type": "move", "i": f})
    assert st["turn"] is None or st["turn"]["stage"] == "move"


# ---- 5.6: lapping and its pit-lane cases
def _lap_setup(monkeypatch):
    st = race(tyre="hard")
    lead, last = st["order"][0], st["order"][-1]
    mid = [s for s in st["order"] if s not in (lead, last)]
    for i, s in enumerate(mid):
        st["cars"][s]["pos"] = ["t", 60 + i, 1]
        st["cars"][s]["laps"] = 1
    st["cars"][lead]["pitted"] = st["cars"][last]["pitted"] = True
    return st, lead, last


def test_both_in_the_pits_is_not_lapping(monkeypatch):
    st, lead, last = _lap_setup(monkeypatch)
    c = eng.circuits()[st["circuit"]]
    st["cars"][last]["pos"], st["cars"][last]["laps"], st["cars"][last]["pit_turn"] = ["pit"], 1, 1
    st["cars"][lead]["laps"] = 1
    st["cars"][lead]["pos"] = ["t", c.pit_entry_row - 2, c.pit_side]
    Dice(monkeypatch, [11])
    st = turn(st, lead)
    i = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "pit")
    st, _ = E.apply(st, lead, {"type": "move", "i": i})
    assert st["cars"][lead]["pos"] == ["pit"] and st["cars"][lead]["laps"] == 2
    assert st["cars"][last]["out"] is None  # both pitting: not lapped (5.6)


def test_a_car_in_the_pits_when_the_leader_crosses_the_line_is_out(monkeypatch):
    st, lead, last = _lap_setup(monkeypatch)
    c = eng.circuits()[st["circuit"]]
    st["cars"][last]["pos"], st["cars"][last]["laps"], st["cars"][last]["pit_turn"] = ["g", 0], 1, 2
    st["cars"][lead]["laps"] = 1
    st["cars"][lead]["pos"] = ["t", c.length - 3, 1]
    Dice(monkeypatch, [9])
    st = turn(st, lead)
    i = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "end" and o["laps"] == 2)
    st, _ = E.apply(st, lead, {"type": "move", "i": i})
    assert st["cars"][last]["out"] == "lapped"


def test_a_car_in_the_pits_not_yet_a_lap_down_stays(monkeypatch):
    st, lead, last = _lap_setup(monkeypatch)
    c = eng.circuits()[st["circuit"]]
    st["cars"][last]["pos"], st["cars"][last]["laps"], st["cars"][last]["pit_turn"] = ["g", 0], 2, 2
    st["cars"][lead]["laps"] = 1
    st["cars"][lead]["pos"] = ["t", c.length - 3, 1]
    st["order"] = [last] + [s for s in st["order"] if s != last]
    Dice(monkeypatch, [9])
    st = turn(st, lead)
    i = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "end" and o["laps"] == 2)
    st, _ = E.apply(st, lead, {"type": "move", "i": i})
    assert st["cars"][last]["out"] is None  # it pitted at the end of this same lap: passed, not lapped


def test_the_winner_taking_the_flag_laps_a_car_a_lap_down(monkeypatch):
    st, lead, last = _lap_setup(monkeypatch)
    c = eng.circuits()[st["circuit"]]
    for s in st["order"]:
        st["cars"][s]["laps"] = c.laps - 1
    st["cars"][lead]["pos"] = ["t", c.length - 3, 1]
    st["cars"][last]["laps"] = c.laps - 2
    st["cars"][last]["pos"] = ["t", 2, 1]
    Dice(monkeypatch, [9])
    st = turn(st, lead)
    i = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "finish")
    st, _ = E.apply(st, lead, {"type": "move", "i": i})
    assert st["cars"][lead]["finished"] == 1 and st["cars"][last]["out"] == "lapped"
    json.dumps(st)


def test_the_leader_catching_a_car_on_its_way_into_the_pits_laps_it(monkeypatch):
    st, lead, last = _lap_setup(monkeypatch)
    c = eng.circuits()[st["circuit"]]
    st["cars"][lead]["laps"] = 1
    st["cars"][lead]["pos"] = ["t", c.pit_entry_row - 3, c.pit_side]
    st["cars"][last]["laps"] = 0
    st["cars"][last]["pos"] = ["t", c.pit_entry_row - 1, 0 if c.pit_side else 2]
    Dice(monkeypatch, [11])
    st = turn(st, lead)
    i = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "pit")
    st, _ = E.apply(st, lead, {"type": "move", "i": i})
    assert st["cars"][lead]["pos"] == ["pit"] and st["cars"][last]["out"] == "lapped"


# ---- 5.1: unused MP, the seed's example (boost first: 13 MP, 10 counted, 3 unused, +1)
def test_boosting_first_to_attack_with_mp_left_is_offered_and_gets_plus_1(monkeypatch):
    st = race(tyre="hard")
    a, d = st["order"][0], st["order"][1]
    others = [s for s in range(st["seats"]) if s not in (a, d)]
    for i, s in enumerate(others):
        st["cars"][s]["pos"] = ["t", 70 + i, 1]
    st["cars"][d]["pos"] = ["t", 33, 1]
    st["cars"][a]["pos"] = ["t", 27, 0]
    st["order"] = [d, a] + others
    st["prefs"][a].update(attack=2)
    st["prefs"][d].update(defend=0)
    st["cars"][a]["bp"] = 0  # (with BP, braking after 5 tyre MP would give the same +1 for 1 BP)
    Dice(monkeypatch, [6])
    st = turn(st, a)
    fights = {
        (o["ep"], o["unused"]): i
        for i, o in enumerate(st["turn"]["opts"])
        if o["kind"] == "fight" and o["pos"] == ["t", 33, 0]
    }
    assert (0, 0) in fights and (1, 3) in fights  # free with no MP left, or 1 EP first and 3 MP left
    label = str(E.describe_action(st, a, {"type": "move", "i": fights[(1, 3)]}))
    assert "3 MP left: +1" in label
    Dice(monkeypatch, [2, 4])
    sp, ep = st["cars"][a]["sp"], st["cars"][a]["ep"]
    st, _ = E.apply(st, a, {"type": "move", "i": fights[(1, 3)]})
    # 2 + 1 = 3 against 4: green bids 2 and wins 5 to 4 (5.1 example)
    assert st["cars"][a]["sp"] == sp - 2 and st["cars"][a]["ep"] == ep - 1
    assert st["order"].index(a) < st["order"].index(d)


def test_unused_mp_counts_paid_cells_left_not_given_up_tyre_mp():
    ms = R.MState(("t", 0, 0), 0, 0, 0, 1, 0, 0, (), -1)
    assert DRIVE.unused_mp(10, ms, 3) == 12  # before the tyre MP: all 10, and 2 boost cells paid for
    ms = R.MState(("t", 0, 0), 0, 1, 7, 3, 0, 0, (), -1)
    assert DRIVE.unused_mp(10, ms, 3) == 3  # the example: 3 boost cells and 7 of 10 counted
    ms = R.MState(("t", 0, 0), 0, 2, 8, 0, 1, 0, (), -1)
    assert DRIVE.unused_mp(10, ms, 3) == 2  # after the tyre count (8 of 10, 2 given up): the brake's 2 cells


# ---- 3.1: the seed's qualifying example played through Q1, Q2 and Q3
def test_qualifying_example_q1_q2_q3_gives_the_seeds_grid(monkeypatch):
    red, blue, green, orange, yellow, purple = range(6)
    Dice(
        monkeypatch,
        [
            1,
            1,
            1,  # weather
            2,
            3,
            4,
            4,
            5,
            6,
        ],
    )  # Q1 first rolls (3.1.1 example)
    st = E.new_game({}, 6, 5)
    Dice(
        monkeypatch,
        [
            1,
            5,  # red's two extra rolls: 2, 1, 5 -> 5
            3,
            1,  # the 4-4 tie of green and orange: green ahead (no driver cards: dice)
            2,
            1,  # the 5-5 tie of red and yellow: red ahead
            1,
            6,
            5,
            4,
            3,  # Q2 first rolls, in the order purple, red, yellow, green, orange
            6,
            4,
            4,
            3,  # Q3 first rolls: red, yellow, green, orange
            5,
            2,
        ],
    )  # the 4-4 tie of yellow and green: yellow rolls higher
    st, _ = E.apply(st, red, {"type": "quali", "reroll": True})
    for s in (blue, green, orange, yellow, purple):
        st, _ = E.apply(st, s, {"type": "quali", "reroll": False})
    assert st["quali"]["back"] == [blue]  # red's 5 knocks blue out (3.1.1)
    assert st["quali"]["sessions"][st["quali"]["idx"]] == "Q2"
    assert st["quali"]["first"] == {str(purple): 1, str(red): 6, str(yellow): 5, str(green): 4, str(orange): 3}
    for s in E.to_act(st):
        st, _ = E.apply(st, s, {"type": "quali", "reroll": False})
    assert st["quali"]["back"] == [purple, blue]  # purple out of Q2, P5 (3.1.2)
    for s in E.to_act(st):
        st, _ = E.apply(st, s, {"type": "quali", "reroll": False})
    assert st["phase"] == "tyres"
    # 3.1.3: red on pole, yellow P2 and green P3 after the tie roll, orange P4; purple P5, blue P6
    assert st["grid"] == [red, yellow, green, orange, purple, blue] == st["order"]
    sp = [c["sp"] for c in st["cars"]]
    assert sp[red] == 9 - 1 - 1 - 1 and sp[blue] == 9 and sp[purple] == 8
    assert sp[yellow] == sp[green] == sp[orange] == 7
    c = eng.circuits()[st["circuit"]]
    assert [st["cars"][s]["pos"] for s in st["grid"]] == [["t", r, ln] for r, ln in c.grid[:6]]  # 3.2.1


# ---- 3.2.4 / 3.3: rounds
def test_no_weather_roll_in_the_start_rounds_then_one_each_round(monkeypatch):
    st = race(tyre="hard")
    calls = []
    orig = eng.roll
    patch_dice(monkeypatch, lambda rng, name: calls.append(name) or orig(rng, name))
    from bot.games.rng import Rng

    for rnd in (1, 2, 3):
        st["round"] = rnd - 1
        RACE.setup_round(st, Rng(1), [])
    assert "weather" not in calls
    st["round"] = 3
    RACE.setup_round(st, Rng(1), [])
    assert calls.count("weather") == 1


def test_each_round_follows_the_position_track_as_it_stands(monkeypatch):
    """3.2.4: a car that passed another in round 2 moves before it in round 3."""
    st = race(tyre="hard")
    st["order"] = list(reversed(st["order"]))
    from bot.games.rng import Rng

    st["round"] = 2
    RACE.setup_round(st, Rng(1), [])
    assert st["queue"] == st["order"]


def test_brown_dashes_count_on_the_first_lap_only():
    c = eng.circuits()["great_britain"]
    assert c.rows[1].brown and not c.rows[2].brown
    assert R.next_row(c, 0, 0) == (1, 0)  # lap 1 (the start): the brown row is a cell
    assert R.next_row(c, 0, 1) == (2, 1)  # later laps: skipped


# ---- 4.1: rerolls, then the best of the rolls
def test_reroll_then_use_any_of_the_rolls(monkeypatch):
    st = race(tyre="hard")
    seat = st["order"][0]
    Dice(monkeypatch, [9])
    st = turn(st, seat)
    Dice(monkeypatch, [7])
    sp = st["cars"][seat]["sp"]
    st, _ = E.apply(st, seat, {"type": "reroll"})
    assert st["cars"][seat]["sp"] == sp - 1 and st["turn"]["rolls"] == [9, 7] and st["turn"]["n"] == 9
    assert {"type": "use", "i": 1} in E.legal_actions(st, seat)
    st, _ = E.apply(st, seat, {"type": "use", "i": 1})
    assert st["turn"]["n"] == 7


# ---- 4.5: braking from a corner's last cell when the next double arrow is in reach
def test_brake_from_the_last_cell_of_a_corner_two_cells_from_the_next_arrow():
    c = eng.circuits()["great_britain"]
    co, nxt = c.corners[3], c.corners[4]
    assert co.last == 48 and nxt.arrow[0] == 50  # the seed's picture: 2 cells to the double arrow
    assert R.brake_ok_at(c, co.last)
    assert not R.brake_ok_at(c, co.last - 1)  # inside the corner: no


# ---- 4.6 example 4: soft tyres, light rain, a 9 ending in a low-grip area
def _example_4(monkeypatch):
    st = race(n=2, circuit="italy", tyre="soft")
    seat, other = st["order"][0], st["order"][1]
    c = eng.circuits()[st["circuit"]]
    st["cars"][other]["pos"] = ["t", 70, 1]
    row, lane = min(c.low_grip)
    st["cars"][seat]["pos"] = ["t", row - 8, 1]
    Dice(monkeypatch, [9])
    return turn(st, seat, weather="light"), seat, c


def test_example_4_a_no_sp_goes_off_4_cells(monkeypatch):
    st, seat, c = _example_4(monkeypatch)
    start = list(st["cars"][seat]["pos"])
    assert not any(a["type"] == "move" for a in E.legal_actions(st, seat))
    st, _ = E.apply(st, seat, {"type": "off"})
    assert st["cars"][seat]["pos"][1] == start[1] + 4 and st["cars"][seat]["off"] == 1


def test_example_4_b_one_sp_then_the_low_grip_roll(monkeypatch):
    for roll, off in ((2, False), (1, True)):
        st, seat, c = _example_4(monkeypatch)
        start = list(st["cars"][seat]["pos"])
        st, _ = E.apply(st, seat, {"type": "reduce", "sp": 1})
        assert st["turn"]["n"] == 8
        i = next(i for i, o in enumerate(st["turn"]["opts"]) if o["risk"] and o["ms"]["t"] == 8)
        Dice(monkeypatch, [roll])
        st, ev = E.apply(st, seat, {"type": "move", "i": i})
        assert any(e.text.key.startswith("{p} ends in a low-grip area") for e in said(ev))
        car = st["cars"][seat]
        assert (car["off"] == 1) is off
        if off:  # 4 cells from where the turn began, not 8
            assert car["pos"][1] == start[1] + 4


def test_example_4_c_two_sp_no_roll(monkeypatch):
    st, seat, c = _example_4(monkeypatch)
    sp = st["cars"][seat]["sp"]
    st, _ = E.apply(st, seat, {"type": "reduce", "sp": 1})
    st, _ = E.apply(st, seat, {"type": "reduce", "sp": 2})
    assert st["turn"]["n"] == 7 and st["cars"][seat]["sp"] == sp - 2
    assert not any(o["risk"] for o in st["turn"]["opts"])
    i = next(
        i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "end" and (o["pos"][1], o["pos"][2]) in c.low_grip
    )
    st, ev = E.apply(st, seat, {"type": "move", "i": i})
    assert not any(e.text.key.startswith("{p} ends in a low-grip area") for e in said(ev))
    assert st["cars"][seat]["off"] == 0


# ---- 5.2.1 after a won fight: diagonally into the defender's lane
def test_after_a_pass_on_a_straight_the_next_move_may_be_diagonal(monkeypatch):
    st, a, d, f = _duel(monkeypatch, 5, {"attack": 5, "ask_attack": False}, {"defend": 0, "ask": False})
    Dice(monkeypatch, [5, 1])
    st, _ = E.apply(st, a, {"type": "move", "i": f})
    t = st["turn"]
    assert t["seat"] == a and t["ms"]["pos"] == ["t", 31, 0] and t["ms"]["slip"] == 1
    diag = [o for o in t["opts"] if o["kind"] == "end" and o["pos"] == ["t", 32, 1]]
    assert diag and min(o["ms"]["t"] for o in diag) == t["ms"]["t"] + 1


# ---- 5.4 B: the rear car on the position track first; a first pass won stays won
def test_multiple_overtake_b_rear_first_and_the_first_pass_kept(monkeypatch):
    st = race(n=4, tyre="hard")
    a, front, rear, x = 0, 1, 3, 2  # the rear car has the higher seat number
    st["cars"][x]["pos"] = ["t", 70, 1]
    st["cars"][front]["pos"] = ["t", 33, 0]
    st["cars"][rear]["pos"] = ["t", 33, 2]
    st["cars"][a]["pos"] = ["t", 30, 1]
    st["order"] = [x, front, rear, a]
    for s in range(4):
        st["prefs"][s].update(attack=9, defend=0, ask=False, yield_=False)
    Dice(monkeypatch, [9])
    st = turn(st, a)
    f = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "fight" and len(o["def"]) == 2)
    assert st["turn"]["opts"][f]["def"] == [rear, front]
    st["prefs"][front]["defend"] = 9
    Dice(monkeypatch, [6, 1, 1, 6])  # beats the rear car; the front car's 6 + 9 SP holds
    st, _ = E.apply(st, a, {"type": "move", "i": f})
    assert st["order"] == [x, front, a, rear]  # passed the rear car, not the front one
    assert st["turn"] is None or st["turn"]["seat"] != a  # the turn is over
    assert st["cars"][a]["pos"] == ["t", 33, 1]


# ---- 6.3: a blown tyre is -1 in position fights
def test_a_blown_tyre_is_minus_1_in_a_fight(monkeypatch):
    for blown, wins in ((False, True), (True, False)):
        st, a, d, f = _duel(monkeypatch, 5, {"attack": 2, "ask_attack": False}, {"defend": 0, "ask": False})
        st["cars"][a]["blown"] = blown
        Dice(monkeypatch, [2, 4])
        st, _ = E.apply(st, a, {"type": "move", "i": f})
        assert (st["order"].index(a) < st["order"].index(d)) is wins  # 3 + 2 beats 4; 2 + 2 ties


def test_no_blowout_roll_when_the_move_ends_in_the_pits(monkeypatch):
    st, seat, c = pit_ready(monkeypatch)
    st["cars"][seat]["life"] = -2
    Dice(monkeypatch, [10])
    st = turn(st, seat)
    i = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "pit")
    st, ev = E.apply(st, seat, {"type": "move", "i": i})
    assert not any("blow-out" in e.text.key for e in said(ev))


# ---- 7.1: the blue dashes of the pit lane count in the rain
def test_pit_lane_blue_dashes_count_in_the_rain(monkeypatch):
    st, seat, c = pit_ready(monkeypatch, tyre="inter")
    Dice(monkeypatch, [9])
    st = turn(st, seat, weather="light")
    o = next(o for o in st["turn"]["opts"] if o["kind"] == "pit")
    assert c.pit_entry_rain == 1 and o["ms"]["t"] == 7 + 1  # dry: 7 (the 7.1 example)


# ---- 5.3 case 1: on the racing line in the outer lane, past a car in the other outer lane: no fight
def test_corner_case_1_line_jump_past_a_car_two_lanes_away():
    from tests.pole.helpers import circuit, ctx, ends

    c = circuit(line=[[1, 1], [4, 2], [7, 2], [10, 0]])
    co = c.corners[0]
    jump_from, jump_to = co.line[1], co.line[2]  # (first+3, 2) -> (first+6, 2)
    car = [(1, 0, ("t", jump_from[0] + 1, 0), 0)]  # between them, in lane 0
    st = R.MState(("t",) + jump_from, 0, 1, 0, 0, 0, 0, (co.index, True), -1)
    opts = R.search(ctx(c, others=car, sp=0, ep=0, bp=0), st, 1, 1)
    assert (jump_to[0], jump_to[1]) in ends(opts) and not [o for o in opts if o.kind == "fight"]
    beside = [(1, 0, ("t", jump_from[0] + 1, 1), 0)]  # in the lane next to the line: the jump is blocked
    opts = R.search(ctx(c, others=beside, sp=0, ep=0, bp=0), st, 1, 1)
    assert (jump_to[0], jump_to[1]) not in ends(opts)


# ---- 4.4: boosting from a corner's last cell onto the straight after it
def test_boost_from_the_last_cell_of_a_corner():
    from tests.pole.helpers import ctx, ends, ms

    c = eng.circuits()["great_britain"]
    co = c.corners[2]
    assert co.last == 40 and R.is_straight(c, 41) and R.is_straight(c, 43)
    got = ends(R.search(ctx(c, sp=0, bp=0), ms(co.last, 1), 0, 0))
    assert got[(co.last + 3, 1)] == (1, 0, 0)  # 1 EP: three straight cells from the corner's last row
    assert not ends(R.search(ctx(c, sp=0, bp=0), ms(co.last - 1, 1), 0, 0)).get((co.last + 2, 1))


# ---- 6.3: wet tyres never blow out
def test_wet_tyres_never_blow_out(monkeypatch):
    for tyre, rolls in (("wet", False), ("soft", True)):
        st = race(tyre=tyre)
        seat = st["order"][0]
        st["cars"][seat]["life"] = -2
        Dice(monkeypatch, [5])
        st = turn(st, seat)
        i = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "end")
        Dice(monkeypatch, [1])
        st, ev = E.apply(st, seat, {"type": "move", "i": i})
        assert any("blow-out" in e.text.key for e in said(ev)) is rolls


def test_the_audits_quotes_of_the_seed_are_the_seeds_lines():
    """AUDIT.md quotes every seed line its rows cite; each quote is that line of seed.ja.txt."""
    from pathlib import Path

    here = Path(__file__).parent
    seed = (here / "seed.ja.txt").read_text().split("\n")
    audit = (here / "AUDIT.md").read_text()
    block = audit.split("## The seed's lines cited above, quoted")[1].split("```text\n")[1].split("```")[0]
    quoted = [line for line in block.split("\n") if line and line != "…"]
    assert len(quoted) > 300
    for line in quoted:
        number, _, text = line.partition(" ")
        assert seed[int(number) - 1].rstrip() == text, number
