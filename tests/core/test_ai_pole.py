"""Issue #34: Pole Position's race plan (bot/ai/pole.py) keeps the rules a good player keeps
across a race: the one stop the rules demand before the tyres wear out, the tyres that last the
laps left, EP and BP one at a time, rerolls only on low rolls, and each move ended where the next
turn goes furthest (the lane of the next corner's double arrow)."""

from __future__ import annotations

import random

from bot.ai import pole as plan
from bot.ai import search
from bot.games.pole import rules as R
from bot.games.pole.content import circuits, rules
from bot.games.registry import engines

ENGINE = engines()["pole"]
MONACO = circuits()["monaco"]


def rivals(seed: int = 7) -> dict:
    return ENGINE.new_game(ENGINE.validate_options({"circuit": "monaco", "bots": 3}, 1), 1, seed)


def turn(seed: int = 7, after_round: int = 4) -> dict:
    """A dry race on Monaco with seat 0 to move (its die rolled), past the start's rounds."""
    state = rivals(seed)
    for _ in range(2000):
        t = state.get("turn")
        if (
            state["phase"] == "race"
            and state["round"] > after_round
            and t
            and t["stage"] == "move"
            and t["seat"] == 0
            and t["die"] != "purple"
            and t["opts"]
        ):
            return state
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.auto_action(state, seat))
    raise AssertionError("no turn of seat 0")


def weather(state: dict, kind: str) -> dict:
    """The weather set to `kind`, grid B on its first space: 5 clouds before grid A moves on."""
    state["weather"] = {"a": next(i for i, w in enumerate(MONACO.weather_a) if w == kind), "b": 1}
    return state


def dry(state: dict) -> dict:
    return weather(state, "dry")


def test_the_one_stop_comes_before_the_tyres_wear_below_zero():
    # 3.3: every car stops once before its last lap; 6.2: at -1 every roll loses 1 (the track has
    # no 0: after 1 comes -1). Softs (life 2) run two clean laps: the stop is on the second.
    state = dry(turn())
    car = state["cars"][0]
    assert plan.coming_weather(state) == "dry"
    car.update(tyre="soft", pitted=False, laps=1, life=1)
    assert plan.wants_pit(state, 0)
    car.update(laps=0, life=2)
    assert not plan.wants_pit(state, 0)
    car.update(tyre="hard", laps=4, life=1)  # hards still at 1 on lap 5 of 6: the last lap to stop
    assert plan.wants_pit(state, 0)
    car.update(laps=5, life=-1)  # the last lap: the flag first
    assert not plan.wants_pit(state, 0)


def test_a_second_stop_only_when_the_wear_to_come_costs_more_than_a_stop():
    state = dry(turn())
    car = state["cars"][0]
    assert plan.coming_weather(state) == "dry"
    car.update(tyre="soft", pitted=True, laps=4, life=-1)  # 2 laps at -2: 2 x 2 + a blow-out risk
    assert plan.wants_pit(state, 0)
    car.update(tyre="hard", laps=4, life=1)  # the last lap at -1: about 8 cells, less than a stop
    assert not plan.wants_pit(state, 0)
    car.update(tyre="hard", laps=3, life=4)
    assert not plan.wants_pit(state, 0)


def test_the_wear_counts_only_until_the_weather_makes_the_set_wrong():
    # 8.1: a cloud moves grid B on, from its last space grid A; Monaco's light rain is followed
    # by dry weather, which calls the inters in anyway (17.2): their wear after it costs nothing.
    state = weather(turn(), "light")
    car = state["cars"][0]
    car.update(tyre="inter", pitted=True, laps=2, life=1)  # three laps to go: -1, -2, -2 to the flag
    assert plan.coming_weather(state) == "light"  # 5 clouds to the dry: about a lap
    assert plan.laps_to_change(state, 0) == 1
    assert not plan.wants_pit(state, 0)  # a lap at -1 before the dry, less than a stop
    car.update(life=-1)
    assert plan.wants_pit(state, 0)  # a lap at -2 (and its blow-out) costs more than a stop
    car.update(tyre="hard", life=1)  # a set the dry weather to come keeps: nothing to wait for
    assert plan.laps_to_change(state, 0) == 99


def test_the_stop_fits_the_tyres_that_last_the_laps_left():
    state = dry(turn())
    car = state["cars"][0]
    car["sets"] = {"soft": [2], "hard": [4], "inter": [3, 3], "wet": [3]}
    assert plan.coming_weather(state) == "dry"
    car["laps"] = 2  # 4 laps left: softs would run two of them worn
    assert plan.best_tyre(state, 0, ["soft", "hard", "inter", "wet"]) == "hard"
    car["laps"] = 4  # 2 laps left: the softs' two clean laps
    assert plan.best_tyre(state, 0, ["soft", "hard", "inter", "wet"]) == "soft"


