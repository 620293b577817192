"""Issue #33: a lobby whose options limit its players (Heat's Legends: races of 3 players or fewer)
says the limit and refuses the seat that would break it, saying why, instead of failing at Start."""

from __future__ import annotations

from bot.tools.emulator.tables import open_table


async def test_a_legends_race_refuses_the_fourth_player_saying_why(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, w.carol, kind="heat", track="usa", legends=2)
    assert "Players (3/3)" in emu.message(lobby).content, emu.message(lobby).content
    rec = await emu.click(w.dave, lobby, label="Join")
    await emu.wait_until(lambda: rec.followups)
    assert "with its options" in rec.followups[0].content and "seats 3 players" in rec.followups[0].content
    game = await w.bot.store.game(1)
    assert [s.name for s in game.seats] == ["alice", "bob", "carol"]


async def test_ai_seats_count_against_the_limit(table):
    w, emu = table, table.emu
    rec = await emu.slash(w.alice, w.general, "heat", "new", track="usa", legends=2, ai=3)
    await emu.wait_until(lambda: rec.followups)
    assert "at most 2 of them can be AI seats" in rec.followups[0].content
    assert await w.bot.store.game(1) is None
