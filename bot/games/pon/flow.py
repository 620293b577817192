"""PON's forced steps: after every move the game runs on (`run`) until a seat must decide or the
game ends: the setup's deal, each turn's course and its effect, the PON window's resolution, the
slipstream, the overtake chain with its blocks, the throttle pick, the refill and the turn's end."""

from __future__ import annotations

from collections.abc import Callable

from bot.games.base import Event, GameError, State
from bot.games.pon.auto import choose_block, choose_pon_pair, choose_take
from bot.games.pon.common import (
    BACK_HIDDEN,
    card_label,
    card_labels,
    check_excess,
    course_number,
    decay_sets,
    effect_text,
    gain,
    interrupted,
    leader_discard,
    log_public,
    next_face_down,
    number_of,
    ordinal,
    rank_of,
    reveal,
    seat_ref,
    set_number,
    take_from_discard,
    tell,
    turn_flags,
)
from bot.games.pon.content import CARDS, HAND_LIMIT
from bot.games.pon.rules import attack_pause, block_options, defender_of, own_pause, requirement, window_waiting
from bot.games.rng import Rng
from bot.i18n import msg


def finish_setup(st: State, ev: list[Event]) -> None:
    """After the last peek: courses turned up, hands and throttles dealt, the first turn next."""
    length = len(st["circuit"])
    peeked = {i for i in st["peeked"] if i is not None}
    for i in range(length - BACK_HIDDEN):
        if i not in peeked:
            st["face_up"][i] = True
    hidden = length - sum(st["face_up"])
    log_public(
        st,
        ev,
        msg(
            "All courses but the last three are turned up; peeked courses stay face down ({hidden} face down).",
            hidden=hidden,
        ),
    )
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
        tell(ev, seat, msg("Your hand: {cards}.", cards=card_labels(st["hands"][seat])))
    st["phase"] = "start_turn"


def run(st: State, ev: list[Event]) -> None:
    """Advance through every forced step until a decision is needed (or the game ends): each
    phase's step (`STEPS`) either moves the game on or says that it waits for a seat."""
    for _ in range(10_000):
        if interrupted(st) or st["phase"] in ("over", "peek"):
            return
        step = STEPS.get(st["phase"])
        if step is None:  # pragma: no cover - a corrupted state
            raise GameError(msg("The game is in an unknown state."))
        if step(st, ev):
            return
    raise GameError(msg("The game is stuck."))  # pragma: no cover


# Each phase's step: True when the game waits for a seat's decision, False when it moved on.


def _play(st: State, ev: list[Event]) -> bool:
    if st["hands"][st["actor"]]:
        return True
    to_play_or_salvage(st, ev)  # an event used up the hand
    return False


def _pon(st: State, ev: list[Event]) -> bool:
    if window_waiting(st):
        return True
    resolve_pon(st, ev)
    return False


def _slip(st: State, ev: list[Event]) -> bool:
    if len(st["discard"]) > 1 or (st["discard"] and own_pause(st)):
        return True
    if st["discard"]:
        take_from_discard(st, ev, st["actor"], st["discard"][0], msg("slipstream"))
    st["phase"] = "overtake"  # (an event may have emptied the discard meanwhile)
    return False


def _attack(st: State, ev: list[Event]) -> bool:
    if attack_pause(st):
        return True
    st["phase"] = "block"
    return False


def _block(st: State, ev: list[Event]) -> bool:
    defender = defender_of(st)
    pref = st["prefs"][defender]["block"]
    if pref == "ask":
        return True
    choice = choose_block(st, defender, block_options(st, defender)) if pref == "auto" else None
    if choice is None:
        yield_to(st, ev, defender)
    else:
        block(st, ev, defender, choice)
    return False


def _take(st: State, ev: list[Event]) -> bool:
    throttle = st["throttles"][st["current"]]
    if len(throttle) > 1 or (throttle and own_pause(st)):
        return True
    if throttle:
        take_throttle(st, ev, st["actor"], throttle[0])
    else:
        st["throttles"][st["current"]].append(st["played"])
        st["played"] = None
        st["phase"] = "next_actor"
    return False


def _salvage(st: State, ev: list[Event]) -> bool:
    if len(st["discard"]) > 1:
        return True
    if st["discard"]:
        take_from_discard(st, ev, st["actor"], st["discard"][0], msg("empty hand"))
    log_public(st, ev, msg("{p} passes.", p=seat_ref(st["actor"])))
    st["phase"] = "next_actor"
    return False


def _pick(st: State, ev: list[Event]) -> bool:
    options = st["pick"]["options"]
    if len(options) > 1:
        return True
    if options:
        resolve_pick(st, ev, options[0])
    else:
        st["phase"] = st["pick"]["resume"]
        st["pick"] = None
    return False


