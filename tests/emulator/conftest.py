"""Fixtures: an Emulator with a small world, and the sample bot running against it in-process."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.tools.emulator import Emulator
from bot.tools.emulator.model import MANAGE_THREADS
from bot.tools.emulator.testing import start_bot_in_process

from .samplebot import SampleBot


@pytest.fixture
async def world():
    async with Emulator() as emu:
        guild = emu.add_guild("Test Guild")
        general = emu.add_text_channel(guild, "general")
        moderators = emu.add_role(guild, "Moderator", MANAGE_THREADS)
        alice, bob, carol = (emu.add_user(n) for n in ("alice", "bob", "carol"))
        hermit = emu.add_user("hermit", dm_open=False)
        mod = emu.add_user("mod")
        for user in (alice, bob, carol, hermit):
            emu.add_member(guild, user)
        emu.add_member(guild, mod, roles=[moderators])
        yield SimpleNamespace(
            emu=emu, guild=guild, general=general, alice=alice, bob=bob, carol=carol, hermit=hermit, mod=mod
        )
        assert not emu.server_errors, emu.server_errors[0]


@pytest.fixture
async def env(world):
    bot = SampleBot(guild_id=world.guild.id)
    handle = await start_bot_in_process(world.emu, bot)
    world.bot = bot
    try:
        yield world
    finally:
        await handle.stop()
