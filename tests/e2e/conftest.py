"""Fixtures: the real bot (create_bot, unmodified) against the local Discord emulator."""
from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from bot.app import create_bot
from bot.config import load_settings
from bot.emulator import Emulator
from bot.emulator.model import MANAGE_THREADS
from bot.emulator.testing import start_bot_in_process


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
    s = load_settings({"BOT_STATE_DIR": str(tmp_path / "state")}, None)
    return replace(s, **changes)


@pytest.fixture
async def world(tmp_path):
    async with Emulator() as emu:
        w = make_world(emu)
        w.tmp_path = tmp_path
        yield w
        assert not emu.server_errors, emu.server_errors[0]
        # every deferred answer ("thinking...") must have been completed by the bot
        thinking = [r for r in emu.interaction_records if r.callback_type == 5 and r.response is not None
                    and emu.message(r.response.id).loading]
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
