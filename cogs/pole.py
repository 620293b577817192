"""/pole: Pole Position (the standard race; optional rules come as table options later)."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.pole import ENGINE
from bot.games.pole.content import circuits
from cogs.base import CLOCK_HELP, CLOCKS, LANGUAGE_HELP, GameCog, language_autocomplete

_CIRCUITS = circuits()
CIRCUITS = [app_commands.Choice(name=f"{_CIRCUITS[key].name} ({_CIRCUITS[key].laps} laps)", value=key)
            for key in next(o.choices for o in ENGINE.options if o.name == "circuit")]


class PoleCog(GameCog, group_name="pole", group_description="Pole Position — F1 racing with tyres, weather and pit stops"):
    kind = "pole"

    @app_commands.command(name="new", description="Open a Pole Position table in this channel")
    @app_commands.describe(circuit="The circuit (default: Great Britain)", language=LANGUAGE_HELP, clock=CLOCK_HELP)
    @app_commands.choices(circuit=CIRCUITS)
    @app_commands.choices(clock=CLOCKS)
    @app_commands.autocomplete(language=language_autocomplete)
    async def new(self, interaction: discord.Interaction, circuit: app_commands.Choice[str] | None = None,
                  language: str | None = None,
                  clock: app_commands.Choice[int] | None = None) -> None:
        options = {"circuit": circuit.value} if circuit is not None else {}
        await self.create(interaction, options, language, clock)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PoleCog(bot))
