"""The thread's activation lines say what changed (issue #32): "alice powers Condenser with
clockwork." told nothing of what she gained."""

from __future__ import annotations

from bot.games.steamworks import geometry as geo
from bot.i18n import from_wire, render
from tests.steamworks.helpers import T, act, add_device, game


def _lines(ev) -> list[str]:
    return [render(e.text, "en") for e in ev]


def test_a_borrowed_components_line_says_the_gain_and_the_owners_bonus():
    # Seed: 他のプレイヤーのデバイスを使うと、そのオーナーは時計カウンターを1つ得る (the owner's clock
    # is told when the mechanic is placed); a component's owner bonus goes to its owner when another
    # player activates it.
    st = game(2)
    did = add_device(st, 1, [T("src_C", 0, 0), T("monetiser", 0, 1)])
    st, ev = act(st, 0, "place", f"dev:{did}:0,0")
    assert _lines(ev) == ["<seat:0> uses <seat:1>'s device 1; <seat:1> gains a clock."]
    st, ev = act(st, 0, "fire", "0,1:C")
    assert _lines(ev)[0] == ("<seat:0> powers Monetiser with clockwork: +£3. <seat:1> takes the owner bonus: +£1.")


def test_sources_costs_and_points_are_named_and_a_drawn_tile_follows_its_line():
    st = game(2)
    r = next(r for r in range(4) if geo.powered([T("src_S", 0, 0), T("condenser", 0, 1, r)], (0, 0)))
    did = add_device(st, 0, [T("src_S", 0, 0), T("condenser", 0, 1, r)])
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    st, ev = act(st, 0, "fire", "0,1:S")
    assert _lines(ev)[0] == "<seat:0> powers Condenser with steam: +2 steam source(s)."
    st = game(2)
    did = add_device(st, 0, [T("src_C", 0, 0), T("gear_exchange", 0, 1)])
    st["players"][0]["money"] = 5
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    st, ev = act(st, 0, "fire", "0,1:C")
    assert _lines(ev)[0] == "<seat:0> powers Gear Exchange with clockwork: -£3, +2 VP."
    st = game(2)
    did = add_device(st, 0, [T("src_C", 0, 0), T("librarifier", 0, 1)])
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    st, ev = act(st, 0, "fire", "0,1:C")
    lines = _lines(ev)
    assert lines[0] == "<seat:0> powers Librarifier with clockwork: +£2, +1 tile(s)."
    assert lines[1].startswith("<seat:0> draws ") and lines[1].endswith(" from the Age I stack.")
    assert render(from_wire(st["log"][-len(lines)]), "en") == lines[0]  # the stored log in the same order
