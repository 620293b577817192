"""Gateway websocket: HELLO, heartbeats, IDENTIFY/READY/GUILD_CREATE, RESUME with replay,
member chunks, and server-side dispatch (JSON, optionally zlib-stream compressed)."""
from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import secrets
import zlib
from typing import TYPE_CHECKING, Any, Deque, List, Optional, Set, Tuple

from aiohttp import WSMsgType, web

from . import payloads

if TYPE_CHECKING:  # pragma: no cover
    from .core import Emulator

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


class Session:
    def __init__(self, intents: int) -> None:
        self.id = secrets.token_hex(16)
        self.intents = intents
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

    def __init__(self, emu: "Emulator") -> None:
        self.emu = emu
        self.session: Optional[Session] = None
        self.connections: Set[Connection] = set()
        self.log: List[Tuple[str, Any, Optional[str]]] = []  # (direction, op, event)
        self.identifies = 0
        self.resumes = 0
        self.ready_count = 0
        self.heartbeats = 0
        self.connects: List[dict] = []  # query of each websocket connection (v, encoding, compress)

    @property
    def intents(self) -> int:
        return self.session.intents if self.session else 0

    @property
    def connected(self) -> bool:
        return self.session is not None and self.session.conn is not None

    # server -> bot --------------------------------------------------------------------------
    def dispatch(self, event: str, data: Any, intent: Optional[int] = None) -> bool:
        """Send (or buffer for RESUME) a dispatch event. False if no session or intent missing."""
        session = self.session
        if session is None or (intent is not None and not session.intents & intent):
            return False
        session.dispatch(event, data)
        self._log("send", 0, event)
        return True

    def _log(self, direction: str, op: Any, event: Optional[str] = None) -> None:
        self.log.append((direction, op, event))
        if len(self.log) > 10000:
            del self.log[:5000]

    # faults ---------------------------------------------------------------------------------
    def send_reconnect(self) -> bool:
        """op 7: the client closes and RESUMEs. Events after this are buffered for the replay."""
        if not self.connected:
            return False
        conn = self.session.conn  # type: ignore[union-attr]
        self.session.conn = None  # type: ignore[union-attr]
        conn.send({"op": 7, "d": None, "s": None, "t": None})
        self._log("send", 7)
        return True

    def drop(self, code: int = 4000) -> int:
        for conn in list(self.connections):
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            conn.close(code, "dropped by emulator")
        return len(self.connections)

    def invalidate(self) -> bool:
        """op 9 (not resumable): the client forgets its session and IDENTIFYs again."""
        if not self.connected:
            return False
        conn = self.session.conn  # type: ignore[union-attr]
        self.session = None
        conn.send({"op": 9, "d": False, "s": None, "t": None})
        return True

    # websocket handler ----------------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.connects.append(dict(request.query))
        conn = Connection(ws, request.query.get("compress") == "zlib-stream")
        self.connections.add(conn)
        writer = asyncio.create_task(conn.writer())
        conn.send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["emulator"]},
                   "s": None, "t": None})
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
        if self.session is not None and self.session.conn is not None:
            self.session.conn = None
        session = Session(int(data.get("intents") or 0))
        session.conn, conn.session = conn, session
        self.session = session
        self.identifies += 1
        world = self.emu.world
        guilds = [g for g in world.guilds.values() if world.bot.id in g.members]
        me = dict(payloads.user(world.bot), verified=True, mfa_enabled=False)
        self.dispatch("READY", {
            "v": 10, "user": me, "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id, "session_type": "normal",
            "resume_gateway_url": self.emu.gateway_url.rstrip("/"),
            "application": {"id": str(world.app_id), "flags": 8388608}, "private_channels": [],
            "relationships": [], "presences": [], "user_settings": {}, "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["local"], "auth": {}, "_trace": ["emulator"]})
        for g in guilds:
            self.dispatch("GUILD_CREATE", payloads.guild_create(world, g))
        self.ready_count += 1
        self.emu.notify()

    def _resume(self, conn: Connection, data: dict) -> None:
        if not self._token_ok(data.get("token")):
            conn.close(4004, "Authentication failed.")
            return
        session = self.session
        seq = data.get("seq") or 0
        if (session is None or data.get("session_id") != session.id
                or (session.buffer and session.buffer[0]["s"] > seq + 1)):
            conn.send({"op": 9, "d": False, "s": None, "t": None})
            return
        for frame in session.buffer:
            if frame["s"] > seq:
                conn.send(frame)
        if session.conn is not None and session.conn is not conn:
            session.conn.close(4009, "Session superseded.")
        session.conn, conn.session = conn, session
        self.dispatch("RESUMED", {"_trace": ["emulator"]})
        self.resumes += 1
        self.emu.notify()

    def _chunk(self, conn: Connection, data: dict) -> None:
        world = self.emu.world
        try:
            guild = world.guilds[int(data.get("guild_id"))]
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
        self.dispatch("GUILD_MEMBERS_CHUNK", {
            "guild_id": str(guild.id), "members": [payloads.member(m) for m in members], "chunk_index": 0,
            "chunk_count": 1, "nonce": data.get("nonce"), "not_found": []})

    async def close_all(self) -> None:
        for conn in list(self.connections):
            conn.close(1001, "emulator shutting down")
        for _ in range(50):
            if not self.connections:
                break
            await asyncio.sleep(0.01)
