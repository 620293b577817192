"""Seeded random races with every combination of Heat's modules on every track (the issue's proof):
weather and road conditions, the Garage (drafted or dealt, with Heavy Rain's air intakes), Legends
(advanced and aggressive), tournament mode. Each race runs to the end, keeps the cars apart, never
changes apply's input, leaks nothing and replays to its snapshot (tests/heat/test_legends.py)."""

from __future__ import annotations

import itertools

import pytest

from bot.games.heat import ENGINE as E
from bot.games.heat import content
from tests.heat.playouts import legend_race

TRACKS = list(content.offered_tracks())
MODULES = {
    "weather": {"weather": True},
    "garage": {"garage": "all"},
    "legends": {"legends": 2, "legend_bonus": 1, "aggressive_legends": True},
    "tournament": {"tournament": True},
}


@pytest.mark.parametrize("track", TRACKS)
def test_every_module_combination_races_to_the_end(track):
    for n, combo in enumerate(c for k in range(len(MODULES) + 1) for c in itertools.combinations(MODULES, k)):
        options = {"track": track}
        for name in combo:
            options.update(MODULES[name])
        if "garage" in combo and n % 2:
            options["garage_deal"] = True  # the deal-3 alternative on every other combination
        seats = 3 if "legends" in combo else 2 + n % 5
        st = legend_race(E.validate_options(options, seats), seats, 1000 * TRACKS.index(track) + n)
        assert all(c["fin"] for c in st["cars"][:seats]), (track, combo)
