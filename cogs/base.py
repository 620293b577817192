"""What every game's slash group shares: join, hand, play (with autocomplete from the legal moves).

A game's cog subclasses GameCog with its group name and adds its own `new` command, whose
parameters are that game's table options.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import rules_pages
from bot.ai.search import LEVEL_NAMES
from bot.games.base import Engine, is_preference, name_seats
from bot.i18n import LANGUAGE_NAMES, msg, render, supported_locales
from bot.store import Game
from bot.picks import pick_value, waiting_for
from bot.lobbies import status_text
from bot.table import PlayerError, Table


def link(game: Game) -> str:  # a jump link to the game's thread (or channel)
    return f"https://discord.com/channels/{game.guild_id or '@me'}/{game.thread_id or game.channel_id}"


LIVE = ("lobby", "active")


def only_one(games: list[Game]) -> Game | None:
    """The one game meant among several found: the one still live if only one is; None if none
    was found; PlayerError listing them (with links) if it cannot tell."""
    live = [g for g in games if g.status in LIVE] or games
    if len(live) > 1:
        raise PlayerError(
            msg(
                "You are in several games: {games}. Say which one with the game option.",
                games=", ".join(f"#{g.id} {link(g)}" for g in live[-5:]),
            )
        )
    return live[0] if live else None


async def find_game(
    table: Table,
    interaction: discord.Interaction,
    kind: str | None,
    game_id: int | None,
    statuses: tuple[str, ...] = ("active",),
) -> Game:
    """The game a command means: the given id, else this thread's game, else the caller's one live
    game (or the only one they have), else this channel's (for a spectator). A game of another
    server is only found by its players."""
    if game_id is not None:
        game = await table.find(game_id)
        if game is not None and game.guild_id != interaction.guild_id and game.seat_of(interaction.user.id) is None:
            game = None
    else:
        game = None
        if interaction.channel_id:
            game = await table.store.game_by_thread(interaction.channel_id, kind, statuses)
        if game is None:
            mine = [
                g
                for g in await table.store.games_of_user(interaction.user.id, statuses)
                if kind is None or g.kind == kind
            ]
            here = [g for g in mine if g.channel_id == interaction.channel_id]
            game = only_one(here if len([g for g in here if g.status in LIVE]) == 1 else mine)
        if game is None and interaction.channel_id:
            game = only_one(await table.store.games_in_channel(interaction.channel_id, kind, statuses))
    if game is None or (kind is not None and game.kind != kind):
        raise PlayerError(msg("I can't find that game. /games lists yours."))
    if game.status not in statuses:
        raise PlayerError(status_text(table.title(game), game.status))
    return game


async def game_or_answer(
    table: Table,
    interaction: discord.Interaction,
    kind: str | None,
    game_id: int | None,
    statuses: tuple[str, ...] = ("active",),
) -> Game | None:
    """find_game, or (acknowledged) tell the caller privately why there is none."""
    try:
        return await find_game(table, interaction, kind, game_id, statuses)
    except PlayerError as err:
        await table.ack(interaction)
        await table.reply(interaction, err.args[0])
        return None


def choice_text(key: str, /, **params: Any) -> app_commands.locale_str:
    """A slash-command text with parameters (a choice's name: "{circuit} ({laps} laps)"): English
    for Discord's default, each locale's words from the catalog through the bot's translator."""
    return app_commands.locale_str(render(msg(key, **params), "en"), key=key, params=params)


def option_choices(engine: Engine, name: str) -> list[app_commands.Choice[str]]:
    """A slash-command option's choices, read from the engine's OptionSpec (one list to keep)."""
    spec = next(o for o in engine.options if o.name == name)
    return [app_commands.Choice(name=str(v), value=str(v)) for v in spec.choices or ()]


def switched_on(**flags: bool | None) -> dict[str, bool]:
    """The on/off options a player turned on (an option left off is not stored)."""
    return {name: True for name, on in flags.items() if on}


LANGUAGE_HELP = "The language of the game's thread (default: the server's)"
CLOCK_HELP = "How long a player may take before a reminder (three missed: the table may vote in a stand-in)"
CLOCKS = [
    app_commands.Choice(name=name, value=seconds)
    for name, seconds in (
        ("1 hour", 3600),
        ("4 hours", 4 * 3600),
        ("12 hours", 12 * 3600),
        ("1 day", 86400),
        ("3 days", 3 * 86400),
        ("1 week", 7 * 86400),
    )
]


AI_HELP = "Seats the bot plays (AI opponents), besides you"
AI_LEVEL_HELP = "How well the AI seats play (default: normal)"
AI_LEVELS = [app_commands.Choice(name=name, value=name) for name in LEVEL_NAMES]
AI_SEATS = app_commands.Range[int, 0, 5]  # the most any game seats, less its creator (the table checks the game's)


async def language_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The thread languages there are catalogs for (a new catalog needs no new code)."""
    return [
        app_commands.Choice(name=LANGUAGE_NAMES.get(code, code), value=code)
        for code in supported_locales()
        if current.lower() in (code + LANGUAGE_NAMES.get(code, code)).lower()
    ][:25]


class GameCog(commands.GroupCog):
    kind = ""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def table(self) -> Table:
        return self.bot.table  # type: ignore[attr-defined]

    async def game_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        games = await self.table.store.games_of_user(interaction.user.id)
        locale = self.table.audience(interaction)
        return [
            app_commands.Choice(
                name=render(msg("{title} ({status})", title=self.table.title(g), status=msg(g.status)), locale)[:100],
                value=g.id,
            )
            for g in games
            if g.kind == self.kind and current in str(g.id)
        ][:25]

    async def create(
        self,
        interaction: discord.Interaction,
        options: dict[str, Any],
        language: str | None = None,
        clock: app_commands.Choice[int] | None = None,
        ai: int | None = None,
        ai_level: app_commands.Choice[str] | None = None,
    ) -> None:
        await self.table.lobbies.open(
            interaction,
            self.kind,
            options,
            language,
            float(clock.value) if clock is not None else None,
            ai or 0,
            ai_level.value if ai_level is not None else "normal",
        )

    @app_commands.command(name="join", description="Join the open table in this channel or by number")
    @app_commands.describe(game="The table's number (optional)")
    async def join(self, interaction: discord.Interaction, game: int | None = None) -> None:
        if game is None:
            found = await self.table.store.open_lobby(interaction.channel_id or 0, self.kind)
            if found is None:
                await self.table.ack(interaction)
                await self.table.reply(
                    interaction, msg("There is no open table to join here. Start one with /{kind} new.", kind=self.kind)
                )
                return
        else:
            found = await game_or_answer(self.table, interaction, self.kind, game, ("lobby",))
        if found is not None:
            await self.table.lobbies.action(interaction, found.id, "join")

    @app_commands.command(name="rules", description="The rules, a page at a time (only you see it)")
    @app_commands.describe(page="Which page (start typing to see them)")
    async def rules(self, interaction: discord.Interaction, page: int | None = None) -> None:
        await self.table.rules(interaction, self.kind, page, edit=False)

    @rules.autocomplete("page")
    async def rules_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        sections = rules_pages.pages(self.kind, self.table.audience(interaction))
        return [
            app_commands.Choice(name=f"{i}. {title}"[:100], value=i)
            for i, (title, _) in enumerate(sections, 1)
            if current.lower() in f"{i}. {title}".lower()
        ][:25]

    @app_commands.command(name="hand", description="See your private hand and moves (only you see it)")
    @app_commands.describe(game="The game's number (optional)")
    async def hand(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await game_or_answer(self.table, interaction, self.kind, game, ("active", "finished"))
        if found is not None:
            await self.table.show_hand(interaction, found.id)

    @app_commands.command(name="play", description="Make a move (start typing to see the legal ones)")
    @app_commands.describe(move="The move, picked from the list", game="The game's number (optional)")
    async def play(self, interaction: discord.Interaction, move: str, game: int | None = None) -> None:
        found = await game_or_answer(self.table, interaction, self.kind, game)
        if found is not None:
            await self.table.command_move(interaction, found.id, move)

    @play.autocomplete("move")
    async def play_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        game_id = interaction.namespace.game
        try:
            found = await find_game(self.table, interaction, self.kind, game_id)
        except PlayerError:
            return []
        seat = found.seat_of(interaction.user.id)
        if seat is None or found.snapshot is None:
            return []
        engine = self.table.engines[self.kind]
        locale = self.table.audience(interaction)
        names = [s.name for s in found.seats]  # a move naming another player (Pole: "Attack <seat:0>")
        legal = sorted(engine.legal_actions(found.snapshot, seat), key=is_preference)  # decisions first
        moves = [(name_seats(render(engine.describe_action(found.snapshot, seat, a), locale), names), a) for a in legal]
        words = current.lower().split()
        version = found.seats[seat].prompt_version
        choices = [
            app_commands.Choice(name=label[:100], value=pick_value(version, action))
            for label, action in moves
            if all(w in label.lower() for w in words)
        ]
        if seat not in engine.to_act(found.snapshot):  # one line saying whose move it is, on top
            choices.insert(
                0, app_commands.Choice(name=render(waiting_for(engine, found, found.snapshot), locale)[:100], value="-")
            )
        return choices[:25]

    @play.autocomplete("game")
    async def play_game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await self.game_autocomplete(interaction, current)
