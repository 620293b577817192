"""Issue #27: the table never goes silent. Seeded games of all five games, played to the end
through the emulator by players who act only on what Discord shows them; after every commit,
each seat the engine waits for:
- was told of its decision exactly once when the decision began (a new DM holding its controls,
  not silent, or, with its DMs closed, a ping in the thread), and is not told again while it decides (a
  decision begins when a seat starts waiting, or with a new turn: the spectator view's "turn";
  no engine here uses the contract's `decision` hook);
- holds controls that act on its current decision (its newest DM's buttons carry the seat's
  current prompt version, made no earlier than the decision began);
- has a reminder timer.
"""

from __future__ import annotations

import pytest


from tests.e2e.watch import GAMES, play


@pytest.mark.parametrize("kind", sorted(GAMES))
async def test_every_waiting_seat_is_told_once_and_holds_live_controls(table, kind):
    await play(table, kind)
