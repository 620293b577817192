"""One test per rule of the seed (Japanese BGA introduction) and its examples."""

from __future__ import annotations

import pytest

from bot.games.base import GameError
from bot.games.rallyman import rounds
from bot.games.rallyman import rules as R
from bot.games.rallyman import turns as T
from bot.games.rallyman.engine import ENGINE as E
from tests.rallyman.helpers import decisions, force, game, plan, stage, steps_from

S1 = "Rally1 SS1"  # 202a, 210b (corner 0: outer 8,9 @2, inner 10 @1), 205a rows, 227a (corner 1)


def dice(steps):
    return sorted({s[0] for s in steps})


# ---- entry and order ---------------------------------------------------------------------------


def test_staggered_entry_one_car_per_round():
    st = E.new_game({"stage": S1}, 4, 11)
    seen = []
    for rnd in range(1, 5):
        assert st["round"] == rnd
        seen.append(len(st["order"]))
        for _ in range(len(st["order"])):
            seat = E.to_act(st)[0]
            st, _ = E.apply(
                st,
                seat,
                {"type": "pass"}
                if not R.all_plans(st, stage(S1), seat, True)
                else {"type": "plan", "values": [R.encode(R.good_plans(st, stage(S1), seat, True)[-1][0])]},
            )
            while st["phase"] in ("roll", "spare", "rearrange"):
                seat = E.to_act(st)[0]
                a = {
                    "roll": {"type": "secure"} if T.secure_cost(st) else {"type": "roll"},
                    "spare": {"type": "nospare"},
                }.get(st["phase"]) or E.legal_actions(st, seat)[0]
                st, _ = E.apply(st, seat, a)
    assert seen == [1, 2, 3, 4]
    assert all(c["entered"] for c in st["cars"])


def test_turn_order_distance_then_gear_then_inside():
    st = game(S1, 4, {0: (2, 1), 1: (4, 1), 2: (5, 3), 3: (3, 1)})
    st["round"] = 10
    rounds.new_round(st)
    # seat 2 (space 5) and seat 1 (space 4) share the furthest row: higher gear first;
    # seats 0 (space 2) and 3 (space 3) share a row and gear: the inside lane first
    inside = {sid for sid in (2, 3) if stage(S1).spaces[sid].inside}
    assert st["order"][:2] == [2, 1]
    assert st["order"][2] == (0 if 2 in inside else 3)


# ---- planning dice ------------------------------------------------------------------------------


def test_from_gear_zero_only_gear_one_and_forward():
    st = game(S1, 1, {0: (0, 0)})
    steps = steps_from(st)
    assert dice(steps) == ["g1"]
    assert {s[1] for s in steps} == {2, 3}  # ahead or diagonally ahead


def test_gear_up_down_one_step_brake_and_coast():
    st = game(S1, 1, {0: (13, 4)})
    assert dice(steps_from(st)) == ["c", "g2b", "g3", "g5"]
    # once going up, only up (or coast); each die once
    ctx = R.start_ctx(st, 0)
    occ = R.occupied(st, 0)
    up = [c for s, c in R.next_steps(st, stage(S1), 0, ctx, occ) if s[0] == "g5"][0]
    assert dice(steps_from(st, ctx=up)) == ["c", "g6"]
    down = [c for s, c in R.next_steps(st, stage(S1), 0, ctx, occ) if s[0] == "g2b"][0]
    assert dice(steps_from(st, ctx=down)) == ["c", "g1"]  # the brake is used: no second skip


def test_brake_example_six_to_four():
    # seed example [gear 6] -> [gear 5 + brake]: read as the brake taking the place of one gear,
    # as the BGA help writes it (6 -> brake -> 4)
    st = game(S1, 1, {0: (13, 6)})
    steps = steps_from(st)
    assert [s for s in steps if s[0] == "g4b"] and all(s[2] == 4 for s in steps if s[0] == "g4b")


def test_coast_keeps_gear_and_not_at_gear_zero():
    st = game(S1, 1, {0: (13, 3)})
    assert all(s[2] == 3 for s in steps_from(st) if s[0] == "c")
    st = game(S1, 1, {0: (13, 0)})
    assert "c" not in dice(steps_from(st))


