"""Steam Works content, loaded from data/steamworks/*.json and validated on load.

The seed (BGA help) gives the rules but no tile list, persona boards, clock counts or belt sizes;
research gives the box counts and a few tile names. Everything else is designed and marked so in
the data files. A tile's `effect` is a small dict {"op": ..., params} the engine interprets.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parents[3] / "data" / "steamworks"
POWERS = ("C", "S", "E")
KINDS = ("source", "component", "modifier", "converter")
# op -> allowed parameter names (besides "op"); "coins" / "vp" are extra gains after the op.
OPS: dict[str, set[str]] = {
    "coins": {"coins"},
    "vp": {"vp"},
    "gain_same": {"n"},
    "gain_any": {"n", "coins"},
    "sell_source": {"coins"},
    "turbine": {"price"},
    "stack_by_power": {"coins"},
    "belt_take": {"coins"},
    "advance_start": set(),
    "build": {"n", "coins", "price"},
    "upgrade": {"n", "price"},
    "per_component_coins": set(),
    "buy_vp": {"price", "vp"},
    "clocks": {"n"},
    "vp_per_device": {"max"},
    "reuse": set(),
}
OWNER_KEYS = {"coins", "vp", "source"}
SPACE_IDS = ("tile", "source", "build", "workshop")
AGE_COUNTS = {1: 28, 2: 23, 3: 16}  # published: 28 Age I, 23 Age II, 16 Age III tiles


class ContentError(ValueError):
    pass


@dataclass(frozen=True)
class Tile:
    id: str
    name: str
    kind: str
    age: int
    copies: int
    sides: tuple[str, str, str, str]
    prestige: int
    text: str
    effect: dict[str, Any] = field(default_factory=dict)
    owner: dict[str, int] = field(default_factory=dict)

    @property
    def is_source(self) -> bool:
        return self.kind == "source"

    @property
    def is_basic(self) -> bool:
        return self.id.startswith("src_")


@dataclass(frozen=True)
class Persona:
    id: str
    name: str
    money: int
    sources: dict[str, int]
    tiles: tuple[str, ...]


@dataclass(frozen=True)
class Setup:
    min_players: int
    max_players: int
    clocks: dict[int, list[int]]
    belt: dict[int, int]
    mechanic_cost: list[int]
    pass_income: list[int]
    start_mechanics: int
    spaces: list[dict[str, Any]]
    personas: dict[str, Persona]


def _need(cond: bool, what: str) -> None:
    if not cond:
        raise ContentError(what)


def _tile(raw: dict[str, Any]) -> Tile:
    tid = raw.get("id")
    if not isinstance(tid, str) or not tid:
        raise ContentError(f"tile without id: {raw}")
    _need(raw.get("kind") in KINDS, f"{tid}: bad kind")
    sides = raw.get("sides")
    if not isinstance(sides, list) or len(sides) != 4:
        raise ContentError(f"{tid}: sides must list 4 edges")
    for s in sides:
        _need(isinstance(s, str) and all(c in POWERS for c in s) and len(set(s)) == len(s), f"{tid}: bad side {s!r}")
    _need(any(sides), f"{tid}: a tile needs at least one line")
    _need(isinstance(raw.get("age"), int) and 0 <= raw["age"] <= 3, f"{tid}: bad age")
    _need(isinstance(raw.get("copies"), int) and raw["copies"] >= 1, f"{tid}: bad copies")
    _need(isinstance(raw.get("prestige"), int) and 0 <= raw["prestige"] <= 5, f"{tid}: bad prestige")
    _need(isinstance(raw.get("name"), str) and isinstance(raw.get("text"), str), f"{tid}: name/text")
    effect = raw.get("effect", {})
    if raw["kind"] in ("component", "modifier"):
        _need(effect.get("op") in OPS, f"{tid}: unknown effect {effect}")
        _need(set(effect) - {"op"} <= OPS[effect["op"]], f"{tid}: bad effect params {effect}")
        _need((effect["op"] == "reuse") == (raw["kind"] == "modifier"), f"{tid}: modifiers (only) reuse")
    else:
        _need(not effect, f"{tid}: sources and converters have no effect")
    owner = raw.get("owner", {})
    _need(set(owner) <= OWNER_KEYS and all(isinstance(v, int) and v > 0 for v in owner.values()), f"{tid}: owner")
    return Tile(
        tid,
        raw["name"],
        raw["kind"],
        raw["age"],
        raw["copies"],
        tuple(sides),
        raw["prestige"],
        raw["text"],
        dict(effect),
        dict(owner),
    )


@lru_cache(maxsize=1)
def tiles() -> dict[str, Tile]:
    data = json.loads((DATA_DIR / "tiles.json").read_text("utf-8"))
    out: dict[str, Tile] = {}
    for raw in data["tiles"]:
        t = _tile(raw)
        _need(t.id not in out, f"duplicate tile {t.id}")
        out[t.id] = t
    for age, n in AGE_COUNTS.items():
        got = sum(t.copies for t in out.values() if t.age == age)
        _need(got == n, f"age {age} has {got} tiles, the box has {n}")
    for p in POWERS:
        _need(out[f"src_{p}"].kind == "source" and all(s == p for s in out[f"src_{p}"].sides), f"src_{p}")
    start = [t for t in out.values() if t.age == 0 and not t.is_basic]
    _need(sum(t.copies for t in start) == 8, "8 start tiles")
    return out


@lru_cache(maxsize=1)
def setup() -> Setup:
    data = json.loads((DATA_DIR / "setup.json").read_text("utf-8"))
    ts = tiles()
    lo, hi = data["min_players"], data["max_players"]
    _need(2 <= lo <= hi <= 5, "player range")
    clocks = {int(k): v for k, v in data["clocks"].items()}
    belt = {int(k): v for k, v in data["belt"].items()}
    for n in range(lo, hi + 1):
        _need(
            n in clocks and len(clocks[n]) == 3 and all(isinstance(c, int) and c > 0 for c in clocks[n]),
            f"clocks for {n}",
        )
        _need(n in belt and 2 <= belt[n] <= 6, f"belt for {n}")
    _need(sum(clocks[hi]) <= 45, "the box has 45 clocks")
    _need(len(data["mechanic_cost"]) == 4 and data["mechanic_cost"][0] == 0, "first mechanic is free")
    _need(len(data["pass_income"]) == 4, "pass income per home space")
    spaces = data["persona_spaces"]
    _need([s["id"] for s in spaces] == list(SPACE_IDS), "persona spaces")
    personas: dict[str, Persona] = {}
    persona_tiles = 0
    for raw in data["personas"]:
        for tid in raw["tiles"]:
            _need(tid in ts and not ts[tid].is_basic, f"{raw['id']}: unknown tile {tid}")
        _need(set(raw["sources"]) <= set(POWERS), f"{raw['id']}: sources")
        persona_tiles += len(raw["tiles"]) - 1
        _need(ts[raw["tiles"][0]].age == 0, f"{raw['id']}: first tile is its start tile")
        personas[raw["id"]] = Persona(raw["id"], raw["name"], raw["money"], dict(raw["sources"]), tuple(raw["tiles"]))
    _need(len(personas) == 8, "8 persona boards")
    _need(persona_tiles == 15, "15 persona tiles")
    starts = [p.tiles[0] for p in personas.values()]
    _need(len(set(starts)) == 8, "each start tile once")
    return Setup(
        lo, hi, clocks, belt, data["mechanic_cost"], data["pass_income"], data["start_mechanics"], spaces, personas
    )
