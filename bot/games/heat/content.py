"""Heat content: tracks and card types, loaded once from data/heat/*.json and validated."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from pathlib import Path

from bot.games.heat.champdata import sponsor_card_types

DATA_DIR = Path(__file__).resolve().parents[3] / "data" / "heat"

CARD_KINDS = ("speed", "upgrade", "heat", "stress")


@dataclass(frozen=True)
class Corner:
    index: int
    space: int  # the corner line lies between this space and the next
    speed: int  # speed limit
    lane: int  # race-line lane of the sector after this corner
    legend: int = 0  # the Legend line lies between this space and the next (Legends module)
    # Chicane (Heavy Rain): on the 2nd corner line of a chicane, the index of the 1st (else None).
    # Each line is checked on its own like any corner (「シケインを通常のコーナーと同じように扱って」).
    chicane: int | None = None
    # Aggressive Legends (Heavy Rain): the ∧ diamond is this many spaces before the line (0: none)
    aggressive: int = 0


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
    # index = space (1..spaces): the corner whose sector holds the space (from its line to the next
    # corner's line; the stretch from the start to corner 1 belongs to the last corner); [0] unused
    sector: tuple[int, ...] = ()
    # Weather and road conditions (a race's own Track, see weather_track): the printed limits,
    # the corners with an Overheat token, and each space's sector effect (None: none).
    printed: tuple[int, ...] = ()
    overheat: frozenset = field(default_factory=frozenset)
    sector_fx: tuple = ()
    # Heavy Rain: the flooded spaces (both lanes); a car starting the round on one pays 1 Heat
    # more to shift down.
    flooded: frozenset = field(default_factory=frozenset)

    def __hash__(self) -> int:
        """The hash of the fields (as the dataclass's own), worked out once per Track: caches keyed
        by the race's track (the AI's legend_rounds, asked for every space it judges) would hash
        every corner and space again on each call. Equal Tracks still hash alike; the kept hash
        stays out of copies and pickles (__getstate__), since str hashes differ between processes."""
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash(tuple(getattr(self, f.name) for f in fields(self)))
            object.__setattr__(self, "_hash", h)
        return h

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}


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
        corners = tuple(
            Corner(
                i,
                int(c["space"]),
                int(c["speed"]),
                int(c["lane"]),
                int(c["legend"]),
                int(c["chicane_with"]) if "chicane_with" in c else None,
                int(c.get("aggressive", 0)),
            )
            for i, c in enumerate(t["corners"])
        )
        _check(len(corners) >= 1, f"{key}: corners")
        _check(all(1 <= c.space < n and c.lane in (1, 2) and c.speed >= 0 for c in corners), f"{key}: corner values")
        _check(all(a.space < b.space for a, b in zip(corners, corners[1:])), f"{key}: corner order")
        # A chicane: two consecutive corner lines with the same limit, at most a few spaces apart.
        _check(
            all(
                c.chicane is None
                or (
                    c.chicane == c.index - 1
                    and corners[c.chicane].speed == c.speed
                    and c.space - corners[c.chicane].space <= 5
                )
                for c in corners
            ),
            f"{key}: chicanes",
        )
        _check(all(0 <= c.aggressive <= 5 for c in corners), f"{key}: aggressive Legends")
        flooded = frozenset(int(x) for x in t.get("flooded_spaces", ()))
        _check(all(1 <= x <= n for x in flooded), f"{key}: flooded spaces")
        race_lane = [0] * (n + 1)
        sector = [0] * (n + 1)
        for s in range(1, n + 1):
            # Rule reading: a space's race line is that of the last corner line behind it; the
            # stretch from the start to the first corner continues the last corner's sector.
            lane = corners[-1].lane
            owner = corners[-1].index
            for c in corners:
                if c.space < s:
                    lane = c.lane
                    owner = c.index
            race_lane[s] = lane
            sector[s] = owner
        lines = tuple((lap * n + c.space, c.index, c.speed) for lap in range(laps) for c in corners)
        grid = tuple((int(s), int(ln)) for s, ln in t["grid"])
        _check(len(grid) >= 6 and all(1 <= s <= n and ln in (1, 2) for s, ln in grid), f"{key}: grid")
        # Two cars never share a spot (rules.run relies on it), starting with the grid.
        _check(len(set(grid)) == len(grid), f"{key}: grid slots repeat")
        out[key] = Track(
            key,
            t["name"],
            t["circuit"],
            t["set"],
            laps,
            n,
            int(t["heat"]),
            int(t["stress"]),
            corners,
            grid,
            tuple(race_lane),
            lines,
            laps * n,
            tuple(x[0] for x in lines),
            tuple(sector),
            tuple(c.speed for c in corners),
            flooded=flooded,
        )
    for k in raw["base_tracks"] + raw["heavy_rain_tracks"]:
        _check(k in out, f"offered track {k}")
        _check(all(0 <= c.legend < c.space for c in out[k].corners), f"{k}: legend lines")
    return out


@lru_cache(maxsize=1)
def base_tracks() -> tuple[str, ...]:
    raw = json.loads((DATA_DIR / "tracks.json").read_text("utf-8"))
    return tuple(raw["base_tracks"])


@lru_cache(maxsize=1)
def offered_tracks() -> tuple[str, ...]:
    """The tracks /heat new offers: the base game's and the Heavy Rain expansion's."""
    raw = json.loads((DATA_DIR / "tracks.json").read_text("utf-8"))
    out = tuple(raw["base_tracks"]) + tuple(raw["heavy_rain_tracks"])
    _check(all(k in tracks() for k in out), "offered tracks")
    return out


def road_groups(tr: Track) -> list[int]:
    """The corners that draw a road token: every corner but the 2nd line of a chicane
    (「シケインごとに道路状況トークンを1つ引きます」)."""
    return [c.index for c in tr.corners if c.chicane is None]


GARAGE_SYMBOLS = (
    "boost",
    "cooldown",
    "reduce",
    "heat",
    "slipstream",
    "scrap",
    "salvage",
    "direct",
    "accelerate",
    "refresh",
    "adjust",
    "super_cool",
)
GARAGE_TIERS = ("basic", "advanced", "heavy_rain")


@lru_cache(maxsize=1)
def garage() -> dict:
    """data/heat/garage.json, checked: the upgrade card types of the Garage module."""
    raw = json.loads((DATA_DIR / "garage.json").read_text("utf-8"))
    _check(tuple(raw["symbols"]) == GARAGE_SYMBOLS and raw["copies"] == 2, "garage: symbols/copies")
    types = raw["types"]
    _check(sum(1 for t in types.values() if t["tier"] == "basic") == 17, "garage: 17 basic types")
    _check(sum(1 for t in types.values() if t["tier"] == "advanced") == 31, "garage: 31 advanced types")
    _check(sum(1 for t in types.values() if t["tier"] == "heavy_rain") == 6, "garage: 6 Heavy Rain types")
    for code, t in types.items():
        _check(t["tier"] in GARAGE_TIERS, f"garage {code} tier")
        if t.get("heat_card"):
            continue
        _check(isinstance(t["family"], str) and ("speed" in t) != ("choices" in t), f"garage {code} speed")
        _check(
            all(k in GARAGE_SYMBOLS for k in t if k not in ("tier", "family", "speed", "choices")),
            f"garage {code} symbols",
        )
        _check(all(isinstance(t[k], int) for k in GARAGE_SYMBOLS if k in t), f"garage {code} symbol values")
    return raw


# A symbol's short name, to tell apart upgrade cards whose family and speed are the same.
SYMBOL_NAMES = {
    "boost": "Boost {v}",
    "cooldown": "Cooldown {v}",
    "reduce": "Reduce Stress {v}",
    "heat": "Heat {v}",
    "slipstream": "Slipstream +{v}",
    "scrap": "Scrap {v}",
    "salvage": "Salvage {v}",
    "direct": "Direct play",
    "accelerate": "Accelerate",
    "refresh": "Refresh",
    "adjust": "Adjust limit {v:+d}",
    "super_cool": "Super cool {v}",
}


def garage_label(t: dict, types: dict | None = None) -> str:
    """An upgrade card's English label: its family and speed, e.g. "Body 3", "Brakes 1/3", and when
    another card of `types` has the same, its first symbol that card lacks: "Body 2 · Scrap 2"."""
    speed = "/".join(str(v) for v in t["choices"]) if "choices" in t else str(t["speed"])
    label = f"{t['family']} {speed}"
    twins = [
        o
        for o in (types or {}).values()
        if o is not t
        and not o.get("heat_card")
        and o.get("family") == t["family"]
        and o.get("speed") == t.get("speed")
        and o.get("choices") == t.get("choices")
    ]
    if twins:
        own = next(k for k in GARAGE_SYMBOLS if k in t and all(o.get(k) != t[k] for o in twins))
        label += " · " + SYMBOL_NAMES[own].format(v=t[own])
    return label


@lru_cache(maxsize=1)
def cards() -> dict:
    raw = json.loads((DATA_DIR / "cards.json").read_text("utf-8"))
    # The Garage module's upgrade types join the card types (a drafted Heat card is a plain "heat").
    for code, t in garage()["types"].items():
        if t.get("heat_card"):
            continue
        card = {
            "kind": "upgrade",
            "speed": int(t.get("speed", 0)),
            "label": garage_label(t, garage()["types"]),
            "garage": {k: v for k, v in t.items() if k not in ("tier", "family", "speed")},
        }
        if t.get("boost"):
            card["boost"] = int(t["boost"])
        raw["types"][code] = card
    raw["types"].update(sponsor_card_types())  # Championship: sponsorship cards
    for code, c in raw["types"].items():
        _check(c["kind"] in CARD_KINDS, f"card {code} kind")
        _check(isinstance(c.get("speed", 0), int), f"card {code} speed")
    for code in raw["starting_deck"]:
        _check(code in raw["types"], f"starting deck {code}")
    _check("heat" in raw["types"] and "stress" in raw["types"], "heat/stress types")
    return raw


# --------------------------------------------------------------------------- weather and road

WEATHER_SETUP_KEYS = ("stress", "heat", "heat_to_deck", "heat_to_discard")
SECTOR_EFFECTS = ("no_cooldown", "no_slipstream", "slipstream_boost", "cooldown_bonus")
TOKENS = ("weather", "overheat", "minus1", "plus1", "free_boost", "slip_plus")


@lru_cache(maxsize=1)
def weather() -> dict:
    """data/heat/weather.json, checked: the six tiles, the sector effects, the road-token kinds."""
    raw = json.loads((DATA_DIR / "weather.json").read_text("utf-8"))
    tiles, fx, tokens = raw["tiles"], raw["sector_effects"], raw["tokens"]
    _check(len(tiles) == 6, "weather: six tiles")
    for key, t in tiles.items():
        _check(isinstance(t["name"], str) and t["sector"] in fx, f"weather tile {key}")
        _check(
            len(t["setup"]) == 1 and all(k in WEATHER_SETUP_KEYS and isinstance(v, int) for k, v in t["setup"].items()),
            f"weather tile {key} setup",
        )
    _check(set(fx) == set(SECTOR_EFFECTS), "weather: sector effects")
    _check(tuple(tokens) == TOKENS, "road tokens: kinds")
    _check(sum(t["count"] for t in tokens.values()) == 12, "road tokens: twelve")
    for key, t in tokens.items():
        _check(t["where"] in ("corner", "sector") and isinstance(t["name"], str), f"road token {key}")
    return raw


def road_pool() -> list[str]:
    """The twelve road-condition tokens, in data order (shuffled at setup)."""
    return [k for k, t in weather()["tokens"].items() for _ in range(t["count"])]


@lru_cache(maxsize=256)
def weather_track(key: str, tile: str, road: tuple[str, ...]) -> Track:
    """The track of a race with weather tile `tile` and road token road[i] on corner i: the
    limits changed by the -1/+1 tokens, the Overheat corners, and each space's sector effect."""
    tr = tracks()[key]
    w = weather()
    _check(
        tile in w["tiles"] and len(road) == len(tr.corners) and all(r in TOKENS for r in road),
        f"weather {tile} / road {road} on {key}",
    )
    corners = tuple(
        replace(c, speed=max(0, c.speed + int(w["tokens"][road[c.index]].get("limit", 0)))) for c in tr.corners
    )
    n = tr.spaces
    lines = tuple((lap * n + c.space, c.index, c.speed) for lap in range(tr.laps) for c in corners)
    by_corner: list[str | None] = []
    firsts = {c.chicane for c in tr.corners if c.chicane is not None}
    for i, r in enumerate(road):
        if i in firsts and (r == "weather" or w["tokens"][r]["where"] == "sector"):
            # A chicane's ↔ token works in the sector behind the chicane only (the 2nd line's
            # sector), not in the short gap between its two lines.
            by_corner.append(None)
        elif r == "weather":
            by_corner.append(w["tiles"][tile]["sector"])
        elif w["tokens"][r]["where"] == "sector":
            by_corner.append(r)
        else:
            by_corner.append(None)
    fx = (None,) + tuple(by_corner[tr.sector[s]] for s in range(1, n + 1))
    return replace(
        tr,
        corners=corners,
        lines=lines,
        overheat=frozenset(i for i, r in enumerate(road) if r == "overheat"),
        sector_fx=fx,
    )


