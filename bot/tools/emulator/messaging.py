"""Request bodies (JSON or multipart with files[N]), attachments, mentions, and the
create / edit / delete of messages with their gateway events."""

from __future__ import annotations

import json
import mimetypes
import re
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Protocol, Tuple
from urllib.parse import quote

from aiohttp import web

import bot.tools.emulator.payloads as payloads

from .errors import ApiError, FormErrors
from .gateway import Gateway
from .limits import check_message, check_upload_size
from .model import EPHEMERAL, LOADING, Attachment, Channel, Message, User, World


class MessagingHost(Protocol):
    """What messaging needs of the emulator (core.EmulatorCore): the world, the gateway that tells the
    bot, the address attachments are served from, and a wake-up for whoever waits on the world."""

    world: World
    gateway: Gateway

    @property
    def base_url(self) -> str: ...

    def notify(self) -> None: ...


GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
BODY_CAP = 64 * 1024 * 1024
SETTABLE_FLAGS = 4 | 4096 | (1 << 15)  # SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2
_FILE_FIELD = re.compile(r"^files?\[?(\d*)\]?$")
_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")
# A multipart part's Content-Disposition parameters: quoted (backslash escapes) or bare.
_DISPOSITION_PARAM = re.compile(r';\s*([\w*-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))')
_ESCAPED = re.compile(r"\\(.)")
_BOUNDARY = re.compile(r'boundary=(?:"([^"]+)"|([^;\s]+))', re.IGNORECASE)
MALFORMED = "400: Bad Request"  # a multipart body that is not one (what the server says of a bad request)


NONCE_WINDOW_S = 300.0  # enforce_nonce: "the past few minutes"


@dataclass
class Upload:
    filename: str
    data: bytes


def _parse_json(raw: bytes) -> Any:
    try:
        return json.loads(raw.decode("utf-8")) if raw else {}
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ApiError(400, 50109, "The request body contains invalid JSON.") from None


async def read_body(request: web.Request) -> Tuple[Any, Dict[int, Upload]]:
    """Return (payload, {index: Upload}); raises 413/40005 when uploads exceed the limit."""
    files: Dict[int, Upload] = {}
    content_type = request.headers.get("Content-Type", "")
    # Read as text, not request.content_type: aiohttp parses that with the email package, 0.34 ms an upload
    # (each has a new boundary, so its cache misses): 3% of the CPU of an end-to-end test posting boards (#29).
    if not content_type.lstrip().lower().startswith("multipart/"):
        payload = _parse_json(await request.read())
        if not isinstance(payload, (dict, list)):
            raise ApiError(400, 50109, "The request body contains invalid JSON.")
        return payload, files
    try:
        body = await request.read()  # (the server's client_max_size is BODY_CAP)
    except web.HTTPRequestEntityTooLarge:
        raise ApiError(413, 40005, "Request entity too large") from None
    payload = {}
    for disposition, raw in multipart_parts(body, content_type):
        name = disposition.get("name", "")
        if name == "payload_json":
            payload = _parse_json(raw)
            continue
        match = _FILE_FIELD.match(name)
        if match:
            index = int(match.group(1) or 0)
            files[index] = Upload(filename=disposition.get("filename") or f"file{index}", data=raw)
    check_upload_size(sum(len(f.data) for f in files.values()))
    if not isinstance(payload, dict):
        raise ApiError(400, 50109, "The request body contains invalid JSON.")
    return payload, files


def multipart_parts(body: bytes, content_type: str) -> List[Tuple[Dict[str, str], bytes]]:
    """A multipart/form-data body's parts: (Content-Disposition parameters, data). Read here, not with
    aiohttp's streaming reader, which was 8% of the CPU of an end-to-end test that posts boards: it
    parses every part's headers twice, escaping all of ASCII into a new pattern each time (issue #29)."""
    found = _BOUNDARY.search(content_type)
    if found is None:
        raise ApiError(400, 0, MALFORMED)
    delimiter = b"\r\n--" + (found.group(1) or found.group(2)).encode("latin-1")
    parts = []
    for chunk in (b"\r\n" + body).split(delimiter)[1:]:
        if chunk.startswith(b"--"):  # the closing delimiter
            break
        head, blank, data = chunk.partition(b"\r\n\r\n")
        if not blank:
            raise ApiError(400, 0, MALFORMED)
        disposition = ""
        for line in head.decode("utf-8", "replace").split("\r\n"):
            key, _, value = line.partition(":")
            if key.strip().lower() == "content-disposition":
                disposition = value
        parts.append((disposition_params(disposition), data))
    return parts


def disposition_params(header: str) -> Dict[str, str]:
    """A multipart part's Content-Disposition parameters (name, filename...), quoted or bare."""
    return {
        key.lower(): bare or _ESCAPED.sub(r"\1", quoted) for key, quoted, bare in _DISPOSITION_PARAM.findall(header)
    }


