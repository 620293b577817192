"""The attack campaign script (issue #7) runs end to end in a tiny version and prints every figure.
The figures are not asserted to be zero here (that comes with the fixes)."""
from __future__ import annotations

import re
import subprocess
import sys

from bot.campaign import FIGURES


def test_tiny_campaign_prints_every_figure():
    proc = subprocess.run([sys.executable, "-m", "bot", "campaign", "--minutes", "0.45", "--games", "1",
                           "--kills", "2", "--seed", "3", "--startup-wait", "4"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.strip().splitlines()
    figures = dict(line.split(": ", 1) for line in lines)
    assert list(figures) == list(FIGURES), proc.stdout
    assert all(re.fullmatch(r"\d+", v) for v in figures.values()), proc.stdout
    assert int(figures["games"]) == 1 and int(figures["forged_sent"]) > 0
    assert int(figures["startups_damaged"]) >= 4
