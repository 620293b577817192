"""Issue #34: the Heat oracle (bot/tools/heat_oracle.py), the measurement of how far a racer who
knows every deck's order gets against 3 Legends: it weighs whole rounds through the real engine, and
the race it reports is one the engine replays."""

from __future__ import annotations

import random

from bot.ai import heat as heat_ai
from bot.ai import search
from bot.tools import heat_oracle as oracle

ENGINE = oracle.ENGINE


def test_every_round_the_oracle_weighs_ends_at_the_next_submission():
    # A round's every decision (boost, slipstream, adrenaline, discard) is the oracle's: a way of
    # playing the round ends only where the next round's cards are asked, or at the finish.
    state, _ = ENGINE.apply(oracle.new_race(5), 0, oracle.ASK)
    children = list(oracle.round_children(state))
    assert len(children) > 10
    for moves, st in children:
        assert moves[0]["type"] == "submit"
        assert st["phase"] == "submit" and st["round"] == state["round"] + 1
    assert any(m["type"] == "discard" for moves, _ in children for m in moves)


def test_the_oracles_race_replays_to_the_place_it_reports_and_its_rounds_are_traced():
    race = oracle.oracle(100041, beam=4)
    *_, last = oracle.replay(race.seed, race.moves)
    assert last["phase"] == "over"
    assert last["cars"][0]["place"] == race.place and last["round"] == race.rounds
    rounds = oracle.trace(race)
    assert [r["round"] for r in rounds] == list(range(1, len(rounds) + 1))
    assert rounds[-1]["pos"] == last["cars"][0]["pos"]


def test_seed_ranges_are_read_as_the_seeds_in_them():
    assert oracle.parse_seeds("7-9,12") == [7, 8, 9, 12]


def test_the_ais_decisions_are_seeded_from_the_race_seed_plus_the_decision_seed(monkeypatch):
    # Issue #34's noise check: the same races, the AI's own luck drawn otherwise (0: the arena's).
    deals: list[int] = []
    real = oracle.choose

    def spy(engine, state, seat, level, seed, own=True):
        deals.append(seed)
        return real(engine, state, seat, level, seed, own)

    monkeypatch.setattr(oracle, "choose", spy)
    for k in (0, 1000003):
        deals.clear()
        race = oracle.ai_race(100041, level="easy", decision_seed=k)
        rng = random.Random(100041 + k)
        assert deals == [rng.getrandbits(63) for _ in deals]
        assert race.decision_seconds and len(race.decision_seconds) <= len(race.moves)


def test_the_look_ahead_is_changed_for_the_run_only():
    product = heat_ai.AI
    with oracle.look_ahead(playouts=1200, rounds=3, depth=60):
        ai = search.AI["heat"]  # what the search reads
        assert (ai.playouts, ai.rounds, ai.depth) == (1200, 3, 60)
        assert ai.score is product.score and ai.policy is product.policy
    with oracle.look_ahead(playouts=600):
        assert (search.AI["heat"].playouts, search.AI["heat"].rounds) == (600, product.rounds)
    assert search.AI["heat"] is product


def test_the_tool_races_the_ai_on_its_own_look_ahead_and_prints_its_decision_times(capsys, monkeypatch):
    seen: list[tuple[int, int | None, int]] = []
    real = oracle.ai_race

    def spy(seed, level="strong", planner="", decision_seed=0):
        ai = search.AI["heat"]
        seen.append((ai.playouts, ai.rounds, decision_seed))
        return real(seed, level, planner, decision_seed)

    monkeypatch.setattr(oracle, "ai_race", spy)
    args = ["--play", "ai", "--seeds", "100039", "--decision-seed", "5", "--playouts", "4", "--rounds", "1"]
    assert oracle.main(args) == 0
    assert seen == [(4, 1, 5)]
    assert search.AI["heat"] is heat_ai.AI
    out = capsys.readouterr().out
    assert "heat_ai_strong_decision_p95_s: " in out and "heat_ai_strong_ahead_of_all_legends: " in out
