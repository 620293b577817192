"""Everything the table sends out: thread posts with board images, private views by DM or as
ephemeral replies. Nothing here changes a game; a Discord failure is logged, never raised."""

from __future__ import annotations

import asyncio
import contextlib
import enum
import hashlib
import io
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Protocol, Sequence

import discord

from bot import export
from bot.components import hand_view, menu_view
from bot.games.base import Action, Engine, Event, State, View, name_seats
from bot.games.stats import stats_of
from bot.i18n import Msg, default_locale, from_wire, msg, render, to_wire
from bot.store import Game, Owed, Seat, Store, StoreGone
from rendering import Renderer
from rendering.animation import extension
from rendering.registry import renderer
from rendering.stats import render_game_stats

log = logging.getLogger(__name__)

MAX_CONTENT = 2000
ROUND_POSTS = 4096  # games whose round post is remembered (the oldest forgotten first)
# A catch-up reads this many of the thread's last messages to find what a crash left out but unrecorded
# (progress is written behind by half a second: a few posts at most; one read whatever the number).
CATCH_UP_READ = 25
MENUS = 50_000  # players' newest DM menus remembered, to retire their controls when a game ends


def words(text: Msg | str, names: list[str], locale: str) -> str:
    """An engine's text put into words for one audience, seats named."""
    return name_seats(render(text, locale), names)


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def pack(lines: list[str], limit: int) -> list[str]:
    """Lines joined into as few messages of at most `limit` characters as they fit in."""
    messages: list[str] = []
    for line in lines:
        line = clip(line, limit)
        if messages and len(messages[-1]) + 1 + len(line) <= limit:
            messages[-1] += "\n" + line
        else:
            messages.append(line)
    return messages or [""]


THREAD_EXISTS = 160004  # Discord: "A thread has already been created for this message"


def title_of(engine: Engine, game: Game) -> Msg:
    return msg("{title} #{id}", title=msg(engine.title), id=game.id)


@dataclass
class Outcome:
    """What committed versions (a move, the start, or several after a crash) have to tell the
    table and the players. Stored with the move as its owed announcement (to_json)."""

    game: Game
    state: State
    events: list[Event]
    changed_seats: list[int]  # seats whose menu changed (and the mover): their DM shows the new menu
    board: bool = True  # attach a fresh board image (a new turn, the start, the end)
    actor: int | None = None
    versions: list[int] = field(default_factory=list)  # the versions this announces
    sent: set[str] = field(default_factory=set)  # parts already out before a crash
    # The DM (channel, message) the actor clicked to move: their new view replaces it there, so a
    # move costs no new DM. Memory only: after a crash the view goes out as a new DM.
    actor_dm: tuple[int, int] | None = None
    # Each seat's menu for `state`, as the move's prompts built them: the DMs reuse them rather than
    # building them again on the event loop. Memory only.
    menus: dict[int, list[dict[str, Any]]] = field(default_factory=dict, repr=False)
    task: asyncio.Task[None] | None = field(default=None, repr=False)
    # A catch-up: how many public lines each owed version brings, oldest first. Their post may be
    # out already though not recorded (progress is written behind), so the thread is read first.
    resent_lines: list[int] | None = None
    resent_versions: list[int] | None = None  # the versions resent_lines counts the lines of
    # Seats starting a new decision (Table.plan): each is told once, by a new DM or, where its DMs
    # are closed, a ping in the thread. None (announcements stored before decisions were): the
    # changed seats that must act.
    decided: list[int] | None = None
    # The spectator view of `state` (Table.plan makes it), and the board post's images being drawn
    # from it while the move is planned and written (Delivery.draw_early). Memory only.
    view: View | None = field(default=None, repr=False)
    drawing: asyncio.Future[list[bytes]] | None = field(default=None, repr=False)
    # A game's end: the states its replay animation shows, from the replay its statistics made
    # (Delivery.end_stats), so the log is replayed once. None: the animation replays it. Memory only.
    frames: list[State] | None = field(default=None, repr=False)

    async def announced(self) -> None:
        """Wait until this outcome's announcement (scheduled by the table's announcer) is done."""
        assert self.task is not None, "the announcement was never scheduled"
        await self.task

    @property
    def mover(self) -> Seat:
        """The seat that made the move (a move's outcome names it)."""
        assert self.actor is not None
        return self.game.seats[self.actor]

    def told(self, waiting: list[int]) -> list[int]:
        """The seats this announcement tells of a new decision (of those `waiting` now)."""
        new = self.changed_seats if self.decided is None else self.decided
        return [s for s in waiting if s in new and not self.game.seats[s].auto]

    def dm_seats(self) -> list[int]:
        """Who gets a private message: a changed menu, a private event, or the one who moved."""
        seats = set(self.changed_seats) | {e.to for e in self.events if e.to is not None}
        if self.actor is not None:
            seats.add(self.actor)
        return sorted(s for s in seats if not self.game.seats[s].auto)  # the automatic player reads no DMs

    def to_json(self) -> dict[str, Any]:
        return {
            "events": [[to_wire(e.text), e.to] for e in self.events],
            "changed": self.changed_seats,
            "board": self.board,
            "actor": self.actor,
            "decided": self.decided,
        }

    @classmethod
    def owed(cls, game: Game, owed: list[Owed], waiting: list[int]) -> "Outcome":
        """One announcement for versions a crash left (partly) unsaid, with the game as it is now:
        only the parts not yet out, each version's lines in order, one board."""
        events: list[Event] = []
        changed: set[int] = set()
        decided: set[int] = set()
        board = False
        wanted: set[str] = set()
        resent: list[int] = []
        resent_versions: list[int] = []
        for o in owed:
            # An empty outcome (from before the outbox) owes a board and the waiting players' DMs.
            old = [Event(from_wire(text), to) for text, to in o.outcome.get("events", [])]
            row = cls(
                game,
                {},
                old,
                list(o.outcome.get("changed", waiting)),
                o.outcome.get("board", True),
                o.outcome.get("actor"),
            )
            if "post" not in o.sent:
                public = [e for e in old if e.to is None]
                events += public
                resent.append(len(public))
                resent_versions.append(o.version)
                board |= row.board
            events += [e for e in old if e.to is not None and f"dm{e.to}" not in o.sent]
            changed |= set(row.changed_seats)
            decided |= set(row.changed_seats if o.outcome.get("decided") is None else o.outcome["decided"])
            wanted |= set(row.parts()) - o.sent
        outcome = cls(
            game,
            game.snapshot or {},
            events,
            sorted(changed),
            board,
            versions=[o.version for o in owed],
            resent_lines=resent,
            decided=sorted(decided),
            resent_versions=resent_versions,
        )
        outcome.sent = set(outcome.parts()) - wanted
        return outcome

    def parts(self) -> list[str]:
        return ["post", *(f"dm{s}" for s in self.dm_seats())]

    def line_versions(self, out: int = 0) -> list[int]:
        """The version that says each public line, from the `out`-th on (the lines before are in the
        thread already): a live move's lines are its version's; a catch-up's, each owed version's
        in turn (resent_lines, resent_versions)."""
        if self.resent_lines is None or self.resent_versions is None:
            version = self.versions[-1] if self.versions else self.game.version
            return [version] * max(0, sum(e.to is None for e in self.events) - out)
        return [v for v, n in zip(self.resent_versions, self.resent_lines) for _ in range(n)][out:]


