"""Issue #28: a database file deleted, or replaced by a copy, while the bot runs is noticed: no
move is taken (it would be lost at the next restart), the player is told why, and the log says it
once."""
from __future__ import annotations

import logging
import shutil

import pytest

from .conftest import database_of
from .test_table import open_table, start


async def submit(emu, user):
    dm = await emu.wait_until(lambda: [m for m in emu.dm_messages(user) if m.selects][-1:])
    select = dm[0].selects[0]
    rec = await emu.select(user, dm[0], [select["options"][0]["value"]], custom_id=select["custom_id"])
    await emu.wait_until(lambda: rec.followups or rec.menu_spent)
    return rec


@pytest.mark.parametrize("how", ["deleted", "replaced"])
async def test_a_database_file_gone_takes_no_moves_and_says_so(table, caplog, how):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    await start(w, lobby, w.alice)
    await w.bot.table.drain()
    path = database_of(w.tmp_path)
    version = (await w.bot.store.game(1)).version
    if how == "deleted":
        for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            p.unlink(missing_ok=True)
    else:  # a backup copied over the live file: another file at the path
        shutil.copyfile(path, path.with_name("copy.sqlite3"))
        path.with_name("copy.sqlite3").replace(path)
    caplog.set_level(logging.ERROR, logger="bot.store")
    for user in (w.alice, w.bob):
        rec = await submit(emu, user)
        assert rec.followups and "cannot save moves right now" in rec.followups[0].content, rec.followups
    assert (await w.bot.store.game(1)).version == version  # nothing was taken
    said = [r for r in caplog.records if r.name == "bot.store" and "deleted or replaced" in r.getMessage()]
    assert len(said) == 1 and str(path) in said[0].getMessage()
