"""Interaction responses (ephemeral, deferred, follow-ups, DMs) and Discord's limits."""

from __future__ import annotations

import asyncio
import io

import aiohttp
import discord
import pytest

from bot.tools.emulator import core

from .samplebot import png


def creates(emu):
    return sum(1 for e in emu.gateway.log if e == ("send", 0, "MESSAGE_CREATE"))


async def test_ephemeral_reply_is_visible_only_to_its_user(env):
    emu, alice = env.emu, env.alice
    before = creates(emu)
    rec = await emu.slash(alice, env.general, "heat", "hand")
    msg = rec.response
    assert rec.ephemeral and msg.ephemeral and msg.flags & 64 and msg.visible_to == alice.id
    assert creates(emu) == before  # never broadcast
    assert msg not in emu.channel_messages(env.general)
    assert msg not in emu.channel_messages(env.general, for_user=env.bob)
    assert msg in emu.channel_messages(env.general, for_user=alice)
    assert msg in emu.channel_messages(env.general, include_ephemeral=True)
    with pytest.raises(discord.NotFound):
        await env.bot.get_channel(env.general.id).fetch_message(msg.id)


async def test_deferred_reply_shows_loading_then_edit_with_png(env):
    emu = env.emu
    rec = await emu.slash(env.alice, env.general, "heat", "board")
    assert rec.callback_type == 5
    sent = [
        f["d"]
        for f in emu.gateway.session.buffer
        if f["t"] in ("MESSAGE_CREATE", "MESSAGE_UPDATE") and f["d"]["id"] == str(rec.response.id)
    ]
    assert sent[0]["flags"] == 128 and sent[0]["content"] == ""  # the "thinking..." placeholder
    msg = await emu.wait_until(lambda: rec.response if not rec.response.loading else None)
    assert [f["d"]["flags"] for f in emu.gateway.session.buffer if f["t"] == "MESSAGE_UPDATE"] == [0]
    assert msg.content == "Board" and not msg.ephemeral
    att = msg.attachments[0]
    assert att.filename == "board.png" and att.content_type == "image/png"
    assert (att.width, att.height) == (64, 48) and att.data == png(64, 48)
    async with aiohttp.ClientSession() as http:  # the CDN URL the bot was given
        async with http.get(att.url) as resp:
            assert await resp.read() == att.data


async def test_dm_with_png_and_first_followup_resolves_deferral(env):
    emu = env.emu
    rec = await emu.slash(env.alice, env.general, "heat", "dm")
    dm = await emu.wait_until(lambda: emu.dm_messages(env.alice))
    assert dm[0].content == "Your hand" and dm[0].attachments[0].data[:8] == b"\x89PNG\r\n\x1a\n"
    await emu.wait_until(lambda: rec.followups)
    assert rec.callback_type == 5 and rec.ephemeral
    assert rec.followups[0] is rec.response and rec.response.content == "sent" and not rec.response.loading


async def test_dm_refused_when_user_closed_dms(env):
    emu = env.emu
    rec = await emu.slash(env.alice, env.general, "heat", "dm", who=env.hermit)
    await emu.wait_until(lambda: rec.followups)
    assert env.bot.last("dm_forbidden") == ("dm_forbidden", 403, 50007)
    assert rec.response.content == "cannot DM hermit" and emu.dm_messages(env.hermit) == []
    emu.set_dm_open(env.hermit, True)
    await (await env.bot.fetch_user(env.hermit.id)).send("welcome back")
    assert [m.content for m in emu.dm_messages(env.hermit)] == ["welcome back"]


async def test_content_over_2000_is_invalid_form_body(env):
    rec = await env.emu.slash(env.alice, env.general, "heat", "shout")
    assert env.bot.last("shout") == ("shout", 400, 50035)
    assert rec.rejected[0]["errors"] == {
        "data": {
            "content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}]}
        }
    }
    assert rec.callback_type == 4 and rec.response.content == "too long"
    channel = env.bot.get_channel(env.general.id)
    with pytest.raises(discord.HTTPException) as info:
        await channel.send("B" * 2001)
    assert info.value.status == 400 and info.value.code == 50035


async def test_double_acknowledgement_is_40060(env):
    rec = await env.emu.slash(env.alice, env.general, "heat", "twice")
    await env.emu.wait_until(lambda: env.bot.last("twice"))
    assert env.bot.last("twice") == ("twice", 400, 40060)
    assert rec.response.content == "once" and rec.rejected[0]["code"] == 40060


async def test_late_callback_is_unknown_interaction(env):
    emu, bot = env.emu, env.bot
    task = asyncio.create_task(emu.slash(env.alice, env.general, "heat", "slow"))
    await emu.wait_until(lambda: bot.last("slow_started"))
    emu.clock.advance(3.5)
    rec = await task
    assert rec.failed and rec.error == "This interaction failed"
    bot.release.set()
    await emu.wait_until(lambda: bot.last("slow"))
    assert bot.last("slow") == ("slow", 404, 10062)
    assert rec.callback_type is None and rec.rejected[0]["code"] == 10062


