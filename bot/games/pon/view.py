"""What a PON seat (or a spectator) sees: the circuit, the running order, the throttles and the
PON sets; the seat's own hand and peeked courses only in its own view."""

from __future__ import annotations

from typing import Any

from bot.games.base import State, View, clone
from bot.games.pon.common import VIEW_LOG, card_label, default_prefs, effect_text, number_of
from bot.games.pon.content import CARDS
from bot.games.pon.rules import defender_of, requirement, to_act
from bot.i18n import from_wire, msg


def _courses(st: State) -> list[dict[str, Any]]:
    """The circuit's courses as everyone sees them: face-up ones named, their throttles, who peeked."""
    courses = []
    over = st["phase"] == "over"
    for i, cid in enumerate(st["circuit"]):
        up = st["face_up"][i]
        passed = i < st["current"] or (over and i == st["current"])
        courses.append(
            {
                "index": i,
                "number": number_of(cid) if up else None,
                "name": msg(CARDS[cid].name) if up else None,
                "effect": effect_text(cid) if up else None,
                "face_up": up,
                "racing_card": CARDS[cid].kind == "racing" if up else None,
                "passed": passed,
                "throttle": [card_label(c) for c in st["throttles"][i]],
                # Who has looked at this course (public: peeks and swaps happen in plain sight).
                "known_by": [s for s in range(st["seats"]) if i in st["known"][s]] if not up else [],
            }
        )
    return courses


def _chase(st: State) -> dict[str, Any] | None:
    """The overtaking attempt under way: who attacks whom and the cards it takes (None if none)."""
    chase = None
    if st["phase"] in ("attack", "block"):
        attacker = st["chase"]["attacker"]
        defender = defender_of(st)
        specific, anys, need, right = requirement(st, attacker, defender)
        chase = {
            "attacker": attacker,
            "defender": defender,
            "numbers": specific,
            "any": anys,
            "cards_needed": need,
            "with_block_right": need - 1 if right else None,
        }
    return chase


def _me(st: State, seat: int) -> dict[str, Any]:
    """The seat's private part of its own view: its hand, peeked courses, preferences, PON answer."""
    hand = [
        {
            "id": c,
            "number": number_of(c),
            "event": msg(CARDS[c].name) if CARDS[c].kind == "racing" else None,
            "text": msg(CARDS[c].text) if CARDS[c].kind == "racing" else msg("Course card: no event."),
            "label": card_label(c),
            "kind": CARDS[c].kind,
        }
        for c in sorted(st["hands"][seat], key=lambda x: (number_of(x), x))
    ]
    peeked = [
        {
            "index": i,
            "number": number_of(st["circuit"][i]),
            "name": msg(CARDS[st["circuit"][i]].name),
            "effect": effect_text(st["circuit"][i]),
        }
        for i in sorted(set(st["known"][seat]))
        if not st["face_up"][i]
    ]
    answer = None
    if st["phase"] == "pon":
        raw = st["window"]["answers"].get(str(seat))
        answer = raw if raw is None or raw == "pass" else [card_label(c) for c in raw]
    return {
        "seat": seat,
        "hand": hand,
        "peeked": peeked,
        "prefs": {**default_prefs(), **clone(st["prefs"][seat])},
        "pon_answer": answer,
        "event_used": seat in st["turn"]["events"],
        "to_act": seat in to_act(st),
    }


def view(state: State, viewer: int | None) -> View:
    """What `viewer` sees (None: a spectator); its own hand and peeks only in its own view."""
    st = state
    courses = _courses(st)
    chase = _chase(st)
    window = None
    if st["phase"] == "pon":
        window = {
            "number": st["window"]["number"],
            "card": card_label(st["window"]["card"]),
            "asked": list(st["window"]["asked"]),
        }
    phase = {
        "peek": "peek",
        "over": "over",
        "refill": "end_turn",
        "finish_turn": "end_turn",
        "end_turn": "end_turn",
    }.get(st["phase"], "main")
    v: View = {
        "kind": "pon",
        "seats": st["seats"],
        "courses": courses,
        "current": st["current"],
        # a new course (turn) gets a new board image at the table; 0 during the setup peeks
        "turn": 0 if st["phase"] == "peek" else st["current"] + 1,
        "order": list(st["order"]),
        "turn_order": list(st["turn_order"]),
        "actor": st["actor"],
        "played": card_label(st["played"]) if st["played"] is not None else None,
        "pon_sets": {str(s): [[number_of(c) for c in pset] for pset in st["pon"][s]] for s in range(st["seats"])},
        "pon_cards": {str(s): [[card_label(c) for c in pset] for pset in st["pon"][s]] for s in range(st["seats"])},
        "hand_counts": {str(s): len(st["hands"][s]) for s in range(st["seats"])},
        "deck_count": len(st["deck"]),
        "discard": [card_label(c) for c in st["discard"]],
        "discard_top": card_label(st["discard"][-1]) if st["discard"] else None,
        "phase": phase,
        "step": st["phase"],
        "waiting_for": to_act(st),
        "window": window,
        "overtake": chase,
        "block_right": sorted(int(s) for s, k in st["turn"]["discounts"].items() if k > 0),
        "events_used": sorted(st["turn"]["events"]),
        "mods": dict(st["turn"]["mods"]),
        "log": from_wire(st["log"][-VIEW_LOG:]),  # Msgs (plain strings in games logged before #10)
        "winner": st["winner"],
    }
    if viewer is not None and 0 <= viewer < st["seats"]:
        v["me"] = _me(st, viewer)
    return v
