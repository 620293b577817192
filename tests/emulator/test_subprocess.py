"""Black box: the sample bot runs unmodified in a subprocess via ``python -m bot.tools.emulator.launch``;
the test acts as users only through the /_emu control API, then restarts the bot mid-game."""

from __future__ import annotations

import asyncio
import json
import os

import aiohttp

from bot.tools.emulator import Emulator
from bot.tools.emulator.testing import start_bot_subprocess

SAMPLEBOT = os.path.join(os.path.dirname(__file__), "samplebot.py")


async def test_blackbox_subprocess_with_control_api(tmp_path):
    async with Emulator() as emu, aiohttp.ClientSession(base_url=emu.base_url) as http:

        async def call(method, path, body=None):
            async with http.request(method, path, json=body) as resp:
                data = await resp.json()
                assert resp.status == 200, data
                return data

        await call("POST", "/_emu/guilds", {"name": "Remote Guild"})
        await call("POST", "/_emu/guilds/Remote Guild/channels", {"name": "races"})
        for name in ("ann", "ben"):
            await call("POST", "/_emu/users", {"name": name})
            await call("POST", "/_emu/guilds/Remote Guild/members", {"user": name})
        state = await call("GET", "/_emu/state")
        guild_id = state["guilds"][0]["id"]
        state_file = tmp_path / "games.json"
        proc = await start_bot_subprocess(
            emu,
            [SAMPLEBOT],
            env={"SAMPLEBOT_GUILD_ID": guild_id, "SAMPLEBOT_STATE": str(state_file)},
            cwd=str(tmp_path),
        )
        try:
            commands = await call("POST", "/_emu/wait/commands", {"timeout": 10})
            assert [c["name"] for c in commands["commands"]] == ["heat"]

            rec = await call(
                "POST",
                "/_emu/slash",
                {"user": "ann", "channel": "races", "command": "heat new", "options": {"track": "usa", "players": 3}},
            )
            assert rec["callback_type"] == 4 and rec["response"]["content"] == "Game 1 on usa for 3"
            game_id = rec["response"]["id"]

            bad = await http.post(
                "/_emu/slash",
                json={
                    "user": "ann",
                    "channel": "races",
                    "command": "heat new",
                    "options": {"track": "usa", "players": 9},
                },
            )
            assert bad.status == 400 and "maximum" in (await bad.json())["error"]

            rec = await call("POST", "/_emu/click", {"user": "ben", "message": game_id, "label": "Join (0)"})
            assert rec["callback_type"] == 7 and rec["response"]["content"] == "Game 1: 1 joined"

            rec = await call("POST", "/_emu/slash", {"user": "ann", "channel": "races", "command": "heat dm"})
            dms = await call("GET", "/_emu/dms/ann/messages")
            for _ in range(200):  # the DM goes out after the acknowledgement: under load, a moment later
                if dms:
                    break
                await asyncio.sleep(0.05)
                dms = await call("GET", "/_emu/dms/ann/messages")
            attachment = dms[0]["attachments"][0]
            assert attachment["filename"] == "hand.png" and attachment["width"] == 32
            async with http.get(f"/_emu/attachments/{attachment['id']}") as resp:
                assert (await resp.read()).startswith(b"\x89PNG")

            assert json.loads(state_file.read_text()) == {"1": [int(state["users"][-1]["id"])]}
            await proc.restart()  # SIGTERM, then a fresh process: IDENTIFY and command sync again
            assert emu.gateway.identifies == 2

            rec = await call("POST", "/_emu/click", {"user": "ann", "message": game_id, "custom_id": "join:1"})
            assert rec["response"]["content"] == "Game 1: 2 joined"  # DynamicItem + saved state survive
            messages = await call("GET", "/_emu/channels/races/messages")
            assert [m["content"] for m in messages] == ["Game 1: 2 joined"]
            hidden = await call("GET", "/_emu/channels/races/messages?for_user=ann")
            assert len(hidden) == 2 and hidden[1]["ephemeral"]  # the deferred "sent" follow-up
        finally:
            code = await proc.stop()
        assert code is not None, proc.output()
