"""Issue #34: the Heat oracle (bot/tools/heat_oracle.py), the measurement of how far a racer who
knows every deck's order gets against 3 Legends: it weighs whole rounds through the real engine, and
the race it reports is one the engine replays."""

from __future__ import annotations

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
