"""The store, on both backends: every test taking `database` (or `store`) runs on SQLite and on
a throwaway PostgreSQL server (bot/tools/pgserver.py; skipped where none is installed, unless
BOT_REQUIRE_POSTGRES=1, as .ci/run sets it)."""

import asyncio
import os
import random
import sqlite3
from pathlib import Path

import pytest

from bot.games.base import replay
from bot.games.registry import engines
from bot.store import MIGRATIONS, PromptUpdate, StaleVersion, Store
from bot.tools.pgserver import NoServer
from tests.core.stores import BACKENDS, database_for


@pytest.fixture(params=BACKENDS)
async def database(request, tmp_path):
    return await database_for(request.param, tmp_path)


@pytest.fixture
async def store(database):
    s = await Store.open(database)
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


async def test_postgresql_numbers_its_schema_like_sqlite(tmp_path):
    url = await database_for("postgresql", tmp_path)
    s = await Store.open(url)
    assert s.backend == "postgresql"
    assert await s._conn.fetchval("SELECT max(number) FROM schema_version") == len(MIGRATIONS)
    await s.close()
    s = await Store.open(url)  # reopening runs nothing again
    assert await s._conn.fetchval("SELECT count(*) FROM schema_version") == len(MIGRATIONS)
    await s.close()


def test_without_a_server_installed_the_hint_is_one_line(monkeypatch):
    from bot.tools import pgserver as store_pgserver

    monkeypatch.setattr(store_pgserver, "find_program", lambda name: None)
    with pytest.raises(NoServer) as err:
        store_pgserver.Server()
    assert str(err.value) == store_pgserver.INSTALL_HINT and "apt-get install postgresql" in str(err.value)


def test_the_bot_refuses_to_start_on_an_unreachable_database(tmp_path):
    import subprocess
    import sys

    env = {
        **os.environ,
        "DISCORD_TOKEN": "x" * 24 + "." + "y" * 6 + "." + "z" * 27,
        "BOT_STATE_DIR": str(tmp_path / "state"),
        "BOT_DATABASE": f"postgresql://bot:secret@/games?host={tmp_path}/nowhere",
    }
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        f"cannot use the database postgresql://bot:***@/games?host={tmp_path}/nowhere: cannot connect to the "
        f"server ([Errno 2] No such file or directory)"
    ], done.stderr


async def test_processes_starting_together_on_a_new_postgresql_database_migrate_it_once(tmp_path):
    url = await database_for("postgresql", tmp_path)
    stores = await asyncio.gather(*[Store.open(url) for _ in range(4)])
    try:
        assert await stores[0]._conn.fetchval("SELECT count(*) FROM schema_version") == len(MIGRATIONS)
        gid = await stores[1].create_game("heat", 1, 2, 3, "x", {}, 1)
        assert (await stores[3].game(gid)).creator_id == 3
    finally:
        for s in stores:
            await s.close()


async def test_an_unreachable_database_is_refused_in_one_line(tmp_path):
    from bot.store import StoreError

    url = "postgresql://bot:secret@/nowhere?host=" + str(tmp_path) + "&port=1"
    with pytest.raises(StoreError) as err:
        await Store.open(url)
    text = str(err.value)
    assert "\n" not in text and "secret" not in text and "nowhere" in text


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


async def test_timers_survive_reopen(database):
    s = await Store.open(database)
    gid = await s.create_game("heat", 1, 2, 10, "ann", {}, 7)
    await s.clocks.set_timers(gid, "remind", {0}, {0: 100.0})
    await s.close()
    s = await Store.open(database)
    assert await s.clocks.due_timers(50.0) == []
    assert await s.clocks.due_timers(100.0) == [(gid, 0, "remind", 1)]
    await s.clocks.delete_timer(gid, 0, "remind")
    assert await s.clocks.next_timer_due() is None
    await s.close()


async def test_a_failure_between_the_writes_rolls_back_all(store):
    """The action row cannot be written (a row is already there): the snapshot, version and seats
    must stay as they were, although the version check passed."""
    gid = await store.create_game("heat", 1, 2, 10, "ann", {}, 7)
    await store.start(gid, 99, {"n": 0}, [PromptUpdate(0, "h0")])
    await store._db.execute(
        "INSERT INTO actions (game_id, version, seat, action, created_at) VALUES (?, 1, 0, '{}', 0)", (gid,)
    )
    with pytest.raises(Exception) as err:
        await store.commit_move(gid, 0, 0, {"type": "a"}, {"n": 1}, False, [PromptUpdate(0, "new")])
    assert not isinstance(err.value, StaleVersion)
    game = await store.game(gid)
    assert game.version == 0 and game.snapshot == {"n": 0} and game.seats[0].prompt_hash == "h0"


