"""Damaged start-ups: the bot started (as a subprocess, against its own emulator) on a database
file that is truncated, garbage, locked by another process, from a future schema, or read-only.
A good start-up refuses at once: a non-zero exit within 15 s, at most 2 lines on stderr, naming
the file."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

from bot.tools.emulator import Emulator
from bot.tools.emulator.testing import child_env

from .common import Figures, progress

WAIT = 15.0
LOCKER = (
    "import sqlite3, sys, time\n"
    "con = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
    "con.execute('BEGIN EXCLUSIVE')\n"
    "print('locked', flush=True)\n"
    "time.sleep(float(sys.argv[2]))\n"
)


def backup(source: Path, target: Path) -> None:
    """A consistent copy of the campaign's database (the source opened read-only)."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()


def set_user_version(path: Path, value: int) -> None:
    con = sqlite3.connect(path)
    try:
        con.execute(f"PRAGMA user_version = {int(value)}")
        con.commit()
    finally:
        con.close()


def damaged_files(good: Path, folder: Path, rnd: random.Random) -> list[tuple[str, Path]]:
    """(case name, file) for every damage; the locked and read-only cases are prepared by the caller."""
    data = good.read_bytes()
    cases: list[tuple[str, Path]] = []

    def write(name: str, content: bytes) -> None:
        path = folder / name / "bot.sqlite3"
        path.parent.mkdir(parents=True)
        path.write_bytes(content)
        cases.append((name, path))

    write("truncated-100", data[:100])
    write("truncated-half", data[: len(data) // 2])
    write("truncated-tail", data[:-1000] if len(data) > 2000 else data[: len(data) * 3 // 4])
    write("garbage-random", rnd.randbytes(64 * 1024))
    write("garbage-text", b"this is not a database\n" * 200)
    write("garbage-header", data[:100] + rnd.randbytes(max(4096, len(data) - 100)))
    for name, version in (("future-schema", 999), ("future-schema-max", 2**31 - 1), ("negative-schema", -1)):
        path = folder / name / "bot.sqlite3"
        path.parent.mkdir(parents=True)
        shutil.copyfile(good, path)
        set_user_version(path, version)
        cases.append((name, path))
    for name in ("locked", "read-only"):
        path = folder / name / "bot.sqlite3"
        path.parent.mkdir(parents=True)
        shutil.copyfile(good, path)
        cases.append((name, path))
    return cases


async def run_one(emu: Emulator, name: str, db: Path, fig: Figures, wait: float = WAIT) -> None:
    env = child_env(emu, {"BOT_STATE_DIR": str(db.parent / "state"), "BOT_DATABASE": str(db), "BOT_LOG_LEVEL": "INFO"})
    out_path, err_path = db.parent / "stdout.txt", db.parent / "stderr.txt"
    with open(out_path, "wb") as out_file, open(err_path, "wb") as err_file:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.tools.emulator.launch",
            "bot",
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out_file,
            stderr=err_file,
        )
    fig["startups_damaged"] += 1
    try:
        await asyncio.wait_for(proc.wait(), wait)
        hung = False
    except asyncio.TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        await proc.wait()
        hung = True
    out, err = out_path.read_bytes(), err_path.read_bytes()
    lines = [x for x in err.decode(errors="replace").splitlines() if x.strip()]
    names_file = any(str(db) in x or db.name in x for x in lines)
    if hung:
        fig["startups_hung"] += 1
        verdict = "hung"
    elif proc.returncode != 0 and len(lines) <= 2 and names_file:
        fig["startups_clean_exit"] += 1
        verdict = "clean exit"
    else:
        verdict = f"exit {proc.returncode}, {len(lines)} stderr lines, names the file: {names_file}"
    text = (out + err).decode(errors="replace")
    if "Traceback" in text:
        fig["startups_traceback"] += 1
        verdict += ", traceback"
    progress(f"start-up on {name}: {verdict}")


async def damaged_startups(
    good_db: Path, folder: Path, fig: Figures, seed: int, wait: float = WAIT, most: int | None = None
) -> None:
    """Start the bot on each damaged copy of `good_db` (`most`: a seeded sample of so many cases;
    tests/e2e/test_damaged_startup.py starts every case one by one)."""
    rnd = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    template = folder / "template.sqlite3"
    backup(good_db, template)
    cases = damaged_files(template, folder, rnd)
    if most is not None:
        cases = sorted(rnd.sample(cases, min(most, len(cases))), key=cases.index)
    is_root = hasattr(os, "geteuid") and os.geteuid() == 0
    locker: Optional[Any] = None
    runnable = []
    for name, path in cases:
        if name == "read-only":
            if is_root:
                progress("start-up on a read-only file skipped: running as root")
                continue
            path.chmod(0o444)
        if name == "locked":
            locker = await asyncio.create_subprocess_exec(
                sys.executable, "-c", LOCKER, str(path), str(wait * 20), stdout=asyncio.subprocess.PIPE
            )
            await asyncio.wait_for(locker.stdout.readline(), 10)  # type: ignore[union-attr]
        runnable.append((name, path))
    try:
        # Two at a time: ten bots importing at once on a busy machine could outlast WAIT without hanging.
        gate = asyncio.Semaphore(2)

        async def one(name: str, path: Path) -> None:
            async with gate:
                await run_one(emu, name, path, fig, wait)

        async with Emulator() as emu:
            await asyncio.gather(*(one(name, path) for name, path in runnable))
    finally:
        if locker is not None and locker.returncode is None:
            locker.kill()
            await locker.wait()
