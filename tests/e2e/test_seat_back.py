"""Issue #27, taking a seat back, for every game and each of the three ways: the table votes an
absent seat to the automatic player, it moves for the seat, and its owner takes it back by the
hand-over DM's button, by /game back, or by a move of theirs (a /play pick from before the
hand-over: the automatic player has moved since).
Afterwards the seat is the owner's, the thread said so once, the hand-over DM's button is gone,
and a waiting owner's newest DM acts on the current decision."""

from __future__ import annotations

import asyncio
import re

import pytest

from bot.app import create_bot
from bot.tools.emulator.testing import start_bot_in_process
from bot.games.registry import engines

from .conftest import settings_for
from bot.tools.emulator.players import Player
from bot.tools.emulator.tables import open_table, start

ENGINES = engines()
GAMES = {
    "heat": {"track": "usa"},
    "pon": {},
    "pole": {"circuit": "monaco"},
    "rallyman": {"stage": "Rally4 SS1"},
    "steamworks": {},
}
_MOVE_ID = re.compile(r"mv:1:([0-9]+):([0-9]+):")


async def state(bot):
    game = await bot.store.game(1)
    return game, ENGINES[game.kind].to_act(game.snapshot)


def live_menu(emu, user):
    return [
        m
        for m in emu.dm_messages(user)
        if m.components and not m.deleted and any(_MOVE_ID.match(c.get("custom_id", "")) for c in m.all_components())
    ]


@pytest.mark.parametrize("way", ["button", "command", "move"])
@pytest.mark.parametrize("kind", sorted(GAMES))
async def test_an_absent_seat_is_taken_back(world, kind, way):
    emu = world.emu
    bot = create_bot(settings_for(world.tmp_path, reminder_seconds=0.5))
    handle = await start_bot_in_process(emu, bot)
    try:
        await emu.wait_for_commands()
        users = [world.alice, world.bob, world.carol][: 3 if kind == "pon" else 2]
        lobby = await open_table(world, *users, kind=kind, **GAMES[kind])
        thread = await start(world, lobby, world.alice)
        # the others move until one seat alone is waited for: it is the absent one
        players = {u.id: Player(emu, u, "select", i, kind) for i, u in enumerate(users)}
        game, waiting = await state(bot)
        while len(waiting) > 1:
            await emu.wait_until(lambda: players[game.seats[waiting[0]].user_id].has_new_dm())
            await players[game.seats[waiting[0]].user_id].act(thread)
            await bot.table.drain()
            game, waiting = await state(bot)
        absent = game.seats[waiting[0]]
        owner = emu.user(absent.user_id)
        picks = await emu.autocomplete(owner, thread, kind, "play", focused="move", move="")
        voters = [u for u in users if u.id != owner.id]
        vote = (
            await emu.wait_until(
                lambda: [m for m in emu.messages_in(thread) if "has not moved" in m.content and m.buttons], timeout=10
            )
        )[-1]
        bot.table.reminder_seconds = 3600  # no more reminders while the test looks
        for i, user in enumerate(voters[: len(voters) // 2 + 1]):
            rec = await emu.click(user, vote, label="Let the automatic player move")
            if i == 0 and len(voters) > 1:  # a vote of two: the first voter's second click is told so
                await emu.wait_until(lambda: rec.followups)
                again = await emu.click(user, vote, label="Let the automatic player move")
                await emu.wait_until(lambda: again.followups)
                assert "already voted" in again.followups[0].content, again.followups[0].content
        handover = (
            await emu.wait_until(
                lambda: [m for m in emu.dm_messages(owner) if "Take my seat back" in m.button_labels], timeout=10
            )
        )[-1]
        assert "/game back" in handover.content and "play" in handover.content  # says how to come back
        version = game.version
        for _ in range(100):  # the automatic player moves for the seat
            game, _waiting = await state(bot)
            if game.version > version:
                break
            await asyncio.sleep(0.05)
        assert game.version > version and game.seats[absent.seat].auto

        if way == "button":
            rec = await emu.click(owner, handover, label="Take my seat back")
        elif way == "command":
            rec = await emu.slash(owner, thread, "game", "back")
        else:
            rec = await emu.slash(owner, thread, kind, "play", move=picks[0]["value"])
        await emu.wait_until(lambda: rec.followups or rec.menu_spent, timeout=10)
        await bot.table.drain()
        game, waiting = await state(bot)
        assert not game.seats[absent.seat].auto
        assert len([m for m in emu.messages_in(thread) if "is back" in m.content]) == 1
        assert "Take my seat back" not in emu.message(handover).button_labels  # its work is done
        if absent.seat in waiting:  # the owner's newest controls act on the current decision
            newest = live_menu(emu, owner)[-1]
            versions = {
                int(m[1]) for m in (_MOVE_ID.match(c.get("custom_id", "")) for c in newest.all_components()) if m
            }
            assert versions == {game.seats[absent.seat].prompt_version}, (versions, newest.content)
        rec = await emu.slash(owner, thread, "game", "back")  # again: nothing to take back, said plainly
        await emu.wait_until(lambda: rec.followups)
        assert "already play your own seat" in rec.followups[-1].content
    finally:
        await handle.stop()
