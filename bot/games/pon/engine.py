"""PON: a pack-racing card game where only the running order counts (3-4 players).

Pure rules engine over plain-data state (see bot/games/base.py for the contract).

Flow of one turn (one course): turn the course up if needed and apply its course effect; then
each seat, in the running order fixed at the start of the turn, has a main phase: play a card ->
PON window -> (if not PON'd) slipstream -> overtake chain (attack step, then the block or yield,
per seat up) / block right -> take a throttle card and put the played card in the throttle. At the end of the turn seats refill from the throttle,
last place first, the course and its throttle go to the discard and every PON set decays.

Rule readings (ambiguities of the transcript settled by its final Q&A) are marked
`# Rule reading:` where they are implemented.

Asynchronous play and hidden information
-----------------------------------------
Only the seat that must decide is asked (`to_act`). Out-of-turn moments are driven by standing
preferences each seat may change at any time ({"type": "prefs", ...}):
  pon     per number "1".."4": "auto" (declare when it helps), "never", "ask"   default auto
  block   "auto" (block whenever possible, cheapest cards), "ask", "yield"      default auto
  refill  "auto" | "ask": the end-of-turn throttle pick                         default auto
  discard "auto" | "ask": which card to drop when over the hand limit           default auto
  decay   "auto" | "ask": which card of each PON set decays                     default auto
  events  "auto" | "ask" | "never": pauses in your own turn to offer events    default auto
          (see _attack_pause)
Decisions a seat makes in its own main phase (which card, slipstream pick, throttle pick,
events) are always asked, except when only one choice exists. Events may be used at every
step of the seat's own main phase where it holds the move, including the "attack" step before
each block of its own overtake chain; the "events" preference says when the engine stops there
(and at a forced slipstream or throttle pick) only to offer an event.

PON window and leaks: a physical table would not learn who holds a pair unless someone declares.
So the seats asked in a PON window are exactly the seats whose preference for the played NUMBER
is "ask", whether or not they hold a pair: the asked set depends only on the card played and the
standing preferences, never on any hand. A seat asked without a pair sees only "Pass". Seats on
"auto"/"never" are decided secretly at resolution. When nobody is asked the window resolves at
once, so an instant resolution tells nothing either. Only the winning declaration is announced
(a losing, nullified declaration is never revealed). The only thing an observer can learn is a
seat's own preference (by seeing it asked); a player who wants to hide even that can set "ask"
on every number. The same idea holds for blocking: a defender on "ask" is asked even when it
cannot block (it is then offered only "Yield").
"""
from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

from bot.games.base import Engine, Event, GameError, OptionSpec, State, View, chosen, clone, move, seat_ref
from bot.games.pon import auto
from bot.games.pon import hidden
from bot.games.pon.content import ATTACK_OPS, BEFORE_PLAY_OPS, CARDS, COURSE_IDS, HAND_LIMIT, RACING_IDS
from bot.games.rng import Rng
from bot.games.text import chain, plus
from bot.i18n import Msg, from_wire, msg, to_wire

SCHEMA = 2  # 2: the phase is "phase" (it was "stage")
LOG_KEEP = 40
VIEW_LOG = 12
NUMBERS = ("1", "2", "3", "4")
PON_PREFS = ("auto", "never", "ask")
BLOCK_PREFS = ("auto", "ask", "yield")
PICK_PREFS = ("auto", "ask")
EVENT_PREFS = ("auto", "ask", "never")
# The steps of a seat's own main phase where it holds the move (and may use its event).
OWN_STAGES = ("play", "slip", "attack", "take")
# Events that can change the blocks still to come in an overtake chain: "auto" stops for them.
CHAIN_OPS = {"attack_boost", "leader_discard"}
# The one-word standing preferences and their values (the first is the default).
SIMPLE_PREFS = {"block": BLOCK_PREFS, "refill": PICK_PREFS, "discard": PICK_PREFS, "decay": PICK_PREFS,
                "events": EVENT_PREFS}
BACK_HIDDEN = 3  # the last three courses stay face down at setup


def default_prefs() -> dict[str, Any]:
    return {"pon": {n: "auto" for n in NUMBERS}, "block": "auto", "refill": "auto", "discard": "auto",
            "decay": "auto", "events": "auto"}


def _pref(st: State, seat: int, key: str) -> str:
    """A standing preference; states saved before the key existed get its default."""
    return st["prefs"][seat].get(key) or default_prefs()[key]


def _decaying(st: State) -> dict[str, Any]:
    """Seats choosing which card of a PON set decays: {seat: {"sets": [set index], "why": Msg in JSON form}}
    (.get: states saved before decay choices existed have no such key)."""
    return st.get("decay") or {}


def _interrupted(st: State) -> bool:
    """A hand-limit discard or a decay choice is awaited: everything else waits for it."""
    return bool(st["excess"]) or bool(st.get("decay"))


def _num(cid: int) -> int:
    return CARDS[cid].number


def _label(cid: int) -> Msg:
    card = CARDS[cid]
    if card.kind == "course":
        return msg("{n} · {name} (course)", n=card.number, name=msg(card.name))
    return msg("{n} · {name}", n=card.number, name=msg(card.name))


def _p(seat: int) -> str:
    return seat_ref(seat)


def _labels(ids: list[int]) -> Any:
    return plus(_label(c) for c in ids)


def _effect_text(cid: int) -> Msg:
    card = CARDS[cid]
    if card.kind == "racing":
        return msg("Racing card: no course effect.")
    return msg(card.text)


# -- small state helpers -------------------------------------------------------------------------

def _rank(st: State, seat: int) -> int:
    return st["order"].index(seat)


def _pub(st: State, ev: list[Event], text: Msg) -> None:
    ev.append(Event(text))
    st["log"].append(to_wire(text))  # the log is part of the state: Msgs in their JSON form
    del st["log"][:-LOG_KEEP]


def _priv(ev: list[Event], seat: int, text: Msg) -> None:
    ev.append(Event(text, to=seat))


def _flags(st: State, seat: int) -> dict[str, Any]:
    return st["turn"]["flags"].setdefault(str(seat), {})


def _hand_limit(st: State) -> int:
    return int(st["turn"]["mods"].get("hand_limit", HAND_LIMIT))


def _course_number(st: State) -> int:
    return _num(st["circuit"][st["current"]])


def _next_face_down(st: State) -> int | None:
    """The nearest face-down course after the current one, or None."""
    for i in range(st["current"] + 1, len(st["circuit"])):
        if not st["face_up"][i]:
            return i
    return None


def _pon_number(pset: list[int]) -> int:
    return _num(pset[0])


# -- card movements --------------------------------------------------------------------------------

def _gain(st: State, ev: list[Event], seat: int, cid: int) -> None:
    """Put a card in a seat's hand, then enforce the hand limit at once."""
    st["hands"][seat].append(cid)
    _check_excess(st, ev, seat)


def _check_excess(st: State, ev: list[Event], seat: int) -> None:
    # Rule reading: "即捨て札にして5枚になるよう調整" leaves the choice of card to its owner: a seat
    # on "ask" chooses (the table waits for it alone); "auto" drops its least useful card.
    over = len(st["hands"][seat]) - _hand_limit(st)
    if over <= 0:
        st["excess"].pop(str(seat), None)
        return
    if st["prefs"][seat]["discard"] == "auto":
        for _ in range(over):
            _discard_from_hand(st, ev, seat, auto.choose_discard(st, seat), msg("over the hand limit"))
        st["excess"].pop(str(seat), None)
    else:
        st["excess"][str(seat)] = over


def _discard_from_hand(st: State, ev: list[Event], seat: int, cid: int, why: Msg) -> None:
    st["hands"][seat].remove(cid)
    st["discard"].append(cid)
    _pub(st, ev, msg("{p} discards {card} ({why}).", p=_p(seat), card=_label(cid), why=why))