@lru_cache(maxsize=1)
def legend_cards() -> tuple[tuple[tuple[int, int], ...], ...]:
    """data/heat/legends.json, checked: 10 cards, each colour column a (helmet number, diamond)."""
    raw = json.loads((DATA_DIR / "legends.json").read_text("utf-8"))
    cards = tuple(tuple((int(h), int(d)) for h, d in row) for row in raw["cards"])
    _check(len(cards) == 10 and all(len(r) == len(raw["colours"]) == 6 for r in cards), "legends: 10 cards x 6")
    for col in range(6):
        _check(sorted(r[col][0] for r in cards) == list(range(10, 20)), f"legends: column {col} helmets")
    _check(all(0 <= d <= 3 for r in cards for _, d in r), "legends: diamonds")
    return cards


@lru_cache(maxsize=64)
def lapped_track(key: str, tile: str | None, road: tuple[str, ...], laps: int) -> Track:
    """Championship: a race's track with its event's number of laps (the weather's too, if any)."""
    tr = weather_track(key, tile, road) if tile is not None else tracks()[key]
    n = tr.spaces
    lines = tuple((lap * n + c.space, c.index, c.speed) for lap in range(laps) for c in tr.corners)
    return replace(tr, laps=laps, lines=lines, finish=laps * n, line_pos=tuple(x[0] for x in lines))
