from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings, parse_duration

GOOD_TOKEN = "x" * 24 + "." + "y" * 6 + "." + "z" * 27


def test_defaults_without_environment():
    s = load_settings({}, None)
    assert s.token is None
    assert s.database == Path("state") / "bot.sqlite3"
    assert s.reminder_seconds == 12 * 3600
    assert s.dev_guild is None and s.log_level == "INFO"


def test_values_from_environment_and_dotenv(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text(f"# comment\nDISCORD_TOKEN='{GOOD_TOKEN}'\nBOT_DEV_GUILD=123\nBOT_LOG_LEVEL=debug\n")
    s = load_settings({"BOT_REMINDER_INTERVAL": "30m", "BOT_DEV_GUILD": "456"}, env_file)
    assert s.token == GOOD_TOKEN
    assert s.dev_guild == 456  # the real environment wins over .env
    assert s.log_level == "DEBUG" and s.reminder_seconds == 1800


def test_token_never_in_repr():
    s = load_settings({"DISCORD_TOKEN": GOOD_TOKEN}, None)
    assert GOOD_TOKEN not in repr(s) and GOOD_TOKEN not in str(s)


@pytest.mark.parametrize(
    "env, word",
    [
        ({"BOT_DEV_GUILD": "abc"}, "BOT_DEV_GUILD"),
        ({"BOT_LOG_LEVEL": "LOUD"}, "BOT_LOG_LEVEL"),
        ({"BOT_REMINDER_INTERVAL": "soon"}, "BOT_REMINDER_INTERVAL"),
        ({"DISCORD_TOKEN": "short"}, "DISCORD_TOKEN"),
    ],
)
def test_bad_settings_name_the_setting(env, word):
    with pytest.raises(ConfigError) as err:
        load_settings(env, None)
    assert word in str(err.value) and "\n" not in str(err.value)


def test_durations():
    assert parse_duration("90") == 90 and parse_duration("2h") == 7200 and parse_duration("1d") == 86400
    with pytest.raises(ValueError):
        parse_duration("12 hours")


def test_bad_setting_exits_with_one_line(tmp_path):
    import subprocess, sys, os

    env = dict(os.environ, BOT_LOG_LEVEL="LOUD")
    r = subprocess.run([sys.executable, "-m", "bot"], env=env, capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and "BOT_LOG_LEVEL" in r.stderr and "Traceback" not in r.stderr


def test_an_unknown_locale_stops_start_up_in_one_line():
    import pytest

    from bot.config import ConfigError, load_settings

    with pytest.raises(ConfigError) as err:
        load_settings({"BOT_LOCALE": "xx"}, None)
    assert "BOT_LOCALE" in str(err.value) and "\n" not in str(err.value)
    assert load_settings({"BOT_LOCALE": "en"}, None).locale == "en"


def test_database_a_path_or_a_postgresql_url():
    assert load_settings({"BOT_DATABASE": "/srv/bot/games.sqlite3"}, None).database == Path("/srv/bot/games.sqlite3")
    url = "postgresql://bot:hunter2@db.example:5432/games"
    s = load_settings({"BOT_DATABASE": url}, None)
    assert s.database == url  # kept as the URL (asyncpg reads it), not made a path
    assert "hunter2" not in repr(s) and "db.example" in repr(s)
    assert load_settings({"BOT_DATABASE": "postgres://h/db"}, None).database == "postgres://h/db"
    with pytest.raises(ConfigError, match="BOT_DATABASE"):
        load_settings({"BOT_DATABASE": "mysql://h/db"}, None)
