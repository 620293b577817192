"""The local sandbox: `python -m bot sandbox` with a scripted stdin (a subprocess, the real bot on
the emulator), its line parser, and a session driven in-process."""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bot.app import create_bot
from bot.config import load_settings
from bot.tools.emulator import Emulator
from bot.tools.emulator.testing import start_bot_in_process
from bot.tools.sandbox.run import sandbox_database
from bot.tools.sandbox.parse import ParseError, convert_options, describe_commands, focused_option, parse_line
from bot.tools.sandbox.session import CommandError, LogTap, Session, _choose, build_world
from tests.e2e.conftest import settings_for

REPO = Path(__file__).resolve().parents[2]
PNG = b"\x89PNG\r\n\x1a\n"
IMAGE = re.compile(r"\[image: (.+?)\]")


def run_sandbox(
    tmp_path: Path, script: str, *args: str, command: tuple[str, ...] = ("sandbox",), env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "BOT_DATABASE", "BOT_DEV_GUILD")}
    environ.update(BOT_STATE_DIR=str(tmp_path / "state"), PYTHONPATH=str(REPO), **(env or {}))
    proc = subprocess.run(
        [sys.executable, "-m", "bot", *command, *args],
        input=script,
        text=True,
        capture_output=True,
        cwd=tmp_path,
        env=environ,
        timeout=120,
    )
    for noise in ("Traceback", "Task was destroyed", "Unclosed", "never awaited"):
        assert noise not in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    return proc


def sections(stdout: str) -> dict[str, str]:
    """The output after each echoed command line, keyed by that line (the last of equal ones)."""
    out: dict[str, str] = {}
    key = None
    for line in stdout.splitlines():
        if re.match(r"^(\w+)?> ", line):
            key = line
            out[key] = ""
        elif key is not None:
            out[key] += line + "\n"
    return out


def png_at(text: str) -> Path:
    found = IMAGE.findall(text)
    assert found, text
    path = Path(found[0])
    assert path.is_file() and path.read_bytes().startswith(PNG), path
    return path


# -- the whole program, scripted ---------------------------------------------------------------


def test_scripted_game_start_board_and_hand(tmp_path):
    script = "alice> /heat new track:usa\nbob> click Join\nalice> click Start\nalice> dm\n"
    proc = run_sandbox(tmp_path, script)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = sections(proc.stdout)
    assert list(out) == script.splitlines()  # every line echoed with its user, in order

    opened = out["alice> /heat new track:usa"]
    lobby = re.search(r"#(\d+) \[#table\]", opened)
    assert lobby and "@alice" in opened and "[Join] [Leave] [Start]" in opened
    assert "[only alice sees] Your table" in opened
    joined = out["bob> click Join"]
    assert f"#{lobby[1]} [#table] (edited)" in joined and "@alice, @bob" in joined

    started = out["alice> click Start"]
    thread_part = started[started.index("[thread ") :]
    board = png_at(thread_part)  # the board, in the game thread, written to disk
    assert board.parent == tmp_path / "state" / "sandbox-images"
    assert re.fullmatch(r"\d+-heat-1\.png", board.name)
    assert "[DM to alice]" in started and "[DM to bob]" in started

    dm = out["alice> dm"]
    assert "[DM to alice]" in dm and "[DM to bob]" not in dm
    hand = png_at(dm[dm.index("**Heat") :])
    assert hand.name.endswith("hand.png")
    assert re.search(r"^\s+select .*\(choose \d", dm, re.M), dm  # the card select and its options
    assert re.search(r"^\s+\d+: Speed \d", dm, re.M), dm
    assert "fresh" in proc.stdout  # the banner names the database


def test_bad_lines_print_one_error_each_and_exit_1_at_the_end(tmp_path):
    script = (
        "alice> /heat nonsense\n"
        "alice> /heat new track:mars\n"
        "alice> /heat new track:usa\n"
        "bob> /heat join game:one\n"
        "alice> click Nonexistent\n"
        "carol> select 1\n"
        "bob> click Join\n"
    )
    proc = run_sandbox(tmp_path, script)
    assert proc.returncode == 1
    out = sections(proc.stdout)
    errors = [line for line in proc.stdout.splitlines() if line.strip().startswith("error:")]
    assert len(errors) == 5, proc.stdout
    assert "error:" in out["alice> /heat nonsense"]
    assert "not one of the choices" in out["alice> /heat new track:mars"]  # the emulator's own check
    assert "expects an integer, got 'one'" in out["bob> /heat join game:one"]
    assert "no button 'Nonexistent'" in out["alice> click Nonexistent"]
    assert "[Join]" in out["alice> click Nonexistent"]  # ... and which buttons there are
    assert "no select that carol can see" in out["carol> select 1"]
    assert "@alice, @bob" in out["bob> click Join"]  # the run went on after the errors
    assert "5 line(s) failed" in proc.stderr


