"""Seeded random races to the end, every circuit, 2-6 cars: no errors, invariants hold, the
views leak nothing, and a game replays from its seed and actions to the same state."""

import json
import random

import pytest

from bot.games.base import replay
from bot.games.pole import ENGINE as E
from bot.games.pole.content import CIRCUIT_KEYS
from bot.i18n import render
from tests.digests import apply_untouched
from tests.pole.helpers import check, leaks, policy


def play(circuit, n, seed, log_actions=False):
    rnd = random.Random(seed)
    rnd_attack = random.Random(-seed)  # live attacker bids, kept apart from policy()'s draws
    st = E.new_game({"circuit": circuit}, n, seed)
    actions = []
    for _ in range(6000):
        if E.is_over(st):
            break
        seat = rnd.choice(E.to_act(st))
        a = policy(st, seat, rnd)
        if a.get("type") == "prefs" and "ask" in a:
            a = dict(a, ask_attack=rnd_attack.random() < 0.3)
        nst, ev = apply_untouched(E, st, seat, a)
        for e in ev:
            render(e.text, "en")
            render(e.text, "ja")
        st = nst
        actions.append((seat, a))
        check(st)
        leaks(st)
    return st, actions


# Every circuit, and every count of 2-6 cars on some circuit (1 player + bots: tests/pole/test_bots.py);
# each race is also replayed from its seed and actions and must equal the snapshot.
CASES = [(c, 2 + i % 5) for i, c in enumerate(CIRCUIT_KEYS)] + [("monaco", 6)]


def test_cases_cover_every_circuit_and_count():
    assert {c for c, _ in CASES} == set(CIRCUIT_KEYS) and {n for _, n in CASES} == {2, 3, 4, 5, 6}
    assert len(set(CASES)) == len(CASES)


@pytest.mark.parametrize("circuit,n", CASES)
def test_random_race_to_the_end(circuit, n):
    seed = sum(map(ord, circuit)) * 7 + n
    st, actions = play(circuit, n, seed=seed)
    assert E.is_over(st)
    assert all(c["finished"] is not None or c["out"] is not None for c in st["cars"])
    assert E.to_act(st) == []
    assert replay(E, {"circuit": circuit}, n, seed, actions) == json.loads(json.dumps(st))
