"""Issue #34: the AI's Heat racer (bot/ai/heat.py) drives like a player who knows the rules: Stress
cards flip unknown speed into a corner, Heat in the Engine is a budget for the corners still ahead,
the look-ahead is counted in rounds, and the seat drives with Boost on where it may."""

from __future__ import annotations

import random

from bot.ai import heat, search
from bot.games.heat import rules as heat_rules
from bot.games.registry import engines

ENGINE = engines()["heat"]


def solo(seed: int = 5) -> dict:
    return ENGINE.new_game(ENGINE.validate_options({"track": "usa", "legends": 3}, 1), 1, seed)


def ids_of(state: dict, car: dict, codes: list[str]) -> list[int]:
    """Card ids of the car's own cards with these codes (one each)."""
    pool = car["hand"] + car["deck"] + car["engine"] + car["discard"]
    out = []
    for code in codes:
        cid = next(c for c in pool if state["cards"][c] == code and c not in out)
        out.append(cid)
    return out


def test_stress_flips_count_at_a_corner():
    # Seed (Heat): a Stress card is speed 0 with a boost symbol: flip from the deck until a Speed
    # card and use its value. The racer judged Stress at speed 0 and played two of them 4 spaces
    # before the USA's corner 2 (limit 3) with 1 Heat: the flips took it over the line at 5 or more
    # and it spun.
    state = solo()
    car = state["cars"][0]
    line, _, limit = heat_rules.track_of(state).lines[1]
    assert limit == 3
    car["pos"], car["gear"] = line - 4, 2
    hand = ids_of(state, car, ["stress", "stress", "speed1", "speed1", "heat", "heat", "heat"])
    spare = [c for c in car["hand"] + car["deck"] + car["engine"] + car["discard"] if c not in hand]
    car["hand"], car["engine"], car["discard"], car["deck"] = hand, spare[-1:], [], spare[:-1]
    stress, slow = hand[:2], hand[2:4]
    assert heat.judge(state, 0, stress) < heat.judge(state, 0, slow)
    assert heat.best_plan(state, 0) != {"type": "submit", "cards": stress}


def test_heat_counts_only_as_far_as_the_corners_ahead_can_use_it():
    # Every Heat card worth the same to the finish: the racer hoarded 7 and finished 2nd; worth
    # nothing past the last corner (only boosts and shifts left to pay), little with few corners left.
    state = solo()
    tr = heat_rules.track_of(state)
    last = tr.lines[-1][0]
    assert heat.heat_value(tr, last + 1, 6) == 0
    assert heat.heat_value(tr, last, 6) == heat.heat_value(tr, last, 1) > 0
    assert heat.heat_value(tr, 0, 6) == 6 * heat.HEAT_WORTH


def test_the_look_ahead_counts_rounds_whatever_the_seats():
    # A solo race's 10 look-ahead moves were 10 rounds of imagined driving; a round now is a round.
    state = solo()
    seen = ENGINE.redraw_hidden(state, 0, 1)
    ahead = search.play_on(ENGINE, seen, 40, rounds=2)
    assert ahead is not None and ahead["round"] == state["round"] + 2


def test_the_racer_drives_with_boost_on_unless_its_player_chose():
    # Seed: boost (1 Heat, flip for a Speed card) is the player's own choice each round; the seat's
    # standing preference was "never" (the default), so the AI never boosted. Before its first
    # submission it sets "smart" (a move like any player's), then decides.
    state = solo()
    first = search.choose(ENGINE, state, 0, "easy", 1)
    assert first == {"type": "prefs", "boost": "smart"}
    state, _ = ENGINE.apply(state, 0, first)
    assert search.choose(ENGINE, state, 0, "easy", 1)["type"] == "submit"
    asked = solo()
    asked, _ = ENGINE.apply(asked, 0, {"type": "prefs", "boost": "ask"})
    assert search.choose(ENGINE, asked, 0, "easy", random.Random(2).getrandbits(31))["type"] == "submit"


def test_the_racer_sets_its_preferences_only_when_a_submission_is_asked():
    # The Garage draft comes before the race: the seat picks its upgrade there, preferences wait.
    state = ENGINE.new_game(ENGINE.validate_options({"track": "usa", "modules": ["garage"]}, 2), 2, 3)
    assert state["phase"] == "draft"
    seat = ENGINE.to_act(state)[0]
    assert search.choose(ENGINE, state, seat, "easy", 1)["type"] == "pick"


def test_a_stand_in_keeps_the_absent_players_preferences():
    # The stand-in plays a person's seat: the preferences stay the person's (they find them as they
    # left them when they take the seat back), so it submits at once instead of setting its own.
    state = solo()
    assert search.choose(ENGINE, state, 0, "normal", 1, own=False)["type"] == "submit"
    assert search.decide("heat", state, 0, "normal", 1, own=False)["type"] == "submit"


def test_heat_cooled_in_the_round_pays_its_corners():
    # Seed (Heat): step 5's cooldown comes before step 7's corner checks, so Heat cooled this round
    # pays this round's corners. The racer counted only the Engine as it was and judged a move the
    # engine resolves without a spin as a spin-out (at the USA's chicane it then preferred a surer
    # spin over the corner it could pay for).
    state = solo()
    car = state["cars"][0]
    line, _, limit = heat_rules.track_of(state).lines[1]
    car["pos"], car["gear"] = line - 2, 2
    hand = ids_of(state, car, ["speed4", "speed1", "speed1", "speed2", "speed3", "speed2", "heat"])
    spare = [c for c in car["hand"] + car["deck"] + car["engine"] + car["discard"] if c not in hand]
    spare = [c for c in spare if state["cards"][c] != "heat"] + [c for c in spare if state["cards"][c] == "heat"]
    car["hand"], car["engine"], car["discard"], car["deck"] = hand, spare[-1:], [], spare[:-1]
    fast = hand[:2]  # speed 5 over a limit of 3: 2 Heat, 1 in the Engine and 1 cooled in gear 2
    assert heat_rules.COOLDOWN[2] == 1 and 5 - limit == 2
    assert heat.judge(state, 0, fast) > 0
    after, _ = ENGINE.apply(state, 0, {"type": "submit", "cards": fast})
    assert not after["cars"][0]["rd"]["spun"] and after["cars"][0]["pos"] > line


def test_ground_is_judged_in_rounds_at_a_legends_pace():
    # Judged in spaces, the 3 spaces up to the USA's corner 2 (limit 3) and the 3 across it were
    # worth the same; a Legend (and a racer) needs a round of its own to cross a tight corner, so
    # the ones across are worth more, and a car on the line stands behind one past it by most of a
    # round. Past the finish line, farther is still better (cars finishing together rank by it).
    state = solo()
    tr = heat_rules.track_of(state)
    line, _, limit = tr.lines[1]
    assert limit == 3
    assert heat.ground(tr, line, line + 3) > heat.ground(tr, line - 3, line) + 2
    assert heat.ground(tr, line, line + 1) > heat.TEMPO / 2
    car = state["cars"][0]
    car["pos"], car["engine"] = line, []
    on_line = heat.score(state)[0]
    car["pos"] = line + 1
    assert heat.score(state)[0] > on_line + heat.TEMPO / 2
    assert heat.rounds_left(tr, tr.finish + 5) < heat.rounds_left(tr, tr.finish + 1) < heat.rounds_left(tr, tr.finish)
    table = heat.legend_rounds(tr)
    assert all(a >= b for a, b in zip(table, table[1:]))  # never worse for being farther on
