"""Login, gateway, command sync, slash commands with validation, autocomplete."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from bot.tools.emulator import Emulator, EmulatorError
from bot.tools.emulator.limits import valid_name
from bot.tools.emulator.testing import start_bot_in_process

from .samplebot import SampleBot


async def test_login_sync_and_gateway(env):
    emu, bot = env.emu, env.bot
    assert bot.user.id == emu.app_id and bot.is_ready()
    assert bot.get_guild(env.guild.id).get_channel(env.general.id).name == "general"
    assert bot.get_guild(env.guild.id).default_role.id == env.guild.id
    assert {c["name"] for c in emu.global_commands} == {"heat"}
    mod = emu.commands(env.guild)
    assert [c["name"] for c in mod] == [("mod")] and mod[0]["guild_id"] == str(env.guild.id)
    assert emu.gateway.identifies == 1 and emu.gateway.heartbeats >= 1
    assert any(e == ("send", 0, "GUILD_CREATE") for e in emu.gateway.log)
    synced = await bot.tree.fetch_commands()  # GET round-trip parses as AppCommand
    assert synced[0].name == "heat" and synced[0].id == int(emu.global_commands[0]["id"])


async def test_rest_answers_exact_json_content_type_and_checks_token(world):
    emu = world.emu
    async with aiohttp.ClientSession() as http:
        ok = await http.get(emu.api_base + "/users/@me", headers={"Authorization": f"Bot {emu.token}"})
        assert ok.headers["Content-Type"] == "application/json"
        assert (await ok.json())["id"] == str(emu.app_id)
        bad = await http.get(emu.api_base + "/users/@me", headers={"Authorization": "Bot nope"})
        assert bad.status == 401
        missing = await http.get(emu.api_base + "/no/such/route", headers={"Authorization": f"Bot {emu.token}"})
        assert missing.status == 404 and missing.headers["Content-Type"] == "application/json"


async def test_bad_token_fails_login(world):
    with pytest.raises(discord.LoginFailure):
        await start_bot_in_process(world.emu, SampleBot(world.guild.id), token="wrong")


async def test_gateway_hello_text_frames_and_close_4004_on_bad_identify(world):
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(world.emu.gateway_url + "?v=10&encoding=json") as ws:
            hello = await ws.receive_json()
            assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
            await ws.send_json({"op": 1, "d": None})
            assert (await ws.receive_json())["op"] == 11
            await ws.send_json({"op": 2, "d": {"token": "bad", "intents": 0, "properties": {}}})
            closing = await ws.receive()
            assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 4004


async def test_invalid_command_sync_is_rejected_like_discord(world):
    emu = world.emu
    url = f"{emu.api_base}/applications/{emu.app_id}/commands"
    bad = [
        {
            "name": "Heat",
            "description": "x" * 101,
            "type": 1,
            "options": [{"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)],
        }
    ]
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {emu.token}"}) as http:
        resp = await http.put(url, json=bad)
        body = await resp.json()
        assert resp.status == 400 and body["code"] == 50035 and body["message"] == "Invalid Form Body"
        assert set(body["errors"]["0"]) == {"name", "description", "options"}
        assert emu.global_commands == []
        resp = await http.put(url, json=[{"name": "ok", "description": "fine", "type": 1}])
        assert resp.status == 200 and emu.global_commands[0]["name"] == "ok"


def test_command_name_rule():
    assert valid_name("heat") and valid_name("ゲーム") and valid_name("a-b_c1") and valid_name("x" * 32)
    assert not valid_name("Heat") and not valid_name("a b") and not valid_name("") and not valid_name("x" * 33)
    assert not valid_name("emoji🙂")


async def test_slash_with_choices_and_range(env):
    emu, alice = env.emu, env.alice
    rec = await emu.slash(alice, env.general, "heat", "new", track="italy", players=4)
    assert rec.callback_type == 4 and not rec.ephemeral and rec.error is None
    assert rec.response.content == "Game 1 on italy for 4"
    assert env.bot.last("new") == ("new", "italy", 4, env.guild.id)
    assert rec.response in emu.channel_messages(env.general)
    assert rec.response.button_labels == ["Join (0)", "Start"]
    payload = rec.payload
    assert payload["member"]["user"]["id"] == str(alice.id) and "guild_id" not in payload["data"]


@pytest.mark.parametrize(
    "path,options,needle",
    [
        (("nope",), {}, "unknown command"),
        (("heat",), {}, "needs a sub-command"),
        (("heat", "fly"), {}, "no sub-command"),
        (("heat", "new"), {}, "missing required option 'track'"),
        (("heat", "new"), {"track": "mars"}, "not one of the choices"),
        (("heat", "new"), {"track": "usa", "players": 7}, "more than the maximum"),
        (("heat", "new"), {"track": "usa", "players": "2"}, "expects an integer"),
        (("heat", "new"), {"track": "usa", "colour": "red"}, "unknown option"),
    ],
)
async def test_slash_validation_against_synced_schema(env, path, options, needle):
    before = len(env.emu.interaction_records)
    with pytest.raises(EmulatorError, match=needle):
        await env.emu.slash(env.alice, env.general, *path, **options)
    assert len(env.emu.interaction_records) == before  # nothing reached the bot


async def test_guild_command_permissions_and_guild_id(env):
    emu = env.emu
    with pytest.raises(EmulatorError, match="lacks the permissions"):
        await emu.slash(env.alice, env.general, "mod", "purge")
    rec = await emu.slash(env.mod, env.general, "mod", "purge")
    assert rec.data["guild_id"] == str(env.guild.id) and rec.ephemeral
    assert env.bot.last("purge") == ("purge", env.guild.id, True)
    with pytest.raises(EmulatorError, match="unknown command"):
        await emu.slash(env.alice, emu.dm_channel(env.alice), "mod", "purge")


async def test_user_option_is_resolved_and_mentions_recorded(env):
    rec = await env.emu.slash(env.alice, env.general, "heat", "invite", who=env.bob)
    assert env.bot.last("invite") == ("invite", env.bob.id, "Member")
    assert rec.response.content == f"<@{env.bob.id}> invited" and rec.response.mentions == [env.bob.id]
    assert rec.data["resolved"]["users"][str(env.bob.id)]["username"] == "bob"


async def test_slash_in_dm(env):
    dm = env.emu.dm_channel(env.alice)
    rec = await env.emu.slash(env.alice, dm, "heat", "hand")
    assert rec.callback_type == 4 and rec.ephemeral and rec.response.channel_id == dm.id
    assert "member" not in rec.payload and rec.payload["user"]["id"] == str(env.alice.id)
    game = (await env.emu.slash(env.alice, dm, "heat", "new", track="usa")).response
    assert game.channel_id == dm.id and game in env.emu.dm_messages(env.alice)
    rec = await env.emu.click(env.alice, game, label="Join (0)")
    assert rec.callback_type == 7 and game.content == "Game 1: 1 joined"
    with pytest.raises(EmulatorError, match="cannot see"):
        await env.emu.click(env.bob, game, label="Join (1)")


async def test_autocomplete_returns_bot_choices(env):
    choices = await env.emu.autocomplete(env.alice, env.general, "heat", "move", focused="card", card="c")
    assert choices == [{"name": "Card cooldown", "value": "cooldown"}]
    everything = await env.emu.autocomplete(env.alice, env.general, "heat", "move", focused="card")
    assert len(everything) == 6
    assert env.emu.interaction_records[-1].callback_type == 8
    with pytest.raises(EmulatorError, match="no autocomplete"):
        await env.emu.autocomplete(env.alice, env.general, "heat", "new", focused="track")


async def test_emulator_binds_loopback_only():
    async with Emulator() as emu:
        assert emu.base_url.startswith("http://127.0.0.1:") and emu.port > 0
