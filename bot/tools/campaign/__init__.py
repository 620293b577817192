"""`python -m bot campaign [--minutes N] [--seed S] [--games N] [--kills N] [--startups N]`: the attack campaign
of issue #7 against the real, unmodified bot (a subprocess talking to bot/tools/emulator on 127.0.0.1).
The script is black-box: it acts only through the emulator, reads the bot's SQLite file read-only
(file:...?mode=ro) and reads the bot's log. It stops by itself; every wait has a timeout. Progress
goes to stderr; at the end one figure per line on stdout as `name: value`.

Phases: crash (games played while the bot is SIGKILLed and restarted), settle (no kills, players
go on), forged packets (against idle games), checks, damaged start-ups, log scan.

Figures (counts). Every game that started is judged, finished ones too (their log is read from
the archive it is packed into at the end):
  games                    games that started (the five games in turn: Heat 2-4 players, PON 3-4,
                           Pole Position, Steam Works and Rallyman 2-3; several at once)
  games_finished           of those, finished by the end
  moves_sent               move interactions the players sent (DM selects/buttons, My hand, /<game> play)
  moves_answered           of those, acknowledged by the bot within Discord's 3 s
  kills                    SIGKILLs (random moments; right after a click; right after /<game> new;
                           right after the lobby post appears; right after a Start click while the
                           thread is being opened; right after the game is stored as started; right
                           after the last move of a game), each followed by a restart
  kills_first_seconds      of those, around a table's first seconds (after /new, the lobby post, the
                           thread's creation, the start)
  announcements_missing    public event lines of a game (its action log replayed with the engines;
                           events with to=None, seats named) that its thread does not show in order
                           (the longest common subsequence of the lines and the thread's lines:
                           an identical line elsewhere does not stand in for a lost one)
  replay_failures          games whose stored action log does not replay to the stored snapshot: an
                           engine error, versions other than 1..version, a replayed state that
                           differs from the snapshot, or a status the engine disagrees with
  menus_missing            seats the game waits for (engine.to_act of the stored snapshot) whose
                           newest DM with the game's controls offers no move (no live components,
                           or only preference toggles and an already-sent choice) or a stale one
                           (made for an older prompt version than the seat's: a click is refused);
                           players with closed DMs excepted
  announcements_duplicated in a game's thread, each event line shown more often than the game said it
                           (a repeated post anywhere, or a line repeated inside an edited round
                           post) and each repeated post with no event line (identical content and
                           attachments, bytes hashed); in DMs, a message with components identical
                           (content, attachments, component ids) to an earlier one anywhere, or two
                           identical DMs in a row (reminders excepted)
  games_stalled            started games not finished at the end in which a seat the game waits
                           for made no decision for --stall seconds (15) since the last kill, however
                           often the other seats moved (players never give up on a menu: they try
                           again, less and less often)
  results_missing          finished games whose last post with images lacks the results image,
                           drawn by the campaign from the replayed final state and compared byte
                           for byte (all five games draw one)
  lobbies_left_live        lobby messages still carrying Join/Start buttons although their game has
                           started, ended or been abandoned
  threads_orphaned         threads the bot opened in a game's channel that no game plays in (the
                           game went on in another thread or in the parent channel)
  double_clicks            the same DM button/select clicked twice concurrently
  double_applied           of those, both applied: the action log (archive included) gained two
                           identical actions of that seat while the player sent nothing else
  slash_pairs              two identical `/<game> play` sent concurrently
  slash_double_applied     of those, both applied (as above)
  forged_sent              forged or malformed interactions sent raw (Emulator.raw_interaction) at an
                           idle game of each kind: custom_ids matching nothing, with a lone
                           surrogate (a \\ud800 escape on the gateway), with full-width or
                           Arabic-Indic digits, a button id sent as a select and the reverse, select
                           values that are not options; slash commands with game ids >= 2^63, wrong
                           option types, unknown choices, unknown commands; autocomplete with garbage
  forged_unanswered        of those, no interaction response within 3 s, or a deferred one
                           ("thinking...") never completed within 8 s
  forged_tracebacks        new "Traceback" lines in the bot's log during the forged phase
  forged_accepted          forged packets that changed a game: growth of the action log of the
                           idle target games nobody plays
  bot_crashes              the bot's gateway connection dropped or its process died right after a
                           forged packet
  startups_damaged         start-ups on a damaged database: truncated, garbage, locked by another
                           process (BEGIN EXCLUSIVE), PRAGMA user_version beyond the migrations, and
                           (not as root) a read-only file
  startups_clean_exit      of those, exited non-zero within 15 s, at most 2 lines on stderr, naming
                           the file
  startups_hung            of those, still alive after 15 s (then killed)
  startups_traceback       of those, a traceback in their output
  log_secret_lines         lines of the bot's log (it runs with BOT_LOG_LEVEL=DEBUG for the first
                           third of the kills) that carry JSON keys of hidden state (hand, deck,
                           rng, peeked...)
  bot_tracebacks           "Traceback" lines in the bot's whole log (all phases)
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
from pathlib import Path

FIGURES = (
    "games",
    "games_finished",
    "moves_sent",
    "moves_answered",
    "kills",
    "kills_first_seconds",
    "announcements_missing",
    "replay_failures",
    "menus_missing",
    "announcements_duplicated",
    "games_stalled",
    "results_missing",
    "lobbies_left_live",
    "threads_orphaned",
    "double_clicks",
    "double_applied",
    "slash_pairs",
    "slash_double_applied",
    "forged_sent",
    "forged_unanswered",
    "forged_tracebacks",
    "forged_accepted",
    "bot_crashes",
    "startups_damaged",
    "startups_clean_exit",
    "startups_hung",
    "startups_traceback",
    "log_secret_lines",
    "bot_tracebacks",
)


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bot campaign", description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=6.0, help="time budget of the games and forged phases")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--games", type=int, default=24, help="games to start at most")
    p.add_argument("--kills", type=int, default=60, help="SIGKILLs to aim for")
    p.add_argument("--concurrency", type=int, default=6, help="games played at once")
    p.add_argument(
        "--stall",
        type=float,
        default=15.0,
        help="seconds a seat may wait without a decision before its game counts as stalled",
    )
    p.add_argument("--startup-wait", type=float, default=15.0, help="seconds a damaged start-up may take")
    p.add_argument(
        "--startups",
        type=int,
        default=None,
        help="damaged start-ups to try, a seeded sample of the cases (default: all)",
    )
    p.add_argument(
        "--bot",
        nargs="+",
        default=["bot"],
        help="the bot's module and its arguments, run by bot.tools.emulator.launch (a test gives "
        "tests.e2e.standins bot: the bot with stand-in pictures)",
    )
    p.add_argument("--keep", action="store_true", help="keep the temporary folder (its path goes to stderr)")
    return p.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    from .run import campaign

    work = Path(tempfile.mkdtemp(prefix="campaign-"))
    try:
        figures = asyncio.run(campaign(args, work))
    finally:
        if args.keep:
            print(f"kept {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    print(figures.report(FIGURES))
    return 0
