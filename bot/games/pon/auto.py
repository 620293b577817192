"""Standing-preference play: what a seat on "auto" does without being asked.

Every function here decides for ONE seat from what that seat may see (its own hand, the courses
it knows, public cards). It never looks at another seat's hand, so an automatic decision cannot
leak anything the seat could not have known. The simulation's greedy strategy uses these too.
"""

from __future__ import annotations

from typing import Any

from bot.games.pon.content import CARDS

State = dict[str, Any]


def course_number_seen(st: State, seat: int, idx: int) -> int | None:
    """The number of course `idx` if `seat` can see it (face up, or peeked), else None."""
    if not 0 <= idx < len(st["circuit"]):
        return None
    if st["face_up"][idx] or idx in st["known"][seat]:
        return CARDS[st["circuit"][idx]].number
    return None


def card_value(st: State, seat: int, cid: int) -> float:
    """How much `seat` wants to keep (or get) card `cid`: lines it can attack, pairs, events."""
    n = CARDS[cid].number
    value = 1.0
    cur = st["current"]
    targets = {course_number_seen(st, seat, i) for i in (cur, cur + 1)}
    if n in targets:
        value += 1.5
    same = sum(1 for x in st["hands"][seat] if x != cid and CARDS[x].number == n)
    value += 0.8 * min(same, 2)
    if CARDS[cid].kind == "racing":
        value += 0.5
    return value


def choose_pon_pair(st: State, seat: int, number: int) -> list[int] | None:
    """Declare PON when it helps: a pair of `number` and at least one card left afterwards."""
    hand = st["hands"][seat]
    same = [x for x in hand if CARDS[x].number == number]
    if len(same) < 2 or len(hand) < 3:
        return None
    same.sort(key=lambda x: (card_value(st, seat, x), x))
    return sorted(same[:2])


def choose_block(st: State, seat: int, options: list[list[int]]) -> list[int] | None:
    """Block whenever possible, giving up the cards it values least."""
    if not options:
        return None
    return min(options, key=lambda combo: (sum(card_value(st, seat, x) for x in combo), combo))


def choose_take(st: State, seat: int, cards: list[int]) -> int:
    """The card `seat` values most among `cards` (a throttle or the discard)."""
    return max(cards, key=lambda x: (card_value(st, seat, x), -x))


def choose_discard(st: State, seat: int) -> int:
    """The card `seat` values least in its hand."""
    return min(st["hands"][seat], key=lambda x: (card_value(st, seat, x), x))


def choose_decay(st: State, seat: int, pset: list[int]) -> int:
    """The index of the card a decaying PON set of `seat` loses: the one whose loss costs least.
    Every card of a set has the set's number, so the set counts the same whatever goes; what
    differs is the card that lands face up in the discard, where anyone may take it. Drop the
    card `seat` values least in hand (a course card, which has no event, before a racing card);
    on a tie the newest card, as the fixed rule did before."""
    return min(range(len(pset)), key=lambda i: (card_value(st, seat, pset[i]), -i))
