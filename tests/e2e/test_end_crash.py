"""Issue #35: a game's end owes two posts, the final one (results and statistics) and then its replay
animation. The animation is owed like any other post: a crash between the two leaves it to the
catch-up after the restart, which posts it once; one that went out before the crash is not posted
again.

The crash is simulated in process, at a precise point: the animation's drawing never ends, the
progress written so far is flushed, and the drawing is cut off with the bot (its task cancelled, as a
kill would), so nothing after it runs."""

from __future__ import annotations

import asyncio

import pytest

from bot import export
from bot.delivery import Outcome
from bot.games.registry import engines
from bot.store import Store

from .conftest import settings_for
from .standins import STAND_IN_ANIMATION
from tests.e2e.crashes import run_bot, settled
from bot.tools.emulator.tables import last, open_table, start

ENGINE = engines()["heat"]


async def finish_behind_the_bots_back(world) -> None:
    """The whole race committed while the bot is down: every version owed, the last one its end."""
    store = await Store.open(settings_for(world.tmp_path).database)
    try:
        game = await store.game(1)
        state = game.snapshot
        while not ENGINE.is_over(state):
            seat = ENGINE.to_act(state)[0]
            action = ENGINE.legal_actions(state, seat)[0]
            state, events = ENGINE.apply(state, seat, action)
            game = await store.game(1)
            over = ENGINE.is_over(state)
            outcome = Outcome(game, state, events, [], board=over, actor=seat)
            await store.commit_move(1, game.version, seat, action, state, over, [], outcome.to_json())
    finally:
        await store.close()


def replays(world, thread):
    return [m for m in world.emu.messages_in(thread) if any("-replay." in a.filename for a in m.attachments)]


def final_post(world, thread):
    return last(world.emu.messages_in(thread), lambda m: "The game is over." in m.content)


async def a_race_over_behind_the_bots_back(world):
    bot, handle = await run_bot(world)
    try:
        lobby = await open_table(world, world.alice, world.bob, track="usa")
        thread = await start(world, lobby, world.alice)
    finally:
        await handle.stop()
    await finish_behind_the_bots_back(world)
    return thread


async def killed_while(bot, handle, drawing: list[asyncio.Task]) -> None:
    """The kill: every progress noted so far is written (as the half second behind would have), then
    the animation's drawing is cut off with the bot: nothing after it runs."""
    await bot.store.flush()
    for task in drawing:
        task.cancel()
    await handle.stop()


async def test_a_crash_between_the_final_post_and_its_animation_leaves_the_animation_owed(world, monkeypatch):
    thread = await a_race_over_behind_the_bots_back(world)
    drawing: list[asyncio.Task] = []

    async def never_done(*_args, **_kwargs):
        drawing.append(asyncio.current_task())
        await asyncio.Event().wait()

    monkeypatch.setattr(export.ANIMATOR, "draw", never_done)
    bot, handle = await run_bot(world)
    try:
        final = await world.emu.wait_until(lambda: final_post(world, thread), timeout=20)
        await world.emu.wait_until(lambda: drawing)  # the final post is out, the animation being drawn
    finally:
        await killed_while(bot, handle, drawing)
    posts = len(world.emu.messages_in(thread))
    assert not replays(world, thread)

    async def stand_in(*_args, **_kwargs):
        return STAND_IN_ANIMATION

    monkeypatch.setattr(export.ANIMATOR, "draw", stand_in)
    bot, handle = await run_bot(world)
    try:
        await world.emu.wait_until(lambda: replays(world, thread), timeout=20)
        assert await settled(bot.store)
        await asyncio.sleep(0.3)
    finally:
        await handle.stop()
    assert len(replays(world, thread)) == 1
    assert len(world.emu.messages_in(thread)) == posts + 1  # the animation, and nothing said again
    assert world.emu.messages_in(thread)[-1] is replays(world, thread)[0]
    assert final_post(world, thread) is final


async def test_an_animation_out_before_the_crash_is_not_posted_again(world, monkeypatch):
    """The crash falls after the animation went out and before the game's settled end was written;
    the restart comes after Discord's nonce window, so only the thread can tell it is out."""
    thread = await a_race_over_behind_the_bots_back(world)

    async def nothing(*_args, **_kwargs):
        return None

    # The end is never recorded as out: patched before the bot starts, as its catch-up may say the
    # end (pictures drawn at once) before a test could patch the running bot's store.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Store, "settle", nothing)
        bot, handle = await run_bot(world)
        try:
            await world.emu.wait_until(lambda: replays(world, thread), timeout=20)
            await bot.store.flush()
        finally:
            await handle.stop()
    posts = [m.content for m in world.emu.messages_in(thread)]
    world.emu.clock.advance(3600)  # the nonce that would keep a repeat once is long forgotten
    store = await Store.open(settings_for(world.tmp_path).database)
    try:
        assert await store.owed(1)  # the catch-up has the end to say
    finally:
        await store.close()
    bot, handle = await run_bot(world)
    try:
        assert await settled(bot.store)
        await asyncio.sleep(0.3)
    finally:
        await handle.stop()
    assert [m.content for m in world.emu.messages_in(thread)] == posts
    assert len(replays(world, thread)) == 1


async def test_the_end_replays_the_log_once_for_its_statistics_and_its_animation(world, monkeypatch):
    """The final post's statistics image and the animation after it come from one replay of the
    log: the animation gets the frames the statistics' replay picked (each replay starts a new game)."""
    thread = await a_race_over_behind_the_bots_back(world)
    store = await Store.open(settings_for(world.tmp_path).database)
    try:
        game, actions = await store.game(1), await store.actions(1)
    finally:
        await store.close()
    frames, whole = export.frame_states(ENGINE, game.options, 2, game.seed, actions)
    drawn: list[tuple] = []

    async def draw(kind, states, complete, names, locale):
        drawn.append((kind, states, complete, names))
        return STAND_IN_ANIMATION

    new_games: list[int] = []
    new_game = ENGINE.new_game

    def counted(*args, **kwargs):
        new_games.append(1)
        return new_game(*args, **kwargs)

    monkeypatch.setattr(export.ANIMATOR, "draw", draw)
    monkeypatch.setattr(ENGINE, "new_game", counted)
    bot, handle = await run_bot(world)
    try:
        await world.emu.wait_until(lambda: replays(world, thread), timeout=20)
        final = final_post(world, thread)
        assert len(final.attachments) == 3  # the board, the results, the statistics
    finally:
        await handle.stop()
    assert whole and drawn == [("heat", frames, True, ["alice", "bob"])]
    assert len(new_games) == 1
