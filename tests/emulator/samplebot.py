"""A small discord.py bot used only by the emulator tests: in-process, and as a subprocess via
``python -m bot.tools.emulator.launch tests/emulator/samplebot.py`` (env DISCORD_TOKEN,
SAMPLEBOT_GUILD_ID, SAMPLEBOT_STATE). Its code knows nothing about the emulator."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
from typing import Any, Dict, List, Optional, Set

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands
from discord.webhook.async_ import async_context, interaction_response_params


def png(width: int = 32, height: int = 16) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(buf, "PNG")
    return buf.getvalue()


class JoinButton(discord.ui.DynamicItem[discord.ui.Button], template=r"join:(?P<game>\d+)"):
    """Persistent across restarts: any message's join:<n> button reaches this handler."""

    def __init__(self, game: int, count: int = 0) -> None:
        super().__init__(
            discord.ui.Button(label=f"Join ({count})", style=discord.ButtonStyle.primary, custom_id=f"join:{game}")
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> "JoinButton":
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: SampleBot = interaction.client  # type: ignore[assignment]
        bot.events.append(("join", self.game, interaction.user.id))
        players = bot.games.get(self.game)
        if players is None:
            await interaction.response.send_message(f"No game {self.game}.", ephemeral=True)
            return
        players.add(interaction.user.id)
        bot.save()
        await interaction.response.edit_message(
            content=f"Game {self.game}: {len(players)} joined", view=GameView(self.game, len(players))
        )


class StartButton(discord.ui.DynamicItem[discord.ui.Button], template=r"start:(?P<game>\d+)"):
    """Shown disabled until two players joined; the handler re-checks, since a forged request
    can press a disabled button."""

    def __init__(self, game: int, disabled: bool = True) -> None:
        super().__init__(
            discord.ui.Button(
                label="Start", style=discord.ButtonStyle.success, custom_id=f"start:{game}", disabled=disabled
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> "StartButton":
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: SampleBot = interaction.client  # type: ignore[assignment]
        players = bot.games.get(self.game, set())
        bot.events.append(("start", self.game, interaction.user.id, len(players)))
        if len(players) < 2:
            await interaction.response.send_message("Need 2 players.", ephemeral=True)
            return
        await interaction.response.edit_message(content=f"Game {self.game} started", view=None)


class LaneSelect(discord.ui.Select):
    def __init__(self, game: int) -> None:
        super().__init__(
            custom_id=f"lane:{game}",
            placeholder="Pick lanes",
            min_values=1,
            max_values=2,
            options=[discord.SelectOption(label=f"Lane {i}", value=str(i)) for i in (1, 2, 3)],
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: SampleBot = interaction.client  # type: ignore[assignment]
        bot.events.append(("lane", tuple(self.values), interaction.user.id))
        await interaction.response.send_message(f"Lanes {', '.join(self.values)}", ephemeral=True)
        thread = await interaction.channel.create_thread(  # type: ignore[union-attr]
            name=f"lane-{'-'.join(self.values)}", type=discord.ChannelType.public_thread
        )
        await thread.send(f"<@{interaction.user.id}> picked lanes {', '.join(self.values)}")


class GameView(discord.ui.View):
    def __init__(self, game: int, count: int = 0) -> None:
        super().__init__(timeout=None)
        self.add_item(JoinButton(game, count))
        self.add_item(StartButton(game, disabled=count < 2))
        self.add_item(LaneSelect(game))


class PanelView(discord.ui.View):
    """Deferred component updates: type 6 then @original edits / deletes / follow-ups."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Refresh", custom_id="panel:refresh")
    async def refresh(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(
            content=None,
            embed=discord.Embed(title="Standings", description="1. ann"),
            attachments=[discord.File(io.BytesIO(png(8, 8)), "standings.png")],
            view=self,
        )

    @discord.ui.button(label="Note", custom_id="panel:note")
    async def note(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        await interaction.followup.send("noted", file=discord.File(io.BytesIO(png(4, 4)), "n.png"), ephemeral=True)

    @discord.ui.button(label="Remove", custom_id="panel:remove", style=discord.ButtonStyle.danger)
    async def remove(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        await interaction.delete_original_response()


class FeedbackModal(discord.ui.Modal, title="Feedback"):
    comment = discord.ui.TextInput(label="Comment", custom_id="comment", max_length=50)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Thanks: {self.comment.value}", ephemeral=True)


class Heat(app_commands.Group):
    def __init__(self, bot: "SampleBot") -> None:
        super().__init__(name="heat", description="Heat races")
        self.bot = bot

    @app_commands.command(description="Create a game")
    @app_commands.describe(track="Circuit", players="Seats")
    @app_commands.choices(track=[Choice(name="USA", value="usa"), Choice(name="Italy", value="italy")])
    async def new(
        self, interaction: discord.Interaction, track: Choice[str], players: app_commands.Range[int, 1, 6] = 2
    ) -> None:
        game = max(self.bot.games, default=0) + 1
        self.bot.games[game] = set()
        self.bot.save()
        self.bot.events.append(("new", track.value, players, interaction.guild_id))
        await interaction.response.send_message(f"Game {game} on {track.value} for {players}", view=GameView(game))

    @app_commands.command(description="Play a card")
    async def move(self, interaction: discord.Interaction, card: str) -> None:
        await interaction.response.send_message(f"played {card}", ephemeral=True)

    @move.autocomplete("card")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> List[Choice[str]]:
        cards = ["1", "2", "3", "4", "cooldown", "boost"]
        return [Choice(name=f"Card {c}", value=c) for c in cards if c.startswith(current)]

    @app_commands.command(description="Your secret hand")
    async def hand(self, interaction: discord.Interaction) -> None:
        self.bot.last_interaction = interaction
        await interaction.response.send_message("your hand: 1 2 3", ephemeral=True)

    @app_commands.command(description="Board picture")
    async def board(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.edit_original_response(
            content="Board", attachments=[discord.File(io.BytesIO(png(64, 48)), "board.png")]
        )

    @app_commands.command(description="DM a hand picture")
    async def dm(self, interaction: discord.Interaction, who: Optional[discord.Member] = None) -> None:
        target = who or interaction.user
        await interaction.response.defer(ephemeral=True)
        try:
            await target.send("Your hand", file=discord.File(io.BytesIO(png()), "hand.png"))
        except discord.Forbidden as exc:
            self.bot.events.append(("dm_forbidden", exc.status, exc.code))
            await interaction.followup.send(f"cannot DM {target.name}", ephemeral=True)
        else:
            await interaction.followup.send("sent", ephemeral=True)

    @app_commands.command(description="Too long a reply")
    async def shout(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message("A" * 2001)
        except discord.HTTPException as exc:
            self.bot.events.append(("shout", exc.status, exc.code))
            await interaction.response.send_message("too long")

    @app_commands.command(description="Acknowledge twice")
    async def twice(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("once")
        adapter = async_context.get()
        try:  # bypass discord.py's own guard to reach the API a second time
            await adapter.create_interaction_response(
                interaction.id,
                interaction.token,
                session=interaction._session,
                params=interaction_response_params(4, {"content": "twice"}),
            )
        except discord.HTTPException as exc:
            self.bot.events.append(("twice", exc.status, exc.code))

    @app_commands.command(description="Answer when released")
    async def slow(self, interaction: discord.Interaction) -> None:
        self.bot.events.append(("slow_started",))
        await self.bot.release.wait()
        try:
            await interaction.response.send_message("late")
        except discord.HTTPException as exc:
            self.bot.events.append(("slow", exc.status, exc.code))

    @app_commands.command(description="Answer, then finish the work")
    async def finish(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("on it")
        await self.bot.release.wait()  # work after the answer, as a bot commits a move it acknowledged
        self.bot.events.append(("finished",))

    @app_commands.command(description="Open the feedback form")
    async def feedback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(FeedbackModal())

    @app_commands.command(description="Invite a member")
    async def invite(self, interaction: discord.Interaction, who: discord.Member) -> None:
        self.bot.events.append(("invite", who.id, type(who).__name__))
        await interaction.response.send_message(
            f"{who.mention} invited", allowed_mentions=discord.AllowedMentions(users=[who])
        )

    @app_commands.command(description="Show the panel")
    async def panel(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Panel", view=PanelView())

    @app_commands.command(description="Open a thread on the reply")
    async def thread(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Race thread below")
        message = await interaction.original_response()
        thread = await message.create_thread(name="race")
        await thread.send("Lights out!")


class Mod(app_commands.Group):
    def __init__(self, bot: "SampleBot") -> None:
        super().__init__(
            name="mod", description="Moderation", default_permissions=discord.Permissions(manage_threads=True)
        )
        self.bot = bot

    @app_commands.command(description="Tidy threads")
    async def purge(self, interaction: discord.Interaction) -> None:
        self.bot.events.append(("purge", interaction.guild_id, interaction.permissions.manage_threads))
        await interaction.response.send_message("purged", ephemeral=True)


class SampleBot(commands.Bot):
    def __init__(self, guild_id: int, state_path: Optional[str] = None) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.guild_id = guild_id
        self.state_path = state_path
        self.events: List[Any] = []
        self.games: Dict[int, Set[int]] = {}
        self.release = asyncio.Event()
        self.last_interaction: Optional[discord.Interaction] = None
        if state_path and os.path.exists(state_path):
            with open(state_path) as fh:
                self.games = {int(k): set(v) for k, v in json.load(fh).items()}

    def last(self, kind: str) -> Any:
        """The most recent recorded event of ``kind`` (or None)."""
        return next((e for e in reversed(self.events) if e[0] == kind), None)

    def save(self) -> None:
        if self.state_path:
            with open(self.state_path, "w") as fh:
                json.dump({k: sorted(v) for k, v in self.games.items()}, fh)

    async def setup_hook(self) -> None:
        guild = discord.Object(id=self.guild_id)
        self.tree.add_command(Heat(self))
        self.tree.add_command(Mod(self), guild=guild)
        self.add_dynamic_items(JoinButton, StartButton)
        await self.tree.sync()
        await self.tree.sync(guild=guild)

    async def on_message(self, message: discord.Message) -> None:
        self.events.append(("message", message.id, message.content))


def main() -> None:
    bot = SampleBot(int(os.environ["SAMPLEBOT_GUILD_ID"]), os.environ.get("SAMPLEBOT_STATE"))
    bot.run(os.environ["DISCORD_TOKEN"], log_handler=None)


if __name__ == "__main__":
    main()