def test_the_first_tyres_are_the_longest_lived_right_for_the_weather():
    state = dry(rivals())
    assert plan.start_tyre(state, ["soft", "hard", "inter", "wet"]) == "hard"
    assert plan.start_tyre(state, ["soft", "inter", "wet"]) == "soft"
    weather(state, "light")
    assert plan.start_tyre(state, ["soft", "hard", "inter", "wet"]) == "inter"


def test_rain_calls_the_car_in_for_rain_tyres():
    # 4.6: a dry tyre in the rain leaves the track on high rolls; 17.2: inters are right in light rain.
    state = weather(turn(), "light")
    car = state["cars"][0]
    car.update(tyre="hard", pitted=True, laps=2, life=4)  # no wear to speak of: the rain calls it in
    assert plan.wants_pit(state, 0)
    car["sets"] = {"soft": [], "hard": [4], "inter": [3, 3], "wet": [3]}
    assert plan.best_tyre(state, 0, ["hard", "inter", "wet"]) == "inter"
    car.update(tyre="inter", life=3)
    assert not plan.wants_pit(state, 0)


def test_a_reroll_only_on_the_lowest_two_faces_and_with_an_sp():
    state = dry(turn())
    t, car = state["turn"], state["cars"][0]
    faces = sorted(int(f) for f in rules()["dice"][t["die"]])
    car["sp"] = 3
    t["rolls"], t["use"] = [faces[1]], 0
    assert plan.wants_reroll(state, 0)
    t["rolls"] = [faces[2]]
    assert not plan.wants_reroll(state, 0)
    t["rolls"], car["sp"] = [faces[0]], 0
    assert not plan.wants_reroll(state, 0)


def test_no_reroll_of_a_roll_that_keeps_the_track_in_the_rain():
    # 4.6 A: hard tyres in light rain leave the track on a raw 8 or more; a 6 or 7 keeps it, a
    # reroll would leave it two times in three (or cost SP to stay on, 4.6.1).
    state = weather(turn(), "light")
    t, car = state["turn"], state["cars"][0]
    car.update(tyre="hard", sp=5)
    t.update(die="white", rolls=[6], use=0, reduce=0)
    assert not plan.wants_reroll(state, 0)
    dry(state)
    assert plan.wants_reroll(state, 0)
    weather(state, "light")
    car["tyre"] = "inter"  # right for the rain: no course-out, the low roll rerolled
    t["die"], t["rolls"] = "green", [4]
    assert plan.wants_reroll(state, 0)


def test_qualifying_rolls_again_unless_a_six():
    state = rivals()
    options = [{"type": "quali", "reroll": False}, {"type": "quali", "reroll": True}]
    state["quali"]["first"]["0"] = 6
    assert plan.allowed(state, 0, options) == [options[0]]
    state["quali"]["first"]["0"] = 5
    assert plan.allowed(state, 0, options) == [options[1]]


def test_no_second_boost_or_brake_in_a_turn_before_the_last_lap():
    # 4.4, 4.5: a second boost (or brake) in a turn costs 2 more points for 3 more cells.
    state = turn()
    assert not plan.affordable(state, 0, {"ep": 3, "bp": 0, "sp": 0})
    assert not plan.affordable(state, 0, {"ep": 0, "bp": 3, "sp": 0})
    assert plan.affordable(state, 0, {"ep": 1, "bp": 1, "sp": 0})
    state["cars"][0]["laps"] = MONACO.laps - 1
    assert plan.affordable(state, 0, {"ep": 3, "bp": 3, "sp": 0})


def test_a_corner_spends_only_the_sp_beyond_three_before_the_last_lap():
    # 4.2: an SP buys a corner one cell; kept, it buys a reroll (4.1), a position fight (5.1) or a
    # dry tyre's roll in a shower (4.6.1).
    state = turn()
    car = state["cars"][0]
    state["turn"]["reduce"] = 0
    car.update(laps=1, sp=5)
    assert plan.affordable(state, 0, {"ep": 0, "bp": 0, "sp": 2})  # 3 left
    assert not plan.affordable(state, 0, {"ep": 0, "bp": 0, "sp": 3})
    assert plan.affordable(state, 0, {"ep": 1, "bp": 0, "sp": 0})  # a move with no corner SP
    state["turn"]["reduce"] = 1  # an SP already spent on the roll this turn (4.6.1)
    assert not plan.affordable(state, 0, {"ep": 0, "bp": 0, "sp": 2})
    car["laps"] = MONACO.laps - 1  # the last lap: nothing left to keep them for
    assert plan.affordable(state, 0, {"ep": 0, "bp": 0, "sp": 3})


