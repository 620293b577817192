"""Settings from the environment (and an optional .env file), validated once at start-up.

A bad value raises ConfigError with one line that names the setting; `python -m bot` prints it
and exits without a traceback.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path

from bot.i18n import supported_locales


class ConfigError(Exception):
    pass


@dataclass(frozen=True)
class Settings:
    token: str | None
    state_dir: Path
    database: Path | str  # an SQLite file, or a postgresql:// URL (str)
    dev_guild: int | None
    log_level: str
    reminder_seconds: float
    locale: str = "en"
    shards: "Shards | None" = None  # BOT_SHARDS: the shard range this process runs (None: discord.py's default)
    # BOT_CATCH_UP_SWEEP: how often a process looks for announcements left owed on its games by
    # another process (or a crash), taking games unchanged this long (bot/announcer.py)
    catch_up_sweep: float = 60.0
    ai_workers: int = 1  # BOT_AI_WORKERS: AI searches at once, each in its own process

    def __repr__(self) -> str:  # never show the token, even in a debugger or a log line
        database = self.database
        if isinstance(database, str):  # never show a database password either
            from bot.store_pg import without_password

            database = without_password(database)
        return (
            f"Settings(token={'set' if self.token else 'unset'}, state_dir={self.state_dir}, "
            f"database={database}, dev_guild={self.dev_guild}, log_level={self.log_level}, "
            f"reminder_seconds={self.reminder_seconds}, shards={self.shards}, catch_up_sweep={self.catch_up_sweep}, "
            f"ai_workers={self.ai_workers})"
        )


@dataclass(frozen=True)
class Shards:
    """The shards one process runs: ids first..last (inclusive) of `total`. A guild belongs to
    shard (guild_id >> 22) % total, as Discord routes it; DMs belong to shard 0."""

    first: int
    last: int
    total: int

    @property
    def ids(self) -> list[int]:
        return list(range(self.first, self.last + 1))

    def owns(self, guild_id: int | None) -> bool:
        return self.first <= shard_of(guild_id, self.total) <= self.last

    def __str__(self) -> str:
        return f"{self.first}/{self.total}" if self.first == self.last else f"{self.first}-{self.last}/{self.total}"


def shard_of(guild_id: int | None, total: int) -> int:
    """Discord's shard of a guild (a DM, guild None, is shard 0)."""
    return 0 if guild_id is None else (guild_id >> 22) % total


_SHARDS = re.compile(r"^(\d{1,6})(?:-(\d{1,6}))?/(\d{1,6})$")


def parse_shards(text: str) -> Shards:
    """'0-3/8' (shards 0 to 3 of 8) or '5/8' (shard 5 of 8); ConfigError (one line) otherwise."""
    m = _SHARDS.match(text.replace(" ", ""))
    if not m:
        raise ConfigError(f"BOT_SHARDS must look like 0-3/8 (shards 0 to 3 of 8) or 5/8 (shard 5 of 8), not {text!r}")
    first, total = int(m.group(1)), int(m.group(3))
    last = int(m.group(2)) if m.group(2) is not None else first
    if total < 1:
        raise ConfigError(f"BOT_SHARDS {text}: the total must be at least 1")
    if first > last:
        raise ConfigError(f"BOT_SHARDS {text}: the range runs backwards (write {last}-{first}/{total})")
    if last >= total:
        raise ConfigError(
            f"BOT_SHARDS {text}: does not fit its total; the shards of {total} are numbered 0 to {total - 1}"
        )
    return Shards(first, last, total)


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")
_UNIT = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(text: str) -> float:
    """'90s', '30m', '12h', '1d' or a bare number of seconds."""
    m = _DURATION.match(text.lower())
    if not m:
        raise ValueError(text)
    return float(m.group(1)) * _UNIT[m.group(2)]


