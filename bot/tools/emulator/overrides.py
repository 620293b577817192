"""Point an unmodified discord.py at the emulator: the only two attributes it needs."""

from __future__ import annotations

from typing import Any, List, Tuple

_saved: List[Tuple[Any, Any]] = []


def apply_discord_py_overrides(api_base: str, gateway_url: str) -> None:
    """Set ``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``; loopback only.
    Call after anything that might call ``discord.http._set_api_version`` (it resets BASE)."""
    import discord.gateway
    import discord.http
    import yarl

    for url in (api_base, gateway_url):
        if yarl.URL(url).host not in ("127.0.0.1", "localhost"):
            raise ValueError(f"refusing to point discord.py at a non-loopback address: {url}")
    _saved.append((discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY))
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def restore_discord_py_overrides() -> None:
    """Undo the last ``apply_discord_py_overrides`` (no-op if none is active)."""
    import discord.gateway
    import discord.http

    if _saved:
        base, gateway = _saved.pop()
        discord.http.Route.BASE = base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway
