"""PON: a pack-racing card game built on PON (Pace Of Naked) sets. Exposes ENGINE."""

from bot.games.pon.engine import ENGINE

__all__ = ["ENGINE"]
