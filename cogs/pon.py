"""/pon: the pack-racing card game built on PON sets."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.base import CLOCK_HELP, CLOCKS, LANGUAGE_HELP, GameCog, language_autocomplete


class PonCog(GameCog, group_name="pon", group_description="PON — a pack-racing card game for 3–4 players"):
    kind = "pon"

    @app_commands.command(name="new", description="Open a PON table in this channel")
    @app_commands.describe(language=LANGUAGE_HELP, clock=CLOCK_HELP)
    @app_commands.choices(clock=CLOCKS)
    @app_commands.autocomplete(language=language_autocomplete)
    async def new(self, interaction: discord.Interaction, language: str | None = None,
                  clock: app_commands.Choice[int] | None = None) -> None:
        await self.create(interaction, {}, language, clock)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PonCog(bot))
