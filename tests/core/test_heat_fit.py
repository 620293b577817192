"""Issue #34: the learnt judgement of a Heat car's standing (bot/tools/heat_fit.py): the rows it
keeps say how many rounds the racer still needed, on the measure a Legend's rounds are counted
in, and its least squares find the weights that made the data."""

from __future__ import annotations

import random

from bot.ai import heat as heat_ai
from bot.games.heat import rules as heat_rules
from bot.tools import heat_fit


def test_a_races_rows_count_down_the_rounds_to_the_line():
    # One row per round, the rounds still needed falling by one a round; the last round's start
    # needs the one round, less what the car got past the line (FINISH_SPACES a round).
    rows, place = heat_fit.race_rows(100041, "plan")
    assert 1 <= place <= 4
    assert [r["round"] for r in rows] == list(range(1, len(rows) + 1))
    assert all(round(a["needed"] - b["needed"], 9) == 1 for a, b in zip(rows, rows[1:]))
    assert 0 < rows[-1]["needed"] < 1
    tr = heat_rules.track_of(heat_fit.new_race(100041))
    assert rows[-1]["pos"] <= tr.finish
    # what the fit weighs is read from the row the seat saw
    assert heat_fit.features(tr, rows[-1])[1] == heat_ai.rounds_left(tr, rows[-1]["pos"])


def test_least_squares_finds_the_weights_that_made_the_data():
    rng = random.Random(3)
    truth = [2.0, -0.5, 0.25]
    xs = [[1.0, rng.uniform(0, 10), rng.uniform(-3, 3)] for _ in range(200)]
    ys = [sum(w * x for w, x in zip(truth, row)) for row in xs]
    fitted = heat_fit.least_squares(xs, ys, ridge=0.0)
    assert all(abs(a - b) < 1e-9 for a, b in zip(fitted, truth))
    # the ridge pulls the weights towards 0, never the constant
    shrunk = heat_fit.least_squares(xs, ys, ridge=1e6)
    assert abs(shrunk[1]) < 0.1 and abs(shrunk[2]) < 0.1


def test_the_learnt_score_judges_the_racer_by_the_weights_and_the_legends_as_before():
    state = heat_fit.new_race(5)
    tr = heat_rules.track_of(state)
    car = state["cars"][0]
    car["pos"] = 20
    by_pace = (0.0, 1.0, 0.0, 0.0, 0.0, 0.0)  # the rounds at a Legend's pace alone
    scores = heat_fit.learnt_score(by_pace)(state)
    assert scores[0] == -heat_ai.TEMPO * heat_ai.rounds_left(tr, 20)
    assert scores[1:] == heat_ai.score(state)[1:]
    heat_worth = (0.0, 1.0, -0.25, 0.0, 0.0, 0.0)  # an Engine's Heat card a quarter round: 2 spaces
    full = heat_fit.learnt_score(heat_worth)(state)[0]
    spent = len(car["engine"]) - 2
    car["engine"] = car["engine"][:2]
    assert full - heat_fit.learnt_score(heat_worth)(state)[0] == spent * heat_ai.TEMPO / 4
