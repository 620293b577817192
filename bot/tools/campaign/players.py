"""Simulated players: they act only on what Discord shows them. A player with open DMs uses the
newest DM (or ephemeral reply) that carries move components; one with closed DMs asks for their
hand in the game's thread (the My hand button or `/<game> hand`) and uses the private reply. Some
players move by `/<game> play` (autocomplete, then the command). Now and then a player clicks the
same DM component twice at once, or sends the same `/heat play` twice at once; the table's read-only
view of the action log then says whether both were applied."""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from typing import Any, Awaitable, Callable, Optional, Protocol

from bot.tools.emulator.errors import EmulatorError

from .common import Context, live_components, newest, sleep_until

SKIP_SELECTS = ("Sent", "Preferences")  # a submitted choice shown back, standing preferences
RETRY_AFTER = 4.0  # seconds before acting again on a menu whose first try got no visible result
MAX_TRIES = 4  # quick tries of one menu; after them a player keeps trying, less and less often
PATIENCE = 30.0  # the longest a player waits between two tries of the same menu


def retry_after(tries: int) -> float:
    """Seconds to wait before trying a menu again after `tries` tries that got no visible result:
    RETRY_AFTER for the first MAX_TRIES, then doubling up to PATIENCE. A player never gives up for
    good: a game stuck on a menu stays visibly stuck (the campaign's stall check), not abandoned."""
    if tries < MAX_TRIES:
        return RETRY_AFTER
    return min(PATIENCE, RETRY_AFTER * 2 ** (tries - MAX_TRIES + 1))


def is_pref(label: str) -> bool:
    return ":" in (label or "")  # preference toggles read "Name: value"; decisions do not


def decisions(m: Any) -> list[dict]:
    return [b for b in m.buttons if b.get("custom_id") and not b.get("disabled") and not is_pref(b.get("label", ""))]


def move_selects(m: Any) -> list[dict]:
    return [
        s
        for s in m.selects
        if not s.get("disabled") and s.get("options") and not (s.get("placeholder") or "").startswith(SKIP_SELECTS)
    ]


def actionable(m: Any) -> bool:
    return live_components(m) and bool(decisions(m) or move_selects(m))


def refused(rec: Any) -> bool:
    """A private text answer (no image, no components) that is not "Done: ...": a refusal."""
    return any(
        f.ephemeral and not f.attachments and not f.components and not f.content.startswith("Done")
        for f in rec.followups
    )


class Seating(Protocol):
    """What a player needs of its table (tables.Table): the campaign, the game, whether it is over,
    where to play and the seat's (game, seat, version) now."""

    ctx: Context
    kind: str
    over: bool

    def play_channel(self) -> Any: ...

    def probe(self, user: Any) -> Optional[tuple[int, int, int]]: ...


