"""A whole Heat race through the emulator: three players using DM selects, DM buttons and
/heat play with autocomplete; the bot process is restarted mid-race and the old buttons still work."""

from __future__ import annotations

from bot.tools.emulator.testing import start_bot_subprocess

from . import standins
from .conftest import bot_env, database_of, read_row
from bot.tools.emulator.players import Player, play_until
from bot.tools.emulator.tables import open_table, start


def game_row(database):
    return read_row(database, "SELECT status, version FROM games WHERE id = 1")


async def test_full_race_with_a_restart(world, tmp_path):
    emu = world.emu
    db = database_of(tmp_path)  # SQLite, and PostgreSQL too (conftest.ON_BOTH_BACKENDS)
    env = bot_env(tmp_path, BOT_LOG_LEVEL="WARNING")
    proc = await start_bot_subprocess(emu, standins.BOT_ARGV, env=env)
    try:
        await emu.wait_for_commands()
        lobby = await open_table(world, world.alice, world.bob, world.carol, track="usa")
        thread = await start(world, lobby, world.alice)
        players = [
            Player(emu, world.alice, "select", 1),
            Player(emu, world.bob, "slash", 2),
            Player(emu, world.carol, "select", 3),
        ]
        # carol asks to be asked about slipstream, so DM buttons are part of the race
        dm = await emu.wait_until(lambda: [m for m in emu.dm_messages(world.carol) if m.buttons][-1:])
        label = next(b["label"] for b in dm[0].buttons if b["label"].startswith("Slipstream"))
        for _ in range(3):  # cycle the preference until it reads "ask"
            if "ask" in label.lower():
                break
            await emu.click(world.carol, dm[0], label=label)
            dm = await emu.wait_until(lambda: [m for m in emu.dm_messages(world.carol) if m.buttons][-1:])
            label = next(b["label"] for b in dm[0].buttons if b["label"].startswith("Slipstream"))

        await play_until(players, thread, lambda: game_row(db)[1] >= 12)  # a few rounds in
        version_before = game_row(db)[1]
        await proc.restart()  # the same DMs and their buttons must keep working
        await play_until(players, thread, lambda: game_row(db)[0] == "finished")
        assert game_row(db)[1] > version_before
        # the database says finished at the commit; the last post follows it
        final = await emu.wait_until(lambda: [m for m in emu.messages_in(thread) if "over" in m.content.lower()])
        assert len(final[-1].attachments) == 3  # the board, the results and the statistics (#35)
        for p in players:  # every refusal was a rules answer, never a crash
            assert not [e for e in p.errors if "went wrong" in e], p.errors
    finally:
        await proc.stop()
    assert "Traceback" not in proc.output(), proc.output()[-3000:]
