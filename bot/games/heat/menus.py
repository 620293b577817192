"""Heat's choices for a seat: whose move it is (`to_act`), the legal actions, the menu of selects
and buttons they become, and each action's label."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable

import bot.games.heat.championship as championship
import bot.games.heat.rules as rules
from bot.games.base import GameError
from bot.games.heat.labels import (
    FIRST_UNPLAYABLE,
    PREF_NAMES,
    PREF_VALUES,
    card_sort_key,
    choice_label,
    desc_cards,
    describe_submit,
    distinct_places,
    distinct_subsets,
    is_int,
    is_seat,
    parse_ids,
    UNPLAYABLE_LAST,
    pref_label,
    ranked_cards,
)
from bot.games.heat.plans import plan_options, summary
from bot.games.heat.rules import DEFAULT_PREFS, KIND, LABEL, PLAYABLE, SPEED
from bot.i18n import Msg, msg

PREF_BUTTONS = 6  # more preferences than this (Garage's nine) go in one select


def to_act(state: dict) -> list[int]:
    """The seats the game waits for: every racing car without a submission, the seat a paused
    decision asks, the Garage draft's or the championship market's picker."""
    phase = state["phase"]
    if phase in championship.PHASES:
        return championship.to_act(state)
    if phase == "submit":
        return [s for s, c in enumerate(state["cars"][: state["seats"]]) if c["sub"] is None and not c["fin"]]
    if phase == "decide" and state["pending"] is not None:
        return [state["pending"]["seat"]]
    if phase == "draft":
        dr = state["draft"]
        return [dr["order"][dr["i"]]]
    return []


def legal_actions(state: dict, seat: int) -> list[dict]:
    if not is_seat(state, seat):
        return []
    phase = state["phase"]
    if phase == "submit":  # (the most asked: a race's every round)
        car = state["cars"][seat]
        return [] if car["fin"] else submit_actions(state, car) + pref_actions(state, car)
    if phase == "over":
        return []
    if phase in championship.PHASES:
        return championship.legal_actions(state, seat)
    car = state["cars"][seat]
    out: list[dict] = []
    if phase == "draft":
        if to_act(state) == [seat]:
            seen = set()
            for i, code in enumerate(state["draft"]["market"]):
                if code not in seen:  # one pick per card type
                    seen.add(code)
                    out.append({"type": "pick", "card": i})
    elif phase == "decide" and state["pending"] and state["pending"]["seat"] == seat:
        out.extend(decision_actions(state, car, state["pending"]))
    if not car["fin"]:
        out += pref_actions(state, car)
    return out


# The preference changes open to a car, by what decides them: the race's preferences (the Garage's
# and the championship's own) and the car's preferences now; each as its "prefs" action, copied out.
_PREF_CHANGES: dict[tuple, tuple[dict, ...]] = {}


def pref_actions(state: dict, car: dict) -> list[dict]:
    """The "prefs" actions open to the car: every other value of each preference the race offers
    (rules.prefs_of), in its order; worked out once per race kind and car preferences, and handed
    out as fresh copies."""
    prefs = car["prefs"]
    key = ("garage" in state["modules"], "champ" in state, *prefs.items())
    actions = _PREF_CHANGES.get(key)
    if actions is None:
        actions = tuple(
            {"type": "prefs", name: v}
            for name, values in rules.prefs_of(state).items()
            for v in values
            if v != prefs.get(name, values[0])
        )
        if len(_PREF_CHANGES) >= 4096:  # (a bound: preferences combine in some hundreds of ways)
            _PREF_CHANGES.clear()
        _PREF_CHANGES[key] = actions
    return list(map(dict.copy, actions))


def submissions(state: dict, car: dict) -> list[list[int]]:
    """Every distinct submission of the car's hand (the cards of submit_actions, in its order)."""
    return [a["cards"] for a in submit_actions(state, car)]


