"""The table options of the optional rules added after the standard race (seed 002 sections 9,
13, 16 and appendix 4): their specs, validation and how the lobby names every option."""

from __future__ import annotations

from typing import Any

from bot.games.base import OptionSpec
import bot.games.pole.championship as championship
from bot.games.pole.content import circuits
from bot.i18n import Msg, msg

SPECS = [
    OptionSpec(
        "events",
        "Events: a '!' on the weather die may reveal an event card (breakdowns, lost points, safety car, weather)",
        kind="bool",
        default=False,
    ),
    OptionSpec("events_c", "Events: the optional 'C' cards too (turns events on)", kind="bool", default=False),
    OptionSpec(
        "events_often", "Events: a 3 on the purple die counts as '!' (turns events on)", kind="bool", default=False
    ),
    OptionSpec("circuit_rules", "Circuit special rules (each circuit's own rules)", kind="bool", default=False),
    OptionSpec(
        "no_retire",
        "No retirements: too many breakdowns or a point you cannot lose sends you to the pits instead of out",
        kind="bool",
        default=False,
    ),
    OptionSpec(
        "custom_setup",
        "Custom setup: move up to 2 points between EP and BP at the start, 1 at each pit stop",
        kind="bool",
        default=False,
    ),
    OptionSpec(
        "drivers",
        "Drivers and teams: each player draws a driver and a team with their own abilities",
        kind="bool",
        default=False,
    ),
    OptionSpec(
        "championship",
        "Championship: this many races (4-8) in one game, standings after each",
        kind="int",
        default=0,
        min_value=0,
        max_value=8,
    ),
    OptionSpec(
        "engine_damage",
        "Championship engine damage: ending a race with 0 EP costs EP in later races",
        kind="bool",
        default=False,
    ),
    OptionSpec(
        "constructors",
        "Constructors: cars in teams of two (seat order) share a pit and add their points",
        kind="bool",
        default=False,
    ),
    OptionSpec(
        "long_race",
        "Long race: twice the laps, 12 EP, 12 BP, 15 SP, 4 breakdown points, a second hard set",
        kind="bool",
        default=False,
    ),
]


def validate(options: dict[str, Any], out: dict[str, Any]) -> None:
    """Adds the new options to `out` only when on, so tables without them keep their options."""
    if options.get("events") or options.get("events_c") or options.get("events_often"):
        out["events"] = True  # 9
    if options.get("events_c"):
        out["events_c"] = True  # 2.2 C: only when all players agree
    if options.get("events_often"):
        out["events_often"] = True  # 9: "3" counts as "!"
    if options.get("circuit_rules"):
        out["circuit_rules"] = True  # appendix 4
    if options.get("no_retire"):
        out["no_retire"] = True  # 16.1
    if options.get("long_race"):
        out["long_race"] = True  # 16.2
    if options.get("custom_setup"):
        out["custom_setup"] = True  # 13
    if options.get("drivers"):
        out["drivers"] = True  # 14
    championship.validate(options, out)  # 15


def describe(options: dict[str, Any]) -> list[Msg | str]:
    """The table's options as the lobby shows them."""
    c = circuits()[options.get("circuit", "great_britain")]
    laps = c.laps * (2 if options.get("long_race") else 1)
    out: list[Msg | str] = [msg("{circuit}, {laps} laps", circuit=msg(c.name), laps=laps)]
    if options.get("bots"):
        out.append(
            msg("1 bot (side {side})", side=options.get("bot_side", "A"))
            if options["bots"] == 1
            else msg("{n} bots (side {side})", n=options["bots"], side=options.get("bot_side", "A"))
        )
    names = [
        ("drs", msg("DRS")),
        ("collisions", msg("collisions")),
        ("yellow_flag", msg("yellow flag")),
        ("safety_car", msg("safety car")),
        ("stress", msg("stress")),
    ]
    out += [m for k, m in names if options.get(k)]
    if options.get("events"):
        extra = [
            m
            for k, m in (("events_c", msg("with the C cards")), ("events_often", msg("a 3 counts as '!'")))
            if options.get(k)
        ]
        out.append(msg("events ({what})", what=extra) if extra else msg("events"))
    names = [
        ("circuit_rules", msg("circuit special rules")),
        ("no_retire", msg("no retirements")),
        ("long_race", msg("long race")),
        ("custom_setup", msg("custom setup")),
        ("drivers", msg("drivers and teams")),
        ("engine_damage", msg("engine damage")),
        ("constructors", msg("constructors' championship")),
    ]
    if options.get("championship"):
        out.insert(1, msg("championship of {n} races", n=options["championship"]))
    out += [m for k, m in names if options.get(k)]
    return out