def test_damage_removes_dice():
    st = game(S1, 1, {0: (13, 3)})
    st["cars"][0]["dmg"] = {"gear": 5, "brake": 1, "coast": 2}
    ctx = R.start_ctx(st, 0)
    first = R.next_steps(st, stage(S1), 0, ctx, {})
    assert dice([s for s, _ in first]) == ["g2", "g4"]  # no brake, no coast
    after = R.next_steps(st, stage(S1), 0, first[0][1], {})
    assert after == []  # only one gear die per turn


def test_orange_and_white_coast_dice_odds():
    step = ["c", 0, 3, ""]
    assert R.loc_chance([step] * 3, orange=True) == pytest.approx((2 / 6) ** 3)
    assert R.loc_chance([step] * 3, orange=False) == pytest.approx((1 / 6) ** 3)
    # gear dice 1-2 have one "!", 3-6 two
    assert R.loc_chance([["g1", 0, 1, ""], ["g2", 0, 2, ""], ["g3", 0, 3, ""]], True) == pytest.approx(
        1 / 6 * 1 / 6 * 2 / 6
    )
    # brake die: two "!" (research, fan sources agree)
    assert R.loc_chance([["g4b", 0, 4, ""], ["g3", 0, 3, ""]], True) == pytest.approx((2 / 6) ** 3)


# ---- passing, corners, slides -------------------------------------------------------------------


def test_moving_alongside_needs_at_least_its_gear():
    st = game(S1, 2, {0: (13, 2), 1: (16, 4)})  # car 1 in row 9, right lane
    targets = {(s[1], s[0]) for s in steps_from(st)}
    assert (15, "g3") not in targets  # beside car 1 in gear 3 < 4
    st = game(S1, 2, {0: (13, 3), 1: (16, 4)})
    assert (15, "g4") in {(s[1], s[0]) for s in steps_from(st)}
    assert 16 not in {s[1] for s in steps_from(st)}  # never onto a car


def test_diagonal_between_two_cars_allowed():
    st = game(S1, 3, {0: (13, 3), 1: (14, 3), 2: (15, 3)})  # cars beside and diagonally ahead
    assert (16, "g4") in {(s[1], s[0]) for s in steps_from(st)}


def test_corner_lane_fixed_and_car_in_corner():
    st = game(S1, 1, {0: (7, 2)})
    steps = steps_from(st)
    assert {s[1] for s in steps if s[0] == "c"} >= {8, 10}  # either lane of the corner
    st = game(S1, 1, {0: (8, 2)})
    assert {s[1] for s in steps_from(st)} == {9}  # no lane change inside the corner
    # a car on the outer lane: followers must take the outer lane and cannot reach or pass it
    st = game(S1, 2, {0: (7, 2), 1: (9, 2)})
    assert {s[1] for s in steps_from(st)} - {6} == {8}  # (6: sideways along the slide)
    st = game(S1, 2, {0: (8, 2), 1: (9, 2)})
    assert steps_from(st) == []
    # two cars already in one corner in different lanes (a crashed car back on the road): each
    # goes on in its own lane
    st = game("Rally4 SS2", 2, {0: (78, 1), 1: (81, 1)})
    assert {s[1] for s in steps_from(st)} == {79}
    st = game("Rally4 SS2", 2, {1: (78, 1), 0: (81, 1)})
    assert {s[1] for s in steps_from(st)} == {82}


def test_limits_exceeded_lose_control():
    st = game(S1, 1, {0: (7, 3)})
    over = [s for s in steps_from(st) if s[1] == 10 and s[2] > 1]  # inner lane limit 1
    assert over and all(s[3] == "ov" for s in over)
    assert R.loc_chance([over[0]], True) == 1.0


