"""Issue #11: "Ask me" for the Garage cards with a choice of speed (preference "choice": auto |
ask). The seed: 「ブースト→ストレス→選択肢のある改良カードの値を選ぶ」 — the value is picked after
the flips, so with "ask" the player sees them first; asked only when the choice can make more
than one total speed. USA: corner lines after 12 (limit 7), 33 (3)."""

from __future__ import annotations

import json
import random

import pytest

from bot.games.base import GameError
from bot.games.heat import ENGINE as E
from bot.games.heat import resolve, rules
from tests.heat.helpers import QUIET, car, en, parked, round_, setcar
from tests.heat.championships import drafted
from tests.heat.playouts import check_privacy

ASK = {**QUIET, "choice": "ask"}


def test_the_preference_exists_only_in_garage_games_and_defaults_to_auto():
    st = drafted()
    assert st["cars"][0]["prefs"]["choice"] == "auto"
    assert E.view(st, 0)["me"]["prefs"]["choice"] == "auto"
    prefs = next(g for g in E.menu(st, 0) if g.get("action") == {"type": "prefs"})
    assert {en(o["label"]): en(o["description"]) for o in prefs["options"]}["Choice of speed → Ask me"] == "Now: Auto"
    base = E.new_game({"track": "usa"}, 2, 1)
    assert "choice" not in base["cars"][0]["prefs"]
    with pytest.raises(GameError):
        E.apply(base, 0, {"type": "prefs", "choice": "ask"})


def test_ask_pauses_after_the_flips_and_offers_each_total_with_its_outcome():
    st = drafted()
    setcar(
        st, 0, pos=27, lane=2, gear=2, hand=["g08", "stress"] + ["speed1"] * 5, deck=["speed4"] * 9, engine=6, prefs=ASK
    )
    parked(st, 1, 60, card="speed1")
    st, ev = round_(st, {0: ["g08", "stress"]})  # Stress flips a 4 first; then Brakes 1/3
    assert st["phase"] == "decide" and E.to_act(st) == [0]
    p = st["pending"]
    assert p["type"] == "choice" and p["base"] == 4
    # 4+1 = 5: space 32, before corner 2; 4+3 = 7: across corner 2 (limit 3) for 4 Heat
    assert p["options"] == [[5, 32, 0, False, False], [7, 34, 4, False, False]]
    assert car(st, 0)["pos"] == 27  # not moved yet
    assert E.legal_actions(st, 0)[:2] == [{"type": "choice", "speed": 5}, {"type": "choice", "speed": 7}]
    menu = E.menu(st, 0)
    sel = menu[0]
    assert sel["kind"] == "select" and sel["action"] == {"type": "choice"}
    assert [en(o["label"]) for o in sel["options"]] == ["Speed 5: to space 32", "Speed 7: to space 34, corner Heat 4"]
    prompt = en(E.view(st, 0)["me"]["decision"]["prompt"])
    assert "your other cards make 4" in prompt and "5 to 7" in prompt
    assert "Waiting for" in " ".join(en(e.text) for e in ev)
    assert json.loads(json.dumps(st)) == st
    with pytest.raises(GameError):
        E.apply(st, 0, {"type": "choice", "speed": 6})
    with pytest.raises(GameError):
        E.apply(st, 1, {"type": "choice", "speed": 7})
    before = json.dumps(st, sort_keys=True)
    nxt, ev = E.apply(st, 0, {"type": "choice", "values": ["7"]})  # the select's answer
    assert json.dumps(st, sort_keys=True) == before  # apply never changes its input
    assert car(nxt, 0)["pos"] == 34 and len(car(nxt, 0)["engine"]) == 2  # paid 4 Heat at corner 2
    assert "Brakes 1/3 = 3" in en(E.view(nxt, None)["cars"][0]["revealed"])
    assert any("Gear 2: Brakes 1/3 = 3 + Stress → 4 = speed 7" in en(e.text) for e in ev)
    assert nxt["phase"] == "submit" and "gwait" not in car(nxt, 0)["rd"]


def test_auto_is_the_same_choice_as_before():
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
    st, _ = round_(st, {0: ["g08", "stress"]})
    assert st["phase"] == "submit" and car(st, 0)["pos"] == 32


def test_switching_to_auto_while_asked_goes_on_with_the_automatic_choice():
    st = drafted()
    setcar(
        st, 0, pos=27, lane=2, gear=2, hand=["g08", "stress"] + ["speed1"] * 5, deck=["speed4"] * 9, engine=6, prefs=ASK
    )
    parked(st, 1, 60, card="speed1")
    st, _ = round_(st, {0: ["g08", "stress"]})
    assert st["pending"]["type"] == "choice"
    st, _ = E.apply(st, 0, {"type": "prefs", "choice": "auto"})
    assert st["phase"] == "submit" and car(st, 0)["pos"] == 32


