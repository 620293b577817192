"""PON's shared pieces: the constants, the standing preferences, card names in log lines, the
running order, and the card movements every part of a turn uses (gaining a card under the hand
limit, discarding, PON sets decaying, turning a course up). The engine's parts (rules.py: what
may be done; flow.py: the forced steps; menu.py, view.py: what a seat is shown) build on these."""

from __future__ import annotations

from typing import Any

from bot.games.base import Event, State, seat_ref
from bot.games.pon.auto import choose_decay, choose_discard
from bot.games.pon.content import CARDS, HAND_LIMIT
from bot.games.rng import Rng
from bot.games.text import plus
from bot.i18n import Msg, from_wire, msg, to_wire

LOG_KEEP = 40
VIEW_LOG = 12
NUMBERS = ("1", "2", "3", "4")
PON_PREFS = ("auto", "never", "ask")
BLOCK_PREFS = ("auto", "ask", "yield")
PICK_PREFS = ("auto", "ask")
EVENT_PREFS = ("auto", "ask", "never")
# The phases of a seat's own main phase where it holds the move (and may use its event).
OWN_PHASES = ("play", "slip", "attack", "take")
# Events that can change the blocks still to come in an overtake chain: "auto" stops for them.
CHAIN_OPS = {"attack_boost", "leader_discard"}
# The one-word standing preferences and their values (the first is the default).
SIMPLE_PREFS = {
    "block": BLOCK_PREFS,
    "refill": PICK_PREFS,
    "discard": PICK_PREFS,
    "decay": PICK_PREFS,
    "events": EVENT_PREFS,
}
BACK_HIDDEN = 3  # the last three courses stay face down at setup


def default_prefs() -> dict[str, Any]:
    """Every standing preference at its default (a new seat's)."""
    return {
        "pon": {n: "auto" for n in NUMBERS},
        "block": "auto",
        "refill": "auto",
        "discard": "auto",
        "decay": "auto",
        "events": "auto",
    }


def seat_pref(st: State, seat: int, key: str) -> str:
    """A standing preference; states saved before the key existed get its default."""
    return st["prefs"][seat].get(key) or default_prefs()[key]


def decay_waits(st: State) -> dict[str, Any]:
    """Seats choosing which card of a PON set decays: {seat: {"sets": [set index], "why": Msg in JSON form}}
    (.get: states saved before decay choices existed have no such key)."""
    return st.get("decay") or {}


def interrupted(st: State) -> bool:
    """A hand-limit discard or a decay choice is awaited: everything else waits for it."""
    return bool(st["excess"]) or bool(st.get("decay"))


def number_of(cid: int) -> int:
    """The card's number (1-4)."""
    return CARDS[cid].number


def card_label(cid: int) -> Msg:
    """How log lines and menus name a card: "3 · Name"."""
    card = CARDS[cid]
    if card.kind == "course":
        return msg("{n} · {name} (course)", n=card.number, name=msg(card.name))
    return msg("{n} · {name}", n=card.number, name=msg(card.name))


def card_labels(ids: list[int]) -> Any:
    """Several cards' labels, joined with +."""
    return plus(card_label(c) for c in ids)


def effect_text(cid: int) -> Msg:
    """A course's effect in words (a racing card in the circuit has none)."""
    card = CARDS[cid]
    if card.kind == "racing":
        return msg("Racing card: no course effect.")
    return msg(card.text)


def ordinal(index: int) -> Msg:
    """A place in words: "1st", "2nd"..."""
    return {0: msg("1st"), 1: msg("2nd"), 2: msg("3rd")}.get(index, msg("{n}th", n=index + 1))


def rank_of(st: State, seat: int) -> int:
    """The seat's place in the running order (0: the leader)."""
    return st["order"].index(seat)


def log_public(st: State, ev: list[Event], text: Msg) -> None:
    """A public line: an event for the thread, kept in the state's log (its last LOG_KEEP lines)."""
    ev.append(Event(text))
    st["log"].append(to_wire(text))  # the log is part of the state: Msgs in their JSON form
    del st["log"][:-LOG_KEEP]


def tell(ev: list[Event], seat: int, text: Msg) -> None:
    """A line only `seat` reads (its DM)."""
    ev.append(Event(text, to=seat))


def turn_flags(st: State, seat: int) -> dict[str, Any]:
    """The seat's marks for this turn (events that act later: line, slip, boost, hold)."""
    return st["turn"]["flags"].setdefault(str(seat), {})


def hand_limit(st: State) -> int:
    """The hand limit this turn (a course effect may change it)."""
    return int(st["turn"]["mods"].get("hand_limit", HAND_LIMIT))


def course_number(st: State) -> int:
    """The number of the course raced this turn."""
    return number_of(st["circuit"][st["current"]])


def next_face_down(st: State) -> int | None:
    """The nearest face-down course after the current one, or None."""
    for i in range(st["current"] + 1, len(st["circuit"])):
        if not st["face_up"][i]:
            return i
    return None


def set_number(pset: list[int]) -> int:
    """A PON set's number (the number of its cards)."""
    return number_of(pset[0])


def gain(st: State, ev: list[Event], seat: int, cid: int) -> None:
    """Put a card in a seat's hand, then enforce the hand limit at once."""
    st["hands"][seat].append(cid)
    check_excess(st, ev, seat)