async def test_finishing_clears_timers(store):
    gid = await store.create_game("heat", 1, 2, 10, "ann", {}, 7)
    await store.start(gid, 99, {"n": 0}, [])
    await store.clocks.set_timers(gid, "remind", {0}, {0: 5.0})
    await store.commit_move(gid, 0, 0, {"type": "a"}, {"n": 1}, True, [])
    assert (await store.game(gid)).status == "finished" and await store.clocks.next_timer_due() is None


async def test_set_timers_keeps_the_still_waiting(store):
    gid = await store.create_game("heat", 1, 2, 10, "ann", {}, 7)
    await store.clocks.set_timers(gid, "remind", {0, 1}, {0: 10.0, 1: 10.0})
    await store.clocks.set_timers(gid, "remind", {1}, {})  # seat 0 moved; seat 1 still thinking
    assert await store.clocks.due_timers(99.0) == [(gid, 1, "remind", 1)]


async def started(store: Store, seats: int = 2) -> int:
    gid = await store.create_game("heat", 1, 2, 10, "ann", {}, 7)
    for s in range(1, seats):
        await store.join(gid, 10 + s, f"p{s}", 4)
    await store.start(gid, 99, {"n": 0}, [PromptUpdate(0, "h0")], {}, [0, 1], {0: 50.0, 1: 60.0})
    return gid


async def test_two_stores_on_one_database_refuse_a_stale_or_duplicate_move(database):
    """A handover: two processes hold the same game. Whoever commits second on the same version
    is refused and writes nothing, even with the game kept in memory (its kept row is then dropped)."""
    one, two = await Store.open(database), await Store.open(database)
    try:
        gid = await started(one)
        assert (await one.game(gid)).version == (await two.game(gid)).version == 0  # both keep the row
        assert await one.commit_move(gid, 0, 0, {"type": "a"}, {"n": 1}, False, [], {}, [1], {}) == 1
        with pytest.raises(StaleVersion):  # the same move again, from the other process
            await two.commit_move(gid, 0, 0, {"type": "a"}, {"n": 1}, False, [], {}, [1], {})
        game = await two.game(gid)  # read afresh after the refusal
        assert game.version == 1 and game.snapshot == {"n": 1}
        assert await two.actions(gid) == [(0, {"type": "a"})]
        # at the same moment: exactly one of two competing moves is written
        results = await asyncio.gather(
            one.commit_move(gid, 1, 1, {"type": "b"}, {"n": 2}, False, [], {}, [0], {}),
            two.commit_move(gid, 1, 0, {"type": "c"}, {"n": 3}, False, [], {}, [1], {}),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in results) == ["StaleVersion", "int"], results
        winner = results.index(2)
        game = await (one, two)[1 - winner].game(gid)
        assert game.version == 2 and game.snapshot == {"n": 2 + winner}
        assert [o.version for o in await one.owed(gid)] == [0, 1, 2]
        assert len(await one.actions(gid)) == 2
    finally:
        await one.close()
        await two.close()


async def test_two_stores_seating_players_at_once_fill_a_lobby_exactly(database):
    one, two = await Store.open(database), await Store.open(database)
    try:
        gid = await one.create_game("heat", 1, 2, 10, "ann", {}, 7)
        joined = await asyncio.gather(*[(one, two)[i % 2].join(gid, 100 + i, f"p{i}", 4) for i in range(8)])
        assert sum(joined) == 3
        seats = (await two.game(gid)).seats
        assert [s.seat for s in seats] == [0, 1, 2, 3] and len({s.user_id for s in seats}) == 4
        left = await asyncio.gather(one.leave(gid, seats[1].user_id), two.leave(gid, seats[1].user_id))
        assert sorted(left) == [False, True]
        assert [s.seat for s in (await one.game(gid)).seats] == [0, 1, 2]
    finally:
        await one.close()
        await two.close()


async def test_timers_and_owed_announcements_survive_a_crash(database):
    """Closed without writing what was pending (a crash): the timers written with the moves are
    there, and every announcement not recorded as settled is still owed."""
    s = await Store.open(database)
    gid = await started(s)
    await s.settle(gid, [0])
    await s.flush()
    await s.commit_move(gid, 0, 0, {"type": "a"}, {"n": 1}, False, [], {"events": [1]}, [1], {1: 70.0})
    await s.mark_sent(gid, [1], "post")
    await s.settle(gid, [1])  # noted, not yet written ...
    s._flush_timer.cancel()
    await s._db.close()  # ... and the process dies
    s = await Store.open(database)
    try:
        assert await s.clocks.due_timers(1000.0) == [(gid, 1, "remind", 1)]
        assert [(o.version, o.outcome) for o in await s.owed(gid)] == [(1, {"events": [1]})]
    finally:
        await s.close()


