"""plans.reach (the AI's quick judgement of a submission, issue #34) gives what plans._move's figures
give: the spaces at known speed, the corner Heat, the Heat left after the shift (None when clogged),
for every submission of seeded races' hands (weather and the Garage too)."""

from __future__ import annotations

import random

import pytest

from bot.games.heat import ENGINE as E
from bot.games.heat import menus, plans, rules


def _reach_by_move(st: dict, seat: int, ids: list[int]):
    move = plans._move(st, seat, ids, words=False)
    if move is None:
        return None
    n, _, start, end, heat, tr = move
    cost = sum(plans._corner_heat(tr, idx, limit, n) for _, idx, limit in rules.crossed_lines(tr, start, end))
    return end - start, cost, heat


def _check_race(options: dict, seed: int) -> tuple[int, int]:
    """Every submission's reach along a seeded race: (submissions checked, those crossing an Overheat
    corner over its limit)."""
    rnd = random.Random(seed)
    st = E.new_game(dict(options), 4, seed)
    checked = overheat = 0
    while not E.is_over(st) and checked < 3000:
        seat = rnd.choice(E.to_act(st))
        if st["phase"] == "submit":
            for ids in menus.submissions(st, st["cars"][seat]):
                got = plans.reach(st, seat, ids)
                assert got == _reach_by_move(st, seat, ids), ids
                checked += 1
                move = plans._move(st, seat, ids, words=False)
                if move is not None:
                    n, _, start, end, _, tr = move
                    overheat += any(n > lim and i in tr.overheat for _, i, lim in rules.crossed_lines(tr, start, end))
        acts = [a for a in E.legal_actions(st, seat) if a["type"] != "prefs"]
        st, _ = E.apply(st, seat, rnd.choice(acts))
    return checked, overheat


@pytest.mark.parametrize("options", [{"track": "usa"}, {"track": "italy", "garage": "all", "garage_deal": True}])
def test_reach_equals_the_plan_figures(options):
    assert _check_race(options, 3)[0] > 500


def test_reach_counts_overheat_corners():
    """Weather races (their Overheat road tokens: 1 Heat more over the limit)."""
    found = 0
    for seed in range(1, 7):
        found += _check_race({"track": "france", "weather": True}, seed)[1]
    assert found


@pytest.mark.parametrize("gear", [1, 2, 3, 4])
def test_shift_heat_by_its_definition(gear):
    st = E.new_game({"track": "japan", "weather": True}, 3, 5) if "japan" in rules.content.tracks() else None
    st = st or E.new_game({"track": "usa"}, 3, 5)
    car = st["cars"][0]
    for pos in range(1, 60):
        car["pos"], car["gear"] = pos, gear
        flooded = rules.flooded_start(st, car)
        for to in range(1, 5):
            diff = to - gear
            assert rules.shift_heat(st, car, to) == (1 if abs(diff) == 2 else 0) + (1 if diff < 0 and flooded else 0)
