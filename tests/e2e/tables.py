"""The table actions live in the emulator's package (the bench uses them too, and the tools never
import tests): re-exported here under their old names for the end-to-end tests."""

from __future__ import annotations

from bot.tools.emulator.tables import last, open_table, plant, start

__all__ = ["last", "open_table", "plant", "start"]
