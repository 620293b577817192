"""What a Steam Works seat is offered: the label of each move and the menu of selects and buttons."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.games.base import Action, GameError, State
import bot.games.steamworks.geometry as geo
from bot.games.steamworks.choices import default_fire, legal_actions, whole_plans
from bot.games.steamworks.common import (
    BUILD_SIZE,
    SETUP,
    SPACE_NAMES,
    TILES,
    WORKSHOP_PRICE,
    age_name,
    belt_rightmost,
    device_by_id,
    mechanic_cost,
    power_name,
    seat_ref,
    tile_at,
    tile_name,
)
from bot.i18n import Msg, msg


def describe_action(state: State, seat: int, action: dict[str, Any]) -> Msg:
    """A short label for one of the seat's moves ("Unknown move" for anything else)."""
    st = state
    kind = action.get("type") if isinstance(action, dict) else None
    c = action.get("choice") if isinstance(action, dict) else None
    if kind == "pass":
        return msg("Pass (+£{n})", n=SETUP.pass_income[min(st["used"][seat], 3)])
    if kind == "auto":
        return msg("Power everything left (suggested order)")
    if kind == "done":
        return msg("End the activation")
    if kind == "confirm":
        return msg("Confirm the device")
    if kind == "tile":
        if c:
            return msg("Choose {tile} first", tile=tile_name(c)) if c in TILES else msg("Unknown move")
        return msg("Choose another tile")
    if kind == "keep":
        rv = st.get("reveal")
        # only the seat that looks is offered this move, so naming its tile reveals nothing
        if isinstance(rv, dict) and rv.get("seat") == seat and c in ("0", "1"):
            return msg("Keep {tile}", tile=tile_name(st["stacks"][rv["age"]][int(c)]))
        return msg("Unknown move")
    if kind == "undo":
        return msg("Take back the last tile")
    if not isinstance(c, str):
        return msg("Unknown move")
    if kind == "plan":
        plans = whole_plans(st, seat) if st["phase"] == "build" else []
        if c not in plans:
            return msg("Unknown move")
        names = [tile_name(part.split(":")[0]) for part in c.split("/")]
        return msg("Whole device {k}: {tiles}", k=plans.index(c) + 1, tiles=names)
    parts = c.split(":")
    try:
        if kind == "place":
            return describe_place(st, parts)
        if kind == "fire":
            return describe_fire(st, parts)
        if kind == "lay":
            pos = msg("at ({x}, {y})", x=int(parts[1]), y=int(parts[2]))
            base = msg("{tile} {pos}, turned {r}°", tile=tile_name(parts[0]), pos=pos, r=int(parts[3]) * 90)
            if len(parts) > 4:
                return msg("{what} on device {n}", what=base, n=int(parts[4]))
            return base
    except (KeyError, ValueError, IndexError, GameError):
        pass
    return msg("Unknown move")


def describe_place(st: State, parts: list[str]) -> Msg:
    """The label of a placement."""
    space = parts[0]
    if space == "tile":
        a = parts[1]
        i = belt_rightmost(st, a)
        return msg(
            "{space}: take {tile} ({age} belt)",
            space=msg(SPACE_NAMES["tile"]),
            tile=tile_name(st["belts"][a][i]),
            age=age_name(a),
        )
    if space == "source":
        return msg("{space}: take 1 {power} source", space=msg(SPACE_NAMES["source"]), power=power_name(parts[1]))
    if space == "build":
        return msg("{space}: build a device of {n} tiles", space=msg(SPACE_NAMES["build"]), n=BUILD_SIZE)
    if space == "workshop":
        a, i = parts[1], int(parts[2])
        return msg(
            "{space}: £{n} for {tile} ({age} belt, space {k})",
            space=msg(SPACE_NAMES["workshop"]),
            n=WORKSHOP_PRICE,
            tile=tile_name(st["belts"][a][i]),
            age=age_name(a),
            k=i + 1,
        )
    did = int(parts[1])
    d = device_by_id(st, did)
    x, y = (int(v) for v in parts[2].split(","))
    targets = geo.powered(d["tiles"], (x, y))
    names = [tile_name(tile_at(st, did, k)) for k in targets]
    return msg(
        "Device {n} of {owner}, {source} {pos}: {tiles}",
        n=did,
        owner=seat_ref(d["owner"]),
        source=tile_name(tile_at(st, did, parts[2])),
        pos=msg("at ({x}, {y})", x=x, y=y),
        tiles=names,
    )


