"""Issue #28: a database file deleted, or replaced by a copy, while the bot runs is noticed: no
move is taken (it would be lost at the next restart), the player is told why, and the log says it
once."""

from __future__ import annotations

import asyncio
import logging
import shutil
import sqlite3
import subprocess
import sys

import pytest

from .conftest import database_of
from bot.tools.emulator.tables import open_table, start


async def submit(emu, user):
    dm = await emu.wait_until(lambda: [m for m in emu.dm_messages(user) if m.selects][-1:])
    select = dm[0].selects[0]
    rec = await emu.select(user, dm[0], [select["options"][0]["value"]], custom_id=select["custom_id"])
    await emu.wait_until(lambda: rec.followups or rec.menu_spent)
    return rec


@pytest.mark.parametrize("how", ["deleted", "deleted alone", "moved over", "copied over"])
async def test_a_database_file_gone_takes_no_moves_and_says_so(table, caplog, how):
    """Deleted: the three files (bot.sqlite3, -wal, -shm) or the database alone; a backup moved
    over it (another file at the path) or copied over it (`cp`: the same file, its bytes replaced)."""
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    await start(w, lobby, w.alice)
    await w.bot.table.drain()
    path = database_of(w.tmp_path)
    version = (await w.bot.store.game(1)).version
    backup = path.with_name("backup.sqlite3")
    with sqlite3.connect(path) as live, sqlite3.connect(backup) as copy:
        live.backup(copy)  # as `sqlite3 bot.sqlite3 ".backup backup.sqlite3"` makes it
    copy.close()
    live.close()
    if how == "deleted":
        for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            p.unlink(missing_ok=True)
    elif how == "deleted alone":
        path.unlink()
    elif how == "moved over":  # another file at the path
        backup.replace(path)
    else:  # cp backup.sqlite3 bot.sqlite3: the file at the path is the same, its bytes are the copy's
        shutil.copyfile(backup, path)
    caplog.set_level(logging.ERROR, logger="bot.store")
    for user in (w.alice, w.bob):
        rec = await submit(emu, user)
        assert rec.followups and "cannot save moves right now" in rec.followups[0].content, rec.followups
    assert (await w.bot.store.game(1)).version == version  # nothing was taken
    said = [r for r in caplog.records if r.name == "bot.store" and "was deleted, replaced" in r.getMessage()]
    assert len(said) == 1 and str(path) in said[0].getMessage()


async def test_a_database_file_gone_is_said_for_a_lobby_click_and_a_command_too(table, caplog):
    """Not only moves: a Join, a new table and a player's language (written as they click) each
    meet the same answer, and the log holds one line, no traceback."""
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, track="usa")
    database_of(w.tmp_path).unlink()
    caplog.set_level(logging.INFO)
    join = await emu.click(w.bob, lobby, label="Join")
    new = await emu.slash(w.carol, w.general, "heat", "new", track="usa")
    for rec in (join, new):
        await emu.wait_until(lambda: rec.followups, timeout=10)
        assert rec.followups[0].ephemeral and "cannot save anything right now" in rec.followups[0].content
    await asyncio.sleep(0.2)
    told = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(told) == 1 and "was deleted, replaced" in told[0].getMessage() and not told[0].exc_info, [
        r.getMessage()[:100] for r in told
    ]
    assert "Traceback" not in caplog.text and "never retrieved" not in caplog.text


@pytest.mark.parametrize("how", ["checkpoint", "store open", "backup"])
async def test_sqlite_itself_folding_the_log_into_the_file_is_not_a_copy_over_it(table, caplog, how):
    """Another process's SQLite folds the write-ahead log into the live file (a checkpoint by hand,
    or a tool opening the store, as `store copy` does): the file changes, but it is the same
    database, so the bot goes on taking moves. So does a backup (`sqlite3 ... ".backup"`)."""
    if how == "backup" and shutil.which("sqlite3") is None:
        pytest.skip("no sqlite3 shell")
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    await start(w, lobby, w.alice)
    await w.bot.table.drain()
    path = database_of(w.tmp_path)
    before = path.stat().st_mtime_ns, path.stat().st_size
    script = (
        (
            "import sqlite3, sys\n"
            "c = sqlite3.connect(sys.argv[1])\n"
            "print(c.execute('PRAGMA wal_checkpoint(FULL)').fetchone())\n"
            "c.close()\n"
        )
        if how == "checkpoint"
        else (
            "import asyncio, sys\n"
            "from bot.store import Store\n"
            "async def main():\n"
            "    await (await Store.open(sys.argv[1])).close()\n"
            "asyncio.run(main())\n"
        )
    )
    command = (
        ["sqlite3", str(path), f".backup {path.with_name('backup.sqlite3')}"]
        if how == "backup"
        else [sys.executable, "-c", script, str(path)]
    )
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    if how != "backup":
        assert (path.stat().st_mtime_ns, path.stat().st_size) != before  # the file did change
    else:
        assert sqlite3.connect(path.with_name("backup.sqlite3")).execute("SELECT count(*) FROM games").fetchone() == (
            1,
        )
    version = (await w.bot.store.game(1)).version
    caplog.set_level(logging.ERROR, logger="bot.store")
    for user in (w.alice, w.bob):
        rec = await submit(emu, user)
        assert not [m.content for m in rec.followups if "cannot save" in m.content]
    assert (await w.bot.store.game(1)).version > version
    assert not [r for r in caplog.records if r.name == "bot.store"]
