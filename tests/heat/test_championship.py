"""The Championship, rule by rule from the seed (000 「チャンピオンシップ(拡張)」) and the
research's event cards and points (heat.md §2d, §6)."""

from __future__ import annotations

import pytest

from bot.games.base import GameError
from bot.games.heat import ENGINE as E
from bot.games.heat import championship as C
from bot.games.heat import content, rules
from bot.games.heat.champdata import championship, sponsors
from bot.games.rng import Rng
from tests.heat.helpers import en, setcar
from tests.heat.championships import press_race, park, plain, season, sponsors_in, through_market, with_event


# --------------------------------------------------------------------------- setup


def test_seasons_as_printed():
    data = championship()
    assert [len(data["seasons"][y]) for y in ("1961", "1962", "1963")] == [3, 3, 4]  # 「1961年3レース…1963年4レース」
    assert data["seasons"]["1961"] == [["great_britain", "e1"], ["usa", "e2"], ["italy", "e3"]]
    assert data["points"] == [9, 6, 4, 3, 2, 1]
    assert len(sponsors()["types"]) == 6 and sponsors()["copies"] == 7
    st = season("1961")
    assert st["track"] == "great_britain" and st["phase"] == "market"
    assert st["modules"] == ["garage", "weather"]  # the season uses the upgrade deck and the weather


def test_custom_season_four_races_shuffled_tracks_random_events():
    st = season("custom", seed=5)
    races = st["champ"]["races"]
    assert len(races) == 4 and len({r["track"] for r in races}) == 4  # 「オリジナルのチャンピオンシップ(4レース)」
    assert all(r["event"] in C.events() for r in races) and len({r["event"] for r in races}) == 4
    st = season("custom", seed=5, races=2, season_tracks="italy,france")
    assert [r["track"] for r in st["champ"]["races"]] == ["italy", "france"]
    with pytest.raises(GameError):
        E.validate_options({"championship": "custom", "races": 2, "season_tracks": "italy"}, 2)
    with pytest.raises(GameError):
        E.validate_options({"championship": "1999"}, 2)


def test_starting_upgrades_stay_in_the_box_and_first_race_grid_is_random():
    grids = {tuple(season(seed=s)["grid_order"]) for s in range(8)}
    assert len(grids) > 1  # 「第1レース:ランダム」
    st = season()
    assert not any(st["cards"][c] in rules.STARTING_UPGRADES for car in st["cars"] for c in car["deck"])


def test_market_players_plus_three_reverse_grid_one_card_each():
    st = season(seats=3, seed=2)
    m = st["champ"]["market"]
    assert len(m["cards"]) == 3 + 3  # 「プレイ人数+3枚の改良カードを並べ」
    assert m["order"] == list(reversed(st["grid_order"]))  # 「スターティンググリッドの逆順で」
    first = m["order"][0]
    assert E.to_act(st) == [first] and E.menu(st, m["order"][1]) == []
    with pytest.raises(GameError):
        E.apply(st, m["order"][1], {"type": "market", "card": 0})
    for _ in range(3):
        st, _ = E.apply(st, E.to_act(st)[0], {"type": "market", "card": 0})
    assert st["phase"] == "swap" and E.to_act(st) == [first]  # the first picker may swap
    assert all(len(u) == 1 for u in st["champ"]["upgrades"])  # 「第1レースでは各自1枚の改良カード」


def test_swap_one_owned_upgrade_with_the_market():
    st = season(seats=2, seed=3)
    for _ in range(2):
        st, _ = E.apply(st, E.to_act(st)[0], {"type": "market", "card": 0})
    first = E.to_act(st)[0]
    mine = st["champ"]["upgrades"][first][0]
    left = st["champ"]["market"]["cards"][1]
    menu = E.menu(st, first)[0]
    assert menu["options"][0]["value"] == "skip" and len(menu["options"]) <= 25
    st, ev = E.apply(st, first, {"type": "swap", "values": ["0:1"]})
    assert st["champ"]["upgrades"][first] == [left]
    assert st["phase"] == "submit" and mine in st["champ"]["garage_out"]
    assert "swaps" in en(ev[0].text)


