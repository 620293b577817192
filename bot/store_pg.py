"""The PostgreSQL backend of the store (BOT_DATABASE=postgresql://...): one asyncpg connection,
the schema number in a `schema_version` table (migrations serialised across processes by an
advisory lock), `?` placeholders turned into `$n`, and the SQL that only PostgreSQL speaks.

A move is ONE statement, `SELECT commit_move(...)`: a function (migration 1) whose first step is
the compare-and-set `UPDATE games ... WHERE version = expected`. That UPDATE takes the game's row
lock, so a second process moving the same game at the same moment waits, then finds the version
moved on and raises 'stale version': nothing of its move is written.
"""

from __future__ import annotations

import re
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Callable, TypeGuard
from urllib.parse import urlsplit, urlunsplit

NAME = "postgresql"
SCHEMES = ("postgresql://", "postgres://")

GAME_SELECT = (
    "SELECT id, kind, guild_id, channel_id, thread_id, lobby_message_id, creator_id, status, options, seed, "
    "version, snapshot, locale, clock, (SELECT coalesce(json_agg(json_build_array(seat, user_id, name, dm_ok, "
    "prompt_version, prompt_hash, auto, ai) ORDER BY seat), '[]')::text FROM seats WHERE game_id = games.id) "
    "FROM games WHERE id = ?"
)
MOVE = "SELECT commit_move(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
RESTORE_TIMERS = (
    "INSERT INTO timers (game_id, seat, kind, due_at) SELECT games.id, j.value::integer, ?, ? "
    "FROM games, jsonb_array_elements_text(games.to_act::jsonb) AS j(value) "
    "WHERE games.status = 'active'{mine} ON CONFLICT DO NOTHING"
)  # {mine}: the shards
MIGRATION_LOCK = 0x7461626C  # pg_advisory_xact_lock key: one process migrates at a time


def is_url(target: object) -> TypeGuard[str]:
    return isinstance(target, str) and target.startswith(SCHEMES)


def without_password(url: str) -> str:
    """The URL as it may be shown in a message or a log line."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def is_stale(err: BaseException) -> bool:
    import asyncpg

    return isinstance(err, asyncpg.RaiseError) and "stale version" in str(err)


def is_damage(err: BaseException) -> bool:
    import asyncpg

    return isinstance(err, (asyncpg.DataCorruptedError, asyncpg.IndexCorruptedError))


_MARK = re.compile(r"\?")


def numbered(sql: str) -> str:
    """`?` placeholders as `$1, $2, ...` (the store's SQL has no `?` inside string literals)."""
    counter = iter(range(1, 10**6))
    return _MARK.sub(lambda _: f"${next(counter)}", sql)


class Backend:
    name = NAME
    compress_snapshots = False  # PostgreSQL compresses large values itself (TOAST): snapshots stay text

    def __init__(self, conn: Any, where: str) -> None:
        self.conn = conn
        self.where = where
        self._sql: dict[str, str] = {}
        self._trace: Callable[[str], None] | None = None

    def moved_away(self) -> bool:
        """(A server's database has no file to be deleted under the bot.)"""
        return False

    @classmethod
    async def connect(cls, url: str) -> "Backend":
        import asyncpg

        conn = await asyncpg.connect(url, timeout=10)
        return cls(conn, without_password(url))

    async def close(self) -> None:
        await self.conn.close()

    async def close_quietly(self) -> None:
        try:
            await self.conn.close(timeout=2)
        except Exception:
            self.conn.terminate()

    # -- statements ---------------------------------------------------------------------------

    def _text(self, sql: str) -> str:
        text = self._sql.get(sql)
        if text is None:
            text = self._sql[sql] = numbered(sql)
        if self._trace is not None:
            self._trace(text)
        return text

    async def execute(self, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> int:
        status = await self.conn.execute(self._text(sql), *params)
        tail = status.rsplit(" ", 1)[-1]
        return int(tail) if tail.isdigit() else 0

    async def fetch(self, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in await self.conn.fetch(self._text(sql), *params)]

    async def executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        if rows:
            await self.conn.executemany(self._text(sql), rows)

    async def bulk_insert(self, table: str, columns: list[str], rows: list[tuple[Any, ...]]) -> None:
        """Many rows at once (COPY: far faster than INSERTs for a store copy)."""
        if rows:
            await self.conn.copy_records_to_table(table, records=rows, columns=columns)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator["Backend"]:
        async with self.conn.transaction():
            yield self

    async def delete_owed(self, pairs: list[tuple[int, int]]) -> int:
        """Delete these (game, version) rows of `owed` (one statement, through the primary key)."""
        await self.conn.execute(
            self._text(
                "DELETE FROM owed USING unnest($1::bigint[], $2::integer[]) AS v(g, n) "
                "WHERE game_id = v.g AND version = v.n"
            ),
            [g for g, _ in pairs],
            [n for _, n in pairs],
        )
        return 1

    async def set_trace(self, callback: Callable[[str], None] | None) -> None:
        self._trace = callback

    # -- schema -------------------------------------------------------------------------------

    async def schema_version(self) -> int:
        async with self.conn.transaction():  # under the lock: processes starting together on a new database
            await self.conn.execute(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            await self.conn.execute("CREATE TABLE IF NOT EXISTS schema_version (number integer NOT NULL)")
            row = await self.conn.fetchrow("SELECT max(number) FROM schema_version")
        return row[0] or 0

    async def migrate(self, number: int, script: str) -> None:
        """The script and its version bump in one transaction; a process that finds the number
        already there (another one migrated meanwhile) runs nothing."""
        async with self.conn.transaction():
            await self.conn.execute(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            done = (await self.conn.fetchrow("SELECT max(number) FROM schema_version"))[0] or 0
            if done >= number:
                return
            if script.strip():
                await self.conn.execute(script)
            await self.conn.execute("INSERT INTO schema_version (number) VALUES ($1)", number)

    async def check_usable(self) -> str | None:
        if await self.conn.fetchval("SELECT pg_is_in_recovery()"):
            return "the server is a read-only standby; point BOT_DATABASE at the primary"
        return None

    async def after_bulk_insert(self, table: str) -> None:
        """Rows copied in with explicit ids: the id sequence continues after the highest."""
        if table == "games":
            await self.conn.execute(
                "SELECT setval(pg_get_serial_sequence('games', 'id'), "
                "coalesce((SELECT max(id) FROM games), 0) + 1, false)"
            )
