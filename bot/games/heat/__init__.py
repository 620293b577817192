"""Heat: Pedal to the Metal — the base race (modules slot in later as options)."""
from bot.games.heat.engine import ENGINE, HeatEngine

__all__ = ["ENGINE", "HeatEngine"]
