"""/leaderboard and /stats (issue #35): the ratings per game (bot/ratings.py), per server and across
servers, and a player's chart (rendering/stats.py). Start-up rates the finished games not rated yet
(those from before ratings: the one-time build)."""

from __future__ import annotations

import asyncio
import io
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot import ratings
from bot.games.registry import engines
from bot.delivery import clip
from bot.i18n import Msg, msg, render
from bot.table import Table
from rendering.stats import render_chart

log = logging.getLogger(__name__)

GAMES = [app_commands.Choice(name=e.title, value=kind) for kind, e in sorted(engines().items())]
SCOPES = [
    app_commands.Choice(name="this server", value="server"),
    app_commands.Choice(name="all servers", value="global"),
]
TOP = 10
EXPLAINED = msg("The rating is OpenSkill's cautious estimate (mu − 3σ): it rises as you play and win.")


def shown(mu: float, sigma: float) -> str:
    """The rating as players see it: the conservative ordinal, one decimal."""
    return f"{ratings.ordinal(mu, sigma):.1f}"


def game_count(games: int) -> Msg:
    """How many games, in words ("1 game", "3 games")."""
    return msg("1 game") if games == 1 else msg("{n} games", n=games)


def who(player: str, name: str) -> Msg | str:
    """A leaderboard's name: a person's (as they last sat), or the AI level's."""
    level = ratings.ai_level(player)
    return msg("AI ({level})", level=msg(level)) if level else name


class StatsCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.catching_up: asyncio.Task[None] | None = None

    @property
    def table(self) -> Table:
        return self.bot.table  # type: ignore[attr-defined]

    async def answer(self, interaction: discord.Interaction, lines: list[Msg | str], **kwargs) -> None:
        locale = self.table.audience(interaction)
        await self.table.reply(interaction, clip("\n".join(render(line, locale) for line in lines)), **kwargs)

    async def cog_load(self) -> None:
        # In the background: a large store from before ratings takes a while, and the bot serves
        # meanwhile (a game finishing now is rated at once; the older ones follow in their order).
        self.catching_up = asyncio.create_task(self.catch_up())

    async def cog_unload(self) -> None:
        if self.catching_up is not None:
            self.catching_up.cancel()

    async def catch_up(self) -> None:
        try:
            rated = await ratings.catch_up(self.table.store, self.table.engines)
            if rated:
                log.info("rated %s finished games not rated before", rated)
        except Exception:
            log.exception("could not rate the finished games not rated yet")

    @app_commands.command(name="leaderboard", description="The best players of a game, by rating")
    @app_commands.describe(game="Which game", scope="This server's players (default) or all servers'")
    @app_commands.choices(game=GAMES, scope=SCOPES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        scope: app_commands.Choice[str] | None = None,
    ) -> None:
        await self.table.ack(interaction)
        guild = interaction.guild_id
        everywhere = (scope is not None and scope.value == "global") or guild is None
        where = ratings.GLOBAL if everywhere or guild is None else guild
        title = msg(self.table.engines[game.value].title)
        rows = await self.table.store.players.leaderboard(game.value, where, TOP)
        head = (
            msg("**{game}**: leaderboard of all servers", game=title)
            if everywhere
            else msg("**{game}**: leaderboard of this server", game=title)
        )
        if not rows:
            await self.answer(interaction, [head, msg("No finished games rated yet.")])
            return
        lines: list[Msg | str] = [head]
        for rank, (player, name, mu, sigma, games, wins) in enumerate(rows, 1):
            lines.append(
                msg(
                    "{rank}. {name}: {rating} ({games}, {wins} won)",
                    rank=rank,
                    name=who(player, name),
                    rating=shown(mu, sigma),
                    games=game_count(games),
                    wins=wins,
                )
            )
        me = str(interaction.user.id)
        if me not in {r[0] for r in rows}:
            mine = await self.table.store.players.rank_in(game.value, where, me)
            lines.append(
                msg("You: place {rank} of {n}.", rank=mine[0], n=mine[1])
                if mine is not None
                else msg(
                    "You are not rated at {game} yet: finish a game of it against other players or AI seats.",
                    game=title,
                )
            )
        lines.append(EXPLAINED)
        await self.answer(interaction, lines)

    @app_commands.command(name="stats", description="A player's ratings, places and wins, with a chart")
    @app_commands.describe(user="Whose (default: yours)", game="Which game (default: the one played most)")
    @app_commands.choices(game=GAMES)
    async def stats(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        await self.table.ack(interaction)
        person = user or interaction.user
        player = str(person.id)
        rated = [
            r for r in await self.table.store.players.ratings_of(player, ratings.GLOBAL) if r[0] in self.table.engines
        ]
        if not rated:
            await self.table.reply(
                interaction,
                msg("{name} has no rated games yet: ratings count finished games.", name=person.display_name)
                if person.id != interaction.user.id
                else msg(
                    "You have no rated games yet: every game you finish against other players or AI seats "
                    "counts (not a solo race, nor an abandoned game)."
                ),
            )
            return
        kind = game.value if game is not None else max(rated, key=lambda r: (r[4], r[0]))[0]
        lines: list[Msg | str] = [msg("**{name}**: ratings across servers", name=person.display_name)]
        lines += await self.rating_lines(player, rated, interaction.guild_id)
        title = msg(self.table.engines[kind].title)
        mine = next((r for r in rated if r[0] == kind), None)
        if mine is None:  # a game they have not been rated at: no empty chart
            lines.append(msg("No rated games of {game} yet.", game=title))
            await self.answer(interaction, lines)
            return
        lines += await self.against_ai(kind)
        lines.append(EXPLAINED)
        image = await self.chart(interaction, person.display_name, player, kind, mine)
        await self.answer(interaction, lines, file=discord.File(io.BytesIO(image), filename=f"stats-{kind}.png"))

    async def rating_lines(self, player: str, rated: list[tuple], guild: int | None) -> list[Msg | str]:
        """One line per game the player is rated at: across servers, and on this server with the place."""
        store = self.table.store
        here = {r[0]: r for r in await store.players.ratings_of(player, guild)} if guild else {}
        lines: list[Msg | str] = []
        for k, name, mu, sigma, games, wins in rated:
            line = msg(
                "{game}: {rating} ({games}, {wins} won)",
                game=msg(self.table.engines[k].title),
                rating=shown(mu, sigma),
                games=game_count(games),
                wins=wins,
            )
            rank = await store.players.rank_in(k, guild, player) if k in here and guild else None
            if rank:
                line = msg(
                    "{line}; on this server {rating}, place {rank} of {n}",
                    line=line,
                    rating=shown(*here[k][2:4]),
                    rank=rank[0],
                    n=rank[1],
                )
            lines.append(line)
        return lines

    async def against_ai(self, kind: str) -> list[Msg | str]:
        """Where the AI levels stand at a game (rated like players), for a player to compare."""
        levels = await self.table.store.players.ai_ratings(kind, ratings.GLOBAL)
        if not levels:
            return []
        return [
            msg(
                "Against the AI at {game}: {levels}",
                game=msg(self.table.engines[kind].title),
                levels=[
                    msg("{level} {rating}", level=msg(ratings.ai_level(p) or p), rating=shown(mu, sigma))
                    for p, mu, sigma, _ in levels
                ],
            )
        ]

    async def chart(self, interaction: discord.Interaction, name: str, player: str, kind: str, mine: tuple) -> bytes:
        """The player's rating and places over their games of `kind` (rendering/stats.py)."""
        history = await self.table.store.players.rating_history(player, kind)
        locale = self.table.audience(interaction)
        points = [(ratings.ordinal(mu, sigma), place, field) for _, _, place, field, _, mu, sigma in history]
        head = render(msg("{name} — {game}", name=name, game=msg(self.table.engines[kind].title)), locale)
        summary = render(
            msg(
                "rating {rating} · {games} · {wins} won",
                rating=shown(*mine[2:4]),
                games=game_count(mine[4]),
                wins=mine[5],
            ),
            locale,
        )
        return await asyncio.to_thread(render_chart, head, summary, points, locale)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(StatsCog(bot))
