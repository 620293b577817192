"""A table's lobby, from its opening to its start (`table.lobbies`): the post in the channel with
its Join / Leave / Start buttons, who sits at it, and that post kept right (edited as the game
moves on, healed from a click, found again after a crash). Starting hands the game to the commit
path (bot/table.py, Table.start); closing a lobby is the table's abandon, as for a running game."""

from __future__ import annotations

import logging
import random
from typing import Any, Awaitable, Callable

import discord

from bot.ai.search import LEVEL_NAMES
from bot.autoplayer import duration
from bot.components import lobby_view
from bot.delivery import Outcome, clip, title_of
from bot.errors import PlayerError
from bot.games.base import Engine, GameError
from bot.i18n import Msg, default_locale, locale_for, msg, render, supported_locales
from bot.store import Game
from bot.table_api import TableServices

log = logging.getLogger(__name__)

# What the bot needs in a channel to host a game there (checked when a table is opened).
NEEDED = ("send_messages", "send_messages_in_threads", "create_public_threads", "attach_files")


def status_text(title: Msg, status: str) -> Msg:
    return {
        "lobby": msg("{title} is still waiting for players.", title=title),
        "active": msg("{title} is already under way.", title=title),
        "finished": msg("{title} is over.", title=title),
        "abandoned": msg("{title} was abandoned.", title=title),
    }[status]


def lobby_text(engine: Engine, game: Game, locale: str) -> str:
    """The lobby post's text: the table, its options, who sits at it, and what comes next."""
    opts = engine.describe_options(game.options)
    if game.clock:
        opts = [*opts, msg("a move every {time}", time=duration(game.clock))]
    levels = sorted({s.ai for s in game.seats if s.ai})
    if levels:  # (each AI seat is named "AI 1"...; its level is said here)
        opts = [*opts, msg("AI seats play {level}", level=[msg(level) for level in levels])]
    players = ", ".join(s.mention for s in game.seats)
    fewest = engine.least_seats(game.options)
    footer = {
        "lobby": msg("Press Join to sit down; the creator starts with {min}+ players.", min=fewest),
        "active": msg("Started: the game goes on in its thread."),
        "finished": msg("Finished."),
        "abandoned": msg("Abandoned."),
    }[game.status]
    params = dict(
        title=title_of(engine, game),
        n=len(game.seats),
        max=engine.most_seats(game.options),
        players=players,
        footer=footer,
    )
    text = (
        msg("**{title}** — a table ({options}).\nPlayers ({n}/{max}): {players}\n{footer}", options=opts, **params)
        if opts
        else msg("**{title}** — a table.\nPlayers ({n}/{max}): {players}\n{footer}", **params)
    )
    return clip(render(text, locale))


def checked_lobby_options(
    interaction: discord.Interaction,
    engine: Engine,
    options: dict[str, Any],
    language: str | None,
    ai: int,
    ai_level: str,
) -> dict[str, Any]:
    """A new table's options, validated; PlayerError says what is wrong with the request."""
    missing = [p for p in NEEDED if not getattr(interaction.app_permissions, p)]
    if missing:
        raise PlayerError(
            msg(
                "I need these permissions in this channel to host a game: {perms}.",
                perms=", ".join(p.replace("_", " ") for p in missing),
            )
        )
    if language is not None and language not in supported_locales():
        raise PlayerError(
            msg(
                "I can't hold a table in “{language}”; the languages I have are {known}.",
                language=language[:20],
                known=supported_locales(),
            )
        )
    if ai_level not in LEVEL_NAMES:
        raise PlayerError(msg("The AI levels are {levels}.", levels=list(LEVEL_NAMES)))
    try:
        options = engine.validate_options(options, engine.max_seats)
    except GameError as err:
        raise PlayerError(err.args[0]) from None
    most = engine.most_seats(options)
    if not 0 <= ai < most:
        raise PlayerError(
            msg(
                "{title} seats at most {n} players: at most {ai} of them can be AI seats.",
                title=msg(engine.title),
                n=most,
                ai=most - 1,
            )
        )
    return options


Start = Callable[[discord.Interaction, Game], Awaitable[Outcome]]


