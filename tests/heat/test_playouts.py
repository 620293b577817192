"""Seeded random races to the end, every base track, 2-6 players: legal random actions (with
random preference changes, so "ask" pauses happen too), and after every step: cards conserved
per player, spots valid, JSON round trip, no private information in anyone else's view, menu or
public events; at the end base.replay(...) rebuilds the same state."""

from __future__ import annotations

import random

import pytest

from bot.games.heat import ENGINE as E
from bot.games.heat import content
from bot.tools.bench import heat as bench
from tests.heat.playouts import choose, race

TRACKS = ["usa", "france", "great_britain", "italy"]


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_random_race_to_the_end(track, seats):
    race(track, seats, {"track": track}, 1000 * TRACKS.index(track) + seats)


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_random_weather_race_to_the_end(track, seats):
    """The same with the Weather and road conditions module (each seed draws its own tile)."""
    st = race(track, seats, {"track": track, "weather": True}, 7000 + 100 * TRACKS.index(track) + seats)
    assert st["modules"] == ["weather"] and st["weather"]["tile"] in content.weather()["tiles"]


def test_pauses_are_exercised():
    """The random playouts above do hit "ask" pauses (not only the default flow)."""
    rnd = random.Random(5)
    st = E.new_game({"track": "usa"}, 4, 5)
    for seat in range(4):
        for key in ("slipstream", "boost", "adrenaline", "cooldown", "discard"):
            st, _ = E.apply(st, seat, {"type": "prefs", key: "ask"})
    kinds = set()
    while not E.is_over(st) and st["round"] < 300:
        seat = E.to_act(st)[0]
        if st["phase"] == "decide":
            kinds.add(st["pending"]["type"])
        st, _ = E.apply(st, seat, choose(st, seat, rnd))
    assert E.is_over(st)
    assert kinds == {"slipstream", "boost", "adrenaline", "cooldown", "discard"}


def test_bench_plays_full_races():
    st = bench.play_random_race(3, 6, "italy")
    assert E.is_over(st)
    assert bench.races_per_second(0.2) > 0
