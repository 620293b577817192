"""Absent players. After the table's clock has run out three times on a seat (bot/reminders.py
escalates), the other players may vote to hand it to the automatic player; the majority of the
others who still play themselves decides. The automatic player then moves for that seat, through
the one commit path, whenever the game waits for it, and its owner takes it back with a button,
`/game back`, or simply by making a move.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.ai.search import decide
from bot.components import back_view, vote_view
from bot.delivery import Sent
from bot.errors import PlayerError, StaleButton
from bot.games.base import Engine, State
from bot.i18n import Msg, msg, render
from bot.store import Game, StaleVersion, StoreGone
from bot.table_api import TableServices
from bot.workers import Workers

log = logging.getLogger(__name__)

MAX_MOVES_AT_ONCE = 5000  # a table of absent players plays to the end; this only stops a loop
STAND_IN_LEVEL = "normal"  # how the AI plays an absent player's seat (an AI seat has its own level)


def duration(seconds: float) -> Msg:
    """A clock's length in words: whole days, hours or minutes."""
    minutes = max(1, round(seconds / 60))
    if minutes % 1440 == 0:
        return msg("{n} d", n=minutes // 1440)
    if minutes % 60 == 0 or minutes > 600:
        return msg("{n} h", n=round(minutes / 60))
    return msg("{n} min", n=minutes)


def voters_needed(game: Game, seat: int) -> int:
    """A majority of the other seats that people still play."""
    others = [s for s in game.seats if s.seat != seat and not s.auto]
    return len(others) // 2 + 1


class Thinker:
    """AI decisions off the event loop: at most `workers` searches at once, each in a worker
    process (started at the first decision), so the bot keeps answering while AI seats think."""

    def __init__(self, workers: int) -> None:
        self.workers = Workers(workers)  # a worker that died fails its decision; the next starts another

    async def decide(self, kind: str, state: State, seat: int, level: str, seed: int, own: bool) -> dict[str, Any]:
        return await self.workers.run(decide, kind, state, seat, level, seed, own)

    def close(self) -> None:
        self.workers.close()


class AutoPlayer:
    def __init__(self, table: TableServices, ai_workers: int = 1) -> None:
        self.table = table
        self.thinker = Thinker(ai_workers)
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()

    # -- moving -------------------------------------------------------------------------------

    def soon(self, game_id: int) -> None:
        """The game waits for a seat the automatic player holds: it moves (after the move that
        asked for it has been committed)."""
        task = self._tasks.get(game_id)
        if task is not None and not task.done():
            self._again.add(game_id)
            return
        self._tasks[game_id] = asyncio.create_task(self._play(game_id), name=f"auto-{game_id}")

    async def _play(self, game_id: int) -> None:
        try:
            for _ in range(MAX_MOVES_AT_ONCE):
                self._again.discard(game_id)
                if not await self._move_once(game_id) and game_id not in self._again:
                    return
            log.warning("game %s: the automatic player stopped after %s moves", game_id, MAX_MOVES_AT_ONCE)
        except StoreGone:
            pass  # the store said it once, in its log line; the seat moves after the restart
        except Exception:
            log.exception("game %s: the automatic player failed; the seat's reminders will try again", game_id)
        finally:
            self._tasks.pop(game_id, None)

    async def _move_once(self, game_id: int) -> bool:
        """One move for a waiting automatic seat; False when none waits."""
        game = await self.table.store.game(game_id)
        if game is None or game.status != "active" or game.snapshot is None:
            return False
        engine = self.table.engines[game.kind]
        waiting = [s for s in engine.to_act(game.snapshot) if game.seats[s].auto]
        if not waiting:
            return False
        seat = waiting[0]
        ai = game.seats[seat].ai
        # An absent player's seat: Pole's section-17 bot card takes the car, as the rules give.
        action = None if ai else engine.takeover_action(game.snapshot, seat)
        if action is None:  # (thinking outside the game's lock: moves of others go on meanwhile)
            try:
                action = await self.thinker.decide(
                    game.kind,
                    game.snapshot,
                    seat,
                    ai or STAND_IN_LEVEL,
                    game.seed ^ (game.version * 1000 + seat),
                    own=bool(ai),
                )
            except Exception:
                log.exception("game %s: the AI could not decide for seat %s; the automatic player moves", game_id, seat)
                action = engine.auto_action(game.snapshot, seat)
        thought_at = game.version

        def pick(engine: Engine, game: Game, state: State) -> dict[str, Any]:
            if not game.seats[seat].auto or seat not in engine.to_act(state) or game.version != thought_at:
                raise StaleButton()  # taken back, or moved, meanwhile: think again
            return action

        async with self.table.busy():
            try:
                outcome = await self.table.move_seat(game_id, lambda _: seat, pick)
            except (StaleButton, StaleVersion):
                return True  # something changed: look again
            except PlayerError as err:
                log.error(
                    "game %s: the engine refused its own automatic move for seat %s (%s)",
                    game_id,
                    seat,
                    render(err.args[0], "en"),
                )
                return False
            await outcome.announced()
        return True

    async def resume(self) -> None:
        """Start-up: games waiting for an automatic seat move on."""
        for game_id in await self.table.store.clocks.games_with_auto_seats():
            self.soon(game_id)

    # -- the vote -----------------------------------------------------------------------------

    async def call_vote(self, game: Game, seat: int, waited: float) -> None:
        """The seat has let the clock run out three times: the others may vote (pinged: they are
        the ones asked to act)."""
        table = self.table
        others = [s for s in game.seats if s.seat != seat and not s.auto]
        if not others:
            return
        absent = game.seats[seat]
        text = msg(
            "{name} has not moved in {title} for {time}. {others}: if a majority of you agree, the "
            "automatic player moves for {name} until they take their seat back ({n} vote(s) needed).",
            name=absent.name,
            title=table.title(game),
            time=duration(waited),
            others=[s.mention for s in others],
            n=voters_needed(game, seat),
        )
        await table.out.post(
            game,
            text,
            mention=[s.user_id for s in others],
            view=vote_view(game.id, seat, absent.prompt_version, table.out.thread_locale(game)),
        )

    async def vote(self, interaction: discord.Interaction, game_id: int, seat: int, version: int) -> None:
        table = self.table
        async with table.busy():
            await table.ack(interaction)
            try:
                async with table.lock(game_id):
                    game = await table.load(game_id)
                    engine = table.engines[game.kind]
                    voter = game.seat_of(interaction.user.id)
                    if not 0 <= seat < len(game.seats):
                        raise PlayerError(msg("That button or menu is not one of mine, or it is too old to use."))
                    absent = game.seats[seat]
                    if voter is None:
                        raise PlayerError(msg("Only the players of {title} can vote.", title=table.title(game)))
                    if voter == seat:
                        raise PlayerError(msg("That vote is about your own seat: just make your move."))
                    if game.seats[voter].auto:
                        raise PlayerError(msg("The automatic player holds your seat: take it back first."))
                    if absent.auto:
                        raise PlayerError(msg("The automatic player already moves for {name}.", name=absent.name))
                    assert game.snapshot is not None
                    if seat not in engine.to_act(game.snapshot) or absent.prompt_version != version:
                        raise PlayerError(msg("{name} has moved since: this vote is over.", name=absent.name))
                    if interaction.user.id in await table.store.clocks.votes(game_id, seat, version):
                        raise PlayerError(
                            msg(
                                "You have already voted; the vote needs {need} of the others.",
                                need=voters_needed(game, seat),
                            )
                        )
                    votes = await table.store.clocks.vote(game_id, seat, interaction.user.id, version)
                    need = voters_needed(game, seat)
                    passed = len(votes) >= need and await table.store.clocks.set_auto(game_id, seat, True)
            except PlayerError as err:
                await table.reply(interaction, err.args[0])
                return
            locale = table.out.thread_locale(game)
            if not passed:
                await table.reply(interaction, msg("Your vote is in ({n} of {need}).", n=len(votes), need=need))
                await self._edit_vote(
                    interaction,
                    render(
                        msg("{text}\nVotes: {n} of {need}.", text=_content(interaction), n=len(votes), need=need),
                        locale,
                    ),
                )
                return
            await self._edit_vote(
                interaction,
                render(
                    msg(
                        "The table voted: the automatic player moves for {name} until they take their seat back "
                        "(/game back).",
                        name=absent.name,
                    ),
                    locale,
                ),
                keep_button=False,
            )
            await table.out.dms.send_controls(
                game,
                seat,
                msg(
                    "The other players of {title} handed your seat to the automatic player while you were away: it "
                    "moves for you as soon as the game asks you. Play again whenever you like: press Take my seat "
                    "back, use /game back, or make a move with /{kind} play.",
                    title=table.title(game),
                    kind=game.kind,
                ),
                back_view(game_id, await table.out.user_locale(absent.user_id)),
            )
            self.soon(game_id)

    async def _edit_vote(self, interaction: discord.Interaction, content: str, keep_button: bool = True) -> None:
        try:
            if keep_button:
                await interaction.edit_original_response(content=content[:2000])
            else:
                await interaction.edit_original_response(content=content[:2000], view=None)
        except discord.HTTPException:
            log.warning("could not update a vote message", exc_info=True)

    # -- taking a seat back -------------------------------------------------------------------

    async def take_back(self, interaction: discord.Interaction, game_id: int) -> None:
        """The owner plays their seat again: by the hand-over DM's button, /game back, or any move
        they try while the automatic player holds it (Table.move). Their moves come back where they look: the hand-over
        DM (or a new DM) shows the current menu, and the thread hears it once."""
        table = self.table
        async with table.busy():
            await table.ack(interaction)
            in_dm = isinstance(interaction.channel, discord.DMChannel) and interaction.message is not None
            try:
                async with table.lock(game_id):
                    game = await table.load(game_id)
                    seat = game.seat_of(interaction.user.id)
                    if seat is None:
                        raise PlayerError(msg("You are not playing in {title}.", title=table.title(game)))
                    engine = table.engines[game.kind]
                    assert game.snapshot is not None
                    # An engine whose bot still drives the seat's car gives it back by a move of its own.
                    back = engine.return_action(game.snapshot, seat)
                    if not await table.store.clocks.set_auto(game_id, seat, False) and back is None:
                        if in_dm:  # an old hand-over notice: its button has done its work
                            await self._strip(interaction)
                        raise PlayerError(
                            msg(
                                "You already play your own seat in {title}: your newest DM has your moves.",
                                title=table.title(game),
                            )
                        )
                    if seat in engine.to_act(game.snapshot):  # their reminders start again from the first
                        await table.store.clocks.set_timers(
                            game_id,
                            "remind",
                            set(engine.to_act(game.snapshot)),
                            {seat: table.clock() + table.clock_of(game)},
                        )
                        table.timers_changed.set()
            except PlayerError as err:
                await table.reply(interaction, err.args[0])
                return
            if (
                in_dm
                and interaction.message is not None
                and table.out.dms.newest_controls(game_id, seat)
                != (interaction.message.channel.id, interaction.message.id)
            ):
                await self._strip(interaction)  # an older menu clicked: the newest controls show the moves
            if back is not None:
                await self._give_back(game_id, seat)
            await table.out.post(
                game, msg("{name} is back and plays their own seat again.", name=game.seats[seat].name)
            )
            game = await table.load(game_id, ("active", "finished"))
            assert game.snapshot is not None
            if (
                game.seats[seat].dm_ok
                and game.status == "active"
                and await table.out.dms.send_private(game, game.snapshot, seat, [], menu=None, refresh=True) is Sent.OUT
            ):
                await table.reply(interaction, msg("Your seat is yours again: your moves are in your newest DM."))
            else:
                await table.show_hand(interaction, game_id)

    async def _strip(self, interaction: discord.Interaction) -> None:
        """The clicked DM loses its controls."""
        try:
            await interaction.edit_original_response(view=None)
        except discord.HTTPException:
            pass

    async def _give_back(self, game_id: int, seat: int) -> None:
        """Commit the engine's move that gives the seat's car back (after the seat left the
        automatic player: nothing may move it back meanwhile)."""

        def pick(engine: Engine, game: Game, state: State) -> dict[str, Any]:
            action = engine.return_action(state, seat)
            if action is None:
                raise StaleButton()  # given back meanwhile
            return action

        try:
            outcome = await self.table.move_seat(game_id, lambda _: seat, pick)
        except (StaleButton, StaleVersion):
            return
        except PlayerError as err:
            log.error("game %s: the engine refused to give seat %s back (%s)", game_id, seat, render(err.args[0], "en"))
            return
        await outcome.announced()


def _content(interaction: discord.Interaction) -> str:
    """The vote message's text without an earlier count line."""
    text = interaction.message.content if interaction.message is not None else ""
    return text.split("\n")[0]
