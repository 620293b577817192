"""The sandbox's session: the emulator world, one method per command, and the printing of what
each user sees that is new. bot/tools/sandbox/run.py owns the process, the prompt and the syntax docs."""

from __future__ import annotations

import asyncio
import json
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable

import discord

from bot.tools.emulator import Emulator, EmulatorError
from bot.tools.emulator.model import MANAGE_THREADS, PRIVATE_THREAD, Channel, Message, User
from bot.tools.sandbox.parse import (
    USER_PREFIX,
    Line,
    ParseError,
    convert_options,
    describe_commands,
    focused_option,
    parse_line,
)

PLAYERS = ("alice", "bob", "carol", "dave", "erin")
LISTING = 5  # messages per channel shown by `show` and `dm`
QUIET = 0.3  # an interaction is over when nothing new happened for this long ...
CAP = 30.0  # ... and no bot handler is still running (but never wait longer than this)
BUSY_TASKS = ("CommandTree-invoker", "discord-ui-dynamic-item", "discord-ui-view-dispatch", "discord.py: ")
MENTION = re.compile(r"<(@!?|#|@&)(\d+)>")


class CommandError(Exception):
    """A command that could not run: one line, and the prompt goes on."""


def build_world(emu: Emulator) -> SimpleNamespace:
    """Guild "Sandbox", #table, five players with open DMs, hermit (DMs closed), mod (Manage Threads)."""
    guild = emu.add_guild("Sandbox")
    table = emu.add_text_channel(guild, "table", topic="Games are played here")
    moderators = emu.add_role(guild, "Moderator", MANAGE_THREADS)
    users: dict[str, User] = {name: emu.add_user(name) for name in PLAYERS}
    users["hermit"] = emu.add_user("hermit", dm_open=False)
    users["mod"] = emu.add_user("mod")
    for name, user in users.items():
        emu.add_member(guild, user, roles=[moderators] if name == "mod" else ())
    return SimpleNamespace(guild=guild, table=table, users=users)


