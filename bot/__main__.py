"""`python -m bot` runs the bot; with no DISCORD_TOKEN it starts the local sandbox.

python -m bot            connect to Discord (or the sandbox without a token)
python -m bot sandbox    the local sandbox: emulator + real bot + a prompt (stdin if not a tty)
python -m bot bench [ROUNDS]
                         print the benchmark figures, one per line as `name: value unit`
python -m bot arena [--quick] [--games N] [--only heat,pon] [--workers N] [--results FILE]
                         seeded games between the AI levels and the automatic player: win shares
                         and decision times, one figure per line
python -m bot campaign [--minutes N] [--seed S] [--games N] [--kills N]
                         the attack campaign against the real bot through the emulator
python -m bot replay FILE [--out DIR] [--animation] [--format gif|webp] [--locale en|ja]
                         a /game export back into board images: DIR/board-001.png (.webp)... one per
                         turn (DIR: FILE without .json), or one animation with --animation
python -m bot store copy SRC DST
                         copy a whole store (an SQLite file or a postgresql:// URL each) into an
                         empty one, checking that every game replays to its snapshot (one
                         begun under older rules: that its action log is the source's)
"""

from __future__ import annotations

import asyncio
import signal
import sys

from bot.config import ConfigError, load_settings


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "run"
    if command in ("-h", "--help", "help") or any(a in ("-h", "--help") for a in argv[1:]):
        print(__doc__.strip())  # every sub-command answers --help with this page, never a traceback
        return 0
    if command == "replay":  # reads a file and draws: no settings needed
        from bot.export import main as replay_main

        return replay_main(argv[1:])
    try:
        settings = load_settings()
    except ConfigError as err:
        print(f"configuration error: {err}", file=sys.stderr)
        return 2
    if command == "bench":
        from bot.tools.bench.figures import main as bench

        return bench(argv[1:])
    if command == "store":
        from bot.store_copy import main as store_main

        return store_main(argv[1:])
    if command == "arena":
        from bot.tools.arena import main as arena

        return arena(argv[1:])
    if command == "campaign":
        from bot.tools.campaign import main as campaign

        return campaign(argv[1:])
    if command == "sandbox" or (command == "run" and settings.token is None):
        from bot.tools.sandbox.run import main as sandbox

        return sandbox(settings, argv[1:])
    if command != "run":
        print(f"unknown command {command!r}; try: python -m bot --help", file=sys.stderr)
        return 2
    import discord

    from bot.logs import setup_logging
    from bot.store import StoreError

    try:
        setup_logging(settings)
    except OSError as err:  # a state folder it cannot write: one line, like every start-up failure
        print(f"cannot write the log in {settings.state_dir}: {err.strerror or err}", file=sys.stderr)
        return 1
    try:
        asyncio.run(run_bot(settings))
    except discord.LoginFailure:  # one clear line, no traceback
        print("Discord refused the token: check DISCORD_TOKEN.", file=sys.stderr)
        return 1
    except StoreError as err:
        print(f"cannot use the database {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


async def run_bot(settings) -> None:
    """Run until closed; SIGTERM/SIGINT first let moves being announced finish, so a restart
    never drops a player's DM."""
    from bot.app import create_bot
    from bot.store import Store

    # The store first: a database that cannot be used stops start-up before anything connects.
    bot = create_bot(settings, await Store.open(settings.database))

    async def shutdown() -> None:
        if bot.table is not None:
            await bot.table.drain()
        await bot.close()

    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Task[None]] = []  # keeps the shutdown task referenced
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: stopping.append(asyncio.ensure_future(shutdown())))
    async with bot:
        await bot.start(settings.token)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
