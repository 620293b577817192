"""What the crash tests share: the real bot started in the test's process, a store settled after a
crash, and a move sent while the bot runs."""

from __future__ import annotations

import asyncio

from bot.app import create_bot
from bot.tools.emulator.tables import last
from bot.tools.emulator.testing import start_bot_in_process

from .conftest import settings_for


async def run_bot(world):
    bot = create_bot(settings_for(world.tmp_path))
    handle = await start_bot_in_process(world.emu, bot)
    await world.emu.wait_for_commands()
    return bot, handle


async def settled(store, game_id=1):
    for _ in range(200):
        if not await store.owed(game_id):
            return True
        await asyncio.sleep(0.05)
    return False


async def submit_live(world, user):
    dm = await world.emu.wait_until(lambda: last(world.emu.dm_messages(user), lambda m: m.selects))
    select = dm.selects[-1]
    rec = await world.emu.select(user, dm, [select["options"][0]["value"]], custom_id=select["custom_id"])
    await world.emu.wait_until(lambda: rec.acked)
    return rec


async def submit_first_option(emu, user):
    dm = await emu.wait_until(lambda: [m for m in emu.dm_messages(user) if m.selects][-1:])
    select = dm[0].selects[0]
    return await emu.select(
        user, dm[0], [o["value"] for o in select["options"][: select["min_values"]]], custom_id=select["custom_id"]
    )