def describe_fire(st: State, parts: list[str]) -> Msg:
    """The label of powering a component."""
    act = st["act"]
    tid = tile_at(st, act["dev"], parts[0])
    base = msg("{tile} with {power}", tile=tile_name(tid), power=power_name(parts[1]))
    twins = [k for k in act["targets"] if tile_at(st, act["dev"], k) == tid]
    if len(twins) > 1:  # two alike in one device: say which
        x, y = (int(v) for v in parts[0].split(","))
        base = msg("{what} {pos}", what=base, pos=msg("at ({x}, {y})", x=x, y=y))
    if parts[0] in act["used"]:
        base = msg("{what} (again)", what=base)
    if len(parts) > 2:
        op = TILES[tid].effect["op"]
        p = parts[2]
        if op == "gain_any":
            extra: Any = [power_name(k) for k in p]
        elif op == "sell_source":
            extra = msg("sell a {power} source", power=power_name(p))
        elif op == "turbine" and p[0] == "d":
            extra = msg("draw the top tile of the {age} stack", age=age_name(p[1:]))
        elif op == "turbine":
            extra = msg(
                "£{n}: look at two tiles of the {age} stack, keep one",
                n=TILES[tid].effect["price"],
                age=age_name(p[1:]),
            )
        elif op == "advance_start":
            k = int(p)
            nxt = (st["marker"] + 1 + k + 1) % st["seats"]
            extra = msg("move the start marker {k} (£{n}); {q} starts next round", k=1 + k, n=k, q=seat_ref(nxt))
        else:
            i = belt_rightmost(st, p)
            extra = msg("{tile} from the {age} belt", tile=tile_name(st["belts"][p][i]), age=age_name(p))
        return msg("{what}: {extra}", what=base, extra=extra)
    return base


Selects = Callable[[Msg, str, list[str], int], None]


