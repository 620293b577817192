"""Scenario builders for the Heat rules tests: set up exact positions, hands and decks."""

from __future__ import annotations

import copy

from bot.games.heat import ENGINE as E
from bot.games.heat import rules
from bot.i18n import render


def en(value):
    """English words for an engine text (a Msg), or for a list of them."""
    if isinstance(value, list):
        return [en(v) for v in value]
    return render(value, "en")


def new(track: str = "usa", seats: int = 2, seed: int = 1) -> dict:
    return E.new_game({"track": track, "grid": "seats"}, seats, seed)


def _make(st: dict, codes: list[str]) -> list[int]:
    ids = []
    for code in codes:
        ids.append(len(st["cards"]))
        st["cards"].append(code)
    return ids


def setcar(
    st: dict,
    seat: int,
    *,
    pos: int | None = None,
    lane: int | None = None,
    gear: int | None = None,
    hand: list[str] | None = None,
    deck: list[str] | None = None,
    discard: list[str] | None = None,
    engine: int | None = None,
    prefs: dict | None = None,
) -> dict:
    """Replace a car's zones with fresh cards of the given codes. `deck` is listed top first."""
    car = st["cars"][seat]
    if pos is not None:
        car["pos"] = pos
    if lane is not None:
        car["lane"] = lane
    if gear is not None:
        car["gear"] = gear
    if hand is not None:
        car["hand"] = _make(st, hand)
    if deck is not None:
        car["deck"] = list(reversed(_make(st, deck)))
    if discard is not None:
        car["discard"] = _make(st, discard)
    if engine is not None:
        car["engine"] = _make(st, ["heat"] * engine)
    if prefs is not None:
        car["prefs"].update(prefs)
    return car


def ids_of(st: dict, seat: int, codes: list[str]) -> list[int]:
    """Hand card ids for the codes (each used once)."""
    hand = list(st["cars"][seat]["hand"])
    out = []
    for code in codes:
        cid = next(c for c in hand if st["cards"][c] == code)
        hand.remove(cid)
        out.append(cid)
    return out


def submit(st: dict, seat: int, codes: list[str]) -> tuple[dict, list]:
    return E.apply(st, seat, {"type": "submit", "cards": ids_of(st, seat, codes)})


def round_(st: dict, plays: dict[int, list[str]]) -> tuple[dict, list]:
    """Submit for every racing seat (default: gear-many copies of its first playable card type,
    e.g. the 0s of a parked car) and resolve."""
    events = []
    for seat, car in enumerate(st["cars"]):
        if car["fin"]:
            continue
        codes = plays.get(seat)
        if codes is None:
            codes = [st["cards"][next(c for c in car["hand"] if rules.PLAYABLE[st["cards"][c]])]]
            codes *= car["gear"]
        st, ev = submit(st, seat, codes)
        events += ev
    return st, events


def space(st: dict, seat: int) -> int:
    tr = rules.track_of(st)
    return rules.space_of(tr, st["cars"][seat]["pos"])


def codes(st: dict, ids: list[int]) -> list[str]:
    return sorted(st["cards"][c] for c in ids)


def snapshot(st: dict) -> dict:
    return copy.deepcopy(st)


QUIET = {"adrenaline": "never", "slipstream": "never", "boost": "never"}


def parked(st: dict, seat: int, pos: int, lane: int = 1, card: str = "start0", **prefs: str) -> None:
    """A car at `pos` in gear 1 that plays `card` every round (start0: a 0) and takes no optional
    moves but the `prefs` given."""
    setcar(
        st,
        seat,
        pos=pos,
        lane=lane,
        gear=1,
        hand=[card] * 7,
        deck=[card] * 10,
        discard=[],
        engine=6,
        prefs={**QUIET, **prefs},
    )


def car(st: dict, seat: int) -> dict:
    return st["cars"][seat]
