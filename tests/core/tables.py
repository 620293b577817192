"""A Heat game set up in the store and a table without Discord: what the move path's tests share."""

from __future__ import annotations

from bot.games.registry import engines
from bot.store import Game, Store
from bot.table import Table

ENGINES = engines()
HEAT = ENGINES["heat"]


class NoBot:
    user = None


async def heat_game(store: Store, table: Table, seats: int = 3, seed: int = 4) -> int:
    options = HEAT.validate_options({"track": "usa"}, seats)
    gid = await store.create_game("heat", 1, 5, 100, "p0", options, seed)
    for i in range(1, seats):
        await store.join(gid, 100 + i, f"p{i}", 6)
    game = await store.game(gid)
    state = HEAT.new_game(options, seats, seed)
    to_act, fresh = table.reminders(HEAT, game, state, list(range(seats)))
    await store.start(gid, 10_000 + gid, state, table.prompts(HEAT, game, state, force=True), {}, to_act, fresh)
    await store.settle(gid, [0])
    return gid


def a_move(engine, game: Game, state) -> dict:
    seat = engine.to_act(state)[0]
    return next(a for a in engine.legal_actions(state, seat) if a.get("type") != "prefs")
