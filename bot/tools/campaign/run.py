"""The campaign's phases, in order, each bounded in time."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import random
import shutil
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bot.tools.emulator import Emulator

from .botctl import BotControl, BotGone, KillPlan
from .checks import (
    announcements_duplicated,
    announcements_missing,
    lobbies_left_live,
    menus_missing,
    replay_failures,
    replays,
    results_missing,
    threads_orphaned,
)
from .common import Context, Db, Figures, Index, progress
from .forged import Forger
from .leaks import secret_lines
from .startups import damaged_startups
from .tables import Table, TableFailed

STALL = 15.0  # seconds a seat waited without a decision (and without kills) that make its game stalled
START_GRACE = 30.0  # seconds more the settle phase waits for a table whose game has not begun yet


FIRST_SECONDS = ("after-new", "lobby-post", "start-thread", "after-start")  # kill points of a table's start
KINDS = ("heat", "pon", "pole", "steamworks", "rallyman")
SIZES = {"heat": (2, 4), "pon": (3, 4), "pole": (2, 3), "steamworks": (2, 3), "rallyman": (2, 3)}


def plan_tables(ctx: Context, games: int) -> list[Table]:
    """The five games in turn (Heat 2-4 players, PON 3-4, Pole Position, Steam Works and Rallyman
    2-3); every third table has a player whose DMs are closed, every fourth one who moves by
    /<game> play."""
    rnd, emu = ctx.rnd, ctx.emu
    tables = []
    for n in range(games):
        kind = KINDS[n % len(KINDS)]
        size = rnd.randint(*SIZES[kind])
        closed_seat = rnd.randrange(1, size) if n % 3 == 2 else None
        users, closed = [], set()
        for i in range(size):
            user = emu.add_user(f"t{n}p{i}", dm_open=i != closed_seat)
            emu.add_member(ctx.guild, user)
            users.append(user)
            if i == closed_seat:
                closed.add(user.id)
        styles = ["select"] * size
        if n % 4 == 0:
            styles[rnd.choice([i for i in range(size) if i != closed_seat])] = "slash"
        ctx.channels[n] = emu.add_text_channel(ctx.guild, f"table-{n}")
        tables.append(Table(ctx, n, kind, users, closed, styles))
    return tables


async def run_table(table: Table) -> None:
    try:
        await table.run()
    except TableFailed as err:
        progress(str(err))
    except BotGone:
        raise
    except Exception as err:  # a campaign bug must not stop the other tables
        progress(f"table {table.number}: {type(err).__name__}: {err}")


async def watch(ctx: Context, tables: list[Table], stop: asyncio.Event) -> None:
    """Follow every game in the database; kill right after a game's last move (sometimes)."""
    while not stop.is_set():
        for t in tables:
            was_over = t.over
            await asyncio.to_thread(t.refresh)
            if t.over and not was_over:
                await ctx.killplan.maybe("after-last-move", 0.7)
        await asyncio.sleep(0.03)


