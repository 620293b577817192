"""What a PON seat is offered: the label of each move and the menu of selects and buttons, built
from the seat's legal moves and what it may see."""

from __future__ import annotations

from typing import Any

from bot.games.base import State
from bot.games.pon.common import (
    NUMBERS,
    OWN_PHASES,
    PON_PREFS,
    SIMPLE_PREFS,
    card_label,
    card_labels,
    number_of,
    seat_pref,
)
from bot.games.pon.content import CARDS
from bot.games.pon.rules import legal_actions, requirement
from bot.games.text import plus
from bot.i18n import Msg, msg


def describe_action(state: State, seat: int, action: dict[str, Any]) -> Msg:
    """A short label for one of the seat's moves (unique among its legal moves)."""
    st = state
    kind = action.get("type") if isinstance(action, dict) else None
    card = action.get("card") if isinstance(action, dict) else None

    def cardtxt(cid: Any) -> Msg:
        if not isinstance(cid, int) or isinstance(cid, bool) or cid not in CARDS:
            return msg("?")
        c = CARDS[cid]
        if c.kind == "course":
            return msg("{n} (course card: {name})", n=c.number, name=msg(c.name))
        return msg("{n} (event: {name})", n=c.number, name=msg(c.name))

    if kind == "play":
        return msg("Play {card}", card=cardtxt(card))
    if kind == "event":
        c = CARDS.get(card) if isinstance(card, int) else None
        if c is None:
            return msg("Use an event")
        return msg("Use event: {name} (puts your {n} in the throttle)", name=msg(c.name), n=c.number)
    if kind == "pon":
        cards = action.get("cards") or []
        return msg("PON! with {cards}", cards=plus(cardtxt(c) for c in cards))
    if kind == "pon_pass":
        return msg("No PON (pass)")
    if kind == "slip":
        return msg("Slipstream: take {card} from the discard", card=cardtxt(card))
    if kind == "salvage":
        return msg("Empty hand: take {card} from the discard and pass", card=cardtxt(card))
    if kind == "take":
        return msg("Take {card} from the throttle", card=cardtxt(card))
    if kind == "refill":
        return msg("Refill: take {card} from the throttle", card=cardtxt(card))
    if kind == "discard":
        return msg("Discard {card} (hand limit)", card=cardtxt(card))
    if kind == "decay":
        return msg("PON decay: drop {card}", card=cardtxt(card))
    if kind == "block":
        cards = action.get("cards") or []
        saved = False
        if st.get("phase") == "block" and isinstance(cards, list):
            _, _, need, right = requirement(st, st["chase"]["attacker"], seat)
            saved = right and len(cards) < need
        if not cards:
            return msg("Block without a card (uses your block right)") if saved else msg("Block without a card")
        if saved:
            return msg("Block with {cards} (uses your block right)", cards=plus(cardtxt(c) for c in cards))
        return msg("Block with {cards}", cards=plus(cardtxt(c) for c in cards))
    if kind == "yield":
        return msg("Yield (let them past)")
    if kind == "attack":
        return msg("Go on: the overtake is put to the next player")
    if kind == "peek":
        course = action.get("course")
        return msg("Peek at course {k}", k=course + 1 if isinstance(course, int) else "?")
    if kind == "pick":
        pick = st.get("pick") or {}
        op = pick.get("op")
        if op == "peek":
            course = action.get("course")
            return msg("Look at course {k}", k=course + 1 if isinstance(course, int) else "?")
        if op in ("pon_add",):
            return msg("Add {card} to your PON set", card=cardtxt(card))
        if op == "swap_course":
            return msg("Swap {card} into the course", card=cardtxt(card))
        if op == "take_discard":
            return msg("Take {card} from the discard", card=cardtxt(card))
        return msg("Take {card} from the throttle", card=cardtxt(card))
    if kind == "prefs":
        return msg("Change preferences")
    return msg("Unknown move")


Groups = list[dict[str, Any]]


