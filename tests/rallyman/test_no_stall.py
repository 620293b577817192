"""A stage always ends: two cars sliding side by side in one slide row (seed 134 on Rally4 SS1, 3
players) held each other for ever, so every car could only pass, round after round. The seed holds
a car that follows a slider (その車を追いかけて…追い越すことはできません); a car that slid itself,
level with it, follows no one (rules_version 3). A game begun before keeps its old rule."""

from __future__ import annotations

import random

from bot.games.rallyman import board as B
from bot.games.rallyman import rules as R
from bot.games.rallyman.engine import ENGINE as E


def _playout(stage: str, seats: int, seed: int, moves: int = 4000) -> tuple[dict, int]:
    """The engine bench's loop: a random seat to act, a random legal move without "prefs"; the
    final state and the longest run of rounds in which every car only passed."""
    rnd = random.Random(seed)
    s = E.new_game(E.validate_options({"stage": stage}, seats), seats, seed)
    run = worst = 0
    passes: set[int] = set()
    rnd_no = s["round"]
    for _ in range(moves):
        if E.is_over(s):
            break
        seat = rnd.choice(E.to_act(s))
        a = rnd.choice([a for a in E.legal_actions(s, seat) if a.get("type") != "prefs"])
        if a["type"] == "pass":
            passes.add(seat)
        s, _ = E.apply(s, seat, a)
        if s["round"] != rnd_no:
            run = run + 1 if len(passes) == seats else 0
            worst, passes, rnd_no = max(worst, run), set(), s["round"]
    return s, worst


def _stalled_state() -> dict:
    """The state that stalled: car 0 (gear 0, after its spare) sliding on 41, car 2 sliding on 42
    beside it, car 1 behind both; 43 and 44 free (car 0 to move)."""
    rnd = random.Random(134)
    s = E.new_game(E.validate_options({"stage": "Rally4 SS1"}, 3), 3, 134)
    for _ in range(32):
        seat = rnd.choice(E.to_act(s))
        s, _ = E.apply(s, seat, rnd.choice([a for a in E.legal_actions(s, seat) if a.get("type") != "prefs"]))
    return s


def test_seed_134_plays_to_the_end():
    s, worst = _playout("Rally4 SS1", 3, 134)
    assert E.is_over(s)
    assert worst <= 1


def test_sliders_abreast_each_have_a_move():
    s = _stalled_state()
    assert [(c["sp"], c["gear"], c["side"]) for c in (s["cars"][0], s["cars"][2])] == [(41, 0, True), (42, 2, True)]
    st = B.stage(s["stage"])
    for seat in (0, 2):
        steps = R.steps_for(s, st, seat).after(R.start_ctx(s, seat))
        assert {step[1] for step, _ in steps} & {43, 44}, seat


def test_a_game_begun_under_rules_2_keeps_its_stall():
    s = _stalled_state()
    s["rules_version"] = 2
    st = B.stage(s["stage"])
    assert R.steps_for(s, st, 2).after(R.start_ctx(s, 2)) == []


def test_a_few_playouts_never_stall():
    for stage, seats, seed in (("Rally4 SS1", 3, 134), ("Rally4 SS1", 4, 7), ("Rally1", 3, 11)):
        s, worst = _playout(stage, seats, seed)
        assert E.is_over(s), (stage, seats, seed)
        assert worst <= 3, (stage, seats, seed)