class LogTap(logging.Handler):
    """Keeps the bot's warnings and errors (and discord.py's errors) to show after a command."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith("discord") and record.levelno < logging.ERROR:
            return  # discord.py's own warnings (voice support, rate limits) are not the game's
        if record.name.startswith(("bot.tools.sandbox", "bot.tools.emulator")):
            return  # reported by the session itself (its own failures, emu.server_errors)
        self.records.append(record)

    def take(self) -> list[logging.LogRecord]:
        out, self.records = self.records, []
        return out


@dataclass
class Seen:
    number: int
    print: tuple  # what was printed (content, components, attachments, embeds, loading)


class Session:
    def __init__(
        self,
        emu: Emulator,
        world: SimpleNamespace,
        images: Path,
        out: Callable[[str], None] = print,
        log_tap: LogTap | None = None,
        first_image: int = 1,
        base: Path | None = None,
        syntax: str = "",
    ) -> None:
        self.emu, self.world, self.images, self.out = emu, world, images, out
        self.syntax = syntax  # the guide's syntax section, printed by `help` before the bot's commands
        self.users: dict[str, User] = world.users
        self.table: Channel = world.table
        self.last_user = PLAYERS[0]
        self.log_tap = log_tap
        self.base = base  # relative attachment paths are read from here
        self.seen: dict[int, Seen] = {}  # message id -> its number and how it was last printed
        self.by_number: dict[int, int] = {}  # number -> message id
        self.threads_seen: set[int] = set()
        self.image_paths: dict[int, Path] = {}  # attachment id -> file written
        self.next_number = 1
        self.next_image = first_image
        self.failures = 0
        self.server_errors = 0
        self.quit = False

    # -- entry point ---------------------------------------------------------------------------

    async def execute(self, raw: str, *, echo: bool = False) -> bool:
        """Run one line; print what it did. False when it failed (the session goes on)."""
        try:
            line = parse_line(raw)
        except ParseError as err:
            if echo:
                self.out(raw.strip() if USER_PREFIX.match(raw) else f"{self.last_user}> {raw.strip()}")
            return self._fail(str(err))
        if echo:
            self._echo(line)
        if line.verb == "blank":
            return True
        try:
            user = self._user(line.user) if line.verb not in ("show", "users", "help", "quit") or line.user else None
            if user is not None:
                self.last_user = user.name
            ok = await self._run(line, user)
        except (CommandError, ParseError, EmulatorError) as err:
            ok = self._fail(str(err))
        except TimeoutError as err:
            ok = self._fail(f"timed out: {err}")
        except Exception as err:  # a sandbox bug must not end the session
            logging.getLogger(__name__).exception("the sandbox failed on %r", raw)
            ok = self._fail(f"the sandbox itself failed ({type(err).__name__}: {err}); details in the log")
        ok = self.report_logs() and ok
        return ok

    def _echo(self, line: Line) -> None:
        if line.verb == "blank":
            if line.text:
                self.out(line.text)
        elif line.verb == "switch":
            self.out(f"{line.user}>")
        elif line.verb in ("show", "users", "help", "quit") and not line.user:
            self.out(f"> {line.text}")
        else:
            self.out(f"{line.user or self.last_user}> {line.text}")

    def _fail(self, message: str) -> bool:
        self.failures += 1
        self.out(f"  error: {message}")
        return False

    def _user(self, name: str | None) -> User:
        name = name or self.last_user
        user = self.users.get(name) or self.users.get(name.lower())
        if user is None:  # a new name (any script: ゆきこ, José Müller) joins the guild
            user = self.users[name] = self.emu.add_user(name)
            self.emu.add_member(self.world.guild, user)
            self.out(
                f"  (new user {name}: a member of {self.world.guild.name} with open DMs, "
                f"locale {user.locale}; change it with {name}> :locale ja)"
            )
        return user

    def _set_locale(self, user: User, code: str) -> None:
        """`:locale ja`: the language the user's Discord client reports with each interaction."""
        if code:
            known = {loc.value.lower(): loc.value for loc in discord.Locale}
            value = known.get(code.lower())
            if value is None:
                raise CommandError(
                    f"Discord has no locale {code!r}; some it has: ja, en-US, en-GB, fr, de, es-ES, pt-BR, ko, zh-CN"
                )
            user.locale = value
        self.out(f"  ({user.name}'s Discord locale: {user.locale})")

    async def _run(self, line: Line, user: User | None) -> bool:
        verb = line.verb
        if verb == "switch":
            return True
        if verb == "help":
            self.out(self.help_text())
            return True
        if verb == "users":
            self._print_users()
            return True
        if verb == "quit":
            self.quit = True
            return True
        if verb == "show":
            await self._settle()
            self._show()
            return True
        assert user is not None  # every other verb acts as a user
        if verb == "dm":
            await self._settle()
            self._print_news()
            self._dm(user)
            return True
        if verb == "locale":
            self._set_locale(user, line.locale)
            return True
        if verb == "wait":
            if line.seconds:
                await asyncio.sleep(line.seconds)
            await self._settle()
            return self._print_news()
        if verb == "slash":
            ok = await self._slash(user, line)
        elif verb == "complete":
            await self._complete(user, line)
            return True
        elif verb == "click":
            ok = await self._click(user, line)
        elif verb == "select":
            ok = await self._select(user, line)
        else:  # pragma: no cover - parse_line only makes the verbs above
            raise CommandError(f"unknown command {verb}")
        return self._print_news() and ok

    # -- the interactions ----------------------------------------------------------------------

    def _place(self, user: User, where: str | None) -> Channel:
        if where is None or where.lstrip("#").lower() == self.table.name:
            return self.table
        if where.lower() == "dm":
            return self.emu.dm_channel(user)
        threads = [t for t in self.emu.threads(self.table) if self._can_see_thread(user, t)]
        if where.lower() == "thread":
            if not threads:
                raise CommandError("there is no game thread yet")
            return threads[-1]
        want = where.casefold()
        for exact in (True, False):  # the thread's name, else the newest whose name contains it
            for th in reversed(threads):
                name = (th.name or "").casefold()
                if name == want if exact else want in name:
                    return th
        names = ", ".join(repr(t.name) for t in threads) or "none yet"
        raise CommandError(f"no place {where!r}; use #table, thread, dm or a thread's name ({names})")

    def _can_see_thread(self, user: User, th: Channel) -> bool:
        return th.type != PRIVATE_THREAD or user.id in th.member_ids

    async def _slash(self, user: User, line: Line) -> bool:
        channel = self._place(user, line.where)
        options = convert_options(self._commands(channel), line.path, line.options, base=self.base)
        rec = await self.emu.slash(user, channel, *line.path, **options)
        return await self._after(rec)

    async def _complete(self, user: User, line: Line) -> None:
        channel = self._place(user, line.where)
        commands = self._commands(channel)
        focused = focused_option(commands, line.path, line.options)
        options = convert_options(commands, line.path, line.options, focused=focused, base=self.base)
        choices = await self.emu.autocomplete(user, channel, *line.path, focused=focused, **options)
        if not choices:
            self.out(f"  (no choices for {focused})")
        for i, c in enumerate(choices, 1):
            value = "" if str(c.get("value")) == c.get("name") else f"  (value: {c.get('value')})"
            self.out(f"  {i}. {c.get('name')}{value}")

    def _commands(self, channel: Channel) -> list[dict]:
        guild = self.emu.world.guild_of(channel)
        guild_cmds = self.emu.guild_commands.get(guild.id, []) if guild else []
        names = {c["name"] for c in guild_cmds}
        return guild_cmds + [c for c in self.emu.global_commands if c["name"] not in names]

    async def _click(self, user: User, line: Line) -> bool:
        if line.message is not None:
            msg = self._numbered(line.message)
            button, why = _find_button(msg, line.label)
            if button is None:
                raise CommandError(f"message #{line.message} {why}")
        else:
            msg, button = self._newest_with_button(user, line.label)
        rec = await self.emu.click(user, msg, custom_id=button["custom_id"])
        return await self._after(rec)

    def _newest_with_button(self, user: User, label: str) -> tuple[Message, dict]:
        messages = self.visible(user)
        disabled = None
        for exact in (True, False):  # an exact label anywhere beats a prefix on a newer message
            for msg in messages:
                button, why = _find_button(msg, label, exact_only=exact)
                if button is not None:
                    return msg, button
                if why.startswith("has several"):
                    raise CommandError(f"message #{self._number(msg)} {why}")
                if why.endswith("is disabled") and disabled is None:
                    disabled = f"the button {why} on message #{self._number(msg)}"
        if disabled:
            raise CommandError(disabled)
        labels: list[str] = []
        for msg in messages:
            for b in msg.buttons:
                if b.get("label") and not b.get("disabled") and b["label"] not in labels:
                    labels.append(b["label"])
        seen = " ".join(f"[{lb}]" for lb in labels[:12]) or "none"
        raise CommandError(f"no button {label!r} that {user.name} can see; buttons {user.name} can see: {seen}")

    async def _select(self, user: User, line: Line) -> bool:
        if line.message is not None:
            candidates = [self._numbered(line.message)]
        else:
            candidates = [m for m in self.visible(user) if any(not s.get("disabled") for s in m.selects)]
        if not candidates or not candidates[0].selects:
            where = f"on message #{line.message}" if line.message is not None else f"that {user.name} can see"
            raise CommandError(f"no select {where}")
        msg = candidates[0]
        selects = [s for s in msg.selects if not s.get("disabled")] or msg.selects
        errors = []
        for comp in selects:
            try:
                values = _choose(comp, line.values)
            except CommandError as err:
                errors.append(str(err))
                continue
            rec = await self.emu.select(user, msg, values, custom_id=comp["custom_id"])
            return await self._after(rec)
        raise CommandError(errors[0])

    async def _after(self, rec: Any) -> bool:
        """Wait until the bot is done with the interaction, then report how it went."""
        await self._settle()
        if rec.failed:
            return self._fail(f"{rec.error or 'This interaction failed'} (the bot did not answer in time)")
        if rec.rejected:
            r = rec.rejected[0]
            detail = json.dumps(r["errors"])[:300] if r.get("errors") else ""
            return self._fail(f"the emulator refused the bot's answer: {r['status']} {r['message']} {detail}".rstrip())
        return True

    async def _settle(self, quiet: float = QUIET, cap: float = CAP) -> bool:
        """Until nothing new happened for `quiet` seconds and no bot handler is still running."""
        loop = asyncio.get_running_loop()
        start = last = loop.time()
        mark = self._activity()
        while True:
            now = loop.time()
            if now - start >= cap:
                self.out(f"  (the bot is still busy after {cap:.0f} s; type wait to look again)")
                return False
            if now - last >= quiet and not self._busy():
                return True
            try:
                await self.emu.wait_until(
                    lambda: self._activity() != mark, max(0.05, min(quiet - (now - last), cap - (now - start)))
                )
                mark, last = self._activity(), loop.time()
            except TimeoutError:
                pass

    def _activity(self) -> tuple[int, int, int]:
        return len(self.emu.rest_log), len(self.emu.world.messages), len(self.emu.world.channels)

    def _busy(self) -> bool:
        return any(not task.done() and task.get_name().startswith(BUSY_TASKS) for task in asyncio.all_tasks())

    # -- what users see ------------------------------------------------------------------------

    def channels(self) -> list[Channel]:
        out = [self.table, *self.emu.threads(self.table)]
        for user in self.users.values():
            dm = self.emu.world.dm_channel(user, create=False)
            if dm is not None:
                out.append(dm)
        return out

    def visible(self, user: User) -> list[Message]:
        """Every message `user` can see (channel, threads, own DMs, own ephemerals), newest first."""
        out: list[Message] = []
        for ch in [self.table, *self.emu.threads(self.table)]:
            if self._can_see_thread(user, ch):
                out += self.emu.channel_messages(ch, for_user=user)
        dm = self.emu.world.dm_channel(user, create=False)
        if dm is not None:
            out += self.emu.channel_messages(dm, for_user=user)
        return sorted(out, key=lambda m: m.id, reverse=True)

    def _number(self, msg: Message) -> int:
        seen = self.seen.get(msg.id)
        if seen is None:
            seen = self.seen[msg.id] = Seen(self.next_number, ())
            self.by_number[self.next_number] = msg.id
            self.next_number += 1
        return seen.number

    def _numbered(self, number: int) -> Message:
        mid = self.by_number.get(number)
        if mid is None:
            raise CommandError(f"no message #{number} has been shown (numbers run 1..{self.next_number - 1})")
        msg = self.emu.world.messages[mid]
        if msg.deleted:
            raise CommandError(f"message #{number} was deleted")
        return msg

    def _print_news(self) -> bool:
        """Print every message that is new or changed since it was last printed."""
        for th in self.emu.threads(self.table):
            if th.id not in self.threads_seen:
                self.threads_seen.add(th.id)
                kind = "private thread" if th.type == PRIVATE_THREAD else "thread"
                self.out(f'  ({kind} "{th.name}" opened in #{self.table.name})')
        news = []
        for ch in self.channels():
            for msg in self.emu.channel_messages(ch, include_ephemeral=True):
                seen = self.seen.get(msg.id)
                if seen is not None and seen.print == _fingerprint(msg):
                    continue
                news.append(msg)
        for mid, seen in self.seen.items():
            gone = self.emu.world.messages.get(mid)
            if gone is not None and gone.deleted and seen.print != ("deleted",):
                seen.print = ("deleted",)
                self.out(f"  #{seen.number} was deleted")
        for msg in sorted(news, key=lambda m: m.id):
            self._print_message(msg)
        return self.report_server_errors()

    def _print_message(self, msg: Message, *, listing: bool = False) -> None:
        if msg.loading:  # a deferred answer the bot has not sent (yet): say so once
            number = self._number(msg)
            self.seen[msg.id].print = _fingerprint(msg)
            self.out(
                f"  #{number} [{self._where(msg)}] {self.emu.bot.name} is thinking… "
                f"(the bot deferred its answer and has not sent it)"
            )
            return
        previous = self.seen[msg.id].print if msg.id in self.seen else ()
        old = previous if len(previous) == 4 else None  # printed before as a whole message
        number = self._number(msg)
        new = _fingerprint(msg)
        self.seen[msg.id].print = new
        edited = old is not None and not listing
        head = f"  #{number} [{self._where(msg)}]" + (" (edited)" if edited else "")
        body: list[str] = []
        content = self._text(msg.content)
        if msg.author.id != self.emu.bot.id:
            content = f"{msg.author.name}: {content}"
        if edited and old is not None and old[0] == new[0] and msg.content:
            gone = old[1] != "[]" and not msg.components
            content = "(same text; its buttons and selects are gone)" if gone else "(same text)"
        body += content.splitlines() or [""]
        for embed in msg.embeds:
            parts = [embed.get("title"), embed.get("description")]
            body.append("embed: " + " — ".join(self._text(p) for p in parts if p))
        if not (edited and old is not None and old[2] == new[2]):  # an edit keeping its images
            for att in msg.attachments:
                body.append(self._attachment_line(att))
        body += self._component_lines(msg)
        self.out(f"{head} {body[0]}".rstrip())
        for extra in body[1:]:
            self.out(f"      {extra}")

    def _where(self, msg: Message) -> str:
        ch = self.emu.world.channels[msg.channel_id]
        if msg.ephemeral:
            viewer = self.emu.world.users.get(msg.visible_to or 0)
            return f"only {viewer.name if viewer else '?'} sees"
        if ch.is_dm:
            recipient = self.emu.world.users.get(ch.recipient_id or 0)
            return f"DM to {recipient.name if recipient else '?'}"
        if ch.is_thread:
            return f"{'private thread' if ch.type == PRIVATE_THREAD else 'thread'} {ch.name}"
        return f"#{ch.name}"

    def _text(self, text: str) -> str:
        def name(m: re.Match[str]) -> str:
            kind, ident = m.group(1), int(m.group(2))
            if kind.startswith("@") and kind != "@&":
                user = self.emu.world.users.get(ident)
                return f"@{user.name}" if user else m.group(0)
            if kind == "#":
                ch = self.emu.world.channels.get(ident)
                return f"#{ch.name}" if ch and ch.name else m.group(0)
            return m.group(0)

        return MENTION.sub(name, text or "")

    def _attachment_line(self, att: Any) -> str:
        path = self.image_paths.get(att.id)
        if path is None:
            safe = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(att.filename).name) or "file"
            if att.data.startswith(b"\x89PNG") and not safe.lower().endswith(".png"):
                safe += ".png"
            elif att.data[8:12] == b"WEBP" and not safe.lower().endswith(".webp"):
                safe += ".webp"
            path = self.images / f"{self.next_image}-{safe}"
            self.next_image += 1
            self.images.mkdir(parents=True, exist_ok=True)
            path.write_bytes(att.data)
            self.image_paths[att.id] = path
        kind = "image" if att.content_type.startswith("image/") or att.data.startswith(b"\x89PNG") else "file"
        return f"[{kind}: {path}]"

    def _component_lines(self, msg: Message) -> list[str]:
        lines = []
        buttons = [
            f"[{b.get('label') or b.get('emoji', {}).get('name') or b.get('custom_id')}"
            f"{' (disabled)' if b.get('disabled') else ''}]"
            for b in msg.buttons
        ]
        if buttons:
            lines.append("buttons: " + " ".join(buttons))
        for s in msg.selects:
            lo, hi = s.get("min_values", 1), s.get("max_values", 1)
            count = f"choose {lo}" if lo == hi else f"choose {lo}-{hi}"
            placeholder = f' "{s["placeholder"]}"' if s.get("placeholder") else ""
            state = " (disabled)" if s.get("disabled") else ""
            lines.append(f"select{placeholder} ({count}){state}:")
            for o in s.get("options") or []:
                desc = o.get("description")
                extra = f" — {desc}" if desc and desc != o.get("label") else ""
                lines.append(f"  {o.get('value')}: {o.get('label')}{extra}")
            if s.get("type", 3) != 3:
                lines.append("  (choose by name: users, roles or channels)")
        return lines

    # -- listings ------------------------------------------------------------------------------

    def _show(self) -> None:
        places = [self.table, *self.emu.threads(self.table)]
        for ch in places:
            messages = self.emu.channel_messages(ch)
            kind = "#" + (ch.name or "") if not ch.is_thread else f"thread {ch.name}"
            self.out(
                f"-- {kind}: {len(messages)} message(s)"
                + (f", the latest {LISTING}" if len(messages) > LISTING else "")
                + " --"
            )
            for msg in messages[-LISTING:]:
                self._print_message(msg, listing=True)

    def _dm(self, user: User) -> None:
        if not user.dm_open:
            self.out(
                f"  ({user.name} does not accept direct messages; the bot's fallback is "
                f"/<game> hand or the My hand button)"
            )
        messages = self.emu.dm_messages(user, for_user=user)
        self.out(
            f"-- {user.name}'s DMs: {len(messages)} message(s)"
            + (f", the latest {LISTING}" if len(messages) > LISTING else "")
            + " --"
        )
        for msg in messages[-LISTING:]:
            self._print_message(msg, listing=True)

    def _print_users(self) -> None:
        for name, user in self.users.items():
            notes = []
            if not user.dm_open:
                notes.append("DMs closed")
            if name == "mod":
                notes.append("Manage Threads")
            if user.locale != "en-US":
                notes.append(f"locale {user.locale}")
            if name == self.last_user:
                notes.append("current")
            self.out(f"  {name}" + (f" ({', '.join(notes)})" if notes else ""))

    def help_text(self) -> str:
        commands = describe_commands(self._commands(self.table))
        return (
            self.syntax.rstrip()
            + "\n\nThe bot's commands ([optional], ? = autocompletes):\n"
            + "\n".join(f"  {c}" for c in commands)
        )

    # -- problems outside the line itself --------------------------------------------------------

    def report_logs(self) -> bool:
        """Print what the bot logged since the last call; False (a failure counted) if any of it is
        an error."""
        ok = True
        for record in self.log_tap.take() if self.log_tap else []:
            message = record.getMessage().splitlines()[0] if record.getMessage() else ""
            if record.exc_info and record.exc_info[1] is not None:
                exc = record.exc_info[1]
                message += f": {type(exc).__name__}: {exc}".splitlines()[0]
            self.out(f"  [log] {record.levelname} {record.name}: {message}")
            if record.levelno >= logging.ERROR:
                ok = False
        if not ok:
            self.failures += 1
        return ok

    def report_server_errors(self) -> bool:
        """Print the emulator's own failures since the last call; False (a failure counted) if any."""
        errors = self.emu.server_errors[self.server_errors :]
        self.server_errors = len(self.emu.server_errors)
        for tb in errors:
            lines = [x for x in tb.strip().splitlines() if x.strip()]
            self.out(f"  error: the emulator itself failed: {lines[-1] if lines else tb}")
        if errors:
            self.failures += 1
        return not errors


