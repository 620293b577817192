"""Logging: discord.py's own setup plus a rotating file in the state folder."""

from __future__ import annotations

import logging
import logging.handlers

import discord

from bot.config import Settings


SECRET_AT_DEBUG = ("discord", "aiosqlite")


class _RedactToken(logging.Filter):
    """Belt and braces: a token must never reach a log line, whoever formats it."""

    def __init__(self, token: str | None) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        if self.token and self.token in record.getMessage():
            record.msg, record.args = record.getMessage().replace(self.token, "[token]"), ()
        return True


def setup_logging(settings: Settings) -> None:
    level = getattr(logging, settings.log_level)
    discord.utils.setup_logging(level=level, root=True)
    settings.state_dir.mkdir(parents=True, exist_ok=True)
    handler = logging.handlers.RotatingFileHandler(
        settings.state_dir / "bot.log", maxBytes=5 * 2**20, backupCount=3, encoding="utf-8"
    )
    handler.setFormatter(logging.Formatter("{asctime} {levelname:<8} {name}: {message}", style="{"))
    root = logging.getLogger()
    root.addHandler(handler)
    for h in root.handlers:
        h.addFilter(_RedactToken(settings.token))
    # Hidden information must never reach a log at any level. discord.py's DEBUG lines carry whole
    # request and event payloads (DMs, private hands included) and aiosqlite's carry every
    # statement with its parameters (snapshots: every hand, the deck order): these loggers never
    # go below INFO, whatever BOT_LOG_LEVEL says.
    for name in SECRET_AT_DEBUG:
        logging.getLogger(name).setLevel(max(level, logging.INFO))