def _select(groups: Groups, placeholder: Msg, action: dict[str, Any], options: list[dict[str, Any]]) -> None:
    """One select per 25 options."""
    for start in range(0, len(options), 25):
        chunk = options[start : start + 25]
        # More than a select holds: each page says which of the choices it has (issue #33:
        # "(1)" said nothing).
        ph = (
            placeholder
            if len(options) <= 25
            else msg(
                "{placeholder} (choices {a}-{b} of {n})",
                placeholder=placeholder,
                a=start + 1,
                b=start + len(chunk),
                n=len(options),
            )
        )
        groups.append(
            {"kind": "select", "placeholder": ph, "min": 1, "max": 1, "action": dict(action), "options": chunk}
        )


def _card_option(cid: int, label: Msg | None = None) -> dict[str, Any]:
    c = CARDS[cid]
    text = msg(c.text) if c.kind == "racing" else msg("Course card: no event.")
    return {"label": label or card_label(cid), "value": str(cid), "description": text}


def menu(state: State, seat: int) -> list[dict[str, Any]]:
    """The seat's selects and buttons for its legal moves now, then its preferences."""
    st = state
    if st["phase"] == "over" or not 0 <= seat < st["seats"]:
        return []
    groups: Groups = []
    acts = legal_actions(st, seat)
    if acts:
        kind = acts[0]["type"]
        if kind == "discard":
            _select(
                groups,
                msg("Over the hand limit: discard a card"),
                {"type": "discard"},
                [_card_option(a["card"]) for a in acts],
            )
        elif kind == "decay":
            _select(
                groups,
                msg("PON decays: which card of the set goes to the discard?"),
                {"type": "decay"},
                [
                    _card_option(
                        a["card"],
                        msg("Drop {card} (PON set of {n}s)", card=card_label(a["card"]), n=number_of(a["card"])),
                    )
                    for a in acts
                ],
            )
        elif kind == "peek":
            _select(
                groups,
                msg("Peek at a course"),
                {"type": "peek"},
                [
                    {
                        "label": msg("Course {k}", k=a["course"] + 1),
                        "value": str(a["course"]),
                        "description": msg("face up") if st["face_up"][a["course"]] else msg("face down"),
                    }
                    for a in acts
                ],
            )
        elif st["phase"] in OWN_PHASES:
            _own_turn(groups, st, acts)
        elif kind in ("pon", "pon_pass"):
            _pon_answer(groups, acts)
        elif kind in ("block", "yield"):
            _block_choice(groups, st, seat, acts)
        elif kind in ("slip", "salvage"):
            title = (
                msg("Slipstream: take a card from the discard")
                if kind == "slip"
                else msg("Empty hand: take a card from the discard")
            )
            _select(groups, title, {"type": kind}, [_card_option(a["card"]) for a in reversed(acts)])
        elif kind == "refill":
            _select(
                groups,
                msg("Refill: take a card from the throttle"),
                {"type": "refill"},
                [_card_option(a["card"]) for a in acts],
            )
        elif kind == "pick":
            _pick_choice(groups, st, acts)
    groups.append(pref_select(st, seat))
    return groups


def _own_turn(groups: Groups, st: State, acts: list[dict[str, Any]]) -> None:
    """A step of the seat's own main phase: its move there, and the events it may use."""
    phase = st["phase"]
    main = [a for a in acts if a["type"] != "event"]
    if phase == "play":
        _select(groups, msg("Play a card"), {"type": "play"}, [_card_option(a["card"]) for a in main])
    elif phase == "take":
        _select(groups, msg("Take a card from the throttle"), {"type": "take"}, [_card_option(a["card"]) for a in main])
    elif phase == "slip":
        _select(
            groups,
            msg("Slipstream: take a card from the discard"),
            {"type": "slip"},
            [_card_option(a["card"]) for a in reversed(main)],
        )
    else:  # attack: an event now, or on to the block
        groups.append(
            {
                "kind": "buttons",
                "options": [
                    {"label": msg("Go on with the overtake"), "action": {"type": "attack"}, "style": "primary"}
                ],
            }
        )
    events = [a for a in acts if a["type"] == "event"]
    if events:
        _select(
            groups,
            msg("Use an event (once per turn)"),
            {"type": "event"},
            [
                _card_option(
                    a["card"], msg("Event: {name} ({n})", name=msg(CARDS[a["card"]].name), n=number_of(a["card"]))
                )
                for a in events
            ],
        )


