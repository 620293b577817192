"""After a crash: what a move owes the table goes out exactly once, whatever moves follow; the
final result is posted; a Start or a lobby cut off half way is finished in the right place."""

from __future__ import annotations

import asyncio

import pytest

from bot.delivery import Outcome, words
from bot.store import PromptUpdate, Store
from bot.table import menu_hash

from .conftest import settings_for
from bot.tools.emulator.tables import last, open_table, start
from tests.e2e.crashes import run_bot, settled, submit_live


async def commit_behind_the_bots_back(world, moves, *, sent=(), finish=False):
    """The crash: `moves` (seat, action-picker) reach the database with their owed announcements,
    and nothing reaches Discord (except the parts in `sent`, for the last move)."""
    settings = settings_for(world.tmp_path)
    store = await Store.open(settings.database)
    from bot.games.registry import engines

    engine = engines()["heat"]
    game = await store.game(1)
    state, lines = game.snapshot, []
    for seat, choose in moves:
        action = choose(engine.legal_actions(state, seat))
        state, events = engine.apply(state, seat, action)
        lines += [e.text for e in events if e.to is None]
        game = await store.game(1)
        over = finish and engine.is_over(state)
        outcome = Outcome(game, state, events, [0, 1], board=True, actor=seat)
        await store.commit_move(
            1,
            game.version,
            seat,
            action,
            state,
            over,
            [PromptUpdate(s, menu_hash(engine.menu(state, s))) for s in (0, 1)],
            outcome.to_json(),
        )
    for part in sent:
        await store.mark_sent(1, [game.version + 1], part)
    await store.close()
    return lines


def first_submit(actions):
    return next(a for a in actions if a["type"] == "submit")


async def test_owed_announcements_go_out_once_even_when_players_move_at_once(world):
    bot, handle = await run_bot(world)
    lobby = await open_table(world, world.alice, world.bob, track="usa")
    thread = await start(world, lobby, world.alice)
    await handle.stop()
    lines = await commit_behind_the_bots_back(world, [(0, first_submit), (1, first_submit)])
    posts = len(world.emu.messages_in(thread))
    bot, handle = await run_bot(world)
    try:
        # right after the restart, both players move again (the old catch-up raced these)
        for user in (world.alice, world.bob):
            dm = await world.emu.wait_until(
                lambda: [
                    m
                    for m in world.emu.dm_messages(user)
                    if m.selects and m.selects[0]["custom_id"].startswith("mv:1:2:")
                ][-1:]
            )
            await world.emu.select(
                user, dm[0], [dm[0].selects[0]["options"][0]["value"]], custom_id=dm[0].selects[0]["custom_id"]
            )
        await world.emu.wait_until(
            lambda: len([m for m in world.emu.messages_in(thread)[posts:] if m.attachments]) >= 2, timeout=10
        )
        assert await settled(bot.store)
        new = world.emu.messages_in(thread)[posts:]
        text = "\n".join(m.content for m in new)
        names = ["alice", "bob"]
        for line in lines:
            assert text.count(words(line, names, "en")) >= 1
        boards = [m for m in new if m.attachments]
        assert len(boards) == 2  # the owed round and the new one: nothing twice, nothing lost
        assert len({m.content for m in boards}) == 2
    finally:
        await handle.stop()


async def test_a_part_already_out_is_not_sent_again(world):
    bot, handle = await run_bot(world)
    lobby = await open_table(world, world.alice, world.bob, track="usa")
    thread = await start(world, lobby, world.alice)
    await handle.stop()
    await commit_behind_the_bots_back(world, [(0, first_submit)], sent=("post", "dm0"))
    posts, alice_dms = len(world.emu.messages_in(thread)), len(world.emu.dm_messages(world.alice))
    bot, handle = await run_bot(world)
    try:
        assert await settled(bot.store)
        await asyncio.sleep(0.3)
        assert len(world.emu.messages_in(thread)) == posts  # the post was out before the crash
        assert len(world.emu.dm_messages(world.alice)) == alice_dms  # so was alice's DM
    finally:
        await handle.stop()


