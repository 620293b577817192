"""Issue #10: every text leaves the Heat engine as a Msg (bot/i18n.py), put into words only where
it leaves the table. Seeded random races to the end check every event, error, action label,
menu and view text; a fake catalog shows nested parameters are translated; and every literal key
in the code base is a valid str.format template."""

from __future__ import annotations

import random
import string

import pytest

from bot import i18n
from bot.games.base import GameError
from bot.games.heat import ENGINE as E
from bot.games.heat import rules
from bot.i18n import from_wire, msg, render, to_wire
from tests.text_checks import assert_menu, assert_text, literal_keys
from tests.heat.helpers import ids_of, new, setcar


def assert_view(view: dict, where: str) -> None:
    assert_text(view["track_name"], f"{where} track_name")
    for car in view["cars"]:
        if car["discard_top"] is not None:
            assert_text(car["discard_top"], f"{where} discard_top")
        for label in car["revealed"]:
            assert_text(label, f"{where} revealed")
    for rec in view["last_round"]:
        for line in rec["lines"]:
            assert_text(line, f"{where} round line")
    me = view.get("me")
    if me:
        for c in me["hand"] + me["played"]:
            assert_text(c["label"], f"{where} card label")
        if me["submission"]:
            assert_text(me["submission"]["label"], f"{where} submission")
        if me["decision"]:
            assert_text(me["decision"]["prompt"], f"{where} prompt")


def _garbage(st: dict, seat: int, rnd: random.Random) -> list:
    other = (seat + 1) % st["seats"]
    return [
        {"type": "submit", "cards": st["cars"][other]["hand"][:1]},
        {"type": "submit", "cards": []},
        {"type": "prefs", "boost": "sometimes"},
        {"type": "prefs", "colour": "red"},
        {"type": "cooldown", "cards": [rnd.randrange(len(st["cards"]))]},
        {"type": "slipstream", "take": "yes"},
        {"type": "warp"},
        "submit",
    ]


@pytest.mark.parametrize("seed", range(6))
def test_every_text_of_a_random_race_is_a_msg(seed):
    rnd = random.Random(seed)
    seats = 2 + seed % 5
    st = E.new_game({"track": ("usa", "france", "great_britain", "italy")[seed % 4]}, seats, seed)
    for seat in range(seats):
        prefs = {"type": "prefs", **{k: rnd.choice(v) for k, v in rules.PREFS.items()}}
        st, events = E.apply(st, seat, prefs)
        for ev in events:
            assert_text(ev.text, "prefs event")
    errors = 0
    for _ in range(4000):
        if E.is_over(st):
            break
        seat = rnd.choice(E.to_act(st))
        legal = E.legal_actions(st, seat)
        for a in legal:
            assert_text(E.describe_action(st, seat, a), "describe_action")
        assert_menu(E.menu(st, seat), "menu")
        for viewer in (None, seat):
            assert_view(E.view(st, viewer), "view")
        for bad in _garbage(st, seat, rnd):
            assert_text(E.describe_action(st, seat, bad if isinstance(bad, dict) else {}), "describe garbage")
            try:
                E.apply(st, seat, bad)
            except GameError as err:
                errors += 1
                assert len(err.args) == 1
                assert_text(err.args[0], "GameError")
                assert str(err) == render(err.args[0], "en")
        st, events = E.apply(st, seat, rnd.choice([a for a in legal if a["type"] != "prefs"]))
        for ev in events:
            assert_text(ev.text, "event")
    assert E.is_over(st) and errors
    for viewer in [None, *range(seats)]:
        assert_view(E.view(st, viewer), "final view")


@pytest.mark.parametrize(
    "options,seats",
    [
        ({"track": "moon"}, 3),
        ({"grid": "x"}, 3),
        ({}, 9),
        ({"modules": ["tournament"]}, 3),
        ({"weather": "maybe"}, 3),
        ({"legends": 6}, 4),
        ({"garage": "turbo"}, 3),
        ({"track": 5}, 3),
    ],
)
def test_option_errors_are_msgs(options, seats):
    with pytest.raises(GameError) as err:
        E.validate_options(options, seats)
    assert_text(err.value.args[0], "validate_options")


def test_a_catalog_translates_nested_parameters(monkeypatch):
    monkeypatch.setitem(
        i18n._catalogs,
        "xx",
        {
            "Gear {g}: {cards}": "G{g}=[{cards}]",
            "{a} + {b}": "{a}&{b}",
            "Stress": "STR",
            "{name}: {value}": "{value}<{name}>",
            "Boost": "BST",
            "Smart": "SMT",
            "Preferences set: {text}.": "OK {text}",
            ", ": "; ",
        },
    )
    st = new("usa", 3, 8)
    setcar(st, 0, gear=2, engine=1, hand=["speed4", "speed2", "stress", "speed2", "heat", "start5", "start0"])
    sub = {"type": "submit", "cards": ids_of(st, 0, ["speed2", "stress", "speed4"])}
    label = E.describe_action(st, 0, sub).params["move"]  # (then " → 6+? spaces")
    assert render(label, "en") == "Gear 3: 4 + 2 + Stress"
    assert render(label, "xx") == "G3=[4&2&STR]"
    assert render(from_wire(to_wire(label)), "xx") == "G3=[4&2&STR]"
    _, ev = E.apply(st, 0, {"type": "prefs", "boost": "smart", "adrenaline": "always"})
    assert render(ev[0].text, "en") == "Preferences set: Boost: Smart, Adrenaline: Always."
    assert render(ev[0].text, "xx") == "OK SMT<BST>; Always<Adrenaline>"
    # a key the catalog lacks falls back to English, inside a translated sentence too
    assert render(msg("Gear {g}: {cards}", g=1, cards=msg("Heat")), "xx") == "G1=[Heat]"


# -- every literal key in the code base -------------------------------------------------------------


def test_literal_keys_are_valid_format_templates():
    keys = literal_keys()
    assert len(keys) > 200  # the scan finds the engines' and renderers' texts
    assert "Gear {g}: {cards}" in keys and "{a} + {b}" in keys
    for key, where in keys.items():
        try:
            fields = [f for _, f, spec, conv in string.Formatter().parse(key) if f is not None]
        except ValueError as err:
            raise AssertionError(f"{where}: {key!r} is not a valid template ({err})") from None
        for f in fields:
            assert f.isidentifier(), f"{where}: {key!r} has a positional or odd field {{{f}}}"


def test_renderers_draw_in_the_locale_given(monkeypatch):
    from rendering import heat as R

    monkeypatch.setitem(
        i18n._catalogs,
        "xx",
        {
            "Round {n}": "RND {n}",
            "USA": "AMERICA",
            "Driver": "PILOT",
            "Gear {n}": "G {n}",
            "Final standings after round {n}": "END {n}",
        },
    )
    st = new("usa", 3, 8)
    for seat in range(3):
        st, _ = E.apply(st, seat, {"type": "submit", "cards": st["cars"][seat]["hand"][:1]})
    names = ["A", "B", "C"]
    for draw, viewer in ((R.render_board, None), (R.render_hand, 0), (R.render_results, None)):
        view = E.view(st, viewer)
        assert draw(view, names) == draw(view, names, "en")
        assert draw(view, names, "xx") != draw(view, names, "en")
