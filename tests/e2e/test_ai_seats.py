"""Issue #34: AI seats. `/<game> new ai:N ai_level:...` seats N players the bot plays: the lobby and
the thread name them (never a mention of a user that is not there), they are never sent a DM, and
a lone player plays every game to the end against them through the real bot."""

from __future__ import annotations

import asyncio

import pytest

from bot.tools.emulator.errors import EmulatorError
from bot.games.registry import engines

from tests.e2e.watch import GAMES
from bot.tools.emulator.tables import last, open_table, start

ENGINES = engines()


async def over(bot) -> bool:
    return (await bot.store.game(1)).status == "finished"


async def play_alone(w, kind: str, ai: int, level: str):
    """alice and `ai` AI seats, seeded, to the end; returns the thread."""
    emu, bot = w.emu, w.bot
    options, seed, cast = GAMES[kind]
    bot.table.lobbies.new_seed = lambda: seed
    lobby = await open_table(w, w.alice, kind=kind, ai=ai, ai_level=level, **options)
    text = emu.message(lobby).content
    assert all(f"**AI {k}**" in text for k in range(1, ai + 1)) and f"AI seats play {level}" in text, text
    thread = await start(w, lobby, w.alice)
    alice = cast[0][1](emu, w.alice, "select", 1, kind)
    idle = 0
    for _ in range(3000):
        if await over(bot):
            break
        try:
            acted = await alice.act(thread)
        except EmulatorError:  # the menu lost its controls as a newer one came: look again
            acted = False
        await bot.table.drain(20)
        idle = 0 if acted else idle + 1
        if not acted:
            assert idle < 400, f"{kind}: nothing moves; {alice.describe()}"
            await asyncio.sleep(0.05)  # the AI seats think
    assert await over(bot), f"{kind}: the game did not end"
    assert not [e for e in alice.errors if "went wrong" in e], alice.errors
    return thread


@pytest.mark.parametrize("kind", sorted(GAMES))
async def test_a_lone_player_plays_every_game_to_the_end_against_ai_seats(table, kind):
    w, emu = table, table.emu
    ai = 2 if kind in ("pon", "steamworks") else 1
    thread = await play_alone(w, kind, ai, "easy")
    game = await w.bot.store.game(1)
    assert [s.ai for s in game.seats] == [None] + ["easy"] * ai
    everything = emu.channel_messages(w.general) + emu.messages_in(thread)
    assert not [m.content for m in everything if "<@-" in m.content]  # AI seats are named, never mentioned
    assert all(u > 0 for m in everything for u in m.mentions)
    assert ENGINES[kind].placings(game.snapshot) is not None


async def test_a_table_refuses_more_ai_seats_than_it_has_and_changes_nothing(table):
    w, emu = table, table.emu
    rec = await emu.slash(w.alice, w.general, "pon", "new", ai=4)
    await emu.wait_until(lambda: rec.followups)
    assert "at most 3 of them can be AI seats" in rec.followups[0].content
    assert await w.bot.store.game(1) is None and not emu.channel_messages(w.general)


async def test_people_join_beside_ai_seats_and_the_ai_never_gets_a_dm(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, kind="pon", ai=1, ai_level="normal")
    text = emu.message(lobby).content
    assert f"<@{w.alice.id}>, **AI 1**, <@{w.bob.id}>" in text and "AI seats play normal" in text, text
    thread = await start(w, lobby, w.alice)
    game = await w.bot.store.game(1)
    assert [(s.ai, s.auto) for s in game.seats] == [(None, False), ("normal", True), (None, False)]
    assert emu.dm_messages(w.alice) and emu.dm_messages(w.bob)
    board = last(emu.messages_in(thread), lambda m: m.attachments)
    assert "<@-" not in board.content