def test_sponsors_first_in_hand_then_seven():
    st = through_market(season("1963", seats=3, seed=4))  # 1963 race 1: 3 sponsorship cards each
    for s in range(3):
        car = st["cars"][s]
        assert len(sponsors_in(st, s)) >= 3 and len(car["hand"]) == 7
        assert sum(1 for c in car["deck"] if st["cards"][c] in st["champ"]["upgrades"][s]) + sum(
            1 for c in car["hand"] if st["cards"][c] in st["champ"]["upgrades"][s]
        ) >= 1 or content.garage()["types"][st["champ"]["upgrades"][s][0]].get("heat_card")
    assert len(st["champ"]["sponsor_deck"]) == 42 - 9


def _heat_total(st, seat):
    car = st["cars"][seat]
    return sum(1 for z in ("engine", "deck", "discard", "hand") for c in car[z] if st["cards"][c] == "heat")


def _stress_total(st, seat):
    car = st["cars"][seat]
    return sum(1 for z in ("deck", "discard", "hand") for c in car[z] if st["cards"][c] == "stress")


@pytest.mark.parametrize(
    "code,heat,stress,hand", [("e4", 1, 0, 7), ("e9", -2, -1, 6), ("e10", 0, 1, 7), ("e5", 0, 0, 8), ("e7", 0, 0, 7)]
)
def test_event_setup_heat_stress_hand(code, heat, stress, hand):
    st = season("1963", seats=2, seed=9)
    ch = st["champ"]
    ch["races"][0]["event"] = code
    ch.pop("market")
    st = C._race_state(ch, 2, 0, [0, 1], Rng(5))
    st = through_market(st)
    tile = content.weather()["tiles"][st["weather"]["tile"]]["setup"]
    tr = content.tracks()[st["track"]]
    for s in range(2):
        heat_up = sum(1 for u in ch["upgrades"][s] if content.garage()["types"][u].get("heat_card"))
        assert _heat_total(st, s) == tr.heat + tile.get("heat", 0) + heat + heat_up
        assert _stress_total(st, s) == max(0, tr.stress + tile.get("stress", 0) + stress)
        assert len(st["cars"][s]["hand"]) == hand


def test_event_laps():
    st = through_market(season("1961", seed=3))
    ch = st["champ"]
    ch["races"][0]["event"] = "e3"
    ch.pop("market", None)
    st = C._race_state(ch, 2, 0, [0, 1], Rng(5))
    assert rules.track_of(st).laps == content.tracks()["great_britain"].laps - 1  # strike: 1 lap shorter
    ch["races"][0]["event"] = "e5"
    st = C._race_state(ch, 2, 0, [0, 1], Rng(5))
    assert rules.track_of(st).laps == content.tracks()["great_britain"].laps + 1  # record crowds
    assert rules.track_of(st).finish == rules.track_of(st).laps * rules.track_of(st).spaces


def test_press_corner_letters():
    usa, japan = content.tracks()["usa"], content.tracks()["japan"]
    assert C._press_corners(usa, ["A"]) == [0] and C._press_corners(usa, ["B", "D"]) == [1, 3]
    assert C._press_corners(usa, ["E"]) == [0]  # 4 corners: E counts round to A
    # Japan: a chicane counts once (A = the chicane, its press stand on the 2nd line); C = 3rd.
    assert C._press_corners(japan, ["A"]) == [1] and C._press_corners(japan, ["B"]) == [2]


# --------------------------------------------------------------------------- press corners


def _go(st, hand, gear=2, pos=5, lane=1, seat=0, deck=None, engine=6):
    setcar(st, seat, pos=pos, lane=lane, gear=gear, hand=hand, deck=deck or ["speed1"] * 10, discard=[], engine=engine)
    n = len([c for c in hand if c != "filler"])
    plays = {seat: hand[: gear if n >= gear else n]}
    return plays


def _play(st, seat_cards):
    from tests.heat.helpers import round_

    return round_(st, seat_cards)


def test_press_corner_speed_two_over_the_limit():
    st = press_race()
    setcar(
        st,
        0,
        pos=5,
        lane=1,
        gear=2,
        hand=["speed4", "speed4", "speed1", "speed1", "speed1", "speed1", "speed1"],
        deck=["speed1"] * 10,
        engine=6,
    )
    before = len(st["champ"]["sponsor_deck"])
    st, ev = _play(st, {0: ["speed4", "speed4", "speed1"]})  # speed 9 = limit 7 + 2
    assert before - len(st["champ"]["sponsor_deck"]) == 1
    assert any("Press corner 1 (limit +2)" in x for x in en([e.text for e in ev if e.to is None]))
    # which card it is, only to that player
    mine = [en(e.text) for e in ev if e.to == 0 and "sponsorship card:" in en(e.text)]
    assert len(mine) == 1 and not any("sponsorship card:" in en(e.text) for e in ev if e.to != 0)


