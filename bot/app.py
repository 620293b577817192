"""The bot: a commands.AutoShardedBot whose setup_hook opens the store, loads the cogs, registers
the restart-proof components, syncs slash commands and starts the reminder service.

Shards: BOT_SHARDS=first-last/total runs those shards in this process (unset: discord.py's
default, every shard the gateway recommends, here). Discord sends a process the events and
interactions of its shards' guilds (a guild's shard is (guild_id >> 22) % total) and DMs to
shard 0; the store's start-up, timer, catch-up and automatic-player queries see only the games
of this process's shards (Store.shards), so each game is served, reminded and caught up by the
one process that owns its guild.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import wire
from bot.config import Settings
from bot.export import ANIMATOR
from bot.games.registry import engines
from bot.i18n import Msg, default_locale, locale_for, msg, render, set_locale, translation
from bot.reminders import run_reminders
from bot.slash_input import problem
from bot.store import Store, StoreGone
from bot.table import Table

log = logging.getLogger(__name__)

# The answer to anything but a move (a Join, a new table...) while the database file is gone or
# replaced; a move has its own (Table.STORE_GONE).
NOTHING_SAVED = msg(
    "I cannot save anything right now: the file that holds the games was deleted or replaced "
    "while I ran. Nothing was changed; the bot's admin must restart me."
)

COGS = ("cogs.heat", "cogs.pon", "cogs.pole", "cogs.rallyman", "cogs.steamworks", "cogs.table", "cogs.stats")


class CatalogTranslator(app_commands.Translator):
    """Slash-command texts go through the same catalogs as every other string (data/i18n)."""

    NAMES = (
        app_commands.TranslationContextLocation.command_name,
        app_commands.TranslationContextLocation.group_name,
        app_commands.TranslationContextLocation.parameter_name,
    )  # names stay as they are in every language

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        if context.location in self.NAMES:
            return None
        language = locale.value.split("-")[0]
        key = string.extras.get("key")  # a text with parameters (cogs.base.choice_text)
        if key is not None:
            return (
                render(Msg(key, string.extras.get("params", {})), language)[:100]
                if translation(key, language) is not None
                else None
            )
        return translation(string.message, language)


def reader_locale(interaction: discord.Interaction) -> str:
    return locale_for(str(interaction.locale)) or default_locale()


class CheckedTree(app_commands.CommandTree):
    """The command tree: input no command of ours could have produced is answered here, once,
    and never reaches a command (see bot/slash_input.py)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        why = problem(self, interaction)
        if why is None:
            return True
        try:
            if interaction.type == discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            else:
                await interaction.response.send_message(render(why, reader_locale(interaction)), ephemeral=True)
        except discord.HTTPException:
            pass
        return False


class TableBot(commands.AutoShardedBot):
    def __init__(self, settings: Settings, store: Store | None = None) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # threads and channels; no privileged intents are needed
        shards: dict[str, Any] = {}
        if settings.shards is not None:
            shards = {"shard_ids": settings.shards.ids, "shard_count": settings.shards.total}
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=CheckedTree,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            **shards,
        )
        self.settings = settings
        self.store: Store | None = store
        self.table: Table | None = None
        self._reminders: asyncio.Task[None] | None = None
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        set_locale(self.settings.locale)
        if self.store is None:
            self.store = await Store.open(self.settings.database)
        self.store.shards = self.settings.shards  # None: this process runs every shard
        if self.settings.shards is not None:
            log.info("running shards %s", self.settings.shards)
        self.table = Table(
            self, self.store, engines(), self.settings.reminder_seconds, ai_workers=self.settings.ai_workers
        )
        self.table.announcer.sweep_seconds = self.table.announcer.sweep_age = self.settings.catch_up_sweep
        await self.tree.set_translator(CatalogTranslator())
        for name in COGS:
            await self.load_extension(name)
        if self.settings.dev_guild:
            guild = discord.Object(self.settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        # Start-up work is done before the gateway connects: owed announcements are queued, so no
        # click can overtake them, and every waiting seat has its reminder.
        await self.table.announcer.start_catch_up()
        await self.table.recover()
        self._reminders = asyncio.create_task(run_reminders(self.table))
        freeze_start_up_heap()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Buttons and selects (the tree has the slash commands): all routed by custom_id.

        A click in a DM reaches the process running shard 0, whichever guild its game is played in:
        it is served here (forwarding it would need a channel between processes, and Discord wants
        the answer within 3 s). That is safe: the move commits only on the version its button was
        made for (compare-and-set, on PostgreSQL against every other process), and its
        announcement goes out from here over REST, which any process may use. Were this process to
        die before announcing it, the owning process's catch-up sweep says it (Announcer)."""
        if self.table is None:
            return
        if interaction.type in (discord.InteractionType.component, discord.InteractionType.modal_submit):
            try:
                await self.table.route_component(interaction)  # we open no modals: those are answered as unknown
            except StoreGone:  # the store said it once in the log; the player is told why nothing happened
                await answer(interaction, NOTHING_SAVED)

    async def close(self) -> None:
        if self.table is not None:
            await self.table.announcer.stop_catch_up()
            await self.table.drain()  # announcements under way finish (bounded) before the session closes
            self.table.autoplayer.thinker.close()
            ANIMATOR.close()
        if self._reminders:
            self._reminders.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reminders
        await super().close()
        if self.store:
            await self.store.close()

    async def on_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """The one handler: a short private answer; the details go to the log, not the player."""
        if isinstance(error, app_commands.CheckFailure):
            message = msg("You can't use that here.")
        elif isinstance(getattr(error, "original", error), StoreGone):
            message = NOTHING_SAVED  # said once in the log by the store
        else:
            log.error("command %s failed", interaction.command and interaction.command.qualified_name, exc_info=error)
            message = msg("Sorry, something went wrong. No game was changed.")
        await answer(interaction, message)


async def answer(interaction: discord.Interaction, message: Msg) -> None:
    """A short private answer, whether or not the interaction was acknowledged already."""
    text = render(message, reader_locale(interaction))
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        pass


@functools.cache  # once per process: not gc.get_freeze_count(), which walks every frozen object (#29)
def freeze_start_up_heap() -> None:
    """What start-up loaded (modules, the games' content, fonts: most of the heap, and it lives as
    long as the process) is moved out of the garbage collector's reach, once per process: its full
    passes no longer rescan it (they took 100-200 ms each, landing between a move and its board
    post at random; bench: board_ms_p95)."""
    gc.freeze()


def create_bot(settings: Settings, store: Store | None = None) -> TableBot:
    """Build the bot without connecting (it opens the store itself unless given one)."""
    wire.install()
    return TableBot(settings, store)
