"""What may be done in Steam Works now: the seat the game waits for, its legal moves (placements,
components to power, tiles to lay, whole devices) and the suggested next component. Reads the
state only."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.games.base import GameError, State
import bot.games.steamworks.geometry as geo
from bot.games.steamworks.common import (
    BUILD_SIZE,
    TILES,
    WORKSHOP_PRICE,
    active_seat,
    belt_rightmost,
    device_by_id,
    mechanic_cost,
    supply_of,
    tile_at,
    upgrade_targets,
)
from bot.games.steamworks.content import POWERS


def to_act(state: State) -> list[int]:
    """Seats whose input the game is waiting for now (the active seat)."""
    return [] if state["phase"] == "over" else [active_seat(state)]


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """Every move `seat` may make now (empty when it is not its turn)."""
    st = state
    if st["phase"] == "over" or seat != active_seat(st):
        return []
    if st["phase"] == "main":
        acts = [{"type": "place", "choice": c} for c in place_choices(st, seat)]
        return acts + [{"type": "pass"}]
    if st["phase"] == "activate":
        acts = [{"type": "fire", "choice": c} for c in fire_choices(st, seat)]
        return acts + [{"type": "auto"}, {"type": "done"}]
    if st["phase"] == "reveal":
        return [{"type": "keep", "choice": str(i)} for i in range(2)]
    b = st["build"]
    lays = lay_choices(st, seat)
    acts = [{"type": "plan", "choice": c} for c in whole_plans(st, seat)]
    acts += [{"type": "lay", "choice": c} for c in lays]
    if b.get("tile"):
        acts.append({"type": "tile", "choice": ""})  # back to every tile
    elif len(lays) > 25:
        # more lays than a select holds: the tile may be chosen first (then its positions and
        # rotations fit in one select)
        acts += [{"type": "tile", "choice": t} for t in dict.fromkeys(c.split(":")[0] for c in lays)]
    if b["left"] == 0:
        acts.append({"type": "confirm"})
    if b["placed"]:
        acts.append({"type": "undo"})
    return acts


def place_choices(st: State, seat: int) -> list[str]:
    """Where the seat may place its next mechanic."""
    money = st["players"][seat]["money"]
    cost = mechanic_cost(st, seat)
    if money < cost:
        return []
    out = []
    own = lambda space: f"p{seat}:{space}" not in st["occupied"]  # noqa: E731
    if own("tile"):
        out += [f"tile:{a}" for a in st["unlocked"] if belt_rightmost(st, a) is not None]
    if own("source"):
        out += [f"source:{p}" for p in POWERS if st["supply_sources"][p] > 0]
    if own("build") and geo.feasible([], supply_of(st, seat), BUILD_SIZE):
        out.append("build")
    if own("workshop") and money >= cost + WORKSHOP_PRICE:
        out += [f"workshop:{a}:{i}" for a in st["unlocked"] for i, t in enumerate(st["belts"][a]) if t]
    for d in st["devices"]:
        for pt in d["tiles"]:
            key = f"dev:{d['id']}:{pt['x']},{pt['y']}"
            if TILES[pt["t"]].is_source and key not in st["occupied"] and geo.powered(d["tiles"], (pt["x"], pt["y"])):
                out.append(key)
    return out


def fire_choices(st: State, seat: int) -> list[str]:
    """The components the seat may power now, each with its choice."""
    act = st["act"]
    pl = st["players"][seat]
    out = []
    for at, types in act["targets"].items():
        used = at in act["used"]
        tid = tile_at(st, act["dev"], at)
        # Rule reading: "a modifier sends the power back, so an activated tile can be used once
        # more": each modifier powered gives one more use of any tile already activated in this
        # activation (a modifier itself never repeats, or two would loop for ever).
        if used and (act["reuse"] <= 0 or TILES[tid].kind == "modifier"):
            continue
        eff = TILES[tid].effect
        op = eff["op"]
        for p in types:
            base = f"{at}:{p}"
            if op == "gain_any":
                n = eff["n"]
                picks = (
                    [f"{a}" for a in POWERS] if n == 1 else [a + b for i, a in enumerate(POWERS) for b in POWERS[i:]]
                )
                picks = [k for k in picks if all(st["supply_sources"][c] >= k.count(c) for c in set(k))]
                out += [f"{base}:{k}" for k in picks]
            elif op == "sell_source":
                out += [f"{base}:{c}" for c in POWERS if pl["sources"][c] > 0]
            elif op == "turbine":
                # Research (BGA help): take a tile from an unlocked supply deck, or pay £1 to
                # choose 1 of 2 revealed tiles. "d<age>": the top tile; "r<age>": look at two.
                out += [f"{base}:d{a}" for a in st["unlocked"] if st["stacks"][a]]
                if pl["money"] >= eff["price"]:
                    out += [f"{base}:r{a}" for a in st["unlocked"] if len(st["stacks"][a]) >= 2]
            elif op == "advance_start":
                # Research (BGA help): advance the start marker once free, once more per £1.
                # More than a full lap changes nothing, so at most seats - 1 paid steps.
                out += [f"{base}:{k}" for k in range(min(pl["money"], st["seats"] - 1) + 1)]
            elif op == "stack_by_power":
                a = {"C": "1", "S": "2", "E": "3"}[p]
                if a in st["unlocked"] and st["stacks"][a]:
                    out.append(base)
            elif op == "belt_take":
                out += [f"{base}:{a}" for a in st["unlocked"] if belt_rightmost(st, a) is not None]
            elif op == "build":
                if pl["money"] >= eff.get("price", 0) and geo.feasible([], supply_of(st, seat), eff["n"]):
                    out.append(base)
            elif op == "upgrade":
                if pl["money"] >= eff.get("price", 0) and upgrade_targets(st, seat):
                    out.append(base)
            elif op == "buy_vp":
                if pl["money"] >= eff["price"]:
                    out.append(base)
            elif op == "gain_same":
                if st["supply_sources"][p] > 0:
                    out.append(base)
            else:
                out.append(base)
    return out


def lay_choices(st: State, seat: int) -> list[str]:
    """Every tile the seat may lay now, with its place and turn."""
    b = st["build"]
    sup = supply_of(st, seat)
    if b["left"] == 0:
        return []
    if b["mode"] == "upgrade":
        out = []
        for did in upgrade_targets(st, seat):
            d = device_by_id(st, did)
            out += [f"{c['t']}:{c['x']}:{c['y']}:{c['r']}:{did}" for c in geo.legal_lays(d["tiles"], sup, 1)]
        return out if not b.get("tile") else [c for c in out if c.split(":")[0] == b["tile"]]
    out = [f"{c['t']}:{c['x']}:{c['y']}:{c['r']}" for c in geo.legal_lays(b["placed"], sup, b["left"])]
    return out if not b.get("tile") else [c for c in out if c.split(":")[0] == b["tile"]]


def lay_ok(st: State, seat: int, choice: Any) -> bool:
    """Is `choice` one of _lay_choices? Checked for that one lay (the whole list is a search)."""
    if not isinstance(choice, str):
        return False
    parts = choice.split(":")
    b = st["build"]
    try:
        tid, x, y, r = parts[0], int(parts[1]), int(parts[2]), int(parts[3])
        if f"{tid}:{x}:{y}:{r}" != ":".join(parts[:4]) or b["left"] == 0:
            return False
        sup = supply_of(st, seat)
        if sup[tid] <= 0:
            return False
        if b.get("tile") and tid != b["tile"]:
            return False
        if b["mode"] == "upgrade":
            if len(parts) != 5 or str(int(parts[4])) != parts[4] or int(parts[4]) not in upgrade_targets(st, seat):
                return False
            placed = device_by_id(st, int(parts[4]))["tiles"]
        elif len(parts) != 4:
            return False
        else:
            placed = b["placed"]
        c = {"t": tid, "x": x, "y": y, "r": r}
        if c not in geo.candidates(placed, Counter({tid: 1})):
            return False
        rest = sup.copy()
        rest[tid] -= 1
        return geo.feasible(placed + [c], rest, b["left"] - 1)
    except (ValueError, IndexError, KeyError, GameError):
        return False


def whole_plans(st: State, seat: int) -> list[str]:
    """Whole devices to build at once (tiles, places and turns chosen together), as choices
    "<tile>:<x>:<y>:<r>/..." in the order the menu offers them: only for a new device not yet
    begun, and only when all of them fit one select (else the tiles are laid one by one)."""
    b = st["build"]
    if st["phase"] != "build" or b["mode"] != "new" or b["placed"] or b.get("tile"):
        return []
    sup = supply_of(st, seat)
    plans = geo.whole_devices(tuple(sorted((t, n) for t, n in sup.items() if n > 0)), b["left"])
    return ["/".join(f"{t}:{x}:{y}:{r}" for t, x, y, r in sorted(p, key=lambda q: (q[2], q[1]))) for p in plans]


def default_fire(st: State, seat: int) -> str | None:
    """The suggested next component: money and points first, building last."""
    choices = fire_choices(st, seat)
    if not choices:
        return None
    pl = st["players"][seat]
    order = {
        "reuse": 0,
        "vp": 1,
        "vp_per_device": 1,
        "clocks": 1,
        "buy_vp": 2,
        "coins": 3,
        "per_component_coins": 3,
        "gain_same": 4,
        "gain_any": 4,
        "sell_source": 5,
        "advance_start": 5,
        "turbine": 6,
        "stack_by_power": 6,
        "belt_take": 6,
        "upgrade": 8,
        "build": 9,
    }
    act = st["act"]

    def rank(c: str) -> tuple:
        parts = c.split(":")
        tid = tile_at(st, act["dev"], parts[0])
        op = TILES[tid].effect["op"]
        fresh = 0 if parts[0] not in act["used"] else 1
        if op == "reuse" and not act["used"]:
            return (99,)
        param = parts[2] if len(parts) > 2 else ""
        pref = 0
        if op == "gain_any":
            pref = sum(pl["sources"][k] for k in param)
        elif op == "sell_source":
            pref = -pl["sources"][param]
        elif op == "belt_take":
            pref = -int(param)
        elif op == "turbine":  # the free draw first (the look costs £1 and stops the flow)
            pref = 10 * (param[0] == "r") - int(param[1:])
        elif op == "advance_start":
            pref = int(param)
        return (fresh, order[op], pref, c)

    best = min(choices, key=rank)
    return best
