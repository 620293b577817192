"""Tests added by the rule-by-rule audit of the seed (tests/rallyman/AUDIT.md): each names the
seed line it proves."""

from __future__ import annotations

import pytest

from bot.games.rallyman import rounds
from bot.games.rallyman import rules as R
from bot.games.rallyman import turns as T
from bot.games.rallyman.engine import ENGINE as E
from tests.rallyman.helpers import decisions, force, game, plan, stage, steps_from

S1 = "Rally1 SS1"


# ---- seed l.73: the brake ---------------------------------------------------------------------


def test_brake_seed_example_six_then_brake_is_gear_four_one_space_on():
    # seed: "[ギア6] ➡ [ギア5 + ブレーキ]" with "速度を-1": the pair is 5 - 1 = 4; BGA: 6 -> 4.
    # Both give gear 4 on the very next space; the die lying there is read as the gear reached.
    st = game(S1, 1, {0: (13, 6)})
    brake = [s for s in steps_from(st) if s[0].endswith("b")]
    assert brake and {s[2] for s in brake} == {4}
    assert {s[1] for s in brake} <= set(stage(S1).spaces[13].succ)  # one space on
    # the brake alone never holds gear 5 (that would be a plain gear-5 die)
    assert not [s for s in steps_from(st) if s[0].endswith("b") and s[2] == 5]


def test_brake_with_gear_one_die_exists_as_the_water_rule_implies():
    # seed l.117: a gear-1 die "cannot be combined with the brake" to cross water, so a gear-1
    # die with the brake must exist: from gear 3, [1 + brake]
    st = game(S1, 1, {0: (13, 3)})
    assert [s for s in steps_from(st) if s[0] == "g1b" and s[2] == 1]
    st = game(S1, 1, {0: (13, 2)})
    assert not [s for s in steps_from(st) if s[0].endswith("b")]  # never down to gear 0


# ---- seed l.75-77: passing ----------------------------------------------------------------------


def test_diagonal_between_two_cars_still_needs_the_gear_of_the_car_beside():
    # seed l.75 (beside a car: at least its gear) holds for the diagonal pass of l.77 too
    s = stage(S1)
    # car 1 beside the mover (row of 13/14), car 2 diagonally ahead (15): the gap is 16
    ok = game(S1, 3, {0: (13, 3), 1: (14, 3), 2: (15, 4)})
    assert (16, "g4") in {(x[1], x[0]) for x in steps_from(ok)}
    slow = game(S1, 3, {0: (13, 3), 1: (14, 3), 2: (15, 5)})
    got = {(x[1], x[0]) for x in steps_from(slow)}
    assert (16, "g4") not in got and (16, "c") not in got and (16, "g2") not in got
    assert s.beside(16) == 15


def test_passing_in_any_gear_once_beside():
    # seed l.76: after drawing level, getting ahead of the car needs no particular gear
    st = game(S1, 2, {0: (15, 4), 1: (16, 4)})
    ahead = {x[1] for x in steps_from(st) if x[0] == "g3"}
    assert ahead & set(stage(S1).spaces[16].succ)


# ---- seed l.87-89: two corners in a row ----------------------------------------------------------


def test_double_corner_lane_may_change_between_the_two_corners():
    s = stage("Rally2 SS2")  # tile 215b: corner 3 then corner 4
    c3, c4 = s.corners[3], s.corners[4]
    assert c3.tile == c4.tile
    st = game("Rally2 SS2", 1, {0: (c3.inner[0], 1)})
    firsts = R.next_steps(st, s, 0, R.start_ctx(st, 0), {})
    reach = {x[1] for f, ctx in firsts for x, _ in R.next_steps(st, s, 0, ctx, {})}
    assert c4.outer[0] in reach and c4.inner[0] in reach  # inside then outside: allowed


# ---- seed l.90-92: a car in a corner --------------------------------------------------------------


def test_a_car_in_a_corner_cannot_be_passed_by_its_shortcut():
    # seed l.91: a car in a corner can be neither joined nor passed; the corner's shortcut
    # leads past it, so it is closed while the car is there
    s = stage("Rally2 SS3")
    c = s.corners[0]
    free = game("Rally2 SS3", 1, {0: (c.before[0], 4)})
    assert c.shortcut[0] in {x[1] for x in steps_from(free)}
    for lane in (c.outer, c.inner):
        st = game("Rally2 SS3", 2, {0: (c.before[0], 4), 1: (lane[-1], 2)})
        assert c.shortcut[0] not in {x[1] for x in steps_from(st)}


