"""Control API (/_emu/...): lets another process act as users and inspect the world.
Users, channels and messages are named by id or by name; errors answer 400 {"error": ...}."""

from __future__ import annotations

import json
from typing import Any, Awaitable, Callable, List, Optional

from aiohttp import web

import bot.tools.emulator.payloads as payloads

from .errors import EmulatorError, json_response
from .interactions import InteractionRecord
from .model import Channel, Message

from .core import EmulatorCore

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def message_json(emu: EmulatorCore, m: Message) -> dict:
    data = payloads.message(emu.world, m)
    data.update(
        {"ephemeral": m.ephemeral, "loading": m.loading, "deleted": m.deleted, "visible_to": payloads.sid(m.visible_to)}
    )
    return data


def interaction_json(emu: EmulatorCore, rec: InteractionRecord) -> dict:
    return {
        "id": str(rec.id),
        "type": rec.type,
        "user": str(rec.user.id),
        "channel_id": str(rec.channel.id),
        "callback_type": rec.callback_type,
        "ephemeral": rec.ephemeral,
        "failed": rec.failed,
        "error": rec.error,
        "rejected": rec.rejected,
        "choices": rec.choices,
        "modal": rec.modal,
        "response": message_json(emu, rec.response) if rec.response else None,
        "followups": [message_json(emu, m) for m in rec.followups],
    }


def channel_json(emu: EmulatorCore, ch: Channel) -> dict:
    return payloads.channel(emu.world, ch)


def wrap(fn: Callable[[web.Request, dict], Awaitable[Any]]) -> Handler:
    """An aiohttp handler from `fn(request, body)`: the JSON body read, the answer as JSON, errors
    as 400 {"error": ...}."""

    async def handler(request: web.Request) -> web.StreamResponse:
        try:
            body = await request.json() if request.can_read_body else {}
        except json.JSONDecodeError:
            return json_response({"error": "invalid JSON"}, 400)
        try:
            result = await fn(request, body or {})
        except (EmulatorError, TimeoutError, KeyError, ValueError, TypeError) as exc:
            return json_response({"error": f"{type(exc).__name__}: {exc}"}, 400)
        if isinstance(result, web.StreamResponse):
            return result
        return json_response(result)

    return handler


def flag(request: web.Request, key: str) -> bool:
    """Whether the query parameter `key` says yes (1, true, yes)."""
    return request.query.get(key, "").lower() in ("1", "true", "yes")


