"""What a seat cannot see in Heat, dealt again at random (`Engine.redraw_hidden`): the order of
every deck (its own too), the other players' hands, their secret choices of this round, and the
order of the Legends', Garage, sponsor and championship decks. Each pile is redrawn from its
sorted contents, so the result depends only on what the seat sees and the seed."""

from __future__ import annotations

from bot.games.base import clone
from bot.games.heat.rules import shuffle
from bot.games.rng import Rng


def _shuffled(rng: Rng, cards: list) -> list:
    out = sorted(cards)
    shuffle(rng, out)
    return out


def redraw(state: dict, seat: int, seed: int) -> tuple[dict, list[int]]:
    """The redrawn state, and the seats whose secret choice of this round was taken back (to be
    made again: the seat sees that they chose, not what)."""
    st = clone(state)
    again = []
    rng = Rng(seed)
    for i, car in enumerate(st["cars"]):
        if "legend" in car:
            continue
        if i == seat:
            car["deck"] = _shuffled(rng, car["deck"])
            continue
        if car["sub"] is not None:  # (chosen, not yet revealed: the reveal clears it)
            car["sub"] = None
            again.append(i)
        pool = _shuffled(rng, car["hand"] + car["deck"])
        car["hand"] = sorted(pool[: len(car["hand"])])
        car["deck"] = pool[len(car["hand"]) :]
    if "legend_deck" in st:
        st["legend_deck"] = _shuffled(rng, st["legend_deck"])
    if "draft" in st:
        st["draft"]["deck"] = _shuffled(rng, st["draft"]["deck"])
    if "champ" in st:
        for pile in ("sponsor_deck", "garage_deck"):
            if pile in st["champ"]:
                st["champ"][pile] = _shuffled(rng, st["champ"][pile])
    st["rng"] = rng.next64()
    return st, again
