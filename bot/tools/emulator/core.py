"""The emulator's world and the Python API tests use to set it up, act as users, wait and inject
faults (EmulatorCore); server.py serves it over HTTP and the gateway as the Emulator."""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Dict, List, Optional, Set, Tuple, TypeVar

import bot.tools.emulator.overrides as overrides
import bot.tools.emulator.payloads as payloads

from .actions import UserActions
from .clock import Clock
from .errors import EmulatorError
from .faults import Fault, Faults
from .gateway import GUILD_MEMBERS, Gateway
from .interactions import InteractionRecord, Interactions
from .messaging import Messaging
from .model import DEFAULT_BOT, DEFAULT_EVERYONE, Channel, Guild, Member, Message, Role, User, World
from .rest import API, GUILDS_INTENT

T = TypeVar("T")
LOOPBACK = "127.0.0.1"
# discord.py's tasks that handle an interaction (its event dispatch, the command tree, views, modals)
HANDLER_TASKS = (
    "discord.py: on_interaction",
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-modal-dispatch-",
)
SETTLE_CAP = 2.0  # seconds an in-process bot's handlers are waited for after an acknowledgement


class EmulatorCore(UserActions):
    """A local Discord's state and its Python API: the world, the synced commands, the gateway,
    messaging and interactions, the faults; what the REST and control routes act on. The Emulator
    (server.py) serves it on 127.0.0.1."""

    def __init__(
        self,
        *,
        token: str = "emulator-bot-token",
        bot_name: str = "EmuBot",
        clock: Optional[Clock] = None,
        settle_delay: float = 0.05,
        interaction_timeout: float = 3.0,
        port: int = 0,
        shards: int = 1,
    ) -> None:
        self.token = token
        self.clock = clock or Clock()
        self.world = World(self.clock, bot_name)
        self.owner = self.world.add_user("app-owner")
        self.settle_delay = settle_delay
        self.bots_in_process = 0  # bots on this event loop (testing.start_bot_in_process): see settle
        self.port = port
        self.global_commands: List[dict] = []
        self.guild_commands: Dict[int, List[dict]] = {}
        self.command_syncs: Dict[Optional[int], int] = {}
        self.rest_log: List[dict] = []
        self.server_errors: List[str] = []
        self.typing: List[int] = []
        self.gateway = Gateway(self, shards)  # `shards`: the count GET /gateway/bot recommends
        self.messaging = Messaging(self)
        self.interactions = Interactions(self, timeout=interaction_timeout)
        self.faults = Faults()
        self._waiters: Set[asyncio.Future] = set()
        self._overrides_applied = 0

    @property
    def base_url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    @property
    def api_base(self) -> str:
        return self.base_url + API

    @property
    def gateway_url(self) -> str:
        return f"ws://{LOOPBACK}:{self.port}/gateway/"

    @property
    def app_id(self) -> int:
        return self.world.app_id

    @property
    def bot(self) -> User:
        return self.world.bot

    def apply_discord_py_overrides(self) -> None:
        overrides.apply_discord_py_overrides(self.api_base, self.gateway_url)
        self._overrides_applied += 1

    def restore_discord_py_overrides(self) -> None:
        if self._overrides_applied:
            overrides.restore_discord_py_overrides()
            self._overrides_applied -= 1

    def env(self) -> Dict[str, str]:
        """Environment for ``python -m bot.tools.emulator.launch`` (and the token under two names)."""
        return {
            "EMULATOR_API_BASE": self.api_base,
            "EMULATOR_GATEWAY": self.gateway_url,
            "EMULATOR_TOKEN": self.token,
            "DISCORD_TOKEN": self.token,
        }

    # waiting ---------------------------------------------------------------------------------
    async def settle(self, delay: float) -> None:
        """After an acknowledgement, time for the bot to finish handling the interaction (discord.py
        stores a view, and a bot commits what it acknowledged, only after answering). A bot on this
        event loop is waited for until its interaction handlers are done (at most SETTLE_CAP s: a
        handler held by something else goes on meanwhile). A bot in another process, or any bot while
        faults are set (a test of what happens while a request is held), gets `delay` seconds."""
        if not self.bots_in_process or self.faults.rules:
            await asyncio.sleep(delay)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SETTLE_CAP
        while handlers := [t for t in asyncio.all_tasks() if t.get_name().startswith(HANDLER_TASKS)]:
            remaining = deadline - loop.time()
            if remaining <= 0:
                return
            await asyncio.wait(handlers, timeout=remaining)

    def notify(self) -> None:
        """Wake every ``wait_until`` (called on each state change)."""
        for fut in list(self._waiters):
            if not fut.done():
                fut.set_result(None)

    async def wait_until(self, predicate: Callable[[], T], timeout: float = 5.0, message: str = "") -> T:
        """Return the first truthy ``predicate()``; re-checked on each emulator event (and every
        50 ms for state the emulator cannot see, such as the bot's own attributes)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(message or f"condition not met within {timeout}s")
            fut = loop.create_future()
            self._waiters.add(fut)
            try:
                await asyncio.wait_for(fut, min(remaining, 0.05))
            except asyncio.TimeoutError:
                pass
            finally:
                self._waiters.discard(fut)

    async def wait_for_ready(self, timeout: float = 10.0, *, count: int = 1) -> None:
        """Until the bot has IDENTIFYed and received READY + GUILD_CREATEs ``count`` times in all."""
        await self.wait_until(
            lambda: self.gateway.ready_count >= count and self.gateway.connected,
            timeout,
            "the bot never connected to the gateway",
        )

    async def wait_for_commands(self, timeout: float = 10.0, *, guild: Any = None, count: int = 1) -> List[dict]:
        """Until the bot has synced (PUT) its global commands, or those of ``guild``."""
        gid = None if guild is None else self.world.guild(guild).id
        await self.wait_until(
            lambda: self.command_syncs.get(gid, 0) >= count, timeout, "the bot never synced its commands"
        )
        return self.commands(gid)

    # commands --------------------------------------------------------------------------------
    def commands(self, guild: Any = None) -> List[dict]:
        if guild is None:
            return self.global_commands
        return self.guild_commands.get(self.world.guild(guild).id, [])

    def store_commands(self, payload: List[dict], guild_id: Optional[int] = None) -> List[dict]:
        previous = {(c.get("type", 1), c["name"]): c for c in self.commands(guild_id)}
        stored = []
        for cmd in payload:
            c = dict(cmd)
            c.setdefault("type", 1)
            if c["type"] == 1:
                c.setdefault("options", [])
            for key, default in (
                ("nsfw", False),
                ("dm_permission", True),
                ("default_member_permissions", None),
                ("contexts", None),
                ("integration_types", None),
                ("description", ""),
            ):
                c.setdefault(key, default)
            old = previous.get((c["type"], c["name"]))
            c["id"] = old["id"] if old else str(self.world.ids.next())
            c["application_id"] = str(self.app_id)
            c["version"] = str(self.world.ids.next())
            if guild_id is not None:
                c["guild_id"] = str(guild_id)
            stored.append(c)
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        self.command_syncs[guild_id] = self.command_syncs.get(guild_id, 0) + 1
        self.notify()
        return stored

    # world set-up (dispatching events when the bot is connected) --------------------------------
    def add_user(self, name: str, *, dm_open: bool = True, bot: bool = False) -> User:
        return self.world.add_user(name, dm_open=dm_open, bot=bot)

    def set_dm_open(self, user: Any, dm_open: bool) -> None:
        self.world.user(user).dm_open = dm_open

    def add_guild(
        self,
        name: str,
        *,
        owner: Any = None,
        everyone_permissions: int = DEFAULT_EVERYONE,
        bot_permissions: int = DEFAULT_BOT,
        shard: Optional[Tuple[int, int]] = None,
    ) -> Guild:
        """A new guild (its GUILD_CREATE goes to the shard owning it); `shard` (id, total): an id
        that shard owns."""
        guild = self.world.add_guild(
            name,
            owner=self.world.user(owner) if owner is not None else None,
            everyone_permissions=everyone_permissions,
            bot_permissions=bot_permissions,
            shard=shard,
        )
        self.gateway.dispatch("GUILD_CREATE", payloads.guild_create(self.world, guild), GUILDS_INTENT)
        return guild

    def add_role(self, guild: Any, name: str, permissions: int = 0) -> Role:
        guild = self.world.guild(guild)
        role = self.world.add_role(guild, name, permissions)
        self.gateway.dispatch(
            "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": payloads.role(role)}, GUILDS_INTENT
        )
        return role

    def add_member(self, guild: Any, user: Any, *, roles: Any = (), nick: Optional[str] = None) -> Member:
        guild = self.world.guild(guild)
        member = self.world.add_member(
            guild, self.world.user(user), roles=[self.world.role(guild, r) for r in roles], nick=nick
        )
        self.gateway.dispatch("GUILD_MEMBER_ADD", dict(payloads.member(member), guild_id=str(guild.id)), GUILD_MEMBERS)
        return member

    def add_text_channel(self, guild: Any, name: str, *, topic: Optional[str] = None) -> Channel:
        ch = self.world.add_text_channel(self.world.guild(guild), name, topic=topic)
        self.gateway.dispatch("CHANNEL_CREATE", payloads.channel(self.world, ch), GUILDS_INTENT)
        return ch

    def dm_channel(self, user: Any) -> Channel:
        return self.world.dm_channel(self.world.user(user))  # type: ignore[return-value]

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
    ) -> Channel:
        owner_user = self.world.user(owner) if owner is not None else self.world.bot
        th = self.world.create_thread(
            parent,
            name,
            owner_user,
            type=type,
            thread_id=thread_id,
            auto_archive_duration=auto_archive_duration,
            invitable=invitable,
        )
        self.gateway.dispatch("THREAD_CREATE", payloads.thread_create(self.world, th), GUILDS_INTENT)
        self.notify()
        return th

    def edit_channel(self, ch: Channel, payload: dict) -> None:
        for key in ("name", "topic", "archived", "locked", "auto_archive_duration", "invitable"):
            if key in payload:
                setattr(ch, key, payload[key])
        if "archived" in payload:
            ch.archive_timestamp = self.clock.iso()
        event = "THREAD_UPDATE" if ch.is_thread else "CHANNEL_UPDATE"
        self.gateway.dispatch(event, payloads.channel(self.world, ch), GUILDS_INTENT)
        self.notify()

    def delete_channel(self, ch: Channel) -> None:
        ch.deleted = True
        if ch.is_thread:
            data = {"id": str(ch.id), "guild_id": str(ch.guild_id), "parent_id": str(ch.parent_id), "type": ch.type}
            self.gateway.dispatch("THREAD_DELETE", data, GUILDS_INTENT)
        else:
            self.gateway.dispatch("CHANNEL_DELETE", payloads.channel(self.world, ch), GUILDS_INTENT)
        self.notify()

    def set_thread_member(self, th: Channel, user_id: int, present: bool) -> None:
        if present:
            th.member_ids.add(user_id)
        else:
            th.member_ids.discard(user_id)
        self.notify()

    # look-ups -------------------------------------------------------------------------------
    def user(self, ref: Any) -> User:
        return self.world.user(ref)

    def guild(self, ref: Any = None) -> Guild:
        return self.world.guild(ref)

    def channel(self, ref: Any) -> Channel:
        return self.world.channel(ref)

    def message(self, ref: Any) -> Message:
        return self.world.message(ref)

    def channel_messages(self, channel: Any, *, include_ephemeral: bool = False, for_user: Any = None) -> List[Message]:
        """Messages in a channel/thread/DM, oldest first; ephemerals only if asked for."""
        return self.world.channel_messages(
            self.world.channel(channel),
            include_ephemeral=include_ephemeral,
            for_user=self.world.user(for_user) if for_user is not None else None,
        )

    def messages_in(self, thread: Any, **kwargs: Any) -> List[Message]:
        return self.channel_messages(thread, **kwargs)

    def dm_messages(self, user: Any, **kwargs: Any) -> List[Message]:
        dm = self.world.dm_channel(self.world.user(user), create=False)
        return [] if dm is None else self.channel_messages(dm, **kwargs)

    def threads(self, channel: Any) -> List[Channel]:
        return self.world.threads(self.world.channel(channel))

    @property
    def interaction_records(self) -> List[InteractionRecord]:
        return list(self.interactions.records.values())

    # faults ----------------------------------------------------------------------------------
    def inject_429(self, method: str, path_substring: str, times: int = 1, retry_after: float = 0.2) -> Fault:
        return self.faults.add(Fault("429", method, path_substring, times=times, retry_after=retry_after))

    def inject_failure(
        self, method: str, path_substring: str, status: int = 500, times: int = 1, *, code: int = 0, message: str = ""
    ) -> Fault:
        return self.faults.add(
            Fault("failure", method, path_substring, times=times, status=status, code=code, message=message)
        )

    def slow(self, method: str, path_substring: str, delay_s: float, times: Optional[int] = None) -> Fault:
        return self.faults.add(Fault("slow", method, path_substring, times=times, delay=delay_s))

    def clear_faults(self) -> None:
        self.faults.clear()

    async def force_reconnect(self, timeout: float = 5.0) -> None:
        """Send op 7 RECONNECT and wait until the client has RESUMEd."""
        before = self.gateway.resumes
        if not self.gateway.send_reconnect():
            raise EmulatorError("no connected gateway session")
        await self.wait_until(lambda: self.gateway.resumes > before, timeout, "the client did not resume")

    async def drop_connections(self, code: int = 4000, *, wait: bool = False, timeout: float = 5.0) -> None:
        """Close every gateway websocket with ``code``; events meanwhile are kept for the RESUME replay."""
        before = self.gateway.resumes + self.gateway.identifies
        self.gateway.drop(code)
        if wait:
            await self.wait_until(
                lambda: self.gateway.resumes + self.gateway.identifies > before and self.gateway.connected,
                timeout,
                "the client did not reconnect",
            )

    async def invalidate_session(self, timeout: float = 10.0) -> None:
        """op 9 (not resumable): wait until the client IDENTIFYs again (discord.py first sleeps 5 s
        in ``before_identify_hook``, so pass a timeout above that)."""
        before = self.gateway.identifies
        if not self.gateway.invalidate():
            raise EmulatorError("no connected gateway session")
        await self.wait_until(
            lambda: self.gateway.identifies > before and self.gateway.connected,
            timeout,
            "the client did not identify again",
        )
