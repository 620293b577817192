"""A whole Steam Works game through the emulator: three players moving by DM selects and buttons
and by /steamworks play; the thread shows a device built, another player's device used (a clock to
its owner) and an age change, then the final scores."""

from __future__ import annotations

from bot.tools.emulator.players import Inventor, play_until
from bot.tools.emulator.tables import open_table, start

SEED = 5


async def test_full_steamworks_game(table):
    w, emu = table, table.emu
    w.bot.table.lobbies.new_seed = lambda: SEED
    lobby = await open_table(w, w.alice, w.bob, w.carol, kind="steamworks")
    thread = await start(w, lobby, w.alice)
    players = [
        Inventor(emu, w.alice, "select", 1, "steamworks"),
        Inventor(emu, w.bob, "slash", 2, "steamworks"),
        Inventor(emu, w.carol, "select", 3, "steamworks"),
    ]

    def done():
        return any("The game ends" in m.content for m in emu.messages_in(thread))

    await play_until(players, thread, done, max_steps=3000)
    log = "\n".join(m.content for m in emu.messages_in(thread))
    assert "builds device" in log
    assert "gains a clock" in log  # someone used another player's device
    assert "Age II begins" in log
    assert "<seat:" not in log
    assert sum(1 for m in emu.messages_in(thread) if m.attachments) > 10  # board images along the way
    assert (await w.bot.store.game(1)).status == "finished"
    for p in players:
        assert not [e for e in p.errors if "went wrong" in e], p.errors
