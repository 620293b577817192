"""Every designed card: each course effect and each racing card's event does what its text says."""

from __future__ import annotations

import json

import pytest

from bot.games.base import GameError
from bot.games.pon import ENGINE as E
from bot.games.pon.content import CARDS
from tests.pon.helpers import C, act, arrange, cards, en, hand_names, names, plain, play, texts

NEVER = {"pon": {n: "never" for n in "1234"}}
ASK_BLOCK = {"block": "ask", **NEVER}
QUIET = {s: NEVER for s in range(3)}
TESTED: set[str] = set()


def covers(*card_names: str):
    TESTED.update(card_names)
    return card_names


def covering(*card_names: str):
    """Decorator: this test checks these cards' effects (recorded at import time)."""
    covers(*card_names)
    return lambda fn: fn


def event(st, seat, name):
    return act(st, seat, {"type": "event", "card": C(name)})


# -- course effects -------------------------------------------------------------------------------


@covering("Hairpin")
def test_hairpin_blocks_need_one_extra_card_except_the_leaders():
    st, ev = arrange(
        circuit={0: "Hairpin"},
        throttles={0: ["Slick Tyres"]},
        effect=True,
        hands={0: ["Dive Bomb", "Scavenge", "Grip"], 1: ["Tow", "Draft"], 2: ["Pit Stop", "Fuel Save"]},
        prefs={0: ASK_BLOCK, 1: NEVER, 2: NEVER},
    )
    assert "Course effect — Hairpin" in texts(ev)
    st, _ = play(st, 0, "Grip")
    st, _ = play(st, 1, "Tow")  # attacks the leader: the usual one card
    assert E.view(st, None)["overtake"]["cards_needed"] == 1
    st, _ = act(st, 0, {"type": "yield"})
    assert st["order"] == [1, 0, 2]
    st, _ = play(st, 2, "Pit Stop")  # attacks seat 0, now second: two cards
    assert E.view(st, None)["overtake"]["cards_needed"] == 2
    blocks = [a["cards"] for a in E.legal_actions(st, 0) if a["type"] == "block"]
    assert len(blocks) == 3 and all(len(b) == 2 for b in blocks)


@covering("Blind Crest")
def test_blind_crest_turns_up_the_next_face_down_course():
    st, ev = arrange(
        circuit={0: "Blind Crest"},
        face_down=[0, 3, 5],
        throttles={0: ["Draft"]},
        effect=True,
        hands={0: ["Grip"], 1: ["Tow"], 2: ["Covering"]},
    )
    assert st["face_up"][3] and not st["face_up"][5]
    assert E.view(st, None)["courses"][3]["name"] is not None


@covering("Last Corner")
def test_last_corner_reverses_the_order_of_main_phases():
    st, _ = arrange(
        order=[1, 0, 2],
        circuit={0: "Last Corner"},
        throttles={0: ["Draft"]},
        effect=True,
        hands={0: ["Grip"], 1: ["Tow"], 2: ["Covering"]},
    )
    assert st["turn_order"] == [2, 0, 1] and E.to_act(st) == [2]


@covering("Chicane")
def test_chicane_forbids_pon():
    st, _ = arrange(
        circuit={0: "Chicane"},
        throttles={0: ["Draft"]},
        effect=True,
        hands={0: ["Scavenge", "Grip"], 1: ["Slingshot", "Switchback", "Tow"], 2: ["Covering"]},
        prefs={2: {"pon": {"3": "ask"}}},
    )
    st, ev = play(st, 0, "Scavenge")
    assert "PON" not in texts(ev) and st["pon"][1] == [] and E.to_act(st) == [1]


@covering("Pit Entry")
def test_pit_entry_last_place_takes_the_top_two_discards():
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Pit Entry"},
        throttles={0: ["Draft"]},
        effect=True,
        discard=["Tow", "Covering", "Grip"],
        hands={0: ["Pit Stop"], 1: ["Send It"], 2: ["Spotter"]},
    )
    assert hand_names(st, 2) == {"Spotter", "Covering", "Grip"} and names(st["discard"]) == ["Tow"]


