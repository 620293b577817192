"""The store: every SQL statement of the bot lives here, for two backends behind one interface.

BOT_DATABASE a path (or unset): SQLite through aiosqlite (bot/store_sqlite.py). A postgresql://
URL: PostgreSQL through asyncpg (bot/store_pg.py). The SQL both speak is written here once (with
`?` placeholders); what only one speaks (the one-statement move, JSON functions, the schema
number) lives in its backend module. One set of numbered migrations, each with its text for both.
All access is serialised by one asyncio lock: coroutines never interleave inside a transaction,
and no read sees another coroutine's half-done transaction.
A move is one statement and one transaction: append the action, write the snapshot, bump the
version, guarded by the version (compare-and-set) so a stale writer changes nothing, even one in
another process.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import zlib
from collections import OrderedDict
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator, Callable, overload

import orjson

from bot import store_pg, store_sqlite
from bot.config import Shards

log = logging.getLogger(__name__)

SQLITE_MIGRATIONS: list[str] = [
    # 1: the first schema
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        thread_id INTEGER,
        lobby_message_id INTEGER,
        creator_id INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
        options TEXT NOT NULL,
        seed INTEGER NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        snapshot TEXT,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX games_status ON games(status);
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        dm_ok INTEGER NOT NULL DEFAULT 1,
        prompt_version INTEGER NOT NULL DEFAULT 0,
        prompt_hash TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, user_id)
    );
    CREATE INDEX seats_user ON seats(user_id);
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, version)
    );
    CREATE TABLE timers (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        due_at REAL NOT NULL,
        PRIMARY KEY (game_id, seat, kind)
    );
    CREATE INDEX timers_due ON timers(due_at);
    """,
    # 2: a move as ONE statement (one round trip, atomic): INSERT INTO moves checks the version,
    # appends the action, writes the snapshot and bumps the version, updates the seats whose menu
    # changed ({"seat": hash} in prompts) and clears timers of a finished game.
    """
    CREATE VIEW moves (game_id, version, seat, action, snapshot, status, prompts, created_at) AS
        SELECT game_id, version, seat, action, NULL, NULL, NULL, created_at FROM actions;
    CREATE TRIGGER moves_insert INSTEAD OF INSERT ON moves BEGIN
        SELECT RAISE(ABORT, 'stale version') WHERE NOT EXISTS (
            SELECT 1 FROM games WHERE id = NEW.game_id AND version = NEW.version - 1 AND status = 'active');
        INSERT INTO actions (game_id, version, seat, action, created_at)
            VALUES (NEW.game_id, NEW.version, NEW.seat, NEW.action, NEW.created_at);
        UPDATE games SET version = NEW.version, snapshot = NEW.snapshot, status = NEW.status,
            updated_at = NEW.created_at WHERE id = NEW.game_id;
        UPDATE seats SET prompt_version = NEW.version,
            prompt_hash = json_extract(NEW.prompts, '$."' || seat || '"')
            WHERE game_id = NEW.game_id AND json_extract(NEW.prompts, '$."' || seat || '"') IS NOT NULL;
        DELETE FROM timers WHERE game_id = NEW.game_id AND NEW.status = 'finished';
    END;
    """,
    # 3: the last version whose thread post and DMs went out, so a restart can catch up.
    """
    ALTER TABLE games ADD COLUMN announced_version INTEGER NOT NULL DEFAULT -1;
    """,
    # 4: an outbox. Every committed version owes its announcement (thread post, DMs) until it is
    # out, whatever moves follow; `sent` lists the parts already out (" post dm0 dm2"). Only games
    # that truly owed one under migration 3 (active, announced behind their version) owe it now.
    """
    CREATE TABLE owed (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        sent TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (game_id, version)
    );
    INSERT INTO owed (game_id, version, outcome)
        SELECT id, version, '{}' FROM games WHERE status = 'active' AND announced_version < version;
    ALTER TABLE games DROP COLUMN announced_version;
    CREATE INDEX games_thread ON games(thread_id);
    CREATE INDEX games_channel_lobby ON games(channel_id, kind) WHERE status = 'lobby';
    DROP VIEW moves;
    CREATE VIEW moves (game_id, version, seat, action, snapshot, status, prompts, outcome, created_at) AS
        SELECT game_id, version, seat, action, NULL, NULL, NULL, NULL, created_at FROM actions;
    CREATE TRIGGER moves_insert INSTEAD OF INSERT ON moves BEGIN
        SELECT RAISE(ABORT, 'stale version') WHERE NOT EXISTS (
            SELECT 1 FROM games WHERE id = NEW.game_id AND version = NEW.version - 1 AND status = 'active');
        INSERT INTO actions (game_id, version, seat, action, created_at)
            VALUES (NEW.game_id, NEW.version, NEW.seat, NEW.action, NEW.created_at);
        UPDATE games SET version = NEW.version, snapshot = NEW.snapshot, status = NEW.status,
            updated_at = NEW.created_at WHERE id = NEW.game_id;
        UPDATE seats SET prompt_version = NEW.version,
            prompt_hash = json_extract(NEW.prompts, '$."' || seat || '"')
            WHERE game_id = NEW.game_id AND json_extract(NEW.prompts, '$."' || seat || '"') IS NOT NULL;
        DELETE FROM timers WHERE game_id = NEW.game_id AND NEW.status = 'finished';
        INSERT INTO owed (game_id, version, outcome) VALUES (NEW.game_id, NEW.version, NEW.outcome);
    END;
    """,
    # 5: many games. Who must act is kept with the game (to_act, a JSON list of seats), so start-up
    # restores reminders with one statement instead of loading every game; a move's reminder
    # timers are written by the move's own statement (fresh: {"seat": due}); a finished game's
    # action log is archived compressed; each user's DM channel and language are remembered; a
    # game has a language (its thread's); a user's games are found (in order) through one index.
    """
    ALTER TABLE games ADD COLUMN to_act TEXT;
    ALTER TABLE games ADD COLUMN archive BLOB;
    ALTER TABLE games ADD COLUMN locale TEXT;
    CREATE TABLE users (user_id INTEGER PRIMARY KEY, dm_channel_id INTEGER, locale TEXT);
    DROP INDEX seats_user;
    CREATE INDEX seats_user_game ON seats(user_id, game_id);
    DROP VIEW moves;
    CREATE VIEW moves (game_id, version, seat, action, snapshot, status, prompts, outcome, to_act, fresh,
                       created_at) AS
        SELECT game_id, version, seat, action, NULL, NULL, NULL, NULL, NULL, NULL, created_at FROM actions;
    CREATE TRIGGER moves_insert INSTEAD OF INSERT ON moves BEGIN
        SELECT RAISE(ABORT, 'stale version') WHERE NOT EXISTS (
            SELECT 1 FROM games WHERE id = NEW.game_id AND version = NEW.version - 1 AND status = 'active');
        INSERT INTO actions (game_id, version, seat, action, created_at)
            VALUES (NEW.game_id, NEW.version, NEW.seat, NEW.action, NEW.created_at);
        UPDATE games SET version = NEW.version, snapshot = NEW.snapshot, status = NEW.status,
            to_act = NEW.to_act, updated_at = NEW.created_at WHERE id = NEW.game_id;
        UPDATE seats SET prompt_version = NEW.version,
            prompt_hash = json_extract(NEW.prompts, '$."' || seat || '"')
            WHERE game_id = NEW.game_id AND json_extract(NEW.prompts, '$."' || seat || '"') IS NOT NULL;
        DELETE FROM timers WHERE game_id = NEW.game_id AND (NEW.status = 'finished' OR (
            kind = 'remind' AND seat NOT IN (SELECT value FROM json_each(NEW.to_act))));
        INSERT OR REPLACE INTO timers (game_id, seat, kind, due_at)
            SELECT NEW.game_id, CAST(key AS INTEGER), 'remind', value FROM json_each(NEW.fresh)
            WHERE NEW.status = 'active';
        INSERT INTO owed (game_id, version, outcome) VALUES (NEW.game_id, NEW.version, NEW.outcome);
    END;
    """,
    # 6: absent players. A table's clock (seconds between reminders; NULL: the bot's interval), a
    # seat handed to the automatic player (auto), the escalation level of a reminder timer (a
    # move's fresh timer is a new row, so it starts again at 1), and the votes to hand over a seat
    # (counted only while the absent seat's menu is the one it was at: `version`).
    """
    ALTER TABLE games ADD COLUMN clock REAL;
    ALTER TABLE seats ADD COLUMN auto INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE timers ADD COLUMN level INTEGER NOT NULL DEFAULT 1;
    CREATE TABLE votes (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        voter INTEGER NOT NULL,
        version INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat, voter)
    );
    """,
    # 7: shards. A process asks for the games of its shards only ((guild_id >> 22) % total, the
    # total being a setting, so no stored key or expression index can hold it): each such query
    # walks an index it already had (timers by due time, owed by game, active games by status) and
    # checks the shard on the game's row, found by its primary key. The one that had no index,
    # the automatic player's games at start-up (every seat scanned), gets a small one here.
    """
    CREATE INDEX seats_auto ON seats(game_id) WHERE auto = 1;
    """,
]

