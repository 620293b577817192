"""Steam Works' shared pieces: the content loaded once, names in log lines, whose turn it is, the
placement cost, and the small movements every part uses (sources, tiles from belts and stacks,
clocks, devices). The engine's parts (choices.py: what may be done; activation.py, rounds.py: what
follows; menu.py, view.py: what a seat is shown) build on these."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.games.base import Event, GameError, State, seat_ref
import bot.games.steamworks.geometry as geo
from bot.games.steamworks.content import POWERS, setup, tiles
from bot.i18n import Msg, msg, to_wire

LOG_KEEP = 40
VIEW_LOG = 12
TILES = tiles()
SETUP = setup()
AGES = ("1", "2", "3")
POWER_NAMES = {"C": "clockwork", "S": "steam", "E": "electrickal"}
AGE_NAMES = {"1": "Age I", "2": "Age II", "3": "Age III"}
SPACE_NAMES = {s["id"]: s["name"] for s in SETUP.spaces}
BUILD_SIZE = next(s["n"] for s in SETUP.spaces if s["id"] == "build")
WORKSHOP_PRICE = next(s["price"] for s in SETUP.spaces if s["id"] == "workshop")


def tile_name(tid: str) -> Msg:
    """A tile's name (a Msg)."""
    return msg(TILES[tid].name)


def power_name(p: str) -> Msg:
    """A power's name: clockwork, steam or electrickal."""
    return msg(POWER_NAMES[p])


def age_name(a: str | int) -> Msg:
    """An age's name: "Age I"..."""
    return msg(AGE_NAMES[str(a)])


def log_line(st: State, ev: list[Event], text: Msg) -> None:
    """A public line: an event for the thread, kept in the state's log (its last LOG_KEEP lines)."""
    ev.append(Event(text))
    st["log"].append(to_wire(text))
    del st["log"][:-LOG_KEEP]


def mechanics_now(st: State) -> int:
    """How many mechanics each seat has this age."""
    return SETUP.start_mechanics + st["age"] - 1


def active_seat(st: State) -> int:
    """The seat whose turn it is."""
    return (st["start"] + st["turn"]) % st["seats"]


def mechanic_cost(st: State, seat: int) -> int:
    # Rule reading: the cost is printed under the home space of the mechanic being used, the
    # leftmost unused one; the first of a round is free.
    """What placing the seat's next mechanic costs."""
    return SETUP.mechanic_cost[st["used"][seat]]


def clock_to(st: State, ev: list[Event], owner: int, n: int = 1, supply_only: bool = False) -> None:
    """`owner` gains `n` clocks (from the age's stack while it lasts, unless `supply_only`)."""
    a = str(st["age"])
    for _ in range(n):
        if not supply_only and st["clocks"][a] > 0:
            st["clocks"][a] -= 1
        st["players"][owner]["clocks"] += 1


def refill_belt(st: State, a: str) -> bool:
    """Slide tiles right, then fill the empty spaces from the stack. False if it ran short."""
    belt = st["belts"][a]
    tiles_on = [t for t in belt if t is not None]
    belt[:] = [None] * (len(belt) - len(tiles_on)) + tiles_on
    for i in range(len(belt)):
        if belt[i] is None:
            if not st["stacks"][a]:
                return False
            belt[i] = st["stacks"][a].pop(0)
    return True


def supply_of(st: State, seat: int) -> Counter:
    """The seat's tiles in supply, its basic sources counted as "src_<power>" tiles."""
    pl = st["players"][seat]
    c = Counter(pl["tiles"])
    for p in POWERS:
        if pl["sources"][p]:
            c[f"src_{p}"] = pl["sources"][p]
    return c


def take_from_supply(st: State, seat: int, tid: str) -> None:
    """`seat` lays tile `tid` from its supply (a basic source from its sources)."""
    pl = st["players"][seat]
    if TILES[tid].is_basic:
        pl["sources"][tid[-1]] -= 1
    else:
        pl["tiles"].remove(tid)


def gain_source(st: State, seat: int, p: str, n: int) -> int:
    """`seat` takes up to `n` basic sources of power `p` from the general supply; how many it got."""
    n = min(n, st["supply_sources"][p])
    st["supply_sources"][p] -= n
    st["players"][seat]["sources"][p] += n
    return n


def device_by_id(st: State, did: int) -> dict[str, Any]:
    """The device numbered `did` (GameError when there is none)."""
    for d in st["devices"]:
        if d["id"] == did:
            return d
    raise GameError(msg("There is no such device."))


def tile_at(st: State, did: int, at: str) -> str:
    """The tile of device `did` at "<x>,<y>" (GameError when there is none)."""
    x, y = (int(v) for v in at.split(","))
    for pt in device_by_id(st, did)["tiles"]:
        if pt["x"] == x and pt["y"] == y:
            return pt["t"]
    raise GameError(msg("That choice is not possible now."))


def take_from_belt(st: State, ev: list[Event], seat: int, age: str) -> None:
    """The seat takes the rightmost tile of an age's belt."""
    i = belt_rightmost(st, age)
    tid = st["belts"][age][i]
    st["belts"][age][i] = None
    pl = st["players"][seat]
    pl["tiles"].append(tid)
    pl["tiles"].sort()
    log_line(
        st, ev, msg("{p} takes {tile} from the {age} belt.", p=seat_ref(seat), tile=tile_name(tid), age=age_name(age))
    )


def belt_rightmost(st: State, a: str) -> int | None:
    """The index of the rightmost tile on age `a`'s belt, None when it is empty."""
    belt = st["belts"][a]
    for i in range(len(belt) - 1, -1, -1):
        if belt[i] is not None:
            return i
    return None


def upgrade_targets(st: State, seat: int) -> list[int]:
    """The seat's devices a tile of its supply can still be added to."""
    sup = supply_of(st, seat)
    return [d["id"] for d in st["devices"] if d["owner"] == seat and geo.feasible(d["tiles"], sup, 1)]


def start_build(st: State, mode: str, n: int, back: str) -> None:
    """Start laying a device (`mode` new or upgrade, `n` tiles); `back`: where the game goes once built."""
    st["build"] = {"mode": mode, "n": n, "left": n, "placed": [], "dev": None, "back": back, "tile": None}
    st["phase"] = "build"
