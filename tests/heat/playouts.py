"""Seeded random Heat races and the checks made along them (shared by the playout tests): cards
conserved, spots valid, JSON round trip, apply never changing its input, no private information
in anyone else's view, menu or public events, the log replaying to the final state."""

from __future__ import annotations

import json
import random


from bot.games import base
from bot.games.heat import ENGINE as E
from bot.games.heat import rules
from bot.i18n import render
from tests.digests import apply_untouched


def initial_cards(st):
    return {s: set(c["hand"] + c["deck"] + c["engine"] + c["discard"]) for s, c in enumerate(st["cars"])}


def check_invariants(st, initial):
    seen = []
    tr = rules.track_of(st)
    spots = []
    for seat, car in enumerate(st["cars"]):
        ids = car["hand"] + car["deck"] + car["discard"] + car["engine"] + car["played"]
        owned = set(ids)
        assert len(owned) == len(ids), "a card is in two places"
        assert initial[seat] <= owned, "a card went missing"
        extra = owned - initial[seat]
        assert len(extra) == car["stress"] and all(st["cards"][c] == "stress" for c in extra)
        assert all(st["cards"][c] == "heat" for c in car["engine"])
        if car["sub"] is not None:
            assert set(car["sub"]) <= set(car["hand"]) and st["phase"] == "submit"
        if st["phase"] != "decide":
            assert car["played"] == []
        if st["phase"] == "submit" and not car["fin"]:
            assert len(car["hand"]) >= 7
        assert 1 <= car["gear"] <= 4 and car["lane"] in (1, 2)
        if car["place"] is None:
            spots.append((rules.space_of(tr, car["pos"]), car["lane"]))
        seen += ids
    assert sorted(seen) == list(range(len(st["cards"])))
    assert len(spots) == len(set(spots)), "two cars on one spot"
    assert json.loads(json.dumps(st)) == st


def perturb(st, seat, rnd):
    """The same public information with different private information for `seat`: deck order,
    which cards are in hand vs deck, the discard pile under its top card, the submission."""
    p = base.clone(st)
    car = p["cars"][seat]
    rnd.shuffle(car["deck"])
    if car["hand"] and car["deck"]:
        for _ in range(3):
            h, d = rnd.choice(car["hand"]), rnd.choice(car["deck"])
            p["cards"][h], p["cards"][d] = p["cards"][d], p["cards"][h]
    if len(car["discard"]) > 2:
        under = car["discard"][:-1]
        rnd.shuffle(under)
        car["discard"][:-1] = under
    if car["sub"] is not None:
        car["sub"] = rnd.sample(car["hand"], rnd.randint(1, min(4, len(car["hand"]))))
    return p


def check_privacy(st, rnd):
    """Each viewer (a seat, or a spectator) sees the same view, menu and legal actions when every other
    seat's private information changes at once: a leak from any of them shows. (One seat at a time for
    each viewer was 90% of a random race's CPU, for the same catch: issue #29.)"""
    seats = st["seats"]
    for viewer in [None, *range(seats)]:
        p = st
        for seat in range(seats):
            if seat != viewer:
                p = perturb(p, seat, rnd)
        shown = E.view(st, viewer)
        assert E.view(p, viewer) == shown, f"another seat's hidden cards leak to {viewer}"
        if viewer is None:
            assert "me" not in shown
        else:
            assert shown["me"]["seat"] == viewer and len(shown["me"]["hand"]) == len(st["cars"][viewer]["hand"])
            assert E.menu(p, viewer) == E.menu(st, viewer), f"another seat's hidden cards leak to {viewer}'s menu"
            assert E.legal_actions(p, viewer) == E.legal_actions(st, viewer)


