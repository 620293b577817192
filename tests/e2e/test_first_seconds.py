"""Issue #28: kills around a table's first seconds (the lobby post, the thread's creation, right after
Start). After each kill and a restart the table is usable, nothing is posted twice, and nothing is
lost without a word.

Each kill falls at a precise point, in process: the bot's call at that point runs (or not), then the
handler dies as a killed process would (nothing after that point runs, nothing is answered), and the
bot is stopped with no announcement progress left to write; the next bot starts on the same
database and the same emulated Discord."""

from __future__ import annotations

import asyncio

import pytest

from bot.tools.emulator import Emulator

from .conftest import make_world
from tests.e2e.crashes import run_bot, settled, submit_live
from bot.tools.emulator.tables import last, open_table, start


@pytest.fixture
async def world(tmp_path):
    """The e2e world, without the check that every "thinking..." was answered: a kill cuts off the
    command it falls in, and no later process can answer it (Discord then says the application
    did not respond)."""
    async with Emulator() as emu:
        w = make_world(emu)
        w.tmp_path = tmp_path
        yield w
        assert not emu.server_errors, emu.server_errors[0]


def killed_at(monkeypatch, owner, name: str, *, after: bool) -> list[bool]:
    """The bot dies at `owner.name`: before the call, or right after it returns. Returns a list
    that holds True once it has."""
    real = getattr(owner, name)
    died: list[bool] = []

    async def die(*args, **kwargs):
        if after:
            await real(*args, **kwargs)
        died.append(True)
        raise asyncio.CancelledError  # the process is gone: nothing after this point runs

    monkeypatch.setattr(owner, name, die)
    return died


def lobbies(world):
    return [m for m in world.emu.channel_messages(world.general) if m.content.startswith("**")]


def live_lobbies(world):
    return [m for m in lobbies(world) if m.buttons]


async def boards(world, thread, n=1):
    """The thread's board posts, once there are `n`."""
    await world.emu.wait_until(lambda: len([m for m in world.emu.messages_in(thread) if m.attachments]) >= n, 10)
    return [m for m in world.emu.messages_in(thread) if m.attachments]


async def play_on(world, thread):
    """The table is usable: both players' first menus work and the round is played."""
    before = len(await boards(world, thread))
    await submit_live(world, world.alice)
    await submit_live(world, world.bob)
    assert len(await boards(world, thread, before + 1)) == before + 1


async def test_a_kill_before_the_lobby_post_closes_the_table_and_says_so(world, monkeypatch):
    bot, handle = await run_bot(world)
    try:
        died = killed_at(monkeypatch, bot.store, "create_game", after=True)
        await world.emu.slash(world.alice, world.general, "heat", "new", track="usa")
        await world.emu.wait_until(lambda: died)
    finally:
        await handle.stop()
    assert not lobbies(world)
    bot, handle = await run_bot(world)
    try:
        for _ in range(100):  # the start-up sweep looks for the lobby post and closes the table
            if (await bot.store.game(1)).status == "abandoned":
                break
            await asyncio.sleep(0.05)
        assert (await bot.store.game(1)).status == "abandoned"
        told = await world.emu.wait_until(lambda: last(world.emu.dm_messages(world.alice)))
        assert "#1" in told.content and "/heat new" in told.content  # the creator is told
        lobby = await open_table(world, world.alice, world.bob, track="usa")  # and starts again
        thread = await start(world, lobby, world.alice)
        await play_on(world, thread)
    finally:
        await handle.stop()
    assert len(lobbies(world)) == 1 and not live_lobbies(world)