def test_a_move_ends_in_the_lane_of_the_next_double_arrow():
    # 4.2.1: through the double arrow the car takes the racing line (shaded cell to shaded cell for
    # 1 MP); a straight allows no diagonal (4.3), so the lane before the arrow counts.
    state = turn()
    corner = MONACO.corners[1]
    row, lane = corner.arrow
    other = 1 - lane if lane in (0, 1) else 1
    laps = state["cars"][0]["laps"]

    def option(ln: int) -> dict:
        pos = ["t", row - 2, ln]
        return {
            "kind": "end",
            "pos": pos,
            "prog": R.prog(MONACO, laps, pos),
            "ms": {"pos": pos, "laps": laps, "line": []},
        }

    for s, car in enumerate(state["cars"]):
        if s:
            car["pos"] = ["t", 70, 2]  # out of the way
    assert plan.reach(state, 0, option(lane)) > plan.reach(state, 0, option(other))


def test_the_strong_seat_stops_on_its_stop_lap():
    # A whole seeded race: the strong seat stops exactly when its tyres would wear below 0 or
    # the last lap to stop comes, and never retires for want of a stop.
    state = rivals(11)
    rng = random.Random(11)
    stops = 0
    while not ENGINE.is_over(state):
        seat = ENGINE.to_act(state)[0]
        action = search.choose(ENGINE, state, seat, "strong", rng.getrandbits(63))
        before = state["cars"][0]["pitted"]
        state, _ = ENGINE.apply(state, seat, action)
        stops += state["cars"][0]["pitted"] and not before
    assert stops == 1
    assert state["cars"][0]["out"] is None


def test_on_its_stop_lap_a_move_ends_short_of_the_pit_entry_out_of_reach():
    # 3.3: a car that has not stopped when its last lap begins is out. With the pit out of reach
    # this turn, the furthest cell past the pit entry passed the stop for the lap (normal's one
    # race in 60 retired so).
    state = dry(turn())
    car = state["cars"][0]
    car.update(tyre="hard", pitted=False, laps=MONACO.laps - 2, life=1)
    assert plan.wants_pit(state, 0)
    entry = plan.pit_entry(state, 0)

    def option(prog: float) -> dict:
        return {"kind": "end", "pos": ["t", 0, 0], "prog": prog, "ep": 0, "bp": 0, "sp": 0}

    state["turn"]["opts"] = [option(entry + 2), option(entry - 3)]
    moves = [{"type": "move", "i": 0}, {"type": "move", "i": 1}]
    assert plan.allowed(state, 0, moves, "normal") == [moves[1]]
    car.update(pitted=True, life=4)  # no stop wanted: the furthest
    assert plan.allowed(state, 0, moves, "normal") == [moves[0]]


def test_the_flag_when_it_is_in_reach():
    # 3.4: the order of crossing the line decides; a move short of it whose next turn reaches past it
    # is worth nothing more (a strong seat once moved sideways on the last row for ever).
    state = turn()
    flag = {"kind": "finish", "pos": ["t", 0, 0], "prog": 456, "ep": 0, "bp": 0, "sp": 0}
    last = MONACO.laps - 1
    state["cars"][0]["laps"] = last
    for s, car in enumerate(state["cars"]):
        if s:
            car["pos"] = ["t", 40, 2]  # out of the way
    here = ["t", 75, 1]
    side = {
        "kind": "end",
        "pos": here,
        "prog": 455,
        "ep": 0,
        "bp": 0,
        "sp": 0,
        "ms": {"pos": here, "laps": last, "line": []},
    }
    state["turn"]["opts"] = [side, flag]
    moves = [{"type": "move", "i": 0}, {"type": "move", "i": 1}]
    assert plan.allowed(state, 0, moves, "strong") == [moves[1]]
    assert plan.allowed(state, 0, moves, "normal") == [moves[1]]


def test_a_move_goes_forward_when_it_can():
    # A move that only changes lane, chosen turn after turn, never ends the race.
    state = turn()
    car = state["cars"][0]
    here = R.prog(MONACO, car["laps"], car["pos"])
    side = {"kind": "end", "pos": car["pos"], "prog": here, "ep": 0, "bp": 0, "sp": 0}
    on = {"kind": "end", "pos": car["pos"], "prog": here + 1, "ep": 0, "bp": 0, "sp": 0}
    state["turn"]["opts"] = [side, on]
    moves = [{"type": "move", "i": 0}, {"type": "move", "i": 1}]
    assert plan.allowed(state, 0, moves, "normal") == [moves[1]]
