"""A local Discord (REST + gateway on 127.0.0.1) for testing an unmodified discord.py 2.7.1 bot.

async with Emulator() as emu:
    guild = emu.add_guild("Test"); general = emu.add_text_channel(guild, "general")
    alice = emu.add_member(guild, emu.add_user("alice")).user
    handle = await start_bot_in_process(emu, bot)          # bot.tools.emulator.testing
    rec = await emu.slash(alice, general, "heat", "new", track="usa")
"""

from .clock import Clock
from .server import Emulator
from .errors import ApiError, EmulatorError
from .interactions import InteractionRecord
from .model import Attachment, Channel, Guild, Member, Message, Role, User
from .overrides import apply_discord_py_overrides, restore_discord_py_overrides

__all__ = [
    "ApiError",
    "Attachment",
    "Channel",
    "Clock",
    "Emulator",
    "EmulatorError",
    "Guild",
    "InteractionRecord",
    "Member",
    "Message",
    "Role",
    "User",
    "apply_discord_py_overrides",
    "restore_discord_py_overrides",
]
