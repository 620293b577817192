"""The emulator relies on two undocumented discord.py attributes; fail loudly if they move."""

import discord
import discord.gateway
import discord.http
import yarl


def test_discord_py_version_is_pinned():
    assert discord.__version__ == "2.7.1"


def test_route_base_exists_and_is_used_for_urls():
    assert isinstance(discord.http.Route.BASE, str)
    assert discord.http.Route.BASE.startswith("https://discord.com/api/v")
    saved = discord.http.Route.BASE
    try:
        discord.http.Route.BASE = "http://127.0.0.1:1/api/v10"
        assert discord.http.Route("GET", "/users/@me").url == "http://127.0.0.1:1/api/v10/users/@me"
    finally:
        discord.http.Route.BASE = saved


def test_default_gateway_exists():
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    assert isinstance(gateway, yarl.URL)
    assert gateway.host == "gateway.discord.gg"


def test_json_is_decoded_through_the_name_bot_wire_replaces():
    """bot/wire.py makes discord.py's decoding survive lone surrogates by replacing
    discord.utils._from_json; the gateway and HTTP code must still look it up there."""
    import inspect

    from bot import wire

    assert callable(discord.utils._from_json)
    assert "utils._from_json(" in inspect.getsource(discord.gateway)
    assert "utils._from_json(" in inspect.getsource(discord.http)
    wire.install()
    assert discord.utils._from_json is wire.tolerant_loads
    assert discord.utils._from_json('{"a": "\\ud800x"}') == {"a": "\ufffdx"}
    assert discord.utils._from_json(b'{"a": 1}') == {"a": 1}
