"""`python -m bot store copy SRC DST`: SQLite -> PostgreSQL -> SQLite keeps every game (replaying
to its snapshot), refuses a non-empty target in one line, and finds a game that does not check out."""

from __future__ import annotations

import asyncio

import pytest

from bot.tools.bench import store as bench_store
from bot.__main__ import main as bot_main
from bot.store import PromptUpdate, Store
from bot.store_copy import CopyError, copy_store
from tests.core.conftest import bench_copy
from tests.core.stores import database_for

GAMES = 30


@pytest.fixture(scope="module")
def built(bench_games, tmp_path_factory):
    """Real seeded games (finished and archived, mid-game with timers): the first GAMES of the
    bench's database (tests/core/conftest.py), as bench_store.build(path, GAMES) makes them."""
    return bench_copy(bench_games, tmp_path_factory.mktemp("copy") / "games.sqlite3", GAMES)


async def extras(path) -> None:
    """What the bench's games lack: a lobby, owed announcements with parts out, users."""
    store = await Store.open(path)
    try:
        gid = await store.create_game("pon", 1, 5, 77, "lobbyist", {}, 3, locale="ja")
        await store.set_lobby_message(gid, 555)
        active = (await store.active_games())[0]
        engine = bench_store.ENGINES[active.kind]
        seat = engine.to_act(active.snapshot)[0]
        action = engine.legal_actions(active.snapshot, seat)[0]
        state, _ = engine.apply(active.snapshot, seat, action)
        await store.commit_move(
            active.id,
            active.version,
            seat,
            action,
            state,
            False,
            [PromptUpdate(seat, "q")],
            {"events": [["hi", None]]},
            engine.to_act(state),
            {engine.to_act(state)[0]: 123.0},
        )
        await store.mark_sent(active.id, [active.version + 1], "post")
        await store.players.set_dm_channel(10**9 + 1, 4242)
        await store.players.set_user_locale(10**9 + 2, "ja")
        await store.players.set_notify(10**9 + 2, "ping")
        await store.clocks.set_timers(active.id, "other", {1}, {1: 9.5})
    finally:
        await store.close()


async def everything(database) -> dict:
    store = await Store.open(database)
    try:
        ids = [r[0] for r in await store._db.fetch("SELECT id FROM games ORDER BY id")]
        games = [await store.game(g) for g in ids]
        return {
            "games": games,
            "actions": [await store.actions(g) for g in ids],
            "owed": await store.owed(),
            "timers": await store.clocks.due_timers(10**12),
            "users": [await store.players.user(10**9 + i) for i in (1, 2)],
            "notify": [await store.players.notify(10**9 + i) for i in (1, 2)],
        }
    finally:
        await store.close()


async def test_sqlite_to_postgresql_and_back_keeps_every_game(built, tmp_path):
    import shutil

    src = tmp_path / "src.sqlite3"
    shutil.copyfile(built, src)
    await extras(src)
    pg = await database_for("postgresql", tmp_path)
    back = tmp_path / "back.sqlite3"
    said: list[str] = []
    counts = await copy_store(src, pg, said.append)
    assert counts["games"] == GAMES + 1 and counts["users"] == 2 and counts["owed"] >= 1
    assert await copy_store(pg, back, said.append) == counts
    before, there, after = await everything(src), await everything(pg), await everything(back)
    assert before == there == after
    assert before["users"] == [(4242, None), (None, "ja")] and before["notify"] == ["dm", "ping"]
    assert any(o.sent == {"post"} for o in there["owed"])
    store = await Store.open(pg)  # new games continue after the copied ids
    try:
        assert await store.create_game("heat", 1, 2, 3, "x", {}, 1) == GAMES + 2
        # finished games came back compressed to SQLite, as SQLite stores them
    finally:
        await store.close()
    back_store = await Store.open(back)
    try:
        kinds = {
            type(v).__name__
            for (v,) in await back_store._db.fetch("SELECT snapshot FROM games WHERE status = 'finished'")
        }
        assert kinds == {"bytes"}
    finally:
        await back_store.close()


async def test_a_non_empty_target_is_refused_in_one_line(built, tmp_path, capsys):
    import shutil

    src = tmp_path / "src.sqlite3"
    shutil.copyfile(built, src)
    pg = await database_for("postgresql", tmp_path)
    store = await Store.open(pg)
    await store.create_game("heat", 1, 2, 3, "x", {}, 1)
    await store.close()
    assert await asyncio.to_thread(bot_main, ["store", "copy", str(src), pg]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "refusing to write into" in err and "1 games" in err
    store = await Store.open(pg)
    try:
        assert len(await store._db.fetch("SELECT id FROM games")) == 1  # nothing was written
    finally:
        await store.close()
    # into an empty one, from the command line
    other = tmp_path / "copy.sqlite3"
    assert await asyncio.to_thread(bot_main, ["store", "copy", str(src), str(other)]) == 0
    out = capsys.readouterr().out
    assert "every game checks out" in out and "older rules" not in out  # all on today's rules: all replayed


async def _without_its_first_action(built, tmp_path) -> tuple:
    """A copy of the built store in which one game under way lost its first action: (file, game id)."""
    import shutil

    src = tmp_path / "src.sqlite3"
    shutil.copyfile(built, src)
    store = await Store.open(src)
    active = (await store.active_games())[0]
    await store._db.execute("DELETE FROM actions WHERE game_id = ? AND version = 1", (active.id,))
    await store.close()
    return src, active.id


async def test_a_game_that_does_not_replay_fails_the_check(built, tmp_path):
    src, gid = await _without_its_first_action(built, tmp_path)
    with pytest.raises(CopyError, match=f"game {gid}: its action log does not replay|game {gid}: replaying"):
        await copy_store(src, await database_for("postgresql", tmp_path), lambda _: None)


async def test_a_game_begun_under_older_rules_is_compared_by_its_log_not_replayed(built, tmp_path, monkeypatch):
    """A rules or content change means an old game's log no longer replays to its snapshot; the
    copy still goes through, checking that game's log against the source's instead."""
    from bot.games.registry import engines

    src, _ = await _without_its_first_action(built, tmp_path)
    for engine in engines().values():  # every stored game now began under older rules
        monkeypatch.setattr(engine, "rules_version", engine.rules_version + 1)
    said = []
    await copy_store(src, await database_for("postgresql", tmp_path), said.append)
    assert any("began under older rules: their action logs were compared, not replayed" in s for s in said)


async def test_the_same_database_is_refused(tmp_path):
    with pytest.raises(CopyError, match="same database"):
        await copy_store(tmp_path / "a.sqlite3", tmp_path / "a.sqlite3")


def test_a_snapshot_saved_in_an_older_schema_is_compared_as_today_reads_it():
    """PON's schema 1 named the phase "stage" (issue #29): a game stored then still replays to it."""
    from bot.games.base import replay
    from bot.games.registry import engines
    from bot.store_copy import replay_problems

    engine = engines()["pon"]
    state = engine.new_game({}, 3, 5)
    actions = []
    for _ in range(12):
        seat = engine.to_act(state)[0]
        action = engine.auto_action(state, seat)
        actions.append((seat, action))
        state, _ = engine.apply(state, seat, action)
    assert replay(engine, {}, 3, 5, actions) == state
    old = {k: v for k, v in state.items() if k != "phase"} | {"stage": state["phase"], "schema": 1}
    assert replay_problems([(1, "pon", {}, 3, 5, actions, old)]) == []
    wrong = dict(old, stage="somewhere else")
    assert replay_problems([(2, "pon", {}, 3, 5, actions, wrong)]) != []
