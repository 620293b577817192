"""Injectable time for the emulator: wall clock, monotonic clock and snowflake ids.

Tests call ``Clock.advance(seconds)`` to make time pass instantly (interaction deadlines,
15-minute token expiry). Sleepers wake up early when the clock is advanced.
"""

from __future__ import annotations

import asyncio
import time
from datetime import datetime, timezone
from typing import Optional, Set

DISCORD_EPOCH_MS = 1420070400000


class Clock:
    def __init__(self) -> None:
        self.offset = 0.0
        self._waiters: Set[asyncio.Future] = set()

    def time(self) -> float:
        """Seconds since the Unix epoch, shifted by ``advance``."""
        return time.time() + self.offset

    def monotonic(self) -> float:
        return time.monotonic() + self.offset

    def iso(self, when: Optional[float] = None) -> str:
        return datetime.fromtimestamp(self.time() if when is None else when, timezone.utc).isoformat()

    def advance(self, seconds: float) -> None:
        """Make ``seconds`` pass at once; wakes every ``sleep`` in progress."""
        if seconds < 0:
            raise ValueError("the clock only goes forward")
        self.offset += seconds
        for fut in list(self._waiters):
            if not fut.done():
                fut.set_result(None)

    async def sleep(self, seconds: float) -> None:
        """Sleep until ``seconds`` of emulated time have passed (real time or ``advance``)."""
        end = self.monotonic() + seconds
        loop = asyncio.get_running_loop()
        while True:
            remaining = end - self.monotonic()
            if remaining <= 0:
                return
            fut = loop.create_future()
            self._waiters.add(fut)
            try:
                await asyncio.wait_for(fut, remaining)
            except asyncio.TimeoutError:
                pass
            finally:
                self._waiters.discard(fut)


class Snowflakes:
    """Time-based, strictly increasing, unique ids (Discord layout: ms << 22 | worker | seq)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._last = 0
        self._seq = 0

    def next_on_shard(self, shard: int, total: int) -> int:
        """The next id whose shard ((id >> 22) % total) is `shard`: its timestamp a few ms ahead."""
        value = self.next()
        ms = value >> 22
        ahead = (shard - ms) % total
        if ahead:
            value = ((ms + ahead) << 22) | (value & ((1 << 22) - 1))
            self._last = max(self._last, value)
        return value

    def next(self) -> int:
        ms = int(self.clock.time() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (1 << 17) | (1 << 12) | (self._seq & 0xFFF)
        self._seq += 1
        if value <= self._last:
            value = self._last + 1
        self._last = value
        return value
