"""Buttons and selects that hold no state: what a click means is in its custom_id.

  lb:<game>:<join|leave|start>          lobby buttons
  mv:<game>:<version>:<seat>:b<index>   a button of the seat's menu issued at `version`
  mv:<game>:<version>:<seat>:s<index>   a select of the seat's menu issued at `version`
  hd:<game>                             "My hand": the clicker's private view, ephemeral
  ab:<game>:<seat>:<version>            a vote to hand an absent seat (whose menu is at `version`)
                                        to the automatic player
  bk:<game>                             "Take my seat back" from the automatic player
  rp:<game>:<page>                      a finished game's replay: show page `page` (its boards,
                                        then its results and statistics)
The version is the seat's prompt version (the game version at which its menu last changed), so
one player's move does not turn another player's still-valid buttons stale.

Components are built here and read back by `parse`, strictly (ASCII digits, the component type
each id was made for); the app routes every component interaction through it, so a click that
matches nothing still gets an answer. Nothing is kept in discord.py's view store: a click works
the same after a restart, and memory does not grow with every message sent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.games.base import name_seats
from bot.i18n import msg, render

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
BUTTON, SELECT = discord.ComponentType.button.value, discord.ComponentType.string_select.value
_ID = r"(0|[1-9][0-9]{0,17})"  # ASCII digits only: \d would take "１" (full-width) too
_SMALL = r"(0|[1-9][0-9]{0,8})"
_PATTERNS = {
    "lobby": (re.compile(rf"lb:{_ID}:(join|leave|start)", re.ASCII), BUTTON),
    "hand": (re.compile(rf"hd:{_ID}", re.ASCII), BUTTON),
    "vote": (re.compile(rf"ab:{_ID}:([0-9]{{1,2}}):{_SMALL}", re.ASCII), BUTTON),
    "back": (re.compile(rf"bk:{_ID}", re.ASCII), BUTTON),
    "replay": (re.compile(rf"rp:{_ID}:{_SMALL}", re.ASCII), BUTTON),
    "rules": (re.compile(r"ru:([a-z]{1,20}):([1-9][0-9]{0,2})", re.ASCII), BUTTON),
    "button": (re.compile(rf"mv:{_ID}:{_SMALL}:([0-9]{{1,2}}):b([0-9]{{1,3}})", re.ASCII), BUTTON),
    "select": (re.compile(rf"mv:{_ID}:{_SMALL}:([0-9]{{1,2}}):s([0-9]{{1,3}})", re.ASCII), SELECT),
}
MAX_VALUES = 25


@dataclass(frozen=True)
class Click:
    """A component interaction, parsed: what it is, and its numbers."""

    what: str  # lobby | hand | vote | back | replay | rules | button | select
    game_id: int
    lobby_action: str = ""
    kind: str = ""  # rules: the game's slash group
    version: int = 0
    seat: int = 0
    index: int = 0


def parse(custom_id: Any, component_type: Any) -> Click | None:
    """The click a custom_id stands for, or None if it is not one of ours (or not of that type)."""
    if not isinstance(custom_id, str) or len(custom_id) > 100:
        return None
    for what, (pattern, kind) in _PATTERNS.items():
        match = pattern.fullmatch(custom_id)
        if match is None:
            continue
        if component_type != kind:
            return None
        if what == "lobby":
            return Click(what, int(match[1]), lobby_action=match[2])
        if what == "rules":  # no game: the game's kind, and the page
            return Click(what, 0, kind=match[1], index=int(match[2]))
        if what in ("hand", "back"):
            return Click(what, int(match[1]))
        if what == "replay":
            return Click(what, int(match[1]), index=int(match[2]))
        if what == "vote":
            return Click(what, int(match[1]), seat=int(match[2]), version=int(match[3]))
        return Click(what, int(match[1]), version=int(match[2]), seat=int(match[3]), index=int(match[4]))
    return None


def interaction_data(interaction: discord.Interaction) -> dict[str, Any]:
    """What Discord sent with an interaction (command, options, custom_id, values...) as plain data;
    empty if it sent none."""
    data: Any = interaction.data
    return data if isinstance(data, dict) else {}


def select_values(data: Any) -> list[str] | None:
    """A select's chosen values, or None if they are not a short list of strings."""
    values = data.get("values", []) if isinstance(data, dict) else None
    if not isinstance(values, list) or len(values) > MAX_VALUES:
        return None
    if not all(isinstance(v, str) and len(v) <= 100 for v in values):
        return None
    return values


