"""A database the bot cannot use stops start-up with one line naming the file and the cause, and a
non-zero exit: never a traceback, never a live process that is offline. A damaged game found
later is reported once and touches no other game."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot.tools.emulator import Emulator
from bot.tools.emulator.testing import BotProcess
from bot.store import MIGRATIONS, DamagedGame, Store, StoreError

# The bot run from another folder imports this checkout's code, not an installed copy's.
HERE = str(Path(__file__).resolve().parents[2])


async def make_store(path):
    store = await Store.open(path)
    for n in range(3):
        gid = await store.create_game("heat", 1, 2, 10 + n, "ann", {}, 7)
        await store.start(gid, None, {"secret": "x" * 5000, "n": n}, [])
    await store.close()


def truncate(path):
    with open(path, "r+b") as fh:
        fh.truncate(os.path.getsize(path) // 3)


def garbage(path):
    path.write_bytes(os.urandom(8192))


def cut_tail(path):
    data = path.read_bytes()
    path.write_bytes(data[:-1000])


def emptied(path):
    path.write_bytes(b"")


def newer(path):
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=DELETE")  # as a copy may come: a refused file must stay so
    con.execute(f"PRAGMA user_version={len(MIGRATIONS) + 5}")
    con.commit()
    con.close()


def newer_with_its_log(path):
    """A newer bot's file as it left it when killed: its last writes still in the write-ahead log."""
    subprocess.run(
        [
            sys.executable,
            "-c",
            (
                "import os, sqlite3\n"
                f"c = sqlite3.connect({str(path)!r}, isolation_level=None)\n"
                "c.execute('PRAGMA journal_mode=WAL')\n"
                f"c.execute('PRAGMA user_version={len(MIGRATIONS) + 5}')\n"
                "c.execute('CREATE TABLE newer (x)')\n"
                "os._exit(0)\n"
            ),
        ],
        check=True,
        timeout=30,
    )
    assert path.with_name(path.name + "-wal").stat().st_size > 0


def negative(path):
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=DELETE")
    con.execute("PRAGMA user_version=-1")
    con.commit()
    con.close()


async def run_bot_on(emu, tmp_path, database) -> tuple[int | None, str]:
    proc = BotProcess(
        emu,
        ["bot"],
        env={
            "DISCORD_TOKEN": emu.token,
            "BOT_STATE_DIR": str(tmp_path / "state"),
            "BOT_DATABASE": str(database),
            "PYTHONPATH": HERE,
        },
        cwd=str(tmp_path),
    )
    await proc.start(wait_ready=False)
    try:
        code = await asyncio.wait_for(proc.proc.wait(), 20)
    except asyncio.TimeoutError:
        code = None  # hung: the failure this guards against
    await proc.stop(timeout=2)
    return code, proc.output()


@pytest.mark.parametrize("damage", [truncate, cut_tail, garbage, emptied, newer, newer_with_its_log, negative])
async def test_an_unusable_database_stops_start_up_in_one_line(tmp_path, damage):
    database = tmp_path / "bot.sqlite3"
    await make_store(database)
    for side in (tmp_path / "bot.sqlite3-wal", tmp_path / "bot.sqlite3-shm"):
        side.unlink(missing_ok=True)
    damage(database)
    wal = database.with_name(database.name + "-wal")
    before = database.read_bytes(), wal.exists() and wal.read_bytes()
    async with Emulator() as emu:
        code, output = await run_bot_on(emu, tmp_path, database)
    if damage in (newer, newer_with_its_log, negative):  # a schema this bot will not use: left byte for byte
        assert (database.read_bytes(), wal.exists() and wal.read_bytes()) == before
    lines = [line for line in output.splitlines() if line.strip() and "PyNaCl" not in line and "davey" not in line]
    assert code == 1, output
    assert "Traceback" not in output, output
    assert len(lines) == 1 and str(database) in lines[0], output
    if damage in (newer, newer_with_its_log):
        assert "newer version" in lines[0]
    if damage is emptied:  # refused, not used as a new empty database
        assert "the file is empty" in lines[0] and database.stat().st_size == 0, lines[0]


async def test_a_locked_database_stops_start_up_in_one_line(tmp_path):
    database = tmp_path / "bot.sqlite3"
    await make_store(database)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import sqlite3, sys, time\n"
                f"c = sqlite3.connect({str(database)!r}, isolation_level=None)\n"
                "c.execute('BEGIN EXCLUSIVE')\n"
                "c.execute('CREATE TABLE IF NOT EXISTS hold (x)')\n"
                "print('locked', flush=True); time.sleep(60)\n"
            ),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        async with Emulator() as emu:
            code, output = await run_bot_on(emu, tmp_path, database)
    finally:
        holder.kill()
        holder.wait()
    assert code == 1 and "Traceback" not in output, output
    assert "locked" in output and str(database) in output


async def test_store_open_leaves_no_thread_behind(tmp_path):
    """aiosqlite's worker thread is not a daemon: a failed open must close it, or the process hangs."""
    path = tmp_path / "junk.sqlite3"
    garbage(path)
    with pytest.raises(StoreError) as err:
        await Store.open(path)
    assert str(path) in str(err.value)
    await asyncio.sleep(0.1)
    assert [t for t in threading.enumerate() if not t.daemon and t is not threading.main_thread()] == []


