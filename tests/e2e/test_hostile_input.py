"""Hostile or malformed interactions, forged as raw packets through the emulator: each one gets a
clear private answer, changes nothing, writes no traceback, and never takes the bot down."""

from __future__ import annotations

import asyncio
import logging

from bot.tools.emulator.interactions import APPLICATION_COMMAND, AUTOCOMPLETE, MESSAGE_COMPONENT, MODAL_SUBMIT
from bot.tools.emulator.options import command_data

from bot.tools.emulator.tables import open_table, plant, start


async def forge(emu, user, channel, itype, data, source=None):
    rec = await emu.interactions.run(emu.interactions.create(itype, user, channel, data, source=source))
    assert rec.acked and not rec.failed, (data, rec.error)
    if itype != AUTOCOMPLETE:
        await emu.wait_until(lambda: [m for m in rec.messages if not m.loading], timeout=5)
    return rec


def answer(rec) -> str:
    return " ".join(m.content for m in rec.messages).lower()


def slash_data(emu, user, channel, path, **options):
    return command_data(emu, user, channel, path, options)


def set_option(data, name, value, kind=None):
    """Put a raw value into the (possibly nested) option `name`."""
    stack = [data]
    while stack:
        node = stack.pop()
        for option in node.get("options", []):
            if option.get("name") == name:
                option["value"] = value
                if kind is not None:
                    option["type"] = kind
                return data
            stack.append(option)
    raise AssertionError(name)


async def snapshot(w):
    game = await w.bot.store.game(1)
    return game.version, game.snapshot


async def test_lone_surrogates_never_take_the_bot_down(table, caplog):
    w, emu = table, table.emu
    caplog.set_level(logging.INFO)
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    thread = await start(w, lobby, w.alice)
    before = await snapshot(w)
    dm = await emu.wait_until(lambda: [m for m in emu.dm_messages(w.alice) if m.selects][-1:])
    select = dm[0].selects[0]
    readies = emu.gateway.ready_count
    recs = [
        await forge(
            emu,
            w.alice,
            emu.channel(dm[0].channel_id),
            MESSAGE_COMPONENT,
            {"custom_id": select["custom_id"], "component_type": 3, "values": ["\ud800"]},
            source=dm[0],
        ),
        await forge(
            emu,
            w.alice,
            emu.channel(dm[0].channel_id),
            MESSAGE_COMPONENT,
            {"custom_id": "mv:1:0:0:b\udfff", "component_type": 2},
            source=dm[0],
        ),
        await forge(
            emu,
            w.alice,
            thread,
            APPLICATION_COMMAND,
            set_option(slash_data(emu, w.alice, thread, ("heat", "play"), move="x"), "move", "\ud83d"),
        ),
    ]
    assert "not on the menu" in answer(recs[0])
    assert "not one of mine" in answer(recs[1])
    assert "not a move you can make" in answer(recs[2])
    assert emu.gateway.connected and emu.gateway.ready_count == readies  # never disconnected
    assert await snapshot(w) == before
    assert not [r for r in caplog.records if r.exc_info]
    # and the table goes on: a real pick still works
    rec = await emu.select(w.alice, dm[0], [select["options"][0]["value"]], custom_id=select["custom_id"])
    await emu.wait_until(lambda: rec.menu_spent)


async def test_every_control_that_is_not_ours_gets_an_answer(table, caplog):
    w, emu = table, table.emu
    caplog.set_level(logging.INFO)
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    await start(w, lobby, w.alice)
    before = await snapshot(w)
    dm = await emu.wait_until(lambda: [m for m in emu.dm_messages(w.alice) if m.selects][-1:])
    real_select = dm[0].selects[0]["custom_id"]
    message = plant(emu, w.alice, ["x"])
    forged = [
        {"custom_id": "garbage", "component_type": 2},
        {"custom_id": "", "component_type": 2},
        {"custom_id": "mv:1:\uff10:0:b0", "component_type": 2},  # a full-width digit in the version
        {"custom_id": "mv:\uff11:0:0:b0", "component_type": 2},
        {"custom_id": "lb:1:join", "component_type": 3, "values": ["1"]},  # a button id as a select
        {"custom_id": real_select, "component_type": 2},  # a select id as a button
        {"custom_id": "mv:99999999999999999999:0:0:b0", "component_type": 2},  # past 2^63
        {"custom_id": "mv:1:0:0:b0" + "0" * 120, "component_type": 2},
        {"custom_id": real_select, "component_type": 3, "values": "not a list"},
    ]
    for data in forged:
        rec = await forge(emu, w.alice, emu.channel(message.channel_id), MESSAGE_COMPONENT, data, source=message)
        assert "not one of mine" in answer(rec), (data, answer(rec))
        assert all(m.ephemeral for m in rec.messages)
    rec = await forge(
        emu,
        w.alice,
        emu.channel(message.channel_id),
        MODAL_SUBMIT,
        {"custom_id": "m", "components": []},
        source=message,
    )
    assert "not one of mine" in answer(rec)
    assert await snapshot(w) == before
    assert not [r for r in caplog.records if r.exc_info]


