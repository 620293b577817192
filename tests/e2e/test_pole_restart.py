"""A Pole Position race through the emulator with the bot process killed (SIGKILL) mid-race and
started again: the race goes on from where it was and ends; no move is lost (the stored actions
replay to the stored state) and nothing is posted twice."""

from __future__ import annotations

import json
import os

from bot.tools.emulator.testing import start_bot_subprocess
from bot.games.base import replay
from bot.games.pole import ENGINE
from bot.store import Store

from . import standins
from .conftest import bot_env, database_of, read_row
from bot.tools.emulator.players import Driver, play_until
from bot.tools.emulator.tables import open_table, start


def game_row(database):
    return read_row(database, "SELECT status, version FROM games WHERE id = 1")


def snapshot(database) -> dict:
    return json.loads(read_row(database, "SELECT snapshot FROM games WHERE id = 1")[0])


def race_started(database) -> bool:
    row = read_row(database, "SELECT snapshot FROM games WHERE id = 1")
    return bool(row and row[0] and json.loads(row[0])["phase"] == "race" and json.loads(row[0])["round"] >= 4)


async def test_pole_race_survives_a_killed_bot(world, tmp_path):
    emu = world.emu
    db = database_of(tmp_path)
    proc = await start_bot_subprocess(emu, standins.BOT_ARGV, env=bot_env(tmp_path, BOT_LOG_LEVEL="WARNING"))
    try:
        await emu.wait_for_commands()
        lobby = await open_table(world, world.alice, world.bob, world.carol, kind="pole", circuit="monaco")
        thread = await start(world, lobby, world.alice)
        players = [
            Driver(emu, world.alice, "select", 1, "pole"),
            Driver(emu, world.bob, "slash", 2, "pole"),
            Driver(emu, world.carol, "select", 3, "pole"),
        ]
        # carol wants to be asked in every fight, attacking and defending (a live bid by DM select)
        dm = await emu.wait_until(
            lambda: [
                m
                for m in emu.dm_messages(world.carol)
                if any((x.get("placeholder") or "").startswith("Preferences") for x in m.selects)
            ][-1:]
        )
        sel = next(x for x in dm[0].selects if x["placeholder"].startswith("Preferences"))
        await emu.select(world.carol, dm[0], ["ask_both"], custom_id=sel["custom_id"])
        await emu.wait_until(lambda: sum(p.get("ask_attack", False) for p in snapshot(db)["prefs"]) == 1)
        await play_until(players, thread, lambda: race_started(db))  # qualifying, tyres, the start: done
        version_before = game_row(db)[1]
        posts_before = len(emu.messages_in(thread))
        proc.proc.kill()  # SIGKILL: no shutdown of any kind
        await proc.proc.wait()
        assert game_row(db) == ("active", version_before)
        await proc.start()
        await play_until(players, thread, lambda: game_row(db)[0] == "finished", max_steps=3000)
        assert game_row(db)[1] > version_before
        final = await emu.wait_until(lambda: [m for m in emu.messages_in(thread) if "The game is over" in m.content])
        assert len(final) == 1
        posts = emu.messages_in(thread)
        assert len(posts) > posts_before
        if os.environ.get("POLE_DUMP"):
            with open(os.environ["POLE_DUMP"], "w") as fh:
                for m in posts:
                    fh.write(f"--- {len(m.attachments)} att\n{m.content}\n")
        # every announcement owed (those cut off by the kill too) is out and settled
        await emu.wait_until(lambda: read_row(db, "SELECT COUNT(*) FROM owed WHERE game_id = 1")[0] == 0, timeout=30)
        same = [
            (a.content, b.content)
            for a, b in zip(posts, posts[1:])
            if a.content == b.content and len(a.attachments) == len(b.attachments)
        ]
        assert not same, same[:3]  # nothing announced twice
        for p in players:
            assert not [e for e in p.errors if "went wrong" in e], p.errors
    finally:
        await proc.stop()
    assert "Traceback" not in proc.output(), proc.output()[-3000:]
    # nothing lost: the stored actions, replayed from the stored seed, give the stored state
    store = await Store.open(db)
    try:
        game = await store.game(1)
        actions = await store.actions(1)
    finally:
        await store.close()
    again = replay(ENGINE, game.options, len(game.seats), game.seed, actions)
    assert again == json.loads(json.dumps(game.snapshot))
    assert ENGINE.is_over(again) and len(actions) == game.version
