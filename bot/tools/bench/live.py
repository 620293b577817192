"""The bench figures of issue #17 that need the bot running: start-up over 100,000 stored games,
memory per 10,000 active games, a 10,000-game catch-up, a move's database work, a thread look-up
and the REST calls of real games. Everything on 127.0.0.1; see bot/tools/bench/figures.py for the output."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import statistics
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from bot.tools.bench import store as bench_store
from bot.tools.emulator import Emulator
from bot.tools.emulator.model import User
from bot.tools.emulator.testing import BotProcess

CATCH_UP_SECONDS = 40.0
HEAT_SEED = 1  # a race the simulated players finish
ACK_EVERY = 0.5


def emit(name: str, value: Any, unit: str) -> None:
    print(f"{name}: {value:.2f} {unit}" if isinstance(value, float) else f"{name}: {value} {unit}", flush=True)


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, max(0, int(-(-len(values) * p // 100)) - 1))] if values else float("nan")


# -- a move's database work -------------------------------------------------------------------


async def open_store(target: Path | str) -> tuple[Any, Any]:
    """The store the bench measures and its database connection (a store_sqlite or store_pg
    Backend), which the bench holds itself to trace its statements and time what executes them:
    Store.open creates (and migrates) the database, then a Store is made on a connection of the
    bench's own."""
    from bot import store_pg, store_sqlite
    from bot.store import Store

    await (await Store.open(target)).close()
    db = await (
        store_pg.Backend.connect(str(target)) if store_pg.is_url(target) else store_sqlite.Backend.connect(target)
    )
    return Store(db), db


async def executor_clock(db: Any) -> Callable[[], int] | None:
    """The CPU time (ns) spent so far by what executes the connection's statements: SQLite's worker
    thread (aiosqlite's), or the PostgreSQL server process serving the connection. Read from
    Linux's schedstat, it counts time on a CPU only, not time waiting for one: a figure that holds
    on a busy machine, where wall-clock medians measure the scheduler. None where not readable."""
    try:
        if db.name == "postgresql":
            path = Path(f"/proc/{(await db.fetch('SELECT pg_backend_pid()'))[0][0]}/schedstat")
        else:  # the thread that runs a statement is the one that calls a function of it
            await db.conn.create_function("bench_thread_id", 0, threading.get_native_id)
            path = Path(f"/proc/self/task/{(await db.fetch('SELECT bench_thread_id()'))[0][0]}/schedstat")
        int(path.read_text().split()[0])
    except (OSError, AttributeError, ValueError, IndexError):
        return None
    return lambda: int(path.read_text().split()[0])


@dataclass
class MoveDbRun:
    """What move_db measured: the moves' and the bare INSERTs' times, and one more race's
    statements as traced."""

    table: Any  # the Table the moves go through (bench_store.table_for)
    times: Any  # bench_store.MoveTimes
    hot: list[float]  # the bare INSERT at once after each move's statement (ms)
    bare_cpu: list[int]  # the executor's CPU of each bare INSERT (ns)
    count: int = 0  # moves timed
    writes: int = 0  # the announcements' progress statements of the timed moves
    seconds: float = 0.0  # and their time
    statements: list[str] = field(default_factory=list)  # the traced race's statements
    traced: int = 0  # its moves
    traced_flushes: int = 0  # its progress statements
    backend: str = ""  # "sqlite" or "postgresql"
    clocked: bool = False  # whether the executor's CPU time was readable


async def move_db(tmp: Path, races: int = 4, database: Path | str | None = None, suffix: str = "") -> None:
    """Real Heat races, each move's store calls as Table.move and the announcement make them,
    against one bare INSERT of the same bytes into a scratch table of the same database (the WAL
    file, or `database`: a PostgreSQL URL, the figures then named with `suffix`).

    The bare INSERT is timed twice a move: after the same engine work as the move's commit
    (`move_db_ratio`: like against like), and at once after the move's own statement
    (`move_db_ratio_hot_bare`, how this figure was first measured: that INSERT finds the
    connection's thread still awake, which the commit, coming after the engine's work, never
    does; on a busy machine that difference alone is worth milliseconds)."""
    store, db = await open_store(database or tmp / "moves.sqlite3")
    try:
        await create_bench_scratch(store)
        run = await timed_races(store, db, races)
        await traced_race(store, db, run)
    finally:
        await store.close()
    emit_move_db(run, suffix)


async def create_bench_scratch(store: Any) -> None:
    """The scratch table the bare INSERT writes to (the bench's own, never the product's)."""
    async with store.locked() as db:
        await db.execute("CREATE TABLE IF NOT EXISTS bench_scratch (v TEXT)")


