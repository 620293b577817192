"""What the Pole tests share: a race at its first turn (`race`), the random players and the checks
of the seeded playouts (`policy`, `check`, `leaks`), small circuits and scripted dice for the
seed's worked examples."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from bot.games.pole import ENGINE as E
from bot.games.pole import championship as CHAMP
from bot.games.pole import driving as DRIVE
from bot.games.pole import race as RACE
from bot.games.pole.content import CIRCUIT_KEYS
from bot.games.rng import Rng
from bot.i18n import render

from bot.games.pole import content
from bot.games.pole import rules as R
from tests.digests import apply_untouched


def circuit(corner_rows=11, technical=False, line=None, arrow_lane=0, angle=90, lanes=(0, 1, 2)):
    """A test lap: straight 20 rows, a right-hand corner, straight 20, a left corner, straight 15."""
    n = corner_rows
    line = line or [[1, 1], [4, 2], [7, 2], [10, 0]]
    segs = [
        {"kind": "straight", "rows": 20, "lanes": list(lanes)},
        {
            "kind": "corner",
            "rows": n,
            "lanes": list(lanes),
            "angles": [angle / n] * n,
            "technical": technical,
            "arrow_lane": arrow_lane,
            "line": line,
        },
        {"kind": "straight", "rows": 20, "lanes": list(lanes)},
        {
            "kind": "corner",
            "rows": 5,
            "lanes": list(lanes),
            "angles": [-270 / 5] * 5,
            "technical": False,
            "arrow_lane": 2,
            "line": [[1, 1], [4, 2]],
        },
        {"kind": "straight", "rows": 15, "lanes": list(lanes)},
    ]
    raw = {
        "name": "Test",
        "laps": 3,
        "direction": "clockwise",
        "segments": segs,
        "brown_rows": [],
        "grid": [[5, 0], [4, 2], [3, 0], [2, 2], [1, 0], [0, 2]],
        "pit": {
            "side": 2,
            "entry_row": 60 + n - 5,
            "entry_cells": 3,
            "entry_rain_cells": 1,
            "exit_cells": 2,
            "exit_rain_cells": 1,
            "merge_row": 6,
        },
        "drs_row": 1,
        "sc_row": 50,
        "low_grip": [[25, 0], [25, 1], [25, 2]],
        "weather_a": ["DDDDDD"] * 6,
        "weather_b": 6,
    }
    return content.circuit_from("test", raw)


def ctx(c, others=(), rain=False, start_round=False, ep=7, bp=7, sp=9, ahead=()):
    return R.MoveCtx(
        c, rain, start_round, c.laps - 1, tuple(others), frozenset(ahead), ep, bp, sp, c.corners[0].first, c.laps
    )


def ms(row, lane, laps=0, line=()):
    return R.MState(("t", row, lane), laps, 0, 0, 0, 0, 0, tuple(line), -1)


def ends(options):
    """{(row, lane): cheapest (ep, bp, sp)} of the options that end the move on the track."""
    out = {}
    for o in options:
        if o.kind == "end" and o.state.pos[0] == "t":
            key = (o.state.pos[1], o.state.pos[2])
            bc = 3
            cost = (R.extra_cost(o.state.b, bc), R.extra_cost(o.state.k, bc), o.state.s)
            if key not in out or sum(cost) < sum(out[key]):
                out[key] = cost
    return out


def patch_dice(monkeypatch, die) -> None:
    """Every die the engine rolls comes from `die(rng, name)`: each module of the engine that rolls
    (they all roll with bot.games.pole.common.roll) gets it."""
    import sys

    from bot.games.pole import common

    for name, module in list(sys.modules.items()):
        if name.startswith("bot.games.pole.") and module is not common and hasattr(module, "roll"):
            monkeypatch.setattr(module, "roll", die)


class Dice:
    """Scripted dice for common.roll: a list of faces, taken in order (after them: random)."""

    def __init__(self, monkeypatch, faces):
        from bot.games.pole import common

        self.faces = list(faces)
        orig = common.roll

        def die(rng, name):
            if self.faces:
                return self.faces.pop(0)
            return orig(rng, name)

        patch_dice(monkeypatch, die)


def said(ev):
    """Every message the events hold, a turn's one line opened up into its parts (the roll, the
    fights, the pit stop... each as it was logged), as events with the same audience."""
    from bot.games.base import Event
    from bot.i18n import Msg

    out = []

    def walk(m, to):
        if isinstance(m, Msg):
            out.append(Event(m, to))
            for v in m.params.values():
                walk(v, to)
        elif isinstance(m, (list, tuple)):
            for v in m:
                walk(v, to)

    for e in ev:
        walk(e.text, e.to)
    return out


_STARTS: dict[tuple, str] = {}


def race(n=3, circuit="great_britain", seed=1, tyre="hard", **opts):
    """A race at its first turn: every car kept its qualifying roll and fitted `tyre`. The start
    is played once per set of arguments and handed out as a fresh copy each time."""
    key = (n, circuit, seed, tyre, tuple(sorted(opts.items())))
    if key not in _STARTS:
        st = E.new_game({"circuit": circuit, **opts}, n, seed)
        while st["phase"] == "quali":
            for s in E.to_act(st):
                st, _ = E.apply(st, s, {"type": "quali", "reroll": False})
        for s in E.to_act(st):
            st, _ = E.apply(st, s, {"type": "tyre", "tyre": tyre})
        _STARTS[key] = json.dumps(st)
    return json.loads(_STARTS[key])


def policy(st, seat, rnd):
    acts = [a for a in E.legal_actions(st, seat) if a["type"] != "prefs"]
    if st["phase"] == "race" and st["turn"] and st["turn"]["stage"] == "move":
        car = st["cars"][seat]
        opts = st["turn"]["opts"] or []
        pit = [i for i, o in enumerate(opts) if o["kind"] == "pit"]
        if pit and (not car["pitted"] or car["life"] <= 0):
            return {"type": "move", "i": pit[0]}
        moves = [a for a in acts if a["type"] == "move"]
        if moves and rnd.random() < 0.85:
            return moves[0] if rnd.random() < 0.8 else rnd.choice(moves)
        if rnd.random() < 0.5:
            red = [a for a in acts if a["type"] in ("reduce", "off", "stay")]
            if red:
                return red[0]
    if rnd.random() < 0.1 and any(a["type"] == "prefs" for a in E.legal_actions(st, seat)):
        return {
            "type": "prefs",
            "attack": rnd.randint(0, 4),
            "defend": rnd.randint(0, 4),
            "yield": rnd.random() < 0.1,
            "ask": rnd.random() < 0.2,
        }
    return rnd.choice(acts)


def check(st):
    n = st["seats"]
    assert sorted(st["order"]) == list(range(n))
    cells = {}
    for s, car in enumerate(st["cars"]):
        assert car["ep"] >= 0 and car["bp"] >= 0 and 0 <= car["sp"] <= car["sp0"], (s, car)
        if st["phase"] == "race" and car["out"] is None and car["finished"] is None and car["pos"][0] in ("t", "pin"):
            key = (car["laps"] if car["pos"][0] == "t" else -1, tuple(car["pos"]))
            if car["off"] == 0:
                assert key not in cells, (s, cells[key], key)
                cells[key] = s
    assert st["finish"] == sorted(st["finish"], key=lambda s: st["cars"][s]["finished"])
    json.dumps(st)


def leaks(st):
    spec = E.view(st, None)
    assert "me" not in spec and "prefs" not in json.dumps(spec)  # standing maxima stay secret
    for s in range(st["seats"]):
        v = E.view(st, s)
        assert v["me"]["prefs"] == st["prefs"][s]
        assert {k: x for k, x in v.items() if k not in ("my_tyre", "viewer", "me", "quali")} == {
            k: x for k, x in spec.items() if k not in ("viewer", "quali")
        }
    if st["phase"] == "tyres":
        assert all(c["tyre"] is None for c in spec["cars"])
        for s in range(st["seats"]):
            v = E.view(st, s)
            assert v.get("my_tyre") == st["tyre_pick"].get(str(s))
            assert {k: x for k, x in v.items() if k not in ("my_tyre", "viewer", "me")} == {
                k: x for k, x in spec.items() if k != "viewer"
            }
    if st["phase"] == "quali":
        assert "mine" not in spec["quali"]
        for s in range(st["seats"]):
            v = E.view(st, s)
            assert {k: x for k, x in v["quali"].items() if k != "mine"} == spec["quali"]


def race_with_collisions(n=3, collisions=True, seed=1, **opts):
    """`race` with the collisions option (10) on unless told otherwise."""
    return race(n, seed=seed, collisions=collisions, **opts)


def turn(st, seat, round_=10, weather="dry"):
    """A copy of the race at `seat`'s turn now, in round `round_` and the weather given (its die is
    rolled by the scripted dice, if any)."""
    st = json.loads(json.dumps(st))
    st["round"], st["queue"], st["turn"] = round_, [], None
    c = content.circuits()[st["circuit"]]
    st["weather"]["a"] = next(i for i, w in enumerate(c.weather_a) if w == weather)
    rng = Rng(st["rng"])
    RACE.begin_turn(st, rng, [], seat)
    st["rng"] = rng.state
    return st


def fight_setup(st, extra=None):
    """Attacker a on row 28 left lane, defender d on row 30 centre (a straight), others far ahead."""
    a, d = st["order"][0], st["order"][1]
    others = [s for s in range(st["seats"]) if s not in (a, d)]
    for i, s in enumerate(others):
        st["cars"][s]["pos"] = ["t", 70 + i, 1]
    st["cars"][d]["pos"] = ["t", 30, 1]
    st["cars"][a]["pos"] = ["t", 28, 0]
    st["order"] = [d, a] + others
    st["prefs"][a] = {"attack": 3, "defend": 3, "yield": False, "ask": False}
    st["prefs"][d] = {"attack": 3, "defend": 3, "yield": False, "ask": False}
    return a, d, others


def attack(monkeypatch, st, a, d, dice):
    """a (as placed by fight_setup) rolls 9 and attacks d from row 30, the fight rolling `dice`."""
    Dice(monkeypatch, [9])
    st = turn(st, a)
    f = next(
        i
        for i, o in enumerate(st["turn"]["opts"])
        if o["kind"] == "fight" and o["def"] == [d] and o["pos"] == ["t", 30, 0]
    )
    Dice(monkeypatch, dice)
    return E.apply(st, a, {"type": "move", "i": f})


def play_race(n, bots, seed, opts):
    """A seeded random race at Great Britain to the end (policy), checked at every move: the input
    never changes, every text renders, the invariants hold and the views leak nothing."""
    rnd = random.Random(seed)
    options = {"circuit": "great_britain", "bots": bots, **opts}
    st = E.new_game(options, n, seed)
    actions = []
    keys: Counter = Counter()
    for _ in range(8000):
        if E.is_over(st):
            break
        seat = rnd.choice(E.to_act(st))
        a = policy(st, seat, rnd)
        nst, ev = apply_untouched(E, st, seat, a)
        for e in said(ev):
            render(e.text, "en")
            render(e.text, "ja")
            keys[e.text.key] += 1
        st = nst
        actions.append((seat, a))
        check(st)
        leaks(st)
    return st, actions, options, keys


def event_round(st, deck, faces, monkeypatch, weather="dry"):
    """Start a new round (after the start rounds) with the event deck in a known order."""
    st = json.loads(json.dumps(st))
    c = content.circuits()[st["circuit"]]
    st["round"], st["queue"], st["turn"] = 10, [], None
    st["weather"] = {"a": next(i for i, w in enumerate(c.weather_a) if w == weather), "b": 1}
    st["events"]["deck"] = list(deck)
    Dice(monkeypatch, faces)
    rng, ev = Rng(st["rng"]), []
    RACE.setup_round(st, rng, ev)
    st["rng"] = rng.state
    return st, ev


def drs_race(drs=True, n=2):
    """`race` at Great Britain with n cars and the DRS option (11) on unless told otherwise."""
    return race(n, drs=drs)


def drs_go(st, row, laps):
    """Seat 0 ends its move on row `row` lane 0, lap `laps`."""
    i = next(
        i
        for i, o in enumerate(st["turn"]["opts"])
        if o["kind"] == "end" and o["pos"] == ["t", row, 0] and o["laps"] == laps
    )
    return E.apply(st, 0, {"type": "move", "i": i})


def red_turn(st, weather="dry"):
    """Red (seat 0) on lap 2 three rows before the line, green (seat 1) just past the DRS line."""
    st = json.loads(json.dumps(st))
    c = content.circuits()["great_britain"]
    assert c.drs_row == 1 and c.rows[1].brown  # rows 1, 3, 5 are lap-1 only: the next rows are 0, 2, 4, 6
    st["round"], st["queue"], st["turn"] = 10, [], None
    st["weather"]["a"] = next(i for i, w in enumerate(c.weather_a) if w == weather)
    st["cars"][0].update({"pos": ["t", 88, 0], "laps": 1, "line": [], "life": 4})
    st["cars"][1].update({"pos": ["t", 6, 0], "laps": 2, "line": [], "life": 4})
    st["order"] = [1, 0]
    rng = Rng(st["rng"])
    RACE.begin_turn(st, rng, [], 0)
    st["rng"] = rng.state
    return st


def place(st, where: dict, round_=10, weather="dry"):
    """Put cars where the test wants them ({seat: (row, lane)} on lap 1); the others retire."""
    st = json.loads(json.dumps(st))
    st["round"] = round_
    st["queue"] = []
    st["turn"] = None
    c = content.circuits()[st["circuit"]]
    st["weather"]["a"] = next(i for i, w in enumerate(c.weather_a) if w == weather)
    for s, car in enumerate(st["cars"]):
        if s in where:
            car["pos"] = ["t", *where[s]]
            car["laps"] = 1
            car["line"] = []
        else:
            car["out"] = "lapped"
    DRIVE.reorder(st)
    return st


def drive(options, n, seed, until, asks=False, limit=6000):
    """A seeded random race until `until(st)`; returns (state, actions). asks: every player asks
    to decide position fights live."""
    rnd = random.Random(seed)
    st = E.new_game(options, n, seed)
    acts = []
    if asks:
        for s in range(n):
            st, _ = E.apply(st, s, {"type": "prefs", "preset": "ask_both"})
            acts.append((s, {"type": "prefs", "preset": "ask_both"}))
    for _ in range(limit):
        if until(st):
            return st, acts
        if E.is_over(st):
            break
        seat = rnd.choice(E.to_act(st))
        a = policy(st, seat, rnd)
        if a["type"] == "prefs":
            a = {"type": "prefs", "preset": "ask_both"} if asks else a
        st, _ = E.apply(st, seat, a)
        acts.append((seat, a))
    return None, acts


def find(until, options=None, n=2, asks=False, seeds=range(60)):
    """The first seeded race (of `seeds`) that reaches `until`: (options, n, seed, state, actions);
    the test is skipped when none does."""
    for seed in seeds:
        opts = dict(options or {"circuit": CIRCUIT_KEYS[seed % len(CIRCUIT_KEYS)]})
        st, acts = drive(opts, n, seed, until, asks)
        if st is not None:
            return opts, n, seed, st, acts
    pytest.skip("no seeded race reached the state")


def bot_race(humans=1, bots=5, circuit_="china", seed=1, side="A", tyre="hard"):
    """`race` with bots (17): `humans` players and `bots` bots of card side `side`."""
    return race(humans, circuit_, seed, tyre, bots=bots, bot_side=side)


def pit_ready(monkeypatch, tyre="soft"):
    """The leader 3 cells before the pit lane on lap 1 (life 2, 7 SP, a light breakdown), the others
    out of the way."""
    st = race(tyre=tyre)
    seat = st["order"][0]
    c = content.circuits()[st["circuit"]]
    others = [s for s in range(st["seats"]) if s != seat]
    for i, s in enumerate(others):  # out of the way (on the same lap: not lapped, 5.6)
        st["cars"][s]["pos"] = ["t", 20 + 3 * i, 1]
        st["cars"][s]["laps"] = 1
    car = st["cars"][seat]
    car["pos"] = ["t", c.pit_entry_row - 3, c.pit_side]  # 3 cells to the pit lane, then 3 + zigzag
    car["laps"] = 1
    car["life"] = 2
    car["sp"] = 7
    car["bd"] = [["light", False]]
    return st, seat, c


def end_race(st, finish, ep=None):
    """Finish the current race in this order (the others retired)."""
    st = json.loads(json.dumps(st))
    st["phase"], st["finish"], st["turn"] = "over", list(finish), None
    for s in range(st["seats"]):
        if ep and s in ep:
            st["cars"][s]["ep"] = ep[s]
    rng = Rng(st["rng"])
    CHAMP.after_apply(st, rng, [])
    st["rng"] = rng.state
    return st
