"""What a game costs the thread and the players (issue #27), from the seeded end-to-end games of
tests/e2e/test_every_decision_told.py played against the real bot through the emulator. A script,
not a test: `.venv/bin/python -m tests.e2e.noise [kind ...]` prints one figure per line as
`name: value unit`. A round: every player has moved at least once."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from bot.app import create_bot
from bot.tools.emulator import Emulator
from bot.tools.emulator.testing import start_bot_in_process

from .conftest import make_world, settings_for
from tests.e2e.watch import GAMES, Watch, play


async def measure(kind: str) -> Watch:
    async with Emulator() as emu:
        w = make_world(emu)
        w.tmp_path = Path(tempfile.mkdtemp(prefix="noise-"))
        w.bot = create_bot(settings_for(w.tmp_path))
        handle = await start_bot_in_process(emu, w.bot)
        await emu.wait_for_commands()
        try:
            return await play(w, kind, strict=False)
        finally:
            await handle.stop()


def report(kind: str, watch: Watch) -> list[str]:
    rounds = max(1, watch.rounds)
    decisions = sum(watch.decisions.values())
    return [
        f"{kind}_rounds: {watch.rounds} rounds",
        f"{kind}_thread_posts: {watch.posts / rounds:.2f} per round",
        f"{kind}_thread_edits: {watch.edits / rounds:.2f} per round",
        f"{kind}_pings: {watch.pings / rounds:.2f} per round",
        f"{kind}_notifications_per_decision: {sum(watch.notes.values()) / max(1, decisions):.2f} per decision",
        f"{kind}_told_per_decision: {sum(watch.told.values()) / max(1, decisions):.2f} per decision",
    ]


def main(kinds: list[str]) -> None:
    for kind in kinds or sorted(GAMES):
        for line in report(kind, asyncio.run(measure(kind))):
            print(line, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
