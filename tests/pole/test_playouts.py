"""Seeded random races to the end, every circuit, 2-6 cars: no errors, invariants hold, the
views leak nothing, and a game replays from its seed and actions to the same state."""
import json
import random

import pytest

from bot.games.base import replay
from bot.games.pole import ENGINE as E
from bot.games.pole.content import CIRCUIT_KEYS
from bot.i18n import render


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
        return {"type": "prefs", "attack": rnd.randint(0, 4), "defend": rnd.randint(0, 4), "yield": rnd.random() < 0.1,
                "ask": rnd.random() < 0.2}
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


def play(circuit, n, seed, log_actions=False):
    rnd = random.Random(seed)
    rnd_attack = random.Random(-seed)  # live attacker bids, kept apart from policy()'s draws
    st = E.new_game({"circuit": circuit}, n, seed)
    actions = []
    for _ in range(6000):
        if E.is_over(st):
            break
        seat = rnd.choice(E.to_act(st))
        a = policy(st, seat, rnd)
        if a.get("type") == "prefs" and "ask" in a:
            a = dict(a, ask_attack=rnd_attack.random() < 0.3)
        before = json.dumps(st, sort_keys=True)
        nst, ev = E.apply(st, seat, a)
        assert json.dumps(st, sort_keys=True) == before  # apply never mutates its input
        for e in ev:
            render(e.text, "en")
            render(e.text, "ja")
        st = nst
        actions.append((seat, a))
        check(st)
        leaks(st)
    return st, actions


def leaks(st):
    spec = E.view(st, None)
    assert "me" not in spec and "prefs" not in json.dumps(spec)  # standing maxima stay secret
    for s in range(st["seats"]):
        v = E.view(st, s)
        assert v["me"]["prefs"] == st["prefs"][s]
        assert {k: x for k, x in v.items() if k not in ("my_tyre", "viewer", "me", "quali")} == \
            {k: x for k, x in spec.items() if k not in ("viewer", "quali")}
    if st["phase"] == "tyres":
        assert all(c["tyre"] is None for c in spec["cars"])
        for s in range(st["seats"]):
            v = E.view(st, s)
            assert v.get("my_tyre") == st["tyre_pick"].get(str(s))
            assert {k: x for k, x in v.items() if k not in ("my_tyre", "viewer", "me")} == \
                {k: x for k, x in spec.items() if k != "viewer"}
    if st["phase"] == "quali":
        assert "mine" not in spec["quali"]
        for s in range(st["seats"]):
            v = E.view(st, s)
            assert {k: x for k, x in v["quali"].items() if k != "mine"} == spec["quali"]


# Every circuit, and every count of 2-6 cars on some circuit (1 player + bots: tests/pole/test_bots.py);
# each race is also replayed from its seed and actions and must equal the snapshot.
CASES = [(c, 2 + i % 5) for i, c in enumerate(CIRCUIT_KEYS)] + [("monaco", 6)]


def test_cases_cover_every_circuit_and_count():
    assert {c for c, _ in CASES} == set(CIRCUIT_KEYS) and {n for _, n in CASES} == {2, 3, 4, 5, 6}
    assert len(set(CASES)) == len(CASES)


@pytest.mark.parametrize("circuit,n", CASES)
def test_random_race_to_the_end(circuit, n):
    seed = sum(map(ord, circuit)) * 7 + n
    st, actions = play(circuit, n, seed=seed)
    assert E.is_over(st)
    assert all(c["finished"] is not None or c["out"] is not None for c in st["cars"])
    assert E.to_act(st) == []
    assert replay(E, {"circuit": circuit}, n, seed, actions) == json.loads(json.dumps(st))
