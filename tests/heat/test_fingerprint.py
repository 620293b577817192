"""Regression fingerprints: seeded random races must give exactly the same results as the
reference code did (recorded before the rules engine was optimised for speed).

Each fingerprint hashes, for one seeded race: every event (text and recipient) of every apply,
the spectator view and the acting seat's view after every apply (so the "last_round" lines,
revealed cards, places... are covered), and the final state (json, sorted keys: positions,
places, cards, decks, RNG state, round records). A change in behaviour changes the hash.

If a test here fails after a deliberate rules change, re-record with
    .venv/bin/python -m tests.heat.test_fingerprint
and explain the change in the commit.
"""
from __future__ import annotations

import hashlib
import json
import random

import pytest

from bot.games.heat import ENGINE as E
from bot.games.heat import bench, rules
from bot.games.rng import Rng

TRACKS = ("usa", "france", "great_britain", "italy")
# (seed, track, seats): 20 races over the 4 base tracks and 2-6 players.
CASES = [(seed, TRACKS[seed % 4], 2 + seed % 5) for seed in range(20)]


def _random_prefs(rnd: random.Random) -> dict:
    return {"type": "prefs", **{k: rnd.choice(v) for k, v in rules.PREFS.items()}}


def _race_fingerprint(seed: int, track: str, seats: int) -> str:
    """Random legal actions (the engine's own list), with preferences set at random (so "ask"
    pauses happen) and sometimes changed mid-race."""
    rnd = random.Random(seed * 7919 + 1)
    h = hashlib.sha256()
    state = E.new_game({"track": track, "grid": "random"}, seats, seed)
    for seat in range(seats):
        state, events = E.apply(state, seat, _random_prefs(rnd))
    steps = 0
    while not E.is_over(state) and steps < 5000:
        steps += 1
        seat = rnd.choice(E.to_act(state))
        if rnd.random() < 0.03:
            action = _random_prefs(rnd)
        else:
            action = rnd.choice([a for a in E.legal_actions(state, seat) if a["type"] != "prefs"])
        state, events = E.apply(state, seat, action)
        for ev in events:
            h.update(f"{ev.to}|{ev.text}\n".encode())
        h.update(json.dumps(E.view(state, None), sort_keys=True).encode())
        h.update(json.dumps(E.view(state, seat), sort_keys=True).encode())
    assert E.is_over(state)
    h.update(json.dumps(state, sort_keys=True).encode())
    return h.hexdigest()[:16]


def _bench_fingerprint(seed: int, track: str, seats: int) -> str:
    """The benchmark's own race driver (its random submissions and standing preferences)."""
    state = bench.play_random_race(seed, seats, track)
    assert E.is_over(state)
    return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()[:16]


EXPECTED_RACE = {
    0: 'a6274af46f97f79e',
    1: '6bcf0f46cafed5d8',
    2: 'f5bc159cc98b0833',
    3: '9c94e53e573b1dbe',
    4: '4f09c60f06641c70',
    5: 'b3bbb2e7d6404e1c',
    6: 'f8b4a27b7265a009',
    7: 'b6fc399c2973ccde',
    8: '20d734c5e5b64dd2',
    9: 'cb8dd70f949fde95',
    10: 'feed1d193da00397',
    11: 'c0294218c57147dd',
    12: '178261a4e0faee38',
    13: 'b11fab688de8d9a4',
    14: '97e13c4969940f97',
    15: 'f7c1f768e60c8d1b',
    16: 'bc715bba065165a4',
    17: '6fb1f046d2fd6d64',
    18: '46fdd1fb2719586b',
    19: 'e7dd2062942a022e',
}
EXPECTED_BENCH = {
    0: '0b949c7aab4ef361',
    1: 'b34c31d999f189b8',
    2: '8b4a8155e2de1a79',
    3: '53b16a79ff9e4074',
    4: 'e19a70b96bb903ec',
    5: '6ed0fa44e41fd3cc',
    6: 'f01c055203334661',
    7: '9ada0963a8ec44f6',
    8: 'cdbd85254309ad7f',
    9: 'c9b44234fa241dd2',
    10: 'c0bb155b261b6118',
    11: '878af220ee5447ba',
    12: 'ff4de7573ddeee8c',
    13: '71ad51d37b30681a',
    14: 'a0155c282dbb31be',
    15: 'c89b2fc0a5b6d969',
    16: '73f4a186750a17ff',
    17: '2e87550dd49b1112',
    18: 'b90381ad54e082cc',
    19: 'd80f53b20cc326fc',
}


@pytest.mark.parametrize("seed,track,seats", CASES)
def test_random_race_fingerprint(seed, track, seats):
    assert _race_fingerprint(seed, track, seats) == EXPECTED_RACE[seed]


@pytest.mark.parametrize("seed,track,seats", CASES)
def test_bench_race_fingerprint(seed, track, seats):
    assert _bench_fingerprint(seed, track, seats) == EXPECTED_BENCH[seed]


def _reference_shuffle(rng, seq):
    """rules.shuffle as first written (the room check on every step)."""
    x = rng.next64()
    room = 1 << 64
    for i in range(len(seq) - 1, 0, -1):
        k = i + 1
        if room < k << 24:
            x = rng.next64()
            room = 1 << 64
        j = x % k
        x //= k
        room //= k
        seq[i], seq[j] = seq[j], seq[i]


@pytest.mark.parametrize("n", [0, 1, 2, 9, 17, 25, 40, 80])
def test_shuffle_matches_the_reference_algorithm(n):
    for seed in range(20):
        a, b = Rng(seed), Rng(seed)
        xs, ys = list(range(n)), list(range(n))
        rules.shuffle(a, xs)
        _reference_shuffle(b, ys)
        assert xs == ys and a.state == b.state


def test_draw_to_hand_draws_one_by_one_from_the_top_and_reshuffles():
    rng = Rng(3)
    car = {"hand": [1], "deck": [10, 11, 12], "discard": [20, 21, 22, 23, 24, 25, 26]}
    rules.draw_to_hand(car, rng)
    ref_rng = Rng(3)
    rest = [20, 21, 22, 23, 24, 25, 26]
    rules.shuffle(ref_rng, rest)
    # top of the deck is the end of the list: 12, 11, 10, then the reshuffled discard pile
    assert car["hand"] == [1, 12, 11, 10] + rest[::-1][:3]
    assert car["deck"] == rest[:-3] and car["discard"] == [] and rng.state == ref_rng.state


if __name__ == "__main__":
    print("EXPECTED_RACE = {")
    for seed, track, seats in CASES:
        print(f"    {seed}: {_race_fingerprint(seed, track, seats)!r},")
    print("}")
    print("EXPECTED_BENCH = {")
    for seed, track, seats in CASES:
        print(f"    {seed}: {_bench_fingerprint(seed, track, seats)!r},")
    print("}")
