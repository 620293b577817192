"""Drivers and teams (seed 002, section 14, appendices 1 and 2): the hooks other rules ask.
The drivers-and-teams option itself is not built yet, so every hook gives the standard value."""
from __future__ import annotations


def on(st: dict) -> bool:
    return bool(st["options"].get("drivers"))


def extra_breakdown_points(st: dict, seat: int) -> int:
    return 0


def immune_to_breakdown_events(st: dict, seat: int) -> bool:
    return False