async def test_the_progress_hook_hears_each_write_of_announcement_progress(store):
    """Store.on_progress_written (the bench's instrumentation) gets the statements and seconds of
    each write of announcement progress, and nothing when there was nothing to write."""
    heard: list[tuple[int, float]] = []
    store.on_progress_written = lambda statements, seconds: heard.append((statements, seconds))
    gid = await started(store)
    await store.flush()
    assert heard == []
    await store.commit_move(gid, 0, 0, {"type": "a"}, {"n": 1}, False, [], {}, [1], {1: 70.0})
    await store.settle(gid, [0])
    await store.mark_sent(gid, [1], "post")
    await store.flush()  # the settled row deleted, the part out recorded: two statements
    assert [n for n, _ in heard] == [2] and heard[0][1] >= 0
    assert [o.version for o in await store.owed(gid)] == [1]


@pytest.mark.parametrize("kind", ["heat", "pon"])
async def test_replay_equals_snapshot_through_a_whole_game(database, kind):
    engine = engines()[kind]
    seats = 3
    store = await Store.open(database)
    try:
        options = engine.validate_options({}, seats)
        gid = await store.create_game(kind, 1, 2, 100, "u0", options, 99)
        for i in range(1, seats):
            await store.join(gid, 100 + i, f"u{i}", engine.max_seats)
        state = engine.new_game(options, seats, 99)
        await store.start(gid, None, state, [], {}, engine.to_act(state), {})
        rnd = random.Random(kind)
        version = 0
        while not engine.is_over(state) and version < 3000:
            seat = rnd.choice(engine.to_act(state))
            action = rnd.choice([a for a in engine.legal_actions(state, seat) if a.get("type") != "prefs"])
            state, _ = engine.apply(state, seat, action)
            game = await store.game(gid)
            assert game.version == version
            version = await store.commit_move(
                gid,
                version,
                seat,
                action,
                state,
                engine.is_over(state),
                [],
                {},
                [] if engine.is_over(state) else engine.to_act(state),
            )
        assert engine.is_over(state)
        assert await store.archive(gid)
        store._rows.clear()
        game = await store.game(gid)
        assert game.status == "finished" and game.version == version
        assert replay(engine, game.options, seats, game.seed, await store.actions(gid)) == game.snapshot
    finally:
        await store.close()


async def test_absent_players_clock_auto_seats_votes_and_escalating_timers(store):
    """Migration 6 on both backends: a table's clock, seats the automatic player holds, the votes
    (only those for the seat's current menu count), and reminder levels (a move's fresh timer
    starts again at 1)."""
    gid = await store.create_game("heat", 1, 2, 10, "ann", {}, 7, clock=3600.0)
    await store.join(gid, 11, "bob", 4)
    assert (await store.game(gid)).clock == 3600.0
    assert not await store.clocks.set_auto(gid, 1, True)  # a lobby: no automatic player
    await store.start(gid, 99, {"n": 0}, [PromptUpdate(0, "h0"), PromptUpdate(1, "h1")], {}, [0, 1], {0: 50.0, 1: 60.0})
    assert await store.clocks.vote(gid, 1, 10, 0) == [10]
    assert await store.clocks.vote(gid, 1, 10, 0) == [10]  # once per voter
    assert await store.clocks.vote(gid, 1, 12, 3) == [12]  # the seat's menu moved on: older votes go
    assert await store.clocks.set_auto(gid, 1, True) and not await store.clocks.set_auto(gid, 1, True)
    assert [s.auto for s in (await store.game(gid)).seats] == [False, True]
    assert await store.clocks.games_with_auto_seats() == [gid]
    assert await store.clocks.vote(gid, 1, 10, 3) == [10]  # handing over cleared the votes
    assert await store.clocks.due_timers(55.0) == [(gid, 0, "remind", 1)]
    assert await store.clocks.escalate_timer(gid, 0, "remind", 1, 80.0)
    assert not await store.clocks.escalate_timer(gid, 0, "remind", 1, 90.0)  # no longer at level 1
    assert await store.clocks.due_timers(100.0) == [(gid, 1, "remind", 1), (gid, 0, "remind", 2)]
    await store.commit_move(gid, 0, 0, {"a": 1}, {"n": 1}, False, [PromptUpdate(0, "h2")], {}, [0, 1], {0: 200.0})
    assert await store.clocks.due_timers(1000.0) == [(gid, 1, "remind", 1), (gid, 0, "remind", 1)]  # asked anew
    assert await store.clocks.escalate_timer(gid, 1, "remind", 1, None)  # the last level: gone
    assert await store.clocks.due_timers(1000.0) == [(gid, 0, "remind", 1)]
    await store.set_status(gid, "finished")
    assert await store.clocks.games_with_auto_seats() == []
    ended = await store.finished_games_of_user(11)
    assert [g.id for g, _ in ended] == [gid] and await store.finished_games_of_user(99) == []
