"""Issue #29: a state saved by older code is brought up to today's form by its engine's `upgrade`,
once each time the table loads the game (the engines no longer do it in every method)."""

from __future__ import annotations

from bot.games.registry import engines
from bot.store import Store
from bot.table import Table
from tests.core.tables import HEAT, NoBot, a_move, heat_game


async def test_the_table_upgrades_a_snapshot_once_per_load_and_moves_on_the_upgraded_state(tmp_path, monkeypatch):
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        table = Table(NoBot(), store, engines(), 3600)  # type: ignore[arg-type]
        table.schedule_announce = lambda outcome: outcome  # type: ignore[method-assign]
        gid = await heat_game(store, table)
        seen: list[dict] = []

        def upgrade(state):
            seen.append(state)
            return {**state, "upgraded": len(seen)}

        monkeypatch.setattr(HEAT, "upgrade", upgrade)
        game = await table.find(gid)
        assert game is not None and len(seen) == 1 and "upgraded" not in seen[0]
        assert game.snapshot["upgraded"] == 1
        applied = []
        real_apply = HEAT.apply

        def apply(state, seat, action):
            applied.append(state)
            return real_apply(state, seat, action)

        monkeypatch.setattr(HEAT, "apply", apply)
        await table.move_seat(gid, lambda g: HEAT.to_act(g.snapshot)[0], a_move)
        assert len(seen) == 2 and applied[0]["upgraded"] == 2  # the move is judged on the upgraded state
        # What is written is the engine's output, the upgraded form carried on: the next load upgrades that.
        again = await table.find(gid)
        assert "upgraded" in seen[2] and again.snapshot["upgraded"] == 3
    finally:
        await store.close()


async def test_a_store_without_a_table_loads_snapshots_as_stored(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        table = Table(NoBot(), store, engines(), 3600)  # type: ignore[arg-type]
        gid = await heat_game(store, table)
        store.upgrade = None
        game = await store.game(gid)
        assert game is not None and game.snapshot == HEAT.new_game(game.options, 3, 4)
    finally:
        await store.close()
