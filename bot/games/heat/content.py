"""Heat content: tracks and card types, loaded once from data/heat/*.json and validated."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[3] / "data" / "heat"

CARD_KINDS = ("speed", "upgrade", "heat", "stress")


@dataclass(frozen=True)
class Corner:
    index: int
    space: int  # the corner line lies between this space and the next
    speed: int  # speed limit
    lane: int  # race-line lane of the sector after this corner


@dataclass(frozen=True)
class Track:
    key: str
    name: str
    circuit: str  # file stem of the drawing data (heat-circuits/<circuit>.json)
    set: str
    laps: int
    spaces: int
    heat: int  # Heat cards in each Engine
    stress: int  # Stress cards in each deck
    corners: tuple[Corner, ...]
    grid: tuple[tuple[int, int], ...]  # grid slot -> (space, lane)
    race_lane: tuple[int, ...]  # index = space (1..spaces); [0] unused
    lines: tuple[tuple[int, int, int], ...]  # corner lines over the race: (abs line, corner idx, limit)
    finish: int  # absolute distance of the last space before the finish line (laps * spaces)
    line_pos: tuple[int, ...]  # the abs line positions of `lines`, for bisect


def _check(cond: bool, what: str) -> None:
    if not cond:
        raise ValueError(f"data/heat: {what}")


@lru_cache(maxsize=1)
def tracks() -> dict[str, Track]:
    raw = json.loads((DATA_DIR / "tracks.json").read_text("utf-8"))
    out: dict[str, Track] = {}
    for key, t in raw["tracks"].items():
        n, laps = int(t["spaces"]), int(t["laps"])
        _check(n > 10 and laps >= 1, f"{key}: spaces/laps")
        corners = tuple(Corner(i, int(c["space"]), int(c["speed"]), int(c["lane"]))
                        for i, c in enumerate(t["corners"]))
        _check(len(corners) >= 1, f"{key}: corners")
        _check(all(1 <= c.space < n and c.lane in (1, 2) and c.speed >= 0 for c in corners),
               f"{key}: corner values")
        _check(all(a.space < b.space for a, b in zip(corners, corners[1:])), f"{key}: corner order")
        race_lane = [0] * (n + 1)
        for s in range(1, n + 1):
            # Rule reading: a space's race line is that of the last corner line behind it; the
            # stretch from the start to the first corner continues the last corner's sector.
            lane = corners[-1].lane
            for c in corners:
                if c.space < s:
                    lane = c.lane
            race_lane[s] = lane
        lines = tuple((lap * n + c.space, c.index, c.speed) for lap in range(laps) for c in corners)
        grid = tuple((int(s), int(ln)) for s, ln in t["grid"])
        _check(len(grid) >= 6 and all(1 <= s <= n and ln in (1, 2) for s, ln in grid), f"{key}: grid")
        # Two cars never share a spot (rules.run relies on it), starting with the grid.
        _check(len(set(grid)) == len(grid), f"{key}: grid slots repeat")
        out[key] = Track(key, t["name"], t["circuit"], t["set"], laps, n, int(t["heat"]), int(t["stress"]),
                         corners, grid, tuple(race_lane), lines, laps * n, tuple(x[0] for x in lines))
    for k in raw["base_tracks"]:
        _check(k in out, f"base track {k}")
    return out


@lru_cache(maxsize=1)
def base_tracks() -> tuple[str, ...]:
    raw = json.loads((DATA_DIR / "tracks.json").read_text("utf-8"))
    return tuple(raw["base_tracks"])


@lru_cache(maxsize=1)
def cards() -> dict:
    raw = json.loads((DATA_DIR / "cards.json").read_text("utf-8"))
    for code, c in raw["types"].items():
        _check(c["kind"] in CARD_KINDS, f"card {code} kind")
        _check(isinstance(c.get("speed", 0), int), f"card {code} speed")
    for code in raw["starting_deck"]:
        _check(code in raw["types"], f"starting deck {code}")
    _check("heat" in raw["types"] and "stress" in raw["types"], "heat/stress types")
    return raw
