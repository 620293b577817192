"""A whole Rallyman: DIRT stage through the emulator: three players planning by DM selects (whole
plans and die by die), rolling by buttons and by /rallyman play; the thread shows flat out, a crash
and the spare tyre, and the stage times at the end."""

from __future__ import annotations

from bot.tools.emulator.players import Player, play_until
from bot.tools.emulator.tables import open_table, start

SEED = 2  # a stage with flat outs, a crash and the spare tyre (dice roll on by the default preferences)


async def test_full_rallyman_stage(table):
    w, emu = table, table.emu
    w.bot.table.lobbies.new_seed = lambda: SEED
    lobby = await open_table(w, w.alice, w.bob, w.carol, kind="rallyman", stage="Rally4 SS1")
    thread = await start(w, lobby, w.alice)
    players = [
        Player(emu, w.alice, "select", 1, "rallyman"),
        Player(emu, w.bob, "slash", 2, "rallyman"),
        Player(emu, w.carol, "select", 3, "rallyman"),
    ]

    def done():
        return any("The game is over" in m.content or "Stage over" in m.content for m in emu.messages_in(thread))

    await play_until(players, thread, done, max_steps=3000)
    log = "\n".join(m.content for m in emu.messages_in(thread))
    assert "goes flat out" in log
    assert "loses control" in log and "crashes" in log
    assert "fits the spare tyre" in log
    assert "Stage over" in log
    assert "<seat:" not in log
    assert (await w.bot.store.game(1)).status == "finished"
    for p in players:
        assert not [e for e in p.errors if "went wrong" in e], p.errors
