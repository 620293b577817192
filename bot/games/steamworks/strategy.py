"""The simple strategies of Steam Works' players, each a `Style`: the same rough value for each
placement, a little noise, every component powered in the suggested order, with a few weights
changed: greedy, builder, borrower, miser and favour:T (simulate.py says what each prizes). The
automatic player of an absent seat is `greedy`; the balance simulation (simulate.py, balance.py)
plays them against each other."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

import bot.games.steamworks.geometry as geo
from bot.games.steamworks.choices import legal_actions
from bot.games.steamworks.common import TILES, belt_rightmost, device_by_id, mechanic_cost, supply_of, tile_at
from bot.games.steamworks.view import view

OP_VALUE = {
    "coins": 0.5,
    "vp": 1.0,
    "gain_same": 0.5,
    "gain_any": 0.5,
    "sell_source": 1.5,
    "turbine": 1.5,
    "stack_by_power": 1.5,
    "belt_take": 1.5,
    "advance_start": 0.4,
    "build": 3.0,
    "upgrade": 1.5,
    "per_component_coins": 1.0,
    "buy_vp": 1.0,
    "clocks": 2.0,
    "vp_per_device": 1.5,
    "reuse": 0.8,
}


@dataclass(frozen=True)
class Style:
    """A simple strategy: the weights of the rough placement value (greedy's by default)."""

    name: str = "greedy"
    tile: float = 1.2  # taking a tile (plus its prestige and age)
    workshop: float = 0.8  # less for the Patent Office's £2
    source: float = 0.9
    build: float = 3.5  # the Workbench
    build_ops: float = 1.0  # times the value of building and upgrading effects
    others: float = -0.8  # using another player's device (gives its owner a clock)
    cost: float = 0.4  # times the mechanic's placement cost
    pass_below: float = 0.6  # pass when no placement is worth more
    favourite: str | None = None
    # more for a basic source of a power the seat's components need (less for one none takes):
    # 5 beat 3 beat 2 beat 1 beat 0 head to head, 8 was no better (BALANCE.md, pass 12)
    source_match: float = 5.0


FAVOUR = 6.0  # what the favourite tile adds to a placement that takes it or builds with it (above a needed source)
GREEDY = Style()
STYLES = {
    s.name: s
    for s in (
        GREEDY,
        Style("builder", tile=2.0, source=1.3, build=5.5, build_ops=2.0),
        Style("borrower", others=0.8, tile=0.9, source=0.6),
        Style("miser", workshop=2.0, cost=1.2, pass_below=1.2),
    )
}


def favouring(tid: str) -> Style:
    """Greedy that strongly favours one tile."""
    return replace(GREEDY, name=f"favour:{tid}", favourite=tid)


def _effect_value(tid: str, style: Style = GREEDY) -> float:
    eff = TILES[tid].effect
    v = OP_VALUE.get(str(eff.get("op")), 0.0)
    if eff.get("op") in ("build", "upgrade"):
        v *= style.build_ops
    v += eff.get("coins", 0) * 0.3 + eff.get("vp", 0) * 0.8 + eff.get("n", 0) * 0.3
    return v


def _short_of_sources(sup: Counter) -> bool:
    """More components than sources in a supply: devices wait for sources."""
    src = sum(n for t, n in sup.items() if TILES[t].is_source)
    return sum(sup.values()) - src > src


def _source_value(sup: Counter, power: str, style: Style) -> float:
    """Taking a basic source: worth more in a power the seat's components need but its sources
    lack (or while it is short of sources), less in a power no component takes."""
    comps = [t for t in sup if not TILES[t].is_source]
    if not any(power in side for t in comps for side in TILES[t].sides):
        return style.source - style.source_match
    had = any(power in side for t in sup if TILES[t].is_source for side in TILES[t].sides)
    return style.source + (style.source_match if not had or _short_of_sources(sup) else 0.0)


def _holds(st: dict[str, Any], seat: int, tid: str | None) -> bool:
    return tid is not None and supply_of(st, seat)[tid] > 0


def place_value(st: dict[str, Any], seat: int, choice: str, style: Style = GREEDY) -> float:
    """The style's rough value of a placement `choice` for `seat`."""
    parts = choice.split(":")
    space = parts[0]
    if space in ("tile", "workshop"):
        a = parts[1]
        i = belt_rightmost(st, a) if space == "tile" else int(parts[2])
        tid = st["belts"][a][i]
        fav = FAVOUR if tid == style.favourite else 0.0
        return (
            style.tile + TILES[tid].prestige * 0.5 + 0.3 * int(a) - (style.workshop if space == "workshop" else 0) + fav
        )
    if space == "source":
        return _source_value(supply_of(st, seat), parts[1], style)
    if space == "build":
        return style.build + (FAVOUR if _holds(st, seat, style.favourite) else 0.0)
    did = int(parts[1])
    d = device_by_id(st, did)
    x, y = (int(v) for v in parts[2].split(","))
    targets = geo.powered(d["tiles"], (x, y))
    val = 0.0
    for k in targets:
        tid = tile_at(st, did, k)
        val += _effect_value(tid, style)
        if TILES[tid].effect.get("op") in ("build", "upgrade") and _holds(st, seat, style.favourite):
            val += FAVOUR
    if d["owner"] != seat:
        val += style.others
    return val


def _quick_lay(st: dict[str, Any], seat: int, favourite: str | None = None) -> dict[str, Any] | None:
    """The first legal lay of a new device: the favourite tile first, then most links, most
    prestige, the most valuable effect; found without testing every candidate (the search is
    what makes long simulations slow)."""
    b = st["build"]
    if b["mode"] != "new" or b["left"] == 0:
        return None
    sup = supply_of(st, seat)
    ranked = []
    grid = geo.grid_of(b["placed"])
    for c in geo.candidates(b["placed"], sup):
        links = geo.links_at(grid, c)
        # the effect's value breaks ties before the name: laying by name made the Ticker Press wait
        # behind the Tinker's Bench (value-first beat name-first 1.14 to 0.86 head to head, 4 players)
        ranked.append(
            (
                c["t"] != favourite,
                -links,
                -TILES[c["t"]].prestige,
                -_effect_value(c["t"]),
                c["t"],
                c["y"],
                c["x"],
                c["r"],
                c,
            )
        )
    ranked.sort(key=lambda z: z[:8])
    for z in ranked:
        c = z[-1]
        rest = sup.copy()
        rest[c["t"]] -= 1
        if geo.feasible(b["placed"] + [c], rest, b["left"] - 1):
            return {"type": "lay", "choice": f"{c['t']}:{c['x']}:{c['y']}:{c['r']}"}
    return None


def choose(st: dict[str, Any], seat: int, rnd: random.Random, style: Style = GREEDY) -> dict[str, Any]:
    """The style's move: the best-valued placement (or a pass), everything powered in the
    suggested order, devices laid in the quick order."""
    phase = st["phase"]
    fav = style.favourite
    if phase == "build":
        quick = _quick_lay(st, seat, fav)
        if quick is not None:
            return quick
    acts = legal_actions(st, seat)
    if phase == "main":
        places = [a for a in acts if a["type"] == "place"]
        cost = mechanic_cost(st, seat)
        scored = [
            (place_value(st, seat, a["choice"], style) - style.cost * cost + rnd.random() * 0.8, i, a)
            for i, a in enumerate(places)
        ]
        best = max(scored, default=None)
        if best is None or best[0] < style.pass_below:
            return {"type": "pass"}
        return best[2]
    if phase == "activate":
        return {"type": "auto"}
    if phase == "reveal":  # keep the favourite, else the tile of higher prestige (the view shows the looker its two)
        two = view(st, seat)["reveal"]["tiles"]
        keep = (two[1] == fav, TILES[two[1]].prestige) > (two[0] == fav, TILES[two[0]].prestige)
        return {"type": "keep", "choice": "1" if keep else "0"}
    lays = sorted((a for a in acts if a["type"] == "lay"), key=lambda a: a["choice"].split(":")[0] != fav)
    return ([a for a in acts if a["type"] == "confirm"] + lays + acts)[0]


def greedy(st: dict[str, Any], seat: int, rnd: random.Random) -> dict[str, Any]:
    """The plain style's move (the automatic player's)."""
    return choose(st, seat, rnd, GREEDY)
