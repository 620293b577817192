"""The attack campaign script (issues #7, #28) runs end to end in a tiny version, one table of each
of the five games, and prints every figure. (Its length is the campaign's floor: 20 s of games and
forged packets, then the damaged start-ups; a timing belongs in a benchmark, not here.)
What does not depend on the dice must be zero: no crash, no forged packet unanswered or accepted,
no traceback, no secret in the log, every damaged start-up a clean exit. (The crash figures of a
full run are the campaign's own proof; a tiny run is too random to pin them.)"""

from __future__ import annotations

import re
import subprocess
import sys

from bot.tools.campaign import FIGURES

from . import standins


def test_tiny_campaign_prints_every_figure():
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "campaign",
            "--minutes",
            "0.35",
            "--games",
            "5",
            "--kills",
            "3",
            "--seed",
            "3",
            "--stall",
            "6",
            "--startup-wait",
            "30",
            "--startups",
            "5",
            "--bot",  # the figures hold with any pictures; drawing was most of its CPU
            *standins.BOT_ARGV,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.strip().splitlines()
    figures = dict(line.split(": ", 1) for line in lines)
    assert list(figures) == list(FIGURES), proc.stdout
    assert all(re.fullmatch(r"\d+", v) for v in figures.values()), proc.stdout
    assert int(figures["games"]) == 5 and int(figures["forged_sent"]) > 0, proc.stderr[-3000:]
    assert "games by kind (started/finished): heat 1/" in proc.stderr
    for kind in ("pon", "pole", "steamworks", "rallyman"):
        assert f" {kind} 1/" in proc.stderr, proc.stderr[-3000:]
    assert int(figures["startups_damaged"]) >= 4
    for name in (
        "bot_crashes",
        "forged_unanswered",
        "forged_accepted",
        "forged_tracebacks",
        "bot_tracebacks",
        "log_secret_lines",
        "startups_hung",
        "startups_traceback",
        "double_applied",
        "slash_double_applied",
        "replay_failures",
    ):
        assert figures[name] == "0", (name, proc.stdout)
    assert figures["startups_clean_exit"] == figures["startups_damaged"], proc.stdout
