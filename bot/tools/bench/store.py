"""Databases of many stored games for the bench (issue #17).

A handful of real seeded Heat and PON games are played through the bot's own Store, move by move
as Table.move and the announcement do it (load, commit with who-must-act and reminders, archive
at the end, mark_sent/settle). Those templates are then cloned with bulk SQL (INSERT ... SELECT
with new ids) into as many games as wanted: finished ones keep their compressed snapshot and
archive (as Store.archive wrote them), mid-game ones their action rows, seats, to_act and timers.
Every clone has its template's kind, options, seats and seed, so it replays to its snapshot.

The built file is cached under the temp folder, keyed by the schema version (PRAGMA user_version)
and the builder's own version, so a second bench run reuses it.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import shutil
import sqlite3
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable

from bot.games.heat.racer import random_submission
from bot.games.registry import engines
from bot.store import MIGRATIONS, Store, dumps
from bot.table import Table

BUILDER_VERSION = 2  # bump when the games built here change (2: states carry rules_version)
ENGINES = engines()
GUILD_ID = 1
CHANNEL_BASE = 2_000  # clones are spread over CHANNELS channels
CHANNELS = 500
THREAD_BASE = 10**12  # a game's thread (and lobby message) id: THREAD_BASE + game id
USER_BASE = 10**9  # seat s of game g: USER_BASE + (3 g + s) % USERS, so players share games
USERS = 30_000
ACTIVE_EVERY = 10  # every 10th game is mid-game, the others are finished

# (kind, seats, options, seed, stop after this many moves or None to finish)
FINISHED = [
    ("heat", 3, {"track": "usa"}, 11, None),
    ("heat", 3, {"track": "france"}, 12, None),
    ("heat", 3, {"track": "great_britain"}, 13, None),
    ("heat", 3, {"track": "italy"}, 14, None),
    ("pon", 3, {}, 15, None),
    ("pon", 3, {}, 16, None),
]
MID_GAME = [("heat", 4, {"track": "usa"}, 21, 97), ("heat", 4, {"track": "italy"}, 22, 97), ("pon", 4, {}, 23, 97)]


class NoBot:
    user = None


def table_for(store: Store) -> Table:
    """A Table without a connection: its prompts() and reminders() are the real ones. It draws no
    board post early (Table.plan), as nothing posts one here: that drawing was nine tenths of a
    200-game build's CPU (24 s against 2.4 s), and in the move's timed database work it only
    competed for the interpreter (the bench's move figures were taken before Table.plan drew)."""
    table = Table(NoBot(), store, ENGINES, 12 * 3600)  # type: ignore[arg-type]
    table.out.draw_early = lambda *args: None  # type: ignore[method-assign,assignment]
    return table


def pick_action(engine: Any, state: dict[str, Any], seat: int, rnd: random.Random) -> dict[str, Any]:
    """A random legal move, as a player could make it (Heat's submissions drawn directly)."""
    if engine.kind == "heat" and state["phase"] == "submit":
        return random_submission(state, seat, rnd)
    return rnd.choice([a for a in engine.legal_actions(state, seat) if a.get("type") != "prefs"])


@dataclass
class MoveTimes:
    """The database time of each move (ms), as Table.move and the announcement spend it."""

    moves: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)  # bytes of snapshot + action written
    # A yardstick timed after the same engine work as the move's commit (see play_move): ms each.
    yardstick: Callable[[int], Awaitable[float]] | None = None
    bare: list[float] = field(default_factory=list)
    # The CPU the database's own executor spent on each move (ns; see bench_live.executor_clock).
    clock: Callable[[], int] | None = None
    cpu: list[int] = field(default_factory=list)


async def timed(times: list[float], work: Awaitable[Any]) -> Any:
    start = time.perf_counter()
    result = await work
    times.append((time.perf_counter() - start) * 1000)
    return result


