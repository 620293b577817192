"""One game as its players live it: `/<game> new` in the table's own channel, Join clicks, the
creator's Start, then every player on their own until the game is over. Kills at chosen points
(right after /new, while Start opens the thread) are asked of the kill plan here."""

from __future__ import annotations

import asyncio
import json
import time
import zlib
from typing import Any, Optional

from bot.tools.emulator.errors import EmulatorError

from .common import Context, live_components, newest, progress, sleep_until
from .players import Player

SEAT_WAIT = 30.0  # seconds the players of a table keep clicking Join (a restart or a loaded machine is slow)


class TableFailed(Exception):
    pass


def lobby_buttons(m: Any) -> bool:
    return live_components(m) and any(b.get("label") in ("Join", "Start") and not b.get("disabled") for b in m.buttons)


class Table:
    def __init__(
        self, ctx: Context, number: int, kind: str, users: list[Any], closed: set[int], styles: list[str]
    ) -> None:
        self.ctx, self.number, self.kind, self.users, self.closed = ctx, number, kind, users, closed
        self.emu = ctx.emu
        self.channel = ctx.channels[number]
        self.players = [Player(self, u, style, u.id not in closed) for u, style in zip(users, styles)]
        self.game_id: Optional[int] = None
        self.over = False
        self.started = False
        self.last_change = time.monotonic()
        self.version = -1
        self._seats: dict[int, int] = {}
        # seat -> since when the game waits for it without a decision of its own (monotonic time)
        self.waiting_since: dict[int, float] = {}

    # -- what the driver reads ------------------------------------------------------------------

    def live_lobby(self) -> Optional[Any]:
        return newest(self.ctx.index.messages(self.channel.id), lobby_buttons)

    def play_channel(self) -> Any:
        """The game's thread once the bot has opened one (the newest with posts), else the channel."""
        for th in reversed(self.emu.threads(self.channel)):
            if self.ctx.index.messages(th.id):
                return th
        return self.channel

    def probe(self, user: Any) -> Optional[tuple[int, int, int]]:
        """(game id, the user's seat, the game's version) from the bot's database."""
        if self.game_id is None:
            return None
        if not self._seats:
            self._seats = {u: s for s, u, _ in self.ctx.db.seats(self.game_id)}
        seat = self._seats.get(user.id)
        return None if seat is None else (self.game_id, seat, self.ctx.db.version(self.game_id))

    def refresh(self) -> None:
        """Follow the game's status, version and the seats it waits for in the database (called by
        the campaign's watcher). A seat's wait starts when the game begins to wait for it and
        starts again with each decision of its own (a preference is no decision)."""
        if self.game_id is None:
            return
        status, version, to_act = self.ctx.db.to_act(self.game_id)
        if not status:
            return
        now = time.monotonic()
        if version != self.version:
            acted = {
                seat
                for _, seat, a in self.ctx.db.actions(self.game_id, self.version)
                if json.loads(a).get("type") != "prefs"
            }
            self.version, self.last_change = version, now
            for seat in acted:
                self.waiting_since.pop(seat, None)
        waiting = set(to_act) if status == "active" else set()
        for seat in list(self.waiting_since):
            if seat not in waiting:
                del self.waiting_since[seat]
        for seat in waiting:
            self.waiting_since.setdefault(seat, now)
        if status in ("finished", "abandoned") and not self.over:
            self.over = True
            progress(f"table {self.number} ({self.kind} #{self.game_id}) {status} at version {version}")

    def stuck(self, now: float, since: float, stall: float) -> list[int]:
        """Seats the game has waited for, for `stall` seconds counted from no earlier than `since`
        (the last kill), without a decision of theirs: one stuck seat stalls the game however
        often the others re-submit. A game waiting for no one stalls when its version stands still."""
        if not self.started or self.over:
            return []
        seats = sorted(s for s, t in self.waiting_since.items() if now - max(t, since) >= stall)
        if not self.waiting_since and now - max(self.last_change, since) >= stall:
            return [-1]
        return seats

    def describe(self) -> str:
        """One line per player: what they see and how often they tried it (for a stalled game)."""
        rows = self.ctx.db.query("SELECT snapshot FROM games WHERE id = ?", (self.game_id,))
        waiting: Any = "?"
        if rows and rows[0][0]:
            from bot.games.registry import engines

            snap = rows[0][0]
            waiting = engines()[self.kind].to_act(
                json.loads(zlib.decompress(snap) if isinstance(snap, bytes) else snap)
            )
        out = [f"  waiting for seats {waiting}"]
        for p in self.players:
            m = newest(p.visible(), live_components) or newest(p.visible())
            what = (
                "nothing"
                if m is None
                else (
                    f"#{m.id} tries={p.tries[m.menu_key]} {m.content[-80:]!r} "
                    f"buttons={m.button_labels} "
                    f"selects={[x.get('placeholder') for x in m.selects]}"
                )
            )
            out.append(f"  {p.user.name} ({p.style}, dm={'open' if p.dm_open else 'closed'}): {what}")
        return "\n".join(out)

    # -- opening and starting -------------------------------------------------------------------

    async def open(self) -> Any:
        creator = self.users[0]
        options = {}
        if self.kind in self.ctx.choices:
            name, values = self.ctx.choices[self.kind]
            options[name] = self.ctx.rnd.choice(values)
        for _ in range(8):
            lobby = self.live_lobby()
            if lobby is not None:
                return lobby
            task = asyncio.ensure_future(self.emu.slash(creator, self.channel, self.kind, "new", **options))
            await asyncio.sleep(self.ctx.rnd.uniform(0.0, 0.15))
            await self.ctx.killplan.maybe("after-new", 0.4, eager=True)
            try:
                await task
            except EmulatorError:
                pass
            lobby = await sleep_until(self.live_lobby, 4.0, 0.01)
            if lobby is not None:
                if await self.ctx.killplan.maybe("lobby-post", 0.4, eager=True):  # right after the lobby appears
                    await self.ctx.botctl.ensure_up()
                    continue  # the lobby may be gone or dead: look again
                return lobby
            await self.ctx.botctl.ensure_up()
        raise TableFailed(f"table {self.number}: no lobby after /{self.kind} new")

    def lobby_game(self, lobby: Any) -> Optional[int]:
        rows = self.ctx.db.query("SELECT id FROM games WHERE lobby_message_id = ?", (lobby.id,))
        if rows:
            return rows[0][0]
        rows = self.ctx.db.query(
            "SELECT id FROM games WHERE channel_id = ? AND status = 'lobby' ORDER BY id DESC LIMIT 1",
            (self.channel.id,),
        )
        return rows[0][0] if rows else None

    def missing_seats(self, lobby: Any) -> list[Any]:
        """The table's players not yet seated in the lobby's game (all of them while it has none)."""
        gid = self.lobby_game(lobby)
        if gid is None:
            return list(self.users[1:])
        seated = {r[0] for r in self.ctx.db.query("SELECT user_id FROM seats WHERE game_id = ?", (gid,))}
        return [u for u in self.users[1:] if u.id not in seated]

    async def seat_everyone(self, lobby: Any) -> None:
        """Every player clicks Join until seated. Bounded by time, not by tries: on a loaded machine
        the bot's answers take longer (6 tries 0.2 s apart left a PON table unseated, issue #29)."""
        deadline = time.monotonic() + SEAT_WAIT
        while missing := self.missing_seats(lobby):
            if time.monotonic() >= deadline:
                raise TableFailed(f"table {self.number}: could not seat everyone in {SEAT_WAIT:.0f} s")
            for user in missing:
                try:
                    await self.emu.click(user, lobby, label="Join")
                except EmulatorError:
                    lobby = self.live_lobby() or lobby
            await sleep_until(lambda: not self.missing_seats(lobby), 2.0, 0.1)
            await self.ctx.botctl.ensure_up()

    def started_game(self) -> Optional[int]:
        rows = self.ctx.db.query(
            "SELECT id FROM games WHERE channel_id = ? AND status IN ('active', 'finished') ORDER BY id DESC LIMIT 1",
            (self.channel.id,),
        )
        return rows[0][0] if rows else None

    async def start(self) -> None:
        creator = self.users[0]
        for _ in range(8):
            if (gid := self.started_game()) is not None:
                self.game_id, self.started = gid, True
                return
            lobby = self.live_lobby()
            if lobby is None:
                await sleep_until(lambda: self.started_game() or self.live_lobby(), 3.0, 0.2)
                continue
            await self.seat_everyone(lobby)
            threads = len(self.emu.threads(self.channel))
            task = asyncio.ensure_future(self.emu.click(creator, lobby, label="Start"))
            if self.ctx.killplan.due(eager=True) and self.ctx.rnd.random() < 0.5:
                # right after the click, while the bot is opening the game's thread
                await sleep_until(lambda: len(self.emu.threads(self.channel)) > threads, 3.0, 0.005)
                await self.ctx.killplan.maybe("start-thread", 1.0, eager=True)
            # right after the game is stored as started, before its first post and DMs are out
            if await sleep_until(self.started_game, 6.0, 0.01) is not None:
                await self.ctx.killplan.maybe("after-start", 0.4, eager=True)
            try:
                await task
            except EmulatorError:
                pass
            await self.ctx.botctl.ensure_up()
        raise TableFailed(f"table {self.number}: the game did not start")

    # -- the whole table ------------------------------------------------------------------------

    async def run(self) -> None:
        lobby = await self.open()
        await self.seat_everyone(lobby)
        await self.start()
        progress(f"table {self.number}: {self.kind} #{self.game_id} started with {len(self.users)} players")
        self.refresh()
        await asyncio.gather(*(p.run() for p in self.players))