def _next_actor(st: State, ev: list[Event]) -> bool:
    st["actor_pos"] += 1
    st["actor"] = None
    st["phase"] = "begin_main" if st["actor_pos"] < len(st["turn_order"]) else "end_turn"
    return False


def _end_turn(st: State, ev: list[Event]) -> bool:
    # Refill from the last place up, one throttle card each, while they last.
    st["refill_queue"] = list(reversed(st["order"]))
    st["phase"] = "refill"
    return False


def _refill(st: State, ev: list[Event]) -> bool:
    throttle = st["throttles"][st["current"]]
    if not st["refill_queue"] or not throttle:
        st["refill_queue"] = []
        st["phase"] = "finish_turn"
        return False
    seat = st["refill_queue"][0]
    if len(throttle) > 1 and st["prefs"][seat]["refill"] == "ask":
        return True
    refill(st, ev, seat, choose_take(st, seat, throttle))
    return False


def _moved_on(do: Callable[[State, list[Event]], None]) -> Callable[[State, list[Event]], bool]:
    """A step that always moves the game on."""

    def step(st: State, ev: list[Event]) -> bool:
        do(st, ev)
        return False

    return step


def start_turn(st: State, ev: list[Event]) -> None:
    """A new turn: its course turned up (if needed) and its effect applied."""
    cur = st["current"]
    cid = st["circuit"][cur]
    st["turn"] = {"events": [], "discounts": {}, "mods": {}, "flags": {}}
    st["turn_order"] = list(st["order"])
    was_down = not st["face_up"][cur]
    if st["face_up"][cur]:
        log_public(
            st, ev, msg("— Course {k} of {total}: {card} —", k=cur + 1, total=len(st["circuit"]), card=card_label(cid))
        )
    else:
        log_public(st, ev, msg("— Course {k} of {total} —", k=cur + 1, total=len(st["circuit"])))
        reveal(st, ev, cur)  # (its line says the effect: not said again below)
    course_effect(st, ev, cid, said=was_down)
    st["actor_pos"] = 0
    st["phase"] = "begin_main"


def course_effect(st: State, ev: list[Event], cid: int, said: bool = False) -> None:
    """The course's effect; `said`: the line turning the course up has just said it (issue
    #33: one post printed it twice), so no second line."""
    card = CARDS[cid]
    if card.kind != "course":
        # "表向きになったのがレーシングカードなら、これを行いません": a racing card in the circuit
        # (put there by the designed Shortcut event) has no course effect.
        # Rule reading: its number still serves as the course number.
        if not said:
            log_public(st, ev, msg("This course is a racing card: no course effect."))
        return
    effect = card.effect
    op = effect["op"]
    if not said:
        log_public(st, ev, msg("Course effect — {name}: {text}", name=msg(card.name), text=msg(card.text)))
    if op == "mod":
        for key, value in effect.items():
            if key != "op":
                st["turn"]["mods"][key] = value
        if "hand_limit" in effect:
            for seat in st["order"]:
                check_excess(st, ev, seat)
    elif op == "reveal_next":
        reveal(st, ev, next_face_down(st))
    elif op == "reverse_order":
        st["turn_order"] = list(reversed(st["order"]))
    elif op == "last_take":
        last = st["order"][-1]
        for _ in range(int(effect["count"])):
            if st["discard"]:
                take_from_discard(st, ev, last, st["discard"][-1], msg("course effect"))
    elif op == "leader_discard":
        leader_discard(st, ev, int(effect["count"]))
    elif op == "throttle_from_discard":
        for _ in range(int(effect["count"])):
            if st["discard"]:
                moved = st["discard"].pop()
                st["throttles"][st["current"]].append(moved)
                log_public(st, ev, msg("{card} goes from the discard into the throttle.", card=card_label(moved)))
    elif op == "pon_decay":
        for seat in st["order"]:
            decay_sets(st, ev, seat, msg("course effect"))


def begin_main(st: State, ev: list[Event]) -> None:
    """The next seat in this turn's order starts its main phase."""
    actor = st["turn_order"][st["actor_pos"]]
    st["actor"] = actor
    st["played"] = None
    to_play_or_salvage(st, ev)


def to_play_or_salvage(st: State, ev: list[Event]) -> None:
    # Rule reading: the main phase's "hand size check" is the empty-hand check: with no
    # card (from the start, or after being PON'd), take any discard if there is one and pass.
    """The actor plays a card, or with no card in hand takes one from the discard and passes."""
    actor = st["actor"]
    if st["hands"][actor]:
        st["phase"] = "play"
        return
    log_public(st, ev, msg("{p} has no cards.", p=seat_ref(actor)))
    st["phase"] = "salvage"


