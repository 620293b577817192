"""One game as its players live it: `/<game> new` in the table's own channel, Join clicks, the
creator's Start, then every player on their own until the game is over. Kills at chosen points
(right after /new, while Start opens the thread) are asked of the kill plan here."""
from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any, Optional

from bot.emulator.errors import EmulatorError

from .common import live_components, newest, progress, sleep_until
from .players import Player

if TYPE_CHECKING:
    from . import Context


class TableFailed(Exception):
    pass


def lobby_buttons(m: Any) -> bool:
    return live_components(m) and any(b.get("label") in ("Join", "Start") and not b.get("disabled")
                                      for b in m.buttons)


class Table:
    def __init__(self, ctx: "Context", number: int, kind: str, users: list[Any], closed: set[int],
                 styles: list[str]) -> None:
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
        """Follow the game's status and version in the database (called by the campaign's watcher)."""
        if self.game_id is None:
            return
        rows = self.ctx.db.query("SELECT status, version FROM games WHERE id = ?", (self.game_id,))
        if not rows:
            return
        status, version = rows[0]
        if version != self.version:
            self.version, self.last_change = version, time.monotonic()
        if status in ("finished", "abandoned") and not self.over:
            self.over = True
            progress(f"table {self.number} ({self.kind} #{self.game_id}) {status} at version {version}")

    def describe(self) -> str:
        """One line per player: what they see and how often they tried it (for a stalled game)."""
        rows = self.ctx.db.query("SELECT snapshot FROM games WHERE id = ?", (self.game_id,))
        waiting: Any = "?"
        if rows and rows[0][0]:
            import json

            from bot.games.registry import engines
            waiting = engines()[self.kind].to_act(json.loads(rows[0][0]))
        out = [f"  waiting for seats {waiting}"]
        for p in self.players:
            m = newest(p.visible(), live_components) or newest(p.visible())
            what = "nothing" if m is None else (f"#{m.id} tries={p.tries[m.menu_key]} {m.content[-80:]!r} "
                                                f"buttons={m.button_labels} "
                                                f"selects={[x.get('placeholder') for x in m.selects]}")
            out.append(f"  {p.user.name} ({p.style}, dm={'open' if p.dm_open else 'closed'}): {what}")
        return "\n".join(out)

    # -- opening and starting -------------------------------------------------------------------

    async def open(self) -> Any:
        creator = self.users[0]
        options = {"track": self.ctx.rnd.choice(self.ctx.tracks)} if self.kind == "heat" else {}
        for _ in range(8):
            lobby = self.live_lobby()
            if lobby is not None:
                return lobby
            task = asyncio.ensure_future(self.emu.slash(creator, self.channel, self.kind, "new", **options))
            await asyncio.sleep(self.ctx.rnd.uniform(0.0, 0.15))
            await self.ctx.killplan.maybe("after-new", 0.5)
            try:
                await task
            except EmulatorError:
                pass
            lobby = await sleep_until(self.live_lobby, 4.0)
            if lobby is not None:
                return lobby
            await self.ctx.botctl.ensure_up()
        raise TableFailed(f"table {self.number}: no lobby after /{self.kind} new")

    def lobby_game(self, lobby: Any) -> Optional[int]:
        rows = self.ctx.db.query("SELECT id FROM games WHERE lobby_message_id = ?", (lobby.id,))
        if rows:
            return rows[0][0]
        rows = self.ctx.db.query("SELECT id FROM games WHERE channel_id = ? AND status = 'lobby' ORDER BY id DESC "
                                 "LIMIT 1", (self.channel.id,))
        return rows[0][0] if rows else None

    async def seat_everyone(self, lobby: Any) -> None:
        for _ in range(6):
            gid = self.lobby_game(lobby)
            seated = {r[0] for r in self.ctx.db.query("SELECT user_id FROM seats WHERE game_id = ?", (gid,))}
            missing = [u for u in self.users[1:] if u.id not in seated]
            if gid is not None and not missing:
                return
            for user in missing:
                try:
                    await self.emu.click(user, lobby, label="Join")
                except EmulatorError:
                    lobby = self.live_lobby() or lobby
            await asyncio.sleep(0.2)
        raise TableFailed(f"table {self.number}: could not seat everyone")

    def started_game(self) -> Optional[int]:
        rows = self.ctx.db.query("SELECT id FROM games WHERE channel_id = ? AND status IN ('active', 'finished') "
                                 "ORDER BY id DESC LIMIT 1", (self.channel.id,))
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
            if self.ctx.killplan.due() and self.ctx.rnd.random() < 0.5:
                # right after the click, while the bot is opening the game's thread
                await sleep_until(lambda: len(self.emu.threads(self.channel)) > threads, 3.0, 0.005)
                await self.ctx.killplan.maybe("start-thread", 1.0)
            try:
                await task
            except EmulatorError:
                pass
            await sleep_until(self.started_game, 6.0, 0.2)
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
