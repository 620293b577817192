"""Issue #8, fewer and better messages: lines that ask nothing of anyone are gathered in one
message per turn (edited, which notifies no one); only a message that needs someone to act pings,
and only that someone."""
from __future__ import annotations

from .test_faults import submit_first_option
from .test_table import open_table, start


async def test_a_heat_round_costs_the_thread_one_log_message_and_the_board(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, w.carol, track="usa")
    thread = await start(w, lobby, w.alice)
    before = len(emu.messages_in(thread))
    await submit_first_option(emu, w.alice)
    await emu.wait_until(lambda: len(emu.messages_in(thread)) == before + 1)
    log = emu.messages_in(thread)[-1]
    assert "ready" in log.content and not log.mentions
    await submit_first_option(emu, w.bob)
    await emu.wait_until(lambda: emu.message(log.id).content.count("ready") == 2)
    assert len(emu.messages_in(thread)) == before + 1  # bob's line went into the same message
    await submit_first_option(emu, w.carol)  # the round resolves: the board names the players
    await emu.wait_until(lambda: any(m.attachments for m in emu.messages_in(thread)[before:]))
    new = emu.messages_in(thread)[before:]
    assert len(new) == 2 and new[1].attachments and not new[1].mentions  # their new DMs tell them
    assert all(f"<@{u.id}>" in new[1].content for u in (w.alice, w.bob, w.carol))
    # the next round's first line starts a new log message below the board
    await emu.wait_until(lambda: any(m.selects and m.selects[0]["custom_id"].startswith("mv:1:3:")
                                     for m in emu.dm_messages(w.bob)))
    await submit_first_option(emu, w.bob)
    await emu.wait_until(lambda: len(emu.messages_in(thread)) == before + 3)
    assert "ready" in emu.messages_in(thread)[-1].content


async def test_a_preference_click_pings_no_one(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    thread = await start(w, lobby, w.alice)
    dm = await emu.wait_until(lambda: [m for m in emu.dm_messages(w.alice) if m.buttons][-1:])
    label = next(b for b in dm[0].button_labels if b.startswith("Boost"))
    rec = await emu.click(w.alice, dm[0], label=label)
    await emu.wait_until(lambda: rec.acked)
    await w.bot.table.drain()
    assert await w.bot.store.game(1) is not None and (await w.bot.store.game(1)).version == 1  # it was a move
    assert all(not m.mentions for m in emu.messages_in(thread)[1:])


async def test_a_move_from_a_dm_replaces_that_dm_and_only_new_decisions_come_as_new_dms(table):
    """Issue #8, DMs: the player's own move costs no new DM (the one clicked shows the cards in, the
    new gear and the select to change them); the next decision comes as a new DM, which notifies,
    and the menu it supersedes loses its controls."""
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    await start(w, lobby, w.alice)
    dm = await emu.wait_until(lambda: [m for m in emu.dm_messages(w.alice) if m.selects][-1:])
    count = len(emu.dm_messages(w.alice))
    rec = await submit_first_option(emu, w.alice)
    await emu.wait_until(lambda: rec.menu_spent)
    await emu.wait_until(lambda: "cards are in" in emu.message(dm[0].id).content)
    edited = emu.message(dm[0].id)
    assert edited.attachments and edited.selects[-1]["placeholder"].startswith("Sent:")
    assert len(emu.dm_messages(w.alice)) == count  # no new DM for her own move
    await submit_first_option(emu, w.bob)  # the round is played: alice is asked again, in a new DM
    await emu.wait_until(lambda: len(emu.dm_messages(w.alice)) == count + 1)
    assert emu.dm_messages(w.alice)[-1].components
    await emu.wait_until(lambda: not emu.message(dm[0].id).components)  # the old menu can no longer act