async def test_a_damaged_game_is_reported_and_spares_the_others(tmp_path):
    database = tmp_path / "bot.sqlite3"
    await make_store(database)
    con = sqlite3.connect(database)
    con.execute("UPDATE games SET snapshot = '{not json' WHERE id = 2")
    con.commit()
    con.close()
    store = await Store.open(database)
    try:
        with pytest.raises(DamagedGame) as err:
            await store.game(2)
        assert "game 2" in str(err.value)
        assert [g.id for g in await store.active_games()] == [1, 3]  # the others load
        assert await store.game(2**63) is None and await store.game(0) is None  # ids past SQLite's range
    finally:
        await store.close()


async def test_a_state_folder_it_cannot_write_stops_start_up_in_one_line(tmp_path):
    """(As root a read-only folder is still writable: a file where the folder should be is not.)"""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file")
    async with Emulator() as emu:
        proc = BotProcess(
            emu,
            ["bot"],
            env={
                "DISCORD_TOKEN": emu.token,
                "BOT_STATE_DIR": str(blocker / "state"),
                "BOT_DATABASE": str(tmp_path / "bot.sqlite3"),
                "PYTHONPATH": HERE,
            },
            cwd=str(tmp_path),
        )
        await proc.start(wait_ready=False)
        try:
            code = await asyncio.wait_for(proc.proc.wait(), 20)
        finally:
            await proc.stop(timeout=2)
        output = proc.output()
    lines = [line for line in output.splitlines() if line.strip() and "PyNaCl" not in line and "davey" not in line]
    assert code == 1 and "Traceback" not in output, output
    assert len(lines) == 1 and "cannot write the log" in lines[0] and str(blocker) in lines[0], output


TOKEN_LIKE = "MTA1NTU1NTU1NTU1NTU1NTU1NQ.GaBcDe.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL"  # the shape of a token


@pytest.mark.parametrize("log_there", [False, True], ids=["no bot.log yet", "bot.log writable"])
def test_a_read_only_state_folder_stops_start_up_in_one_line(log_there):
    """A state folder the bot's user may read but not write (#28: it exited with a 29-line
    traceback when there was no bot.log yet). As root, run without root's capabilities: root
    writes anywhere, and another user might not be able to read the checkout."""
    import shutil
    import tempfile

    prefix: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("root, and no setpriv to run the bot without root's capabilities")
        prefix = ["setpriv", "--inh-caps=-all", "--bounding-set=-all", "--"]
    top = Path(tempfile.mkdtemp())  # (pytest's own folder is closed to other users)
    try:
        top.chmod(0o755)
        state = top / "state"
        state.mkdir()
        if log_there:
            asyncio.run(make_store(state / "bot.sqlite3"))
            (state / "bot.log").write_text("")
            for name in ("bot.log", "bot.sqlite3"):
                (state / name).chmod(0o666)
        state.chmod(0o555)
        done = subprocess.run(
            [*prefix, sys.executable, "-m", "bot"],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=HERE,
            env={
                "PATH": os.environ.get("PATH", ""),
                "DISCORD_TOKEN": TOKEN_LIKE,
                "BOT_STATE_DIR": str(state),
                "BOT_DATABASE": str(state / "bot.sqlite3"),
            },
        )
    finally:
        shutil.rmtree(top, ignore_errors=True)
    output = done.stdout + done.stderr
    lines = [line for line in output.splitlines() if line.strip() and "PyNaCl" not in line and "davey" not in line]
    assert done.returncode == 1 and "Traceback" not in output, output
    assert len(lines) == 1 and str(state) in lines[0], output
    if not log_there:
        assert lines[0].startswith("cannot write the log") and "Permission denied" in lines[0]
    else:  # the log can be written, but SQLite cannot make its write-ahead log beside the database
        assert lines[0].startswith("cannot use the database"), output


async def test_a_backup_reading_the_file_does_not_hold_the_bot_up(tmp_path):
    """The whole bot comes up (connects, is ready) while another process reads the file in a read
    transaction, as `sqlite3 bot.sqlite3 ".backup ..."` does (#28: refused after 6.5 s)."""
    from tests.core.stores import killed_bot, reader

    database = tmp_path / "bot.sqlite3"
    killed_bot(database)
    backup = reader(database, cli=False)
    try:
        async with Emulator() as emu:
            proc = BotProcess(
                emu,
                ["bot"],
                env={
                    "DISCORD_TOKEN": emu.token,
                    "BOT_STATE_DIR": str(tmp_path / "state"),
                    "BOT_DATABASE": str(database),
                    "PYTHONPATH": HERE,
                },
                cwd=str(tmp_path),
            )
            try:
                await proc.start(wait_ready=True)
                assert proc.running
            finally:
                await proc.stop(timeout=5)
            # (its games are made-up rows: their catch-up may fail; the database was taken)
            assert "cannot use the database" not in proc.output(), proc.output()
    finally:
        backup.stdin.close()
        backup.wait(timeout=10)
