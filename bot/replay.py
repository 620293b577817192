"""Replaying a finished game: its boards in order, one per turn (as the thread saw them), then for a
game played to its end one more page with its results and statistics (the images its end posted),
shown privately to whoever asks with Previous / Next buttons. Built from the seed and the action
log, so nothing is stored for it; only the spectator view is drawn, so nothing hidden shows."""

from __future__ import annotations

import asyncio
import io
import logging

import discord

from bot import export
from bot.components import replay_view
from bot.delivery import Outcome, Sent
from bot.games.base import Engine, State, on_todays_rules
from bot.i18n import Msg, msg, render
from bot.store import Game
from bot.table_api import TableServices
from rendering.animation import extension
from rendering.stats import end_stats

log = logging.getLogger(__name__)

REPLAYABLE = ("finished", "abandoned")


def turn_starts(engine: Engine, game: Game, actions: list[tuple[int, dict]]) -> tuple[list[State], bool]:
    """The state at the start of each turn (the view's "turn" changes), then the final one; and
    whether the whole log replayed (a game finished under older rules may refuse a move today:
    the boards stop there)."""
    return export.turn_starts(
        engine, game.options, len(game.seats), game.seed, actions, rules_version=game.rules_version
    )


def _board(table: TableServices, game: Game, boards: list[State], k: int, locale: str) -> bytes:
    engine = table.engines[game.kind]
    return table.renderer(game.kind).board(engine.view(boards[k], None), [s.name for s in game.seats], locale)


def has_end_page(engine: Engine, game: Game) -> bool:
    """Whether the replay ends with a page of results and statistics: a game played to its end (an
    abandoned one has no results)."""
    return game.status == "finished" and game.snapshot is not None and engine.is_over(game.snapshot)


def results_line(engine: Engine, game: Game) -> Msg | None:
    """The results in words ("1. alice, 2. bob"), best first; None where the game ranks no one."""
    places = engine.placings(game.snapshot) if game.snapshot is not None else None
    if not places:
        return None
    ranked = sorted(game.seats, key=lambda s: (places[s.seat], s.seat))
    return msg("Results: {places}", places=[f"{places[s.seat]}. {s.name}" for s in ranked])


def end_images(
    table: TableServices, game: Game, actions: list[tuple[int, dict]], locale: str
) -> list[tuple[str, bytes]]:
    """The images the game's end posted after its last board, named: the results (where the game
    draws them) and the statistics (where its log replays today); one that cannot be drawn is left
    out and logged (runs in a thread)."""
    engine, names, final = table.engines[game.kind], [s.name for s in game.seats], game.snapshot
    images: list[tuple[str, bytes]] = []
    results = table.renderer(game.kind).results
    try:
        if results is not None and final is not None:
            images.append(("results", results(engine.view(final, None), names, locale)))
    except Exception:
        log.exception("game %s: could not draw its results for the replay", game.id)
    try:
        stats = end_stats(engine, game.options, len(game.seats), game.seed, actions, final, names, locale)
    except Exception:
        log.exception("game %s: could not draw its statistics for the replay", game.id)
        stats = None
    return images + ([("stats", stats)] if stats else [])


async def _board_page(
    table: TableServices, game: Game, boards: list[State], whole: bool, k: int, locale: str
) -> tuple[str, list[discord.File]]:
    """Board `k` (1-based) of the replay: its text and image."""
    image = await asyncio.to_thread(_board, table, game, boards, k - 1, locale)
    content = render(msg("**{title}**, replay: board {k} of {n}", title=table.title(game), k=k, n=len(boards)), locale)
    if not whole and k == len(boards):
        content += "\n" + render(
            msg("The rest of this game was played under older rules and cannot be shown again."), locale
        )
    return content, [discord.File(io.BytesIO(image), filename=f"{game.kind}-{game.id}-replay-{k}.{extension(image)}")]


async def _end_page(
    table: TableServices, game: Game, actions: list[tuple[int, dict]], boards: int, locale: str
) -> tuple[str, list[discord.File]]:
    """The page after the last board: the results in words, with the results and statistics images."""
    images = await asyncio.to_thread(end_images, table, game, actions, locale)
    lines = [msg("**{title}**, replay: the results and statistics, after board {n}", title=table.title(game), n=boards)]
    results = results_line(table.engines[game.kind], game)
    lines += [results] if results is not None else []
    if not on_todays_rules(table.engines[game.kind], game.snapshot):  # its log no longer tells its statistics
        lines.append(msg("The statistics of a game played under older rules cannot be drawn again."))
    content = "\n".join(render(line, locale) for line in lines)
    files = [
        discord.File(io.BytesIO(image), filename=f"{game.kind}-{game.id}-{name}.{extension(image)}")
        for name, image in images
    ]
    return content, files


async def show(table: TableServices, interaction: discord.Interaction, game: Game, k: int | None, edit: bool) -> None:
    """Page `k` (1-based; None: the first) of `game`'s replay, as a private answer or, from its own
    buttons, in place of the one shown: its boards in order, then (a game played to its end) the
    results and statistics its end posted. A page past the end shows the last."""
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
    pages = len(boards) + has_end_page(engine, game)
    k = min(max(k or 1, 1), pages)
    if k <= len(boards):
        content, files = await _board_page(table, game, boards, whole, k, locale)
    else:
        content, files = await _end_page(table, game, actions, len(boards), locale)
    view = replay_view(game.id, k, pages, locale)
    try:
        if edit:
            await interaction.edit_original_response(content=content, attachments=files, view=view)
        else:
            await interaction.followup.send(content, files=files, view=view, ephemeral=True)
    except discord.HTTPException:
        log.warning("game %s: could not show a replay page", game.id, exc_info=True)


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
                export.frame_states, engine, game.options, len(game.seats), game.seed, actions, game.rules_version
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