def menu(state: State, seat: int) -> list[dict[str, Any]]:
    """The seat's selects and buttons for its legal moves now (none when it is not its turn)."""
    st = state
    acts = legal_actions(st, seat)
    if not acts:
        return []
    groups: list[dict[str, Any]] = []

    def selects(placeholder: Msg, kind: str, choices: list[str], limit: int) -> None:
        for start in range(0, min(len(choices), 25 * limit), 25):
            chunk = choices[start : start + 25]
            ph = (
                placeholder
                if len(choices) <= 25
                else msg("{placeholder} ({page})", placeholder=placeholder, page=start // 25 + 1)
            )
            groups.append(
                {
                    "kind": "select",
                    "placeholder": ph,
                    "min": 1,
                    "max": 1,
                    "action": {"type": kind},
                    "options": [
                        {"label": describe_action(st, seat, {"type": kind, "choice": c}), "value": c} for c in chunk
                    ],
                }
            )

    if st["phase"] == "main":
        _placements(groups, selects, st, seat, acts)
    elif st["phase"] == "reveal":
        rv = st["reveal"]
        two = st["stacks"][rv["age"]][:2]
        order = sorted(range(2), key=lambda i: (-TILES[two[i]].prestige, i))  # the higher prestige first
        groups.append(
            {
                "kind": "buttons",
                "options": [
                    {
                        "label": describe_action(st, seat, {"type": "keep", "choice": str(i)}),
                        "action": {"type": "keep", "choice": str(i)},
                        "style": "primary" if j == 0 else "secondary",
                    }
                    for j, i in enumerate(order)
                ],
            }
        )
    elif st["phase"] == "activate":
        fires = [a["choice"] for a in acts if a["type"] == "fire"]
        best = default_fire(st, seat)
        fires.sort(key=lambda c: (c != best, c))
        selects(msg("Power a component"), "fire", fires, 3)
        groups.append(
            {
                "kind": "buttons",
                "options": [
                    {
                        "label": msg("Power everything left (suggested order)"),
                        "action": {"type": "auto"},
                        "style": "primary",
                    },
                    {"label": msg("End the activation"), "action": {"type": "done"}, "style": "secondary"},
                ],
            }
        )
    else:
        _building(groups, selects, st, acts)
    return groups


def _placements(groups: list[dict[str, Any]], selects: Selects, st: State, seat: int, acts: list[Action]) -> None:
    """The main phase: the persona board's spaces, the devices' sources, and the pass."""
    places = [a["choice"] for a in acts if a["type"] == "place"]
    pl = st["players"][seat]

    def own_rank(c: str) -> tuple:
        # the best-looking first: build, the newest belt tiles, the source you lack most
        parts = c.split(":")
        if parts[0] == "build":
            return (0, 0, c)
        if parts[0] == "tile":
            return (1, -int(parts[1]), c)
        if parts[0] == "source":
            return (2, pl["sources"][parts[1]], c)
        return (3, -int(parts[1]), c)

    own = sorted((c for c in places if not c.startswith("dev:")), key=own_rank)

    def powered_count(c: str) -> int:
        x, y = (int(v) for v in c.split(":")[2].split(","))
        return len(geo.powered(device_by_id(st, int(c.split(":")[1]))["tiles"], (x, y)))

    devs = sorted((c for c in places if c.startswith("dev:")), key=lambda c: (-powered_count(c), c))
    cost = mechanic_cost(st, seat)
    if own:
        selects(msg("Place a mechanic on your persona board (£{n})", n=cost), "place", own, 2)
    if devs:
        selects(msg("Place a mechanic on a device (£{n})", n=cost), "place", devs, 2)
    groups.append(
        {
            "kind": "buttons",
            "options": [
                {"label": describe_action(st, seat, {"type": "pass"}), "action": {"type": "pass"}, "style": "secondary"}
            ],
        }
    )


def _building(groups: list[dict[str, Any]], selects: Selects, st: State, acts: list[Action]) -> None:
    """A device being built: whole devices, tiles to lay (or a tile to choose first), confirm, undo."""
    lays = [a["choice"] for a in acts if a["type"] == "lay"]
    picks = [a["choice"] for a in acts if a["type"] == "tile" and a["choice"]]
    plans = [a["choice"] for a in acts if a["type"] == "plan"]
    if plans:  # the whole device in one choice, as the DM image numbers them
        selects(msg("Build a whole device (numbered in the picture)"), "plan", plans, 1)
    if picks:  # too many lays for one select: the best 25, then every tile to choose first
        selects(msg("Lay a tile ({n} left)", n=st["build"]["left"]), "lay", lays[:25], 1)
        selects(msg("Or choose the tile first"), "tile", picks, 2)
    elif lays:
        selects(msg("Lay a tile ({n} left)", n=st["build"]["left"]), "lay", lays, 3)
    buttons = []
    if any(a["type"] == "tile" and not a["choice"] for a in acts):
        buttons.append(
            {"label": msg("Choose another tile"), "action": {"type": "tile", "choice": ""}, "style": "secondary"}
        )
    if any(a["type"] == "confirm" for a in acts):
        buttons.append({"label": msg("Confirm the device"), "action": {"type": "confirm"}, "style": "success"})
    if any(a["type"] == "undo" for a in acts):
        buttons.append({"label": msg("Take back the last tile"), "action": {"type": "undo"}, "style": "secondary"})
    if buttons:
        groups.append({"kind": "buttons", "options": buttons})
