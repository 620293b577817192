"""The table: lobby, start, and the one commit path every move of every game takes.

interaction -> acknowledge at once -> per-game lock -> load -> check the version the button or
command was made for -> engine.apply -> one SQLite transaction (action, snapshot, version) ->
reminders -> render the public view off the event loop -> a NEW message in the game's thread with
the image, pinging whoever must act -> DM each affected player their private view.
Discord failures after the commit are logged; they never roll back or corrupt the game.
"""
from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib
import io
import json
import logging
import random
import time
from dataclasses import dataclass
from typing import Any, AsyncIterator, Callable

import discord

from bot.components import hand_view, lobby_view, menu_entry, menu_view
from bot.games.base import Engine, Event, GameError, State, name_seats
from bot.i18n import t
from bot.store import Game, PromptUpdate, StaleVersion, Store

log = logging.getLogger(__name__)

REMIND = "remind"
MAX_CONTENT = 2000


class PlayerError(Exception):
    """A mistake by the person who clicked or typed: shown to them alone, nothing changes."""


@dataclass
class Outcome:
    game: Game
    state: State
    events: list[Event]
    changed_seats: list[int]
    board: bool = True  # attach a fresh board image (a new turn, the start, the end)


def menu_hash(menu: list[dict[str, Any]]) -> str:
    return hashlib.blake2b(json.dumps(menu, sort_keys=True).encode(), digest_size=8).hexdigest()


