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
    labels = {
        "light": lambda: tx("Event: light breakdown"),
        "heavy": lambda: tx("Event: heavy breakdown"),
        "ep": lambda: tx("Event: -1 EP"),
        "bp": lambda: tx("Event: -1 BP"),
        "sc": lambda: tx("Event: safety car"),
        "weather": lambda: tx("Event: weather +{n}", n=card.get("steps", 0)),
    }
    return labels[card["effect"]](), EVENT_COLOUR


def circuit_rules_text(view: dict) -> str:
    """The circuit's special rules in a few words (appendix 4), when the table uses them."""
    if not view.get("circuit_rules"):
        return ""
    key = str(view.get("circuit", "")).split("@")[0]
    texts = {
        "great_britain": lambda: tx("each event moves the weather 2 more; attackers +1"),
        "monaco": lambda: tx("a 2nd SC event card; defenders +1; light breakdown events are heavy"),
        "brazil": lambda: tx("1 BP less; in the dry 1 EP moves 4 cells"),
        "china": lambda: tx("1 EP more; everyone starts at stress 1; an event after the start"),
        "spain": lambda: tx("1 EP less, 1 BP more; an event each time light rain begins"),
        "usa": lambda: tx("a 2nd SC event card; 1 EP less; in the dry 1 BP moves 4 cells"),
        "italy": lambda: tx("low-grip areas"),
        "germany": lambda: tx("low-grip areas; DRS gives 3 MP"),
    }
    f = texts.get(key)
    return tx("Circuit rules: {rules}", rules=f()) if f else ""
