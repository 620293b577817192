"""Everything the table sends out: thread posts with board images, private views by DM or as
ephemeral replies. Nothing here changes a game; a Discord failure is logged, never raised."""
from __future__ import annotations

import asyncio
import importlib
import io
import logging
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.components import hand_view, menu_view
from bot.games.base import Engine, Event, State, name_seats
from bot.i18n import t
from bot.store import Game, Store

log = logging.getLogger(__name__)

MAX_CONTENT = 2000


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def title_of(engine: Engine, game: Game) -> str:
    return t("{title} #{id}", title=engine.title, id=game.id)


@dataclass
class Outcome:
    """What a committed move (or the start) has to tell the table and the players."""

    game: Game
    state: State
    events: list[Event]
    changed_seats: list[int]  # seats whose menu changed: pinged if they must act, sent a new DM
    board: bool = True  # attach a fresh board image (a new turn, the start, the end)
    actor: int | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def dm_seats(self) -> list[int]:
        """Who gets a private message: a changed menu, a private event, or the one who moved."""
        seats = set(self.changed_seats) | {e.to for e in self.events if e.to is not None}
        if self.actor is not None:
            seats.add(self.actor)
        return sorted(seats)


class Delivery:
    def __init__(self, bot: discord.Client, store: Store, engines: dict[str, Engine]) -> None:
        self.bot = bot
        self.store = store
        self.engines = engines

    def renderer(self, kind: str) -> Any:
        return importlib.import_module(f"rendering.{kind}")

    async def channel(self, channel_id: int) -> discord.abc.Messageable:
        return self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)  # type: ignore[return-value]

    # -- public ---------------------------------------------------------------------------------

    async def announce(self, outcome: Outcome) -> None:
        """Post the public result in the thread and DM each affected player. Never raises."""
        game, state = outcome.game, outcome.state
        engine = self.engines[game.kind]
        names = [s.name for s in game.seats]
        try:
            waiting = [game.seats[s] for s in engine.to_act(state) if s in outcome.changed_seats]
            lines = [name_seats(e.text, names) for e in outcome.events if e.to is None]
            if engine.is_over(state):
                lines.append(t("The game is over."))
            elif waiting:
                lines.append(t("Waiting for: {who}", who=", ".join(f"<@{s.user_id}>" for s in waiting)))
            images: list[bytes] = []
            if outcome.board:
                images = await asyncio.to_thread(self.board_images, game.kind, engine.view(state, None), names,
                                                 engine.is_over(state))
            if lines or images:
                await self.post(game, "\n".join([f"**{title_of(engine, game)}**", *lines]), images=images,
                                mention=[s.user_id for s in waiting], view=hand_view(game.id) if images else None)
        except Exception:
            log.exception("game %s: could not post the board", game.id)
        for seat in outcome.dm_seats():
            private = [name_seats(e.text, names) for e in outcome.events if e.to == seat]
            await self.send_private(game, state, seat, private)
        try:
            await self.store.set_announced(game.id, game.version)
        except Exception:
            log.exception("game %s: could not record the announcement", game.id)

    def board_images(self, kind: str, view: dict[str, Any], names: list[str], over: bool) -> list[bytes]:
        """The board, and at the end the results image if the game draws one (runs in a thread)."""
        renderer = self.renderer(kind)
        images = [renderer.render_board(view, names)]
        if over and hasattr(renderer, "render_results"):
            images.append(renderer.render_results(view, names))
        return images

    async def post(self, game: Game, content: str, images: list[bytes] = (),  # type: ignore[assignment]
                   mention: list[int] | None = None, view: discord.ui.View | None = None) -> bool:
        """A new message in the game's thread (or its channel). False if Discord refused it."""
        kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions(
            users=[discord.Object(u) for u in (mention or [])], roles=False, everyone=False)}
        suffixes = ["", "-results"]
        if images:
            kwargs["files"] = [discord.File(io.BytesIO(data), filename=f"{game.kind}-{game.id}{suffixes[i]}.png")
                               for i, data in enumerate(images)]
        if view is not None:
            kwargs["view"] = view
        try:
            channel = await self.channel(game.thread_id or game.channel_id)
            await channel.send(clip(content), **kwargs)
            return True
        except discord.HTTPException:
            log.warning("game %s: could not post in its thread", game.id, exc_info=True)
            return False

    # -- private --------------------------------------------------------------------------------

    async def private_message(self, game: Game, state: State, seat: int, lines: list[str],
                              always: bool = False) -> dict[str, Any]:
        """Content, hand image and components for one seat, built from that seat's view only.
        Empty when there is nothing new to say and `always` is False."""
        engine = self.engines[game.kind]
        title = title_of(engine, game)
        components = menu_view(game.id, game.seats[seat].prompt_version, seat, engine.menu(state, seat))
        if seat in engine.to_act(state):
            lines = [*lines, t("Your move in {title}.", title=title)]
        elif engine.is_over(state):
            lines = [*lines, t("{title} is over.", title=title)]
        elif not lines and components is None and not always:
            return {}
        message: dict[str, Any] = {"content": clip("\n".join([f"**{title}**", *lines]))}
        if components is not None:
            message["view"] = components
        names = [s.name for s in game.seats]
        image = await asyncio.to_thread(self.renderer(game.kind).render_hand, engine.view(state, seat), names)
        if image is not None:
            message["file"] = discord.File(io.BytesIO(image), filename=f"{game.kind}-{game.id}-hand.png")
        return message

    async def send_private(self, game: Game, state: State, seat: int, lines: list[str]) -> None:
        """DM one seat its view. Seats with closed DMs use My hand / `/<game> hand` instead."""
        s = game.seats[seat]
        if not s.dm_ok:
            return
        try:
            message = await self.private_message(game, state, seat, lines)
        except Exception:
            log.exception("game %s: could not build the private view for seat %s", game.id, seat)
            return
        if message and not await self.send_dm(game, s.user_id, **message):
            await self.post(game, t("<@{user}>, I cannot DM you: use the My hand button or /{kind} hand.",
                                    user=s.user_id, kind=game.kind), mention=[s.user_id])

    async def send_dm(self, game: Game, user_id: int, content: str, **kwargs: Any) -> bool:
        """False (and the seat marked) when the player's DMs are closed."""
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(content, **kwargs)
            return True
        except discord.Forbidden:
            await self.store.set_dm_ok(game.id, user_id, False)
            return False
        except discord.HTTPException:
            log.warning("game %s: DM to a player failed", game.id, exc_info=True)
            return True  # a passing failure: keep trying DMs next time
