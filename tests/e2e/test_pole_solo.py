"""A solo Pole Position race through the emulator: one player and five bots the engine drives;
the thread names the bots, and the race runs to the flag."""

from __future__ import annotations

from bot.tools.emulator.players import Driver, play_until
from bot.tools.emulator.tables import open_table, start

SEED = 3


async def test_solo_pole_race_against_bots(table):
    w, emu = table, table.emu
    w.bot.table.lobbies.new_seed = lambda: SEED
    lobby = await open_table(w, w.alice, kind="pole", circuit="monaco", bots=5)
    assert "bots" in emu.message(lobby).content
    thread = await start(w, lobby, w.alice)
    players = [Driver(emu, w.alice, "select", 1, "pole")]

    def done():
        return any("The game is over" in m.content for m in emu.messages_in(thread))

    await play_until(players, thread, done, max_steps=1500)
    log = "\n".join(m.content for m in emu.messages_in(thread))
    assert "Q3: the grid is" in log
    assert "Blue bot (A)" in log and "Orange bot (A)" in log
    assert " drives " in log  # bots move by their cards
    assert "<seat:" not in log
    assert (await w.bot.store.game(1)).status == "finished"
    for p in players:
        assert not [e for e in p.errors if "went wrong" in e], p.errors
