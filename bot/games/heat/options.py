"""Heat's table options: their specs (filled and checked one by one by `bot.games.base.fill_options`),
what lies between them (`normalise`: track aliases, the modules they switch on, the championship's
own options) and the words the lobby shows (`describe`).

The options a game keeps are `normalise`'s: {"track", "grid", "modules"} and, only when they apply,
"garage", "garage_deal", "legends", "legend_bonus", "aggressive_legends", "tournament" and the
championship's "championship", "races", "season_tracks". That stored form is read again by
`new_game` (replays), so every key of it has a spec and `normalise` takes it back unchanged.
"""

from __future__ import annotations

from typing import Any

import bot.games.heat.championship as championship
import bot.games.heat.content as content
import bot.games.heat.rules as rules
from bot.games.base import GameError, OptionSpec
from bot.i18n import Msg, msg

TRACK_ALIASES = {
    "us": "usa",
    "united states": "usa",
    "fr": "france",
    "gb": "great_britain",
    "uk": "great_britain",
    "great britain": "great_britain",
    "britain": "great_britain",
    "it": "italy",
    "italia": "italy",
    "jp": "japan",
    "suzuka": "japan",
    "mx": "mexico",
    "mexico city": "mexico",
}


class NamesOption(OptionSpec):
    """An option holding a list of names, given as a list of words or as one comma-separated text
    (the stored form keeps the list)."""

    def check(self, value: Any) -> list[str]:
        if isinstance(value, str):
            return [v.strip() for v in value.split(",") if v.strip()]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise GameError(msg("{name} must be a list of names.", name=self.name))
        return list(value)


def specs() -> list[OptionSpec]:
    """The options `/heat new` and the lobby take."""
    return [
        OptionSpec("track", "Race track (laps, spaces and corners as on the board)", default="usa"),
        OptionSpec(
            "grid", "Starting grid order: random, or by seat order", choices=["random", "seats"], default="random"
        ),
        OptionSpec(
            "weather",
            "Weather and road conditions module (a weather tile, road tokens on corners)",
            kind="bool",
            default=False,
        ),
        OptionSpec(
            "garage",
            "Garage module: draft 3 upgrade cards before the race (off, or the deck)",
            choices=["off", *rules.GARAGE_DECKS],
            default="off",
        ),
        OptionSpec(
            "garage_deal", "Garage: deal 3 upgrades to each player instead of the draft", kind="bool", default=False
        ),
        OptionSpec(
            "legends",
            "Legends module: cars the bot drives (3 players or fewer; 2 or more suggested)",
            kind="int",
            default=0,
            min_value=0,
            max_value=rules.MAX_CARS - 1,
        ),
        OptionSpec(
            "legend_bonus",
            "Advanced Legends: add this to the Legends' helmet numbers (0-3)",
            kind="int",
            default=0,
            min_value=0,
            max_value=3,
        ),
        OptionSpec(
            "aggressive_legends",
            "Aggressive Legends (Heavy Rain): one more corner line from a ∧ diamond",
            kind="bool",
            default=False,
        ),
        OptionSpec(
            "tournament",
            "Tournament mode: no gear shift before the cards; shown card counts set the gear",
            kind="bool",
            default=False,
        ),
        OptionSpec(
            "championship",
            "Championship: a season of races in this game (off, 1961-1964, custom)",
            choices=["off", *championship.SEASONS],
            default="off",
        ),
        OptionSpec(
            "races", "Custom championship: number of races (2-4)", kind="int", default=4, min_value=2, max_value=4
        ),
        NamesOption(
            "season_tracks", "Custom championship: the tracks in order, comma-separated (default: shuffled)", default=[]
        ),
        # (the kept form's list of modules; the options above switch them on)
        NamesOption("modules", "Modules by name: weather, garage, legends", default=[]),
    ]


def track_key(track: str) -> str:
    """A track's data key from what a player typed (any case, an alias such as "GB" or "Italia")."""
    key = track.strip().lower()
    return TRACK_ALIASES.get(key, key).replace(" ", "_")


