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
