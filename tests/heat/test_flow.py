"""The asynchronous flow: one private submission per round, standing preferences, "ask" pauses,
errors that change nothing, menus and action labels."""

from __future__ import annotations

import copy

import pytest

from bot.games.base import GameError
from bot.games.heat import ENGINE as E
from bot.games.heat import rules
from bot.i18n import Msg
from tests.heat.helpers import en, ids_of, new, parked, round_, setcar, submit


def card_select(menu):
    """The card-by-card select (the last one; whole plans come first, see test_plans.py)."""
    return [g for g in menu if g["kind"] == "select"][-1]


def test_one_submission_each_then_the_round_resolves_by_itself():
    st = E.new_game({"track": "usa"}, 4, 7)
    assert E.to_act(st) == [0, 1, 2, 3] and st["phase"] == "submit"
    for seat in range(4):
        assert st["round"] == 1
        st, ev = E.apply(st, seat, {"type": "submit", "cards": st["cars"][seat]["hand"][:1]})
    assert st["round"] == 2 and st["phase"] == "submit" and E.to_act(st) == [0, 1, 2, 3]
    v = E.view(st, None)
    assert v["log_round"] == 1 and len(v["last_round"]) == 4
    assert all(c["speed"] is not None and c["revealed"] for c in v["cars"])


def test_resubmission_replaces_until_the_last_one_arrives():
    st = E.new_game({"track": "usa"}, 3, 7)
    hand = st["cars"][0]["hand"]
    st, ev = E.apply(st, 0, {"type": "submit", "cards": hand[:1]})
    assert [e.to for e in ev] == [0, None]  # private confirmation, public "ready"
    assert en(ev[0].text).startswith("Round 1: your card is in (gear 1). You may change it")  # not "1 cards"
    st, ev = E.apply(st, 0, {"type": "submit", "cards": hand[1:3]})
    assert st["cars"][0]["sub"] == hand[1:3]
    assert all(e.to == 0 for e in ev)  # no second "ready"
    assert en(ev[0].text).startswith("Round 1: your cards are changed, 2 now (gear 2).")  # not the same words
    with pytest.raises(GameError) as err:  # the same cards again: said once, nothing committed
        E.apply(st, 0, {"type": "submit", "cards": hand[1:3]})
    assert en(err.value.args[0]) == "Those cards are already in."
    assert E.to_act(st) == [1, 2]
    assert any(a["type"] == "submit" for a in E.legal_actions(st, 0))  # may still change it
    st, _ = E.apply(st, 1, {"type": "submit", "cards": st["cars"][1]["hand"][:1]})
    st, _ = E.apply(st, 2, {"type": "submit", "cards": st["cars"][2]["hand"][:1]})
    assert st["cars"][0]["gear"] == 2  # the replacement was played


def test_submit_accepts_select_values():
    st = E.new_game({"track": "usa"}, 2, 3)
    menu = E.menu(st, 0)
    select = next(g for g in menu if g["kind"] == "select")
    values = [o["value"] for o in select["options"][:2]]
    st, _ = E.apply(st, 0, dict(select["action"], values=values))
    assert st["cars"][0]["sub"] == [int(v) for v in values]


def _ask_case(pref_key):
    """Seat 0 lands beside a parked car (slipstream), is last (adrenaline), has Heat in hand and
    Engine (cooldown, boost) and a discardable hand."""
    st = new(seats=2)
    parked(st, 1, 20, 2)
    setcar(
        st,
        0,
        pos=15,
        lane=1,
        gear=2,
        hand=["speed4", "speed1", "heat", "speed2", "speed3", "start0", "speed1"],
        deck=["speed2"] * 9,
        engine=3,
        prefs={
            "slipstream": "never",
            "adrenaline": "never",
            "boost": "never",
            "cooldown": "auto",
            "discard": "keep",
            pref_key: "ask",
        },
    )
    return st


