"""The bench's many-games database (bot/tools/bench/store.py), built small (once per run, the
`bench_games` fixture): every cloned game replays from its seed and action log to its stored snapshot,
and the bot starts up over it."""

from __future__ import annotations

import sqlite3

import orjson

from bot.tools.bench import store as bench_store
from bot.games.base import replay
from bot.store import Store
from bot.table import Table

from tests.core.conftest import BENCH_GAMES as GAMES, bench_copy
from tests.e2e.conftest import settings_for


async def test_every_cloned_game_replays_to_its_snapshot(bench_games, tmp_path):
    path = bench_copy(bench_games, tmp_path / "games.sqlite3")
    store = await Store.open(path)
    try:
        statuses = {}
        replayed: dict[bytes, dict] = {}  # (the clones of one template replay its log: once each)
        for gid in range(1, GAMES + 1):
            game = await store.game(gid)
            engine = bench_store.ENGINES[game.kind]
            actions = await store.actions(gid)
            assert len(actions) == game.version > 50, gid
            key = orjson.dumps([game.kind, game.options, len(game.seats), game.seed, actions])
            if key not in replayed:
                replayed[key] = replay(engine, game.options, len(game.seats), game.seed, actions)
            assert replayed[key] == game.snapshot, gid
            assert game.thread_id == bench_store.THREAD_BASE + gid
            statuses[game.status] = statuses.get(game.status, 0) + 1
        assert statuses == {"finished": GAMES * 9 // 10, "active": GAMES // 10}
        assert await store.owed() == []
        assert len(await store.clocks.due_timers(10**12)) >= GAMES // 10  # every mid-game game has reminders
    finally:
        await store.close()
    con = sqlite3.connect(path)
    try:  # finished games are archived: no action rows, a compressed log and snapshot
        assert con.execute(
            "SELECT count(*) FROM actions JOIN games ON games.id = game_id WHERE status = 'finished'"
        ).fetchone() == (0,)
        assert con.execute(
            "SELECT count(*) FROM games WHERE status = 'finished' AND (archive IS NULL OR typeof(snapshot) != 'blob')"
        ).fetchone() == (0,)
        assert con.execute("SELECT count(*) FROM games WHERE status = 'active' AND to_act IS NULL").fetchone() == (0,)
    finally:
        con.close()


async def test_the_bot_starts_up_over_it_and_catches_up(bench_games, tmp_path):
    from bot.app import create_bot
    from bot.tools.emulator import Emulator
    from bot.tools.emulator.testing import start_bot_in_process

    path = tmp_path / "state" / "bot.sqlite3"
    path.parent.mkdir()
    bench_copy(bench_games, path)
    owing = bench_store.add_owed(path, 5)
    async with Emulator() as emu:
        from bot.tools.bench.live import populate

        world = populate(emu, path)
        assert world.threads == GAMES // 10
        bot = create_bot(settings_for(tmp_path, log_level="WARNING"))
        handle = await start_bot_in_process(emu, bot)
        try:
            table: Table = bot.table
            await emu.wait_until(lambda: table.recovered.is_set(), 10)
            await emu.wait_until(lambda: _owed(path) == 0, 30, "catch-up did not finish")
            for gid in owing:  # each owing game's thread got its board
                assert any(m.attachments for m in emu.messages_in(bench_store.THREAD_BASE + gid))
            rec = await emu.slash(world.player, world.channel, "games")
            assert rec.acked
        finally:
            await handle.stop()
        assert not emu.server_errors, emu.server_errors[0]


def _owed(path) -> int:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT count(*) FROM owed").fetchone()[0]
    finally:
        con.close()


async def test_move_db_ratio_on_postgresql(tmp_path, capsys):
    from bot.tools.bench import live as bench_live
    from tests.core.stores import database_for

    url = await database_for("postgresql", tmp_path)
    await bench_live.move_db(tmp_path, races=1, database=url, suffix="_pg")
    lines = dict(line.split(": ", 1) for line in capsys.readouterr().out.splitlines())
    assert float(lines["move_db_ratio_pg"].split()[0]) > 0 and "bare_insert_ms_p50_pg" in lines


def test_a_smaller_copy_keeps_the_first_games(bench_games, tmp_path):
    path = bench_copy(bench_games, tmp_path / "games.sqlite3")
    bench_store.keep_games(path, 25)
    con = sqlite3.connect(path)
    try:
        assert con.execute("SELECT count(*), max(id) FROM games").fetchone() == (25, 25)
        assert con.execute("SELECT count(*) FROM seats WHERE game_id > 25").fetchone() == (0,)
    finally:
        con.close()