@dataclass
class RoundPost:
    """The thread message a round gathers in (memory only: after a restart a new one starts): its
    title and lines, its last line naming who is to play (replaced as the round goes on), and the
    view's "post" key of the board image it shows (None: no image)."""

    message: discord.Message
    lines: list[str]
    waiting: str | None = None
    key: Any = None

    def text(self, more: list[str] = (), waiting: str | None = None) -> str:  # type: ignore[assignment]
        return "\n".join([*self.lines, *more, *([waiting] if waiting else [])])


class Sent(enum.Enum):
    """What became of one message: out, refused for good (it never will be), or a passing failure."""

    OUT = "out"
    REFUSED = "refused"
    FAILED = "failed"


class ThreadPost(Protocol):
    """The thread post a DM falls back on (Delivery.post): a seat whose DMs are closed is pinged there."""

    def __call__(self, game: Game, content: Msg | str, *, mention: list[int] | None = None) -> Awaitable[Sent]: ...


class DirectMessages:
    """Each player's DMs (`delivery.dms`): the DM channel (opened once, remembered in the store),
    the seat's view with the controls of its decision sent, found again, replaced in place and
    retired, and private news. What it does not own is handed in: each user's language
    (`user_locale`), how a game is drawn (`renderer`: the hand image) and the thread post a seat
    whose DMs are closed is told in instead (`post`)."""

    def __init__(
        self,
        bot: discord.Client,
        store: Store,
        engines: dict[str, Engine],
        user_locale: Callable[[int], Awaitable[str]],
        renderer: Callable[[str], Renderer],
        post: ThreadPost,
    ) -> None:
        self.bot = bot
        self.store = store
        self.engines = engines
        self.user_locale = user_locale
        self.renderer = renderer
        self.post = post
        self._dm_channels: dict[int, int] = {}  # user -> DM channel (also in the store)
        # (game, seat) -> (DM channel, message) of the seat's newest DM with controls (two ints each)
        self._menus: OrderedDict[tuple[int, int], tuple[int, int]] = OrderedDict()
        # user -> (DM channel, message) of the last DM this process sent them
        self._last_dm: OrderedDict[int, tuple[int, int]] = OrderedDict()

    async def channel(self, user_id: int, fresh: bool = False) -> discord.abc.Messageable:
        """A user's DM channel: opened once (one REST call) and remembered, across restarts too, so a
        DM costs Discord one call: the message itself."""
        channel_id = None if fresh else self._dm_channels.get(user_id) or (await self.store.players.user(user_id))[0]
        if channel_id is None:
            channel_id = (await self.bot.create_dm(discord.Object(user_id))).id
            await self.store.players.set_dm_channel(user_id, channel_id)
        self._dm_channels[user_id] = channel_id
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    def plan(self, outcome: Outcome, seat: int, private: bool) -> tuple[tuple[int, int] | None, bool]:
        """How a seat's new view goes out: (the DM to replace in place, whether its newest menu DM
        may be refreshed in place instead of a new DM). An edit notifies no one, so a new decision
        is always a new DM (that is how its player is told); the mover's view replaces the DM it
        clicked, else (it moved by /play or My hand) its newest menu; a seat whose menu changed
        within the same decision has its newest menu refreshed, unless there is news for it alone."""
        if seat in outcome.told([seat]):
            return None, False
        if seat == outcome.actor:
            return outcome.actor_dm, outcome.actor_dm is None
        return None, not private

    async def private_message(
        self,
        game: Game,
        state: State,
        seat: int,
        lines: Sequence[Msg | str],
        locale: str,
        always: bool = False,
        menu: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """Content, hand image and components for one seat in its reader's language, built from that
        seat's view only (and its `menu` for `state`, if already built). Empty when there is nothing
        new to say and `always` is False."""
        engine = self.engines[game.kind]
        title = title_of(engine, game)
        names = [s.name for s in game.seats]
        components = menu_view(
            game.id,
            game.seats[seat].prompt_version,
            seat,
            engine.menu(state, seat) if menu is None else menu,
            locale,
            names,
        )
        if seat in engine.to_act(state):
            lines = [*lines, msg("Your move in {title}.", title=title)]
        elif engine.is_over(state):
            lines = [*lines, msg("{title} is over.", title=title)]
        elif not lines and components is None and not always:
            return {}
        texts = [f"**{render(title, locale)}**", *(words(x, names, locale) for x in lines)]
        message: dict[str, Any] = {"content": clip("\n".join(texts))}
        if components is not None:
            message["view"] = components
        image = await asyncio.to_thread(self.renderer(game.kind).hand, engine.view(state, seat), names, locale)
        if image is not None:
            message["file"] = discord.File(io.BytesIO(image), filename=f"{game.kind}-{game.id}-hand.png")
        return message

    async def send_private(
        self,
        game: Game,
        state: State,
        seat: int,
        lines: Sequence[Msg | str],
        edit: tuple[int, int] | None = None,
        menu: list[dict[str, Any]] | None = None,
        resend: bool = False,
        refresh: bool = False,
        clicked: tuple[int, int] | None = None,
        silent: bool = False,
    ) -> Sent:
        """DM one seat its view: in place of the DM `edit` names if given (the one they just
        clicked: no new message, no notification); with `refresh`, in place of its newest menu
        DM if that is still the newest DM the bot sent them (another process, a restart or
        another message may have come since); else as a new DM, after which the DM they `clicked` and
        their previous menu lose their controls (`silent`: a DM that notifies no one). Seats with
        closed DMs use My hand /
        `/<game> hand` instead. A catch-up (`resend`) first looks whether the seat's newest DM
        is this view already: the move's edit in place got out before a crash."""
        s = game.seats[seat]
        if not s.dm_ok:
            return Sent.REFUSED
        if edit is None and refresh:
            edit = await self._newest_menu_dm(game.id, seat, s.user_id)
        message = await self.private_message(
            game, state, seat, lines, await self.user_locale(s.user_id), always=edit is not None, menu=menu
        )
        if not message:
            return Sent.OUT
        where = edit if edit is not None and await self._edit_dm(game, edit, message) else None
        if where is None and resend:
            where = await self._same_dm_out(s.user_id, message)
        if where is None:
            result, where = await self._send_dm(
                game, s.user_id, nonce=dm_nonce(game.id, seat, message), silent=silent, **message
            )
        else:
            result = Sent.OUT
        if where is not None:
            # The seat's previous menu can no longer act: it loses its controls (an edit, which
            # notifies no one). The newest menu is remembered for the next time and the end.
            previous = self._menus.pop((game.id, seat), None)
            for old in {previous, clicked} - {None, where}:
                await self._retire(game.id, old)  # type: ignore[arg-type]
            if "view" in message:
                self._menus[(game.id, seat)] = where
                if len(self._menus) > MENUS:
                    self._menus.popitem(last=False)
        if result is Sent.REFUSED:
            await self.post(
                game,
                msg(
                    "<@{user}>, I cannot DM you: use the My hand button or /{kind} hand.",
                    user=s.user_id,
                    kind=game.kind,
                ),
                mention=[s.user_id],
            )
        return result

    async def send_controls(self, game: Game, seat: int, content: Msg, view: discord.ui.View) -> Sent:
        """A DM with controls that is not a menu (the hand-over notice and its Take my seat back):
        the seat's newest controls from now on, so its previous menu loses its own, and the seat's
        next menu may replace it in place."""
        user = game.seats[seat].user_id
        result, where = await self._send_dm(game, user, content, view=view)
        if where is not None:
            previous = self._menus.pop((game.id, seat), None)
            if previous is not None:
                await self._retire(game.id, previous)
            self._menus[(game.id, seat)] = where
        return result

    def newest_controls(self, game_id: int, seat: int) -> tuple[int, int] | None:
        """Where the seat's newest DM with controls is, if this process knows."""
        return self._menus.get((game_id, seat))

    async def _newest_menu_dm(self, game_id: int, seat: int, user_id: int) -> tuple[int, int] | None:
        """The seat's remembered newest menu DM, if it is still the newest DM this bot sent the user:
        in one process, the last one it sent; with shards (other processes DM too), one read."""
        where = self._menus.get((game_id, seat))
        if where is None:
            return None
        if self.store.shards is None:
            return where if self._last_dm.get(user_id) == where else None
        try:
            channel = await self.channel(user_id)
            async for newest in channel.history(limit=1):
                return where if (newest.channel.id, newest.id) == where else None
        except (discord.HTTPException, OSError, asyncio.TimeoutError) as err:
            log.info("game %s: could not read a DM channel (%s); sending a new DM", game_id, err)
        return None

    async def _same_dm_out(self, user_id: int, message: dict[str, Any]) -> tuple[int, int] | None:
        """Where the user's newest DM from the bot is `message` (the same words and the same
        controls, whose ids carry the menu's version), if it is; one read of the channel."""
        try:
            channel = await self.channel(user_id)
            async for newest in channel.history(limit=1):
                ids = [c.custom_id for row in newest.components for c in getattr(row, "children", [])]
                view = message.get("view")
                wanted = [c.custom_id for c in view.children] if view is not None else []
                text = clip(render(message["content"], await self.user_locale(user_id)))
                if (
                    self.bot.user is not None
                    and newest.author.id == self.bot.user.id
                    and newest.content == text
                    and ids == wanted
                ):
                    return newest.channel.id, newest.id
        except (discord.HTTPException, OSError, asyncio.TimeoutError) as err:
            log.info("could not read a DM channel before catching up (%s)", err)
        return None

    async def _edit_dm(self, game: Game, where: tuple[int, int], message: dict[str, Any]) -> bool:
        """Replace a DM's text, image and components; False if Discord would not (send anew then)."""
        try:
            await self._dm_message(where).edit(
                content=message["content"],
                view=message.get("view"),
                attachments=[message["file"]] if "file" in message else [],
            )
            return True
        except (discord.HTTPException, OSError, asyncio.TimeoutError) as err:
            log.info("game %s: could not edit a DM in place (%s); sending a new one", game.id, err)
            return False

    async def retire_controls(self, game_id: int) -> None:
        """When a game ends (or is abandoned), each player's newest DM menu loses its selects and
        buttons (older ones lost theirs when a newer one came)."""
        for key in [k for k in self._menus if k[0] == game_id]:
            await self._retire(game_id, self._menus.pop(key))

    def _dm_message(self, where: tuple[int, int]) -> discord.PartialMessage:
        """A DM the bot sent, by (channel, message), without fetching it."""
        return self.bot.get_partial_messageable(where[0], type=discord.ChannelType.private).get_partial_message(
            where[1]
        )

    async def _retire(self, game_id: int, where: tuple[int, int]) -> None:
        try:
            await self._dm_message(where).edit(view=None)
        except (discord.HTTPException, OSError, asyncio.TimeoutError) as err:
            log.info("game %s: could not retire an old menu (%s)", game_id, err)

    async def send(self, game: Game, user_id: int, content: Msg | str, **kwargs: Any) -> Sent:
        """A DM in the user's language. REFUSED (and the seat marked) when their DMs are closed."""
        return (await self._send_dm(game, user_id, content, **kwargs))[0]

    async def _send_dm(
        self, game: Game, user_id: int, content: Msg | str, **kwargs: Any
    ) -> tuple[Sent, tuple[int, int] | None]:
        """send, and where the DM went: (channel, message)."""
        if kwargs.get("nonce") is None:
            kwargs.pop("nonce", None)
        content = clip(render(content, await self.user_locale(user_id)))
        try:
            try:
                sent = await (await self.channel(user_id)).send(content, **kwargs)
            except discord.NotFound:  # a remembered channel Discord no longer knows: open it again
                self._dm_channels.pop(user_id, None)
                sent = await (await self.channel(user_id, fresh=True)).send(content, **kwargs)
            self._last_dm[user_id] = (sent.channel.id, sent.id)
            self._last_dm.move_to_end(user_id)
            if len(self._last_dm) > MENUS:
                self._last_dm.popitem(last=False)
            return Sent.OUT, (sent.channel.id, sent.id)
        except discord.Forbidden:
            await self.store.set_dm_ok(game.id, user_id, False)
            return Sent.REFUSED, None
        except discord.HTTPException as err:
            log.warning("game %s: DM to a player failed (%s)", game.id, err)
            return sent_result(err), None
        except (OSError, asyncio.TimeoutError) as err:
            log.warning("game %s: could not reach Discord for a DM (%s)", game.id, err)
            return Sent.FAILED, None


class Delivery:
    """Everything the bot says about a game: the thread (its opening, the board posts and round
    posts, files, the end's stats and replay), each audience's language, and through `dms`
    (DirectMessages) each player's DMs."""

    def __init__(self, bot: discord.Client, store: Store, engines: dict[str, Engine]) -> None:
        self.bot = bot
        self.store = store
        self.engines = engines
        self._locales: dict[int, str] = {}  # user -> language (also in the store)
        self._notify: dict[int, str] = {}  # user -> how a new decision is told (also in the store)
        self._writes: set[asyncio.Task[None]] = set()
        # game -> the thread message its current round is gathered in
        self._round_posts: OrderedDict[int, RoundPost] = OrderedDict()
        self.dms = DirectMessages(bot, store, engines, self.user_locale, self.renderer, self.post)

    # -- audiences: who reads what, in which language ----------------------------------------------

    def thread_locale(self, game: Game) -> str:
        return game.locale or default_locale()

    def remember_locale(self, user_id: int, locale: str) -> None:
        """A user's language, as their last interaction said: DMs follow it."""
        if self._locales.get(user_id) != locale:
            self._locales[user_id] = locale
            task = asyncio.create_task(self._quietly(self.store.players.set_user_locale(user_id, locale)))
            self._writes.add(task)
            task.add_done_callback(self._writes.discard)

    @staticmethod
    async def _quietly(write: Any) -> None:
        """A write nobody waits for: a database file gone is said once by the store, not per write."""
        with contextlib.suppress(StoreGone):
            await write

    async def user_locale(self, user_id: int) -> str:
        if user_id not in self._locales:
            self._locales[user_id] = (await self.store.players.user(user_id))[1] or default_locale()
        return self._locales[user_id]

    async def notify_of(self, user_id: int) -> str:
        """How the user is told of a new decision: "dm" (a DM that notifies), "ping" (a ping in the
        thread; their DMs come silently) or "both"."""
        if user_id not in self._notify:
            self._notify[user_id] = await self.store.players.notify(user_id)
        return self._notify[user_id]

    async def set_notify(self, user_id: int, how: str) -> None:
        await self.store.players.set_notify(user_id, how)
        self._notify[user_id] = how

    def renderer(self, kind: str) -> Renderer:
        """How the game of that kind is drawn (rendering/registry.py)."""
        return renderer(kind)

    async def channel(self, channel_id: int) -> discord.abc.Messageable:
        return self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)  # type: ignore[return-value]

    async def open_thread(self, game: Game) -> int | None:
        """The id of the game's thread, opened on its lobby post (or the channel's own thread); None: it
        plays in the channel."""
        channel = await self.channel(game.channel_id)
        if isinstance(channel, discord.Thread):
            return channel.id
        name = render(title_of(self.engines[game.kind], game), self.thread_locale(game))
        try:
            if game.lobby_message_id:
                try:
                    return (
                        await channel.get_partial_message(game.lobby_message_id).create_thread(  # type: ignore[attr-defined]
                            name=name, auto_archive_duration=10080
                        )
                    ).id
                except discord.HTTPException as err:
                    if err.code != THREAD_EXISTS:
                        raise
                    # A Start before a crash opened it: a message's thread has the message's id.
                    await self.channel(game.lobby_message_id)  # (raises HTTPException if it is gone)
                    return game.lobby_message_id
            return (
                await channel.create_thread(  # type: ignore[attr-defined]
                    name=name, type=discord.ChannelType.public_thread
                )
            ).id
        except discord.HTTPException:
            log.warning("game %s: could not open a thread; playing in the channel", game.id, exc_info=True)
            return None

    async def check_dms(self, game: Game) -> None:
        """Try a DM to every player; closed DMs are named in the thread and the game goes on."""
        closed = []
        hello = msg(
            "You are seated in {title}. Your hand and moves will arrive here.",
            title=title_of(self.engines[game.kind], game),
        )
        for s in game.seats:
            if s.ai:
                continue  # the bot plays it
            if (
                await self.dms.send(game, s.user_id, hello, silent=True) is Sent.REFUSED
            ):  # the first menu, next, notifies
                closed.append(s)
        if closed:
            await self.post(
                game,
                msg(
                    "I cannot send direct messages to {names}: use the My hand button or "
                    "/{kind} hand to see your cards and move.",
                    names=", ".join(s.mention for s in closed),
                    kind=game.kind,
                ),
            )
        # (Named, not pinged: the start's board pings whoever must act, once.)

    # -- public ---------------------------------------------------------------------------------

    async def announce(self, outcome: Outcome) -> bool:
        """Post the public result in the thread and DM each affected player, recording each part
        as it goes out. Never raises; False if a part failed for now and is still owed."""
        game, state = outcome.game, outcome.state
        engine = self.engines[game.kind]
        names = [s.name for s in game.seats]
        versions = outcome.versions or [game.version]
        complete = True

        async def done(part: str, result: Sent) -> None:
            # The post is recorded once it is out when DMs follow, so a crash among them never posts
            # it twice; a DM resent after a crash carries the same nonce, so Discord keeps one copy.
            nonlocal complete
            if result is Sent.FAILED:
                complete = False
            elif part == "post" and len(outcome.parts()) > 1:
                await self.store.mark_sent(game.id, versions, part)

        if engine.is_over(state):  # the last menus lose their controls before the final words
            await self.dms.retire_controls(game.id)
        if "post" not in outcome.sent:
            try:
                await done("post", await self.post_outcome(outcome, engine, names))
            except Exception:
                log.exception("game %s: could not post the board", game.id)
                complete = False
        for seat in outcome.dm_seats():
            if f"dm{seat}" in outcome.sent:
                continue
            private = [e.text for e in outcome.events if e.to == seat]
            try:
                edit, refresh = self.dms.plan(outcome, seat, bool(private))
                clicked = outcome.actor_dm if seat == outcome.actor else None
                # Only a new decision's DM notifies (and not for a player told by pings): other news
                # comes silently, so each player is told once per decision.
                silent = seat not in outcome.told([seat]) or await self.notify_of(game.seats[seat].user_id) == "ping"
                await done(
                    f"dm{seat}",
                    await self.dms.send_private(
                        game,
                        state,
                        seat,
                        private,
                        edit,
                        outcome.menus.get(seat),
                        resend=outcome.resent_lines is not None,
                        refresh=refresh,
                        clicked=clicked,
                        silent=silent,
                    ),
                )
            except Exception:
                log.exception("game %s: could not send seat %s its view", game.id, seat)
                complete = False
        return complete

    async def post_outcome(self, outcome: Outcome, engine: Engine, names: list[str]) -> Sent:
        """The thread's part. A round is one post: a move's lines, a new turn's board image and who is
        to play now are edited into the round's post (an edit notifies no one); a new post starts
        with a new round (the spectator view's "post", default its "turn"), when the post is full,
        at the end, and when someone must be pinged (their DMs are closed: an edit pings no one)."""
        game, state = outcome.game, outcome.state
        locale = self.thread_locale(game)
        over = engine.is_over(state)
        # Named: who the table waits for. Pinged: those starting a new decision whom no DM can tell,
        # or who asked for pings (/notify); a DM holding their controls tells the others.
        waiting = [] if over else [game.seats[s] for s in engine.to_act(state)]
        pinged = [
            s.user_id
            for s in game.seats
            if s.seat in outcome.told(engine.to_act(state)) and (not s.dm_ok or await self.notify_of(s.user_id) != "dm")
        ]
        title = f"**{render(title_of(engine, game), locale)}**"
        lines = [words(e.text, names, locale) for e in outcome.events if e.to is None]
        all_out = ended = False  # a catch-up: every line it has is in the thread already (and the end)
        out, shown, boarded = 0, None, False  # (so many; the newest post: its "Waiting for" line, a board)
        if outcome.resent_lines:
            out, ended, shown, boarded = await self.lines_already_out(game, title, lines, outcome.resent_lines)
            all_out, lines = 0 < out == len(lines), lines[out:]
        if over:
            if all_out and ended:
                return Sent.OUT  # the last post went out whole before the crash
            lines.append(render(msg("The game is over."), locale))
        who = render(msg("Waiting for: {who}", who=[s.mention for s in waiting]), locale) if waiting else None
        current = self._round_posts.get(game.id)
        images: list[bytes] = []
        key = None  # the round the board shows (the spectator view's "post", default its "turn")
        if outcome.board and (over or not (all_out and boarded and current is None)):  # (else out with the lines)
            view = outcome.view if outcome.view is not None else engine.view(state, None)
            key = view.get("post", view.get("turn"))
            images = await (
                outcome.drawing
                if outcome.drawing is not None
                else asyncio.to_thread(self.board_images, game.kind, view, names, over, locale)
            )
            if over:  # the game's statistics after its results (issue #35)
                images += await self.end_stats(outcome, engine, names, locale)
        if all_out and shown and all(f"<@{user}>" in shown for user in pinged):
            pinged = []  # the post that went out pinged them (a post that must ping is always a new post)
        if all_out and current is not None and current.message.attachments:
            current.key = key  # the round's post shows a board: a newer one is edited in, not posted again
        if not lines and not images and who == (current.waiting if current is not None else shown if all_out else None):
            return Sent.OUT  # nothing new (a catch-up: not even under a notice that came after the post)
        if current is not None and not pinged and not over and (not images or key == current.key):
            result = await self.add_to_round_post(game, current, lines, who, images, key, locale)
            if result is not None:
                return result
        # (a post with no line of its own: the newest version it covers)
        versions = outcome.line_versions(out) or outcome.versions[-1:] or [game.version]
        return await self.new_posts(game, title, lines, who, images, pinged, key, versions)

    async def new_posts(
        self,
        game: Game,
        title: str,
        lines: list[str],
        who: str | None,
        images: list[bytes],
        pinged: list[int],
        key: Any,
        versions: list[int],
    ) -> Sent:
        """The round's new post: lines past one message (a catch-up after a long outage) go first, in
        as many as needed; the last message carries the board and the pings, and is the round's
        post from now on. Each message's nonce is what it shows and the version its first line says
        (`versions`, one per line; Outcome.line_versions), so a catch-up sending the very same
        message is kept once, and a message that says again what an earlier one said (a player
        ready again, minutes later) is not taken for it."""
        locale = self.thread_locale(game)
        *before, final = pack([title, *lines], MAX_CONTENT - len(who or "") - 1)
        first = 0  # the line each message starts with (the first message's first is the title)
        for k, text in enumerate(before):
            result = await self.post(game, text, nonce=post_nonce(game.id, text, version=version_at(versions, first)))
            if result is not Sent.OUT:
                return result
            first += text.count("\n") + (1 if k else 0)
        text = final if who is None else f"{final}\n{who}"
        result, message = await self.send_post(
            game,
            text,
            images=images,
            mention=pinged,
            view=hand_view(game.id, locale) if images else None,
            nonce=post_nonce(game.id, text, images, pinged, version=version_at(versions, first)),
        )
        if message is not None:
            self.remember_round_post(game.id, RoundPost(message, final.split("\n"), who, key))
        return result

    async def close_round_post(self, game: Game, post: RoundPost | None) -> None:
        """A new post took over: the round's post before it (`post`) loses its line naming who is to
        play (history now; only the newest post says who the table waits for)."""
        if post is None or post.waiting is None:
            return
        try:
            await post.message.edit(content=post.text())
        except (discord.HTTPException, OSError, asyncio.TimeoutError) as err:
            log.info("game %s: could not close the round's post (%s)", game.id, err)

    def remember_round_post(self, game_id: int, post: RoundPost) -> None:
        self._round_posts[game_id] = post
        self._round_posts.move_to_end(game_id)
        if len(self._round_posts) > ROUND_POSTS:
            self._round_posts.popitem(last=False)

    async def add_to_round_post(
        self, game: Game, post: RoundPost, lines: list[str], who: str | None, images: list[bytes], key: Any, locale: str
    ) -> Sent | None:
        """Edit the round's post: its lines and these, the new board image if any, who is to play
        now. None when it has no room or is gone (a new post then)."""
        text = post.text(lines, who)
        if len(text) > MAX_CONTENT:
            return None
        kwargs: dict[str, Any] = {"content": text}
        if images:
            kwargs["attachments"] = self.files(game, images)
            kwargs["view"] = hand_view(game.id, locale)
        try:
            await post.message.edit(**kwargs)
        except discord.NotFound:  # deleted: start a new one
            self._round_posts.pop(game.id, None)
            return None
        except discord.HTTPException as err:
            log.warning("game %s: could not edit the round's post (%s)", game.id, err)
            return sent_result(err)
        except (OSError, asyncio.TimeoutError) as err:
            log.warning("game %s: could not reach Discord to edit the round's post (%s)", game.id, err)
            return Sent.FAILED
        post.lines += lines
        post.waiting = who
        if images:
            post.key = key
        return Sent.OUT

    def draw_early(self, game: Game, engine: Engine, state: State, view: View) -> asyncio.Future[list[bytes]]:
        """Start drawing a move's board post (`view`: the spectator view of `state`) at once, in a
        thread, while the rest of the move is planned and written (post_outcome then takes the
        images from Outcome.drawing): they depend only on the new state, and drawing them is most
        of a move's way to its post. A move that is not written after all leaves it unread."""
        # Handed to a thread now, not when the loop next runs a task: the move's menus and its
        # database write come first on the loop (a 6-seat Heat round: 2-12 ms the drawing waited).
        drawing = asyncio.get_running_loop().run_in_executor(
            None,
            self.board_images,
            game.kind,
            view,
            [s.name for s in game.seats],
            engine.is_over(state),
            self.thread_locale(game),
        )
        drawing.add_done_callback(lambda done: done.cancelled() or done.exception())
        return drawing

    def board_images(self, kind: str, view: dict[str, Any], names: list[str], over: bool, locale: str) -> list[bytes]:
        """The board (several images where the game draws it so), and at the end the results image if
        the game draws one (runs in a thread)."""
        return self.renderer(kind).post_images(view, names, locale, over)

    async def end_stats(self, outcome: Outcome, engine: Engine, names: list[str], locale: str) -> list[bytes]:
        """A finished game's statistics image (rendering/stats.py); none where the game has none or
        it cannot be drawn (logged: the results go out all the same). Its log is replayed once, for
        this and for the replay animation that follows: the animation's frames are kept on the
        outcome (Outcome.frames)."""
        game = outcome.game
        try:
            actions = await self.store.actions(game.id)
            image, outcome.frames = await asyncio.to_thread(
                self.end_replay, engine, game, actions, outcome.state, names, locale
            )
        except Exception:
            log.exception("game %s: could not draw its statistics", game.id)
            return []
        return [image] if image else []

    @staticmethod
    def end_replay(
        engine: Engine, game: Game, actions: list[tuple[int, Action]], final: State, names: list[str], locale: str
    ) -> tuple[bytes | None, list[State] | None]:
        """A finished game's log replayed once (in a thread): its statistics image (None where the
        game draws none) and its animation's frames (None: the log does not replay whole today)."""
        played = export.replay_log(engine, game.options, len(game.seats), game.seed, actions, game.rules_version)
        if not played.whole:
            log.info("game %s: its log does not replay under today's rules: no statistics", game.id)
            return None, None
        stats = stats_of(engine, played.first, played.steps, final)
        image = None if stats is None else render_game_stats(stats, names, locale)
        return image, export.frames_of(engine, played.states)

    async def lines_already_out(
        self, game: Game, title: str, lines: list[str], per_version: list[int]
    ) -> tuple[int, bool, str | None, bool]:
        """How many of a catch-up's lines the thread shows already, whether the thread's last post
        says the game is over, its last line naming who is to play (if it has one) and whether it
        shows a board. A crash can fall after Discord
        took a post or a round post's edit and before its progress was written (behind): those
        versions' lines then end the thread, however the catch-up groups the versions (it may
        start in an older post than the newest, or add versions that said nothing in public). The
        game's recent posts are read in order (a post's last line, naming who is to play or saying
        the end, is not a move) and the most whole versions whose lines end them are out. A board
        without its lines only misses the match: it says its lines again, losing none. The newest
        post, if it is the bot's newest message in the thread, is adopted as the round's post, so the
        lines that follow go on in it. (Reading: a version whose lines repeat the lines just above
        exactly is taken as out; no game says the same public lines twice in a row.)"""
        posts, newest = await self._own_posts(game, title)
        if not posts:
            return 0, False, None, False
        locale = self.thread_locale(game)
        waiting_head = render(msg("Waiting for: {who}", who=""), locale).strip()
        said: list[str] = []
        ended, shown = False, None
        for i, message in enumerate(posts):
            content = message.content
            head, _, last = content.rpartition("\n")
            waiting = last.startswith(waiting_head)
            shown = last if waiting else None
            ended = last == render(msg("The game is over."), locale)
            if waiting or ended:
                content = head  # a post's last line names who is to play (or says the end), not a move
            said += content.split("\n")[1:]  # (its first line is the title)
            if newest and i == len(posts) - 1 and game.id not in self._round_posts:  # adopted: later lines go on in it
                self.remember_round_post(game.id, RoundPost(message, content.split("\n"), last if waiting else None))
        out = count = 0
        for n in per_version:
            count += n
            if n and count <= len(said) and said[len(said) - count :] == lines[:count]:
                out = count
        return out, ended, shown, bool(posts[-1].attachments)

    async def _own_posts(self, game: Game, title: str) -> tuple[list[discord.Message], bool]:
        """The game's posts (they start with `title`) among the thread's last messages, oldest first,
        and whether the newest of them is the bot's newest message there (nothing else it said came
        after, such as a notice): one read."""
        posts: list[discord.Message] = []
        newest = True
        try:
            channel = await self.channel(game.thread_id or game.channel_id)
            async for message in channel.history(limit=CATCH_UP_READ):
                if self.bot.user is None or message.author.id != self.bot.user.id:
                    continue
                if message.content.startswith(title):
                    posts.append(message)
                elif not posts:
                    newest = False
        except (discord.HTTPException, OSError, asyncio.TimeoutError) as err:
            log.info("game %s: could not read the thread before catching up (%s)", game.id, err)
            return [], False
        return posts[::-1], newest

    async def post(
        self,
        game: Game,
        content: Msg | str,
        images: list[bytes] = (),  # type: ignore[assignment]
        mention: list[int] | None = None,
        view: discord.ui.View | None = None,
        nonce: str | None = None,
    ) -> Sent:
        """A new message in the game's thread (or its channel). It ends the round's post: later
        lines go below it."""
        return (await self.send_post(game, content, images, mention, view, nonce))[0]

    async def send_post(
        self,
        game: Game,
        content: Msg | str,
        images: list[bytes] = (),  # type: ignore[assignment]
        mention: list[int] | None = None,
        view: discord.ui.View | None = None,
        nonce: str | None = None,
    ) -> tuple[Sent, discord.Message | None]:
        """`post`, and the message it made."""
        kwargs: dict[str, Any] = {
            "allowed_mentions": discord.AllowedMentions(
                users=[discord.Object(u) for u in (mention or [])], roles=False, everyone=False
            )
        }
        if images:
            kwargs["files"] = self.files(game, images)
        if view is not None:
            kwargs["view"] = view
        if nonce is not None:
            kwargs["nonce"] = nonce
        return await self.send_and_close(game, content, kwargs)

    async def post_file(self, game: Game, content: Msg | str, data: bytes, filename: str, part: str) -> Sent:
        """A new thread message with one file named `filename` (the game-end animation); `part`
        names it for its nonce, so a second try after a crash is kept once."""
        files = [discord.File(io.BytesIO(data), filename=filename)]
        return (await self.send_and_close(game, content, {"files": files, "nonce": _nonce(f"{game.id}:{part}")}))[0]

    async def send_and_close(
        self, game: Game, content: Msg | str, kwargs: dict[str, Any]
    ) -> tuple[Sent, discord.Message | None]:
        """A new thread message, and then the round's post before it closed: the new post (the move
        players wait to see) does not wait for that edit."""
        before = self._round_posts.pop(game.id, None)
        sent = await self._send(game, content, kwargs)
        await self.close_round_post(game, before)
        return sent

    async def file_out(self, game: Game, prefix: str) -> bool:
        """Whether one of the thread's last messages is the bot's with a file whose name starts with
        `prefix` (a catch-up's look whether a post with a file went out before the crash); one read."""
        try:
            channel = await self.channel(game.thread_id or game.channel_id)
            async for message in channel.history(limit=CATCH_UP_READ):
                if self.bot.user is not None and message.author.id == self.bot.user.id:
                    if any(a.filename.startswith(prefix) for a in message.attachments):
                        return True
        except (discord.HTTPException, OSError, asyncio.TimeoutError) as err:
            log.info("game %s: could not read the thread before catching up (%s)", game.id, err)
        return False

    def files(self, game: Game, images: list[bytes]) -> list[discord.File]:
        return [
            discord.File(
                io.BytesIO(data), filename=f"{game.kind}-{game.id}{f'-{i + 1}' if i else ''}.{extension(data)}"
            )
            for i, data in enumerate(images)
        ]

    async def _send(
        self, game: Game, content: Msg | str, kwargs: dict[str, Any]
    ) -> tuple[Sent, discord.Message | None]:
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        try:
            channel = await self.channel(game.thread_id or game.channel_id)
            message = await channel.send(clip(render(content, self.thread_locale(game))), **kwargs)
            return Sent.OUT, message
        except discord.HTTPException as err:
            log.warning("game %s: could not post in its thread (%s)", game.id, err)
            return sent_result(err), None
        except (OSError, asyncio.TimeoutError) as err:
            log.warning("game %s: could not reach Discord to post (%s)", game.id, err)
            return Sent.FAILED, None

    # -- private --------------------------------------------------------------------------------


