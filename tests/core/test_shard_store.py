"""The store's shard filter (both backends): a process reads the start-up, timer, catch-up and
automatic-player work of its own shards' guilds only, set-based in SQL; migration 7's index."""

import time

import pytest

from bot.config import Shards
from bot.store import PromptUpdate, Store
from tests.core.stores import BACKENDS, TOTAL, database_for, guild_on


async def active_game(store: Store, guild: int, *, auto: bool = False, owed: bool = True, due: float = 100.0) -> int:
    gid = await store.create_game("heat", guild, 5, 10, "ann", {}, 7)
    await store.join(gid, 11, "bob", 4)
    await store.start(
        gid, 99, {"n": 0}, [PromptUpdate(0, "h0"), PromptUpdate(1, "h1")], {"x": 1}, [0, 1], {0: due, 1: due + 1}
    )
    if auto:
        await store.clocks.set_auto(gid, 1, True)
    if not owed:
        await store.settle(gid, [0])
    return gid


@pytest.fixture(params=BACKENDS)
async def store(request, tmp_path):
    s = await Store.open(await database_for(request.param, tmp_path))
    yield s
    await s.close()


async def test_each_process_sees_only_its_shards(store):
    games = {
        shard: await active_game(store, guild_on(shard), auto=True, due=100.0 + 10 * shard) for shard in range(TOTAL)
    }
    lobby = await store.create_game("heat", guild_on(3, 5), 6, 10, "ann", {}, 7)  # its post never recorded
    everything = await store.clocks.due_timers(10**9)
    assert len(everything) == 2 * TOTAL and await store.clocks.next_timer_due() == 100.0

    store.shards = Shards(1, 2, TOTAL)
    assert {o.game_id for o in await store.owed()} == {games[1], games[2]}
    assert {g for g, *_ in await store.clocks.due_timers(10**9)} == {games[1], games[2]}
    assert [t[:2] for t in await store.clocks.due_timers(115.0)] == [(games[1], 0), (games[1], 1)]
    assert await store.clocks.next_timer_due() == 110.0
    assert await store.clocks.games_with_auto_seats() == [games[1], games[2]]
    assert await store.lobbies_without_message() == []
    assert await store.owed(games[0]) != []  # one game by its id: whoever asks (a DM's move, a retry)

    store.shards = Shards(3, 3, TOTAL)
    assert await store.lobbies_without_message() == [(lobby, 6)]
    assert await store.clocks.next_timer_due() == 130.0
    store.shards = Shards(0, 0, TOTAL)
    assert await store.clocks.next_timer_due() == 100.0


async def test_restoring_timers_touches_only_its_shards(store):
    games = [await active_game(store, guild_on(shard)) for shard in range(TOTAL)]
    for gid in games:
        await store.clocks.set_timers(gid, "remind", set(), {})  # a crash lost them
    store.shards = Shards(2, 3, TOTAL)
    await store.clocks.restore_timers(500.0)
    assert sorted({g for g, *_ in await store.clocks.due_timers(10**9)}) == games[2:]
    store.shards = None
    assert sorted({g for g, *_ in await store.clocks.due_timers(10**9)}) == games[2:]  # the others are theirs
    await store.clocks.restore_timers(600.0)
    assert sorted({g for g, *_ in await store.clocks.due_timers(10**9)}) == games


async def test_the_catch_up_sweep_reads_only_what_waited(store):
    store.shards = Shards(0, 0, TOTAL)
    gid = await active_game(store, guild_on(0))
    assert await store.owed(older_than=time.time() - 60) == []  # just committed: its own process says it
    assert [o.game_id for o in await store.owed(older_than=time.time() + 1)] == [gid]


async def test_migration_7_indexes_the_automatic_players_seats(store):
    if store.backend == "sqlite":
        rows = await store._read("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'seats_auto'")
        plan = " ".join(
            str(r)
            for r in await store._read(
                "EXPLAIN QUERY PLAN SELECT DISTINCT game_id FROM seats JOIN games ON games.id = game_id WHERE auto = 1 "
                "AND games.status = 'active'"
            )
        )
        assert "seats_auto" in plan
    else:
        rows = await store._read("SELECT indexname FROM pg_indexes WHERE indexname = 'seats_auto'")
    assert rows


async def test_the_shard_queries_walk_their_indexes(tmp_path):
    """SQLite's plans: timers in due order (stopping at the first of ours), each game by its key."""
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        store.shards = Shards(0, 1, TOTAL)
        traced: list[str] = []
        await store._db.set_trace(traced.append)
        await store.clocks.next_timer_due()
        await store.clocks.due_timers(5.0)
        await store.owed()
        await store._db.set_trace(None)
        joined = [sql for sql in traced if sql.startswith("SELECT") and "FROM games AS g" in sql]
        assert len(joined) == 3, traced
        for sql in joined:
            plan = " ".join(r[3] for r in await store._read("EXPLAIN QUERY PLAN " + sql, (1,) * sql.count("?")))
            assert "PRIMARY KEY" in plan and "SCAN g " not in plan and not plan.endswith("SCAN g"), plan
            if "timers" in sql:
                assert "INDEX timers_due" in plan, plan
    finally:
        await store.close()
