"""Durable reminders: a player who has not moved gets one ping per clock period, and only the
first is the plain reminder (the escalation is in test_absent_players.py)."""

from __future__ import annotations

import asyncio

from bot.app import create_bot
from bot.tools.emulator.testing import start_bot_in_process

from .conftest import settings_for
from bot.tools.emulator.tables import open_table, start


def reminders(emu, thread, user):
    return [m for m in emu.messages_in(thread) if "a reminder:" in m.content and user.id in m.mentions]


async def test_one_first_reminder_for_the_player_who_has_not_moved(world):
    emu = world.emu
    bot = create_bot(settings_for(world.tmp_path, reminder_seconds=1.0))
    handle = await start_bot_in_process(emu, bot)
    try:
        await emu.wait_for_commands()
        lobby = await open_table(world, world.alice, world.bob, track="usa")
        thread = await start(world, lobby, world.alice)
        dm = await emu.wait_until(lambda: [m for m in emu.dm_messages(world.alice) if m.selects][-1:])
        select = dm[0].selects[0]
        await emu.select(
            world.alice, dm[0], [select["options"][0]["value"]], custom_id=select["custom_id"]
        )  # alice moves, bob does not
        await emu.wait_until(lambda: reminders(emu, thread, world.bob), timeout=5)
        await asyncio.sleep(1.5)  # the first reminder once per decision; later ones escalate
        assert len(reminders(emu, thread, world.bob)) == 1
        assert reminders(emu, thread, world.alice) == []
    finally:
        await handle.stop()


async def test_reminders_survive_a_restart(world):
    emu = world.emu
    settings = settings_for(world.tmp_path, reminder_seconds=2.0)
    bot = create_bot(settings)
    handle = await start_bot_in_process(emu, bot)
    await emu.wait_for_commands()
    lobby = await open_table(world, world.alice, world.bob, track="usa")
    thread = await start(world, lobby, world.alice)
    await handle.stop()  # the timer is only in the database now
    bot = create_bot(settings)
    handle = await start_bot_in_process(emu, bot)
    try:
        await emu.wait_until(
            lambda: reminders(emu, thread, world.bob) and reminders(emu, thread, world.alice), timeout=6
        )
    finally:
        await handle.stop()
