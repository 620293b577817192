"""Pillow renderers: a game's public (or one seat's) view -> PNG bytes. Run off the event loop."""
