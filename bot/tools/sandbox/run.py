"""The local sandbox: the real bot against the local Discord emulator, driven from a prompt.

`python -m bot sandbox` (or `python -m bot` without DISCORD_TOKEN) starts the emulator on
127.0.0.1 in this process, builds the unmodified bot with bot.app.create_bot and connects it.
The world: guild "Sandbox", text channel #table, users alice, bob, carol, dave, erin (open DMs),
hermit (DMs closed) and mod (Manage Threads).

Syntax (one command a line; `name>` says who acts, a line without it uses the last user,
alice at first):

  alice> /heat new track:usa            slash command in #table; options as name:value, quotes
                                        for spaces (track:"Great Britain"); words after an option
                                        continue its value; a choice by value or name, any case
  alice> in thread /game abandon        ... in the newest game thread (or: in #table, in dm,
                                        in "Heat #1")
  bob> /heat join
  alice> click Start                    click the button with that label (any case, or the only
                                        label it begins) on the newest message this user can see
                                        that has it: #table, threads, own DMs, own ephemeral replies
  alice> click 2 Start                  ... on the message numbered #2
  bob> select 3 4 1                     choose options, by value or by label (any case; quote
                                        labels with spaces), in the newest select this user sees
  bob> select #7 3 4                    ... in the select on message #7
  bob> ? /heat play move:gear           autocomplete: list the choices for the focused option
                                        (the last option given that autocompletes)
  alice> dm                             show alice's DMs (the latest 5)
  show                                  #table and the game threads, the latest messages
  wait [seconds]                        look again for late messages (after waiting)
  bob>                                  make bob the current user
  ゆきこ> /heat join                  a name not yet known joins the guild as a new user (any
                                        script: José Müller> ..., 山田太郎> ...)
  ゆきこ> :locale ja                  the user's Discord language (ja, en-US, fr, ...): DMs and
                                        private answers follow it; :locale alone shows it
  users | help | quit                   (# starts a comment line)

After each command the sandbox prints what is new, numbered (#n, the same number for the same
message all session long): public messages in #table and threads, DMs as "[DM to bob]",
ephemeral replies as "[only alice sees]", each image as "[image: <path>]" after writing it to
<state>/sandbox-images/<n>-<filename>.png, then the buttons and each select's options
(value: label). A changed message is printed again as "(edited)". An error prints one
"error:" line and the prompt goes on.

With stdin not a terminal the lines are read from stdin and echoed with their user; the exit
status is 1 if any line failed (after running them all), else 0:

  printf 'alice> /heat new track:usa\\nbob> click Join\\nalice> click Start\\nalice> dm\\n' \\
      | python -m bot sandbox

Each run starts with a fresh <state>/sandbox.sqlite3 (the emulator's world is new each run, so
old games would point at threads that are gone); `--keep` keeps it. With BOT_DATABASE set, that
file is used and never deleted.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import logging
import os
import re
import sys
import threading
from pathlib import Path
from typing import Any, Mapping

from bot.config import Settings, read_dotenv
from bot.store import describe

_doc = __doc__ or ""
SYNTAX = _doc[_doc.index("Syntax") : _doc.index("After each command")]
USAGE = "usage: python -m bot sandbox [--keep]   (--keep: keep the sandbox database of the last run)"
SQLITE_SIDE_FILES = ("", "-wal", "-shm", "-journal")


def sandbox_database(
    settings: Settings, keep: bool, environ: Mapping[str, str] | None = None, dotenv: Path | None = Path(".env")
) -> tuple[Path | str, bool, str]:
    """(database path, delete it first?, a banner line). BOT_DATABASE, when the user set it (in the
    environment or .env), is used as it is; otherwise the sandbox has its own file."""
    env = os.environ if environ is None else environ
    explicit = "BOT_DATABASE" in env or (dotenv is not None and "BOT_DATABASE" in read_dotenv(dotenv))
    if explicit:
        return (
            settings.database,
            False,
            (
                f"Database: {describe(settings.database)} (from BOT_DATABASE; kept as it is. "
                f"Games from earlier runs stay in it, but their threads are gone)"
            ),
        )
    path = settings.state_dir / "sandbox.sqlite3"
    if keep:
        return (
            path,
            False,
            (
                f"Database: {path} (kept with --keep: games from earlier runs stay in it, "
                f"but their threads and messages are gone, since the emulator starts empty)"
            ),
        )
    existed = any(Path(f"{path}{s}").exists() for s in SQLITE_SIDE_FILES)
    note = "the old sandbox database was deleted" if existed else "new"
    return path, True, f"Database: {path} (fresh: {note}; use --keep to keep it)"


def delete_database(path: Path | str) -> None:
    for suffix in SQLITE_SIDE_FILES:
        with contextlib.suppress(FileNotFoundError):
            Path(f"{path}{suffix}").unlink()


def prepare_images(folder: Path, keep: bool) -> int:
    """The number the next image gets; a fresh run removes the last run's images."""
    folder.mkdir(parents=True, exist_ok=True)
    highest = 0
    for f in folder.glob("*.png"):
        m = re.match(r"(\d+)-", f.name)
        if not m:
            continue
        if keep:
            highest = max(highest, int(m.group(1)))
        else:
            f.unlink()
    return highest + 1