def post_nonce(
    game_id: int,
    text: str,
    images: list[bytes] = (),  # type: ignore[assignment]
    mention: list[int] = (),  # type: ignore[assignment]
    version: int | None = None,
) -> str:
    """A thread post's nonce is what it shows (its text, images and pings) and the version its first
    line says, not the versions it covers: after a crash, a catch-up that posts the very same
    message, however it groups the versions, is kept once; a post that shows again what an earlier
    one showed (Discord keeps a nonce a few minutes) is a new post."""
    shown = [hashlib.blake2b(image, digest_size=8).hexdigest() for image in images]
    at = "" if version is None else f":v{version}"
    return _nonce(f"{game_id}:post{at}:{text}:{shown}:{sorted(mention)}")


def version_at(versions: list[int], line: int) -> int | None:
    """The version that says a post's `line`-th line (Outcome.line_versions); past them (a post's
    closing words), the last one."""
    return versions[min(line, len(versions) - 1)] if versions else None


def dm_nonce(game_id: int, seat: int, message: dict[str, Any]) -> str:
    """A DM's nonce is what it shows (text and buttons, which carry the menu's version): after a
    crash, resending the very same DM, whichever versions the resend covers, is kept once."""
    view = message.get("view")
    ids = [getattr(item, "custom_id", "") for item in view.children] if view is not None else []
    return _nonce(f"{game_id}:{seat}:{message['content']}:{ids}")


def _nonce(key: str) -> str:
    return str(int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big") >> 1)


def sent_result(err: discord.HTTPException) -> Sent:
    """Discord's 5xx and rate limits pass; any other refusal stays a refusal."""
    return Sent.FAILED if err.status >= 500 or err.status == 429 else Sent.REFUSED
