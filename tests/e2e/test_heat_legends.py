"""/heat new legends:2 through the emulator: two players race with two Legends the bot drives;
the thread names them, the board shows them, nobody is asked to move for them."""

from __future__ import annotations

from bot.tools.emulator.players import Player, play_until
from bot.tools.emulator.tables import open_table, start


async def test_two_players_and_two_legends(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="italy", legends=2)
    assert "2 Legends (cars the bot drives)" in emu.message(lobby).content
    thread = await start(w, lobby, w.alice)
    players = [Player(emu, w.alice, "select", 3), Player(emu, w.bob, "select", 4)]

    def said(text):
        return any(text in m.content for m in emu.messages_in(thread))

    await play_until(
        players,
        thread,
        lambda: (
            said("Legend 1:") and said("Legend 2:") and len([m for m in emu.messages_in(thread) if m.attachments]) >= 4
        ),
    )
    assert not said("<seat:")
    # no move refused by the rules (a click on a menu a newer one had just replaced is answered "moved on")
    assert not [e for p in players for e in p.errors if "moved on" not in e], [p.errors for p in players]


async def test_legends_with_four_players_is_refused_at_the_join(table):
    """(#33: the lobby refuses the seat that would break the limit, rather than the Start.)"""
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, w.carol, track="usa", legends=2)
    rec = await emu.click(w.dave, lobby, label="Join")
    await emu.wait_until(lambda: rec.followups)
    assert rec.followups[0].ephemeral and "seats 3 players" in rec.followups[0].content
    assert emu.threads(w.general) == [] and len((await w.bot.store.game(1)).seats) == 3
