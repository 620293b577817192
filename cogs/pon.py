"""/pon: the pack-racing card game built on PON sets."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.base import (
    AI_HELP,
    AI_LEVEL_HELP,
    AI_LEVELS,
    AI_SEATS,
    CLOCK_HELP,
    CLOCKS,
    LANGUAGE_HELP,
    GameCog,
    language_autocomplete,
)


class PonCog(GameCog, group_name="pon", group_description="PON — a pack-racing card game for 3–4 players"):
    kind = "pon"

    @app_commands.command(name="new", description="Open a PON table in this channel")
    @app_commands.describe(ai=AI_HELP, ai_level=AI_LEVEL_HELP)
    @app_commands.choices(ai_level=AI_LEVELS)
    @app_commands.describe(language=LANGUAGE_HELP, clock=CLOCK_HELP)
    @app_commands.choices(clock=CLOCKS)
    @app_commands.autocomplete(language=language_autocomplete)
    async def new(
        self,
        interaction: discord.Interaction,
        language: str | None = None,
        clock: app_commands.Choice[int] | None = None,
        ai: AI_SEATS | None = None,
        ai_level: app_commands.Choice[str] | None = None,
    ) -> None:
        await self.create(interaction, {}, language, clock, ai, ai_level)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PonCog(bot))
