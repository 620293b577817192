"""Garage module (seed 000, 「ガレージモジュール」; card list: heat.md §2c): the draft and the upgrade
cards' symbols. USA: corner lines after 12 (limit 7), 33 (3), 49 (3), 57 (2)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.games.base import GameError
from bot.games.heat import ENGINE as E
from bot.games.heat import content, rules
from bot.i18n import render
from tests.digests import apply_untouched
from tests.heat.helpers import QUIET, car, codes, en, parked, round_, setcar
from tests.heat.championships import drafted, gnew


# ---------------------------------------------------------------- data


def test_upgrade_decks():
    types = content.garage()["types"]
    basic = [c for c, t in types.items() if t["tier"] == "basic"]
    advanced = [c for c, t in types.items() if t["tier"] == "advanced"]
    assert len(basic) == 17 and len(advanced) == 31  # 34 + 62 cards, two of each
    assert [c for c, t in types.items() if t.get("heat_card")] == ["g17", "g48"]
    assert types["g07"] == {"tier": "basic", "family": "Brakes", "choices": [1, 2, 3, 4], "heat": 1}
    assert types["g11"] == {"tier": "basic", "family": "Cooling system", "speed": 6, "heat": 1, "cooldown": 1}
    assert render(rules.card_text("g11"), "en") == "Speed 6 · Cooldown 1 · Heat 1 (!)"
    assert render(rules.card_text("g08"), "en") == "Speed 1/3 (choose)"


def test_option_and_lobby_text():
    assert E.validate_options({"garage": "basic"}, 3) == {
        "track": "usa",
        "grid": "random",
        "modules": ["garage"],
        "garage": "basic",
    }
    with pytest.raises(GameError):
        E.validate_options({"garage": "turbo"}, 3)
    words = [render(m, "en") for m in E.describe_options(E.validate_options({"garage": "basic"}, 3))]
    assert "Garage: draft of 3 upgrades (basic cards)" in words


# ---------------------------------------------------------------- draft


def test_starting_upgrades_go_back_to_the_box_and_hands_wait_for_the_draft():
    st = gnew(3)
    assert st["phase"] == "draft"
    for c in st["cars"]:
        assert c["hand"] == []
        assert Counter(codes(st, c["deck"])) == {"speed1": 3, "speed2": 3, "speed3": 3, "speed4": 3, "stress": 3}
        assert len(c["engine"]) == 6


def test_draft_snake_order_and_players_plus_three_cards():
    st = gnew(3, seed=5, grid="random")
    grid = st["grid_order"]
    size = len(st["draft"]["deck"])
    assert size == 34 - 6
    seen_orders = []
    for rnd in (1, 2, 3):
        dr = st["draft"]
        assert dr["round"] == rnd and len(dr["market"]) == 6  # 3 players + 3
        assert dr["order"] == (list(reversed(grid)) if rnd % 2 else list(grid))
        order = []
        for _ in range(3):
            seat = E.to_act(st)[0]
            order.append(seat)
            other = next(s for s in range(3) if s != seat)
            with pytest.raises(GameError):
                E.apply(st, other, {"type": "pick", "card": 0})
            with pytest.raises(GameError):
                E.apply(st, seat, {"type": "pick", "card": 9})
            st, _ = E.apply(st, seat, {"type": "pick", "values": ["1"]})
        seen_orders.append(order)
        if rnd < 3:
            assert len(st["draft"]["deck"]) == size - 6 * rnd  # the leftover went back to the box
    assert seen_orders == [list(reversed(grid)), list(grid), list(reversed(grid))]
    assert st["phase"] == "submit" and "draft" not in st
    for c, picks in zip(st["cars"], st["garage"]):
        assert len(picks) == 3 and len(c["hand"]) == 7 and len(c["deck"]) == 15 + 3 - 7


def test_draft_menu_is_one_select_and_others_wait():
    st = gnew(2)
    seat = E.to_act(st)[0]
    menu = E.menu(st, seat)
    assert len(menu) == 1 and menu[0]["kind"] == "select" and menu[0]["action"] == {"type": "pick"}
    assert 1 <= len(menu[0]["options"]) <= 5
    assert E.menu(st, 1 - seat) == []
    with pytest.raises(GameError):
        E.apply(st, seat, {"type": "submit", "cards": [0]})
    v = E.view(st, None)
    assert len(v["draft"]["market"]) == 5 and v["draft"]["picking"] == seat
    assert "deck" not in v["draft"]  # the upgrade deck's order is hidden


def test_a_drafted_heat_card_goes_into_the_deck():
    st = gnew(2)
    st["draft"]["market"][0] = "g17"
    seat = E.to_act(st)[0]
    st, _ = E.apply(st, seat, {"type": "pick", "card": 0})
    while st["phase"] == "draft":
        st, _ = E.apply(st, E.to_act(st)[0], {"type": "pick", "card": 0})
    c = st["cars"][seat]
    assert codes(st, c["hand"] + c["deck"]).count("heat") == 1 and len(c["engine"]) == 6


# ---------------------------------------------------------------- card symbols


def test_boost_symbols_flip_until_a_speed_card_each():
    st = drafted()
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=1,
        hand=["g02"] + ["speed1"] * 6,
        deck=["stress", "speed2", "speed3", "speed1"],
        engine=6,
        prefs=QUIET,
    )
    parked(st, 1, 2, card="speed1")
    st, ev = round_(st, {0: ["g02"]})  # 0 + three flips: (Stress skipped) 2, 3, 1
    assert car(st, 0)["pos"] == 26
    assert E.view(st, None)["cars"][0]["speed"] == 6


def test_choice_of_speed_avoids_corner_heat_then_goes_farthest():
    st = drafted()
    setcar(
        st,
        0,
        pos=8,
        lane=1,
        gear=2,
        hand=["g10", "speed2"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs=QUIET,
    )
    parked(st, 1, 40, card="speed1")
    st, ev = round_(st, {0: ["g10", "speed2"]})  # 1/5 + 2: 7 would cross corner 1 at 7 (free), 3 would not
    assert car(st, 0)["pos"] == 15 and len(car(st, 0)["engine"]) == 6
    assert "Brakes 1/5 = 5" in en(E.view(st, None)["cars"][0]["revealed"])
    st = drafted()
    setcar(
        st,
        0,
        pos=30,
        lane=2,
        gear=2,
        hand=["g10", "speed2"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs=QUIET,
    )
    parked(st, 1, 60, card="speed1")
    st, _ = round_(st, {0: ["g10", "speed2"]})  # 7 would cross corner 2 (limit 3) for 4 Heat: 1 is chosen
    assert car(st, 0)["pos"] == 33 and len(car(st, 0)["engine"]) == 6


def test_choice_is_made_after_the_flips():
    st = drafted()
    setcar(
        st,
        0,
        pos=27,
        lane=2,
        gear=2,
        hand=["g08", "stress"] + ["speed1"] * 5,
        deck=["speed4"] * 9,
        engine=6,
        prefs=QUIET,
    )
    parked(st, 1, 60, card="speed1")
    st, _ = round_(st, {0: ["g08", "stress"]})  # Stress flips a 4 first; then 1 (not 3) stays before corner 2
    assert car(st, 0)["pos"] == 32 and len(car(st, 0)["engine"]) == 6


def test_upgrade_heat_is_paid_in_react():
    st = drafted()
    setcar(st, 0, pos=20, lane=2, gear=1, hand=["g07"] + ["speed1"] * 6, deck=["speed1"] * 9, engine=3, prefs=QUIET)
    parked(st, 1, 2, card="speed1")
    st, ev = round_(st, {0: ["g07"]})
    c = car(st, 0)
    assert c["pos"] == 24 and len(c["engine"]) == 2  # Brakes 4 (nothing ahead), Heat 1 paid
    assert codes(st, c["discard"]).count("heat") == 1
    assert any("Upgrade Heat: paid 1" in en(e.text) for e in ev)


def test_unpaid_upgrade_heat_makes_it_a_stress_card():
    st = drafted()
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=3,
        hand=["g11", "speed1", "speed1"] + ["speed2"] * 4,
        deck=["start0", "speed3"] + ["speed1"] * 8,
        engine=0,
        prefs=QUIET,
    )
    parked(st, 1, 2, card="speed1")
    st, ev = round_(st, {0: ["g11", "speed1", "speed1"]})  # no Heat anywhere: the 6 becomes a flip (3)
    assert car(st, 0)["pos"] == 25 and len(car(st, 0)["engine"]) == 0
    assert any("(Heat unpaid)" in en(e.text) for e in ev)


def test_cooling_system_plays_with_an_empty_engine_when_cooldown_can_pay():
    """「クールダウンアイコンと手札にヒートカードがあれば…エンジンにヒートがない状態でもプレイできる」"""
    st = drafted()
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=1,
        hand=["g11"] + ["heat"] * 2 + ["speed1"] * 4,
        deck=["speed1"] * 9,
        engine=0,
        prefs=QUIET,
    )
    parked(st, 1, 2, card="speed1")
    st, _ = round_(st, {0: ["g11"]})  # gear 1: Cooldown 3 + card 1; 2 Heat back, then 1 paid
    c = car(st, 0)
    assert c["pos"] == 26 and len(c["engine"]) == 1 and codes(st, c["discard"]).count("heat") == 1


def test_card_cooldown_adds_to_the_gear_cooldown():
    st = drafted()
    setcar(
        st, 0, pos=20, lane=2, gear=2, hand=["g12", "speed1"] + ["heat"] * 5, deck=["speed1"] * 9, engine=0, prefs=QUIET
    )
    parked(st, 1, 2, card="speed1")
    st, _ = round_(st, {0: ["g12", "speed1"]})
    assert len(car(st, 0)["engine"]) == 3  # gear 2: 1, the card: 2


def test_reduce_stress_discards_stress_from_the_hand():
    st = drafted()
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=1,
        hand=["g04", "stress", "stress", "stress"] + ["speed1"] * 3,
        deck=["speed1"] * 9,
        engine=6,
        prefs=QUIET,
    )
    parked(st, 1, 2, card="speed1")
    st, _ = round_(st, {0: ["g04"]})
    c = car(st, 0)
    assert codes(st, c["discard"]).count("stress") == 2
    assert codes(st, c["hand"]).count("stress") == 1


def test_rpm_slipstream_bonus():
    st = drafted()
    setcar(st, 1, pos=30, lane=2, gear=1, hand=["start0"] * 7, deck=["start0"] * 9, engine=6, prefs=QUIET)
    setcar(
        st,
        0,
        pos=26,
        lane=2,
        gear=1,
        hand=["g16"] + ["speed1"] * 6,
        deck=["speed1"] * 9,
        engine=6,
        prefs={"slipstream": "ask", "adrenaline": "never", "boost": "never"},
    )
    st, _ = round_(st, {0: ["g16"], 1: ["start0"]})  # 29, right behind the car on 30
    assert st["pending"] == {"seat": 0, "type": "slipstream", "lengths": [2, 4]}
    st, _ = E.apply(st, 0, {"type": "slipstream", "take": True, "spaces": 4})
    assert car(st, 0)["pos"] == 33


# ---------------------------------------------------------------- whole races


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_random_garage_race_to_the_end(seats):
    from tests.heat.playouts import check_invariants, check_privacy

    seed = 300 + seats
    rnd = random.Random(seed)
    options = {
        "track": ["usa", "france", "great_britain", "italy", "usa"][seats - 2],
        "garage": "basic",
        "weather": seats % 2 == 0,
    }
    st = E.new_game(options, seats, seed)
    log = []
    initial = None
    while not E.is_over(st):
        seat = rnd.choice(E.to_act(st))
        acts = E.legal_actions(st, seat)
        game = [a for a in acts if a["type"] != "prefs"]
        action = rnd.choice(game if game and rnd.random() > 0.05 else acts)
        nxt, events = apply_untouched(E, st, seat, action)
        for e in events:
            render(e.text, "en")
        log.append((seat, action))
        st = nxt
        if st["phase"] != "draft":
            if initial is None:
                initial = {s: set(c["hand"] + c["deck"] + c["engine"] + c["discard"]) for s, c in enumerate(st["cars"])}
            check_invariants(st, initial)
            if len(log) % 6 == 0:
                check_privacy(st, rnd)
        assert st["round"] < 300
    from bot.games import base

    assert base.replay(E, options, seats, seed, log) == st


# ---------------------------------------------------------------- Advanced symbols


def adrafted(seats=2, seed=1):
    st = E.new_game({"track": "usa", "grid": "seats", "garage": "advanced"}, seats, seed)
    while st["phase"] == "draft":
        st, _ = E.apply(st, E.to_act(st)[0], {"type": "pick", "card": 0})
    return st


def test_advanced_and_mixed_decks():
    st = E.new_game({"track": "usa", "garage": "advanced"}, 2, 1)
    assert len(st["draft"]["deck"]) + len(st["draft"]["market"]) == 62
    assert all(content.garage()["types"][c]["tier"] == "advanced" for c in st["draft"]["deck"])
    st = E.new_game({"track": "usa", "garage": "mixed"}, 2, 1)
    assert len(st["draft"]["deck"]) + len(st["draft"]["market"]) == 96


def test_scrap_discards_from_the_top_of_the_deck():
    st = adrafted()
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=1,
        hand=["g43"] + ["speed1"] * 6,
        deck=["speed4"] * 6 + ["speed1"] * 9,
        engine=6,
        prefs=QUIET,
    )  # Turbo charger 8: Heat 1, Scrap 6
    parked(st, 1, 2, card="speed1")
    st, ev = round_(st, {0: ["g43"]})
    c = car(st, 0)
    assert c["pos"] == 28 and len(c["engine"]) == 5
    assert codes(st, c["discard"]).count("speed4") == 6  # the six 4s on top were scrapped
    assert any("Scrap: 6 cards from the deck discarded" in en(e.text) for e in ev)


def test_salvage_shuffles_the_fastest_discards_back():
    st = adrafted()
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=1,
        hand=["g22"] + ["speed1"] * 6,
        deck=["speed1"] * 9,
        discard=["speed4", "speed3", "speed1", "stress", "heat"],
        engine=6,
        prefs=QUIET,
    )  # Fuel 2: Salvage 2
    parked(st, 1, 2, card="speed1")
    st, _ = round_(st, {0: ["g22"]})
    c = car(st, 0)
    assert sorted(codes(st, c["discard"])) == ["g22", "heat", "speed1", "stress"]


def test_adjust_changes_this_cars_limits():
    st = adrafted()
    setcar(
        st,
        0,
        pos=6,
        lane=1,
        gear=2,
        hand=["g46", "speed2"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs=QUIET,
    )  # Wings 6: Heat 2, limits +3
    parked(st, 1, 40, card="speed1")
    st, _ = round_(st, {0: ["g46", "speed2"]})  # speed 8 at corner 1 (7 + 3): free; 2 Heat for the card
    assert car(st, 0)["pos"] == 14 and len(car(st, 0)["engine"]) == 4
    st = adrafted()
    setcar(
        st,
        0,
        pos=6,
        lane=1,
        gear=2,
        hand=["g36", "speed4"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs=QUIET,
    )  # Tires 2: limits -1, Cooldown 3
    parked(st, 1, 40, card="speed1")
    st, _ = round_(st, {0: ["g36", "speed4"]})  # speed 6 at corner 1 (7 - 1): free
    assert car(st, 0)["pos"] == 12
    st = adrafted()
    setcar(
        st,
        0,
        pos=7,
        lane=1,
        gear=2,
        hand=["g36", "speed4"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs=QUIET,
    )
    parked(st, 1, 40, card="speed1")
    st, _ = round_(st, {0: ["g36", "speed4"]})  # speed 6 over corner 1, now limit 6: free
    assert car(st, 0)["pos"] == 13 and len(car(st, 0)["engine"]) == 6


def test_direct_play_from_the_hand_in_react():
    st = adrafted()
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=1,
        hand=["speed2", "g26"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs={**QUIET, "direct": "always"},
    )  # Gas pedal 3: direct, Scrap 3
    parked(st, 1, 2, card="speed1")
    st, ev = round_(st, {0: ["speed2"]})
    c = car(st, 0)
    assert c["pos"] == 25 and E.view(st, None)["cars"][0]["speed"] == 5  # 2 + 3 from the hand
    assert "g26" in codes(st, c["discard"])
    assert any("Direct play: Gas pedal 3 +3" in en(e.text) for e in ev)
    st = adrafted()
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=1,
        hand=["speed2", "g26"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs={**QUIET, "direct": "never"},
    )
    parked(st, 1, 2, card="speed1")
    st, _ = round_(st, {0: ["speed2"]})
    assert car(st, 0)["pos"] == 22 and "g26" in codes(st, car(st, 0)["hand"])


def test_smart_direct_play_declines_corner_heat():
    st = adrafted()
    setcar(
        st,
        0,
        pos=28,
        lane=2,
        gear=1,
        hand=["speed4", "g26"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs=QUIET,
    )  # default smart: +3 would cross corner 2 (limit 3) at 7
    parked(st, 1, 2, card="speed1")
    st, _ = round_(st, {0: ["speed4"]})
    assert car(st, 0)["pos"] == 32 and "g26" in codes(st, car(st, 0)["hand"])


def test_accelerate_per_plus_symbol():
    st = adrafted()
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=2,
        hand=["g47", "stress"] + ["speed1"] * 5,
        deck=["speed2", "speed3"] + ["speed1"] * 8,
        engine=6,
        prefs={**QUIET, "accelerate": "always"},
    )
    parked(st, 1, 2, card="speed1")  # 4 wheel drive 0: +1, Accelerate 1; with the Stress: two "+" -> +2
    st, ev = round_(st, {0: ["g47", "stress"]})
    assert car(st, 0)["pos"] == 20 + 2 + 3 + 2
    assert any("Accelerate +2" in en(e.text) for e in ev)


def test_garage_preferences_gathered_in_one_select_after_the_cards():
    # Issue #33: nine preference buttons (two rows) and two selects made the DM a wall of
    # settings; the preferences are one select after the cards', each option a new value with the
    # current one said once ("Boost → Always", "Now: Never").
    st = adrafted()
    for c in st["cars"]:
        c["prefs"] = {}
    menu = E.menu(st, 0)
    assert not any(g["kind"] == "buttons" for g in menu)
    selects = [g for g in menu if g["kind"] == "select"]
    assert [render(g["placeholder"], "en") for g in selects][-1] == "Preferences: pick one to change it"
    assert "plans" in render(selects[0]["placeholder"], "en")  # the cards first
    prefs = selects[-1]
    labels = [render(o["label"], "en") for o in prefs["options"]]
    assert len(prefs["options"]) <= 25 and len(set(labels)) == len(labels)
    assert "Boost → Always" in labels and "Boost → Never" not in labels  # never: the current one
    boost = next(o for o in prefs["options"] if render(o["label"], "en") == "Boost → Always")
    assert render(boost["description"], "en") == "Now: Never"
    st2, ev = E.apply(st, 0, dict(prefs["action"], values=[boost["value"]]))
    assert st2["cars"][0]["prefs"]["boost"] == "always" and st["cars"][0]["prefs"] == {}
    assert en(ev[0].text) == "Preferences set: Boost: Always."
    for bad in (["boost=sometimes"], ["nothing"], ["speed=fast"]):  # bad input: an answer, no change
        with pytest.raises(GameError):
            E.apply(st, 0, dict(prefs["action"], values=bad))
    # Base races keep their six buttons.
    base = E.new_game({"track": "usa"}, 2, 1)
    assert sum(len(g["options"]) for g in E.menu(base, 0) if g["kind"] == "buttons") == 6


def test_refresh_puts_the_card_back_on_the_deck():
    st = adrafted()
    setcar(
        st, 0, pos=20, lane=2, gear=1, hand=["g34"] + ["speed1"] * 6, deck=["speed2"] * 9, engine=6, prefs=QUIET
    )  # Suspension 4: Refresh
    parked(st, 1, 2, card="speed1")
    st, _ = round_(st, {0: ["g34"]})
    c = car(st, 0)
    assert "g34" in codes(st, c["hand"]) and "g34" not in codes(st, c["discard"])


def test_garage_preferences_only_in_garage_games():
    st = adrafted()
    prefs = next(g for g in E.menu(st, 0) if g.get("action") == {"type": "prefs"})
    now = {render(o["label"], "en").split(" → ")[0]: render(o["description"], "en") for o in prefs["options"]}
    assert now["Direct play"] == now["Accelerate"] == "Now: Smart"
    base = E.new_game({"track": "usa"}, 2, 1)
    with pytest.raises(GameError):
        E.apply(base, 0, {"type": "prefs", "direct": "never"})


@pytest.mark.parametrize("deck,seats", [("advanced", 2), ("mixed", 4), ("advanced", 6), ("mixed", 3)])
def test_random_advanced_race_to_the_end(deck, seats):
    from bot.games import base
    from tests.heat.playouts import check_invariants

    seed = 900 + seats
    rnd = random.Random(seed)
    options = {"track": "france", "garage": deck, "weather": seats > 3}
    st = E.new_game(options, seats, seed)
    log, initial = [], None
    while not E.is_over(st):
        seat = rnd.choice(E.to_act(st))
        acts = E.legal_actions(st, seat)
        game = [a for a in acts if a["type"] != "prefs"]
        action = rnd.choice(game if game and rnd.random() > 0.08 else acts)
        st, _ = E.apply(st, seat, action)
        log.append((seat, action))
        if st["phase"] != "draft":
            if initial is None:
                initial = {s: set(c["hand"] + c["deck"] + c["engine"] + c["discard"]) for s, c in enumerate(st["cars"])}
            check_invariants(st, initial)
        assert st["round"] < 300
    assert base.replay(E, options, seats, seed, log) == st


def test_accelerate_counts_played_plus_icons_not_the_heat_boost():
    """「このターンに引いた枚数」…「プレイした「+」アイコンの数に等しい」: the Boost paid with Heat
    in step 5 is not a played icon."""
    st = adrafted()
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=1,
        hand=["g47"] + ["speed1"] * 6,
        deck=["speed2", "speed3"] + ["speed1"] * 8,
        engine=6,
        prefs={**QUIET, "accelerate": "always", "boost": "always"},
    )
    parked(st, 1, 2, card="speed1")
    st, ev = round_(st, {0: ["g47"]})  # + flips 2, the Heat boost flips 3, Accelerate +1 (one icon)
    assert car(st, 0)["pos"] == 20 + 2 + 3 + 1


def test_upgrade_cards_of_one_family_and_speed_are_told_apart_by_a_symbol():
    from bot.games.heat.content import cards as card_types

    labels = [t["label"] for t in card_types()["types"].values() if t["kind"] == "upgrade"]
    assert len(labels) == len(set(labels))
    assert card_types()["types"]["g19"]["label"] == "Body 2 · Cooldown 1"
    assert card_types()["types"]["g20"]["label"] == "Body 2 · Slipstream +1"
    assert card_types()["types"]["g21"]["label"].count("·") == 0  # a card without a twin keeps its name