def check_public_events(st, actor, action, events, rnd):
    """A step that does not resolve anything must say the same in public whatever the other
    seats hold."""
    others = [s for s in range(st["seats"]) if s != actor]
    p = perturb(st, rnd.choice(others), rnd)
    _, ev2 = E.apply(p, actor, action)
    public = [e.text for e in events if e.to is None]
    assert public == [e.text for e in ev2 if e.to is None]
    assert all(e.to in (None, actor) for e in events)
    if action["type"] == "submit":  # nor on which cards the actor chose, only how many
        same_gear = [
            a for a in E.legal_actions(st, actor) if a["type"] == "submit" and len(a["cards"]) == len(action["cards"])
        ]
        _, ev3 = E.apply(st, actor, rnd.choice(same_gear))
        assert public == [e.text for e in ev3 if e.to is None]


def choose(st, seat, rnd):
    acts = E.legal_actions(st, seat)
    assert acts, "a seat to act has no legal action"
    game = [a for a in acts if a["type"] != "prefs"]
    if not game or rnd.random() < 0.06:
        return rnd.choice([a for a in acts if a["type"] == "prefs"])
    return rnd.choice(game)


def race(track, seats, options, seed):
    rnd = random.Random(seed)
    st = E.new_game(options, seats, seed)
    initial = initial_cards(st)
    log = []
    steps = 0
    pauses = 0
    while not E.is_over(st):
        acting = E.to_act(st)
        assert acting
        if rnd.random() < 0.05:  # a seat that is not asked changes a preference meanwhile
            idle = [s for s in range(seats) if not st["cars"][s]["fin"]]
            seat = rnd.choice(idle)
            action = rnd.choice([a for a in E.legal_actions(st, seat) if a["type"] == "prefs"])
        else:
            seat = rnd.choice(acting)
            action = choose(st, seat, rnd)
        if steps % 7 == 0:
            labels = [render(E.describe_action(st, seat, a), "en") for a in E.legal_actions(st, seat)]
            assert len(labels) == len(set(labels)) and all(0 < len(x) <= 100 for x in labels)
        nxt, events = apply_untouched(E, st, seat, action)
        if st["phase"] == "submit" and nxt["round"] == st["round"] and nxt["phase"] == "submit":
            if steps % 3 == 0:
                check_public_events(st, seat, action, events, rnd)
        log.append((seat, action))
        st = nxt
        pauses += st["phase"] == "decide"
        check_invariants(st, initial)
        if steps % 4 == 0:
            check_privacy(st, rnd)
        steps += 1
        assert st["round"] < 300, "the race does not end"
    assert sorted(st["places"]) == list(range(seats))
    assert [st["cars"][s]["place"] for s in st["places"]] == list(range(1, seats + 1))
    v = E.view(st, None)
    assert v["phase"] == "over" and v["standings"] == st["places"] and E.to_act(st) == []
    assert all(E.legal_actions(st, s) == [] for s in range(seats))
    assert base.replay(E, options, seats, seed, log) == st
    assert json.loads(json.dumps(log)) == [list(x) for x in log]
    return st


def legend_race(options, seats, seed):
    """A seeded random race with Legends (or any options) to the end: apply never changes its input,
    events name no seat beyond the players, cars keep apart, privacy holds, the log replays."""
    rnd = random.Random(seed)
    st = E.new_game(options, seats, seed)
    log = []
    while not E.is_over(st):
        seat = rnd.choice(E.to_act(st))
        assert seat < seats
        acts = E.legal_actions(st, seat)
        game = [a for a in acts if a["type"] != "prefs"]
        action = rnd.choice(game if game and rnd.random() > 0.05 else acts)
        nxt, events = apply_untouched(E, st, seat, action)
        for e in events:
            assert "<seat:" not in render(e.text, "en").replace(f"<seat:{seat}>", "") or all(
                f"<seat:{k}>" not in render(e.text, "en") for k in range(seats, 6)
            )
        st = nxt
        log.append((seat, action))
        spots = [(rules.space_of(rules.track_of(st), c["pos"]), c["lane"]) for c in st["cars"] if c["place"] is None]
        assert len(spots) == len(set(spots))
        assert st["round"] < 300
        if len(log) % 9 == 0:
            check_privacy(st, rnd)
    assert all(c["fin"] for c in st["cars"][:seats])
    assert base.replay(E, options, seats, seed, log) == st
    return st
