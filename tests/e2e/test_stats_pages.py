"""Issue #35 through the real bot and the emulator: `/game replay` ends on a page with the results and
the statistics, the very images the game's end posted in its thread, reached by the Next button."""

from __future__ import annotations

import re

from bot.tools.emulator.tables import open_table, start


async def test_the_replay_ends_on_the_results_and_statistics_the_thread_saw(table):
    w, emu = table, table.emu
    w.bot.table.lobbies.new_seed = lambda: 5
    lobby = await open_table(w, w.alice, w.bob, w.carol, kind="pon")
    thread = await start(w, lobby, w.alice)
    for seat in (0, 1, 2):  # the automatic player finishes every seat
        await w.bot.store.clocks.set_auto(1, seat, True)
    w.bot.table.autoplayer.soon(1)
    await emu.wait_until(lambda: any("The game is over" in m.content for m in emu.messages_in(thread)), timeout=120)
    end = [m for m in emu.messages_in(thread) if "The game is over" in m.content][-1]
    posted = [a.data for a in end.attachments[-2:]]  # after the board: the results, the statistics

    rec = await emu.slash(w.dave, thread, "game", "replay")  # anyone may look
    shown = (await emu.wait_until(lambda: rec.followups))[0]
    boards = int(shown.content.rsplit(" of ", 1)[1])
    rec = await emu.slash(w.dave, thread, "game", "replay", board=boards)
    last = (await emu.wait_until(lambda: rec.followups))[0]
    await emu.click(w.dave, last, label="Next ▶")
    await emu.wait_until(lambda: "results and statistics" in emu.message(last.id).content)
    page = emu.message(last.id)
    assert f"after board {boards}" in page.content and "Results: 1. " in page.content, page.content
    assert [a.data for a in page.attachments] == posted
    assert [b.get("disabled", False) for b in page.buttons] == [False, True]
    await emu.click(w.dave, page, label="◀ Previous")
    await emu.wait_until(lambda: f"board {boards} of {boards}" in emu.message(last.id).content)
    assert len(emu.message(last.id).attachments) == 1


async def ask(w, who, *path, **options):
    rec = await w.emu.slash(who, w.general, *path, **options)
    await w.emu.wait_until(lambda: rec.followups)
    return rec.followups[0]


async def test_stats_and_leaderboard_as_a_new_player_sees_them(table):
    """AI seats are rated and shown as AI of their level; a player with no games, or none of the game
    asked about, is told so plainly (no empty chart); in English and Japanese."""
    w, emu = table, table.emu
    text = (await ask(w, w.carol, "stats")).content
    assert text.startswith("You have no rated games yet:") and "abandoned" in text, text
    w.bot.table.lobbies.new_seed = lambda: 2
    lobby = await open_table(w, w.alice, w.bob, kind="pon", ai=1, ai_level="easy")
    thread = await start(w, lobby, w.alice)
    for seat in (0, 2):  # alice and bob (seat 1 is the AI)
        await w.bot.store.clocks.set_auto(1, seat, True)
    w.bot.table.autoplayer.soon(1)
    await emu.wait_until(lambda: any("The game is over" in m.content for m in emu.messages_in(thread)), timeout=120)

    board = (await ask(w, w.carol, "leaderboard", game="pon")).content
    assert "AI (easy): " in board and "alice: " in board and "bob: " in board, board
    assert "You are not rated at PON yet" in board and "cautious estimate" in board, board
    mine = await ask(w, w.alice, "stats")
    assert "PON: " in mine.content and "Against the AI at PON: easy " in mine.content, mine.content
    assert "cautious estimate" in mine.content and [a.filename for a in mine.attachments] == ["stats-pon.png"]
    other = await ask(w, w.alice, "stats", game="heat")
    assert "No rated games of Heat: Pedal to the Metal yet." in other.content and not other.attachments, other.content
    assert "carol has no rated games yet" in (await ask(w, w.alice, "stats", user=w.carol.id)).content

    w.carol.locale = w.alice.locale = "ja"  # the same answers in Japanese, nothing left in English
    said = [
        (await ask(w, w.carol, "stats")).content,
        (await ask(w, w.carol, "leaderboard", game="pon")).content,
        (await ask(w, w.alice, "stats")).content,
        (await ask(w, w.alice, "stats", game="heat")).content,
    ]
    assert "AI（やさしい）" in said[1] and "まだレーティングされていません" in said[1], said[1]
    assert "やさしい" in said[2] and "まだありません" in said[3], said
    words = {word for text in said for word in re.findall(r"[A-Za-z]{3,}", text)}
    assert words <= {"PON", "OpenSkill", "alice", "bob"}, words  # names only
