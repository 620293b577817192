"""/pole: Pole Position (the standard race; bots and the optional rules as table options)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.pole import ENGINE
from bot.games.pole.content import circuits
from bot.i18n import msg
from cogs.base import (
    AI_HELP,
    AI_LEVEL_HELP,
    AI_LEVELS,
    AI_SEATS,
    CLOCK_HELP,
    CLOCKS,
    LANGUAGE_HELP,
    GameCog,
    choice_text,
    language_autocomplete,
    switched_on,
)

_CIRCUITS = circuits()
CIRCUITS = [
    app_commands.Choice(
        name=choice_text("{circuit} ({laps} laps)", circuit=msg(_CIRCUITS[key].name), laps=_CIRCUITS[key].laps),
        value=key,
    )
    for key in next(o.choices for o in ENGINE.options if o.name == "circuit")
]

BOT_SIDES = [app_commands.Choice(name="A (slightly better)", value="A"), app_commands.Choice(name="B", value="B")]


class PoleCog(
    GameCog, group_name="pole", group_description="Pole Position — F1 racing with tyres, weather and pit stops"
):
    kind = "pole"

    @app_commands.command(name="new", description="Open a Pole Position table in this channel")
    @app_commands.describe(ai=AI_HELP, ai_level=AI_LEVEL_HELP)
    @app_commands.choices(ai_level=AI_LEVELS)
    @app_commands.describe(
        circuit="The circuit (default: Great Britain)",
        bots="Cars the game drives itself, as many as fit in 6 (a lone player always gets one)",
        bot_side="Bot cards: side A (slightly better, default) or B",
        drs="DRS: up to 2 more MP after ending a move just behind a car past the DRS line",
        collisions="Collisions: equal raw fight rolls crash the cars (collision rolls, 1 SP rerolls)",
        yellow_flag="Yellow flag: no overtaking in a damaging collision's sector for 2 rounds (with collisions)",
        safety_car="Safety car: when a collision breaks down two cars, all line up behind the SC line (with collisions)",
        stress="Stress: leading, collisions and rivals close behind raise stress, which limits EP, BP and SP",
        events="Events: a '!' on the weather die may draw an event card (breakdowns, lost points, SC, weather)",
        events_c="Events: the optional 'C' cards too (turns events on)",
        events_often="Events: a 3 on the purple die counts as '!' (turns events on)",
        circuit_rules="Circuit special rules (each circuit's own rules)",
        no_retire="No retirements: too many breakdowns or a point you cannot lose sends you to the pits instead of out",
        custom_setup="Custom setup: move up to 2 points between EP and BP at the start, 1 at each pit stop",
        drivers="Drivers and teams: each player draws a driver and a team with their own abilities",
        championship="Championship: this many races (4-8) in one game, standings after each",
        engine_damage="Championship engine damage: ending a race with 0 EP costs EP in later races",
        constructors="Constructors: cars in teams of two (seat order) share a pit and add their points",
        long_race="Long race: twice the laps, 12 EP, 12 BP, 15 SP, 4 breakdown points, a second hard set",
        language=LANGUAGE_HELP,
        clock=CLOCK_HELP,
    )
    @app_commands.choices(circuit=CIRCUITS, bot_side=BOT_SIDES)
    @app_commands.choices(clock=CLOCKS)
    @app_commands.autocomplete(language=language_autocomplete)
    async def new(
        self,
        interaction: discord.Interaction,
        circuit: app_commands.Choice[str] | None = None,
        bots: app_commands.Range[int, 0, 5] | None = None,
        bot_side: app_commands.Choice[str] | None = None,
        drs: bool | None = None,
        collisions: bool | None = None,
        yellow_flag: bool | None = None,
        safety_car: bool | None = None,
        stress: bool | None = None,
        events: bool | None = None,
        events_c: bool | None = None,
        events_often: bool | None = None,
        circuit_rules: bool | None = None,
        no_retire: bool | None = None,
        long_race: bool | None = None,
        custom_setup: bool | None = None,
        drivers: bool | None = None,
        championship: app_commands.Range[int, 4, 8] | None = None,
        engine_damage: bool | None = None,
        constructors: bool | None = None,
        language: str | None = None,
        clock: app_commands.Choice[int] | None = None,
        ai: AI_SEATS | None = None,
        ai_level: app_commands.Choice[str] | None = None,
    ) -> None:
        options: dict = {"circuit": circuit.value} if circuit is not None else {}
        if bots:
            options["bots"] = bots
        if bot_side is not None:
            options["bot_side"] = bot_side.value
        options.update(
            switched_on(
                drs=drs,
                collisions=collisions,
                yellow_flag=yellow_flag,
                safety_car=safety_car,
                stress=stress,
                events=events,
                events_c=events_c,
                events_often=events_often,
                circuit_rules=circuit_rules,
                no_retire=no_retire,
                long_race=long_race,
                custom_setup=custom_setup,
                drivers=drivers,
                engine_damage=engine_damage,
                constructors=constructors,
            )
        )
        if championship:
            options["championship"] = championship
        await self.create(interaction, options, language, clock, ai, ai_level)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PoleCog(bot))
