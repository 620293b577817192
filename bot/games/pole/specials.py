"""Circuit special rules (seed 002, appendix 4), a table option: each circuit's own rules, from
data/pole/circuit_rules.json. The engine asks this module through small hooks; without the option
every hook returns the standard race's value.

Italy and Germany "have low-grip areas" (4.6 B): their low-grip cells are part of the circuits and
apply in every race (as they did before this option existed), so the option adds nothing there.
"""

from __future__ import annotations

import json
from functools import lru_cache

from bot.games.pole.content import CIRCUIT_KEYS, DATA_DIR, rules

KEYS = {
    "event_weather",
    "attack",
    "defend",
    "light_events_heavy",
    "ep",
    "bp",
    "dry_ep_cells",
    "dry_bp_cells",
    "stress_all",
    "event_after_start",
    "event_on_light_rain",
    "low_grip",
    "drs_mp",
}


@lru_cache(maxsize=1)
def table() -> dict[str, dict]:
    raw = json.loads((DATA_DIR / "circuit_rules.json").read_text("utf-8"))["circuits"]
    if tuple(raw) != CIRCUIT_KEYS or not all(set(r) <= KEYS for r in raw.values()):
        raise ValueError("data/pole/circuit_rules.json: the eight circuits and known rules")
    gb, mo, br, cn, es, us, de = (
        raw[k] for k in ("great_britain", "monaco", "brazil", "china", "spain", "usa", "germany")
    )
    if not (
        gb == {"event_weather": 2, "attack": 1}
        and mo == {"defend": 1, "light_events_heavy": True}
        and br == {"bp": -1, "dry_ep_cells": 4}
        and cn["ep"] == 1
        and cn["stress_all"] == 1
        and es["ep"] == -1
        and es["bp"] == 1
        and us["ep"] == -1
        and us["dry_bp_cells"] == 4
        and de["drs_mp"] == 3
    ):
        raise ValueError("data/pole/circuit_rules.json: appendix 4")
    return raw


def base_key(circuit: str) -> str:
    return circuit.split("@")[0]


def on(st: dict) -> bool:
    return bool(st["options"].get("circuit_rules"))


def get(st: dict, name: str, default=None):
    if not on(st):
        return default
    return table()[base_key(st["circuit"])].get(name, default)


def start_points(options: dict, car: dict) -> None:
    """Before the race: the circuit's EP / BP changes (Brazil, China, Spain, the USA)."""
    if options.get("circuit_rules"):
        r = table()[options["circuit"]]
        car["ep"] += r.get("ep", 0)
        car["bp"] += r.get("bp", 0)


def fight_bonus(st: dict) -> tuple[int, int]:
    """Black-die bonus in position fights: (attacker, defender); Great Britain +1 to attackers,
    Monaco +1 to defenders. Reading: a bonus on the black die, so a bot (which rolls no black die
    but uses its card's value, 17.6.1) gets none."""
    return get(st, "attack", 0), get(st, "defend", 0)


def caps(st: dict, rain: bool) -> tuple[int, int]:
    """Cells for 1 EP and for 1 BP: 3 (2 in rain); in dry weather Brazil gives 4 per EP, the USA
    4 per BP."""
    cap = rules()["boost_cells"]["rain" if rain else "dry"]
    if rain:
        return cap, cap
    return get(st, "dry_ep_cells", cap), get(st, "dry_bp_cells", cap)


def drs_mp(st: dict) -> int:
    """Germany: DRS moves 3 cells more instead of 2."""
    return get(st, "drs_mp", rules()["drs_mp"])


def start_stress(st: dict, seat: int, standard: int) -> int:
    """China: every driver (the pole-sitter too) starts with 1 stress."""
    return max(standard, get(st, "stress_all", 0))
