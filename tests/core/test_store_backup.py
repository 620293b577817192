"""Issue #28: a backup of the live database (`sqlite3 bot.sqlite3 ".backup backup.sqlite3"`, which
the README recommends) reads it inside a read transaction. A reader is not a second bot: start-up
neither waits the busy timeout out nor refuses the file while one holds it."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from bot.store import Store


def killed_bot(path) -> None:
    """A bot that wrote and was killed: its moves are still in the write-ahead log, not the file."""
    subprocess.run(
        [
            sys.executable,
            "-c",
            (
                "import asyncio, os\n"
                "from bot.store import Store\n"
                "async def main():\n"
                f"    store = await Store.open({str(path)!r})\n"
                "    for n in range(20):\n"
                "        gid = await store.create_game('heat', 1, 2, 10 + n, 'ann', {}, 7)\n"
                "        await store.start(gid, None, {'n': n, 'pad': 'x' * 3000}, [])\n"
                "    os._exit(0)  # no close: nothing folded back into the file\n"
                "asyncio.run(main())\n"
            ),
        ],
        check=True,
        timeout=60,
    )


def reader(path, cli: bool) -> subprocess.Popen:
    """Another process in a read transaction on the file (the sqlite3 shell, or Python's sqlite3)."""
    if cli:
        proc = subprocess.Popen(["sqlite3", str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        proc.stdin.write("BEGIN;\nSELECT 'reading', count(*) FROM games;\n")
        proc.stdin.flush()
    else:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                (
                    "import sqlite3, sys, time\n"
                    f"c = sqlite3.connect({str(path)!r}, isolation_level=None)\n"
                    "c.execute('BEGIN')\n"
                    "print('reading', c.execute('SELECT count(*) FROM games').fetchone()[0], flush=True)\n"
                    "sys.stdin.read()\n"
                ),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
    assert proc.stdout.readline().replace("|", " ").split() == ["reading", "20"]
    return proc


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