def test_slide_sideways_and_sliding_car_cannot_be_passed():
    st = game(S1, 1, {0: (5, 2)})
    ctx = R.start_ctx(st, 0)
    into = [c for s, c in R.next_steps(st, stage(S1), 0, ctx, {}) if s[1] == 6 and s[0] == "c"][0]
    side = [s for s in steps_from(st, ctx=into)]
    assert any(s[1] == 7 for s in side)  # along the dotted line
    st = game(S1, 2, {0: (6, 2), 1: (7, 2)})
    st["cars"][1]["side"] = True
    assert steps_from(st) == []  # behind a sliding car in the same row: no passing


def test_following_a_sliding_car_into_its_slide(monkeypatch):
    st = game(S1, 2, {0: (4, 2), 1: (7, 2)})
    st["cars"][1]["side"] = True
    assert 7 not in {s[1] for s in steps_from(st)}  # not onto it
    force(monkeypatch, faces=[[False]])
    st, _ = plan(st, 0, [["c", 6, 2, ""]])
    st, _ = E.apply(st, 0, {"type": "roll"})
    assert st["cars"][0]["sp"] == 6 and st["cars"][0]["side"] == "follow"  # in the slide the same way
    # and the car it follows is not held up by it
    st = game(S1, 2, {1: (7, 2), 0: (6, 2)}, actor=1)
    st["cars"][1]["side"] = True
    st["cars"][0]["side"] = "follow"
    assert steps_from(st, seat=1)


# ---- shortcuts, mud -----------------------------------------------------------------------------

S2 = "Rally2 SS3"  # 221b: corner 0 with shortcut 4 (space 11); 230b: corner 1 shortcut 6


def test_shortcut_gear_at_most_its_number_and_draws_a_token(monkeypatch):
    s = stage(S2)
    before = s.corners[0].before
    st = game(S2, 1, {0: (before[0], 4)})
    assert any(x[1] == 11 for x in steps_from(st))
    st = game(S2, 1, {0: (before[0], 5)})
    assert not any(x[1] == 11 and x[0] in ("c", "g6") for x in steps_from(st))
    st = game(S2, 1, {0: (before[0], 4)})
    force(monkeypatch, faces=[[False]], backs=["crash"], tokens=["mud"])
    st, _ = plan(st, 0, [["c", 11, 4, ""]])
    st, ev = E.apply(st, 0, {"type": "roll"})
    assert st["mud"] == {"0": 1}
    assert R.limit_at(st, s, 9) == 2 and R.limit_at(st, s, 10) == 1 and R.limit_at(st, s, 11) == 4


def test_shortcut_coast_token(monkeypatch):
    s = stage(S2)
    st = game(S2, 1, {0: (s.corners[0].before[0], 4)})
    force(monkeypatch, faces=[[False]], backs=["sisu"], tokens=["coast"])
    st, _ = plan(st, 0, [["c", 11, 4, ""]])
    st, _ = E.apply(st, 0, {"type": "roll"})
    assert st["cars"][0]["dmg"]["coast"] == 1


# ---- jumps and water ----------------------------------------------------------------------------

J = "Rally5 SS2"  # 205b: jump 4 on spaces 34/35


def _jump_setup(gear):
    s = stage(J)
    pre = [x.id for x in s.spaces if 34 in x.succ]
    return game(J, 1, {0: (pre[0], gear)}), s


def test_jump_lower_gear_is_a_normal_space():
    st, s = _jump_setup(2)
    assert any(x[1] == 34 and x[3] == "" for x in steps_from(st))


def test_jump_equal_gear_lands_one_further():
    st, s = _jump_setup(4)
    land = {x[1] for x in steps_from(st) if x[0] == "c"}
    assert 34 not in land and land == set(s.spaces[34].succ) | set(s.spaces[35].succ) & land
    assert all(x[3] == "eq" for x in steps_from(st) if x[0] == "c")


def test_jump_one_over_lands_two_further_and_bang_loses_control(monkeypatch):
    st, s = _jump_setup(5)
    two = {b for a in s.spaces[34].succ for b in s.spaces[a].succ}
    jumps = [x for x in steps_from(st) if x[0] == "c"]
    assert jumps and all(
        x[3] == "p1" and x[1] in two | {b for a in s.spaces[35].succ for b in s.spaces[a].succ} for x in jumps
    )
    force(monkeypatch, faces=[[True]], backs=["spin"])
    st, _ = plan(st, 0, [jumps[0]])
    st, _ = E.apply(st, 0, {"type": "roll"})
    car = st["cars"][0]
    assert car["sp"] == jumps[0][1] and car["gear"] == 0 and car["cards"][-1] == [5, 60, "spin"]


