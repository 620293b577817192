"""What simulated users do: slash commands, autocomplete, button clicks, selects, modal
submits and plain messages. Each refuses what Discord's own client would not send."""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional

from .errors import EmulatorError
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    InteractionRecord,
    Interactions,
)
from .messaging import Messaging
from .model import Channel, Message, User, World
from .options import command_data, resolve_channel, resolve_role, resolve_user


class UserActions:
    """Mixin for EmulatorCore (core.py): the Python API for acting as users, over the emulator's world,
    its interactions and its messages, and the commands the bot synced."""

    world: World
    interactions: Interactions
    messaging: Messaging
    global_commands: List[dict]
    guild_commands: Dict[int, List[dict]]

    async def slash(self, user: Any, channel: Any, /, *path: str, **options: Any) -> InteractionRecord:
        """Run ``/path... option=value`` as ``user`` in ``channel``; returns after the acknowledgement
        (or after the 3-second failure)."""
        user, channel = self.world.user(user), self.world.channel(channel)
        self._check_can_see(user, channel)
        data = command_data(self, user, channel, path, options)
        return await self.interactions.run(self.interactions.create(APPLICATION_COMMAND, user, channel, data))

    async def autocomplete(self, user: Any, channel: Any, /, *path: str, focused: str, **options: Any) -> List[dict]:
        """Type into option ``focused``; returns the choices the bot answered (callback type 8)."""
        user, channel = self.world.user(user), self.world.channel(channel)
        self._check_can_see(user, channel)
        data = command_data(self, user, channel, path, options, focused=focused)
        rec = await self.interactions.run(self.interactions.create(AUTOCOMPLETE, user, channel, data), settle=0)
        if rec.choices is None:
            raise EmulatorError(f"autocomplete got no choices: {rec.error}")
        return rec.choices

    async def click(
        self,
        user: Any,
        message: Any,
        custom_id: Optional[str] = None,
        label: Optional[str] = None,
        *,
        force: bool = False,
    ) -> InteractionRecord:
        """Click a button found by custom_id and/or label. ``force=True`` sends ``custom_id`` even if no
        such enabled button exists (a forged request)."""
        user, msg = self.world.user(user), self.world.message(message)
        channel = self._component_channel(user, msg)
        if force:
            if custom_id is None:
                raise EmulatorError("force=True needs a custom_id")
        else:
            comp = msg.find_component(custom_id=custom_id, label=label, types=(2,))
            if comp is None:
                raise EmulatorError(
                    f"no button custom_id={custom_id!r} label={label!r} on {msg!r}; "
                    f"buttons: {[(b.get('label'), b.get('custom_id')) for b in msg.buttons]}"
                )
            if comp.get("disabled"):
                raise EmulatorError(f"button {comp.get('label') or comp.get('custom_id')!r} is disabled")
            if not comp.get("custom_id"):
                raise EmulatorError("link and premium buttons do not send interactions")
            custom_id = comp["custom_id"]
        data = {"custom_id": custom_id, "component_type": 2}
        return await self.interactions.run(self.interactions.create(MESSAGE_COMPONENT, user, channel, data, source=msg))

    async def select(
        self, user: Any, message: Any, values: Iterable[Any], custom_id: Optional[str] = None, *, force: bool = False
    ) -> InteractionRecord:
        """Choose ``values`` in a select menu (checked against its options and min/max)."""
        user, msg = self.world.user(user), self.world.message(message)
        channel = self._component_channel(user, msg)
        values = list(values)
        guild = self.world.guild_of(channel)
        resolved: Dict[str, dict] = {}
        comp = msg.find_component(custom_id=custom_id, types=(3, 5, 6, 7, 8))
        if force:
            if custom_id is None:
                raise EmulatorError("force=True needs a custom_id")
            ctype = comp.get("type", 3) if comp else 3
            out = [str(v) for v in values]
        else:
            if comp is None:
                raise EmulatorError(f"no select custom_id={custom_id!r} on {msg!r}")
            if custom_id is None and len(msg.selects) > 1:
                raise EmulatorError("several selects on this message: give custom_id")
            if comp.get("disabled"):
                raise EmulatorError(f"select {comp['custom_id']!r} is disabled")
            lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
            if not lo <= len(values) <= hi:
                raise EmulatorError(f"select {comp['custom_id']!r} takes {lo}..{hi} values, got {len(values)}")
            ctype = comp["type"]
            out = self._select_values(comp, values, guild, resolved)
            custom_id = comp["custom_id"]
        data: Dict[str, Any] = {"custom_id": custom_id, "component_type": ctype, "values": out}
        if resolved:
            data["resolved"] = resolved
        return await self.interactions.run(self.interactions.create(MESSAGE_COMPONENT, user, channel, data, source=msg))

    def _select_values(self, comp: dict, values: List[Any], guild: Any, resolved: dict) -> List[str]:
        ctype = comp["type"]
        if ctype == 3:
            allowed = [o.get("value") for o in comp.get("options") or []]
            wrong = [v for v in values if v not in allowed]
            if wrong:
                raise EmulatorError(f"{wrong} not among the options {allowed} of {comp['custom_id']!r}")
            if len(set(values)) != len(values):
                raise EmulatorError("the same option twice")
            return [str(v) for v in values]
        out = []
        for v in values:
            if ctype == 5 or (ctype == 7 and not self._is_role(guild, v)):
                out.append(str(resolve_user(self.world, guild, v, resolved).id))
            elif ctype in (6, 7):
                out.append(str(resolve_role(self.world, guild, v, resolved).id))
            else:
                out.append(str(resolve_channel(self.world, guild, v, resolved, comp.get("channel_types")).id))
        return out

    def _is_role(self, guild: Any, ref: Any) -> bool:
        try:
            self.world.role(guild, ref)
            return guild is not None
        except EmulatorError:
            return False

    async def submit_modal(
        self, user: Any, interaction: Any, values: Optional[Dict[str, Any]] = None, *, custom_id: Optional[str] = None
    ) -> InteractionRecord:
        """Fill and submit the modal the bot opened in answer to ``interaction`` (callback type 9).
        ``values`` maps each input's custom_id to text (or a list of values for a select)."""
        user = self.world.user(user)
        rec = (
            interaction
            if isinstance(interaction, InteractionRecord)
            else self.interactions.records.get(int(getattr(interaction, "id", interaction)))
        )
        if rec is None or rec.modal is None:
            raise EmulatorError("that interaction did not open a modal")
        if rec.user.id != user.id:
            raise EmulatorError("only the user the modal was shown to can submit it")
        modal = rec.modal
        values = dict(values or {})
        components = [self._modal_row(row, values) for row in modal.get("components") or []]
        if values:
            raise EmulatorError(f"the modal has no inputs {sorted(values)}")
        data = {"custom_id": custom_id or modal["custom_id"], "components": [c for c in components if c]}
        return await self.interactions.run(
            self.interactions.create(MODAL_SUBMIT, user, rec.channel, data, source=rec.source)
        )

    def _modal_row(self, row: dict, values: Dict[str, Any]) -> Optional[dict]:
        if row.get("type") == 1:
            inner = [self._modal_input(c, values) for c in row.get("components") or []]
            return {"type": 1, "components": [c for c in inner if c]}
        if row.get("type") == 18 and isinstance(row.get("component"), dict):
            sub = self._modal_input(row["component"], values)
            return {"type": 18, "component": sub} if sub else None
        return None

    def _modal_input(self, comp: dict, values: Dict[str, Any]) -> Optional[dict]:
        cid = comp.get("custom_id")
        if cid is None:
            return None
        given = values.pop(cid, None)
        if comp.get("type") == 4:
            text = comp.get("value") or "" if given is None else str(given)
            if comp.get("required", True) and not text:
                raise EmulatorError(f"modal input {cid!r} is required")
            lo, hi = comp.get("min_length", 0), comp.get("max_length", 4000)
            if text and not lo <= len(text) <= hi:
                raise EmulatorError(f"modal input {cid!r} needs {lo}..{hi} characters")
            return {"type": 4, "custom_id": cid, "value": text}
        chosen = [] if given is None else list(given) if isinstance(given, (list, tuple)) else [given]
        if comp.get("type") == 3:
            allowed = [o.get("value") for o in comp.get("options") or []]
            if any(v not in allowed for v in chosen):
                raise EmulatorError(f"{chosen} not among the options {allowed} of {cid!r}")
        lo = comp.get("min_values", 1) if comp.get("required", True) else 0
        if not lo <= len(chosen) <= comp.get("max_values", 1):
            raise EmulatorError(f"modal select {cid!r} takes {lo}..{comp.get('max_values', 1)} values")
        return {"type": comp.get("type"), "custom_id": cid, "values": [str(v) for v in chosen]}

    async def raw_interaction(
        self,
        user: Any,
        channel: Any,
        data: Dict[str, Any],
        *,
        type: int = MESSAGE_COMPONENT,
        message: Any = None,
        settle: float = 0,
    ) -> InteractionRecord:
        """Send one INTERACTION_CREATE whose ``data`` goes out exactly as given, without any of the
        checks Discord's client makes (a forged or malformed request: unknown custom_ids, a button id
        sent as a select, values that are not options, option values of the wrong type, unknown
        commands...). ``type`` is the interaction type (2 command, 3 component, 4 autocomplete, 5
        modal); ``message`` the message the component claims to be on. Strings go on the gateway as
        JSON, so a lone surrogate ("\\ud800") reaches the bot's decoder as that escape. Returns after
        the acknowledgement or the 3-second failure: ``rec.acked`` says whether the bot answered.
        The user must be able to see the channel (a guild channel needs a member)."""
        user, channel = self.world.user(user), self.world.channel(channel)
        source = self.world.message(message) if message is not None else None
        rec = self.interactions.create(type, user, channel, data, source=source)
        return await self.interactions.run(rec, settle=settle)

    async def send_message(self, user: Any, channel: Any, content: str = "", **fields: Any) -> Message:
        """A user posts a plain message (MESSAGE_CREATE reaches the bot, content per its intents)."""
        user, channel = self.world.user(user), self.world.channel(channel)
        self._check_can_see(user, channel)
        return self.messaging.create(channel, user, dict(fields, content=content))

    # visibility ------------------------------------------------------------------------------
    def _check_can_see(self, user: User, channel: Channel) -> None:
        if channel.deleted:
            raise EmulatorError(f"{channel!r} was deleted")
        if channel.is_dm:
            if channel.recipient_id != user.id:
                raise EmulatorError(f"{user.name} cannot see {channel!r}")
            return
        guild = self.world.guild_of(channel)
        if guild is None or user.id not in guild.members:
            raise EmulatorError(f"{user.name} is not a member of the guild of {channel!r}")
        if channel.type == 12 and user.id not in channel.member_ids:
            raise EmulatorError(f"{user.name} is not in the private thread {channel!r}")

    def _component_channel(self, user: User, msg: Message) -> Channel:
        if msg.deleted:
            raise EmulatorError(f"{msg!r} was deleted")
        if msg.ephemeral and msg.visible_to != user.id:
            raise EmulatorError(f"{user.name} cannot see the ephemeral {msg!r}")
        channel = self.world.channels[msg.channel_id]
        self._check_can_see(user, channel)
        return channel
