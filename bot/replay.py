"""Replaying a finished game: its boards in order, one per turn (as the thread saw them), shown
privately to whoever asks with Previous / Next buttons. Built from the seed and the action log,
so nothing is stored for it; only the spectator view is drawn, so nothing hidden shows."""
from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord

from bot.components import replay_view
from bot.games.base import Engine, GameError, State
from bot.i18n import msg, render
from bot.store import Game

if TYPE_CHECKING:
    from bot.table import Table

log = logging.getLogger(__name__)

REPLAYABLE = ("finished", "abandoned")


def turn_starts(engine: Engine, game: Game, actions: list[tuple[int, dict]]) -> tuple[list[State], bool]:
    """The state at the start of each turn (the view's "turn" changes), then the final one; and
    whether the whole log replayed (a game finished under older rules may refuse a move today:
    the boards stop there)."""
    state = engine.new_game(game.options, len(game.seats), game.seed)
    boards, turn = [state], engine.view(state, None).get("turn")
    for seat, action in actions:
        try:
            state, _ = engine.apply(state, seat, action)
        except GameError:
            return boards, False
        now = engine.view(state, None).get("turn")
        if now != turn:
            boards.append(state)
            turn = now
    if boards[-1] is not state:
        boards.append(state)
    return boards, True


def _board(table: "Table", game: Game, boards: list[State], k: int, locale: str) -> bytes:
    engine = table.engines[game.kind]
    return table.renderer(game.kind).render_board(engine.view(boards[k], None), [s.name for s in game.seats], locale)


async def show(table: "Table", interaction: discord.Interaction, game: Game, k: int | None, edit: bool) -> None:
    """Board `k` (1-based; None: the first) of `game`'s replay, as a private answer or, from its
    own buttons, in place of the one shown."""
    locale = table.audience(interaction)
    if game.status not in REPLAYABLE or game.snapshot is None:
        await table.reply(interaction, msg("Only a finished game can be replayed; {title} is still going: "
                                           "/game status shows its board.", title=table.title(game)))
        return
    engine = table.engines[game.kind]
    actions = await table.store.actions(game.id)
    boards, whole = await asyncio.to_thread(turn_starts, engine, game, actions)
    k = min(max(k or 1, 1), len(boards))
    image = await asyncio.to_thread(_board, table, game, boards, k - 1, locale)
    content = render(msg("**{title}**, replay: board {k} of {n}", title=table.title(game), k=k, n=len(boards)), locale)
    if not whole and k == len(boards):
        content += "\n" + render(msg("The rest of this game was played under older rules and cannot be shown again."),
                                 locale)
    file = discord.File(io.BytesIO(image), filename=f"{game.kind}-{game.id}-replay-{k}.png")
    view = replay_view(game.id, k, len(boards), locale)
    try:
        if edit:
            await interaction.edit_original_response(content=content, attachments=[file], view=view)
        else:
            await interaction.followup.send(content, file=file, view=view, ephemeral=True)
    except discord.HTTPException:
        log.warning("game %s: could not show a replay board", game.id, exc_info=True)
