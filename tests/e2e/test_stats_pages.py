"""Issue #35 through the real bot and the emulator: `/game replay` ends on a page with the results and
the statistics, the very images the game's end posted in its thread, reached by the Next button."""

from __future__ import annotations

from .tables import open_table, start


async def test_the_replay_ends_on_the_results_and_statistics_the_thread_saw(table):
    w, emu = table, table.emu
    w.bot.table.new_seed = lambda: 5
    lobby = await open_table(w, w.alice, w.bob, w.carol, kind="pon")
    thread = await start(w, lobby, w.alice)
    for seat in (0, 1, 2):  # the automatic player finishes every seat
        await w.bot.store.set_auto(1, seat, True)
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