def test_not_asked_when_every_choice_makes_the_same_total():
    """A card whose choices cannot change the total (one value left: none in the decks, so a
    test card) is not asked about; nor is a round without a choice card."""
    st = drafted()
    setcar(
        st,
        0,
        pos=20,
        lane=2,
        gear=2,
        hand=["speed2", "speed3"] + ["speed1"] * 5,
        deck=["speed1"] * 9,
        engine=6,
        prefs=ASK,
    )
    parked(st, 1, 60, card="speed1")
    st, _ = round_(st, {0: ["speed2", "speed3"]})
    assert st["phase"] == "submit" and car(st, 0)["pos"] == 25
    assert resolve._products([(1, 3), (3, 1)]) and len({sum(c) for c in resolve._products([(2,), (4,)])}) == 1


def test_two_choice_cards_offer_distinct_totals_only():
    st = drafted()
    setcar(st, 0, pos=1, lane=2, gear=2, hand=["g08", "g09"] + ["speed1"] * 5, deck=["speed1"] * 9, engine=6, prefs=ASK)
    parked(st, 1, 60, card="speed1")
    st, _ = round_(st, {0: ["g08", "g09"]})  # 1/3 + 2/4: 3, 5 (twice), 7
    assert [o[0] for o in st["pending"]["options"]] == [3, 5, 7]
    st, _ = E.apply(st, 0, {"type": "choice", "speed": 5})
    assert car(st, 0)["pos"] == 6
    assert E.view(st, None)["cars"][0]["speed"] == 5


def test_a_spin_and_the_finish_show_in_the_options():
    st = drafted()
    setcar(st, 0, pos=30, lane=2, gear=1, hand=["g10"] + ["speed1"] * 6, deck=["speed1"] * 9, engine=1, prefs=ASK)
    parked(st, 1, 60, card="speed1")
    st, _ = round_(st, {0: ["g10"]})  # 1: space 31; 5: across corner 2 (limit 3) needs 2 Heat, 1 in the Engine
    opts = st["pending"]["options"]
    assert opts == [[1, 31, 0, False, False], [5, 35, 2, True, False]]
    labels = [en(o["label"]) for o in E.menu(st, 0)[0]["options"]]
    assert labels[1] == "Speed 5: to space 35, a spin at a corner (Heat 2 needed)"
    tr = rules.track_of(st)
    st2 = drafted()
    setcar(
        st2,
        0,
        pos=tr.finish - 2,
        lane=2,
        gear=1,
        hand=["g10"] + ["speed1"] * 6,
        deck=["speed1"] * 9,
        engine=6,
        prefs=ASK,
    )
    parked(st2, 1, 60, card="speed1")
    st2, _ = round_(st2, {0: ["g10"]})
    assert st2["pending"]["options"][-1][4] is True
    assert en(E.menu(st2, 0)[0]["options"][-1]["label"]) == "Speed 5: across the finish line"


@pytest.mark.parametrize("seed", range(4))
def test_random_garage_races_with_ask_everywhere(seed):
    """Every preference "ask" (choice included): races end, every pause offers a legal answer."""
    rnd = random.Random(seed)
    st = E.new_game({"track": ("usa", "italy")[seed % 2], "garage": "mixed"}, 3, seed)
    asked = 0
    while not E.is_over(st):
        seat = rnd.choice(E.to_act(st))
        if st["phase"] == "submit" and st["cars"][seat]["prefs"].get("choice") != "ask":
            st, _ = E.apply(st, seat, {"type": "prefs", "choice": "ask", "boost": "ask"})
            continue
        acts = [a for a in E.legal_actions(st, seat) if a["type"] != "prefs"]
        if st["phase"] == "draft":  # everyone drafts one card with a choice of speed (Brakes) each round
            st["draft"]["market"][0] = ("g07", "g08", "g09", "g10")[(st["draft"]["round"] + seat) % 4]
            acts = [{"type": "pick", "card": 0}]
        if st["pending"] and st["pending"]["type"] == "choice":
            asked += 1
            check_privacy(st, rnd)  # the pause shows nothing of the other seats' cards
            assert acts and all(a["type"] == "choice" for a in acts)
            assert E.describe_action(st, seat, acts[0])
        st, _ = E.apply(st, seat, rnd.choice(acts))
        assert st["round"] < 300
    assert asked


def test_the_automatic_player_of_an_absent_seat_answers_like_auto():
    st = drafted()
    setcar(
        st, 0, pos=27, lane=2, gear=2, hand=["g08", "stress"] + ["speed1"] * 5, deck=["speed4"] * 9, engine=6, prefs=ASK
    )
    parked(st, 1, 60, card="speed1")
    st, _ = round_(st, {0: ["g08", "stress"]})
    assert E.auto_action(st, 0) == {"type": "choice", "speed": 5}  # 7 would cost 4 corner Heat
    st, _ = E.apply(st, 0, E.auto_action(st, 0))
    assert car(st, 0)["pos"] == 32


def test_describe_a_choice_and_odd_ones():
    st = drafted()
    assert en(E.describe_action(st, 0, {"type": "choice", "speed": 7})) == "Choice of speed: 7"
    assert en(E.describe_action(st, 0, {"type": "choice", "values": ["5"]})) == "Choice of speed: 5"
    for odd in ({"type": "choice"}, {"type": "choice", "values": ["x"]}, {"type": "choice", "speed": [1]}):
        assert en(E.describe_action(st, 0, odd)) == "Unknown action"
        with pytest.raises(GameError):
            E.apply(st, 0, odd)
