"""Heat positions with Legends that several test modules build: a race with Legends, a car parked
at a space, the next Legend card chosen, a Legend round played."""

from __future__ import annotations

from bot.games.heat import ENGINE as E
from tests.heat.helpers import submit


def lnew(seats=1 + 1, legends=2, track="usa", seed=1, **opts):
    return E.new_game({"track": track, "grid": "seats", "legends": legends, **opts}, seats, seed)


def with_card(st, card_no):
    """Make card `card_no` (1-10) the next Legend card."""
    k = card_no - 1
    st["legend_deck"] = [c for c in st["legend_deck"] if c != k] + [k]
    return st


def legend_round(st, card_no, plays=None):
    """One round: the seats play `plays` (default a 0 each), the Legends card `card_no`."""
    with_card(st, card_no)
    events = []
    for seat in range(st["seats"]):
        st, ev = submit(st, seat, (plays or {}).get(seat, ["start0"]))
        events += ev
    return st, events