def setup_logging(settings: Settings, keep: bool) -> tuple[list[logging.Handler], Any]:
    """Everything to <state>/sandbox.log (a new one each run, unless --keep); warnings and errors
    are also tapped to be printed after the command during which they happened."""
    from bot.tools.sandbox.session import LogTap

    settings.state_dir.mkdir(parents=True, exist_ok=True)
    file = logging.FileHandler(settings.state_dir / "sandbox.log", mode="a" if keep else "w", encoding="utf-8")
    file.setFormatter(logging.Formatter("{asctime} {levelname:<8} {name}: {message}", style="{"))
    tap = LogTap()
    root = logging.getLogger()
    root.setLevel(getattr(logging, settings.log_level, logging.INFO))
    for h in (file, tap):
        root.addHandler(h)
    return [file, tap], tap


class Runner:
    """The event loop (emulator + bot) on its own thread; the main thread reads lines, so Ctrl-C
    and end of input reach it cleanly while the bot keeps its gateway alive between lines."""

    def __init__(self, settings: Settings, database: Path | str, banner: list[str], first_image: int, tap: Any) -> None:
        self.settings, self.database, self.banner = settings, database, banner
        self.first_image, self.tap = first_image, tap
        self.ready: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.queue: asyncio.Queue[tuple[str, bool, concurrent.futures.Future[bool]] | None] | None = None
        self.session: Any = None
        self.current: asyncio.Task[bool] | None = None
        self.thread = threading.Thread(target=self._thread, name="sandbox-loop", daemon=True)

    def start(self) -> None:
        self.thread.start()
        self.ready.result()  # re-raises a start-up failure

    def run_line(self, line: str, echo: bool) -> bool:
        fut: concurrent.futures.Future[bool] = concurrent.futures.Future()
        assert self.loop is not None and self.queue is not None
        self.loop.call_soon_threadsafe(self.queue.put_nowait, (line, echo, fut))
        while True:
            try:
                return fut.result(timeout=0.5)
            except concurrent.futures.TimeoutError:
                if not self.thread.is_alive():  # the loop died (its error was printed): stop
                    if self.session is not None:
                        self.session.quit = True
                    return False

    def interrupt(self) -> None:
        """Ctrl-C while a line runs: cancel it."""
        if self.loop is not None and self.current is not None:
            self.loop.call_soon_threadsafe(self.current.cancel)

    def stop(self, timeout: float = 20.0) -> None:
        if not self.ready.done() or self.ready.exception() is not None:
            return  # interrupted while starting, or failed: the daemon thread ends with the process
        if self.loop is not None and self.queue is not None and self.thread.is_alive():
            with contextlib.suppress(RuntimeError):
                self.loop.call_soon_threadsafe(self.queue.put_nowait, None)
        self.thread.join(timeout)

    def _thread(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as err:  # noqa: BLE001 - handed to the main thread
            if not self.ready.done():
                self.ready.set_exception(err)
            else:
                logging.getLogger(__name__).exception("the sandbox stopped with an error")
                say(f"  error: the sandbox stopped: {type(err).__name__}: {err}")

    async def _serve(self) -> None:
        from bot.app import create_bot
        from bot.tools.emulator import Emulator
        from bot.tools.emulator.testing import start_bot_in_process
        from bot.tools.sandbox.session import Session, build_world

        self.loop = asyncio.get_running_loop()
        self.queue = asyncio.Queue()
        async with Emulator() as emu:
            world = build_world(emu)
            bot = create_bot(dataclasses.replace(self.settings, database=self.database))
            handle = await start_bot_in_process(emu, bot)
            try:
                await emu.wait_for_commands()
                self.session = Session(
                    emu,
                    world,
                    self.settings.state_dir / "sandbox-images",
                    out=say,
                    log_tap=self.tap,
                    first_image=self.first_image,
                    base=Path.cwd(),
                    syntax=SYNTAX,
                )
                for line in self.banner:
                    say(line.replace("{port}", str(emu.port)))
                self.session.report_logs()  # anything the bot said while starting
                self.ready.set_result(None)
                while True:
                    item = await self.queue.get()
                    if item is None:
                        break
                    line, echo, fut = item
                    self.current = asyncio.create_task(self.session.execute(line, echo=echo))
                    try:
                        result = await self.current
                    except asyncio.CancelledError:
                        say("  (interrupted)")
                        result = False
                    except Exception as err:  # execute() catches its own; belt and braces
                        logging.getLogger(__name__).exception("the sandbox failed on %r", line)
                        say(f"  error: the sandbox itself failed ({type(err).__name__}: {err})")
                        result = False
                    finally:
                        self.current = None
                    fut.set_result(result)
                    if self.session.quit:
                        break
            finally:
                await handle.stop()
                if self.session is not None:
                    self.session.report_server_errors()


def say(text: str) -> None:
    print(text, flush=True)


def main(settings: Settings, argv: list[str]) -> int:
    keep = False
    for arg in argv:
        if arg in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        if arg == "--keep":
            keep = True
        else:
            print(f"unknown argument {arg!r}\n{USAGE}", file=sys.stderr)
            return 2
    database, fresh, db_line = sandbox_database(settings, keep)
    if fresh:
        try:
            delete_database(database)
        except OSError as err:
            print(f"cannot delete the old sandbox database {database}: {err.strerror}", file=sys.stderr)
            return 1
    images = settings.state_dir / "sandbox-images"
    first_image = prepare_images(images, keep)
    interactive = sys.stdin.isatty()
    banner = [
        "Sandbox: the real bot on a local Discord emulator (127.0.0.1:{port}; nothing reaches Discord).",
        'Guild "Sandbox", channel #table; users: alice bob carol dave erin, hermit (DMs closed), mod (Manage Threads).',
        db_line,
        f"Images: {images}/   Log: {settings.state_dir / 'sandbox.log'}",
        "Type help for the syntax, quit to leave."
        if interactive
        else "Reading commands from stdin (help lists the syntax).",
    ]
    handlers, tap = setup_logging(settings, keep)
    runner = Runner(settings, database, banner, first_image, tap)
    try:
        try:
            runner.start()
        except Exception as err:  # one clear line, no traceback (the log has the details)
            logging.getLogger(__name__).exception("the sandbox could not start")
            print(f"the sandbox could not start: {type(err).__name__}: {err}", file=sys.stderr)
            return 1
        ok = _read_lines(runner, interactive)
        session = runner.session
    except KeyboardInterrupt:
        print()
        ok, session = True, runner.session
    finally:
        runner.stop()
        for h in handlers:
            logging.getLogger().removeHandler(h)
            h.close()
    failures = session.failures if session is not None else 1
    if interactive:
        return 0
    if failures:
        print(f"{failures} line(s) failed", file=sys.stderr)
    return 1 if failures or not ok else 0


def _read_lines(runner: Runner, interactive: bool) -> bool:
    if interactive:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401 - line editing and history for input()
    while True:
        session = runner.session
        if interactive:
            try:
                line = input(f"{session.last_user}> ")
            except EOFError:
                print()
                return True
        else:
            line = sys.stdin.readline()
            if not line:
                return True
        try:
            if not runner.run_line(line.rstrip("\n"), echo=not interactive) and not runner.thread.is_alive():
                return False
        except KeyboardInterrupt:
            runner.interrupt()
            raise
        if session.quit:
            return True