def resolve_pon(st: State, ev: list[Event]) -> None:
    """Every answer is in: the highest-placed declaration takes the played card."""
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
            pair = choose_pon_pair(st, seat, n)
        else:
            pair = None
        if pair:
            declarations.append((rank_of(st, seat), seat, pair))
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
    log_public(
        st,
        ev,
        msg(
            "PON! {p} takes {card} with {pair}; {actor} plays again.",
            p=seat_ref(winner),
            card=card_label(played),
            pair=card_labels(pair),
            actor=seat_ref(actor),
        ),
    )
    to_play_or_salvage(st, ev)


def after_play(st: State, ev: list[Event]) -> None:
    """Slipstream: second place or lower, played number equal to a throttle card's."""
    actor, cid = st["actor"], st["played"]
    n = number_of(cid)
    flags = turn_flags(st, actor)
    forced = flags.pop("slip", False)
    mods = st["turn"]["mods"]
    # Rule reading: the played card is compared with every card already in this course's
    # throttle (it joins the throttle only after the throttle pick).
    wide = int(mods.get("slip_wide", 0))
    match = forced or any(abs(number_of(x) - n) <= wide for x in st["throttles"][st["current"]])
    st["phase"] = "overtake"
    if rank_of(st, actor) == 0 or not match or mods.get("no_slipstream"):
        return
    if not st["discard"]:
        log_public(st, ev, msg("{p} gets a slipstream, but the discard is empty.", p=seat_ref(actor)))
        return
    log_public(st, ev, msg("{p} gets a slipstream.", p=seat_ref(actor)))
    st["phase"] = "slip"


def overtake(st: State, ev: list[Event]) -> None:
    """After the play (and slipstream): an overtake when the number matches the course, else on to the take."""
    actor, cid = st["actor"], st["played"]
    n = number_of(cid)
    reach = turn_flags(st, actor).pop("line", None)
    course = course_number(st)
    st["phase"] = "take"
    if n != course and (reach is None or abs(n - course) > reach):
        return
    if rank_of(st, actor) == 0:
        discounts = st["turn"]["discounts"]
        discounts[str(actor)] = discounts.get(str(actor), 0) + 1
        log_public(st, ev, msg("{p} leads and takes the block right for this turn.", p=seat_ref(actor)))
        return
    st["chase"] = {"attacker": actor}
    st["phase"] = "attack"
    log_public(st, ev, msg("{p} attacks {d}!", p=seat_ref(actor), d=seat_ref(defender_of(st))))


def block(st: State, ev: list[Event], defender: int, cards: list[int]) -> None:
    """`defender` blocks the attacker with `cards` (its block right saving one when it can)."""
    attacker = st["chase"]["attacker"]
    _, _, need, right = requirement(st, attacker, defender)
    if right and len(cards) < need:
        st["turn"]["discounts"][str(defender)] -= 1
    for c in cards:
        st["hands"][defender].remove(c)
        st["throttles"][st["current"]].append(c)
    if cards:
        log_public(
            st,
            ev,
            msg("{d} blocks {a} with {cards}.", d=seat_ref(defender), a=seat_ref(attacker), cards=card_labels(cards)),
        )
    else:
        log_public(st, ev, msg("{d} blocks {a} without a card.", d=seat_ref(defender), a=seat_ref(attacker)))
    st["chase"] = None
    st["phase"] = "take"


def yield_to(st: State, ev: list[Event], defender: int) -> None:
    """`defender` lets the attacker past; the chain goes on against the next seat up."""
    attacker = st["chase"]["attacker"]
    order = st["order"]
    i = rank_of(st, attacker)
    order[i - 1], order[i] = order[i], order[i - 1]
    log_public(
        st,
        ev,
        msg("{a} overtakes {d} and is now {pos}.", a=seat_ref(attacker), d=seat_ref(defender), pos=ordinal(i - 1)),
    )
    decay_sets(st, ev, attacker, msg("successful overtake"))
    if i - 1 == 0:
        st["chase"] = None
        st["phase"] = "take"
    else:  # the chain goes on against the next seat up; the attacker may use an event first
        st["phase"] = "attack"


def take_throttle(st: State, ev: list[Event], seat: int, cid: int) -> None:
    """`seat` takes card `cid` from the throttle, and its played card goes into the throttle."""
    throttle = st["throttles"][st["current"]]
    if cid not in throttle:
        raise GameError(msg("That card is not in this course's throttle."))
    throttle.remove(cid)
    log_public(st, ev, msg("{p} takes {card} from the throttle.", p=seat_ref(seat), card=card_label(cid)))
    gain(st, ev, seat, cid)
    played = st["played"]
    throttle.append(played)
    st["played"] = None
    log_public(st, ev, msg("{card} goes into the throttle.", card=card_label(played)))
    st["phase"] = "next_actor"


