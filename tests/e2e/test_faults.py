"""Discord misbehaving after a commit: rate limits are retried, failures are logged, and the game
is never rolled back or corrupted."""

from __future__ import annotations

import asyncio
import logging

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


def board_count(emu, thread) -> int:
    return len([m for m in emu.messages_in(thread) if m.attachments])


async def test_a_slow_acknowledgement_does_not_hold_back_the_board(table):
    """The move is made and its board drawn and posted while the click's acknowledgement is still
    on its way (Table.ack_now): on Discord a round trip sooner."""
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    thread = await start(w, lobby, w.alice)
    await submit_first_option(emu, w.alice)
    boards = board_count(emu, thread)
    emu.slow("POST", "/callback", 2.0, times=1)
    click = asyncio.create_task(submit_first_option(emu, w.bob))  # resolves the round: a new board
    await emu.wait_until(lambda: board_count(emu, thread) > boards, timeout=8)
    newest = max(emu.interactions.records.values(), key=lambda r: r.created)
    assert not newest.acked  # the board is out before the acknowledgement landed
    rec = await click
    assert rec.acked and not rec.failed and not rec.rejected and not rec.followups
    assert (await w.bot.store.game(1)).snapshot["round"] == 2


async def test_a_refusal_waits_for_its_slow_acknowledgement(table):
    """A move refused while its acknowledgement is still on its way is answered after it, not
    before (Discord drops a follow-up to an interaction not yet acknowledged)."""
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    thread = await start(w, lobby, w.alice)
    choices = await emu.autocomplete(w.alice, thread, "heat", "play", focused="move", move="")
    pick = next(c["value"] for c in choices if not c["name"].startswith("Preference"))
    first = await emu.slash(w.alice, thread, "heat", "play", move=pick)
    await emu.wait_until(lambda: first.followups)
    emu.slow("POST", "/callback", 1.0, times=1)
    rec = await emu.slash(w.alice, thread, "heat", "play", move=pick)  # made before her own move: stale
    await emu.wait_until(lambda: rec.followups)
    assert "moved on" in " ".join(m.content for m in rec.messages).lower()
    assert not rec.rejected and not rec.failed


async def test_a_refused_acknowledgement_does_not_undo_the_move(table, caplog):
    """Discord refusing the click's acknowledgement (it came too late: Unknown interaction) leaves
    the move made and its board posted; the refusal is a warning in the log, no traceback."""
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    thread = await start(w, lobby, w.alice)
    await submit_first_option(emu, w.alice)
    boards = board_count(emu, thread)
    emu.inject_failure("POST", "/callback", status=404, times=1, code=10062, message="Unknown interaction")
    click = asyncio.create_task(submit_first_option(emu, w.bob))
    await emu.wait_until(lambda: board_count(emu, thread) > boards, timeout=8)
    await click
    assert (await w.bot.store.game(1)).snapshot["round"] == 2
    assert any("could not acknowledge" in r.getMessage() for r in caplog.records)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
