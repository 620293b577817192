"""What the store tests share: a fresh database of either backend, the SQL a piece of work runs,
guilds that land on a chosen shard, and a bot killed in the middle of a write."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import shard_of
from bot.store import Store
from bot.tools.pgserver import NoServer, shared_server


BACKENDS = ["sqlite", "postgresql"]


async def database_for(backend: str, tmp_path: Path) -> Path | str:
    """A fresh, empty database of this backend: an SQLite path, or a new database's URL."""
    if backend == "sqlite":
        return tmp_path / "db.sqlite3"
    try:
        server = shared_server()
    except NoServer as err:
        if os.environ.get("BOT_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"BOT_REQUIRE_POSTGRES=1 but {err}")
        pytest.skip(f"PostgreSQL tests: {err}")
    return await server.new_database()


async def statements(store: Store, work) -> list[str]:
    """The SQL statements `work` runs (a trigger's steps are traced with its statement's text)."""
    seen: list[str] = []
    await store._db.set_trace(seen.append)
    try:
        await work()
    finally:
        await store._db.set_trace(None)
    return seen


TOTAL = 4


def guild_on(shard: int, n: int = 0) -> int:
    """A realistic snowflake (a timestamp above bit 22) whose guild lands on `shard` of TOTAL."""
    guild = ((1_200_000_000_000 + TOTAL * (n + 1) + shard) << 22) | (1 << 17)
    assert shard_of(guild, TOTAL) == shard
    return guild


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
