"""Scenario builders for PON tests: put named cards exactly where a test needs them."""

from __future__ import annotations

import json
from typing import Any

import orjson

from bot.games.base import Event, name_seats
from bot.games.pon import ENGINE as E
from bot.games.pon.content import CARDS
from bot.games.pon.common import default_prefs
from bot.games.pon.flow import run
from bot.i18n import Msg, from_wire, render


def plain(value: Any) -> Any:
    """A view (or any structure) with every Msg replaced by its English words: what the JSON
    leak checks look at."""
    if isinstance(value, Msg):
        return render(value, "en")
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def _words(value: Any) -> str:
    if isinstance(value, Msg):
        return render(value, "en")
    raise TypeError(f"not JSON: {value!r}")


def plain_json(value: Any) -> str:
    """json.dumps(plain(value), ensure_ascii=False), in one pass (the leak checks of every step of
    a playout read a view this way; orjson: a tenth of a random game's CPU with json)."""
    return orjson.dumps(value, default=_words, option=orjson.OPT_NON_STR_KEYS).decode()


def en(value: Any) -> Any:
    """English words for an engine text (a Msg, or one in its JSON form in the state), or a list of them."""
    if isinstance(value, list):
        return [en(v) for v in value]
    return render(from_wire(value), "en")


NAME = {c.name: c.id for c in CARDS.values()}


def C(name: str) -> int:
    """A card id by its (unique) name."""
    return NAME[name]


def cards(*names: str) -> list[int]:
    return [C(n) for n in names]


def arrange(
    seats: int = 3,
    *,
    order: list[int] | None = None,
    hands: dict[int, list[str]] | None = None,
    circuit: dict[int, str] | None = None,
    throttles: dict[int, list[str]] | None = None,
    discard: list[str] | None = None,
    pon: dict[int, list[list[str]]] | None = None,
    current: int = 0,
    face_down: list[int] | None = None,
    prefs: dict[int, dict[str, Any]] | None = None,
    effect: bool = False,
    known: dict[int, list[int]] | None = None,
    turn_order: list[int] | None = None,
) -> tuple[dict[str, Any], list[Event]]:
    """A main-phase state at course `current`; the first seat of `turn_order` (default: `order`,
    first place first) acts first.

    Only the named cards exist (unnamed circuit slots get unused course cards). With
    effect=False the course effect of the current course is skipped (stage begins at the first
    main phase); with effect=True the turn starts normally (course turned up, effect applied)."""
    length = 12 if seats == 3 else 10
    order = list(range(seats)) if order is None else list(order)
    used: set[int] = set()

    def take(name: str) -> int:
        cid = C(name)
        assert cid not in used, f"{name} placed twice"
        used.add(cid)
        return cid

    hands_ids = [[take(n) for n in (hands or {}).get(s, [])] for s in range(seats)]
    throttle_ids = [[take(n) for n in (throttles or {}).get(i, [])] for i in range(length)]
    discard_ids = [take(n) for n in (discard or [])]
    pon_ids = [[[take(n) for n in pset] for pset in (pon or {}).get(s, [])] for s in range(seats)]
    slots: list[int | None] = [None] * length
    for i, name in (circuit or {}).items():
        slots[i] = take(name)
    spare = [c.id for c in CARDS.values() if c.kind == "course" and c.id not in used]
    for i in range(length):
        if slots[i] is None:
            slots[i] = spare.pop(0)
            used.add(slots[i])
    st = E.new_game({}, seats, 1)
    st.update(
        {
            "phase": "start_turn" if effect else "begin_main",
            "circuit": slots,
            "face_up": [i not in (face_down or []) for i in range(length)],
            "throttles": throttle_ids,
            "known": [list((known or {}).get(s, [])) for s in range(seats)],
            "peeked": [None] * seats,
            "peek_queue": [],
            "deck": [],
            "hands": hands_ids,
            "discard": discard_ids,
            "pon": pon_ids,
            "order": order,
            "turn_order": list(turn_order or order),
            "actor_pos": 0,
            "actor": None,
            "current": current,
            "log": [],
            "turn": {"events": [], "discounts": {}, "mods": {}, "flags": {}},
        }
    )
    if not effect:
        st["face_up"][current] = True
    for s in range(seats):
        p = default_prefs()
        for key, value in (prefs or {}).get(s, {}).items():
            if key == "pon":
                p["pon"].update(value)
            else:
                p[key] = value
        st["prefs"][s] = p
    ev: list[Event] = []
    run(st, ev)
    json.loads(json.dumps(st))
    return st, ev


def act(st: dict[str, Any], seat: int, action: dict[str, Any]) -> tuple[dict[str, Any], list[Event]]:
    return E.apply(st, seat, action)


def play(st: dict[str, Any], seat: int, name: str) -> tuple[dict[str, Any], list[Event]]:
    """`seat` plays the card named `name`."""
    return act(st, seat, {"type": "play", "card": C(name)})


SEAT_NAMES = ["P1", "P2", "P3", "P4"]


def texts(events: list[Event], public_only: bool = True) -> str:
    return "\n".join(name_seats(en(e.text), SEAT_NAMES) for e in events if e.to is None or not public_only)


def hand_names(st: dict[str, Any], seat: int) -> set[str]:
    return {CARDS[c].name for c in st["hands"][seat]}


def names(ids: list[int]) -> list[str]:
    return [CARDS[c].name for c in ids]


PREF_CHANGES = [
    {"pon": {"3": "ask"}},
    {"pon": {"1": "never"}},
    {"block": "ask"},
    {"block": "yield"},
    {"refill": "ask"},
    {"discard": "ask"},
    {"pon": {n: "auto" for n in "1234"}, "block": "auto"},
    {"values": ["pon:2:ask"]},
    {"values": ["discard:auto"]},
    {"decay": "ask"},
    {"values": ["decay:auto"]},
    {"events": "ask"},
    {"events": "never"},
    {"values": ["events:auto"]},
]
