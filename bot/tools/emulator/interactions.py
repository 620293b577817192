"""Interactions: the envelope sent as INTERACTION_CREATE, the 3-second acknowledgement window,
the callback endpoint (types 4-9, answered with ``?with_response=1`` JSON), and the
interaction webhook (follow-ups, @original) valid for 15 minutes."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Protocol

from aiohttp import web

import bot.tools.emulator.payloads as payloads

from .clock import Clock
from .errors import ApiError, EmulatorError, json_response, unknown
from .gateway import Gateway
from .limits import check_choices, check_message, check_modal
from .messaging import Messaging, read_body
from .model import EPHEMERAL, Channel, Message, User, World, walk_components


class InteractionsHost(Protocol):
    """What interactions need of the emulator (core.EmulatorCore): the world and its clock, the gateway
    that delivers them, messaging for the answers, how long an answer settles, and a wake-up."""

    world: World
    clock: Clock
    gateway: Gateway
    messaging: Messaging
    settle_delay: float

    def notify(self) -> None: ...

    async def settle(self, delay: float) -> None: ...


PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {4, 5, 9},
    MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
    AUTOCOMPLETE: {8},
    MODAL_SUBMIT: {4, 5, 6, 7},
}
FAILED = "This interaction failed"


@dataclass(eq=False)
class InteractionRecord:
    """What happened to one simulated interaction (returned by slash/click/select/...)."""

    id: int
    token: str = field(repr=False)
    type: int
    user: User
    channel: Channel
    data: dict
    payload: dict = field(repr=False)  # the INTERACTION_CREATE body the bot received
    created: float = field(repr=False)
    source: Optional[Message] = None  # the message carrying the clicked component
    callback_type: Optional[int] = None
    response: Optional[Message] = None
    followups: List[Message] = field(default_factory=list)
    ephemeral: bool = False
    failed: bool = False
    error: Optional[str] = None
    rejected: List[dict] = field(default_factory=list)  # refused bot requests for this interaction
    choices: Optional[List[dict]] = None
    modal: Optional[dict] = None
    _done: Optional[asyncio.Future] = field(default=None, repr=False)
    _watchdog: Optional[asyncio.Task] = field(default=None, repr=False)

    @property
    def acked(self) -> bool:
        return self.callback_type is not None

    @property
    def menu_spent(self) -> bool:
        """The clicked message no longer carries the components that were clicked: removed, or
        replaced by a newer menu (a bot may edit its message in place)."""
        if self.source is None:
            return False
        was = [c.get("custom_id") for c in walk_components((self.payload.get("message") or {}).get("components") or ())]
        return was != [c.get("custom_id") for c in self.source.all_components()] or self.source.deleted

    @property
    def original(self) -> Optional[Message]:
        """The message ``@original`` refers to."""
        if self.callback_type in (6, 7):
            return self.source
        return self.response

    @property
    def messages(self) -> List[Message]:
        out = [self.response] if self.response is not None else []
        return out + [m for m in self.followups if m is not self.response]

    def _finish(self) -> None:
        if self._done is not None and not self._done.done():
            self._done.set_result(None)
        if self._watchdog is not None and self._watchdog is not asyncio.current_task():
            self._watchdog.cancel()


class Interactions:
    def __init__(self, emu: InteractionsHost, timeout: float = 3.0, token_ttl: float = 15 * 60) -> None:
        self.emu = emu
        self.world = emu.world
        self.timeout = timeout
        self.token_ttl = token_ttl
        self.records: Dict[int, InteractionRecord] = {}
        self.by_token: Dict[str, InteractionRecord] = {}

    # building & running --------------------------------------------------------------------
    def create(
        self, itype: int, user: User, channel: Channel, data: dict, source: Optional[Message] = None
    ) -> InteractionRecord:
        world = self.world
        iid, token = world.ids.next(), secrets.token_urlsafe(48)
        guild = world.guild_of(channel)
        env: Dict[str, Any] = {
            "id": str(iid),
            "application_id": str(world.app_id),
            "type": itype,
            "token": token,
            "version": 1,
            "data": data,
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": payloads.ATTACHMENT_SIZE_LIMIT,
            "channel_id": str(channel.id),
        }
        if guild is not None:
            member = guild.members.get(user.id)
            if member is None:
                raise EmulatorError(f"{user.name} is not a member of {guild.name}")
            perms = world.permissions(guild, user.id)
            env.update(
                {
                    "channel": payloads.channel(world, channel, permissions=perms),
                    "app_permissions": str(world.permissions(guild, world.bot.id)),
                    "guild_id": str(guild.id),
                    "guild_locale": guild.locale,
                    "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
                    "member": payloads.member(member, permissions=perms),
                    "authorizing_integration_owners": {"0": str(guild.id)},
                    "context": 0,
                }
            )
        else:
            env.update(
                {
                    "channel": payloads.channel(world, channel),
                    "user": payloads.user(user),
                    "app_permissions": str(1 << 11 | 1 << 14 | 1 << 15),
                    "authorizing_integration_owners": {"0": "0"},
                    "context": 1,
                }
            )
        if source is not None:
            env["message"] = payloads.message(world, source)
        rec = InteractionRecord(
            id=iid,
            token=token,
            type=itype,
            user=user,
            channel=channel,
            data=data,
            payload=env,
            created=world.clock.monotonic(),
            source=source,
        )
        self.records[iid] = rec
        self.by_token[token] = rec
        return rec

    async def run(self, rec: InteractionRecord, settle: Optional[float] = None) -> InteractionRecord:
        """Dispatch INTERACTION_CREATE, wait for the acknowledgement (or the 3 s failure)."""
        rec._done = asyncio.get_running_loop().create_future()
        if not self.emu.gateway.dispatch("INTERACTION_CREATE", rec.payload):
            self._fail(rec, FAILED + " (the application is not connected)")
        else:
            rec._watchdog = asyncio.create_task(self._watch(rec))
        self.emu.notify()
        await rec._done
        delay = self.emu.settle_delay if settle is None else settle
        if rec.acked and delay > 0:
            await self.emu.settle(delay)
        return rec

    async def _watch(self, rec: InteractionRecord) -> None:
        await self.emu.clock.sleep(rec.created + self.timeout - self.emu.clock.monotonic())
        if not rec.acked:
            self._fail(rec, FAILED)

    def _fail(self, rec: InteractionRecord, message: str) -> None:
        rec.failed, rec.error = True, message
        rec._finish()
        self.emu.notify()

    def cancel_all(self) -> None:
        for rec in self.records.values():
            if rec._watchdog is not None:
                rec._watchdog.cancel()
            if rec._done is not None and not rec._done.done():
                rec._done.cancel()

    # helpers --------------------------------------------------------------------------------
    def _reject(self, rec: InteractionRecord, request: web.Request, err: ApiError) -> None:
        rec.rejected.append(
            {
                "method": request.method,
                "path": request.path,
                "status": err.status,
                "code": err.code,
                "message": err.message,
                "errors": err.errors,
            }
        )
        rec.error = f"{err.status} {err.code} {err.message}"
        self.emu.notify()

    def _metadata(self, rec: InteractionRecord) -> dict:
        meta: Dict[str, Any] = {
            "id": str(rec.id),
            "type": rec.type,
            "user": payloads.user(rec.user),
            "authorizing_integration_owners": rec.payload["authorizing_integration_owners"],
        }
        if rec.type == APPLICATION_COMMAND:
            meta["name"] = rec.data.get("name")
        if rec.source is not None:
            meta["interacted_message_id"] = str(rec.source.id)
        if rec.response is not None:
            meta["original_response_message_id"] = str(rec.response.id)
        return meta

    def _msg_type(self, rec: InteractionRecord) -> int:
        if rec.type == APPLICATION_COMMAND:
            return 20 if rec.data.get("type", 1) == 1 else 23
        return 0

    def _new_message(self, rec: InteractionRecord, data: dict, files: dict, *, loading: bool = False) -> Message:
        ephemeral = bool((data.get("flags") or 0) & EPHEMERAL) if isinstance(data.get("flags"), int) else False
        return self.emu.messaging.create(
            rec.channel,
            self.world.bot,
            data,
            files,
            ephemeral_to=rec.user if ephemeral else None,
            loading=loading,
            msg_type=self._msg_type(rec),
            webhook=True,
            interaction_metadata=self._metadata(rec),
        )

    # POST /interactions/{id}/{token}/callback -------------------------------------------------
    async def callback(self, request: web.Request) -> web.Response:
        try:
            rec = self.records[int(request.match_info["iid"])]
        except (KeyError, ValueError):
            raise unknown("interaction") from None
        if rec.token != request.match_info["token"]:
            raise unknown("interaction")
        payload, files = await read_body(request)
        try:
            result = self._acknowledge(rec, payload, files)
        except ApiError as err:
            self._reject(rec, request, err)
            raise
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return web.Response(status=204)
        return json_response(result)

    def _acknowledge(self, rec: InteractionRecord, payload: dict, files: dict) -> dict:
        if rec.acked:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if rec.failed or self.emu.clock.monotonic() > rec.created + self.timeout:
            raise unknown("interaction")
        cb, data = payload.get("type"), payload.get("data") or {}
        allowed = set(ALLOWED_CALLBACKS.get(rec.type, ()))
        if rec.source is None:
            allowed -= {6, 7}
        if cb not in allowed:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "type": {
                        "_errors": [
                            {
                                "code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                "message": f"Callback type {cb} is not valid for interaction type {rec.type}",
                            }
                        ]
                    }
                },
            )
        msg: Optional[Message] = None
        if cb in (4, 7):
            check_message(data, files=len(files), creating=cb == 4, prefix=("data",))
        if cb == 4:
            msg = self._new_message(rec, data, files)
        elif cb == 5:
            msg = self._new_message(rec, {"flags": data.get("flags") or 0}, {}, loading=True)
        elif cb == 7:
            msg = self.emu.messaging.edit(rec.source, data, files)  # type: ignore[arg-type]
        elif cb == 8:
            rec.choices = check_choices(data)
        elif cb == 9:
            check_modal(data)
            rec.modal = data
        if cb in (4, 5):
            rec.response = msg
            rec.ephemeral = msg.ephemeral  # type: ignore[union-attr]
        elif cb in (6, 7):
            rec.ephemeral = bool(rec.source and rec.source.ephemeral)
            msg = rec.source
            if cb == 7:
                rec.response = msg  # the updated component message
        rec.callback_type = cb
        rec._finish()
        self.emu.notify()
        interaction = {
            "id": str(rec.id),
            "type": rec.type,
            "response_message_loading": cb == 5,
            "response_message_ephemeral": rec.ephemeral,
        }
        resource: Dict[str, Any] = {"type": cb}
        if msg is not None:
            interaction["response_message_id"] = str(msg.id)
            if cb in (4, 5, 7):
                resource["message"] = payloads.message(self.world, msg)
        return {"interaction": interaction, "resource": resource}

    # /webhooks/{app_id}/{token}[...] ----------------------------------------------------------
    def _webhook_record(self, request: web.Request) -> InteractionRecord:
        try:
            app_id = int(request.match_info["app_id"])
        except ValueError:
            raise unknown("webhook") from None
        rec = self.by_token.get(request.match_info["token"])
        if app_id != self.world.app_id or rec is None:
            raise unknown("webhook")
        if self.emu.clock.monotonic() > rec.created + self.token_ttl:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return rec

    def _webhook_message(self, rec: InteractionRecord, ref: str) -> Message:
        if ref == "@original":
            msg = rec.original
        else:
            msg = next((m for m in rec.messages + ([rec.source] if rec.source else []) if str(m.id) == ref), None)
        if msg is None or msg.deleted:
            raise unknown("message")
        return msg

    async def execute(self, request: web.Request) -> web.Response:
        rec = self._webhook_record(request)
        try:
            payload, files = await read_body(request)
            if not rec.acked or rec.callback_type in (8, 9):
                raise unknown("webhook")
            placeholder = rec.response
            if rec.callback_type == 5 and placeholder is not None and placeholder.loading and not rec.followups:
                msg = self.emu.messaging.edit(placeholder, payload, files, resolve_loading=True)
            else:
                msg = self._new_message(rec, payload, files)
        except ApiError as err:
            self._reject(rec, request, err)
            raise
        rec.followups.append(msg)
        self.emu.notify()
        if request.query.get("wait", "").lower() in ("1", "true"):
            return json_response(payloads.message(self.world, msg))
        return web.Response(status=204)

    async def message(self, request: web.Request) -> web.Response:
        rec = self._webhook_record(request)
        try:
            msg = self._webhook_message(rec, request.match_info["message"])
            if request.method == "GET":
                return json_response(payloads.message(self.world, msg))
            if request.method == "DELETE":
                self.emu.messaging.delete(msg)
                return web.Response(status=204)
            payload, files = await read_body(request)
            msg = self.emu.messaging.edit(msg, payload, files, resolve_loading=msg.loading)
        except ApiError as err:
            self._reject(rec, request, err)
            raise
        return json_response(payloads.message(self.world, msg))
