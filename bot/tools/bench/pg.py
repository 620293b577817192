"""The store's bench figures on PostgreSQL (issue #18): `move_db_ratio_pg` (a move's database work
against one bare INSERT of the same size on the same server) and `startup_s_100k_pg` (the bot
started on a PostgreSQL copy of the bench's 100,000-game database), on a throwaway server
(bot/tools/pgserver.py) with synchronous_commit=off: like SQLite's WAL with synchronous=NORMAL, a
commit survives the bot's crash, not the machine's (fsync stays on).

  python -m bot.tools.bench.pg [games]     (games: the size of the start-up database, 100000 by default;
                                     `python -m bot bench` runs it with 10000, for time)
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

from bot.tools.bench import live as bench_live
from bot.tools.bench import store as bench_store
from bot.tools.bench.live import emit
from bot.tools.pgserver import NoServer, Server

BENCH_SETTINGS = {"synchronous_commit": "off", "shared_buffers": "256MB"}


def label(games: int) -> str:
    return f"{games // 1000}k" if games % 1000 == 0 else str(games)


async def analyze(url: str) -> None:
    """ANALYZE the database (after a bulk copy: the planner's statistics), on a connection of its own."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


async def pg_figures(tmp: Path, games: int = 100_000) -> None:
    """`games` of the cached 100,000-game database (its first ones) copied to PostgreSQL."""
    from bot.store import Store
    from bot.store_copy import copy_rows

    try:
        server = Server(BENCH_SETTINGS)
    except NoServer as err:
        print(f"PostgreSQL figures skipped: {err}", flush=True)
        return
    with server:
        await bench_live.move_db(tmp, database=await server.new_database("moves"), suffix="_pg")
        path, _ = await bench_store.cached_database(100_000)
        url = await server.new_database("startup")
        source, target = await Store.open(path), await Store.open(url)
        start = time.perf_counter()
        try:
            await copy_rows(source, target, lambda _: None, up_to_id=games)
            await analyze(url)
        finally:
            await source.close()
            await target.close()
        emit(
            f"pg_copy_s_{label(games)}",
            time.perf_counter() - start,
            "s (store copy of the SQLite file, without its replay check)",
        )
        # the Discord side from a SQLite file of the same games
        part = bench_store.copy_database(path, tmp / "part.sqlite3") if games < 100_000 else path
        if part != path:
            bench_store.keep_games(part, games)
        await bench_live.start_up(url, tmp, 0.0, populate_from=part, suffix="_pg", total=label(games))


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv else 100_000
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(pg_figures(Path(tmp), games))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
