"""Heat base-race rules, one test per statement of the seed ("プレイ", steps 1-9, game end).

Track facts used below: USA has 69 spaces, 2 laps (finish after abs 138), corner lines after
spaces 12 (limit 7), 33 (3), 49 (3), 57 (2); the race line is lane 1 on spaces 1-12 and 58-69,
lane 2 on 13-57. Italy: 54 spaces, corners 10 (5), 19 (2), 26 (3)."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.games.base import GameError
from bot.games.heat import ENGINE as E
from bot.games.heat import rules
from tests.heat.helpers import QUIET, car, codes, en, new, parked, round_, setcar, space, submit


def card_select(menu):
    """The card-by-card select (the last one; whole plans come first, see test_plans.py)."""
    return [g for g in menu if g["kind"] == "select"][-1]


# ---------------------------------------------------------------- step 1: shift


def test_shift_by_one_is_free_and_gear_is_the_number_of_cards():
    st = new()
    setcar(
        st,
        0,
        pos=0,
        gear=1,
        hand=["speed1", "speed1", "speed2", "speed2", "speed3", "speed3", "speed4"],
        deck=["speed1"] * 6,
        engine=6,
        prefs=QUIET,
    )
    parked(st, 1, -5)
    st, _ = round_(st, {0: ["speed1", "speed2"]})
    assert car(st, 0)["gear"] == 2
    assert len(car(st, 0)["engine"]) == 6
    assert car(st, 0)["pos"] == 3


def test_shift_by_two_costs_one_heat_once():
    st = new()
    setcar(st, 0, pos=0, gear=1, hand=["speed1"] * 7, deck=["speed1"] * 6, engine=6, prefs=QUIET)
    parked(st, 1, -5)
    st, ev = round_(st, {0: ["speed1"] * 3})
    c = car(st, 0)
    assert c["gear"] == 3 and len(c["engine"]) == 5
    assert "heat" in codes(st, c["discard"])
    assert E.view(st, None)["cars"][0]["heat_paid"] == 1
    assert any("Shifted 2 gears" in en(e.text) for e in ev)
    # and downwards: gear 3 -> 1 also costs one Heat
    st, _ = round_(st, {0: ["speed1"]})
    assert car(st, 0)["gear"] == 1 and len(car(st, 0)["engine"]) == 4


def test_shift_limits():
    st = new()
    setcar(st, 0, pos=0, gear=1, hand=["speed1"] * 7, engine=6)
    with pytest.raises(GameError):
        submit(st, 0, ["speed1"] * 4)  # three gears at once: never
    setcar(st, 0, engine=0)
    with pytest.raises(GameError, match="costs 1 Heat"):
        submit(st, 0, ["speed1"] * 3)  # two gears need a Heat in the Engine
    submit(st, 0, ["speed1"] * 2)  # one gear is free
    setcar(st, 0, gear=4, engine=1)
    with pytest.raises(GameError):
        submit(st, 0, ["speed1"])
    submit(st, 0, ["speed1"] * 2)


# ---------------------------------------------------------------- step 2: play


def test_heat_cards_cannot_be_played():
    st = new()
    setcar(st, 0, pos=0, gear=1, hand=["heat", "speed1", "speed2", "heat", "speed3", "speed4", "start5"], engine=6)
    with pytest.raises(GameError, match="Heat cards can't be played"):
        submit(st, 0, ["heat"])
    with pytest.raises(GameError, match="Heat cards can't be played"):
        submit(st, 0, ["speed1", "heat"])
    submit(st, 0, ["speed1", "speed2"])


def test_short_hand_rule_plays_heat_and_does_not_move():
    # Gear 3, empty Engine, one non-Heat card: no reachable gear (2-4) can be filled.
    st = new()
    setcar(
        st,
        0,
        pos=40,
        lane=2,
        gear=3,
        hand=["speed4"] + ["heat"] * 6,
        deck=["speed1"] * 8,
        discard=[],
        engine=0,
        prefs={"adrenaline": "always", "cooldown": "auto"},
    )
    parked(st, 1, 60)
    gears, clogged = rules.fillable_gears(st, car(st, 0))
    assert gears == [2, 3, 4] and clogged == [2, 3, 4]
    with pytest.raises(GameError, match="clogged"):
        submit(st, 0, ["heat", "heat"])  # every non-Heat card must be played
    with pytest.raises(GameError):
        submit(st, 0, ["speed4"])  # gear 1 is out of reach
    st, ev = round_(st, {0: ["speed4", "heat"]})
    c = car(st, 0)
    assert c["pos"] == 40  # no move, even with a Speed card played
    assert c["gear"] == 1
    assert codes(st, c["discard"]) == ["heat", "speed4"]  # played cards, Heat included, discarded
    assert len(c["hand"]) == 7 and codes(st, c["hand"]).count("heat") == 5  # refilled, no cooldown
    assert c["engine"] == []  # steps 4-8 skipped: the last car got no Adrenaline/cooldown
    v = E.view(st, None)["cars"][0]
    assert v["clogged"] and not v["adrenaline"] and v["speed"] == 0


def test_clogged_hand_is_judged_for_the_gear_chosen():
    """Issue #9: 「そのままにするか、1段階上げ下げするかを選べる」, and only then
    「もしギアの枚数分のカードがプレイできない場合のみ、不足分だけヒートカードをプレイに加えられる」.
    Gear 4, 2 Heat in the Engine, five Heat cards, a 2 and a 3 in hand: gear 2 (2-gear shift),
    3 and 4 (both clogged) are all open."""
    st = new()
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=4,
        hand=["heat"] * 5 + ["speed2", "speed3"],
        deck=["speed1"] * 8,
        discard=[],
        engine=2,
        prefs=QUIET,
    )
    parked(st, 1, 60)
    gears, clogged = rules.fillable_gears(st, car(st, 0))
    assert gears == [2, 3, 4] and clogged == [3, 4]
    subs = sorted(codes(st, a["cards"]) for a in E.legal_actions(st, 0) if a["type"] == "submit")
    assert subs == [["heat", "heat", "speed2", "speed3"], ["heat", "speed2", "speed3"], ["speed2", "speed3"]]
    labels = [en(E.describe_action(st, 0, a)) for a in E.legal_actions(st, 0) if a["type"] == "submit"]
    assert "Gear 2: 3 + 2 (2-gear shift: 1 Heat) → 5 spaces" in labels
    assert any(x.startswith("Gear 4:") and "clogged" in x for x in labels)
    with pytest.raises(GameError, match="Heat cards can't be played"):
        submit(st, 0, ["speed2", "heat"])  # gear 2 can be filled without Heat
    with pytest.raises(GameError, match="clogged"):
        submit(st, 0, ["speed2", "heat", "heat"])  # gear 3: every non-Heat card first
    me = E.view(st, 0)["me"]
    assert me["gears"] == [2, 3, 4] and me["clogged_gears"] == [3, 4]
    sel = card_select(E.menu(st, 0))
    assert (sel["min"], sel["max"]) == (2, 4) and len(sel["options"]) == 7
    assert all(len(en(o["label"])) <= 100 and len(en(o.get("description", ""))) <= 100 for o in sel["options"])
    # staying in gear 4 is allowed: the car is clogged, does not move and drops to gear 1
    st4, _ = round_(st, {0: ["speed2", "speed3", "heat", "heat"]})
    c = car(st4, 0)
    assert c["pos"] == 20 and c["gear"] == 1 and len(c["engine"]) == 2
    assert E.view(st4, None)["cars"][0]["clogged"]
    # shifting down to 3 is allowed too (free, one gear): same outcome, gear 1 after
    st3, _ = round_(st, {0: ["speed2", "speed3", "heat"]})
    assert car(st3, 0)["pos"] == 20 and car(st3, 0)["gear"] == 1
    # gear 2 with the two Speed cards: a 2-gear shift paying 1 Heat, and the car moves 5
    st2, _ = round_(st, {0: ["speed2", "speed3"]})
    assert car(st2, 0)["pos"] == 25 and car(st2, 0)["gear"] == 2
    assert E.view(st2, None)["cars"][0]["heat_paid"] == 1


# ---------------------------------------------------------------- step 3: reveal and move


def test_race_order_front_first_race_line_first_on_a_tie():
    st = new(seats=3)
    parked(st, 0, 5, lane=2)  # space 5: race line is lane 1
    parked(st, 1, 5, lane=1)
    parked(st, 2, 9, lane=2)
    assert rules.race_order(st, rules.track_of(st)) == [2, 1, 0]
    st, ev = round_(st, {})
    assert [e["seat"] for e in E.view(st, None)["last_round"]] == [2, 1, 0]


def test_cars_never_block_and_landing_prefers_the_race_line():
    st = new(seats=3)
    setcar(st, 0, pos=1, lane=1, gear=1, hand=["speed4"] * 7, deck=["speed1"] * 7, engine=6, prefs=QUIET)
    parked(st, 1, 3, lane=1)  # the whole of space 3 is taken: the car passes through it
    parked(st, 2, 3, lane=2)
    st, _ = round_(st, {0: ["speed4"]})
    assert (car(st, 0)["pos"], car(st, 0)["lane"]) == (5, 1)


def test_full_landing_space_drops_back_to_the_first_free_spot():
    st = new(seats=3)
    setcar(st, 0, pos=1, lane=2, gear=1, hand=["speed4"] * 7, deck=["speed1"] * 7, engine=6, prefs=QUIET)
    parked(st, 1, 5, lane=1)
    parked(st, 2, 5, lane=2)
    st, _ = round_(st, {0: ["speed4"]})
    assert (car(st, 0)["pos"], car(st, 0)["lane"]) == (4, 1)  # space 4, race-line side


def test_landing_takes_the_other_spot_when_the_race_line_is_taken():
    st = new(seats=2)
    setcar(st, 0, pos=1, lane=1, gear=1, hand=["speed4"] * 7, deck=["speed1"] * 7, engine=6, prefs=QUIET)
    parked(st, 1, 5, lane=1)
    st, _ = round_(st, {0: ["speed4"]})
    assert (car(st, 0)["pos"], car(st, 0)["lane"]) == (5, 2)


def test_stress_reveals_until_a_speed_card_and_discards_the_rest():
    st = new()
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=1,
        hand=["stress"] + ["speed1"] * 6,
        deck=["start5", "heat", "start0", "speed3", "speed2", "speed2", "speed2"],
        discard=[],
        engine=6,
        prefs=QUIET,
    )
    parked(st, 1, 2)
    st, ev = round_(st, {0: ["stress"]})
    c = car(st, 0)
    assert c["pos"] == 23  # the 5 and the 0 are not Speed cards: the 3 is
    assert codes(st, c["discard"]) == ["heat", "speed3", "start0", "start5", "stress"]
    assert en(E.view(st, None)["cars"][0]["revealed"]) == ["Stress → Speed 3"]
    assert E.view(st, None)["cars"][0]["speed"] == 3


def test_reshuffle_during_a_flip_keeps_cards_in_play_out():
    st = new()
    # Deck empty; the discard holds no Speed card; the played 4 must not be reshuffled in.
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=2,
        hand=["speed4", "stress"] + ["speed1"] * 5,
        deck=[],
        discard=["start0", "start5"],
        engine=6,
        prefs=QUIET,
    )
    parked(st, 1, 2)
    st, _ = round_(st, {0: ["speed4", "stress"]})
    assert E.view(st, None)["cars"][0]["speed"] == 4  # the Stress found nothing
    assert car(st, 0)["pos"] == 24


def test_reshuffle_during_a_flip_finds_a_discarded_speed_card():
    st = new()
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=2,
        hand=["speed4", "stress"] + ["speed1"] * 5,
        deck=[],
        discard=["start0", "speed2", "heat"],
        engine=6,
        prefs=QUIET,
    )
    parked(st, 1, 2)
    st, _ = round_(st, {0: ["speed4", "stress"]})
    assert E.view(st, None)["cars"][0]["speed"] == 6


# ---------------------------------------------------------------- step 4: adrenaline


def _adrenaline_seats(st):
    return sorted(s for s, c in enumerate(E.view(st, None)["cars"]) if c["adrenaline"])


@pytest.mark.parametrize("seats,expected", [(2, [1]), (3, [2]), (4, [3]), (5, [3, 4]), (6, [4, 5])])
def test_adrenaline_goes_to_the_last_car_or_last_two_with_five_or_more(seats, expected):
    st = new(seats=seats)
    for s in range(seats):
        parked(st, s, 30 - 2 * s)  # seat 0 leads, the highest seat is last
    st, _ = round_(st, {})
    assert _adrenaline_seats(st) == expected


def test_adrenaline_count_stays_when_cars_have_finished():
    st = new(seats=5)
    for s in range(5):
        parked(st, s, 30 - 2 * s)
    for s in (0, 1, 2):  # three cars already finished: two remain, both still get Adrenaline
        car(st, s)["fin"] = True
        car(st, s)["place"] = s + 1
        st["places"].append(s)
    st, _ = round_(st, {})
    assert _adrenaline_seats(st) == [3, 4]


def test_adrenaline_gives_one_speed_and_one_cooldown():
    st = new()
    parked(st, 0, 30)
    setcar(
        st,
        1,
        pos=1,
        lane=1,
        gear=1,
        hand=["speed2", "speed1"] + ["heat"] * 5,
        deck=["speed1"] * 9,
        engine=0,
        prefs={"adrenaline": "always", "slipstream": "never", "cooldown": "auto"},
    )
    st, ev = round_(st, {1: ["speed2"]})
    c = car(st, 1)
    assert c["pos"] == 4  # 2 + adrenaline 1
    assert E.view(st, None)["cars"][1]["speed"] == 3
    assert len(c["engine"]) == 4  # gear 1 cooldown 3 + adrenaline 1


def test_adrenaline_speed_counts_for_corners():
    st = new()
    parked(st, 0, 40)
    setcar(
        st,
        1,
        pos=10,
        lane=1,
        gear=2,
        hand=["speed4", "speed3"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs={"adrenaline": "always", "slipstream": "never"},
    )
    st, _ = round_(st, {1: ["speed4", "speed3"]})
    assert car(st, 1)["pos"] == 18 and len(car(st, 1)["engine"]) == 5  # speed 8 at a 7 corner


def test_smart_adrenaline_declines_when_it_would_cost_heat():
    st = new()
    parked(st, 0, 40)
    setcar(
        st,
        1,
        pos=10,
        lane=1,
        gear=2,
        hand=["speed4", "speed3"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs={"adrenaline": "smart", "slipstream": "never"},
    )
    st, _ = round_(st, {1: ["speed4", "speed3"]})
    assert car(st, 1)["pos"] == 17 and len(car(st, 1)["engine"]) == 6


# ---------------------------------------------------------------- step 5: react


@pytest.mark.parametrize("gear,cooled", [(1, 3), (2, 1), (3, 0), (4, 0)])
def test_cooldown_by_gear_from_the_hand_only(gear, cooled):
    st = new()
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=gear,
        hand=["speed1"] * gear + ["heat"] * 4 + ["speed1"] * (3 - gear if gear < 3 else 0),
        deck=["speed1"] * 10,
        discard=["heat", "heat"],
        engine=0,
        prefs=QUIET,
    )
    parked(st, 1, 2)
    st, ev = round_(st, {0: ["speed1"] * gear})
    c = car(st, 0)
    assert len(c["engine"]) == cooled
    assert codes(st, c["discard"]).count("heat") == 2  # nothing comes back from the discard


def test_boost_pays_one_heat_flips_to_a_speed_card_and_counts_for_corners():
    st = new()
    setcar(
        st,
        0,
        pos=8,
        lane=1,
        gear=1,
        hand=["speed4"] * 7,
        deck=["heat", "speed4", "speed1", "speed1"],
        engine=3,
        prefs={"boost": "always", "adrenaline": "never", "slipstream": "never"},
    )
    parked(st, 1, 2)
    st, _ = round_(st, {0: ["speed4"]})
    c = car(st, 0)
    assert c["pos"] == 16  # 4 + boost 4
    v = E.view(st, None)["cars"][0]
    assert v["speed"] == 8 and v["boosted"]
    assert len(c["engine"]) == 1  # 1 for the boost, 1 for speed 8 at the 7 corner
    assert v["heat_paid"] == 2
    assert "Boost → Speed 4" in en(v["revealed"])


def test_boost_only_once_and_never_by_default():
    st = new()
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=1,
        hand=["speed1"] * 7,
        deck=["speed2"] * 9,
        engine=3,
        prefs={"adrenaline": "never", "slipstream": "never"},
    )
    parked(st, 1, 2)
    st2, _ = round_(st, {0: ["speed1"]})
    assert car(st2, 0)["pos"] == 21 and len(car(st2, 0)["engine"]) == 3  # default: no boost
    car(st, 0)["prefs"]["boost"] = "always"
    st3, _ = round_(st, {0: ["speed1"]})
    assert car(st3, 0)["pos"] == 23 and len(car(st3, 0)["engine"]) == 2  # exactly one boost


def test_no_boost_with_an_empty_engine():
    st = new()
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=1,
        hand=["speed1"] * 7,
        deck=["speed2"] * 9,
        engine=0,
        prefs={"boost": "always", "adrenaline": "never", "slipstream": "never"},
    )
    parked(st, 1, 2)
    st, _ = round_(st, {0: ["speed1"]})
    assert car(st, 0)["pos"] == 21


def _order_case(prefs):
    """Issue #9's example: seat 0 ends its move on 20 (last car: Adrenaline), space 22 is full
    (both spots), 21 is free, and the boost will show a 2."""
    st = new(seats=3)
    setcar(
        st,
        0,
        pos=18,
        lane=2,
        gear=1,
        hand=["speed2"] * 7,
        deck=["speed2"] * 9,
        engine=3,
        prefs={"boost": "always", "adrenaline": "always", "slipstream": "never", **prefs},
    )
    parked(st, 1, 22, lane=1)
    parked(st, 2, 22, lane=2)
    return st


def test_boost_and_adrenaline_in_any_order_best_lands_farthest():
    """「自分が得たシンボルを任意の順番で解決できる」: Adrenaline first reaches 21, then the boost's
    2 reaches 23; boost first would stop on 21 (22 full) and the +1 would find 22 full again."""
    st = _order_case({})
    assert rules.DEFAULT_PREFS["order"] == "best"
    st, ev = round_(st, {0: ["speed2"]})
    assert st["phase"] == "submit"  # settled by the standing preference: no question
    c = car(st, 0)
    assert c["pos"] == 23 and E.view(st, None)["cars"][0]["speed"] == 5
    lines = en(E.view(st, None)["last_round"][-1]["lines"])
    assert lines.index("Adrenaline +1 → speed 3") < lines.index("Boost (1 Heat): +2 → speed 5")


def test_boost_adrenaline_order_ask_gives_a_real_choice():
    st = _order_case({"order": "ask"})
    st, ev = round_(st, {0: ["speed2"]})
    assert st["phase"] == "decide" and st["pending"] == {"seat": 0, "type": "order"}
    assert [a for a in E.legal_actions(st, 0) if a["type"] == "order"] == [
        {"type": "order", "first": "adrenaline"},
        {"type": "order", "first": "boost"},
    ]
    buttons = E.menu(st, 0)[0]["options"]
    assert [en(b["label"]) for b in buttons] == ["Adrenaline first", "Boost first"]
    assert "which goes first" in en(E.view(st, 0)["me"]["decision"]["prompt"])
    with pytest.raises(GameError):
        E.apply(st, 0, {"type": "order", "first": "slipstream"})
    boost_first, _ = E.apply(st, 0, {"type": "order", "first": "boost"})
    assert car(boost_first, 0)["pos"] == 21  # 22 full twice: the two moves are not added up
    adr_first, _ = E.apply(st, 0, {"type": "order", "first": "adrenaline"})
    assert car(adr_first, 0)["pos"] == 23
    # switching the preference back to "best" during the pause settles it
    best, _ = E.apply(st, 0, {"type": "prefs", "order": "best"})
    assert best["phase"] == "submit" and car(best, 0)["pos"] == 23


def test_boost_adrenaline_order_asks_only_when_it_can_change_the_landing():
    st = new(seats=2)
    setcar(
        st,
        0,
        pos=18,
        lane=2,
        gear=1,
        hand=["speed2"] * 7,
        deck=["speed2"] * 9,
        engine=3,
        prefs={"boost": "always", "adrenaline": "always", "slipstream": "never", "order": "ask"},
    )
    parked(st, 1, 40)  # nobody near: both orders land on 23
    st, _ = round_(st, {0: ["speed2"]})
    assert st["phase"] == "submit" and car(st, 0)["pos"] == 23


def test_best_order_boosts_first_when_the_space_ahead_is_full():
    # Car on 20, space 21 full: the +1 first would stay on 20; boost 2 first reaches 22, then 23.
    st = new(seats=3)
    setcar(
        st,
        0,
        pos=18,
        lane=2,
        gear=1,
        hand=["speed2"] * 7,
        deck=["speed2"] * 9,
        engine=3,
        prefs={"boost": "always", "adrenaline": "always", "slipstream": "never"},
    )
    parked(st, 1, 21, lane=1)
    parked(st, 2, 21, lane=2)
    st, _ = round_(st, {0: ["speed2"]})
    assert car(st, 0)["pos"] == 23


def test_boost_and_adrenaline_asks_resume_in_the_chosen_order():
    st = _order_case({"order": "ask", "boost": "ask", "adrenaline": "ask"})
    st, _ = round_(st, {0: ["speed2"]})
    st, _ = E.apply(st, 0, {"type": "order", "first": "adrenaline"})
    assert st["pending"]["type"] == "adrenaline"
    st, _ = E.apply(st, 0, {"type": "adrenaline", "use": True})
    assert st["pending"]["type"] == "boost" and car(st, 0)["pos"] == 21
    st, _ = E.apply(st, 0, {"type": "boost", "use": True})
    assert st["phase"] == "submit" and car(st, 0)["pos"] == 23


# ---------------------------------------------------------------- step 6: slipstream


def _slip_case(other_pos, other_lane, pref="always", mover=(15, 2), play=("speed4", "speed1"), seats=2):
    st = new(seats=seats)
    parked(st, 1, other_pos, other_lane)
    setcar(
        st,
        0,
        pos=mover[0],
        lane=mover[1],
        gear=2,
        hand=list(play) + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs={"slipstream": pref, "adrenaline": "never", "boost": "never"},
    )
    return st, list(play)


def test_slipstream_beside_another_car():
    st, play = _slip_case(20, 2)  # the mover lands on 20 lane 1, beside it
    st, _ = round_(st, {0: play})
    assert car(st, 0)["pos"] == 22
    v = E.view(st, None)["cars"][0]
    assert v["slipstreamed"] and v["speed"] == 5


def test_slipstream_directly_behind_another_car():
    st, play = _slip_case(21, 2)  # the mover lands on 20 lane 2 (race line), right behind it
    st, _ = round_(st, {0: play})
    assert car(st, 0)["pos"] == 22


def test_no_slipstream_diagonally_behind():
    st, play = _slip_case(21, 1, pref="ask")  # the mover lands on 20 lane 2: diagonal
    st, _ = round_(st, {0: play})
    assert E.to_act(st) != [0] and st["phase"] == "submit"  # not even offered
    assert car(st, 0)["pos"] == 20


def test_slipstream_is_not_speed_but_its_corner_lines_are_checked():
    st, play = _slip_case(11, 2, mover=(2, 1), play=("speed4", "start5"))
    st, _ = round_(st, {0: play})  # lands on 11 lane 1 beside the car, slips to 13 over corner 12
    c = car(st, 0)
    assert c["pos"] == 13
    assert len(c["engine"]) == 4  # speed 9 (not 11) at the limit-7 corner: 2 Heat


def test_smart_slipstream_declines_a_costly_corner():
    st, play = _slip_case(11, 2, pref="smart", mover=(2, 1), play=("speed4", "start5"))
    st, _ = round_(st, {0: play})
    assert car(st, 0)["pos"] == 11 and len(car(st, 0)["engine"]) == 6


def test_slipstream_once_per_turn():
    st, play = _slip_case(20, 2, seats=3)
    parked(st, 2, 22, 2)  # a third car where the slipstream ends
    st, _ = round_(st, {0: play})
    assert car(st, 0)["pos"] == 22  # beside the third car now, but no second slipstream


def test_no_slipstream_across_the_finish_line():
    st, play = _slip_case(137, 2, mover=(132, 1))  # final lap: 137 is the last-but-one space
    st, _ = round_(st, {0: play})
    assert car(st, 0)["pos"] == 137 and not car(st, 0)["fin"]


def test_slipstream_across_the_line_on_an_earlier_lap():
    st, play = _slip_case(68, 2, mover=(63, 1))
    st, _ = round_(st, {0: play})
    assert car(st, 0)["pos"] == 70 and space(st, 0) == 1


# ---------------------------------------------------------------- step 7: corners


def test_corner_pays_the_excess_in_heat():
    st = new()
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
    c = car(st, 0)
    assert c["pos"] == 14 and len(c["engine"]) == 4  # speed 9 at a 7 corner
    assert codes(st, c["discard"]).count("heat") == 2
    assert any("Corner 1 (limit 7): paid 2 Heat" in en(e.text) for e in ev)


def test_speed_at_the_limit_pays_nothing():
    st = new()
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
    assert car(st, 0)["pos"] == 13 and len(car(st, 0)["engine"]) == 6  # crossed at exactly 7
    assert any("Corner 1 (limit 7): OK" in en(e.text) for e in ev)


def test_two_corners_in_one_round_pay_for_each():
    st = new("italy")
    setcar(
        st,
        0,
        pos=18,
        lane=1,
        gear=2,
        hand=["speed4", "start5"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=15,
        prefs=QUIET,
    )
    parked(st, 1, 40)
    st, ev = round_(st, {0: ["speed4", "start5"]})
    assert car(st, 0)["pos"] == 27
    assert len(car(st, 0)["engine"]) == 15 - 7 - 6  # speed 9 at limits 2 and 3


def test_corners_are_paid_in_order_and_a_spin_stops_the_checks():
    st = new("italy")
    setcar(
        st,
        0,
        pos=18,
        lane=1,
        gear=2,
        hand=["speed4", "start5"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=10,
        prefs=QUIET,
    )
    parked(st, 1, 40)
    st, _ = round_(st, {0: ["speed4", "start5"]})
    c = car(st, 0)
    assert c["engine"] == []  # 7 for corner 2, then 3 of the 6 for corner 3
    assert c["pos"] == 26  # back before corner 3's line
    assert c["gear"] == 1 and c["stress"] == 1


def test_a_spin_at_the_first_corner_skips_the_second():
    st = new("italy")
    setcar(
        st,
        0,
        pos=18,
        lane=1,
        gear=2,
        hand=["speed4", "start5"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=3,
        prefs=QUIET,
    )
    parked(st, 1, 40)
    st, ev = round_(st, {0: ["speed4", "start5"]})
    c = car(st, 0)
    assert (c["pos"], c["stress"], c["engine"]) == (19, 1, [])  # back before corner 2's line
    assert not any("Corner 3" in en(e.text) for e in ev)


@pytest.mark.parametrize("gear,stress", [(1, 1), (2, 1), (3, 2), (4, 2)])
def test_spin_stress_by_gear_into_the_hand_and_gear_one(gear, stress):
    st = new()
    hand = ["speed4"] * gear + ["speed1"] * (7 - gear)
    setcar(st, 0, pos=30, lane=2, gear=gear, hand=hand, deck=["speed1"] * 9, engine=0, prefs=QUIET)
    parked(st, 1, 60)
    st, ev = round_(st, {0: ["speed4"] * gear})
    c = car(st, 0)
    assert c["pos"] == 33 and c["lane"] == 2  # the space just before the limit-3 line
    assert c["gear"] == 1
    assert codes(st, c["hand"]).count("stress") == stress
    assert E.view(st, None)["cars"][0]["spun"]


def test_spin_pays_what_it_can_and_backs_to_the_first_free_spot():
    st = new(seats=3)
    setcar(
        st, 0, pos=28, lane=2, gear=3, hand=["speed4"] * 3 + ["speed1"] * 4, deck=["speed1"] * 9, engine=2, prefs=QUIET
    )
    parked(st, 1, 33, 1)
    parked(st, 2, 33, 2)
    st, _ = round_(st, {0: ["speed4"] * 3})
    c = car(st, 0)
    assert c["engine"] == [] and codes(st, c["discard"]).count("heat") == 2  # paid the 2 it had
    assert (c["pos"], c["lane"]) == (32, 2)  # space 33 is full


# ---------------------------------------------------------------- steps 8-9: discard, refill


def test_no_discard_by_default_and_refill_to_seven():
    st = new()
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=3,
        hand=["speed1"] * 3 + ["start0", "start5", "speed2", "speed3"],
        deck=["speed4"] * 9,
        engine=6,
        prefs=QUIET,
    )
    parked(st, 1, 2)
    st, _ = round_(st, {0: ["speed1"] * 3})
    c = car(st, 0)
    assert codes(st, c["hand"]) == sorted(["start0", "start5", "speed2", "speed3"] + ["speed4"] * 3)
    assert codes(st, c["discard"]) == ["speed1"] * 3


def test_discard_when_asked_but_never_heat_or_stress():
    st = new()
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=1,
        hand=["speed1", "start0", "heat", "stress", "speed2", "speed3", "speed4"],
        deck=["speed4"] * 9,
        engine=0,
        prefs={**QUIET, "discard": "ask", "cooldown": "ask"},
    )
    parked(st, 1, 2)
    st, _ = round_(st, {0: ["speed1"]})
    assert E.to_act(st) == [0] and st["pending"]["type"] == "cooldown"
    st, _ = E.apply(st, 0, {"type": "cooldown", "cards": []})  # keep the Heat in hand
    assert st["pending"]["type"] == "discard"
    hand = car(st, 0)["hand"]
    heat = next(c for c in hand if st["cards"][c] == "heat")
    stress = next(c for c in hand if st["cards"][c] == "stress")
    zero = next(c for c in hand if st["cards"][c] == "start0")
    for bad in ([heat], [stress]):
        with pytest.raises(GameError):
            E.apply(st, 0, {"type": "discard", "cards": bad})
    st, _ = E.apply(st, 0, {"type": "discard", "cards": [zero]})
    c = car(st, 0)
    assert codes(st, c["discard"]) == ["speed1", "start0"]
    assert len(c["hand"]) == 7 and st["phase"] == "submit"


def test_refill_reshuffles_the_discard_when_the_deck_runs_out():
    st = new()
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=3,
        hand=["speed1"] * 3 + ["speed2"] * 4,
        deck=["speed3"],
        discard=["speed4", "speed4", "speed4"],
        engine=6,
        prefs=QUIET,
    )
    parked(st, 1, 2)
    st, _ = round_(st, {0: ["speed1"] * 3})
    c = car(st, 0)
    assert len(c["hand"]) == 7
    # one 3 from the deck, then two from the reshuffled discard (the three 4s and the played 1s)
    assert Counter(codes(st, c["hand"]))["speed3"] == 1
    assert len(c["deck"]) + len(c["discard"]) == 4


# ---------------------------------------------------------------- the finish


def test_finish_place_and_the_race_goes_on():
    st = new(seats=3)
    setcar(st, 0, pos=135, lane=1, gear=1, hand=["start5"] * 7, deck=["speed1"] * 9, engine=6, prefs=QUIET)
    parked(st, 1, 100)
    parked(st, 2, 90)
    st, ev = round_(st, {0: ["start5"]})
    v = E.view(st, None)
    assert v["cars"][0]["finished"] and v["cars"][0]["place"] == 1
    assert v["standings"] == [0] and v["order"][0] == 0
    assert st["phase"] == "submit" and 0 not in E.to_act(st)
    assert E.legal_actions(st, 0) == [] and E.menu(st, 0) == []
    assert any("finishes 1st" in en(e.text) for e in ev)
    with pytest.raises(GameError):
        submit(st, 0, ["start5"])


def test_same_round_finishers_rank_by_distance_past_the_line():
    st = new(seats=3)
    setcar(st, 0, pos=137, lane=1, gear=1, hand=["speed2"] * 7, deck=["speed1"] * 9, engine=6, prefs=QUIET)
    setcar(
        st,
        1,
        pos=134,
        lane=1,
        gear=2,
        hand=["speed4", "start5"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs=QUIET,
    )
    parked(st, 2, 50)
    st, _ = round_(st, {0: ["speed2"], 1: ["speed4", "start5"]})
    assert st["places"] == [1, 0]  # seat 1 crossed second but got further (143 vs 139)


def test_same_space_finishers_rank_race_line_first():
    st = new(seats=3)
    setcar(st, 0, pos=136, lane=1, gear=1, hand=["speed4"] * 7, deck=["speed1"] * 9, engine=6, prefs=QUIET)
    setcar(st, 1, pos=135, lane=1, gear=1, hand=["start5"] * 7, deck=["speed1"] * 9, engine=6, prefs=QUIET)
    parked(st, 2, 50)
    st, _ = round_(st, {0: ["speed4"], 1: ["start5"]})
    # both end on abs 140 (space 2): seat 0 took the race line (lane 1) first
    assert (car(st, 0)["lane"], car(st, 1)["lane"]) == (1, 2)
    assert st["places"] == [0, 1]


def test_no_corner_check_beyond_the_finish_line():
    st = new(seats=2)
    setcar(
        st, 0, pos=135, lane=1, gear=4, hand=["speed4"] * 3 + ["start5"] * 4, deck=["speed1"] * 9, engine=0, prefs=QUIET
    )
    parked(st, 1, 50)
    st, _ = round_(st, {0: ["speed4", "speed4", "speed4", "start5"]})  # 17: past corner 1 of a 3rd lap
    c = car(st, 0)
    assert c["fin"] and c["pos"] == 152 and c["stress"] == 0 and c["place"] == 1


def test_a_spin_before_the_line_means_no_finish():
    st = new(seats=2)
    setcar(
        st, 0, pos=126, lane=1, gear=3, hand=["speed4"] * 3 + ["start5"] * 4, deck=["speed1"] * 9, engine=0, prefs=QUIET
    )  # corner 4 of lap 2 is the line after abs 126; 126 + 13 > 138
    parked(st, 1, 50)
    st, _ = round_(st, {0: ["speed4", "speed4", "start5"]})
    c = car(st, 0)
    assert not c["fin"] and c["pos"] == 126 and c["stress"] == 2


def test_race_ends_when_every_car_has_finished():
    st = new(seats=2)
    setcar(st, 0, pos=137, lane=1, gear=1, hand=["speed4"] * 7, deck=["speed1"] * 9, engine=6, prefs=QUIET)
    setcar(st, 1, pos=136, lane=1, gear=1, hand=["speed4"] * 7, deck=["speed1"] * 9, engine=6, prefs=QUIET)
    st, ev = round_(st, {0: ["speed4"], 1: ["speed4"]})
    assert E.is_over(st) and st["phase"] == "over" and E.to_act(st) == []
    v = E.view(st, None)
    assert v["standings"] == [0, 1] and v["phase"] == "over"
    assert any("race is over" in en(e.text) for e in ev)
    with pytest.raises(GameError):
        E.apply(st, 0, {"type": "prefs", "boost": "always"})


# ---------------------------------------------------------------- public and private information


def test_engine_heat_is_public_hands_are_private():
    st = new(seats=3)
    v = E.view(st, None)
    assert "me" not in v
    assert [c["engine_heat"] for c in v["cars"]] == [6, 6, 6]
    v1 = E.view(st, 1)
    assert v1["me"]["seat"] == 1 and len(v1["me"]["hand"]) == 7
    assert {c["id"] for c in v1["me"]["hand"]} == set(car(st, 1)["hand"])
    st, _ = E.apply(st, 0, {"type": "submit", "cards": car(st, 0)["hand"][:1]})
    assert E.view(st, None)["cars"][0]["submitted"]
    assert E.view(st, 1)["me"]["submission"] is None
    assert E.view(st, 0)["me"]["submission"]["cards"] == car(st, 0)["sub"]


# ---------------------------------------------------------------- rule readings


def test_react_cools_down_before_boosting():
    st = new()
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=1,
        hand=["speed1", "heat", "heat"] + ["speed1"] * 4,
        deck=["speed3"] * 9,
        engine=0,
        prefs={"boost": "always", "adrenaline": "never", "slipstream": "never"},
    )
    parked(st, 1, 2)
    st, _ = round_(st, {0: ["speed1"]})
    c = car(st, 0)
    assert c["pos"] == 24 and len(c["engine"]) == 1  # 2 cooled, 1 spent on the boost


def test_a_zero_move_keeps_the_spot():
    st = new()
    parked(st, 0, 5, lane=2)  # race line here is lane 1, and it is free
    parked(st, 1, 2)
    st, _ = round_(st, {})
    assert (car(st, 0)["pos"], car(st, 0)["lane"]) == (5, 2)


def test_order_is_fixed_for_the_round_and_recomputed_for_the_next():
    st = new()
    setcar(st, 0, pos=10, lane=1, gear=1, hand=["speed1"] * 7, deck=["speed1"] * 9, engine=6, prefs=QUIET)
    setcar(st, 1, pos=9, lane=1, gear=1, hand=["speed4"] * 7, deck=["speed1"] * 9, engine=6, prefs=QUIET)
    st, _ = round_(st, {0: ["speed1"], 1: ["speed4"]})
    v = E.view(st, None)
    assert [e["seat"] for e in v["last_round"]] == [0, 1]
    assert v["order"] == [1, 0]


def test_a_finished_car_may_still_boost_but_draws_no_more():
    st = new(seats=3)
    setcar(
        st,
        0,
        pos=136,
        lane=1,
        gear=1,
        hand=["speed4"] * 7,
        deck=["speed2"] * 9,
        engine=6,
        prefs={"boost": "always", "adrenaline": "never", "slipstream": "always"},
    )
    parked(st, 1, 142 - 69, 2)  # a lapped car beside the spot where the finisher ends
    parked(st, 2, 50)
    st, _ = round_(st, {0: ["speed4"]})
    c = car(st, 0)
    assert c["fin"] and c["pos"] == 142  # 4 + boost 2, no slipstream after the line
    assert len(c["hand"]) == 6  # no refill once finished


def test_a_round_paused_at_adrenaline_by_the_old_fixed_order_resumes():
    """A state saved mid-round by the fixed-order engine (paused at the Adrenaline step, no
    order fields in the round record) still resumes, with the boost counted as done."""
    st = _order_case({"order": "ask", "adrenaline": "ask"})
    st, _ = round_(st, {0: ["speed2"]})
    st, _ = E.apply(st, 0, {"type": "order", "first": "boost"})
    assert st["pending"]["type"] == "adrenaline" and car(st, 0)["pos"] == 21
    rd = car(st, 0)["rd"]
    del rd["first"], rd["done"]
    del car(st, 0)["prefs"]["order"]
    st["res"]["step"] = rules.S_ADR
    st, _ = E.apply(st, 0, {"type": "adrenaline", "use": True})
    assert st["phase"] == "submit" and car(st, 0)["pos"] == 21
    assert E.view(st, None)["cars"][0]["speed"] == 5 and len(car(st, 0)["engine"]) == 2  # one boost
    assert E.view(st, 0)["me"]["prefs"]["order"] == "best"
