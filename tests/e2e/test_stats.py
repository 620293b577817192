"""Issue #35 through the real bot and the emulator: seeded games feed the ratings (stand-ins count
for their owners, AI seats per level, many players, abandoned games never), /leaderboard and /stats
answer with them, and a finished game's results carry its statistics image."""
from __future__ import annotations

import io

from PIL import Image

from bot import ratings

from .test_table import open_table, start


async def race_to_the_end(w, thread, seats: list[int]) -> None:
    """The automatic player finishes these seats (stand-ins, as for absent players) to the end."""
    for seat in seats:
        await w.bot.store.set_auto(1, seat, True)
    w.bot.table.autoplayer.soon(1)
    await w.emu.wait_until(lambda: any("The game is over" in m.content for m in w.emu.messages_in(thread)),
                           timeout=120)


async def answer(w, who, *path, **options):
    rec = await w.emu.slash(who, w.general, *path, **options)
    await w.emu.wait_until(lambda: rec.followups)
    return rec.followups[0]


async def test_four_stand_ins_finish_a_game_their_owners_are_rated_and_the_results_carry_statistics(table):
    w, emu = table, table.emu
    w.bot.table.new_seed = lambda: 5
    lobby = await open_table(w, w.alice, w.bob, w.carol, w.dave, kind="pon")
    thread = await start(w, lobby, w.alice)
    await race_to_the_end(w, thread, [0, 1, 2, 3])
    game = await w.bot.store.game(1)
    places = w.bot.table.engines["pon"].placings(game.snapshot)
    # Rated when the last move committed: the seats' owners, though the automatic player finished them.
    board = await w.bot.store.leaderboard("pon", w.guild.id)
    owners = {str(s.user_id): places[s.seat] for s in game.seats}
    assert {row[0] for row in board} == set(owners) and all(row[4] == 1 for row in board)
    assert board[0][0] == next(p for p, place in owners.items() if place == 1)
    assert await w.bot.store.leaderboard("pon", ratings.GLOBAL) == board
    # The end's post: the board, the results, then the statistics (drawn 780 px wide).
    end = [m for m in emu.messages_in(thread) if "The game is over" in m.content][-1]
    assert len(end.attachments) >= 3
    stats = Image.open(io.BytesIO(end.attachments[-1].data))
    assert stats.width == 780 and stats.height > 300
    text = (await answer(w, w.alice, "leaderboard", game="pon")).content
    assert "leaderboard of this server" in text and "alice" in text and "(1 games," in text, text
    mine = await answer(w, w.bob, "stats")
    assert "ratings across servers" in mine.content and mine.attachments, mine.content
    assert Image.open(io.BytesIO(mine.attachments[0].data)).width == 780
    nobody = await answer(w, w.alice, "stats", user=w.mod.id)
    assert "no rated games yet" in nobody.content and not nobody.attachments


async def test_ai_seats_are_rated_per_level(table):
    w = table
    w.bot.table.new_seed = lambda: 2
    lobby = await open_table(w, w.alice, kind="pon", ai=2, ai_level="easy")
    thread = await start(w, lobby, w.alice)
    await race_to_the_end(w, thread, [0])
    board = await w.bot.store.leaderboard("pon", ratings.GLOBAL)
    assert sorted((row[0], row[4]) for row in board) == [(str(w.alice.id), 1), ("ai:easy", 1)]
    text = (await answer(w, w.alice, "leaderboard", game="pon", scope="global")).content
    assert "leaderboard of all servers" in text and "AI (easy)" in text, text


async def test_an_abandoned_game_is_never_rated(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, w.carol, kind="pon")
    thread = await start(w, lobby, w.alice)
    rec = await emu.slash(w.mod, thread, "game", "abandon")
    await emu.wait_until(lambda: rec.followups)
    assert (await w.bot.store.game(1)).status == "abandoned"
    assert await ratings.catch_up(w.bot.store, w.bot.table.engines) == 0
    assert await w.bot.store.leaderboard("pon", ratings.GLOBAL) == []
    text = (await answer(w, w.alice, "leaderboard", game="pon")).content
    assert "No finished games rated yet." in text
