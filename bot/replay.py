"""Replaying a finished game: its boards in order, one per turn (as the thread saw them), shown
privately to whoever asks with Previous / Next buttons. Built from the seed and the action log,
so nothing is stored for it; only the spectator view is drawn, so nothing hidden shows."""

from __future__ import annotations

import asyncio
import io
import logging

import discord

from bot import export
from bot.components import replay_view
from bot.delivery import Outcome, Sent
from bot.games.base import Engine, State
from bot.i18n import msg, render
from bot.store import Game
from bot.table_api import TableServices
from rendering.animation import extension

log = logging.getLogger(__name__)

REPLAYABLE = ("finished", "abandoned")


def turn_starts(engine: Engine, game: Game, actions: list[tuple[int, dict]]) -> tuple[list[State], bool]:
    """The state at the start of each turn (the view's "turn" changes), then the final one; and
    whether the whole log replayed (a game finished under older rules may refuse a move today:
    the boards stop there)."""
    return export.turn_starts(engine, game.options, len(game.seats), game.seed, actions)


def _board(table: TableServices, game: Game, boards: list[State], k: int, locale: str) -> bytes:
    engine = table.engines[game.kind]
    return table.renderer(game.kind).board(engine.view(boards[k], None), [s.name for s in game.seats], locale)


async def show(table: TableServices, interaction: discord.Interaction, game: Game, k: int | None, edit: bool) -> None:
    """Board `k` (1-based; None: the first) of `game`'s replay, as a private answer or, from its
    own buttons, in place of the one shown."""
    locale = table.audience(interaction)
    if game.status not in REPLAYABLE or game.snapshot is None:
        await table.reply(
            interaction,
            msg(
                "Only a finished game can be replayed; {title} is still going: /game status shows its board.",
                title=table.title(game),
            ),
        )
        return
    engine = table.engines[game.kind]
    actions = await table.store.actions(game.id)
    boards, whole = await asyncio.to_thread(turn_starts, engine, game, actions)
    k = min(max(k or 1, 1), len(boards))
    image = await asyncio.to_thread(_board, table, game, boards, k - 1, locale)
    content = render(msg("**{title}**, replay: board {k} of {n}", title=table.title(game), k=k, n=len(boards)), locale)
    if not whole and k == len(boards):
        content += "\n" + render(
            msg("The rest of this game was played under older rules and cannot be shown again."), locale
        )
    file = discord.File(io.BytesIO(image), filename=f"{game.kind}-{game.id}-replay-{k}.{extension(image)}")
    view = replay_view(game.id, k, len(boards), locale)
    try:
        if edit:
            await interaction.edit_original_response(content=content, attachments=[file], view=view)
        else:
            await interaction.followup.send(content, file=file, view=view, ephemeral=True)
    except discord.HTTPException:
        log.warning("game %s: could not show a replay board", game.id, exc_info=True)


async def post_animation(table: TableServices, outcome: Outcome) -> Sent:
    """When a game ends: its boards as one animation in the thread, after the final post (`outcome`
    announced it). Drawn in the animator's worker process, so other tables' moves go on meanwhile; a
    game that cannot be drawn (a log today's rules refuse, a worker that died) just has no
    animation. What became of it: FAILED (Discord failed for now) leaves it owed, so it is tried
    again, after a restart too; a catch-up first looks whether it went out before the crash."""
    game = outcome.game
    name = f"{game.kind}-{game.id}-replay."
    if outcome.resent_lines is not None and await table.out.file_out(game, name):
        log.info("game %s: its replay animation was out before the restart", game.id)
        return Sent.OUT
    try:
        if outcome.frames is not None:
            frames, whole = outcome.frames, True
        else:  # (the final post's statistics did not replay the log: a catch-up)
            actions = await table.store.actions(game.id)
            engine = table.engines[game.kind]
            frames, whole = await asyncio.to_thread(
                export.frame_states, engine, game.options, len(game.seats), game.seed, actions
            )
        drawn = await export.ANIMATOR.draw(
            game.kind, frames, whole, [s.name for s in game.seats], table.out.thread_locale(game)
        )
    except Exception:
        log.exception("game %s: could not draw its replay animation", game.id)
        return Sent.REFUSED
    if drawn is None or not drawn.whole:
        log.info("game %s: no replay animation (%s)", game.id, "too big" if drawn is None else "old rules")
        return Sent.REFUSED
    log.info(
        "game %s: replay animation of %d frames (%d boards), %dx%d %s, %d bytes, drawn in %.1f s",
        game.id,
        drawn.frames,
        drawn.boards,
        drawn.size[0],
        drawn.size[1],
        drawn.format,
        len(drawn.data),
        drawn.seconds,
    )
    return await table.out.post_file(
        game,
        msg("**{title}** from start to finish, board by board:", title=table.title(game)),
        drawn.data,
        name + drawn.format,
        part="replay",
    )


async def send_export(table: TableServices, interaction: discord.Interaction, game: Game) -> None:
    """`/game export`: a finished game as a JSON file, to whoever asks (privately)."""
    if game.status not in REPLAYABLE or game.snapshot is None:
        await table.reply(
            interaction, msg("Only a finished game can be exported; {title} is still going.", title=table.title(game))
        )
        return
    engine = table.engines[game.kind]
    actions = await table.store.actions(game.id)
    data = await asyncio.to_thread(lambda: export.dumps(export.export_doc(engine, game, actions)))
    await table.reply(
        interaction,
        msg(
            "**{title}**: its options, seed, seats and every move. `python -m bot replay FILE` draws its boards again.",
            title=table.title(game),
        ),
        file=discord.File(io.BytesIO(data), filename=f"{game.kind}-{game.id}.json"),
    )
