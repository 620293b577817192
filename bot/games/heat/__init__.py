"""Heat: Pedal to the Metal — the race, its modules (weather, garage, Legends) and the tournament and
championship modes, as table options.

engine.py: the engine object (the contract of bot/games/base.py); options.py: its table options;
moves.py: the moves in place; resolve.py: a round's resolution; rules.py: the state and the shared
rules; menus.py and views.py: what a seat may do and sees; labels.py: their words; championship.py,
tournament.py, hidden.py, plans.py, racer.py: the season, tournament shifts, the AI's redraw, whole
plans for the menus, the automatic player's random pick; content.py and champdata.py: the data."""

from bot.games.heat.engine import ENGINE, HeatEngine

__all__ = ["ENGINE", "HeatEngine"]
