"""The launcher and the discord.py overrides."""

from __future__ import annotations

import json
import sys

import discord.gateway
import discord.http
import pytest

from bot.tools.emulator import Emulator, apply_discord_py_overrides, restore_discord_py_overrides
from bot.tools.emulator import launch


def test_overrides_apply_and_restore():
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    apply_discord_py_overrides("http://127.0.0.1:9/api/v10", "ws://127.0.0.1:9/gateway/")
    try:
        assert discord.http.Route("GET", "/users/@me").url == "http://127.0.0.1:9/api/v10/users/@me"
        assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:9/gateway/"
    finally:
        restore_discord_py_overrides()
    assert (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == (base, gateway)
    with pytest.raises(ValueError, match="non-loopback"):
        apply_discord_py_overrides("https://discord.com/api/v10", "ws://127.0.0.1:9/")


def test_launcher_sets_urls_then_runs_target_as_main(tmp_path, monkeypatch):
    out = tmp_path / "seen.json"
    script = tmp_path / "fakebot.py"
    script.write_text(
        "import json, sys, discord.http, discord.gateway\n"
        "if __name__ == '__main__':\n"
        f"    json.dump([discord.http.Route.BASE, str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY),"
        f" sys.argv[1:]], open({str(out)!r}, 'w'))\n"
    )
    monkeypatch.setenv("EMULATOR_API_BASE", "http://127.0.0.1:5/api/v10")
    monkeypatch.setenv("EMULATOR_GATEWAY", "ws://127.0.0.1:5/gateway/")
    monkeypatch.setattr(sys, "argv", list(sys.argv))
    try:
        launch.main([str(script), "--flag", "x"])
    finally:
        restore_discord_py_overrides()
    assert json.loads(out.read_text()) == ["http://127.0.0.1:5/api/v10", "ws://127.0.0.1:5/gateway/", ["--flag", "x"]]


def test_launcher_needs_target_and_env(monkeypatch):
    monkeypatch.delenv("EMULATOR_API_BASE", raising=False)
    with pytest.raises(SystemExit, match="usage"):
        launch.main([])
    with pytest.raises(SystemExit, match="EMULATOR_API_BASE"):
        launch.main(["bot"])


async def test_emulator_env_points_at_itself():
    async with Emulator() as emu:
        env = emu.env()
        assert env["EMULATOR_API_BASE"] == f"http://127.0.0.1:{emu.port}/api/v10"
        assert env["EMULATOR_GATEWAY"] == f"ws://127.0.0.1:{emu.port}/gateway/"
        emu.apply_discord_py_overrides()
        assert discord.http.Route.BASE == env["EMULATOR_API_BASE"]
    assert discord.http.Route.BASE.startswith("https://discord.com")  # stop() restored it