@covering("Esses")
def test_esses_hand_limit_four_this_turn():
    five = ["Tow", "Dive Bomb", "Scavenge", "Grip", "Lucky Break"]
    st, ev = arrange(
        circuit={0: "Esses"},
        throttles={0: ["Draft"]},
        effect=True,
        hands={0: five, 1: ["Slingshot", "Switchback", "Hold the Line", "Sideswipe", "Recon Lap"], 2: ["Covering"]},
        prefs={0: NEVER, 1: {"discard": "ask", **NEVER}, 2: NEVER},
    )
    assert len(st["hands"][0]) == 4  # auto
    assert E.to_act(st) == [1] and len(st["hands"][1]) == 5  # asked
    st, _ = act(st, 1, {"type": "discard", "card": C("Recon Lap")})
    assert len(st["hands"][1]) == 4 and E.to_act(st) == [0]
    # gains this turn are capped at 4 too: play, then take the throttle card (4 -> 3 -> 4)
    st, _ = act(st, 0, {"type": "play", "card": st["hands"][0][0]})
    assert len(st["hands"][0]) == 4


@covering("Tunnel")
def test_tunnel_no_slipstream():
    st, ev = arrange(
        circuit={0: "Tunnel"},
        throttles={0: ["Slick Tyres"]},
        effect=True,
        discard=["Tow"],
        hands={0: ["Dive Bomb"], 1: ["Fuel Save", "Grip"], 2: ["Covering"]},
        prefs=QUIET,
    )
    st, _ = play(st, 0, "Dive Bomb")
    st, ev = play(st, 1, "Fuel Save")  # matches the 2 now in the throttle, but no slipstream here
    assert "slipstream" not in texts(ev) and names(st["discard"]) == ["Tow"]


@covering("Grandstand")
def test_grandstand_leader_discards_a_random_card():
    st, ev = arrange(
        order=[2, 0, 1],
        circuit={0: "Grandstand"},
        throttles={0: ["Draft"]},
        effect=True,
        hands={0: ["Tow"], 1: ["Covering"], 2: ["Grip", "Scavenge", "Lucky Break"]},
    )
    assert len(st["hands"][2]) == 2 and len(st["discard"]) == 1
    assert names(st["discard"])[0] in {"Grip", "Scavenge", "Lucky Break"}
    assert "P3 discards" in texts(ev)


@covering("Carousel")
def test_carousel_blocks_need_one_card_fewer():
    st, _ = arrange(
        circuit={0: "Carousel"},
        throttles={0: ["Slick Tyres"]},
        effect=True,
        hands={0: ["Dive Bomb", "Grip"], 1: ["Scavenge", "Draft"], 2: ["Covering"]},
        prefs=QUIET,
    )
    st, _ = play(st, 0, "Grip")
    hand0 = sorted(st["hands"][0])
    st, ev = play(st, 1, "Scavenge")
    assert "P1 blocks P2 without a card." in texts(ev) and sorted(st["hands"][0]) == hand0


@covering("Back Straight")
def test_back_straight_slipstream_one_off():
    st, _ = arrange(
        circuit={0: "Back Straight"},
        throttles={0: ["Slick Tyres"]},
        effect=True,
        discard=["Tow", "Pit Stop"],
        hands={0: ["Dive Bomb"], 1: ["Scavenge", "Grip"], 2: ["Covering"]},
        prefs=QUIET,
    )
    st, _ = play(st, 0, "Dive Bomb")
    st, ev = play(st, 1, "Scavenge")  # 3 is one off the 2 in the throttle
    assert "P2 gets a slipstream." in texts(ev) and st["phase"] == "slip"
    st2, _ = arrange(
        circuit={0: "Back Straight"},
        throttles={0: ["Slick Tyres"]},
        effect=True,
        discard=["Tow", "Pit Stop"],
        hands={0: ["Dive Bomb"], 1: ["Grip", "Scavenge"], 2: ["Covering"]},
        prefs=QUIET,
    )
    st2, _ = play(st2, 0, "Dive Bomb")
    st2, ev = play(st2, 1, "Grip")  # 4 is two off: no slipstream
    assert "slipstream" not in texts(ev)


