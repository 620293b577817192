"""BOT_SHARDS: a process runs a range of a total count; a bad value is refused in one line."""

import pytest

from bot.config import ConfigError, Shards, load_settings, parse_shards, shard_of


def test_unset_means_discord_py_default():
    assert load_settings({}, None).shards is None


@pytest.mark.parametrize(
    "text, first, last, total",
    [("0-3/8", 0, 3, 8), ("5/8", 5, 5, 8), ("0/1", 0, 0, 1), (" 4 - 7 / 8 ", 4, 7, 8), ("0-0/2", 0, 0, 2)],
)
def test_ranges(text, first, last, total):
    shards = load_settings({"BOT_SHARDS": text, "BOT_DATABASE": "postgresql://bot@db/bot"}, None).shards
    assert shards == Shards(first, last, total)
    assert shards.ids == list(range(first, last + 1))


@pytest.mark.parametrize(
    "text, words",
    [
        ("0-8/8", "does not fit its total"),
        ("8/8", "does not fit its total"),
        ("3-1/8", "backwards"),
        ("0/0", "at least 1"),
        ("eight", "must look like"),
        ("0-3", "must look like"),
        ("-1/8", "must look like"),
        ("1-2-3/8", "must look like"),
    ],
)
def test_bad_ranges_are_refused_in_one_line(text, words):
    with pytest.raises(ConfigError) as err:
        load_settings({"BOT_SHARDS": text, "BOT_DATABASE": "postgresql://bot@db/bot"}, None)
    assert "BOT_SHARDS" in str(err.value) and words in str(err.value) and "\n" not in str(err.value)


def test_part_of_the_shards_needs_postgresql():
    assert load_settings({"BOT_SHARDS": "0-1/2"}, None).shards == Shards(0, 1, 2)  # all of them: one process
    with pytest.raises(ConfigError) as err:
        load_settings({"BOT_SHARDS": "0/2"}, None)
    assert "PostgreSQL" in str(err.value) and "\n" not in str(err.value)


def test_catch_up_sweep():
    assert load_settings({}, None).catch_up_sweep == 60
    assert load_settings({"BOT_CATCH_UP_SWEEP": "5m"}, None).catch_up_sweep == 300
    for bad in ("soon", "0s"):
        with pytest.raises(ConfigError, match="BOT_CATCH_UP_SWEEP"):
            load_settings({"BOT_CATCH_UP_SWEEP": bad}, None)


def test_shard_of_a_guild_is_discords():
    guild = (1234567890 << 22) | 77
    assert shard_of(guild, 8) == 1234567890 % 8
    assert shard_of(None, 8) == 0  # a DM
    assert parse_shards("2-3/8").owns((10 << 22)) and not parse_shards("2-3/8").owns(1 << 22)
    assert str(parse_shards("2-3/8")) == "2-3/8" and str(parse_shards("5/8")) == "5/8"


def test_start_up_prints_one_line(monkeypatch, capsys):
    from bot.__main__ import main

    monkeypatch.setenv("BOT_SHARDS", "4-9/8")
    monkeypatch.setenv("BOT_DATABASE", "postgresql://bot@db/bot")
    monkeypatch.chdir("/")
    assert main([]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "BOT_SHARDS 4-9/8" in err
