"""Issue #10: every text leaves the PON engine as a Msg (bot/i18n.py), put into words only where
it leaves the table. Seeded random games to the end check every event, error, action label, menu
and view text; a fake catalog shows nested parameters (card names, lists) are translated."""

from __future__ import annotations

import random

import pytest

from bot import i18n
from bot.games.base import GameError
from bot.games.pon import ENGINE as E
from bot.games.pon.simulate import choose
from bot.i18n import Msg, from_wire, render
from tests.text_checks import assert_menu, assert_text
from tests.pon.helpers import C, act, arrange, texts


def assert_view(v: dict, where: str) -> None:
    for c in v["courses"]:
        for key in ("name", "effect"):
            if c[key] is not None:
                assert_text(c[key], f"{where} course {key}")
        for label in c["throttle"]:
            assert_text(label, f"{where} throttle")
    for key in ("played", "discard_top"):
        if v[key] is not None:
            assert_text(v[key], f"{where} {key}")
    for label in v["discard"]:
        assert_text(label, f"{where} discard")
    for sets in v["pon_cards"].values():
        for pset in sets:
            for label in pset:
                assert_text(label, f"{where} pon card")
    if v["window"]:
        assert_text(v["window"]["card"], f"{where} window card")
    for line in v["log"]:
        assert_text(line, f"{where} log")
    me = v.get("me")
    if me:
        for c in me["hand"]:
            assert_text(c["label"], f"{where} hand label")
            assert_text(c["text"], f"{where} hand text")
            if c["event"] is not None:
                assert_text(c["event"], f"{where} hand event")
        for p in me["peeked"]:
            assert_text(p["name"], f"{where} peeked")
            assert_text(p["effect"], f"{where} peeked effect")
        if isinstance(me["pon_answer"], list):
            for label in me["pon_answer"]:
                assert_text(label, f"{where} pon answer")


def _garbage(st: dict, seat: int) -> list:
    other = (seat + 1) % st["seats"]
    theirs = st["hands"][other][:1]
    return [
        {"type": "play", "card": theirs[0] if theirs else 999},
        {"type": "pon", "cards": [0, 0]},
        {"type": "prefs", "block": "never"},
        {"type": "prefs", "colour": "red"},
        {"type": "peek", "course": 99},
        {"type": "block", "cards": "x"},
        {"type": "warp"},
        "play",
    ]


@pytest.mark.parametrize("seats,seed", [(3, 1), (4, 2), (3, 3), (4, 4)])
def test_every_text_of_a_random_game_is_a_msg(seats, seed):
    rnd = random.Random(seed)
    st = E.new_game({}, seats, seed)
    if seed % 2:  # "ask" everywhere, so the windows, blocks and decays wait for answers
        for s in range(seats):
            st, events = E.apply(
                st,
                s,
                {
                    "type": "prefs",
                    "pon": {n: "ask" for n in "1234"},
                    "block": "ask",
                    "refill": "ask",
                    "discard": "ask",
                    "decay": "ask",
                },
            )
            for ev in events:
                assert_text(ev.text, "prefs event")
    errors = 0
    for _ in range(3000):
        if E.is_over(st):
            break
        seat = rnd.choice(E.to_act(st))
        legal = E.legal_actions(st, seat)
        for a in legal:
            assert_text(E.describe_action(st, seat, a), "describe_action")
        for s in range(seats):
            assert_menu(E.menu(st, s), "menu")
        for viewer in (None, seat):
            assert_view(E.view(st, viewer), "view")
        for bad in _garbage(st, seat):
            assert_text(E.describe_action(st, seat, bad if isinstance(bad, dict) else {}), "describe garbage")
            try:
                E.apply(st, seat, bad)
            except GameError as err:
                errors += 1
                assert len(err.args) == 1
                assert_text(err.args[0], "GameError")
                assert str(err) == render(err.args[0], "en")
        action = rnd.choice(legal) if rnd.random() < 0.5 else choose(st, seat, "greedy", rnd)
        st, events = E.apply(st, seat, action)
        for ev in events:
            assert_text(ev.text, "event")
        # the log lives in the state as Msgs in JSON form
        assert all(isinstance(from_wire(x), Msg) for x in st["log"])
    assert E.is_over(st) and errors
    for viewer in [None, *range(seats)]:
        assert_view(E.view(st, viewer), "final view")


@pytest.mark.parametrize("options,seats", [({"x": 1}, 3), ({}, 5), ("fast", 3)])
def test_option_errors_are_msgs(options, seats):
    with pytest.raises(GameError) as err:
        E.validate_options(options, seats)
    assert_text(err.value.args[0], "validate_options")


def test_a_catalog_translates_nested_parameters(monkeypatch):
    monkeypatch.setitem(
        i18n._catalogs,
        "xx",
        {
            "{p} plays {card}.": "{p}>{card}",
            "{n} · {name}": "[{name}#{n}]",
            "Scavenge": "SCV",
            "PON window on the {n}: waiting for {who}.": "PON{n}? {who}",
            ", ": " / ",
            "Play {card}": "PLAY {card}",
            "{n} (event: {name})": "{name}({n})",
        },
    )
    ask3 = {"pon": {"3": "ask"}}
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Grip"]},
        hands={0: ["Scavenge", "Draft"], 1: ["Slingshot", "Switchback", "Tow"], 2: ["Covering", "Fuel Save"]},
        prefs={1: ask3, 2: ask3},
    )
    label = E.describe_action(st, 0, {"type": "play", "card": C("Scavenge")})
    assert render(label, "en") == "Play 3 (event: Scavenge)"
    assert render(label, "xx") == "PLAY SCV(3)"
    st, ev = act(st, 0, {"type": "play", "card": C("Scavenge")})
    assert "PON window on the 3: waiting for P2, P3." in texts(ev)
    public = [e.text for e in ev if e.to is None]
    assert [render(x, "xx") for x in public[:2]] == ["<seat:0>>[SCV#3]", "PON3? <seat:1> / <seat:2>"]
    # the same, read back from the log in the state (stored in JSON form)
    assert render(E.view(st, None)["log"][-1], "xx") == "PON3? <seat:1> / <seat:2>"


def test_old_logs_of_plain_text_still_show():
    """Games logged before #10 hold plain English lines: the view passes them on as they are."""
    st, _ = arrange(
        circuit={0: "Blind Crest"}, throttles={0: ["Grip"]}, hands={0: ["Scavenge"], 1: ["Tow"], 2: ["Draft"]}
    )
    st["log"] = ["<seat:0> passes."] + st["log"]
    assert render(E.view(st, None)["log"][0], "en") == "<seat:0> passes."
    st, _ = act(st, 0, {"type": "play", "card": C("Scavenge")})
    assert isinstance(E.view(st, None)["log"][-1], Msg)


def test_renderers_draw_in_the_locale_given(monkeypatch):
    from rendering import pon as R

    monkeypatch.setitem(
        i18n._catalogs,
        "xx",
        {"Running order": "ORDER", "Scavenge": "SCV", "Grip": "GRP", "{name}'s hand": "HAND OF {name}"},
    )
    st, _ = arrange(
        circuit={0: "Blind Crest"}, throttles={0: ["Grip"]}, hands={0: ["Scavenge"], 1: ["Tow"], 2: ["Draft"]}
    )
    names = ["A", "B", "C"]
    for draw, viewer in ((R.render_board, None), (R.render_hand, 0)):
        view = E.view(st, viewer)
        assert draw(view, names) == draw(view, names, "en")
        assert draw(view, names, "xx") != draw(view, names, "en")