def read_dotenv(path: Path) -> dict[str, str]:
    """KEY=VALUE lines; blank lines and # comments ignored; optional surrounding quotes."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if "=" not in line:
            raise ConfigError(f"{path}:{n}: expected KEY=VALUE")
        key, value = line.split("=", 1)
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip().removeprefix("export ").strip()] = value
    return values


def database_setting(env: dict[str, str], state_dir: Path) -> Path | str:
    """BOT_DATABASE as a PostgreSQL URL or an SQLite file path (by default in the state folder)."""
    database_text = env.get("BOT_DATABASE", "").strip()
    if database_text.startswith(("postgresql://", "postgres://")):
        return database_text  # PostgreSQL through asyncpg
    if "://" in database_text:
        raise ConfigError(
            f"BOT_DATABASE must be a file path (SQLite) or a postgresql:// URL, not "
            f"{database_text.split('://', 1)[0]}://..."
        )
    # a path, or nothing: SQLite, exactly as before
    return Path(database_text or str(state_dir / "bot.sqlite3")).expanduser()


def load_settings(environ: dict[str, str] | None = None, dotenv: Path | None = Path(".env")) -> Settings:
    env = dict(read_dotenv(dotenv) if dotenv else {})
    env.update(os.environ if environ is None else environ)  # the real environment wins over .env

    token = env.get("DISCORD_TOKEN", "").strip() or None
    if token is not None and (len(token) < 16 or any(c.isspace() for c in token)):
        raise ConfigError(
            "DISCORD_TOKEN does not look like a bot token (copy it again from the Developer Portal's Bot page)"
        )

    state_dir = Path(env.get("BOT_STATE_DIR", "state")).expanduser()
    database = database_setting(env, state_dir)

    dev_guild_text = env.get("BOT_DEV_GUILD", "").strip()
    dev_guild = None
    if dev_guild_text:
        if not dev_guild_text.isdigit():
            raise ConfigError(f"BOT_DEV_GUILD must be a server id (digits), not {dev_guild_text!r}")
        dev_guild = int(dev_guild_text)

    log_level = env.get("BOT_LOG_LEVEL", "INFO").strip().upper()
    if not isinstance(logging.getLevelName(log_level), int):
        raise ConfigError(f"BOT_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {log_level!r}")

    reminder_text = env.get("BOT_REMINDER_INTERVAL", "12h")
    try:
        reminder_seconds = parse_duration(reminder_text)
    except ValueError:
        raise ConfigError(
            f"BOT_REMINDER_INTERVAL must be a duration like 30m, 12h or 1d, not {reminder_text!r}"
        ) from None
    if reminder_seconds < 1:
        raise ConfigError("BOT_REMINDER_INTERVAL must be at least 1s")

    locale = env.get("BOT_LOCALE", "en").strip() or "en"
    if locale not in supported_locales():
        raise ConfigError(
            f"BOT_LOCALE must be one of {', '.join(supported_locales())} (a catalog in data/i18n "
            f"adds one), not {locale!r}"
        )
    shards_text = env.get("BOT_SHARDS", "").strip()
    shards = parse_shards(shards_text) if shards_text else None
    if shards is not None and not isinstance(database, str) and (shards.first, shards.last) != (0, shards.total - 1):
        # the other shards need other processes, and one SQLite file serves one process only
        raise ConfigError(
            f"BOT_SHARDS {shards_text} leaves shards to other processes, which must share a "
            f"PostgreSQL BOT_DATABASE (postgresql://...), not an SQLite file"
        )

    sweep_text = env.get("BOT_CATCH_UP_SWEEP", "60s")
    try:
        catch_up_sweep = parse_duration(sweep_text)
    except ValueError:
        raise ConfigError(f"BOT_CATCH_UP_SWEEP must be a duration like 30s or 5m, not {sweep_text!r}") from None
    if catch_up_sweep < 1:
        raise ConfigError("BOT_CATCH_UP_SWEEP must be at least 1s")
    workers_text = env.get("BOT_AI_WORKERS", "1").strip()
    if not workers_text.isdigit() or not 1 <= int(workers_text) <= 64:
        raise ConfigError(f"BOT_AI_WORKERS must be a number of processes from 1 to 64, not {workers_text!r}")
    return Settings(
        token,
        state_dir,
        database,
        dev_guild,
        log_level,
        reminder_seconds,
        locale,
        shards,
        catch_up_sweep,
        int(workers_text),
    )
