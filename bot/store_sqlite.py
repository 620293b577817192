"""The SQLite backend of the store: one aiosqlite connection (WAL, foreign keys on), the schema
number in PRAGMA user_version, and the SQL that only SQLite speaks (bot/store.py holds the rest).

A backend only runs statements; the Store serialises all access with its own lock.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Callable

import aiosqlite

NAME = "sqlite"

# A game and its seats in one statement (one round trip): the seats as a JSON array, in seat order.
GAME_SELECT = (
    "SELECT id, kind, guild_id, channel_id, thread_id, lobby_message_id, creator_id, status, options, seed, "
    "version, snapshot, locale, clock, (SELECT json_group_array(json_array(seat, user_id, name, dm_ok, "
    "prompt_version, prompt_hash, auto, ai)) FROM (SELECT * FROM seats WHERE game_id = games.id ORDER BY seat)) "
    "FROM games WHERE id = ?"
)
# A move: one INSERT into the `moves` view, whose trigger (migration 5) checks the version and writes.
MOVE = (
    "INSERT INTO moves (game_id, version, seat, action, snapshot, status, prompts, outcome, "
    "to_act, fresh, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
RESTORE_TIMERS = (
    "INSERT OR IGNORE INTO timers (game_id, seat, kind, due_at) SELECT games.id, j.value, ?, ? "
    "FROM games, json_each(games.to_act) AS j WHERE games.status = 'active'{mine}"
)  # {mine}: the shards


def is_stale(err: BaseException) -> bool:
    return isinstance(err, sqlite3.IntegrityError) and "stale version" in str(err)


def is_damage(err: BaseException) -> bool:
    """Errors that mean damaged data, as opposed to a busy or closed database."""
    name = getattr(err, "sqlite_errorname", "")
    return name in ("SQLITE_CORRUPT", "SQLITE_NOTADB") or type(err) is sqlite3.DatabaseError


class Backend:
    name = NAME
    compress_snapshots = True  # a finished game's snapshot is stored zlib-compressed (BLOB)
    errors: tuple[type[BaseException], ...] = (sqlite3.Error, OSError)  # cannot open / use the database

    def __init__(self, conn: aiosqlite.Connection, where: str) -> None:
        self.conn = conn
        self.where = where
        self.identity = file_identity(where)  # the file opened; None in memory
        # The file as this connection's last write left it (size, modified), and the write-ahead
        # log's index then: the file changes only as SQLite folds the log into it (a write of ours,
        # or another connection's, which changes the index too); a change to the file alone is a
        # copy put over it.
        self._left: tuple[int, int] | None = None
        self._index = b""
        self._shm: int | None = None  # the index file, open
        self._overwritten = False

    def moved_away(self) -> bool:
        """Whether the file at the path is no longer the one open (deleted, or a copy put in its
        place: writes would go to a file nobody will ever read again), or is, but another process
        wrote over it (`cp` of a backup onto it: its pages are no longer the ones this connection
        knows). Asked with the store's lock held: no write of ours is under way."""
        if self.identity is None:
            return False
        return self._before_write() != self.identity or self._overwritten

    def _before_write(self) -> tuple[int, int] | None:
        """Notes a change to the file since our last write; the (device, inode) at the path."""
        if self.identity is None:
            return None
        identity, state = file_stat(self.where)
        if self._left is not None and state != self._left:
            index = self._log_index()
            if index == self._index:
                self._overwritten = True
            else:  # another connection folded the log into the file (a tool, a checkpoint by hand)
                self._left, self._index = state, index
        return identity

    def _after_write(self) -> None:
        if self.identity is not None and not self._overwritten:
            self._left, self._index = file_stat(self.where)[1], self._log_index()

    def _log_index(self) -> bytes:
        """What a commit or a checkpoint changes in the write-ahead log's index (the -shm file, in
        SQLite's documented wal-index format): its header (48 bytes) and how many frames are folded
        into the file (nBackfill, at 96); readers change neither. (The file is kept open.)"""
        try:
            if self._shm is None:
                self._shm = os.open(self.where + "-shm", os.O_RDONLY)
            head = os.pread(self._shm, 100, 0)
        except OSError:
            return b""
        return head[:48] + head[96:100]

    @classmethod
    async def connect(cls, path: Path | str) -> "Backend":
        """Raises (closing what it opened) on failure: aiosqlite's worker thread is not a daemon and
        would keep a failed process alive."""
        conn = None
        try:
            if str(path) != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                # A new database only where there is no file: an empty one (a failed copy) would
                # otherwise become a new empty store, every game gone without a word.
                if Path(path).is_file() and Path(path).stat().st_size == 0:
                    raise sqlite3.DatabaseError(
                        "the file is empty (0 bytes; a failed copy?): restore it from a "
                        "backup, or delete it to start a new database"
                    )
            conn = await aiosqlite.connect(str(path), isolation_level=None)
            await conn.execute("PRAGMA busy_timeout=5000")
            await conn.execute("PRAGMA foreign_keys=ON")  # (synchronous: in check_usable, it reads the file)
            return cls(conn, str(path))
        except BaseException:
            await close_quietly(conn)
            raise

    async def close(self) -> None:
        self._close_index()
        await self.conn.close()

    async def close_quietly(self) -> None:
        self._close_index()
        await close_quietly(self.conn)

    def _close_index(self) -> None:
        if self._shm is not None:
            os.close(self._shm)
            self._shm = None

    # -- statements ---------------------------------------------------------------------------

    async def execute(self, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        self._before_write()
        try:
            cur = await self.conn.execute(sql, params)
        finally:
            self._after_write()
        return cur.rowcount

    async def fetch(self, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in await self.conn.execute_fetchall(sql, params)]

    async def executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        if rows:
            self._before_write()
            try:
                await self.conn.executemany(sql, rows)
            finally:
                self._after_write()

    async def bulk_insert(self, table: str, columns: list[str], rows: list[tuple[Any, ...]]) -> None:
        await self.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", rows
        )

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator["Backend"]:
        self._before_write()
        try:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")
        finally:
            self._after_write()

    async def delete_owed(self, pairs: list[tuple[int, int]]) -> int:
        """Delete these (game, version) rows of `owed`; the number of statements run."""
        statements = 0
        self._before_write()
        try:
            for chunk in range(0, len(pairs), 5000):
                part = pairs[chunk : chunk + 5000]
                await self.conn.execute(  # through the primary key (the table is its key's b-tree: migration 8)
                    "WITH v(g, n) AS (VALUES " + ",".join(["(?, ?)"] * len(part)) + ") DELETE FROM owed "
                    "WHERE (game_id, version) IN (SELECT g, n FROM v)",
                    [n for pair in part for n in pair],
                )
                statements += 1
        finally:
            self._after_write()
        return statements

    async def set_trace(self, callback: Callable[[str], None] | None) -> None:
        """Every statement's text goes to `callback` (a trigger's steps repeat its statement)."""
        await self.conn.set_trace_callback(callback)  # type: ignore[arg-type]  # (None: off, as sqlite3 has it)

    # -- schema -------------------------------------------------------------------------------

    async def schema_version(self) -> int:
        """The file's schema number, read before this connection reads anything: by a read-only
        connection of its own, so a file refused for its number is left byte for byte (the bot's
        connection, closing last, would fold a write-ahead log that came with it into the file)."""
        if self.identity is None:
            ((current,),) = await self.fetch("PRAGMA user_version")
            return int(current)
        return await peek_version(self.where)

    async def migrate(self, number: int, script: str) -> None:
        # executescript commits first; the script and its version bump form one transaction.
        await self.conn.executescript(f"BEGIN;\n{script}\nPRAGMA user_version={number};\nCOMMIT;")
        self._after_write()

    async def check_usable(self) -> str | None:
        """Start-up checks that cost little whatever the size: another process must not hold the
        write lock (a second bot on the same file), and the file must be as long as its own header
        says once the write-ahead log is folded in (a truncated copy is refused, not half used;
        checked when no reader keeps part of the log from being folded).
        The reason in one line, or None. Called once the schema number is known to be one this bot
        can use: only then is the file switched to write-ahead logging (that writes its header, and a
        refused file is left as it was)."""
        await self.fetch("PRAGMA journal_mode=WAL")
        await self.conn.execute("PRAGMA synchronous=NORMAL")
        try:
            await self.conn.execute("BEGIN IMMEDIATE")
            await self.conn.execute("ROLLBACK")
        except sqlite3.OperationalError as err:
            return f"cannot write to it ({err}); is another bot using it?"
        rows = await self.fetch("PRAGMA database_list")
        path = rows[0][2] if rows else ""
        if not path:  # in memory
            return None
        # The write-ahead log folded into the file, as far as readers allow, without waiting for them:
        # a backup (`.backup`) reads in a read transaction, and a reader is not a second bot.
        _, logged, folded = (await self.fetch("PRAGMA wal_checkpoint(PASSIVE)"))[0]
        if folded < logged:  # a reader holds part of the log: the file is not whole without it
            self._after_write()
            return None
        ((pages,),) = await self.fetch("PRAGMA page_count")
        ((size,),) = await self.fetch("PRAGMA page_size")
        if Path(path).stat().st_size < pages * size:
            return (
                f"the file is shorter than its header says ({Path(path).stat().st_size} of "
                f"{pages * size} bytes): it was cut off; restore it from a backup"
            )
        self._after_write()
        return None

    async def after_bulk_insert(self, table: str) -> None:
        """After rows with explicit ids were copied in (nothing to do: SQLite continues after max(id))."""


async def peek_version(path: str) -> int:
    """PRAGMA user_version of the file, read only; reading the schema makes SQLite parse the file's
    first pages: garbage fails here."""
    con = await aiosqlite.connect(Path(path).absolute().as_uri() + "?mode=ro", uri=True)
    try:
        ((current,),) = await con.execute_fetchall("PRAGMA user_version")
        await con.execute_fetchall("SELECT count(*) FROM sqlite_master")
        return int(current)
    finally:
        await con.close()


def file_identity(path: str) -> tuple[int, int] | None:
    """(device, inode) of the file at `path`; None for an in-memory database or no file."""
    if path == ":memory:":
        return None
    try:
        st = os.stat(path)
    except OSError:
        return (-1, -1)  # gone
    return st.st_dev, st.st_ino


def file_stat(path: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """((device, inode), (size, modified in ns)) of the file at `path`; -1s if there is none."""
    try:
        st = os.stat(path)
    except OSError:
        return (-1, -1), (-1, -1)
    return (st.st_dev, st.st_ino), (st.st_size, st.st_mtime_ns)


async def close_quietly(conn: aiosqlite.Connection | None) -> None:
    if conn is not None:
        try:
            await conn.close()
        except Exception:
            pass
