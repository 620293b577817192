"""Pole Position (Doit Games): the standard race; optional rules slot in as table options."""

from bot.games.pole.engine import ENGINE, PoleEngine

__all__ = ["ENGINE", "PoleEngine"]
