"""Asynchronous play: standing preferences, neutral PON windows, menus, labels, bad input."""

from __future__ import annotations

import copy
import json

import pytest

from bot.games.base import GameError
from bot.games.pon import ENGINE as E
from bot.games.pon.common import default_prefs
from bot.games.pon.content import CARDS
from bot.i18n import from_wire, msg, to_wire
from tests.pon.helpers import C, act, arrange, cards, en, hand_names, plain, play, texts

NEVER = {"pon": {n: "never" for n in "1234"}}


def test_default_prefs_play_without_asking():
    assert default_prefs() == {
        "pon": {"1": "auto", "2": "auto", "3": "auto", "4": "auto"},
        "block": "auto",
        "refill": "auto",
        "discard": "auto",
        "decay": "auto",
        "events": "auto",
    }
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Grip"]},
        hands={0: ["Scavenge", "Draft"], 1: ["Slingshot", "Switchback", "Tow"], 2: ["Covering"]},
    )
    st, ev = play(st, 0, "Scavenge")
    assert "PON window" not in texts(ev)
    assert "PON! P2" in texts(ev) and E.to_act(st) == [0]


def window_case(seat2_hand, prefs2):
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Grip"]},
        hands={0: ["Scavenge", "Draft"], 1: ["Tow", "Covering", "Fuel Save"], 2: seat2_hand},
        prefs={1: NEVER, 2: prefs2},
    )
    return play(st, 0, "Scavenge")


@pytest.mark.parametrize("prefs2", [{"pon": {"3": "ask"}}, {"pon": {"3": "auto"}}, {"pon": {"3": "never"}}])
def test_a_pon_window_looks_the_same_whether_or_not_a_seat_holds_a_pair(prefs2):
    """The asked seats depend only on standing prefs, never on hands."""
    a, ev_a = window_case(["Slingshot", "Switchback", "Dive Bomb"], prefs2)
    b, ev_b = window_case(["Lucky Break", "Pit Stop", "Dive Bomb"], prefs2)
    if prefs2["pon"]["3"] == "ask":
        assert E.to_act(a) == E.to_act(b) == [2]
        for viewer in (None, 0, 1):
            assert E.view(a, viewer) == E.view(b, viewer)
        assert texts(ev_a) == texts(ev_b)
        assert E.legal_actions(b, 2) == [{"type": "pon_pass"}]
        assert {"type": "pon", "cards": sorted(cards("Slingshot", "Switchback"))} in E.legal_actions(a, 2)
    else:  # resolved at once; "never" looks exactly like holding nothing
        assert E.to_act(b) == [1]
        if prefs2["pon"]["3"] == "never":
            assert E.view(a, None) == E.view(b, None) and texts(ev_a) == texts(ev_b)


def test_a_lower_placed_auto_declaration_is_never_revealed():
    def case(hand2):
        st, _ = arrange(
            order=[0, 1, 2],
            circuit={0: "Blind Crest"},
            throttles={0: ["Grip"]},
            hands={0: ["Scavenge", "Draft"], 1: ["Slingshot", "Switchback", "Tow"], 2: hand2},
        )
        return play(st, 0, "Scavenge")

    (a, ev_a), (b, ev_b) = (
        case(["Hold the Line", "Sideswipe", "Covering"]),
        case(["Lucky Break", "Pit Stop", "Covering"]),
    )
    assert "PON! P2" in texts(ev_a)
    assert texts(ev_a) == texts(ev_b) and E.view(a, None) == E.view(b, None)
    assert hand_names(a, 2) == {"Hold the Line", "Sideswipe", "Covering"}


def test_answers_can_change_until_all_are_in_and_private_answer_shown_to_its_seat_only():
    ask3 = {"pon": {"3": "ask"}}
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Grip"]},
        hands={0: ["Scavenge", "Draft"], 1: ["Slingshot", "Switchback", "Tow"], 2: ["Covering", "Fuel Save"]},
        prefs={1: ask3, 2: ask3},
    )
    st, ev = play(st, 0, "Scavenge")
    assert "PON window on the 3: waiting for P2, P3." in texts(ev)
    st, ev = act(st, 1, {"type": "pon", "cards": cards("Slingshot", "Switchback")})
    assert texts(ev) == ""  # nothing public yet
    assert E.view(st, 1)["me"]["pon_answer"] is not None and E.view(st, None).get("me") is None
    assert "pon_answer" not in json.dumps(plain(E.view(st, None))) and "Slingshot" not in json.dumps(
        plain(E.view(st, 2))
    )
    assert E.to_act(st) == [2]
    changed, _ = act(st, 1, {"type": "pon_pass"})  # seat 1 changes its mind before seat 2 answers
    changed, ev = act(changed, 2, {"type": "pon_pass"})
    assert "PON" not in texts(ev) and changed["pon"][1] == []
    st, ev = act(st, 2, {"type": "pon_pass"})
    assert "PON! P2" in texts(ev)
    with pytest.raises(GameError):  # the window is closed
        act(st, 1, {"type": "pon_pass"})


