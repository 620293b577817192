"""Issue #34: the AI decides only from what its seat may see.

`Engine.redraw_hidden` deals again everything a seat cannot see. Over seeded random playouts of
every game, at states where a seat must decide:
- the redrawn state shows the seat exactly what the real one does (view, menu, legal moves);
- it depends only on what the seat sees: redrawing a state that was itself redrawn (so it differs
  from the real one only in hidden information) gives the same state;
- the AI's decision is the same on the real state and on one that differs only in what the seat
  cannot see, with the same seed.
"""

from __future__ import annotations

import random

import pytest

from bot.ai import search
from bot.ai.search import Level, choose, decisions
from bot.games.base import is_preference
from bot.games.registry import engines

ENGINES = engines()
SEATS = {"heat": 3, "pon": 3, "pole": 3, "rallyman": 2, "steamworks": 3}
OPTIONS = {"pole": {"circuit": "monaco"}}


def decision_points(kind: str, seed: int, every: int = 9, steps: int = 160):
    """(state, seat) where the seat must choose, every few moves of a random playout."""
    engine = ENGINES[kind]
    rnd = random.Random(seed)
    state = engine.new_game(engine.validate_options(dict(OPTIONS.get(kind, {})), SEATS[kind]), SEATS[kind], seed)
    for step in range(steps):
        if engine.is_over(state):
            return
        waiting = engine.to_act(state)
        seat = rnd.choice(waiting)
        options = decisions(engine, state, seat)
        if step % every == 0 and len(options) > 1:
            yield state, seat
        state, _ = engine.apply(state, seat, rnd.choice(options))


@pytest.mark.parametrize("kind", sorted(ENGINES))
def test_a_redrawn_state_shows_the_seat_what_the_real_one_does(kind):
    engine = ENGINES[kind]
    seen = 0
    for state, seat in decision_points(kind, 3, every=5):
        redrawn = engine.redraw_hidden(state, seat, 12345)
        assert engine.view(redrawn, seat) == engine.view(state, seat)
        assert engine.menu(redrawn, seat) == engine.menu(state, seat)
        assert [a for a in engine.legal_actions(redrawn, seat) if not is_preference(a)] == decisions(
            engine, state, seat
        )
        assert engine.to_act(redrawn) == engine.to_act(state)
        seen += 1
    assert seen >= 5


@pytest.mark.parametrize("kind", sorted(ENGINES))
def test_a_redraw_depends_only_on_what_the_seat_sees(kind):
    engine = ENGINES[kind]
    for state, seat in decision_points(kind, 4):
        other = engine.redraw_hidden(state, seat, 777)  # the same game as the seat sees it
        assert engine.redraw_hidden(other, seat, 5) == engine.redraw_hidden(state, seat, 5)


def test_a_redraw_changes_what_the_seat_cannot_see():
    """The check above could pass with a redraw that changes nothing: in the card games it does
    change the other hands and the deck's order."""
    for kind, hands in (("pon", lambda st, s: st["hands"][s]), ("heat", lambda st, s: st["cars"][s]["hand"])):
        engine = ENGINES[kind]
        state, seat = [p for p in decision_points(kind, 5)][2]  # (past PON's setup peeks: hands are dealt)
        other = (seat + 1) % SEATS[kind]
        redraws = [engine.redraw_hidden(state, seat, k) for k in range(6)]
        assert any(hands(r, other) != hands(state, other) for r in redraws), kind
        assert all(hands(r, seat) == hands(state, seat) for r in redraws), kind


@pytest.mark.parametrize("kind", sorted(ENGINES))
def test_the_ai_decides_the_same_when_only_hidden_information_differs(kind, monkeypatch):
    monkeypatch.setitem(search.LEVELS, "normal", Level(search=0.05, width=4))
    engine = ENGINES[kind]
    checked = 0
    for state, seat in decision_points(kind, 6, every=23):
        other = engine.redraw_hidden(state, seat, 31337)
        for level in ("easy", "normal"):
            assert choose(engine, other, seat, level, 9) == choose(engine, state, seat, level, 9), (kind, level)
        checked += 1
        if checked == 4:
            break
    assert checked


