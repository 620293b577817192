"""`python -m bot bench`: the performance figures, one per line as `name: value unit`.

Everything runs on this machine: the real bot against the local emulator on 127.0.0.1, a real
SQLite file in a temporary folder. Targets (issue #2/#3): ack p95 <= 30 ms, board p95 <= 150 ms,
commit_ratio <= 2, 1,000 games <= 400 MB, heat races >= 200/s, heat render p95 <= 40 ms, <= 600 KB.
"""
from __future__ import annotations

import asyncio
import gc
import math
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from bot.config import load_settings


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, max(0, math.ceil(p / 100 * len(values)) - 1))]


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def emit(name: str, value: float, unit: str) -> None:
    print(f"{name}: {value:.2f} {unit}" if isinstance(value, float) else f"{name}: {value} {unit}", flush=True)


async def bot_figures(tmp: Path, rounds: int) -> None:
    from bot.app import create_bot
    from bot.emulator import Emulator
    from bot.emulator.testing import start_bot_in_process
    import random

    settings = replace(load_settings({"BOT_STATE_DIR": str(tmp)}, None), log_level="WARNING")
    async with Emulator() as emu:
        emu.settle_delay = 0  # time the acknowledgement itself, not the harness' grace period
        guild = emu.add_guild("Bench")
        channel = emu.add_text_channel(guild, "table")
        users = [emu.add_user(f"p{i}") for i in range(6)]
        for u in users:
            emu.add_member(guild, u)
        bot = create_bot(settings)
        handle = await start_bot_in_process(emu, bot)
        try:
            await emu.wait_for_commands()
            acks = []
            for _ in range(60):
                start = time.perf_counter()
                rec = await emu.slash(users[0], channel, "games")
                acks.append((time.perf_counter() - start) * 1000)
                assert rec.acked
            emit("ack_ms_p50", statistics.median(acks), "ms")
            emit("ack_ms_p95", pct(acks, 95), "ms")

            # A 6-player Heat race: time from the last submission of a round to the new board.
            await emu.slash(users[0], channel, "heat", "new", track="usa")
            lobby = (await emu.wait_until(lambda: [m for m in emu.channel_messages(channel) if m.buttons][-1:]))[0]
            for u in users[1:]:
                await emu.click(u, lobby, label="Join")
            await emu.click(users[0], lobby, label="Start")
            thread = await emu.wait_until(lambda: (emu.threads(channel) or [None])[0])
            await emu.wait_until(lambda: any(m.attachments for m in emu.messages_in(thread)))
            rnd = random.Random(1)
            boards = []
            for _ in range(rounds):
                game = await bot.store.game(1)
                if game.status != "active":
                    break
                engine = bot.table.engines["heat"]
                waiting = engine.to_act(game.snapshot)
                if game.snapshot["phase"] != "submit":
                    break
                for seat in waiting:
                    user = users[[u.id for u in users].index(game.seats[seat].user_id)]
                    now = await bot.store.game(1)
                    state, cid = now.snapshot, f"mv:1:{now.seats[seat].prompt_version}:{seat}:s0"
                    dm = await emu.wait_until(lambda: [m for m in emu.dm_messages(user)
                                                       if m.selects and m.selects[0]["custom_id"] == cid][-1:])
                    select = dm[0].selects[0]
                    legal = [a for a in engine.legal_actions(state, seat) if a["type"] == "submit"
                             and select["min_values"] <= len(a["cards"]) <= select["max_values"]]
                    cards = [str(c) for c in rnd.choice(legal)["cards"]]
                    before = len([m for m in emu.messages_in(thread) if m.attachments])
                    if seat == waiting[-1]:
                        # Time this move alone: the earlier submissions' DMs have gone out (players
                        # move seconds apart, not in the same millisecond).
                        await bot.table.drain()
                    start = time.perf_counter()
                    await emu.select(user, dm[0], cards)
                    if seat == waiting[-1]:  # the last submission resolves the round
                        await emu.wait_until(
                            lambda: len([m for m in emu.messages_in(thread) if m.attachments]) > before)
                        boards.append((time.perf_counter() - start) * 1000)
            emit("board_ms_p50", statistics.median(boards), "ms")
            emit("board_ms_p95", pct(boards, 95), "ms")
            await bot.table.drain()  # nothing else running while the store is timed
            await commit_ratio(bot.store)
            await thousand_games(bot)
        finally:
            await handle.stop()


async def commit_ratio(store) -> None:
    from bot.games.heat import ENGINE
    from bot.store import PromptUpdate

    state = ENGINE.new_game({"track": "usa"}, 6, 7)
    game_id = await store.create_game("heat", 1, 1, 1, "bench", {"track": "usa"}, 7)
    await store.start(game_id, None, state, [])
    await store.create_bench_scratch()
    moves, bare = [], []
    for version in range(1500):
        start = time.perf_counter()
        await store.commit_move(game_id, version, 0, {"type": "submit", "cards": [1, 2]}, state, False,
                                [PromptUpdate(0, "x%d" % version)])
        moves.append(time.perf_counter() - start)
        start = time.perf_counter()
        await store.bare_insert("x" * 64)
        bare.append(time.perf_counter() - start)
    emit("commit_ratio", statistics.median(moves) / statistics.median(bare), "x")


async def thousand_games(bot) -> None:
    """Resident memory of the running bot with 1,000 active 6-player Heat games in its store."""
    from bot.games.heat import ENGINE

    store = bot.store
    for i in range(1000):
        gid = await store.create_game("heat", 1, 1, 10_000 + i, "p", {"track": "usa"}, i)
        for j in range(1, 6):
            await store.join(gid, 20_000 + i * 10 + j, "p", 6)
        game = await store.game(gid)
        state = ENGINE.new_game(game.options, 6, i)
        await store.start(gid, None, state, bot.table.prompts(ENGINE, game, state, force=True))
    gc.collect()
    emit("rss_mb_1000_games", rss_mb(), "MB")


def main(argv: list[str]) -> int:
    rounds = int(argv[0]) if argv else 40
    from bot.games.heat.bench import races_per_second
    from rendering.heat import bench_render

    # The engine and renderer first, in a fresh process (no bot, no 1,000 games in the heap).
    emit("heat_races_per_s", races_per_second(3.0), "races/s")
    r = bench_render(60)
    emit("heat_render_ms_p50", r["p50_ms"], "ms")
    emit("heat_render_ms_p95", r["p95_ms"], "ms")
    emit("heat_render_kb", r["kb"], "KB")
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(bot_figures(Path(tmp), rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
