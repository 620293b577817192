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
          (see rules.attack_pause)
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

import random
from typing import Any

from bot.games.base import Engine, Event, GameError, OptionSpec, State, View, chosen, clone, move, seat_ref
from bot.games.pon.hidden import redraw
from bot.games.pon.common import (
    NUMBERS,
    OWN_PHASES,
    PON_PREFS,
    SIMPLE_PREFS,
    card_label,
    card_labels,
    check_excess,
    decay_auto,
    decay_choice,
    decay_waits,
    default_prefs,
    discard_from_hand,
    effect_text,
    interrupted,
    leader_discard,
    log_public,
    next_face_down,
    number_of,
    reveal,
    seat_pref,
    set_number,
    take_from_discard,
    tell,
    turn_flags,
)
from bot.games.pon.content import CARDS, COURSE_IDS, RACING_IDS
from bot.games.pon.flow import block, finish_setup, resolve_pick, run, take_throttle, refill, yield_to
from bot.games.pon.menu import describe_action, menu
from bot.games.pon.strategy import choose
from bot.games.pon.rules import block_options, event_usable, legal_actions, to_act
from bot.games.pon.view import view
from bot.games.rng import Rng
from bot.games.text import chain
from bot.i18n import Msg, msg, to_wire

SCHEMA = 2  # 2: the phase is "phase" (it was "stage")