# PostgreSQL stores begin at the schema SQLite reached with migration 5 (there were none before):
# its number 1 creates it whole, 2-5 have nothing to do there. From 6 on, each number carries
# its change for both.
PG_SCHEMA = """
CREATE TABLE games (
    id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    kind text NOT NULL,
    guild_id bigint,
    channel_id bigint NOT NULL,
    thread_id bigint,
    lobby_message_id bigint,
    creator_id bigint NOT NULL,
    status text NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    options text NOT NULL,
    seed bigint NOT NULL,
    version integer NOT NULL DEFAULT 0,
    snapshot text,
    created_at double precision NOT NULL,
    updated_at double precision NOT NULL,
    to_act text,
    archive bytea,
    locale text
);
CREATE INDEX games_status ON games(status);
CREATE INDEX games_thread ON games(thread_id);
CREATE INDEX games_channel_lobby ON games(channel_id, kind) WHERE status = 'lobby';
CREATE TABLE seats (
    game_id bigint NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat integer NOT NULL,
    user_id bigint NOT NULL,
    name text NOT NULL,
    dm_ok integer NOT NULL DEFAULT 1,
    prompt_version integer NOT NULL DEFAULT 0,
    prompt_hash text NOT NULL DEFAULT '',
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);
CREATE INDEX seats_user_game ON seats(user_id, game_id);
CREATE TABLE actions (
    game_id bigint NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    version integer NOT NULL,
    seat integer NOT NULL,
    action text NOT NULL,
    created_at double precision NOT NULL,
    PRIMARY KEY (game_id, version)
);
CREATE TABLE timers (
    game_id bigint NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat integer NOT NULL,
    kind text NOT NULL,
    due_at double precision NOT NULL,
    PRIMARY KEY (game_id, seat, kind)
);
CREATE INDEX timers_due ON timers(due_at);
CREATE TABLE owed (
    game_id bigint NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    version integer NOT NULL,
    outcome text NOT NULL,
    sent text NOT NULL DEFAULT '',
    PRIMARY KEY (game_id, version)
);
CREATE TABLE users (user_id bigint PRIMARY KEY, dm_channel_id bigint, locale text);
-- A move as ONE statement, the counterpart of SQLite's `moves` view and its trigger (migration 5).
-- The compare-and-set comes first: its row lock makes a concurrent mover of the same game wait,
-- then match no row and raise, so nothing of a stale or duplicate move is written.
CREATE FUNCTION commit_move(p_game bigint, p_version integer, p_seat integer, p_action text, p_snapshot text,
                            p_status text, p_prompts jsonb, p_outcome text, p_to_act text, p_fresh jsonb,
                            p_at double precision) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    UPDATE games SET version = p_version, snapshot = p_snapshot, status = p_status, to_act = p_to_act,
        updated_at = p_at WHERE id = p_game AND version = p_version - 1 AND status = 'active';
    IF NOT FOUND THEN
        RAISE EXCEPTION 'stale version';
    END IF;
    INSERT INTO actions (game_id, version, seat, action, created_at)
        VALUES (p_game, p_version, p_seat, p_action, p_at);
    UPDATE seats SET prompt_version = p_version, prompt_hash = p_prompts ->> seat::text
        WHERE game_id = p_game AND (p_prompts ->> seat::text) IS NOT NULL;
    DELETE FROM timers WHERE game_id = p_game AND (p_status = 'finished' OR (
        kind = 'remind' AND NOT (p_to_act::jsonb @> to_jsonb(seat))));
    IF p_status = 'active' THEN
        INSERT INTO timers (game_id, seat, kind, due_at)
            SELECT p_game, f.key::integer, 'remind', f.value::double precision FROM jsonb_each_text(p_fresh) AS f
            ON CONFLICT (game_id, seat, kind) DO UPDATE SET due_at = excluded.due_at;
    END IF;
    INSERT INTO owed (game_id, version, outcome) VALUES (p_game, p_version, p_outcome);
END
$$;
"""


@dataclass(frozen=True)
class Migration:
    """One numbered step of the schema, as each backend takes it."""

    sqlite: str
    postgresql: str

    def text(self, backend: str) -> str:
        return self.sqlite if backend == store_sqlite.NAME else self.postgresql


# 6 on PostgreSQL: as on SQLite; a move's fresh reminder starts again at level 1 (SQLite's
# INSERT OR REPLACE makes a new row, which does so by itself).
PG_ABSENT_PLAYERS = """
ALTER TABLE games ADD COLUMN clock double precision;
ALTER TABLE seats ADD COLUMN auto integer NOT NULL DEFAULT 0;
ALTER TABLE timers ADD COLUMN level integer NOT NULL DEFAULT 1;
CREATE TABLE votes (
    game_id bigint NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat integer NOT NULL,
    voter bigint NOT NULL,
    version integer NOT NULL,
    PRIMARY KEY (game_id, seat, voter)
);
"""
# ... and the move's function again, its fresh timers starting at level 1 (the rest as in step 1).
_MOVE_V1 = PG_SCHEMA[PG_SCHEMA.index("CREATE FUNCTION commit_move(") :]
PG_ABSENT_PLAYERS += _MOVE_V1.replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION").replace(
    "DO UPDATE SET due_at = excluded.due_at;", "DO UPDATE SET due_at = excluded.due_at, level = 1;"
)
assert PG_ABSENT_PLAYERS.count("level = 1;") == 1

# 8 on SQLite: fewer pages a move writes (issue #17). `actions`, `owed` and `timers` keep their rows
# in their primary key's b-tree (WITHOUT ROWID): a move's insert into each writes one page where
# it wrote two (the table's and its key index's), about 12 pages a move down to 10. The move's
# view and trigger name these tables: dropped first, then made again as migration 5 made them.
# PostgreSQL has no rowid tables: nothing to do there.
_MOVES_5 = SQLITE_MIGRATIONS[4][SQLITE_MIGRATIONS[4].index("CREATE VIEW moves") :]
SQLITE_MIGRATIONS += [
    """
    DROP VIEW moves;
    ALTER TABLE actions RENAME TO actions_old;
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, version)
    ) WITHOUT ROWID;
    INSERT INTO actions (game_id, version, seat, action, created_at)
        SELECT game_id, version, seat, action, created_at FROM actions_old ORDER BY game_id, version;
    DROP TABLE actions_old;
    ALTER TABLE owed RENAME TO owed_old;
    CREATE TABLE owed (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        sent TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (game_id, version)
    ) WITHOUT ROWID;
    INSERT INTO owed (game_id, version, outcome, sent) SELECT game_id, version, outcome, sent FROM owed_old;
    DROP TABLE owed_old;
    ALTER TABLE timers RENAME TO timers_old;
    CREATE TABLE timers (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        due_at REAL NOT NULL,
        level INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (game_id, seat, kind)
    ) WITHOUT ROWID;
    INSERT INTO timers (game_id, seat, kind, due_at, level) SELECT game_id, seat, kind, due_at, level FROM timers_old;
    DROP TABLE timers_old;
    CREATE INDEX timers_due ON timers(due_at);
    """
    + _MOVES_5
]
assert SQLITE_MIGRATIONS[7].count("CREATE TRIGGER moves_insert") == 1

