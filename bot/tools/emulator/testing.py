"""pytest helpers: run a discord.py bot in-process or as a subprocess against an Emulator.

async with Emulator() as emu:
    ...world set-up...
    handle = await start_bot_in_process(emu, MyBot())
    try: ... finally: await handle.stop()

proc = await start_bot_subprocess(emu, ["bot"], env={"DATA_DIR": str(tmp_path)})
await proc.restart(); await proc.stop()
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, Mapping, Optional, Sequence

from .server import Emulator

CHECKOUT = str(Path(__file__).resolve().parents[3])  # the folder that holds this `bot` package


def child_env(emu: Emulator, *extra: Mapping[str, str]) -> Dict[str, str]:
    """The environment of a bot subprocess against `emu`: this process's, the emulator's, then each of
    `extra`, with this checkout first on PYTHONPATH, so the child runs the code the parent runs
    whatever its working folder (not another installed copy of the bot)."""
    env = dict(os.environ)
    env.update(emu.env())
    for more in extra:
        env.update(more)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (CHECKOUT, env.get("PYTHONPATH", "")) if p)
    return env


class InProcessBot:
    def __init__(self, emu: Emulator, bot: Any, task: "asyncio.Task[None]") -> None:
        self.emu, self.bot, self.task = emu, bot, task
        self.stopped = False
        emu.bots_in_process += 1

    async def stop(self) -> None:
        """Close the bot, await its task, restore discord.py's URLs (once)."""
        if self.stopped:
            return
        self.stopped = True
        try:
            await self.bot.close()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(self.task, 5)
        finally:
            self.emu.bots_in_process -= 1
            self.emu.restore_discord_py_overrides()


async def start_bot_in_process(
    emu: Emulator,
    bot: Any,
    token: Optional[str] = None,
    *,
    timeout: float = 10.0,
    guild_ready_timeout: float = 0.05,
    wait_ready: bool = True,
) -> InProcessBot:
    """Apply the overrides, start ``bot.start(token)`` as a task, wait for READY and on_ready."""
    emu.apply_discord_py_overrides()
    bot._connection.guild_ready_timeout = guild_ready_timeout  # on_ready right after GUILD_CREATEs
    before = emu.gateway.ready_count
    task = asyncio.create_task(bot.start(token or emu.token), name="emulated-bot")
    handle = InProcessBot(emu, bot, task)
    try:
        if wait_ready:
            await emu.wait_until(
                lambda: task.done() or (emu.gateway.ready_count > before and emu.gateway.connected),
                timeout,
                "the bot did not connect",
            )
            if task.done():
                task.result()
                raise RuntimeError("the bot stopped before it was ready")
            await asyncio.wait_for(bot.wait_until_ready(), timeout)
    except BaseException:
        await handle.stop()
        raise
    return handle


async def stop_bot_in_process(handle: InProcessBot) -> None:
    await handle.stop()


class BotProcess:
    """``python -m bot.tools.emulator.launch <argv...>`` with the emulator's env; output goes to a log file."""

    def __init__(
        self, emu: Emulator, argv: Sequence[str], env: Optional[Dict[str, str]] = None, cwd: Optional[str] = None
    ) -> None:
        self.emu = emu
        self.argv = list(argv)
        self.extra_env = dict(env or {})
        self.cwd = cwd
        self.proc: Optional[asyncio.subprocess.Process] = None
        fd, self.log_path = tempfile.mkstemp(prefix="emulated-bot-", suffix=".log")
        os.close(fd)

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def output(self) -> str:
        with open(self.log_path, encoding="utf-8", errors="replace") as fh:
            return fh.read()

    async def start(self, *, wait_ready: bool = True, timeout: float = 30.0) -> "BotProcess":
        if self.running:
            raise RuntimeError("already running")
        env = child_env(self.emu, self.extra_env)
        before = self.emu.gateway.ready_count
        with open(self.log_path, "ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot.tools.emulator.launch",
                *self.argv,
                env=env,
                cwd=self.cwd,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        if wait_ready:
            proc = self.proc
            try:
                await self.emu.wait_until(
                    lambda: (
                        proc.returncode is not None
                        or (self.emu.gateway.ready_count > before and self.emu.gateway.connected)
                    ),
                    timeout,
                )
            except TimeoutError:
                await self.stop()
                raise TimeoutError(f"bot subprocess not ready within {timeout}s:\n{self.output()}") from None
            if proc.returncode is not None:
                raise RuntimeError(f"bot subprocess exited with {proc.returncode}:\n{self.output()}")
        return self

    async def stop(self, timeout: float = 10.0) -> Optional[int]:
        """SIGTERM, then SIGKILL after ``timeout``; returns the exit code."""
        proc = self.proc
        if proc is None:
            return None
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(proc.wait(), timeout)
            except asyncio.TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
        return proc.returncode

    async def restart(self, **kwargs: Any) -> "BotProcess":
        await self.stop()
        return await self.start(**kwargs)


async def start_bot_subprocess(
    emu: Emulator,
    argv: Sequence[str],
    env: Optional[Dict[str, str]] = None,
    *,
    cwd: Optional[str] = None,
    wait_ready: bool = True,
    timeout: float = 30.0,
) -> BotProcess:
    return await BotProcess(emu, argv, env, cwd).start(wait_ready=wait_ready, timeout=timeout)