async def test_an_answered_interaction_returns_once_the_bot_in_process_has_handled_it(env):
    """An in-process bot is waited for until its handler is done (not a fixed 50 ms), so what it
    does after answering is there when the action returns."""
    emu, bot = env.emu, env.bot
    asyncio.get_running_loop().call_later(0.3, bot.release.set)
    rec = await emu.slash(env.alice, env.general, "heat", "finish")
    assert rec.response.content == "on it" and bot.last("finished")


async def test_a_handler_held_after_its_answer_or_under_faults_does_not_hold_the_action(env, monkeypatch):
    emu, bot = env.emu, env.bot
    monkeypatch.setattr(core, "SETTLE_CAP", 0.2)  # a handler still working after that: the action returns
    rec = await asyncio.wait_for(emu.slash(env.alice, env.general, "heat", "finish"), 5)
    assert rec.response.content == "on it" and not bot.last("finished")
    emu.slow("GET", "/nothing-at-all", 1)  # with faults set (a test of a held request), the fixed delay
    monkeypatch.setattr(core, "SETTLE_CAP", 30)
    asyncio.get_running_loop().call_later(1, bot.release.set)
    rec = await emu.slash(env.alice, env.general, "heat", "finish")
    assert not bot.last("finished")
    await emu.wait_until(lambda: len([e for e in bot.events if e == ("finished",)]) == 2)


async def test_interaction_token_expires_after_15_minutes(env):
    emu, bot = env.emu, env.bot
    rec = await emu.slash(env.alice, env.general, "heat", "hand")
    followup = await bot.last_interaction.followup.send("more cards", ephemeral=True, wait=True)
    assert rec.followups[-1].id == followup.id and rec.followups[-1].ephemeral
    await bot.last_interaction.edit_original_response(content="your hand: 4 5")
    assert rec.response.content == "your hand: 4 5"
    emu.clock.advance(15 * 60 + 1)
    with pytest.raises(discord.HTTPException) as info:
        await bot.last_interaction.followup.send("too late")
    assert info.value.status == 401 and info.value.code == 50027


async def test_upload_over_10_mib_is_request_entity_too_large(env):
    channel = env.bot.get_channel(env.general.id)
    big = discord.File(io.BytesIO(b"\0" * (10 * 1024 * 1024 + 1)), "big.bin")
    with pytest.raises(discord.HTTPException) as info:
        await channel.send(file=big)
    assert info.value.status == 413 and info.value.code == 40005
    ok = await channel.send(file=discord.File(io.BytesIO(png()), "small.png"))
    assert ok.attachments[0].width == 32 and ok.attachments[0].height == 16


async def test_embed_and_component_limits(env):
    channel = env.bot.get_channel(env.general.id)
    with pytest.raises(discord.HTTPException) as info:
        await channel.send(embed=discord.Embed(title="T" * 257))
    assert info.value.code == 50035 and "embeds" in str(info.value)
    with pytest.raises(discord.HTTPException):
        await channel.send(embeds=[discord.Embed(description="D" * 4000), discord.Embed(description="D" * 2001)])
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=env.general.id)
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": "a"}]}
    rows = [dict(row, components=[dict(row["components"][0], custom_id=f"r{i}")]) for i in range(6)]
    with pytest.raises(discord.HTTPException) as info:
        await env.bot.http.request(route, json={"content": "x", "components": rows})
    assert info.value.code == 50035
    wide = [{"type": 1, "components": [dict(row["components"][0], custom_id=f"b{i}") for i in range(6)]}]
    with pytest.raises(discord.HTTPException):
        await env.bot.http.request(route, json={"content": "x", "components": wide})
    long_id = [{"type": 1, "components": [dict(row["components"][0], custom_id="c" * 101)]}]
    with pytest.raises(discord.HTTPException):
        await env.bot.http.request(route, json={"content": "x", "components": long_id})
    select = {"type": 3, "custom_id": "s", "options": [{"label": str(i), "value": str(i)} for i in range(26)]}
    with pytest.raises(discord.HTTPException):
        await env.bot.http.request(route, json={"content": "x", "components": [{"type": 1, "components": [select]}]})
    with pytest.raises(discord.HTTPException) as info:
        await channel.send("")
    assert info.value.code == 50006
    assert env.emu.channel_messages(env.general) == []


async def test_message_edit_delete_history_and_content_intent(env):
    emu, bot = env.emu, env.bot
    channel = bot.get_channel(env.general.id)
    first = await channel.send("one")
    second = await channel.send("two", reference=first)
    assert emu.message(second.id).message_reference["message_id"] == str(first.id)
    await first.edit(content="uno")
    assert emu.message(first.id).content == "uno"
    assert [m.content async for m in channel.history(limit=10)] == ["two", "uno"]
    await second.delete()
    assert [m.content for m in emu.channel_messages(env.general)] == ["uno"]
    async with channel.typing():
        pass
    assert env.general.id in emu.typing
    said = await emu.send_message(env.alice, env.general, "hello bot?")
    pinged = await emu.send_message(env.alice, env.general, f"<@{bot.user.id}> hello")
    await emu.wait_until(lambda: bot.last("message")[1] == pinged.id)
    seen = {e[1]: e[2] for e in bot.events if e[0] == "message"}
    assert seen[said.id] == ""  # no MESSAGE_CONTENT intent: blanked like Discord does
    assert seen[pinged.id] == pinged.content  # ...except when the bot is mentioned
