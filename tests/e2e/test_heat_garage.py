"""/heat new garage:mixed weather:True through the emulator: the draft is played from DM selects
(one pick each, snake order), then the race goes on with upgrade cards in the hands."""

from __future__ import annotations

from bot.tools.emulator.players import Player, play_until
from bot.tools.emulator.tables import open_table, start


async def test_garage_draft_from_dm_selects_then_rounds(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="italy", weather=True, garage="mixed")
    content = emu.message(lobby).content
    assert "Garage: draft of 3 upgrades (mixed cards)" in content and "weather and road conditions" in content
    thread = await start(w, lobby, w.alice)
    players = [Player(emu, w.alice, "select", 1), Player(emu, w.bob, "select", 2)]
    # the first DM select is a draft pick
    dm = await emu.wait_until(lambda: [m for u in (w.alice, w.bob) for m in emu.dm_messages(u) if m.selects][:1])
    assert dm[0].selects[0]["placeholder"].startswith("Garage draft, round 1/3")

    def boards():
        return [m for m in emu.messages_in(thread) if m.attachments]

    def picks():
        return sum(m.content.count(" takes ") for m in emu.messages_in(thread))

    await play_until(players, thread, lambda: picks() >= 6 and len(boards()) >= 4)
    assert picks() == 6  # 3 rounds of 2 picks
    # no move refused by the rules (a click on a menu a newer one had just replaced is answered "moved on")
    assert not [e for p in players for e in p.errors if "moved on" not in e], [p.errors for p in players]
