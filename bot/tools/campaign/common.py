"""Shared pieces of the campaign: progress lines, the figures, a fast message index over the
emulator's world, and read-only access to the bot's SQLite file."""

from __future__ import annotations

import asyncio
import hashlib
import json
import itertools
import random
import sqlite3
import sys
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

T0 = time.monotonic()


def progress(text: str) -> None:
    """A short progress line on stderr (the figures go to stdout at the end)."""
    print(f"[campaign {time.monotonic() - T0:6.1f}s] {text}", file=sys.stderr, flush=True)


@dataclass
class Context:
    """What every part of a campaign shares: the emulator, the bot's database read-only, the message
    index, the figures, the random source, the bot's control and the world the games are played in."""

    emu: Any
    db: Any
    index: Any
    figures: Any
    rnd: random.Random
    seed: int
    work: Path = Path(".")  # the campaign's temporary folder (kept with --keep)
    botctl: Any = None
    killplan: Any = None
    guild: Any = None
    channels: dict[int, Any] = field(default_factory=dict)
    choices: dict[str, tuple[str, list[Any]]] = field(default_factory=dict)  # kind -> /new option, values
    hard_stop: asyncio.Event = field(default_factory=asyncio.Event)
    doubles: bool = True
    p_double: float = 0.12
    p_kill_after_click: float = 0.08


class Figures(Counter):
    """name -> count; printed one per line as `name: value` in the order given to `report`."""

    def report(self, names: Iterable[str]) -> str:
        return "\n".join(f"{n}: {self.get(n, 0)}" for n in names)


class Index:
    """Messages by channel, built incrementally from the emulator's world (the world's own
    look-up scans every message, too slow for many players polling a long campaign)."""

    def __init__(self, emu: Any) -> None:
        self.emu = emu
        self.seen = 0
        self.by_channel: dict[int, list[Any]] = {}

    def _catch_up(self) -> None:
        messages = self.emu.world.messages
        if len(messages) == self.seen:
            return
        for m in itertools.islice(messages.values(), self.seen, None):
            self.by_channel.setdefault(m.channel_id, []).append(m)
        self.seen = len(messages)

    def messages(self, channel_id: int, *, ephemeral_for: Optional[int] = None, bot_only: bool = True) -> list[Any]:
        """Live messages of a channel, oldest first; ephemerals only those visible to `ephemeral_for`."""
        self._catch_up()
        bot_id = self.emu.bot.id
        out = []
        for m in self.by_channel.get(channel_id, ()):
            if m.deleted or (bot_only and m.author.id != bot_id):
                continue
            if m.ephemeral and (ephemeral_for is None or m.visible_to != ephemeral_for):
                continue
            out.append(m)
        return out

    def dms(self, user: Any, *, ephemeral: bool = False) -> list[Any]:
        dm = self.emu.world.dm_channel(user, create=False)
        if dm is None:
            return []
        return self.messages(dm.id, ephemeral_for=user.id if ephemeral else None)


def live_components(message: Any) -> bool:
    return any(not c.get("disabled") for c in message.all_components() if c.get("type") in (2, 3, 5, 6, 7, 8))


def newest(messages: list[Any], pred: Callable[[Any], Any] = lambda m: True) -> Optional[Any]:
    for m in reversed(messages):
        if pred(m):
            return m
    return None


def attachment_key(message: Any) -> tuple[str, ...]:
    return tuple(hashlib.blake2b(a.data, digest_size=12).hexdigest() for a in message.attachments)


def pngs(message: Any) -> int:
    """Still images (PNG, or the WebP boards of Pole and Rallyman); not the game-end animation."""
    return sum(1 for a in message.attachments if a.data.startswith(b"\x89PNG") or a.data[8:12] == b"WEBP")


class Db:
    """The bot's SQLite file, opened read-only for every query (never blocks the bot's writes)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return self.queries([(sql, params)])[0]

    def queries(self, statements: list[tuple[str, tuple[Any, ...]]]) -> list[list[tuple[Any, ...]]]:
        """Several queries in one read transaction (one consistent view of the file)."""
        if not self.path.exists():
            return [[] for _ in statements]
        for attempt in range(20):
            try:
                con = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=5, isolation_level=None)
                try:
                    if len(statements) > 1:
                        con.execute("BEGIN")
                    return [con.execute(sql, params).fetchall() for sql, params in statements]
                finally:
                    con.close()
            except sqlite3.OperationalError:
                time.sleep(0.05 * (attempt + 1))
        return [[] for _ in statements]

    async def aquery(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return await asyncio.to_thread(self.query, sql, params)

    def games(self, snapshot: bool = False) -> list[dict[str, Any]]:
        cols = (
            "id",
            "kind",
            "channel_id",
            "thread_id",
            "lobby_message_id",
            "status",
            "options",
            "seed",
            "version",
            "locale",
        ) + (("snapshot",) if snapshot else ())
        rows = self.query(f"SELECT {', '.join(cols)} FROM games ORDER BY id")
        games = [dict(zip(cols, r)) for r in rows]
        for g in games:
            if isinstance(g.get("snapshot"), bytes):  # a finished game's snapshot is stored compressed
                g["snapshot"] = zlib.decompress(g["snapshot"]).decode()
        return games

    def seats(self, game_id: int) -> list[tuple[int, int, str]]:
        """(seat, user_id, name) in seat order."""
        return self.query("SELECT seat, user_id, name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))

    def actions(self, game_id: int, after: int = -1) -> list[tuple[int, int, str]]:
        """(version, seat, action JSON) in version order, whether still in `actions` or packed into
        the game's archive once it finished (the archive keeps the order: its n-th entry is version n)."""
        archived, rows = self.queries(
            [
                ("SELECT archive FROM games WHERE id = ? AND archive IS NOT NULL", (game_id,)),
                (
                    "SELECT version, seat, action FROM actions WHERE game_id = ? AND version > ? ORDER BY version",
                    (game_id, after),
                ),
            ]
        )
        if archived:
            packed = json.loads(zlib.decompress(archived[0][0]))
            return [(v, seat, json.dumps(action)) for v, (seat, action) in enumerate(packed, 1) if v > after]
        return rows

    def to_act(self, game_id: int) -> tuple[str, int, list[int]]:
        """(status, version, seats the game waits for) as the bot stored them; ("", -1, []) if no game."""
        rows = self.query("SELECT status, version, to_act FROM games WHERE id = ?", (game_id,))
        if not rows:
            return "", -1, []
        status, version, to_act = rows[0]
        return status, version, json.loads(to_act) if to_act else []

    def version(self, game_id: int) -> int:
        rows = self.query("SELECT version FROM games WHERE id = ?", (game_id,))
        return rows[0][0] if rows else -1

    def game_in_channel(self, channel_id: int, statuses: tuple[str, ...]) -> Optional[dict[str, Any]]:
        found = [g for g in self.games() if g["channel_id"] == channel_id and g["status"] in statuses]
        return found[-1] if found else None


async def sleep_until(pred: Callable[[], Any], timeout: float, step: float = 0.1) -> Any:
    """Poll `pred` until truthy or `timeout`; returns its last value."""
    end = time.monotonic() + timeout
    while True:
        value = pred()
        if value or time.monotonic() >= end:
            return value
        await asyncio.sleep(step)