async def new_game(store: Store, table: Table, kind: str, seats: int, options: dict[str, Any], seed: int) -> int:
    """Lobby, seats and start (owing and then settling the start's announcement), as the table does."""
    engine = ENGINES[kind]
    options = engine.validate_options(options, seats)
    gid = await store.create_game(kind, GUILD_ID, CHANNEL_BASE, USER_BASE, "p0", options, seed)
    for i in range(1, seats):
        await store.join(gid, USER_BASE + i, f"p{i}", engine.max_seats)
    game = await store.game(gid)
    assert game is not None
    state = engine.new_game(options, seats, seed)
    to_act, fresh = table.reminders(engine, game, state, list(range(seats)))
    await store.start(
        gid,
        THREAD_BASE + gid,
        state,
        table.prompts(engine, game, state, force=True),
        {"events": [["The game begins!", None]]},
        to_act,
        fresh,
    )
    await store.settle(gid, [0])
    return gid


async def play_move(store: Store, table: Table, gid: int, rnd: random.Random, times: MoveTimes | None = None) -> bool:
    """One real move with exactly the store calls of Table.move and its announcement; the store
    calls' time goes to `times`. False when the game is over."""
    spent: list[float] = []
    cpu = times.clock() if times is not None and times.clock is not None else 0
    game = await timed(spent, store.game(gid))
    engine = ENGINES[game.kind]
    state = game.snapshot
    if game.status != "active":
        return False
    seat = rnd.choice(engine.to_act(state))
    action = pick_action(engine, state, seat, rnd)
    new_state, events = engine.apply(state, seat, action)
    plan = table.plan(engine, game, seat, state, new_state, events)
    outcome = await timed(spent, table.commit(seat, action, plan))
    over, version = game.status == "finished", game.version
    if len(outcome.parts()) > 1:  # Delivery.announce records the post when DMs follow it
        await timed(spent, store.mark_sent(gid, [version], "post"))
    await timed(spent, store.settle(gid, [version]))
    if times is not None:
        if times.clock is not None:  # (the engine's work runs on this thread, not the executor's)
            times.cpu.append(times.clock() - cpu)
        times.moves.append(sum(spent))
        times.sizes.append(len(dumps(new_state)) + len(dumps(action)))
        if times.yardstick is not None:
            # The same engine work again (pure: its results are dropped), then the yardstick: it
            # meets the database as the commit did, after a millisecond or two of other work (the
            # connection's thread idle meanwhile), not hot from the statement before.
            again, again_events = engine.apply(state, seat, action)
            table.plan(engine, game, seat, state, again, again_events)
            times.bare.append(await times.yardstick(times.sizes[-1]))
    return not over


async def play_game(store: Store, table: Table, template: tuple, times: MoveTimes | None = None) -> int:
    kind, seats, options, seed, stop = template
    gid = await new_game(store, table, kind, seats, options, seed)
    rnd = random.Random(seed)
    moves = 0
    while (stop is None or moves < stop) and await play_move(store, table, gid, rnd, times):
        moves += 1
    return gid


async def build_templates(path: Path) -> tuple[list[int], list[int]]:
    """The real games (ids of the finished ones, ids of the mid-game ones)."""
    store = await Store.open(path)
    try:
        table = table_for(store)
        finished = [await play_game(store, table, t) for t in FINISHED]
        active = [await play_game(store, table, t) for t in MID_GAME]
    finally:
        await store.close()
    return finished, active


