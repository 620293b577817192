"""PON's end-of-game statistics (issue #35): PON sets, overtakes, blocks, from the replayed game's
public events (bot/games/stats.py)."""

from __future__ import annotations

from typing import Any

from bot.games.base import Engine, State
from bot.games.stats import Step, places_row, row, tally
from bot.i18n import msg


def compute(engine: Engine, first: State, steps: list[Step]) -> dict[str, Any]:
    seats = first["seats"]
    final = steps[-1][3] if steps else first
    count = lambda key, param, when=None: tally(steps, seats, key, param, when)  # noqa: E731
    blocks = [
        a + b for a, b in zip(count("{d} blocks {a} with {cards}.", "d"), count("{d} blocks {a} without a card.", "d"))
    ]
    blocked = [
        a + b for a, b in zip(count("{d} blocks {a} with {cards}.", "a"), count("{d} blocks {a} without a card.", "a"))
    ]
    slip = count(
        "{p} takes {card} from the discard ({why}).", "p", lambda p: getattr(p.get("why"), "key", None) == "slipstream"
    )
    return {
        "title": msg("PON — statistics"),
        "rows": [
            places_row(engine, final, seats),
            row(msg("PON sets won"), count("PON! {p} takes {card} with {pair}; {actor} plays again.", "p")),
            row(msg("PON decays"), count("{p}'s PON decays ({why}): {cards} to the discard.", "p"), best="min"),
            row(msg("Overtakes"), count("{a} overtakes {d} and is now {pos}.", "a")),
            row(msg("Overtaken"), count("{a} overtakes {d} and is now {pos}.", "d"), best="min"),
            row(msg("Blocks"), blocks),
            row(msg("Blocked"), blocked, best="min"),
            row(msg("Slipstreams"), slip),
            row(msg("Cards played"), count("{p} plays {card}.", "p"), best=None),
        ],
    }
