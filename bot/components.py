"""Stateless, restart-proof buttons and selects (discord.ui.DynamicItem).

Every custom_id carries what the click means; nothing lives in memory:
  lb:<game>:<join|leave|start>          lobby buttons
  mv:<game>:<version>:<seat>:b<index>   a button of the seat's menu issued at `version`
  mv:<game>:<version>:<seat>:s<index>   a select of the seat's menu issued at `version`
  hd:<game>                             "My hand": the clicker's private view, ephemeral
The version is the seat's prompt version (the game version at which its menu last changed), so
one player's move does not turn another player's still-valid buttons stale.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t

if TYPE_CHECKING:
    from bot.table import Table

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def _table(interaction: discord.Interaction) -> "Table":
    return interaction.client.table  # type: ignore[attr-defined]


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=r"lb:(?P<gid>\d{1,18}):(?P<what>join|leave|start)"):
    LABELS = {"join": "Join", "leave": "Leave", "start": "Start"}
    STYLES = {"join": "success", "leave": "secondary", "start": "primary"}

    def __init__(self, game_id: int, what: str) -> None:
        self.game_id, self.what = game_id, what
        super().__init__(discord.ui.Button(label=t(self.LABELS[what]), style=_STYLES[self.STYLES[what]],
                                           custom_id=f"lb:{game_id}:{what}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> "LobbyButton":
        return cls(int(match["gid"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _table(interaction).lobby_action(interaction, self.game_id, self.what)


class HandButton(discord.ui.DynamicItem[discord.ui.Button], template=r"hd:(?P<gid>\d{1,18})"):
    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(discord.ui.Button(label=t("My hand"), style=discord.ButtonStyle.secondary,
                                           custom_id=f"hd:{game_id}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> "HandButton":
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _table(interaction).show_hand(interaction, self.game_id)


_MOVE = r"mv:(?P<gid>\d{1,18}):(?P<ver>\d{1,9}):(?P<seat>\d{1,2}):"


class MoveButton(discord.ui.DynamicItem[discord.ui.Button], template=_MOVE + r"b(?P<idx>\d{1,3})"):
    def __init__(self, game_id: int, version: int, seat: int, index: int,
                 label: str = "?", style: str = "secondary", row: int | None = None) -> None:
        self.game_id, self.version, self.seat, self.index = game_id, version, seat, index
        super().__init__(discord.ui.Button(label=label[:80], style=_STYLES.get(style, _STYLES["secondary"]),
                                           custom_id=f"mv:{game_id}:{version}:{seat}:b{index}", row=row))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> "MoveButton":
        return cls(int(match["gid"]), int(match["ver"]), int(match["seat"]), int(match["idx"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _table(interaction).component_move(interaction, self.game_id, self.version, self.seat,
                                                 "buttons", self.index, None)


class MoveSelect(discord.ui.DynamicItem[discord.ui.Select], template=_MOVE + r"s(?P<idx>\d{1,3})"):
    def __init__(self, game_id: int, version: int, seat: int, index: int,
                 group: dict[str, Any] | None = None, row: int | None = None) -> None:
        self.game_id, self.version, self.seat, self.index = game_id, version, seat, index
        group = group or {"options": [{"label": "?", "value": "?"}], "min": 1, "max": 1}
        options = [discord.SelectOption(label=o["label"][:100], value=str(o["value"])[:100],
                                        description=(o.get("description") or None) and o["description"][:100])
                   for o in group["options"][:25]]
        super().__init__(discord.ui.Select(
            custom_id=f"mv:{game_id}:{version}:{seat}:s{index}", options=options, row=row,
            placeholder=(group.get("placeholder") or None) and group["placeholder"][:150],
            min_values=max(0, min(group.get("min", 1), len(options))),
            max_values=max(1, min(group.get("max", 1), len(options)))))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> "MoveSelect":
        return cls(int(match["gid"]), int(match["ver"]), int(match["seat"]), int(match["idx"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = [str(v) for v in (interaction.data or {}).get("values", [])]
        await _table(interaction).component_move(interaction, self.game_id, self.version, self.seat,
                                                 "select", self.index, values)


DYNAMIC_ITEMS = (LobbyButton, HandButton, MoveButton, MoveSelect)


def lobby_view(game_id: int, open_: bool = True) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if open_:
        for what in ("join", "leave", "start"):
            view.add_item(LobbyButton(game_id, what))
    return view


def hand_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(game_id))
    return view


def menu_view(game_id: int, version: int, seat: int, menu: list[dict[str, Any]]) -> discord.ui.View | None:
    """Turn an engine menu into at most five rows of components (selects first, then buttons)."""
    view = discord.ui.View(timeout=None)
    row = 0
    for index, group in enumerate(g for g in menu if g["kind"] == "select"):
        if row >= 5 or not group["options"]:
            continue
        view.add_item(MoveSelect(game_id, version, seat, index, group, row=row))
        row += 1
    buttons = [b for g in menu if g["kind"] == "buttons" for b in g["options"]]
    for index, button in enumerate(buttons):
        r = row + index // 5
        if r >= 5:
            break
        view.add_item(MoveButton(game_id, version, seat, index, button["label"], button.get("style", "secondary"), row=r))
    return view if view.children else None


def menu_entry(menu: list[dict[str, Any]], kind: str, index: int) -> dict[str, Any] | None:
    """The button (kind 'buttons') or select group (kind 'select') at `index`, as numbered above."""
    if kind == "select":
        groups = [g for g in menu if g["kind"] == "select"]
        return groups[index] if 0 <= index < len(groups) else None
    buttons = [b for g in menu if g["kind"] == "buttons" for b in g["options"]]
    return buttons[index] if 0 <= index < len(buttons) else None
