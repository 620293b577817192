"""Pole Position: what the board shows of the optional rules added after the standard race: the
event in force (9; the card revealed this round or the last one) and the circuit-rules tag."""
from __future__ import annotations

from bot.games.pole import events as EV
from rendering.common import tx

EVENT_COLOUR = (255, 170, 70)


def badge(view: dict):
    """The latest event card while it is news (revealed this round or the one before)."""
    e = view.get("events") or {}
    last = e.get("last")
    if not last or last.get("round", -9) < (view.get("round") or 0) - 1:
        return None
    try:
        card = EV.card(last["card"])
    except StopIteration:
        return None
    labels = {"light": lambda: tx("Event: light breakdown"), "heavy": lambda: tx("Event: heavy breakdown"),
              "ep": lambda: tx("Event: -1 EP"), "bp": lambda: tx("Event: -1 BP"),
              "sc": lambda: tx("Event: safety car"),
              "weather": lambda: tx("Event: weather +{n}", n=card.get("steps", 0))}
    return labels[card["effect"]](), EVENT_COLOUR
