"""The emulator's shards, as Discord routes them: IDENTIFY's shard field, READY (and the guilds)
per shard, guild events and interactions to the shard owning the guild, DMs to shard 0."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest

from bot.tools.emulator import Emulator
from bot.tools.emulator.gateway import shard_of


class RawShard:
    """A bare gateway client: IDENTIFY (with a shard field, or without), then collects dispatches."""

    def __init__(self, emu: Emulator, shard: list[int] | None) -> None:
        self.emu, self.shard = emu, shard
        self.events: list[tuple[str, dict]] = []
        self.closed: int | None = None

    async def __aenter__(self) -> "RawShard":
        self.http = aiohttp.ClientSession()
        self.ws = await self.http.ws_connect(self.emu.gateway_url + "?v=10&encoding=json")
        hello = json.loads((await self.ws.receive()).data)
        assert hello["op"] == 10
        identify = {"token": self.emu.token, "intents": 1 | 1 << 9 | 1 << 12, "properties": {}}
        if self.shard is not None:
            identify["shard"] = self.shard
        await self.ws.send_str(json.dumps({"op": 2, "d": identify}))
        self.reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        async for frame in self.ws:
            if frame.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(frame.data)
            if data["op"] == 0:
                self.events.append((data["t"], data["d"]))
                self.emu.notify()
        self.closed = self.ws.close_code
        self.emu.notify()

    def names(self, event: str) -> list[dict]:
        return [d for t, d in self.events if t == event]

    async def __aexit__(self, *exc) -> None:
        await self.ws.close()
        self.reader.cancel()
        await self.http.close()


@pytest.fixture
async def emu():
    async with Emulator(shards=2) as emu:
        yield emu


async def test_guild_ids_on_a_chosen_shard(emu):
    for total in (2, 3, 8):
        for shard in range(total):
            assert shard_of(emu.add_guild(f"g{shard}/{total}", shard=(shard, total)).id, total) == shard


async def test_ready_and_guilds_per_shard_and_events_routed_by_guild(emu):
    guilds = [emu.add_guild(f"guild {n}", shard=(n % 2, 2)) for n in range(4)]
    async with RawShard(emu, [0, 2]) as zero, RawShard(emu, [1, 2]) as one:
        await emu.wait_until(lambda: len(zero.names("GUILD_CREATE")) == 2 and len(one.names("GUILD_CREATE")) == 2)
        for raw, shard in ((zero, 0), (one, 1)):
            (ready,) = raw.names("READY")
            assert ready["shard"] == [shard, 2]
            assert {int(g["id"]) for g in ready["guilds"]} == {g.id for g in guilds[shard::2]}
            assert {int(g["id"]) for g in raw.names("GUILD_CREATE")} == {g.id for g in guilds[shard::2]}
        assert emu.gateway.connected and emu.gateway.shard_connected(1, 2)

        emu.add_text_channel(guilds[1], "on-one")  # a guild event: only its shard hears it
        late = emu.add_guild("late", shard=(0, 2))
        await emu.wait_until(lambda: one.names("CHANNEL_CREATE") and len(zero.names("GUILD_CREATE")) == 3)
        assert not zero.names("CHANNEL_CREATE") and int(zero.names("GUILD_CREATE")[-1]["id"]) == late.id
        assert len(one.names("GUILD_CREATE")) == 2

        # interactions: a guild's to its shard; a DM's to shard 0
        alice = emu.add_user("alice")
        emu.add_member(guilds[1], alice)
        channel = emu.add_text_channel(guilds[1], "play")
        for where, raw in ((channel, one), (emu.dm_channel(alice), zero)):
            task = asyncio.create_task(emu.raw_interaction(alice, where, {"custom_id": "x", "component_type": 2}))
            await emu.wait_until(lambda: raw.names("INTERACTION_CREATE"))
            emu.clock.advance(3.01)
            await asyncio.wait_for(task, 5)
            other = zero if raw is one else one
            assert len(raw.names("INTERACTION_CREATE")) == 1 and not other.names("INTERACTION_CREATE")
            raw.events.clear()

        # a DM message goes to shard 0 only
        emu.set_dm_open(alice, True)
        await emu.send_message(alice, emu.dm_channel(alice), "hello")
        await emu.wait_until(lambda: zero.names("MESSAGE_CREATE"))
        assert not one.names("MESSAGE_CREATE")


async def test_a_shard_nobody_runs_drops_its_events_and_its_interactions_fail(emu):
    mine, theirs = emu.add_guild("mine", shard=(0, 2)), emu.add_guild("theirs", shard=(1, 2))
    alice = emu.add_user("alice")
    emu.add_member(theirs, alice)
    channel = emu.add_text_channel(theirs, "play")
    async with RawShard(emu, [0, 2]) as zero:
        await emu.wait_until(lambda: zero.names("GUILD_CREATE"))
        assert [int(g["id"]) for g in zero.names("GUILD_CREATE")] == [mine.id]
        rec = await emu.raw_interaction(alice, channel, {"custom_id": "x", "component_type": 2})
        assert rec.failed and "not connected" in rec.error
        assert not zero.names("INTERACTION_CREATE")


async def test_an_unsharded_client_gets_everything_without_a_shard_field(emu):
    guilds = [emu.add_guild(f"guild {n}", shard=(n, 2)) for n in range(2)]
    async with RawShard(emu, None) as raw:
        await emu.wait_until(lambda: len(raw.names("GUILD_CREATE")) == 2)
        assert "shard" not in raw.names("READY")[0]
        assert {int(g["id"]) for g in raw.names("GUILD_CREATE")} == {g.id for g in guilds}


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], [0], "0,1"])
async def test_an_invalid_shard_is_closed_with_4010(emu, shard):
    async with RawShard(emu, shard) as raw:
        await emu.wait_until(lambda: raw.closed is not None)
        assert raw.closed == 4010 and not raw.events


async def test_the_gateway_recommends_the_configured_shard_count(emu):
    async with aiohttp.ClientSession() as http:
        async with http.get(emu.api_base + "/gateway/bot", headers={"Authorization": f"Bot {emu.token}"}) as r:
            assert (await r.json())["shards"] == 2


async def test_a_restarted_shard_replaces_its_session(emu):
    guild = emu.add_guild("g", shard=(1, 2))
    async with RawShard(emu, [1, 2]):
        await emu.wait_until(lambda: emu.gateway.shard_connected(1, 2))
    await emu.wait_until(lambda: not emu.gateway.connected)  # gone: its session waits for a RESUME
    async with RawShard(emu, [1, 2]) as again:
        await emu.wait_until(lambda: again.names("GUILD_CREATE"))
        assert emu.gateway.connected and len(emu.gateway.sessions) == 1
        emu.add_text_channel(guild, "x")
        await emu.wait_until(lambda: again.names("CHANNEL_CREATE"))


async def test_the_control_api_makes_guilds_on_a_shard_and_shows_the_sessions(emu):
    async with aiohttp.ClientSession(base_url=emu.base_url) as http:
        async with http.post("/_emu/guilds", json={"name": "far", "shard": [1, 2]}) as r:
            guild = await r.json()
        assert shard_of(int(guild["id"]), 2) == 1
        async with RawShard(emu, [1, 2]) as one:
            await emu.wait_until(lambda: one.names("GUILD_CREATE"))
            async with http.get("/_emu/state") as r:
                assert (await r.json())["shards"] == [{"shard": [1, 2], "connected": True}]
