"""Issues #8 and #27, fewer and better messages: a round is one post in the thread; the round's
lines, who is to play and each new turn's board are edited into it (an edit notifies no one); a
new round starts a new post; only a player whose DMs are closed is pinged, when asked to act."""

from __future__ import annotations

from tests.e2e.crashes import submit_first_option
from bot.tools.emulator.tables import open_table, start


async def test_a_heat_round_costs_the_thread_one_post(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, w.carol, track="usa")
    thread = await start(w, lobby, w.alice)
    before = len(emu.messages_in(thread))
    board = emu.messages_in(thread)[-1]
    assert board.attachments and all(f"<@{u.id}>" in board.content for u in (w.alice, w.bob, w.carol))
    await submit_first_option(emu, w.alice)
    await emu.wait_until(lambda: "ready" in emu.message(board.id).content)
    await submit_first_option(emu, w.bob)
    await emu.wait_until(lambda: emu.message(board.id).content.count("ready") == 2)
    assert len(emu.messages_in(thread)) == before  # both lines went into the round's post
    assert emu.message(board.id).content.endswith(f"Waiting for: <@{w.carol.id}>")  # who is left, named
    await submit_first_option(emu, w.carol)  # the round resolves: a new post with the new board
    await emu.wait_until(lambda: len(emu.messages_in(thread)) == before + 1)
    new = emu.messages_in(thread)[-1]
    assert new.attachments and not new.mentions  # their new DMs tell them
    assert all(f"<@{u.id}>" in new.content for u in (w.alice, w.bob, w.carol))
    assert "carol is ready" in new.content  # the line that ended the round opens the new round's post
    await emu.wait_until(lambda: "Waiting for" not in emu.message(board.id).content)  # the old post is history
    # the next round's lines go into its own post
    await emu.wait_until(
        lambda: any(m.selects and m.selects[0]["custom_id"].startswith("mv:1:3:") for m in emu.dm_messages(w.bob))
    )
    await submit_first_option(emu, w.bob)
    await emu.wait_until(lambda: "ready" in emu.message(new.id).content)
    assert len(emu.messages_in(thread)) == before + 1


async def test_a_player_whose_dms_are_closed_is_pinged_by_a_new_post(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.hermit, track="usa")
    thread = await start(w, lobby, w.alice)
    board = emu.messages_in(thread)[-1]
    assert board.mentions == [w.hermit.id]  # asked to act, and no DM can tell them
    await submit_first_option(emu, w.alice)
    await emu.wait_until(lambda: "ready" in emu.message(board.id).content)
    assert emu.messages_in(thread)[-1].id == board.id  # still deciding: not pinged again


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
    await emu.wait_until(
        lambda: "cards are in" in emu.message(dm[0].id).content or "card is in" in emu.message(dm[0].id).content
    )
    edited = emu.message(dm[0].id)
    assert edited.attachments and edited.selects[-1]["placeholder"].startswith("Sent:")
    assert len(emu.dm_messages(w.alice)) == count  # no new DM for her own move
    await submit_first_option(emu, w.bob)  # the round is played: alice is asked again, in a new DM
    await emu.wait_until(lambda: len(emu.dm_messages(w.alice)) == count + 1)
    assert emu.dm_messages(w.alice)[-1].components
    await emu.wait_until(lambda: not emu.message(dm[0].id).components)  # the old menu can no longer act


async def test_a_player_who_asks_for_pings_is_pinged_once_and_dmed_silently(table):
    w, emu = table, table.emu
    rec = await emu.slash(w.bob, w.general, "notify", how="ping")
    await emu.wait_until(lambda: rec.followups)
    assert "by a ping in the game's thread" in rec.followups[0].content
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    thread = await start(w, lobby, w.alice)
    board = emu.messages_in(thread)[-1]
    assert board.mentions == [w.bob.id]  # bob asked for pings; alice is told by her DM
    await emu.wait_until(lambda: all([m for m in emu.dm_messages(u) if m.components] for u in (w.alice, w.bob)))
    menus = {u.name: [m for m in emu.dm_messages(u) if m.components][-1] for u in (w.alice, w.bob)}
    assert menus["bob"].flags & 4096 and not menus["alice"].flags & 4096  # bob's DM notifies no one
    assert all(m.flags & 4096 for u in (w.alice, w.bob) for m in emu.dm_messages(u) if "You are seated" in m.content)