MIGRATIONS: list[Migration] = (
    [Migration(SQLITE_MIGRATIONS[0], PG_SCHEMA)]
    + [Migration(script, "") for script in SQLITE_MIGRATIONS[1:5]]
    + [Migration(SQLITE_MIGRATIONS[5], PG_ABSENT_PLAYERS)]
    + [
        Migration(SQLITE_MIGRATIONS[6], SQLITE_MIGRATIONS[6]),  # 7: the same text on both
        Migration(SQLITE_MIGRATIONS[7], ""),  # 8: SQLite only
        # 9: a channel's games, for a spectator's /game status outside the game's thread
        Migration(
            "CREATE INDEX games_channel ON games(channel_id);", "CREATE INDEX games_channel ON games(channel_id);"
        ),
        # 10: how each user is told of a new decision (NULL: by DM): "dm", "ping" or "both"
        Migration("ALTER TABLE users ADD COLUMN notify TEXT;", "ALTER TABLE users ADD COLUMN notify text;"),
        # 11: a seat the bot plays from the start: its AI level ("easy", "normal", "strong"); NULL: a person
        Migration("ALTER TABLE seats ADD COLUMN ai TEXT;", "ALTER TABLE seats ADD COLUMN ai text;"),
    ]
)
NOTIFY = ("dm", "ping", "both")
REMIND = "remind"  # the reminder timers' kind (the move statement above writes them)
# Seat changes first take the lobby's row (a write that changes nothing): on PostgreSQL two processes
# seating players in one lobby at once then take turns, as the whole-database write lock makes
# them on SQLite. 0 rows: no such lobby.
_LOCK_LOBBY = "UPDATE games SET status = status WHERE id = ? AND status = 'lobby'"
_SET_TIMER = (
    "INSERT INTO timers (game_id, seat, kind, due_at) VALUES (?, ?, ?, ?) "  # a fresh timer: level 1
    "ON CONFLICT (game_id, seat, kind) DO UPDATE SET due_at = excluded.due_at, level = 1"
)


class StaleVersion(Exception):
    """The game moved on between load and commit; nothing was written."""


class StoreError(Exception):
    """The database cannot be used at all (start-up): str() is one line naming the file and why."""


class StoreGone(Exception):
    """The database file was deleted or replaced while the bot ran: it takes no more writes (they
    would be lost at the next restart) until it is restarted on the file that is there now."""


class DamagedGame(Exception):
    """One game's stored rows cannot be read (a corrupted page, an unreadable snapshot). Other
    games are not affected; str() says which game."""


@dataclass
class Seat:
    seat: int
    user_id: int
    name: str
    dm_ok: bool
    prompt_version: int
    prompt_hash: str
    auto: bool = False  # played by the automatic player until its owner takes it back
    ai: str | None = None  # an AI seat's level: the bot plays it from the start (user_id < 0, never a person)

    @property
    def mention(self) -> str:
        """How the thread names the seat's player: a ping-able mention, or an AI seat's name."""
        return f"**{self.name}**" if self.ai else f"<@{self.user_id}>"


@dataclass
class Game:
    id: int
    kind: str
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    lobby_message_id: int | None
    creator_id: int
    status: str
    options: dict[str, Any]
    seed: int
    version: int
    snapshot: dict[str, Any] | None
    locale: str | None = None  # the thread's language (None: the bot's default)
    clock: float | None = None  # seconds between reminders at this table (None: the bot's interval)
    seats: list[Seat] = field(default_factory=list)

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    @property
    def rules_version(self) -> int | None:
        """The rules the game was begun under (its state's stamp): what a replay of its log starts
        with (bot/games/base.py begin)."""
        return (self.snapshot or {}).get("rules_version")


@dataclass
class Owed:
    """A committed version whose announcement is not (entirely) out yet."""

    game_id: int
    version: int
    outcome: dict[str, Any]
    sent: set[str]


@dataclass
class PromptUpdate:
    """A seat whose menu changed with this move: its buttons now carry `version`."""

    seat: int
    prompt_hash: str


def encode_snapshot(snapshot: dict[str, Any], compress: bool = False) -> str | bytes:
    """JSON text while a game runs (written every move: fast); compressed once it is over (on
    SQLite: PostgreSQL compresses large values itself)."""
    data = orjson.dumps(snapshot)
    return zlib.compress(data, 6) if compress else data.decode()


@overload
def decode_snapshot(value: str | bytes) -> dict[str, Any]: ...


@overload
def decode_snapshot(value: None) -> None: ...


def decode_snapshot(value: str | bytes | None) -> dict[str, Any] | None:
    """A stored snapshot (JSON text, or zlib-compressed bytes) as data; None stays None."""
    if value is None:
        return None
    return orjson.loads(zlib.decompress(value) if isinstance(value, bytes) else value)


def marks(items: list[Any]) -> str:
    """One placeholder per item: `IN (?, ?, ?)`."""
    return ", ".join("?" * len(items))


def values(rows: list[tuple[Any, ...]]) -> str:
    """The VALUES of a multi-row INSERT, one placeholder per field: `(?, ?), (?, ?)`."""
    return ", ".join(f"({marks(list(row))})" for row in rows)


def dumps(value: Any) -> str:
    """Compact JSON; orjson because a move's snapshot is encoded inside its commit."""
    return orjson.dumps(value).decode()


# Active games loaded lately, kept as their stored row (the snapshot as JSON text, a few KB), so the
# next move of a game skips the load: a game is decoded afresh from its row each time, so no caller
# ever shares a state with another. Every write of the store keeps the row up to date or drops it.
# (One process owns an SQLite file. On PostgreSQL, a second process moving the same game -- a
# handover -- leaves this row stale: the next move here is then refused by the version check,
# which drops the row, and the game is read afresh.)
CACHED_GAMES = 1024
# An announcement's progress (parts out, settled) is written behind, all games at once, this long
# after the first change: one statement instead of two per move. A crash inside that time re-sends
# the announcement: the catch-up finds the lines already in the thread (Delivery.lines_already_out),
# and a post or DM sent again whole carries the same content nonce, so Discord keeps one copy.
PROGRESS_AFTER_S = 0.5


Backend = store_sqlite.Backend | store_pg.Backend


def describe(target: Path | str) -> str:
    """The database as a message may name it (a URL without its password)."""
    return store_pg.without_password(target) if store_pg.is_url(target) else str(target)