def test_press_corner_one_over_gives_nothing():
    st = press_race()
    before = len(st["champ"]["sponsor_deck"])
    setcar(
        st,
        0,
        pos=5,
        lane=1,
        gear=2,
        hand=["speed4", "speed3", "speed1", "speed1", "speed1", "speed1", "speed1"],
        deck=["speed1"] * 10,
        engine=6,
    )
    st, ev = _play(st, {0: ["speed4", "speed3", "speed1"]})  # speed 8 = limit + 1
    assert len(st["champ"]["sponsor_deck"]) == before
    assert not any("Press corner" in x for x in en([e.text for e in ev]))


def test_press_corner_by_slipstream_and_at_most_one_card():
    st = press_race()
    park(st, 1, 11, lane=1)  # moves to 12, just before the line
    setcar(
        st,
        0,
        pos=9,
        lane=1,
        gear=2,
        hand=["speed1"] * 7,
        deck=["speed1"] * 10,
        engine=6,
        prefs={"slipstream": "always"},
    )
    before = len(st["champ"]["sponsor_deck"])
    st, ev = _play(st, {0: ["speed1", "speed1"], 1: ["speed1"]})
    car = st["cars"][0]
    # speed 2 (far under the limit), 9 -> 11, slipstream +2 -> 13 across the line after 12
    assert car["rd"]["slip"] and car["rd"]["speed"] == 2 and car["pos"] == 13
    assert before - len(st["champ"]["sponsor_deck"]) == 1
    assert any("Press corner 1 (slipstream)" in x for x in en([e.text for e in ev]))
    # Fast and slipstreaming at once: still one card for the corner.
    st = press_race()
    park(st, 1, 13, lane=1)
    setcar(
        st,
        0,
        pos=3,
        lane=1,
        gear=3,
        hand=["speed4", "speed4", "speed3"] + ["speed1"] * 4,
        deck=["speed1"] * 10,
        engine=6,
        prefs={"slipstream": "always"},
    )
    before = len(st["champ"]["sponsor_deck"])
    st, ev = _play(st, {0: ["speed4", "speed4", "speed3"], 1: ["speed1"]})
    assert st["cars"][0]["rd"]["slip"] and before - len(st["champ"]["sponsor_deck"]) == 1


def test_adjust_limit_upgrade_does_not_change_the_press_condition():
    """「改良カードによる制限速度の修正は含まない(制限+1ならヒートの支払い1枚でも条件を達成)」"""
    st = press_race()
    setcar(
        st, 0, pos=5, lane=1, gear=2, hand=["sp5", "speed4", "speed2"] + ["speed1"] * 4, deck=["speed1"] * 10, engine=6
    )
    st, ev = _play(st, {0: ["sp5", "speed4", "speed2"]})  # speed 9, De Angeli Wings: limit 8 for this car
    car = st["cars"][0]
    assert car["rd"]["heat"] == 1  # paid 1 Heat only
    assert any("Press corner 1" in x for x in en([e.text for e in ev]))


def test_road_token_limit_counts_for_the_press():
    st = through_market(season("1963", seats=2, seed=1))
    st["weather"] = {"tile": "cloud", "road": ["minus1", "plus1", "plus1", "plus1"]}
    with_event(st, "e7")
    park(st, 1, 40)
    setcar(
        st,
        0,
        pos=5,
        lane=1,
        gear=2,
        hand=["speed4", "speed3", "speed1"] + ["speed1"] * 4,
        deck=["speed1"] * 10,
        engine=6,
    )
    st, ev = _play(st, {0: ["speed4", "speed3", "speed1"]})  # speed 8 = (7 - 1) + 2
    assert any("Press corner 1" in x for x in en([e.text for e in ev]))