def test_jump_two_over_always_loses_control():
    st, s = _jump_setup(6)
    jumps = [x for x in steps_from(st) if x[0] == "c"]
    assert jumps and all(x[3] == "p2" for x in jumps)
    assert R.loc_chance([jumps[0]], True) == 1.0


def test_jump_cannot_land_on_a_car():
    st, s = _jump_setup(4)
    land = sorted({x[1] for x in steps_from(st) if x[0] == "c"})
    cars = {0: st["cars"][0]["sp"] and (st["cars"][0]["sp"], 4)}
    st2 = game(J, 3, {0: cars[0], 1: (land[0], 1), 2: (land[-1], 1)})
    assert not [x for x in steps_from(st2) if x[0] == "c" and x[3] == "eq"]


W = "Rally5 SS1"  # 208b: water on spaces 32/33


def test_water_needs_coast_or_gear_one():
    s = stage(W)
    pre = [x.id for x in s.spaces if 32 in x.succ][0]
    st = game(W, 1, {0: (pre, 2)})
    ctx = R.start_ctx(st, 0)
    by = {(a[0], a[1]): c for a, c in R.next_steps(st, s, 0, ctx, {})}
    assert not by[("c", 32)].done  # coast crosses
    assert not by[("g1", 32)].done  # gear 1 crosses
    assert by[("g3", 32)].done  # anything else: the turn ends there at once
    st = game(W, 1, {0: (pre, 3)})
    by = {(a[0], a[1]): c for a, c in R.next_steps(st, s, 0, R.start_ctx(st, 0), {})}
    assert by[("g1b", 32)].done  # gear 1 with the brake does not cross


# ---- rolling ------------------------------------------------------------------------------------


def _simple(st):
    return [["g1", 2, 1, ""], ["g2", 4, 2, ""], ["g3", 13 if False else 6, 3, ""]]


def test_roll_die_by_die_and_stop(monkeypatch):
    st = game(S1, 1, {0: (0, 0)})
    force(monkeypatch, faces=[[False], [True]], backs=["crash", "crash"])
    st, _ = plan(st, 0, [["g1", 2, 1, ""], ["g2", 4, 2, ""], ["g3", 6, 3, ""]])
    assert decisions(st, 0) == [{"type": "roll"}, {"type": "flat"}]
    with pytest.raises(GameError):
        E.apply(st, 0, {"type": "stop"})
    st, _ = E.apply(st, 0, {"type": "roll"})
    st, _ = E.apply(st, 0, {"type": "roll"})
    st, _ = E.apply(st, 0, {"type": "stop"})
    car = st["cars"][0]
    assert car["sp"] == 4 and car["gear"] == 2 and car["cards"] == [[2, 40, "time"]]


def test_three_bangs_lose_control_crash_damage(monkeypatch):
    st = game(S1, 2, {0: (13, 3), 1: (0, 0)})
    # gear 4, 5 then coast: "!" on each -> loss of control in gear 5 on the third
    force(monkeypatch, faces=[[True], [True], [True]], backs=["crash"], tokens=["gear", "brake", "flag"])
    s = stage(S1)
    st, _ = plan(st, 0, [["g4", 15, 4, ""], ["g5", 17, 5, ""], ["c", 19, 5, ""]])
    for _ in range(3):
        st, ev = E.apply(st, 0, {"type": "roll"})
    car = st["cars"][0]
    danger = s.spaces[19].danger
    n = R.crash_tokens(5, danger)
    assert car["cards"][-1] == [5, 60, "crash"] and car["gear"] == 0 and not car["track"]
    assert sum(car["dmg"].values()) == len([t for t in ["gear", "brake", "flag"][:n] if t != "flag"])


