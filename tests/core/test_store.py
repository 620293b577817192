import sqlite3

import pytest

from bot.store import MIGRATIONS, PromptUpdate, StaleVersion, Store


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(tmp_path / "db.sqlite3")
    yield s
    await s.close()


async def test_migrations_set_user_version_and_wal(tmp_path):
    s = await Store.open(tmp_path / "db.sqlite3")
    await s.close()
    con = sqlite3.connect(tmp_path / "db.sqlite3")
    assert con.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"games", "seats", "actions", "timers"} <= tables
    # reopening does not re-run migrations
    s = await Store.open(tmp_path / "db.sqlite3")
    await s.close()


async def test_lobby_join_leave_renumbers_seats(store):
    gid = await store.create_game("heat", 1, 2, 10, "ann", {"track": "usa"}, 7)
    assert await store.join(gid, 11, "bob", 3)
    assert not await store.join(gid, 11, "bob", 3)  # already seated
    assert await store.join(gid, 12, "cy", 3)
    assert not await store.join(gid, 13, "dee", 3)  # full
    assert await store.leave(gid, 11)
    game = await store.game(gid)
    assert [(s.seat, s.user_id) for s in game.seats] == [(0, 10), (1, 12)]


async def test_commit_move_is_guarded_by_version(store):
    gid = await store.create_game("heat", 1, 2, 10, "ann", {}, 7)
    await store.join(gid, 11, "bob", 4)
    assert await store.start(gid, 99, {"n": 0}, [PromptUpdate(0, "h0"), PromptUpdate(1, "h1")])
    assert not await store.start(gid, 99, {"n": 0}, [])  # only once
    v = await store.commit_move(gid, 0, 0, {"type": "a"}, {"n": 1}, False, [PromptUpdate(1, "x")])
    assert v == 1
    with pytest.raises(StaleVersion):
        await store.commit_move(gid, 0, 1, {"type": "b"}, {"n": 2}, False, [])
    game = await store.game(gid)
    assert game.version == 1 and game.snapshot == {"n": 1}
    assert [s.prompt_version for s in game.seats] == [0, 1]
    assert await store.actions(gid) == [(0, {"type": "a"})]


async def test_a_failed_transaction_leaves_nothing(store):
    gid = await store.create_game("heat", 1, 2, 10, "ann", {}, 7)
    await store.start(gid, 99, {"n": 0}, [])
    with pytest.raises(Exception):
        # a snapshot that cannot be serialised fails inside the transaction, after nothing else
        await store.commit_move(gid, 0, 0, {"type": "a"}, {"bad": object()}, False, [])
    game = await store.game(gid)
    assert game.version == 0 and game.snapshot == {"n": 0} and await store.actions(gid) == []


async def test_timers_survive_reopen(tmp_path):
    s = await Store.open(tmp_path / "db.sqlite3")
    gid = await s.create_game("heat", 1, 2, 10, "ann", {}, 7)
    await s.set_timers(gid, "remind", {0}, {0: 100.0})
    await s.close()
    s = await Store.open(tmp_path / "db.sqlite3")
    assert await s.due_timers(50.0) == []
    assert await s.due_timers(100.0) == [(gid, 0, "remind", 1)]
    await s.delete_timer(gid, 0, "remind")
    assert await s.next_timer_due() is None
    await s.close()


async def test_a_failure_between_the_writes_rolls_back_all(store):
    """The action row cannot be written (a row is already there): the snapshot, version and seats
    must stay as they were, although the version check passed."""
    gid = await store.create_game("heat", 1, 2, 10, "ann", {}, 7)
    await store.start(gid, 99, {"n": 0}, [PromptUpdate(0, "h0")])
    await store._conn.execute("INSERT INTO actions (game_id, version, seat, action, created_at) "
                              "VALUES (?, 1, 0, '{}', 0)", (gid,))
    with pytest.raises(Exception) as err:
        await store.commit_move(gid, 0, 0, {"type": "a"}, {"n": 1}, False, [PromptUpdate(0, "new")])
    assert not isinstance(err.value, StaleVersion)
    game = await store.game(gid)
    assert game.version == 0 and game.snapshot == {"n": 0} and game.seats[0].prompt_hash == "h0"


async def test_finishing_clears_timers(store):
    gid = await store.create_game("heat", 1, 2, 10, "ann", {}, 7)
    await store.start(gid, 99, {"n": 0}, [])
    await store.set_timers(gid, "remind", {0}, {0: 5.0})
    await store.commit_move(gid, 0, 0, {"type": "a"}, {"n": 1}, True, [])
    assert (await store.game(gid)).status == "finished" and await store.next_timer_due() is None


async def test_set_timers_keeps_the_still_waiting(store):
    gid = await store.create_game("heat", 1, 2, 10, "ann", {}, 7)
    await store.set_timers(gid, "remind", {0, 1}, {0: 10.0, 1: 10.0})
    await store.set_timers(gid, "remind", {1}, {})  # seat 0 moved; seat 1 still thinking
    assert await store.due_timers(99.0) == [(gid, 1, "remind", 1)]