@pytest.mark.parametrize(
    "kind,yes,no",
    [
        ("slipstream", {"take": True}, {"take": False}),
        ("boost", {"use": True}, {"use": False}),
        ("adrenaline", {"use": True}, {"use": False}),
    ],
)
def test_ask_pauses_for_that_seat_and_resumes(kind, yes, no):
    st = _ask_case(kind)
    st, _ = submit(st, 1, ["start0"])
    st, ev = submit(st, 0, ["speed4", "speed1"])
    assert st["phase"] == "decide" and E.to_act(st) == [0]
    assert st["pending"]["type"] == kind
    assert any(e.to == 0 for e in ev) and any("Waiting for <seat:0>" in en(e.text) for e in ev)
    acts = E.legal_actions(st, 0)
    assert dict(type=kind, **yes) in acts and dict(type=kind, **no) in acts
    assert E.legal_actions(st, 1) and all(a["type"] == "prefs" for a in E.legal_actions(st, 1))
    assert E.view(st, 0)["me"]["decision"]["type"] == kind
    assert "decision" not in str(E.view(st, None))
    with pytest.raises(GameError):
        E.apply(st, 1, dict(type=kind, **yes))  # not their decision
    with pytest.raises(GameError):
        E.apply(st, 0, {"type": "submit", "cards": st["cars"][0]["hand"][:1]})
    other = "boost" if kind != "boost" else "slipstream"
    with pytest.raises(GameError):
        E.apply(st, 0, {"type": other, "use": True, "take": True})
    taken, _ = E.apply(st, 0, dict(type=kind, **yes))
    skipped, _ = E.apply(st, 0, dict(type=kind, **no))
    assert taken["phase"] == skipped["phase"] == "submit"
    assert taken["cars"][0]["pos"] > skipped["cars"][0]["pos"] == 20


def test_changing_an_ask_preference_during_its_pause_resumes():
    st = _ask_case("slipstream")
    st, _ = submit(st, 1, ["start0"])
    st, _ = submit(st, 0, ["speed4", "speed1"])
    assert st["phase"] == "decide"
    st, _ = E.apply(st, 1, {"type": "prefs", "boost": "always"})  # another seat: still waiting
    assert st["phase"] == "decide"
    st, _ = E.apply(st, 0, {"type": "prefs", "slipstream": "always"})
    assert st["phase"] == "submit" and st["cars"][0]["pos"] == 22


def test_cooldown_ask_lets_the_player_choose_how_many():
    st = _ask_case("cooldown")
    car0 = st["cars"][0]
    car0["hand"] = car0["hand"][:2] + [c for c in car0["hand"][2:] if st["cards"][c] != "heat"]
    setcar(st, 0, hand=["speed4", "speed1", "heat", "heat", "speed3", "start0", "speed1"], gear=1, engine=0)
    st, _ = submit(st, 1, ["start0"])
    st, _ = submit(st, 0, ["speed1"])  # gear 1: cooldown 3, but only 2 Heat in hand
    assert st["pending"] == {"seat": 0, "type": "cooldown", "max": 2}
    heat = [c for c in st["cars"][0]["hand"] if st["cards"][c] == "heat"]
    assert [len(a["cards"]) for a in E.legal_actions(st, 0) if a["type"] == "cooldown"] == [2, 1, 0]
    with pytest.raises(GameError):
        E.apply(st, 0, {"type": "cooldown", "cards": ids_of(st, 0, ["speed4"])})
    with pytest.raises(GameError):
        E.apply(st, 0, {"type": "cooldown", "cards": heat + heat[:1]})
    st, _ = E.apply(st, 0, {"type": "cooldown", "cards": heat[:1]})
    assert len(st["cars"][0]["engine"]) == 1


def test_defaults_need_only_submissions_for_a_whole_race():
    st = E.new_game({"track": "italy"}, 6, 21)
    rounds = 0
    while not E.is_over(st):
        assert st["phase"] == "submit"
        for seat in E.to_act(st):
            action = next(a for a in E.legal_actions(st, seat) if a["type"] == "submit")
            st, _ = E.apply(st, seat, action)
        rounds += 1
        assert rounds < 200
    assert sorted(st["places"]) == list(range(6))


def test_prefs_validation_and_privacy():
    st = new()
    with pytest.raises(GameError):
        E.apply(st, 0, {"type": "prefs", "boost": "maybe"})
    with pytest.raises(GameError):
        E.apply(st, 0, {"type": "prefs", "nitro": "always"})
    with pytest.raises(GameError):
        E.apply(st, 0, {"type": "prefs"})
    st2, ev = E.apply(st, 0, {"type": "prefs", "boost": "smart", "discard": "ask"})
    assert st2["cars"][0]["prefs"]["boost"] == "smart" and st2["cars"][0]["prefs"]["discard"] == "ask"
    assert st["cars"][0]["prefs"] == rules.DEFAULT_PREFS  # input untouched
    assert all(e.to == 0 for e in ev)
    assert E.view(st2, 0)["me"]["prefs"]["boost"] == "smart"


