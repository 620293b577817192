"""Steam Works: worker placement with devices built from tiles. Exposes ENGINE."""

from bot.games.steamworks.engine import ENGINE

__all__ = ["ENGINE"]