def test_switching_to_auto_during_a_window_resolves_that_seat():
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Grip"]},
        hands={0: ["Scavenge", "Draft"], 1: ["Slingshot", "Switchback", "Tow"], 2: ["Covering"]},
        prefs={1: {"pon": {"3": "ask"}}},
    )
    st, _ = play(st, 0, "Scavenge")
    assert E.to_act(st) == [1]
    st, ev = act(st, 1, {"type": "prefs", "pon": {"3": "auto"}})
    assert "PON! P2" in texts(ev) and E.to_act(st) == [0]


def test_block_ask_is_asked_even_when_it_cannot_block():
    st, _ = arrange(
        order=[0, 1, 2],
        turn_order=[1, 0, 2],
        circuit={0: "Back Straight"},
        throttles={0: ["Tow"]},
        hands={0: ["Dive Bomb"], 1: ["Inside Line", "Draft"], 2: ["Covering"]},
        pon={1: [["Switchback", "Slingshot", "Scavenge"]]},
        prefs={0: {"block": "ask"}},
    )
    st, _ = play(st, 1, "Inside Line")
    assert E.to_act(st) == [0] and E.legal_actions(st, 0) == [{"type": "yield"}]
    menu = E.menu(st, 0)
    assert any(en(o["label"]) == "Yield" for g in menu if g["kind"] == "buttons" for o in g["options"])
    st, ev = act(st, 0, {"type": "prefs", "block": "auto"})  # resolves at once (auto yields: no 3)
    assert st["order"] == [1, 0, 2]


def test_block_yield_pref_always_yields():
    st, _ = arrange(
        order=[0, 1, 2],
        turn_order=[1, 0, 2],
        circuit={0: "Back Straight"},
        throttles={0: ["Tow"]},
        hands={0: ["Dive Bomb", "Grip"], 1: ["Inside Line", "Draft"], 2: ["Covering"]},
        prefs={0: {"block": "yield"}},
    )
    st, _ = play(st, 1, "Inside Line")
    assert st["order"] == [1, 0, 2] and hand_names(st, 0) == {"Dive Bomb", "Grip"}


def test_prefs_by_select_values_and_by_dict_are_private():
    st, _ = arrange(
        circuit={0: "Blind Crest"}, throttles={0: ["Grip"]}, hands={0: ["Scavenge"], 1: ["Tow"], 2: ["Draft"]}
    )
    st, ev = act(st, 2, {"type": "prefs", "values": ["pon:4:ask"]})
    assert st["prefs"][2]["pon"]["4"] == "ask" and all(e.to == 2 for e in ev)
    st, ev = act(st, 2, {"type": "prefs", "block": "yield", "refill": "ask", "discard": "ask", "pon": {"1": "never"}})
    assert st["prefs"][2] == {
        "pon": {"1": "never", "2": "auto", "3": "auto", "4": "ask"},
        "block": "yield",
        "refill": "ask",
        "discard": "ask",
        "decay": "auto",
        "events": "auto",
    }
    st, ev = act(st, 2, {"type": "prefs", "values": ["decay:ask"]})
    st, ev = act(st, 2, {"type": "prefs", "events": "never"})
    assert (st["prefs"][2]["decay"], st["prefs"][2]["events"]) == ("ask", "never")
    assert E.view(st, 2)["me"]["prefs"]["block"] == "yield"
    assert "yield" not in json.dumps(plain(E.view(st, None)))
    for bad in (
        {"values": ["pon:5:ask"]},
        {"values": ["pon:1:maybe"]},
        {"block": "never"},
        {"values": []},
        {"values": "pon:1:ask"},
        {"pon": ["1"]},
        {"colour": "red"},
        {},
        {"refill": "yield"},
        {"decay": "never"},
        {"events": "yield"},
    ):
        with pytest.raises(GameError):
            act(st, 2, {"type": "prefs", **bad})


def test_refill_ask_asks_last_place_first():
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Draft", "Covering"]},
        hands={0: ["Scavenge"], 1: ["Recon Lap"], 2: ["Pit Board"]},
        prefs={s: {"refill": "ask", **NEVER} for s in range(3)},
    )
    for seat, name in ((0, "Scavenge"), (1, "Recon Lap"), (2, "Pit Board")):
        st, _ = play(st, seat, name)
        st, _ = act(st, seat, E.legal_actions(st, seat)[0])
    assert E.to_act(st) == [2] and {a["type"] for a in E.legal_actions(st, 2)} == {"refill"}
    st, _ = act(st, 2, E.legal_actions(st, 2)[0])
    assert E.to_act(st) == [0] or st["current"] == 1  # seat 1 got the last card automatically