def test_crash_table_matches_seed():
    table = {1: (0, 0, 0), 2: (0, 0, 1), 3: (0, 1, 2), 4: (1, 2, 3), 5: (2, 3, 4), 6: (3, 4, 5)}
    for g, row in table.items():
        assert tuple(R.crash_tokens(g, d) for d in "yor") == row


def test_sisu_saves_and_spin_keeps_car_on_track(monkeypatch):
    st = game(S1, 1, {0: (13, 3)})
    force(monkeypatch, faces=[[True], [True], [True]], backs=["sisu"])
    st, _ = plan(st, 0, [["g4", 15, 4, ""], ["g5", 17, 5, ""], ["c", 19, 5, ""]])
    for _ in range(3):
        st, _ = E.apply(st, 0, {"type": "roll"})
    car = st["cars"][0]
    assert car["cards"][-1] == [5, 15, "sisu"] and car["gear"] == 5 and car["track"] and car["sp"] == 19


def test_secure_costs_one_two_three(monkeypatch):
    st = game(S1, 1, {0: (0, 0)})
    st["cars"][0]["chips"] = 10
    st, _ = (
        plan(st, 0, [["g1", 2, 1, ""], ["g2", 4, 2, ""], ["g3", 6, 3, ""], ["g4", 9 if False else 8, 4, ""]])
        if False
        else plan(st, 0, [["g1", 2, 1, ""], ["g2", 4, 2, ""], ["g3", 6, 3, ""]])
    )
    paid = []
    for _ in range(3):
        before = st["cars"][0]["chips"]
        st, _ = E.apply(st, 0, {"type": "secure"})
        paid.append(before - st["cars"][0]["chips"])
    assert paid == [1, 2, 3]
    assert st["cars"][0]["cards"] == [[3, 30, "time"]]


def test_secure_needs_chips():
    st = game(S1, 1, {0: (0, 0)})
    st, _ = plan(st, 0, [["g1", 2, 1, ""]])
    assert {"type": "secure"} not in E.legal_actions(st, 0)
    with pytest.raises(GameError):
        E.apply(st, 0, {"type": "secure"})


def test_flat_out_earns_seconds_for_gear_and_coast_dice(monkeypatch):
    st = game(S1, 1, {0: (13, 3)})
    force(monkeypatch, faces=[[False, False], [False], [False]])
    st, _ = plan(st, 0, [["g1b", 15, 1, ""], ["c", 17, 1, ""], ["c", 19, 1, ""]])
    st, _ = E.apply(st, 0, {"type": "flat"})
    car = st["cars"][0]
    assert car["chips"] == 3  # one gear die and two coast dice; the brake die earns nothing
    assert car["sp"] == 19 and car["cards"] == [[1, 50, "time"]]


def test_flat_out_three_bangs_rearranged_must_lose_control(monkeypatch):
    st = game(S1, 1, {0: (13, 3)})
    force(monkeypatch, faces=[[True], [True], [True]], backs=["crash"], tokens=["flag"] * 5)
    st, _ = plan(st, 0, [["g4", 15, 4, ""], ["g5", 17, 5, ""], ["g6", 19, 6, ""]])
    st, _ = E.apply(st, 0, {"type": "flat"})
    assert st["phase"] == "rearrange"
    opts = decisions(st, 0)
    assert opts
    s = stage(S1)
    for a in opts:  # every choice ends in a loss of control using only the rolled dice
        code = a["values"][0]
        assert code.count(":") // 2 == 3 or code.split(",")[-1].split(":")[2] in ("ov", "p2", "p1")
    st2, _ = E.apply(st, 0, opts[0])
    car = st2["cars"][0]
    assert car["cards"][-1][2] == "crash" and car["chips"] == 0
    # the least damaging choice comes first
    dmg = [
        R.crash_tokens(
            int(a["values"][0].split(",")[-1].split(":")[0][1:].rstrip("b") or 0),
            s.spaces[int(a["values"][0].split(",")[-1].split(":")[1])].danger,
        )
        for a in opts
    ]
    assert dmg == sorted(dmg)


