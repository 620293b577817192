"""The attack campaign script (issue #7) runs end to end in a tiny version and prints every figure.
What does not depend on the dice must be zero: no crash, no forged packet unanswered or accepted,
no traceback, no secret in the log, every damaged start-up a clean exit. (The crash figures of a
full run are the campaign's own proof; a tiny run is too random to pin them.)"""
from __future__ import annotations

import re
import subprocess
import sys

from bot.campaign import FIGURES


def test_tiny_campaign_prints_every_figure():
    proc = subprocess.run([sys.executable, "-m", "bot", "campaign", "--minutes", "0.45", "--games", "1",
                           "--kills", "2", "--seed", "3", "--startup-wait", "30"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.strip().splitlines()
    figures = dict(line.split(": ", 1) for line in lines)
    assert list(figures) == list(FIGURES), proc.stdout
    assert all(re.fullmatch(r"\d+", v) for v in figures.values()), proc.stdout
    assert int(figures["games"]) == 1 and int(figures["forged_sent"]) > 0
    assert int(figures["startups_damaged"]) >= 4
    for name in ("bot_crashes", "forged_unanswered", "forged_accepted", "forged_tracebacks", "bot_tracebacks",
                 "log_secret_lines", "startups_hung", "startups_traceback", "double_applied",
                 "slash_double_applied", "replay_failures"):
        assert figures[name] == "0", (name, proc.stdout)
    assert figures["startups_clean_exit"] == figures["startups_damaged"], proc.stdout
