"""A section-17 bot takes an absent player's seat and gives the car back (issue #15; the readings
are in bot/games/pole/standin.py): at every kind of decision the game can wait on, the bot takes
it; the car's state carries over both ways, the dashboard waits; the moves are the table's alone;
games replay exactly and seeded races with seats taken and given back at random finish."""

import json
import random

import pytest

from bot.games.base import GameError, replay
from bot.games.pole import ENGINE as E
from bot.games.pole.content import CIRCUIT_KEYS
from bot.i18n import render
from tests.pole.helpers import check, find, leaks, policy

TAKE, BACK = {"type": "bot_takeover"}, {"type": "bot_return"}
CAR_KEYS = ("pos", "laps", "tyre", "life", "bd", "pitted", "out", "finished")


def take(st, seat):
    """The table's takeover; checks the seat stops waiting and the texts render."""
    action = E.takeover_action(st, seat)
    assert action == TAKE and action not in E.legal_actions(st, seat)
    new, ev = E.apply(st, seat, action)
    assert seat not in E.to_act(new) and E.legal_actions(new, seat) == [] and E.menu(new, seat) == []
    assert any("a bot (card" in render(e.text, "en") for e in ev)
    assert all(render(e.text, "ja") for e in ev)
    check(new)
    leaks(new)
    return new


def waiting(phase, stage=None, seat=0):
    def until(st):
        if st["phase"] != phase or seat not in E.to_act(st):
            return False
        return stage is None or (st["turn"] is not None and stage(st["turn"]))

    return until


def test_takeover_at_the_move_menu_drives_by_the_card_and_gives_the_car_back():
    opts, n, seed, st, acts = find(
        waiting("race", lambda t: t["stage"] == "move" and t["ms"] is None and t["die"] != "purple")
    )
    sp, ep, bp = (st["cars"][0][k] for k in ("sp", "ep", "bp"))
    new = take(st, 0)
    car = new["cars"][0]
    assert car["bot"]["for"] and car["bot"]["side"] == "A" and (car["sp"], car["ep"], car["bp"]) == (0, 0, 0)
    assert car["bot"]["dash"]["sp"] == sp  # the dashboard waits for the player
    view = E.view(new, None)["cars"][0]
    assert view["bot"]["for"] and (view["sp"], view["ep"], view["bp"]) == (sp, ep, bp)
    # the bot has driven the turn: the game waits on someone else, or the seat's turn is over
    assert new["turn"] is None or new["turn"]["seat"] != 0 or new["turn"].get("bot")
    acts.append((0, TAKE))
    assert replay(E, opts, n, seed, acts) == new
    with pytest.raises(GameError):
        E.apply(new, 0, TAKE)  # a bot already drives it
    if new["turn"] is not None and new["turn"]["seat"] == 0:
        return  # the bot waits on a defender: the give-back would wait for the turn's end
    before = {k: json.dumps(new["cars"][0][k]) for k in CAR_KEYS}
    back, ev = E.apply(new, 0, E.return_action(new, 0))
    car = back["cars"][0]
    assert "bot" not in car and (car["sp"], car["ep"], car["bp"]) == (sp, ep, bp)
    assert {k: json.dumps(car[k]) for k in CAR_KEYS} == before  # the car carries over
    assert any("drives their own car again" in render(e.text, "en") for e in ev)
    acts.append((0, BACK))
    assert replay(E, opts, n, seed, acts) == back


def test_takeover_in_qualifying_and_at_the_tyre_choice():
    for phase in ("quali", "tyres"):
        opts, n, seed, st, acts = find(waiting(phase), n=3)
        new = take(st, 0)
        assert new["phase"] != phase or 0 not in E.to_act(new)
        if phase == "tyres" and new["phase"] == "race":  # the bot chose its tyres by 17.8
            assert new["cars"][0]["tyre"] in ("soft", "hard", "inter", "wet")
        assert replay(E, opts, n, seed, acts + [(0, TAKE)]) == new


def test_takeover_when_the_seat_was_to_defend_or_bid():
    for stage in ("defend", "attack"):

        def until(st, stage=stage):
            t = st["turn"]
            return (
                st["phase"] == "race"
                and t is not None
                and t["stage"] == stage
                and st["cars"][E.to_act(st)[0]].get("bot") is None
            )

        opts, n, seed, st, acts = find(until, n=3, asks=True)
        seat = E.to_act(st)[0]
        new = take(st, seat)
        assert replay(E, opts, n, seed, acts + [(seat, TAKE)]) == new