class Access:
    """The database as the store and its parts reach it: reads and transactions under the store's
    one lock (a transaction first checks that the database file is still the one open), the
    backend's own SQL (`module`), and which shards' games are this process's (`shards`)."""

    def __init__(self, db: Backend) -> None:
        self.db = db
        self.module = store_pg if db.name == store_pg.NAME else store_sqlite
        self.lock = asyncio.Lock()
        # The shards this process runs (None: all). Start-up recovery, timers, the owed catch-up and
        # the automatic player's start-up query see only the games of these shards' guilds.
        self.shards: Shards | None = None
        self._gone_said = False  # the file's loss is said once in the log

    async def read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """The rows of one query, under the lock (no half-done transaction is seen)."""
        async with self.lock:
            return await self.db.fetch(sql, params)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Backend]:
        """A transaction under the lock, after the file check."""
        async with self.lock:
            self.check_file()  # (under the lock: no write of ours is changing the file)
            async with self.db.transaction() as db:
                yield db

    def check_file(self) -> None:
        """Raise StoreGone (said once in the log) if the database file is no longer the one open."""
        if self.db.moved_away():
            if not self._gone_said:
                self._gone_said = True
                log.error(
                    "%s was deleted, replaced or written by another process while the bot ran: it takes no "
                    "more moves, which would be lost; stop it, put the right file in place (without the old "
                    "-wal and -shm files beside it), and start it again",
                    self.db.where,
                )
            raise StoreGone(self.db.where)

    def mine(self, game_id: str | None = None) -> tuple[str, tuple[Any, ...]]:
        """The condition (and its parameters) that a game belongs to this process's shards: Discord's
        shard of its guild, (guild_id >> 22) % total (no guild: shard 0). Empty if all shards are
        ours. On a row of `games` itself (game_id None), or on a row naming its game in the column
        `game_id`: then the game's row is read by its primary key, one lookup per row, as a scalar
        subquery (which neither planner turns into a join: PostgreSQL would otherwise hash-join a
        scan of every game, guessing the shard test selective)."""
        if self.shards is None:
            return "", ()
        params = (self.shards.total, self.shards.first, self.shards.last)
        if game_id is None:
            return " AND ((COALESCE(games.guild_id, 0) >> 22) % ?) BETWEEN ? AND ?", params
        return (
            f" AND (SELECT (COALESCE(g.guild_id, 0) >> 22) % ? FROM games AS g WHERE g.id = {game_id}) BETWEEN ? AND ?",
            params,
        )


class Players:
    """What the store keeps about players across their games (`store.players`): how each is
    reached (DM channel, language, how they like to be told), and their ratings (bot/ratings.py
    computes them; migration 12 keeps them)."""

    def __init__(self, access: Access) -> None:
        self._access = access

    async def user(self, user_id: int) -> tuple[int | None, str | None]:
        """A user's remembered DM channel and language (None where not known)."""
        rows = await self._access.read("SELECT dm_channel_id, locale FROM users WHERE user_id = ?", (user_id,))
        return rows[0] if rows else (None, None)

    async def set_dm_channel(self, user_id: int, channel_id: int) -> None:
        """Remember the user's DM channel (opening one costs a REST call)."""
        async with self._access.transaction() as db:
            await db.execute(
                "INSERT INTO users (user_id, dm_channel_id) VALUES (?, ?) ON CONFLICT (user_id) "
                "DO UPDATE SET dm_channel_id = excluded.dm_channel_id",
                (user_id, channel_id),
            )

    async def set_user_locale(self, user_id: int, locale: str) -> None:
        """Remember the user's language (their Discord locale, as last seen)."""
        async with self._access.transaction() as db:
            await db.execute(
                "INSERT INTO users (user_id, locale) VALUES (?, ?) ON CONFLICT (user_id) "
                "DO UPDATE SET locale = excluded.locale",
                (user_id, locale),
            )

    async def notify(self, user_id: int) -> str:
        """How the user is told of a new decision: "dm" (the default), "ping" or "both"."""
        rows = await self._access.read("SELECT notify FROM users WHERE user_id = ?", (user_id,))
        return rows[0][0] if rows and rows[0][0] in NOTIFY else "dm"

    async def set_notify(self, user_id: int, how: str) -> None:
        """Set how the user is told of a new decision (one of NOTIFY)."""
        assert how in NOTIFY
        async with self._access.transaction() as db:
            await db.execute(
                "INSERT INTO users (user_id, notify) VALUES (?, ?) ON CONFLICT (user_id) "
                "DO UPDATE SET notify = excluded.notify",
                (user_id, how),
            )

    # -- ratings ----------------------------------------------------------------------------

    async def rate_game(self, game_id: int, kind: str, scopes: list[int], players: list[str], compute: Any) -> bool:
        """Rate one finished game in one transaction: `compute(current)` gets the stored ratings
        {(scope, player): (name, mu, sigma, games, wins)} of `players` in `scopes` and returns
        (the ratings to write: rows as `current` keys them, the game's seats to record: (seat,
        player, place, field, ended_at, mu, sigma)). False (nothing written) if the game is not
        finished or was rated already, so a game counts once however often this runs."""
        async with self._access.transaction() as db:
            done = await db.fetch(
                "SELECT 1 FROM games WHERE id = ? AND status = 'finished' AND NOT EXISTS "
                "(SELECT 1 FROM rated WHERE game_id = ?)",
                (game_id, game_id),
            )
            if not done:
                return False
            current = {}
            if scopes and players:  # (one statement each: a game's end adds a few to its race, not one per row)
                for scope, player, name, mu, sigma, games, wins in await db.fetch(
                    f"SELECT scope, player, name, mu, sigma, games, wins FROM ratings WHERE kind = ? "
                    f"AND scope IN ({marks(scopes)}) AND player IN ({marks(players)})",
                    (kind, *scopes, *players),
                ):
                    current[(scope, player)] = (name, mu, sigma, games, wins)
            ratings, seats = compute(current)
            now = time.time()
            if ratings:
                rows = [(kind, scope, player, *row, now) for (scope, player), row in ratings.items()]
                await db.execute(
                    "INSERT INTO ratings (kind, scope, player, name, mu, sigma, games, wins, updated_at) "
                    f"VALUES {values(rows)} ON CONFLICT (kind, scope, player) DO UPDATE SET "
                    "name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
                    "wins = excluded.wins, updated_at = excluded.updated_at",
                    [v for row in rows for v in row],
                )
            if seats:
                rows = [(game_id, row[0], kind, *row[1:]) for row in seats]
                await db.execute(
                    "INSERT INTO rated (game_id, seat, kind, player, place, field, ended_at, mu, sigma) "
                    f"VALUES {values(rows)}",
                    [v for row in rows for v in row],
                )
        return True

    async def unrated_games(self) -> list[tuple[int, float]]:
        """Finished games not rated yet (games finished before ratings, or a crash between the
        move and its rating), as (id, the time it ended), the earliest ended first."""
        return [
            (g, t)
            for g, t in await self._access.read(
                "SELECT id, updated_at FROM games WHERE status = 'finished' AND NOT EXISTS "
                "(SELECT 1 FROM rated WHERE rated.game_id = games.id) ORDER BY updated_at, id"
            )
        ]

    async def clear_ratings(self) -> None:
        """Forget every rating (a rebuild from the finished games follows)."""
        async with self._access.transaction() as db:
            await db.execute("DELETE FROM rated", ())
            await db.execute("DELETE FROM ratings", ())

    async def leaderboard(
        self, kind: str, scope: int, limit: int = 10
    ) -> list[tuple[str, str, float, float, int, int]]:
        """The best of a game in a scope (a guild id; 0: across servers) by their conservative
        rating (mu - 3 sigma): (player, name, mu, sigma, games, wins)."""
        return await self._access.read(
            "SELECT player, name, mu, sigma, games, wins FROM ratings WHERE kind = ? AND scope = ? "
            "ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT ?",
            (kind, scope, limit),
        )

    async def ratings_of(self, player: str, scope: int) -> list[tuple[str, str, float, float, int, int]]:
        """A player's rating in every game they were rated in: (kind, name, mu, sigma, games, wins)."""
        return await self._access.read(
            "SELECT kind, name, mu, sigma, games, wins FROM ratings WHERE scope = ? AND player = ? ORDER BY kind",
            (scope, player),
        )

    async def rank_in(self, kind: str, scope: int, player: str) -> tuple[int, int] | None:
        """A player's rank on a game's leaderboard and how many are on it (None: not rated)."""
        rows = await self._access.read(
            "SELECT (SELECT COUNT(*) FROM ratings AS o WHERE o.kind = r.kind AND o.scope = r.scope AND "
            "o.mu - 3 * o.sigma > r.mu - 3 * r.sigma) + 1, (SELECT COUNT(*) FROM ratings AS o WHERE "
            "o.kind = r.kind AND o.scope = r.scope) FROM ratings AS r WHERE r.kind = ? AND r.scope = ? AND "
            "r.player = ?",
            (kind, scope, player),
        )
        return (rows[0][0], rows[0][1]) if rows else None

    async def rating_history(self, player: str, kind: str | None, limit: int = 200) -> list[tuple[Any, ...]]:
        """A player's rated games, oldest first (the newest `limit`): (game id, kind, place, field,
        ended_at, mu, sigma after the game, across servers)."""
        rows = await self._access.read(
            "SELECT game_id, kind, place, field, ended_at, mu, sigma FROM rated WHERE player = ? AND "
            "(CAST(? AS TEXT) IS NULL OR kind = ?) ORDER BY ended_at DESC, game_id DESC LIMIT ?",
            (player, kind, kind, limit),
        )
        return rows[::-1]

    async def ai_ratings(self, kind: str, scope: int) -> list[tuple[str, float, float, int]]:
        """The AI levels' ratings at a game: (player "ai:<level>", mu, sigma, games)."""
        return await self._access.read(
            "SELECT player, mu, sigma, games FROM ratings WHERE kind = ? AND scope = ? AND "
            "player LIKE 'ai:%' ORDER BY mu - 3 * sigma",
            (kind, scope),
        )


