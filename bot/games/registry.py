"""Every game the bot hosts, by kind. Each game package exposes ENGINE."""

from __future__ import annotations

from bot.games.base import Engine


def engines() -> dict[str, Engine]:
    from bot.games import heat, pole, pon, rallyman, steamworks

    return {e.kind: e for e in (heat.ENGINE, pon.ENGINE, pole.ENGINE, rallyman.ENGINE, steamworks.ENGINE)}