async def test_a_kill_between_the_lobby_post_and_saving_it_keeps_the_table(world, monkeypatch):
    bot, handle = await run_bot(world)
    try:
        died = killed_at(monkeypatch, bot.store, "set_lobby_message", after=False)
        await world.emu.slash(world.alice, world.general, "heat", "new", track="usa")
        await world.emu.wait_until(lambda: died)
    finally:
        await handle.stop()
    [lobby] = lobbies(world)
    bot, handle = await run_bot(world)
    try:
        for _ in range(100):  # the start-up sweep finds the post
            if (await bot.store.game(1)).lobby_message_id == lobby.id:
                break
            await asyncio.sleep(0.05)
        assert (await bot.store.game(1)).lobby_message_id == lobby.id
        await world.emu.click(world.bob, lobby, label="Join")
        await world.emu.wait_until(lambda: f"<@{world.bob.id}>" in world.emu.message(lobby).content)
        thread = await start(world, lobby, world.alice)
        await play_on(world, thread)
    finally:
        await handle.stop()
    assert lobbies(world) == [lobby] and not live_lobbies(world)
    assert len(world.emu.threads(world.general)) == 1


async def test_a_kill_while_the_thread_is_opened_starts_in_that_thread(world, monkeypatch):
    bot, handle = await run_bot(world)
    try:
        lobby = await open_table(world, world.alice, world.bob, track="usa")
        died = killed_at(monkeypatch, bot.table.out, "open_thread", after=True)
        await world.emu.click(world.alice, lobby, label="Start")
        await world.emu.wait_until(lambda: died)
    finally:
        await handle.stop()
    [thread] = world.emu.threads(world.general)  # Discord opened it; the start was never stored
    assert not world.emu.messages_in(thread)
    bot, handle = await run_bot(world)
    try:
        assert (await bot.store.game(1)).status == "lobby"
        assert world.emu.message(lobby).buttons  # Start is still there: the creator presses it again
        await world.emu.click(world.alice, lobby, label="Start")
        await play_on(world, thread)
    finally:
        await handle.stop()
    assert world.emu.threads(world.general) == [thread]
    assert len([m for m in world.emu.messages_in(thread) if "The game begins!" in m.content]) == 1
    assert not live_lobbies(world) and not [m for m in world.emu.channel_messages(world.general) if m.attachments]


async def test_a_kill_right_after_the_start_is_stored_announces_it_once(world, monkeypatch):
    bot, handle = await run_bot(world)
    try:
        lobby = await open_table(world, world.alice, world.bob, track="usa")
        died = killed_at(
            monkeypatch, bot.table.lobbies, "edit", after=False
        )  # the start's first step after it is stored
        await world.emu.click(world.alice, lobby, label="Start")
        await world.emu.wait_until(lambda: died)
    finally:
        await handle.stop()
    [thread] = world.emu.threads(world.general)
    assert not world.emu.messages_in(thread)
    bot, handle = await run_bot(world)
    try:
        assert await settled(bot.store)
        [board] = await boards(world, thread)
        assert "The game begins!" in board.content
        await world.emu.wait_until(lambda: not world.emu.message(lobby).buttons)  # no live Join/Start left
        await play_on(world, thread)
    finally:
        await handle.stop()
    assert len([m for m in world.emu.messages_in(thread) if "The game begins!" in m.content]) == 1


async def test_a_kill_right_after_the_starts_post_says_nothing_twice(world, monkeypatch):
    bot, handle = await run_bot(world)
    try:
        lobby = await open_table(world, world.alice, world.bob, track="usa")

        async def nothing(*_args, **_kwargs):
            return None

        monkeypatch.setattr(bot.store, "settle", nothing)  # killed before its progress was written
        monkeypatch.setattr(bot.store, "mark_sent", nothing)
        thread = await start(world, lobby, world.alice)
        for user in (world.alice, world.bob):
            await world.emu.wait_until(lambda: last(world.emu.dm_messages(user), lambda m: m.selects))
    finally:
        await handle.stop()
    posts = [m.content for m in world.emu.messages_in(thread)]
    dms = {u: len(world.emu.dm_messages(u)) for u in (world.alice, world.bob)}
    bot, handle = await run_bot(world)
    try:
        assert await settled(bot.store)
        await asyncio.sleep(0.3)
        assert [m.content for m in world.emu.messages_in(thread)] == posts  # the board is not posted again
        assert {u: len(world.emu.dm_messages(u)) for u in (world.alice, world.bob)} == dms  # nor the menus
        await play_on(world, thread)
    finally:
        await handle.stop()
