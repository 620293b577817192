"""The seed's worked examples of sections 2-7, on the pure rules."""

import pytest

from bot.games.pole import rules as R
from bot.games.pole.content import circuits
from bot.games.pole import driving as DRIVE
from tests.pole.helpers import circuit, ctx, ends, ms


# ---- 2.4 / 8.1 weather
def test_weather_setup_example_3_4_2():
    w = R.weather_setup([3, 4, 2], 6)
    assert w == {"a": 3 * 6 + 2, "b": 2}  # column 3, row 4; grid B space 2


def test_weather_cloud_moves_b_then_a_wraps():
    assert R.weather_advance({"a": 5, "b": 3}, 6) == ({"a": 5, "b": 4}, False)
    # from B's last space: back to 1, and A moves one space right (8.1 example)
    assert R.weather_advance({"a": 5, "b": 6}, 6) == ({"a": 6, "b": 1}, True)
    assert R.weather_advance({"a": 35, "b": 5}, 5) == ({"a": 0, "b": 1}, True)  # last -> first


# ---- 3.1 qualifying
def test_q1_example_red_rerolls_and_blue_drops_out():
    first = {"red": 2, "blue": 3, "green": 4, "orange": 4, "yellow": 5, "purple": 6}
    assert R.quali_best(first["red"], [1, 5]) == 5
    scores = dict(first, red=5)
    seats = {k: i for i, k in enumerate(first)}
    order = R.quali_order({seats[k]: v for k, v in scores.items()}, {})
    assert order[-1] == seats["blue"]


def test_sessions_by_car_count():
    assert R.quali_sessions(6) == ["Q1", "Q2", "Q3"]
    assert R.quali_sessions(5) == ["Q2", "Q3"]
    assert R.quali_sessions(4) == ["Q3"] and R.quali_sessions(2) == ["Q3"]


def test_q3_tie_goes_to_the_higher_roll():
    # green and yellow tie; yellow rolls higher and takes P2 (3.1.3)
    order = R.quali_order({0: 6, 1: 4, 2: 4, 3: 3}, {1: 2, 2: 5})
    assert order == [0, 2, 1, 3]


# ---- 4.4 / 4.5 boost and brake costs
def test_two_boosts_cost_three_points():
    assert R.extra_cost(3, 3) == 1 and R.extra_cost(4, 3) == 3 and R.extra_cost(6, 3) == 3
    assert R.extra_cost(2, 2) == 1 and R.extra_cost(3, 2) == 3  # rain: 2 cells per use


def test_brake_zone():
    c = circuit()
    arrow = c.corners[0].arrow[0]  # row 19
    assert all(R.brake_ok_at(c, arrow - d) for d in range(4))
    assert not R.brake_ok_at(c, arrow - 4)
    assert not R.brake_ok_at(c, c.corners[0].first + 2)  # inside a corner: no


def test_braking_example_11_mp_then_boost_then_brake():
    """4.5: 11 MP, then 1 EP for 3 more cells, ends 2 cells before the double arrow, then
    1 BP for 3 more cells."""
    c = circuit()
    arrow = c.corners[0].arrow  # (19, 0)
    start = arrow[0] - 2 - 3 - 11  # row 3
    opts = R.search(ctx(c), ms(start, 0), 11, 8)
    got = ends(opts)
    # 11 tyre + 3 boost + 3 brake (the last brake cell is the corner's first row)
    assert got[(arrow[0] + 1, 0)] == (1, 1, 0) or got[(arrow[0] + 1, 1)] == (1, 1, 0)
    assert (arrow[0] - 2, 0) in got and got[(arrow[0] - 2, 0)][1] == 0


def test_no_boost_or_brake_in_the_start_rounds():
    c = circuit()
    got = ends(R.search(ctx(c, start_round=True), ms(0, 0), 4, 1))
    assert all(v[:2] == (0, 0) for v in got.values())


