"""/rallyman: Rallyman: DIRT."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.rallyman.board import stage_names
from bot.games.rallyman.engine import DEFAULT_STAGE, rallies
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


async def stage_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The 34 stages by name (more than Discord's 25 fixed choices, so typed and filtered), whole
    rallies ("Rally1": its stages one after another), and random stages ("random N": N road tiles
    between start and finish)."""
    words = current.lower().split()
    names = ["random", "random 6", "random 14", *rallies(), *stage_names()]
    return [app_commands.Choice(name=name, value=name) for name in names if all(w in name.lower() for w in words)][:25]


class RallymanCog(GameCog, group_name="rallyman", group_description="Rallyman: DIRT — a rally time trial with dice"):
    kind = "rallyman"

    @app_commands.command(name="new", description="Open a Rallyman: DIRT table in this channel")
    @app_commands.describe(ai=AI_HELP, ai_level=AI_LEVEL_HELP)
    @app_commands.choices(ai_level=AI_LEVELS)
    @app_commands.describe(
        stage='A stage (default Rally1 SS1), a whole rally (Rally1) or "random 10" (10 tiles)',
        language=LANGUAGE_HELP,
        clock=CLOCK_HELP,
    )
    @app_commands.choices(clock=CLOCKS)
    @app_commands.autocomplete(stage=stage_autocomplete, language=language_autocomplete)
    async def new(
        self,
        interaction: discord.Interaction,
        stage: str | None = None,
        language: str | None = None,
        clock: app_commands.Choice[int] | None = None,
        ai: AI_SEATS | None = None,
        ai_level: app_commands.Choice[str] | None = None,
    ) -> None:
        await self.create(interaction, {"stage": stage or DEFAULT_STAGE}, language, clock, ai, ai_level)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RallymanCog(bot))