class Clocks:
    """The clock and the absent players (`store.clocks`): each waiting seat's reminder timers, and
    the seats handed to the automatic player (the table's vote, the stand-in)."""

    def __init__(self, access: Access, forget: Callable[[int], None]) -> None:
        self._access = access
        self._forget = forget  # drops the store's kept row of a game whose seats changed

    # -- timers -----------------------------------------------------------------------------

    async def set_timers(self, game_id: int, kind: str, waiting: set[int], fresh: dict[int, float]) -> None:
        """Keep the timers of seats still `waiting`, drop the others, (re)set those in `fresh`."""
        async with self._access.transaction() as db:
            marks = ",".join("?" * len(waiting))
            await db.execute(
                f"DELETE FROM timers WHERE game_id = ? AND kind = ? AND seat NOT IN ({marks})"
                if waiting
                else "DELETE FROM timers WHERE game_id = ? AND kind = ?",
                (game_id, kind, *waiting),
            )
            await db.executemany(_SET_TIMER, [(game_id, seat, kind, at) for seat, at in fresh.items()])

    async def restore_timers(self, due_at: float) -> None:
        """Every seat that must act in an active game gets a reminder timer if it has none (one
        statement, whatever the number of games)."""
        mine, params = self._access.mine()
        async with self._access.transaction() as db:
            await db.execute(self._access.module.RESTORE_TIMERS.format(mine=mine), (REMIND, due_at, *params))

    async def due_timers(self, now: float) -> list[tuple[int, int, str, int]]:
        """(game, seat, kind, level) of every timer due by `now` (of this process's shards), the
        earliest first."""
        mine, params = self._access.mine("timers.game_id")
        return await self._access.read(
            "SELECT game_id, seat, kind, level FROM timers WHERE due_at <= ?" + mine + " ORDER BY due_at",
            (now, *params),
        )

    async def escalate_timer(self, game_id: int, seat: int, kind: str, level: int, due_at: float | None) -> bool:
        """A due timer of `level` moves to the next level at `due_at` (None: it is deleted). False if
        it is no longer at that level (a move reset it meanwhile): then nothing is sent."""
        async with self._access.transaction() as db:
            if due_at is None:
                changed = await db.execute(
                    "DELETE FROM timers WHERE game_id = ? AND seat = ? AND kind = ? AND level = ?",
                    (game_id, seat, kind, level),
                )
            else:
                changed = await db.execute(
                    "UPDATE timers SET level = level + 1, due_at = ? WHERE game_id = ? AND "
                    "seat = ? AND kind = ? AND level = ?",
                    (due_at, game_id, seat, kind, level),
                )
        return changed == 1

    async def next_timer_due(self) -> float | None:
        """The earliest due time of this process's shards' timers (walks timers_due in order: the
        first row of ours ends it)."""
        mine, params = self._access.mine("timers.game_id")
        if not mine:
            return (await self._access.read("SELECT MIN(due_at) FROM timers"))[0][0]
        rows = await self._access.read(
            "SELECT due_at FROM timers WHERE 1 = 1" + mine + " ORDER BY due_at LIMIT 1", params
        )
        return rows[0][0] if rows else None

    async def timer_seats(self, game_id: int, kind: str) -> set[int]:
        """The seats of a game with a timer of `kind`."""
        return {
            r[0]
            for r in await self._access.read("SELECT seat FROM timers WHERE game_id = ? AND kind = ?", (game_id, kind))
        }

    async def delete_timer(self, game_id: int, seat: int, kind: str) -> None:
        """Drop one seat's timer of `kind`."""
        async with self._access.transaction() as db:
            await db.execute("DELETE FROM timers WHERE game_id = ? AND seat = ? AND kind = ?", (game_id, seat, kind))

    # -- absent players ---------------------------------------------------------------------

    async def set_auto(self, game_id: int, seat: int, auto: bool) -> bool:
        """Hand a seat of an active game to the automatic player (or give it back); its votes go.
        False if the game is not active or the seat already was so."""
        async with self._access.transaction() as db:
            changed = await db.execute(
                "UPDATE seats SET auto = ? WHERE game_id = ? AND seat = ? AND auto != ? AND "
                "EXISTS (SELECT 1 FROM games WHERE id = ? AND status = 'active')",
                (int(auto), game_id, seat, int(auto), game_id),
            )
            await db.execute("DELETE FROM votes WHERE game_id = ? AND seat = ?", (game_id, seat))
        self._forget(game_id)
        return changed == 1

    async def vote(self, game_id: int, seat: int, voter: int, version: int) -> list[int]:
        """Record `voter`'s vote to hand `seat` to the automatic player, made while the seat's menu
        was at `version`; returns every voter of that version (older votes no longer count)."""
        async with self._access.transaction() as db:
            await db.execute(
                "DELETE FROM votes WHERE game_id = ? AND seat = ? AND version != ?", (game_id, seat, version)
            )
            await db.execute(
                "INSERT INTO votes (game_id, seat, voter, version) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (game_id, seat, voter, version),
            )
            rows = await db.fetch(
                "SELECT voter FROM votes WHERE game_id = ? AND seat = ? ORDER BY voter", (game_id, seat)
            )
        return [r[0] for r in rows]

    async def votes(self, game_id: int, seat: int, version: int) -> list[int]:
        """Who has voted to hand `seat` over while its menu was at `version`."""
        return [
            r[0]
            for r in await self._access.read(
                "SELECT voter FROM votes WHERE game_id = ? AND seat = ? AND version = ? ORDER BY voter",
                (game_id, seat, version),
            )
        ]

    async def games_with_auto_seats(self) -> list[int]:
        """Active games with a seat the automatic player holds (start-up lets it move)."""
        mine, params = self._access.mine("seats.game_id")
        return [
            r[0]
            for r in await self._access.read(  # through seats_auto (migration 7), each game by its key
                "SELECT DISTINCT game_id FROM seats WHERE auto = 1 AND (SELECT g.status FROM games AS g WHERE "
                "g.id = seats.game_id) = 'active'" + mine + " ORDER BY game_id",
                params,
            )
        ]