class Lobbies:
    """The lobbies of one table (`table.lobbies`): opening one (its post), joining and leaving it,
    its creator's Start, and the post kept right: edited as the game moves on, healed from a click,
    found again (or the lobby closed) after a crash between posting it and saving its id."""

    def __init__(self, bot: discord.Client, table: TableServices, start: Start) -> None:
        self._bot = bot
        # The table's services (bot/table_api.py), not only its store: a lobby's click takes the
        # same per-game lock as a move, loads its game and answers the interaction as the table does.
        self._table = table
        self._start = start  # the game's first state, committed (Table.start), under the game's lock
        # Each new game's seed (tests and the bench fix it).
        self.new_seed: Callable[[], int] = lambda: random.SystemRandom().getrandbits(63)

    async def open(
        self,
        interaction: discord.Interaction,
        kind: str,
        options: dict[str, Any],
        language: str | None = None,
        clock: float | None = None,
        ai: int = 0,
        ai_level: str = "normal",
    ) -> None:
        """Open a table of `kind` in the interaction's channel: the lobby, its creator in seat 0
        (and `ai` AI seats), its post; the creator is told where it is."""
        table = self._table
        await table.ack(interaction)
        engine = table.engines[kind]
        channel = interaction.channel
        try:
            if interaction.guild is None or not isinstance(channel, (discord.TextChannel, discord.Thread)):
                raise PlayerError(msg("Start a game in a server text channel, not here."))
            options = checked_lobby_options(interaction, engine, options, language, ai, ai_level)
        except PlayerError as err:
            await table.reply(interaction, err.args[0])
            return
        # The thread's language: the one asked for, else the server's, else the bot's default.
        locale = language or locale_for(str(interaction.guild_locale)) or default_locale()
        game_id = await table.store.create_game(
            kind,
            interaction.guild.id,
            channel.id,
            interaction.user.id,
            interaction.user.display_name,
            options,
            self.new_seed(),
            locale,
            clock,
            ai,
            ai_level,
        )
        game = await table.load(game_id, ("lobby",))
        try:
            message = await channel.send(
                lobby_text(engine, game, table.out.thread_locale(game)),
                view=lobby_view(game_id, table.out.thread_locale(game)),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            await table.store.set_status(game_id, "abandoned")
            await table.reply(interaction, msg("I could not post the table in this channel."))
            return
        await table.store.set_lobby_message(game_id, message.id)
        await table.reply(
            interaction, msg("Your table {title} is open: {link}", title=table.title(game), link=message.jump_url)
        )

    async def action(self, interaction: discord.Interaction, game_id: int, what: str) -> None:
        """A lobby's button or command: "join", "leave" or "start" (the creator's)."""
        table = self._table
        async with table.busy():
            await table.ack(interaction)
            try:
                async with table.lock(game_id):
                    game = await table.load(game_id, ("lobby", "active", "finished", "abandoned"))
                    await self.heal(interaction, game)
                    if game.status != "lobby":
                        raise PlayerError(status_text(table.title(game), game.status))
                    if what == "start":
                        outcome = await self._start(interaction, game)
                    else:
                        await self.join_or_leave(interaction, game, what)
                        await self.edit(await table.load(game_id, ("lobby",)))
                        outcome = None
            except PlayerError as err:
                await table.reply(interaction, err.args[0])
                return
            if outcome is not None:
                await outcome.announced()
            elif interaction.type == discord.InteractionType.application_command:  # a button needs no answer
                await table.reply(
                    interaction,
                    msg("You joined {title}.", title=table.title(game))
                    if what == "join"
                    else msg("You left {title}.", title=table.title(game)),
                )

    async def heal(self, interaction: discord.Interaction, game: Game) -> None:
        """A lobby button is its own proof of where the lobby is: a crash between posting it and
        saving its id loses the id, and the first click brings it back (and a lobby whose game
        has moved on loses its buttons)."""
        message = interaction.message if interaction.type == discord.InteractionType.component else None
        if message is None:
            return
        if game.lobby_message_id is None:
            await self._table.store.set_lobby_message(game.id, message.id)
            game.lobby_message_id = message.id
        if game.status != "lobby" and message.id == game.lobby_message_id:
            await self.edit(game)

    async def join_or_leave(self, interaction: discord.Interaction, game: Game, what: str) -> None:
        """Seat the user ("join") or take them out ("leave"); PlayerError says why not."""
        user, store = interaction.user, self._table.store
        if what == "join":
            engine = self._table.engines[game.kind]
            most = engine.most_seats(game.options)
            if not await store.join(game.id, user.id, user.display_name, most):
                if game.seat_of(user.id) is not None:
                    raise PlayerError(msg("You are already seated."))
                if most < engine.max_seats:  # the options, not the game, set the limit: say so
                    raise PlayerError(
                        msg(
                            "This table is full: with its options ({options}) it seats {n} players.",
                            options=engine.describe_options(game.options),
                            n=most,
                        )
                    )
                raise PlayerError(msg("This table is full."))
        else:
            if user.id == game.creator_id:
                raise PlayerError(msg("The creator cannot leave; use /game abandon to close the table."))
            if not await store.leave(game.id, user.id):
                raise PlayerError(msg("You are not seated at this table."))

    async def edit(self, game: Game) -> None:
        """The lobby post as the game now stands (its buttons gone once the lobby is over)."""
        if game.lobby_message_id is None:
            return
        out = self._table.out
        try:
            channel = await out.channel(game.channel_id)
            message = channel.get_partial_message(game.lobby_message_id)  # type: ignore[attr-defined]
            await message.edit(
                content=lobby_text(self._table.engines[game.kind], game, out.thread_locale(game)),
                view=lobby_view(game.id, out.thread_locale(game)) if game.status == "lobby" else None,
            )
        except discord.HTTPException:
            log.warning("game %s: could not edit the lobby message", game.id, exc_info=True)

    async def find_posts(self) -> None:
        """Start-up: every lobby of ours without a recorded post (find_post each)."""
        try:
            for gid, channel_id in await self._table.store.lobbies_without_message():
                await self.find_post(gid, channel_id)
        except Exception:
            log.exception("could not look for unrecorded lobby posts")

    async def find_post(self, gid: int, channel_id: int) -> None:
        """A crash came between posting a lobby and saving its id: look for the post among the
        channel's latest messages; a lobby that was never posted is closed."""
        join = f"lb:{gid}:join"
        store = self._table.store
        try:
            channel = await self._table.out.channel(channel_id)
            async for message in channel.history(limit=50):
                if message.author.id == self._bot.user.id and any(  # type: ignore[union-attr]
                    getattr(c, "custom_id", None) == join
                    for row in message.components
                    for c in getattr(row, "children", [])
                ):
                    await store.set_lobby_message(gid, message.id)
                    return
        except discord.HTTPException:
            log.warning("game %s: could not look for its lobby post", gid, exc_info=True)
            return
        log.info("game %s: its lobby was never posted; closing it", gid)
        await store.set_status(gid, "abandoned")
        game = await store.game(gid)
        if game is not None:  # the creator's command was cut off unanswered: they are told
            await self._table.out.dms.send(
                game,
                game.creator_id,
                msg(
                    "Your table {title} was not opened: I restarted before posting it. Use /{kind} new again.",
                    title=self._table.title(game),
                    kind=game.kind,
                ),
            )
