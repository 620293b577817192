"""Issue #17, the cost of one move: an active game's next move is not loaded again (the store keeps
its row up to date), and the announcements' progress is written behind, for all games at once."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.games.registry import engines
from bot.store import CACHED_GAMES, PromptUpdate, Store
from tests.core.stores import BACKENDS, database_for, statements

HEAT = engines()["heat"]


async def a_game(store: Store, i: int = 0) -> int:
    gid = await store.create_game("heat", 1, 5, 100, "ann", {"track": "usa"}, i)
    await store.join(gid, 101, "bob", 6)
    state = HEAT.new_game({"track": "usa"}, 2, i)
    await store.start(gid, 10_000 + gid, state, [PromptUpdate(0, "a"), PromptUpdate(1, "b")], {}, [0, 1], {})
    return gid


@pytest.fixture(params=BACKENDS)
async def path(request, tmp_path):
    """A fresh database of each backend (an SQLite path or a PostgreSQL URL)."""
    return await database_for(request.param, tmp_path)


async def fresh(path) -> dict:
    """The game as a second connection reads it from the database (a plain one: not a Store, whose
    start-up checks would compete with the store under test)."""
    queries = (
        "SELECT version, snapshot FROM games WHERE id = 1",
        "SELECT seat, prompt_version, prompt_hash, dm_ok FROM seats WHERE game_id = 1 ORDER BY seat",
        "SELECT version, sent FROM owed WHERE game_id = 1 ORDER BY version",
    )
    if isinstance(path, str):
        import asyncpg

        conn = await asyncpg.connect(path)
        try:
            results = [[tuple(r) for r in await conn.fetch(q)] for q in queries]
        finally:
            await conn.close()
    else:
        con = sqlite3.connect(path)
        try:
            results = [con.execute(q).fetchall() for q in queries]
        finally:
            con.close()
    ((version, snapshot),) = results[0]
    seats, owed = results[1], results[2]
    return {"version": version, "snapshot": snapshot, "seats": seats, "owed": owed}


async def test_a_move_is_one_statement_and_the_kept_game_equals_the_file(path):
    store = await Store.open(path)
    gid = await a_game(store)
    game = await store.game(gid)
    state = game.snapshot

    async def move():
        loaded = await store.game(gid)
        await store.commit_move(
            gid, loaded.version, 0, {"type": "x"}, state, False, [PromptUpdate(1, "h1")], {"events": []}, [1], {}
        )

    seen = await statements(store, move)
    # one statement (the trace repeats its text for each step of its trigger): no load, no other write
    assert len(set(seen)) == 1 and seen[0].startswith(("INSERT INTO moves", "SELECT commit_move"))
    kept = await store.game(gid)
    store._rows.clear()
    read = await store.game(gid)
    assert (kept.version, kept.snapshot, kept.status, kept.seats) == (
        read.version,
        read.snapshot,
        read.status,
        read.seats,
    ) and read.version == 1
    assert read.seats[1].prompt_hash == "h1" and read.seats[1].prompt_version == 1
    assert read.seats[0].prompt_hash == "a" and read.seats[0].prompt_version == 0
    await store.close()


async def test_each_caller_gets_its_own_game(path):
    store = await Store.open(path)
    gid = await a_game(store)
    one, two = await store.game(gid), await store.game(gid)
    one.version, one.seats[0].name = 99, "changed"
    one.snapshot["round"] = 42
    three = await store.game(gid)
    assert three.version == 0 and three.seats[0].name == "ann" and three.snapshot == two.snapshot
    await store.close()


async def test_writes_outside_a_move_drop_the_kept_game(path):
    store = await Store.open(path)
    gid = await a_game(store)
    await store.game(gid)
    await store.set_dm_ok(gid, 101, False)
    assert (await store.game(gid)).seats[1].dm_ok is False
    await store.set_status(gid, "abandoned")
    assert (await store.game(gid)).status == "abandoned"
    assert gid not in store._rows  # only active games are kept
    await store.close()


async def test_a_stale_move_drops_the_kept_game(path):
    store = await Store.open(path)
    gid = await a_game(store)
    state = (await store.game(gid)).snapshot
    await store.commit_move(gid, 0, 0, {"type": "x"}, state, False, [], {}, [0, 1], {})
    try:
        await store.commit_move(gid, 0, 0, {"type": "x"}, state, False, [], {}, [0, 1], {})
    except Exception as err:
        assert type(err).__name__ == "StaleVersion"
    assert gid not in store._rows and (await store.game(gid)).version == 1
    await store.close()


async def test_kept_games_are_bounded(path, monkeypatch):
    monkeypatch.setattr("bot.store.CACHED_GAMES", 5)
    store = await Store.open(path)
    ids = [await a_game(store, i) for i in range(8)]
    for gid in ids:
        await store.game(gid)
    assert list(store._rows) == ids[-5:] and CACHED_GAMES >= 100
    await store.close()


async def test_progress_is_written_behind_in_one_statement_for_all_games(path):
    store = await Store.open(path)
    ids = [await a_game(store, i) for i in range(30)]

    async def announce_all():
        for gid in ids:
            await store.mark_sent(gid, [0], "post")
            await store.settle(gid, [0])

    assert await statements(store, announce_all) == []  # nothing written yet
    assert (await fresh(path))["owed"] == [(0, "")]
    seen = await statements(store, store.flush)
    assert len(seen) == 1 and seen[0].startswith(("WITH v(g, n)", "DELETE FROM owed USING unnest"))
    assert (await fresh(path))["owed"] == [] and await store.owed() == []
    await store.close()


async def test_progress_is_written_by_itself_soon_and_read_back_by_owed(path, monkeypatch):
    monkeypatch.setattr("bot.store.PROGRESS_AFTER_S", 0.01)
    store = await Store.open(path)
    gid = await a_game(store)
    await store.mark_sent(gid, [0], "post")
    assert [o.sent for o in await store.owed(gid)] == [{"post"}]  # owed() writes what is pending first
    await store.mark_sent(gid, [0], "dm1")
    for _ in range(100):
        if (await fresh(path))["owed"] == [(0, " post dm1")]:
            break
        await asyncio.sleep(0.01)
    assert (await fresh(path))["owed"] == [(0, " post dm1")]
    await store.settle(gid, [0])
    await store.close()  # closing writes what is pending
    assert (await fresh(path))["owed"] == []


async def test_migration_8_keeps_every_row_and_the_move_still_works(tmp_path, monkeypatch):
    """A store at schema 6 (actions, owed and timers as rowid tables) moves to 8 with every row."""
    from bot import store as store_module

    path = tmp_path / "db.sqlite3"
    monkeypatch.setattr(store_module, "MIGRATIONS", store_module.MIGRATIONS[:6])
    old = await Store.open(path)
    gid = await a_game(old)
    state = HEAT.new_game({"track": "usa"}, 2, 0)  # (as a_game stored it: today's reads need today's columns)
    await old.commit_move(
        gid, 0, 0, {"type": "x"}, state, False, [PromptUpdate(1, "h1")], {"events": []}, [1], {1: 123.0}
    )
    await old.clocks.escalate_timer(gid, 1, "remind", 1, 456.0)
    await old.close()
    monkeypatch.undo()
    con = sqlite3.connect(path)
    tables = ("actions", "owed", "timers")
    before = {t: con.execute(f"SELECT * FROM {t} ORDER BY 1, 2, 3").fetchall() for t in tables}
    con.close()
    assert before["timers"] == [(gid, 1, "remind", 456.0, 2)] and len(before["actions"]) == 1
    store = await Store.open(path)
    await store.close()
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == len(store_module.MIGRATIONS)  # 8, and those after it
    assert {t: con.execute(f"SELECT * FROM {t} ORDER BY 1, 2, 3").fetchall() for t in tables} == before
    for t in tables:
        assert "WITHOUT ROWID" in con.execute("SELECT sql FROM sqlite_master WHERE name = ?", (t,)).fetchone()[0]
    assert con.execute("SELECT name FROM sqlite_master WHERE name LIKE '%_old'").fetchall() == []
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    con.close()
    store = await Store.open(path)
    try:
        assert await store.commit_move(gid, 1, 1, {"type": "y"}, state, False, [], {}, [0, 1], {0: 9.0}) == 2
        assert [v for v, _ in (await fresh(path))["owed"]] == [0, 1, 2]
        assert sorted((s, level) for _, s, _, level in await store.clocks.due_timers(10**6)) == [(0, 1), (1, 2)]
        await store.commit_move(gid, 2, 0, {"type": "z"}, state, True, [], {}, [], {})
        assert await store.clocks.due_timers(10**6) == [] and await store.archive(gid)
        await store.settle(gid, [0, 1, 2, 3])
        await store.flush()
        assert (await fresh(path))["owed"] == []
    finally:
        await store.close()


async def test_a_move_writes_few_pages(tmp_path):
    """SQLite: the pages a move adds to the write-ahead log (each page written is a frame), over a
    real race's moves: the snapshot's two, then one each for the action, the seats, the owed
    announcement, and the timers (their key and their due index). A bare INSERT of the same size
    writes about three."""
    from bot.tools.bench import store as bench_store

    path = tmp_path / "db.sqlite3"
    store = await Store.open(path)
    table = bench_store.table_for(store)
    gid = await bench_store.new_game(store, table, "heat", 3, {"track": "usa"}, 11)
    await store._db.execute("PRAGMA wal_autocheckpoint=0")
    await store.flush()
    wal = path.with_name(path.name + "-wal")
    import random

    rnd = random.Random(11)
    start, moves = wal.stat().st_size, 0
    for _ in range(60):
        await bench_store.play_move(store, table, gid, rnd)
        moves += 1
    frames = (wal.stat().st_size - start) / (4096 + 24) / moves
    await store.close()
    assert frames < 11, frames  # 12.2 before migration 8
