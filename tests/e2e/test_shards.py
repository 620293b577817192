"""Two bot processes, one PostgreSQL store, one emulator: shard 0 and shard 1 of 2, a PON table
in a guild of each (three players at each). DM clicks reach shard 0's process (as on Discord), which serves the other
guild's game too; shard 0's process is killed mid-game while the other game goes on by /pon
play in its thread; started again, it catches up what it owed, and
both games finish. Every public line of every move is in its thread exactly as many times as
the moves said it: nothing lost, nothing doubled."""

from __future__ import annotations

import asyncio
from collections import Counter
from types import SimpleNamespace

from bot.delivery import Outcome, words
from bot.tools.emulator import Emulator
from bot.tools.emulator.testing import BotProcess
from bot.games.registry import engines
from bot.i18n import msg
from bot.store import PromptUpdate, Store
from bot.table import menu_hash
from tests.core.stores import database_for

from . import standins
from .conftest import read_row
from bot.tools.emulator.players import Player, play_until
from bot.tools.emulator.tables import open_table, start


class SlashPlayer(Player):
    """Moves by /pon play in the game's thread (a guild interaction: routed to the guild's shard),
    whether or not a DM asks: the DMs of shard 0's process may be down."""

    async def act(self, thread) -> bool:
        return await self.by_slash(thread)


def version(url: str, gid: int) -> int:
    return read_row(url, f"SELECT version FROM games WHERE id = {gid}")[0]


def status(url: str, gid: int) -> str:
    return read_row(url, f"SELECT status FROM games WHERE id = {gid}")[0]


def owed(url: str, gid: int | None = None) -> int:
    return read_row(url, "SELECT count(*) FROM owed" + (f" WHERE game_id = {gid}" if gid else ""))[0]


async def commit_unsaid(url: str, gid: int) -> None:
    """One move of a waiting seat, committed with the announcement it owes (as the table does)."""
    store = await Store.open(url)
    try:
        game = await store.game(gid)
        engine = engines()[game.kind]
        seat = engine.to_act(game.snapshot)[0]
        action = engine.legal_actions(game.snapshot, seat)[0]
        state, events = engine.apply(game.snapshot, seat, action)
        seats = [s.seat for s in game.seats]
        outcome = Outcome(game, state, events, seats, board=True, actor=seat, versions=[game.version + 1])
        await store.commit_move(
            gid,
            game.version,
            seat,
            action,
            state,
            engine.is_over(state),
            [PromptUpdate(s, menu_hash(engine.menu(state, s))) for s in seats],
            outcome.to_json(),
            engine.to_act(state),
        )
    finally:
        await store.close()


async def expected_lines(url: str, gid: int) -> Counter[str]:
    """The public lines the game's moves said, replayed from its action log."""
    store = await Store.open(url)
    try:
        game = await store.game(gid)
        engine = engines()[game.kind]
        names = [s.name for s in game.seats]
        state = engine.new_game(game.options, len(game.seats), game.seed)
        lines = [words(msg("The game begins!"), names, "en"), words(msg("The game is over."), names, "en")]
        for seat, action in await store.actions(gid):
            state, events = engine.apply(state, seat, action)
            lines += [words(e.text, names, "en") for e in events if e.to is None]
        assert engine.is_over(state)
    finally:
        await store.close()
    return Counter(line for text in lines for line in text.split("\n") if line.strip())


