"""What the table hands down to the parts it drives (bot/autoplayer.py, bot/replay.py): its
services, as a Protocol that bot.table.Table keeps. They use the table through this and never
import it, so a move's path runs one way (interaction -> table -> engine -> store -> announcer ->
delivery) and the table's parts do not climb back up into it."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, Callable, Protocol

import discord

from bot.delivery import Delivery, Outcome
from bot.games.base import Engine, State
from bot.i18n import Msg
from bot.store import Game, Store
from rendering import Renderer

# How a move is chosen on the commit path: (engine, game, state as loaded) -> the action.
Pick = Callable[[Engine, Game, State], dict[str, Any]]


class TableServices(Protocol):
    """The table as its parts see it (each member documented on bot.table.Table)."""

    store: Store
    engines: dict[str, Engine]
    out: Delivery
    clock: Callable[[], float]
    timers_changed: asyncio.Event

    def busy(self) -> contextlib.AbstractAsyncContextManager[None]: ...

    def lock(self, game_id: int) -> asyncio.Lock: ...

    def title(self, game: Game) -> Msg: ...

    def renderer(self, kind: str) -> Renderer: ...

    def clock_of(self, game: Game) -> float: ...

    def audience(self, interaction: discord.Interaction) -> str: ...

    async def ack(self, interaction: discord.Interaction, ephemeral: bool = True) -> None: ...

    async def reply(self, interaction: discord.Interaction, content: Msg | str, **kwargs: Any) -> None: ...

    async def load(self, game_id: int, status: tuple[str, ...] = ("active",)) -> Game: ...

    async def move_seat(
        self,
        game_id: int,
        seat_of: Callable[[Game], int | None],
        pick: Pick,
        taken_back: bool = False,
        actor_dm: tuple[int, int] | None = None,
    ) -> Outcome: ...

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None: ...
