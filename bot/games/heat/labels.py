"""Heat's words and orders shared by the moves, the menus and the views: preference names, card
faces and labels, the order cards are shown in, card ids read from a move."""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache
from itertools import combinations
from typing import Any

import bot.games.heat.content as content
import bot.games.heat.rules as rules
from bot.games.base import GameError, chosen
from bot.games.heat.rules import KIND, PLAYABLE, SHORT, SPEED
from bot.games.text import plus
from bot.i18n import Msg, msg

PREF_NAMES = {
    "slipstream": "Slipstream",
    "boost": "Boost",
    "adrenaline": "Adrenaline",
    "cooldown": "Cooldown",
    "discard": "Discard",
    "order": "Boost/Adrenaline order",
    "direct": "Direct play",
    "accelerate": "Accelerate",
    "choice": "Choice of speed",
}
PREF_VALUES = {
    "smart": "Smart",
    "always": "Always",
    "never": "Never",
    "ask": "Ask me",
    "auto": "Auto",
    "keep": "Keep all",
    "best": "Best",
    "heat": "Heat cards when allowed",
}
KIND_ORDER = {"speed": 0, "upgrade": 1, "stress": 2, "heat": 3}


def face(code: str) -> dict:
    """A card's face for the images: kind, the big value ("1/3" for a choice), its symbols."""
    if code in content.garage()["types"] and content.garage()["types"][code].get("heat_card"):
        return {"kind": "heat", "value": None}
    kind = KIND[code]
    out: dict[str, Any] = {"kind": kind, "value": SPEED[code] if kind in ("speed", "upgrade") else None}
    if code in rules.GARAGE:
        if code in rules.CHOICES:
            out["value"] = "/".join(str(v) for v in rules.CHOICES[code])
        out["text"] = rules.card_text(code)
        out["symbols"] = rules.card_symbols(code)
        # the family and speed the card prints (its label may add the symbol that tells it from a twin)
        if code in content.garage()["types"]:  # (a sponsorship card has no twin)
            out["family"] = msg(content.garage_label(content.garage()["types"][code]))
    if rules.TYPES[code].get("sponsor"):  # Championship: a one-time-use sponsorship card
        out["sponsor"] = True
    return out


def plus_sign(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}"


def is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def parse_ids(action: dict) -> list[int]:
    """Card ids from "cards" (ints) or "values" (the strings a select sends)."""
    if "cards" in action:
        raw = action["cards"]
    elif type(action.get("values")) is list:
        raw = chosen(action)
        if len(raw) != len(action["values"]):
            raise GameError(msg("Choose cards from your hand."))
    else:
        raise GameError(msg("Choose cards from your hand."))
    if type(raw) is not list or len(raw) > 30:
        raise GameError(msg("Choose cards from your hand."))
    if len(raw) == 1 and isinstance(raw[0], str) and "," in raw[0]:  # a whole plan from the plans select
        raw = raw[0].split(",")[:30]
    out = []
    for x in raw:
        if type(x) is int:
            out.append(x)
        elif isinstance(x, str) and x.isdigit() and len(x) < 10:
            out.append(int(x))
        else:
            raise GameError(msg("Choose cards from your hand."))
    return out


def card_sort_key(st: dict, cid: int) -> tuple:
    code = st["cards"][cid]
    return (KIND_ORDER.get(KIND[code], 9), -SPEED[code], code, cid)


_CODE_ORDER: dict[str, tuple] = {}  # card type -> card_sort_key without the card id (filled as met)


def sorted_cards(st: dict, ids: list[int]) -> list[int]:
    """sorted(ids, key=card_sort_key), with each type's key worked out once."""
    cards = st["cards"]
    order = _CODE_ORDER

    def key(cid: int) -> tuple:
        code = cards[cid]
        k = order.get(code)
        if k is None:
            k = order[code] = (KIND_ORDER.get(KIND[code], 9), -SPEED[code], code)
        return k, cid

    return sorted(ids, key=key)


# Every card type's place in card_sort_key's order (the kind, the speed down, the type's name): card
# ids sorted by (rank, id) are sorted by card_sort_key.
_RANK: dict[str, int] = {
    code: i for i, code in enumerate(sorted(KIND, key=lambda code: (KIND_ORDER.get(KIND[code], 9), -SPEED[code], code)))
}
# The rank of the first card type that cannot be played (Heat), and whether every such type ranks
# after every playable one (then a sorted hand holds its playable cards first).
FIRST_UNPLAYABLE = min((rank for code, rank in _RANK.items() if not PLAYABLE[code]), default=len(_RANK))
UNPLAYABLE_LAST = all(PLAYABLE[code] == (rank < FIRST_UNPLAYABLE) for code, rank in _RANK.items())
_ID_BITS = 20  # card ids stay below 2**20 (a race's cards: some dozens, Stress added one by one)


_RANK_KEY = {code: rank << _ID_BITS for code, rank in _RANK.items()}
_ID_MASK = (1 << _ID_BITS) - 1


