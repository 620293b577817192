"""Issue #35: ratings after `python -m bot store copy SRC DST` (bot/store_copy.py). The copy does not
carry the ratings: the target's start-up rates its finished games (bot/ratings.py catch_up, run by
cogs/stats.py) and must arrive at exactly the source's ratings, however the source's were made (at
each game's end, or by its own start-up after a crash), and only once.

The source holds seeded games of several kinds, played to their end through the store as the table
does (last move, archive, rating): ties (Rallyman's six drivers, Steam Works' shared score), a seat
finished by the automatic player as a stand-in, an AI seat, two servers, a solo game (rates no one),
an abandoned game and one still going (never rated), and games that ended in another order than
they began."""

from __future__ import annotations

from typing import Any

import pytest

from bot import ratings
from bot.games.registry import engines
from bot.store import Store
from bot.store_copy import copy_store
from cogs.stats import StatsCog
from tests.core.stores import database_for

ENGINES = engines()
HERE, THERE = 111 << 22, 222 << 22  # two servers


class Playing:
    """A started stored game, moved on by the automatic player, each move committed as the table does."""

    def __init__(self, store: Store, game_id: int, kind: str, state: dict[str, Any]) -> None:
        self.store, self.game_id, self.engine, self.state, self.version = store, game_id, ENGINES[kind], state, 0

    @classmethod
    async def open(
        cls, store: Store, kind: str, guild: int, users: list[int], options: dict, seed: int, ai: int = 0
    ) -> Playing:
        engine = ENGINES[kind]
        game_id = await store.create_game(
            kind, guild, 5, users[0], f"U{users[0]}", options, seed, ai=ai, ai_level="strong"
        )
        for user in users[1:]:
            assert await store.join(game_id, user, f"U{user}", engine.max_seats)
        n = len(users) + ai
        state = engine.new_game(engine.validate_options(options, n), n, seed)
        assert await store.start(game_id, 7, state, [])
        return cls(store, game_id, kind, state)

    async def moves(self, count: int | None = None) -> None:
        """`count` moves, or to the end; at the end the log is archived and the game rated, as
        Table.commit does (`rate`: False is a crash between the last move and its rating)."""
        while not self.engine.is_over(self.state) and count != 0:
            seat = self.engine.to_act(self.state)[0]
            action = self.engine.auto_action(self.state, seat)
            self.state, _ = self.engine.apply(self.state, seat, action)
            over = self.engine.is_over(self.state)
            self.version = await self.store.commit_move(self.game_id, self.version, seat, action, self.state, over, [])
            count = None if count is None else count - 1

    async def finish(self, rate: bool = True) -> None:
        await self.moves()
        assert await self.store.archive(self.game_id)
        if rate:
            await ratings.record(self.store, self.engine, await self.store.game(self.game_id))


async def seeded(store: Store) -> None:
    pon = await Playing.open(store, "pon", HERE, [100, 101, 102], {}, 3)
    await pon.moves(20)
    assert await store.clocks.set_auto(pon.game_id, 1, True)  # bob is away: the stand-in finishes his seat
    rally = await Playing.open(store, "rallyman", HERE, [100 + k for k in range(6)], {"stage": "Rally1 SS1"}, 3)
    await rally.finish()
    assert ENGINES["rallyman"].placings(rally.state) == [6, 1, 3, 1, 4, 5]  # two share the fastest time
    again = await Playing.open(store, "pon", THERE, [101, 102, 104], {}, 1)
    await again.finish()
    await pon.finish()  # begun first, ended after the other two (the same players' ratings: in this order)
    works = await Playing.open(store, "steamworks", THERE, [100, 103], {}, 2, ai=1)  # seat 1: an AI
    await works.finish()
    assert ENGINES["steamworks"].placings(works.state) == [3, 1, 1]  # the AI and carol share first
    gone = await Playing.open(store, "pon", HERE, [100, 101, 103], {}, 2)
    await gone.moves(15)
    assert await store.set_status(gone.game_id, "abandoned")  # never counts
    going = await Playing.open(store, "rallyman", HERE, [102, 103], {"stage": "Rally1 SS1"}, 1)
    await going.moves(5)  # still going: not rated
    solo = await Playing.open(store, "rallyman", HERE, [105], {"stage": "Rally1 SS1"}, 2)
    await solo.finish()  # alone: rates no one (seen)
    last = await Playing.open(store, "pon", HERE, [103, 104, 100], {}, 2)
    await last.finish(rate=False)  # a crash between its last move and its rating
    assert await ratings.catch_up(store, ENGINES) == 1  # the source's start-up rated it


async def rated_rows(store: Store) -> dict[str, list[tuple]]:
    """Every rating and every rated seat, but when each was written: the source's were written as
    its games ended, the copy's at its start-up (rated seats keep their order by game end)."""
    return {
        "ratings": await store._db.fetch(
            "SELECT kind, scope, player, name, mu, sigma, games, wins FROM ratings ORDER BY kind, scope, player"
        ),
        "rated": await store._db.fetch(
            "SELECT game_id, seat, kind, player, place, field, mu, sigma FROM rated ORDER BY game_id, seat"
        ),
        "history": await store._db.fetch("SELECT game_id FROM rated WHERE seat <= 0 ORDER BY ended_at, game_id"),
    }


async def start_up(store: Store) -> int:
    """What the bot's start-up does about ratings: the stats cog's catch-up, in the background."""
    bot: Any = type("Bot", (), {})()
    bot.table = type("Table", (), {"store": store, "engines": ENGINES})()
    cog = StatsCog(bot)
    await cog.cog_load()
    assert cog.catching_up is not None
    await cog.catching_up
    return len(await store._db.fetch("SELECT DISTINCT game_id FROM rated"))


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Any:
    import asyncio

    path = tmp_path_factory.mktemp("ratings") / "source.sqlite3"

    async def build() -> None:
        store = await Store.open(path)
        try:
            await seeded(store)
        finally:
            await store.close()

    asyncio.run(build())
    return path


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_a_copy_started_up_has_exactly_the_sources_ratings_once(source, tmp_path, backend):
    store = await Store.open(source)
    try:
        before = await rated_rows(store)
        assert await store.players.unrated_games() == []
    finally:
        await store.close()
    kinds = {row[0] for row in before["ratings"]}
    assert kinds == {"pon", "rallyman", "steamworks"} and len(before["history"]) == 6  # 5 rated, the solo one seen
    assert {row[2] for row in before["ratings"] if row[0] == "steamworks"} == {"100", "103", "ai:strong"}
    assert {(row[1], row[2]) for row in before["ratings"] if row[0] == "pon"} >= {(HERE, "101"), (THERE, "101")}

    target = await database_for(backend, tmp_path)
    await copy_store(source, target, lambda line: None)
    store = await Store.open(target)
    try:
        assert await rated_rows(store) == {"ratings": [], "rated": [], "history": []}  # not carried
        assert await start_up(store) == 6
        after = await rated_rows(store)
        assert after == before
        stamps = await store._db.fetch("SELECT kind, scope, player, updated_at FROM ratings ORDER BY 1, 2, 3")
        assert await ratings.catch_up(store, ENGINES) == 0  # a second start-up rates nothing again
        assert await start_up(store) == 6
        for game_id in [row[0] for row in after["history"]]:  # nor does a late end-of-game rating
            game = await store.game(game_id)
            assert game is not None and not await ratings.record(store, ENGINES[game.kind], game)
        assert await rated_rows(store) == after
        assert await store._db.fetch("SELECT kind, scope, player, updated_at FROM ratings ORDER BY 1, 2, 3") == stamps
    finally:
        await store.close()
