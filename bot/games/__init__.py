"""Pure rules engines, one package per game. Nothing under here imports discord."""
