"""A whole Pole Position race through the emulator: three players moving by DM selects and
buttons and by /pole play; the thread shows qualifying, a position fight and a pit stop."""

from __future__ import annotations

from bot.tools.emulator.players import Driver, play_until
from bot.tools.emulator.tables import open_table, start

SEED = 4  # a race with qualifying, a position fight and a pit stop (re-picked when the rules change the dice)


async def test_full_pole_race(table):
    w, emu = table, table.emu
    w.bot.table.lobbies.new_seed = lambda: SEED
    lobby = await open_table(w, w.alice, w.bob, w.carol, kind="pole", circuit="monaco")
    thread = await start(w, lobby, w.alice)
    players = [
        Driver(emu, w.alice, "select", 1, "pole"),
        Driver(emu, w.bob, "slash", 2, "pole"),
        Driver(emu, w.carol, "select", 3, "pole"),
    ]

    def done():
        return any("The game is over" in m.content for m in emu.messages_in(thread))

    await play_until(players, thread, done, max_steps=1500)
    log = "\n".join(m.content for m in emu.messages_in(thread))
    assert "Q3: the grid is" in log
    assert "Position fight" in log or "lets" in log
    assert " pits (" in log
    assert "<seat:" not in log
    assert (await w.bot.store.game(1)).status == "finished"
    for p in players:
        assert not [e for e in p.errors if "went wrong" in e], p.errors
