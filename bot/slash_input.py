"""Slash-command input, checked at the edge before any command runs.

Discord checks option types, ranges and choices in its own client, but an interaction is only a
JSON payload: a forged one can carry a string where an integer belongs, an integer past SQLite's
range, a choice that was never offered, or a command that does not exist. `problem` names what
is wrong in one sentence for the caller; the command never sees such input.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.components import interaction_data
from bot.i18n import Msg, msg

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, NUMBER = 3, 4, 5, 10
SNOWFLAKES = (6, 7, 8, 9, 11)  # user, channel, role, mentionable, attachment
BIG = 2**53  # Discord's integer options stay within ±2^53
MAX_STRING = 6000


def resolve(
    tree: app_commands.CommandTree, data: dict[str, Any], guild: discord.abc.Snowflake | None
) -> tuple[app_commands.Command | None, list[Any]]:
    """The command an interaction names (subcommands followed) and its own options."""
    name, options = data.get("name"), data.get("options", [])
    if not isinstance(name, str) or not isinstance(options, list):
        return None, []
    command: Any = (tree.get_command(name, guild=guild) if guild is not None else None) or tree.get_command(name)
    while isinstance(command, app_commands.Group):
        sub = options[0] if len(options) == 1 and isinstance(options[0], dict) else None
        if (
            sub is None
            or sub.get("type") not in (SUB_COMMAND, SUB_COMMAND_GROUP)
            or not isinstance(sub.get("name"), str)
        ):
            return None, []
        command, options = command.get_command(sub["name"]), sub.get("options", [])
        if not isinstance(options, list):
            return None, []
    return (command if isinstance(command, app_commands.Command) else None), options


def _value_ok(param: app_commands.Parameter, kind: int, value: Any) -> bool:
    if kind == STRING:
        return (
            isinstance(value, str)
            and len(value) <= MAX_STRING
            and (  # a string's bounds are lengths
                param.max_value is None or len(value) <= param.max_value
            )
            and (param.min_value is None or len(value) >= param.min_value)
        )
    if kind in (INTEGER, NUMBER):
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or (kind == INTEGER and isinstance(value, float))
        ):
            return False
        if not -BIG <= value <= BIG or value != value:  # NaN
            return False
        return (param.min_value is None or value >= param.min_value) and (
            param.max_value is None or value <= param.max_value
        )
    if kind == BOOLEAN:
        return isinstance(value, bool)
    if kind in SNOWFLAKES:
        return isinstance(value, (str, int)) and str(value).isascii() and str(value).isdigit() and len(str(value)) <= 20
    return False


def problem(tree: app_commands.CommandTree, interaction: discord.Interaction) -> Msg | None:
    """None if the interaction's command and options are ones this bot offers; else why not."""
    data = interaction_data(interaction)
    if data.get("type", 1) != 1:
        return msg("I don't know that command.")
    command, options = resolve(tree, data, interaction.guild)
    if command is None:
        return msg("I don't know that command. It may have just changed: try again in a minute.")
    params = {p.name: p for p in command.parameters}
    autocomplete = interaction.type == discord.InteractionType.autocomplete
    seen = set()
    for option in options:
        if not isinstance(option, dict) or option.get("name") not in params or option["name"] in seen:
            return msg("That command does not take those options.")
        seen.add(option["name"])
        param = params[option["name"]]
        if option.get("type") != param.type.value:
            return msg("The option “{name}” has the wrong kind of value.", name=param.display_name)
        value = option.get("value")
        if autocomplete and option.get("focused"):
            if not param.autocomplete or not isinstance(value, str) or len(value) > MAX_STRING:
                return msg("The option “{name}” has the wrong kind of value.", name=param.display_name)
            continue
        if not _value_ok(param, param.type.value, value):
            return msg("The option “{name}” has a value out of range or of the wrong kind.", name=param.display_name)
        if param.choices and value not in {c.value for c in param.choices}:
            return msg(
                "“{value}” is not one of the choices for “{name}”.", value=str(value)[:50], name=param.display_name
            )
    if not autocomplete and any(p.required and p.name not in seen for p in command.parameters):
        return msg("That command is missing a required option.")
    if autocomplete and sum(1 for o in options if o.get("focused")) != 1:
        return msg("That command does not take those options.")  # an autocomplete types into one option
    return None
