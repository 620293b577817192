"""REST API under /api/v10 (bot-token routes; interaction routes live in interactions.py)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Protocol

from aiohttp import web

import bot.tools.emulator.payloads as payloads

from .errors import ApiError, json_response, missing_permissions, unknown
from .gateway import Gateway
from .interactions import Interactions
from .limits import check_commands
from .messaging import Messaging, read_body
from .model import (
    ATTACH_FILES,
    EMBED_LINKS,
    MANAGE_MESSAGES,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    Channel,
    Guild,
    Message,
    User,
    World,
)


class RestHost(Protocol):
    """What the REST routes need of the emulator (core.EmulatorCore): the world and its owner, the
    subsystems, the synced commands, and the changes to channels that also tell the bot."""

    world: World
    owner: User
    typing: List[int]
    gateway: Gateway
    messaging: Messaging
    interactions: Interactions

    @property
    def gateway_url(self) -> str: ...

    def notify(self) -> None: ...

    def commands(self, guild: Any = None) -> List[dict]: ...

    def store_commands(self, payload: List[dict], guild_id: Optional[int] = None) -> List[dict]: ...

    def create_thread(
        self,
        parent: Channel,
        *,
        name: str,
        type: int = 11,
        thread_id: Optional[int] = None,
        auto_archive_duration: int = 1440,
        invitable: bool = True,
        owner: Any = None,
    ) -> Channel: ...

    def edit_channel(self, ch: Channel, payload: dict) -> None: ...

    def delete_channel(self, ch: Channel) -> None: ...

    def set_thread_member(self, th: Channel, user_id: int, present: bool) -> None: ...


API = "/api/v10"
GUILDS_INTENT = 1


def _int(value: Any, what: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise unknown(what) from None


class Rest:
    def __init__(self, emu: RestHost) -> None:
        self.emu = emu
        self.world = emu.world

    def routes(self) -> List[web.RouteDef]:
        r, ix = web, self.emu.interactions
        return [
            r.get(API + "/users/@me", self.me),
            r.get(API + "/users/@me/guilds", self.my_guilds),
            r.post(API + "/users/@me/channels", self.open_dm),
            r.get(API + "/users/{user_id}", self.get_user),
            r.get(API + "/oauth2/applications/@me", self.app_info),
            r.get(API + "/applications/@me", self.app_info),
            r.get(API + "/gateway", self.gateway),
            r.get(API + "/gateway/bot", self.gateway),
            r.route("*", API + "/applications/{app_id}/commands", self.commands),
            r.route("*", API + "/applications/{app_id}/commands/{command_id}", self.command),
            r.get(API + "/applications/{app_id}/guilds/{guild_id}/commands/permissions", self.no_permissions),
            r.route("*", API + "/applications/{app_id}/guilds/{guild_id}/commands", self.commands),
            r.route("*", API + "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", self.command),
            r.route("*", API + "/channels/{channel_id}", self.channel),
            r.route("*", API + "/channels/{channel_id}/messages", self.messages),
            r.route("*", API + "/channels/{channel_id}/messages/{message_id}", self.message),
            r.post(API + "/channels/{channel_id}/messages/{message_id}/threads", self.thread_from_message),
            r.route("*", API + "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self.reaction),
            r.route("*", API + "/channels/{channel_id}/messages/pins/{message_id}", self.pin),
            r.route("*", API + "/channels/{channel_id}/pins/{message_id}", self.pin),
            r.post(API + "/channels/{channel_id}/typing", self.typing),
            r.post(API + "/channels/{channel_id}/threads", self.thread_without_message),
            r.get(API + "/channels/{channel_id}/thread-members", self.thread_members),
            r.route("*", API + "/channels/{channel_id}/thread-members/{user_id}", self.thread_member),
            r.get(API + "/guilds/{guild_id}", self.get_guild),
            r.get(API + "/guilds/{guild_id}/channels", self.guild_channels),
            r.get(API + "/guilds/{guild_id}/roles", self.guild_roles),
            r.get(API + "/guilds/{guild_id}/members", self.guild_members),
            r.get(API + "/guilds/{guild_id}/members/{user_id}", self.guild_member),
            r.post(API + "/interactions/{iid}/{token}/callback", ix.callback),
            r.post(API + "/webhooks/{app_id}/{token}", ix.execute),
            r.route("*", API + "/webhooks/{app_id}/{token}/messages/{message}", ix.message),
        ]

    # helpers ---------------------------------------------------------------------------------
    def _channel(self, request: web.Request) -> Channel:
        ch = self.world.channels.get(_int(request.match_info["channel_id"], "channel"))
        if ch is None or ch.deleted:
            raise unknown("channel")
        return ch

    def _guild(self, request: web.Request) -> Guild:
        g = self.world.guilds.get(_int(request.match_info["guild_id"], "guild"))
        if g is None or self.world.bot.id not in g.members:
            raise unknown("guild")
        return g

    def _message(self, channel: Channel, request: web.Request) -> Message:
        msg = self.world.messages.get(_int(request.match_info["message_id"], "message"))
        if msg is None or msg.deleted or msg.ephemeral or msg.channel_id != channel.id:
            raise unknown("message")
        return msg

    def _require(self, channel: Channel, *bits: int) -> None:
        guild = self.world.guild_of(channel)
        if guild is None:
            return
        perms = self.world.permissions(guild, self.world.bot.id)
        for bit in bits:
            if not perms & bit:
                raise missing_permissions()

    def _app(self, request: web.Request) -> None:
        if _int(request.match_info["app_id"], "webhook") != self.world.app_id:
            raise ApiError(403, 50001, "Missing Access")

    # users / app -----------------------------------------------------------------------------
    async def me(self, request: web.Request) -> web.Response:
        return json_response(
            dict(payloads.user(self.world.bot), verified=True, mfa_enabled=False, email=None, locale="en-US", bio="")
        )

    async def my_guilds(self, request: web.Request) -> web.Response:
        return json_response(
            [
                {
                    "id": str(g.id),
                    "name": g.name,
                    "icon": None,
                    "owner": False,
                    "permissions": str(self.world.permissions(g, self.world.bot.id)),
                    "features": [],
                }
                for g in self.world.guilds.values()
                if self.world.bot.id in g.members
            ]
        )

    async def get_user(self, request: web.Request) -> web.Response:
        user = self.world.users.get(_int(request.match_info["user_id"], "user"))
        if user is None:
            raise unknown("user")
        return json_response(payloads.user(user))

    async def app_info(self, request: web.Request) -> web.Response:
        w = self.world
        return json_response(
            {
                "id": str(w.app_id),
                "name": w.bot.name,
                "icon": None,
                "description": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": payloads.user(self.emu.owner),
                "summary": "",
                "verify_key": "0" * 64,
                "team": None,
                "flags": 0,
                "bot": payloads.user(w.bot),
                "interactions_endpoint_url": None,
                "tags": [],
                "redirect_uris": [],
            }
        )

    async def gateway(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": self.emu.gateway_url.rstrip("/"),
                "shards": self.emu.gateway.recommended_shards,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
            }
        )

    # application commands --------------------------------------------------------------------
    def _command_scope(self, request: web.Request) -> Optional[int]:
        self._app(request)
        if "guild_id" in request.match_info:
            return self._guild(request).id
        return None

    async def commands(self, request: web.Request) -> web.Response:
        gid = self._command_scope(request)
        if request.method == "GET":
            return json_response(self.emu.commands(gid))
        payload, _ = await read_body(request)
        if request.method == "PUT":
            check_commands(payload)
            return json_response(self.emu.store_commands(payload, gid))
        if request.method == "POST":
            check_commands([payload])
            current = [
                c
                for c in self.emu.commands(gid)
                if (c.get("type", 1), c["name"]) != (payload.get("type", 1), payload.get("name"))
            ]
            stored = self.emu.store_commands(current + [payload], gid)
            return json_response(stored[-1], status=201)
        raise web.HTTPMethodNotAllowed(request.method, ["GET", "PUT", "POST"])

    async def command(self, request: web.Request) -> web.Response:
        gid = self._command_scope(request)
        cid = request.match_info["command_id"]
        current = self.emu.commands(gid)
        found = next((c for c in current if c["id"] == cid), None)
        if found is None:
            raise unknown("command")
        if request.method == "GET":
            return json_response(found)
        if request.method == "DELETE":
            self.emu.store_commands([c for c in current if c is not found], gid)
            return web.Response(status=204)
        payload, _ = await read_body(request)
        merged = dict(found, **payload)
        check_commands([merged])
        stored = self.emu.store_commands([merged if c is found else c for c in current], gid)
        return json_response(next(c for c in stored if c["id"] == cid))

    async def no_permissions(self, request: web.Request) -> web.Response:
        self._command_scope(request)
        return json_response([])

    # channels --------------------------------------------------------------------------------
    async def open_dm(self, request: web.Request) -> web.Response:
        payload, _ = await read_body(request)
        user = self.world.users.get(_int(payload.get("recipient_id"), "user"))
        if user is None:
            raise unknown("user")
        dm = self.world.dm_channel(user)
        assert dm is not None  # (made if missing)
        return json_response(payloads.channel(self.world, dm))

    async def channel(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        if request.method == "GET":
            return json_response(payloads.channel(self.world, ch))
        if request.method == "DELETE":
            if ch.is_dm:
                return json_response(payloads.channel(self.world, ch))
            self._require(ch, MANAGE_THREADS if ch.is_thread else 1 << 4)
            self.emu.delete_channel(ch)
            return json_response(payloads.channel(self.world, ch))
        if request.method != "PATCH":
            raise web.HTTPMethodNotAllowed(request.method, ["GET", "PATCH", "DELETE"])
        payload, _ = await read_body(request)
        if ch.is_dm:
            raise ApiError(400, 50003, "Cannot execute action on a DM channel")
        if ch.is_thread and ch.owner_id != self.world.bot.id:
            self._require(ch, MANAGE_THREADS)
        self.emu.edit_channel(ch, payload)
        return json_response(payloads.channel(self.world, ch))

    async def messages(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        if request.method == "GET":
            return json_response(self._history(ch, request.query))
        if request.method != "POST":
            raise web.HTTPMethodNotAllowed(request.method, ["GET", "POST"])
        payload, files = await read_body(request)
        self._check_can_send(ch, payload, files)
        msg = self.emu.messaging.create(ch, self.world.bot, payload, files)
        return json_response(payloads.message(self.world, msg))

    def _check_can_send(self, ch: Channel, payload: dict, files: dict) -> None:
        if ch.is_dm:
            recipient = self.world.users[ch.recipient_id]  # type: ignore[index]
            if not recipient.dm_open or recipient.bot:
                raise ApiError(403, 50007, "Cannot send messages to this user")
            return
        self._require(ch, SEND_MESSAGES_IN_THREADS if ch.is_thread else SEND_MESSAGES)
        if files:
            self._require(ch, ATTACH_FILES)
        if payload.get("embeds"):
            self._require(ch, EMBED_LINKS)
        if ch.is_thread and ch.archived:
            if ch.locked:
                raise ApiError(400, 50083, "Thread is archived")
            self.emu.edit_channel(ch, {"archived": False})

    def _history(self, ch: Channel, query: Any) -> List[dict]:
        msgs = [m for m in self.world.channel_messages(ch)]
        limit = max(1, min(100, int(query.get("limit", 50))))
        if "before" in query:
            msgs = [m for m in msgs if m.id < int(query["before"])]
        if "after" in query:
            msgs = [m for m in msgs if m.id > int(query["after"])][:limit]
        if "around" in query:
            pivot = int(query["around"])
            older = [m for m in msgs if m.id <= pivot][-(limit // 2 + 1) :]
            msgs = older + [m for m in msgs if m.id > pivot][: limit - len(older)]
        msgs = msgs[-limit:]
        return [payloads.message(self.world, m) for m in reversed(msgs)]

    async def message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        msg = self._message(ch, request)
        if request.method == "GET":
            return json_response(payloads.message(self.world, msg))
        if request.method == "DELETE":
            if msg.author.id != self.world.bot.id:
                if ch.is_dm:
                    raise ApiError(403, 50003, "Cannot execute action on a DM channel")
                self._require(ch, MANAGE_MESSAGES)
            self.emu.messaging.delete(msg)
            return web.Response(status=204)
        if request.method != "PATCH":
            raise web.HTTPMethodNotAllowed(request.method, ["GET", "PATCH", "DELETE"])
        if msg.author.id != self.world.bot.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        payload, files = await read_body(request)
        msg = self.emu.messaging.edit(msg, payload, files)
        return json_response(payloads.message(self.world, msg))

    async def reaction(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        msg = self._message(ch, request)
        users = msg.reactions.setdefault(request.match_info["emoji"], set())
        if request.method == "PUT":
            users.add(self.world.bot.id)
        else:
            users.discard(self.world.bot.id)
        self.emu.notify()
        return web.Response(status=204)

    async def pin(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        msg = self._message(ch, request)
        msg.pinned = request.method == "PUT"
        self.emu.notify()
        return web.Response(status=204)

    async def typing(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        self.emu.typing.append(ch.id)
        self.emu.notify()
        return web.Response(status=204)

    # threads ---------------------------------------------------------------------------------
    def _thread_params(self, payload: dict) -> Dict[str, Any]:
        name = payload.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "name": {
                        "_errors": [{"code": "BASE_TYPE_BAD_LENGTH", "message": "Must be between 1 and 100 in length."}]
                    }
                },
            )
        duration = payload.get("auto_archive_duration") or 1440
        if duration not in (60, 1440, 4320, 10080):
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "auto_archive_duration": {
                        "_errors": [
                            {"code": "BASE_TYPE_CHOICES", "message": "Value must be one of {60, 1440, 4320, 10080}."}
                        ]
                    }
                },
            )
        return {"name": name, "auto_archive_duration": duration}

    async def thread_without_message(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        payload, _ = await read_body(request)
        if parent.type != 0:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        ttype = payload.get("type") or PRIVATE_THREAD
        self._require(parent, CREATE_PRIVATE_THREADS if ttype == PRIVATE_THREAD else CREATE_PUBLIC_THREADS)
        th = self.emu.create_thread(
            parent, type=ttype, invitable=payload.get("invitable", True), **self._thread_params(payload)
        )
        return json_response(payloads.channel(self.world, th), status=201)

    async def thread_from_message(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        msg = self._message(parent, request)
        payload, _ = await read_body(request)
        if parent.type != 0:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if msg.thread_id is not None:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        self._require(parent, CREATE_PUBLIC_THREADS)
        th = self.emu.create_thread(parent, type=PUBLIC_THREAD, thread_id=msg.id, **self._thread_params(payload))
        msg.thread_id = th.id
        return json_response(payloads.channel(self.world, th), status=201)

    def _thread(self, request: web.Request) -> Channel:
        th = self._channel(request)
        if not th.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        return th

    async def thread_members(self, request: web.Request) -> web.Response:
        th = self._thread(request)
        return json_response([payloads.thread_member(self.world, th, u) for u in sorted(th.member_ids)])

    async def thread_member(self, request: web.Request) -> web.Response:
        th = self._thread(request)
        ref = request.match_info["user_id"]
        uid = self.world.bot.id if ref == "@me" else _int(ref, "user")
        if request.method == "GET":
            if uid not in th.member_ids:
                raise unknown("member")
            return json_response(payloads.thread_member(self.world, th, uid))
        guild = self.world.guild_of(th)
        if uid not in self.world.users or (guild is not None and uid not in guild.members):
            raise unknown("member")
        self.emu.set_thread_member(th, uid, request.method == "PUT")
        return web.Response(status=204)

    # guilds ----------------------------------------------------------------------------------
    async def get_guild(self, request: web.Request) -> web.Response:
        data = payloads.guild_create(self.world, self._guild(request))
        for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at"):
            data.pop(key, None)
        data["approximate_member_count"] = data.pop("member_count")
        return json_response(data)

    async def guild_channels(self, request: web.Request) -> web.Response:
        g = self._guild(request)
        return json_response(
            [
                payloads.channel(self.world, self.world.channels[c])
                for c in g.channel_ids
                if not self.world.channels[c].deleted
            ]
        )

    async def guild_roles(self, request: web.Request) -> web.Response:
        return json_response([payloads.role(r) for r in self._guild(request).roles.values()])

    async def guild_members(self, request: web.Request) -> web.Response:
        g = self._guild(request)
        limit = int(request.query.get("limit", 1))
        after = int(request.query.get("after", 0))
        members = sorted((m for m in g.members.values() if m.user.id > after), key=lambda m: m.user.id)
        return json_response([payloads.member(m) for m in members[:limit]])

    async def guild_member(self, request: web.Request) -> web.Response:
        g = self._guild(request)
        member = g.members.get(_int(request.match_info["user_id"], "member"))
        if member is None:
            raise unknown("member")
        return json_response(payloads.member(member))
