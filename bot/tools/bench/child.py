"""The real bot, unmodified, as the bench runs it in its own process (so its memory is its own):

    python -m bot.tools.emulator.launch bot.tools.bench.child     (BOT_* settings and the token from the env)

It prints one line `BENCH {json}` once the start-up work is done: the seconds from starting to
`table.recovered` (the bot does that work before the gateway connects), from the gateway's READY
to `table.recovered` (0 when it was done before), and its resident memory then. It runs until
SIGTERM.
"""

from __future__ import annotations

import asyncio
import gc
import json
import signal
import sys
import time
from pathlib import Path

from bot.app import create_bot
from bot.config import load_settings
from bot.logs import setup_logging


def rss_mb(pid: str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def run() -> None:
    settings = load_settings()
    setup_logging(settings)
    bot = create_bot(settings)
    marks: dict[str, float] = {}

    async def on_socket_event_type(event: str) -> None:
        if event == "READY":
            marks.setdefault("ready", time.monotonic())

    async def on_ready() -> None:
        marks.setdefault("on_ready", time.monotonic())

    bot.add_listener(on_socket_event_type)
    bot.add_listener(on_ready)
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
    started = time.monotonic()
    assert settings.token is not None  # the emulator's, from the environment
    task = asyncio.create_task(bot.start(settings.token))
    while bot.table is None and not task.done():
        await asyncio.sleep(0.005)
    if bot.table is not None:
        await bot.table.recovered.wait()  # the start-up work, done before the gateway connects
        done = time.monotonic()
        queued = bot.table.owed_queued()
        while "on_ready" not in marks and not task.done():
            await asyncio.sleep(0.005)
        gc.collect()
        await asyncio.sleep(1.0)  # what the process holds once it has settled
        ready = marks.get("ready", done)
        print(
            "BENCH "
            + json.dumps(
                {
                    "start_to_recovered_s": done - started,
                    "ready_to_recovered_s": max(0.0, done - ready),
                    "ready_to_on_ready_s": marks.get("on_ready", ready) - ready,
                    "owed_queued": queued,
                    "rss_mb": rss_mb(),
                }
            ),
            flush=True,
        )
    await task


if __name__ == "__main__":
    asyncio.run(run())
    sys.exit(0)