GARBAGE = [
    None,
    [],
    "submit",
    {},
    {"type": 5},
    {"type": "fly"},
    {"type": "submit"},
    {"type": "submit", "cards": "12"},
    {"type": "submit", "cards": [True]},
    {"type": "submit", "cards": [10**9]},
    {"type": "submit", "cards": [-1]},
    {"type": "submit", "cards": [1.5]},
    {"type": "submit", "values": ["x"]},
    {"type": "submit", "cards": []},
    {"type": "prefs", "boost": ["always"]},
    {"type": "slipstream", "take": True},
    {"type": "cooldown", "cards": []},
    {"type": "discard", "cards": [0]},
    {"type": "boost", "use": "yes"},
]


@pytest.mark.parametrize("action", GARBAGE)
def test_garbage_actions_raise_game_error_and_change_nothing(action):
    st = E.new_game({"track": "france"}, 3, 5)
    before = copy.deepcopy(st)
    with pytest.raises(GameError):
        E.apply(st, 0, action)
    assert st == before
    assert isinstance(E.describe_action(st, 0, action if isinstance(action, dict) else {}), Msg)


@pytest.mark.parametrize("seat", [-1, 3, "0", None, True])
def test_bad_seats(seat):
    st = E.new_game({"track": "france"}, 3, 5)
    with pytest.raises(GameError):
        E.apply(st, seat, {"type": "submit", "cards": st["cars"][0]["hand"][:1]})
    assert E.legal_actions(st, seat) == [] and E.menu(st, seat) == []


def test_someone_elses_card_is_rejected_without_saying_what_it_is():
    st = E.new_game({"track": "france"}, 3, 5)
    other = st["cars"][1]["hand"][0]
    with pytest.raises(GameError) as err:
        E.apply(st, 0, {"type": "submit", "cards": [other]})
    assert str(err.value) == "That card is not in your hand."


def test_apply_never_mutates_its_input_even_when_resolving():
    st = E.new_game({"track": "usa"}, 3, 9)
    for seat in range(3):
        before = copy.deepcopy(st)
        nxt, _ = E.apply(st, seat, {"type": "submit", "cards": st["cars"][seat]["hand"][:2]})
        assert st == before
        st = nxt
    assert st["round"] == 2


def test_clone_shares_nothing_mutable():
    st = E.new_game({"track": "usa"}, 4, 9)
    for seat in range(4):
        st, _ = E.apply(st, seat, {"type": "submit", "cards": st["cars"][seat]["hand"][:1]})
    st["pending"] = {"seat": 0, "type": "boost"}
    st["res"] = {"order": [0, 1], "i": 0, "step": 1, "adr": [1]}
    st["cars"][0]["rd"]["ans"]["discard"] = [1, 2]
    st["cars"][1]["sub"] = [3]
    cl = rules.clone(st)
    assert cl == st

    def containers(x, out):
        if isinstance(x, (dict, list)):
            out.add(id(x))
            for k, v in x.items() if isinstance(x, dict) else enumerate(x):
                if k == "lines":  # the lists are copied; the lines in them are never changed once made
                    out.add(id(v))
                    continue
                containers(v, out)
        return out

    assert not containers(cl, set()) & containers(st, set())


def test_round_record_lines_are_never_changed_once_made():
    """Issue #11: clone shares the compact lines (schema 2); a race with every kind of line must
    leave each line exactly as it was first recorded."""
    seen = {}
    for seed in range(3):
        st = E.new_game({"track": "italy"}, 4, seed)
        rnd = __import__("random").Random(seed)
        while not E.is_over(st):
            seat = E.to_act(st)[0]
            st, _ = E.apply(st, seat, rnd.choice([a for a in E.legal_actions(st, seat) if a["type"] != "prefs"]))
            for c in st["cars"]:
                for x in (c["rd"] or {}).get("lines", ()):
                    seen.setdefault(id(x), (x, copy.deepcopy(x)))
        assert all(x == first for x, first in seen.values())


def test_menu_during_submission():
    st = E.new_game({"track": "gb"}, 6, 4)
    for seat in range(6):
        groups = E.menu(st, seat)
        plans, select = groups[0], groups[1]  # whole plans first (tests/heat/test_plans.py), then cards
        assert plans["kind"] == select["kind"] == "select" and select["action"] == {"type": "submit"}
        assert all(len(en(o["label"])) <= 100 and len(en(o["description"])) <= 100 for o in plans["options"])
        assert 1 <= select["min"] <= select["max"] <= min(4, len(select["options"]))
        assert (select["min"], select["max"]) == (1, 3)  # gear 1: 1-2 free, 3 for one Heat
        hand = set(st["cars"][seat]["hand"])
        for o in select["options"]:
            assert int(o["value"]) in hand and len(en(o["label"])) <= 80 and len(en(o["description"])) <= 100
        assert all(st["cards"][int(o["value"])] != "heat" for o in select["options"])
        buttons = [b for g in groups if g["kind"] == "buttons" for b in g["options"]]
        assert len(buttons) <= 20 and all(len(en(b["label"])) <= 80 for b in buttons)
        for b in buttons:
            E.apply(st, seat, b["action"])  # every button is a legal action
        assert len(en(select["placeholder"])) <= 100