def test_takeover_at_the_pit_tyre_choice_fits_the_bots_set():
    opts, n, seed, st, acts = find(waiting("race", lambda t: t["stage"] == "pit_tyre"), seeds=range(200))
    new = take(st, 0)
    assert new["cars"][0]["tyre"] is not None and new["turn"] is None or new["turn"]["seat"] != 0


def test_the_moves_are_the_tables_alone_and_checked():
    st = E.new_game({"circuit": "italy", "bots": 1}, 2, 5)
    assert E.return_action(st, 0) is None  # no bot drives it
    for bad in ({"type": "bot_return"}, {"type": "bot_takeover", "x": 1}):
        with pytest.raises(GameError):
            E.apply(st, 0, bad)
    with pytest.raises(GameError):
        E.apply(st, 2, TAKE)  # a bot's own car
    assert E.takeover_action(st, 2) is None and E.takeover_action(st, 7) is None
    assert all(a["type"] not in ("bot_takeover", "bot_return") for a in E.legal_actions(st, 0))


def test_a_give_back_during_the_bots_own_turn_waits_for_its_end():
    def until(st):
        t = st["turn"]
        return st["phase"] == "race" and t is not None and t["seat"] == 1 and t["stage"] == "defend"

    opts, n, seed, st, acts = find(until, n=2, asks=True)
    # seat 1 attacks seat 0, who is asked: take seat 1 over first... it is not waiting, so the
    # table would not; the engine allows it (the car has a turn under way): it becomes a bot's turn
    new, _ = E.apply(st, 1, TAKE)
    assert new["turn"]["bot"] and 0 in E.to_act(new)
    later, ev = E.apply(new, 1, BACK)
    assert later["cars"][1].get("bot", {}).get("back") and E.return_action(later, 1) is None
    rnd = random.Random(1)
    while later["turn"] is not None and later["turn"]["seat"] == 1:
        s = E.to_act(later)[0]
        later, _ = E.apply(later, s, policy(later, s, rnd))
    assert "bot" not in later["cars"][1]


def _random_race(seed, opts, n):
    rnd = random.Random(seed)
    st = E.new_game(opts, n, seed)
    acts, took, gave = [], 0, 0
    for _ in range(8000):
        if E.is_over(st):
            break
        if rnd.random() < 0.05:
            s = rnd.choice(E.to_act(st)) if E.to_act(st) and rnd.random() < 0.7 else rnd.randrange(n)
            a = E.takeover_action(st, s) or E.return_action(st, s)
            if a:
                took += a == TAKE
                gave += a == BACK
                st, ev = E.apply(st, s, a)
                for e in ev:
                    render(e.text, "ja")
                acts.append((s, a))
                check(st)
                continue
        assert E.to_act(st), (st["phase"], st["turn"])  # never waits on nobody
        s = rnd.choice(E.to_act(st))
        a = policy(st, s, rnd)
        st, _ = E.apply(st, s, a)
        acts.append((s, a))
        check(st)
    assert E.is_over(st)
    assert replay(E, opts, n, seed, acts) == st
    return took, gave


@pytest.mark.parametrize("seed", range(8))
def test_seeded_races_with_seats_taken_over_and_given_back_finish(seed):
    opts = {
        "circuit": CIRCUIT_KEYS[seed % len(CIRCUIT_KEYS)],
        "bots": seed % 3,
        "drs": True,
        "collisions": seed % 2 == 0,
        "safety_car": seed % 4 == 0,
        "stress": seed % 3 == 0,
        "drivers": seed % 2 == 1,
        "bot_side": "AB"[seed % 2],
    }
    took, gave = _random_race(seed, opts, 2 + seed % 3)
    assert took


def test_a_championship_gives_the_cars_back_between_races():
    opts = {"circuit": "great_britain", "championship": 4, "drivers": True}
    st = E.new_game(opts, 2, 3)
    st, _ = E.apply(st, 1, E.takeover_action(st, 1))
    rnd = random.Random(3)
    while st["phase"] != "standings":
        s = rnd.choice(E.to_act(st))
        st, _ = E.apply(st, s, policy(st, s, rnd))
    assert "bot" not in st["cars"][1] and st["cars"][1].get("driver")
    assert E.takeover_action(st, 1) is None  # between races the simple automatic player says "next"