def normalise(options: dict[str, Any]) -> dict[str, Any]:
    """The filled options (each checked by its spec) as the game keeps them: the modules they switch on,
    the keys that apply only. Raises GameError for what no single spec can see."""
    key = track_key(options["track"])
    if key not in content.offered_tracks():
        raise GameError(
            msg(
                "Unknown track {track}; choose one of: {names}.",
                track=options["track"],
                names=list(content.offered_tracks()),
            )
        )
    modules = list(options["modules"])
    if options["weather"]:
        modules.append("weather")
    garage = options["garage"]
    if garage != "off":
        modules.append("garage")
    if options["garage_deal"] and "garage" not in modules:
        raise GameError(msg("Dealing upgrades needs the Garage module (garage: a deck)."))
    legends = options["legends"]
    if "legends" in modules and not legends:
        legends = 2  # the module named without a number: the suggested two
    modules = [m for m in modules if m != "legends"] + (["legends"] if legends else [])
    for m in modules:
        if m not in rules.KNOWN_MODULES:
            raise GameError(msg("The {module} module is not available yet.", module=m))
    out: dict[str, Any] = {"track": key, "grid": options["grid"], "modules": sorted(set(modules))}
    if "garage" in out["modules"]:
        out["garage"] = garage if garage != "off" else "basic"
        if options["garage_deal"]:
            out["garage_deal"] = True
    if "legends" in out["modules"]:
        out["legends"] = legends
        if options["legend_bonus"]:
            out["legend_bonus"] = options["legend_bonus"]
        if options["aggressive_legends"]:
            out["aggressive_legends"] = True
    if options["tournament"]:
        out["tournament"] = True
    championship.normalise(options, out)
    return out


def describe(options: dict[str, Any]) -> list[Msg]:
    """The table's options as the lobby shows them."""
    modules = options.get("modules", ())
    grid = msg("random grid") if options.get("grid", "random") == "random" else msg("grid in seat order")
    out = (
        [grid]
        if options.get("championship")
        else [msg("{track} circuit", track=msg(content.tracks()[options["track"]].name)), grid]
    )
    if "weather" in modules:
        out.append(msg("weather and road conditions (drawn at the start)"))
    if "garage" in modules and options.get("garage_deal"):
        out.append(
            msg("Garage: 3 upgrades dealt to each player ({deck} cards)", deck=msg(options.get("garage", "basic")))
        )
    elif "garage" in modules:
        out.append(msg("Garage: draft of 3 upgrades ({deck} cards)", deck=msg(options.get("garage", "basic"))))
    if "legends" in modules:
        out += _describe_legends(options)
    if options.get("tournament"):
        out.append(msg("tournament mode"))
    if options.get("championship"):  # (the season's own tracks, grid, market and weather)
        out = championship.describe(options) + [
            m
            for m in out[2:]
            if m.key
            not in ("weather and road conditions (drawn at the start)", "Garage: draft of 3 upgrades ({deck} cards)")
        ]
    return out


def _describe_legends(options: dict[str, Any]) -> list[Msg]:
    n = options.get("legends", 2)
    out = [msg("{n} Legends (cars the bot drives)", n=n)]
    # Said in the lobby before anyone sits down (the Start checks it): Legends race with 3
    # players or fewer, 6 cars in all.
    most = min(rules.LEGEND_MAX_PLAYERS, rules.MAX_CARS - n)
    out.append(
        msg("at most 1 player with {n} Legends", n=n)
        if most == 1
        else msg("at most {p} players with {n} Legends", p=most, n=n)
    )
    if options.get("legend_bonus"):
        out.append(msg("advanced Legends: helmets +{n}", n=options["legend_bonus"]))
    if options.get("aggressive_legends"):
        out.append(msg("aggressive Legends"))
    return out


def legends_of(options: dict[str, Any]) -> int:
    """How many Legends the kept options race with."""
    return int(options.get("legends", 0)) if "legends" in options.get("modules", ()) else 0
