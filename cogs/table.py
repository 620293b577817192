"""Table-wide commands: /games, /game status, /game log, /game replay, /game export, /game back, /game abandon."""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.delivery import clip, words
from bot.games.base import begin
from bot.i18n import msg, render
from bot.replay import send_export
from bot.store import NOTIFY
from bot.table import PlayerError, Table
from cogs.base import find_game, game_or_answer, link
from rendering.animation import extension

ENDED_OR_NOT = ("active", "finished", "abandoned")


NOTIFY_CHOICES = (("dm", "by DM"), ("ping", "by a ping in the thread"), ("both", "both: a ping and a DM"))
assert tuple(how for how, _ in NOTIFY_CHOICES) == NOTIFY


class TableCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def table(self) -> Table:
        return self.bot.table  # type: ignore[attr-defined]

    async def started_game(self, interaction: discord.Interaction, game_id: int | None):
        found = await game_or_answer(self.table, interaction, None, game_id, ENDED_OR_NOT)
        if found is not None and found.snapshot is None:  # abandoned before it started
            await self.table.reply(interaction, msg("{title} never started.", title=self.table.title(found)))
            return None
        return found

    @app_commands.command(name="games", description="Your open and running games, and whose turn it is")
    @app_commands.describe(history="Show your finished games and how you placed instead")
    async def games(self, interaction: discord.Interaction, history: bool = False) -> None:
        await self.table.ack(interaction)
        locale = self.table.audience(interaction)
        lines = await (self.finished(interaction.user.id) if history else self.running(interaction.user.id))
        await self.table.reply(interaction, clip("\n".join(render(line, locale) for line in lines)))

    async def running(self, user_id: int) -> list:
        games = await self.table.store.games_of_user(user_id)
        if not games:
            return [
                msg(
                    "You are not in any game. Start one with {commands}.",
                    commands=", ".join(f"/{kind} new" for kind in self.table.engines),
                )
            ]
        lines = []
        for g in games:
            if g.status == "lobby":
                lines.append(msg("{title}: waiting for players — {link}", title=self.table.title(g), link=link(g)))
                continue
            engine = self.table.engines[g.kind]
            waiting = engine.to_act(g.snapshot) if g.snapshot else []
            me = g.seat_of(user_id)
            who = msg("your move") if me in waiting else [g.seats[s].name for s in waiting] or "—"
            lines.append(msg("{title}: waiting for {who} — {link}", title=self.table.title(g), who=who, link=link(g)))
        return lines

    async def finished(self, user_id: int) -> list:
        """The newest finished games: the date, the place (or abandoned), a link; wins counted on top."""
        ended = await self.table.store.finished_games_of_user(user_id)
        if not ended:
            return [msg("You have no finished games yet.")]
        lines, wins = [], 0
        for g, when in ended:
            me = g.seat_of(user_id)
            engine = self.table.engines[g.kind]
            snapshot = g.snapshot if g.status != "abandoned" else None
            places = engine.placings(snapshot) if snapshot is not None else None
            if places is None or me is None or snapshot is None:
                result = msg("abandoned") if g.status == "abandoned" else msg("finished")
            else:
                place = places[me]
                wins += place == 1
                n = engine.field(snapshot)
                result = msg("won") if place == 1 else msg("place {place} of {n}", place=place, n=n)
            lines.append(
                msg(
                    "{title} ({date}): {result} — {link}",
                    title=self.table.title(g),
                    date=f"<t:{int(when)}:d>",
                    result=result,
                    link=link(g),
                )
            )
        return [
            msg(
                "Your last {n} finished games: {wins} won. /game replay shows any of them again.",
                n=len(ended),
                wins=wins,
            ),
            *lines,
        ]

    @app_commands.command(name="notify", description="How the bot tells you it is your move")
    @app_commands.describe(how="dm: a DM with your moves (default); ping: a ping in the game's thread; both")
    @app_commands.choices(how=[app_commands.Choice(name=name, value=how) for how, name in NOTIFY_CHOICES])
    async def notify(self, interaction: discord.Interaction, how: app_commands.Choice[str] | None = None) -> None:
        await self.table.ack(interaction)
        if how is not None:
            await self.table.out.set_notify(interaction.user.id, how.value)
        now = await self.table.out.notify_of(interaction.user.id)
        await self.table.reply(
            interaction,
            {
                "dm": msg("You are told of each new decision once, by the DM that holds your moves."),
                "ping": msg(
                    "You are told of each new decision once, by a ping in the game's thread; your DMs "
                    "with your moves come silently."
                ),
                "both": msg(
                    "You are told of each new decision by a ping in the game's thread and by the DM that "
                    "holds your moves."
                ),
            }[now],
        )

    game = app_commands.Group(name="game", description="Manage a game at this table")

    @game.command(name="status", description="Show the current board (only to you)")
    @app_commands.describe(game="The game's number (optional in its thread)")
    async def status(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self.table.ack(interaction)
        found = await self.started_game(interaction, game)
        if found is None:
            return
        engine = self.table.engines[found.kind]
        view = engine.view(found.snapshot, None)
        names = [s.name for s in found.seats]
        locale = self.table.audience(interaction)
        image = await asyncio.to_thread(self.table.renderer(found.kind).board, view, names, locale)
        waiting = (
            [found.seats[s].name for s in engine.to_act(found.snapshot)] if found.status == "active" else []
        ) or "—"
        await self.table.reply(
            interaction,
            msg(
                "**{title}** ({status}) — waiting for: {who}",
                title=self.table.title(found),
                status=msg(found.status),
                who=waiting,
            ),
            file=discord.File(io.BytesIO(image), filename=f"{found.kind}-{found.id}.{extension(image)}"),
        )

    @game.command(name="log", description="The last moves of a game, as the table saw them")
    @app_commands.describe(count="How many lines (default 15)", game="The game's number (optional in its thread)")
    async def log(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 100] = 15, game: int | None = None
    ) -> None:
        await self.table.ack(interaction)
        found = await self.started_game(interaction, game)
        if found is None:
            return
        engine = self.table.engines[found.kind]
        actions = await self.table.store.actions(found.id)
        locale = self.table.audience(interaction)
        lines = await asyncio.to_thread(public_log, engine, found, actions, locale)
        text = "\n".join(lines[-count:]) or render(msg("No moves yet."), locale)
        await self.table.reply(interaction, clip(f"**{render(self.table.title(found), locale)}**\n{text}"))

    @game.command(name="replay", description="Replay a finished game's boards in order (only you see it)")
    @app_commands.describe(game="The game's number (optional in its thread)", board="Start at this board (default 1)")
    async def replay(
        self,
        interaction: discord.Interaction,
        game: int | None = None,
        board: app_commands.Range[int, 1, 10000] | None = None,
    ) -> None:
        found = await game_or_answer(self.table, interaction, None, game, ENDED_OR_NOT)
        if found is not None:
            await self.table.replay(interaction, found.id, board, edit=False)

    @game.command(name="export", description="A finished game as a file: options, seed, seats, every move")
    @app_commands.describe(game="The game's number (optional in its thread)")
    async def export(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self.table.ack(interaction)
        found = await self.started_game(interaction, game)
        if found is not None:
            await send_export(self.table, interaction, found)

    @game.command(name="back", description="Take your seat back from the automatic player")
    @app_commands.describe(game="The game's number (optional in its thread)")
    async def back(self, interaction: discord.Interaction, game: int | None = None) -> None:
        found = await game_or_answer(self.table, interaction, None, game)
        if found is not None:
            await self.table.autoplayer.take_back(interaction, found.id)

    @game.command(name="abandon", description="Close a game for good (its creator, or a member with Manage Threads)")
    @app_commands.describe(game="The game's number (optional in its thread)")
    async def abandon(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self.table.ack(interaction)
        try:
            found = await find_game(self.table, interaction, None, game, ("lobby", "active"))
            # Manage Threads counts only in the game's own server, as Discord resolves it here.
            moderator = found.guild_id == interaction.guild_id and interaction.permissions.manage_threads
            if interaction.user.id != found.creator_id and not moderator:
                raise PlayerError(msg("Only the game's creator or a member with Manage Threads can abandon it."))
            await self.table.abandon(interaction, found)
        except PlayerError as err:
            await self.table.reply(interaction, err.args[0])


def public_log(engine, game, actions, locale: str) -> list[str]:
    """Replay the game and keep only what the table saw (public events), in the reader's language."""
    state = begin(engine, game.options, len(game.seats), game.seed, game.rules_version)
    names = [s.name for s in game.seats]
    lines: list[str] = []
    moment: list[str] = []  # news of the moment (who is ready): kept only while nothing lasting follows
    for seat, action in actions:
        state, events = engine.apply(state, seat, action)
        for e in events:
            if e.to is not None:
                continue
            if not e.log:
                moment.append(words(e.text, names, locale))
                continue
            moment.clear()
            lines.append(words(e.text, names, locale))
    return lines + moment


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TableCog(bot))
