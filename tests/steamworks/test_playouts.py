"""Seeded random games to the end for every player count: never raise, keep invariants, replay to
the same state, JSON round trip, menus within Discord's limits, no view shows a stack's order."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from bot.games.base import replay
from bot.games.steamworks import ENGINE as E
from bot.games.steamworks.content import setup, tiles
from bot.i18n import render, to_wire

TILES = tiles()
S = setup()


def _tile_count(st) -> Counter:
    c = Counter()
    for a in st["stacks"].values():
        c.update(a)
    for b in st["belts"].values():
        c.update(t for t in b if t)
    for pl in st["players"]:
        c.update(pl["tiles"])
        for p, n in pl["sources"].items():
            c[f"src_{p}"] += n
    for p, n in st["supply_sources"].items():
        c[f"src_{p}"] += n
    for d in st["devices"]:
        c.update(pt["t"] for pt in d["tiles"])
    if st["build"]:
        c.update(pt["t"] for pt in st["build"]["placed"])
    return c


def _check_menu(st, seat):
    rows = 0
    for g in E.menu(st, seat):
        if g["kind"] == "select":
            assert 1 <= len(g["options"]) <= 25
            rows += 1
            values = [o["value"] for o in g["options"]]
            assert len(set(values)) == len(values)
            for o in g["options"]:
                assert render(o["label"], "en") and len(o["value"]) <= 100
        else:
            assert len(g["options"]) <= 20
            rows += (len(g["options"]) + 4) // 5
    assert rows <= 5
    json.dumps(to_wire(E.menu(st, seat)))


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_game_to_the_end(seats, seed):
    rnd = random.Random(seed * 10 + seats)
    st = E.new_game({}, seats, seed)
    start = _tile_count(st)
    personas = Counter(t for p in st["players"] for t in S.personas[p["persona"]].tiles)
    assert start == Counter({t.id: t.copies for t in TILES.values() if t.age > 0 or t.is_basic}) + personas
    log = []
    steps = 0
    while not E.is_over(st):
        (seat,) = E.to_act(st)
        acts = E.legal_actions(st, seat)
        assert acts
        for other in range(seats):
            if other != seat:
                assert E.legal_actions(st, other) == []
        if steps % 7 == 0:
            _check_menu(st, seat)
            labels = [render(E.describe_action(st, seat, a), "en") for a in acts]
            assert "Unknown move" not in labels
            assert len(set(labels)) == len(labels), labels  # unique for autocomplete
        # prefer the helpful moves a little, so devices get built and used
        good = [a for a in acts if a["type"] not in ("pass", "done", "undo")]
        action = rnd.choice(good if good and rnd.random() < 0.85 else acts)
        before = copy.deepcopy(st)
        st2, _ = E.apply(st, seat, action)
        assert st == before  # apply never mutates its input
        st = st2
        log.append((seat, action))
        steps += 1
        assert _tile_count(st) == start
        assert all(pl["money"] >= 0 and pl["clocks"] >= 0 for pl in st["players"])
        assert all(v >= 0 for v in st["clocks"].values())
        assert steps < 3000
    assert st["final"] and st["final"]["winners"]
    assert json.loads(json.dumps(st)) == st
    assert replay(E, {}, seats, seed, log) == st
    assert E.menu(st, 0) == [] and E.to_act(st) == []


def test_views_never_show_the_stack_order():
    st = E.new_game({}, 3, 5)
    hidden = {a: list(s) for a, s in st["stacks"].items()}
    for viewer in (None, 0, 1, 2):
        text = json.dumps(to_wire(E.view(st, viewer)))
        v = E.view(st, viewer)
        assert "stacks" not in v and v["stack_counts"] == {a: len(s) for a, s in hidden.items()}
        assert json.dumps(hidden["2"]) not in text
    assert E.view(st, 0)["me"]["seat"] == 0 and "me" not in E.view(st, None)
