"""Every game's automatic player (engine.auto_action, used for absent seats) makes legal moves
and, holding every seat, plays a seeded game to the end."""

from __future__ import annotations

import pytest

from bot.autoplayer import duration
from bot.games.base import Engine
from bot.games.registry import engines
from bot.i18n import render

ENGINES = engines()


@pytest.mark.parametrize("kind", sorted(ENGINES))
def test_the_automatic_player_finishes_a_game_alone(kind):
    engine = ENGINES[kind]
    seats = max(engine.min_seats, 3) if engine.max_seats >= 3 else engine.min_seats
    state = engine.new_game(engine.validate_options({}, seats), seats, 7)
    assert type(engine).auto_action is not Engine.auto_action  # its own choice, not the first legal move
    for _ in range(20000):
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        action = engine.auto_action(state, seat)
        state, _ = engine.apply(state, seat, action)  # raises if the automatic move were illegal
    assert engine.is_over(state), f"{kind}: the automatic players did not finish"


def test_a_clock_reads_in_whole_units():
    assert render(duration(3600), "en") == "1 h"
    assert render(duration(3 * 86400), "en") == "3 d"
    assert render(duration(90), "en") == "2 min"
    assert render(duration(12 * 3600), "ja") == "12時間"


@pytest.mark.parametrize("kind", sorted(ENGINES))
def test_a_finished_game_tells_each_seats_place(kind):
    engine = ENGINES[kind]
    seats = 3 if engine.max_seats >= 3 else engine.max_seats
    state = engine.new_game(engine.validate_options({}, seats), seats, 11)
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        state, _ = engine.apply(state, seat, engine.auto_action(state, seat))
    places = engine.placings(state)
    assert len(places) == seats and min(places) == 1 and all(1 <= p <= seats for p in places)
    assert sorted(places) == [1 + sum(1 for q in places if q < p) for p in sorted(places)]  # ties share a place


def test_a_replay_stops_where_todays_rules_refuse_an_old_move():
    from types import SimpleNamespace

    from bot.replay import turn_starts

    engine = ENGINES["heat"]
    game = SimpleNamespace(
        options=engine.validate_options({"track": "usa"}, 2), seats=[0, 1], seed=5, rules_version=None
    )
    state = engine.new_game(game.options, 2, 5)
    log = []
    for _ in range(12):
        seat = engine.to_act(state)[0]
        action = engine.auto_action(state, seat)
        log.append((seat, action))
        state, _ = engine.apply(state, seat, action)
    boards, whole = turn_starts(engine, game, log)
    assert whole and len(boards) >= 2
    broken = log[:6] + [(log[6][0], {"type": "submit", "cards": [10**6]})] + log[7:]  # a move refused today
    cut, whole = turn_starts(engine, game, broken)
    assert not whole and 1 <= len(cut) <= len(boards)


def test_the_automatic_player_races_heat_with_every_module():
    engine = ENGINES["heat"]
    options = engine.validate_options({"track": "usa", "weather": True, "garage": "mixed", "legends": 2}, 3)
    state = engine.new_game(options, 3, 9)
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        state, _ = engine.apply(state, seat, engine.auto_action(state, seat))
    assert sorted(engine.placings(state)) == [1, 2, 3]


def test_a_database_file_gone_stops_the_automatic_player_without_a_traceback(caplog):
    # The store says "file gone" once in its own log line; the automatic player must not add a
    # traceback per seat (it moves again after the restart).
    import asyncio
    import logging
    from types import SimpleNamespace

    from bot.autoplayer import AutoPlayer
    from bot.store import StoreGone

    async def gone(game_id):
        raise StoreGone("gone")

    async def go():
        player = AutoPlayer(SimpleNamespace(store=SimpleNamespace(game=gone)))
        player.soon(7)
        await player._tasks[7]

    with caplog.at_level(logging.DEBUG, logger="bot.autoplayer"):
        asyncio.run(go())
    assert not [r for r in caplog.records if r.exc_info], caplog.text