async def crash_phase(ctx: Context, tables: list[Table], args: argparse.Namespace, until: float) -> list[asyncio.Task]:
    """Start tables (a few at once, one every few seconds, so table starts fall among the kills)
    until the phase ends; kills run meanwhile. Returns the table tasks."""
    running: list[asyncio.Task] = []
    killer = asyncio.ensure_future(ctx.killplan.random_moments())
    debug_until = max(1, args.kills // 3)
    spacing = min(5.0, max(0.0, until - time.monotonic()) / (2 * max(1, len(tables))))
    last_start = 0.0
    try:
        for table in tables:
            while True:
                live = [t for t in running if not t.done()]
                now = time.monotonic()
                if (len(live) < args.concurrency and now - last_start >= spacing) or now >= until:
                    break
                if len(live) < args.concurrency:
                    await asyncio.sleep(spacing - (now - last_start))
                    continue
                await asyncio.wait(live, timeout=1.0, return_when=asyncio.FIRST_COMPLETED)
                if ctx.botctl.kills >= debug_until:
                    ctx.botctl.set_log_level("INFO")
            if time.monotonic() >= until:
                break
            running.append(asyncio.ensure_future(run_table(table)))
            last_start = time.monotonic()
        while time.monotonic() < until and not all(t.done() for t in running):
            if ctx.botctl.kills >= debug_until:
                ctx.botctl.set_log_level("INFO")
            await asyncio.sleep(0.5)
    finally:
        ctx.killplan.stop()
        killer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await killer
    ctx.botctl.set_log_level("INFO")
    return running


async def settle_phase(
    ctx: Context, tables: list[Table], running: list[asyncio.Task], until: float, stall: float = STALL
) -> None:
    """No more kills: players go on until every game is over or stuck, or time is up. A game is
    stalled when one of the seats it waits for made no decision for `stall` seconds. A table still
    starting (its lobby, Joins, Start) gets up to START_GRACE seconds more: on a loaded machine a
    table the crash phase opened was cut off before its game began (issue #29)."""
    await ctx.botctl.ensure_up()
    quiet_since = time.monotonic()
    while True:
        now = time.monotonic()
        active = [t for t, task in zip(tables, running) if not task.done()]
        waiting = [t for t in active if not t.started or not t.stuck(now, quiet_since, stall)]
        starting = any(not t.started for t in active)
        if not waiting or now >= (until + START_GRACE if starting else until):
            break
        await asyncio.sleep(0.5)
    now = time.monotonic()
    for t in tables:
        seats = t.stuck(now, quiet_since, stall)
        if seats:
            ctx.figures["games_stalled"] += 1
            progress(
                f"table {t.number} ({t.kind} #{t.game_id}) stalled at version {t.version}, "
                f"seats {seats} waited for {stall:.0f} s:\n{t.describe()}"
            )
    ctx.hard_stop.set()
    for task in running:
        task.cancel()
    await asyncio.gather(*running, return_exceptions=True)


async def forged_phase(ctx: Context, until: float) -> None:
    """An idle game of each kind nobody plays, then forged packets at them until time is up."""
    n = max(ctx.channels) + 1
    targets = []
    for kind in KINDS:
        size = SIZES[kind][0]
        users = []
        for i in range(size):
            user = ctx.emu.add_user(f"forge{n}p{i}")
            ctx.emu.add_member(ctx.guild, user)
            users.append(user)
        ctx.channels[n] = ctx.emu.add_text_channel(ctx.guild, f"forge-{n}")
        table = Table(ctx, n, kind, users, set(), ["select"] * size)
        try:
            lobby = await table.open()
            await table.seat_everyone(lobby)
            await table.start()
            targets.append(table)
        except TableFailed as err:
            progress(str(err))
        n += 1
    await asyncio.sleep(1.0)  # their first DMs
    await Forger(ctx, targets).run(until)


def run_checks(ctx: Context, tables: list[Table]) -> None:
    emu, db, index, fig = ctx.emu, ctx.db, ctx.index, ctx.figures
    games = db.games(snapshot=True)
    closed = set().union(*(t.closed for t in tables)) if tables else set()
    users = [u for t in tables for u in t.users]
    fig["games"] = sum(1 for t in tables if t.started)
    fig["games_finished"] = sum(1 for t in tables if t.started and t.over)
    fig["kills"] = ctx.botctl.kills
    fig["kills_first_seconds"] = sum(ctx.botctl.points[p] for p in FIRST_SECONDS)
    progress(f"kills by moment: {dict(ctx.botctl.points)}")
    kinds = Counter(t.kind for t in tables if t.started)
    done = Counter(t.kind for t in tables if t.started and t.over)
    progress("games by kind (started/finished): " + ", ".join(f"{k} {kinds[k]}/{done[k]}" for k in KINDS))
    replayed = replays(db, games)
    fig["replay_failures"] = replay_failures(replayed)
    fig["announcements_missing"] = announcements_missing(emu, index, replayed, ctx.work / "threads")
    fig["menus_missing"] = menus_missing(emu, db, index, games, closed)
    fig["announcements_duplicated"] = announcements_duplicated(emu, index, replayed, users, ctx.work / "threads")
    fig["results_missing"] = results_missing(emu, index, replayed)
    fig["lobbies_left_live"] = lobbies_left_live(emu, index, games)
    fig["threads_orphaned"] = threads_orphaned(emu, index, games)


def world(ctx: Context) -> None:
    ctx.guild = ctx.emu.add_guild("Campaign")


def command_choices(emu: Emulator) -> dict[str, tuple[str, list[Any]]]:
    """kind -> (option, its choices) of `/<kind> new` for the games whose new takes a track or
    circuit from a list (Heat's track, Pole Position's circuit): each table picks one at random."""
    out: dict[str, tuple[str, list[Any]]] = {}
    for c in emu.commands():
        for sub in c.get("options") or []:
            if sub["name"] != "new":
                continue
            for o in sub.get("options") or []:
                if o["name"] in ("track", "circuit") and o.get("choices"):
                    out[c["name"]] = (o["name"], [ch["value"] for ch in o["choices"]])
    return out


class KilledMidRequest(logging.Filter):
    """The emulator's web server logs a request cut off by the bot's SIGKILL (the connection reset
    while a body was read) with a traceback; here that is the campaign's own doing, not news."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], ConnectionResetError))


async def campaign(args: argparse.Namespace, work: Path) -> Figures:
    fig = Figures()
    logging.getLogger("aiohttp.server").addFilter(KilledMidRequest())
    budget = max(20.0, args.minutes * 60)
    state = work / "state"
    db = Db(state / "bot.sqlite3")
    async with Emulator() as emu:
        ctx = Context(
            emu=emu, db=db, index=Index(emu), figures=fig, rnd=random.Random(args.seed), seed=args.seed, work=work
        )
        world(ctx)
        tables = plan_tables(ctx, args.games)
        ctx.botctl = BotControl(emu, state, "DEBUG", tuple(args.bot))
        try:
            progress(f"bot starting (state in {state})")
            await ctx.botctl.start()
            await emu.wait_for_commands(timeout=30)
            ctx.choices = command_choices(emu)
            t0 = time.monotonic()  # the phases' budget counts from a bot that answers (its start is slower under load)
            crash_end, settle_end, forged_end = t0 + budget * 0.6, t0 + budget * 0.82, t0 + budget
            ctx.killplan = KillPlan(ctx.botctl, random.Random(args.seed + 1), args.kills, crash_end - time.monotonic())
            stop_watch = asyncio.Event()
            watcher = asyncio.ensure_future(watch(ctx, tables, stop_watch))
            try:
                progress(f"crash phase: up to {args.games} games, {args.kills} kills")
                running = await crash_phase(ctx, tables, args, crash_end)
                progress(f"settle phase: {ctx.botctl.kills} kills done")
                await settle_phase(ctx, tables, running, max(settle_end, time.monotonic() + args.stall + 2), args.stall)
                progress("forged phase")
                ctx.doubles = False
                await forged_phase(ctx, max(forged_end, time.monotonic() + max(5.0, budget * 0.12)))
            except BotGone as err:
                progress(f"stopped early: {err}")
            finally:
                stop_watch.set()
                watcher.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await watcher
            await asyncio.sleep(1.0)
            run_checks(ctx, tables)
            await ctx.botctl.stop()
            fig["bot_tracebacks"] = ctx.botctl.tracebacks()
            fig["log_secret_lines"] = secret_lines([Path(ctx.botctl.log_path)])
            shutil.move(ctx.botctl.log_path, work / "bot-output.log")
        finally:  # never leave the bot running, whatever went wrong
            if ctx.botctl.proc.running:
                await ctx.botctl.stop()
    progress("damaged start-ups")
    await damaged_startups(db.path, work / "startups", fig, args.seed, args.startup_wait, args.startups)
    return fig
