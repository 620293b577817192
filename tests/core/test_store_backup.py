"""Issue #28: a backup of the live database (`sqlite3 bot.sqlite3 ".backup backup.sqlite3"`, which
the README recommends) reads it inside a read transaction. A reader is not a second bot: start-up
neither waits the busy timeout out nor refuses the file while one holds it."""

from __future__ import annotations

import shutil

import pytest

from bot.store import Store
from tests.core.stores import killed_bot, reader


@pytest.mark.parametrize("cli", [True, False], ids=["sqlite3 shell", "python"])
@pytest.mark.parametrize("older", [False, True], ids=["reading the newest", "reading an older state"])
async def test_a_reader_holding_a_read_transaction_does_not_stop_start_up(tmp_path, cli, older):
    """The reader sees the newest state, or one before the last writes (it then keeps part of the
    log from being folded into the file, and the file's length is not checked)."""
    if cli and shutil.which("sqlite3") is None:
        pytest.skip("no sqlite3 shell")
    path = tmp_path / "bot.sqlite3"
    killed_bot(path)
    assert (tmp_path / "bot.sqlite3-wal").stat().st_size > 0
    backup = reader(path, cli)
    if older:
        killed_bot(path)
    try:
        store = await Store.open(path)  # the old start-up waited 5 s, then refused the file
        try:
            assert len(await store.active_games()) == 20 * (1 + older)
            gid = await store.create_game("heat", 1, 2, 99, "bea", {}, 7)  # and it takes writes
            await store.start(gid, None, {"n": 99}, [])
            assert (await store.game(gid)).snapshot == {"n": 99}
        finally:
            await store.close()
    finally:
        backup.stdin.close()
        backup.wait(timeout=10)
    store = await Store.open(path)  # the reader gone, all of it is there (and the length check runs)
    try:
        assert len(await store.active_games()) == 20 * (1 + older) + 1
    finally:
        await store.close()
