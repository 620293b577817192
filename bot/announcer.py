"""Announcements: each committed version owes one (the thread post, the DMs) until it is out.

The move's own statement records it as owed (the store's outbox). Per game, announcements run in
commit order, each after the one before. What a crash left owed is queued at start-up, before the
gateway connects, so no click can overtake it; a few games are caught up at a time, and a game
with a live move goes first. A part Discord refuses for now is tried again later.

With shards across processes, a process catches up the games of its own shards only (the store's
filter), at start-up and then every SWEEP_SECONDS: the sweep finds what another process left owed
on one of our games and never said (it moved one of them from a DM, shard 0's, then died), and
what a process that ran our shards before us left. It takes only games unchanged for SWEEP_AGE
(a live announcement is out in seconds), so it does not race the process that is saying it; should
it ever overlap one, each part carries the same nonce both times and Discord keeps one copy.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, AsyncIterator, Callable, Coroutine

from bot.delivery import Delivery, Outcome, Sent
from bot.games.base import Engine
from bot.store import DamagedGame, Game, Owed, Store

log = logging.getLogger(__name__)

CATCH_UP_AT_ONCE = 1  # games caught up at once after a restart (each renders a board)
# Discord allows a bot about 50 requests a second in all; a catch-up costs a post and a few DMs, so
# it keeps to about half of that and leaves the rest (and the CPU) to live moves.
CATCH_UP_PER_SECOND = 5.0
RETRY_SECONDS = 60.0  # an announcement Discord failed for now is tried again after this
SWEEP_SECONDS = 60.0  # the owed rows of this process's shards are read again this often...
SWEEP_AGE = 60.0  # ...taking the games unchanged for this long


class Announcer:
    def __init__(
        self, store: Store, out: Delivery, engines: dict[str, Engine], report_damage: Callable[[int, Exception], None]
    ) -> None:
        self.store, self.out, self.engines, self.report_damage = store, out, engines, report_damage
        self._announcing: dict[int, asyncio.Task[None]] = {}  # game -> its latest announcement
        self._owed: dict[int, list[Owed]] = {}  # catch-up queue: game -> owed versions, oldest first
        self._owed_waiting = asyncio.Event()
        self._workers: list[asyncio.Task[None]] = []
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.sweep_seconds, self.sweep_age = SWEEP_SECONDS, SWEEP_AGE
        # Said once a game's final announcement is out (the replay animation), after it in the thread;
        # the final version stays owed until it is out (or cannot be: anything but Sent.FAILED).
        self.on_end: Callable[[Outcome], Coroutine[Any, Any, Sent]] | None = None
        # Said when a game's start (version 0) is caught up: a crash right after the start was stored
        # left its lobby post as it was (Join and Start live), which this brings up to date.
        self.on_start: Callable[[Game], Coroutine[Any, Any, None]] | None = None

    # -- shutdown --------------------------------------------------------------------------------

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

    # -- live moves ------------------------------------------------------------------------------

    def schedule(self, outcome: Outcome) -> Outcome:
        """Announce after the game's previous announcement, so posts and DMs keep the move order.
        Called under the game's lock, hence in commit order. A game still owing announcements
        from before a restart says those first."""
        gid = outcome.game.id
        owed = self._owed.pop(gid, None)
        if owed:
            self._chain(gid, self._catch_up(gid, owed))
        outcome.task = self._chain(gid, self._announce(outcome))
        return outcome

    def _chain(self, gid: int, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        before = self._announcing.get(gid)

        async def run() -> None:
            async with self.busy():
                if before is not None:
                    await asyncio.wait([before])
                await work

        task = asyncio.create_task(run(), name=f"announce-game-{gid}")
        self._announcing[gid] = task
        task.add_done_callback(
            lambda done: self._announcing.pop(gid, None) if self._announcing.get(gid) is done else None
        )
        return task

    async def settled(self, gid: int) -> None:
        """Wait until the game's announcements so far are out: a closing word (an abandon) must
        come after them, or a menu still being sent would keep its controls."""
        task = self._announcing.get(gid)
        if task is not None:
            await asyncio.wait([task])

    async def _announce(self, outcome: Outcome) -> None:
        gid = outcome.game.id
        try:
            if not await self.out.announce(outcome):
                self._try_again(outcome.game)
            elif self.on_end is not None and self.engines[outcome.game.kind].is_over(outcome.state):
                await self._owe_the_end(outcome)
            else:
                await self.store.settle(gid, outcome.versions or [outcome.game.version])
        except Exception:
            log.exception("game %s: announcement trouble; it stays owed", gid)

    async def _owe_the_end(self, outcome: Outcome) -> None:
        """A finished game's final announcement is out: its parts are recorded as out and its
        versions stay owed until the one post left, the replay animation (on_end), is out too, so a
        crash while it is drawn or posted leaves it to the catch-up (issue #35). The animation runs
        after the announcement in the game's chain: whoever awaits the final move's announcement
        does not wait for it."""
        gid, versions = outcome.game.id, outcome.versions or [outcome.game.version]
        for part in outcome.parts():
            await self.store.mark_sent(gid, versions, part)
        assert self.on_end is not None
        on_end = self.on_end

        async def end() -> None:
            try:
                result = await on_end(outcome)
            except Exception:
                log.exception("game %s: could not post its replay animation; it stays owed", gid)
                result = Sent.FAILED
            if result is Sent.FAILED:
                self._try_again(outcome.game)
            else:
                await self.store.settle(gid, versions)

        self._chain(gid, end())

    def _try_again(self, game: Game) -> None:
        """A part failed for now: the game's owed versions are caught up again in a while."""
        shards = self.store.shards
        if shards is None or shards.owns(game.guild_id):
            asyncio.get_running_loop().call_later(RETRY_SECONDS, self._retry, game.id)
        else:  # another process's game, moved here from a DM: its owner's sweep says the rest
            log.info("game %s: announcement incomplete; left to the process of its shard", game.id)

    def _retry(self, gid: int) -> None:
        async def requeue() -> None:
            try:
                owed = await self.store.owed(gid)
            except Exception:
                log.exception("game %s: could not read what it owes", gid)
                return
            if owed and gid not in self._owed:
                self._owed[gid] = owed
                self._owed_waiting.set()

        asyncio.create_task(requeue())

    # -- catching up -----------------------------------------------------------------------------

    async def _catch_up(self, gid: int, owed: list[Owed]) -> None:
        """Say what a crash (or a passing Discord failure) left unsaid, with the game as it is now."""
        try:
            queued = {o.version for o in owed}  # read again: parts may have gone out meanwhile
            owed = [o for o in await self.store.owed(gid) if o.version in queued]
            if not owed:
                return
            game = await self.store.game(gid)
        except DamagedGame as err:
            self.report_damage(gid, err)
            return
        if game is None or game.status == "abandoned" or game.snapshot is None:
            await self.store.settle(gid, [o.version for o in owed])
            return
        engine = self.engines[game.kind]
        log.info("game %s: announcing version(s) %s after a restart", gid, [o.version for o in owed])
        if self.on_start is not None and owed[0].version == 0:
            try:
                await self.on_start(game)
            except Exception:  # (the lobby post stays as it was: its first click heals it)
                log.exception("game %s: could not bring its lobby post up to date", gid)
        await self._announce(Outcome.owed(game, owed, engine.to_act(game.snapshot)))

    async def start_catch_up(self) -> None:
        """Queue everything owed before any interaction can arrive (call before the gateway
        connects), then work through it a few games at a time; live moves jump the queue."""
        for o in await self.store.owed():
            self._owed.setdefault(o.game_id, []).append(o)
        self._owed_waiting.set()
        self._workers = [
            asyncio.create_task(self._catch_up_worker(), name=f"catch-up-{i}") for i in range(CATCH_UP_AT_ONCE)
        ]
        self._workers.append(asyncio.create_task(self._sweep(), name="catch-up-sweep"))

    async def _sweep(self) -> None:
        """Every sweep_seconds, queue what this process's shards owe and nobody here is saying."""
        while True:
            await asyncio.sleep(self.sweep_seconds)
            try:
                found: dict[int, list[Owed]] = {}
                for o in await self.store.owed(older_than=time.time() - self.sweep_age):
                    if o.game_id not in self._announcing and o.game_id not in self._owed:
                        found.setdefault(o.game_id, []).append(o)
                if found:
                    log.info("catching up %d game(s) left owing announcements", len(found))
                    self._owed.update(found)
                    self._owed_waiting.set()
            except Exception:
                log.exception("could not read what the games owe; trying again later")

    def owed_queued(self) -> int:
        """Games whose catch-up has not started yet."""
        return len(self._owed)

    async def _catch_up_worker(self) -> None:
        while True:
            if not self._owed:
                self._owed_waiting.clear()
                await self._owed_waiting.wait()
                continue
            gid = next(iter(self._owed))
            owed = self._owed.pop(gid)
            started = asyncio.get_running_loop().time()
            try:
                await self._chain(gid, self._catch_up(gid, owed))
            except Exception:
                log.exception("game %s: catch-up failed", gid)
            await asyncio.sleep(max(0.0, 1 / CATCH_UP_PER_SECOND - (asyncio.get_running_loop().time() - started)))

    async def stop_catch_up(self) -> None:
        for task in self._workers:
            task.cancel()
        for task in self._workers:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._workers = []