def test_going_global_press_gives_two():
    st = press_race("e11")
    st["champ"]["press"] = [0]
    before = len(st["champ"]["sponsor_deck"])
    setcar(
        st,
        0,
        pos=5,
        lane=1,
        gear=2,
        hand=["speed4", "speed4", "speed1"] + ["speed1"] * 4,
        deck=["speed1"] * 10,
        engine=6,
    )
    st, _ = _play(st, {0: ["speed4", "speed4", "speed1"]})
    assert before - len(st["champ"]["sponsor_deck"]) == 2


# --------------------------------------------------------------------------- sponsorship cards


def test_used_sponsor_leaves_the_deck_unused_discarded_stays():
    st = press_race()
    st["champ"]["press"] = []
    setcar(st, 0, pos=20, lane=1, gear=1, hand=["sp4"] + ["speed1"] * 6, deck=["speed1"] * 10, engine=6)
    st, ev = _play(st, {0: ["sp4"]})  # Lord&Co. Turbo: speed 6
    car = st["cars"][0]
    assert car["rd"]["speed"] == 6
    assert sponsors_in(st, 0, "discard") == [] and st["champ"]["sponsor_used"] == ["sp4"]
    # Discarded without its effect (step 8): back to the discard pile, still a card of the deck.
    st = press_race()
    st["champ"]["press"] = []
    setcar(
        st,
        0,
        pos=20,
        lane=1,
        gear=1,
        hand=["speed1"] * 6 + ["sp4"],
        deck=["speed1"] * 10,
        engine=6,
        prefs={"discard": "ask"},
    )
    st, _ = _play(st, {0: ["speed1"]})
    sp = next(c for c in st["cars"][0]["hand"] if st["cards"][c] == "sp4")
    st, _ = E.apply(st, 0, {"type": "discard", "cards": [sp]})
    assert sponsors_in(st, 0, "discard") == ["sp4"] and st["champ"]["sponsor_used"] == []


def test_sponsor_in_a_clogged_hand_goes_to_the_discard_pile():
    st = press_race()
    setcar(
        st,
        0,
        pos=20,
        lane=1,
        gear=2,
        hand=["sp4", "heat", "heat", "heat", "heat", "heat", "heat"],
        deck=["speed1"] * 10,
        engine=6,
    )
    st, _ = _play(st, {0: ["sp4", "heat", "heat"]})
    assert st["cars"][0]["rd"]["clog"] and sponsors_in(st, 0, "discard") == ["sp4"]


def test_sponsor_symbols():
    st = press_race()
    st["champ"]["press"] = []
    setcar(st, 0, pos=20, lane=1, gear=1, hand=["sp1"] + ["speed1"] * 6, deck=["speed1"] * 10, engine=6)
    st, _ = _play(st, {0: ["sp1"]})  # Dramdo Brakes: a speed 1-4 chosen
    assert st["cars"][0]["rd"]["speed"] in (1, 2, 3, 4)
    st = press_race()
    st["champ"]["press"] = []
    setcar(
        st,
        0,
        pos=20,
        lane=1,
        gear=2,
        hand=["sp2", "speed1", "heat", "heat"] + ["speed1"] * 3,
        deck=["speed1"] * 10,
        engine=4,
    )
    st, _ = _play(st, {0: ["sp2", "speed1"]})  # Fredo: speed 4 + cooldown 2 (+1 for gear 2)
    assert st["cars"][0]["rd"]["speed"] == 5 and len(st["cars"][0]["engine"]) == 6
    st = press_race()
    st["champ"]["press"] = []
    setcar(
        st,
        0,
        pos=20,
        lane=1,
        gear=1,
        hand=["sp6"] + ["speed1"] * 6,
        deck=["speed1"] * 10,
        discard=["heat", "heat", "heat"],
        engine=3,
    )
    st, _ = _play(st, {0: ["sp6"]})  # E.Mercury: super cool 2 from the discard pile
    assert len(st["cars"][0]["engine"]) == 5


def test_sponsor_pile_runs_out_then_used_ones_are_shuffled():
    st = press_race()
    ch = st["champ"]
    ch["sponsor_used"] = ch["sponsor_deck"][:2]
    ch["sponsor_deck"] = []
    assert C.draw_sponsor(st, 0, Rng(1)) and len(ch["sponsor_deck"]) == 1 and ch["sponsor_used"] == []
    ch["sponsor_deck"] = []
    ch["sponsor_used"] = []
    assert not C.draw_sponsor(st, 0, Rng(1))