def status_text(title: str, status: str) -> str:
    return {"lobby": t("{title} is still waiting for players.", title=title),
            "active": t("{title} is already under way.", title=title),
            "finished": t("{title} is over.", title=title),
            "abandoned": t("{title} was abandoned.", title=title)}[status]


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Table:
    def __init__(self, bot: discord.Client, store: Store, engines: dict[str, Engine],
                 reminder_seconds: float, clock: Callable[[], float] = time.time) -> None:
        self.bot = bot
        self.store = store
        self.engines = engines
        self.reminder_seconds = reminder_seconds
        self.clock = clock
        self._locks: dict[int, asyncio.Lock] = {}
        self.new_seed: Callable[[], int] = lambda: random.SystemRandom().getrandbits(63)  # tests fix it
        self.timers_changed = asyncio.Event()
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @contextlib.asynccontextmanager
    async def busy(self) -> AsyncIterator[None]:
        """Marks work that must not be cut off by a shutdown (a move and its announcements)."""
        self._busy += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._busy -= 1
            if not self._busy:
                self._idle.set()

    async def drain(self, timeout: float = 15.0) -> None:
        """Wait (bounded) until no move is half announced: a shutdown must not drop a DM."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except asyncio.TimeoutError:
            log.warning("shutting down with %d move(s) still being announced", self._busy)

    # -- helpers -------------------------------------------------------------------------------

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    def renderer(self, kind: str) -> Any:
        return importlib.import_module(f"rendering.{kind}")

    def title(self, game: Game) -> str:
        return t("{title} #{id}", title=self.engines[game.kind].title, id=game.id)

    @staticmethod
    async def ack(interaction: discord.Interaction, ephemeral: bool = True) -> None:
        """Acknowledge within Discord's 3 s, before any slow work."""
        if not interaction.response.is_done():
            if interaction.type == discord.InteractionType.component:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=ephemeral, thinking=True)

    @staticmethod
    async def reply(interaction: discord.Interaction, content: str, **kwargs: Any) -> None:
        """The private answer to whoever clicked or typed."""
        await interaction.followup.send(clip(content), ephemeral=True, **kwargs)

    async def load(self, game_id: int, status: tuple[str, ...] = ("active",)) -> Game:
        game = await self.store.game(game_id)
        if game is None:
            raise PlayerError(t("There is no game #{id}.", id=game_id))
        if game.status not in status:
            raise PlayerError(status_text(self.title(game), game.status))
        return game

    def prompts(self, engine: Engine, game: Game, state: State, force: bool = False) -> list[PromptUpdate]:
        """Seats whose menu changed: their buttons get the new version, older ones turn stale."""
        updates = []
        for s in game.seats:
            h = menu_hash(engine.menu(state, s.seat))
            if force or h != s.prompt_hash:
                updates.append(PromptUpdate(s.seat, h))
        return updates

    # -- lobby ---------------------------------------------------------------------------------

    async def create_lobby(self, interaction: discord.Interaction, kind: str, options: dict[str, Any]) -> None:
        await self.ack(interaction, ephemeral=False)
        engine = self.engines[kind]
        channel = interaction.channel
        if interaction.guild is None or not isinstance(channel, (discord.TextChannel, discord.Thread)):
            await self.reply(interaction, t("Start a game in a server text channel, not here."))
            return
        try:
            options = engine.validate_options(options, engine.max_seats)
        except GameError as err:
            await self.reply(interaction, str(err))
            return
        seed = self.new_seed()
        game_id = await self.store.create_game(kind, interaction.guild.id, channel.id, interaction.user.id,
                                               interaction.user.display_name, options, seed)
        game = await self.load(game_id, ("lobby",))
        message = await interaction.followup.send(self.lobby_text(game), view=lobby_view(game_id), wait=True)
        await self.store.set_lobby_message(game_id, message.id)

    def lobby_text(self, game: Game) -> str:
        engine = self.engines[game.kind]
        opts = ", ".join(f"{k}: {v}" for k, v in game.options.items() if not isinstance(v, (list, dict)) or v)
        players = ", ".join(f"<@{s.user_id}>" for s in game.seats)
        return clip(t("**{title}** — a new table ({options}).\nPlayers ({n}/{max}): {players}\n"
                      "Press Join to sit down; the creator starts with {min}+ players.",
                      title=self.title(game), options=opts, n=len(game.seats), max=engine.max_seats,
                      players=players, min=engine.min_seats))

    async def lobby_action(self, interaction: discord.Interaction, game_id: int, what: str) -> None:
        async with self.busy():
            await self._lobby_action(interaction, game_id, what)

    async def _lobby_action(self, interaction: discord.Interaction, game_id: int, what: str) -> None:
        await self.ack(interaction)
        try:
            async with self.lock(game_id):
                game = await self.load(game_id, ("lobby",))
                engine = self.engines[game.kind]
                user = interaction.user
                if what == "join":
                    if not await self.store.join(game_id, user.id, user.display_name, engine.max_seats):
                        raise PlayerError(t("You are already seated.") if game.seat_of(user.id) is not None
                                          else t("This table is full."))
                elif what == "leave":
                    if user.id == game.creator_id:
                        raise PlayerError(t("The creator cannot leave; use /game abandon to close the table."))
                    if not await self.store.leave(game_id, user.id):
                        raise PlayerError(t("You are not seated at this table."))
                else:
                    await self.start(interaction, game)
                    return
                game = await self.load(game_id, ("lobby",))
            await self.edit_lobby(game, open_=True)
            if interaction.type == discord.InteractionType.application_command:  # a button needs no answer
                await self.reply(interaction, t("You joined {title}.", title=self.title(game)) if what == "join"
                                 else t("You left {title}.", title=self.title(game)))
        except PlayerError as err:
            await self.reply(interaction, str(err))

    async def edit_lobby(self, game: Game, open_: bool) -> None:
        if game.lobby_message_id is None:
            return
        try:
            channel = self.bot.get_channel(game.channel_id) or await self.bot.fetch_channel(game.channel_id)
            message = channel.get_partial_message(game.lobby_message_id)  # type: ignore[union-attr]
            await message.edit(content=self.lobby_text(game), view=lobby_view(game.id) if open_ else None)
        except discord.HTTPException:
            log.warning("game %s: could not edit the lobby message", game.id, exc_info=True)

    async def start(self, interaction: discord.Interaction, game: Game) -> None:
        """Called under the game's lock."""
        engine = self.engines[game.kind]
        if interaction.user.id != game.creator_id:
            raise PlayerError(t("Only the creator can start this table."))
        if len(game.seats) < engine.min_seats:
            raise PlayerError(t("{title} needs at least {n} players.", title=engine.title, n=engine.min_seats))
        state = engine.new_game(game.options, len(game.seats), game.seed)
        thread = await self.open_thread(game)
        if not await self.store.start(game.id, thread.id if thread else None, state,
                                      self.prompts(engine, game, state, force=True)):
            raise PlayerError(t("This table has already started."))
        game = await self.load(game.id)
        await self.schedule_reminders(game, engine, state, [s.seat for s in game.seats])
        await self.edit_lobby(game, open_=False)
        await self.check_dms(game)
        await self.announce(Outcome(game, state, [Event(t("The game begins!"))], [s.seat for s in game.seats]))

    async def open_thread(self, game: Game) -> discord.abc.Messageable | None:
        channel = self.bot.get_channel(game.channel_id) or await self.bot.fetch_channel(game.channel_id)
        if isinstance(channel, discord.Thread):
            return channel
        name = self.title(game)
        try:
            if game.lobby_message_id:
                return await channel.get_partial_message(game.lobby_message_id).create_thread(  # type: ignore[union-attr]
                    name=name, auto_archive_duration=10080)
            return await channel.create_thread(name=name, type=discord.ChannelType.public_thread)  # type: ignore[union-attr]
        except discord.HTTPException:
            log.warning("game %s: could not open a thread; playing in the channel", game.id, exc_info=True)
            return None

    async def check_dms(self, game: Game) -> None:
        """Try a DM to every player; closed DMs are named in the thread and the game goes on."""
        closed = []
        for s in game.seats:
            ok = await self.send_dm(game, s.user_id, t("You are seated in {title}. Your hand and moves "
                                                     "will arrive here.", title=self.title(game)))
            if not ok:
                closed.append(s)
        if closed:
            await self.post(game, t("I cannot send direct messages to {names}: use the My hand button or "
                                    "/{kind} hand to see your cards and move.",
                                    names=", ".join(f"<@{s.user_id}>" for s in closed), kind=game.kind),
                            mention=[s.user_id for s in closed])

    # -- the commit path -----------------------------------------------------------------------

    async def component_move(self, interaction: discord.Interaction, game_id: int, version: int, seat: int,
                             kind: str, index: int, values: list[str] | None) -> None:
        async with self.busy():
            await self._component_move(interaction, game_id, version, seat, kind, index, values)

    async def _component_move(self, interaction: discord.Interaction, game_id: int, version: int, seat: int,
                              kind: str, index: int, values: list[str] | None) -> None:
        await self.ack(interaction)

        def pick(engine: Engine, game: Game, state: State) -> dict[str, Any]:
            me = game.seat_of(interaction.user.id)
            if me is None or me != seat:
                raise PlayerError(t("These buttons belong to another player."))
            if version != game.seats[seat].prompt_version:
                raise StaleButton()
            entry = menu_entry(engine.menu(state, seat), kind, index)
            if entry is None:
                raise StaleButton()
            return dict(entry["action"], values=values) if kind == "select" else entry["action"]

        outcome = await self.move(interaction, game_id, pick)
        if outcome is None:
            return
        if interaction.message is not None and isinstance(interaction.channel, discord.DMChannel):
            try:  # the old DM's components are spent: a fresh DM with the new menu follows
                await interaction.edit_original_response(view=None)
            except discord.HTTPException:
                pass
        await self.announce(outcome)

    async def command_move(self, interaction: discord.Interaction, game_id: int, label: str) -> None:
        async with self.busy():
            await self._command_move(interaction, game_id, label)

    async def _command_move(self, interaction: discord.Interaction, game_id: int, label: str) -> None:
        await self.ack(interaction)

        def pick(engine: Engine, game: Game, state: State) -> dict[str, Any]:
            seat = game.seat_of(interaction.user.id)
            if seat is None:
                raise PlayerError(t("You are not playing in {title}.", title=self.title(game)))
            for action in engine.legal_actions(state, seat):
                if engine.describe_action(state, seat, action) == label:
                    return action
            raise PlayerError(t("“{label}” is not a move you can make now. Pick one from the list.", label=label))

        outcome = await self.move(interaction, game_id, pick)
        if outcome is not None:
            await self.reply(interaction, t("Done: {label}", label=label))
            await self.announce(outcome)

    async def move(self, interaction: discord.Interaction, game_id: int,
                   pick: Callable[[Engine, Game, State], dict[str, Any]]) -> Outcome | None:
        """The one commit path, up to the commit. The caller answers the player, then announces
        the returned outcome (thread post and DMs); None when nothing was committed."""
        try:
            async with self.lock(game_id):
                game = await self.load(game_id)
                engine = self.engines[game.kind]
                state = game.snapshot
                assert state is not None
                action = pick(engine, game, state)
                seat = game.seat_of(interaction.user.id)
                assert seat is not None
                try:
                    new_state, events = engine.apply(state, seat, action)
                except GameError as err:
                    raise PlayerError(str(err)) from None
                prompts = self.prompts(engine, game, new_state)
                # The board image goes with a new turn (the view's "turn") and with the end; moves
                # inside a turn post their log lines only.
                board = (engine.is_over(new_state)
                         or engine.view(state, None).get("turn") != engine.view(new_state, None).get("turn"))
                await self.store.commit_move(game.id, game.version, seat, action, new_state,
                                             engine.is_over(new_state), prompts)
                game = await self.load(game_id, ("active", "finished"))
                await self.schedule_reminders(game, engine, new_state, [p.seat for p in prompts])
        except StaleButton:
            await self.reply(interaction, t("The board has moved on since that button was made. "
                                            "Here is where things stand now."))
            await self.show_hand(interaction, game_id)
            return None
        except (PlayerError, StaleVersion) as err:
            await self.reply(interaction, str(err) if isinstance(err, PlayerError)
                             else t("Someone moved at the same moment; please try again."))
            return None
        except Exception:
            log.exception("game %s: unexpected error while moving", game_id)
            await self.reply(interaction, t("Sorry, something went wrong. The game was not changed."))
            return None
        return Outcome(game, new_state, events, [p.seat for p in prompts], board)

    async def schedule_reminders(self, game: Game, engine: Engine, state: State, changed: list[int]) -> None:
        """Each seat asked for a new decision gets one reminder after the table's interval; a seat
        still deciding keeps its timer; a seat that has nothing to decide loses it."""
        waiting = set() if engine.is_over(state) else set(engine.to_act(state))
        fresh = {seat: self.clock() + self.reminder_seconds for seat in waiting if seat in changed}
        await self.store.set_timers(game.id, REMIND, waiting, fresh)
        self.timers_changed.set()

    # -- output --------------------------------------------------------------------------------

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
            images = []
            if outcome.board:
                images = await asyncio.to_thread(self.board_images, game.kind, engine.view(state, None), names,
                                                 engine.is_over(state))
            if lines or images:
                await self.post(game, "\n".join([f"**{self.title(game)}**", *lines]), images=images,
                                mention=[s.user_id for s in waiting], view=hand_view(game.id) if images else None)
        except Exception:
            log.exception("game %s: could not post the board", game.id)
        for seat in outcome.changed_seats:
            private = [name_seats(e.text, names) for e in outcome.events if e.to == seat]
            await self.send_private(game, state, seat, private)

    def board_images(self, kind: str, view: dict[str, Any], names: list[str], over: bool) -> list[bytes]:
        """The board, and at the end the results image if the game draws one (runs in a thread)."""
        renderer = self.renderer(kind)
        images = [renderer.render_board(view, names)]
        if over and hasattr(renderer, "render_results"):
            images.append(renderer.render_results(view, names))
        return images

    async def post(self, game: Game, content: str, images: list[bytes] = (),
                   mention: list[int] | None = None, view: discord.ui.View | None = None) -> None:
        where_id = game.thread_id or game.channel_id
        channel = self.bot.get_channel(where_id) or await self.bot.fetch_channel(where_id)
        kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions(
            users=[discord.Object(u) for u in (mention or [])], roles=False, everyone=False)}
        names = ["", "-results"]
        if images:
            kwargs["files"] = [discord.File(io.BytesIO(data), filename=f"{game.kind}-{game.id}{names[i]}.png")
                               for i, data in enumerate(images)]
        if view is not None:
            kwargs["view"] = view
        await channel.send(clip(content), **kwargs)  # type: ignore[union-attr]

    def private_message(self, game: Game, state: State, seat: int, lines: list[str],
                        always: bool = False) -> dict[str, Any]:
        """Content, hand image and components for one seat, from that seat's view only."""
        engine = self.engines[game.kind]
        view = engine.view(state, seat)
        names = [s.name for s in game.seats]
        kwargs: dict[str, Any] = {}
        components = menu_view(game.id, game.seats[seat].prompt_version, seat, engine.menu(state, seat))
        if components is not None:
            kwargs["view"] = components
        if seat in engine.to_act(state):
            lines = [*lines, t("Your move in {title}.", title=self.title(game))]
        elif engine.is_over(state):
            lines = [*lines, t("{title} is over.", title=self.title(game))]
        elif not lines and components is None and not always:
            return {}  # nothing new for this seat
        content = "\n".join([f"**{self.title(game)}**", *lines])
        return {"content": clip(content), "render": (self.renderer(game.kind).render_hand, view, names), **kwargs}

    async def send_private(self, game: Game, state: State, seat: int, lines: list[str]) -> None:
        s = game.seats[seat]
        try:
            message = self.private_message(game, state, seat, lines)
            if not message:
                return
            render, view, names = message.pop("render")
            image = await asyncio.to_thread(render, view, names)
            if image is not None:
                message["file"] = discord.File(io.BytesIO(image), filename=f"{game.kind}-{game.id}-hand.png")
        except Exception:
            log.exception("game %s: could not build the private view for seat %s", game.id, seat)
            return
        if s.dm_ok:
            ok = await self.send_dm(game, s.user_id, **message)
            if not ok:
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

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        """The caller's private view and menu, visible only to them (the fallback for closed DMs)."""
        await self.ack(interaction)
        try:
            game = await self.load(game_id, ("active", "finished"))
            seat = game.seat_of(interaction.user.id)
            if seat is None:
                raise PlayerError(t("You are not playing in {title}.", title=self.title(game)))
            assert game.snapshot is not None
            message = self.private_message(game, game.snapshot, seat, [], always=True)
            render, view, names = message.pop("render")
            image = await asyncio.to_thread(render, view, names)
            if image is not None:
                message["file"] = discord.File(io.BytesIO(image), filename=f"{game.kind}-{game.id}-hand.png")
            content = message.pop("content")
            await self.reply(interaction, content, **message)
        except PlayerError as err:
            await self.reply(interaction, str(err))


class StaleButton(Exception):
    pass
