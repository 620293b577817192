"""bot/workers.py: the spawned worker pool the game-end animation and the AI seats share."""

from __future__ import annotations

import os
import signal
from concurrent.futures.process import BrokenProcessPool

import pytest

from bot.workers import Workers


def pid() -> int:
    return os.getpid()


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


async def test_a_task_runs_in_another_process_and_a_dead_worker_is_replaced():
    workers = Workers(1)
    try:
        assert not workers.started
        first = await workers.run(pid)
        assert first != os.getpid() and workers.started
        assert await workers.run(pid) == first  # the worker lives on
        with pytest.raises(BrokenProcessPool):
            await workers.run(die)
        assert not workers.started  # the broken pool is dropped
        assert await workers.run(pid) not in (first, os.getpid())  # the next task starts another
    finally:
        workers.close()


async def test_a_worker_ends_after_its_tasks_when_asked():
    workers = Workers(1, tasks_per_worker=1)
    try:
        assert await workers.run(pid) != await workers.run(pid)
    finally:
        workers.close()