def _pon_answer(groups: Groups, acts: list[dict[str, Any]]) -> None:
    """An asked seat in a PON window: each pair it may declare with, or no PON."""
    pons = [a for a in acts if a["type"] == "pon"]
    if len(pons) <= 4:
        buttons = [
            {"label": msg("PON! {cards}", cards=card_labels(a["cards"])), "action": a, "style": "success"} for a in pons
        ]
        buttons.append({"label": msg("No PON"), "action": {"type": "pon_pass"}, "style": "secondary"})
        groups.append({"kind": "buttons", "options": buttons})
    else:
        _select(
            groups,
            msg("PON! with which pair?"),
            {"type": "pon"},
            [{"label": card_labels(a["cards"]), "value": ",".join(map(str, a["cards"]))} for a in pons],
        )
        groups.append(
            {
                "kind": "buttons",
                "options": [{"label": msg("No PON"), "action": {"type": "pon_pass"}, "style": "secondary"}],
            }
        )


def _block_choice(groups: Groups, st: State, seat: int, acts: list[dict[str, Any]]) -> None:
    """A defender: the blocks it can make (with cards in a select, without as buttons), or yield."""
    blocks = [a for a in acts if a["type"] == "block"]
    free = [a for a in blocks if not a["cards"]]
    paid = [a for a in blocks if a["cards"]]
    if paid:
        _select(
            groups,
            msg("Block with…"),
            {"type": "block"},
            [
                {
                    "label": card_labels(a["cards"]) if a["cards"] else msg("no card"),
                    "value": ",".join(map(str, a["cards"])),
                    "description": describe_action(st, seat, a),
                }
                for a in paid
            ],
        )
    buttons = [{"label": describe_action(st, seat, a), "action": a, "style": "primary"} for a in free]
    buttons.append({"label": msg("Yield"), "action": {"type": "yield"}, "style": "danger"})
    groups.append({"kind": "buttons", "options": buttons})


def _pick_choice(groups: Groups, st: State, acts: list[dict[str, Any]]) -> None:
    """The choice an event asks for (a course to look at, or a card)."""
    pick = st["pick"]
    if pick["op"] == "peek":
        _select(
            groups,
            msg("Look at which course?"),
            {"type": "pick"},
            [{"label": msg("Course {k}", k=a["course"] + 1), "value": str(a["course"])} for a in acts],
        )
    else:
        placeholder = {
            "take_discard": msg("Take a card from the discard"),
            "take_throttle": msg("Take a card from the throttle"),
            "pon_add": msg("Add which card to your PON set?"),
            "swap_course": msg("Swap which card into the course?"),
        }[pick["op"]]
        _select(groups, placeholder, {"type": "pick"}, [_card_option(a["card"]) for a in acts])


def pref_select(st: State, seat: int) -> dict[str, Any]:
    """The select that changes one standing preference (each value not chosen now)."""
    prefs = st["prefs"][seat]
    options = []
    for n in NUMBERS:
        for value in PON_PREFS:
            if value != prefs["pon"][n]:
                options.append(
                    {
                        "label": msg("PON on {n}s → {value}", n=n, value=msg(value)),
                        "value": f"pon:{n}:{value}",
                        "description": msg("Now: {value}", value=msg(prefs["pon"][n])),
                    }
                )
    for key, name in (
        ("block", msg("When overtaken")),
        ("refill", msg("End-of-turn refill")),
        ("discard", msg("Hand-limit discard")),
        ("decay", msg("Which PON card decays")),
        ("events", msg("Events in your turn")),
    ):
        now = seat_pref(st, seat, key)
        for value in SIMPLE_PREFS[key]:
            if value != now:
                options.append(
                    {
                        "label": msg("{name} → {value}", name=name, value=msg(value)),
                        "value": f"{key}:{value}",
                        "description": msg("Now: {value}", value=msg(now)),
                    }
                )
    return {
        "kind": "select",
        "placeholder": msg("Preferences (auto plays for you; ask pauses for you)"),
        "min": 1,
        "max": 1,
        "action": {"type": "prefs"},
        "options": options,
    }
