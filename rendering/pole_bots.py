"""Pole Position bots in the images: a bot car's name, from the view (the table's names list has
only the players; bots sit in the seats after them)."""

from __future__ import annotations

from rendering.common import tx

_COLOURS = {"red": "Red", "blue": "Blue", "yellow": "Yellow", "green": "Green", "purple": "Purple", "orange": "Orange"}


def with_bots(view: dict, names: list[str]) -> list[str]:
    """The names of every car: the players' names, then each bot's ("Blue bot (A)"), in the
    image's locale (call inside drawing_in)."""
    out = list(names)
    for s, car in enumerate(view.get("cars") or []):
        b = car.get("bot")
        if not b:
            continue
        while len(out) <= s:
            out.append("")
        if b.get("for"):  # a bot drives a player's car while they are away
            out[s] = tx("{name} (bot)", name=out[s])
            continue
        out[s] = tx(
            "{colour} bot ({side})", colour=tx(_COLOURS.get(b.get("colour"), "Red")), side=str(b.get("side", ""))
        )
    return out
