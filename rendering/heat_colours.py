"""Heat's car colours, shared by the race images (rendering/heat.py) and the championship's
standings (rendering/heat_standings.py): the seat's colour, but a Legend in the orange seat is
drawn white."""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

from rendering import common
from rendering.common import PLAYER_COLOURS

# Legends are Heat's own cars: a Legend in the orange seat is drawn white, as yellow and orange
# Legends side by side were hard to tell apart (issue #33). The players keep the colours they have
# in every game.
LEGEND_WHITE = (238, 240, 244)
_LEGEND_SEATS: ContextVar[frozenset[int]] = ContextVar("heat_legend_seats", default=frozenset())


def seat_colour(seat: int) -> tuple[int, int, int]:
    """A car's colour: the seat's (rendering.common), but never orange for a Legend."""
    colour = common.seat_colour(seat)
    return LEGEND_WHITE if colour == PLAYER_COLOURS[5] and seat in _LEGEND_SEATS.get() else colour


@contextmanager
def legend_seats(view: dict) -> Iterator[None]:
    """Draw this block knowing which seats are the view's Legends."""
    seats = frozenset(_seat(c.get("seat")) for c in view.get("cars") or [] if isinstance(c, dict) and c.get("legend"))
    token = _LEGEND_SEATS.set(seats)
    try:
        yield
    finally:
        _LEGEND_SEATS.reset(token)


def _seat(value: object) -> int:
    try:
        return int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return -1