async def insert_bare(store: Any, value: str) -> None:
    """One autocommitted INSERT into the scratch table: the yardstick for commit_ratio."""
    async with store.locked() as db:
        await db.execute("INSERT INTO bench_scratch (v) VALUES (?)", (value,))


async def timed_races(store: Any, db: Any, races: int) -> MoveDbRun:
    """`races` of bench_store's finished Heat races, each move timed against the bare INSERT."""
    table = bench_store.table_for(store)
    clock = await executor_clock(db)
    bare_cpu: list[int] = []

    async def bare_insert(size: int) -> float:
        cpu = clock() if clock is not None else 0
        start = time.perf_counter()
        await insert_bare(store, "x" * size)
        took = (time.perf_counter() - start) * 1000
        if clock is not None:
            bare_cpu.append(clock() - cpu)
        return took

    run = MoveDbRun(
        table,
        bench_store.MoveTimes(yardstick=bare_insert, clock=clock),
        [],
        bare_cpu,
        backend=db.name,
        clocked=clock is not None,
    )
    written: list[tuple[int, float]] = []  # (statements, seconds) of each progress write (Store.flush)
    store.on_progress_written = lambda statements, seconds: written.append((statements, seconds))
    for template in bench_store.FINISHED[:races]:
        gid = await bench_store.new_game(store, table, *template[:4])
        rnd = random.Random(template[3])
        while True:
            going = await bench_store.play_move(store, table, gid, rnd, run.times)
            run.hot.append(await bare_insert(run.times.sizes[-1]))
            if not going:
                break
    await store.flush()
    run.count, run.writes, run.seconds = len(run.times.moves), sum(n for n, _ in written), sum(t for _, t in written)
    return run


async def traced_race(store: Any, db: Any, run: MoveDbRun) -> None:
    """The statements of one more race, untimed (tracing costs time): load, commit, archive, the
    announcements' progress."""
    table = run.table
    gid = await bench_store.new_game(store, table, *bench_store.FINISHED[0][:4])
    await store.flush()
    flushes: list[int] = []
    store.on_progress_written = lambda statements, seconds: flushes.append(statements)
    await db.set_trace(run.statements.append)
    rnd = random.Random(bench_store.FINISHED[0][3])
    run.traced = 1
    while await bench_store.play_move(store, table, gid, rnd):
        run.traced += 1
    await store.flush()
    await db.set_trace(None)
    run.traced_flushes = sum(flushes)


def emit_move_db(run: MoveDbRun, suffix: str) -> None:
    times, statements = run.times, run.statements
    # The announcements' progress is written behind, for all games at once (Store.flush): its time
    # is shared out over the moves it covered.
    behind = run.seconds * 1000 / run.count
    move = statistics.median(times.moves) + behind
    one, one_hot = statistics.median(times.bare), statistics.median(run.hot)
    emit("move_db_ratio" + suffix, move / one, f"x ({run.count} moves; the bare INSERT after the same engine work)")
    emit("move_db_ratio_hot_bare" + suffix, move / one_hot, "x (the bare INSERT at once after the move's statement)")
    if run.clocked and times.cpu:
        # the flush's CPU is left out here (it ran outside the moves): its statements are counted below
        cpu_move, cpu_bare = statistics.median(times.cpu) / 1e6, statistics.median(run.bare_cpu) / 1e6
        executor = "the server process" if run.backend == "postgresql" else "the connection's thread"
        emit(
            "move_db_cpu_ratio" + suffix,
            cpu_move / cpu_bare,
            f"x ({cpu_move:.3f} against {cpu_bare:.3f} ms of CPU in {executor})",
        )
    emit("move_db_ms_p50" + suffix, move, "ms")
    emit("bare_insert_ms_p50" + suffix, one, "ms")
    emit("bare_insert_hot_ms_p50" + suffix, one_hot, "ms")
    # A trigger's steps are traced with its statement's text (SQLite, with its values: each move's
    # differs): a run of one text is one statement. PostgreSQL traces each round trip once. The
    # flush's are counted by the store (its executemany traces each row).
    distinct = (
        len(statements)
        if run.backend == "postgresql"
        else sum(1 for i, text in enumerate(statements) if i == 0 or text != statements[i - 1])
    )
    flushing = sum(
        1 for text in statements if "owed" in text and not text.startswith(("INSERT INTO moves", "SELECT commit_move"))
    )
    emit(
        "move_db_statements" + suffix,
        (distinct - flushing + run.traced_flushes) / run.traced,
        "a move (a whole race: the archive at its end, the progress written behind, shared out)",
    )
    emit("progress_writes_per_move" + suffix, run.writes / run.count, "")