class Store:
    """The games: their lobbies and seats, the one-statement move, the action log, the
    announcements owed per version (the outbox), and the rows of active games kept in memory.
    What concerns players across games is `players` (Players), the clock and the absent players'
    seats `clocks` (Clocks); all three share one Access (one lock, one connection)."""

    def __init__(self, db: Backend) -> None:
        self._access = Access(db)
        self._db = db
        self._backend = self._access.module
        self._rows: OrderedDict[int, tuple[Any, ...]] = OrderedDict()
        self._sent: dict[tuple[int, int], list[str]] = {}  # (game, version): parts out, not yet written
        self._settled: set[tuple[int, int]] = set()  # (game, version): announced, row not yet deleted
        self._flush_timer: asyncio.TimerHandle | None = None
        self._flushing: asyncio.Task[None] | None = None
        # Instrumentation: called after each write of announcement progress (Store.flush) with the
        # statements it ran and the seconds it took (the bench's progress_writes_per_move). None: off.
        self.on_progress_written: Callable[[int, float], None] | None = None
        # How a loaded snapshot becomes today's (kind, state -> state): the table hands its engines'
        # `upgrade` here, so every game it loads is read the way today's engine reads it. None: as stored.
        self.upgrade: Callable[[str, dict[str, Any]], dict[str, Any]] | None = None
        self.players = Players(self._access)
        self.clocks = Clocks(self._access, forget=self._forget)

    @property
    def shards(self) -> Shards | None:
        """The shards this process runs (None: all): start-up recovery, timers, the owed catch-up
        and the automatic player's start-up query see only the games of these shards' guilds."""
        return self._access.shards

    @shards.setter
    def shards(self, shards: Shards | None) -> None:
        self._access.shards = shards

    def _mine(self, game_id: str | None = None) -> tuple[str, tuple[Any, ...]]:
        return self._access.mine(game_id)

    def _forget(self, game_id: int) -> None:
        """Drop a game's kept row (after a write that changed it outside a move)."""
        self._rows.pop(game_id, None)

    @property
    def backend(self) -> str:
        """ "sqlite" or "postgresql" (for messages and tests; no game code asks)."""
        return self._db.name

    @property
    def db(self) -> Backend:
        """The backend itself, for the tools that copy or check a database wholesale (bot/store_copy.py);
        game code goes through the store's methods."""
        return self._db

    @asynccontextmanager
    async def bulk(self) -> AsyncIterator[Backend]:
        """A transaction for a bulk copy into this store: under the store's lock, without the file
        check that guards the moves (the copy's target is new)."""
        async with self._access.lock, self._db.transaction() as db:
            yield db

    @asynccontextmanager
    async def locked(self) -> AsyncIterator[Backend]:
        """The backend under the store's lock, each statement autocommitted: for the tools that time
        a statement of their own against the store's (the bench's bare INSERT)."""
        async with self._access.lock:
            yield self._db

    def forget_cached(self) -> None:
        """Drop the kept rows of active games: the next load of each reads the database."""
        self._rows.clear()

    @property
    def _conn(self) -> Any:
        """The backend's raw connection (tests reach past the store with it)."""
        return self._db.conn

    @classmethod
    async def open(cls, target: Path | str) -> "Store":
        """Open (and migrate) the database: a postgresql:// URL or an SQLite path. Raises
        StoreError (one line naming the database and why), with no connection left behind."""
        where = describe(target)
        module = store_pg if store_pg.is_url(target) else store_sqlite
        db = None
        try:
            if module is store_pg:
                import asyncpg

                errors: tuple[type[BaseException], ...] = (
                    asyncpg.PostgresError,
                    asyncpg.InterfaceError,
                    OSError,
                    asyncio.TimeoutError,
                )
            else:
                errors = store_sqlite.Backend.errors
        except ImportError:
            raise StoreError(f"{where}: PostgreSQL needs the asyncpg package (pip install asyncpg)") from None
        try:
            db = await module.Backend.connect(target)
            store = cls(db)
            await store._migrate()
            return store
        except StoreError as err:
            if db is not None:
                await db.close_quietly()
            raise StoreError(f"{where}: {err}") from None
        except errors as err:
            if db is not None:
                await db.close_quietly()
            reason = " ".join(str(err).split()) or type(err).__name__
            if module is store_pg and isinstance(err, (OSError, asyncio.TimeoutError)):
                reason = f"cannot connect to the server ({reason})"
            raise StoreError(f"{where}: {reason}") from None

    async def close(self) -> None:
        try:
            await self.flush()
        finally:
            await self._db.close()

    async def _migrate(self) -> None:
        current = await self._db.schema_version()
        if current < 0:
            raise StoreError(f"its schema number ({current}) is not one this bot ever writes; refusing to use it")
        if current > len(MIGRATIONS):
            raise StoreError(
                f"written by a newer version of the bot (schema {current}; this code knows "
                f"up to {len(MIGRATIONS)}); refusing to use it"
            )
        problem = await self._db.check_usable()
        if problem:
            raise StoreError(problem)
        for number, migration in enumerate(MIGRATIONS[current:], current + 1):
            await self._db.migrate(number, migration.text(self._db.name))

    def check_file(self) -> None:
        """Raise StoreGone (said once in the log) if the database file is no longer the one open."""
        self._access.check_file()

    def _transaction(self) -> AbstractAsyncContextManager[Backend]:
        return self._access.transaction()

    # -- games and seats ------------------------------------------------------------------

    async def create_game(
        self,
        kind: str,
        guild_id: int | None,
        channel_id: int,
        creator_id: int,
        creator_name: str,
        options: dict[str, Any],
        seed: int,
        locale: str | None = None,
        clock: float | None = None,
        ai: int = 0,
        ai_level: str = "normal",
    ) -> int:
        """A lobby with its creator in seat 0, then `ai` seats the bot plays at `ai_level` (named
        "AI 1", "AI 2"...: short on every board; a negative user id, which no person has)."""
        now = time.time()
        async with self._transaction() as db:
            ((game_id,),) = await db.fetch(
                "INSERT INTO games (kind, guild_id, channel_id, creator_id, status, options, seed, locale, clock, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?) RETURNING id",
                (kind, guild_id, channel_id, creator_id, dumps(options), seed, locale, clock, now, now),
            )
            await db.execute(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                (game_id, creator_id, creator_name),
            )
            for seat in range(1, ai + 1):
                await db.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name, auto, ai) VALUES (?, ?, ?, ?, 1, ?)",
                    (game_id, seat, -seat, f"AI {seat}", ai_level),
                )
        return game_id

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        async with self._transaction() as db:
            await db.execute("UPDATE games SET lobby_message_id = ? WHERE id = ?", (message_id, game_id))

    async def join(self, game_id: int, user_id: int, name: str, max_seats: int) -> bool:
        """Seat a user in a lobby; False if the lobby is closed, full, or they already sit."""
        async with self._transaction() as db:
            if not await db.execute(_LOCK_LOBBY, (game_id,)):
                return False
            ((count, mine),) = await db.fetch(
                "SELECT COUNT(*), SUM(CASE WHEN user_id = ? THEN 1 ELSE 0 END) FROM seats JOIN games "
                "ON games.id = game_id WHERE game_id = ? AND status = 'lobby'",
                (user_id, game_id),
            )
            if not count or mine or count >= max_seats:
                return False
            await db.execute(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)", (game_id, count, user_id, name)
            )
        return True

    async def leave(self, game_id: int, user_id: int) -> bool:
        """Remove a user from a lobby and close the gap in seat numbers."""
        async with self._transaction() as db:
            if not await db.execute(_LOCK_LOBBY, (game_id,)):
                return False
            rows = await db.fetch(
                "SELECT seat FROM seats JOIN games ON games.id = game_id "
                "WHERE game_id = ? AND user_id = ? AND status = 'lobby'",
                (game_id, user_id),
            )
            if not rows:
                return False
            row = rows[0]
            await db.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, row[0]))
            # Two steps so the primary key never collides while renumbering.
            await db.execute("UPDATE seats SET seat = -seat WHERE game_id = ? AND seat > ?", (game_id, row[0]))
            await db.execute("UPDATE seats SET seat = -seat - 1 WHERE game_id = ? AND seat < 0", (game_id,))
        return True

    async def start(
        self,
        game_id: int,
        thread_id: int | None,
        snapshot: dict[str, Any],
        prompts: list[PromptUpdate],
        outcome: dict[str, Any] | None = None,
        to_act: list[int] = (),  # type: ignore[assignment]
        fresh: dict[int, float] | None = None,
    ) -> bool:
        """lobby -> active with the engine's first state (version 0), owing its announcement, with
        the seats that must act and their reminder times. False if no longer a lobby."""
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE games SET status = 'active', thread_id = ?, snapshot = ?, to_act = ?, updated_at = ? "
                "WHERE id = ? AND status = 'lobby'",
                (thread_id, dumps(snapshot), dumps(sorted(to_act)), time.time(), game_id),
            )
            if changed != 1:
                return False
            await db.executemany(
                "UPDATE seats SET prompt_version = 0, prompt_hash = ? WHERE game_id = ? AND seat = ?",
                [(p.prompt_hash, game_id, p.seat) for p in prompts],
            )
            await db.execute(
                "INSERT INTO owed (game_id, version, outcome) VALUES (?, 0, ?)", (game_id, dumps(outcome or {}))
            )
            await db.executemany(_SET_TIMER, [(game_id, seat, REMIND, at) for seat, at in (fresh or {}).items()])
        return True

    async def set_status(self, game_id: int, status: str) -> bool:
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE games SET status = ?, updated_at = ? WHERE id = ? AND status IN ('lobby', 'active')",
                (status, time.time(), game_id),
            )
            await db.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
        self._rows.pop(game_id, None)  # after the write: a read queued before it may have kept the old row
        return changed == 1

    async def set_dm_ok(self, game_id: int, user_id: int, ok: bool) -> None:
        async with self._transaction() as db:
            await db.execute(
                "UPDATE seats SET dm_ok = ? WHERE game_id = ? AND user_id = ?", (int(ok), game_id, user_id)
            )
        self._rows.pop(game_id, None)

    async def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return await self._access.read(sql, params)

    async def game(self, game_id: int) -> Game | None:
        """One game with its seats, or None. Raises DamagedGame if its rows cannot be read."""
        if not 0 < game_id < 2**63:  # the databases' integer range: a forged id is simply no game
            return None
        row = self._rows.get(game_id)
        if row is not None:
            self._rows.move_to_end(game_id)
        try:
            if row is None:
                rows = await self._read(
                    self._backend.GAME_SELECT, (game_id,)
                )  # the game and its seats as of one moment
                if not rows:
                    return None
                row = rows[0]
            gid, kind, guild_id, channel_id, thread_id, lobby_id, creator_id, status = row[:8]
            game = Game(
                gid,
                kind,
                guild_id,
                channel_id,
                thread_id,
                lobby_id,
                creator_id,
                status,
                orjson.loads(row[8]),
                row[9],
                row[10],
                decode_snapshot(row[11]),
                row[12],
                row[13],
            )
            seats = orjson.loads(row[14])
        except Exception as err:
            if not (isinstance(err, (ValueError, TypeError, zlib.error)) or self._backend.is_damage(err)):
                raise
            raise DamagedGame(f"game {game_id}: its stored data cannot be read ({err})") from None
        game.seats = [Seat(s, u, n, bool(d), pv, ph, bool(a), ai) for s, u, n, d, pv, ph, a, ai in seats]
        if game.snapshot is not None and self.upgrade is not None:
            game.snapshot = self.upgrade(game.kind, game.snapshot)
        if game.status == "active" and game_id not in self._rows:
            self._rows[game_id] = row
            if len(self._rows) > CACHED_GAMES:
                self._rows.popitem(last=False)
        return game

    async def _games(self, sql: str, params: tuple[Any, ...]) -> list[Game]:
        """The games the query's first column names; a damaged one is left out (and logged by
        whoever loads it on its own), so one bad game never hides the others."""
        games = []
        for game_id, *_ in await self._read(sql, params):
            try:
                game = await self.game(game_id)
            except DamagedGame:
                continue
            if game is not None:
                games.append(game)
        return games

    async def games_of_user(self, user_id: int, statuses: tuple[str, ...] = ("lobby", "active")) -> list[Game]:
        marks = ",".join("?" * len(statuses))
        return await self._games(
            f"SELECT game_id FROM seats JOIN games ON games.id = game_id "
            f"WHERE user_id = ? AND status IN ({marks}) ORDER BY game_id",
            (user_id, *statuses),
        )

    async def finished_games_of_user(self, user_id: int, limit: int = 20) -> list[tuple[Game, float]]:
        """A user's ended games (finished or abandoned after the start), the newest first, with
        the time each ended."""
        rows = await self._read(
            "SELECT game_id, games.updated_at FROM seats JOIN games ON games.id = game_id "
            "WHERE user_id = ? AND status IN ('finished', 'abandoned') AND snapshot IS NOT NULL "
            "ORDER BY game_id DESC LIMIT ?",
            (user_id, limit),
        )
        ended = dict(rows)
        if not ended:
            return []
        return [
            (g, ended[g.id])
            for g in await self._games(
                f"SELECT id FROM games WHERE id IN ({','.join('?' * len(ended))}) ORDER BY id DESC", tuple(ended)
            )
        ]

    async def active_games(self) -> list[Game]:
        return await self._games("SELECT id FROM games WHERE status = 'active' ORDER BY id", ())

    async def open_lobby(self, channel_id: int, kind: str) -> Game | None:
        """The newest open table of `kind` in a channel."""
        games = await self._games(
            "SELECT id FROM games WHERE channel_id = ? AND kind = ? AND status = 'lobby' "
            "AND lobby_message_id IS NOT NULL ORDER BY id DESC LIMIT 1",
            (channel_id, kind),
        )
        return games[0] if games else None

    async def game_by_thread(self, thread_id: int, kind: str | None, statuses: tuple[str, ...]) -> Game | None:
        """The newest game of `kind` (any if None) in `statuses` played in this thread."""
        marks = ",".join("?" * len(statuses))
        games = await self._games(
            f"SELECT id FROM games WHERE thread_id = ? AND (CAST(? AS TEXT) IS NULL OR kind = ?) AND status IN ({marks}) "
            f"ORDER BY id DESC LIMIT 1",
            (thread_id, kind, kind, *statuses),
        )
        return games[0] if games else None

    async def games_in_channel(self, channel_id: int, kind: str | None, statuses: tuple[str, ...]) -> list[Game]:
        """The games of `kind` (any if None) in `statuses` opened in this channel, oldest first."""
        marks = ",".join("?" * len(statuses))
        return await self._games(
            f"SELECT id FROM games WHERE channel_id = ? AND (CAST(? AS TEXT) IS NULL OR kind = ?) "
            f"AND status IN ({marks}) ORDER BY id",
            (channel_id, kind, kind, *statuses),
        )

    async def lobbies_without_message(self) -> list[tuple[int, int]]:
        """(game id, channel id) of lobbies whose post may or may not have gone out (a crash
        between the two)."""
        mine, params = self._mine()
        return [
            (g, c)
            for g, c in await self._read(
                "SELECT id, channel_id FROM games WHERE status = 'lobby' AND lobby_message_id IS NULL" + mine, params
            )
        ]

    # -- the outbox: announcements owed per version ---------------------------------------

    async def owed(self, game_id: int | None = None, older_than: float | None = None) -> list[Owed]:
        """What is owed, in (game, version) order: one game, or all of this process's shards' games
        (only those whose last change is before `older_than`, if given)."""
        await self.flush()
        mine, params = self._mine("owed.game_id")
        if older_than is not None:
            mine = mine + " AND (SELECT g.updated_at FROM games AS g WHERE g.id = owed.game_id) < ?"
            params = (*params, older_than)
        if game_id is not None:
            sql, params = (
                "SELECT game_id, version, outcome, sent FROM owed WHERE game_id = ? ORDER BY version",
                (game_id,),
            )
        elif not mine:
            sql = "SELECT game_id, version, outcome, sent FROM owed ORDER BY game_id, version"
        else:
            sql = "SELECT game_id, version, outcome, sent FROM owed WHERE 1 = 1" + mine + " ORDER BY game_id, version"
        rows = await self._read(sql, params)
        owed = []
        for gid, version, outcome, sent in rows:
            try:
                value = json.loads(outcome)
            except ValueError:
                value = {}
            owed.append(Owed(gid, version, value, set(sent.split())))
        return owed

    async def _write(self, sql: str, params: tuple[Any, ...]) -> None:
        """One statement, atomic on its own (autocommit): one round trip."""
        async with self._access.lock:
            await self._db.execute(sql, params)

    async def mark_sent(self, game_id: int, versions: list[int], part: str) -> None:
        """Record that `part` ("post", "dm<seat>") of these versions' announcement is out (written
        behind: see PROGRESS_AFTER_S)."""
        for version in versions:
            if (game_id, version) not in self._settled:
                self._sent.setdefault((game_id, version), []).append(part)
        self._flush_soon()

    async def settle(self, game_id: int, versions: list[int]) -> None:
        """These versions' announcements are out (or cannot ever be delivered): written behind."""
        for version in versions:
            self._sent.pop((game_id, version), None)
            self._settled.add((game_id, version))
        self._flush_soon()

    def _flush_soon(self) -> None:
        if self._flush_timer is None:
            loop = asyncio.get_running_loop()
            self._flush_timer = loop.call_later(PROGRESS_AFTER_S, self._start_flush)

    def _start_flush(self) -> None:
        self._flush_timer = None
        self._flushing = asyncio.ensure_future(self.flush())

    async def flush(self) -> None:
        """Write the announcement progress noted so far: the settled rows deleted in one statement
        (a few, if very many), the parts out recorded. Kept for the next try if the write fails."""
        if self._flush_timer is not None:
            self._flush_timer.cancel()
            self._flush_timer = None
        sent, settled = self._sent, sorted(self._settled)
        if not sent and not settled:
            return
        self._sent, self._settled = {}, set()
        start, statements = time.perf_counter(), 0
        try:
            async with self._access.lock:
                if settled:
                    statements += await self._db.delete_owed(settled)
                if sent:
                    await self._db.executemany(
                        "UPDATE owed SET sent = sent || ' ' || ? WHERE game_id = ? AND version = ?",
                        [(" ".join(parts), gid, version) for (gid, version), parts in sent.items()],
                    )
                    statements += 1
        except Exception:
            log.exception("could not write announcement progress; trying again later")
            for key, parts in sent.items():
                self._sent.setdefault(key, []).extend(parts)
            self._settled.update(settled)
            self._flush_soon()
        finally:
            if self.on_progress_written is not None:
                self.on_progress_written(statements, time.perf_counter() - start)

    # -- moves ------------------------------------------------------------------------------

    async def commit_move(
        self,
        game_id: int,
        expected_version: int,
        seat: int,
        action: dict[str, Any],
        snapshot: dict[str, Any],
        finished: bool,
        prompts: list[PromptUpdate],
        outcome: dict[str, Any] | None = None,
        to_act: list[int] = (),  # type: ignore[assignment]
        fresh: dict[int, float] | None = None,
    ) -> int:
        """Append the action, write the snapshot, bump the version, owe the announcement
        (`outcome`), keep who must act and set their reminders: one atomic statement. The
        reminders of seats in `to_act` but not in `fresh` are kept; all others dropped."""
        new_version = expected_version + 1
        row = (
            game_id,
            new_version,
            seat,
            dumps(action),
            encode_snapshot(snapshot, compress=finished and self._db.compress_snapshots),
            "finished" if finished else "active",
            dumps({str(p.seat): p.prompt_hash for p in prompts}),
            dumps(outcome or {}),
            dumps(sorted(to_act)),
            dumps({str(k): v for k, v in (fresh or {}).items()}),
            time.time(),
        )
        async with self._access.lock:
            self._access.check_file()
            try:
                await self._db.execute(self._backend.MOVE, row)
            except BaseException as err:
                self._rows.pop(game_id, None)
                if self._backend.is_stale(err):
                    raise StaleVersion(game_id) from None
                raise
        self._moved(game_id, new_version, row[4], finished, prompts)
        return new_version

    def _moved(
        self, game_id: int, version: int, snapshot: str | bytes, finished: bool, prompts: list[PromptUpdate]
    ) -> None:
        """A committed move brings the game's kept row up to date (a finished game's is dropped)."""
        row = self._rows.get(game_id)
        if row is None:
            return
        if finished:
            del self._rows[game_id]
            return
        hashes = {p.seat: p.prompt_hash for p in prompts}
        seats = [s if s[0] not in hashes else [*s[:4], version, hashes[s[0]], *s[6:]] for s in orjson.loads(row[14])]
        self._rows[game_id] = (*row[:10], version, snapshot, *row[12:14], orjson.dumps(seats))

    async def actions(self, game_id: int) -> list[tuple[int, dict[str, Any]]]:
        """The action log, in order (from the archive once the game is archived)."""
        archived = await self._read("SELECT archive FROM games WHERE id = ? AND archive IS NOT NULL", (game_id,))
        if archived:
            return [(seat, action) for seat, action in json.loads(zlib.decompress(archived[0][0]))]
        rows = await self._read("SELECT seat, action FROM actions WHERE game_id = ? ORDER BY version", (game_id,))
        return [(seat, json.loads(a)) for seat, a in rows]

    async def archive(self, game_id: int) -> bool:
        """A finished game's action log becomes one compressed value (its snapshot already is):
        replay reads it back unchanged. False if the game is not finished or already archived."""
        async with self._transaction() as db:
            rows = await db.fetch(
                "SELECT seat, action FROM actions WHERE game_id = ? AND EXISTS (SELECT 1 FROM games WHERE id = ? "
                "AND status = 'finished' AND archive IS NULL) ORDER BY version",
                (game_id, game_id),
            )
            if not rows:
                return False
            packed = zlib.compress(("[" + ",".join(f"[{seat},{a}]" for seat, a in rows) + "]").encode(), 6)
            await db.execute("UPDATE games SET archive = ? WHERE id = ?", (packed, game_id))
            self._rows.pop(game_id, None)
            await db.execute("DELETE FROM actions WHERE game_id = ?", (game_id,))
        return True

    async def games_without_to_act(self) -> list[int]:
        """Active games from before who-must-act was stored (migration 5): filled in once."""
        mine, params = self._mine()
        return [
            r[0]
            for r in await self._read("SELECT id FROM games WHERE status = 'active' AND to_act IS NULL" + mine, params)
        ]

    async def set_to_act(self, game_id: int, to_act: list[int]) -> None:
        async with self._transaction() as db:
            await db.execute("UPDATE games SET to_act = ? WHERE id = ?", (dumps(sorted(to_act)), game_id))


# 12: ratings per game (bot/ratings.py): each player's OpenSkill rating per game kind in a scope (a
# server's guild id; 0: across servers; a person by user id, an AI seat by its level "ai:strong"),
# and each rated game's seats (place, and the rating across servers after it: /stats draws it), so a
# game is rated once and the ratings can be built again from the finished games.
_RATINGS = """
CREATE TABLE ratings (
    kind TEXT NOT NULL,
    scope {big} NOT NULL,
    player TEXT NOT NULL,
    name TEXT NOT NULL,
    mu {real} NOT NULL,
    sigma {real} NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    updated_at {real} NOT NULL,
    PRIMARY KEY (kind, scope, player)
);
CREATE TABLE rated (
    game_id {big} NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    player TEXT NOT NULL,
    place INTEGER NOT NULL,
    field INTEGER NOT NULL,
    ended_at {real} NOT NULL,
    mu {real} NOT NULL,
    sigma {real} NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX rated_player ON rated(player, ended_at);
"""
MIGRATIONS.append(
    Migration(_RATINGS.format(big="INTEGER", real="REAL"), _RATINGS.format(big="bigint", real="double precision"))
)