# --------------------------------------------------------------------------- events in the race


def test_speed_record_and_passing_three_cars():
    st = press_race("e2")
    st["champ"]["press"] = []
    setcar(
        st,
        0,
        pos=14,
        lane=1,
        gear=3,
        hand=["speed4", "speed4", "speed4", "speed4"] + ["speed1"] * 3,
        deck=["speed1"] * 10,
        engine=6,
    )
    st, ev = _play(st, {0: ["speed4", "speed4", "speed4", "speed4"]})  # speed 16 >= 15
    assert any("new record" in x for x in en([e.text for e in ev]))
    st = plain(through_market(season("1963", seats=4, seed=2)))
    with_event(st, "e8")
    st["champ"]["press"] = []
    for s, p in ((1, 16), (2, 17), (3, 18)):
        park(st, s, p)
    setcar(
        st,
        0,
        pos=14,
        lane=1,
        gear=3,
        hand=["speed4", "speed4", "speed4"] + ["speed1"] * 4,
        deck=["speed1"] * 10,
        engine=6,
    )
    st, ev = _play(st, {0: ["speed4", "speed4", "speed4"], 1: ["speed1"], 2: ["speed1"], 3: ["speed1"]})
    assert any("Passed 3 cars" in x for x in en([e.text for e in ev]))


def test_first_three_over_the_line_after_lap_one():
    st = plain(through_market(season("1961", seats=2, seed=2)))  # Great Britain, 63 spaces, e1
    st["champ"]["press"] = []
    n = rules.track_of(st).spaces
    setcar(st, 0, pos=n - 2, lane=1, gear=1, hand=["speed4"] + ["speed1"] * 6, deck=["speed1"] * 10, engine=6)
    setcar(st, 1, pos=n - 20, lane=1, gear=1, hand=["speed1"] * 7, deck=["speed1"] * 10, engine=6)
    st, ev = _play(st, {0: ["speed4"], 1: ["speed1"]})
    assert st["champ"]["lap1"] == 1
    assert any("after lap 1" in x for x in en([e.text for e in ev]))
    st["champ"]["lap1"] = 3
    before = len(st["champ"]["sponsor_deck"])
    setcar(st, 1, pos=n - 1, lane=1, gear=1, hand=["speed4"] + ["speed1"] * 6, deck=["speed1"] * 10, engine=6)
    st, ev = _play(st, {0: ["speed1"], 1: ["speed4"]})
    assert len(st["champ"]["sponsor_deck"]) == before  # only the first three


def test_spin_out_ends_the_race_with_title_sponsor_withdrawn():
    st = press_race("e10")
    st["champ"]["press"] = []
    setcar(
        st,
        0,
        pos=5,
        lane=1,
        gear=3,
        hand=["speed4", "speed4", "speed4"] + ["speed1"] * 4,
        deck=["speed1"] * 10,
        engine=0,
    )
    st, ev = _play(st, {0: ["speed4", "speed4", "speed4"]})
    car = st["cars"][0]
    assert car.get("out") and car["fin"] and 0 not in st["places"]
    assert E.view(st, None)["cars"][0]["out"] and "out" not in E.view(st, None)["cars"][1]
    assert any("out of the race" in x for x in en([e.text for e in ev]))


def test_turbulent_winds_slipstream_in_gear_three_or_four_only():
    st = press_race("e12")
    st["champ"]["press"] = []
    park(st, 1, 23, lane=1)
    setcar(
        st,
        0,
        pos=20,
        lane=1,
        gear=2,
        hand=["speed1"] * 7,
        deck=["speed1"] * 10,
        engine=6,
        prefs={"slipstream": "always"},
    )
    st, _ = _play(st, {0: ["speed1", "speed1"], 1: ["speed1"]})
    assert not st["cars"][0]["rd"]["slip"]
    assert not rules.can_slipstream({**st, "slip_min_gear": 3}, rules.track_of(st), 0)


