"""What arrives from Discord's wire, made safe before discord.py reads it.

discord.py decodes every gateway event and REST answer with `discord.utils._from_json`, which is
orjson when it is installed (it is: the store uses it). orjson refuses a lone UTF-16 surrogate
("\\ud800"), and any user can put one in a select value, a custom_id or a slash option: the
decode error would end the gateway connection, and with it every game. `install()` keeps orjson
for well-formed JSON and falls back to the standard decoder for the rest, replacing lone
surrogates with U+FFFD, so nothing downstream (regexes, SQLite, orjson.dumps) ever sees one.
tests/emulator/test_discord_pins.py fails if discord.py stops decoding through this name.
"""

from __future__ import annotations

import json
import re
from typing import Any

import discord.utils

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_strict_loads = discord.utils._from_json


def scrub(value: Any) -> Any:
    """The same JSON value with every lone surrogate in its strings (keys too) replaced."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [scrub(v) for v in value]
    if isinstance(value, dict):
        return {scrub(k): scrub(v) for k, v in value.items()}
    return value


def tolerant_loads(data: str | bytes) -> Any:
    try:
        return _strict_loads(data)
    except ValueError:  # orjson.JSONDecodeError is a ValueError
        return scrub(json.loads(data))


def install() -> None:
    discord.utils._from_json = tolerant_loads  # type: ignore[assignment]