async def test_the_result_is_posted_when_the_crash_follows_the_last_move(world):
    bot, handle = await run_bot(world)
    lobby = await open_table(world, world.alice, world.bob, track="usa")
    thread = await start(world, lobby, world.alice)
    await handle.stop()
    # play the race to its end behind the bot's back: every move owed, the last one finishing it
    from bot.games.registry import engines

    engine = engines()["heat"]
    store = await Store.open(settings_for(world.tmp_path).database)
    game = await store.game(1)
    state = game.snapshot
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        action = engine.legal_actions(state, seat)[0]
        state, events = engine.apply(state, seat, action)
        game = await store.game(1)
        await store.commit_move(
            1,
            game.version,
            seat,
            action,
            state,
            engine.is_over(state),
            [],
            Outcome(game, state, events, [], board=engine.is_over(state), actor=seat).to_json(),
        )
    await store.close()
    bot, handle = await run_bot(world)
    try:
        final = await world.emu.wait_until(
            lambda: last(world.emu.messages_in(thread), lambda m: len(m.attachments) == 3), timeout=20
        )  # + statistics
        assert "over" in final.content
        assert await settled(bot.store)
    finally:
        await handle.stop()


async def test_a_start_cut_off_after_opening_the_thread_plays_in_that_thread(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    # the crash: Discord opened the thread, the bot died before saving the start
    emu.create_thread(w.general, name="Heat #1", thread_id=lobby.id)
    emu.message(lobby).thread_id = lobby.id
    await emu.click(w.alice, lobby, label="Start")
    await emu.wait_until(lambda: any(m.attachments for m in emu.messages_in(emu.channel(lobby.id))))
    assert [t.id for t in emu.threads(w.general)] == [lobby.id]
    assert not [m for m in emu.channel_messages(w.general) if m.attachments]  # nothing in the parent
    assert (await w.bot.store.game(1)).thread_id == lobby.id


async def test_a_lobby_whose_id_was_never_saved_heals_on_its_first_click(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    await w.bot.store._conn.execute("UPDATE games SET lobby_message_id = NULL WHERE id = 1")
    await start(w, lobby, w.alice)
    assert (await w.bot.store.game(1)).lobby_message_id == lobby.id
    await emu.wait_until(lambda: not emu.message(lobby).buttons)  # no live Join/Start on a started game


async def test_a_lobby_post_found_after_a_restart_is_kept(world):
    bot, handle = await run_bot(world)
    lobby = await open_table(world, world.alice, world.bob, track="usa")
    await bot.store._conn.execute("UPDATE games SET lobby_message_id = NULL WHERE id = 1")
    gid = await bot.store.create_game("heat", world.guild.id, world.general.id, world.carol.id, "carol", {}, 1)
    await handle.stop()  # game 2's post never went out
    bot, handle = await run_bot(world)
    try:
        for _ in range(100):
            if (await bot.store.game(gid)).status == "abandoned":
                break
            await asyncio.sleep(0.05)
        assert (await bot.store.game(1)).lobby_message_id == lobby.id
        assert (await bot.store.game(gid)).status == "abandoned"
    finally:
        await handle.stop()


async def commit_log_only_behind_the_bots_back(world, seat, choose):
    """The crash after a log-only move: committed, owed, and its progress never written."""
    from bot.games.registry import engines

    engine = engines()["heat"]
    store = await Store.open(settings_for(world.tmp_path).database)
    game = await store.game(1)
    action = choose(engine.legal_actions(game.snapshot, seat))
    state, events = engine.apply(game.snapshot, seat, action)
    await store.commit_move(
        1,
        game.version,
        seat,
        action,
        state,
        False,
        [PromptUpdate(seat, menu_hash(engine.menu(state, seat)))],
        Outcome(game, state, events, [seat], board=False, actor=seat).to_json(),
    )
    await store.close()
    return [e.text for e in events if e.to is None]


async def three_at_a_turn_log(world):
    """A Heat race of three where alice is ready: her line went into the round's post (the board)."""
    bot, handle = await run_bot(world)
    lobby = await open_table(world, world.alice, world.bob, world.carol, track="usa")
    thread = await start(world, lobby, world.alice)
    await submit_live(world, world.alice)
    log_message = await world.emu.wait_until(
        lambda: last(world.emu.messages_in(thread), lambda m: "alice" in m.content)
    )
    assert await settled(bot.store)
    await handle.stop()
    return thread, log_message


async def test_a_turn_log_edit_out_before_the_crash_is_not_said_again(world):
    thread, log_message = await three_at_a_turn_log(world)
    lines = await commit_log_only_behind_the_bots_back(world, 1, first_submit)
    said = "\n".join(words(x, ["alice", "bob", "carol"], "en") for x in lines)
    assert said
    head, _, waiting = log_message.content.rpartition("\n")
    log_message.content = f"{head}\n{said}\n{waiting}"  # Discord took the edit; the bot died before writing so
    posts = len(world.emu.messages_in(thread))
    bot, handle = await run_bot(world)
    try:
        assert await settled(bot.store)
        await asyncio.sleep(0.3)
        assert len(world.emu.messages_in(thread)) == posts  # no new message with bob's line again
        assert world.emu.message(log_message).content.count(said) == 1
        rec = await submit_live(world, world.carol)  # and the turn's log goes on in the same message
        assert not rec.followups, rec.followups[0].content
        await world.emu.wait_until(
            lambda: len([m for m in world.emu.messages_in(thread)[posts:] if m.attachments]) == 1, timeout=10
        )
        assert world.emu.message(log_message).content.count(said) == 1
    finally:
        await handle.stop()


async def test_a_turn_log_edit_lost_in_the_crash_goes_on_in_the_same_message(world):
    thread, log_message = await three_at_a_turn_log(world)
    lines = await commit_log_only_behind_the_bots_back(world, 1, first_submit)
    said = "\n".join(words(x, ["alice", "bob", "carol"], "en") for x in lines)
    posts = len(world.emu.messages_in(thread))
    bot, handle = await run_bot(world)
    try:
        assert await settled(bot.store)
        await world.emu.wait_until(lambda: said in world.emu.message(log_message).content)
        assert world.emu.message(log_message).content.count(said) == 1
        assert len(world.emu.messages_in(thread)) == posts
    finally:
        await handle.stop()


@pytest.mark.parametrize("board", [True, False])
async def test_a_board_out_before_the_crash_is_not_said_again_with_the_next_move(world, board):
    """Two versions owed, the first's post out, the second not: the catch-up's post says more, so
    only the thread can tell that the first's lines are out. A text post whose last line names
    (pings) who is to play is recognised like one with a board (#28: a PON text post was posted
    twice)."""
    bot, handle = await run_bot(world)
    lobby = await open_table(world, world.alice, world.bob, track="usa")
    thread = await start(world, lobby, world.alice)
    await handle.stop()
    lines = await commit_behind_the_bots_back(world, [(0, first_submit), (1, first_submit)])
    names = ["alice", "bob"]
    first_round = "\n".join(words(x, names, "en") for x in lines)
    # what the live post of the round (the second submit) said before the crash
    title = world.emu.messages_in(thread)[0].content.split("\n")[0]
    world.emu.messaging.create(
        thread,
        world.emu.bot,
        {"content": f"{title}\n{first_round}\nWaiting for: <@{world.alice.id}>, <@{world.bob.id}>"},
    )
    if board:
        post = world.emu.messages_in(thread)[-1]
        post.attachments = list(last(world.emu.messages_in(thread)[:-1], lambda m: m.attachments).attachments)
    lines2 = await commit_behind_the_bots_back(world, [(0, first_submit)])
    posts = len(world.emu.messages_in(thread))
    bot, handle = await run_bot(world)
    try:
        assert await settled(bot.store)
        await asyncio.sleep(0.3)
        new = world.emu.messages_in(thread)[posts:]
        text = "\n".join(m.content for m in new)
        assert words(lines2[0], names, "en") in text
        assert first_round not in text
    finally:
        await handle.stop()


async def test_a_move_fully_out_but_never_recorded_is_not_said_again(world):
    """The crash falls after every part of a move went out (the thread's log line, the mover's
    DM replaced in place: neither has a nonce) and before the progress was written."""
    bot, handle = await run_bot(world)
    try:
        lobby = await open_table(world, world.alice, world.bob, world.carol, track="usa")
        thread = await start(world, lobby, world.alice)

        async def nothing(*_args, **_kwargs):
            return None

        clicked = await world.emu.wait_until(lambda: last(world.emu.dm_messages(world.alice), lambda m: m.selects))
        dms, before = len(world.emu.dm_messages(world.alice)), clicked.content
        bot.store.settle = bot.store.mark_sent = nothing  # the progress never reaches the database
        await submit_live(world, world.alice)
        await world.emu.wait_until(lambda: world.emu.message(clicked).content != before)
        await world.emu.wait_until(lambda: last(world.emu.messages_in(thread), lambda m: "alice" in m.content))
        await asyncio.sleep(0.3)
    finally:
        await handle.stop()
    assert len(world.emu.dm_messages(world.alice)) == dms  # the move replaced alice's DM in place
    posts = len(world.emu.messages_in(thread))
    bot, handle = await run_bot(world)
    try:
        assert await settled(bot.store)
        await asyncio.sleep(0.3)
        assert len(world.emu.messages_in(thread)) == posts
        assert len(world.emu.dm_messages(world.alice)) == dms
    finally:
        await handle.stop()