# ---- seed l.93-95: slides -----------------------------------------------------------------------


def test_slide_is_one_move_along_the_dotted_line_no_turning_back():
    # seed l.95 "途中で車の向きを変更することはできません": read as one sideways move; the car
    # does not slide back along the same dotted line
    st = game(S1, 1, {0: (5, 3)})
    s = stage(S1)
    ctx = R.start_ctx(st, 0)
    into = [c for x, c in R.next_steps(st, s, 0, ctx, {}) if x[1] == 6 and x[0] == "c"][0]
    side = [c for x, c in R.next_steps(st, s, 0, into, {}) if x[1] == 7][0]
    assert 6 not in {x[1] for x, _ in R.next_steps(st, s, 0, side, {})}


# ---- seed l.100-106: shortcuts ------------------------------------------------------------------


def test_shortcut_coast_damage_counts_from_the_next_turn(monkeypatch):
    # seed l.105: "この効果は次のターンの開始時から発生します"
    s = stage("Rally2 SS3")
    st = game("Rally2 SS3", 1, {0: (s.corners[0].before[0], 4)})
    nxt = [x for x in steps_from(st) if x[1] == 11 and x[0] == "c"][0]
    ctx = R.replay_steps(st, s, 0, [nxt])
    second = [x for x, _ in R.next_steps(st, s, 0, ctx, {}) if x[0] == "c"][0]
    force(monkeypatch, faces=[[False], [False]], backs=["sisu"], tokens=["coast"])
    st, _ = plan(st, 0, [nxt, second])  # two coast dice planned
    st, _ = E.apply(st, 0, {"type": "roll"})
    assert st["cars"][0]["dmg"]["coast"] == 1 and st["phase"] == "roll"
    st, _ = E.apply(st, 0, {"type": "roll"})  # the second coast die still rolls this turn
    assert st["cars"][0]["sp"] == second[1]
    assert R.dice_left(st, 0)[2] == 1  # from the next turn: one coast die


def test_mud_stacks_to_a_closed_corner_lane():
    # seed l.106: mud tokens stack and can make part or all of a corner unusable: at limit 0
    # every die there loses control; the shortcut keeps its own limit
    s = stage("Rally2 SS3")
    c = s.corners[0]
    st = game("Rally2 SS3", 1, {0: (c.before[0], 1)})
    st["mud"] = {"0": 2}
    assert R.limit_at(st, s, c.inner[0]) == 0
    into_inner = [x for x in steps_from(st) if x[1] == c.inner[0]]
    assert into_inner and all(x[3] == "ov" for x in into_inner)
    assert all(x[3] == "" for x in steps_from(st) if x[1] == c.shortcut[0])


# ---- seed l.107-114: jumps ----------------------------------------------------------------------

JW = "ISGOYTRA-03.2023 SS2"  # jump 4 on row 31/32, water on the row after it (33/34)


def test_jump_cannot_land_on_water():
    # seed l.113 with l.116: water is an obstacle, and a jump cannot land on an obstacle
    st = game(JW, 1, {0: (29, 4)})
    got = [x for x in steps_from(st)]
    assert not [x for x in got if x[3] == "eq"]  # the gear-4 jump would land on 33/34
    assert not [x for x in got if x[1] in (33, 34) and x[3]]


def test_jump_one_over_flies_over_the_water():
    # seed l.111: two spaces on, ignoring obstacles between
    st = game(JW, 1, {0: (29, 5)})
    p1 = [x for x in steps_from(st) if x[3] == "p1"]
    assert p1 and {x[1] for x in p1} == {35, 36}


def test_jump_never_lands_in_a_shortcut():
    # seed l.100: a shortcut is entered from the slide space before its corner, not from the air
    s = stage("Rally3 SS3")  # jump 3 on row 70/71, slide 72/73, then a corner with shortcut 78
    pre = [x.id for x in s.spaces if 70 in x.succ][0]
    st = game("Rally3 SS3", 1, {0: (pre, 3)})
    land = {x[1] for x in steps_from(st) if x[0] == "g4"}  # p1 ("ov" there: over the corner's limit)
    assert land == {74, 77}


# ---- seed l.115-118: water ----------------------------------------------------------------------


