"""What must not grow with the number of games: start-up statements, catch-up concurrency, locks,
and the plans of the statements an interaction runs."""

from __future__ import annotations

import asyncio
import gc
import sqlite3

import pytest

from bot.delivery import Outcome
from bot.games.registry import engines
from bot.store import PromptUpdate, Store
from bot.announcer import CATCH_UP_AT_ONCE
from bot.table import Table
from tests.core.stores import BACKENDS, database_for, statements

ENGINES = engines()


class NoBot:
    user = None


async def add_games(store: Store, active: int, finished: int = 0) -> list[int]:
    engine = ENGINES["heat"]
    ids = []
    for i in range(active + finished):
        gid = await store.create_game("heat", 1, 5, 100 + i, "ann", {"track": "usa"}, i)
        await store.join(gid, 1000 + i, "bob", 6)
        state = engine.new_game({"track": "usa"}, 2, i)
        await store.start(
            gid, 10_000 + gid, state, [PromptUpdate(0, "a"), PromptUpdate(1, "b")], {}, engine.to_act(state), {}
        )
        if i >= active:
            await store.commit_move(gid, 0, 0, {"type": "x"}, state, True, [], {})
            await store.archive(gid)
        await store.settle(gid, [0, 1] if i >= active else [0])
        ids.append(gid)
    await store.flush()  # the setup's written-behind progress goes now, not inside a measured window
    return ids


async def count_statements(store: Store, work) -> int:
    return len(await statements(store, work))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("finished", [0, 100])
async def test_start_up_statements_do_not_grow_with_games(tmp_path, finished, backend):
    counts = []
    for n in (10, 120):  # (12 times as many games: what grows with them shows; nothing there is batched)
        folder = tmp_path / str(n)
        folder.mkdir()
        store = await Store.open(await database_for(backend, folder))
        await add_games(store, n, finished)
        table = Table(NoBot(), store, ENGINES, 3600)  # type: ignore[arg-type]

        async def start_up():
            await table.announcer.start_catch_up()
            await table.recover()
            await table.announcer.stop_catch_up()

        counts.append(await count_statements(store, start_up))
        assert len(await store.clocks.due_timers(10**12)) == 2 * n  # every waiting seat got its reminder
        await store.close()
    assert counts[0] == counts[1], counts


@pytest.mark.parametrize("backend", BACKENDS)
async def test_catch_up_renders_a_few_games_at_a_time(tmp_path, backend):
    store = await Store.open(await database_for(backend, tmp_path))
    ids = await add_games(store, 12)
    for gid in ids:  # each game owes its start again, as after a crash
        game = await store.game(gid)
        await store.commit_move(gid, 0, 0, {"type": "x"}, game.snapshot, False, [], {"events": [["hi", None]]}, [0, 1])
    table = Table(NoBot(), store, ENGINES, 3600)  # type: ignore[arg-type]
    running, most, done = 0, 0, []

    async def announce(outcome: Outcome) -> bool:
        nonlocal running, most
        running += 1
        most = max(most, running)
        await asyncio.sleep(0.02)
        running -= 1
        done.append(outcome.game.id)
        return True

    table.out.announce = announce  # type: ignore[method-assign]
    await table.announcer.start_catch_up()
    for _ in range(500):
        if len(done) == len(ids):
            break
        await asyncio.sleep(0.02)
    await table.announcer.stop_catch_up()
    assert sorted(done) == ids and most <= CATCH_UP_AT_ONCE
    assert await store.owed() == []
    await store.close()


async def test_locks_do_not_outlive_their_use(tmp_path):
    table = Table(NoBot(), None, ENGINES, 3600)  # type: ignore[arg-type]
    for gid in range(1, 500):
        async with table.lock(gid):
            pass
    held = table.lock(7)
    gc.collect()
    assert list(table._locks) == [7] and held is table.lock(7)


async def test_interaction_statements_use_indexes(tmp_path):  # SQLite's plans (EXPLAIN QUERY PLAN)
    path = tmp_path / "db.sqlite3"
    store = await Store.open(path)
    ids = await add_games(store, 20, 20)
    statements: list[str] = []
    await store._conn.set_trace_callback(statements.append)
    gid = ids[0]
    game = await store.game(gid)
    await store.game_by_thread(10_000 + gid, None, ("active", "finished"))
    await store.game_by_thread(10_000 + gid, "heat", ("active",))
    await store.games_of_user(1000, ("lobby", "active"))
    await store.open_lobby(5, "heat")
    await store.owed(gid)
    await store.commit_move(
        gid, game.version, 0, {"type": "x"}, game.snapshot, False, [PromptUpdate(0, "z")], {}, [1], {1: 5.0}
    )
    await store.mark_sent(gid, [1], "post")
    await store.settle(gid, [1])
    await store.actions(gid)
    await store.actions(ids[-1])
    await store.players.user(1000)
    await store.set_dm_ok(gid, 1000, False)
    await store._conn.set_trace_callback(None)
    await store.close()
    con = sqlite3.connect(path)
    checked = 0
    for sql in statements:
        head = sql.lstrip().split(None, 1)[0].upper()
        if head not in ("SELECT", "UPDATE", "DELETE", "INSERT") or sql.startswith("--"):
            continue
        plan = " | ".join(row[3] for row in con.execute("EXPLAIN QUERY PLAN " + sql))
        checked += 1
        assert "TEMP B-TREE" not in plan, (sql, plan)
        for table in ("games", "seats", "actions", "owed", "timers", "dm_channels"):
            assert f"SCAN {table}" not in plan, (sql, plan)
    assert checked >= 12
