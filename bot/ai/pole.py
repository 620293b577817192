"""The AI's Pole Position: judged by the race order a few moves ahead; the look-ahead plays the
automatic player (the furthest cell). Pole's move search is slow, hence few playouts."""

from __future__ import annotations

from bot.ai.game import GameAI, by_order

AI = GameAI(score=by_order, scale=0.5, depth=6, playouts=40)
