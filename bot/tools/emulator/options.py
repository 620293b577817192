"""Build application-command interaction data from ``("heat", "new")`` + ``{"track": "usa"}``,
validated against the schema the bot SYNCED — the checks Discord's client makes before sending."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Protocol, Sequence, Tuple

import bot.tools.emulator.payloads as payloads

from .errors import EmulatorError
from .messaging import Messaging, Upload
from .model import ALL_PERMISSIONS, Attachment, Channel, Guild, Role, User, World


class CommandHost(Protocol):
    """What building a command's data reads of the emulator (core.EmulatorCore): the world, the
    commands the bot synced, and the uploads (an attachment option's file)."""

    world: World
    global_commands: List[dict]
    guild_commands: Dict[int, List[dict]]
    messaging: Messaging


def find_command(
    emu: CommandHost, user: User, channel: Channel, name: str, ctype: int = 1
) -> Tuple[dict, Optional[int]]:
    world = emu.world
    guild = world.guild_of(channel)
    if guild is not None:
        for cmd in emu.guild_commands.get(guild.id, []):
            if cmd["name"] == name and cmd.get("type", 1) == ctype:
                return _check_usable(world, user, guild, cmd), guild.id
    for cmd in emu.global_commands:
        if cmd["name"] == name and cmd.get("type", 1) == ctype:
            return _check_usable(world, user, guild, cmd), None
    synced = sorted(
        {c["name"] for c in emu.global_commands}
        | ({c["name"] for c in emu.guild_commands.get(guild.id, [])} if guild else set())
    )
    raise EmulatorError(f"unknown command /{name} in {channel!r}; synced commands: {synced}")


def _check_usable(world: World, user: User, guild: Optional[Guild], cmd: dict) -> dict:
    contexts = cmd.get("contexts")
    if guild is None:
        if cmd.get("dm_permission") is False or (contexts is not None and 1 not in contexts):
            raise EmulatorError(f"/{cmd['name']} is not available in DMs")
        return cmd
    if contexts is not None and 0 not in contexts:
        raise EmulatorError(f"/{cmd['name']} is not available in guilds")
    need = cmd.get("default_member_permissions")
    if need is not None:
        perms = world.permissions(guild, user.id)
        need = int(need)
        if perms != ALL_PERMISSIONS and (need == 0 or perms & need != need):
            raise EmulatorError(f"{user.name} lacks the permissions to use /{cmd['name']}")
    return cmd


def command_data(
    emu: CommandHost,
    user: User,
    channel: Channel,
    path: Sequence[str],
    options: Dict[str, Any],
    *,
    focused: Optional[str] = None,
) -> dict:
    if not path:
        raise EmulatorError("name the command, e.g. slash(user, channel, 'heat', 'new', track='usa')")
    name, *rest = path
    cmd, guild_id = find_command(emu, user, channel, name)
    label = [name]
    leaf: List[dict] = cmd.get("options") or []
    wrappers: List[dict] = []
    while any(o.get("type") in (1, 2) for o in leaf):
        subs = [o["name"] for o in leaf if o.get("type") in (1, 2)]
        if not rest:
            raise EmulatorError(f"/{' '.join(label)} needs a sub-command: one of {subs}")
        sub = next((o for o in leaf if o.get("type") in (1, 2) and o["name"] == rest[0]), None)
        if sub is None:
            raise EmulatorError(f"/{' '.join(label)} has no sub-command {rest[0]!r}; one of {subs}")
        rest.pop(0)
        wrappers.append(sub)
        label.append(sub["name"])
        leaf = sub.get("options") or []
    if rest:
        raise EmulatorError(f"/{' '.join(label)} has no sub-command {rest[0]!r}")
    resolved: Dict[str, Dict[str, Any]] = {}
    values = _leaf_values(emu, channel, leaf, options, resolved, " ".join(label), focused)
    for sub in reversed(wrappers):
        values = [{"type": sub["type"], "name": sub["name"], "options": values}]
    data: Dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": cmd.get("type", 1), "options": values}
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    if resolved:
        data["resolved"] = resolved
    return data


def _leaf_values(
    emu: CommandHost,
    channel: Channel,
    leaf: List[dict],
    options: Dict[str, Any],
    resolved: dict,
    label: str,
    focused: Optional[str],
) -> List[dict]:
    known = {o["name"]: o for o in leaf}
    extra = [k for k in options if k not in known]
    if extra:
        raise EmulatorError(f"/{label}: unknown option(s) {extra}; options are {list(known)}")
    if focused is not None and not (known.get(focused) or {}).get("autocomplete"):
        raise EmulatorError(f"/{label}: option {focused!r} has no autocomplete")
    out = []
    for o in leaf:
        name = o["name"]
        if name == focused:
            value = options.get(name)
            out.append({"type": o["type"], "name": name, "value": "" if value is None else str(value), "focused": True})
            continue
        if options.get(name) is None:
            if o.get("required") and focused is None:
                raise EmulatorError(f"/{label}: missing required option {name!r}")
            continue
        out.append(
            {
                "type": o["type"],
                "name": name,
                "value": convert(emu, channel, o, options[name], resolved, f"/{label} {name}"),
            }
        )
    return out


def convert(emu: CommandHost, channel: Channel, o: dict, value: Any, resolved: dict, where: str) -> Any:
    t = o["type"]

    def bad(msg: str) -> EmulatorError:
        return EmulatorError(f"{where}: {msg}")

    if t == 3 and not isinstance(value, str):
        raise bad(f"expects a string, got {value!r}")
    if t == 4 and (isinstance(value, bool) or not isinstance(value, int) or abs(value) > 2**53):
        raise bad(f"expects an integer, got {value!r}")
    if t == 10 and (isinstance(value, bool) or not isinstance(value, (int, float))):
        raise bad(f"expects a number, got {value!r}")
    if t == 5 and not isinstance(value, bool):
        raise bad(f"expects a boolean, got {value!r}")
    if t in (3, 4, 5, 10):
        choices = o.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise bad(f"{value!r} is not one of the choices {[c['value'] for c in choices]}")
        if t == 3:
            lo, hi = o.get("min_length", 0), o.get("max_length", 6000)
            if not lo <= len(value) <= hi:
                raise bad(f"length must be between {lo} and {hi}")
        if t in (4, 10):
            if o.get("min_value") is not None and value < o["min_value"]:
                raise bad(f"{value} is less than the minimum {o['min_value']}")
            if o.get("max_value") is not None and value > o["max_value"]:
                raise bad(f"{value} is more than the maximum {o['max_value']}")
        return value
    world = emu.world
    guild = world.guild_of(channel)
    try:
        if t == 6:
            return str(resolve_user(world, guild, value, resolved).id)
        if t == 7:
            return str(resolve_channel(world, guild, value, resolved, o.get("channel_types")).id)
        if t == 8:
            return str(resolve_role(world, guild, value, resolved).id)
        if t == 9:
            try:
                return str(resolve_user(world, guild, value, resolved).id)
            except EmulatorError:
                return str(resolve_role(world, guild, value, resolved).id)
        if t == 11:
            att = attachment_option(emu, channel, value)
            resolved.setdefault("attachments", {})[str(att.id)] = payloads.attachment(att)
            return str(att.id)
    except EmulatorError as exc:
        raise bad(str(exc)) from None
    raise bad(f"unsupported option type {t}")


def resolve_user(world: World, guild: Optional[Guild], ref: Any, resolved: dict) -> User:
    user = world.user(ref)
    resolved.setdefault("users", {})[str(user.id)] = payloads.user(user)
    if guild is not None and user.id in guild.members:
        resolved.setdefault("members", {})[str(user.id)] = payloads.member(
            guild.members[user.id], with_user=False, permissions=world.permissions(guild, user.id)
        )
    return user


def resolve_role(world: World, guild: Optional[Guild], ref: Any, resolved: dict) -> Role:
    if guild is None:
        raise EmulatorError("roles only exist in guilds")
    role = world.role(guild, ref)
    resolved.setdefault("roles", {})[str(role.id)] = payloads.role(role)
    return role


def resolve_channel(
    world: World, guild: Optional[Guild], ref: Any, resolved: dict, channel_types: Optional[List[int]] = None
) -> Channel:
    ch = world.channel(ref)
    if guild is None or ch.guild_id != guild.id:
        raise EmulatorError(f"{ch!r} is not a channel of this guild")
    if channel_types and ch.type not in channel_types:
        raise EmulatorError(f"{ch!r} has type {ch.type}, allowed types {channel_types}")
    resolved.setdefault("channels", {})[str(ch.id)] = payloads.channel(
        world, ch, permissions=world.permissions(guild, world.bot.id)
    )
    return ch


def attachment_option(emu: CommandHost, channel: Channel, value: Any) -> Attachment:
    if isinstance(value, Attachment):
        return value
    if isinstance(value, (bytes, bytearray)):
        value = ("file.bin", bytes(value))
    if isinstance(value, tuple) and len(value) == 2:
        return emu.messaging.store_attachment(channel.id, Upload(filename=value[0], data=bytes(value[1])))
    raise EmulatorError("attachment options take (filename, bytes)")