def submit_actions(state: dict, car: dict) -> list[dict]:
    """The submit actions of the car's hand, gear by gear: for a gear its playable cards can fill,
    one set of cards per distinct multiset of card types (labels.distinct_places: the first in
    combinations' order of the hand sorted by card_sort_key); for a clogged gear, every playable
    card and Heat for the rest (one way: Heat cards are alike). The outline (which gears, which
    places of the sorted hand) is kept by the hand's shape (_SHAPES)."""
    if not UNPLAYABLE_LAST:  # (card data where Heat would not sort last: the hand split first)
        return _submit_actions_split(state, car)
    # The whole hand sorted: its playable cards first (Heat sorts last), as sorting them alone would.
    ordered, ranks = ranked_cards(state["cards"], car["hand"])
    gear = car["gear"]
    n_engine = len(car["engine"])
    if n_engine >= 2:  # (the Engine pays any shift: the gears depend on the hand and the gear alone)
        key: tuple = (ranks, gear)
    else:  # (the Engine's Heat, and a flooded start, decide which shifts it pays)
        key = (ranks, gear, n_engine, gear > 1 and rules.flooded_start(state, car))
    shape = _SHAPES.get(key)
    if shape is None:
        shape = _submit_shape(state, car, ranks)
        if len(_SHAPES) >= 65536:  # (a bound: a search meets some thousands of hands)
            _SHAPES.clear()
        _SHAPES[key] = shape
    out: list[dict] = []
    for g, places in shape:
        if places is None:  # a clogged gear: every playable card and Heat for the rest, in hand order
            playable, heat = rules.split_hand(state, car)
            out.append({"type": "submit", "cards": playable + heat[: g - len(playable)]})
        else:
            out += _SUBMITS[g](ordered, places)
    return out


# A hand's submissions in outline, by its sorted types (ranked_cards' ranks), the gear and, unless the
# Engine holds 2 Heat or more, the Engine's Heat and a flooded start: gear by gear, the places of the
# sorted hand's cards that make its distinct sets, or None for a clogged gear (_submit_shape).
_SHAPES: dict[tuple, tuple[tuple[int, tuple[tuple[int, ...], ...] | None], ...]] = {}


def _submit_shape(
    state: dict, car: dict, ranks: tuple[int, ...]
) -> tuple[tuple[int, tuple[tuple[int, ...], ...] | None], ...]:
    """submit_actions' outline for the car's hand (its sorted ranks): each open gear with the places
    of its distinct sets (distinct_places of the playable cards), None for a clogged one."""
    n_play = bisect_left(ranks, FIRST_UNPLAYABLE)
    gears, clogged = rules.fillable_gears(state, car, n_play)
    return tuple((g, None if g in clogged else distinct_places(ranks[:n_play], g)) for g in gears)


def _submit_actions_split(state: dict, car: dict) -> list[dict]:
    """submit_actions from the hand split into playable cards and Heat first."""
    playable, heat = rules.split_hand(state, car)
    gears, clogged = rules.fillable_gears(state, car, len(playable))
    out: list[dict] = []
    ordered, ranks = ranked_cards(state["cards"], playable)
    for g in gears:
        if g in clogged:
            out.append({"type": "submit", "cards": playable + heat[: g - len(playable)]})
        else:
            out += _SUBMITS[g](ordered, distinct_places(ranks, g))
    return out


# A gear's submit actions from the sorted hand and the places of its distinct sets (one comprehension
# per gear, the cards unpacked: no inner loop per set).
_SUBMITS: dict[int, Callable[[list[int], tuple[tuple[int, ...], ...]], list[dict]]] = {
    1: lambda o, places: [{"type": "submit", "cards": [o[a]]} for (a,) in places],
    2: lambda o, places: [{"type": "submit", "cards": [o[a], o[b]]} for a, b in places],
    3: lambda o, places: [{"type": "submit", "cards": [o[a], o[b], o[c]]} for a, b, c in places],
    4: lambda o, places: [{"type": "submit", "cards": [o[a], o[b], o[c], o[d]]} for a, b, c, d in places],
}


