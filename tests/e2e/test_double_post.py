"""Issue #28: a thread post that went out before a crash is recognised by the catch-up, however
the catch-up groups the owed versions: no post twice, no player pinged twice.

The crash falls between the post and its saved progress (written behind, half a second later):
here the progress is never written, the bot is stopped, and the catch-up after the restart finds
every owed version still unsaid in the database though Discord has them all."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import Store

from .conftest import settings_for
from bot.tools.emulator.players import Player
from tests.e2e.crashes import run_bot, settled
from bot.tools.emulator.tables import open_table, start


async def nothing(*_args, **_kwargs):
    return None


@pytest.mark.parametrize("how", ["dm", "ping"])
async def test_a_post_out_before_the_crash_is_not_posted_again(world, how):
    """PON (seed 23): the owed versions span two posts, the last one a post whose last line is
    "Waiting for" someone, and end with moves that edited it. The catch-up merges them all (its last
    version is not the post's), so only the thread can tell they are out. With /notify ping, the
    thread pings each new decision: none is pinged twice."""
    bot, handle = await run_bot(world)
    emu = world.emu
    for user in (world.alice, world.bob, world.carol):
        rec = await emu.slash(user, world.general, "notify", how=how)
        await emu.wait_until(lambda: rec.followups)
    bot.table.lobbies.new_seed = lambda: 23
    lobby = await open_table(world, world.alice, world.bob, world.carol, kind="pon")
    thread = await start(world, lobby, world.alice)
    players = [Player(emu, user, "select", n, "pon") for n, user in enumerate((world.alice, world.bob, world.carol), 1)]
    try:
        moves = 0
        while moves < 10:  # into the first course: its post gathers the turns
            moves += sum([await p.act(thread) for p in players])
            await asyncio.sleep(0.1)
        await bot.table.drain()
        assert await settled(bot.store)
        posts = len(emu.messages_in(thread))
        bot.store.settle = bot.store.mark_sent = nothing  # from here on, no progress reaches the database
        after = 0
        while len(emu.messages_in(thread)) == posts or after < 2:  # a new post, and moves after it
            if len(emu.messages_in(thread)) > posts:
                after += 1
            assert sum([await p.act(thread) for p in players]) or await emu.wait_until(
                lambda: any(p.has_new_dm() for p in players), timeout=10
            )
            await bot.table.drain()
        await asyncio.sleep(0.3)
    finally:
        await handle.stop()
    owed = [m.content for m in emu.messages_in(thread)]
    pinged = [m.mentions for m in emu.messages_in(thread)]
    assert owed[-1].rpartition("\n")[2].startswith("Waiting for: <@")
    store = await Store.open(settings_for(world.tmp_path).database)  # read before the restarted bot's catch-up
    try:
        assert len(await store.owed(1)) >= 3  # the catch-up has several versions to say
    finally:
        await store.close()
    bot, handle = await run_bot(world)
    try:
        assert await settled(bot.store)
        await asyncio.sleep(0.5)
    finally:
        await handle.stop()
    assert len(emu.messages_in(thread)) == len(owed), emu.messages_in(thread)[-1].content  # no post twice
    assert [m.content for m in emu.messages_in(thread)] == owed
    if how == "ping":
        assert pinged and pinged == [m.mentions for m in emu.messages_in(thread)]


async def test_a_post_saying_again_what_an_earlier_one_said_is_not_taken_for_it(world):
    """Issue #28 (the campaign's seed 28, Heat): after a restart the bot has no round post in
    memory, so a player's "is ready" line goes out as a post of its own. Two rounds later, after
    another restart, the very same post (the same line, the same player waited for) is a new
    post: Discord keeps a nonce for minutes, and a nonce made of the text alone had it return the
    earlier message, so the line was lost (and the next edit went to that old message)."""
    from tests.e2e.crashes import submit_live
    from bot.tools.emulator.tables import last

    bot, handle = await run_bot(world)
    emu = world.emu
    lobby = await open_table(world, world.alice, world.bob, track="usa")
    thread = await start(world, lobby, world.alice)
    ready = []
    try:
        for _ in range(2):
            await handle.stop()
            bot, handle = await run_bot(world)  # no round post in memory
            posts = len(emu.messages_in(thread))
            await submit_live(world, world.alice)
            ready.append(await emu.wait_until(lambda: last(emu.messages_in(thread)[posts:])))
            boards = len([m for m in emu.messages_in(thread) if m.attachments])
            await submit_live(world, world.bob)  # the round is played: a new board
            await emu.wait_until(lambda: len([m for m in emu.messages_in(thread) if m.attachments]) > boards)
            assert await settled(bot.store)
    finally:
        await handle.stop()
    assert ready[0].id != ready[1].id
    assert "alice is ready" in emu.message(ready[1]).content
    assert len([m for m in emu.messages_in(thread) if "alice is ready" in m.content]) == 2


async def test_a_move_out_before_the_crash_under_a_notice_is_not_said_again(world):
    """The crash falls after a move's post went out whole and before its progress was written, and
    the thread's newest message from the bot is not the game's post (a notice came after it): the
    catch-up, finding every line out, has nothing to post (it posted a bare "Waiting for" line, a
    post saying nothing new, seen twice in the campaign of seed 28)."""
    from tests.e2e.crashes import submit_live
    from bot.tools.emulator.tables import last

    bot, handle = await run_bot(world)
    emu = world.emu
    try:
        lobby = await open_table(world, world.alice, world.bob, world.carol, track="usa")
        thread = await start(world, lobby, world.alice)
        bot.store.settle = bot.store.mark_sent = nothing  # the progress never reaches the database
        await submit_live(world, world.alice)
        await emu.wait_until(lambda: last(emu.messages_in(thread), lambda m: "alice is ready" in m.content))
        await asyncio.sleep(0.3)
    finally:
        await handle.stop()
    emu.messaging.create(emu.channel(thread.id), emu.bot, {"content": "<@1>, I cannot DM you."})  # a notice after it
    posts = [m.content for m in emu.messages_in(thread)]
    bot, handle = await run_bot(world)
    try:
        assert await settled(bot.store)
        await asyncio.sleep(0.3)
    finally:
        await handle.stop()
    assert [m.content for m in emu.messages_in(thread)] == posts, [
        (len(m.attachments), m.content) for m in emu.messages_in(thread)
    ]


async def test_two_posts_with_no_line_for_two_decisions_are_two_posts():
    """A post with no line of its own (a ping for a new decision, a title and "Waiting for") says
    the same for two decisions minutes apart: its nonce carries the newest version it covers, so
    Discord does not take the second for the first (and the player is pinged for each)."""
    from bot.delivery import Delivery, Outcome, Sent
    from bot.games.registry import engines
    from bot.store import Game, Seat

    table = engines()
    heat = table["heat"]
    state = heat.new_game(heat.validate_options({}, 2), 2, 5)
    seats = [Seat(s, 100 + s, f"p{s}", dm_ok=False, prompt_version=0, prompt_hash="") for s in (0, 1)]
    nonces: list[str] = []
    posts: list[str] = []

    class Sending(Delivery):
        async def _send(self, game, content, kwargs):
            nonces.append(kwargs["nonce"])
            posts.append(content)
            return Sent.OUT, None

    out = Sending(None, None, table)  # type: ignore[arg-type]
    for version in (5, 7):
        game = Game(1, "heat", 1, 2, 3, None, 9, "active", {}, 5, version, state, seats=seats)
        told = Outcome(game, state, [], [0, 1], board=False, versions=[version], decided=[0, 1])
        assert await out.post_outcome(told, heat, ["p0", "p1"]) is Sent.OUT
    assert len(posts) == 2 and posts[0] == posts[1] and "Waiting for: <@100>, <@101>" in posts[0]
    assert nonces[0] != nonces[1]