class Control:
    """The control API's handlers over one emulator: each takes the request and its JSON body and
    returns what is answered as JSON (or a response of its own)."""

    def __init__(self, emu: EmulatorCore) -> None:
        self.emu = emu

    async def state(self, request: web.Request, body: dict) -> dict:
        emu = self.emu
        w = emu.world
        return {
            "app_id": str(w.app_id),
            "bot": payloads.user(w.bot),
            "api_base": emu.api_base,
            "gateway_url": emu.gateway_url,
            "connected": emu.gateway.connected,
            "ready_count": emu.gateway.ready_count,
            "resumes": emu.gateway.resumes,
            "shards": [
                {"shard": list(key), "connected": session.conn is not None}
                for key, session in emu.gateway.sessions.items()
            ],
            "users": [dict(payloads.user(u), dm_open=u.dm_open) for u in w.users.values()],
            "guilds": [
                {
                    "id": str(g.id),
                    "name": g.name,
                    "roles": [payloads.role(r) for r in g.roles.values()],
                    "members": [str(m) for m in g.members],
                    "channels": [channel_json(emu, w.channels[c]) for c in g.channel_ids],
                }
                for g in w.guilds.values()
            ],
            "threads": [channel_json(emu, c) for c in w.channels.values() if c.is_thread and not c.deleted],
            "commands": {"global": emu.global_commands, "guilds": {str(k): v for k, v in emu.guild_commands.items()}},
            "interactions": len(emu.interactions.records),
        }

    async def add_user(self, request: web.Request, body: dict) -> dict:
        u = self.emu.add_user(body["name"], dm_open=body.get("dm_open", True))
        return dict(payloads.user(u), dm_open=u.dm_open)

    async def edit_user(self, request: web.Request, body: dict) -> dict:
        u = self.emu.world.user(request.match_info["user"])
        if "dm_open" in body:
            self.emu.set_dm_open(u, bool(body["dm_open"]))
        return dict(payloads.user(u), dm_open=u.dm_open)

    async def add_guild(self, request: web.Request, body: dict) -> dict:
        shard = body.get("shard")  # [id, total]: a guild id that shard owns
        g = self.emu.add_guild(
            body["name"], owner=body.get("owner"), shard=(int(shard[0]), int(shard[1])) if shard else None
        )
        return {"id": str(g.id), "name": g.name}

    async def add_channel(self, request: web.Request, body: dict) -> dict:
        return channel_json(
            self.emu, self.emu.add_text_channel(request.match_info["guild"], body["name"], topic=body.get("topic"))
        )

    async def add_member(self, request: web.Request, body: dict) -> dict:
        m = self.emu.add_member(request.match_info["guild"], body["user"], roles=body.get("roles", ()))
        return payloads.member(m)

    async def add_role(self, request: web.Request, body: dict) -> dict:
        return payloads.role(
            self.emu.add_role(request.match_info["guild"], body["name"], int(body.get("permissions", 0)))
        )

    @staticmethod
    def path_of(body: dict) -> List[str]:
        path = body.get("path") or body.get("command") or []
        return path.split() if isinstance(path, str) else list(path)

    async def slash(self, request: web.Request, body: dict) -> dict:
        rec = await self.emu.slash(body["user"], body["channel"], *self.path_of(body), **(body.get("options") or {}))
        return interaction_json(self.emu, rec)

    async def autocomplete(self, request: web.Request, body: dict) -> dict:
        choices = await self.emu.autocomplete(
            body["user"], body["channel"], *self.path_of(body), focused=body["focused"], **(body.get("options") or {})
        )
        return {"choices": choices}

    async def click(self, request: web.Request, body: dict) -> dict:
        rec = await self.emu.click(
            body["user"], body["message"], body.get("custom_id"), body.get("label"), force=bool(body.get("force"))
        )
        return interaction_json(self.emu, rec)

    async def select(self, request: web.Request, body: dict) -> dict:
        rec = await self.emu.select(
            body["user"], body["message"], body["values"], body.get("custom_id"), force=bool(body.get("force"))
        )
        return interaction_json(self.emu, rec)

    async def modal(self, request: web.Request, body: dict) -> dict:
        rec = await self.emu.submit_modal(
            body["user"], int(body["interaction"]), body.get("values") or {}, custom_id=body.get("custom_id")
        )
        return interaction_json(self.emu, rec)

    async def raw_interaction(self, request: web.Request, body: dict) -> dict:
        rec = await self.emu.raw_interaction(
            body["user"],
            body["channel"],
            body.get("data") or {},
            type=int(body.get("type", 3)),
            message=body.get("message"),
        )
        return interaction_json(self.emu, rec)

    async def post_message(self, request: web.Request, body: dict) -> dict:
        message = await self.emu.send_message(body["user"], body["channel"], body.get("content", ""))
        return message_json(self.emu, message)

    @staticmethod
    def for_user(request: web.Request) -> Optional[Any]:
        return request.query.get("for_user") or None

    async def channel_messages(self, request: web.Request, body: dict) -> list:
        msgs = self.emu.channel_messages(
            request.match_info["channel"],
            include_ephemeral=flag(request, "include_ephemeral"),
            for_user=self.for_user(request),
        )
        return [message_json(self.emu, m) for m in msgs]

    async def dm_messages(self, request: web.Request, body: dict) -> list:
        msgs = self.emu.dm_messages(request.match_info["user"], include_ephemeral=flag(request, "include_ephemeral"))
        return [message_json(self.emu, m) for m in msgs]

    async def threads(self, request: web.Request, body: dict) -> list:
        return [channel_json(self.emu, t) for t in self.emu.threads(request.match_info["channel"])]

    async def get_message(self, request: web.Request, body: dict) -> dict:
        return message_json(self.emu, self.emu.message(request.match_info["message"]))

    async def get_interaction(self, request: web.Request, body: dict) -> dict:
        return interaction_json(self.emu, self.emu.interactions.records[int(request.match_info["interaction"])])

    async def attachment(self, request: web.Request, body: dict) -> web.Response:
        att = self.emu.world.attachments[int(request.match_info["attachment"])]
        return web.Response(body=att.data, headers={"Content-Type": att.content_type})

    async def wait_ready(self, request: web.Request, body: dict) -> dict:
        await self.emu.wait_for_ready(float(body.get("timeout", 10)), count=int(body.get("count", 1)))
        return {"ready_count": self.emu.gateway.ready_count}

    async def wait_commands(self, request: web.Request, body: dict) -> dict:
        cmds = await self.emu.wait_for_commands(
            float(body.get("timeout", 10)), guild=body.get("guild"), count=int(body.get("count", 1))
        )
        return {"commands": cmds}

    async def add_fault(self, request: web.Request, body: dict) -> dict:
        kind, method, path = body["kind"], body.get("method", "*"), body["path"]
        if kind == "429":
            self.emu.inject_429(method, path, int(body.get("times", 1)), float(body.get("retry_after", 0.2)))
        elif kind == "failure":
            self.emu.inject_failure(method, path, int(body.get("status", 500)), int(body.get("times", 1)))
        elif kind == "slow":
            self.emu.slow(method, path, float(body["delay"]), body.get("times"))
        else:
            raise ValueError(f"unknown fault kind {kind!r}")
        return {"faults": len(self.emu.faults.rules)}

    async def clear_faults(self, request: web.Request, body: dict) -> dict:
        self.emu.clear_faults()
        return {"faults": 0}

    async def reconnect(self, request: web.Request, body: dict) -> dict:
        await self.emu.force_reconnect()
        return {"resumes": self.emu.gateway.resumes}

    async def drop(self, request: web.Request, body: dict) -> dict:
        await self.emu.drop_connections(int(body.get("code", 4000)), wait=bool(body.get("wait", True)))
        return {"resumes": self.emu.gateway.resumes, "identifies": self.emu.gateway.identifies}

    async def advance(self, request: web.Request, body: dict) -> dict:
        self.emu.clock.advance(float(body["seconds"]))
        return {"offset": self.emu.clock.offset}

    def routes(self) -> List[web.RouteDef]:
        r = web
        return [
            r.get("/_emu/state", wrap(self.state)),
            r.post("/_emu/users", wrap(self.add_user)),
            r.patch("/_emu/users/{user}", wrap(self.edit_user)),
            r.post("/_emu/guilds", wrap(self.add_guild)),
            r.post("/_emu/guilds/{guild}/channels", wrap(self.add_channel)),
            r.post("/_emu/guilds/{guild}/members", wrap(self.add_member)),
            r.post("/_emu/guilds/{guild}/roles", wrap(self.add_role)),
            r.post("/_emu/slash", wrap(self.slash)),
            r.post("/_emu/autocomplete", wrap(self.autocomplete)),
            r.post("/_emu/click", wrap(self.click)),
            r.post("/_emu/select", wrap(self.select)),
            r.post("/_emu/modal", wrap(self.modal)),
            r.post("/_emu/raw_interaction", wrap(self.raw_interaction)),
            r.post("/_emu/messages", wrap(self.post_message)),
            r.get("/_emu/channels/{channel}/messages", wrap(self.channel_messages)),
            r.get("/_emu/channels/{channel}/threads", wrap(self.threads)),
            r.get("/_emu/dms/{user}/messages", wrap(self.dm_messages)),
            r.get("/_emu/messages/{message}", wrap(self.get_message)),
            r.get("/_emu/interactions/{interaction}", wrap(self.get_interaction)),
            r.get("/_emu/attachments/{attachment}", wrap(self.attachment)),
            r.post("/_emu/wait/ready", wrap(self.wait_ready)),
            r.post("/_emu/wait/commands", wrap(self.wait_commands)),
            r.post("/_emu/faults", wrap(self.add_fault)),
            r.delete("/_emu/faults", wrap(self.clear_faults)),
            r.post("/_emu/reconnect", wrap(self.reconnect)),
            r.post("/_emu/drop", wrap(self.drop)),
            r.post("/_emu/clock/advance", wrap(self.advance)),
        ]


def control_routes(emu: EmulatorCore) -> List[web.RouteDef]:
    """The /_emu/... routes of `emu`."""
    return Control(emu).routes()
