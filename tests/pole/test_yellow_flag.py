"""Yellow flag (seed 002, 10.1), a table option that comes with collisions: a collision that
damages a car flags its sector (a corner: the row after the double arrow to the last shaded row;
a straight: from after the corner before it to the next double-arrow row); no overtaking there
this round and the next, then both flags go."""

import json

import pytest

from bot.games.base import replay

from bot.games.pole import ENGINE as E
from bot.games.pole import engine as eng
from bot.games.pole import rules as R
from bot.games.pole import race as RACE
from bot.games.pole import fights as FIGHTS
from bot.games.rng import Rng
from tests.pole.helpers import attack, Dice, fight_setup, play_race, race_with_collisions, said, turn


def _straight_run(c, row):
    rows = {row}
    r = row
    while R.is_straight(c, r - 1):
        r -= 1
        rows.add(r)
    r = row
    while R.is_straight(c, r + 1):
        r += 1
        rows.add(r)
    return sorted(rows)


def test_options_yellow_flag_turns_collisions_on():
    o = E.validate_options({"yellow_flag": True}, 3)
    assert o["yellow_flag"] is True and o["collisions"] is True
    assert "yellow_flag" not in E.validate_options({"collisions": True}, 3)


def test_example_damage_on_a_straight_flags_the_straight(monkeypatch):
    """10.1's example: green and yellow both roll 4; yellow's 6 is a heavy breakdown, so the flags
    are placed (here on the straight between corners 2 and 3 of Great Britain)."""
    st = race_with_collisions(yellow_flag=True)
    green, yellow, others = fight_setup(st)
    st["cars"][yellow]["sp"] = 0
    rnd = st["round"] = 10
    st, ev = attack(monkeypatch, st, green, yellow, [4, 4, 6, 1])
    c = eng.circuits()["great_britain"]
    rows = _straight_run(c, 30)
    assert rows[0] == c.corners[1].last + 1 and rows[-1] == c.corners[2].arrow[0]
    assert st["flag"] == {"rows": rows, "until": rnd + 1}
    v = E.view(st, None)
    assert v["flag"] == {"from": rows[0], "to": rows[-1], "until": rnd + 1}
    assert any(e.text.key.startswith("Yellow flag:") for e in said(ev))


def test_no_damage_no_flag_and_no_flag_without_the_option(monkeypatch):
    st = race_with_collisions(yellow_flag=True)
    a, d, _ = fight_setup(st)
    st, _ = attack(monkeypatch, st, a, d, [4, 4, 1, 1])
    assert not st.get("flag")
    st = race_with_collisions(collisions=True)
    a, d, _ = fight_setup(st)
    st["cars"][d]["sp"] = 0
    st, _ = attack(monkeypatch, st, a, d, [4, 4, 6, 1])
    assert st["cars"][d]["bd"] == [["heavy", False]] and not st.get("flag")


def test_a_collision_in_a_corner_flags_the_corner():
    st = race_with_collisions(yellow_flag=True)
    c = eng.circuits()["great_britain"]
    co = c.corners[2]
    st["cars"][1]["pos"] = ["t", co.first + 1, 1]
    st["turn"] = None
    FIGHTS.yellow_flag(st, [], 1)
    assert st["flag"]["rows"] == list(range(co.first, co.last + 1))


def _flagged(st, rows, until):
    st = json.loads(json.dumps(st))
    st["flag"] = {"rows": rows, "until": until}
    return st


def test_no_overtaking_between_the_flags(monkeypatch):
    st = race_with_collisions(n=3, yellow_flag=True)
    c = eng.circuits()["great_britain"]
    a, d, others = fight_setup(st)
    st["cars"][d]["pos"] = ["t", 31, 2]  # two lanes away: normally a pass without a fight
    st["cars"][a]["pos"] = ["t", 27, 0]
    Dice(monkeypatch, [9])
    free = turn(st, a)
    assert any(
        o["pos"][0] == "t" and o["pos"][1] > 31 and o["laps"] == st["cars"][a]["laps"] for o in free["turn"]["opts"]
    )
    Dice(monkeypatch, [9])
    held = turn(_flagged(st, _straight_run(c, 30), 10), a)
    assert held["turn"]["opts"]
    assert all(o["kind"] != "fight" for o in held["turn"]["opts"])
    assert all(o["pos"][0] != "t" or o["pos"][1] <= 31 for o in held["turn"]["opts"])
    # fights too: the car beside the attacker's lane cannot be attacked there
    st["cars"][d]["pos"] = ["t", 31, 1]
    Dice(monkeypatch, [9])
    held = turn(_flagged(st, _straight_run(c, 30), 10), a)
    assert all(o["kind"] != "fight" for o in held["turn"]["opts"])


def test_flags_go_after_this_round_and_the_next():
    st = race_with_collisions(yellow_flag=True)
    st = _flagged(st, [30, 31], 10)
    st["round"], st["turn"] = 10, None  # a round begins once the last turn is over
    rng = Rng(st["rng"])
    ev = []
    RACE.setup_round(st, rng, ev)  # round 11
    assert st["flag"] is None
    assert any(e.text.key == "The yellow and green flags are removed." for e in said(ev))
    st = _flagged(st, [30, 31], 10)
    st["round"] = 9
    RACE.setup_round(st, rng, [])  # round 10: still on
    assert st["flag"]


@pytest.mark.parametrize("n,bots,seed", [(6, 0, 2), (4, 0, 24), (3, 0, 45), (2, 2, 72)])  # seeds with a flag
def test_random_races_with_yellow_flags(n, bots, seed):
    st, actions, options, keys = play_race(n, bots, seed, {"yellow_flag": True, "drs": True})
    assert E.is_over(st)
    if bots == 0:
        assert keys["Yellow flag: no overtaking from row {a} to row {b} this round and the next."]
    again = replay(E, options, n, seed, actions)
    assert again == json.loads(json.dumps(st))


def test_the_board_shows_the_flag():
    from rendering import pole

    st = race_with_collisions(yellow_flag=True)
    st["flag"] = {"rows": [27, 28, 29], "until": 5}
    v = E.view(st, None)
    for loc in ("en", "ja"):
        png = pole.render_board(v, ["A", "B", "C"], loc)
        assert png[8:12] == b"WEBP"  # the board is a lossless WebP (issue #35)
    del st["flag"]
    assert "flag" not in E.view(st, None)