GARBAGE = [
    None,
    [],
    "play",
    {},
    {"type": 3},
    {"type": "play"},
    {"type": "play", "card": "12"},
    {"type": "play", "card": True},
    {"type": "play", "card": 999},
    {"type": "play", "card": -1},
    {"type": "play", "values": ["x"]},
    {"type": "play", "values": [12]},
    {"type": "play", "card": 1.5},
    {"type": "block", "cards": "12"},
    {"type": "pon", "cards": [True, 1]},
    {"type": "warp"},
    {"type": "take", "card": None},
    {"type": "event", "card": None},
    {"type": "peek", "course": 1},
]


@pytest.mark.parametrize("action", GARBAGE)
def test_garbage_actions_raise_game_error_and_change_nothing(action):
    st, _ = arrange(
        circuit={0: "Blind Crest"}, throttles={0: ["Grip"]}, hands={0: ["Scavenge"], 1: ["Tow"], 2: ["Draft"]}
    )
    before = copy.deepcopy(st)
    with pytest.raises(GameError):
        E.apply(st, 0, action)
    assert st == before
    for seat in (-1, 3, True, "0", None):
        with pytest.raises(GameError):
            E.apply(st, seat, {"type": "play", "card": C("Scavenge")})


def test_not_your_move_and_cards_you_do_not_hold():
    st, _ = arrange(
        circuit={0: "Blind Crest"}, throttles={0: ["Grip"]}, hands={0: ["Scavenge"], 1: ["Tow"], 2: ["Draft"]}
    )
    with pytest.raises(GameError, match="not your move"):
        act(st, 1, {"type": "play", "card": C("Tow")})
    with pytest.raises(GameError) as err:
        act(st, 0, {"type": "play", "card": C("Tow")})
    assert "Tow" not in str(err.value)  # never names another seat's card


def test_menu_and_labels_for_the_main_decisions():
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Grip"]},
        hands={0: ["Late Braking", "Scavenge"], 1: ["Tow"], 2: ["Draft"]},
    )
    menu = E.menu(st, 0)
    play_sel = next(g for g in menu if g["kind"] == "select" and g["action"] == {"type": "play"})
    assert sorted(o["value"] for o in play_sel["options"]) == sorted(str(c) for c in cards("Late Braking", "Scavenge"))
    assert any(g["kind"] == "select" and g["action"] == {"type": "event"} for g in menu)
    assert menu[-1]["action"] == {"type": "prefs"}
    # a select sends its chosen value back
    st2, _ = act(st, 0, dict(play_sel["action"], values=[str(C("Scavenge"))]))
    assert C("Scavenge") not in st2["hands"][0]
    labels = [en(E.describe_action(st, 0, a)) for a in E.legal_actions(st, 0)]
    assert "Play 1 (event: Late Braking)" in labels and len(set(labels)) == len(labels)
    assert "Use event: Late Braking (puts your 1 in the throttle)" in labels
    # other seats only get the preference select
    assert [g["action"] for g in E.menu(st, 1)] == [{"type": "prefs"}]


def test_view_keys():
    st, _ = arrange(
        circuit={0: "Blind Crest"}, throttles={0: ["Grip"]}, hands={0: ["Scavenge"], 1: ["Tow"], 2: ["Draft"]}
    )
    v = E.view(st, None)
    # the table posts a new board image when "turn" changes: per course, 0 during the peeks
    assert v["turn"] == 1 and E.view(E.new_game({}, 3, 1), None)["turn"] == 0
    for key in (
        "kind",
        "courses",
        "current",
        "order",
        "pon_sets",
        "hand_counts",
        "deck_count",
        "discard",
        "discard_top",
        "phase",
        "waiting_for",
        "log",
        "winner",
    ):
        assert key in v
    assert v["kind"] == "pon" and "me" not in v
    assert set(v["courses"][0]) >= {"index", "number", "name", "effect", "face_up", "throttle"}
    me = E.view(st, 0)["me"]
    assert set(me) >= {"hand", "peeked"}
    assert set(me["hand"][0]) >= {"id", "number", "event", "label"}
    assert from_wire(json.loads(json.dumps(to_wire(v)))) == v  # JSON through to_wire (texts are Msgs)