def _decay(st: State, ev: list[Event], seat: int, why: Msg) -> None:
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
    ask = _pref(st, seat, "decay") == "ask"
    lost = []
    waiting = []
    for pset in sets:
        if ask and len(pset) > 1:
            waiting.append(pset)
            continue
        cid = pset.pop(auto.choose_decay(st, seat, pset))
        st["discard"].append(cid)
        lost.append(cid)
    st["pon"][seat] = [s for s in sets if s]
    if lost:
        _pub(st, ev, msg("{p}'s PON decays ({why}): {cards} to the discard.", p=_p(seat), why=why,
                       cards=_labels(lost)))
    if waiting:
        # Sets that wait keep two cards or more, so their indices stay valid until answered.
        idx = [i for i, s in enumerate(st["pon"][seat]) if any(s is w for w in waiting)]
        st.setdefault("decay", {})[str(seat)] = {"sets": idx, "why": to_wire(why)}
        _pub(st, ev, msg("{p} chooses which PON cards decay ({why}).", p=_p(seat), why=why))


def _decay_choice(st: State, ev: list[Event], seat: int, cid: int) -> None:
    """`seat` drops card `cid` from one of its sets waiting to decay."""
    pending = st["decay"][str(seat)]
    sets = st["pon"][seat]
    i = next(i for i in pending["sets"] if cid in sets[i])
    sets[i].remove(cid)
    st["discard"].append(cid)
    pending["sets"].remove(i)
    _pub(st, ev, msg("{p}'s PON decays ({why}): {cards} to the discard.", p=_p(seat), why=from_wire(pending["why"]),
                   cards=_label(cid)))
    if not pending["sets"]:
        del st["decay"][str(seat)]


def _decay_auto(st: State, ev: list[Event], seat: int) -> None:
    """A seat waiting on decay choices that switched to "auto": the sets decay now."""
    pending = _decaying(st).get(str(seat))
    while pending and pending["sets"]:
        pset = st["pon"][seat][pending["sets"][0]]
        _decay_choice(st, ev, seat, pset[auto.choose_decay(st, seat, pset)])
        pending = _decaying(st).get(str(seat))


# -- the engine ------------------------------------------------------------------------------------

