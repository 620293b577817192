"""The bot under test as a subprocess (bot.tools.emulator.testing.BotProcess), killed with SIGKILL and
restarted by a kill plan that spreads the kills over the crash phase."""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bot.tools.emulator.testing import BotProcess

from .common import progress


class BotGone(Exception):
    """The bot could not be brought back: the campaign stops early."""


class BotControl:
    def __init__(self, emu: Any, state_dir: Path, log_level: str = "INFO", argv: tuple[str, ...] = ("bot",)) -> None:
        self.emu = emu
        self.proc = BotProcess(
            emu, argv, env={"BOT_STATE_DIR": str(state_dir), "BOT_LOG_LEVEL": log_level, "BOT_REMINDER_INTERVAL": "12h"}
        )
        self.kills = 0
        self.points: Counter[str] = Counter()
        self.restart_failures = 0
        self.restarts = 0
        self.last_up = time.monotonic()
        self._lock = asyncio.Lock()

    @property
    def busy(self) -> bool:
        return self._lock.locked()

    def set_log_level(self, level: str) -> None:
        """Takes effect at the next (re)start."""
        self.proc.extra_env["BOT_LOG_LEVEL"] = level

    async def start(self) -> None:
        for attempt in range(3):
            try:
                await self.proc.start(timeout=60)
                self.last_up = time.monotonic()
                return
            except (TimeoutError, RuntimeError) as err:
                self.restart_failures += 1
                progress(f"the bot did not start (attempt {attempt + 1}): {str(err).splitlines()[0]}")
                await asyncio.sleep(1)
        raise BotGone("the bot does not start any more")

    async def kill(self, point: str) -> bool:
        """SIGKILL now, then start again (waits until it is connected). False if a kill is under way."""
        if self._lock.locked():
            return False
        async with self._lock:
            proc = self.proc.proc
            if proc is not None and proc.returncode is None:
                proc.kill()
                await proc.wait()
            self.kills += 1
            self.points[point] += 1
            progress(f"kill #{self.kills} at {point}")
            await self.start()
            self.restarts += 1
            return True

    async def ensure_up(self) -> bool:
        """Restart a bot that died by itself. True if it had to."""
        if self.proc.running or self._lock.locked():
            return False
        async with self._lock:
            if self.proc.running:
                return False
            await self.start()
            return True

    async def stop(self) -> None:
        await self.proc.stop()

    def output(self) -> str:
        return self.proc.output()

    def tracebacks(self) -> int:
        """ "Traceback" lines in everything the bot printed (its log goes to the console too)."""
        with open(self.proc.log_path, encoding="utf-8", errors="replace") as fh:
            return sum(1 for line in fh if line.startswith("Traceback"))

    @property
    def log_path(self) -> str:
        return self.proc.log_path


class KillPlan:
    """Decides when to kill: at chosen points (after a click, during a Start, after /new, after a
    game's last move) with a probability, and at random moments, always keeping the number of
    kills near `target * elapsed / duration` and at least `gap` seconds after the last restart."""

    def __init__(self, ctl: BotControl, rnd: random.Random, target: int, duration: float, gap: float = 1.5) -> None:
        self.ctl, self.rnd, self.target, self.duration, self.gap = ctl, rnd, target, max(duration, 1.0), gap
        self.t0 = time.monotonic()
        self.active = target > 0

    def due(self, eager: bool = False) -> bool:
        """Whether a kill may come now: the plan is on, under its target, the bot up for `gap`
        seconds, and (unless `eager`: the rare moments of a table's first seconds) not ahead of
        the pace."""
        if not self.active or self.ctl.busy or self.ctl.kills >= self.target:
            return False
        now = time.monotonic()
        if now - self.ctl.last_up < self.gap:
            return False
        return eager or self.ctl.kills < self.target * min(1.0, (now - self.t0) / self.duration) + 1

    async def maybe(self, point: str, probability: float, eager: bool = False) -> bool:
        if self.due(eager) and self.rnd.random() < probability:
            return await self.ctl.kill(point)
        return False

    async def random_moments(self) -> None:
        while self.active:
            await asyncio.sleep(self.rnd.uniform(0.3, 1.5))
            await self.maybe("random", 0.35)

    def stop(self) -> None:
        self.active = False