def test_heat_discard_event_and_no_adrenaline():
    st = press_race("e13")
    st["champ"]["press"] = []
    setcar(
        st,
        0,
        pos=20,
        lane=1,
        gear=3,
        hand=["speed1"] * 5 + ["heat", "heat"],
        deck=["speed1"] * 10,
        engine=6,
        prefs={"discard": "ask"},
    )
    st, _ = _play(st, {0: ["speed1"] * 3})
    heat = [c for c in st["cars"][0]["hand"] if st["cards"][c] == "heat"]
    assert {"type": "discard", "cards": [heat[0]]} in E.legal_actions(st, 0)
    st, _ = E.apply(st, 0, {"type": "discard", "cards": heat})
    assert sum(1 for c in st["cars"][0]["discard"] if st["cards"][c] == "heat") == len(heat) >= 1
    st = press_race("e14")
    st, _ = _play(st, {0: ["speed1"]})
    assert not any(c["rd"]["adr"] for c in st["cars"] if c["rd"])


def test_standing_heat_discard_preference_under_the_event_only():
    st = press_race("e13")
    st["champ"]["press"] = []
    assert rules.prefs_of(st)["discard"] == ("keep", "heat", "ask")
    assert {"type": "prefs", "discard": "heat"} in E.legal_actions(st, 0)
    setcar(
        st,
        0,
        pos=20,
        lane=1,
        gear=3,
        hand=["speed1"] * 5 + ["heat", "heat"],
        deck=["speed1"] * 10,
        engine=6,
        prefs={"discard": "heat"},
    )
    st, _ = _play(st, {0: ["speed1"] * 3})  # no question asked: both Heat cards go
    assert not any(st["cards"][c] == "heat" for c in st["cars"][0]["hand"])
    assert sum(1 for c in st["cars"][0]["discard"] if st["cards"][c] == "heat") >= 1
    hands = []
    for pref in ("keep", "heat"):  # another event: Heat stays in the hand whatever the preference
        st = press_race("e7")
        st["champ"]["press"] = []
        setcar(
            st,
            0,
            pos=20,
            lane=1,
            gear=3,
            hand=["speed1"] * 5 + ["heat", "heat"],
            deck=["speed1"] * 10,
            engine=6,
            prefs={"discard": pref},
        )
        st, _ = _play(st, {0: ["speed1"] * 3})
        hands.append(sorted(st["cards"][c] for c in st["cars"][0]["hand"]))
    assert hands[0] == hands[1] and "heat" in hands[1]
    assert "heat" not in rules.prefs_of({"modules": []})["discard"]  # a plain race keeps its choices


# --------------------------------------------------------------------------- after a race


def _finish(st, order):
    """Finish the race with the cars in `order` crossing the line this round."""
    tr = rules.track_of(st)
    for k, s in enumerate(order):
        setcar(
            st,
            s,
            pos=tr.finish - 1 - k,
            lane=1,
            gear=4,
            hand=["speed4"] * 4 + ["sp3", "speed1", "speed1"],
            deck=["speed1"] * 10,
            engine=6,
        )
    return _play(st, {s: ["speed4"] * 4 for s in order})


def test_points_carry_grid_and_next_race():
    st = plain(through_market(season("1963", seats=3, seed=6)))
    st["champ"]["press"] = []
    ups = [list(u) for u in st["champ"]["upgrades"]]
    st, ev = _finish(st, [2, 0, 1])
    ch = st["champ"]
    assert ch["race"] == 1 and ch["points"] == [6, 4, 9]  # 9-6-4
    assert ch["results"][0]["places"] == [2, 0, 1]
    assert st["track"] == "great_britain" and st["phase"] == "market"
    assert st["grid_order"] == [2, 0, 1]  # 「チャンピオンシップポイントが高い順」
    assert all(ch["carry"][s].count("sp3") >= 1 for s in range(3))  # unused sponsors carried
    assert ch["upgrades"] == ups
    assert any("Race 1 is over" in x for x in en([e.text for e in ev]))
    st = through_market(st)
    for s in range(3):  # upgrades and carried sponsors are in the new deck; extra Stress is gone
        zones = [st["cards"][c] for z in ("hand", "deck") for c in st["cars"][s][z]]
        assert all(u in zones or content.garage()["types"][u].get("heat_card") for u in ups[s])
        assert zones.count("sp3") >= 1


def test_event_bonus_points():
    st = plain(through_market(season("1961", seats=3, seed=6)))
    with_event(st, "e3")
    st["champ"]["press"] = []
    st, _ = _finish(st, [1, 2, 0])
    assert st["champ"]["points"] == [4, 9 + 2, 6]  # strike: the winner +2
    st = plain(through_market(season("1961", seats=3, seed=6)))
    with_event(st, "e6")
    st["champ"]["press"] = []
    st, _ = _finish(st, [1, 2, 0])
    assert st["champ"]["points"] == [5, 10, 7]  # corruption: 1st-3rd +1


