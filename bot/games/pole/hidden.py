"""What a seat cannot see in Pole Position, dealt again at random (`Engine.redraw_hidden`): the
other players' secret tyre choices (imagined again, as each player would choose), the order of
the event deck, and the dice to come."""

from __future__ import annotations

import random

from bot.games.base import clone


def redraw(state: dict, seat: int, seed: int) -> tuple[dict, list[int]]:
    """The redrawn state, and the seats whose secret tyre choice was taken back (to be made again:
    the seat sees that they chose, not what)."""
    st = clone(state)
    rng = random.Random(seed)
    again = sorted(int(k) for k in st["tyre_pick"] if int(k) != seat and not st["cars"][int(k)].get("bot"))
    for s in again:
        del st["tyre_pick"][str(s)]
    events = st.get("events")
    if isinstance(events, dict) and events.get("deck"):
        deck = sorted(events["deck"])
        rng.shuffle(deck)
        events["deck"] = deck
    st["rng"] = rng.getrandbits(63)
    return st, again