# ---- 4.2 corners, 4.2.1 racing line, 4.2.2 technical corners
def _cost_to_exit(c, line_taken, technical=False):
    co = c.corners[0]
    exit_row = co.last + 1
    if line_taken:
        st = ms(co.arrow[0], co.arrow[1])
        st = R.MState(st.pos, 0, 0, 0, 0, 0, 0, (co.index, True), -1)
    else:  # entered the corner (one move from the straight) without passing the double arrow
        st = R.MState(("t", co.first, 2), 0, 0, 0, 0, 0, 0, (co.index, False), -1)
    for n in range(1, 20):
        got = ends(R.search(ctx(c, sp=0, ep=0, bp=0), st, n, n))
        if any(r == exit_row for r, _ in got):
            return n if line_taken else n + 1
    return None


def test_racing_line_example_5_mp_instead_of_12():
    c = circuit()
    assert _cost_to_exit(c, True) == 5
    assert _cost_to_exit(c, False) == 12


def test_line_taken_by_passing_the_arrow_cell():
    c = circuit()
    co = c.corners[0]
    # from two rows before, straight into the arrow cell then along the line
    got = ends(R.search(ctx(c, sp=0), ms(co.arrow[0] - 2, co.arrow[1]), 7, 7))
    assert (co.last + 1, 0) in got or any(r == co.last + 1 for r, _ in got)


def test_a_car_between_shaded_cells_blocks_the_jump():
    c = circuit()
    co = c.corners[0]
    st = R.MState(("t",) + co.arrow, 0, 0, 0, 0, 0, 0, (co.index, True), -1)
    free = R.search(ctx(c, sp=0), st, 1, 1)
    assert any(o.state.pos == ("t",) + co.line[0] for o in free)
    blocker = [(5, 0, ("t", co.first, 1), 0)]  # on a row between the arrow and the first shaded cell
    c2 = circuit(line=[[2, 1], [4, 2], [7, 2], [10, 0]])
    co2 = c2.corners[0]
    st2 = R.MState(("t",) + co2.arrow, 0, 0, 0, 0, 0, 0, (co2.index, True), -1)
    blocked = R.search(ctx(c2, others=blocker, sp=0), st2, 1, 1)
    assert not any(o.state.pos == ("t",) + co2.line[0] for o in blocked)


def test_technical_corner_line_lost_for_good():
    c = circuit(technical=True)
    co = c.corners[0]
    on = R.MState(("t",) + co.line[0], 0, 1, 0, 0, 0, 0, (co.index, True), -1)
    # leave the line to an unshaded cell, then step onto a shaded one: no more jumps
    off = R.line_after(ctx(c), on, ("t", co.line[0][0] + 1, 0), False)
    assert off == (co.index, False)
    back = R.MState(("t",) + co.line[1], 0, 1, 0, 0, 0, 0, off, -1)
    assert R.line_after(ctx(c), back, ("t",) + co.line[1], False) == (co.index, False)
    # a normal corner: back on a shaded cell, the line is usable again
    cn = circuit(technical=False)
    assert R.line_after(ctx(cn), on, ("t", co.line[0][0] + 1, 0), False) == (co.index, True)


def test_corner_sp_at_most_3_dry_2_rain():
    c = circuit()
    co = c.corners[0]
    st = ms(co.arrow[0], 2)  # no line: each corner cell costs 1
    dry = ends(R.search(ctx(c, ep=0, bp=0), st, 0, 0))
    assert max(r for r, _ in dry) == co.first + 2  # 3 SP = 3 corner cells
    wet = ends(R.search(ctx(c, rain=True, ep=0, bp=0), st, 0, 0))
    assert max(r for r, _ in wet) == co.first + 1


def test_straights_forward_or_sideways_only():
    c = circuit()
    got = ends(R.search(ctx(c, sp=0, ep=0, bp=0), ms(5, 0), 1, 1))
    assert set(got) == {(6, 0), (5, 1)}


def test_start_rounds_allow_diagonals_before_the_first_corner():
    c = circuit()
    got = ends(R.search(ctx(c, start_round=True, sp=0), ms(5, 0), 1, 1))
    assert (6, 1) in got