def test_grid_tie_goes_to_the_better_place_last_race():
    ch = {"points": [10, 10, 3], "results": [{"places": [1, 0, 2]}]}
    assert C.standings(ch) == [1, 0, 2]
    ch = {"points": [10, 10, 3], "results": [{"places": [0, 2, 1]}]}
    assert C.standings(ch) == [0, 1, 2]


def test_season_end_winner_and_tie_break():
    st = plain(through_market(season("custom", seats=2, seed=1, races=2, season_tracks="usa,italy")))
    st["champ"]["press"] = []
    st, _ = _finish(st, [0, 1])
    st = plain(through_market(st))
    st["champ"]["press"] = []
    st.pop("laps", None)
    with_event(st, "e7")
    st, ev = _finish(st, [1, 0])
    assert E.is_over(st) and st["champ"]["points"] == [15, 15]
    assert E.placings(st) == [2, 1]  # tied: seat 1 was better in the last race
    assert any("championship is over" in x for x in en([e.text for e in ev]))
    v = E.view(st, None)
    assert v["champ"]["done"] and v["champ"]["standings"] == [1, 0]


def test_legends_score_and_take_grid_slots():
    st = plain(through_market(season("1961", seats=2, seed=3, legends=2)))
    for s in (2, 0, 1):
        st["cars"][s]["fin"] = True
        st["cars"][s]["place"] = len(st["places"]) + 1
        st["places"].append(s)
    st["phase"] = "over"
    st, _ = C.finish_race(st)
    assert st["champ"]["points"][2] == 9 and st["champ"]["points"][0] == 6
    assert 2 in st["grid_order"] and st["grid_order"][0] == 2
    assert st["champ"]["market"]["order"] == [s for s in reversed(st["grid_order"]) if s < 2]


def test_views_hide_decks_and_carried_sponsors():
    st = through_market(season("1963", seats=2, seed=1))
    v = E.view(st, None)["champ"]
    assert "sponsor_deck" not in v and "carry" not in v and "garage_deck" not in v
    assert v["sponsor_counts"] == [3, 3] and v["event"]["sponsors"] == 3
    assert v["press"] == [1]
    import json

    text = json.dumps(E.view(st, None), default=str)
    assert "sp1" not in text and "sp4" not in text


def test_press_corner_passed_before_a_spin_at_a_later_corner_counts():
    """Rule reading (「コーナーを…通過した場合」): the press corner was passed; a spin at the next
    corner sends the car back behind that one only."""
    st = plain(through_market(season("custom", seats=2, seed=2, races=2, season_tracks="france,usa")))
    with_event(st, "e7")  # press A: France corner 1 (after space 12, limit 5); corner 2 after 20, limit 2
    park(st, 1, 40)
    st["cars"][0]["prefs"]["adrenaline"] = "never"
    setcar(
        st,
        0,
        pos=8,
        lane=1,
        gear=3,
        hand=["speed4", "speed4", "speed4", "speed1"] + ["speed1"] * 3,
        deck=["speed1"] * 10,
        engine=8,
    )
    st, ev = _play(st, {0: ["speed4", "speed4", "speed4", "speed1"]})  # speed 13: 7 Heat at 1, spin at 2
    car = st["cars"][0]
    assert car["rd"]["spun"] and 12 < car["pos"] <= 20
    assert any("Press corner 1 (limit +2)" in x for x in en([e.text for e in ev]))


def test_absent_player_on_a_flooded_space_gets_a_legal_submission():
    """The automatic player (an absent seat) in a Heavy Rain race of the 1964 season."""
    st = through_market(season("1964", seats=2, seed=1))
    tr = rules.track_of(st)
    flooded = sorted(tr.flooded)[0]
    for seed in range(12):
        setcar(st, 0, pos=flooded, lane=1, gear=4, hand=["speed1"] * 7, deck=["speed1"] * 10, engine=0)
        st["round"] = seed + 1
        act = E.auto_action(st, 0)
        assert rules.check_submission(st, st["cars"][0], act["cards"]) is None
