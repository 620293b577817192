"""Heat: Pedal to the Metal — the race, its modules (weather, garage, Legends, championship) as table options."""
from bot.games.heat.engine import ENGINE, HeatEngine

__all__ = ["ENGINE", "HeatEngine"]
