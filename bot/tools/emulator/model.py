"""In-memory Discord world: users, guilds, roles, members, channels, threads, DMs, messages.

Everything is keyed by integer snowflakes; payloads (strings) are built in payloads.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, Iterator, List, Optional, Set, Tuple

from .clock import Clock, Snowflakes
from .errors import EmulatorError

# Permission bits (subset) --------------------------------------------------------------
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 53) - 1

DEFAULT_EVERYONE = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)
DEFAULT_BOT = DEFAULT_EVERYONE | MANAGE_MESSAGES | MANAGE_THREADS

# Channel types
TEXT, DM, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 11, 12

EPHEMERAL = 1 << 6
LOADING = 1 << 7


@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False
    dm_open: bool = True
    global_name: Optional[str] = None
    locale: str = "en-US"  # the language of the user's Discord client, sent with each interaction

    def __repr__(self) -> str:
        return f"<User {self.name} {self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int = 0
    position: int = 0
    managed: bool = False


@dataclass(eq=False)
class Member:
    user: User
    guild_id: int
    role_ids: List[int] = field(default_factory=list)
    nick: Optional[str] = None
    joined_at: str = ""


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    roles: Dict[int, Role] = field(default_factory=dict)
    members: Dict[int, Member] = field(default_factory=dict)
    channel_ids: List[int] = field(default_factory=list)
    locale: str = "en-US"

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    def __repr__(self) -> str:
        return f"<Guild {self.name} {self.id}>"


@dataclass(eq=False)
class Channel:
    id: int
    type: int
    name: Optional[str] = None
    guild_id: Optional[int] = None
    parent_id: Optional[int] = None
    owner_id: Optional[int] = None
    recipient_id: Optional[int] = None
    position: int = 0
    topic: Optional[str] = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_timestamp: str = ""
    create_timestamp: str = ""
    invitable: bool = True
    member_ids: Set[int] = field(default_factory=set)
    message_count: int = 0
    last_message_id: Optional[int] = None
    deleted: bool = False

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    def __repr__(self) -> str:
        return f"<Channel #{self.name or self.id} type={self.type} {self.id}>"


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str
    url: str
    width: Optional[int] = None
    height: Optional[int] = None
    description: Optional[str] = None

    @property
    def size(self) -> int:
        return len(self.data)


def walk_components(items: Iterable[Any]) -> Iterator[dict]:
    """Every component of a message's `components`, depth first: rows, their children, and a
    section's accessory or a container's component (anything not a dict is skipped)."""
    for item in items or ():
        if not isinstance(item, dict):
            continue
        yield item
        yield from walk_components(item.get("components") or ())
        for key in ("accessory", "component"):
            if isinstance(item.get(key), dict):
                yield from walk_components([item[key]])


@dataclass(eq=False)
class Message:
    id: int
    channel_id: int
    author: User
    guild_id: Optional[int] = None
    content: str = ""
    embeds: List[dict] = field(default_factory=list)
    components: List[dict] = field(default_factory=list)
    attachments: List[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: str = ""
    edited_timestamp: Optional[str] = None
    tts: bool = False
    webhook_id: Optional[int] = None
    interaction_metadata: Optional[dict] = None
    message_reference: Optional[dict] = None
    mentions: List[int] = field(default_factory=list)
    mention_roles: List[int] = field(default_factory=list)
    mention_everyone: bool = False
    visible_to: Optional[int] = None  # user id for ephemeral messages
    deleted: bool = False
    thread_id: Optional[int] = None
    pinned: bool = False
    nonce: Optional[str] = None
    created_at: float = 0.0
    reactions: Dict[str, Set[int]] = field(default_factory=dict)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    # component helpers -------------------------------------------------------------
    def all_components(self) -> List[dict]:
        """Every component, flattened out of action rows / containers / sections."""
        return list(walk_components(self.components))

    @property
    def menu_key(self) -> tuple:
        """This message with its current components: a bot that edits a message in place with a
        new menu makes a new key, so a simulated player acts on it again."""
        return (self.id, *(c.get("custom_id") for c in self.all_components()))

    @property
    def buttons(self) -> List[dict]:
        return [c for c in self.all_components() if c.get("type") == 2]

    @property
    def selects(self) -> List[dict]:
        return [c for c in self.all_components() if c.get("type") in (3, 5, 6, 7, 8)]

    @property
    def button_labels(self) -> List[Optional[str]]:
        return [b.get("label") for b in self.buttons]

    def button(self, label: Optional[str] = None, custom_id: Optional[str] = None) -> Optional[dict]:
        return self.find_component(custom_id=custom_id, label=label, types=(2,))

    def find_component(
        self, custom_id: Optional[str] = None, label: Optional[str] = None, types: Iterable[int] = (2, 3, 5, 6, 7, 8)
    ) -> Optional[dict]:
        types = tuple(types)
        for comp in self.all_components():
            if comp.get("type") not in types:
                continue
            if custom_id is not None and comp.get("custom_id") != custom_id:
                continue
            if label is not None and comp.get("label") != label:
                continue
            return comp
        return None

    def __repr__(self) -> str:
        return f"<Message {self.id} in {self.channel_id} {self.content[:40]!r}>"


class World:
    """The store. Methods here never talk to the gateway; the Emulator wraps them."""

    def __init__(self, clock: Clock, bot_name: str = "EmuBot") -> None:
        self.clock = clock
        self.ids = Snowflakes(clock)
        self.bot = User(id=self.ids.next(), name=bot_name, bot=True)
        self.app_id = self.bot.id
        self.users: Dict[int, User] = {self.bot.id: self.bot}
        self.guilds: Dict[int, Guild] = {}
        self.channels: Dict[int, Channel] = {}
        self.messages: Dict[int, Message] = {}
        self.attachments: Dict[int, Attachment] = {}

    # creation ----------------------------------------------------------------------
    def add_user(
        self, name: str, *, dm_open: bool = True, bot: bool = False, global_name: Optional[str] = None
    ) -> User:
        if any(u.name == name for u in self.users.values()):
            raise EmulatorError(f"a user named {name!r} already exists")
        user = User(id=self.ids.next(), name=name, bot=bot, dm_open=dm_open, global_name=global_name)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str,
        *,
        owner: Optional[User] = None,
        everyone_permissions: int = DEFAULT_EVERYONE,
        bot_permissions: int = DEFAULT_BOT,
        shard: Optional[Tuple[int, int]] = None,
    ) -> Guild:
        gid = self.ids.next() if shard is None else self.ids.next_on_shard(*shard)
        owner = owner or self.bot
        guild = Guild(id=gid, name=name, owner_id=owner.id)
        guild.roles[gid] = Role(id=gid, guild_id=gid, name="@everyone", permissions=everyone_permissions)
        self.guilds[gid] = guild
        bot_role = self.add_role(guild, self.bot.name, bot_permissions, managed=True)
        self.add_member(guild, self.bot, roles=[bot_role])
        if owner is not self.bot:
            self.add_member(guild, owner)
        return guild

    def add_role(self, guild: Guild, name: str, permissions: int = 0, *, managed: bool = False) -> Role:
        role = Role(
            id=self.ids.next(),
            guild_id=guild.id,
            name=name,
            permissions=permissions,
            position=len(guild.roles),
            managed=managed,
        )
        guild.roles[role.id] = role
        return role

    def add_member(self, guild: Guild, user: User, *, roles: Iterable[Role] = (), nick: Optional[str] = None) -> Member:
        member = Member(
            user=user, guild_id=guild.id, role_ids=[r.id for r in roles], nick=nick, joined_at=self.clock.iso()
        )
        guild.members[user.id] = member
        return member

    def add_text_channel(self, guild: Guild, name: str, *, topic: Optional[str] = None) -> Channel:
        ch = Channel(
            id=self.ids.next(), type=TEXT, name=name, guild_id=guild.id, topic=topic, position=len(guild.channel_ids)
        )
        self.channels[ch.id] = ch
        guild.channel_ids.append(ch.id)
        return ch

    def dm_channel(self, user: User, *, create: bool = True) -> Optional[Channel]:
        for ch in self.channels.values():
            if ch.is_dm and ch.recipient_id == user.id:
                return ch
        if not create:
            return None
        ch = Channel(id=self.ids.next(), type=DM, recipient_id=user.id)
        self.channels[ch.id] = ch
        return ch

    def create_thread(
        self,
        parent: Channel,
        name: str,
        owner: User,
        *,
        type: int = PUBLIC_THREAD,
        thread_id: Optional[int] = None,
        auto_archive_duration: int = 1440,
        invitable: bool = True,
    ) -> Channel:
        now = self.clock.iso()
        th = Channel(
            id=thread_id or self.ids.next(),
            type=type,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=owner.id,
            auto_archive_duration=auto_archive_duration,
            archive_timestamp=now,
            create_timestamp=now,
            invitable=invitable,
            member_ids={owner.id},
        )
        self.channels[th.id] = th
        return th

    # look-ups ------------------------------------------------------------------------
    @staticmethod
    def _ref_id(ref: Any) -> Optional[int]:
        if isinstance(ref, bool):
            return None
        if isinstance(ref, int):
            return ref
        if isinstance(ref, str) and ref.isdigit():
            return int(ref)
        rid = getattr(ref, "id", None)
        return rid if isinstance(rid, int) else None

    def user(self, ref: Any) -> User:
        if isinstance(ref, User):
            return ref
        if isinstance(ref, Member):
            return ref.user
        rid = self._ref_id(ref)
        if rid is not None and rid in self.users:
            return self.users[rid]
        if isinstance(ref, str):
            for u in self.users.values():
                if u.name == ref:
                    return u
        raise EmulatorError(f"unknown user {ref!r}")

    def guild(self, ref: Any = None) -> Guild:
        if isinstance(ref, Guild):
            return ref
        if ref is None:
            if len(self.guilds) == 1:
                return next(iter(self.guilds.values()))
            raise EmulatorError("several guilds: name one")
        rid = self._ref_id(ref)
        if rid is not None and rid in self.guilds:
            return self.guilds[rid]
        for g in self.guilds.values():
            if g.name == ref:
                return g
        raise EmulatorError(f"unknown guild {ref!r}")

    def channel(self, ref: Any) -> Channel:
        if isinstance(ref, Channel):
            return ref
        rid = self._ref_id(ref)
        if rid is not None and rid in self.channels:
            return self.channels[rid]
        if isinstance(ref, str):
            name = ref.lstrip("#")
            for ch in self.channels.values():
                if ch.name == name and not ch.deleted:
                    return ch
        raise EmulatorError(f"unknown channel {ref!r}")

    def role(self, guild: Guild, ref: Any) -> Role:
        if isinstance(ref, Role):
            return ref
        rid = self._ref_id(ref)
        if rid is not None and rid in guild.roles:
            return guild.roles[rid]
        for r in guild.roles.values():
            if r.name == ref:
                return r
        raise EmulatorError(f"unknown role {ref!r}")

    def message(self, ref: Any) -> Message:
        if isinstance(ref, Message):
            return ref
        rid = self._ref_id(ref)
        if rid is not None and rid in self.messages:
            return self.messages[rid]
        raise EmulatorError(f"unknown message {ref!r}")

    def guild_of(self, channel: Channel) -> Optional[Guild]:
        return self.guilds.get(channel.guild_id) if channel.guild_id else None

    def member(self, guild: Guild, user: User) -> Optional[Member]:
        return guild.members.get(user.id)

    def permissions(self, guild: Guild, user_id: int) -> int:
        if guild.owner_id == user_id:
            return ALL_PERMISSIONS
        perms = guild.everyone.permissions
        member = guild.members.get(user_id)
        if member:
            for rid in member.role_ids:
                if rid in guild.roles:
                    perms |= guild.roles[rid].permissions
        return ALL_PERMISSIONS if perms & ADMINISTRATOR else perms

    def channel_messages(
        self, channel: Channel, *, include_ephemeral: bool = False, for_user: Optional[User] = None
    ) -> List[Message]:
        out = []
        for m in self.messages.values():
            if m.channel_id != channel.id or m.deleted:
                continue
            if m.ephemeral and not include_ephemeral:
                if for_user is None or m.visible_to != for_user.id:
                    continue
            out.append(m)
        out.sort(key=lambda m: m.id)
        return out

    def threads(self, channel: Channel) -> List[Channel]:
        return sorted(
            (c for c in self.channels.values() if c.parent_id == channel.id and not c.deleted), key=lambda c: c.id
        )