def test_a_long_select_says_which_choices_each_page_holds():
    """Issue #33: more than 25 choices split into selects marked "(1)", "(2)"; each page now says
    which of the choices it holds."""
    from bot.games.pon.content import CARDS

    racing = [c.name for c in CARDS.values() if c.kind == "racing"]
    st, _ = arrange(circuit={0: "Blind Crest"}, discard=racing)
    st["phase"] = "salvage"  # an empty hand on its turn: take any card from the discard
    seat = st["actor"]
    menu = E.menu(st, seat)
    pages = [g for g in menu if g["kind"] == "select" and g["action"]["type"] == "salvage"]
    n = len(st["discard"])
    assert n > 25 and len(pages) == 2
    assert [en(g["placeholder"]) for g in pages] == [
        f"Empty hand: take a card from the discard (choices 1-25 of {n})",
        f"Empty hand: take a card from the discard (choices 26-{n} of {n})",
    ]


def test_preference_options_say_the_change_and_the_current_setting_once():
    """Issue #33: "PON on 1s: never — now auto" read like a setting; an option is a change
    ("PON on 1s → never") and its line says the current setting once ("Now: auto")."""
    st, _ = arrange(
        circuit={0: "Blind Crest"}, throttles={0: ["Grip"]}, hands={0: ["Scavenge"], 1: ["Tow"], 2: ["Draft"]}
    )
    prefs = E.menu(st, 2)[-1]
    opts = {en(o["label"]): en(o["description"]) for o in prefs["options"]}
    assert opts["PON on 1s → never"] == opts["PON on 1s → ask"] == "Now: auto"
    assert "PON on 1s → auto" not in opts
    assert all(" → " in label and text.startswith("Now: ") for label, text in opts.items())


# -- the moves a seat owes first (hand-limit discard, decay choice) and a PON answer changed -----------


def _owing(kind):
    """Seat 0 to play, but owing a hand-limit discard ("excess") or a decay choice ("decay")."""
    taken = {"Scavenge", "Draft", "Slingshot", "Covering", "Grip"}
    pair = [c.name for c in CARDS.values() if c.kind == "racing" and c.number == 2 and c.name not in taken][:2]
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Grip"]},
        hands={0: ["Scavenge", "Draft"], 1: ["Slingshot"], 2: ["Covering"]},
        pon={0: [pair]},
        prefs={0: {"discard": "ask", "decay": "ask"}},
    )
    if kind == "excess":
        st["excess"] = {"0": 1}
    else:
        st["decay"] = {"0": {"sets": [0], "why": to_wire(msg("end of turn"))}}
    return st


@pytest.mark.parametrize(
    "kind,first",
    [("excess", "First discard down to the hand limit."), ("decay", "First choose which card of your PON set decays.")],
)
def test_a_seat_owing_a_discard_or_a_decay_choice_makes_it_first(kind, first):
    st = _owing(kind)
    before = json.loads(json.dumps(st))
    assert E.to_act(st) == [0]
    owed, other = ("discard", "decay") if kind == "excess" else ("decay", "discard")
    for seat, action, said in (
        (0, {"type": "play", "card": C("Scavenge")}, first),
        (0, {"type": other, "card": C("Draft")}, first),
        (1, {"type": owed, "card": C("Slingshot")}, "It is not your move."),
        (1, {"type": "play", "card": C("Slingshot")}, "It is not your move."),
    ):
        with pytest.raises(GameError) as err:
            E.apply(st, seat, action)
        assert str(err.value) == said
        assert st == before  # refused: nothing changed
    card = C("Draft") if kind == "excess" else st["pon"][0][0][0]
    st, _ = act(st, 0, {"type": owed, "card": card})
    assert not st["excess"] and not st["decay"] and E.to_act(st) == [0]


def test_an_asked_seat_may_change_its_pon_answer_until_every_asked_seat_answered():
    ask3 = {"pon": {"3": "ask"}}
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Grip"]},
        hands={0: ["Scavenge", "Draft"], 1: ["Slingshot", "Switchback", "Tow"], 2: ["Covering", "Fuel Save"]},
        prefs={1: ask3, 2: ask3},
    )
    st, _ = play(st, 0, "Scavenge")
    assert sorted(E.to_act(st)) == [1, 2]
    st, _ = act(st, 1, {"type": "pon_pass"})
    assert E.to_act(st) == [2]  # seat 1 answered, but may still change its mind
    pair = [a for a in E.legal_actions(st, 1) if a["type"] == "pon"]
    assert pair
    st, _ = act(st, 1, pair[0])
    assert st["window"]["answers"]["1"] == pair[0]["cards"]
    with pytest.raises(GameError, match="It is not your move."):
        E.apply(st, 0, {"type": "pon_pass"})
