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
    ("Rally4 SS1", 3, range(1, 9), False, "0c04b0fe41021647a5357a482d6972d800cb28b25e717b02fb802419a17ac8ab", 371),
    ("Rally4 SS1", 3, range(1, 9), True, "5acbc99a69b98243481aff3bcf68ec5959fafdca18d93d1c0dbe932f6c789802", 150),
    ("Rally1", 4, range(3, 5), False, "33db761a763aa0ce20ef5b83df132bf8d60e5da8f02c90476e930bf18084131d", 554),
    ("Rally1", 3, range(4, 7), True, "fabe6b13d0ebfd331722b8b83430b257684316eeb6d0726cb39b24f7d4f555be", 246),
    ("Rally7 SS2", 4, range(5, 9), False, "a3edc26e18016daccb045fdf760bf78f13ee6e7723d79fed93bdf5af08871426", 288),
    ("TheClimb SS1", 4, range(6, 10), True, "096f03f091206feeca73fbcc5504b1492bbf6a2cb97a4359c4ab5dd99be5c720", 178),
    (
        "ISGOYTRA-03.2023 SS3",
        4,
        range(6, 10),
        True,
        "d7947432b00103a5c87d2fff3e09dc2f133982b0778163a784919b14fe79ed21",
        131,
    ),
    ("random 8", 3, range(7, 11), False, "0c94401c6b0966b66653cc7028693eebebe8f3b701d67e57abc3b4be37a393af", 207),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}p-{'auto' if c[3] else 'random'}")
def test_seeded_games_show_the_same(case):
    stage, seats, seeds, auto, digest, moves = case
    assert _digest(stage, seats, seeds, auto) == (digest, moves)


def test_re_placings_stay_the_same():
    """A flat out's re-placings (turns.rearrangements, the menu after three "!") over seeded games
    on five stages, flat outs chosen more often than at random: the same as the code before the
    speed work on their search (the digest below)."""
    from bot.games.rallyman import board, turns

    h = hashlib.sha256()
    n = 0
    for stage in ("Rally4 SS1", "Rally1 SS2", "TheClimb SS1", "Rally7 SS2", "random 8"):
        for seed in range(12):
            st = E.new_game({"stage": stage}, 3, seed)
            rnd = random.Random(seed)
            while not E.is_over(st):
                seat = E.to_act(st)[0]
                acts = [a for a in E.legal_actions(st, seat) if a["type"] != "prefs"]
                flats = [a for a in acts if a["type"] == "flat" and a.get("values")]
                st, _ = E.apply(st, seat, rnd.choice(flats) if flats and rnd.random() < 0.7 else rnd.choice(acts))
                if st["phase"] == "rearrange":
                    found = turns.rearrangements(st, board.stage(st["stage"]), E.to_act(st)[0])
                    h.update(repr(found).encode())
                    n += 1
    assert (n, h.hexdigest()) == (71, "8c26152580b0f3f6d56030f9fdf06c1a0722b9540484c12de990e058849f27e5")
