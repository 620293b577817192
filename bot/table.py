"""The table: the start of a game and the one commit path every move of every game takes (a
table's lobby, before the start, is bot/lobbies.py).

interaction -> acknowledge at once -> per-game lock -> load -> check the version the button or
command was made for -> engine.apply -> one SQLite statement (action, snapshot, version, who must
act and their reminders, the announcement owed) -> (bot/announcer.py, in order per game) render
the public view off the event loop -> a NEW message in the game's thread with the image, pinging
whoever must act -> DM each affected player their view. Discord failures after the commit never
roll back or corrupt the game; what a crash leaves unsaid stays owed and goes out after a restart.

The path runs one way: interaction -> table (a click or a command becomes a move: bot/picks.py)
-> engine -> store -> announcer -> delivery. The parts the table drives (the automatic player,
replays) use it through bot/table_api.py and never import it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from dataclasses import dataclass
from typing import Any, Callable, Collection

import discord

from bot import ratings, rules_pages
from bot.components import interaction_data, parse, rules_view, select_values
from bot.announcer import Announcer
from bot.autoplayer import AutoPlayer
from bot.delivery import Delivery, Outcome, Sent, clip, title_of
from bot.errors import HeldByAutomaticPlayer, PlayerError, StaleButton
from bot.games.base import Engine, Event, GameError, State
from bot.i18n import Msg, default_locale, locale_for, msg, render
from bot.lobbies import Lobbies, status_text
from bot.picks import OLD_HASH_LENGTH, TypedPick, button_pick, menu_hash
from bot.replay import REPLAYABLE, post_animation, show as show_replay
from bot.store import DamagedGame, Game, PromptUpdate, StaleVersion, Store, StoreGone
from rendering import Renderer

log = logging.getLogger(__name__)

# The answer while the database file is gone or replaced (Store.check_file said why in the log).
STORE_GONE = msg(
    "I cannot save moves right now: the file that holds the games was deleted or replaced while "
    "I ran. Your move was not made; the bot's admin must restart me."
)


@dataclass
class Commit:
    """A move ready to be written (Table.plan, then Table.commit)."""

    outcome: Outcome
    prompts: list[PromptUpdate]
    over: bool
    to_act: list[int]
    fresh: dict[int, float]


def new_decisions(engine: Engine, before: State | None, after: State, new_turn: bool = False) -> list[int]:
    """The seats `after` asks for a new decision: with a new turn (the spectator view's "turn": a
    new round, course...) every waiting seat; else each waiting seat that was not waiting `before`
    (None: the start), or whose decision the engine says changed. Each is told once (a new DM, or a
    ping where DMs are closed) and gets a reminder timer; a seat still in the same decision (a
    driver between two dice) is not told again, whatever its menu looks like (Pole's qualifying
    asks the same buttons twice)."""
    if engine.is_over(after):
        return []
    waiting = set(engine.to_act(before)) if before is not None else set()
    return sorted(
        s
        for s in engine.to_act(after)
        if new_turn or s not in waiting or engine.decision(before, s) != engine.decision(after, s)  # type: ignore[arg-type]
    )


class Table:
    """One process's table for every game: the commit path (a click or a command becomes a move,
    committed in one statement, then announced), the start of a game, replays, rules pages and
    abandoning. Its parts: `lobbies` (bot/lobbies.py), `announcer`, `autoplayer`, `out` (delivery)."""

    def __init__(
        self,
        bot: discord.Client,
        store: Store,
        engines: dict[str, Engine],
        reminder_seconds: float,
        clock: Callable[[], float] = time.time,
        ai_workers: int = 1,
    ) -> None:
        self.bot = bot
        self.store = store
        self.engines = engines
        self.reminder_seconds = reminder_seconds
        self.clock = clock
        self.out = Delivery(bot, store, engines)
        if store is not None:  # (a table built for its prompts alone has none: the bench's, tests')
            store.upgrade = self.upgrade  # every game loaded from here on: its snapshot as today's engine reads it
        self.timers_changed = asyncio.Event()
        # A game's lock lives while someone holds or awaits it: finished games leave nothing behind.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._damaged: set[int] = set()
        self._acking: dict[int, asyncio.Future[None]] = {}  # interaction id -> its acknowledgement on its way
        self.announcer = Announcer(store, self.out, engines, self.report_damage)
        self.announcer.on_end = lambda outcome: post_animation(self, outcome)
        self.lobbies = Lobbies(bot, self, self.start)
        self.announcer.on_start = self.lobbies.edit
        self.autoplayer = AutoPlayer(self, ai_workers)
        self.recovered = asyncio.Event()  # set when the start-up work is done (the bench waits on it)
        self._sweep: asyncio.Task[None] | None = None

    # -- helpers -------------------------------------------------------------------------------

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def upgrade(self, kind: str, state: State) -> State:
        """A loaded snapshot brought up to today's form by its engine (`Engine.upgrade`: a state saved
        by older code), once per load; a game of a kind no longer registered is left as it is."""
        engine = self.engines.get(kind)
        return state if engine is None else engine.upgrade(state)

    def title(self, game: Game) -> Msg:
        return title_of(self.engines[game.kind], game)

    def renderer(self, kind: str) -> Renderer:
        return self.out.renderer(kind)

    def busy(self) -> contextlib.AbstractAsyncContextManager[None]:
        """Marks work that must not be cut off by a shutdown (a move and its announcements)."""
        return self.announcer.busy()

    async def drain(self, timeout: float = 15.0) -> None:
        await self.announcer.drain(timeout)

    def owed_queued(self) -> int:
        return self.announcer.owed_queued()

    async def ack(self, interaction: discord.Interaction, ephemeral: bool = True) -> None:
        """Acknowledge within Discord's 3 s, before any slow work; every interaction also tells the
        bot its user's language (a player who only clicks Join still gets DMs in their own)."""
        self.audience(interaction)
        await self.acked(interaction)
        await self._defer(interaction, ephemeral)

    async def _defer(self, interaction: discord.Interaction, ephemeral: bool = True) -> None:
        if not interaction.response.is_done():
            if interaction.type == discord.InteractionType.component:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=ephemeral, thinking=True)

    async def ack_now(self, interaction: discord.Interaction) -> None:
        """Send the acknowledgement and go on without waiting for Discord's answer: the move is
        planned, written and its board drawn meanwhile, a round trip sooner. Whatever answers the
        interaction later waits for it first (`ack`, `reply`, `acked`)."""
        self.audience(interaction)
        if interaction.id not in self._acking:
            self._acking[interaction.id] = asyncio.ensure_future(self._defer(interaction))
            await asyncio.sleep(0)  # the request goes out now, not after the move's planning

    async def acked(self, interaction: discord.Interaction) -> None:
        """Wait for an acknowledgement `ack_now` sent; at once if none is on its way. One Discord
        refused (the click came too late) is logged: the move it carried stands all the same."""
        pending = self._acking.pop(interaction.id, None)
        if pending is not None:
            try:
                await pending
            except discord.HTTPException:
                log.warning("could not acknowledge an interaction", exc_info=True)

    def audience(self, interaction: discord.Interaction) -> str:
        """The language of whoever clicked or typed (their Discord client's), remembered for the
        DMs they get later."""
        locale = locale_for(str(interaction.locale)) or default_locale()
        self.out.remember_locale(interaction.user.id, locale)
        return locale

    async def reply(self, interaction: discord.Interaction, content: Msg | str, **kwargs: Any) -> None:
        """The private answer to whoever clicked or typed, in their language."""
        await self.acked(interaction)
        try:
            await interaction.followup.send(clip(render(content, self.audience(interaction))), ephemeral=True, **kwargs)
        except discord.HTTPException:
            log.warning("could not answer an interaction", exc_info=True)

    async def find(self, game_id: int) -> Game | None:
        """The game, or None; a damaged one is reported (once) and answered as such."""
        try:
            return await self.store.game(game_id)
        except DamagedGame as err:
            self.report_damage(game_id, err)
            raise PlayerError(
                msg(
                    "The saved data of game #{id} is damaged, so it cannot go on. The bot's "
                    "admin will find the details in the log.",
                    id=game_id,
                )
            ) from None

    async def load(self, game_id: int, status: tuple[str, ...] = ("active",)) -> Game:
        game = await self.find(game_id)
        if game is None:
            raise PlayerError(msg("There is no game #{id}.", id=game_id))
        if game.status not in status:
            raise PlayerError(status_text(self.title(game), game.status))
        return game

    def prompts(
        self,
        engine: Engine,
        game: Game,
        state: State,
        force: bool = False,
        actor: int | None = None,
        menus: dict[int, list[dict[str, Any]]] | None = None,
        decided: Collection[int] = (),
    ) -> list[PromptUpdate]:
        """Seats whose menu changed, the seat that moved, and the seats `decided` (starting a new
        decision, whatever their menu looks like): their buttons get the new version and older
        ones turn stale (so the same click or command twice is one move). Each seat's menu goes
        to `menus` if given (the DMs use them)."""
        updates = []
        for s in game.seats:
            menu = engine.menu(state, s.seat)
            if menus is not None:
                menus[s.seat] = menu
            h = menu_hash(menu, like=s.prompt_hash)
            if force or h != s.prompt_hash or s.seat == actor or s.seat in decided:
                updates.append(PromptUpdate(s.seat, h if len(h) != OLD_HASH_LENGTH else menu_hash(menu)))
        return updates

    def schedule_announce(self, outcome: Outcome) -> Outcome:
        return self.announcer.schedule(outcome)

    def report_damage(self, gid: int, err: Exception) -> None:
        """A game whose rows cannot be read: said once in the log; other games go on."""
        if gid not in self._damaged:
            self._damaged.add(gid)
            log.error("%s. The other games are not affected; restore this one from a backup.", err)

    # -- lobby ---------------------------------------------------------------------------------

    async def start(self, interaction: discord.Interaction, game: Game) -> Outcome:
        """Called under the game's lock. After store.start the game exists: nothing may fail it."""
        engine = self.engines[game.kind]
        if interaction.user.id != game.creator_id:
            raise PlayerError(msg("Only the creator can start this table."))
        if len(game.seats) < engine.min_seats:
            raise PlayerError(msg("{title} needs at least {n} players.", title=msg(engine.title), n=engine.min_seats))
        try:  # options that depend on the player count (Heat's Legends) are checked at the start
            state = engine.new_game(game.options, len(game.seats), game.seed)
        except GameError as err:
            raise PlayerError(err.args[0]) from None
        thread_id = await self.out.open_thread(game)
        begins = Outcome(
            game,
            state,
            [Event(msg("The game begins!"))],
            [s.seat for s in game.seats],
            versions=[0],
            decided=new_decisions(engine, None, state),
        )
        to_act, fresh = self.reminders(engine, game, state, [s.seat for s in game.seats])
        if not await self.store.start(
            game.id, thread_id, state, self.prompts(engine, game, state, force=True), begins.to_json(), to_act, fresh
        ):
            raise PlayerError(msg("This table has already started."))
        self.timers_changed.set()
        game = await self.load(game.id)
        try:
            await self.lobbies.edit(game)
            await self.out.check_dms(game)
            game = await self.load(game.id)  # dm_ok as the check left it
        except Exception:
            log.exception("game %s: trouble after the start; the game goes on", game.id)
        begins.game = game
        if any(game.seats[s].auto for s in engine.to_act(state)):
            self.autoplayer.soon(game.id)  # an AI seat moves first
        return self.schedule_announce(begins)

    # -- the commit path -----------------------------------------------------------------------

    async def route_component(self, interaction: discord.Interaction) -> None:
        """Every button and select click comes here; each one gets an answer."""
        data = interaction_data(interaction)
        click = parse(data.get("custom_id"), data.get("component_type"))
        values = select_values(data) if click is not None and click.what == "select" else None
        if click is None or (click.what == "select" and values is None):
            async with self.busy():
                await self.ack(interaction)
                await self.reply(interaction, msg("That button or menu is not one of mine, or it is too old to use."))
            return
        if click.what == "lobby":
            await self.lobbies.action(interaction, click.game_id, click.lobby_action)
        elif click.what == "hand":
            await self.show_hand(interaction, click.game_id)
        elif click.what == "vote":
            await self.autoplayer.vote(interaction, click.game_id, click.seat, click.version)
        elif click.what == "back":
            await self.autoplayer.take_back(interaction, click.game_id)
        elif click.what == "replay":
            await self.replay(interaction, click.game_id, click.index, edit=True)
        elif click.what == "rules":
            await self.rules(interaction, click.kind, click.index, edit=True)
        else:
            await self.component_move(
                interaction,
                click.game_id,
                click.version,
                click.seat,
                "buttons" if click.what == "button" else "select",
                click.index,
                values,
            )

    async def component_move(
        self,
        interaction: discord.Interaction,
        game_id: int,
        version: int,
        seat: int,
        kind: str,
        index: int,
        values: list[str] | None,
    ) -> None:
        pick = button_pick(interaction.user.id, version, seat, kind, index, values)
        in_dm = isinstance(interaction.channel, discord.DMChannel) and interaction.message is not None
        # A move from a DM: the player's new view replaces that DM (no new message for their own move).
        here = (interaction.channel.id, interaction.message.id) if in_dm else None  # type: ignore[union-attr]
        async with self.busy():
            await self.ack_now(interaction)
            try:
                outcome = await self.move(interaction, game_id, pick, actor_dm=here)
            finally:
                await self.acked(interaction)
            if outcome is None:
                return
            await outcome.announced()
            if not in_dm or not outcome.mover.dm_ok:
                await self.show_hand(interaction, game_id)  # moved from "My hand": refresh it there

    async def command_move(self, interaction: discord.Interaction, game_id: int, move: str) -> None:
        """`/<game> play move:`: a pick from the autocomplete list (which carries the seat's prompt
        version, so it is refused like a stale button once the seat's menu or its own move has
        moved on), or a move's label typed in full, in the player's language (judged against the
        game as it is now)."""
        pick = TypedPick(move, interaction.user.id, self.audience(interaction))
        async with self.busy():
            await self.ack_now(interaction)
            try:
                outcome = await self.move(interaction, game_id, pick)
            finally:
                await self.acked(interaction)
            if outcome is None:
                return
            if pick.label is None:  # the engine's own player held the seat: the move took it back, the pick waits
                await self.reply(
                    interaction, msg("Your seat is yours again; the board has moved on, so choose your move anew.")
                )
            else:
                await self.reply(interaction, msg("Done: {label}", label=pick.label))
            await outcome.announced()
            if not outcome.mover.dm_ok:
                await self.show_hand(interaction, game_id)

    def plan(
        self, engine: Engine, game: Game, seat: int, state: State, new_state: State, events: list[Event]
    ) -> Commit:
        """What a move writes: the seats whose menu changed, who must act and their reminders, and
        the announcement it owes (its board post's drawing started: bot/delivery.py draw_early).
        `commit` writes it."""
        menus: dict[int, list[dict[str, Any]]] = {}
        over = engine.is_over(new_state)
        # The board image goes with a new turn (the view's "turn") and with the end; moves inside a
        # turn post their log lines only.
        after = engine.view(new_state, None)
        new_turn = engine.view(state, None).get("turn") != after.get("turn")
        board = over or new_turn
        # The board post is drawn meanwhile: its image is most of the way from a move to its post.
        drawing = self.out.draw_early(game, engine, new_state, after) if board else None
        decided = new_decisions(engine, state, new_state, new_turn)
        prompts = self.prompts(engine, game, new_state, actor=seat, menus=menus, decided=decided)
        asked = [p.seat for p in prompts if not game.seats[p.seat].auto]  # the automatic player reads no DMs
        outcome = Outcome(
            game,
            new_state,
            events,
            asked,
            board,
            actor=seat,
            versions=[game.version + 1],
            menus=menus,
            decided=[s for s in decided if not game.seats[s].auto],
            view=after,
            drawing=drawing,
        )
        # The clock starts again for a new decision, and for the mover still deciding in its own turn.
        to_act, fresh = self.reminders(engine, game, new_state, [*decided, seat])
        return Commit(outcome, prompts, over, to_act, fresh)

    async def commit(self, seat: int, action: dict[str, Any], plan: Commit) -> Outcome:
        """A move's database work (the bench times exactly this): one statement writes the plan;
        the plan's game is brought up to date. Raises StaleVersion if the game moved meanwhile."""
        game, new_state = plan.outcome.game, plan.outcome.state
        version = await self.store.commit_move(
            game.id,
            game.version,
            seat,
            action,
            new_state,
            plan.over,
            plan.prompts,
            plan.outcome.to_json(),
            plan.to_act,
            plan.fresh,
        )
        self.timers_changed.set()
        # Committed: from here on nothing may tell the player the move failed.
        game.version, game.snapshot, game.status = version, new_state, "finished" if plan.over else "active"
        for p in plan.prompts:
            game.seats[p.seat].prompt_version, game.seats[p.seat].prompt_hash = version, p.prompt_hash
        if any(game.seats[s].auto for s in plan.to_act):
            self.autoplayer.soon(game.id)
        if plan.over:
            try:  # a finished game's log is packed away (replay reads it back)
                await self.store.archive(game.id)
            except Exception:
                log.exception("game %s: could not archive its log", game.id)
            try:  # and rated (bot/ratings.py; what fails here start-up rates again)
                await ratings.record(self.store, self.engines[game.kind], game)
            except Exception:
                log.exception("game %s: could not rate it", game.id)
        return plan.outcome

    async def move(
        self,
        interaction: discord.Interaction,
        game_id: int,
        pick: Callable[[Engine, Game, State], dict[str, Any]],
        actor_dm: tuple[int, int] | None = None,
    ) -> Outcome | None:
        """The one commit path, for a player's click or command. Returns the committed move's
        Outcome, whose announcement is already scheduled (await outcome.announced()), or None when
        nothing changed (the player was told why)."""
        try:
            return await self.move_seat(
                game_id, lambda game: game.seat_of(interaction.user.id), pick, taken_back=True, actor_dm=actor_dm
            )
        except HeldByAutomaticPlayer:
            await self.autoplayer.take_back(interaction, game_id)
        except StaleButton:
            if isinstance(interaction.channel, discord.DMChannel):
                # In the DMs the newest message already shows the current moves: no second copy.
                await self.reply(
                    interaction,
                    msg(
                        "The board has moved on since that button was made: your "
                        "newest message here has your moves now."
                    ),
                )
            else:
                await self.reply(
                    interaction,
                    msg("The board has moved on since that button was made. Here is where things stand now."),
                )
                await self.show_hand(interaction, game_id)
        except PlayerError as err:
            await self.reply(interaction, err.args[0])
        except StaleVersion:
            await self.reply(interaction, msg("Someone moved at the same moment; please try again."))
        except StoreGone:
            await self.reply(interaction, STORE_GONE)
        except Exception:
            log.exception("game %s: unexpected error while moving", game_id)
            await self.reply(interaction, msg("Sorry, something went wrong. The game was not changed."))
        return None

    async def move_seat(
        self,
        game_id: int,
        seat_of: Callable[[Game], int | None],
        pick: Callable[[Engine, Game, State], dict[str, Any]],
        taken_back: bool = False,
        actor_dm: tuple[int, int] | None = None,
    ) -> Outcome:
        """Load, pick, apply and commit under the game's lock (raises PlayerError, StaleButton,
        StaleVersion when nothing changed). A person moving a seat the automatic player holds
        takes it back (`taken_back`)."""
        async with self.lock(game_id):
            try:
                return await self._move_once(game_id, seat_of, pick, taken_back, actor_dm)
            except StaleVersion:
                # The store's kept copy was behind: another process moved this game (a DM click
                # served by shard 0, a handover). The copy is dropped: judge the pick once more
                # against the game as it is now; a second refusal is a real race.
                return await self._move_once(game_id, seat_of, pick, taken_back, actor_dm)

    async def _move_once(
        self,
        game_id: int,
        seat_of: Callable[[Game], int | None],
        pick: Callable[[Engine, Game, State], dict[str, Any]],
        taken_back: bool,
        actor_dm: tuple[int, int] | None,
    ) -> Outcome:
        """One try of `move_seat` (under the game's lock)."""
        game = await self.load(game_id)
        engine = self.engines[game.kind]
        state = game.snapshot
        assert state is not None
        seat = seat_of(game)
        # A player moving a seat the engine's own player holds (a takeover) first takes it back:
        # that is this commit; the board moved on, so their pick is not judged. (Not only while the
        # seat is automatic: a crash may fall between a give-back's two writes.)
        back = engine.return_action(state, seat) if taken_back and seat is not None else None
        try:
            action = back if back is not None else pick(engine, game, state)
        except (StaleButton, PlayerError):
            if taken_back and seat is not None and game.seats[seat].auto:
                raise HeldByAutomaticPlayer() from None  # the owner is here: any try of theirs takes it back
            raise
        assert seat is not None  # (pick refuses a player without a seat)
        try:
            new_state, events = engine.apply(state, seat, action)
        except GameError as err:
            raise PlayerError(err.args[0]) from None
        if taken_back and game.seats[seat].auto:
            await self.store.clocks.set_auto(game_id, seat, False)
            game.seats[seat].auto = False
            events = [Event(msg("{name} is back and plays their own seat again.", name=game.seats[seat].name)), *events]
        plan = self.plan(engine, game, seat, state, new_state, events)
        plan.outcome.actor_dm = actor_dm
        return self.schedule_announce(await self.commit(seat, action, plan))

    def clock_of(self, game: Game) -> float:
        """Seconds between reminders at this table: its own clock, else the bot's interval."""
        return game.clock or self.reminder_seconds

    def reminders(
        self, engine: Engine, game: Game, state: State, changed: list[int]
    ) -> tuple[list[int], dict[int, float]]:
        """Who must act, and the reminder times to set (written with the move): each waiting seat
        in `changed` (a new decision, or the mover still in its turn) gets its first reminder after
        the table's clock (later ones escalate, see bot/reminders.py); a seat still deciding keeps
        its timer; a seat with nothing to decide loses it."""
        waiting = [] if engine.is_over(state) else sorted(engine.to_act(state))
        return waiting, {seat: self.clock() + self.clock_of(game) for seat in waiting if seat in changed}

    # -- private views, abandoning, recovery ---------------------------------------------------

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        """The caller's private view and menu, visible only to them (the fallback for closed DMs)."""
        await self.ack(interaction)
        try:
            game = await self.load(game_id, ("active", "finished"))
            seat = game.seat_of(interaction.user.id)
            if seat is None:
                raise PlayerError(msg("You are not playing in {title}.", title=self.title(game)))
            assert game.snapshot is not None
            message = await self.out.dms.private_message(
                game, game.snapshot, seat, [], self.audience(interaction), always=True
            )
            await self.reply(interaction, **message)
            if not game.seats[seat].dm_ok and game.status == "active":
                # They may have opened their DMs since: one short probe, and DMs resume if it works.
                if (
                    await self.out.dms.send(
                        game,
                        interaction.user.id,
                        msg(
                            "I can reach you here again: your hand and moves for {title} will arrive here.",
                            title=self.title(game),
                        ),
                    )
                    is Sent.OUT
                ):
                    await self.store.set_dm_ok(game.id, interaction.user.id, True)
        except PlayerError as err:
            await self.reply(interaction, err.args[0])

    async def rules(self, interaction: discord.Interaction, kind: str, page: int | None, edit: bool) -> None:
        """A page of a game's rules, only for whoever asks, with Previous / Next (which hold only the
        game and the page, so they work after a restart too)."""
        await self.ack(interaction)
        locale = self.audience(interaction)
        sections = rules_pages.pages(kind, locale) if kind in self.engines else ()
        try:
            text, number = rules_pages.page_text(kind, sections, page)
        except PlayerError as err:
            await self.reply(interaction, err.args[0])
            return
        content = clip(render(text, locale))
        view = rules_view(kind, number, len(sections), locale)
        try:
            if edit:
                await interaction.edit_original_response(content=content, view=view)
            else:
                await interaction.followup.send(content, view=view, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not show a rules page", exc_info=True)

    async def replay(self, interaction: discord.Interaction, game_id: int, board: int | None, edit: bool) -> None:
        """A finished game's boards, one at a time, for whoever asks (bot/replay.py)."""
        await self.ack(interaction)
        try:
            game = await self.load(game_id, REPLAYABLE + ("active",))
        except PlayerError as err:
            await self.reply(interaction, err.args[0])
            return
        await show_replay(self, interaction, game, board, edit)

    async def abandon(self, interaction: discord.Interaction, game: Game) -> None:
        """Close a lobby or a running game for good (the caller's rights are checked by the cog)."""
        async with self.lock(game.id):
            if not await self.store.set_status(game.id, "abandoned"):
                raise PlayerError(msg("That game has already ended."))
        await self.announcer.settled(game.id)
        game = await self.load(game.id, ("abandoned",))
        await self.lobbies.edit(game)
        text = msg("{title} was abandoned by {user}.", title=self.title(game), user=interaction.user.display_name)
        others = [s for s in game.seats if s.user_id != interaction.user.id]
        await self.out.dms.retire_controls(game.id)
        if game.thread_id:  # every other player hears it once: by DM, or pinged here if their DMs are closed
            await self.out.post(game, text, mention=[s.user_id for s in others if not s.dm_ok])
            for seat in others:
                if seat.dm_ok:
                    await self.out.dms.send(game, seat.user_id, text)
        await self.reply(interaction, text)

    async def recover(self) -> None:
        """Start-up work, done before the gateway connects (the owed announcements are queued by
        Announcer.start_catch_up): every seat that is waiting to move gets a reminder timer if it
        lost its own; then, in the background, lobby posts a crash left unrecorded are found."""
        for gid in await self.store.games_without_to_act():  # once, for games from before migration 5
            try:
                game = await self.store.game(gid)
            except DamagedGame as err:
                self.report_damage(gid, err)
                continue
            if game is not None and game.snapshot is not None:
                await self.store.set_to_act(gid, self.engines[game.kind].to_act(game.snapshot))
        await self.store.clocks.restore_timers(self.clock() + self.reminder_seconds)
        self.timers_changed.set()
        self.recovered.set()
        self._sweep = asyncio.create_task(self.lobbies.find_posts(), name="lobby-sweep")
        await self.autoplayer.resume()