# ---- 3.3 the position track
def test_corner_order_by_cells_left_then_outer_lane():
    c = circuit()  # corner 0 turns right: lane 0 is the outer lane
    co = c.corners[0]
    row = co.last - 2  # 3 cells left to the straight
    yellow, blue = ["t", row, 0], ["t", row, 1]
    ky = R.order_key(c, {"laps": 0, "pos": yellow})
    kb = R.order_key(c, {"laps": 0, "pos": blue})
    assert ky > kb  # same cells left; yellow outermost: ahead


def test_straight_tie_keeps_previous_order():
    c = circuit()
    assert R.order_key(c, {"laps": 0, "pos": ["t", 8, 0]}) == R.order_key(c, {"laps": 0, "pos": ["t", 8, 2]})


def test_pit_cars_are_passed_at_the_line():
    c = circuit()
    pit = R.prog(c, 1, ["pit"])  # a car that pitted at the end of lap 1
    assert R.prog(c, 0, ["t", c.length - 1, 0]) < pit < R.prog(c, 1, ["t", 0, 0])
    assert R.prog(c, 0, ["pin", 0]) == pit


# ---- 4.6 course-out
def test_course_out_examples():
    assert R.course_out_limit("soft", "light") == 9  # ex. 1
    assert R.course_out_limit("hard", "heavy") == 7  # ex. 2
    assert R.course_out_limit("soft", "dry") is None
    assert R.sp_to_stay(9, "soft", "light") == 1  # ex. 4 B: 9 -> 8 stays on
    assert R.sp_to_stay(10, "hard", "light") == 3  # 4.6.1: 10 -> 7
    # ex. 4: 8 in a low-grip area is checked, 7 is not
    assert R.low_grip_limit("soft", "light") == 8


# ---- 5.1 the auction
def test_auction_example_green_wins_paying_2():
    # green (attacker) 2 + 1 (3 unused MP) = 3 vs yellow 4; green bids 2, yellow passes
    assert R.unused_mp_modifier(3) == 1 and R.unused_mp_modifier(1) == 0
    res = R.settle_auction(3, 4, att_max=5, dfn_max=0)
    assert res.attacker_wins and res.attacker_pays == 2 and res.defender_pays == 0


def test_auction_tie_goes_to_the_defender():
    # had yellow bid 1: 5 vs 5, the defender wins; green with no more to give passes
    res = R.settle_auction(3, 4, att_max=2, dfn_max=1)
    assert not res.attacker_wins and res.defender_pays == 1 and res.attacker_pays == 0


@pytest.mark.parametrize(
    "a,d,ma,md", [(a, d, ma, md) for a in range(1, 8) for d in range(0, 7) for ma in range(0, 5) for md in range(0, 5)]
)
def test_auction_equals_the_open_bidding(a, d, ma, md):
    """Simulate the open auction with minimal raises; the settlement must agree."""
    ba = bd = 0
    while True:
        if a + ba <= d + bd:  # attacker losing
            need = d + bd + 1 - a
            if need > ma:
                win, pa, pd = False, 0, bd
                break
            ba = need
        else:  # defender losing
            need = a + ba - d
            if need > md:
                win, pa, pd = True, ba, 0
                break
            bd = need
    res = R.settle_auction(a, d, ma, md)
    assert (res.attacker_wins, res.attacker_pays, res.defender_pays) == (win, pa, pd)


# ---- 5.2 / 5.3 / 5.4 overtakes
def _fights(opts):
    return {o.defenders for o in opts if o.kind == "fight"}


def test_overtake_adjacent_lane_needs_a_fight_outer_to_outer_does_not():
    c = circuit()
    defender = [(1, 0, ("t", 8, 1), 0)]
    opts = R.search(ctx(c, others=defender, sp=0, ep=0, bp=0), ms(5, 0), 6, 6)
    assert (1,) in _fights(opts)  # case 1: adjacent lane
    other = [(1, 0, ("t", 8, 2), 0)]
    opts2 = R.search(ctx(c, others=other, sp=0, ep=0, bp=0), ms(5, 0), 6, 6)
    assert (11, 0) in ends(opts2)  # case 2: past it in lane 0, the lane between empty: no fight
    assert all(o.state.pos[2] == 1 for o in opts2 if o.kind == "fight")  # only from beside it


