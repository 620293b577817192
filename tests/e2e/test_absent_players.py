"""Absent players (issue #8): the table's clock, reminders that escalate, the vote that hands an
absent seat to the automatic player, which then moves for it, and the player taking it back."""

from __future__ import annotations

import pytest

import asyncio

from bot.app import create_bot
from bot.tools.emulator.testing import start_bot_in_process

from .conftest import settings_for
from bot.tools.emulator.tables import open_table, start


def pings(emu, thread, user, text):
    return [m for m in emu.messages_in(thread) if text in m.content and user.id in m.mentions]


def newest_select_dm(emu, user):
    return [m for m in emu.dm_messages(user) if m.selects and not m.deleted][-1:]


async def test_the_clock_is_chosen_at_new_and_shown_in_the_lobby(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa", clock=86400)
    assert "a move every 1 d" in emu.message(lobby).content
    assert (await w.bot.store.game(1)).clock == 86400


async def test_reminders_escalate_then_the_table_votes_in_the_automatic_player(world):
    emu = world.emu
    bot = create_bot(settings_for(world.tmp_path, reminder_seconds=1.0))  # the table's clock: 1 s
    handle = await start_bot_in_process(emu, bot)
    try:
        await emu.wait_for_commands()
        lobby = await open_table(world, world.alice, world.bob, track="usa")
        thread = await start(world, lobby, world.alice)
        dm = await emu.wait_until(lambda: newest_select_dm(emu, world.alice))
        await emu.select(
            world.alice, dm[0], [dm[0].selects[0]["options"][0]["value"]], custom_id=dm[0].selects[0]["custom_id"]
        )  # bob never moves
        # clock x1: a reminder; x2: a second one, also by DM; x3: the others are asked to vote
        await emu.wait_until(lambda: pings(emu, thread, world.bob, "a reminder:"), timeout=5)
        second = await emu.wait_until(lambda: pings(emu, thread, world.bob, "a second reminder"), timeout=5)
        assert "automatic player" in second[0].content
        await emu.wait_until(lambda: [m for m in emu.dm_messages(world.bob) if "a second reminder" in m.content])
        vote = (await emu.wait_until(lambda: pings(emu, thread, world.alice, "has not moved"), timeout=5))[0]
        assert world.bob.id not in vote.mentions  # only those asked to act are pinged
        assert len(pings(emu, thread, world.bob, "reminder")) == 2  # and nothing more for bob
        await asyncio.sleep(1.2)
        assert len([m for m in emu.messages_in(thread) if "has not moved" in m.content]) == 1

        rec = await emu.click(world.bob, vote, label="Let the automatic player move")  # not about oneself
        await emu.wait_until(lambda: rec.followups)
        assert "your own seat" in rec.followups[0].content
        rec = await emu.click(world.carol, vote, label="Let the automatic player move")  # not seated
        await emu.wait_until(lambda: rec.followups)
        assert "Only the players" in rec.followups[0].content

        before = len([m for m in emu.messages_in(thread) if m.attachments])
        await emu.click(world.alice, vote, label="Let the automatic player move")  # 1 of 1 needed
        await emu.wait_until(lambda: "The table voted" in emu.message(vote).content)
        assert not emu.message(vote).components
        back = await emu.wait_until(
            lambda: [m for m in emu.dm_messages(world.bob) if m.buttons and "Take my seat back" in m.button_labels]
        )
        # the automatic player submits bob's cards: the round is played, a new board is posted
        await emu.wait_until(lambda: len([m for m in emu.messages_in(thread) if m.attachments]) > before, timeout=10)
        game = await bot.store.game(1)
        assert game.seats[1].auto and game.version >= 2

        rec = await emu.click(world.bob, back[-1], label="Take my seat back")
        await emu.wait_until(lambda: [m for m in emu.messages_in(thread) if "is back" in m.content])
        assert not (await bot.store.game(1)).seats[1].auto
        await emu.wait_until(lambda: rec.followups)  # bob sees his hand and moves there
        rec = await emu.click(world.bob, back[-1], custom_id="bk:1", force=True)  # again: nothing to take back
        await emu.wait_until(lambda: rec.followups)
        assert "already play your own seat" in rec.followups[0].content
    finally:
        await handle.stop()


async def test_an_absent_players_move_takes_the_seat_back_and_votes_expire(world):
    """A vote counts only while the absent seat's menu is the one it was called for."""
    emu = world.emu
    bot = create_bot(settings_for(world.tmp_path, reminder_seconds=1.0))
    handle = await start_bot_in_process(emu, bot)
    try:
        await emu.wait_for_commands()
        lobby = await open_table(world, world.alice, world.bob, world.carol, track="usa")
        thread = await start(world, lobby, world.alice)
        for user in (world.alice, world.carol):
            dm = await emu.wait_until(lambda: newest_select_dm(emu, user))
            await emu.select(
                user, dm[0], [dm[0].selects[0]["options"][0]["value"]], custom_id=dm[0].selects[0]["custom_id"]
            )
        vote = (await emu.wait_until(lambda: pings(emu, thread, world.alice, "has not moved"), timeout=8))[0]
        assert "2 vote(s) needed" in vote.content  # the majority of alice and carol
        await emu.click(world.alice, vote, label="Let the automatic player move")
        await emu.wait_until(lambda: "Votes: 1 of 2" in emu.message(vote).content)
        dm = await emu.wait_until(lambda: newest_select_dm(emu, world.bob))
        moved = await emu.select(
            world.bob, dm[0], [dm[0].selects[0]["options"][0]["value"]], custom_id=dm[0].selects[0]["custom_id"]
        )  # bob is back in time
        await emu.wait_until(lambda: moved.menu_spent)  # his move went through
        rec = await emu.click(world.carol, vote, label="Let the automatic player move")
        await emu.wait_until(lambda: rec.followups)
        assert "has moved since" in rec.followups[0].content
        assert not any(s.auto for s in (await bot.store.game(1)).seats)
    finally:
        await handle.stop()


async def test_finished_games_stay_in_the_players_history_and_replay_board_by_board(table):
    """Two automatic players race to the end through the real commit path; then /games history
    lists the result, and anyone in the server can step through the boards."""
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    thread = await start(w, lobby, w.alice)
    rec = await emu.slash(w.carol, thread, "game", "replay")
    await emu.wait_until(lambda: rec.followups)
    assert "Only a finished game" in rec.followups[0].content
    for seat in (0, 1):
        await w.bot.store.clocks.set_auto(1, seat, True)
    w.bot.table.autoplayer.soon(1)
    await emu.wait_until(lambda: any("The game is over" in m.content for m in emu.messages_in(thread)), timeout=60)
    game = await w.bot.store.game(1)
    assert game.status == "finished"
    places = w.bot.table.engines["heat"].placings(game.snapshot)

    rec = await emu.slash(w.alice, w.general, "games", history=True)
    await emu.wait_until(lambda: rec.followups)
    text = rec.followups[0].content
    assert f"Your last 1 finished games: {int(places[0] == 1)} won." in text
    assert ("won" if places[0] == 1 else "place 2 of 2") in text.splitlines()[1]
    rec = await emu.slash(w.dave, w.general, "games", history=True)
    await emu.wait_until(lambda: rec.followups)
    assert "no finished games" in rec.followups[0].content

    rec = await emu.slash(w.carol, thread, "game", "replay")  # not a player: a replay is public
    shown = (await emu.wait_until(lambda: rec.followups))[0]
    total = int(shown.content.rsplit(" of ", 1)[1])
    assert "board 1 of" in shown.content and shown.attachments and total > 5
    assert [b.get("disabled", False) for b in shown.buttons] == [True, False]
    first = shown.attachments[0].url
    await emu.click(w.carol, shown, label="Next ▶")
    await emu.wait_until(lambda: "board 2 of" in emu.message(shown.id).content)
    assert emu.message(shown.id).attachments[0].url != first
    rec = await emu.slash(w.carol, thread, "game", "replay", board=total)
    last = (await emu.wait_until(lambda: rec.followups))[0]
    assert f"board {total} of {total}" in last.content
    assert [b.get("disabled", False) for b in last.buttons] == [False, False]  # then the results and statistics


@pytest.mark.parametrize("how", ["button", "play"])
async def test_a_pole_seat_voted_to_the_automatic_player_is_driven_by_a_bot_and_taken_back(world, how):
    """Pole (issue #15): the vote hands bob's seat to a section-17 bot that drives his car; the
    thread says so; bob takes his car back with the DM's button (or by a move) and races again."""
    from bot.tools.emulator.players import Driver, play_until

    emu = world.emu
    bot = create_bot(settings_for(world.tmp_path, reminder_seconds=1.0))
    handle = await start_bot_in_process(emu, bot)
    try:
        await emu.wait_for_commands()
        bot.table.lobbies.new_seed = lambda: 3
        lobby = await open_table(world, world.alice, world.bob, kind="pole", circuit="monaco", bots=1)
        thread = await start(world, lobby, world.alice)
        alice = Driver(emu, world.alice, "select", 1, "pole")

        def said(text):
            return [m for m in emu.messages_in(thread) if text in m.content]

        async def race(players, stop):
            await play_until(players, thread, stop, max_steps=600)

        await race([alice], lambda: bool(said("has not moved")))
        vote = said("has not moved")
        await emu.click(world.alice, vote[0], label="Let the automatic player move")
        await emu.wait_until(lambda: said("a bot (card A) drives their car now"), timeout=10)
        assert (await bot.store.game(1)).seats[1].auto
        back = await emu.wait_until(
            lambda: [m for m in emu.dm_messages(world.bob) if m.buttons and "Take my seat back" in m.button_labels]
        )
        await race([alice], lambda: bool(said("(bot) drives ")))
        game = await bot.store.game(1)
        car = game.snapshot["cars"][1]
        assert car["bot"]["for"] and 1 not in bot.table.engines["pole"].to_act(game.snapshot)
        assert "<seat:" not in "\n".join(m.content for m in emu.messages_in(thread))

        if how == "button":
            await emu.click(world.bob, back[-1], label="Take my seat back")
        else:  # a move by bob takes his car back; it is not judged against a board that moved on
            rec = await emu.slash(world.bob, thread, "pole", "play", move="Move 3")
            await emu.wait_until(lambda: rec.followups, timeout=10)
            assert "Your seat is yours again" in rec.followups[-1].content
        await emu.wait_until(lambda: said("is back and plays their own seat again"), timeout=10)
        bob = Driver(emu, world.bob, "select", 2, "pole")  # his car is his again, now or when the bot's turn ends
        await race([alice, bob], lambda: bool(said("drives their own car again")))
        game = await bot.store.game(1)
        assert not game.seats[1].auto and "bot" not in game.snapshot["cars"][1]
        await race([alice, bob], lambda: bool(bob.done))  # bob races again
    finally:
        await handle.stop()
