"""Fault injection: 429s, errors, slow routes, gateway reconnect/resume/drop/invalidate."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest


def statuses(emu, method, fragment):
    return [e["status"] for e in emu.rest_log if e["method"] == method and fragment in e["path"]]


async def test_429_on_callback_is_retried(env):
    emu = env.emu
    emu.inject_429("POST", "/callback", times=1, retry_after=0.05)
    rec = await emu.slash(env.alice, env.general, "heat", "hand")
    assert rec.callback_type == 4 and rec.response.content == "your hand: 1 2 3"
    assert statuses(emu, "POST", "/callback") == [429, 200]


async def test_429_on_channel_message_is_retried(env):
    emu = env.emu
    emu.inject_429("POST", f"/channels/{env.general.id}/messages", times=2, retry_after=0.05)
    msg = await env.bot.get_channel(env.general.id).send("after the rate limit")
    assert emu.message(msg.id).content == "after the rate limit"
    assert statuses(emu, "POST", "/messages") == [429, 429, 200]


async def test_429_has_via_header_and_json_retry_after(world):
    emu = world.emu
    emu.inject_429("GET", "/users/@me", retry_after=0.3)
    async with aiohttp.ClientSession() as http:
        resp = await http.get(emu.api_base + "/users/@me", headers={"Authorization": f"Bot {emu.token}"})
        assert resp.status == 429 and resp.headers["Via"] and resp.headers["Content-Type"] == "application/json"
        assert (await resp.json())["retry_after"] == 0.3
        resp = await http.get(emu.api_base + "/users/@me", headers={"Authorization": f"Bot {emu.token}"})
        assert resp.status == 200


async def test_injected_failures(env):
    emu = env.emu
    channel = env.bot.get_channel(env.general.id)
    emu.inject_failure("POST", "/messages", status=403, code=50013, message="Missing Permissions")
    with pytest.raises(discord.Forbidden) as info:
        await channel.send("nope")
    assert info.value.code == 50013
    emu.inject_failure("POST", "/messages", status=502)
    msg = await channel.send("retried after a 502")  # discord.py retries 5xx once after 1 s
    assert emu.message(msg.id).content == "retried after a 502"


async def test_slow_route_delays_but_answers(env):
    emu = env.emu
    emu.slow("POST", "/callback", 0.3)
    loop = asyncio.get_running_loop()
    start = loop.time()
    rec = await emu.slash(env.alice, env.general, "heat", "hand")
    assert rec.callback_type == 4 and loop.time() - start >= 0.3


async def test_gateway_uses_zlib_stream_and_resumes_after_op7(env):
    emu = env.emu
    assert emu.gateway.connects[0]["compress"] == "zlib-stream"
    await emu.force_reconnect()
    assert emu.gateway.resumes == 1 and emu.gateway.identifies == 1
    rec = await emu.slash(env.alice, env.general, "heat", "hand")
    assert rec.callback_type == 4


async def test_events_missed_while_dropped_are_replayed_on_resume(env):
    emu, bot = env.emu, env.bot
    await emu.drop_connections()
    assert not emu.gateway.connected
    said = await emu.send_message(env.alice, env.general, "while you were away")
    rec = await emu.slash(env.alice, env.general, "heat", "hand")  # buffered, then replayed
    assert rec.callback_type == 4
    await emu.wait_until(lambda: any(e[:2] == ("message", said.id) for e in bot.events))
    assert emu.gateway.resumes == 1 and emu.gateway.identifies == 1


async def test_invalid_session_and_resume_rules_on_a_raw_socket(world):
    # (discord.py waits 5 s before re-identifying after op 9, so this one talks raw JSON.)
    emu = world.emu
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(emu.gateway_url + "?v=10&encoding=json") as ws:
            await ws.receive_json()
            await ws.send_json({"op": 2, "d": {"token": emu.token, "intents": 513, "properties": {}}})
            session_id = (await ws.receive_json())["d"]["session_id"]
            await ws.receive_json()  # GUILD_CREATE
        await emu.send_message(world.alice, world.general, "missed")  # buffered for the resume
        async with http.ws_connect(emu.gateway_url) as ws:
            await ws.receive_json()
            await ws.send_json({"op": 6, "d": {"token": emu.token, "session_id": session_id, "seq": 2}})
            replayed = await ws.receive_json()
            assert replayed["t"] == "MESSAGE_CREATE" and replayed["s"] == 3
            assert replayed["d"]["content"] == ""  # no MESSAGE_CONTENT intent (1 << 15)
            assert (await ws.receive_json())["t"] == "RESUMED"
            assert emu.gateway.invalidate()
            assert await ws.receive_json() == {"op": 9, "d": False, "s": None, "t": None}
        async with http.ws_connect(emu.gateway_url) as ws:
            await ws.receive_json()
            await ws.send_json({"op": 6, "d": {"token": emu.token, "session_id": session_id, "seq": 4}})
            assert (await ws.receive_json())["op"] == 9  # session gone: must identify


async def test_member_chunk_request_is_answered(world):
    emu = world.emu
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(emu.gateway_url + "?v=10&encoding=json") as ws:
            assert (await ws.receive_json())["op"] == 10
            await ws.send_json({"op": 2, "d": {"token": emu.token, "intents": 3, "properties": {}}})
            ready = await ws.receive_json()
            assert ready["t"] == "READY" and ready["d"]["resume_gateway_url"].startswith("ws://127.0.0.1:")
            guild = (await ws.receive_json())["d"]
            assert guild["member_count"] == len(guild["members"]) == 6
            await ws.send_json(
                {
                    "op": 8,
                    "d": {
                        "guild_id": str(world.guild.id),
                        "query": "",
                        "limit": 0,
                        "user_ids": [str(world.alice.id)],
                        "nonce": "n1",
                    },
                }
            )
            chunk = await ws.receive_json()
            assert chunk["t"] == "GUILD_MEMBERS_CHUNK" and chunk["d"]["nonce"] == "n1"
            assert [m["user"]["username"] for m in chunk["d"]["members"]] == ["alice"]