async def test_two_processes_one_killed_mid_game_every_game_finishes_once(tmp_path):
    url = await database_for("postgresql", tmp_path)  # one store for both processes
    async with Emulator(shards=2) as emu:
        tables = []
        people = [[emu.add_user(n) for n in trio] for trio in (("alice", "bob", "carol"), ("dave", "erin", "frank"))]
        for shard in (0, 1):
            guild = emu.add_guild(f"guild {shard}", shard=(shard, 2))
            general = emu.add_text_channel(guild, "general")
            for user in (u for trio in people for u in trio):
                emu.add_member(guild, user)
            tables.append(SimpleNamespace(emu=emu, guild=guild, general=general))
        procs = [
            BotProcess(
                emu,
                standins.BOT_ARGV,
                env={
                    "BOT_STATE_DIR": str(tmp_path / f"state{n}"),
                    "BOT_DATABASE": url,
                    "BOT_SHARDS": f"{n}/2",
                    "BOT_LOG_LEVEL": "INFO",
                    "BOT_CATCH_UP_SWEEP": "2s",
                },
            )
            for n in (0, 1)
        ]
        try:
            for proc in procs:
                await proc.start(timeout=60)
            await emu.wait_for_commands()
            assert sorted(emu.gateway.sessions) == [(0, 2), (1, 2)]
            threads = []
            for w, (a, *others) in zip(tables, people):
                lobby = await open_table(w, a, *others, kind="pon")
                threads.append(await start(w, lobby, a))
            games = {0: 1, 1: 2}  # game ids: the table in guild 0 first
            by_dm = [
                [Player(emu, u, "select", 10 * n + i, "pon") for i, u in enumerate(trio)]
                for n, trio in enumerate(people)
            ]

            # 1. both up: moves by DM (shard 0's process serves guild 1's game too)
            for n in (0, 1):
                await play_until(by_dm[n], threads[n], lambda: version(url, games[n]) >= 4)

            # 2. shard 0's process dies mid-game (SIGKILL), between two moves of its game. (Killed
            # while a move's lines are being added to the turn's log message, a restart can say
            # them twice: that edit carries no nonce. See bot/delivery.py; not a shard matter.)
            before = version(url, games[0])
            slashers = [
                [SlashPlayer(emu, u, "slash", 50 + 10 * n + i, "pon") for i, u in enumerate(trio)]
                for n, trio in enumerate(people)
            ]
            await play_until(slashers[0], threads[0], lambda: version(url, games[0]) > before)
            await emu.wait_until(lambda: owed(url) == 0, timeout=20)  # said, and its progress written
            procs[0].proc.kill()
            await procs[0].proc.wait()
            # ... and as if the kill had come between a move's commit and its announcement: the
            # move is in the database, owed, and nothing of it reached Discord
            await commit_unsaid(url, games[0])
            left_owing = owed(url, games[0])
            assert left_owing == 1

            # 3. meanwhile the other guild's game goes on (its thread's commands reach shard 1)
            mark = version(url, games[1])
            await play_until(
                slashers[1],
                threads[1],
                lambda: version(url, games[1]) >= mark + 4 or status(url, games[1]) == "finished",
            )
            assert owed(url, games[0]) == left_owing  # not shard 1's to say

            # 4. started again: it catches up, and both games finish
            await procs[0].start(timeout=60)
            assert emu.gateway.connected
            finishers = [
                [Player(emu, u, "select", 90 + 10 * n + i, "pon") for i, u in enumerate(trio)]
                for n, trio in enumerate(people)
            ]
            for n in (0, 1):
                await play_until(finishers[n], threads[n], lambda: status(url, games[n]) == "finished", max_steps=3000)
            await emu.wait_until(lambda: owed(url) == 0, timeout=30)
            await asyncio.sleep(1.0)  # anything sent twice would have arrived by now

            for n in (0, 1):
                want = await expected_lines(url, games[n])
                assert sum(want.values()) > 10  # a whole game's worth of lines
                said = Counter(line for m in emu.messages_in(threads[n]) for line in m.content.split("\n"))
                assert {line: said[line] for line in want} == dict(want), f"game {games[n]}"
                nonces = [m.nonce for m in emu.messages_in(threads[n]) if m.nonce]
                assert len(nonces) == len(set(nonces))
            for user in (u for trio in people for u in trio):  # no DM twice either
                nonces = [m.nonce for m in emu.dm_messages(user) if m.nonce]
                assert nonces and len(nonces) == len(set(nonces)), user.name
            for proc in procs:
                assert "Traceback" not in proc.output(), proc.output()[-3000:]
        except BaseException:  # what the processes and the emulator saw last, to tell why
            for n, proc in enumerate(procs):
                print(f"--- shard {n}'s process:\n{proc.output()[-4000:]}")
            print([(r["method"], r["path"], r.get("status")) for r in emu.rest_log[-15:]])
            print([(r.data, r.error, r.acked) for r in emu.interaction_records[-5:]])
            print("owed:", read_row(url, "SELECT array_agg(game_id || ':' || version || ':' || sent) FROM owed"))
            raise
        finally:
            for proc in procs:
                await proc.stop()


async def test_one_process_running_two_shards_serves_both(tmp_path):
    """BOT_SHARDS=0-1/2 in one process: a session per shard, each guild's table served."""
    from dataclasses import replace

    from bot.app import create_bot
    from bot.config import Shards
    from bot.tools.emulator.testing import start_bot_in_process

    from .conftest import settings_for

    async with Emulator(shards=2) as emu:
        tables = []
        people = [emu.add_user(n) for n in ("alice", "bob", "carol")]
        for shard in (0, 1):
            guild = emu.add_guild(f"guild {shard}", shard=(shard, 2))
            general = emu.add_text_channel(guild, "general")
            for user in people:
                emu.add_member(guild, user)
            tables.append(SimpleNamespace(emu=emu, guild=guild, general=general))
        bot = create_bot(replace(settings_for(tmp_path), shards=Shards(0, 1, 2)))
        handle = await start_bot_in_process(emu, bot, timeout=30)
        try:
            await emu.wait_until(lambda: len(emu.gateway.sessions) == 2 and emu.gateway.connected, timeout=30)
            assert sorted(emu.gateway.sessions) == [(0, 2), (1, 2)] and bot.shard_ids == [0, 1]
            await emu.wait_for_commands()
            for w in tables:
                lobby = await open_table(w, *people, kind="pon")
                thread = await start(w, lobby, people[0])
                assert thread.guild_id == w.guild.id
            assert bot.store.shards == Shards(0, 1, 2)
        finally:
            await handle.stop()