@covering("Main Straight")
def test_main_straight_top_two_discards_into_the_throttle():
    st, _ = arrange(
        circuit={0: "Main Straight"},
        throttles={0: ["Draft"]},
        effect=True,
        discard=["Tow", "Covering", "Grip"],
        hands={0: ["Pit Stop"], 1: ["Send It"], 2: ["Spotter"]},
    )
    assert names(st["throttles"][0]) == ["Draft", "Grip", "Covering"] and names(st["discard"]) == ["Tow"]


@covering("Wet Patch")
def test_wet_patch_every_pon_set_loses_a_card():
    st, _ = arrange(
        circuit={0: "Wet Patch"},
        throttles={0: ["Draft"]},
        effect=True,
        pon={1: [["Scavenge", "Slingshot", "Switchback"]], 2: [["Tow"]]},
        hands={0: ["Pit Stop"], 1: ["Send It"], 2: ["Spotter"]},
    )
    assert [len(s) for s in st["pon"][1]] == [2] and st["pon"][2] == []
    assert {"Switchback", "Tow"} <= set(names(st["discard"]))


# -- events -------------------------------------------------------------------------------------


def second_place(hand1, course="Tunnel", throttle=("Slick Tyres",), discard=(), defender=("Push to Pass",), **kw):
    """Seat 1 (2nd) acts first on a course; seat 0 (1st) defends on "ask"."""
    return arrange(
        order=[0, 1, 2],
        turn_order=[1, 0, 2],
        circuit={0: course},
        throttles={0: list(throttle)},
        discard=list(discard),
        hands={0: list(defender), 1: list(hand1), 2: ["Covering"]},
        prefs={0: ASK_BLOCK, 1: NEVER, 2: NEVER},
        **kw,
    )


@pytest.mark.parametrize("name", covers("Late Braking", "Switchback", "Inside Line"))
def test_line_events_one_off_counts_as_the_course_number(name):
    st, _ = second_place([name, "Dive Bomb", "Tow"], defender=("Lucky Break",))
    st, _ = event(st, 1, name)
    st, ev = play(st, 1, "Dive Bomb")  # 2 on a 3 course
    assert "P2 attacks P1!" in texts(ev) and st["phase"] == "block"
    st, _ = second_place([name, "Dive Bomb", "Tow"], defender=("Lucky Break",))
    st, _ = event(st, 1, name)
    st, ev = play(st, 1, "Tow")  # 1 is two off: no overtake
    assert "attacks" not in texts(ev)


@covering("Dive Bomb")
def test_dive_bomb_any_card_counts_as_the_course_number():
    st, _ = second_place(["Dive Bomb", "Tow"], defender=("Lucky Break",))
    st, _ = event(st, 1, "Dive Bomb")
    st, ev = play(st, 1, "Tow")  # a 1 on a 3 course
    assert "P2 attacks P1!" in texts(ev)


def test_line_event_used_by_the_leader_gives_the_block_right():
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Tunnel"},
        throttles={0: ["Slick Tyres"]},
        hands={0: ["Late Braking", "Dive Bomb"], 1: ["Covering"], 2: ["Grip"]},
        prefs=QUIET,
    )
    st, _ = event(st, 0, "Late Braking")
    st, ev = play(st, 0, "Dive Bomb")
    assert "block right" in texts(ev)


@pytest.mark.parametrize("name", covers("Tow", "Fuel Save", "Scavenge", "Lucky Break"))
def test_take_discard_events(name):
    st, _ = second_place([name, "Grip"], discard=("Pit Stop", "Spotter", "Brake Test"), course="Blind Crest")
    st, _ = event(st, 1, name)
    assert st["phase"] == "pick" and E.to_act(st) == [1]
    offered = sorted(a["card"] for a in E.legal_actions(st, 1))
    assert offered == sorted(st["discard"])
    st, ev = act(st, 1, {"type": "pick", "card": C("Pit Stop")})
    assert "Pit Stop" in hand_names(st, 1) and name in names(st["throttles"][0])
    assert st["phase"] == "play" and E.to_act(st) == [1]


