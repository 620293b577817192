"""Gateway websocket: HELLO, heartbeats, IDENTIFY/READY/GUILD_CREATE, RESUME with replay,
member chunks, and server-side dispatch (JSON, optionally zlib-stream compressed).

Shards, as Discord does them: IDENTIFY's `shard` field [id, total] (none: [0, 1]) makes a session
for that shard; its READY carries the field back and lists, like the GUILD_CREATEs after it, only
the guilds the shard owns ((guild_id >> 22) % total == id). Every event about a guild goes to the
session(s) of the shard owning it, an event with no guild (a DM) to shard 0; an interaction to
one session only. A shard nobody runs drops its events (an interaction there fails)."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import secrets
import zlib
from typing import Any, Deque, List, Optional, Protocol, Set, Tuple

from aiohttp import WSMsgType, web

import bot.tools.emulator.payloads as payloads

from .model import World


class GatewayHost(Protocol):
    """What the gateway needs of the emulator (core.EmulatorCore): the world it describes, the bot's
    token, its own URL, and a wake-up for whoever waits on the world."""

    world: World
    token: str

    @property
    def gateway_url(self) -> str: ...

    def notify(self) -> None: ...


GUILD_MEMBERS = 1 << 1
BUFFER_SIZE = 5000


class _Close:
    def __init__(self, code: int, reason: str = "") -> None:
        self.code, self.reason = code, reason


class Connection:
    """One websocket. Frames go through a queue so ordering is kept and dispatch stays sync."""

    def __init__(self, ws: web.WebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self.queue: "asyncio.Queue[Any]" = asyncio.Queue()
        self.zlib = zlib.compressobj() if compress else None
        self.session: Optional[Session] = None

    def send(self, frame: dict) -> None:
        self.queue.put_nowait(json.dumps(frame))

    def close(self, code: int, reason: str = "") -> None:
        self.queue.put_nowait(_Close(code, reason))

    async def writer(self) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError, asyncio.CancelledError):
            while True:
                item = await self.queue.get()
                if isinstance(item, _Close):
                    await self.ws.close(code=item.code, message=item.reason.encode())
                    return
                if self.zlib is not None:
                    data = self.zlib.compress(item.encode()) + self.zlib.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(item)


def shard_of(guild_id: Optional[int], total: int) -> int:
    return 0 if guild_id is None else (int(guild_id) >> 22) % total


# Events whose payload is the guild itself (its id in "id"); all others name it in "guild_id".
_GUILD_PAYLOAD = {"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"}


def guild_of(event: str, data: Any) -> Optional[int]:
    if not isinstance(data, dict):
        return None
    value = data.get("id") if event in _GUILD_PAYLOAD else data.get("guild_id")
    return int(value) if value is not None else None


class Session:
    def __init__(self, intents: int, shard: Tuple[int, int] = (0, 1), sharded: bool = False) -> None:
        self.id = secrets.token_hex(16)
        self.intents = intents
        self.shard = shard  # (id, total)
        self.sharded = sharded  # IDENTIFY sent a shard field (READY then carries it back)
        self.seq = 0
        self.buffer: Deque[dict] = collections.deque(maxlen=BUFFER_SIZE)
        self.conn: Optional[Connection] = None

    def dispatch(self, event: str, data: Any) -> None:
        self.seq += 1
        frame = {"op": 0, "t": event, "s": self.seq, "d": data}
        self.buffer.append(frame)
        if self.conn is not None:
            self.conn.send(frame)


class Gateway:
    heartbeat_interval_ms = 41250

    def __init__(self, emu: GatewayHost, recommended_shards: int = 1) -> None:
        self.emu = emu
        self.recommended_shards = recommended_shards  # GET /gateway/bot's "shards"
        self.sessions: "collections.OrderedDict[Tuple[int, int], Session]" = collections.OrderedDict()
        self.connections: Set[Connection] = set()
        self.log: List[Tuple[str, Any, Optional[str]]] = []  # (direction, op, event)
        self.identifies = 0
        self.resumes = 0
        self.ready_count = 0
        self.heartbeats = 0
        self.connects: List[dict] = []  # query of each websocket connection (v, encoding, compress)

    @property
    def session(self) -> Optional[Session]:
        """Shard 0's session (the only one of an unsharded bot)."""
        return next((s for key, s in reversed(self.sessions.items()) if key[0] == 0), None)

    @property
    def intents(self) -> int:
        session = self.session or next(iter(self.sessions.values()), None)
        return session.intents if session else 0

    @property
    def connected(self) -> bool:
        """Some shard runs, and every shard that has a session is connected."""
        return bool(self.sessions) and all(s.conn is not None for s in self.sessions.values())

    def shard_connected(self, shard: int, total: Optional[int] = None) -> bool:
        return any(
            s.conn is not None for (i, t), s in self.sessions.items() if i == shard and (total is None or t == total)
        )

    def sessions_for(self, guild_id: Optional[int]) -> List[Session]:
        """The sessions of the shard that owns this guild (None: a DM, shard 0), the newest first."""
        return [s for s in reversed(self.sessions.values()) if shard_of(guild_id, s.shard[1]) == s.shard[0]]

    # server -> bot --------------------------------------------------------------------------
    def dispatch(self, event: str, data: Any, intent: Optional[int] = None) -> bool:
        """Send (or buffer for RESUME) a dispatch event to the shard owning its guild. False if no
        session of that shard has the intent. An interaction goes to one session only (a
        connected one first)."""
        sessions = [s for s in self.sessions_for(guild_of(event, data)) if intent is None or s.intents & intent]
        if not sessions:
            return False
        if event == "INTERACTION_CREATE":
            sessions = sorted(sessions, key=lambda s: s.conn is None)[:1]
        for session in sessions:
            session.dispatch(event, data)
        self._log("send", 0, event)
        return True

    def _log(self, direction: str, op: Any, event: Optional[str] = None) -> None:
        self.log.append((direction, op, event))
        if len(self.log) > 10000:
            del self.log[:5000]

    # faults ---------------------------------------------------------------------------------
    def send_reconnect(self) -> bool:
        """op 7 to every shard: the client closes and RESUMEs. Events after this are buffered for
        the replay."""
        if not self.connected:
            return False
        for session in self.sessions.values():
            conn, session.conn = session.conn, None
            conn.send({"op": 7, "d": None, "s": None, "t": None})  # type: ignore[union-attr]
            self._log("send", 7)
        return True

    def drop(self, code: int = 4000) -> int:
        for conn in list(self.connections):
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            conn.close(code, "dropped by emulator")
        return len(self.connections)

    def invalidate(self) -> bool:
        """op 9 (not resumable) to every shard: the client forgets its sessions and IDENTIFYs again."""
        if not self.connected:
            return False
        for key, session in list(self.sessions.items()):
            del self.sessions[key]
            session.conn.send({"op": 9, "d": False, "s": None, "t": None})  # type: ignore[union-attr]
        return True

    # websocket handler ----------------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.connects.append(dict(request.query))
        conn = Connection(ws, request.query.get("compress") == "zlib-stream")
        self.connections.add(conn)
        writer = asyncio.create_task(conn.writer())
        conn.send(
            {
                "op": 10,
                "d": {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["emulator"]},
                "s": None,
                "t": None,
            }
        )
        try:
            async for msg in ws:
                if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break
                try:
                    frame = json.loads(msg.data)
                except (ValueError, TypeError):
                    conn.close(4002, "Error while decoding payload.")
                    continue
                self._on_frame(conn, frame)
        finally:
            self.connections.discard(conn)
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            await asyncio.sleep(0)  # let the writer flush a pending close
            writer.cancel()
            self.emu.notify()
        return ws

    def _on_frame(self, conn: Connection, frame: dict) -> None:
        op = frame.get("op") if isinstance(frame, dict) else None
        data = frame.get("d") if isinstance(frame, dict) else None
        self._log("recv", op)
        if op == 1:
            self.heartbeats += 1
            conn.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:
            self._identify(conn, data or {})
        elif op == 6:
            self._resume(conn, data or {})
        elif op == 8:
            self._chunk(conn, data or {})
        elif op in (3, 4):
            pass
        else:
            conn.close(4001, "Unknown opcode.")

    def _token_ok(self, token: Any) -> bool:
        return isinstance(token, str) and token.removeprefix("Bot ") == self.emu.token

    def _identify(self, conn: Connection, data: dict) -> None:
        if not self._token_ok(data.get("token")):
            conn.close(4004, "Authentication failed.")
            return
        if conn.session is not None:
            conn.close(4005, "Already authenticated.")
            return
        shard = data.get("shard")
        if shard is not None and not (
            isinstance(shard, list)
            and len(shard) == 2
            and all(type(n) is int for n in shard)
            and 0 <= shard[0] < shard[1]
        ):
            conn.close(4010, "Invalid shard.")
            return
        key = (shard[0], shard[1]) if shard is not None else (0, 1)
        for other, stale in list(self.sessions.items()):  # a new shard count: the old, gone sessions time out
            if other[1] != key[1] and stale.conn is None:
                del self.sessions[other]
        old = self.sessions.pop(key, None)
        if old is not None and old.conn is not None:
            old.conn = None
        session = Session(int(data.get("intents") or 0), key, shard is not None)
        session.conn, conn.session = conn, session
        self.sessions[key] = session
        self.identifies += 1
        world = self.emu.world
        guilds = [g for g in world.guilds.values() if world.bot.id in g.members and shard_of(g.id, key[1]) == key[0]]
        me = dict(payloads.user(world.bot), verified=True, mfa_enabled=False)
        ready = {
            "v": 10,
            "user": me,
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.emu.gateway_url.rstrip("/"),
            "application": {"id": str(world.app_id), "flags": 8388608},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["local"],
            "auth": {},
            "_trace": ["emulator"],
        }
        if session.sharded:
            ready["shard"] = list(key)
        session.dispatch("READY", ready)
        self._log("send", 0, "READY")
        for g in guilds:
            session.dispatch("GUILD_CREATE", payloads.guild_create(world, g))
            self._log("send", 0, "GUILD_CREATE")
        self.ready_count += 1
        self.emu.notify()

    def _resume(self, conn: Connection, data: dict) -> None:
        if not self._token_ok(data.get("token")):
            conn.close(4004, "Authentication failed.")
            return
        session = next((s for s in self.sessions.values() if s.id == data.get("session_id")), None)
        seq = data.get("seq") or 0
        if (
            session is None
            or data.get("session_id") != session.id
            or (session.buffer and session.buffer[0]["s"] > seq + 1)
        ):
            conn.send({"op": 9, "d": False, "s": None, "t": None})
            return
        for frame in session.buffer:
            if frame["s"] > seq:
                conn.send(frame)
        if session.conn is not None and session.conn is not conn:
            session.conn.close(4009, "Session superseded.")
        session.conn, conn.session = conn, session
        session.dispatch("RESUMED", {"_trace": ["emulator"]})
        self._log("send", 0, "RESUMED")
        self.resumes += 1
        self.emu.notify()

    def _chunk(self, conn: Connection, data: dict) -> None:
        world = self.emu.world
        try:
            guild = world.guilds[int(data["guild_id"])]
        except (KeyError, TypeError, ValueError):
            return
        members = list(guild.members.values())
        if data.get("user_ids"):
            wanted = {int(u) for u in data["user_ids"]}
            members = [m for m in members if m.user.id in wanted]
        elif data.get("query"):
            members = [m for m in members if m.user.name.lower().startswith(str(data["query"]).lower())]
        if data.get("limit"):
            members = members[: int(data["limit"])]
        self.dispatch(
            "GUILD_MEMBERS_CHUNK",
            {
                "guild_id": str(guild.id),
                "members": [payloads.member(m) for m in members],
                "chunk_index": 0,
                "chunk_count": 1,
                "nonce": data.get("nonce"),
                "not_found": [],
            },
        )

    async def close_all(self) -> None:
        for conn in list(self.connections):
            conn.close(1001, "emulator shutting down")
        for _ in range(50):
            if not self.connections:
                break
            await asyncio.sleep(0.01)
