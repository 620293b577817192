"""Fixtures: the real bot (create_bot, unmodified) against the local Discord emulator.

The tests of the modules in ON_BOTH_BACKENDS run twice: on SQLite and on a fresh database of a
throwaway PostgreSQL server (see tests/core/test_store.py); settings_for and bot_env give the bot
that test's database. All other tests run on SQLite only.
"""

from __future__ import annotations

import asyncio
import io
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PIL import Image

from bot import export
from bot.app import create_bot
from bot.config import load_settings
from bot.tools.emulator import Emulator
from bot.tools.emulator.model import MANAGE_THREADS
from bot.tools.emulator.testing import start_bot_in_process
from tests.core.test_store import BACKENDS, database_for

ON_BOTH_BACKENDS = {"test_crash_recovery", "test_heat_race", "test_pon_game"}
# The modules whose tests look at the game-end animation: the others get a stand-in (_quick_animation).
REAL_ANIMATION = {"test_export", "test_campaign_checks"}
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


def _stand_in_animation() -> export.Drawn:
    out = io.BytesIO()
    Image.new("RGB", (16, 16), "white").save(out, "GIF")
    return export.Drawn(data=out.getvalue(), format="gif", frames=1, boards=1, size=(16, 16), seconds=0.0, whole=True)


STAND_IN_ANIMATION = _stand_in_animation()


@pytest.fixture(autouse=True)
def _quick_animation(request, monkeypatch):
    """At a game's end an in-process bot posts a stand-in animation (a blank GIF, at once) rather
    than spawning the animator's worker to replay and draw every board: seconds of CPU at each game
    end, and a bot's close waits for it. The modules in REAL_ANIMATION look at the real one, as
    tests/core/test_animation.py does; bots in a subprocess draw theirs."""
    if request.module.__name__.rsplit(".", 1)[-1] in REAL_ANIMATION:
        return

    async def draw(*args: Any, **kwargs: Any) -> export.Drawn:
        return STAND_IN_ANIMATION

    monkeypatch.setattr(export.ANIMATOR, "draw", draw)


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