async def thread_lookup(path: Path, count: int = 2000) -> None:
    from bot.store import Store

    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        total = con.execute("SELECT max(id) FROM games").fetchone()[0]
    finally:
        con.close()
    store = await Store.open(path)
    try:
        rnd = random.Random(5)
        times = []
        for _ in range(count):
            gid = rnd.randint(1, total)
            start = time.perf_counter()
            game = await store.game_by_thread(bench_store.THREAD_BASE + gid, None, ("active", "finished"))
            times.append((time.perf_counter() - start) * 1000)
            assert game is not None and game.id == gid
    finally:
        await store.close()
    emit("thread_lookup_ms_100k", statistics.median(times), "ms")
    emit("thread_lookup_ms_p95_100k", pct(times, 95), "ms")


# -- the bot in its own process ------------------------------------------------------------------


@dataclass
class World:
    emu: Emulator
    guild: Any
    channel: Any
    player: Any  # a member who plays in stored games (sends /games)
    threads: int = 0
    users: int = 0


def populate(emu: Emulator, path: Path | None) -> World:
    """The Discord side of a database: the active games' threads (active, so in GUILD_CREATE as
    on Discord) and their players."""
    guild = emu.add_guild("Bench")
    channel = emu.add_text_channel(guild, "games")
    player_id = bench_store.USER_BASE + 30
    world = World(emu, guild, channel, None)
    user_ids = {player_id}
    if path is not None:
        con = sqlite3.connect(path)
        try:
            for (gid,) in con.execute("SELECT id FROM games WHERE status = 'active'"):
                emu.world.create_thread(
                    channel,
                    f"game {gid}",
                    emu.world.bot,
                    thread_id=bench_store.THREAD_BASE + gid,
                    auto_archive_duration=10080,
                )
                world.threads += 1
            user_ids |= {
                u
                for (u,) in con.execute(
                    "SELECT DISTINCT user_id FROM seats JOIN games ON games.id = game_id WHERE status = 'active'"
                )
            }
        finally:
            con.close()
    for uid in user_ids:
        emu.world.users[uid] = User(id=uid, name=f"u{uid}")
    world.users = len(user_ids)
    world.player = emu.world.users[player_id]
    emu.world.add_member(guild, world.player)
    return world


async def start_child(emu: Emulator, db: Path | str, tmp: Path) -> tuple[BotProcess, dict[str, Any]]:
    env = {"BOT_STATE_DIR": str(tmp / "state"), "BOT_DATABASE": str(db), "BOT_LOG_LEVEL": "WARNING"}
    proc = BotProcess(emu, ["bot.tools.bench.child"], env=env)
    await proc.start(timeout=60)
    report = await emu.wait_until(
        lambda: next((json.loads(line[6:]) for line in proc.output().splitlines() if line.startswith("BENCH ")), None),
        60,
        "no start-up report",
    )
    assert report is not None  # (wait_until raises instead)
    return proc, report


async def acks(world: World, count: int, every: float, until: Callable[[], bool] = lambda: False) -> list[float]:
    times = []
    for _ in range(count):
        if until():
            break
        start = time.perf_counter()
        rec = await world.emu.slash(world.player, world.channel, "games")
        times.append((time.perf_counter() - start) * 1000)
        assert rec.acked, rec.error
        await asyncio.sleep(every)
    return times


def owed_left(db: Path) -> int:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT count(DISTINCT game_id) FROM owed").fetchone()[0]
    finally:
        con.close()


