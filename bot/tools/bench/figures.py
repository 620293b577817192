"""`python -m bot bench`: the performance figures, one per line as `name: value unit`.

Everything runs on this machine: the real bot against the local emulator on 127.0.0.1, a real
SQLite file in a temporary folder. Targets (issue #2/#3): ack p95 <= 30 ms, board p95 <= 150 ms (issue #29:
board_post_to_render_p95 <= 1.5, the post against the render alone of the same boards),
heat races >= 200/s, heat render p95 <= 40 ms, <= 600 KB. Issue #17 (bot/tools/bench/live.py): a move's
database work <= 3x one bare INSERT (and the prompts' cost a move), start-up over 100,000 stored games <= 2 s, thread look-up
<= 5 ms, catch-up of 10,000 games <= 300 MB peak; also memory per 10,000 active games and REST
calls per move. The 100,000-game database is built once and cached (bot/tools/bench/store.py).
"""

from __future__ import annotations

import asyncio
import math
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.store import decode_snapshot


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


async def _ack_figures(emu: Any, user: Any, channel: Any) -> None:
    """Time 60 `/games` acknowledgements and emit their median and 95th percentile."""
    acks = []
    for _ in range(60):
        start = time.perf_counter()
        rec = await emu.slash(user, channel, "games")
        acks.append((time.perf_counter() - start) * 1000)
        assert rec.acked
    emit("ack_ms_p50", statistics.median(acks), "ms")
    emit("ack_ms_p95", pct(acks, 95), "ms")


async def _start_heat_race(emu: Any, users: list[Any], channel: Any) -> Any:
    """Open a Heat table on the USA track, seat every user and start; returns the race's thread once
    its first board is posted."""
    await emu.slash(users[0], channel, "heat", "new", track="usa")
    lobby = (await emu.wait_until(lambda: [m for m in emu.channel_messages(channel) if m.buttons][-1:]))[0]
    for u in users[1:]:
        await emu.click(u, lobby, label="Join")
    await emu.click(users[0], lobby, label="Start")
    thread = await emu.wait_until(lambda: next(iter(emu.threads(channel)), None))
    await emu.wait_until(lambda: any(m.attachments for m in emu.messages_in(thread)))
    return thread


async def quiet(emu: Any, seconds: float = 0.15, timeout: float = 10.0) -> None:
    """Until the emulator has seen no REST call for `seconds`: the bot's work for the last move (its
    DMs and posts) is done, so the next move is timed alone (players move seconds apart)."""
    deadline = time.perf_counter() + timeout
    seen = -1
    while time.perf_counter() < deadline:
        now = len(emu.rest_log)
        if now == seen:
            return
        seen = now
        await asyncio.sleep(seconds)


class RaceReader:
    """The bench's race (game 1) as the bot last stored it, read from the database the bot writes."""

    def __init__(self, database: Path) -> None:
        self.db = sqlite3.connect(f"file:{database}?mode=ro", uri=True, isolation_level=None)

    def read(self) -> tuple[str, dict, list[tuple[int, int]]]:
        """(status, snapshot, [(user id, prompt version) per seat])."""
        status, snapshot = self.db.execute("SELECT status, snapshot FROM games WHERE id = 1").fetchone()
        seats = self.db.execute("SELECT user_id, prompt_version FROM seats WHERE game_id = 1 ORDER BY seat").fetchall()
        return status, decode_snapshot(snapshot), seats

    def close(self) -> None:
        self.db.close()


