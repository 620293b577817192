"""raw_interaction: an INTERACTION_CREATE with arbitrary data (forged or malformed requests)."""

from __future__ import annotations

import asyncio
import json

from tests.emulator.helpers import new_game


async def test_raw_component_reaches_the_bot_as_given(env):
    emu = env.emu
    game = await new_game(env)
    # a button id sent as a select: Discord's client never does this; raw_interaction does
    rec = await emu.raw_interaction(
        env.bob, env.general, {"custom_id": "join:1", "component_type": 3, "values": ["nope"]}, message=game
    )
    assert rec.payload["data"] == {"custom_id": "join:1", "component_type": 3, "values": ["nope"]}
    assert rec.payload["message"]["id"] == str(game.id)
    assert rec.acked or rec.failed  # the record says whether the bot answered


async def test_raw_unknown_custom_id_is_recorded_as_unanswered(env):
    emu = env.emu
    game = await new_game(env)
    before = len(emu.interaction_records)
    task = asyncio.create_task(
        emu.raw_interaction(env.bob, env.general, {"custom_id": "zz:9", "component_type": 2}, message=game)
    )
    await emu.wait_until(lambda: len(emu.interaction_records) > before)
    emu.clock.advance(3.01)
    rec = await task
    assert rec.failed and not rec.acked


async def test_raw_command_with_wrong_option_type_and_lone_surrogate_on_the_wire(env):
    emu = env.emu
    cmd = next(c for c in [*emu.commands(env.guild), *emu.commands()] if c["name"] == "heat")
    data = {
        "id": cmd["id"],
        "name": "heat",
        "type": 1,
        "options": [{"type": 1, "name": "move", "options": [{"type": 3, "name": "card", "value": 12}]}],
    }
    before = len(emu.interaction_records)
    task = asyncio.create_task(emu.raw_interaction(env.alice, env.general, data, type=2))
    await emu.wait_until(lambda: len(emu.interaction_records) > before)
    assert emu.interaction_records[-1].payload["data"]["options"][0]["options"][0]["value"] == 12
    emu.clock.advance(3.01)
    await task
    # the gateway sends JSON: a lone surrogate goes out as the \ud800 escape
    frame = {"op": 0, "d": {"custom_id": "x\ud800"}}
    assert "\\ud800" in json.dumps(frame)
    task = asyncio.create_task(
        emu.raw_interaction(env.alice, env.general, {"custom_id": "x\ud800", "component_type": 2})
    )
    await emu.wait_until(
        lambda: any(
            f["t"] == "INTERACTION_CREATE" and f["d"]["data"].get("custom_id") == "x\ud800"
            for f in emu.gateway.session.buffer
        )
    )
    emu.clock.advance(3.01)
    await asyncio.wait_for(task, 5)
