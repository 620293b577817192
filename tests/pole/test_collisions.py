"""Collisions (seed 002, section 10), a table option: equal raw fight rolls stop the pass, every
car in it makes a collision roll (black die, table in data/pole/rules.json), each may roll again
for 1 SP keeping the lower; EP/BP losses, breakdowns, retirements; no DRS on the next turn."""

import json

import pytest

from bot.games.base import replay
from bot.games.pole import ENGINE as E
from bot.games.pole import bots as BOTS
from tests.pole.helpers import attack, Dice, fight_setup, play_race, race_with_collisions, said, turn


def test_example_green_and_yellow_both_roll_4(monkeypatch):
    """10.1's example: both roll 4 (green's +1 for unused MP does not count): no pass, green loses its
    MP; green's collision roll 1 does nothing, yellow's 6 is a heavy breakdown."""
    st = race_with_collisions()
    green, yellow, _ = fight_setup(st)
    sp_g, sp_y = st["cars"][green]["sp"], st["cars"][yellow]["sp"]
    # position-track order: yellow (ahead) rolls first, then green
    st, ev = attack(monkeypatch, st, green, yellow, [4, 4, 6, 1])
    assert any(e.text.key == "Collision! {a} and {d} both roll {r}: no overtake." for e in said(ev))
    # yellow may roll again for 1 SP; green's 1 has nothing to improve, so nobody asks green
    assert E.to_act(st) == [yellow] and st["turn"]["stage"] == "crash"
    acts = [x for x in E.legal_actions(st, yellow) if x["type"] != "prefs"]
    assert acts == [{"type": "crash", "reroll": False}, {"type": "crash", "reroll": True}]
    assert E.legal_actions(st, green) == [x for x in E.legal_actions(st, green) if x["type"] == "prefs"]
    st, ev = E.apply(st, yellow, {"type": "crash", "reroll": False})
    assert st["cars"][yellow]["bd"] == [["heavy", False]]
    assert st["cars"][green]["bd"] == [] and st["cars"][green]["ep"] == 7 and st["cars"][green]["bp"] == 7
    assert st["cars"][green]["pos"] == ["t", 30, 0]  # where it stopped to overtake
    assert st["order"].index(yellow) < st["order"].index(green)
    assert st["cars"][green]["sp"] == sp_g and st["cars"][yellow]["sp"] == sp_y  # nobody bid
    assert st["turn"] is None or st["turn"]["seat"] != green  # the MP left are lost


def test_example_2_reroll_for_1_sp_keeps_the_lower(monkeypatch):
    """Example 2: an unrepaired light breakdown already; a 5 (light) would retire the car, so it pays
    1 SP, rolls 3 and keeps the 3: it loses 1 EP."""
    st = race_with_collisions()
    a, d, _ = fight_setup(st)
    st["cars"][a]["bd"] = [["light", False]]
    st, _ = attack(monkeypatch, st, a, d, [2, 2, 1, 5])
    assert E.to_act(st) == [a]  # d rolled 1: no choice; a rolled 5
    sp = st["cars"][a]["sp"]
    Dice(monkeypatch, [3])
    st, ev = E.apply(st, a, {"type": "crash", "reroll": True})
    assert st["cars"][a]["sp"] == sp - 1 and st["cars"][a]["ep"] == 6
    assert st["cars"][a]["out"] is None and st["cars"][a]["bd"] == [["light", False]]
    assert st["cars"][d]["ep"] == 7 and st["cars"][d]["bd"] == []


def test_the_second_roll_never_makes_it_worse(monkeypatch):
    st = race_with_collisions()
    a, d, _ = fight_setup(st)
    st, _ = attack(monkeypatch, st, a, d, [3, 3, 1, 3])
    Dice(monkeypatch, [6])
    st, _ = E.apply(st, a, {"type": "crash", "reroll": True})
    assert st["cars"][a]["ep"] == 6 and st["cars"][a]["bd"] == []  # kept the 3: 1 EP, no breakdown


@pytest.mark.parametrize(
    "roll,ep,bp,bd",
    [
        (1, 7, 7, []),
        (2, 7, 6, []),
        (3, 6, 7, []),
        (4, 7, 7, [["light", False]]),
        (5, 7, 7, [["light", False]]),
        (6, 7, 7, [["heavy", False]]),
    ],
)
def test_the_collision_table(monkeypatch, roll, ep, bp, bd):
    st = race_with_collisions()
    a, d, _ = fight_setup(st)
    st["cars"][d]["sp"] = 0  # no reroll to offer
    st, _ = attack(monkeypatch, st, a, d, [5, 5, roll, 1])
    assert (st["cars"][d]["ep"], st["cars"][d]["bp"], st["cars"][d]["bd"]) == (ep, bp, bd)


def test_losing_a_point_the_car_does_not_have_retires_it(monkeypatch):
    st = race_with_collisions()
    a, d, _ = fight_setup(st)
    st["cars"][d].update(sp=0, ep=0)
    st, _ = attack(monkeypatch, st, a, d, [5, 5, 3, 1])
    assert st["cars"][d]["out"] == "crash" and st["order"][-1] == d