def test_water_ends_the_turn_at_once_in_the_gear_of_the_die_that_entered(monkeypatch):
    s = stage("Rally5 SS1")
    pre = [x.id for x in s.spaces if 32 in x.succ][0]
    st = game("Rally5 SS1", 1, {0: (pre, 2)})
    wet = [x for x in steps_from(st) if x[1] == 32 and x[0] == "g3"][0]
    ctx = R.replay_steps(st, s, 0, [wet])
    assert ctx.done and R.next_steps(st, s, 0, ctx, {}) == []  # no die after it
    force(monkeypatch, faces=[[False]], backs=["crash"])
    st, _ = plan(st, 0, [wet])
    st, _ = E.apply(st, 0, {"type": "roll"})
    car = st["cars"][0]
    assert car["sp"] == 32 and car["gear"] == 3 and car["cards"][-1] == [3, 30, "time"]


# ---- seed l.71-72: orange and white coast dice ----------------------------------------------------


def test_orange_coast_dice_for_the_first_player_of_the_round_only():
    st = game(S1, 3, {0: (13, 3), 1: (4, 3), 2: (2, 3)})
    st["round"] = 10
    rounds.new_round(st)
    first, *rest = st["order"]
    assert T.orange(st, first) and not any(T.orange(st, x) for x in rest)


# ---- seed l.127: securing dice --------------------------------------------------------------------


def test_secure_gear_and_brake_counts_as_two_dice():
    st = game(S1, 1, {0: (13, 5)})
    st["cars"][0]["chips"] = 10
    step = [x for x in steps_from(st) if x[0] == "g3b"][0]
    st, _ = plan(st, 0, [step])
    assert T.secure_cost(st) == 3  # the 1st and 2nd secured dice of the turn: 1 + 2


def test_a_sliding_car_keeps_its_orientation_into_the_corner_drift_lane():
    # seed l.95 "途中で車の向きを変更することはできません" with l.85-86 (inside lane: the car stands
    # lengthwise; outside lane: sideways, a drift) and l.92 "同じ向き(ドリフト)": a car that slid
    # sideways stays sideways, so it enters the corner on the outside lane only
    s = stage(S1)  # slide row 6/7, then corner 0: outer 8, 9 (@2), inner 10 (@1)
    st = game(S1, 1, {0: (5, 1)})
    ctx = R.start_ctx(st, 0)
    into = [c for x, c in R.next_steps(st, s, 0, ctx, {}) if x[1] == 6 and x[0] == "c"][0]
    side = [c for x, c in R.next_steps(st, s, 0, into, {}) if x[1] == 7 and x[0] == "c"][0]
    after = {x[1] for x, _ in R.next_steps(st, s, 0, side, {})}
    assert 8 in after and 10 not in after
    # without the slide both lanes are open
    assert {8, 10} <= {x[1] for x, _ in R.next_steps(st, s, 0, into, {})}
    # a car that ended its turn sideways starts the next one sideways
    st = game(S1, 1, {0: (7, 1)})
    st["cars"][0]["side"] = True
    assert {x[1] for x in steps_from(st)} & {8, 10} == {8}


def test_a_car_that_followed_a_slider_in_sideways_drifts_too():
    # seed l.97: followers enter the slide "the same way" (sideways), so l.95 holds for them too
    st = game(S1, 1, {0: (6, 1)})
    st["cars"][0]["side"] = "follow"
    got = {x[1] for x in steps_from(st)}
    assert 8 in got and 10 not in got and 7 not in got


# ---- seed l.131-132: flat out with three "!" --------------------------------------------------------


def test_flat_out_three_bangs_may_reorder_and_leave_dice_out_to_limit_damage(monkeypatch):
    # seed: the rolled dice may change order and place, not all need placing, but control must
    # be lost: here the "!" dice are gear 4 and both coast dice, gear 5 rolled clean
    st = game(S1, 1, {0: (13, 3)})
    force(monkeypatch, faces=[[True], [True], [False], [True]])
    st, _ = plan(st, 0, [["g4", 15, 4, ""], ["c", 17, 4, ""], ["g5", 19, 5, ""], ["c", 21, 5, ""]])
    st, _ = E.apply(st, 0, {"type": "flat"})
    assert st["phase"] == "rearrange"
    opts = T.rearrangements(st, stage(S1), 0)
    codes = [c for c, _ in opts]
    assert codes[0].count(",") == 2  # the gear-5 die left out: three dice, three "!", gear 4
    assert any(c.count(",") == 3 and c != "g4:15:,c:17:,g5:19:,c:21:" for c in codes)  # or placed elsewhere
    best = opts[0][1]
    assert best[0] == R.crash_tokens(4, stage(S1).spaces[19].danger) < R.crash_tokens(5, stage(S1).spaces[21].danger)


