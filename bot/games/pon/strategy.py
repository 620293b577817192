"""The simple strategies of PON's players: "random" (any legal move), "greedy" (plays the course
number to attack or take the block right, slipstreams when it can, uses events when they plainly
help; standing preferences left on "auto") and "ponhappy" (greedy, but declares PON whenever it
holds a pair). The automatic player of an absent seat is "greedy"; the balance simulation
(simulate.py) mixes all three."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from bot.games.pon.auto import card_value, choose_block, choose_decay, choose_discard, choose_pon_pair, choose_take
from bot.games.pon.common import number_of, rank_of
from bot.games.pon.content import CARDS
from bot.games.pon.rules import legal_actions

STRATEGIES = ("random", "greedy", "ponhappy")


def _course_no(st: dict[str, Any]) -> int:
    return number_of(st["circuit"][st["current"]])


def _play_score(st: dict[str, Any], seat: int, cid: int, ponhappy: bool) -> float:
    n = number_of(cid)
    rank = rank_of(st, seat)
    score = -0.3 * card_value(st, seat, cid)
    if n == _course_no(st):
        score += 3.0
    if rank > 0 and any(number_of(x) == n for x in st["throttles"][st["current"]]):
        score += 1.5
    if ponhappy:
        same = sum(1 for x in st["hands"][seat] if x != cid and number_of(x) == n)
        if same >= 2:
            score += 4.0  # play it and PON it ourselves
    return score


def _want_event(st: dict[str, Any], seat: int, cid: int) -> bool:
    op = CARDS[cid].effect["op"]
    hand = st["hands"][seat]
    rank = rank_of(st, seat)
    cn = _course_no(st)
    has_course = any(number_of(c) == cn for c in hand if c != cid)
    others = [c for c in hand if c != cid]
    if not others and st["phase"] == "play":
        return False
    if op == "line":
        reach = CARDS[cid].effect["reach"]
        return rank > 0 and not has_course and any(abs(number_of(c) - cn) <= reach for c in others)
    if op == "attack_boost":
        return rank > 0 and has_course
    if op == "shield":
        return rank == 0
    if op in ("take_discard", "take_throttle"):
        return len(hand) <= 3
    if op == "leader_discard":
        return rank > 0
    if op == "slip_any":
        return rank > 0 and len(hand) <= 3
    if op == "pon_hold":
        return bool(st["pon"][seat])
    if op == "pon_add":
        return True
    spare = len(hand) >= 4
    if op in ("peek", "reveal"):
        return spare and st["phase"] == "take"
    if op == "swap_course":
        # Set the next hidden course to a number we hold twice (an overtake line for later).
        return spare and rank > 0 and st["phase"] == "take"
    return False


def choose(st: dict[str, Any], seat: int, strategy: str, rnd: random.Random) -> dict[str, Any]:
    """A move for `seat` by `strategy` (random, greedy or ponhappy)."""
    acts = legal_actions(st, seat)
    if strategy == "random":
        return rnd.choice(acts)
    ponhappy = strategy == "ponhappy"
    kind = acts[0]["type"]
    phase = st["phase"]
    if kind == "discard":
        return {"type": "discard", "card": choose_discard(st, seat)}
    if kind == "decay":
        pset = next(st["pon"][seat][i] for i in st["decay"][str(seat)]["sets"])
        return {"type": "decay", "card": pset[choose_decay(st, seat, pset)]}
    if kind == "peek":
        # Peek at one of the last three courses if possible (they stay hidden longest).
        back = [a for a in acts if a["course"] >= len(st["circuit"]) - 3]
        return rnd.choice(back or acts)
    if phase == "pon":
        pons = [a for a in acts if a["type"] == "pon"]
        if pons and (ponhappy or choose_pon_pair(st, seat, st["window"]["number"])):
            return pons[0]
        return {"type": "pon_pass"}
    if phase in ("play", "slip", "attack", "take"):
        events = [a for a in acts if a["type"] == "event" and _want_event(st, seat, a["card"])]
        if events:
            return events[0]
        main = [a for a in acts if a["type"] != "event"]
        if phase == "play":
            return max(main, key=lambda a: (_play_score(st, seat, a["card"], ponhappy), -a["card"]))
        if phase == "attack":
            return {"type": "attack"}
        return {"type": phase, "card": choose_take(st, seat, [a["card"] for a in main])}
    if kind in ("slip", "salvage", "refill") or (kind == "pick" and "card" in acts[0]):
        cards = [a["card"] for a in acts]
        if kind == "pick" and st["pick"]["op"] in ("pon_add",):
            return acts[0]
        if kind == "pick" and st["pick"]["op"] == "swap_course":
            # Put down a card whose number we still hold, so the course becomes "our" line.
            counts = Counter(number_of(c) for c in st["hands"][seat])
            return {"type": "pick", "card": max(cards, key=lambda c: (counts[number_of(c)], -c))}
        return {"type": kind, "card": choose_take(st, seat, cards)}
    if phase == "block":
        blocks = [a["cards"] for a in acts if a["type"] == "block"]
        choice = choose_block(st, seat, blocks)
        return {"type": "yield"} if choice is None else {"type": "block", "cards": choice}
    return rnd.choice(acts)