def decision_actions(state: dict, car: dict, pending: dict) -> list[dict]:
    kind = pending["type"]
    if kind == "slipstream":
        if pending.get("lengths"):
            return [{"type": "slipstream", "take": True, "spaces": k} for k in reversed(pending["lengths"])] + [
                {"type": "slipstream", "take": False}
            ]
        return [{"type": "slipstream", "take": True}, {"type": "slipstream", "take": False}]
    if kind in ("boost", "adrenaline"):
        return [{"type": kind, "use": True}, {"type": kind, "use": False}]
    if kind == "order":
        return [{"type": "order", "first": "adrenaline"}, {"type": "order", "first": "boost"}]
    if kind == "choice":
        return [{"type": "choice", "speed": o[0]} for o in pending["options"]]
    cards = state["cards"]
    if kind == "cooldown":
        heat = [c for c in car["hand"] if KIND[cards[c]] == "heat"]
        return [{"type": "cooldown", "cards": heat[:n]} for n in range(pending["max"], -1, -1)]
    if kind == "discard":
        disc = [c for c in car["hand"] if rules.discardable(state, cards[c])]
        out: list[dict] = [{"type": "discard", "cards": []}]
        for n in range(1, len(disc) + 1):
            out.extend({"type": "discard", "cards": ids} for ids in distinct_subsets(state, disc, n))
        return out
    return []


def menu(state: dict, seat: int) -> list[dict]:
    if not is_seat(state, seat) or state["phase"] == "over":
        return []
    if state["phase"] in championship.PHASES:
        return championship.menu(state, seat)
    car = state["cars"][seat]
    if car["fin"]:
        return []
    groups: list[dict] = []
    if state["phase"] == "draft":
        if to_act(state) != [seat]:
            return []
        return _draft_menu(state)
    if state["phase"] == "submit":
        groups.extend(_submit_menu(state, seat, car))
    elif state["phase"] == "decide" and state["pending"] and state["pending"]["seat"] == seat:
        groups.extend(decision_menu(state, car, state["pending"]))
    groups.extend(_prefs_menu(state, car))
    return groups


def _draft_menu(state: dict) -> list[dict]:
    """The Garage draft's select: one option per upgrade type on offer."""
    dr = state["draft"]
    seen = set()
    options = []
    for i, code in enumerate(dr["market"]):
        if code in seen:
            continue
        seen.add(code)
        options.append({"label": msg(rules.draft_label(code)), "value": str(i), "description": rules.card_text(code)})
    return [
        {
            "kind": "select",
            "min": 1,
            "max": 1,
            "action": {"type": "pick"},
            "options": options,
            "placeholder": msg("Garage draft, round {n}/{m}: take one upgrade", n=dr["round"], m=rules.DRAFT_ROUNDS),
        }
    ]


def _submit_menu(state: dict, seat: int, car: dict) -> list[dict]:
    """The card selects of the submit step: whole plans (if any), then the cards one by one."""
    cards = state["cards"]
    groups: list[dict] = []
    gears, clogged = rules.fillable_gears(state, car)
    playable, heat = rules.split_hand(state, car)
    ids = sorted(playable + (heat if clogged else []), key=lambda c: card_sort_key(state, c))
    options = []
    for c in ids[:25]:
        code = cards[c]
        if KIND[code] == "stress":
            desc = msg("Reveals cards until a Speed card")
        elif not PLAYABLE[code]:
            desc = msg("Only for gear {g}+ (clogged hand: all non-Heat cards + Heat, no move)", g=min(clogged))
        else:
            desc = rules.card_text(code) if code in rules.GARAGE else msg("Speed {v}", v=SPEED[code])
        options.append({"label": msg(LABEL[code]), "value": str(c), "description": desc})
    lo, hi = min(gears), min(max(gears), len(options))
    if car["sub"] is not None:
        ph = msg("Sent: {desc}. Pick again to change.", desc=describe_submit(state, car, car["sub"]))
    elif clogged and len(clogged) == len(gears):
        ph = msg("Clogged hand: play all non-Heat cards + Heat ({lo}-{hi} cards, no move)", lo=lo, hi=hi)
    elif clogged:
        ph = msg(
            "Gear {g} now: pick {lo}-{hi} cards; {k}+ = all non-Heat + Heat, no move",
            g=car["gear"],
            lo=lo,
            hi=hi,
            k=min(clogged),
        )
    else:
        ph = msg("Gear {g} now: pick {lo}-{hi} cards (cards = new gear)", g=car["gear"], lo=lo, hi=hi)
    plans = plan_options(state, seat, submissions(state, car), lambda ids: describe_submit(state, car, ids))
    if plans:
        groups.append(
            {
                "kind": "select",
                "placeholder": msg("Whole plans: gear, cards, where they take you"),
                "min": 1,
                "max": 1,
                "action": {"type": "submit"},
                "options": plans,
            }
        )
    groups.append(
        {"kind": "select", "placeholder": ph, "min": lo, "max": hi, "action": {"type": "submit"}, "options": options}
    )
    return groups