class OutboundView(discord.ui.View):
    """Components to send; never stored in discord.py's view store (clicks go through `parse`)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False


LOBBY_LABELS = {"join": "Join", "leave": "Leave", "start": "Start"}
LOBBY_STYLES = {"join": "success", "leave": "secondary", "start": "primary"}


def lobby_view(game_id: int, locale: str) -> discord.ui.View:
    view = OutboundView()
    for what in ("join", "leave", "start"):
        view.add_item(
            discord.ui.Button(
                label=render(msg(LOBBY_LABELS[what]), locale),
                style=_STYLES[LOBBY_STYLES[what]],
                custom_id=f"lb:{game_id}:{what}",
            )
        )
    return view


def hand_view(game_id: int, locale: str) -> discord.ui.View:
    view = OutboundView()
    view.add_item(
        discord.ui.Button(
            label=render(msg("My hand"), locale), style=discord.ButtonStyle.secondary, custom_id=f"hd:{game_id}"
        )
    )
    return view


def vote_view(game_id: int, seat: int, version: int, locale: str) -> discord.ui.View:
    view = OutboundView()
    view.add_item(
        discord.ui.Button(
            label=render(msg("Let the automatic player move"), locale),
            style=discord.ButtonStyle.primary,
            custom_id=f"ab:{game_id}:{seat}:{version}",
        )
    )
    return view


def back_view(game_id: int, locale: str) -> discord.ui.View:
    view = OutboundView()
    view.add_item(
        discord.ui.Button(
            label=render(msg("Take my seat back"), locale), style=discord.ButtonStyle.success, custom_id=f"bk:{game_id}"
        )
    )
    return view


def pager_view(prefix: str, page: int, pages: int, locale: str) -> discord.ui.View:
    """Previous / Next, their custom_ids `prefix` and the page they lead to (a button that would
    leave the pages is disabled)."""
    view = OutboundView()
    for label, to in ((msg("◀ Previous"), page - 1), (msg("Next ▶"), page + 1)):
        view.add_item(
            discord.ui.Button(
                label=render(label, locale),
                style=discord.ButtonStyle.secondary,
                custom_id=f"{prefix}:{max(1, min(to, pages))}",
                disabled=not 1 <= to <= pages,
            )
        )
    return view


def replay_view(game_id: int, page: int, pages: int, locale: str) -> discord.ui.View:
    """Previous / Next under a replay's page (a board, or the results and statistics after the last)."""
    return pager_view(f"rp:{game_id}", page, pages, locale)


def rules_view(kind: str, page: int, pages: int, locale: str) -> discord.ui.View:
    """Previous / Next under a rules page."""
    return pager_view(f"ru:{kind}", page, pages, locale)


def select_bounds(group: dict[str, Any]) -> tuple[list[str], int, int]:
    """The option values a select offers and how many may be picked, as Discord is told."""
    values = [str(o["value"])[:100] for o in group["options"][:25]]
    return values, max(0, min(group.get("min", 1), len(values))), max(1, min(group.get("max", 1), len(values)))


def chosen_ok(group: dict[str, Any], values: list[str]) -> bool:
    """Whether `values` could have come from this select: offered, distinct, a count it allows."""
    offered, low, high = select_bounds(group)
    return set(values) <= set(offered) and len(set(values)) == len(values) and low <= len(values) <= high


def _words(text: Any, locale: str, limit: int, names: list[str] = ()) -> str | None:  # type: ignore[assignment]
    """A menu text in the reader's language, players named (Pole's "Attack <seat:0>"), within
    Discord's length for it (None if empty)."""
    return name_seats(render(text, locale), list(names))[:limit] or None if text else None


def _select(custom_id: str, group: dict[str, Any], row: int, locale: str, names: list[str]) -> discord.ui.Select:
    values, low, high = select_bounds(group)
    options = [
        discord.SelectOption(
            label=_words(o["label"], locale, 100, names) or "?",
            value=value,
            description=_words(o.get("description"), locale, 100, names),
        )
        for o, value in zip(group["options"], values)
    ]
    return discord.ui.Select(
        custom_id=custom_id,
        options=options,
        row=row,
        min_values=low,
        max_values=high,
        placeholder=_words(group.get("placeholder"), locale, 150, names),
    )


def menu_view(
    game_id: int,
    version: int,
    seat: int,
    menu: list[dict[str, Any]],
    locale: str,
    names: list[str] = (),  # type: ignore[assignment]
) -> discord.ui.View | None:
    """Turn an engine menu into at most five rows of components (selects first, then buttons), its
    texts in the reader's language with the players' `names`."""
    view = OutboundView()
    prefix = f"mv:{game_id}:{version}:{seat}:"
    row = 0
    for index, group in enumerate(g for g in menu if g["kind"] == "select"):
        if row >= 5 or not group["options"]:
            continue
        view.add_item(_select(f"{prefix}s{index}", group, row, locale, names))
        row += 1
    buttons = [b for g in menu if g["kind"] == "buttons" for b in g["options"]]
    for index, button in enumerate(buttons):
        r = row + index // 5
        if r >= 5:
            break
        view.add_item(
            discord.ui.Button(
                label=_words(button["label"], locale, 80, names) or "?",
                row=r,
                custom_id=f"{prefix}b{index}",
                style=_STYLES.get(button.get("style", "secondary"), _STYLES["secondary"]),
            )
        )
    return view if view.children else None


def menu_entry(menu: list[dict[str, Any]], kind: str, index: int) -> dict[str, Any] | None:
    """The button (kind 'buttons') or select group (kind 'select') at `index`, as numbered above."""
    if kind == "select":
        groups = [g for g in menu if g["kind"] == "select"]
        return groups[index] if 0 <= index < len(groups) else None
    buttons = [b for g in menu if g["kind"] == "buttons" for b in g["options"]]
    return buttons[index] if 0 <= index < len(buttons) else None