async def bot_figures(tmp: Path, rounds: int) -> None:
    """The acknowledgement and board-post figures of the real bot in a process of its own, as in
    production (Discord is another machine there): the emulator and this harness do not share the
    bot's interpreter; its drawing thread shares the GIL only with the bot's own loop (the menus,
    the database write). Times are taken here, from the request sent to the answer or post received."""
    import random

    from bot.games.registry import engines
    from bot.tools.bench.live import start_child
    from bot.tools.emulator import Emulator

    async with Emulator() as emu:
        emu.settle_delay = 0  # time the acknowledgement itself, not the harness' grace period
        guild = emu.add_guild("Bench")
        channel = emu.add_text_channel(guild, "table")
        users = [emu.add_user(f"p{i}") for i in range(6)]
        for u in users:
            emu.add_member(guild, u)
        database = tmp / "figures.sqlite3"
        proc, _ = await start_child(emu, database, tmp)
        race = RaceReader(database)
        try:
            await emu.wait_for_commands()
            await _ack_figures(emu, users[0], channel)

            # A 6-player Heat race: time from the last submission of a round to the new board.
            thread = await _start_heat_race(emu, users, channel)
            rnd = random.Random(1)
            boards: list[float] = []
            drawn: list[float] = []  # the render alone of each timed board, in the same minute (below)
            engine = engines()["heat"]
            names = {u.id: u.name for u in users}
            _, first, seats = race.read()
            seat_names = [names[user_id] for user_id, _ in seats]
            render_alone(engine, first, seat_names)  # (a warm-up: fonts, caches)
            for _ in range(rounds):
                await quiet(emu)
                status, state, seats = race.read()
                if status != "active" or state["phase"] != "submit":
                    break
                waiting = engine.to_act(state)
                for seat in waiting:
                    user = users[[u.id for u in users].index(seats[seat][0])]
                    await quiet(emu)
                    status, state, seats = race.read()
                    cid = f"mv:1:{seats[seat][1]}:{seat}:"
                    dm = await emu.wait_until(
                        lambda: [
                            m for m in emu.dm_messages(user) if m.selects and m.selects[0]["custom_id"].startswith(cid)
                        ][-1:]
                    )
                    # the card select (the whole-plans select above it takes one plan)
                    select = max(dm[0].selects, key=lambda s: s.get("max_values", 1))
                    legal = [
                        a
                        for a in engine.legal_actions(state, seat)
                        if a["type"] == "submit" and select["min_values"] <= len(a["cards"]) <= select["max_values"]
                    ]
                    cards = [str(c) for c in rnd.choice(legal)["cards"]]
                    before = len([m for m in emu.messages_in(thread) if m.attachments])
                    start = time.perf_counter()
                    await emu.select(user, dm[0], cards, custom_id=select["custom_id"])
                    if seat == waiting[-1]:  # the last submission resolves the round
                        await emu.wait_until(
                            lambda: len([m for m in emu.messages_in(thread) if m.attachments]) > before
                        )
                        boards.append((time.perf_counter() - start) * 1000)
                        await quiet(emu)  # the bot is idle: its board drawn again here, alone
                        drawn.append(render_alone(engine, race.read()[1], seat_names))
            emit("board_ms_p50", statistics.median(boards), "ms")
            emit("board_ms_p95", pct(boards, 95), "ms")
            emit("board_render_ms_p50", statistics.median(drawn), "ms")
            emit("board_render_ms_p95", pct(drawn, 95), "ms")
            emit("board_post_to_render_p95", pct(boards, 95) / pct(drawn, 95), "x")
        finally:
            race.close()
            await proc.stop()


def render_alone(engine: Any, state: dict, names: list[str]) -> float:
    """The render alone (ms) of the board the bot posted for `state` (written before its post went
    out), drawn here as the bot draws it (the renderer's post_images) right after that post, while
    the bot is idle: the post and its reference share the same minute of a shared machine's noise.
    (Drawn all at once after the race, the references were timed in one quiet second while the
    posts were spread over a minute: the posts' p95 met spikes their references never did.)"""
    from rendering.registry import renderer

    view = engine.view(state, None)
    start = time.perf_counter()
    renderer("heat").post_images(view, names, "en", engine.is_over(state))
    return (time.perf_counter() - start) * 1000


async def issue17_figures(tmp: Path) -> None:
    from bot.tools.bench import live as bench_live
    from bot.tools.bench import store as bench_store

    await bench_live.move_db(tmp)
    from bot.tools.bench.prompts import emit_prompts  # the event-loop side of a move: every seat's menu hashed

    emit_prompts()
    await bench_live.rest_calls(tmp)
    path, took = await bench_store.cached_database(100_000)
    emit(
        "db_100k_build_s",
        took if took is not None else 0.0,
        "s (built now)" if took is not None else f"s (reused the cached {path})",
    )
    await bench_live.thread_lookup(path)
    baseline = await bench_live.baseline_rss(tmp)
    await bench_live.start_up(bench_store.copy_database(path, tmp / "startup.sqlite3"), tmp, baseline)
    await bench_live.catch_up(bench_store.copy_database(path, tmp / "catchup.sqlite3"), tmp)
    from bot.tools.bench import (
        pg as bench_pg,
    )  # the same on PostgreSQL: the move, and start-up over 10,000 of those games

    await bench_pg.pg_figures(tmp, 10_000)


def main(argv: list[str]) -> int:
    rounds = int(argv[0]) if argv else 40
    first = time.perf_counter()
    from bot.tools.bench.heat import races_per_second
    from rendering.heat import bench_render

    # The engine and renderer first, in a fresh process (no bot in the heap).
    emit("heat_races_per_s", races_per_second(3.0), "races/s")
    r = bench_render(60)
    emit("heat_render_ms_p50", r["p50_ms"], "ms")
    emit("heat_render_ms_p95", r["p95_ms"], "ms")
    emit("heat_render_kb", r["kb"], "KB")
    from bot.tools.bench import rallyman as rallyman_bench

    emit("rallyman_turns_per_s", rallyman_bench.turns_per_second(3.0), "turns/s")
    emit("rallyman_render_ms_p95", rallyman_bench.render_ms_p95(40), "ms")
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(bot_figures(Path(tmp), rounds))
        asyncio.run(issue17_figures(Path(tmp)))
    emit("bench_total_s", time.perf_counter() - first, "s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
