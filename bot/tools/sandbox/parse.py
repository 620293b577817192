"""The sandbox's line parser: `name> command` lines into a Line, and slash options converted with
the schema the bot synced (see bot/tools/sandbox/run.py for the syntax). Pure: no emulator, no I/O."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# A user's name: letters and digits of any script (\w is Unicode: ゆきこ, José, 山田太郎), with . _ - ・
# and single spaces between words ("José Müller"); nothing that could start a command (/ ? # :).
USER_PREFIX = re.compile(r"^\s*(\w[\w.\-・]*(?: [\w.\-・]+)*)\s*>\s?(.*)$")
LOCALE_CODE = re.compile(r"^[A-Za-z]{2,3}(-[A-Za-z]{2})?$")
OPTION = re.compile(r"^([A-Za-z_][\w-]*):(.*)$", re.S)

# Discord application command option types
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(
    1, 12
)
TRUE = {"true", "yes", "y", "on", "1"}
FALSE = {"false", "no", "n", "off", "0"}


class ParseError(ValueError):
    """A line the sandbox cannot read: shown as one error line."""


@dataclass
class Line:
    """One parsed line. `verb` is slash, complete, click, select, dm, show, users, help, quit, wait,
    locale (`:locale ja`), switch (a bare `name>`), or blank (empty line or # comment)."""

    verb: str
    user: str | None = None  # the name before ">" (None: the last user)
    text: str = ""  # the command as typed, without the user prefix
    path: list[str] = field(default_factory=list)  # slash: ["heat", "new"]
    options: dict[str, str] = field(default_factory=dict)  # slash: {"track": "usa"} (strings)
    where: str | None = None  # slash: "in <place>" (None: #table)
    message: int | None = None  # click/select: the message number given
    label: str = ""  # click: the button label
    values: list[str] = field(default_factory=list)  # select: the chosen values or labels
    seconds: float = 0.0  # wait
    locale: str = ""  # locale: the Discord locale to set ("" shows the current one)


def split(text: str) -> list[str]:
    try:
        return shlex.split(text, comments=False, posix=True)
    except ValueError as err:  # "No closing quotation"
        raise ParseError(
            f'cannot read the quotes in {text.strip()!r} ({err}); quote values with spaces like track:"Great Britain"'
        ) from None


def parse_line(raw: str) -> Line:
    text = raw.strip()
    if not text or text.startswith("#"):
        return Line("blank", text=text)
    user = None
    m = USER_PREFIX.match(text)
    if m:
        user, text = m.group(1), m.group(2).strip()
        if not text:
            return Line("switch", user=user)
    line = _parse_command(text)
    line.user, line.text = user, text
    return line


def _parse_command(text: str) -> Line:
    if text.startswith("?"):
        rest = text[1:].strip()
        if not rest.startswith("/") and not rest.startswith("in "):
            raise ParseError("autocomplete is `? /command ... option:partial text`")
        line = _parse_slash(rest)
        line.verb = "complete"
        return line
    if text.startswith("/") or text.startswith("in "):
        return _parse_slash(text)
    word, _, rest = text.partition(" ")
    word = word.lower()
    rest = rest.strip()
    if word == ":locale":
        if rest and not LOCALE_CODE.match(rest):
            raise ParseError("`:locale` takes a Discord locale such as ja, en-US or fr (or nothing, to see it)")
        return Line("locale", locale=rest)
    if word == "click":
        return _parse_click(rest)
    if word == "select":
        return _parse_select(rest)
    if word in ("dm", "show", "users", "help", "quit", "exit"):
        if rest:
            raise ParseError(f"`{word}` takes nothing after it")
        return Line("quit" if word == "exit" else word)
    if word == "wait":
        try:
            seconds = float(rest) if rest else 0.0
        except ValueError:
            raise ParseError("`wait` takes a number of seconds, e.g. wait 2") from None
        if not 0 <= seconds <= 600:
            raise ParseError("`wait` takes 0 to 600 seconds")
        return Line("wait", seconds=seconds)
    raise ParseError(
        f"I don't know {text!r}: start with /command, ? /command, click, select, dm, :locale, "
        f"show, users, help or quit (type help)"
    )


def _parse_slash(text: str) -> Line:
    tokens = split(text)
    where = None
    if tokens and tokens[0] == "in":
        if len(tokens) < 3 or not tokens[2].startswith("/"):
            raise ParseError(
                "write `in <place> /command ...`, e.g. in thread /game abandon "
                "(places: #table, thread, a thread's name, dm)"
            )
        where = tokens[1]
        tokens = tokens[2:]
    if not tokens or not tokens[0].startswith("/") or tokens[0] == "/":
        raise ParseError("a slash command starts with /name, e.g. /heat new track:usa")
    path: list[str] = []
    options: dict[str, str] = {}
    current: str | None = None
    first = tokens[0][1:]
    for token in [first, *tokens[1:]]:
        m = OPTION.match(token)
        if m:
            current = m.group(1).lower()
            if current in options:
                raise ParseError(f"option {current!r} given twice")
            options[current] = m.group(2)
        elif current is None:
            path.append(token.lower())
        else:  # bare words after an option continue its value, as in Discord's own box
            options[current] = f"{options[current]} {token}" if options[current] else token
    if not path:
        raise ParseError("a slash command starts with /name, e.g. /heat new track:usa")
    return Line("slash", path=path, options=options, where=where)


def _parse_click(rest: str) -> Line:
    tokens = split(rest)
    number = None
    if len(tokens) >= 2 and _is_number(tokens[0]):
        number, tokens = int(tokens[0].lstrip("#")), tokens[1:]
    label = " ".join(tokens).strip()
    if not label:
        raise ParseError("click needs a button label, e.g. click Start (or click 2 Start)")
    return Line("click", message=number, label=label)


def _parse_select(rest: str) -> Line:
    tokens = split(rest)
    number = None
    if tokens and tokens[0].startswith("#") and _is_number(tokens[0]):
        number, tokens = int(tokens[0][1:]), tokens[1:]
    if not tokens:
        raise ParseError(
            "select needs the options to choose, e.g. select 3 4 (values or labels; quote labels with spaces)"
        )
    return Line("select", message=number, values=tokens)


def _is_number(token: str) -> bool:
    digits = token[1:] if token.startswith("#") else token
    return digits.isdigit() and len(digits) < 9


# -- options against the synced schema -----------------------------------------------------------


def find_leaf(commands: list[dict], path: list[str]) -> list[dict] | None:
    """The options of the (sub)command `path` names in `commands`, or None if there is none."""
    if not path:
        return None
    cmd = next((c for c in commands if c.get("name") == path[0] and c.get("type", 1) == 1), None)
    if cmd is None:
        return None
    leaf = cmd.get("options") or []
    for name in path[1:]:
        sub = next(
            (o for o in leaf if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) and o.get("name") == name), None
        )
        if sub is None:
            return None
        leaf = sub.get("options") or []
    if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in leaf):
        return None
    return leaf


