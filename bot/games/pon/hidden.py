"""What a seat cannot see in PON, dealt again at random (`Engine.redraw_hidden`): the other
players' hands, the deck's order, and the face-down courses it has not looked at. Those cards
are pooled (sorted, so only what the seat sees counts) and dealt again: the unknown courses (each
its kind of card), each other hand its count, the deck the rest."""

from __future__ import annotations

import random

from bot.games.base import clone
from bot.games.pon.content import CARDS


def redraw(state: dict, seat: int, seed: int) -> dict:
    st = clone(state)
    rng = random.Random(seed)
    cards = CARDS  # (loaded once: reading the files again cost a look-ahead a tenth of its time)
    others = [s for s in range(st["seats"]) if s != seat]
    unknown = [i for i, up in enumerate(st["face_up"]) if not up and i not in st["known"][seat]]
    pool = sorted([c for s in others for c in st["hands"][s]] + st["deck"] + [st["circuit"][i] for i in unknown])
    rng.shuffle(pool)
    for i in unknown:  # a face-down card keeps its kind: the setup deals courses there, a swap a hand's card
        kind = cards[st["circuit"][i]].kind
        card = next(c for c in pool if cards[c].kind == kind)
        pool.remove(card)
        st["circuit"][i] = card
    for s in others:
        n = len(st["hands"][s])
        st["hands"][s], pool = pool[:n], pool[n:]
    st["deck"] = pool
    st["rng"] = rng.getrandbits(63)
    return st