class PonEngine(Engine):
    kind = "pon"
    title = "PON"
    rules_version = 2  # raise it when a change makes old logs replay differently (bot/games/base.py)
    min_seats = 3
    max_seats = 4
    options: list[OptionSpec] = []

    # -- setup ---------------------------------------------------------------------------------

    def check_options(self, options: dict[str, Any], seats: int) -> dict[str, Any]:
        """PON has no table options (the base refuses any given one by name)."""
        return {}

    def new_game(self, options: dict[str, Any], seats: int, seed: int) -> State:
        options = self.validate_options(options, seats)
        rng = Rng(seed)
        courses = list(COURSE_IDS)
        rng.shuffle(courses)
        length = 12 if seats == 3 else 10  # 3 players: all 12 courses; 4 players: draw 10
        circuit, spare = courses[:length], courses[length:]
        order = list(range(seats))
        rng.shuffle(order)  # the provisional order is random (rock-paper-scissors at the table)
        st: State = {
            "schema": SCHEMA,
            "rng": rng.state,
            "seats": seats,
            "options": options,
            "phase": "peek",
            "circuit": circuit,
            "face_up": [False] * length,
            "throttles": [[] for _ in range(length)],
            "known": [[] for _ in range(seats)],
            "peeked": [None] * seats,
            "peek_queue": list(reversed(order)),  # from the last place up
            "deck": sorted(spare + RACING_IDS),  # shuffled when dealt, after the peeks
            "hands": [[] for _ in range(seats)],
            "discard": [],
            "pon": [[] for _ in range(seats)],
            "order": order,
            "turn_order": [],
            "actor_pos": 0,
            "actor": None,
            "current": 0,
            "played": None,
            "window": None,
            "chase": None,
            "pick": None,
            "refill_queue": [],
            "excess": {},
            "decay": {},
            "turn": {"events": [], "discounts": {}, "mods": {}, "flags": {}},
            "prefs": [default_prefs() for _ in range(seats)],
            "log": [],
            "winner": None,
        }
        st["log"].append(to_wire(msg("Starting order: {order}. Each player peeks at one course, last place first.",
                                     order=[_p(s) for s in order])))
        st["rules_version"] = self.rules_version
        return st

    def _finish_setup(self, st: State, ev: list[Event]) -> None:
        length = len(st["circuit"])
        peeked = {i for i in st["peeked"] if i is not None}
        for i in range(length - BACK_HIDDEN):
            if i not in peeked:
                st["face_up"][i] = True
        hidden = length - sum(st["face_up"])
        _pub(st, ev, msg("All courses but the last three are turned up; peeked courses stay face down "
                       "({hidden} face down).", hidden=hidden))
        rng = Rng(st["rng"])
        deck = st["deck"]
        rng.shuffle(deck)
        for seat in st["order"]:
            for _ in range(HAND_LIMIT):
                st["hands"][seat].append(deck.pop())
        for i in range(length):
            st["throttles"][i].append(deck.pop())
        if deck:  # 3 players: exactly one card is left over; it goes to the discard
            st["discard"].extend(deck)
            deck.clear()
        st["rng"] = rng.state
        for seat in range(st["seats"]):
            _priv(ev, seat, msg("Your hand: {cards}.", cards=_labels(st["hands"][seat])))
        st["phase"] = "start_turn"

    # -- queries -------------------------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        st = state
        stage = st["phase"]
        if stage == "over":
            return []
        if _interrupted(st):
            return sorted({int(s) for s in st["excess"]} | {int(s) for s in _decaying(st)})
        if stage == "peek":
            return [st["peek_queue"][0]]
        if stage in ("play", "slip", "attack", "take", "salvage"):
            return [st["actor"]]
        if stage == "pick":
            return [st["pick"]["seat"]]
        if stage == "pon":
            return self._window_waiting(st)
        if stage == "block":
            return [self._defender(st)]
        if stage == "refill":
            return [st["refill_queue"][0]]
        return []

    def _window_waiting(self, st: State) -> list[int]:
        w = st["window"]
        n = str(w["number"])
        return [s for s in w["asked"]
                if str(s) not in w["answers"] and st["prefs"][s]["pon"][n] == "ask"]

    def _defender(self, st: State) -> int:
        attacker = st["chase"]["attacker"]
        return st["order"][_rank(st, attacker) - 1]

    # -- block requirements ----------------------------------------------------------------------

    def _requirement(self, st: State, attacker: int, defender: int) -> tuple[list[int], int, int, bool]:
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
        specific = sorted(_pon_number(s) for s in st["pon"][attacker] if s)
        anys = 0 if specific else 1
        anys += int(st["turn"]["mods"].get("block_extra", 0))
        if st["order"][0] != defender:  # Hairpin: the pack jams, the leader keeps its line
            anys += int(st["turn"]["mods"].get("pack_block_extra", 0))
        if _flags(st, attacker).get("boost"):
            anys += 1
        total = len(specific) + anys
        need = max(0, total - int(st["turn"]["mods"].get("block_discount", 0)))
        right = st["turn"]["discounts"].get(str(defender), 0) > 0 and need > 0
        return specific, anys, need, right

    def _block_options(self, st: State, defender: int) -> list[list[int]]:
        """Every set of hand cards that makes a block (with the block right first, if any)."""
        attacker = st["chase"]["attacker"]
        specific, anys, need, right = self._requirement(st, attacker, defender)
        hand = sorted(st["hands"][defender])
        want = Counter(specific)
        out = []
        for size in ([need - 1] if right else []) + [need]:
            if size > len(hand):
                continue
            for combo in itertools.combinations(hand, size):
                have = Counter(_num(c) for c in combo)
                matched = sum(min(have[n], want[n]) for n in want)
                # all but (total - size) requirements are met: the dropped ones are either the
                # discount(s) or unmatched numbers, and the rest of the cards fill "any" slots
                if size - matched <= anys and list(combo) not in out:
                    out.append(list(combo))
        return out

    # -- legal actions ---------------------------------------------------------------------------

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        st = state
        if st["phase"] == "pon" and not _interrupted(st) and seat in st["window"]["asked"]:
            n = st["window"]["number"]  # also after answering: an answer may change until all are in
            same = sorted(c for c in st["hands"][seat] if _num(c) == n)
            return [{"type": "pon", "cards": list(p)} for p in itertools.combinations(same, 2)] + \
                [{"type": "pon_pass"}]
        if st["phase"] == "over" or seat not in self.to_act(st):
            return []
        if str(seat) in st["excess"]:
            return [{"type": "discard", "card": c} for c in sorted(st["hands"][seat])]
        if str(seat) in _decaying(st):
            sets = st["pon"][seat]
            return [{"type": "decay", "card": c}
                    for i in _decaying(st)[str(seat)]["sets"] for c in sorted(sets[i])]
        stage = st["phase"]
        if stage == "peek":
            taken = {i for i in st["peeked"] if i is not None}
            return [{"type": "peek", "course": i} for i in range(len(st["circuit"])) if i not in taken]
        if stage == "play":
            acts = [{"type": "play", "card": c} for c in sorted(st["hands"][seat])]
            return acts + self._event_actions(st, seat)
        if stage == "slip":
            return [{"type": "slip", "card": c} for c in st["discard"]] + self._event_actions(st, seat)
        if stage == "attack":
            return [{"type": "attack"}] + self._event_actions(st, seat)
        if stage == "salvage":
            return [{"type": "salvage", "card": c} for c in st["discard"]]
        if stage == "take":
            acts = [{"type": "take", "card": c} for c in st["throttles"][st["current"]]]
            return acts + self._event_actions(st, seat)
        if stage == "refill":
            return [{"type": "refill", "card": c} for c in st["throttles"][st["current"]]]
        if stage == "pick":
            pick = st["pick"]
            key = "course" if pick["op"] == "peek" else "card"
            return [{"type": "pick", key: o} for o in pick["options"]]
        if stage == "block":
            return [{"type": "block", "cards": combo} for combo in self._block_options(st, seat)] + \
                [{"type": "yield"}]
        return []

    def _own_pause(self, st: State) -> bool:
        """On "ask" for events, a step of the actor's own turn that has only one way to go still
        waits while the actor holds an event it may use there."""
        actor = st["actor"]
        return _pref(st, actor, "events") == "ask" and bool(self._event_actions(st, actor))

    def _attack_pause(self, st: State) -> bool:
        """Whether the attacker is asked before the next block of its overtake chain (it may use
        an event there, e.g. one that makes blocking harder). "ask": whenever it holds an event
        usable now; "auto": only an event that can change the coming blocks (CHAIN_OPS); "never":
        no pause (events then wait for the throttle pick)."""
        actor = st["actor"]
        pref = _pref(st, actor, "events")
        if pref == "never":
            return False
        usable = [a["card"] for a in self._event_actions(st, actor)]
        if pref == "ask":
            return bool(usable)
        return any(CARDS[c].effect["op"] in CHAIN_OPS for c in usable)

    def _event_actions(self, st: State, seat: int) -> list[dict[str, Any]]:
        return [{"type": "event", "card": c} for c in sorted(st["hands"][seat])
                if self._event_usable(st, seat, c)]

    def _event_usable(self, st: State, seat: int, cid: int) -> bool:
        """Whether `seat` may use card `cid`'s event now (its own main phase, once per turn)."""
        card = CARDS[cid]
        # Rule reading: only racing cards have events; a course card in a hand (4 players: the
        # two courses left out of the circuit are shuffled into the deck) is a plain number card.
        if card.kind != "racing" or cid not in st["hands"][seat]:
            return False
        # Rule reading: "自分の手番中ならいつでも" - an event may be used at every point of the
        # seat's own main phase where it holds the move: before a play (also a replay after being
        # PON'd), at the slipstream pick, before each block of its own overtake chain (the
        # "attack" step, see _attack_pause) and at the throttle pick. The event card joins this
        # throttle, so it may even be taken back. Events about "your next card" are offered only
        # while a card is still to be played (later they would do nothing).
        if st["phase"] not in OWN_STAGES or st["actor"] != seat or seat in st["turn"]["events"]:
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
            return any(not st["face_up"][i] and i not in st["known"][seat]
                       for i in range(cur + 1, len(st["circuit"])))
        if op == "reveal":
            return _next_face_down(st) is not None
        if op == "swap_course":
            return _next_face_down(st) is not None and bool(others)
        if op == "leader_discard":
            return _rank(st, seat) > 0
        if op == "pon_add":
            numbers = {_pon_number(s) for s in st["pon"][seat] if s}
            return any(_num(c) in numbers for c in others)
        return True

    # -- labels -----------------------------------------------------------------------------------

    def describe_action(self, state: State, seat: int, action: dict[str, Any]) -> Msg:
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
                _, _, need, right = self._requirement(st, st["chase"]["attacker"], seat)
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

    # -- saved states from older versions -----------------------------------------------------------

    def upgrade(self, state: State) -> State:
        """A state saved by an older version, as today's code reads it (the table calls this once
        when it loads a game). Schema 1 named the phase "stage"."""
        if not isinstance(state, dict) or state.get("schema", SCHEMA) >= SCHEMA:
            return state
        st = dict(state)
        st["phase"] = st.pop("stage")
        st["schema"] = SCHEMA
        return st

    # -- moves ------------------------------------------------------------------------------------

    def after_move(self, st: State, seat: int, events: list[Event]) -> None:
        """Every move is followed by the forced steps up to the next decision (`_run`)."""
        self._run(st, events)

    @staticmethod
    def _free(st: State, seat: int) -> None:
        """A seat that owes a hand-limit discard or a decay choice makes that move first."""
        if str(seat) in st["excess"]:
            raise GameError(msg("First discard down to the hand limit."))
        if str(seat) in _decaying(st):
            raise GameError(msg("First choose which card of your PON set decays."))

    def _answering(self, st: State, seat: int) -> None:
        """Who may answer the PON window: a seat the game waits for, or an asked seat changing its
        answer until every asked seat has answered."""
        rethink = not _interrupted(st) and seat in st["window"]["asked"]
        if seat not in self.to_act(st) and not rethink:
            raise GameError(msg("It is not your move."))
        self._free(st, seat)

    # -- argument parsing ------------------------------------------------------------------------

    @staticmethod
    def _int_arg(action: dict[str, Any], key: str) -> int:
        value = action.get(key)
        if value is None:
            values = chosen(action)
            if len(values) == 1:
                try:
                    value = int(values[0])
                except ValueError:
                    value = None
        if isinstance(value, bool) or not isinstance(value, int):
            raise GameError(msg("Choose one option."))
        return value

    def _card_arg(self, action: dict[str, Any]) -> int:
        cid = self._int_arg(action, "card")
        if cid not in CARDS:
            raise GameError(msg("There is no such card."))
        return cid

    @staticmethod
    def _cards_arg(action: dict[str, Any]) -> list[int]:
        cards = action.get("cards")
        if cards is None:
            values = chosen(action)
            if len(values) == 1:
                raw = values[0].strip()
                try:
                    cards = [int(x) for x in raw.split(",")] if raw else []
                except ValueError:
                    cards = None
        if not isinstance(cards, list) or any(isinstance(c, bool) or not isinstance(c, int) for c in cards):
            raise GameError(msg("Choose the cards."))
        if any(c not in CARDS for c in cards) or len(set(cards)) != len(cards):
            raise GameError(msg("There is no such card."))
        return sorted(cards)

    # -- handlers ---------------------------------------------------------------------------------

    @move("prefs", anytime=True)
    def _do_prefs(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        changes: list[tuple[str, str | None, str]] = []
        values = chosen(action)
        if action.get("values") is not None:
            if not values:
                raise GameError(msg("Choose a preference."))
            for v in values:
                parts = v.split(":")
                if len(parts) == 3 and parts[0] == "pon":
                    changes.append(("pon", parts[1], parts[2]))
                elif len(parts) == 2 and parts[0] in SIMPLE_PREFS:
                    changes.append((parts[0], None, parts[1]))
                else:
                    raise GameError(msg("Unknown preference."))
        else:
            pon = action.get("pon", {})
            if not isinstance(pon, dict):
                raise GameError(msg("Unknown preference."))
            for n, v in pon.items():
                changes.append(("pon", n, v))
            for key in SIMPLE_PREFS:
                if key in action:
                    changes.append((key, None, action[key]))
            if set(action) - {"type", "pon", *SIMPLE_PREFS}:
                raise GameError(msg("Unknown preference."))
        if not changes:
            raise GameError(msg("Choose a preference."))
        for key, n, value in changes:
            allowed = PON_PREFS if key == "pon" else SIMPLE_PREFS[key]
            if value not in allowed or (key == "pon" and n not in NUMBERS):
                raise GameError(msg("Unknown preference."))
        prefs = st["prefs"][seat]
        for key, n, value in changes:
            if key == "pon":
                prefs["pon"][n] = value
            else:
                prefs[key] = value
        _priv(ev, seat, msg("Preferences: PON {pon}; block {block}; refill {refill}; discard {discard}; "
                          "decay {decay}; events {events}.",
                          pon=chain("{a} {b}", [msg("{n}:{value}", n=n, value=msg(prefs["pon"][n])) for n in NUMBERS]),
                          block=msg(prefs["block"]), refill=msg(prefs["refill"]), discard=msg(prefs["discard"]),
                          decay=msg(_pref(st, seat, "decay")), events=msg(_pref(st, seat, "events"))))
        # A seat waiting on a hand-limit discard or a decay choice that switches to auto is resolved now.
        if str(seat) in st["excess"]:
            _check_excess(st, ev, seat)
        if str(seat) in _decaying(st) and _pref(st, seat, "decay") == "auto":
            _decay_auto(st, ev, seat)

    @move("decay")
    def _do_decay(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        if str(seat) in st["excess"]:
            raise GameError(msg("First discard down to the hand limit."))
        if str(seat) not in _decaying(st):
            raise GameError(msg("That move is not possible now."))
        cid = self._card_arg(action)
        sets = st["pon"][seat]
        if not any(cid in sets[i] for i in _decaying(st)[str(seat)]["sets"]):
            raise GameError(msg("Choose a card of your PON set that decays."))
        _decay_choice(st, ev, seat, cid)

    @move("discard")
    def _do_discard(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        if str(seat) not in st["excess"]:
            raise GameError(msg("First choose which card of your PON set decays.") if str(seat) in _decaying(st)
                            else msg("That move is not possible now."))
        cid = self._card_arg(action)
        if cid not in st["hands"][seat]:
            raise GameError(msg("You don't hold that card."))
        _discard_from_hand(st, ev, seat, cid, msg("over the hand limit"))
        _check_excess(st, ev, seat)

    @move("peek", phases=("peek",))
    def _do_peek(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._free(st, seat)
        idx = self._int_arg(action, "course")
        # Rule reading: a peeked course is taken in hand until every seat has peeked, so each
        # seat peeks at a different course.
        if not 0 <= idx < len(st["circuit"]) or idx in st["peeked"]:
            raise GameError(msg("Choose a course nobody has peeked at."))
        st["peeked"][seat] = idx
        st["known"][seat].append(idx)
        st["peek_queue"].pop(0)
        cid = st["circuit"][idx]
        _pub(st, ev, msg("{p} peeks at course {k}.", p=_p(seat), k=idx + 1))
        _priv(ev, seat, msg("Course {k} is {card}: {effect}", k=idx + 1, card=_label(cid), effect=_effect_text(cid)))
        if not st["peek_queue"]:
            self._finish_setup(st, ev)

    @move("play", phases=("play",))
    def _do_play(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._free(st, seat)
        cid = self._card_arg(action)
        if cid not in st["hands"][seat]:
            raise GameError(msg("You don't hold that card."))
        st["hands"][seat].remove(cid)
        st["played"] = cid
        _pub(st, ev, msg("{p} plays {card}.", p=_p(seat), card=_label(cid)))
        n = _num(cid)
        if st["turn"]["mods"].get("no_pon"):
            st["phase"] = "after_play"
            return
        asked = [s for s in range(st["seats"]) if st["prefs"][s]["pon"][str(n)] == "ask"]
        st["window"] = {"card": cid, "number": n, "asked": asked, "answers": {}}
        st["phase"] = "pon"
        if asked:
            _pub(st, ev, msg("PON window on the {n}: waiting for {who}.", n=n,
                           who=[_p(s) for s in asked]))

    @move("pon", phases=("pon",), anytime=True)
    def _do_pon(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._answering(st, seat)
        cards = self._cards_arg(action)
        n = st["window"]["number"]
        if len(cards) != 2 or any(c not in st["hands"][seat] or _num(c) != n for c in cards):
            raise GameError(msg("PON needs two cards of the played number from your hand."))
        st["window"]["answers"][str(seat)] = cards
        _priv(ev, seat, msg("You declare PON with {cards} (the highest-placed declaration wins).",
                          cards=_labels(cards)))

    @move("pon_pass", phases=("pon",), anytime=True)
    def _do_pon_pass(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._answering(st, seat)
        st["window"]["answers"][str(seat)] = "pass"

    @move("slip", phases=("slip",))
    def _do_slip(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._free(st, seat)
        cid = self._card_arg(action)
        if cid not in st["discard"]:
            raise GameError(msg("That card is not in the discard."))
        self._take_from_discard(st, ev, seat, cid, msg("slipstream"))
        st["phase"] = "overtake"

    def _take_from_discard(self, st: State, ev: list[Event], seat: int, cid: int, why: Msg) -> None:
        st["discard"].remove(cid)
        _pub(st, ev, msg("{p} takes {card} from the discard ({why}).", p=_p(seat), card=_label(cid), why=why))
        _gain(st, ev, seat, cid)

    @move("salvage", phases=("salvage",))
    def _do_salvage(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._free(st, seat)
        cid = self._card_arg(action)
        if cid not in st["discard"]:
            raise GameError(msg("That card is not in the discard."))
        self._take_from_discard(st, ev, seat, cid, msg("empty hand"))
        _pub(st, ev, msg("{p} passes.", p=_p(seat)))
        st["phase"] = "next_actor"

    @move("take", phases=("take",))
    def _do_take(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._free(st, seat)
        cid = self._card_arg(action)
        self._take_throttle(st, ev, seat, cid)

    def _take_throttle(self, st: State, ev: list[Event], seat: int, cid: int) -> None:
        throttle = st["throttles"][st["current"]]
        if cid not in throttle:
            raise GameError(msg("That card is not in this course's throttle."))
        throttle.remove(cid)
        _pub(st, ev, msg("{p} takes {card} from the throttle.", p=_p(seat), card=_label(cid)))
        _gain(st, ev, seat, cid)
        played = st["played"]
        throttle.append(played)
        st["played"] = None
        _pub(st, ev, msg("{card} goes into the throttle.", card=_label(played)))
        st["phase"] = "next_actor"

    @move("refill", phases=("refill",))
    def _do_refill(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._free(st, seat)
        cid = self._card_arg(action)
        self._refill(st, ev, seat, cid)

    def _refill(self, st: State, ev: list[Event], seat: int, cid: int) -> None:
        throttle = st["throttles"][st["current"]]
        if cid not in throttle:
            raise GameError(msg("That card is not in this course's throttle."))
        throttle.remove(cid)
        st["refill_queue"].pop(0)
        _pub(st, ev, msg("{p} refills with {card}.", p=_p(seat), card=_label(cid)))
        _gain(st, ev, seat, cid)

    @move("block", phases=("block",))
    def _do_block(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._free(st, seat)
        cards = self._cards_arg(action)
        if cards not in self._block_options(st, seat):
            raise GameError(msg("Those cards do not make a block here."))
        self._block(st, ev, seat, cards)

    def _block(self, st: State, ev: list[Event], defender: int, cards: list[int]) -> None:
        attacker = st["chase"]["attacker"]
        _, _, need, right = self._requirement(st, attacker, defender)
        if right and len(cards) < need:
            st["turn"]["discounts"][str(defender)] -= 1
        for c in cards:
            st["hands"][defender].remove(c)
            st["throttles"][st["current"]].append(c)
        if cards:
            _pub(st, ev, msg("{d} blocks {a} with {cards}.", d=_p(defender), a=_p(attacker), cards=_labels(cards)))
        else:
            _pub(st, ev, msg("{d} blocks {a} without a card.", d=_p(defender), a=_p(attacker)))
        st["chase"] = None
        st["phase"] = "take"

    @move("yield", phases=("block",))
    def _do_yield(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._free(st, seat)
        self._yield(st, ev, seat)

    def _yield(self, st: State, ev: list[Event], defender: int) -> None:
        attacker = st["chase"]["attacker"]
        order = st["order"]
        i = _rank(st, attacker)
        order[i - 1], order[i] = order[i], order[i - 1]
        _pub(st, ev, msg("{a} overtakes {d} and is now {pos}.", a=_p(attacker), d=_p(defender),
                       pos=_ordinal(i - 1)))
        _decay(st, ev, attacker, msg("successful overtake"))
        if i - 1 == 0:
            st["chase"] = None
            st["phase"] = "take"
        else:  # the chain goes on against the next seat up; the attacker may use an event first
            st["phase"] = "attack"

    @move("attack", phases=("attack",))
    def _do_attack(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._free(st, seat)
        st["phase"] = "block"

    @move("event", phases=OWN_STAGES)
    def _do_event(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._free(st, seat)
        cid = self._card_arg(action)
        if cid not in st["hands"][seat]:
            raise GameError(msg("You don't hold that card."))
        if CARDS[cid].kind != "racing":
            raise GameError(msg("Course cards have no event."))
        if seat in st["turn"]["events"]:
            raise GameError(msg("You have already used an event this turn."))
        if not self._event_usable(st, seat, cid):
            raise GameError(msg("That event cannot be used now."))
        card = CARDS[cid]
        cur = st["current"]
        st["hands"][seat].remove(cid)
        st["throttles"][cur].append(cid)
        st["turn"]["events"].append(seat)
        _pub(st, ev, msg("{p} uses {name} ({n}): {text}", p=_p(seat), name=msg(card.name), n=card.number,
                       text=msg(card.text)))
        op = card.effect["op"]
        flags = _flags(st, seat)
        resume = st["phase"]
        if op == "line":
            flags["line"] = int(card.effect["reach"])
        elif op == "slip_any":
            flags["slip"] = True
        elif op == "attack_boost":
            flags["boost"] = True
        elif op == "pon_hold":
            flags["hold"] = True
        elif op == "shield":
            st["turn"]["discounts"][str(seat)] = st["turn"]["discounts"].get(str(seat), 0) + 1
        elif op == "reveal":
            self._reveal(st, ev, _next_face_down(st))
        elif op == "leader_discard":
            self._leader_discard(st, ev, 1)
        else:
            if op == "take_discard":
                options = list(st["discard"])
            elif op == "take_throttle":
                where = cur + 1 if card.effect.get("where") == "next" else cur
                options = [c for c in st["throttles"][where] if c != cid]
            elif op == "peek":
                options = [i for i in range(cur + 1, len(st["circuit"]))
                           if not st["face_up"][i] and i not in st["known"][seat]]
            elif op == "pon_add":
                numbers = {_pon_number(s) for s in st["pon"][seat]}
                options = sorted(c for c in st["hands"][seat] if _num(c) in numbers)
            else:  # swap_course
                options = sorted(st["hands"][seat])
            st["pick"] = {"seat": seat, "op": op, "event": cid, "options": options, "resume": resume}
            st["phase"] = "pick"

    @move("pick", phases=("pick",))
    def _do_pick(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._free(st, seat)
        pick = st["pick"]
        if pick["op"] == "peek":
            choice = self._int_arg(action, "course")
        else:
            choice = self._card_arg(action)
        if choice not in pick["options"]:
            raise GameError(msg("Choose one of the offered options."))
        self._resolve_pick(st, ev, choice)

    def _resolve_pick(self, st: State, ev: list[Event], choice: int) -> None:
        pick = st["pick"]
        seat, op, cur = pick["seat"], pick["op"], st["current"]
        st["pick"] = None
        st["phase"] = pick["resume"]
        if op == "take_discard":
            self._take_from_discard(st, ev, seat, choice, msg("event"))
        elif op == "take_throttle":
            where = cur + 1 if CARDS[pick["event"]].effect.get("where") == "next" else cur
            st["throttles"][where].remove(choice)
            _pub(st, ev, msg("{p} takes {card} from the throttle of course {k}.", p=_p(seat),
                           card=_label(choice), k=where + 1))
            _gain(st, ev, seat, choice)
        elif op == "peek":
            st["known"][seat].append(choice)
            cid = st["circuit"][choice]
            _pub(st, ev, msg("{p} looks at course {k}.", p=_p(seat), k=choice + 1))
            _priv(ev, seat, msg("Course {k} is {card}: {effect}", k=choice + 1, card=_label(cid),
                              effect=_effect_text(cid)))
        elif op == "pon_add":
            n = _num(choice)
            target = min((s for s in st["pon"][seat] if _pon_number(s) == n), key=len)
            st["hands"][seat].remove(choice)
            target.append(choice)
            _pub(st, ev, msg("{p} adds {card} to a PON set.", p=_p(seat), card=_label(choice)))
        else:  # swap_course: the chosen hand card goes face down into the circuit
            idx = _next_face_down(st)
            old = st["circuit"][idx]
            st["hands"][seat].remove(choice)
            st["circuit"][idx] = choice
            for known in st["known"]:
                if idx in known:
                    known.remove(idx)
            st["known"][seat].append(idx)
            st["hands"][seat].append(old)
            _pub(st, ev, msg("{p} swaps a card from hand with face-down course {k}.", p=_p(seat), k=idx + 1))
            _priv(ev, seat, msg("You take {old}; course {k} is now your {card}.", old=_label(old), k=idx + 1,
                              card=_label(choice)))

    # -- shared effects -------------------------------------------------------------------------------

    def _reveal(self, st: State, ev: list[Event], idx: int | None) -> None:
        if idx is None:
            return
        st["face_up"][idx] = True
        cid = st["circuit"][idx]
        _pub(st, ev, msg("Course {k} is turned up: {card} — {effect}", k=idx + 1, card=_label(cid),
                       effect=_effect_text(cid)))

    def _leader_discard(self, st: State, ev: list[Event], count: int) -> None:
        leader = st["order"][0]
        rng = Rng(st["rng"])
        for _ in range(count):
            hand = st["hands"][leader]
            if not hand:
                break
            cid = hand[rng.below(len(hand))]
            _discard_from_hand(st, ev, leader, cid, msg("random, leader"))
        st["rng"] = rng.state

    def _course_effect(self, st: State, ev: list[Event], cid: int, said: bool = False) -> None:
        """The course's effect; `said`: the line turning the course up has just said it (issue
        #33: one post printed it twice), so no second line."""
        card = CARDS[cid]
        if card.kind != "course":
            # "表向きになったのがレーシングカードなら、これを行いません": a racing card in the circuit
            # (put there by the designed Shortcut event) has no course effect.
            # Rule reading: its number still serves as the course number.
            if not said:
                _pub(st, ev, msg("This course is a racing card: no course effect."))
            return
        effect = card.effect
        op = effect["op"]
        if not said:
            _pub(st, ev, msg("Course effect — {name}: {text}", name=msg(card.name), text=msg(card.text)))
        if op == "mod":
            for key, value in effect.items():
                if key != "op":
                    st["turn"]["mods"][key] = value
            if "hand_limit" in effect:
                for seat in st["order"]:
                    _check_excess(st, ev, seat)
        elif op == "reveal_next":
            self._reveal(st, ev, _next_face_down(st))
        elif op == "reverse_order":
            st["turn_order"] = list(reversed(st["order"]))
        elif op == "last_take":
            last = st["order"][-1]
            for _ in range(int(effect["count"])):
                if st["discard"]:
                    self._take_from_discard(st, ev, last, st["discard"][-1], msg("course effect"))
        elif op == "leader_discard":
            self._leader_discard(st, ev, int(effect["count"]))
        elif op == "throttle_from_discard":
            for _ in range(int(effect["count"])):
                if st["discard"]:
                    moved = st["discard"].pop()
                    st["throttles"][st["current"]].append(moved)
                    _pub(st, ev, msg("{card} goes from the discard into the throttle.", card=_label(moved)))
        elif op == "pon_decay":
            for seat in st["order"]:
                _decay(st, ev, seat, msg("course effect"))

    # -- the automatic flow ---------------------------------------------------------------------------

    def _run(self, st: State, ev: list[Event]) -> None:
        """Advance through every forced step until a decision is needed (or the game ends)."""
        for _ in range(10_000):
            if _interrupted(st) or st["phase"] in ("over", "peek"):
                return
            stage = st["phase"]
            if stage == "play":
                if st["hands"][st["actor"]]:
                    return
                self._to_play_or_salvage(st, ev)  # an event used up the hand
                continue
            if stage == "start_turn":
                self._start_turn(st, ev)
            elif stage == "begin_main":
                self._begin_main(st, ev)
            elif stage == "pon":
                if self._window_waiting(st):
                    return
                self._resolve_pon(st, ev)
            elif stage == "after_play":
                self._after_play(st, ev)
            elif stage == "slip":
                if len(st["discard"]) > 1 or (st["discard"] and self._own_pause(st)):
                    return
                if st["discard"]:
                    self._take_from_discard(st, ev, st["actor"], st["discard"][0], msg("slipstream"))
                st["phase"] = "overtake"  # (an event may have emptied the discard meanwhile)
            elif stage == "attack":
                if self._attack_pause(st):
                    return
                st["phase"] = "block"
            elif stage == "overtake":
                self._overtake(st, ev)
            elif stage == "block":
                defender = self._defender(st)
                pref = st["prefs"][defender]["block"]
                if pref == "ask":
                    return
                choice = auto.choose_block(st, defender, self._block_options(st, defender)) \
                    if pref == "auto" else None
                if choice is None:
                    self._yield(st, ev, defender)
                else:
                    self._block(st, ev, defender, choice)
            elif stage == "take":
                throttle = st["throttles"][st["current"]]
                if len(throttle) > 1 or (throttle and self._own_pause(st)):
                    return
                if throttle:
                    self._take_throttle(st, ev, st["actor"], throttle[0])
                else:
                    st["throttles"][st["current"]].append(st["played"])
                    st["played"] = None
                    st["phase"] = "next_actor"
            elif stage == "salvage":
                if len(st["discard"]) > 1:
                    return
                if st["discard"]:
                    self._take_from_discard(st, ev, st["actor"], st["discard"][0], msg("empty hand"))
                _pub(st, ev, msg("{p} passes.", p=_p(st["actor"])))
                st["phase"] = "next_actor"
            elif stage == "pick":
                options = st["pick"]["options"]
                if len(options) > 1:
                    return
                if options:
                    self._resolve_pick(st, ev, options[0])
                else:
                    st["phase"] = st["pick"]["resume"]
                    st["pick"] = None
            elif stage == "next_actor":
                st["actor_pos"] += 1
                st["actor"] = None
                st["phase"] = "begin_main" if st["actor_pos"] < len(st["turn_order"]) else "end_turn"
            elif stage == "end_turn":
                # Refill from the last place up, one throttle card each, while they last.
                st["refill_queue"] = list(reversed(st["order"]))
                st["phase"] = "refill"
            elif stage == "refill":
                throttle = st["throttles"][st["current"]]
                if not st["refill_queue"] or not throttle:
                    st["refill_queue"] = []
                    st["phase"] = "finish_turn"
                    continue
                seat = st["refill_queue"][0]
                if len(throttle) > 1 and st["prefs"][seat]["refill"] == "ask":
                    return
                self._refill(st, ev, seat, auto.choose_take(st, seat, throttle))
            elif stage == "finish_turn":
                self._finish_turn(st, ev)
            else:  # pragma: no cover - a corrupted state
                raise GameError(msg("The game is in an unknown state."))
        raise GameError(msg("The game is stuck."))  # pragma: no cover

    def _start_turn(self, st: State, ev: list[Event]) -> None:
        cur = st["current"]
        cid = st["circuit"][cur]
        st["turn"] = {"events": [], "discounts": {}, "mods": {}, "flags": {}}
        st["turn_order"] = list(st["order"])
        was_down = not st["face_up"][cur]
        if st["face_up"][cur]:
            _pub(st, ev, msg("— Course {k} of {total}: {card} —", k=cur + 1, total=len(st["circuit"]),
                           card=_label(cid)))
        else:
            _pub(st, ev, msg("— Course {k} of {total} —", k=cur + 1, total=len(st["circuit"])))
            self._reveal(st, ev, cur)  # (its line says the effect: not said again below)
        self._course_effect(st, ev, cid, said=was_down)
        st["actor_pos"] = 0
        st["phase"] = "begin_main"

    def _begin_main(self, st: State, ev: list[Event]) -> None:
        actor = st["turn_order"][st["actor_pos"]]
        st["actor"] = actor
        st["played"] = None
        self._to_play_or_salvage(st, ev)

    def _to_play_or_salvage(self, st: State, ev: list[Event]) -> None:
        # Rule reading: the main phase's "hand size check" is the empty-hand check: with no
        # card (from the start, or after being PON'd), take any discard if there is one and pass.
        actor = st["actor"]
        if st["hands"][actor]:
            st["phase"] = "play"
            return
        _pub(st, ev, msg("{p} has no cards.", p=_p(actor)))
        st["phase"] = "salvage"

    def _resolve_pon(self, st: State, ev: list[Event]) -> None:
        w = st["window"]
        n = w["number"]
        declarations = []
        for seat in range(st["seats"]):
            answer = w["answers"].get(str(seat))
            pref = st["prefs"][seat]["pon"][str(n)]
            if seat in w["asked"] and answer is not None:
                pair = answer if answer != "pass" else None
                if pair and any(c not in st["hands"][seat] for c in pair):
                    pair = None
            elif pref == "auto":
                pair = auto.choose_pon_pair(st, seat, n)
            else:
                pair = None
            if pair:
                declarations.append((_rank(st, seat), seat, pair))
        st["window"] = None
        if not declarations:
            st["phase"] = "after_play"
            return
        # The highest-placed declaration wins; the others are void.
        # Rule reading: a void declaration is never announced and its cards stay in hand (a
        # physical table would hear it, but announcing it would tell more than needed; the
        # PON'd player keeps its once-per-turn event if still unused).
        _, winner, pair = min(declarations)
        played = st["played"]
        for c in pair:
            st["hands"][winner].remove(c)
        st["pon"][winner].append([played, *pair])
        st["played"] = None
        actor = st["actor"]
        _pub(st, ev, msg("PON! {p} takes {card} with {pair}; {actor} plays again.", p=_p(winner),
                       card=_label(played), pair=_labels(pair), actor=_p(actor)))
        self._to_play_or_salvage(st, ev)

    def _after_play(self, st: State, ev: list[Event]) -> None:
        """Slipstream: second place or lower, played number equal to a throttle card's."""
        actor, cid = st["actor"], st["played"]
        n = _num(cid)
        flags = _flags(st, actor)
        forced = flags.pop("slip", False)
        mods = st["turn"]["mods"]
        # Rule reading: the played card is compared with every card already in this course's
        # throttle (it joins the throttle only after the throttle pick).
        wide = int(mods.get("slip_wide", 0))
        match = forced or any(abs(_num(x) - n) <= wide for x in st["throttles"][st["current"]])
        st["phase"] = "overtake"
        if _rank(st, actor) == 0 or not match or mods.get("no_slipstream"):
            return
        if not st["discard"]:
            _pub(st, ev, msg("{p} gets a slipstream, but the discard is empty.", p=_p(actor)))
            return
        _pub(st, ev, msg("{p} gets a slipstream.", p=_p(actor)))
        st["phase"] = "slip"

    def _overtake(self, st: State, ev: list[Event]) -> None:
        actor, cid = st["actor"], st["played"]
        n = _num(cid)
        reach = _flags(st, actor).pop("line", None)
        course = _course_number(st)
        st["phase"] = "take"
        if n != course and (reach is None or abs(n - course) > reach):
            return
        if _rank(st, actor) == 0:
            discounts = st["turn"]["discounts"]
            discounts[str(actor)] = discounts.get(str(actor), 0) + 1
            _pub(st, ev, msg("{p} leads and takes the block right for this turn.", p=_p(actor)))
            return
        st["chase"] = {"attacker": actor}
        st["phase"] = "attack"
        _pub(st, ev, msg("{p} attacks {d}!", p=_p(actor), d=_p(self._defender(st))))

    def _finish_turn(self, st: State, ev: list[Event]) -> None:
        cur = st["current"]
        st["discard"].append(st["circuit"][cur])
        st["discard"].extend(st["throttles"][cur])
        st["throttles"][cur] = []
        for seat in st["order"]:
            if _flags(st, seat).get("hold"):
                continue
            _decay(st, ev, seat, msg("end of turn"))
        st["current"] = cur + 1
        st["turn_order"] = []
        st["actor"] = None
        if st["current"] >= len(st["circuit"]):
            st["current"] = len(st["circuit"]) - 1
            st["phase"] = "over"
            st["winner"] = st["order"][0]
            _pub(st, ev, msg("Chequered flag! {p} wins. Final order: {order}.", p=_p(st["winner"]),
                           order=[_p(s) for s in st["order"]]))
        else:
            st["phase"] = "start_turn"

    # -- views --------------------------------------------------------------------------------------

    def view(self, state: State, viewer: int | None) -> View:
        st = state
        courses = []
        over = st["phase"] == "over"
        for i, cid in enumerate(st["circuit"]):
            up = st["face_up"][i]
            passed = i < st["current"] or (over and i == st["current"])
            courses.append({
                "index": i,
                "number": _num(cid) if up else None,
                "name": msg(CARDS[cid].name) if up else None,
                "effect": _effect_text(cid) if up else None,
                "face_up": up,
                "racing_card": CARDS[cid].kind == "racing" if up else None,
                "passed": passed,
                "throttle": [_label(c) for c in st["throttles"][i]],
                # Who has looked at this course (public: peeks and swaps happen in plain sight).
                "known_by": [s for s in range(st["seats"]) if i in st["known"][s]] if not up else [],
            })
        chase = None
        if st["phase"] in ("attack", "block"):
            attacker = st["chase"]["attacker"]
            defender = self._defender(st)
            specific, anys, need, right = self._requirement(st, attacker, defender)
            chase = {"attacker": attacker, "defender": defender, "numbers": specific, "any": anys,
                     "cards_needed": need, "with_block_right": need - 1 if right else None}
        window = None
        if st["phase"] == "pon":
            window = {"number": st["window"]["number"], "card": _label(st["window"]["card"]),
                      "asked": list(st["window"]["asked"])}
        phase = {"peek": "peek", "over": "over", "refill": "end_turn", "finish_turn": "end_turn",
                 "end_turn": "end_turn"}.get(st["phase"], "main")
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
            "played": _label(st["played"]) if st["played"] is not None else None,
            "pon_sets": {str(s): [[_num(c) for c in pset] for pset in st["pon"][s]] for s in range(st["seats"])},
            "pon_cards": {str(s): [[_label(c) for c in pset] for pset in st["pon"][s]] for s in range(st["seats"])},
            "hand_counts": {str(s): len(st["hands"][s]) for s in range(st["seats"])},
            "deck_count": len(st["deck"]),
            "discard": [_label(c) for c in st["discard"]],
            "discard_top": _label(st["discard"][-1]) if st["discard"] else None,
            "phase": phase,
            "step": st["phase"],
            "waiting_for": self.to_act(st),
            "window": window,
            "overtake": chase,
            "block_right": sorted(int(s) for s, k in st["turn"]["discounts"].items() if k > 0),
            "events_used": sorted(st["turn"]["events"]),
            "mods": dict(st["turn"]["mods"]),
            "log": from_wire(st["log"][-VIEW_LOG:]),  # Msgs (plain strings in games logged before #10)
            "winner": st["winner"],
        }
        if viewer is not None and 0 <= viewer < st["seats"]:
            seat = viewer
            hand = [{"id": c, "number": _num(c), "event": msg(CARDS[c].name) if CARDS[c].kind == "racing" else None,
                     "text": msg(CARDS[c].text) if CARDS[c].kind == "racing" else msg("Course card: no event."),
                     "label": _label(c), "kind": CARDS[c].kind}
                    for c in sorted(st["hands"][seat], key=lambda x: (_num(x), x))]
            peeked = [{"index": i, "number": _num(st["circuit"][i]), "name": msg(CARDS[st["circuit"][i]].name),
                       "effect": _effect_text(st["circuit"][i])}
                      for i in sorted(set(st["known"][seat])) if not st["face_up"][i]]
            answer = None
            if st["phase"] == "pon":
                raw = st["window"]["answers"].get(str(seat))
                answer = raw if raw is None or raw == "pass" else [_label(c) for c in raw]
            v["me"] = {"seat": seat, "hand": hand, "peeked": peeked,
                       "prefs": {**default_prefs(), **clone(st["prefs"][seat])}, "pon_answer": answer,
                       "event_used": seat in st["turn"]["events"],
                       "to_act": seat in self.to_act(st)}
        return v

    # -- menu ---------------------------------------------------------------------------------------

    def placings(self, state: State) -> list[int]:
        """Each seat's place at the end (1 = the winner): the final order."""
        return [state["order"].index(s) + 1 for s in range(len(state["order"]))]

    def redraw_hidden(self, state: dict, seat: int, seed: int) -> dict:
        """What the seat cannot see, dealt again (bot/games/pon/hidden.py)."""
        return hidden.redraw(state, seat, seed)

    def auto_action(self, state: State, seat: int) -> dict[str, Any]:
        """The automatic player of an absent seat: the simulator's greedy strategy."""
        import random

        from bot.games.pon.simulate import choose
        return choose(state, seat, "greedy", random.Random(seat))

    def menu(self, state: State, seat: int) -> list[dict[str, Any]]:
        st = state
        if st["phase"] == "over" or not 0 <= seat < st["seats"]:
            return []
        groups: list[dict[str, Any]] = []
        acts = self.legal_actions(st, seat)

        def select(placeholder: Msg, action: dict[str, Any], options: list[dict[str, Any]]) -> None:
            for start in range(0, len(options), 25):
                chunk = options[start:start + 25]
                # More than a select holds: each page says which of the choices it has (issue #33:
                # "(1)" said nothing).
                ph = placeholder if len(options) <= 25 else msg(
                    "{placeholder} (choices {a}-{b} of {n})", placeholder=placeholder, a=start + 1,
                    b=start + len(chunk), n=len(options))
                groups.append({"kind": "select", "placeholder": ph, "min": 1, "max": 1,
                               "action": dict(action), "options": chunk})

        def card_option(cid: int, label: Msg | None = None) -> dict[str, Any]:
            c = CARDS[cid]
            text = msg(c.text) if c.kind == "racing" else msg("Course card: no event.")
            return {"label": label or _label(cid), "value": str(cid), "description": text}

        if acts:
            kind = acts[0]["type"]
            if kind == "discard":
                select(msg("Over the hand limit: discard a card"), {"type": "discard"},
                       [card_option(a["card"]) for a in acts])
            elif kind == "decay":
                select(msg("PON decays: which card of the set goes to the discard?"), {"type": "decay"},
                       [card_option(a["card"], msg("Drop {card} (PON set of {n}s)", card=_label(a["card"]),
                                                 n=_num(a["card"])))
                        for a in acts])
            elif kind == "peek":
                select(msg("Peek at a course"), {"type": "peek"},
                       [{"label": msg("Course {k}", k=a["course"] + 1), "value": str(a["course"]),
                         "description": msg("face up") if st["face_up"][a["course"]] else msg("face down")}
                        for a in acts])
            elif st["phase"] in OWN_STAGES:
                stage = st["phase"]
                main = [a for a in acts if a["type"] != "event"]
                if stage == "play":
                    select(msg("Play a card"), {"type": "play"}, [card_option(a["card"]) for a in main])
                elif stage == "take":
                    select(msg("Take a card from the throttle"), {"type": "take"},
                           [card_option(a["card"]) for a in main])
                elif stage == "slip":
                    select(msg("Slipstream: take a card from the discard"), {"type": "slip"},
                           [card_option(a["card"]) for a in reversed(main)])
                else:  # attack: an event now, or on to the block
                    groups.append({"kind": "buttons", "options": [
                        {"label": msg("Go on with the overtake"), "action": {"type": "attack"}, "style": "primary"}]})
                events = [a for a in acts if a["type"] == "event"]
                if events:
                    select(msg("Use an event (once per turn)"), {"type": "event"},
                           [card_option(a["card"], msg("Event: {name} ({n})", name=msg(CARDS[a["card"]].name),
                                                     n=_num(a["card"]))) for a in events])
            elif kind in ("pon", "pon_pass"):
                pons = [a for a in acts if a["type"] == "pon"]
                if len(pons) <= 4:
                    buttons = [{"label": msg("PON! {cards}", cards=_labels(a["cards"])), "action": a,
                                "style": "success"}
                               for a in pons]
                    buttons.append({"label": msg("No PON"), "action": {"type": "pon_pass"}, "style": "secondary"})
                    groups.append({"kind": "buttons", "options": buttons})
                else:
                    select(msg("PON! with which pair?"), {"type": "pon"},
                           [{"label": _labels(a["cards"]), "value": ",".join(map(str, a["cards"]))}
                            for a in pons])
                    groups.append({"kind": "buttons", "options": [
                        {"label": msg("No PON"), "action": {"type": "pon_pass"}, "style": "secondary"}]})
            elif kind in ("block", "yield"):
                blocks = [a for a in acts if a["type"] == "block"]
                free = [a for a in blocks if not a["cards"]]
                paid = [a for a in blocks if a["cards"]]
                if paid:
                    select(msg("Block with…"), {"type": "block"},
                           [{"label": _labels(a["cards"]) if a["cards"] else msg("no card"),
                             "value": ",".join(map(str, a["cards"])),
                             "description": self.describe_action(st, seat, a)} for a in paid])
                buttons = [{"label": self.describe_action(st, seat, a), "action": a, "style": "primary"}
                           for a in free]
                buttons.append({"label": msg("Yield"), "action": {"type": "yield"}, "style": "danger"})
                groups.append({"kind": "buttons", "options": buttons})
            elif kind in ("slip", "salvage"):
                title = msg("Slipstream: take a card from the discard") if kind == "slip" else \
                    msg("Empty hand: take a card from the discard")
                select(title, {"type": kind}, [card_option(a["card"]) for a in reversed(acts)])
            elif kind == "refill":
                select(msg("Refill: take a card from the throttle"), {"type": "refill"},
                       [card_option(a["card"]) for a in acts])
            elif kind == "pick":
                pick = st["pick"]
                if pick["op"] == "peek":
                    select(msg("Look at which course?"), {"type": "pick"},
                           [{"label": msg("Course {k}", k=a["course"] + 1), "value": str(a["course"])} for a in acts])
                else:
                    placeholder = {"take_discard": msg("Take a card from the discard"),
                                   "take_throttle": msg("Take a card from the throttle"),
                                   "pon_add": msg("Add which card to your PON set?"),
                                   "swap_course": msg("Swap which card into the course?")}[pick["op"]]
                    select(placeholder, {"type": "pick"}, [card_option(a["card"]) for a in acts])
        groups.append(self._pref_select(st, seat))
        return groups

    def _pref_select(self, st: State, seat: int) -> dict[str, Any]:
        prefs = st["prefs"][seat]
        options = []
        for n in NUMBERS:
            for value in PON_PREFS:
                if value != prefs["pon"][n]:
                    options.append({"label": msg("PON on {n}s → {value}", n=n, value=msg(value)),
                                    "value": f"pon:{n}:{value}",
                                    "description": msg("Now: {value}", value=msg(prefs["pon"][n]))})
        for key, name in (("block", msg("When overtaken")), ("refill", msg("End-of-turn refill")),
                          ("discard", msg("Hand-limit discard")), ("decay", msg("Which PON card decays")),
                          ("events", msg("Events in your turn"))):
            now = _pref(st, seat, key)
            for value in SIMPLE_PREFS[key]:
                if value != now:
                    options.append({"label": msg("{name} → {value}", name=name, value=msg(value)),
                                    "value": f"{key}:{value}", "description": msg("Now: {value}", value=msg(now))})
        return {"kind": "select", "placeholder": msg("Preferences (auto plays for you; ask pauses for you)"),
                "min": 1, "max": 1, "action": {"type": "prefs"}, "options": options}


def _ordinal(index: int) -> Msg:
    return {0: msg("1st"), 1: msg("2nd"), 2: msg("3rd")}.get(index, msg("{n}th", n=index + 1))


ENGINE = PonEngine()