def test_fight_happens_alongside_with_mp_left():
    c = circuit()
    defender = [(1, 0, ("t", 8, 1), 0)]
    opts = R.search(ctx(c, others=defender, sp=0, ep=0, bp=0), ms(5, 0), 6, 6)
    f = [o for o in opts if o.kind == "fight"]
    assert f and all(o.state.pos[1] == 8 for o in f)  # stopped alongside, before passing
    assert all(o.state.t < 6 for o in f)


def test_slipstream_diagonal_behind_a_car():
    c = circuit()
    defender = [(1, 0, ("t", 8, 0), 0)]
    opts = R.search(ctx(c, others=defender, sp=0, ep=0, bp=0), ms(5, 0), 3, 3)
    # 6, 7 (right behind), then diagonally alongside to (8, 1)
    assert (8, 1) in ends(opts)


def test_several_at_once():
    c = circuit()
    # A: defenders side by side in lanes 1 and 2, attacker in lane 0: one fight, passes both
    two = [(1, 0, ("t", 8, 1), 0), (2, 0, ("t", 8, 2), 0)]
    opts = R.search(ctx(c, others=two, sp=0, ep=0, bp=0), ms(5, 0), 6, 6)
    f = [o for o in opts if o.kind == "fight"]
    assert {o.defenders for o in f} == {(1,)} and all(2 in o.free for o in f)
    # B: attacker in the centre lane between two cars: fights both, the rear one first
    sides = [(1, 0, ("t", 8, 0), 0), (2, 0, ("t", 8, 2), 0)]
    opts = R.search(ctx(c, others=sides, sp=0, ep=0, bp=0, ahead=()), ms(5, 1), 6, 6)
    f = [o for o in opts if o.kind == "fight" and len(o.defenders) == 2]
    assert f


def test_corner_case_2_stop_beside_the_defender():
    """5.3 case 2: the attacker stops on the cell beside the defender (not beyond it) and the
    fight decides whether it goes on."""
    c = circuit()
    co = c.corners[0]
    row = co.first + 3
    defender = [(1, 0, ("t", row, 1), 0)]  # inside; the attacker comes on the outer lane 0
    st = ms(row - 2, 0, line=(co.index, False))
    opts = R.search(ctx(c, others=defender, sp=0, ep=0, bp=0), st, 4, 4)
    f = [o for o in opts if o.kind == "fight"]
    assert any(o.state.pos == ("t", row, 0) and o.step.pos[1] == row + 1 for o in f)
    assert all(r <= row for r, _ in ends(opts))


def test_start_rounds_overtake_without_fights():
    c = circuit()
    defender = [(1, 0, ("t", 8, 1), 0)]
    opts = R.search(ctx(c, others=defender, start_round=True, sp=0), ms(5, 0), 6, 6)
    assert not _fights(opts) and any(r > 8 for r, _ in ends(opts))


# ---- 6 tyres
def test_tyre_wear_examples():
    # 6.1: hard (4), two crossings and a pit stop -> 1
    life = 4
    for _ in range(3):
        life = R.wear(life, "hard", "dry")
    assert life == 1
    assert R.wear(2, "soft", "dry") == 1  # 7.1 example: soft 2 -> 1 at the stop
    assert R.wear(3, "inter", "dry") == 1  # dry weather on intermediates: 2 per crossing
    assert R.tyre_penalty(-1) == 1 and R.tyre_penalty(-2) == 2 and R.tyre_penalty(1) == 0
    assert R.wear(-2, "soft", "dry") == -2


def test_real_circuits_have_reachable_moves_everywhere():
    for c in circuits().values():
        for row in range(0, c.length, 7):
            lane = c.rows[row].lanes[0]
            assert ends(R.search(ctx(c, sp=0, ep=0, bp=0), ms(row, lane, laps=1), 6, 3)), (c.key, row)


