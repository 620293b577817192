"""Rallyman: DIRT (Jean-Christophe Bouvier): a rally time trial with dice."""

from bot.games.rallyman.engine import ENGINE

__all__ = ["ENGINE"]