class PonEngine(Engine):
    kind = "pon"
    title = "PON"
    rules_version = 2  # raise it when a change makes old logs replay differently (bot/games/base.py)
    min_seats = 3
    max_seats = 4
    options: list[OptionSpec] = []

    # -- setup ---------------------------------------------------------------------------------------

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
        st["log"].append(
            to_wire(
                msg(
                    "Starting order: {order}. Each player peeks at one course, last place first.",
                    order=[seat_ref(s) for s in order],
                )
            )
        )
        st["rules_version"] = self.rules_version
        return st

    # -- saved states from older versions ------------------------------------------------------------

    def upgrade(self, state: State) -> State:
        """A state saved by an older version, as today's code reads it (the table calls this once
        when it loads a game). Schema 1 named the phase "stage"."""
        if not isinstance(state, dict) or state.get("schema", SCHEMA) >= SCHEMA:
            return state
        st = clone(state)
        st["phase"] = st.pop("stage")
        st["schema"] = SCHEMA
        return st

    def copy_state(self, state: State) -> State:
        """The copy `apply` changes in place, sharing the log's lines with `state`: a line is never
        changed once written (`log_public` appends to the list and trims it), and the lines are most
        of a state's bytes, so the JSON round trip copies everything else and the log is a new list
        of the same lines (issue #34: a move about a third faster)."""
        log = state.get("log")
        if not isinstance(log, list):
            return clone(state)
        st = clone({**state, "log": None})  # the keys in the same order
        st["log"] = list(log)
        return st

    # -- moves ---------------------------------------------------------------------------------------

    def after_move(self, st: State, seat: int, events: list[Event]) -> None:
        """Every move is followed by the forced steps up to the next decision (`flow.run`)."""
        run(st, events)

    @staticmethod
    def _free(st: State, seat: int) -> None:
        """A seat that owes a hand-limit discard or a decay choice makes that move first."""
        if str(seat) in st["excess"]:
            raise GameError(msg("First discard down to the hand limit."))
        if str(seat) in decay_waits(st):
            raise GameError(msg("First choose which card of your PON set decays."))

    def _answering(self, st: State, seat: int) -> None:
        """Who may answer the PON window: a seat the game waits for, or an asked seat changing its
        answer until every asked seat has answered."""
        rethink = not interrupted(st) and seat in st["window"]["asked"]
        if seat not in to_act(st) and not rethink:
            raise GameError(msg("It is not your move."))
        self._free(st, seat)

    # -- argument parsing ----------------------------------------------------------------------------

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

    # -- handlers ------------------------------------------------------------------------------------

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
        tell(
            ev,
            seat,
            msg(
                "Preferences: PON {pon}; block {block}; refill {refill}; discard {discard}; "
                "decay {decay}; events {events}.",
                pon=chain("{a} {b}", [msg("{n}:{value}", n=n, value=msg(prefs["pon"][n])) for n in NUMBERS]),
                block=msg(prefs["block"]),
                refill=msg(prefs["refill"]),
                discard=msg(prefs["discard"]),
                decay=msg(seat_pref(st, seat, "decay")),
                events=msg(seat_pref(st, seat, "events")),
            ),
        )
        # A seat waiting on a hand-limit discard or a decay choice that switches to auto is resolved now.
        if str(seat) in st["excess"]:
            check_excess(st, ev, seat)
        if str(seat) in decay_waits(st) and seat_pref(st, seat, "decay") == "auto":
            decay_auto(st, ev, seat)

    @move("decay")
    def _do_decay(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        if str(seat) in st["excess"]:
            raise GameError(msg("First discard down to the hand limit."))
        if str(seat) not in decay_waits(st):
            raise GameError(msg("That move is not possible now."))
        cid = self._card_arg(action)
        sets = st["pon"][seat]
        if not any(cid in sets[i] for i in decay_waits(st)[str(seat)]["sets"]):
            raise GameError(msg("Choose a card of your PON set that decays."))
        decay_choice(st, ev, seat, cid)

    @move("discard")
    def _do_discard(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        if str(seat) not in st["excess"]:
            raise GameError(
                msg("First choose which card of your PON set decays.")
                if str(seat) in decay_waits(st)
                else msg("That move is not possible now.")
            )
        cid = self._card_arg(action)
        if cid not in st["hands"][seat]:
            raise GameError(msg("You don't hold that card."))
        discard_from_hand(st, ev, seat, cid, msg("over the hand limit"))
        check_excess(st, ev, seat)

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
        log_public(st, ev, msg("{p} peeks at course {k}.", p=seat_ref(seat), k=idx + 1))
        tell(ev, seat, msg("Course {k} is {card}: {effect}", k=idx + 1, card=card_label(cid), effect=effect_text(cid)))
        if not st["peek_queue"]:
            finish_setup(st, ev)

    @move("play", phases=("play",))
    def _do_play(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._free(st, seat)
        cid = self._card_arg(action)
        if cid not in st["hands"][seat]:
            raise GameError(msg("You don't hold that card."))
        st["hands"][seat].remove(cid)
        st["played"] = cid
        log_public(st, ev, msg("{p} plays {card}.", p=seat_ref(seat), card=card_label(cid)))
        n = number_of(cid)
        if st["turn"]["mods"].get("no_pon"):
            st["phase"] = "after_play"
            return
        asked = [s for s in range(st["seats"]) if st["prefs"][s]["pon"][str(n)] == "ask"]
        st["window"] = {"card": cid, "number": n, "asked": asked, "answers": {}}
        st["phase"] = "pon"
        if asked:
            log_public(st, ev, msg("PON window on the {n}: waiting for {who}.", n=n, who=[seat_ref(s) for s in asked]))

    @move("pon", phases=("pon",), anytime=True)
    def _do_pon(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._answering(st, seat)
        cards = self._cards_arg(action)
        n = st["window"]["number"]
        if len(cards) != 2 or any(c not in st["hands"][seat] or number_of(c) != n for c in cards):
            raise GameError(msg("PON needs two cards of the played number from your hand."))
        st["window"]["answers"][str(seat)] = cards
        tell(
            ev,
            seat,
            msg("You declare PON with {cards} (the highest-placed declaration wins).", cards=card_labels(cards)),
        )

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
        take_from_discard(st, ev, seat, cid, msg("slipstream"))
        st["phase"] = "overtake"

    @move("salvage", phases=("salvage",))
    def _do_salvage(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._free(st, seat)
        cid = self._card_arg(action)
        if cid not in st["discard"]:
            raise GameError(msg("That card is not in the discard."))
        take_from_discard(st, ev, seat, cid, msg("empty hand"))
        log_public(st, ev, msg("{p} passes.", p=seat_ref(seat)))
        st["phase"] = "next_actor"

    @move("take", phases=("take",))
    def _do_take(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._free(st, seat)
        cid = self._card_arg(action)
        take_throttle(st, ev, seat, cid)

    @move("refill", phases=("refill",))
    def _do_refill(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._free(st, seat)
        cid = self._card_arg(action)
        refill(st, ev, seat, cid)

    @move("block", phases=("block",))
    def _do_block(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._free(st, seat)
        cards = self._cards_arg(action)
        if cards not in block_options(st, seat):
            raise GameError(msg("Those cards do not make a block here."))
        block(st, ev, seat, cards)

    @move("yield", phases=("block",))
    def _do_yield(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._free(st, seat)
        yield_to(st, ev, seat)

    @move("attack", phases=("attack",))
    def _do_attack(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._free(st, seat)
        st["phase"] = "block"

    @move("event", phases=OWN_PHASES)
    def _do_event(self, st: State, seat: int, action: dict[str, Any], ev: list[Event]) -> None:
        self._free(st, seat)
        cid = self._card_arg(action)
        if cid not in st["hands"][seat]:
            raise GameError(msg("You don't hold that card."))
        if CARDS[cid].kind != "racing":
            raise GameError(msg("Course cards have no event."))
        if seat in st["turn"]["events"]:
            raise GameError(msg("You have already used an event this turn."))
        if not event_usable(st, seat, cid):
            raise GameError(msg("That event cannot be used now."))
        card = CARDS[cid]
        cur = st["current"]
        st["hands"][seat].remove(cid)
        st["throttles"][cur].append(cid)
        st["turn"]["events"].append(seat)
        log_public(
            st,
            ev,
            msg(
                "{p} uses {name} ({n}): {text}",
                p=seat_ref(seat),
                name=msg(card.name),
                n=card.number,
                text=msg(card.text),
            ),
        )
        op = card.effect["op"]
        flags = turn_flags(st, seat)
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
            reveal(st, ev, next_face_down(st))
        elif op == "leader_discard":
            leader_discard(st, ev, 1)
        else:
            if op == "take_discard":
                options = list(st["discard"])
            elif op == "take_throttle":
                where = cur + 1 if card.effect.get("where") == "next" else cur
                options = [c for c in st["throttles"][where] if c != cid]
            elif op == "peek":
                options = [
                    i for i in range(cur + 1, len(st["circuit"])) if not st["face_up"][i] and i not in st["known"][seat]
                ]
            elif op == "pon_add":
                numbers = {set_number(s) for s in st["pon"][seat]}
                options = sorted(c for c in st["hands"][seat] if number_of(c) in numbers)
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
        resolve_pick(st, ev, choice)

    # -- the parts that read the state ---------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        return to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        return legal_actions(state, seat)

    def describe_action(self, state: State, seat: int, action: dict[str, Any]) -> Msg:
        return describe_action(state, seat, action)

    def view(self, state: State, viewer: int | None) -> View:
        return view(state, viewer)

    def menu(self, state: State, seat: int) -> list[dict[str, Any]]:
        return menu(state, seat)

    def placings(self, state: State) -> list[int]:
        """Each seat's place at the end (1 = the winner): the final order."""
        return [state["order"].index(s) + 1 for s in range(len(state["order"]))]

    def redraw_hidden(self, state: dict, seat: int, seed: int) -> dict:
        """What the seat cannot see, dealt again (bot/games/pon/hidden.py)."""
        return redraw(state, seat, seed)

    def auto_action(self, state: State, seat: int) -> dict[str, Any]:
        """The automatic player of an absent seat: the simulator's greedy strategy."""
        return choose(state, seat, "greedy", random.Random(seat))


ENGINE = PonEngine()
