"""Serve a standalone emulator with a small default world until interrupted.

    python -m bot.tools.emulator [--port 8765] [--token TOKEN]

Prints one JSON line (api_base, gateway, token, control) then serves; drive it with /_emu/...
and run a bot against it with ``python -m bot.tools.emulator.launch``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal

from .server import Emulator


async def serve(port: int, token: str) -> None:
    async with Emulator(port=port, token=token) as emu:
        guild = emu.add_guild("Emulator Guild")
        emu.add_text_channel(guild, "general")
        for name in ("alice", "bob", "carol"):
            emu.add_member(guild, emu.add_user(name))
        print(json.dumps(dict(emu.env(), control=emu.base_url + "/_emu/state")), flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.tools.emulator")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--token", default="emulator-bot-token")
    args = parser.parse_args()
    asyncio.run(serve(args.port, args.token))


if __name__ == "__main__":
    main()