def vm(pid: int, key: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def baseline_rss(tmp: Path) -> float:
    """The bot started on an empty database."""
    async with Emulator(settle_delay=0) as emu:
        populate(emu, None)
        proc, report = await start_child(emu, tmp / "empty.sqlite3", tmp)
        await proc.stop(timeout=1.0)  # the bench needs no graceful shutdown
    return report["rss_mb"]


async def start_up(
    db: Path | str, tmp: Path, baseline: float, populate_from: Path | None = None, suffix: str = "", total: str = "100k"
) -> None:
    """The bot started on the 100,000-game database (10,000 active); `db` may be a PostgreSQL
    URL holding a copy of the SQLite file `populate_from` (figures named with `suffix`)."""
    async with Emulator(settle_delay=0) as emu:
        world = populate(emu, populate_from or db)  # type: ignore[arg-type]
        proc, report = await start_child(emu, db, tmp)
        try:
            idle = await acks(world, 20, 0.1)
        finally:
            await proc.stop(timeout=1.0)  # the bench needs no graceful shutdown
    emit(f"startup_s_{total}{suffix}", report["ready_to_recovered_s"], "s (gateway READY to all start-up work done)")
    emit(
        f"startup_work_s_{total}{suffix}",
        report["start_to_recovered_s"],
        "s (process start to start-up work done, before the gateway connects)",
    )
    if suffix:
        return
    emit(
        "rss_mb_per_10k_active",
        report["rss_mb"] - baseline,
        f"MB ({report['rss_mb']:.0f} with {world.threads} active games and threads, {baseline:.0f} with none)",
    )
    emit("ack_ms_p95_before_catchup", pct(idle, 95), "ms")


async def catch_up(db: Path, tmp: Path, games: int = 10_000) -> None:
    """Every active game owes an announcement at start: peak memory, progress and live acks."""
    bench_store.add_owed(db, games)
    async with Emulator(settle_delay=0) as emu:
        world = populate(emu, db)
        proc, report = await start_child(emu, db, tmp)
        pid = proc.proc.pid  # type: ignore[union-attr]
        try:
            start = time.monotonic()
            peak = [vm(pid, "VmRSS")]
            stop = asyncio.Event()

            async def sample() -> None:
                while not stop.is_set():
                    peak.append(vm(pid, "VmRSS"))
                    await asyncio.sleep(0.1)

            sampler = asyncio.create_task(sample())
            left = [games]

            def finished() -> bool:
                left[0] = owed_left(db)
                return left[0] == 0 or time.monotonic() - start > CATCH_UP_SECONDS

            live = await acks(world, 10_000, ACK_EVERY, finished)
            elapsed = time.monotonic() - start
            stop.set()
            await sampler
            peak_mb = max(max(peak), vm(pid, "VmHWM"))
        finally:
            await proc.stop(timeout=1.0)  # the bench needs no graceful shutdown
    done = games - left[0]
    emit("catchup_peak_mb_10k", peak_mb, "MB")
    emit("catchup_done_10k", done, f"games in {elapsed:.0f} s")
    emit("catchup_per_s", done / elapsed, "games/s")
    emit("ack_ms_p95_during_catchup", pct(live, 95), f"ms ({len(live)} /games)")


# -- REST calls of real games ----------------------------------------------------------------------


def fixed_seed(seed: int) -> Callable[[], int]:
    """A table's new_seed that always gives `seed` (the same games every run)."""
    return lambda: seed


async def rest_calls(tmp: Path, heat_seed: int = HEAT_SEED) -> None:
    """A 3-player Heat race and a PON game played by simulated players through the emulator (the
    players of the end-to-end tests, from bot/tools/emulator/players.py)."""
    from dataclasses import replace
    from types import SimpleNamespace

    from bot.app import create_bot
    from bot.config import load_settings
    from bot.tools.emulator.testing import start_bot_in_process

    from bot.tools.emulator.players import Player, play_until
    from bot.tools.emulator.tables import open_table, start

    settings = replace(load_settings({"BOT_STATE_DIR": str(tmp / "rest")}, None), log_level="WARNING")
    async with Emulator() as emu:
        guild = emu.add_guild("Rest")
        w = SimpleNamespace(emu=emu, **{n: emu.add_user(n) for n in ("alice", "bob", "carol")})
        for user in (w.alice, w.bob, w.carol):
            emu.add_member(guild, user)
        bot = create_bot(settings)
        handle = await start_bot_in_process(emu, bot)
        try:
            await emu.wait_for_commands()
            first, moves = len(emu.rest_log), 0
            table, store = bot.table, bot.store
            assert table is not None and store is not None  # set up before the commands are synced
            for kind, seed, options in (("heat", heat_seed, {"track": "usa"}), ("pon", 23, {})):
                w.general = emu.add_text_channel(guild, kind)
                table.lobbies.new_seed = fixed_seed(seed)
                thread = await start(w, await open_table(w, w.alice, w.bob, w.carol, kind=kind, **options), w.alice)
                players = [
                    Player(emu, w.alice, "select", 1, kind),
                    Player(emu, w.bob, "slash", 2, kind),
                    Player(emu, w.carol, "select", 3, kind),
                ]
                await play_until(
                    players,
                    thread,
                    lambda thread=thread: any("The game is over" in m.content for m in emu.messages_in(thread)),
                    max_steps=3000,
                )
                await table.drain()
                game = await store.game_by_thread(thread.id, kind, ("finished",))
                assert game is not None
                moves += game.version
            calls = emu.rest_log[first:]
        finally:
            await handle.stop()
    emit("rest_calls_per_move", len(calls) / moves, f"calls/move ({len(calls)} calls, {moves} moves)")
    emit("rest_get_users_calls", sum(1 for c in calls if c["method"] == "GET" and "/users/" in c["path"]), "calls")
