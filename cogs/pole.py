"""/pole: Pole Position (the standard race, with bots as a table option; more optional rules later)."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.pole import ENGINE
from bot.games.pole.content import circuits
from bot.i18n import msg
from cogs.base import CLOCK_HELP, CLOCKS, LANGUAGE_HELP, GameCog, choice_text, language_autocomplete

_CIRCUITS = circuits()
CIRCUITS = [app_commands.Choice(name=choice_text("{circuit} ({laps} laps)", circuit=msg(_CIRCUITS[key].name),
                                                  laps=_CIRCUITS[key].laps), value=key)
            for key in next(o.choices for o in ENGINE.options if o.name == "circuit")]

BOT_SIDES = [app_commands.Choice(name="A (slightly better)", value="A"), app_commands.Choice(name="B", value="B")]


class PoleCog(GameCog, group_name="pole", group_description="Pole Position — F1 racing with tyres, weather and pit stops"):
    kind = "pole"

    @app_commands.command(name="new", description="Open a Pole Position table in this channel")
    @app_commands.describe(circuit="The circuit (default: Great Britain)",
                           bots="Cars the game drives itself, as many as fit in 6 (a lone player always gets one)",
                           bot_side="Bot cards: side A (slightly better, default) or B",
                           drs="DRS: up to 2 more MP after ending a move just behind a car past the DRS line",
                           collisions="Collisions: equal raw fight rolls crash the cars (collision rolls, 1 SP rerolls)",
                           yellow_flag="Yellow flag: no overtaking in a damaging collision's sector for 2 rounds (with collisions)",
                           safety_car="Safety car: when a collision breaks down two cars, all line up behind the SC line (with collisions)",
                           stress="Stress: leading, collisions and rivals close behind raise stress, which limits EP, BP and SP",
                           language=LANGUAGE_HELP, clock=CLOCK_HELP)
    @app_commands.choices(circuit=CIRCUITS, bot_side=BOT_SIDES, clock=CLOCKS)
    @app_commands.autocomplete(language=language_autocomplete)
    async def new(self, interaction: discord.Interaction, circuit: app_commands.Choice[str] | None = None,
                  bots: app_commands.Range[int, 0, 5] | None = None,
                  bot_side: app_commands.Choice[str] | None = None, drs: bool | None = None,
                  collisions: bool | None = None, yellow_flag: bool | None = None,
                  safety_car: bool | None = None, stress: bool | None = None,
                  language: str | None = None,
                  clock: app_commands.Choice[int] | None = None) -> None:
        options: dict = {"circuit": circuit.value} if circuit is not None else {}
        if bots:
            options["bots"] = bots
        if bot_side is not None:
            options["bot_side"] = bot_side.value
        if drs:
            options["drs"] = True
        if collisions:
            options["collisions"] = True
        if yellow_flag:
            options["yellow_flag"] = True
        if safety_car:
            options["safety_car"] = True
        if stress:
            options["stress"] = True
        await self.create(interaction, options, language, clock)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PoleCog(bot))
