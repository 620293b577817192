"""A whole PON game through the emulator: three players moving by DM selects and buttons and by
/pon play; the thread shows a PON, an overtake chain and a block, and the winner."""

from __future__ import annotations

import re

from bot.tools.emulator.players import Player, play_until
from bot.tools.emulator.tables import open_table, start

SEED = 23  # a deal in which the race has a PON, a block and a chain of overtakes


async def test_full_pon_game(table):
    w, emu = table, table.emu
    w.bot.table.lobbies.new_seed = lambda: SEED
    lobby = await open_table(w, w.alice, w.bob, w.carol, kind="pon")
    thread = await start(w, lobby, w.alice)
    players = [
        Player(emu, w.alice, "select", 1, "pon"),
        Player(emu, w.bob, "slash", 2, "pon"),
        Player(emu, w.carol, "select", 3, "pon"),
    ]

    def done():
        return any("The game is over" in m.content for m in emu.messages_in(thread))

    await play_until(players, thread, done, max_steps=3000)
    log = "\n".join(m.content for m in emu.messages_in(thread))
    assert "PON!" in log
    assert re.search(r"blocks \w+", log)
    # an overtake chain: one attacker overtakes twice within the same turn's messages
    chains = [
        m.content
        for m in emu.messages_in(thread)
        if any(len(re.findall(rf"{name} overtakes", m.content)) >= 2 for name in ("alice", "bob", "carol"))
    ]
    assert chains, "no overtake chain in this game"
    assert "<seat:" not in log and "P1" not in log  # players are named
    assert (await w.bot.store.game(1)).status == "finished"
    for p in players:
        assert not [e for e in p.errors if "went wrong" in e], p.errors
    # no DM keeps controls: each menu lost them when a newer one came, the newest at the end
    await w.bot.table.drain()
    for user in (w.alice, w.bob, w.carol):
        assert "over" in emu.dm_messages(user)[-1].content
        assert not [m.content[:60] for m in emu.dm_messages(user) if m.components]


async def test_a_table_without_options_reads_naturally(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, kind="pon")
    assert "— a table.\nPlayers (1/4)" in emu.message(lobby).content and "()" not in emu.message(lobby).content