# ---- seed l.111: the +1 jump flies over what is between -----------------------------------------


def test_jump_plus_one_flies_over_a_car_between():
    s = stage("Rally5 SS2")  # jump 4 on row 34/35
    pre = [x.id for x in s.spaces if 34 in x.succ][0]
    mid = s.spaces[34].succ[0]
    st = game("Rally5 SS2", 2, {0: (pre, 4), 1: (mid, 1)})
    land = {x[1] for x in steps_from(st) if x[3] == "p1"}
    assert land and land <= {b for a in s.spaces[34].succ for b in s.spaces[a].succ}


# ---- seed l.137-146: time cards, spin, crash --------------------------------------------------------


def test_time_cards_match_the_seed_table():
    assert R.rules().time == {1: 50, 2: 40, 3: 30, 4: 20, 5: 15, 6: 10}
    assert R.rules().loss_time == 60


def test_spin_costs_sixty_no_damage_car_stays_on_the_track_and_blocks(monkeypatch):
    st = game(S1, 2, {0: (13, 3), 1: (0, 0)})
    force(monkeypatch, faces=[[True], [True], [True]], backs=["spin"])
    st, _ = plan(st, 0, [["g4", 15, 4, ""], ["g5", 17, 5, ""], ["c", 19, 5, ""]])
    for _ in range(3):
        st, _ = E.apply(st, 0, {"type": "roll"})
    car = st["cars"][0]
    assert car["cards"][-1] == [5, 60, "spin"] and car["gear"] == 0 and car["sp"] == 19
    assert car["track"] and not any(car["dmg"].values())
    assert 19 in R.occupied(st, 1)  # still on the track for the others


def test_crashed_car_blocks_nobody(monkeypatch):
    st = game(S1, 2, {0: (13, 3), 1: (0, 0)})
    force(monkeypatch, faces=[[True], [True], [True]], backs=["crash"], tokens=["flag"] * 5)
    st, _ = plan(st, 0, [["g4", 15, 4, ""], ["g5", 17, 5, ""], ["c", 19, 5, ""]])
    for _ in range(3):
        st, _ = E.apply(st, 0, {"type": "roll"})
    assert st["cars"][0]["cards"][-1] == [5, 60, "crash"] and 19 not in R.occupied(st, 1)


# ---- seed l.169-172: spare tyre ----------------------------------------------------------------


def test_spare_tyre_car_is_off_the_lane_until_its_next_turn(monkeypatch):
    st = game(S1, 2, {0: (13, 2), 1: (0, 0)})
    st["cars"][0]["dmg"]["brake"] = 1
    st["cars"][0]["tokens"] = ["brake"]
    force(monkeypatch, faces=[[False]], backs=["crash"])
    st, _ = plan(st, 0, [["g1", 15, 1, ""]])
    st, _ = E.apply(st, 0, {"type": "roll"})
    assert decisions(st, 0) == [{"type": "spare", "k": "brake"}, {"type": "nospare"}]
    st, _ = E.apply(st, 0, {"type": "spare", "k": "brake"})
    car = st["cars"][0]
    assert not car["track"] and 15 not in R.occupied(st, 1) and car["gear"] == 0
    assert car["cards"][-2:] == [[1, 50, "time"], [0, 30, "spare"]]  # the turn's card, then the change time
    with pytest.raises(Exception):
        E.apply(st, 0, {"type": "spare", "k": "brake"})  # once per stage (and not its turn)


def test_securing_goes_on_rising_one_second_per_die_past_the_third():
    # seed l.127: 1 s for one die, "2~3" s as more dice are secured, rising each time: the k-th
    # secured die of a turn costs k s; the seed names no end to the rise, so there is no cap
    assert [R.secure_cost(k, 1) for k in range(5)] == [1, 2, 3, 4, 5]
    assert R.secure_cost(2, 2) == 3 + 4
    st = game(S1, 1, {0: (0, 0)})
    st["cars"][0]["chips"] = 20
    st, _ = plan(st, 0, [["g1", 2, 1, ""], ["g2", 4, 2, ""], ["g3", 6, 3, ""], ["c", 7, 3, ""]])
    paid = []
    for _ in range(4):
        before = st["cars"][0]["chips"]
        st, _ = E.apply(st, 0, {"type": "secure"})
        paid.append(before - st["cars"][0]["chips"])
    assert paid == [1, 2, 3, 4]
