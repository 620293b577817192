"""The campaign's phases, in order, each bounded in time."""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import shutil
import time
from pathlib import Path

from bot.emulator import Emulator

from . import Context
from .botctl import BotControl, BotGone, KillPlan
from .checks import (announcements_duplicated, announcements_missing, lobbies_left_live, menus_missing,
                     results_missing, threads_orphaned)
from .common import Db, Figures, Index, progress
from .forged import Forger
from .leaks import secret_lines
from .startups import damaged_startups
from .tables import Table, TableFailed

STALL = 15.0  # seconds without progress (and without kills) that make an unfinished game stalled


def plan_tables(ctx: Context, games: int) -> list[Table]:
    """Heat with 2-4 players and PON with 3-4, alternating; every third table has a player whose DMs
    are closed, every other Heat table one who moves by /heat play."""
    rnd, emu = ctx.rnd, ctx.emu
    tables = []
    for n in range(games):
        kind = "heat" if n % 2 == 0 else "pon"
        size = rnd.randint(2, 4) if kind == "heat" else rnd.randint(3, 4)
        closed_seat = rnd.randrange(1, size) if n % 3 == 2 else None
        users, closed = [], set()
        for i in range(size):
            user = emu.add_user(f"t{n}p{i}", dm_open=i != closed_seat)
            emu.add_member(ctx.guild, user)
            users.append(user)
            if i == closed_seat:
                closed.add(user.id)
        styles = ["select"] * size
        if kind == "heat" and n % 4 == 0:
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
    """Start tables (a few at once) until the phase ends; kills run meanwhile. Returns the table tasks."""
    running: list[asyncio.Task] = []
    killer = asyncio.ensure_future(ctx.killplan.random_moments())
    debug_until = max(1, args.kills // 3)
    try:
        for table in tables:
            while True:
                live = [t for t in running if not t.done()]
                if len(live) < args.concurrency or time.monotonic() >= until:
                    break
                await asyncio.wait(live, timeout=1.0, return_when=asyncio.FIRST_COMPLETED)
                if ctx.botctl.kills >= debug_until:
                    ctx.botctl.set_log_level("INFO")
            if time.monotonic() >= until:
                break
            running.append(asyncio.ensure_future(run_table(table)))
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


async def settle_phase(ctx: Context, tables: list[Table], running: list[asyncio.Task], until: float) -> None:
    """No more kills: players go on until every game is over or stuck, or time is up."""
    await ctx.botctl.ensure_up()
    quiet_since = time.monotonic()
    while time.monotonic() < until:
        now = time.monotonic()
        active = [t for t, task in zip(tables, running) if not task.done()]
        waiting = [t for t in active if not t.started or now - max(t.last_change, quiet_since) < STALL]
        if not waiting:
            break
        await asyncio.sleep(0.5)
    now = time.monotonic()
    for t in tables:
        if t.started and not t.over and now - max(t.last_change, quiet_since) >= STALL:
            ctx.figures["games_stalled"] += 1
            progress(f"table {t.number} ({t.kind} #{t.game_id}) stalled at version {t.version}:\n{t.describe()}")
    ctx.hard_stop.set()
    for task in running:
        task.cancel()
    await asyncio.gather(*running, return_exceptions=True)


async def forged_phase(ctx: Context, until: float) -> None:
    """Two idle games (Heat and PON) nobody plays, then forged packets at them until time is up."""
    n = max(ctx.channels) + 1
    targets = []
    for kind, size in (("heat", 2), ("pon", 3)):
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
    fig["announcements_missing"], fig["replay_failures"] = announcements_missing(emu, db, index, games)
    fig["menus_missing"] = menus_missing(emu, db, index, games, closed)
    fig["announcements_duplicated"] = announcements_duplicated(emu, index, games, users)
    fig["results_missing"] = results_missing(emu, index, games)
    fig["lobbies_left_live"] = lobbies_left_live(emu, index, games)
    fig["threads_orphaned"] = threads_orphaned(emu, index, games)


def world(ctx: Context) -> None:
    ctx.guild = ctx.emu.add_guild("Campaign")


def heat_tracks(emu: Emulator) -> list[str]:
    for c in emu.commands():
        if c["name"] == "heat":
            for sub in c.get("options") or []:
                if sub["name"] == "new":
                    for o in sub.get("options") or []:
                        if o["name"] == "track" and o.get("choices"):
                            return [ch["value"] for ch in o["choices"]]
    return ["usa"]


async def campaign(args: argparse.Namespace, work: Path) -> Figures:
    fig = Figures()
    t0 = time.monotonic()
    budget = max(20.0, args.minutes * 60)
    state = work / "state"
    db = Db(state / "bot.sqlite3")
    async with Emulator() as emu:
        ctx = Context(emu=emu, db=db, index=Index(emu), figures=fig, rnd=random.Random(args.seed), seed=args.seed)
        world(ctx)
        tables = plan_tables(ctx, args.games)
        ctx.botctl = BotControl(emu, state, "DEBUG")
        try:
            progress(f"bot starting (state in {state})")
            await ctx.botctl.start()
            await emu.wait_for_commands(timeout=30)
            ctx.tracks = heat_tracks(emu)
            crash_end, settle_end, forged_end = t0 + budget * 0.6, t0 + budget * 0.82, t0 + budget
            ctx.killplan = KillPlan(ctx.botctl, random.Random(args.seed + 1), args.kills, crash_end - time.monotonic())
            stop_watch = asyncio.Event()
            watcher = asyncio.ensure_future(watch(ctx, tables, stop_watch))
            try:
                progress(f"crash phase: up to {args.games} games, {args.kills} kills")
                running = await crash_phase(ctx, tables, args, crash_end)
                progress(f"settle phase: {ctx.botctl.kills} kills done")
                await settle_phase(ctx, tables, running, max(settle_end, time.monotonic() + STALL + 2))
                progress("forged phase")
                ctx.doubles = False
                await forged_phase(ctx, max(forged_end, time.monotonic() + max(10.0, budget * 0.12)))
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
    from . import startups
    startups.WAIT = args.startup_wait
    await damaged_startups(db.path, work / "startups", fig, args.seed)
    return fig