def check_excess(st: State, ev: list[Event], seat: int) -> None:
    # Rule reading: "即捨て札にして5枚になるよう調整" leaves the choice of card to its owner: a seat
    # on "ask" chooses (the table waits for it alone); "auto" drops its least useful card.
    """Enforce the hand limit on `seat`: an "auto" seat drops its least useful cards, an "ask" seat owes a discard."""
    over = len(st["hands"][seat]) - hand_limit(st)
    if over <= 0:
        st["excess"].pop(str(seat), None)
        return
    if st["prefs"][seat]["discard"] == "auto":
        for _ in range(over):
            discard_from_hand(st, ev, seat, choose_discard(st, seat), msg("over the hand limit"))
        st["excess"].pop(str(seat), None)
    else:
        st["excess"][str(seat)] = over


def discard_from_hand(st: State, ev: list[Event], seat: int, cid: int, why: Msg) -> None:
    """`seat` discards card `cid` from its hand, saying why."""
    st["hands"][seat].remove(cid)
    st["discard"].append(cid)
    log_public(st, ev, msg("{p} discards {card} ({why}).", p=seat_ref(seat), card=card_label(cid), why=why))


def take_from_discard(st: State, ev: list[Event], seat: int, cid: int, why: Msg) -> None:
    """`seat` takes card `cid` from the discard (then the hand limit holds)."""
    st["discard"].remove(cid)
    log_public(
        st, ev, msg("{p} takes {card} from the discard ({why}).", p=seat_ref(seat), card=card_label(cid), why=why)
    )
    gain(st, ev, seat, cid)


def decay_sets(st: State, ev: list[Event], seat: int, why: Msg) -> None:
    """Every PON set of `seat` loses one card to the discard; empty sets are gone.

    # Rule reading: a PON set keeps counting (for blocks) while it holds at least one card and
    # disappears when its last card decays. The Q&A makes decay one card at a time (per
    # successful overtake and per turn end), which would be pointless if a set stopped counting
    # after its first lost card.
    # Rule reading: 「PON1組につき、その中の好きな1枚」: the owner picks the card of each set
    # (they differ in events, and the dropped one becomes takeable from the discard). "auto"
    # drops the card whose loss costs least (auto.choose_decay); "ask" waits for the owner on
    # every set with a real choice (two cards or more), like a hand-limit discard.
    """
    sets = st["pon"][seat]
    if not sets:
        return
    ask = seat_pref(st, seat, "decay") == "ask"
    lost = []
    waiting = []
    for pset in sets:
        if ask and len(pset) > 1:
            waiting.append(pset)
            continue
        cid = pset.pop(choose_decay(st, seat, pset))
        st["discard"].append(cid)
        lost.append(cid)
    st["pon"][seat] = [s for s in sets if s]
    if lost:
        log_public(
            st,
            ev,
            msg(
                "{p}'s PON decays ({why}): {cards} to the discard.", p=seat_ref(seat), why=why, cards=card_labels(lost)
            ),
        )
    if waiting:
        # Sets that wait keep two cards or more, so their indices stay valid until answered.
        idx = [i for i, s in enumerate(st["pon"][seat]) if any(s is w for w in waiting)]
        st.setdefault("decay", {})[str(seat)] = {"sets": idx, "why": to_wire(why)}
        log_public(st, ev, msg("{p} chooses which PON cards decay ({why}).", p=seat_ref(seat), why=why))


def decay_choice(st: State, ev: list[Event], seat: int, cid: int) -> None:
    """`seat` drops card `cid` from one of its sets waiting to decay."""
    pending = st["decay"][str(seat)]
    sets = st["pon"][seat]
    i = next(i for i in pending["sets"] if cid in sets[i])
    sets[i].remove(cid)
    st["discard"].append(cid)
    pending["sets"].remove(i)
    log_public(
        st,
        ev,
        msg(
            "{p}'s PON decays ({why}): {cards} to the discard.",
            p=seat_ref(seat),
            why=from_wire(pending["why"]),
            cards=card_label(cid),
        ),
    )
    if not pending["sets"]:
        del st["decay"][str(seat)]


def decay_auto(st: State, ev: list[Event], seat: int) -> None:
    """A seat waiting on decay choices that switched to "auto": the sets decay now."""
    pending = decay_waits(st).get(str(seat))
    while pending and pending["sets"]:
        pset = st["pon"][seat][pending["sets"][0]]
        decay_choice(st, ev, seat, pset[choose_decay(st, seat, pset)])
        pending = decay_waits(st).get(str(seat))


def reveal(st: State, ev: list[Event], idx: int | None) -> None:
    """Turn course `idx` face up (nothing when None)."""
    if idx is None:
        return
    st["face_up"][idx] = True
    cid = st["circuit"][idx]
    log_public(
        st,
        ev,
        msg("Course {k} is turned up: {card} — {effect}", k=idx + 1, card=card_label(cid), effect=effect_text(cid)),
    )


def leader_discard(st: State, ev: list[Event], count: int) -> None:
    """The leader discards `count` random cards from its hand."""
    leader = st["order"][0]
    rng = Rng(st["rng"])
    for _ in range(count):
        hand = st["hands"][leader]
        if not hand:
            break
        cid = hand[rng.below(len(hand))]
        discard_from_hand(st, ev, leader, cid, msg("random, leader"))
    st["rng"] = rng.state