def _fingerprint(msg: Message) -> tuple:
    if msg.loading:
        return ("loading",)
    return (
        msg.content,
        json.dumps(msg.components, sort_keys=True),
        tuple(a.id for a in msg.attachments),
        json.dumps(msg.embeds, sort_keys=True),
    )


def _find_button(msg: Message, label: str, exact_only: bool = False) -> tuple[dict | None, str]:
    """The enabled button whose label is `label` (any case), else the only one it begins."""
    want = label.casefold()
    buttons = [b for b in msg.buttons if b.get("custom_id")]
    exact = [b for b in buttons if (b.get("label") or "").casefold() == want]
    prefix = [] if exact_only else [b for b in buttons if (b.get("label") or "").casefold().startswith(want)]
    for group in (exact, prefix):
        enabled = [b for b in group if not b.get("disabled")]
        if len(enabled) == 1 or (enabled and group is exact):
            return enabled[0], ""
        if len(enabled) > 1:
            return None, f"has several buttons beginning {label!r}: " + " ".join(f"[{b.get('label')}]" for b in enabled)
        if group:
            return None, f"[{group[0].get('label')}] is disabled"
    labels = " ".join(f"[{b.get('label')}]" for b in msg.buttons) or "none"
    return None, f"has no button {label!r} (its buttons: {labels})"


def _choose(comp: dict, wanted: list[str]) -> list[str]:
    """Select values from what was typed: each an option's value, else its label (any case)."""
    if comp.get("type", 3) != 3:
        return list(wanted)  # user/role/channel selects: the emulator resolves names
    options = comp.get("options") or []
    chosen: list[str] = []
    for text in wanted:
        free = [o for o in options if o.get("value") not in chosen]
        match = next((o for o in free if str(o.get("value")) == text), None) or next(
            (o for o in free if str(o.get("label", "")).casefold() == text.casefold()), None
        )
        if match is None:
            have = ", ".join(f"{o.get('value')}={o.get('label')}" for o in options)
            raise CommandError(f"no option {text!r} (left) in the select; its options: {have}")
        chosen.append(match["value"])
    return chosen
