"""Discord misbehaving after a commit: rate limits are retried, failures are logged, and the game
is never rolled back or corrupted."""

from __future__ import annotations

from bot.tools.emulator.tables import open_table, start
from tests.e2e.crashes import submit_first_option


async def test_rate_limited_board_post_is_retried(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    thread = await start(w, lobby, w.alice)
    boards = len([m for m in emu.messages_in(thread) if m.attachments])
    emu.inject_429("POST", f"/channels/{thread.id}/messages", times=1, retry_after=0.2)
    await submit_first_option(emu, w.alice)
    await submit_first_option(emu, w.bob)  # resolves the round: a new board, after one 429
    await emu.wait_until(lambda: len([m for m in emu.messages_in(thread) if m.attachments]) > boards, timeout=8)
    assert (await w.bot.store.game(1)).snapshot["round"] == 2


async def test_failed_post_keeps_the_committed_move(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    thread = await start(w, lobby, w.alice)
    posts_before = len(emu.messages_in(thread))
    # someone took the bot's right to post in the thread (403 Missing Access)
    emu.inject_failure(
        "POST", f"/channels/{thread.id}/messages", status=403, times=50, code=50001, message="Missing Access"
    )
    await submit_first_option(emu, w.alice)
    rec = await submit_first_option(emu, w.bob)
    # bob's move is answered (its DM is spent) although every thread post fails
    await emu.wait_until(lambda: rec.menu_spent, timeout=8)
    # and alice gets her next round's menu (made for version 2; the test clicks it below)
    await emu.wait_until(
        lambda: any(m.selects and m.selects[0]["custom_id"].startswith("mv:1:2:") for m in emu.dm_messages(w.alice)),
        timeout=8,
    )
    game = await w.bot.store.game(1)
    assert game.snapshot["round"] == 2 and game.version == 2  # committed, never rolled back
    assert len(emu.messages_in(thread)) == posts_before
    assert not rec.followups  # no error shown to bob: the move went through
    emu.clear_faults()
    await submit_first_option(emu, w.alice)  # the table goes on
    await emu.wait_until(lambda: any("ready" in m.content for m in emu.messages_in(thread)[posts_before:]))
    assert (await w.bot.store.game(1)).version == 3