def plan(total: int, finished: list[int], active: list[int]) -> list[tuple[int, int]]:
    """(new game id, template id): every ACTIVE_EVERY-th game mid-game, the templates in turn."""
    return [
        (n, active[(n // ACTIVE_EVERY) % len(active)] if n % ACTIVE_EVERY == 0 else finished[n % len(finished)])
        for n in range(1, total + 1)
    ]


USER = f"{USER_BASE} + (3 * p.new_id + s.seat) % {USERS}"
CLONES = [
    f"""INSERT INTO games (id, kind, guild_id, channel_id, thread_id, lobby_message_id, creator_id, status, options,
            seed, version, snapshot, created_at, updated_at, to_act, archive)
        SELECT p.new_id, g.kind, g.guild_id, {CHANNEL_BASE} + p.new_id % {CHANNELS}, {THREAD_BASE} + p.new_id,
            {THREAD_BASE} + p.new_id, {USER_BASE} + (3 * p.new_id) % {USERS}, g.status, g.options, g.seed,
            g.version, g.snapshot, g.created_at, g.updated_at, g.to_act, g.archive
        FROM plan p JOIN t.games g ON g.id = p.src ORDER BY p.new_id""",
    f"""INSERT INTO seats (game_id, seat, user_id, name, dm_ok, prompt_version, prompt_hash)
        SELECT p.new_id, s.seat, {USER}, s.name, s.dm_ok, s.prompt_version, s.prompt_hash
        FROM plan p JOIN t.seats s ON s.game_id = p.src ORDER BY p.new_id, s.seat""",
    """INSERT INTO actions (game_id, version, seat, action, created_at)
        SELECT p.new_id, a.version, a.seat, a.action, a.created_at
        FROM plan p JOIN t.actions a ON a.game_id = p.src ORDER BY p.new_id, a.version""",
    """INSERT INTO timers (game_id, seat, kind, due_at)
        SELECT p.new_id, m.seat, m.kind, m.due_at FROM plan p JOIN t.timers m ON m.game_id = p.src""",
]


async def clone(path: Path, templates: Path, total: int, finished: list[int], active: list[int]) -> None:
    await (await Store.open(path)).close()  # the schema, by the store's own migrations
    con = sqlite3.connect(path, isolation_level=None)
    try:
        con.execute("PRAGMA synchronous=OFF")
        con.execute("ATTACH DATABASE ? AS t", (str(templates),))
        con.execute("CREATE TEMP TABLE plan (new_id INTEGER PRIMARY KEY, src INTEGER NOT NULL)")
        con.execute("BEGIN")
        con.executemany("INSERT INTO plan VALUES (?, ?)", plan(total, finished, active))
        for sql in CLONES:
            con.execute(sql)
        con.execute("COMMIT")
        con.execute("DETACH DATABASE t")
        con.execute("ANALYZE")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        con.close()


async def build(path: Path, total: int) -> None:
    """A database of `total` games at `path` (replaced if present)."""
    path.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        templates = Path(tmp) / "templates.sqlite3"
        finished, active = await build_templates(templates)
        await clone(path, templates, total, finished, active)


def cache_dir() -> Path:
    return Path(tempfile.gettempdir()) / "tabletop-bot-bench"


def cached_path(total: int) -> Path:
    """Keyed by the migrations' own text too: a schema still being written changes the file."""
    schema = hashlib.blake2b("".join(m.sqlite for m in MIGRATIONS).encode(), digest_size=4).hexdigest()
    return cache_dir() / f"games-{total}-schema{len(MIGRATIONS)}-{schema}-b{BUILDER_VERSION}.sqlite3"


def schema_version(path: Path) -> int:
    con = sqlite3.connect(path)
    try:
        return con.execute("PRAGMA user_version").fetchone()[0]
    finally:
        con.close()


async def cached_database(total: int) -> tuple[Path, float | None]:
    """The cached database of `total` games, built first if missing or of another schema; returns
    its path and the seconds building took (None when reused)."""
    path = cached_path(total)
    if path.exists() and schema_version(path) == len(MIGRATIONS):
        return path, None
    path.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    partial = path.with_suffix(".building")
    await build(partial, total)
    partial.replace(path)
    return path, time.perf_counter() - start


def copy_database(source: Path, target: Path) -> Path:
    """A private copy to run the bot on (the cached file stays as built)."""
    shutil.copyfile(source, target)
    return target


def keep_games(path: Path, games: int) -> None:
    """Only the first `games` games stay in the file (a smaller database for a quicker figure)."""
    con = sqlite3.connect(path, isolation_level=None)
    try:
        con.execute("PRAGMA foreign_keys=ON")
        con.execute("DELETE FROM games WHERE id > ?", (games,))
    finally:
        con.close()


def add_owed(path: Path, games: int) -> list[int]:
    """The first `games` active games each owe an announcement ('{}', as after a crash)."""
    con = sqlite3.connect(path, isolation_level=None)
    try:
        ids = [r[0] for r in con.execute("SELECT id FROM games WHERE status = 'active' ORDER BY id LIMIT ?", (games,))]
        con.execute("BEGIN")
        con.executemany(
            "INSERT INTO owed (game_id, version, outcome) SELECT id, version, '{}' FROM games WHERE id = ?",
            [(i,) for i in ids],
        )
        con.execute("COMMIT")
    finally:
        con.close()
    return ids


def main() -> None:  # python -m bot.tools.bench.store [games]: build (or find) the cached database
    import sys

    total = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    path, took = asyncio.run(cached_database(total))
    print(path, "reused" if took is None else f"built in {took:.1f} s")


if __name__ == "__main__":
    main()
