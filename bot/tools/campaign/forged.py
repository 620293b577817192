"""Forged and malformed interactions, sent raw through the emulator (Emulator.raw_interaction):
component custom_ids that match nothing, carry a lone surrogate or full-width digits, a button id
sent as a select and the reverse, select values that are not options; slash commands with huge
game ids, wrong option types, unknown choices, unknown commands; autocomplete with garbage.
The targets are idle games nobody plays, so any growth of their action log is a forgery accepted."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any, Optional

from .common import Context, live_components, newest, progress, sleep_until


FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")
ARABIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
BIG = [2**63, 2**63 + 1, 2**64, -(2**63) - 1, 10**30]
COMPONENT, COMMAND, AUTOCOMPLETE = 3, 2, 4


def unmatched_ids(rnd: random.Random) -> list[str]:
    junk = "".join(rnd.choice("abc:;/\\|%$#@!_-0123456789") for _ in range(rnd.randint(1, 90)))
    return [
        "",
        "x",
        "mv:",
        "mv:1:2",
        "lb:abc:join",
        "hd:-1",
        "lb:1:explode",
        "mv:1:0:0:z0",
        "hd:",
        junk,
        "mv:99999999999999999999999:0:0:b0",
        "mv:1:0:0:b" + "9" * 40,
        " " * 5,
        "\u0000",
        "é" * 100,
    ]


def surrogate_ids(ids: list[str]) -> list[str]:
    base = ids[0] if ids else "mv:1:0:0:b0"
    return ["\ud800", base + "\ud800", "hd:1\udfff", base[:-1] + "\udc00", "lb:1:join\ud83d"]


def digit_variants(cid: str) -> list[str]:
    """The same id with its numbers written in other scripts (int() reads them all)."""
    head, _, rest = cid.partition(":")
    return [f"{head}:{rest.translate(FULLWIDTH)}", f"{head}:{rest.translate(ARABIC)}", cid.replace(":", ":\u0661", 1)]


DEFERRED_WAIT = 8.0  # seconds a deferred answer ("thinking...") may take to be completed


def settled(rec: Any) -> bool:
    """An interaction the user got an answer to: acknowledged, and if deferred with a "thinking"
    placeholder (callback 5), that placeholder filled in or a follow-up sent."""
    if not rec.acked:
        return False
    if rec.callback_type == 5:
        return bool(rec.followups) or (rec.response is not None and not rec.response.loading)
    return True


async def answered(rec: Any, wait: float = DEFERRED_WAIT) -> bool:
    """`settled`, waiting up to `wait` seconds for a deferred answer to be completed."""
    if not rec.acked:
        return False
    return bool(await sleep_until(lambda: settled(rec), wait, 0.1))


class Forger:
    def __init__(self, ctx: Context, targets: list[Any]) -> None:
        self.ctx, self.emu, self.rnd, self.fig = ctx, ctx.emu, random.Random(ctx.seed + 7), ctx.figures
        self.targets = targets  # tables nobody plays
        self.sem = asyncio.Semaphore(64)

    # -- building packets -----------------------------------------------------------------------

    def components_of(self, table: Any) -> list[tuple[Any, Any, list[dict]]]:
        """(user, newest DM, its live components) for each seat of a target table."""
        out = []
        for user in table.users:
            m = newest(self.ctx.index.dms(user), live_components)
            if m is not None:
                out.append((user, m, [c for c in m.all_components() if c.get("custom_id")]))
        return out

    def component_packets(self, table: Any) -> list[tuple[Any, Any, Any, dict, int]]:
        """(user, channel, message, data, interaction type)."""
        packets = []
        for user, m, comps in self.components_of(table):
            dm = self.emu.dm_channel(user)
            ids = [c["custom_id"] for c in comps]
            forged: list[tuple[str, Any]] = [(cid, 2) for cid in unmatched_ids(self.rnd)] + [
                (cid, 2) for cid in surrogate_ids(ids)
            ]
            for c in comps:
                ctype = c.get("type")
                for variant in digit_variants(c["custom_id"]):
                    forged.append((variant, ctype))
                forged.append((c["custom_id"], 3 if ctype == 2 else 2))  # button as select, select as button
                if ctype == 3:
                    options = [o["value"] for o in c.get("options") or []]
                    for values in (["999"], ["-1"], ["x" * 200], [], options * 2 + ["0"], ["\u0000"], [None], [1]):
                        packets.append(
                            (
                                user,
                                dm,
                                m,
                                {"custom_id": c["custom_id"], "component_type": 3, "values": values},
                                COMPONENT,
                            )
                        )
            for cid, ctype in forged:
                data: dict[str, Any] = {"custom_id": cid, "component_type": ctype}
                if ctype == 3:
                    data["values"] = ["0"]
                packets.append((user, dm, m, data, COMPONENT))
        return packets

    def command(self, name: str) -> Optional[dict]:
        guild = self.ctx.guild
        for c in [*self.emu.commands(guild), *self.emu.commands()]:
            if c["name"] == name:
                return c
        return None

    def slash_packets(self, table: Any) -> list[tuple[Any, Any, Any, dict, int]]:
        user, channel = table.users[0], table.play_channel()
        packets = []

        def cmd(
            name: str, sub: Optional[str], options: list[dict], itype: int = COMMAND, cid: Optional[str] = None
        ) -> None:
            c = self.command(name)
            data: dict[str, Any] = {
                "id": cid or (c["id"] if c else "1"),
                "name": name,
                "type": 1,
                "guild_id": str(self.ctx.guild.id),
            }
            data["options"] = [{"type": 1, "name": sub, "options": options}] if sub else options
            packets.append((user, channel, None, data, itype))

        for kind in ("heat", "pon", "pole", "steamworks", "rallyman"):
            for big in BIG:
                cmd(kind, "hand", [{"type": 4, "name": "game", "value": big}])
                cmd(
                    kind, "play", [{"type": 3, "name": "move", "value": "x"}, {"type": 4, "name": "game", "value": big}]
                )
                cmd(kind, "join", [{"type": 4, "name": "game", "value": big}])
            for wrong in ("abc", 1.5, True, None, [1], {"a": 1}, "", "１"):
                cmd(kind, "hand", [{"type": 4, "name": "game", "value": wrong}])
                cmd(kind, "play", [{"type": 3, "name": "move", "value": wrong}])
            cmd(kind, "fly", [])
            cmd(kind, None, [])
        for track in ("mars", "", "USA ", "\ud800", 7):
            cmd("heat", "new", [{"type": 3, "name": "track", "value": track}])
        cmd(
            "heat",
            "new",
            [{"type": 3, "name": "track", "value": "usa"}, {"type": 3, "name": "grid", "value": "diagonal"}],
        )
        for big in BIG[:2]:
            cmd("game", "status", [{"type": 4, "name": "game", "value": big}])
            cmd("game", "log", [{"type": 4, "name": "game", "value": big}, {"type": 4, "name": "count", "value": big}])
        cmd("game", "log", [{"type": 4, "name": "count", "value": -5}])
        for name in ("chess", "", "heat" * 20, "\ud800"):
            cmd(name, "new", [], cid=str(self.rnd.getrandbits(60)))
        garbage = [{"type": 3, "name": "move", "value": v, "focused": True} for v in (123, None, "\ud800", "x" * 5000)]
        for option in garbage:
            cmd("heat", "play", [option], itype=AUTOCOMPLETE)
        cmd("heat", "play", [{"type": 4, "name": "game", "value": "abc", "focused": True}], itype=AUTOCOMPLETE)
        cmd("heat", "play", [{"type": 4, "name": "game", "value": 2**63, "focused": True}], itype=AUTOCOMPLETE)
        cmd("heat", "new", [{"type": 3, "name": "track", "value": "u", "focused": True}], itype=AUTOCOMPLETE)
        cmd("heat", "play", [{"type": 3, "name": "move", "value": "x"}], itype=AUTOCOMPLETE)  # nothing focused
        cmd("nope", "x", [{"type": 3, "name": "y", "value": "z", "focused": True}], itype=AUTOCOMPLETE)
        return packets

    # -- sending --------------------------------------------------------------------------------

    def actions_total(self) -> int:
        ids = [t.game_id for t in self.targets if t.game_id is not None]
        if not ids:
            return 0
        marks = ",".join("?" * len(ids))
        return self.ctx.db.query(f"SELECT COUNT(*) FROM actions WHERE game_id IN ({marks})", tuple(ids))[0][0]

    def connections(self) -> int:
        gw = self.emu.gateway
        return gw.identifies + gw.resumes

    async def send(self, packet: tuple[Any, Any, Any, dict, int]) -> None:
        user, channel, message, data, itype = packet
        async with self.sem:
            self.fig["forged_sent"] += 1
            try:
                rec = await asyncio.wait_for(
                    self.emu.raw_interaction(user, channel, data, type=itype, message=message), 10
                )
            except Exception:
                self.fig["forged_unanswered"] += 1
                return
        if not await answered(rec):
            self.fig["forged_unanswered"] += 1
            if self.fig["forged_unanswered"] <= 3:
                progress(
                    f"forged packet unanswered ({'deferred, never followed up' if rec.acked else 'no ack'}): {data!r}"[
                        :300
                    ]
                )

    async def batch(self, packets: list[tuple[Any, Any, Any, dict, int]]) -> None:
        """Send concurrently; a dropped gateway or a dead process in the meantime is a crash."""
        ctl = self.ctx.botctl
        before = self.connections()
        await asyncio.gather(*(self.send(p) for p in packets))
        await asyncio.sleep(0.05)
        if not ctl.proc.running or self.connections() != before or not self.emu.gateway.connected:
            self.fig["bot_crashes"] += 1
            progress(f"the bot crashed or reconnected after forged packets: {[p[3] for p in packets][:1]!r}"[:300])
            await asyncio.sleep(1.0)  # let it reconnect by itself, else restart it
            if not ctl.proc.running or not self.emu.gateway.connected:
                if ctl.proc.running:
                    await ctl.proc.stop(timeout=3)
                await ctl.ensure_up()

    @staticmethod
    def risky(packet: tuple[Any, Any, Any, dict, int]) -> bool:
        """Carries a lone surrogate (the packet most likely to break the bot's JSON decoder)."""

        def walk(x: Any) -> bool:
            if isinstance(x, str):
                return any(0xD800 <= ord(ch) <= 0xDFFF for ch in x)
            if isinstance(x, dict):
                return any(walk(v) for v in x.values())
            if isinstance(x, list):
                return any(walk(v) for v in x)
            return False

        return walk(packet[3])

    async def run(self, deadline: float) -> None:
        tracebacks = self.ctx.botctl.tracebacks()
        accepted_before = self.actions_total()
        rounds = 0
        while time.monotonic() < deadline:
            packets: list = []
            for table in self.targets:
                packets += self.component_packets(table) + self.slash_packets(table)
            self.rnd.shuffle(packets)
            risky = [p for p in packets if self.risky(p)]
            safe = [p for p in packets if not self.risky(p)]
            for i in range(0, len(safe), 64):
                if time.monotonic() >= deadline:
                    break
                await self.batch(safe[i : i + 64])
            for p in risky[:3]:  # one at a time, so a crash is pinned on its packet
                if time.monotonic() >= deadline:
                    break
                await self.batch([p])
            rounds += 1
            progress(f"forged round {rounds}: {self.fig['forged_sent']} sent so far")
        await asyncio.sleep(1.0)
        self.fig["forged_tracebacks"] += max(0, self.ctx.botctl.tracebacks() - tracebacks)
        self.fig["forged_accepted"] += max(0, self.actions_total() - accepted_before)
