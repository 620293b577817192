"""Heat Championship content: sponsorship cards and seasons (data/heat/sponsors.json and
championship.json), loaded once and validated."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[3] / "data" / "heat"
SPONSOR_SYMBOLS = ("cooldown", "slipstream", "adjust", "super_cool")
EVENT_KEYS = (
    "name",
    "sponsors",
    "press",
    "lap1_sponsors",
    "speed_sponsor",
    "laps",
    "winner_points",
    "heat",
    "hand",
    "top3_points",
    "pass_sponsor",
    "stress",
    "spin_out",
    "press_cards",
    "slip_min_gear",
    "discard_heat",
    "no_adrenaline",
)
PRESS_LETTERS = "ABCDE"


def _check(cond: bool, what: str) -> None:
    if not cond:
        raise ValueError(f"data/heat: {what}")


@lru_cache(maxsize=1)
def sponsors() -> dict:
    raw = json.loads((DATA_DIR / "sponsors.json").read_text("utf-8"))
    _check(raw["copies"] == 7 and len(raw["types"]) == 6, "sponsors: 6 types x 7")
    for code, t in raw["types"].items():
        _check(code.startswith("sp") and isinstance(t["name"], str), f"sponsor {code}")
        _check(("speed" in t) != ("choices" in t), f"sponsor {code} speed")
        _check(
            all(k in SPONSOR_SYMBOLS for k in t if k not in ("name", "speed", "choices", "set")),
            f"sponsor {code} symbols",
        )
        _check(t["set"] in ("base", "heavy_rain"), f"sponsor {code} set")
    return raw


def sponsor_label(t: dict) -> str:
    """A sponsorship card's English label: its name and speed, e.g. "Lord&Co. Turbo 6"."""
    speed = "/".join(str(v) for v in t["choices"]) if "choices" in t else str(t["speed"])
    return f"{t['name']} {speed}"


def sponsor_card_types() -> dict[str, dict]:
    """The sponsorship cards as card types (kind upgrade, their symbols under "garage")."""
    out = {}
    for code, t in sponsors()["types"].items():
        out[code] = {
            "kind": "upgrade",
            "speed": int(t.get("speed", 0)),
            "label": sponsor_label(t),
            "garage": {k: v for k, v in t.items() if k not in ("name", "speed", "set")},
            "sponsor": True,
        }
    return out


@lru_cache(maxsize=1)
def championship() -> dict:
    raw = json.loads((DATA_DIR / "championship.json").read_text("utf-8"))
    _check(raw["points"] == [9, 6, 4, 3, 2, 1], "championship: points")
    events = raw["events"]
    for code, e in events.items():
        _check(all(k in EVENT_KEYS for k in e), f"event {code} keys")
        _check(isinstance(e["name"], str) and 0 <= e["sponsors"] <= 3, f"event {code}")
        _check(all(p in PRESS_LETTERS for p in e["press"]), f"event {code} press")
    _check(sorted(raw["base_events"] + raw["heavy_rain_events"]) == sorted(events), "championship: event pools")
    # (the tracks /heat new offers, as content.offered_tracks reads them: content loads the card
    # types from this module, so this one does not import it)
    listed = json.loads((DATA_DIR / "tracks.json").read_text("utf-8"))
    offered = listed["base_tracks"] + listed["heavy_rain_tracks"]
    for year, races in raw["seasons"].items():
        _check(len(races) in (3, 4), f"season {year}")
        for track, ev in races:
            _check(track in offered and ev in events, f"season {year}: {track} {ev}")
    return raw
