"""The ways a move is refused before anything changes, shared by the table and the
automatic player (so neither imports the other for them)."""

from __future__ import annotations


class PlayerError(Exception):
    """A mistake by the person who clicked or typed: shown to them alone (in their language),
    nothing changes. Its one argument is a Msg (or text)."""


class StaleButton(Exception):
    """A button or select from an older menu of this seat."""


class HeldByAutomaticPlayer(StaleButton):
    """A move its owner tried for a seat the automatic player holds (a pick from an older list, a
    move it cannot make now): the try takes the seat back; the board has moved on, so the pick
    itself is not judged."""
