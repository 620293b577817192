"""Model -> Discord JSON payloads (snowflakes as strings; required keys per discord.py 2.7.1)."""

from __future__ import annotations

from typing import Any, Dict, Optional

from .model import Attachment, Channel, Guild, Member, Message, Role, User, World

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


def sid(value: Optional[int]) -> Optional[str]:
    return None if value is None else str(value)


def user(u: User) -> Dict[str, Any]:
    return {
        "id": str(u.id),
        "username": u.name,
        "discriminator": "0",
        "global_name": u.global_name,
        "avatar": None,
        "bot": u.bot,
        "public_flags": 0,
        "flags": 0,
    }


def member(m: Member, *, with_user: bool = True, permissions: Optional[int] = None) -> Dict[str, Any]:
    data: Dict[str, Any] = {
        "roles": [str(r) for r in m.role_ids],
        "joined_at": m.joined_at,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "nick": m.nick,
        "avatar": None,
        "premium_since": None,
        "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user(m.user)
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def role(r: Role) -> Dict[str, Any]:
    return {
        "id": str(r.id),
        "name": r.name,
        "permissions": str(r.permissions),
        "position": r.position,
        "color": 0,
        "colors": {"primary_color": 0},
        "hoist": False,
        "managed": r.managed,
        "mentionable": False,
        "flags": 0,
        "icon": None,
        "unicode_emoji": None,
    }


def channel(world: World, ch: Channel, *, permissions: Optional[int] = None) -> Dict[str, Any]:
    if ch.is_dm:
        assert ch.recipient_id is not None  # a DM channel always has its recipient
        recipient = world.users[ch.recipient_id]
        data: Dict[str, Any] = {
            "id": str(ch.id),
            "type": 1,
            "recipients": [user(recipient)],
            "last_message_id": sid(ch.last_message_id),
            "flags": 0,
        }
    else:
        data = {
            "id": str(ch.id),
            "type": ch.type,
            "name": ch.name,
            "guild_id": sid(ch.guild_id),
            "position": ch.position,
            "permission_overwrites": [],
            "nsfw": False,
            "topic": ch.topic,
            "rate_limit_per_user": 0,
            "last_message_id": sid(ch.last_message_id),
            "flags": 0,
            "parent_id": sid(ch.parent_id),
        }
    if ch.is_thread:
        data.update(
            {
                "owner_id": str(ch.owner_id),
                "message_count": ch.message_count,
                "member_count": len(ch.member_ids),
                "total_message_sent": ch.message_count,
                "thread_metadata": {
                    "archived": ch.archived,
                    "auto_archive_duration": ch.auto_archive_duration,
                    "archive_timestamp": ch.archive_timestamp,
                    "locked": ch.locked,
                    "create_timestamp": ch.create_timestamp,
                    "invitable": ch.invitable,
                },
            }
        )
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def thread_member(world: World, th: Channel, user_id: int) -> Dict[str, Any]:
    return {
        "id": str(th.id),
        "user_id": str(user_id),
        "join_timestamp": th.create_timestamp or world.clock.iso(),
        "flags": 0,
    }


def thread_create(world: World, th: Channel, *, newly_created: bool = True) -> Dict[str, Any]:
    data = channel(world, th)
    data["newly_created"] = newly_created
    if world.bot.id in th.member_ids:
        data["member"] = thread_member(world, th, world.bot.id)
    return data


def guild_create(world: World, g: Guild) -> Dict[str, Any]:
    channels = [channel(world, world.channels[c]) for c in g.channel_ids if not world.channels[c].deleted]
    for c in channels:
        c.pop("guild_id", None)
    threads = [
        channel(world, t)
        for t in world.channels.values()
        if t.guild_id == g.id and t.is_thread and not t.deleted and not t.archived
    ]
    return {
        "id": str(g.id),
        "name": g.name,
        "icon": None,
        "splash": None,
        "owner_id": str(g.owner_id),
        "afk_timeout": 300,
        "afk_channel_id": None,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [role(r) for r in g.roles.values()],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "preferred_locale": g.locale,
        "premium_tier": 0,
        "nsfw_level": 0,
        "description": None,
        "joined_at": g.members[world.bot.id].joined_at,
        "large": False,
        "unavailable": False,
        "member_count": len(g.members),
        "members": [member(m) for m in g.members.values()],
        "channels": channels,
        "threads": threads,
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "premium_progress_bar_enabled": False,
    }


def attachment(a: Attachment) -> Dict[str, Any]:
    data: Dict[str, Any] = {
        "id": str(a.id),
        "filename": a.filename,
        "size": a.size,
        "url": a.url,
        "proxy_url": a.url,
        "content_type": a.content_type,
    }
    if a.width is not None:
        data["width"], data["height"] = a.width, a.height
    if a.description:
        data["description"] = a.description
    return data


def message(world: World, m: Message, *, blank_content: bool = False) -> Dict[str, Any]:
    data: Dict[str, Any] = {
        "id": str(m.id),
        "channel_id": str(m.channel_id),
        "author": user(m.author),
        "content": "" if blank_content else m.content,
        "timestamp": m.timestamp,
        "edited_timestamp": m.edited_timestamp,
        "tts": m.tts,
        "mention_everyone": m.mention_everyone,
        "mentions": [user(world.users[u]) for u in m.mentions if u in world.users],
        "mention_roles": [str(r) for r in m.mention_roles],
        "attachments": [] if blank_content else [attachment(a) for a in m.attachments],
        "embeds": [] if blank_content else m.embeds,
        "components": [] if blank_content else m.components,
        "pinned": m.pinned,
        "type": m.type,
        "flags": m.flags,
    }
    if m.webhook_id is not None:
        data["webhook_id"] = data["application_id"] = str(m.webhook_id)
    if m.interaction_metadata is not None:
        data["interaction_metadata"] = m.interaction_metadata
    if m.message_reference is not None:
        data["message_reference"] = m.message_reference
        ref = world.messages.get(int(m.message_reference.get("message_id") or 0))
        if ref is not None and not ref.deleted:
            data["referenced_message"] = message(world, ref)
    if m.reactions:
        data["reactions"] = [
            {
                "emoji": {"id": None, "name": e},
                "count": len(us),
                "me": world.bot.id in us,
                "count_details": {"burst": 0, "normal": len(us)},
                "burst_colors": [],
                "me_burst": False,
                "burst_me": False,
            }
            for e, us in m.reactions.items()
            if us
        ]
    if m.guild_id is not None:
        data["guild_id"] = str(m.guild_id)
        guild = world.guilds.get(m.guild_id)
        mem = guild.members.get(m.author.id) if guild else None
        if mem is not None and m.webhook_id is None:
            data["member"] = member(mem, with_user=False)
    if m.thread_id is not None and m.thread_id in world.channels:
        data["thread"] = channel(world, world.channels[m.thread_id])
    return data