async def test_select_values_that_were_not_offered_are_refused(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    await start(w, lobby, w.alice)
    before = await snapshot(w)
    dm = await emu.wait_until(lambda: [m for m in emu.dm_messages(w.alice) if m.selects][-1:])
    select = dm[0].selects[0]
    first = select["options"][0]["value"]
    for values in (["nope"], [first, first], [first] * 30, [str(i) for i in range(26)]):
        data = {"custom_id": select["custom_id"], "component_type": 3, "values": values}
        rec = await forge(emu, w.alice, emu.channel(dm[0].channel_id), MESSAGE_COMPONENT, data, source=dm[0])
        assert "not on the menu" in answer(rec) or "not one of mine" in answer(rec), (values, answer(rec))
    assert await snapshot(w) == before


async def test_bad_slash_options_get_a_sentence_not_a_traceback(table, caplog):
    w, emu = table, table.emu
    caplog.set_level(logging.INFO)
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    thread = await start(w, lobby, w.alice)
    before = await snapshot(w)
    cases = [
        (set_option(slash_data(emu, w.alice, thread, ("game", "status"), game=1), "game", 2**63), "out of range"),
        (set_option(slash_data(emu, w.alice, thread, ("game", "status"), game=1), "game", 2**70), "out of range"),
        (set_option(slash_data(emu, w.alice, thread, ("game", "status"), game=1), "game", "abc"), "wrong kind"),
        (set_option(slash_data(emu, w.alice, thread, ("game", "status"), game=1), "game", 1, kind=3), "wrong kind"),
        (set_option(slash_data(emu, w.alice, thread, ("game", "log"), count=5), "count", 5000), "out of range"),
        (
            set_option(slash_data(emu, w.alice, w.general, ("heat", "new"), track="usa"), "track", "mars"),
            "not one of the choices",
        ),
        ({"id": "1", "name": "teleport", "type": 1, "options": []}, "don't know that command"),
        (
            {"id": "1", "name": "heat", "type": 1, "options": [{"type": 1, "name": "fly", "options": []}]},
            "don't know that command",
        ),
        (
            {"id": "1", "name": "heat", "type": 1, "options": [{"type": 1, "name": "play", "options": []}]},
            "missing a required option",
        ),
    ]
    for data, expected in cases:
        rec = await forge(emu, w.alice, thread, APPLICATION_COMMAND, data)
        assert expected in answer(rec) and all(m.ephemeral for m in rec.messages), (data, answer(rec))
        assert "something went wrong" not in answer(rec)
    garbage = set_option(
        command_data(emu, w.alice, thread, ("heat", "play"), {"move": "", "game": 1}, focused="move"), "game", "zzz"
    )
    rec = await emu.interactions.run(emu.interactions.create(AUTOCOMPLETE, w.alice, thread, garbage))
    assert rec.choices == []
    assert await snapshot(w) == before
    assert not [r for r in caplog.records if r.exc_info]


async def test_the_same_slash_pick_twice_is_one_move(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    thread = await start(w, lobby, w.alice)
    version = (await w.bot.store.game(1)).version
    choices = await emu.autocomplete(w.alice, thread, "heat", "play", focused="move", move="")
    pick = next(c["value"] for c in choices if not c["name"].startswith("Preference"))
    recs = await asyncio.gather(*(emu.slash(w.alice, thread, "heat", "play", move=pick) for _ in range(2)))
    for rec in recs:
        await emu.wait_until(lambda: rec.followups)
    texts = sorted(answer(r) for r in recs)
    assert sum("done" in x for x in texts) == 1 and sum("moved on" in x for x in texts) == 1, texts
    assert (await w.bot.store.game(1)).version == version + 1
    # a pick made before the seat's own move is stale, like an old button
    rec = await emu.slash(w.alice, thread, "heat", "play", move=pick)
    await emu.wait_until(lambda: rec.followups)
    assert "moved on" in answer(rec)
    assert (await w.bot.store.game(1)).version == version + 1


async def test_a_damaged_game_is_answered_and_reported_once(table, caplog):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    thread = await start(w, lobby, w.alice)
    await w.bot.store._conn.execute("UPDATE games SET snapshot = '{broken' WHERE id = 1")
    w.bot.store._rows.clear()  # damage on disk is seen when the row is read (the store keeps recent games' rows)
    caplog.set_level(logging.ERROR)
    for _ in range(2):
        rec = await emu.slash(w.alice, thread, "heat", "hand", game=1)
        await emu.wait_until(lambda: rec.followups)
        assert "damaged" in answer(rec), answer(rec)
    reports = [r for r in caplog.records if "cannot be read" in r.getMessage()]
    assert len(reports) == 1 and not reports[0].exc_info
