"""The table through the emulator: lobby, start, DMs, the commit path's guards, /games, abandon."""

from __future__ import annotations

import asyncio

from bot.tools.emulator.tables import last, open_table, plant, start


async def test_lobby_join_leave_and_start(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    assert "a table (USA circuit, random grid)." in emu.message(lobby).content  # options in words, not keys
    rec = await emu.slash(w.carol, w.general, "heat", "join")  # the open table in this channel
    await emu.wait_until(lambda: rec.followups)
    assert "joined" in rec.followups[0].content
    await emu.wait_until(lambda: "<@%d>" % w.carol.id in emu.message(lobby).content)
    await emu.click(w.carol, lobby, label="Leave")
    await emu.wait_until(lambda: "<@%d>" % w.carol.id not in emu.message(lobby).content)

    rec = await emu.click(w.bob, lobby, label="Start")  # only the creator starts
    await emu.wait_until(lambda: rec.followups)
    assert "Only the creator" in rec.followups[0].content and rec.followups[0].ephemeral
    assert emu.threads(w.general) == []

    thread = await start(w, lobby, w.alice)
    board = last(emu.messages_in(thread), lambda m: m.attachments)
    assert board.attachments[0].data.startswith(b"\x89PNG")
    # both must submit: both named, and told by the DM with their cards, not pinged as well
    assert f"<@{w.alice.id}>" in board.content and f"<@{w.bob.id}>" in board.content and not board.mentions
    assert not emu.message(lobby).buttons  # the lobby closed
    for user in (w.alice, w.bob):  # each gets a private hand with a card select
        dm = await emu.wait_until(lambda: last(emu.dm_messages(user), lambda m: m.selects))
        assert dm.attachments and dm.attachments[0].data.startswith(b"\x89PNG")


async def test_closed_dm_is_named_and_game_goes_on(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.hermit, track="usa")
    thread = await start(w, lobby, w.alice)
    note = await emu.wait_until(lambda: last(emu.messages_in(thread), lambda m: "cannot" in m.content))
    assert f"<@{w.hermit.id}>" in note.content and not note.mentions  # named here...
    board = await emu.wait_until(lambda: last(emu.messages_in(thread), lambda m: m.attachments))
    assert board.mentions == [w.hermit.id]  # ...and pinged once, by the board that asks for their move
    rec = await emu.slash(w.hermit, thread, "heat", "hand")
    await emu.wait_until(lambda: rec.followups)
    hand = rec.followups[0]
    assert hand.ephemeral and hand.selects and hand.attachments  # the fallback works


async def test_forged_and_foreign_buttons_change_nothing(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    await start(w, lobby, w.alice)
    game = await w.bot.store.game(1)
    forged = {
        "mv:1:0:0:b99": "not one of your moves",  # no such button in the menu
        "mv:1:7:0:b0": "not one of your moves",  # a version that never was
        "mv:999:0:0:b0": "no game #999",
        "mv:1:0:1:b0": "another player",  # bob's seat, clicked by alice
        "lb:1:join": "under way",
    }
    message = plant(emu, w.alice, list(forged))
    for custom_id, answer in forged.items():
        rec = await emu.click(w.alice, message, custom_id=custom_id)
        await emu.wait_until(lambda: rec.followups)
        assert rec.followups[0].ephemeral
        assert answer in rec.followups[0].content.lower(), (custom_id, rec.followups[0].content)
    thread = emu.threads(w.general)[0]
    for pick in ("7:0123456789", "0:0123456789"):  # a future version; no move of hers today
        rec = await emu.slash(w.alice, thread, "heat", "play", move=pick)
        await emu.wait_until(lambda: rec.followups)
        assert "not one of your moves" in rec.followups[0].content, (pick, rec.followups[0].content)
    after = await w.bot.store.game(1)
    assert after.version == game.version and after.snapshot == game.snapshot


async def test_games_lists_and_abandon_needs_rights(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    thread = await start(w, lobby, w.alice)
    rec = await emu.slash(w.bob, w.general, "games")
    await emu.wait_until(lambda: rec.followups)
    assert "#1" in rec.followups[0].content and rec.followups[0].ephemeral
    rec = await emu.slash(w.bob, thread, "game", "abandon")
    await emu.wait_until(lambda: rec.followups)
    assert "creator" in rec.followups[-1].content
    rec = await emu.slash(w.mod, thread, "game", "abandon")
    await emu.wait_until(lambda: rec.followups)
    assert "abandoned" in rec.followups[-1].content
    assert (await w.bot.store.game(1)).status == "abandoned"
    for user in (w.alice, w.bob):  # the players hear it once, by DM (the thread post pings no one)
        await emu.wait_until(lambda: any("was abandoned" in m.content for m in emu.dm_messages(user)))
        assert not any(m.components for m in emu.dm_messages(user))  # their menus lost their controls
    post = last(emu.messages_in(thread), lambda m: "was abandoned" in m.content)
    assert post is not None and not post.mentions


async def test_abandon_while_the_first_menus_are_on_their_way_leaves_no_live_menu(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    emu.slow("POST", "/messages", 0.4)  # the board is posted; the DM menus are still being sent
    thread = await start(w, lobby, w.alice)
    rec = await emu.slash(w.mod, thread, "game", "abandon")
    await emu.wait_until(lambda: rec.followups, timeout=20)
    for user in (w.alice, w.bob):
        await emu.wait_until(lambda: any("was abandoned" in m.content for m in emu.dm_messages(user)), timeout=20)
        assert len(emu.dm_messages(user)) >= 2  # the menu went out, then the word it was abandoned
        assert not any(m.components for m in emu.dm_messages(user))


async def test_illegal_and_out_of_turn_moves_are_refused_privately(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, w.carol, kind="pon")
    thread = await start(w, lobby, w.alice)
    before = await w.bot.store.game(1)
    waiting = w.bot.table.engines["pon"].to_act(before.snapshot)
    idle = next(u for u in (w.alice, w.bob, w.carol) if before.seat_of(u.id) not in waiting)
    mover = next(u for u in (w.alice, w.bob, w.carol) if before.seat_of(u.id) in waiting)
    who = ", ".join(before.seats[s].name for s in waiting)
    cases = [
        (idle, "Play 3", f"It is not your move now: the table is waiting for {who}."),  # out of turn
        (w.dave, "Play 3", "not playing"),  # not seated
        (mover, "Gear 9: teleport", "not a move you can make now"),
    ]  # no such move
    for user, move, answer in cases:
        rec = await emu.slash(user, thread, "pon", "play", move=move)
        await emu.wait_until(lambda: rec.followups)
        assert rec.followups[0].ephemeral and answer in rec.followups[0].content, rec.followups[0].content
    # out of turn the list is one line saying whose move it is; picking it says the same
    choices = await emu.autocomplete(idle, thread, "pon", "play", focused="move", move="")
    assert [c["name"] for c in choices] == [f"It is not your move now: the table is waiting for {who}."]
    rec = await emu.slash(idle, thread, "pon", "play", move=choices[0]["value"])
    await emu.wait_until(lambda: rec.followups)
    assert "waiting for" in rec.followups[0].content
    after = await w.bot.store.game(1)
    assert (after.version, after.snapshot) == (before.version, before.snapshot)


async def test_status_and_log_show_only_public_things(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    thread = await start(w, lobby, w.alice)
    dm = await emu.wait_until(lambda: [m for m in emu.dm_messages(w.alice) if m.selects][-1:])
    options = dm[0].selects[0]["options"]
    await emu.select(w.alice, dm[0], [options[0]["value"]], custom_id=dm[0].selects[0]["custom_id"])
    rec = await emu.slash(w.bob, thread, "game", "status")
    await emu.wait_until(lambda: rec.followups)
    status = rec.followups[0]
    assert status.ephemeral and status.attachments[0].data.startswith(b"\x89PNG") and "bob" in status.content
    rec = await emu.slash(w.bob, thread, "game", "log", count=5)
    await emu.wait_until(lambda: rec.followups)
    text = rec.followups[0].content
    assert "alice is ready" in text and "<seat:" not in text
    assert "cards are in" not in text and "card is in" not in text  # alice's private confirmation stays private
    assert options[0]["label"] not in text  # the card she chose is not named before the reveal


async def test_dms_resume_once_a_player_opens_them(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.hermit, track="usa")
    thread = await start(w, lobby, w.alice)
    emu.set_dm_open(w.hermit, True)
    board = [m for m in emu.messages_in(thread) if m.buttons][-1]
    rec = await emu.click(w.hermit, board, label="My hand")
    await emu.wait_until(lambda: rec.followups)
    assert rec.followups[0].ephemeral and rec.followups[0].selects
    await emu.wait_until(lambda: any("reach you here again" in m.content for m in emu.dm_messages(w.hermit)))
    for _ in range(200):  # recorded once the probe DM is out
        if (await w.bot.store.game(1)).seats[1].dm_ok:
            break
        await asyncio.sleep(0.01)
    assert (await w.bot.store.game(1)).seats[1].dm_ok


async def test_the_log_keeps_who_is_ready_only_for_the_round_being_chosen(table):
    """#33: /game log does not repeat every round's "X is ready" lines; the current round's stay."""
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    thread = await start(w, lobby, w.alice)
    for user in (w.alice, w.bob, w.alice):  # round 1 played, alice ready in round 2
        dm = await emu.wait_until(
            lambda: [
                m for m in emu.dm_messages(user) if m.selects and not m.selects[0]["placeholder"].startswith("Sent")
            ][-1:]
        )
        options = dm[0].selects[0]["options"]
        await emu.select(user, dm[0], [options[0]["value"]], custom_id=dm[0].selects[0]["custom_id"])
        await w.bot.table.drain()
    rec = await emu.slash(w.bob, thread, "game", "log", count=50)
    await emu.wait_until(lambda: rec.followups)
    text = rec.followups[0].content
    assert text.count("is ready") == 1 and "alice is ready" in text, text
