"""The engine's speed work (issue #34) changes no rule: seeded 3- and 4-player games on several
stages (a whole rally among them), moves chosen at random or by the automatic player, give the
same actions, states, events, views, menus, legal moves and labels as the code they were
recorded from (the digests below; recorded before the speed work of the commit that added this
file). A digest that changes is a rule, a text or a view that changed."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import orjson
import pytest

from bot.games.rallyman.engine import ENGINE as E
from bot.i18n import to_wire


def _random_move(rnd: random.Random, acts: list[dict], i: int) -> dict:
    """Mostly a decision at random; now and then a standing preference (the plan list follows it)."""
    prefs = [a for a in acts if a["type"] == "prefs"]
    rest = [a for a in acts if a["type"] != "prefs"] or prefs
    return rnd.choice(prefs) if prefs and i % 11 == 5 else rnd.choice(rest)


def _digest(stage: str, seats: int, seeds: range, auto: bool) -> tuple[str, int]:
    """The games to their end: a running hash of everything they show, and their number of moves."""
    h = hashlib.sha256()
    moves = 0
    for seed in seeds:
        moves += _play(h, stage, seats, seed, auto)
    return h.hexdigest(), moves


def _play(h: Any, stage: str, seats: int, seed: int, auto: bool) -> int:

    def put(value: object) -> None:
        h.update(orjson.dumps(to_wire(value), option=orjson.OPT_SORT_KEYS))

    st = E.new_game({"stage": stage}, seats, seed)
    rnd = random.Random(seed)
    put(st)
    moves = 0
    while not E.is_over(st):
        seat = E.to_act(st)[0]
        acts = E.legal_actions(st, seat)
        put(acts)
        put(E.menu(st, seat))
        if auto:
            act = E.auto_action(st, seat)
        else:
            act = _random_move(rnd, acts, moves)
        put([act, E.describe_action(st, seat, act)])
        if moves % 7 == 0:
            put([E.describe_action(st, seat, a) for a in acts])
        st, events = E.apply(st, seat, act)
        put(st)
        put([[e.text, e.to, e.log] for e in events])
        for viewer in (None, *range(seats)):
            put(E.view(st, viewer))
        moves += 1
        assert moves < 5000
    return moves


CASES = [
    # stage, seats, seeds, automatic player?, digest, moves
    ("Rally4 SS1", 3, range(1, 9), False, "c4f52364347e4acf2061216786d20fd35287d91b708ef5531f965f6cd66031e0", 371),
    ("Rally4 SS1", 3, range(1, 9), True, "dbcd21fc29af66e2a6ec886f3f284a7001e6c617403400fed8d35728242c2c55", 150),
    ("Rally1", 4, range(3, 5), False, "5a930bf379cd96f87839e0dc250b442ec4bbae708df1a783580baa1f28135e88", 554),
    ("Rally1", 3, range(4, 7), True, "e0f83eee294c913ae0b758fe2ae27aed1881d8a2c3280ae11ccdf82c4e430b22", 246),
    ("Rally7 SS2", 4, range(5, 9), False, "1fba63ee5b33429573508c4c898657d2c61d82ccb1986ab8f8a92e8396da460d", 288),
    ("TheClimb SS1", 4, range(6, 10), True, "657e1f3f0bc64e28673a17b34fb566e63a38f21280bbc0d832a378b4748b976c", 178),
    (
        "ISGOYTRA-03.2023 SS3",
        4,
        range(6, 10),
        True,
        "c4e5a0191d3bf6c64e778dfb9eee12831bcd1cc90c046beb5145824f9a81eb72",
        131,
    ),
    ("random 8", 3, range(7, 11), False, "68385e1c7db68f8ed374f19b4901aaf6cd4545fd07ca12bfc0af8913c3172f41", 207),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}p-{'auto' if c[3] else 'random'}")
def test_seeded_games_show_the_same(case):
    stage, seats, seeds, auto, digest, moves = case
    assert _digest(stage, seats, seeds, auto) == (digest, moves)
