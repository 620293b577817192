"""The facts the hand image shows, from the seat's view: race position and the next corner
(additive view keys; the spectator view gains nothing)."""

from __future__ import annotations

import copy
import random

from bot.games.heat import ENGINE as E
from bot.games.heat import rules


def test_next_corner_is_the_first_line_the_car_would_cross():
    state = E.new_game({"track": "usa"}, 3, 5)
    tr = rules.track_of(state)
    for pos in range(0, tr.spaces * tr.laps + 1, 3):
        st = copy.deepcopy(state)
        st["cars"][0]["pos"] = pos
        nc = E.view(st, 0)["me"]["next_corner"]
        if nc is None:  # after the race's last corner line
            assert not rules.crossed_lines(tr, pos, tr.spaces * tr.laps + 20)
            continue
        d = nc["distance"]
        assert d >= 1
        crossed = rules.crossed_lines(tr, pos, pos + d)
        assert len(crossed) == 1 and crossed[0][2] == nc["speed"]
        assert not rules.crossed_lines(tr, pos, pos + d - 1)
        assert nc["space"] == rules.space_of(tr, crossed[0][0])


def test_position_follows_the_race_order_and_spectators_see_no_me():
    state = E.new_game({"track": "italy"}, 4, 9)
    rng = random.Random(1)
    for _ in range(300):
        if E.is_over(state):
            break
        seat = rng.choice(E.to_act(state))
        state, _ = E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
        spectator = E.view(state, None)
        assert "me" not in spectator
        order = spectator["order"]
        for s in range(4):
            assert E.view(state, s)["me"]["position"] == order.index(s) + 1


def test_a_finished_car_has_no_next_corner():
    state = E.new_game({"track": "usa"}, 2, 1)
    state["cars"][1]["fin"] = True
    assert E.view(state, 1)["me"]["next_corner"] is None
