"""Durable reminders: due times live in the timers table, so they survive restarts."""
from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from bot.i18n import msg

if TYPE_CHECKING:
    from bot.table import Table

log = logging.getLogger(__name__)


async def run_reminders(table: "Table", idle_seconds: float = 60.0) -> None:
    """Sleep until the next timer is due (or the table schedules one), then ping once."""
    while True:
        try:
            await fire_due(table)
            due = await table.store.next_timer_due()
            wait = idle_seconds if due is None else max(0.0, min(idle_seconds, due - table.clock()))
            table.timers_changed.clear()
            try:
                await asyncio.wait_for(table.timers_changed.wait(), timeout=wait)
            except asyncio.TimeoutError:
                pass
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("reminder loop failed; retrying")
            await asyncio.sleep(idle_seconds)


async def fire_due(table: "Table") -> None:
    for game_id, seat, kind in await table.store.due_timers(table.clock()):
        # Delete first: a reminder is one ping, and a crash after this at worst skips it.
        await table.store.delete_timer(game_id, seat, kind)
        game = await table.store.game(game_id)
        if game is None or game.status != "active" or seat >= len(game.seats):
            continue
        engine = table.engines[game.kind]
        if game.snapshot is None or seat not in engine.to_act(game.snapshot):
            continue
        user = game.seats[seat].user_id
        await table.out.post(game, msg("<@{user}>, a reminder: {title} is waiting for your move.",
                                     user=user, title=table.title(game)), mention=[user])