def test_menu_gear_range_follows_the_engine():
    st = new()
    setcar(st, 0, gear=2, engine=1, hand=["speed1"] * 7)
    assert (card_select(E.menu(st, 0))["min"], card_select(E.menu(st, 0))["max"]) == (1, 4)
    setcar(st, 0, gear=2, engine=0)
    assert (card_select(E.menu(st, 0))["min"], card_select(E.menu(st, 0))["max"]) == (1, 3)


@pytest.mark.parametrize("kind", ["slipstream", "boost", "adrenaline", "discard"])
def test_menu_during_a_decision(kind):
    st = _ask_case(kind)
    st, _ = submit(st, 1, ["start0"])
    st, _ = submit(st, 0, ["speed4", "speed1"])
    assert st["pending"]["type"] == kind
    groups = E.menu(st, 0)
    assert E.menu(st, 1)[0]["kind"] == "buttons" and len(E.menu(st, 1)) == 1  # prefs only
    acts = [g["action"] for g in groups if g["kind"] == "select"]
    acts += [b["action"] for g in groups if g["kind"] == "buttons" for b in g["options"]]
    decision = [a for a in acts if a["type"] == kind]
    assert decision
    for a in decision:
        if "cards" in a or "take" in a or "use" in a:
            E.apply(st, 0, a)
    if kind == "discard":
        select = next(g for g in groups if g["kind"] == "select")
        pick = [select["options"][0]["value"]]
        done, _ = E.apply(st, 0, dict(select["action"], values=pick))
        assert int(pick[0]) in done["cars"][0]["discard"]


def test_describe_action_labels_are_short_and_unique():
    st = E.new_game({"track": "usa"}, 3, 8)
    setcar(st, 0, gear=2, engine=1, hand=["speed4", "speed2", "stress", "speed2", "heat", "start5", "start0"])
    acts = E.legal_actions(st, 0)
    labels = [en(E.describe_action(st, 0, a)) for a in acts]
    assert len(labels) == len(set(labels)) and all(len(x) <= 100 for x in labels)
    sub = {"type": "submit", "cards": ids_of(st, 0, ["speed2", "stress", "speed4"])}
    assert en(E.describe_action(st, 0, sub)) == "Gear 3: 4 + 2 + Stress → 6+? spaces"
    sub = {"type": "submit", "cards": ids_of(st, 0, ["speed2", "stress", "speed4", "start0"])}
    assert en(E.describe_action(st, 0, sub)) == "Gear 4: 4 + 2 + 0 + Stress (2-gear shift: 1 Heat) → 6+? spaces"
    # Issue #33: /heat play's list says the distance and the corner Heat, as the DM's plans do.
    st["cars"][0]["pos"] = rules.track_of(st).lines[1][0] - 2  # corner 2 (limit 3) just ahead
    sub = {"type": "submit", "cards": ids_of(st, 0, ["speed4", "start5"])}
    assert en(E.describe_action(st, 0, sub)) == "Gear 2: 4 + 5 → 9 spaces, corner Heat 6: spin!"
    sub = {"type": "submit", "cards": ids_of(st, 0, ["speed4"])}
    assert en(E.describe_action(st, 0, sub)) == "Gear 1: 4 → 4 spaces, corner Heat 1"  # (1 Heat in the Engine)
    sub = {"type": "submit", "cards": ids_of(st, 0, ["speed2"])}
    assert en(E.describe_action(st, 0, sub)) == "Gear 1: 2 → 2 spaces"
    # one submit action per distinct multiset of cards: two 2s are one choice
    subs = [a for a in acts if a["type"] == "submit"]
    assert len([a for a in subs if len(a["cards"]) == 1]) == 5  # 4, 2, Stress, 5, 0
    assert all(st["cards"][c] != "heat" for a in subs for c in a["cards"])


def test_round_helper_defaults_play_one_card_each():
    st = new(seats=2)
    parked(st, 0, 10)
    parked(st, 1, 5)
    st, _ = round_(st, {})
    assert st["round"] == 2 and st["cars"][0]["pos"] == 10