def _prefs_menu(state: dict, car: dict) -> list[dict]:
    """The preferences: one select for many (Garage's nine), else a button per preference."""
    groups: list[dict] = []
    allowed = rules.prefs_of(state)
    prefs = {**DEFAULT_PREFS, **{k: v[0] for k, v in allowed.items()}, **car["prefs"]}
    if len(allowed) > PREF_BUTTONS:
        # Garage's nine preferences: one select after the cards' (not two rows of buttons
        # above the decision's), each option a new value, the current one said once.
        groups.append(
            {
                "kind": "select",
                "placeholder": msg("Preferences: pick one to change it"),
                "min": 1,
                "max": 1,
                "action": {"type": "prefs"},
                "options": [
                    {
                        "label": msg("{name} → {value}", name=msg(PREF_NAMES[k]), value=msg(PREF_VALUES[v])),
                        "value": f"{k}={v}",
                        "description": msg("Now: {value}", value=msg(PREF_VALUES[prefs[k]])),
                    }
                    for k, vals in allowed.items()
                    for v in vals
                    if v != prefs[k]
                ],
            }
        )
        return groups
    groups.append(
        {
            "kind": "buttons",
            "options": [
                {
                    "label": pref_label(k, prefs[k]),
                    "action": {"type": "prefs", k: vals[(vals.index(prefs[k]) + 1) % len(vals)]},
                    "style": "secondary",
                }
                for k, vals in allowed.items()
            ],
        }
    )
    return groups


def decision_menu(state: dict, car: dict, p: dict) -> list[dict]:
    kind = p["type"]
    cards = state["cards"]
    if kind == "slipstream":
        return _slipstream_menu(p)
    if kind == "boost":
        return [
            {
                "kind": "buttons",
                "options": [
                    {"label": msg("Boost (1 Heat)"), "action": {"type": "boost", "use": True}, "style": "danger"},
                    {"label": msg("No boost"), "action": {"type": "boost", "use": False}, "style": "secondary"},
                ],
            }
        ]
    if kind == "adrenaline":
        return [
            {
                "kind": "buttons",
                "options": [
                    {"label": msg("Adrenaline +1"), "action": {"type": "adrenaline", "use": True}, "style": "success"},
                    {"label": msg("Stay"), "action": {"type": "adrenaline", "use": False}, "style": "secondary"},
                ],
            }
        ]
    if kind == "choice":
        return [
            {
                "kind": "select",
                "placeholder": msg("Choice of speed: pick your total speed"),
                "min": 1,
                "max": 1,
                "action": {"type": "choice"},
                "options": [{"label": choice_label(o), "value": str(o[0])} for o in p["options"]],
            }
        ]
    if kind == "order":
        return [
            {
                "kind": "buttons",
                "options": [
                    {
                        "label": msg("Adrenaline first"),
                        "action": {"type": "order", "first": "adrenaline"},
                        "style": "primary",
                    },
                    {"label": msg("Boost first"), "action": {"type": "order", "first": "boost"}, "style": "primary"},
                ],
            }
        ]
    if kind == "cooldown":
        heat = [c for c in car["hand"] if KIND[cards[c]] == "heat"]
        return [
            {
                "kind": "buttons",
                "options": [
                    {
                        "label": msg("Cool down {n} Heat", n=n),
                        "action": {"type": "cooldown", "cards": heat[:n]},
                        "style": "primary" if n == p["max"] else "secondary",
                    }
                    for n in range(p["max"], -1, -1)
                ],
            }
        ]
    return _discard_menu(state, car)