@pytest.mark.parametrize("name", covers("Defensive Line", "Covering", "Hold the Line"))
def test_shield_events_next_block_needs_one_card_fewer(name):
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Back Straight"},
        throttles={0: ["Slick Tyres"]},
        hands={0: [name, "Tow"], 1: ["Lucky Break", "Pit Stop"], 2: ["Spotter"]},
        prefs=QUIET,
    )
    st, _ = event(st, 0, name)
    st, _ = play(st, 0, "Tow")
    st, _ = act(st, 0, {"type": "take", "card": C(name)})  # the event card may be taken back
    before = sorted(st["hands"][0])
    st, ev = play(st, 1, "Lucky Break")
    assert "P1 blocks P2 without a card." in texts(ev)
    assert sorted(st["hands"][0]) == before


@pytest.mark.parametrize("name", covers("Pace Notes", "Recon Lap"))
def test_peek_events_show_a_face_down_course_to_the_user_only(name):
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest", 5: "Wet Patch", 7: "Esses"},
        face_down=[5, 7],
        throttles={0: ["Draft"]},
        hands={0: [name, "Grip"], 1: ["Covering"], 2: ["Spotter"]},
        prefs=QUIET,
    )
    st, _ = event(st, 0, name)
    assert sorted(a["course"] for a in E.legal_actions(st, 0)) == [5, 7]
    st, ev = act(st, 0, {"type": "pick", "course": 7})
    assert "P1 looks at course 8." in texts(ev)
    assert any("Esses" in en(e.text) for e in ev if e.to == 0)
    assert all("Esses" not in en(e.text) for e in ev if e.to != 0)
    assert [en(p["name"]) for p in E.view(st, 0)["me"]["peeked"]] == ["Esses"]
    for viewer in (None, 1, 2):
        assert "Esses" not in json.dumps(plain(E.view(st, viewer)))


@pytest.mark.parametrize("name", covers("Send It", "Sideswipe", "Push to Pass"))
def test_attack_boost_events_blocking_needs_an_extra_card(name):
    st, _ = second_place([name, "Lucky Break"], course="Back Straight", defender=("Grip", "Tow", "Dive Bomb"))
    st, _ = event(st, 1, name)
    st, _ = play(st, 1, "Lucky Break")
    assert E.view(st, None)["overtake"]["cards_needed"] == 2
    assert all(len(a["cards"]) == 2 for a in E.legal_actions(st, 0) if a["type"] == "block")


@covering("Pit Stop")
def test_pit_stop_takes_another_card_from_this_throttle():
    st, _ = second_place(["Pit Stop", "Grip"], throttle=("Draft", "Fuel Save"), course="Blind Crest")
    st, _ = event(st, 1, "Pit Stop")
    assert sorted(a["card"] for a in E.legal_actions(st, 1)) == sorted(cards("Draft", "Fuel Save"))
    st, _ = act(st, 1, {"type": "pick", "card": C("Fuel Save")})
    assert "Fuel Save" in hand_names(st, 1) and names(st["throttles"][0]) == ["Draft", "Pit Stop"]


@covering("Pit Board")
def test_pit_board_takes_a_card_from_the_next_throttle():
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Slick Tyres"], 1: ["Lucky Break", "Draft"]},
        hands={0: ["Pit Board", "Grip"], 1: ["Covering"], 2: ["Spotter"]},
        prefs=QUIET,
    )
    st, _ = event(st, 0, "Pit Board")
    st, _ = act(st, 0, {"type": "pick", "card": C("Draft")})
    assert "Draft" in hand_names(st, 0) and names(st["throttles"][1]) == ["Lucky Break"]
    assert names(st["throttles"][0]) == ["Slick Tyres", "Pit Board"]


@pytest.mark.parametrize("name", covers("Slick Tyres", "Grip"))
def test_pon_hold_events_skip_the_end_of_turn_decay(name):
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Draft"]},
        hands={0: [name, "Lucky Break"], 1: ["Covering"], 2: ["Spotter"]},
        pon={0: [["Scavenge", "Slingshot", "Switchback"]], 1: [["Dive Bomb", "Fuel Save", "Dirty Air"]]},
        prefs=QUIET,
    )
    st, _ = event(st, 0, name)
    st, _ = play(st, 0, "Lucky Break")
    st, _ = act(st, 0, {"type": "take", "card": C("Draft")})
    for seat, card in ((1, "Covering"), (2, "Spotter")):
        st, _ = play(st, seat, card)
        if st["phase"] == "take":
            st, _ = act(st, seat, E.legal_actions(st, seat)[0])
    assert st["current"] == 1
    assert [len(s) for s in st["pon"][0]] == [3] and [len(s) for s in st["pon"][1]] == [2]


