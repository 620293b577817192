"""Seeded random races with every optional rule on (events with the C cards and '3' as '!',
circuit special rules, no retirements, the long race, DRS, collisions, yellow flag, safety car,
stress), 1-6 players with bots: no errors, invariants hold, views leak nothing, replays agree."""

import json
import random

import pytest

from bot.games.base import replay
from bot.games.pole import ENGINE as E
from bot.games.pole.content import CIRCUIT_KEYS
from bot.i18n import render
from tests.digests import apply_untouched
from tests.pole.helpers import check, leaks, policy

ALL = {
    "events": True,
    "events_c": True,
    "events_often": True,
    "circuit_rules": True,
    "no_retire": True,
    "drs": True,
    "collisions": True,
    "yellow_flag": True,
    "safety_car": True,
    "stress": True,
    "custom_setup": True,
    "drivers": True,
}


def options(i: int) -> dict:
    n = 1 + i % 6
    o = dict(ALL, circuit=CIRCUIT_KEYS[i % 8], bots=max(0, 4 - n) if i % 2 else 0)
    if i % 3 == 1:
        o["long_race"] = True
    return o


def play(i: int):
    n = 1 + i % 6
    opts = options(i)
    rnd = random.Random(100 + i)
    st = E.new_game(opts, n, 100 + i)
    actions = []
    for _ in range(12000):
        if E.is_over(st):
            break
        seat = rnd.choice(E.to_act(st))
        a = policy(st, seat, rnd)
        nst, ev = apply_untouched(E, st, seat, a)
        for e in ev:
            render(e.text, "en")
            render(e.text, "ja")
        st = nst
        actions.append((seat, a))
        check(st)
        leaks(st)
        if "events" in st:
            e = st["events"]
            assert 0 <= len(e["deck"]) + len(e["discard"]) <= 9
            assert "deck" not in json.dumps(E.view(st, None).get("events"))
    return opts, n, st, actions


@pytest.mark.parametrize("i", range(8))
def test_every_option_race_to_the_end(i):
    opts, n, st, actions = play(i)
    assert E.is_over(st) and E.to_act(st) == []
    assert all(c["finished"] is not None or c["out"] is not None for c in st["cars"])
    if i in (0, 5):
        assert replay(E, opts, n, 100 + i, actions) == json.loads(json.dumps(st))
