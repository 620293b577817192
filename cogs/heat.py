"""/heat: Heat: Pedal to the Metal."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.base import GameCog

TRACKS = [app_commands.Choice(name=n, value=v) for n, v in
          (("USA", "usa"), ("France", "france"), ("Great Britain", "gb"), ("Italy", "italy"))]


class HeatCog(GameCog, group_name="heat", group_description="Heat: Pedal to the Metal — a car racing card game"):
    kind = "heat"

    @app_commands.command(name="new", description="Open a Heat table in this channel")
    @app_commands.describe(track="The circuit", laps="Laps (default: the circuit's own)")
    @app_commands.choices(track=TRACKS)
    async def new(self, interaction: discord.Interaction, track: app_commands.Choice[str],
                  laps: app_commands.Range[int, 1, 5] | None = None) -> None:
        options = {"track": track.value}
        if laps is not None:
            options["laps"] = laps
        await self.create(interaction, options)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HeatCog(bot))
