"""Fixtures: the real bot (create_bot, unmodified) against the local Discord emulator.

The tests of the modules in ON_BOTH_BACKENDS run twice: on SQLite and on a fresh database of a
throwaway PostgreSQL server (see tests/core/test_store.py); settings_for and bot_env give the bot
that test's database. All other tests run on SQLite only.
"""

from __future__ import annotations

import asyncio
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot import autoplayer, delivery, export
from bot.app import create_bot
from bot.config import load_settings
from bot.tools.emulator import Emulator
from bot.tools.emulator.model import MANAGE_THREADS
from bot.tools.emulator.testing import start_bot_in_process
from tests.core.stores import BACKENDS, database_for

from . import standins

ON_BOTH_BACKENDS = {"test_crash_recovery", "test_heat_race", "test_pon_game"}
# The modules whose tests look at the game-end animation, and those that look at the boards and hands
# or play every game with them drawn for real: the others get stand-ins (_stand_in_pictures).
# (test_japanese_tables reads texts only; Japanese images are tests/core/test_ja_images.py's: 27 -> 6 s CPU.)
REAL_ANIMATION = {"test_export"}
REAL_IMAGES = {"test_export", "test_heat_weather", "test_table"}
# The modules about absent players' stand-ins keep the level they play at (autoplayer.STAND_IN_LEVEL);
# elsewhere a stand-in plays at easy (_easy_stand_ins).
STAND_IN_MODULES = {"test_absent_players", "test_seat_back"}
_DATABASES: dict[Path, str] = {}  # a PostgreSQL test's tmp_path: its database's URL


def pytest_generate_tests(metafunc):
    if "store_backend" in metafunc.fixturenames and metafunc.module.__name__.rsplit(".", 1)[-1] in ON_BOTH_BACKENDS:
        metafunc.parametrize("store_backend", BACKENDS)


@pytest.fixture
def store_backend() -> str:
    return "sqlite"


@pytest.fixture(autouse=True)
async def _store_database(store_backend, tmp_path):
    if store_backend == "sqlite":
        yield
        return
    _DATABASES[tmp_path] = await database_for(store_backend, tmp_path)
    try:
        yield
    finally:
        _DATABASES.pop(tmp_path, None)


@pytest.fixture(autouse=True)
def _stand_in_pictures(request, monkeypatch):
    """An in-process bot draws stand-in boards, hands and game-end animations (tests/e2e/standins.py)
    rather than real ones: most of a move's CPU, and a bot's close waits for the animator's worker.
    The modules in REAL_IMAGES and REAL_ANIMATION look at the real ones, as tests/rendering and
    tests/core/test_animation.py do; a bot subprocess gets the stand-ins from standins.BOT_ARGV."""
    module = request.module.__name__.rsplit(".", 1)[-1]
    if module not in REAL_IMAGES:
        monkeypatch.setattr(delivery, "renderer", standins.stand_in_renderer)
    if module not in REAL_ANIMATION:
        monkeypatch.setattr(export.ANIMATOR, "draw", standins.stand_in_draw)


@pytest.fixture(autouse=True)
def _easy_stand_ins(request, monkeypatch):
    """Stand-ins finish many of these games (set_auto); how well the AI plays is tests/core/test_ai*.py's
    subject, and at normal its playouts were most of such a game's CPU (a 4-seat PON: 15 s against 1 s)."""
    if request.module.__name__.rsplit(".", 1)[-1] not in STAND_IN_MODULES:
        monkeypatch.setattr(autoplayer, "STAND_IN_LEVEL", "easy")


def database_of(tmp_path) -> Path | str:
    """The test's database: its PostgreSQL URL, or the SQLite file the bot makes under state/."""
    return _DATABASES.get(tmp_path, tmp_path / "state" / "bot.sqlite3")


def bot_env(tmp_path, **extra: str) -> dict[str, str]:
    """The environment of a bot subprocess using the test's database."""
    env = {"BOT_STATE_DIR": str(tmp_path / "state"), **extra}
    if tmp_path in _DATABASES:
        env["BOT_DATABASE"] = _DATABASES[tmp_path]
    return env


def read_row(database: Path | str, sql: str) -> tuple[Any, ...] | None:
    """One row, read at once by a connection of its own (for conditions polled by the tests)."""
    if isinstance(database, Path):
        con = sqlite3.connect(database)
        try:
            return con.execute(sql).fetchone()
        finally:
            con.close()

    async def fetch() -> tuple[Any, ...] | None:
        import asyncpg

        conn = await asyncpg.connect(database)
        try:
            row = await conn.fetchrow(sql)
            return None if row is None else tuple(row)
        finally:
            await conn.close()

    with ThreadPoolExecutor(1) as pool:  # its own event loop: the test's loop keeps the emulator
        return pool.submit(asyncio.run, fetch()).result()


def make_world(emu: Emulator) -> SimpleNamespace:
    guild = emu.add_guild("Test Guild")
    general = emu.add_text_channel(guild, "general")
    moderators = emu.add_role(guild, "Moderator", MANAGE_THREADS)
    users = {n: emu.add_user(n) for n in ("alice", "bob", "carol", "dave")}
    users["hermit"] = emu.add_user("hermit", dm_open=False)
    users["mod"] = emu.add_user("mod")
    for name, user in users.items():
        emu.add_member(guild, user, roles=[moderators] if name == "mod" else ())
    return SimpleNamespace(emu=emu, guild=guild, general=general, **users)


def settings_for(tmp_path, **changes):
    s = load_settings(bot_env(tmp_path), None)
    return replace(s, **changes)


@pytest.fixture
async def world(tmp_path):
    async with Emulator() as emu:
        w = make_world(emu)
        w.tmp_path = tmp_path
        yield w
        assert not emu.server_errors, emu.server_errors[0]
        # every deferred answer ("thinking...") must have been completed by the bot
        thinking = [
            r
            for r in emu.interaction_records
            if r.callback_type == 5 and r.response is not None and emu.message(r.response.id).loading
        ]
        assert not thinking, [r.data for r in thinking]


@pytest.fixture
async def table(world):
    bot = create_bot(settings_for(world.tmp_path))
    handle = await start_bot_in_process(world.emu, bot)
    await world.emu.wait_for_commands()
    world.bot = bot
    try:
        yield world
    finally:
        await handle.stop()
