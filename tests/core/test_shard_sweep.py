"""The announcer's sweep: what another process left owed on one of this process's games (a move
made from a DM on shard 0's process, which then died) is said here, once; other shards' games
are not touched."""

import asyncio

from bot.announcer import Announcer
from bot.config import Shards
from bot.store import PromptUpdate, Store
from tests.core.stores import guild_on, TOTAL


class Engine:
    def to_act(self, state):
        return [0]


class Out:
    def __init__(self):
        self.said: list[tuple[int, list[int]]] = []

    async def announce(self, outcome):
        self.said.append((outcome.game.id, outcome.versions))
        return True


async def test_the_sweep_says_what_was_left_owed_on_its_shards_once(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        games = {}
        for shard in range(TOTAL):
            gid = await store.create_game("fake", guild_on(shard), 5, 10, "ann", {}, 7)
            await store.start(gid, 99, {"n": 0}, [PromptUpdate(0, "h")], {"board": True}, [0], {0: 10**12})
            games[shard] = gid
        store.shards = Shards(2, 3, TOTAL)
        out = Out()
        announcer = Announcer(store, out, {"fake": Engine()}, lambda gid, err: None)  # type: ignore[arg-type]
        announcer.sweep_seconds = 3600.0  # the start-up catch-up first, the sweep later
        await announcer.start_catch_up()
        for _ in range(100):
            if len(out.said) == 2:
                break
            await asyncio.sleep(0.02)
        assert sorted(out.said) == [(games[2], [0]), (games[3], [0])]
        await announcer.stop_catch_up()

        # another process (shard 0's, serving a DM) moves game 3 and dies before announcing it
        other = await Store.open(tmp_path / "db.sqlite3")
        await other.commit_move(
            games[3], 0, 0, {"a": 1}, {"n": 1}, False, [PromptUpdate(0, "h2")], {"board": True}, [0], {}
        )
        await other.commit_move(
            games[0], 0, 0, {"a": 1}, {"n": 1}, False, [PromptUpdate(0, "h2")], {"board": True}, [0], {}
        )
        await other.close()
        out.said.clear()
        announcer.sweep_seconds, announcer.sweep_age = 0.05, 0.0
        await announcer.start_catch_up()
        for _ in range(100):
            if out.said:
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.3)  # several sweeps: said once, and settled
        assert out.said == [(games[3], [1])]
        assert [o.game_id for o in await store.owed(older_than=10**12)] == []
        store.shards = None
        # shards 0 and 1 are another process's: it says theirs (here they stay owed)
        assert {(o.game_id, o.version) for o in await store.owed()} == {(games[0], 0), (games[0], 1), (games[1], 0)}
        await announcer.stop_catch_up()
    finally:
        await store.close()


async def test_shards_moved_to_new_processes_are_caught_up_once(tmp_path):
    """One process ran every shard and died owing announcements; two take over, 0-1/4 and 2-3/4:
    each says its own games' (and only those), so every game is said once."""
    path = tmp_path / "db.sqlite3"
    store = await Store.open(path)
    games = []
    for shard in range(TOTAL):
        for n in range(2):
            gid = await store.create_game("fake", guild_on(shard, n), 5, 10, "ann", {}, 7)
            await store.start(gid, 99, {"n": 0}, [PromptUpdate(0, "h")], {"board": True}, [0], {0: 10**12})
            games.append(gid)
    await store.close()
    outs, announcers, stores = [], [], []
    for shards in (Shards(0, 1, TOTAL), Shards(2, 3, TOTAL)):
        s = await Store.open(path)
        s.shards = shards
        out = Out()
        announcer = Announcer(s, out, {"fake": Engine()}, lambda gid, err: None)  # type: ignore[arg-type]
        announcer.sweep_seconds, announcer.sweep_age = 0.05, 0.0
        await announcer.start_catch_up()
        outs.append(out), announcers.append(announcer), stores.append(s)
    for _ in range(200):
        if sum(len(o.said) for o in outs) >= len(games):
            break
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.3)  # several sweeps more: nothing again
    for a in announcers:
        await a.stop_catch_up()
    said = [gid for o in outs for gid, _ in o.said]
    assert sorted(said) == sorted(games)  # each once
    assert {g for g, _ in outs[0].said} == set(games[:4]) and {g for g, _ in outs[1].said} == set(games[4:])
    stores[0].shards = None
    assert await stores[0].owed() == []
    for s in stores:
        await s.close()


async def test_a_failed_announcement_of_another_shards_game_is_left_to_its_owner(tmp_path, monkeypatch):
    """Shard 0's process moved a game of shard 1 (a DM) and Discord failed part of it: it does not
    retry (the owner's sweep does), so the two never say it at once."""
    import bot.announcer as announcer_module
    from bot.delivery import Outcome

    monkeypatch.setattr(announcer_module, "RETRY_SECONDS", 0.05)
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        store.shards = Shards(0, 0, TOTAL)
        calls = []

        class Failing(Out):
            async def announce(self, outcome):
                calls.append(outcome.game.id)
                return False

        announcer = Announcer(store, Failing(), {"fake": Engine()}, lambda gid, err: None)  # type: ignore[arg-type]
        for shard in (0, 1):
            gid = await store.create_game("fake", guild_on(shard), 5, 10, "ann", {}, 7)
            await store.start(gid, 99, {"n": 0}, [PromptUpdate(0, "h")], {"board": True}, [0], {0: 10**12})
            game = await store.game(gid)
            await announcer.schedule(Outcome(game, {"n": 0}, [], [0], versions=[0])).task
        await asyncio.sleep(0.5)
        assert calls == [1, 2] and list(announcer._owed) == [1]  # its own game queued again; the other's not
    finally:
        await store.close()