def convert_options(
    commands: list[dict],
    path: list[str],
    options: dict[str, str],
    *,
    focused: str | None = None,
    base: Path | None = None,
) -> dict[str, Any]:
    """Typed values for emu.slash/autocomplete. Integers, numbers and booleans are converted when
    the schema says so and the text reads as one; otherwise the text is passed on unchanged for
    the emulator to refuse with its own message. A choice may be named by its value or its name
    (any case). Empty values are dropped (an option left blank), except the focused one."""
    leaf = find_leaf(commands, path) or []
    schema = {o.get("name"): o for o in leaf}
    out: dict[str, Any] = {}
    for name, text in options.items():
        if name == focused:
            out[name] = text
            continue
        if text == "":
            continue
        o = schema.get(name)
        out[name] = text if o is None else convert_value(o, text, base)
    return out


def convert_value(o: dict, text: str, base: Path | None = None) -> Any:
    kind = o.get("type")
    value: Any = text
    if kind == INTEGER:
        try:
            value = int(text.replace("_", ""))
        except ValueError:
            pass
    elif kind == NUMBER:
        try:
            value = int(text)
        except ValueError:
            try:
                value = float(text)
            except ValueError:
                pass
    elif kind == BOOLEAN:
        if text.lower() in TRUE:
            value = True
        elif text.lower() in FALSE:
            value = False
    elif kind in (USER, MENTIONABLE):
        value = text.lstrip("@")
    elif kind == ATTACHMENT:
        path = Path(text).expanduser()
        if base is not None and not path.is_absolute():
            path = base / path
        try:
            return (path.name, path.read_bytes())
        except OSError as err:
            raise ParseError(f"option {o.get('name')!r}: cannot read the file {text!r} ({err.strerror})") from None
    choices = o.get("choices") or []
    if choices and value not in [c.get("value") for c in choices]:
        for c in choices:
            if str(c.get("value")).lower() == text.lower() or str(c.get("name")).lower() == text.lower():
                return c.get("value")
    return value


def focused_option(commands: list[dict], path: list[str], options: dict[str, str]) -> str:
    """Which option an autocomplete line types into: the last given option that autocompletes,
    else the first option of the command that does."""
    leaf = find_leaf(commands, path)
    if leaf is None:
        raise ParseError(f"/{' '.join(path)} is not a command I can complete (see the synced commands with help)")
    auto = [o["name"] for o in leaf if o.get("autocomplete")]
    if not auto:
        raise ParseError(f"no option of /{' '.join(path)} has autocomplete")
    given = [name for name in options if name in auto]
    return given[-1] if given else auto[0]


TYPE_NAMES = {
    STRING: "text",
    INTEGER: "integer",
    BOOLEAN: "true/false",
    USER: "user",
    CHANNEL: "channel",
    ROLE: "role",
    MENTIONABLE: "user/role",
    NUMBER: "number",
    ATTACHMENT: "file path",
}


def describe_commands(commands: list[dict]) -> list[str]:
    """One line per (sub)command: `/heat new track:(usa|france) [laps:1..5]` (optional in [])."""
    lines: list[str] = []

    def walk(prefix: str, options: list[dict], description: str) -> None:
        subs = [o for o in options if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        if subs:
            for sub in subs:
                walk(f"{prefix} {sub['name']}", sub.get("options") or [], sub.get("description") or "")
            return
        parts = [prefix]
        for o in options:
            if o.get("choices"):
                kind = "(" + "|".join(str(c.get("value")) for c in o["choices"]) + ")"
            elif o.get("min_value") is not None or o.get("max_value") is not None:
                kind = f"{o.get('min_value', '')}..{o.get('max_value', '')}"
            else:
                kind = TYPE_NAMES.get(o.get("type") or 0, "?") + ("?" if o.get("autocomplete") else "")
            part = f"{o['name']}:{kind}"
            parts.append(part if o.get("required") else f"[{part}]")
        lines.append(" ".join(parts) + (f"  — {description}" if description else ""))

    for cmd in sorted(commands, key=lambda c: c.get("name", "")):
        if cmd.get("type", 1) == 1:
            walk("/" + cmd["name"], cmd.get("options") or [], cmd.get("description") or "")
    return lines