def test_a_search_out_of_time_answers_with_the_best_move_so_far():
    """A slow engine or a busy machine never keeps the table waiting: with no time left the search
    answers after its first imagined game, with the only move imagined (the usual one)."""
    engine = ENGINES["heat"]
    state, seat = next(iter(decision_points("heat", 7)))
    options = decisions(engine, state, seat)
    assert search._search(engine, state, seat, options, 500, random.Random(1), seconds=0.0) == options[0]
    assert search._search(engine, state, seat, options[::-1], 500, random.Random(1), seconds=0.0) == options[-1]


def test_heat_left_in_the_engine_counts_while_the_finish_is_far():
    # Seed (Heat): ・ヒートカード:エンジン(個人ボード中央の山)にあるヒートカード1枚を捨て札の山
    # (個人ボード右の山)に移動させることで効果を得る。 (boosts, a shift of two gears, a corner
    # taken too fast all pay from the Engine.) The look-ahead judged a car by its position only and
    # spent the Engine in the first laps, then crawled in gear 1 behind the Legends.
    from bot.ai.value import share

    engine = ENGINES["heat"]
    state = engine.new_game(engine.validate_options({"track": "usa", "legends": 3}, 1), 1, 5)
    poor = engine.redraw_hidden(state, 0, 1)
    car = poor["cars"][0]
    car["discard"] += car["engine"]
    car["engine"] = []
    assert share(engine, state, 0) > share(engine, poor, 0)
    near = engine.redraw_hidden(state, 0, 1)  # at the finish line, Heat left over is worth nothing
    from bot.games.heat import rules as heat_rules

    for c in near["cars"]:
        c["pos"] = heat_rules.track_of(near).finish
    emptied = engine.redraw_hidden(near, 0, 1)
    emptied["cars"][0]["discard"] += emptied["cars"][0]["engine"]
    emptied["cars"][0]["engine"] = []
    assert share(engine, near, 0) == share(engine, emptied, 0)


def test_the_ai_never_steps_back_through_a_choice_it_is_building():
    # Steam Works' AI seat laid a tile and took it back for ever (a look-ahead cannot tell "lay,
    # then take back" from laying once): an arena game ran 20000 moves. The AI never takes back a
    # tile, a die or a plan; it builds on.
    engine = ENGINES["steamworks"]
    state = engine.new_game(engine.validate_options({}, 2), 2, 100003)
    rng = random.Random(1)
    chosen = []
    while not engine.is_over(state) and len(chosen) < 60:
        seat = engine.to_act(state)[0]
        if seat == 0:
            action = choose(engine, state, seat, "normal", rng.getrandbits(63))
            chosen.append(action["type"])
        else:
            action = engine.auto_action(state, seat)
        state, _ = engine.apply(state, seat, action)
    assert "undo" not in chosen and "tile" not in chosen
    assert "confirm" in chosen or "plan" in chosen  # a device was built


def test_a_look_ahead_past_its_deadline_stops_and_counts_for_nothing():
    # A slow engine's look-ahead (Pole, Rallyman) ran on past the 2 s limit until it was over; it
    # now stops within a move, and the search answers with the look-aheads it finished.
    import time

    engine = ENGINES["rallyman"]
    state, seat = next(decision_points("rallyman", 5))
    assert search.play_on(engine, engine.redraw_hidden(state, seat, 1), 50, deadline=time.monotonic() - 1) is None
    assert search.play_on(engine, engine.redraw_hidden(state, seat, 1), 50) is not None
    options = decisions(engine, state, seat)
    assert search._search(engine, state, seat, options, 500, random.Random(1), seconds=-1.0) == options[0]
