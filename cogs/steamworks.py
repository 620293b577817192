"""/steamworks: Steam Works."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.steamworks import ENGINE
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
    option_choices,
)

PERSONAS = option_choices(ENGINE, "personas")


class SteamWorksCog(
    GameCog,
    group_name="steamworks",
    group_description="Steam Works — build devices, power them, use each other's (2–5 players)",
):
    kind = "steamworks"

    @app_commands.command(name="new", description="Open a Steam Works table in this channel")
    @app_commands.describe(ai=AI_HELP, ai_level=AI_LEVEL_HELP)
    @app_commands.choices(ai_level=AI_LEVELS)
    @app_commands.describe(
        personas="How persona boards are dealt: random (default) or in seat order",
        language=LANGUAGE_HELP,
        clock=CLOCK_HELP,
    )
    @app_commands.choices(personas=PERSONAS)
    @app_commands.choices(clock=CLOCKS)
    @app_commands.autocomplete(language=language_autocomplete)
    async def new(
        self,
        interaction: discord.Interaction,
        personas: app_commands.Choice[str] | None = None,
        language: str | None = None,
        clock: app_commands.Choice[int] | None = None,
        ai: AI_SEATS | None = None,
        ai_level: app_commands.Choice[str] | None = None,
    ) -> None:
        options = {"personas": personas.value} if personas is not None else {}
        await self.create(interaction, options, language, clock, ai, ai_level)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SteamWorksCog(bot))
