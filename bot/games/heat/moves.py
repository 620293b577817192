"""Heat's moves in place (the engine's `@move` handlers call these): a submission, the answer to a
paused decision, preferences read from a move, and the events that tell where the race waits."""

from __future__ import annotations

from typing import Any

import bot.games.heat.resolve as resolve
import bot.games.heat.rules as rules
from bot.games.base import Event, GameError, chosen
from bot.games.heat.labels import PREF_NAMES, is_int, parse_ids
from bot.games.heat.rules import KIND, SEAT_NAMES, seat_name
from bot.games.rng import Rng
from bot.i18n import Msg, msg


def pref_changes(st: dict, action: dict) -> dict[str, str]:
    """The preferences a "prefs" move sets (its own keys, or "key=value"s from the preferences
    select), each checked against what this race offers. Changes nothing."""
    items: list[Any] = list(action.items())
    if isinstance(action.get("values"), list):  # the preferences select: "key=value"
        values = chosen(action)
        items += [tuple(v.split("=", 1)) for v in values if "=" in v]
        if not any("=" in v for v in values):
            raise GameError(msg("No preference given."))
    changes = {}
    allowed = rules.prefs_of(st)
    for key, value in items:
        if key in ("type", "values"):
            continue
        if key not in allowed:
            raise GameError(msg("Unknown preference {name}.", name=str(key)[:30]))
        if value not in allowed[key]:
            raise GameError(msg("{name} can be: {values}.", name=msg(PREF_NAMES[key]), values=list(allowed[key])))
        changes[key] = value
    if not changes:
        raise GameError(msg("No preference given."))
    return changes


def waiting(st: dict) -> int:
    """How many racing cars have not submitted their cards for this round (Legends submit nothing)."""
    n = 0
    for c in st["cars"][: st["seats"]]:
        if c["sub"] is None and not c["fin"]:
            n += 1
    return n


def submit(st: dict, seat: int, action: dict, events: list[Event]) -> None:
    """A car's cards for the round, in place: kept (and replaceable) until the last car's are in;
    the last submission resolves the round at once."""
    car = st["cars"][seat]
    if car["fin"]:
        raise GameError(msg("Your car has finished the race."))
    ids = parse_ids(action)
    err = rules.check_submission(st, car, ids)
    if err:
        raise GameError(err)
    if car["sub"] == ids:  # the same cards again (a second click or command): nothing to change
        raise GameError(msg("Those cards are already in."))
    racing = waiting = 0  # waiting: the other racing cars without a submission
    for c in st["cars"][: st["seats"]]:  # (Legends submit nothing)
        if not c["fin"]:
            racing += 1
            if c["sub"] is None and c is not car:
                waiting += 1
    # The last player's cards resolve the round at once: no "you may change them" for them.
    events.append(Event(_submitted(st["round"], len(ids), changed=car["sub"] is not None, waiting=waiting), seat))
    if car["sub"] is None:  # (Event's fields by position: to, log)
        events.append(
            Event(msg("{who} is ready ({k}/{n}).", who=SEAT_NAMES[seat], k=racing - waiting, n=racing), None, False)
        )
    car["sub"] = ids  # a fresh list from parse_ids (replaced, never changed: see HeatEngine.copy_state)
    if waiting:
        return
    rng = Rng(st["rng"])
    evs = resolve.start_resolution(st, rng)
    st["rng"] = rng.state
    events += with_prompt(st, evs)


def _submitted(n: int, k: int, changed: bool, waiting: int) -> Msg:
    """What the submitting seat is told."""
    if changed:
        return msg(
            "Round {n}: your cards are changed, {k} now (gear {k}). You may change them until everyone is in.", n=n, k=k
        )
    if waiting and k == 1:
        return msg("Round {n}: your card is in (gear 1). You may change it until everyone is in.", n=n, k=1)
    if waiting:
        return msg("Round {n}: your {k} cards are in (gear {k}). You may change them until everyone is in.", n=n, k=k)
    if k == 1:
        return msg("Round {n}: your card is in (gear 1), the last: the round is played.", n=n, k=1)
    return msg("Round {n}: your {k} cards are in (gear {k}), the last: the round is played.", n=n, k=k)