def refill(st: State, ev: list[Event], seat: int, cid: int) -> None:
    """`seat` refills with card `cid` from the throttle at the turn's end."""
    throttle = st["throttles"][st["current"]]
    if cid not in throttle:
        raise GameError(msg("That card is not in this course's throttle."))
    throttle.remove(cid)
    st["refill_queue"].pop(0)
    log_public(st, ev, msg("{p} refills with {card}.", p=seat_ref(seat), card=card_label(cid)))
    gain(st, ev, seat, cid)


def resolve_pick(st: State, ev: list[Event], choice: int) -> None:
    """The event's choice is made: its effect, then back to the phase it was used in."""
    pick = st["pick"]
    seat, op, cur = pick["seat"], pick["op"], st["current"]
    st["pick"] = None
    st["phase"] = pick["resume"]
    if op == "take_discard":
        take_from_discard(st, ev, seat, choice, msg("event"))
    elif op == "take_throttle":
        where = cur + 1 if CARDS[pick["event"]].effect.get("where") == "next" else cur
        st["throttles"][where].remove(choice)
        log_public(
            st,
            ev,
            msg(
                "{p} takes {card} from the throttle of course {k}.",
                p=seat_ref(seat),
                card=card_label(choice),
                k=where + 1,
            ),
        )
        gain(st, ev, seat, choice)
    elif op == "peek":
        st["known"][seat].append(choice)
        cid = st["circuit"][choice]
        log_public(st, ev, msg("{p} looks at course {k}.", p=seat_ref(seat), k=choice + 1))
        tell(
            ev, seat, msg("Course {k} is {card}: {effect}", k=choice + 1, card=card_label(cid), effect=effect_text(cid))
        )
    elif op == "pon_add":
        n = number_of(choice)
        target = min((s for s in st["pon"][seat] if set_number(s) == n), key=len)
        st["hands"][seat].remove(choice)
        target.append(choice)
        log_public(st, ev, msg("{p} adds {card} to a PON set.", p=seat_ref(seat), card=card_label(choice)))
    else:  # swap_course: the chosen hand card goes face down into the circuit
        idx = next_face_down(st)
        assert idx is not None  # (the event is offered only while a face-down course lies ahead)
        old = st["circuit"][idx]
        st["hands"][seat].remove(choice)
        st["circuit"][idx] = choice
        for known in st["known"]:
            if idx in known:
                known.remove(idx)
        st["known"][seat].append(idx)
        st["hands"][seat].append(old)
        log_public(st, ev, msg("{p} swaps a card from hand with face-down course {k}.", p=seat_ref(seat), k=idx + 1))
        tell(
            ev,
            seat,
            msg(
                "You take {old}; course {k} is now your {card}.",
                old=card_label(old),
                k=idx + 1,
                card=card_label(choice),
            ),
        )


def finish_turn(st: State, ev: list[Event]) -> None:
    """The turn ends: course and throttle to the discard, PON sets decay, next course or the end."""
    cur = st["current"]
    st["discard"].append(st["circuit"][cur])
    st["discard"].extend(st["throttles"][cur])
    st["throttles"][cur] = []
    for seat in st["order"]:
        if turn_flags(st, seat).get("hold"):
            continue
        decay_sets(st, ev, seat, msg("end of turn"))
    st["current"] = cur + 1
    st["turn_order"] = []
    st["actor"] = None
    if st["current"] >= len(st["circuit"]):
        st["current"] = len(st["circuit"]) - 1
        st["phase"] = "over"
        st["winner"] = st["order"][0]
        log_public(
            st,
            ev,
            msg(
                "Chequered flag! {p} wins. Final order: {order}.",
                p=seat_ref(st["winner"]),
                order=[seat_ref(s) for s in st["order"]],
            ),
        )
    else:
        st["phase"] = "start_turn"


STEPS: dict[str, Callable[[State, list[Event]], bool]] = {
    "play": _play,
    "start_turn": _moved_on(start_turn),
    "begin_main": _moved_on(begin_main),
    "pon": _pon,
    "after_play": _moved_on(after_play),
    "slip": _slip,
    "attack": _attack,
    "overtake": _moved_on(overtake),
    "block": _block,
    "take": _take,
    "salvage": _salvage,
    "pick": _pick,
    "next_actor": _next_actor,
    "end_turn": _end_turn,
    "refill": _refill,
    "finish_turn": _moved_on(finish_turn),
}
