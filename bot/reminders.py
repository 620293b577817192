"""Durable, escalating reminders: due times live in the timers table, so they survive restarts.

A seat asked to move hears, each time the table's clock runs out: a reminder in the thread; a
second one, in the thread and by DM, saying what comes next; then the other players are asked
to vote the seat to the automatic player (bot/autoplayer.py). A move starts the count again.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from bot.autoplayer import duration
from bot.i18n import msg
from bot.store import StoreGone

if TYPE_CHECKING:
    from bot.table import Table

log = logging.getLogger(__name__)


async def run_reminders(table: "Table", idle_seconds: float = 60.0) -> None:
    """Sleep until the next timer is due (or the table schedules one), then ping once."""
    while True:
        try:
            await fire_due(table)
            due = await table.store.clocks.next_timer_due()
            wait = idle_seconds if due is None else max(0.0, min(idle_seconds, due - table.clock()))
            table.timers_changed.clear()
            try:
                await asyncio.wait_for(table.timers_changed.wait(), timeout=wait)
            except asyncio.TimeoutError:
                pass
        except asyncio.CancelledError:
            raise
        except StoreGone:  # said once by the store; nothing can be written until a restart
            await asyncio.sleep(idle_seconds)
        except Exception:
            log.exception("reminder loop failed; retrying")
            await asyncio.sleep(idle_seconds)


VOTE_LEVEL = 3  # the clock has run out this many times: the table may vote


async def fire_due(table: "Table") -> None:
    now = table.clock()
    for game_id, seat, kind, level in await table.store.clocks.due_timers(now):
        game = await table.store.game(game_id)
        live = (
            game is not None
            and game.status == "active"
            and seat < len(game.seats)
            and game.snapshot is not None
            and seat in table.engines[game.kind].to_act(game.snapshot)
        )
        if game is None or not live or game.seats[seat].auto:
            await table.store.clocks.escalate_timer(game_id, seat, kind, level, None)
            if live:  # the automatic player was interrupted (a crash): it moves now
                table.autoplayer.soon(game_id)
            continue
        clock = table.clock_of(game)
        # Escalate first: a crash after this at worst skips one message, never sends it twice.
        if not await table.store.clocks.escalate_timer(
            game_id, seat, kind, level, now + clock if level < VOTE_LEVEL else None
        ):
            continue
        await remind(table, game, seat, level, clock)


async def remind(table: "Table", game, seat: int, level: int, clock: float) -> None:
    user = game.seats[seat].user_id
    title = table.title(game)
    if level == 1:
        await table.out.post(
            game,
            msg("<@{user}>, a reminder: {title} is waiting for your move.", user=user, title=title),
            mention=[user],
        )
    elif level == 2:
        text = msg(
            "<@{user}>, a second reminder: {title} has waited {time} for your move. In {next} the other "
            "players may hand your seat to the automatic player.",
            user=user,
            title=title,
            time=duration(2 * clock),
            next=duration(clock),
        )
        await table.out.post(game, text, mention=[user])
        if game.seats[seat].dm_ok:
            await table.out.dms.send(game, user, text)
    else:
        await table.autoplayer.call_vote(game, seat, level * clock)