def test_each_run_starts_fresh_unless_keep(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    (state / "sandbox.sqlite3").write_bytes(b"not a database")
    first = run_sandbox(tmp_path, "alice> /heat new track:usa\n")
    assert first.returncode == 0, first.stdout + first.stderr
    assert "the old sandbox database was deleted" in first.stdout
    with sqlite3.connect(state / "sandbox.sqlite3") as db:
        assert db.execute("select count(*) from games").fetchone() == (1,)

    # user ids are new each run, so an old game shows only in its number: the next table is #2
    kept = run_sandbox(tmp_path, "alice> /heat new track:usa\n", "--keep")
    assert kept.returncode == 0 and "kept with --keep" in kept.stdout and "threads" in kept.stdout
    assert re.search(r"#2\*\*", kept.stdout), kept.stdout

    fresh = run_sandbox(tmp_path, "alice> /heat new track:usa\n")
    assert "the old sandbox database was deleted" in fresh.stdout and re.search(r"#1\*\*", fresh.stdout)


def test_python_m_bot_without_token_enters_the_sandbox(tmp_path):
    proc = run_sandbox(tmp_path, "users\n", command=())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("Sandbox:")
    assert "hermit (DMs closed)" in proc.stdout and "mod (Manage Threads)" in proc.stdout


def test_explicit_bot_database_is_used_and_never_deleted(tmp_path):
    s = load_settings({"BOT_STATE_DIR": str(tmp_path)}, None)
    path, delete, note = sandbox_database(s, keep=False, environ={}, dotenv=None)
    assert path == tmp_path / "sandbox.sqlite3" and delete and "fresh" in note
    mine = replace(s, database=tmp_path / "mine.sqlite3")
    path, delete, note = sandbox_database(mine, keep=False, environ={"BOT_DATABASE": "x"}, dotenv=None)
    assert path == tmp_path / "mine.sqlite3" and not delete and "BOT_DATABASE" in note
    dotenv = tmp_path / ".env"
    dotenv.write_text("BOT_DATABASE=mine.sqlite3\n")
    assert sandbox_database(mine, keep=False, environ={}, dotenv=dotenv)[:2] == (mine.database, False)
    assert sandbox_database(s, keep=True, environ={}, dotenv=None)[1] is False


# -- the line parser -----------------------------------------------------------------------------


def test_parse_slash_lines():
    line = parse_line('alice> /heat new track:"Great Britain" laps:2')
    assert (line.verb, line.user, line.path) == ("slash", "alice", ["heat", "new"])
    assert line.options == {"track": "Great Britain", "laps": "2"}
    assert line.text == '/heat new track:"Great Britain" laps:2'
    # words after an option continue it, a colon inside a value included
    assert parse_line("/heat play move:Gear 3: 4 + 3").options == {"move": "Gear 3: 4 + 3"}
    assert parse_line("/heat play move:'it''s'").options == {"move": "its"}
    assert parse_line("/heat play move: game:2").options == {"move": "", "game": "2"}
    assert parse_line("bob>/games").user == "bob"
    line = parse_line('carol> in "Heat #1" /game status')
    assert (line.where, line.path) == ("Heat #1", ["game", "status"])
    line = parse_line("? /heat play move:gear")
    assert (line.verb, line.user, line.options) == ("complete", None, {"move": "gear"})
    for bad in ('/heat new track:"Great', "/", "in thread", "/heat new track:usa track:gb", "? click x"):
        with pytest.raises(ParseError):
            parse_line(bad)


def test_parse_other_lines():
    line = parse_line("alice> click Start")
    assert (line.verb, line.message, line.label) == ("click", None, "Start")
    assert (parse_line("click 2 Start").message, parse_line("click 2 Start").label) == (2, "Start")
    assert parse_line("click #12 My hand").message == 12
    assert parse_line("click My hand").label == "My hand"
    assert parse_line("click Slipstream +2").label == "Slipstream +2"
    assert (parse_line("click 2").message, parse_line("click 2").label) == (None, "2")  # a label "2"
    line = parse_line('bob> select 3 4 "Speed 1"')
    assert (line.verb, line.message, line.values) == ("select", None, ["3", "4", "Speed 1"])
    assert parse_line("select #7 3").message == 7 and parse_line("select #7 3").values == ["3"]
    assert parse_line("dave>").verb == "switch" and parse_line("dave>").user == "dave"
    assert parse_line("  ").verb == "blank" and parse_line("# note").verb == "blank"
    assert parse_line("wait 1.5").seconds == 1.5
    assert [parse_line(w).verb for w in ("dm", "show", "users", "help", "quit", "exit")] == [
        "dm",
        "show",
        "users",
        "help",
        "quit",
        "quit",
    ]
    for bad in ("click", "select", "select #3", "wait soon", "dm now", "frobnicate", "bob> dance"):
        with pytest.raises(ParseError):
            parse_line(bad)


SCHEMA = [
    {
        "name": "heat",
        "type": 1,
        "options": [
            {
                "type": 1,
                "name": "new",
                "options": [
                    {
                        "type": 3,
                        "name": "track",
                        "required": True,
                        "choices": [{"name": "USA", "value": "usa"}, {"name": "Great Britain", "value": "gb"}],
                    },
                    {"type": 4, "name": "laps", "min_value": 1, "max_value": 5},
                    {"type": 10, "name": "ratio"},
                    {"type": 5, "name": "fast"},
                    {"type": 6, "name": "rival"},
                ],
            },
            {
                "type": 1,
                "name": "play",
                "options": [
                    {"type": 3, "name": "move", "required": True, "autocomplete": True},
                    {"type": 4, "name": "game", "autocomplete": True},
                ],
            },
        ],
    }
]


def test_options_follow_the_synced_schema():
    new = ["heat", "new"]
    assert convert_options(
        SCHEMA, new, {"track": "Great Britain", "laps": "2", "ratio": "1.5", "fast": "yes", "rival": "@bob"}
    ) == {"track": "gb", "laps": 2, "ratio": 1.5, "fast": True, "rival": "bob"}
    assert convert_options(SCHEMA, new, {"track": "USA"}) == {"track": "usa"}
    # what does not read as the schema's type is left as text, for the emulator to refuse
    assert convert_options(SCHEMA, new, {"track": "mars", "laps": "two", "fast": "maybe", "ratio": "x"}) == {
        "track": "mars",
        "laps": "two",
        "fast": "maybe",
        "ratio": "x",
    }
    assert convert_options(SCHEMA, new, {"lapz": "2", "laps": ""}) == {"lapz": "2"}  # unknown kept, blank dropped
    assert convert_options(SCHEMA, ["nope"], {"laps": "2"}) == {"laps": "2"}  # no such command: untouched
    play = ["heat", "play"]
    assert focused_option(SCHEMA, play, {}) == "move"
    assert focused_option(SCHEMA, play, {"move": "x", "game": "1"}) == "game"
    assert convert_options(SCHEMA, play, {"move": "", "game": "1"}, focused="move") == {"move": "", "game": 1}
    with pytest.raises(ParseError):
        focused_option(SCHEMA, new, {"track": "u"})
    assert "/heat new track:(usa|gb) [laps:1..5] [ratio:number] [fast:true/false] [rival:user]" in describe_commands(
        SCHEMA
    )


def test_select_values_by_value_or_label():
    comp = {
        "type": 3,
        "custom_id": "s",
        "options": [
            {"value": "9", "label": "Speed 4"},
            {"value": "11", "label": "Speed 4"},
            {"value": "2", "label": "Speed 1"},
        ],
    }
    assert _choose(comp, ["11", "speed 4"]) == ["11", "9"]  # the same label twice: two cards
    assert _choose(comp, ["SPEED 1"]) == ["2"]
    with pytest.raises(CommandError, match="9=Speed 4"):
        _choose(comp, ["Speed 3"])


# -- a session in-process: typed options reach the real bot; what each user can see ----------------


@pytest.fixture
async def session(tmp_path):
    async with Emulator() as emu:
        world = build_world(emu)
        bot = create_bot(settings_for(tmp_path))
        handle = await start_bot_in_process(emu, bot)
        await emu.wait_for_commands()
        lines: list[str] = []
        try:
            yield Session(emu, world, tmp_path / "images", out=lines.append), lines
        finally:
            await handle.stop()
        assert not emu.server_errors, emu.server_errors[0]


async def test_session_types_options_and_respects_visibility(session):
    ses, out = session
    assert await ses.execute("alice> /heat new track:USA")  # a choice by its name
    out.clear()
    assert not await ses.execute("bob> /heat join game:one")
    assert out == ["  error: /heat join game: expects an integer, got 'one'"]
    out.clear()
    assert await ses.execute("bob> /heat join game:1")  # "1" went out as the integer the schema asks for
    assert "[#table] (edited)" in out[0] and "@alice, @bob" in "\n".join(out)
    await ses.execute("carol> click join")  # any case
    await ses.execute("carol> click leave")
    out.clear()
    assert await ses.execute("bob> click 2 Start")  # only the creator may: bob alone is told
    assert any("[only bob sees]" in line for line in out) and "Only the creator" in "\n".join(out)
    assert await ses.execute("alice> click Start")
    assert not await ses.execute("carol> select 1")  # carol is not seated: no hand, no select
    alice = ses.users["alice"]
    hand = next(m for m in ses.visible(alice) if m.selects)
    option = hand.selects[0]["options"][0]
    out.clear()
    assert await ses.execute(f'alice> select "{option["label"]}"')  # by label
    assert "(edited)" in "\n".join(out)  # the spent hand lost its menu ...
    assert any("[DM to alice]" in line for line in out)  # ... and a new one came
    assert ses.failures == 2, out


async def test_bot_errors_in_the_log_are_shown_and_count_as_failures(session):
    ses, out = session
    ses.log_tap = tap = LogTap()
    tap.handle(logging.LogRecord("cogs.heat", logging.ERROR, __file__, 1, "command %s failed", ("heat play",), None))
    tap.handle(
        logging.LogRecord("discord.client", logging.WARNING, __file__, 1, "PyNaCl is not installed", (), None)
    )  # discord.py's own warnings stay in the log file
    assert not await ses.execute("users")
    assert out[-1] == "  [log] ERROR cogs.heat: command heat play failed" and ses.failures == 1
    assert await ses.execute("users")  # taken once


def test_parse_names_in_any_script_and_locale():
    for name in ("ゆきこ", "José Müller", "山田太郎", "bob", "o.k-name_2", "ミシェル・ルグラン"):
        line = parse_line(f"{name}> /heat join")
        assert (line.user, line.verb, line.path) == (name, "slash", ["heat", "join"])
    assert parse_line("ゆきこ>").verb == "switch"
    assert parse_line("/heat new track:usa").user is None  # no name: the last user
    assert parse_line('alice> /pole new circuit:"a > b"').user == "alice"
    line = parse_line("ゆきこ> :locale ja")
    assert (line.user, line.verb, line.locale) == ("ゆきこ", "locale", "ja")
    assert parse_line(":locale").locale == ""
    with pytest.raises(ParseError, match=":locale"):
        parse_line(":locale 日本語")


async def test_session_new_users_in_any_script_with_their_own_locale(session):
    """ゆきこ sets her Discord client to Japanese: her private answers and DMs come in Japanese,
    José's in English, the thread in the table's language (English here)."""
    ses, out = session
    assert await ses.execute("ゆきこ> :locale ja")
    assert "new user ゆきこ" in out[0] and out[-1] == "  (ゆきこ's Discord locale: ja)"
    assert not await ses.execute("ゆきこ> :locale xx")  # no such Discord locale
    assert await ses.execute("José Müller> /heat new track:usa")
    assert any("[only José Müller sees] Your table" in line for line in out)
    out.clear()
    assert await ses.execute("ゆきこ> click Join")  # the lobby is in the table's language (English)
    assert any("@José Müller, @ゆきこ" in line for line in out), out
    assert await ses.execute("山田太郎> /heat join")
    out.clear()
    assert await ses.execute("José Müller> click Start")
    text = "\n".join(out)
    assert "[DM to ゆきこ]" in text and "[DM to José Müller]" in text and "[DM to 山田太郎]" in text
    dms = {who: [line for line in out if f"[DM to {who}]" in line] for who in ("ゆきこ", "José Müller")}
    assert any("あなたの番" in line or "手番" in line for line in dms["ゆきこ"]), dms
    assert not any(ch for line in dms["José Müller"] for ch in line if "\u3040" <= ch <= "\u30ff"), dms
    out.clear()
    assert await ses.execute("users")
    assert "  ゆきこ (locale ja)" in out and "  José Müller (current)" in out, out
    assert ses.failures == 1, out
