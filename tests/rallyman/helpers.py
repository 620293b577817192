"""Shared helpers: a game with cars placed by hand, and forced dice / cards / tokens."""

from __future__ import annotations

from bot.games.rallyman import board as B
from bot.games.rallyman import rules as R
from bot.games.rallyman import turns as T
from bot.games.rallyman.engine import ENGINE as E


def game(stage="Rally1 SS1", seats=2, cars=None, actor=0, seed=7):
    """A game in the plan phase with cars placed: cars = {seat: (space, gear)}; actor plays now,
    the others follow in seat order. Every seat has entered and is asked before every die (the
    standing preference "dice: ask"), so a test rolls each die itself."""
    st = E.new_game({"stage": stage}, seats, seed)
    cars = cars or {}
    for seat, car in enumerate(st["cars"]):
        car.update(
            entered=True,
            track=seat in cars,
            sp=cars.get(seat, (None, 0))[0],
            gear=cars.get(seat, (None, 0))[1],
            prefs={"dice": "ask"},
        )
    st["entry"] = list(range(seats))
    st["round"] = seats
    st["order"] = [actor] + [s for s in range(seats) if s != actor and s in cars]
    st["turn"] = 0
    st["phase"] = "plan"
    return st


def decisions(st, seat):
    """The seat's legal moves without the standing preferences (always on offer)."""
    return [a for a in E.legal_actions(st, seat) if a["type"] != "prefs"]


def stage(name="Rally1 SS1") -> B.Stage:
    return B.stage(name)


def steps_from(st, seat=0, pool=None, ctx=None):
    s = B.stage(st["stage"])
    return [step for step, _ in R.next_steps(st, s, seat, ctx or R.start_ctx(st, seat), R.occupied(st, seat), pool)]


def force(monkeypatch, faces=None, backs=None, tokens=None):
    """Force the dice (a list of per-step face lists, True = "!"), time-card backs and tokens."""
    if faces is not None:
        it = iter(faces)
        monkeypatch.setattr(T, "roll_step", lambda rng, step, orange: list(next(it)))
    if backs is not None:
        itb = iter(backs)
        monkeypatch.setattr(T, "card", lambda st, gear: next(itb))
    if tokens is not None:
        itt = iter(tokens)
        monkeypatch.setattr(T, "draw", lambda st: next(itt))


def plan(st, seat, steps):
    return E.apply(st, seat, {"type": "plan", "values": [R.encode(steps)]})
