"""`python -m bot store copy SRC DST`: a whole store, from SQLite to PostgreSQL or back (either
side a file path or a postgresql:// URL).

The target is opened through the Store (so it gets the current schema) and must be empty: no
games and no users, else nothing is written. Games go over in chunks of ids, each chunk with its
seats, actions, timers and owed announcements in one transaction of the target; then the users.
Snapshots are re-encoded for the target (compressed once finished on SQLite, text on PostgreSQL,
which compresses them itself). Afterwards every game is read back from the target: its snapshot
must equal the source's, and replaying its seed and action log must give that snapshot. A game
started under older rules (its state's `rules_version` is not the engine's) cannot replay today, so
its action log is compared with the source's instead.
The ratings are not copied: the target's start-up rates its finished games in the order they ended
(bot/ratings.py catch_up), to the source's ratings (tests/core/test_ratings_copy.py).
Stop the bot first: a copy taken while it writes may miss its last moves.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any, Callable

from bot.games.base import on_todays_rules
from bot.store import DamagedGame, Store, StoreError, decode_snapshot, describe, encode_snapshot

CHUNK = 500  # games per transaction
GAME_COLUMNS = (
    "id, kind, guild_id, channel_id, thread_id, lobby_message_id, creator_id, status, options, seed, "
    "version, snapshot, created_at, updated_at, to_act, archive, locale"
)
CHILDREN = {  # table: its columns (all keyed by game_id)
    "seats": "game_id, seat, user_id, name, dm_ok, prompt_version, prompt_hash, auto, ai",
    "actions": "game_id, version, seat, action, created_at",
    "timers": "game_id, seat, kind, due_at",
    "owed": "game_id, version, outcome, sent",
}
USER_COLUMNS = "user_id, dm_channel_id, locale, notify"


class CopyError(Exception):
    """The copy cannot be made or did not check out: str() is one line."""


def _names(columns: str) -> list[str]:
    return [c.strip() for c in columns.split(",")]


async def _count(store: Store, table: str) -> int:
    return (await store.db.fetch(f"SELECT count(*) FROM {table}"))[0][0]


def _reencode(value: str | bytes | None, status: str, target: Store) -> str | bytes | None:
    """A snapshot as the target's own moves would have stored it: compressed once the game is
    finished, where the target compresses at all (as Store.commit_move does)."""
    if value is None:
        return None
    return encode_snapshot(decode_snapshot(value), compress=status == "finished" and target.db.compress_snapshots)


async def copy_rows(
    source: Store, target: Store, say: Callable[[str], None], up_to_id: int | None = None
) -> dict[str, int]:
    """Every row (the games with ids up to `up_to_id` only, if given: the bench's smaller copies)."""
    counts = {"games": 0, **{t: 0 for t in CHILDREN}, "users": 0}
    last = 0
    while True:
        games = await source.db.fetch(
            f"SELECT {GAME_COLUMNS} FROM games WHERE id > ? ORDER BY id LIMIT {CHUNK}", (last,)
        )
        if up_to_id is not None:
            games = [g for g in games if g[0] <= up_to_id]
        if not games:
            break
        first, last = games[0][0], games[-1][0]
        async with target.bulk() as db:
            await db.bulk_insert(
                "games", _names(GAME_COLUMNS), [(*g[:11], _reencode(g[11], g[7], target), *g[12:]) for g in games]
            )
            for table, columns in CHILDREN.items():
                rows = await source.db.fetch(
                    f"SELECT {columns} FROM {table} WHERE game_id BETWEEN ? AND ?", (first, last)
                )
                await db.bulk_insert(table, _names(columns), rows)
                counts[table] += len(rows)
        counts["games"] += len(games)
        if counts["games"] % (CHUNK * 20) == 0:
            say(f"  {counts['games']} games copied")
    await target.db.after_bulk_insert("games")
    last_user = None
    while True:
        users = await source.db.fetch(
            f"SELECT {USER_COLUMNS} FROM users WHERE (CAST(? AS BIGINT) IS NULL OR user_id > ?) "
            f"ORDER BY user_id LIMIT 5000",
            (last_user, last_user),
        )
        if not users:
            break
        last_user = users[-1][0]
        async with target.bulk() as db:
            await db.bulk_insert("users", _names(USER_COLUMNS), users)
        counts["users"] += len(users)
    return counts


def replay_problems(games: list[tuple[int, str, dict[str, Any], int, int, list[Any], dict[str, Any]]]) -> list[str]:
    """(id, kind, options, seats, seed, actions, snapshot) of some games: those whose log does not
    replay to the snapshot (run in worker processes: replaying is the check's real cost)."""
    from bot.games.base import replay
    from bot.games.registry import engines

    registered = engines()
    problems = []
    for gid, kind, options, seats, seed, actions, snapshot in games:
        engine = registered.get(kind)
        if engine is None:
            problems.append(f"game {gid}: kind {kind!r} is not a game this bot knows")
            continue
        try:
            replayed = replay(engine, options, seats, seed, actions)
        except Exception as err:
            problems.append(f"game {gid}: its action log does not replay ({type(err).__name__}: {err})")
            continue
        if replayed != engine.upgrade(snapshot):  # a snapshot saved in an older schema, read as today's
            problems.append(f"game {gid}: replaying its action log does not give its snapshot")
    return problems


REPLAY_BATCH = 100  # games per task of a worker process


async def check(source: Store, target: Store, say: Callable[[str], None], workers: int | None = None) -> list[str]:
    """What does not check out (empty: all well): row counts, and every game read back from the
    target equal to the source and replaying to its snapshot (on every core); a game under older
    rules has its action log compared with the source's instead."""
    import asyncio
    import multiprocessing
    import os
    from concurrent.futures import ProcessPoolExecutor

    from bot.games.registry import engines

    registered = engines()
    problems, older = [], 0
    for table in ("games", *CHILDREN, "users"):
        a, b = await _count(source, table), await _count(target, table)
        if a != b:
            problems.append(f"{table}: {a} rows in the source, {b} in the target")
    ids = [r[0] for r in await target.db.fetch("SELECT id FROM games ORDER BY id")]
    loop = asyncio.get_running_loop()
    workers = workers or os.cpu_count() or 1
    pending: set[asyncio.Future[list[str]]] = set()
    batch: list[Any] = []
    # spawned, not forked: this process has threads (aiosqlite's), which a fork must not copy mid-lock
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:

        async def drain(limit: int) -> None:
            nonlocal pending
            while len(pending) > limit:
                done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                for future in done:
                    problems.extend(future.result())

        for n, gid in enumerate(ids, 1):
            try:
                copied, original = await target.game(gid), await source.game(gid)
            except DamagedGame as err:
                problems.append(str(err))
                continue
            target.forget_cached()
            source.forget_cached()
            if copied is None or original is None or copied != original:
                problems.append(f"game {gid}: differs from the source")
            elif copied.snapshot is not None:  # a lobby has nothing to replay
                actions = await target.actions(gid)
                engine = registered.get(copied.kind)
                if engine is not None and not on_todays_rules(engine, copied.snapshot):
                    older += 1
                    if actions != await source.actions(gid):
                        problems.append(f"game {gid}: its action log differs from the source")
                else:
                    batch.append(
                        (gid, copied.kind, copied.options, len(copied.seats), copied.seed, actions, copied.snapshot)
                    )
            if len(batch) >= REPLAY_BATCH or (n == len(ids) and batch):
                pending.add(loop.run_in_executor(pool, replay_problems, batch))
                batch = []
                await drain(2 * workers)  # a bounded queue: memory stays flat whatever the size
            if n % 10_000 == 0:
                say(f"  {n} of {len(ids)} games checked")
        await drain(0)
    if older:
        say(f"  {older} games began under older rules: their action logs were compared, not replayed")
    return sorted(problems, key=lambda p: int(p.split()[1].rstrip(":")) if p.startswith("game ") else 0)


async def copy_store(src: Path | str, dst: Path | str, say: Callable[[str], None] = print) -> dict[str, int]:
    if describe(src) == describe(dst) or (
        isinstance(src, Path) and isinstance(dst, Path) and src.resolve() == dst.resolve()
    ):
        raise CopyError("the source and the target are the same database")
    if isinstance(src, Path) and not src.exists():
        raise CopyError(f"{src}: no such file")
    source = await Store.open(src)
    try:
        target = await Store.open(dst)
        try:
            games, users = await _count(target, "games"), await _count(target, "users")
            if games or users:
                raise CopyError(
                    f"refusing to write into {describe(dst)}: it already holds {games} games and "
                    f"{users} users (copy into an empty database)"
                )
            start = time.perf_counter()
            counts = await copy_rows(source, target, say)
            say(
                f"copied {counts['games']} games, {counts['actions']} actions, {counts['users']} users "
                f"in {time.perf_counter() - start:.1f} s; checking every game"
            )
            problems = await check(source, target, say)
            if problems:
                raise CopyError(f"the copy does not check out: {len(problems)} problem(s), first: {problems[0]}")
            return counts
        finally:
            await target.close()
    finally:
        await source.close()


def _target(text: str) -> Path | str:
    from bot.store_pg import is_url

    return text if is_url(text) else Path(text).expanduser()


def main(argv: list[str]) -> int:
    """store copy SRC DST"""
    import asyncio

    if len(argv) != 3 or argv[0] != "copy":
        print("usage: python -m bot store copy SRC DST   (each an SQLite file or a postgresql:// URL)", file=sys.stderr)
        return 2
    src, dst = _target(argv[1]), _target(argv[2])
    try:
        counts = asyncio.run(copy_store(src, dst))
    except (CopyError, StoreError) as err:
        print(f"store copy: {err}", file=sys.stderr)
        return 1
    print(f"done: {counts['games']} games from {describe(src)} to {describe(dst)}; every game checks out")
    return 0
