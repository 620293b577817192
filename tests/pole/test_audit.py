"""Pole Position audit (tests/pole/AUDIT.md): the items fixed or added in the audit."""
import json

import pytest

from bot.games.base import GameError
from bot.games.pole import ENGINE as E
from bot.games.pole import engine as eng
from bot.games.pole import rules as R
from tests.pole.helpers import Dice
from tests.pole.test_flow import _race, _turn


def _duel(monkeypatch, roll, a_prefs, d_prefs):
    """Attacker a on row 28 lane 0, defender d beside its target on row 30 lane 1; a rolls `roll`
    (hard tyres); returns the state at a's turn and the index of the fight option from row 30."""
    st = _race(tyre="hard")
    a, d = st["order"][0], st["order"][1]
    others = [s for s in range(st["n"]) if s not in (a, d)]
    for i, s in enumerate(others):
        st["cars"][s]["pos"] = ["t", 70 + i, 1]
    st["cars"][d]["pos"] = ["t", 30, 1]
    st["cars"][a]["pos"] = ["t", 28, 0]
    st["order"] = [d, a] + others
    st["prefs"][a].update(a_prefs)
    st["prefs"][d].update(d_prefs)
    Dice(monkeypatch, [roll])
    st = _turn(st, a)
    f = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "fight" and o["def"] == [d]
             and o["pos"] == ["t", 30, 0])
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
    st = _race(tyre="hard")
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
    st = _turn(st, lead)
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
    st = _turn(st, lead)
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
    st = _turn(st, lead)
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
    st = _turn(st, lead)
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
    st = _turn(st, lead)
    i = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "pit")
    st, _ = E.apply(st, lead, {"type": "move", "i": i})
    assert st["cars"][lead]["pos"] == ["pit"] and st["cars"][last]["out"] == "lapped"
