"""The AI's PON: judged by the race order; the look-ahead plays the automatic player (greedy sets)."""

from __future__ import annotations

from bot.ai.game import GameAI, by_order

# Depth: about two rounds of a 3-4 player table, enough for a move's effects to show (designed).
AI = GameAI(score=by_order, scale=0.5, depth=30, playouts=200)
