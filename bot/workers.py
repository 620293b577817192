"""Worker processes for CPU work kept off the event loop's interpreter (and its GIL): a pool of
spawned processes, started at first use and started again after a worker died. Used by the
game-end animation (bot/export.py Animator) and the AI seats' decisions (bot/autoplayer.py Thinker).

Nothing here imports discord."""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, TypeVar

T = TypeVar("T")


class Workers:
    """`size` worker processes, spawned (not forked: a fork of a running event loop is unsafe) when
    the first task comes. A worker that dies (killed, out of memory) breaks the pool: the task
    raises BrokenProcessPool and the next one starts a new pool. `tasks_per_worker`: a worker
    ends after so many tasks (None: it lives on), so what a task held is given back."""

    def __init__(self, size: int = 1, tasks_per_worker: int | None = None) -> None:
        self.size = size
        self.tasks_per_worker = tasks_per_worker
        self._pool: ProcessPoolExecutor | None = None

    @property
    def started(self) -> bool:
        return self._pool is not None

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        """`fn(*args)` in a worker (a top-level function, arguments that pickle), handed to the pool
        now. BrokenProcessPool (at once or from the future) when a worker died: the pool is
        dropped, the next task starts a new one."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.size, mp_context=multiprocessing.get_context("spawn"), max_tasks_per_child=self.tasks_per_worker
            )
        pool = self._pool
        try:
            future = pool.submit(fn, *args)
        except BrokenProcessPool:
            self._drop(pool)
            raise
        future.add_done_callback(lambda done: self._broke(pool, done))
        return future

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a worker, awaited (see submit)."""
        return await asyncio.wrap_future(self.submit(fn, *args))

    def _broke(self, pool: ProcessPoolExecutor, done: Future[Any]) -> None:
        if not done.cancelled() and isinstance(done.exception(), BrokenProcessPool):
            self._drop(pool)

    def _drop(self, pool: ProcessPoolExecutor) -> None:
        if self._pool is pool:  # (a broken pool has stopped its workers itself)
            self._pool = None

    def close(self) -> None:
        """Stop the workers (tasks not started are cancelled); a later task starts new ones."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