class Player:
    def __init__(self, table: Seating, user: Any, style: str, dm_open: bool) -> None:
        self.table, self.user, self.style, self.dm_open = table, user, style, dm_open
        self.ctx = table.ctx
        self.emu, self.rnd, self.fig = self.ctx.emu, self.ctx.rnd, self.ctx.figures
        self.tries: Counter[tuple] = Counter()  # keyed by a message's menu_key
        self.kills_at_try: dict[tuple, int] = {}  # menu -> kills counted at its last try
        self.done_with: set[tuple] = set()
        self.last_try: dict[tuple, float] = {}
        self.last_hand_request = 0.0
        self.seen_thread_post = 0

    # -- what the player sees -------------------------------------------------------------------

    def visible(self) -> list[Any]:
        if self.dm_open:
            return self.ctx.index.dms(self.user, ephemeral=True)
        channel = self.table.play_channel()
        return [m for m in self.ctx.index.messages(channel.id, ephemeral_for=self.user.id) if m.ephemeral]

    def candidate(self) -> Optional[Any]:
        m = newest(self.visible(), live_components)
        if m is None or not actionable(m):
            return None
        if m.menu_key in self.done_with:  # it went through; still there long after, a player tries again
            return m if time.monotonic() - self.last_try[m.menu_key] >= PATIENCE else None
        n = self.tries[m.menu_key]
        if n == 0:
            return m
        if self.kills_at_try.get(m.menu_key, -1) != self.ctx.botctl.kills:
            return m  # the bot was killed since the last try: a player tries its menu again at once
        if time.monotonic() - self.last_try[m.menu_key] < retry_after(n):
            return None
        return m

    # -- the loop ---------------------------------------------------------------------------------

    async def run(self) -> None:
        while not self.table.over and not self.ctx.hard_stop.is_set():
            m = self.candidate()
            if m is None:
                if not self.dm_open:
                    await self.ask_for_hand()
                await asyncio.sleep(0.25)
                continue
            key = m.menu_key  # the menu as it is now: the bot may replace it in place later
            self.tries[key] += 1
            self.last_try[key] = time.monotonic()
            self.kills_at_try[key] = self.ctx.botctl.kills
            try:
                if await self.act(m):
                    self.done_with.add(key)  # done with this menu
                else:
                    self.done_with.discard(key)
            except EmulatorError:
                await asyncio.sleep(0.3)  # the message changed under us (edited, deleted): look again

    async def act(self, m: Any) -> bool:
        buttons = decisions(m)
        if buttons:
            cid = self.rnd.choice(buttons)["custom_id"]
            rec = await self.interact(lambda: self.emu.click(self.user, m, custom_id=cid), m)
            return rec is not None and await self.went_through(rec)
        select = self.rnd.choice(move_selects(m))
        if self.style == "slash" and not m.ephemeral:
            return await self.by_slash()
        return await self.by_select(m, select)

    async def by_select(self, m: Any, select: dict) -> bool:
        values = [o["value"] for o in select["options"]]
        lo, hi = select.get("min_values", 1), min(select.get("max_values", 1), len(values))
        for _ in range(8):  # a pick the rules refuse gets a private answer; pick again
            picked = self.rnd.sample(values, self.rnd.randint(min(lo, hi), hi))
            rec = await self.interact(lambda: self.emu.select(self.user, m, picked, custom_id=select["custom_id"]), m)
            if rec is None or rec.failed:
                return False
            if await self.went_through(rec):
                return True
            if not refused(rec):
                return False
        return False

    async def by_slash(self) -> bool:
        channel = self.table.play_channel()
        kind = self.table.kind
        try:
            choices = await self.emu.autocomplete(self.user, channel, kind, "play", focused="move", move="")
        except EmulatorError:
            return False
        moves = [c["value"] for c in choices if not c["name"].startswith("Preference")]
        if not moves:
            return False
        move = self.rnd.choice(moves)
        rec = await self.interact(lambda: self.emu.slash(self.user, channel, kind, "play", move=move), None, slash=True)
        return rec is not None and await self.went_through(rec)

    async def ask_for_hand(self) -> None:
        """Closed DMs: after a new thread post (or every few seconds), ask for the private hand."""
        channel = self.table.play_channel()
        posts = self.ctx.index.messages(channel.id)
        newest_post = posts[-1].id if posts else 0
        now = time.monotonic()
        if now - self.last_hand_request < (1.5 if newest_post != self.seen_thread_post else 5.0):
            return
        self.last_hand_request, self.seen_thread_post = now, newest_post
        board = newest(posts, lambda p: any(b.get("label") == "My hand" for b in p.buttons))
        try:
            if board is not None and self.rnd.random() < 0.5:
                await self.emu.click(self.user, board, label="My hand")
            else:
                await self.emu.slash(self.user, channel, self.table.kind, "hand")
        except EmulatorError:
            pass

    # -- sending, double submissions, kills right after a click ---------------------------------

    async def interact(self, make: Callable[[], Awaitable[Any]], m: Optional[Any], slash: bool = False) -> Any:
        ctx = self.ctx
        double = ctx.doubles and (slash or (m is not None and not m.ephemeral)) and self.rnd.random() < ctx.p_double
        before = self.table.probe(self.user) if double else None
        tasks = [asyncio.ensure_future(make()) for _ in range(2 if double else 1)]
        self.fig["moves_sent"] += len(tasks)
        if self.rnd.random() < ctx.p_kill_after_click:
            await asyncio.sleep(self.rnd.uniform(0.0, 0.05))
            await ctx.killplan.maybe("after-click", 1.0)
        recs = []
        for task in tasks:
            try:
                recs.append(await task)
            except EmulatorError:
                pass
        self.fig["moves_answered"] += sum(1 for r in recs if r.acked)
        if double and before is not None:
            await self.count_double(before, recs, "slash" if slash else "double")
        return recs[0] if recs else None

    async def count_double(self, before: tuple[int, int, int], recs: list[Any], what: str) -> None:
        """Both of a concurrent identical pair applied: the action log gained two identical
        actions of this seat while this player sent nothing else."""
        self.fig["slash_pairs" if what == "slash" else "double_clicks"] += 1
        for rec in recs:
            await self.went_through(rec)
        await asyncio.sleep(0.3)
        game_id, seat, version = before
        log = await asyncio.to_thread(self.ctx.db.actions, game_id, version)  # the archive too: a last move
        actions = Counter(json.dumps(json.loads(a), sort_keys=True) for _, s, a in log if s == seat)
        if any(n >= 2 for n in actions.values()):
            self.fig["slash_double_applied" if what == "slash" else "double_applied"] += 1

    async def went_through(self, rec: Any) -> bool:
        """True when the move visibly went through: the DM's menu was spent (removed, or replaced by
        the next one in place), or "Done", or a fresh private hand; False on no answer or a refusal."""
        if rec.failed:
            return False

        def settled() -> bool:
            if rec.failed or rec.followups:
                return True
            return rec.source is not None and (not live_components(rec.source) or rec.menu_spent)

        await sleep_until(settled, 6.0, 0.05)
        if rec.followups and refused(rec):
            return False
        return settled() and not rec.failed
