"""What may be done in PON now: who the game waits for, the legal moves, what a block needs and
which events a seat may use. Reads the state only."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

from bot.games.base import State
from bot.games.pon.common import (
    CHAIN_OPS,
    OWN_PHASES,
    decay_waits,
    interrupted,
    next_face_down,
    number_of,
    rank_of,
    seat_pref,
    set_number,
    turn_flags,
)
from bot.games.pon.content import ATTACK_OPS, BEFORE_PLAY_OPS, CARDS


def to_act(state: State) -> list[int]:
    """Seats whose input the game is waiting for now."""
    st = state
    phase = st["phase"]
    if phase == "over":
        return []
    if interrupted(st):
        return sorted({int(s) for s in st["excess"]} | {int(s) for s in decay_waits(st)})
    if phase == "peek":
        return [st["peek_queue"][0]]
    if phase in ("play", "slip", "attack", "take", "salvage"):
        return [st["actor"]]
    if phase == "pick":
        return [st["pick"]["seat"]]
    if phase == "pon":
        return window_waiting(st)
    if phase == "block":
        return [defender_of(st)]
    if phase == "refill":
        return [st["refill_queue"][0]]
    return []


def window_waiting(st: State) -> list[int]:
    """Asked seats on "ask" that have not answered the PON window yet."""
    w = st["window"]
    n = str(w["number"])
    return [s for s in w["asked"] if str(s) not in w["answers"] and st["prefs"][s]["pon"][n] == "ask"]


def defender_of(st: State) -> int:
    """The seat the attacker is trying to overtake (the one just ahead of it)."""
    attacker = st["chase"]["attacker"]
    return st["order"][rank_of(st, attacker) - 1]


def requirement(st: State, attacker: int, defender: int) -> tuple[list[int], int, int, bool]:
    """(numbers needed, extra 'any card' slots, cards to put down, whether a block right can
    save one of them).

    The blocker needs one card per PON set of the attacker, of that set's number, or any one
    card when the attacker has no set.
    # Rule reading: two PON sets of the same number need two cards of that number ("one card
    # per set": the rules count the cards by sets, "PONが2組あれば2枚必要").
    # Rule reading: using the block right on a block is the holder's choice ("必要がなければ
    # 温存も可能": it may be saved for a later attack this turn, never for the next turn); it
    # still applies after the holder has lost first place, and is spent only when it saves a
    # card. The designed shield events work the same way. "auto" uses it whenever it can.
    """
    specific = sorted(set_number(s) for s in st["pon"][attacker] if s)
    anys = 0 if specific else 1
    anys += int(st["turn"]["mods"].get("block_extra", 0))
    if st["order"][0] != defender:  # Hairpin: the pack jams, the leader keeps its line
        anys += int(st["turn"]["mods"].get("pack_block_extra", 0))
    if turn_flags(st, attacker).get("boost"):
        anys += 1
    total = len(specific) + anys
    need = max(0, total - int(st["turn"]["mods"].get("block_discount", 0)))
    right = st["turn"]["discounts"].get(str(defender), 0) > 0 and need > 0
    return specific, anys, need, right


def block_options(st: State, defender: int) -> list[list[int]]:
    """Every set of hand cards that makes a block (with the block right first, if any)."""
    attacker = st["chase"]["attacker"]
    specific, anys, need, right = requirement(st, attacker, defender)
    hand = sorted(st["hands"][defender])
    want = Counter(specific)
    out = []
    for size in ([need - 1] if right else []) + [need]:
        if size > len(hand):
            continue
        for combo in itertools.combinations(hand, size):
            have = Counter(number_of(c) for c in combo)
            matched = sum(min(have[n], want[n]) for n in want)
            # all but (total - size) requirements are met: the dropped ones are either the
            # discount(s) or unmatched numbers, and the rest of the cards fill "any" slots
            if size - matched <= anys and list(combo) not in out:
                out.append(list(combo))
    return out


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """Every move `seat` may make now (empty when the game does not wait for it)."""
    st = state
    if st["phase"] == "pon" and not interrupted(st) and seat in st["window"]["asked"]:
        n = st["window"]["number"]  # also after answering: an answer may change until all are in
        same = sorted(c for c in st["hands"][seat] if number_of(c) == n)
        return [{"type": "pon", "cards": list(p)} for p in itertools.combinations(same, 2)] + [{"type": "pon_pass"}]
    if st["phase"] == "over" or seat not in to_act(st):
        return []
    if str(seat) in st["excess"]:
        return [{"type": "discard", "card": c} for c in sorted(st["hands"][seat])]
    if str(seat) in decay_waits(st):
        sets = st["pon"][seat]
        return [{"type": "decay", "card": c} for i in decay_waits(st)[str(seat)]["sets"] for c in sorted(sets[i])]
    phase = st["phase"]
    if phase == "peek":
        taken = {i for i in st["peeked"] if i is not None}
        return [{"type": "peek", "course": i} for i in range(len(st["circuit"])) if i not in taken]
    if phase == "play":
        acts = [{"type": "play", "card": c} for c in sorted(st["hands"][seat])]
        return acts + event_actions(st, seat)
    if phase == "slip":
        return [{"type": "slip", "card": c} for c in st["discard"]] + event_actions(st, seat)
    if phase == "attack":
        return [{"type": "attack"}] + event_actions(st, seat)
    if phase == "salvage":
        return [{"type": "salvage", "card": c} for c in st["discard"]]
    if phase == "take":
        acts = [{"type": "take", "card": c} for c in st["throttles"][st["current"]]]
        return acts + event_actions(st, seat)
    if phase == "refill":
        return [{"type": "refill", "card": c} for c in st["throttles"][st["current"]]]
    if phase == "pick":
        pick = st["pick"]
        key = "course" if pick["op"] == "peek" else "card"
        return [{"type": "pick", key: o} for o in pick["options"]]
    if phase == "block":
        return [{"type": "block", "cards": combo} for combo in block_options(st, seat)] + [{"type": "yield"}]
    return []


def own_pause(st: State) -> bool:
    """On "ask" for events, a step of the actor's own turn that has only one way to go still
    waits while the actor holds an event it may use there."""
    actor = st["actor"]
    return seat_pref(st, actor, "events") == "ask" and bool(event_actions(st, actor))


def attack_pause(st: State) -> bool:
    """Whether the attacker is asked before the next block of its overtake chain (it may use
    an event there, e.g. one that makes blocking harder). "ask": whenever it holds an event
    usable now; "auto": only an event that can change the coming blocks (CHAIN_OPS); "never":
    no pause (events then wait for the throttle pick)."""
    actor = st["actor"]
    pref = seat_pref(st, actor, "events")
    if pref == "never":
        return False
    usable = [a["card"] for a in event_actions(st, actor)]
    if pref == "ask":
        return bool(usable)
    return any(CARDS[c].effect["op"] in CHAIN_OPS for c in usable)


def event_actions(st: State, seat: int) -> list[dict[str, Any]]:
    """The event moves `seat` may make now."""
    return [{"type": "event", "card": c} for c in sorted(st["hands"][seat]) if event_usable(st, seat, c)]


def event_usable(st: State, seat: int, cid: int) -> bool:
    """Whether `seat` may use card `cid`'s event now (its own main phase, once per turn)."""
    card = CARDS[cid]
    # Rule reading: only racing cards have events; a course card in a hand (4 players: the
    # two courses left out of the circuit are shuffled into the deck) is a plain number card.
    if card.kind != "racing" or cid not in st["hands"][seat]:
        return False
    # Rule reading: "自分の手番中ならいつでも" - an event may be used at every point of the
    # seat's own main phase where it holds the move: before a play (also a replay after being
    # PON'd), at the slipstream pick, before each block of its own overtake chain (the
    # "attack" step, see attack_pause) and at the throttle pick. The event card joins this
    # throttle, so it may even be taken back. Events about "your next card" are offered only
    # while a card is still to be played (later they would do nothing).
    if st["phase"] not in OWN_PHASES or st["actor"] != seat or seat in st["turn"]["events"]:
        return False
    op = card.effect["op"]
    if op in BEFORE_PLAY_OPS and st["phase"] != "play":
        return False
    if op in ATTACK_OPS and st["phase"] == "take":
        return False
    cur = st["current"]
    others = [c for c in st["hands"][seat] if c != cid]
    if op == "take_discard":
        return bool(st["discard"])
    if op == "take_throttle":
        if card.effect.get("where") == "next":
            return cur + 1 < len(st["circuit"]) and bool(st["throttles"][cur + 1])
        return bool(st["throttles"][cur])
    if op == "peek":
        return any(not st["face_up"][i] and i not in st["known"][seat] for i in range(cur + 1, len(st["circuit"])))
    if op == "reveal":
        return next_face_down(st) is not None
    if op == "swap_course":
        return next_face_down(st) is not None and bool(others)
    if op == "leader_discard":
        return rank_of(st, seat) > 0
    if op == "pon_add":
        numbers = {set_number(s) for s in st["pon"][seat] if s}
        return any(number_of(c) in numbers for c in others)
    return True