def test_corner_case_3_leave_the_line_to_fight_a_car_on_it():
    """5.3 case 3: the next shaded cell is taken; the attacker leaves the line, comes alongside
    and fights; winning, it rejoins the line on a later shaded cell."""
    c = circuit()
    co = c.corners[0]
    blocker_cell = co.line[1]  # (24, 2)
    others = [(1, 0, ("t",) + blocker_cell, 0)]
    st = R.MState(("t",) + co.line[0], 0, 1, 0, 0, 0, 0, (co.index, True), -1)
    opts = R.search(ctx(c, others=others, sp=0, ep=0, bp=0), st, 6, 6)
    jumps = [o for o in opts if o.kind == "end" and o.state.pos == ("t",) + co.line[2]]
    assert not jumps or all(o.path[1] != ("t",) + co.line[2] for o in jumps)  # no jump over it
    fights = [o for o in opts if o.kind == "fight" and o.defenders == (1,)]
    assert any(o.state.pos[1] == blocker_cell[0] and o.state.pos[2] == 1 for o in fights)
    # after the pass (a normal corner) the car may get back on the line and jump again
    f = next(o for o in fights if o.state.pos[1] == blocker_cell[0])
    after = R.search(ctx(c, others=others, sp=0, ep=0, bp=0), f.step, 7, 4, frozenset({1}))
    assert any(o.state.pos == ("t",) + co.line[3] for o in after if o.kind == "end")


def test_extra_cells_left_unspent_are_lost_when_the_tyre_count_starts():
    c = circuit()
    co = c.corners[0]
    # one boost cell already used before the tyre MP, standing on the double arrow (the corner
    # ahead takes no boost): the other two cells of that use cannot wait for after the tyre MP
    st = R.MState(("t",) + co.arrow, 0, 0, 0, 1, 0, 0, (co.index, True), -1)
    got = ends(R.search(ctx(c, sp=0, bp=0, ep=1), st, 12, 12))
    assert max(r for r, _ in got) == co.last + 8  # 4 MP on the line, 8 more: no boost left


def test_a_slide_onto_the_last_lap_without_a_stop_is_out():
    """3.3 applies to every way of crossing the line: going off the track and sliding over it too."""
    from bot.games.pole import ENGINE
    from bot.games.pole.content import circuits as all_circuits

    st = ENGINE.new_game({"circuit": "monaco"}, 2, 1)
    c = all_circuits()["monaco"]
    car = st["cars"][0]
    last_row = len(c.rows) - 1
    car.update(
        pos=["t", last_row - 1, c.rows[last_row - 1].lanes[0]], laps=c.laps - 2, pitted=False, tyre="hard", life=5
    )
    st["cars"][1].update(pos=["t", 10, c.rows[10].lanes[0]], laps=0)
    ev = []
    DRIVE.go_off(st, ev, 0)
    assert car["laps"] == c.laps - 1 and car["out"] == "no_stop"
    car.update(pos=["t", last_row - 1, c.rows[last_row - 1].lanes[0]], laps=c.laps - 2, pitted=True, out=None)
    DRIVE.go_off(st, ev, 0)
    assert car["out"] is None  # with its stop made it races on


def test_lowering_the_roll_is_offered_only_where_it_can_help():
    """4.6.1: SP lower the roll to stay on the track (or, example 4, to dodge the low-grip check);
    where neither can happen (Monaco has no low-grip area) the option would only waste SP."""
    import random

    from bot.games.pole import ENGINE
    from tests.pole.helpers import policy

    rnd = random.Random(4)
    st = ENGINE.new_game({"circuit": "monaco"}, 3, 4)
    checked = 0
    while not ENGINE.is_over(st):
        seat = rnd.choice(ENGINE.to_act(st))
        t = st.get("turn")
        if st["phase"] == "race" and t and t["stage"] == "move" and t["ms"] is None and not DRIVE.course_out_due(st):
            assert not [a for a in ENGINE.legal_actions(st, seat) if a["type"] == "reduce"]
            checked += 1
        st, _ = ENGINE.apply(st, seat, policy(st, seat, rnd))
    assert checked > 20