def png_size(data: bytes) -> Optional[Tuple[int, int]]:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return None


class Messaging:
    def __init__(self, emu: MessagingHost) -> None:
        self.emu = emu
        self.world = emu.world
        self._nonces: Dict[Tuple[int, int, str], int] = {}  # (channel, author, nonce) -> message id

    # attachments ------------------------------------------------------------------------
    def store_attachment(
        self, channel_id: int, upload: Upload, filename: Optional[str] = None, description: Optional[str] = None
    ) -> Attachment:
        name = filename or upload.filename
        size = png_size(upload.data)
        ctype = "image/png" if size else (mimetypes.guess_type(name)[0] or "application/octet-stream")
        aid = self.world.ids.next()
        url = f"{self.emu.base_url}/attachments/{channel_id}/{aid}/{quote(name)}"
        att = Attachment(
            id=aid,
            filename=name,
            data=upload.data,
            content_type=ctype,
            url=url,
            width=size[0] if size else None,
            height=size[1] if size else None,
            description=description,
        )
        self.world.attachments[aid] = att
        return att

    def _attachments(
        self,
        channel: Channel,
        payload: dict,
        files: Dict[int, Upload],
        existing: Iterable[Attachment] = (),
        editing: bool = False,
    ) -> List[Attachment]:
        existing = list(existing)
        listed = payload.get("attachments")
        if listed is None:
            kept = existing if editing else []
            return kept + [self.store_attachment(channel.id, files[i]) for i in sorted(files)]
        by_id = {a.id: a for a in existing}
        out: List[Attachment] = []
        used = set()
        errors = FormErrors()
        for n, item in enumerate(listed if isinstance(listed, list) else []):
            try:
                aid = int(item.get("id"))
            except (TypeError, ValueError, AttributeError):
                errors.add(("attachments", n, "id"), "BASE_TYPE_REQUIRED", "This field is required")
                continue
            if aid in by_id:
                out.append(by_id[aid])
            elif aid in files:
                used.add(aid)
                out.append(self.store_attachment(channel.id, files[aid], item.get("filename"), item.get("description")))
            else:
                errors.add(("attachments", n, "id"), "ATTACHMENT_NOT_FOUND", "Unknown attachment")
        errors.raise_if_any()
        out += [self.store_attachment(channel.id, files[i]) for i in sorted(files) if i not in used]
        return out

    # mentions ------------------------------------------------------------------------------
    def _mentions(self, msg: Message, allowed: Optional[dict]) -> None:
        content = msg.content or ""
        users = [int(u) for u in dict.fromkeys(_USER_MENTION.findall(content)) if int(u) in self.world.users]
        roles = [int(r) for r in dict.fromkeys(_ROLE_MENTION.findall(content))]
        everyone = "@everyone" in content or "@here" in content
        if allowed is None:
            parse, allowed_users, allowed_roles, replied = {"users", "roles", "everyone"}, set(), set(), True
        else:
            parse = set(allowed.get("parse") or [])
            allowed_users = {int(u) for u in allowed.get("users") or []}
            allowed_roles = {int(r) for r in allowed.get("roles") or []}
            replied = bool(allowed.get("replied_user", False))
        msg.mentions = [u for u in users if "users" in parse or u in allowed_users]
        msg.mention_roles = [r for r in roles if "roles" in parse or r in allowed_roles]
        msg.mention_everyone = everyone and "everyone" in parse
        ref = (
            self.world.messages.get(int(msg.message_reference.get("message_id") or 0))
            if msg.message_reference
            else None
        )
        if ref is not None and replied and ref.author.id not in msg.mentions:
            msg.mentions.append(ref.author.id)

    # create / edit / delete -------------------------------------------------------------
    def create(
        self,
        channel: Channel,
        author: User,
        payload: dict,
        files: Optional[Dict[int, Upload]] = None,
        *,
        ephemeral_to: Optional[User] = None,
        loading: bool = False,
        msg_type: int = 0,
        webhook: bool = False,
        interaction_metadata: Optional[dict] = None,
    ) -> Message:
        files = files or {}
        if not loading:
            check_message(payload, files=len(files))
        again = self._nonce_repeat(channel, author, payload)
        if again is not None:
            return again
        flags = (payload.get("flags") or 0) & SETTABLE_FLAGS if isinstance(payload.get("flags"), int) else 0
        if ephemeral_to is not None:
            flags |= EPHEMERAL
        if loading:
            flags |= LOADING
        reference = payload.get("message_reference")
        if reference is not None:
            self._check_reference(channel, reference)
            msg_type = 19 if msg_type == 0 else msg_type
        msg = Message(
            id=self.world.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=payload.get("content") or "",
            embeds=list(payload.get("embeds") or []),
            components=list(payload.get("components") or []),
            flags=flags,
            type=msg_type,
            timestamp=self.world.clock.iso(),
            tts=bool(payload.get("tts")),
            webhook_id=self.world.app_id if webhook else None,
            interaction_metadata=interaction_metadata,
            message_reference=self._reference_payload(channel, reference),
            visible_to=ephemeral_to.id if ephemeral_to is not None else None,
            nonce=str(payload["nonce"]) if payload.get("nonce") is not None else None,
            created_at=self.world.clock.time(),
        )
        msg.attachments = self._attachments(channel, payload, files)
        self._mentions(msg, payload.get("allowed_mentions"))
        self.world.messages[msg.id] = msg
        if msg.nonce is not None:
            self._nonces[(channel.id, author.id, msg.nonce)] = msg.id
        if not msg.ephemeral:
            channel.last_message_id = msg.id
            if channel.is_thread:
                channel.message_count += 1
        self.broadcast("MESSAGE_CREATE", msg)
        self.emu.notify()
        return msg

    def _nonce_repeat(self, channel: Channel, author: User, payload: dict) -> Optional[Message]:
        """Discord: with enforce_nonce, a nonce the same author used in this channel in the last few
        minutes returns the message already created instead of a second one."""
        nonce = payload.get("nonce")
        if nonce is None or not payload.get("enforce_nonce"):
            return None
        seen = self._nonces.get((channel.id, author.id, str(nonce)))
        msg = self.world.messages.get(seen) if seen is not None else None
        if msg is None or msg.deleted or self.world.clock.time() - msg.created_at > NONCE_WINDOW_S:
            return None
        return msg

    def _check_reference(self, channel: Channel, reference: Any) -> None:
        try:
            target = self.world.messages[int(reference.get("message_id"))]
        except (AttributeError, KeyError, TypeError, ValueError):
            target = None
        if target is None or target.deleted or target.ephemeral:
            if isinstance(reference, dict) and reference.get("fail_if_not_exists", True):
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    {
                        "message_reference": {
                            "_errors": [{"code": "REPLIES_UNKNOWN_MESSAGE", "message": "Unknown message"}]
                        }
                    },
                )

    def _reference_payload(self, channel: Channel, reference: Any) -> Optional[dict]:
        if not isinstance(reference, dict) or reference.get("message_id") is None:
            return None
        return {
            "type": 0,
            "message_id": str(reference["message_id"]),
            "channel_id": str(reference.get("channel_id") or channel.id),
            "guild_id": payloads.sid(channel.guild_id),
        }

    def edit(
        self, msg: Message, payload: dict, files: Optional[Dict[int, Upload]] = None, *, resolve_loading: bool = False
    ) -> Message:
        files = files or {}
        check_message(payload, files=len(files), creating=False)
        channel = self.world.channels[msg.channel_id]
        attachments = self._attachments(channel, payload, files, msg.attachments, editing=True)
        content = payload["content"] or "" if "content" in payload else msg.content
        embeds = list(payload.get("embeds") or []) if "embeds" in payload else msg.embeds
        components = list(payload.get("components") or []) if "components" in payload else msg.components
        if not (content or embeds or components or attachments):
            raise ApiError(400, 50006, "Cannot send an empty message")
        msg.content, msg.embeds, msg.components, msg.attachments = content, embeds, components, attachments
        if isinstance(payload.get("flags"), int):
            msg.flags = (msg.flags & (EPHEMERAL | LOADING)) | (payload["flags"] & SETTABLE_FLAGS)
        if resolve_loading:
            msg.flags &= ~LOADING
        if "content" in payload or "allowed_mentions" in payload:
            self._mentions(msg, payload.get("allowed_mentions"))
        msg.edited_timestamp = self.world.clock.iso()
        self.broadcast("MESSAGE_UPDATE", msg)
        self.emu.notify()
        return msg

    def delete(self, msg: Message) -> None:
        msg.deleted = True
        if not msg.ephemeral:
            data: Dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id:
                data["guild_id"] = str(msg.guild_id)
            self._dispatch("MESSAGE_DELETE", msg, data)
        self.emu.notify()

    # gateway --------------------------------------------------------------------------------
    def broadcast(self, event: str, msg: Message) -> None:
        if msg.ephemeral:
            return  # ephemeral messages never reach the gateway
        channel = self.world.channels[msg.channel_id]
        blank = (
            not channel.is_dm
            and msg.author.id != self.world.bot.id
            and not self.emu.gateway.intents & MESSAGE_CONTENT
            and self.world.bot.id not in msg.mentions
        )
        self._dispatch(event, msg, payloads.message(self.world, msg, blank_content=blank))

    def _dispatch(self, event: str, msg: Message, data: dict) -> None:
        channel = self.world.channels[msg.channel_id]
        self.emu.gateway.dispatch(event, data, intent=DIRECT_MESSAGES if channel.is_dm else GUILD_MESSAGES)