def decision_value(st: dict, seat: int, action: dict) -> Any:
    """The answer a decision move gives to the decision the seat is asked (checked; changes nothing)."""
    kind = action["type"]
    pending = st["pending"]  # (the seat's: the engine takes a decision only from the seat it waits for)
    if pending["type"] != kind:
        raise GameError(msg("The decision now is: {kind}.", kind=msg(PREF_NAMES[pending["type"]])))
    if kind == "slipstream":
        return _slipstream(pending, action)
    if kind in ("boost", "adrenaline"):
        value = action.get("use")
        if not isinstance(value, bool):
            raise GameError(msg("Say yes or no."))
        return value
    if kind == "order":
        value = action.get("first")
        if value not in ("boost", "adrenaline"):
            raise GameError(msg("Say which goes first: boost or adrenaline."))
        return value
    if kind == "choice":
        value = action.get("speed")
        values = chosen(action)
        if value is None and len(values) == 1 and values[0].isdigit() and len(values[0]) < 4:  # from the select
            value = int(values[0])
        if not is_int(value) or value not in [o[0] for o in pending["options"]]:
            raise GameError(msg("Pick one of the speeds on offer."))
        return value
    return _cards(st, st["cars"][seat], pending, kind, action)


def _slipstream(pending: dict, action: dict) -> Any:
    value: Any = action.get("take")
    if not isinstance(value, bool):
        raise GameError(msg("Say whether you take the slipstream."))
    lengths = pending.get("lengths")
    if value and lengths:
        k = action.get("spaces", lengths[-1])
        if not is_int(k) or k not in lengths:
            raise GameError(msg("Slipstream {n} spaces is not open to you.", n=str(k)[:5]))
        return k
    return value


def _cards(st: dict, car: dict, pending: dict, kind: str, action: dict) -> list[int]:
    """The cards of a cooldown or a discard, checked."""
    cards = st["cards"]
    ids = parse_ids(action)
    if len(set(ids)) != len(ids) or any(c not in car["hand"] for c in ids):
        raise GameError(msg("That card is not in your hand."))
    if kind == "cooldown":
        if any(KIND[cards[c]] != "heat" for c in ids):
            raise GameError(msg("Only Heat cards can be cooled down."))
        if len(ids) > pending["max"]:
            raise GameError(msg("You can cool down at most {n} Heat.", n=pending["max"]))
    elif any(not rules.discardable(st, cards[c]) for c in ids):
        raise GameError(msg("Heat and Stress cards can't be discarded."))
    return ids


def resume(st: dict) -> list[Event]:
    """The paused resolution goes on, in place."""
    rng = Rng(st["rng"])
    evs = resolve.run(st, rng, [])
    st["rng"] = rng.state
    return with_prompt(st, evs)


def with_prompt(st: dict, evs: list[tuple[int | None, Msg]]) -> list[Event]:
    """The resolution's events, and when it paused for a decision, who it waits for and their question."""
    out = [Event(text, to) for to, text in evs]
    if st["phase"] == "decide" and st["pending"]:
        p = st["pending"]
        out.append(Event(msg("Waiting for {who} to decide.", who=seat_name(p["seat"]))))
        out.append(Event(decision_prompt(p), to=p["seat"]))
    return out


def decision_prompt(p: dict) -> Msg:
    """The question a paused decision asks its seat."""
    kind = p["type"]
    if kind == "slipstream":
        if p.get("lengths"):
            return msg(
                "Slipstream: move {a} or {b} more spaces (road conditions)? (It does not add to "
                "your speed for corners.)",
                a=p["lengths"][0],
                b=p["lengths"][-1],
            )
        return msg("Slipstream: move 2 more spaces? (It does not add to your speed for corners.)")
    if kind == "boost":
        return msg("Boost: pay 1 Heat to reveal cards until a Speed card and add it to your speed?")
    if kind == "adrenaline":
        return msg("Adrenaline: move 1 more space (+1 speed)?")
    if kind == "choice":
        lo, hi = p["options"][0][0], p["options"][-1][0]
        return msg(
            "Choice of speed: your other cards make {base}; pick your total speed, {lo} to {hi}.",
            base=p["base"],
            lo=lo,
            hi=hi,
        )
    if kind == "order":
        return msg(
            "Boost and Adrenaline each move on their own and the order changes where you "
            "can land: which goes first? (You still decide each one when it comes.)"
        )
    if kind == "cooldown":
        return msg("Cooldown: return up to {n} Heat cards from your hand to your Engine.", n=p["max"])
    return msg("Discard any cards you don't want (not Heat or Stress), or keep them all.")
