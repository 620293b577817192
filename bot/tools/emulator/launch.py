"""Run a bot module (or .py file) as ``__main__`` against the emulator.

    EMULATOR_API_BASE=http://127.0.0.1:PORT/api/v10 EMULATOR_GATEWAY=ws://127.0.0.1:PORT/gateway/ \
        python -m bot.tools.emulator.launch bot [args...]

Only the two discord.py attributes are changed; the bot's code runs unmodified.
"""

from __future__ import annotations

import os
import runpy
import sys
from typing import List, Optional

from .overrides import apply_discord_py_overrides

USAGE = "usage: python -m bot.tools.emulator.launch <module | file.py> [args...]"


def main(argv: Optional[List[str]] = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        sys.exit(USAGE)
    try:
        api_base, gateway = os.environ["EMULATOR_API_BASE"], os.environ["EMULATOR_GATEWAY"]
    except KeyError as missing:
        sys.exit(f"{missing.args[0]} is not set\n{USAGE}")
    apply_discord_py_overrides(api_base, gateway)
    target, args = argv[0], argv[1:]
    sys.argv = [target, *args]
    if target.endswith(".py") or os.sep in target:
        runpy.run_path(target, run_name="__main__")
    else:
        runpy.run_module(target, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