def ranked_cards(cards: list[str], ids: list[int]) -> tuple[list[int], tuple[int, ...]]:
    """sorted_cards(ids) and the rank of each one's type (equal ranks: equal types), sorted as ints
    (the rank above the id) without a Python key call per card."""
    rank_key = _RANK_KEY
    keys = sorted([rank_key[cards[c]] | c for c in ids])
    mask, bits = _ID_MASK, _ID_BITS
    return [k & mask for k in keys], tuple([k >> bits for k in keys])


def desc_cards(st: dict, ids: list[int]) -> Any:
    ordered = sorted(ids, key=lambda c: card_sort_key(st, c))
    return plus(msg(SHORT[st["cards"][c]]) for c in ordered)


def pref_label(key: str, value: str) -> Msg:
    """ "Boost: Smart": a preference and its value, both translated."""
    return msg("{name}: {value}", name=msg(PREF_NAMES[key]), value=msg(PREF_VALUES[value]))


def distinct_subsets(st: dict, ids: list[int], size: int) -> list[list[int]]:
    """Subsets of `size` cards, one per distinct multiset of card types."""
    cards = st["cards"]
    ordered = sorted_cards(st, ids)
    return [[ordered[i] for i in combo] for combo in distinct_places(tuple(cards[c] for c in ordered), size)]


@lru_cache(maxsize=65536)
def distinct_places(codes: tuple[Hashable, ...], size: int) -> tuple[tuple[int, ...], ...]:
    """distinct_subsets() of sorted cards given by their types, as places in the hand: the
    first of each multiset of types in combinations' order (hands repeat: played cards come back
    in new hands, so a search asks again and again). Sorted cards hold each type in one run, and
    the places depend only on the runs' lengths (group_places)."""
    runs: list[int] = []
    last: Any = _NO_CODE
    for code in codes:
        if code == last:
            runs[-1] += 1
        else:
            runs.append(1)
            last = code
    if len(runs) != len(set(codes)):  # a type in two runs (not sorted): every combination looked at
        return first_places(codes, size)
    return group_places(tuple(runs), size)


_NO_CODE = object()


def first_places(codes: tuple[Hashable, ...], size: int) -> tuple[tuple[int, ...], ...]:
    """distinct_places by its definition: each combination of places in order, kept when its
    types in that order are new (for sorted cards: its multiset of types)."""
    seen = set()
    out = []
    for combo in combinations(range(len(codes)), size):
        key = tuple(codes[i] for i in combo)
        if key not in seen:
            seen.add(key)
            out.append(combo)
    return tuple(out)


@lru_cache(maxsize=4096)
def group_places(runs: tuple[int, ...], size: int) -> tuple[tuple[int, ...], ...]:
    """distinct_places of cards whose types come in runs of these lengths, built directly: the first
    combination of a multiset takes the first places of each run, and of two such combinations the
    one taking more from the earliest run where they differ comes first in combinations' order."""
    starts = [sum(runs[:j]) for j in range(len(runs))]
    room = [sum(runs[j:]) for j in range(len(runs) + 1)]  # the places from run j on
    out: list[tuple[int, ...]] = []

    def take(j: int, need: int, prefix: tuple[int, ...]) -> None:
        if need == 0:
            out.append(prefix)
            return
        if room[j] < need:
            return
        for k in range(min(runs[j], need), -1, -1):
            take(j + 1, need - k, prefix + tuple(range(starts[j], starts[j] + k)))

    take(0, size, ())
    return tuple(out)


def choice_label(o: list) -> Msg:
    """A choice-of-speed option: the total, where it takes the car, the corner Heat or a spin."""
    total, space, heat, spin, finish = o
    if finish:
        return msg("Speed {s}: across the finish line", s=total)
    if spin:
        return msg("Speed {s}: to space {p}, a spin at a corner (Heat {h} needed)", s=total, p=space, h=heat)
    if heat:
        return msg("Speed {s}: to space {p}, corner Heat {h}", s=total, p=space, h=heat)
    return msg("Speed {s}: to space {p}", s=total, p=space)


def is_seat(state: dict, seat: Any) -> bool:
    """Whether `seat` is one of the table's seats."""
    return type(seat) is int and 0 <= seat < state["seats"]


def describe_submit(state: dict, car: dict, ids: list[int]) -> Msg:
    """A submission's label: its gear and cards, the Heat a shift costs, a clogged hand."""
    n = len(ids)
    cards = desc_cards(state, ids)
    shift = abs(n - car["gear"]) == 2
    clogged = any(not PLAYABLE[state["cards"][c]] for c in ids if 0 <= c < len(state["cards"]))
    flood = rules.shift_heat(state, car, n) - (1 if shift else 0)
    if flood:  # Heavy Rain: shifting down from a flooded space
        label = msg("Gear {g}: {cards} (flooded downshift: {n} Heat)", g=n, cards=cards, n=flood + (1 if shift else 0))
        return msg("{a} (clogged: no move)", a=label) if clogged else label
    if shift and clogged:
        return msg("Gear {g}: {cards} (2-gear shift: 1 Heat) (clogged: no move)", g=n, cards=cards)
    if shift:
        return msg("Gear {g}: {cards} (2-gear shift: 1 Heat)", g=n, cards=cards)
    if clogged:
        return msg("Gear {g}: {cards} (clogged: no move)", g=n, cards=cards)
    return msg("Gear {g}: {cards}", g=n, cards=cards)
