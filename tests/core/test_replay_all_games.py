"""For every game kind: moves committed through the store replay from seed + action log to the
stored snapshot, and every snapshot round-trips through JSON."""

import json
import random

import pytest

from bot.games.base import replay
from bot.games.registry import engines
from bot.store import Store

ENGINES = engines()


@pytest.mark.parametrize("kind", sorted(ENGINES))
async def test_store_log_replays_to_snapshot(kind, tmp_path):
    engine = ENGINES[kind]
    store = await Store.open(tmp_path / "db.sqlite3")
    seats = engine.min_seats + 1 if engine.max_seats > engine.min_seats else engine.min_seats
    options = engine.validate_options({}, seats)
    gid = await store.create_game(kind, 1, 2, 100, "u0", options, 12345)
    for i in range(1, seats):
        await store.join(gid, 100 + i, f"u{i}", engine.max_seats)
    state = engine.new_game(options, seats, 12345)
    await store.start(gid, None, state, [])
    rnd = random.Random(kind)
    version = 0
    while not engine.is_over(state) and version < 3000:
        seat = rnd.choice(engine.to_act(state))
        actions = [a for a in engine.legal_actions(state, seat) if a.get("type") != "prefs"]
        action = rnd.choice(actions)
        state, _ = engine.apply(state, seat, action)
        version = await store.commit_move(gid, version, seat, action, state, engine.is_over(state), [])
    assert engine.is_over(state), "the game should end within 3000 moves"
    game = await store.game(gid)
    assert game.snapshot == json.loads(json.dumps(state))
    assert replay(engine, game.options, len(game.seats), game.seed, await store.actions(gid)) == game.snapshot
    assert game.status == "finished"
    await store.close()
