"""Issue #11, engine speed: round-record lines are compact [key, params] lists in the state
(schema 2); states saved with schema 1 (lines as Msgs in JSON form) still load, show the same
words and play on; the log events are the same Msgs, built only when put into words."""

from __future__ import annotations

import json
import random

from bot.games.heat import ENGINE as E
from bot.games.heat import rules
from bot.i18n import Msg, msg, render, to_wire
from bot.games.text import chain
from tests.heat.helpers import en


def _mid_race_with_a_pause(seed: int = 4) -> dict:
    """A 3-player race some rounds in, paused on a player's decision (boost: ask)."""
    rnd = random.Random(seed)
    st = E.new_game({"track": "usa"}, 3, seed)
    for s in range(3):
        st, _ = E.apply(st, s, {"type": "prefs", "boost": "ask", "cooldown": "ask"})
    while not (st["phase"] == "decide" and st["round"] > 3):
        seat = E.to_act(st)[0]
        st, _ = E.apply(st, seat, rnd.choice([a for a in E.legal_actions(st, seat) if a["type"] != "prefs"]))
    return st


def _as_schema_1(st: dict) -> dict:
    """The state as the previous version stored it: lines as Msgs in JSON form."""
    old = json.loads(json.dumps(st))
    old["schema"] = 1
    for car in old["cars"]:
        if car["rd"] is not None:
            car["rd"]["lines"] = [to_wire(rules.line_msg(x)) for x in car["rd"]["lines"]]
    return old


def test_new_states_have_schema_2_and_compact_lines():
    st = _mid_race_with_a_pause()
    assert st["schema"] == rules.SCHEMA == 2
    lines = [x for c in st["cars"] if c["rd"] for x in c["rd"]["lines"]]
    assert lines and all(type(x) is list and len(x) == 2 and isinstance(x[1], dict) for x in lines)
    assert json.loads(json.dumps(st)) == st


def test_a_schema_1_state_loads_shows_the_same_words_and_plays_on():
    st = _mid_race_with_a_pause()
    old = _as_schema_1(st)
    assert any(isinstance(x, dict) for c in old["cars"] if c["rd"] for x in c["rd"]["lines"])
    for viewer in (None, 0, 1, 2):
        assert en_view(E.view(old, viewer)) == en_view(E.view(st, viewer))
    seat = E.to_act(st)[0]
    action = next(a for a in E.legal_actions(st, seat) if a["type"] != "prefs")
    new_a, ev_a = E.apply(st, seat, action)
    new_b, ev_b = E.apply(E.upgrade(old), seat, action)  # (the table upgrades a stored state once, on loading it)
    assert old["schema"] == 1  # the input is not changed
    assert new_b["schema"] == 2 and _words(new_b) == _words(new_a)
    assert all(type(x) is list for c in new_b["cars"] if c["rd"] for x in c["rd"]["lines"])
    assert [(e.to, render(e.text, "en")) for e in ev_a] == [(e.to, render(e.text, "en")) for e in ev_b]


def test_upgrade_keeps_plain_english_lines_of_older_records():
    st = _mid_race_with_a_pause()
    old = _as_schema_1(st)
    car = next(c for c in old["cars"] if c["rd"])
    car["rd"]["lines"].append("Space 5, lap 1/2, gear 2")
    new = rules.upgrade(old)
    assert new["schema"] == 2 and "Space 5, lap 1/2, gear 2" in next(c for c in new["cars"] if c["rd"])["rd"]["lines"]
    assert rules.upgrade(new) is new


def _words(st: dict) -> dict:
    """The state with its lines as English (the same line may be packed in more than one way)."""
    return {
        **st,
        "cars": [
            {**c, "rd": c["rd"] and {**c["rd"], "lines": en([rules.line_msg(x) for x in c["rd"]["lines"]])}}
            for c in st["cars"]
        ],
    }


def en_view(view: dict) -> list:
    return [(r["seat"], en(r["lines"])) for r in view["last_round"]]


def test_line_packing_round_trips_every_parameter_shape():
    cards = chain("{a} + {b}", [msg("3"), msg("{card} → {found}", card=msg("Stress"), found=msg("4"))])
    x = rules.round_line("Gear {g}: {cards} = speed {s}", g=2, cards=cards, s=7)
    assert json.loads(json.dumps(x)) == x
    assert rules.line_msg(x) == msg("Gear {g}: {cards} = speed {s}", g=2, cards=cards, s=7)
    y = rules.round_line("{names} and {card}", names=[msg("A"), "b"], card="0")
    assert rules.line_msg(y) == msg("{names} and {card}", names=[msg("A"), "b"], card="0")


def test_the_log_event_of_a_car_is_the_msg_it_stands_for():
    who = rules.seat_name(1)
    lines = [rules.round_line("Adrenaline"), rules.round_line("Slipstream +{n}", n=3)]
    ev = rules.CarLines(who, lines)
    lines.append(rules.round_line("Crossed the finish line!"))  # later lines are not in this event
    want = msg("{who}: {lines}", who=who, lines=chain("{a} · {b}", [msg("Adrenaline"), msg("Slipstream +{n}", n=3)]))
    assert ev == want and want == ev and isinstance(ev, Msg)
    assert render(ev, "en") == "<seat:1>: Adrenaline · Slipstream +3"
    assert to_wire(ev) == to_wire(want)
    import copy
    import pickle

    assert copy.deepcopy(ev) == want and pickle.loads(pickle.dumps(ev)) == want
