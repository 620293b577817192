"""/heat: Heat: Pedal to the Metal."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.heat import ENGINE
from bot.games.heat.content import offered_tracks, tracks
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

_TRACKS = tracks()
TRACKS = [app_commands.Choice(name=_TRACKS[key].name, value=key) for key in offered_tracks()]
GARAGE = option_choices(ENGINE, "garage")
GRIDS = [app_commands.Choice(name="random", value="random"), app_commands.Choice(name="seat order", value="seats")]
SEASONS = option_choices(ENGINE, "championship")


class HeatCog(GameCog, group_name="heat", group_description="Heat: Pedal to the Metal — a car racing card game"):
    kind = "heat"

    @app_commands.command(name="new", description="Open a Heat table in this channel")
    @app_commands.describe(ai=AI_HELP, ai_level=AI_LEVEL_HELP)
    @app_commands.choices(ai_level=AI_LEVELS)
    @app_commands.describe(
        track="The circuit (laps, spaces and corners as on the real board; default USA)",
        grid="Starting grid: random (default) or in seat order",
        weather="Weather and road conditions module (default: off)",
        garage="Garage module: draft 3 upgrade cards before the race (all: with Heavy Rain air intakes)",
        garage_deal="Garage: deal 3 upgrades to each player instead of the draft",
        legends="Legends module: 1-5 cars the bot drives, 3 players or fewer, 6 cars at most (2+ suggested)",
        legend_bonus="Advanced Legends: add 1-3 to their helmet numbers (default: 0)",
        aggressive_legends="Aggressive Legends (Heavy Rain): one more corner line from a ∧ diamond",
        tournament="Tournament mode: no gear shift before the cards; card counts set the gears",
        championship="Championship: a whole season of races in this game (its own tracks)",
        races="Custom championship: number of races (2-4, default 4)",
        season_tracks="Custom championship: tracks in order, comma-separated (default: shuffled)",
        language=LANGUAGE_HELP,
        clock=CLOCK_HELP,
    )
    @app_commands.choices(track=TRACKS, grid=GRIDS, garage=GARAGE, championship=SEASONS, clock=CLOCKS)  # type: ignore[misc]  # (str and int choices: discord.py types them as one kind)
    @app_commands.autocomplete(language=language_autocomplete)
    async def new(
        self,
        interaction: discord.Interaction,
        track: app_commands.Choice[str] | None = None,
        grid: app_commands.Choice[str] | None = None,
        weather: bool | None = None,
        garage: app_commands.Choice[str] | None = None,
        garage_deal: bool | None = None,
        legends: app_commands.Range[int, 1, 5] | None = None,
        legend_bonus: app_commands.Range[int, 0, 3] | None = None,
        aggressive_legends: bool | None = None,
        tournament: bool | None = None,
        championship: app_commands.Choice[str] | None = None,
        races: app_commands.Range[int, 2, 4] | None = None,
        season_tracks: str | None = None,
        language: str | None = None,
        clock: app_commands.Choice[int] | None = None,
        ai: AI_SEATS | None = None,
        ai_level: app_commands.Choice[str] | None = None,
    ) -> None:
        # A championship races its season's tracks: a track given with one is not used.
        season = championship.value if championship is not None else "off"
        options: dict[str, Any] = {"track": track.value} if track is not None and season == "off" else {}
        if grid is not None:
            options["grid"] = grid.value
        if weather:
            options["weather"] = True
        if garage is not None and garage.value != "off":
            options["garage"] = garage.value
            if garage_deal:
                options["garage_deal"] = True
        if legends:
            options["legends"] = legends
            if legend_bonus:
                options["legend_bonus"] = legend_bonus
            if aggressive_legends:
                options["aggressive_legends"] = True
        if tournament:
            options["tournament"] = True
        if season != "off":
            options["championship"] = season
            if races is not None:
                options["races"] = races
            if season_tracks:
                options["season_tracks"] = season_tracks[:200]
        await self.create(interaction, options, language, clock, ai, ai_level)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HeatCog(bot))
