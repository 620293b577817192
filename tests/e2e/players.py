"""The simulated players live in the emulator's package (the bench plays them too, and the tools
never import tests): re-exported here under their old names for the end-to-end tests."""

from __future__ import annotations

from bot.tools.emulator.players import (
    Driver,
    Inventor,
    Player,
    is_pref,
    menu_key,
    newest_with_components,
    play_until,
    thread_tail,
)

__all__ = ["Driver", "Inventor", "Player", "is_pref", "menu_key", "newest_with_components", "play_until", "thread_tail"]