def test_a_second_unrepaired_breakdown_or_over_3_points_retires(monkeypatch):
    st = race_with_collisions()
    a, d, _ = fight_setup(st)
    st["cars"][d].update(sp=0, bd=[["heavy", True]])  # 2 points, repaired: a heavy one makes 4
    st["cars"][a].update(sp=0, bd=[["light", False]])
    st, _ = attack(monkeypatch, st, a, d, [6, 6, 6, 4])
    assert st["cars"][d]["out"] == "breakdown" and st["cars"][a]["out"] == "breakdown"
    assert st["turn"] is None or st["turn"]["seat"] not in (a, d)


def test_without_the_option_equal_rolls_are_a_normal_fight(monkeypatch):
    st = race_with_collisions(collisions=False)
    a, d, _ = fight_setup(st)
    st, ev = attack(monkeypatch, st, a, d, [4, 4])
    assert not any("Collision" in (e.text.key or "") for e in said(ev))
    assert st["cars"][a]["bd"] == st["cars"][d]["bd"] == []
    assert "collisions" not in E.validate_options({}, 3)


def test_multiple_overtake_all_three_roll(monkeypatch):
    """10: in a multiple overtake all three cars roll, even when only two fight (5.4 A)."""
    st = race_with_collisions(n=4)
    a, d, others = fight_setup(st)
    x = others[0]
    st["cars"][x]["pos"] = ["t", 30, 2]
    st["order"] = [d, x, a, others[1]]
    for s in (a, d, x):
        st["cars"][s]["sp"] = 0
    Dice(monkeypatch, [9])
    st = turn(st, a)
    f = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "fight" and o["def"] == [d])
    Dice(monkeypatch, [3, 3, 6, 4, 3])  # fight; then d, x, a in position order
    st, ev = E.apply(st, a, {"type": "move", "i": f})
    assert st["cars"][d]["bd"] == [["heavy", False]]
    assert st["cars"][x]["bd"] == [["light", False]]
    assert st["cars"][a]["ep"] == 6
    rolls = [e.text.params["p"] for e in said(ev) if e.text.key == "{p} makes a collision roll: {r}."]
    assert len(rolls) == 3


def test_no_drs_on_the_next_turn_after_a_collision(monkeypatch):
    st = race_with_collisions(drs=True)
    a, d, _ = fight_setup(st)
    st["cars"][d]["drs"] = True
    st["cars"][d]["sp"] = 0
    st, _ = attack(monkeypatch, st, a, d, [2, 2, 1, 1])
    assert st["cars"][d]["nodrs"] and st["cars"][a]["nodrs"] and not st["cars"][a].get("drs")
    Dice(monkeypatch, [8])
    st = turn(st, d)
    assert "drs" not in st["turn"] and st["cars"][d]["drs"] is False and "nodrs" not in st["cars"][d]


def test_bot_against_human_only_the_human_rolls(monkeypatch):
    """17.6.1 / 17.2: the human's raw roll equal to the bot's overtaking value is a collision; the
    bot makes no collision roll and takes no damage."""
    st = race_with_collisions(n=2, bots=1)
    human = next(s for s in range(st["seats"]) if not st["cars"][s].get("bot"))
    bot = next(s for s in range(st["seats"]) if st["cars"][s].get("bot"))
    st["order"] = [bot, human]
    st["cars"][bot]["pos"] = ["t", 30, 1]
    st["cars"][human]["pos"] = ["t", 28, 0]
    st["cars"][human]["sp"] = 0
    ov = BOTS.card(bot, st["cars"][bot]["bot"]["side"])["overtake"]
    Dice(monkeypatch, [9])
    st = turn(st, human)
    f = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "fight" and o["def"] == [bot])
    Dice(monkeypatch, [ov, 6])
    st, ev = E.apply(st, human, {"type": "move", "i": f})
    assert st["cars"][human]["bd"] == [["heavy", False]] and st["cars"][bot]["bd"] == []
    rolls = [e for e in said(ev) if e.text.key == "{p} makes a collision roll: {r}."]
    assert len(rolls) == 1


@pytest.mark.parametrize("n,bots", [(1, 3), (2, 0), (3, 2), (4, 0), (5, 1), (6, 0)])
def test_random_races_with_collisions(n, bots):
    st, actions, options, crashes = play_race(n, bots, 40 + n, {"collisions": True, "drs": True})
    assert E.is_over(st)
    assert all(c["finished"] is not None or c["out"] is not None for c in st["cars"])
    if n in (4, 6):
        again = replay(E, options, n, 40 + n, actions)
        assert again == json.loads(json.dumps(st))


def test_changing_preferences_during_the_choice_changes_nothing(monkeypatch):
    st = race_with_collisions()
    a, d, _ = fight_setup(st)
    st, _ = attack(monkeypatch, st, a, d, [4, 4, 6, 1])
    assert E.to_act(st) == [d]
    st, _ = E.apply(st, d, {"type": "prefs", "preset": "yield"})
    st, _ = E.apply(st, d, {"type": "prefs", "ask": True})
    assert E.to_act(st) == [d] and st["turn"]["stage"] == "crash"
    st, _ = E.apply(st, d, {"type": "crash", "reroll": False})
    assert st["cars"][d]["bd"] == [["heavy", False]] and st["order"].index(d) < st["order"].index(a)