def test_spare_tyre_at_gear_one(monkeypatch):
    st = game(S1, 1, {0: (13, 2)})
    st["cars"][0]["dmg"]["gear"] = 1
    st["cars"][0]["tokens"] = ["gear"]
    force(monkeypatch, faces=[[False]], backs=["crash"])
    st, _ = plan(st, 0, [["g1", 15, 1, ""]])
    st, _ = E.apply(st, 0, {"type": "roll"})
    assert st["phase"] == "spare"
    st, _ = E.apply(st, 0, {"type": "spare", "k": "gear"})
    car = st["cars"][0]
    assert car["dmg"]["gear"] == 0 and not car["spare"] and car["cards"][-1] == [0, 30, "spare"]
    assert car["gear"] == 0  # next turn from gear 0
    assert car["track"]  # back on the lane at the start of its next turn (solo: at once)


def test_finish_card_totals_and_shared_ties(monkeypatch):
    s = stage(S1)
    fin = [x.id for x in s.spaces if x.finish]
    pre = [x.id for x in s.spaces if fin[0] in x.succ]
    st = game(S1, 2, {0: (pre[0], 3), 1: (pre[1], 3)})
    force(monkeypatch, faces=[[False], [False]], backs=["crash", "crash"])
    st["cars"][0]["cards"] = [[1, 50, "time"]]
    st["cars"][1]["cards"] = [[2, 40, "time"]]
    st["cars"][1]["chips"] = 10
    st, _ = plan(st, 0, [["g4", fin[0], 4, ""]])
    st, _ = E.apply(st, 0, {"type": "roll"})
    st, _ = plan(st, 1, [["g4", fin[1], 4, ""]])
    st, ev = E.apply(st, 1, {"type": "roll"})
    assert E.is_over(st)
    assert st["result"]["totals"] == [70, 50]  # 50+20 ; 40+20-10
    st2 = game(S1, 2, {0: (pre[0], 3), 1: (pre[1], 3)})
    force(monkeypatch, faces=[[False], [False]], backs=["crash", "crash"])
    st2, _ = plan(st2, 0, [["g4", fin[0], 4, ""]])
    st2, _ = E.apply(st2, 0, {"type": "roll"})
    st2, _ = plan(st2, 1, [["g4", fin[1], 4, ""]])
    st2, _ = E.apply(st2, 1, {"type": "roll"})
    assert st2["result"]["places"] == [1, 1]  # ties shared


def test_illegal_actions_rejected():
    st = game(S1, 2, {0: (0, 0), 1: (1, 0)})
    with pytest.raises(GameError):
        E.apply(st, 1, {"type": "plan", "values": ["g1:2:"]})  # not your turn
    with pytest.raises(GameError):
        E.apply(st, 0, {"type": "plan", "values": ["g2:2:"]})  # gear 0 -> 2
    with pytest.raises(GameError):
        E.apply(st, 0, {"type": "plan", "values": ["junk"]})
    with pytest.raises(GameError):
        E.apply(st, 0, {"type": "roll"})


def test_odds_shown_before_each_roll():
    st = game(S1, 1, {0: (13, 3)})
    steps = [["g4", 15, 4, ""], ["g5", 17, 5, ""], ["g6", 19, 6, ""]]
    st, _ = plan(st, 0, steps)
    v = E.view(st, None)
    assert v["chance_flat"] == pytest.approx((2 / 6) ** 3)
    assert v["chance_next"] == 0.0  # one die cannot show three "!"
    labels = [b["label"] for b in E.menu(st, 0)[0]["options"]]
    assert labels[0].params["chance"] == "0%" and labels[-1].params["chance"] == "4%"
    st["roll"]["bangs"] = 2
    assert E.view(st, None)["chance_next"] == pytest.approx(2 / 6)


def test_plan_select_offers_whole_plans_with_exact_odds():
    st = game(S1, 1, {0: (0, 0)})
    menu = E.menu(st, 0)
    sel = menu[0]
    assert sel["kind"] == "select" and 1 <= len(sel["options"]) <= 25
    for o in sel["options"]:
        steps, _ = R.match_steps(st, stage(S1), 0, o["value"])
        assert (
            o["label"].params["risk"] == f"{R.loc_chance(steps, True) * 100:.0f}%" or o["label"].params["risk"] == "<1%"
        )
