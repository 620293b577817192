"""What several core test modules share: the bench's database of real stored games, built once per
test run (issue #29: each build plays nine real games through the Store, and four modules used to
build their own)."""

from __future__ import annotations

import asyncio
import fcntl
import os
import shutil
from pathlib import Path

import pytest

BENCH_GAMES = 200  # as many as the largest user needs; a smaller one keeps the first (keep_games)


@pytest.fixture(scope="session")
def bench_games(tmp_path_factory) -> Path:
    """A database of BENCH_GAMES games from bench_store.build, built once for the whole run: under
    xdist the workers share one file (the first to take the lock builds it). Copy it before use."""
    from bot.tools.bench import store as bench_store  # (here: the other core tests need not import it)

    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # this run's folder, shared by its workers
    path = root / f"bench-games-{BENCH_GAMES}.sqlite3"
    with open(root / "bench-games.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            partial = path.with_suffix(".building")
            asyncio.run(bench_store.build(partial, BENCH_GAMES))
            partial.replace(path)
    return path


def bench_copy(source: Path, target: Path, games: int = BENCH_GAMES) -> Path:
    """A private copy of the bench's database with its first `games` games (the same rows a build
    of `games` games has: a game's clone depends only on its id)."""
    from bot.tools.bench import store as bench_store

    shutil.copyfile(source, target)
    if games < BENCH_GAMES:
        bench_store.keep_games(target, games)
    return target