@pytest.mark.parametrize("name", covers("Draft", "Slingshot", "Tailgate"))
def test_slip_any_events_slipstream_whatever_the_number(name):
    st, _ = second_place(
        [name, "Lucky Break"], course="Blind Crest", throttle=("Slick Tyres",), discard=("Pit Stop", "Brake Test")
    )
    st, _ = event(st, 1, name)
    st, ev = play(st, 1, "Lucky Break")  # a 4, nothing like it in the throttle
    assert "P2 gets a slipstream." in texts(ev) and st["phase"] == "slip"


@pytest.mark.parametrize("name", covers("Dirty Air", "Brake Test"))
def test_leader_discard_events(name):
    st, _ = second_place([name, "Lucky Break"], course="Blind Crest", defender=("Tow", "Send It", "Scavenge"))
    st, ev = event(st, 1, name)
    assert len(st["hands"][0]) == 2 and "P1 discards" in texts(ev)
    # not usable when you lead
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Draft"]},
        hands={0: [name, "Grip" if name != "Grip" else "Tow"], 1: ["Covering"], 2: ["Spotter"]},
        prefs=QUIET,
    )
    assert {"type": "event", "card": C(name)} not in E.legal_actions(st, 0)
    with pytest.raises(GameError):
        event(st, 0, name)


@covering("Spotter")
def test_spotter_turns_up_the_next_face_down_course():
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        face_down=[4, 6],
        throttles={0: ["Draft"]},
        hands={0: ["Spotter", "Grip"], 1: ["Covering"], 2: ["Tow"]},
        prefs=QUIET,
    )
    st, ev = event(st, 0, "Spotter")
    assert st["face_up"][4] and not st["face_up"][6] and "Course 5 is turned up" in texts(ev)


@covering("Tyre Warmers")
def test_tyre_warmers_adds_a_card_to_a_pon_set():
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Draft"]},
        hands={0: ["Tyre Warmers", "Recon Lap", "Grip"], 1: ["Covering"], 2: ["Tow"]},
        pon={0: [["Scavenge", "Slingshot"]]},
        prefs=QUIET,
    )
    st, ev = event(st, 0, "Tyre Warmers")  # only Recon Lap fits: added without asking
    assert sorted(names(st["pon"][0][0])) == sorted(["Scavenge", "Slingshot", "Recon Lap"])
    assert hand_names(st, 0) == {"Grip"}
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Draft"]},
        hands={0: ["Tyre Warmers", "Grip"], 1: ["Covering"], 2: ["Tow"]},
        pon={0: [["Scavenge", "Slingshot"]]},
        prefs=QUIET,
    )
    assert {"type": "event", "card": C("Tyre Warmers")} not in E.legal_actions(st, 0)


@covering("Shortcut")
def test_shortcut_swaps_a_hand_card_into_the_next_face_down_course():
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest", 3: "Wet Patch"},
        face_down=[3, 6],
        known={2: [3]},
        throttles={0: ["Draft"]},
        hands={0: ["Shortcut", "Scavenge", "Grip"], 1: ["Covering"], 2: ["Tow"]},
        prefs=QUIET,
    )
    st, ev = event(st, 0, "Shortcut")
    st, ev = act(st, 0, {"type": "pick", "card": C("Scavenge")})
    assert st["circuit"][3] == C("Scavenge") and not st["face_up"][3]
    assert hand_names(st, 0) == {"Grip", "Wet Patch"}
    assert 3 in st["known"][0] and 3 not in st["known"][2]
    assert "Scavenge" not in texts(ev) and "Wet Patch" not in texts(ev)
    assert "Scavenge" not in json.dumps(plain(E.view(st, 1))) and "Wet Patch" not in json.dumps(plain(E.view(st, 2)))
    assert [en(p["name"]) for p in E.view(st, 0)["me"]["peeked"]] == ["Scavenge"]


def test_every_designed_card_has_an_effect_test():
    assert TESTED == {c.name for c in CARDS.values()}