def _slipstream_menu(p: dict) -> list[dict]:
    """The slipstream buttons: each length on offer (or +2), then no slipstream."""
    if p.get("lengths"):
        return [
            {
                "kind": "buttons",
                "options": [
                    {
                        "label": msg("Slipstream +{n}", n=k),
                        "action": {"type": "slipstream", "take": True, "spaces": k},
                        "style": "success",
                    }
                    for k in reversed(p["lengths"])
                ]
                + [
                    {
                        "label": msg("No slipstream"),
                        "action": {"type": "slipstream", "take": False},
                        "style": "secondary",
                    }
                ],
            }
        ]
    return [
        {
            "kind": "buttons",
            "options": [
                {"label": msg("Slipstream +2"), "action": {"type": "slipstream", "take": True}, "style": "success"},
                {"label": msg("No slipstream"), "action": {"type": "slipstream", "take": False}, "style": "secondary"},
            ],
        }
    ]


def _discard_menu(state: dict, car: dict) -> list[dict]:
    """The discard step: a select of the discardable cards, and a button to keep them all."""
    cards = state["cards"]
    disc = sorted([c for c in car["hand"] if rules.discardable(state, cards[c])], key=lambda c: card_sort_key(state, c))
    return [
        {
            "kind": "select",
            "placeholder": msg("Cards to discard"),
            "min": 1,
            "max": max(1, len(disc[:25])),
            "action": {"type": "discard"},
            "options": [{"label": msg(LABEL[cards[c]]), "value": str(c)} for c in disc[:25]],
        },
        {
            "kind": "buttons",
            "options": [{"label": msg("Keep all"), "action": {"type": "discard", "cards": []}, "style": "secondary"}],
        },
    ]


def describe_action(state: dict, seat: int, action: dict) -> Msg:
    if "champ" in state and isinstance(action, dict) and action.get("type") in ("market", "swap"):
        return championship.describe_action(state, seat, action) or msg("Unknown action")
    try:
        kind = action.get("type")
        if kind == "submit":
            ids = [c for c in parse_ids(action) if 0 <= c < len(state["cards"])]
            car = state["cars"][seat]
            label = describe_submit(state, car, ids)
            if state["phase"] == "submit" and ids and set(ids) <= set(car["hand"]):
                # (a move's list, e.g. /heat play's: where it takes the car, the corner Heat)
                plan = summary(state, seat, ids)
                if plan is not None:
                    return msg("{move} → {plan}", move=label, plan=plan)
            return label
        if kind == "pick":
            code = state["draft"]["market"][int(action["card"])]
            return msg("Take {card}", card=msg(rules.draft_label(code)))
        if kind == "prefs":
            items = list(action.items()) + [
                tuple(str(v).split("=", 1)) for v in action.get("values") or [] if "=" in str(v)
            ]
            parts = [pref_label(k, v) for k, v in items if k in PREF_NAMES and v in PREF_VALUES]
            return msg("Preference — {prefs}", prefs=parts)
        if kind == "slipstream":
            if action.get("take") and is_int(action.get("spaces")) and action["spaces"] != 2:
                return msg("Slipstream: +{n} spaces", n=action["spaces"])
            return msg("Slipstream: +2 spaces") if action.get("take") else msg("Slipstream: no")
        if kind == "boost":
            return msg("Boost: pay 1 Heat") if action.get("use") else msg("Boost: no")
        if kind == "adrenaline":
            return msg("Adrenaline: move +1") if action.get("use") else msg("Adrenaline: stay")
        if kind == "order":
            return msg("Adrenaline first") if action.get("first") == "adrenaline" else msg("Boost first")
        if kind == "choice":
            s = action.get("speed", (action.get("values") or [None])[0])
            if is_int(s) or (isinstance(s, str) and s.isdigit() and len(s) < 4):
                return msg("Choice of speed: {s}", s=int(s))
        if kind == "cooldown":
            return msg("Cool down {n} Heat", n=len(parse_ids(action)))
        if kind == "discard":
            ids = [c for c in parse_ids(action) if 0 <= c < len(state["cards"])]
            if not ids:
                return msg("Discard nothing")
            return msg("Discard: {cards}", cards=desc_cards(state, ids))
    except (GameError, AttributeError, IndexError, KeyError, TypeError):
        pass
    return msg("Unknown action")
