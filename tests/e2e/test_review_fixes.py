"""Guards found in review: other servers, missing permissions, unchanged menus, private events,
and a crash between the commit and its announcement."""

from __future__ import annotations

import asyncio

from bot.app import create_bot
from bot.tools.emulator.model import ATTACH_FILES, CREATE_PUBLIC_THREADS, DEFAULT_EVERYONE, MANAGE_THREADS
from bot.tools.emulator.testing import start_bot_in_process
from bot.delivery import Outcome, words
from bot.store import PromptUpdate, Store

from .conftest import settings_for
from bot.tools.emulator.tables import open_table, start


async def test_another_server_cannot_reach_a_game(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    await start(w, lobby, w.alice)
    other = emu.add_guild("Elsewhere")
    room = emu.add_text_channel(other, "room")
    mods = emu.add_role(other, "Mods", MANAGE_THREADS)
    stranger = emu.add_user("stranger")
    emu.add_member(other, stranger, roles=[mods])
    for path, kwargs in (
        (("game", "abandon"), {"game": 1}),
        (("game", "status"), {"game": 1}),
        (("game", "log"), {"game": 1}),
        (("heat", "join"), {"game": 1}),
    ):
        rec = await emu.slash(stranger, room, *path, **kwargs)
        await emu.wait_until(lambda: rec.followups)
        assert "can't find" in rec.followups[0].content and rec.followups[0].ephemeral, path
    assert (await w.bot.store.game(1)).status == "active"


async def test_a_table_needs_the_bot_permissions(world):
    emu = world.emu
    limited = DEFAULT_EVERYONE & ~CREATE_PUBLIC_THREADS & ~ATTACH_FILES
    bare = emu.add_guild("Bare", owner=world.alice, everyone_permissions=limited, bot_permissions=limited)
    room = emu.add_text_channel(bare, "room")
    bot = create_bot(settings_for(world.tmp_path))
    handle = await start_bot_in_process(emu, bot)
    try:
        await emu.wait_for_commands()
        rec = await emu.slash(world.alice, room, "heat", "new", track="usa")
        await emu.wait_until(lambda: rec.followups)
        text = rec.followups[0].content
        assert rec.followups[0].ephemeral and "create public threads" in text and "attach files" in text
        assert emu.channel_messages(room) == [] and await bot.store.game(1) is None
    finally:
        await handle.stop()


async def test_resubmitting_the_same_cards_is_answered_and_changes_nothing(table):
    """The same cards sent twice (a second click, or /heat play after the select): the second time
    she is told they are in already; no new version, no new DM, her menu stays as it was."""
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    await start(w, lobby, w.alice)
    dm = await emu.wait_until(lambda: [m for m in emu.dm_messages(w.alice) if m.selects][-1:])
    value = dm[0].selects[0]["options"][0]["value"]
    first = await emu.select(w.alice, dm[0], [value], custom_id=dm[0].selects[0]["custom_id"])
    await emu.wait_until(lambda: first.menu_spent and emu.message(dm[0].id).selects)
    once = emu.message(dm[0].id).selects[0]["custom_id"]
    version = (await w.bot.store.game(1)).version
    dms = len(emu.dm_messages(w.alice))
    again = await emu.select(w.alice, dm[0], [value], custom_id=once)  # the same cards again
    await emu.wait_until(lambda: again.followups)
    assert "already in" in again.followups[0].content and again.followups[0].ephemeral
    assert (await w.bot.store.game(1)).version == version and len(emu.dm_messages(w.alice)) == dms
    assert emu.message(dm[0].id).selects[0]["custom_id"] == once  # still her menu: she may change them


async def test_every_player_gets_the_private_deal(table):
    w, emu = table, table.emu
    w.bot.table.lobbies.new_seed = lambda: 12345
    lobby = await open_table(w, w.alice, w.bob, w.carol, kind="pon")
    await start(w, lobby, w.alice)
    # the peeks: each player in turn picks a course in their DM
    for _ in range(3):
        game = await w.bot.store.game(1)
        waiting = w.bot.table.engines["pon"].to_act(game.snapshot)
        if not waiting:
            break
        seat = game.seats[waiting[0]]
        user = next(u for u in (w.alice, w.bob, w.carol) if u.id == seat.user_id)
        current = f"mv:1:{seat.prompt_version}:{seat.seat}:s"

        def peek_select():
            return [
                (m, x)
                for m in emu.dm_messages(user)
                for x in m.selects
                if x["custom_id"].startswith(current) and not x["placeholder"].startswith("Preferences")
            ]

        message, peek = (await emu.wait_until(peek_select))[-1]
        rec = await emu.select(user, message, [peek["options"][0]["value"]], custom_id=peek["custom_id"])
        await emu.wait_until(lambda: rec.menu_spent)
    for user in (w.alice, w.bob, w.carol):
        await emu.wait_until(lambda: any("Your hand:" in m.content for m in emu.dm_messages(user)))


async def test_a_move_left_unannounced_by_a_crash_is_announced_after_restart(world):
    emu = world.emu
    settings = settings_for(world.tmp_path)
    bot = create_bot(settings)
    handle = await start_bot_in_process(emu, bot)
    await emu.wait_for_commands()
    lobby = await open_table(world, world.alice, world.bob, track="usa")
    thread = await start(world, lobby, world.alice)
    await handle.stop()
    # The crash: two moves reached the database (each owing its announcement), but neither the
    # thread nor the DMs.
    store = await Store.open(settings.database)
    game = await store.game(1)
    engine = bot.table.engines["heat"]
    state = game.snapshot
    lines = []
    for seat in (0, 1):
        action = next(a for a in engine.legal_actions(state, seat) if a["type"] == "submit")
        state, events = engine.apply(state, seat, action)
        game = await store.game(1)
        lines.append([e.text for e in events if e.to is None])
        outcome = Outcome(game, state, events, [0, 1], board=seat == 1, actor=seat)
        await store.commit_move(
            1,
            game.version,
            seat,
            action,
            state,
            False,
            [PromptUpdate(s, "changed") for s in (0, 1)],
            outcome.to_json(),
            to_act=engine.to_act(state),
        )
    await store.clocks.set_timers(1, "remind", set(), {})  # and its reminders were lost
    await store.close()
    posts = len(emu.messages_in(thread))
    bot = create_bot(settings)
    handle = await start_bot_in_process(emu, bot)
    try:
        again = await emu.wait_until(lambda: [m for m in emu.messages_in(thread)[posts:] if m.attachments])
        text = again[0].content
        assert all(words(line, ["alice", "bob"], "en") in text for line in lines[0] + lines[1]), text
        # named, not pinged: each of them is told by the DM that holds their moves
        assert f"<@{world.alice.id}>" in text and f"<@{world.bob.id}>" in text and not again[0].mentions
        await emu.wait_until(
            lambda: [
                m for m in emu.dm_messages(world.bob) if m.selects and m.selects[0]["custom_id"].startswith("mv:1:2:")
            ]
        )
        for _ in range(100):  # settled once every part is out; timers given back on ready
            if not await bot.store.owed(1) and await bot.store.clocks.timer_seats(1, "remind"):
                break
            await asyncio.sleep(0.05)
        assert await bot.store.owed(1) == []
        assert await bot.store.clocks.timer_seats(1, "remind") == {0, 1}
        assert len(emu.messages_in(thread)) == posts + 1  # one post: the missed lines and the board
    finally:
        await handle.stop()
