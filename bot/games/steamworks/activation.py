"""A device's activation in Steam Works: powering one component (its effect, the owner's bonus,
the line saying what changed) and the activation's end."""

from __future__ import annotations

from typing import Any

from bot.games.base import Event, State
from bot.games.steamworks.choices import fire_choices
from bot.games.steamworks.common import (
    LOG_KEEP,
    TILES,
    age_name,
    clock_to,
    device_by_id,
    gain_source,
    log_line,
    power_name,
    seat_ref,
    start_build,
    take_from_belt,
    tile_at,
    tile_name,
)
from bot.games.steamworks.content import POWERS
from bot.games.steamworks.rounds import end_turn
from bot.i18n import Msg, msg, to_wire


def fire(st: State, seat: int, choice: str, ev: list[Event]) -> None:
    """`seat` powers one component of the device being activated (`choice`: "<x>,<y>:<power>[:<param>]"):
    its effect, the owner's bonus, the line saying what changed, then a look, a build or more powering."""
    act = st["act"]
    parts = choice.split(":")
    at, power = parts[0], parts[1]
    param = parts[2] if len(parts) > 2 else None
    tid = tile_at(st, act["dev"], at)
    tile = TILES[tid]
    if at in act["used"]:
        act["reuse"] -= 1  # a modifier sent the power back
    else:
        act["used"].append(at)
    pl = st["players"][seat]
    eff = tile.effect
    op = eff["op"]
    before = holdings(st)
    at_ev = len(ev)
    _effect(st, ev, seat, tile.effect, power, param)
    if op not in ("coins", "sell_source"):  # an extra gain printed after the effect
        pl["money"] += eff.get("coins", 0)
    if op in ("build", "upgrade"):
        pl["money"] -= eff.get("price", 0)
    owner = act["owner"]
    if owner != seat and tile.owner:
        # Owner bonus: only when another player activates the component.
        o = st["players"][owner]
        o["money"] += tile.owner.get("coins", 0)
        o["vp"] += tile.owner.get("vp", 0)
        if tile.owner.get("source"):
            gain_source(st, owner, power, tile.owner["source"])
    _say_fired(st, ev, (seat, tid, power), before, at_ev)
    if st["reveal"] is not None:
        st["phase"] = "reveal"
    elif op == "build":
        start_build(st, "new", eff["n"], "act")
    elif op == "upgrade":
        start_build(st, "upgrade", eff["n"], "act")


def _effect(st: State, ev: list[Event], seat: int, eff: dict[str, Any], power: str, param: Any) -> None:
    """A powered component's own effect `eff` for `seat` (the extra coins and the owner's bonus
    are `fire`'s)."""
    act = st["act"]
    pl = st["players"][seat]
    op = eff["op"]
    if op == "coins":
        pl["money"] += eff["coins"]
    elif op == "vp":
        pl["vp"] += eff["vp"]
    elif op == "gain_same":
        gain_source(st, seat, power, eff["n"])
    elif op == "gain_any":
        for c in param:
            gain_source(st, seat, c, 1)
    elif op == "sell_source":
        pl["sources"][param] -= 1
        st["supply_sources"][param] += 1
        pl["money"] += eff["coins"]
    elif op == "stack_by_power" or (op == "turbine" and param[0] == "d"):
        a = param[1:] if op == "turbine" else {"C": "1", "S": "2", "E": "3"}[power]
        got = st["stacks"][a].pop(0)
        pl["tiles"].append(got)
        pl["tiles"].sort()
        log_line(
            st,
            ev,
            msg("{p} draws {tile} from the {age} stack.", p=seat_ref(seat), tile=tile_name(got), age=age_name(a)),
        )
    elif op == "turbine":
        # Rule reading: the research says "pay £1 to choose 1 of 2 revealed tiles" and does not
        # say the others see them; the tile not kept goes back under its stack (as the belt's
        # last tile does), so only the payer looks: the two tiles stay in the stack until the
        # choice and only that seat's view shows them.
        a = param[1:]
        pl["money"] -= eff["price"]
        st["reveal"] = {"seat": seat, "age": a}
        log_line(
            st,
            ev,
            msg(
                "{p} pays £{n} to look at the top two tiles of the {age} stack.",
                p=seat_ref(seat),
                n=eff["price"],
                age=age_name(a),
            ),
        )
    elif op == "advance_start":
        # Rule reading: the marker moves now and the round's turn order stays; the round end
        # still moves it one more seat left, so the seat after the marker starts next round.
        k = 1 + int(param)
        pl["money"] -= int(param)
        st["marker"] = (st["marker"] + k) % st["seats"]
        log_line(
            st,
            ev,
            msg(
                "{p} moves the start marker {k} seat(s) left (£{n}); it is at {q}.",
                p=seat_ref(seat),
                k=k,
                n=int(param),
                q=seat_ref(st["marker"]),
            ),
        )
    elif op == "belt_take":
        take_from_belt(st, ev, seat, param)
    elif op == "per_component_coins":
        d = device_by_id(st, act["dev"])
        pl["money"] += sum(1 for pt in d["tiles"] if TILES[pt["t"]].kind in ("component", "modifier"))
    elif op == "buy_vp":
        pl["money"] -= eff["price"]
        pl["vp"] += eff["vp"]
    elif op == "clocks":
        clock_to(st, ev, seat, eff["n"], supply_only=True)
    elif op == "vp_per_device":
        pl["vp"] += min(eff["max"], sum(1 for d in st["devices"] if d["owner"] == seat))
    elif op == "reuse":
        act["reuse"] += 1


def _say_fired(st: State, ev: list[Event], fired: tuple[int, str, str], before: list[Any], at_ev: int) -> None:
    """The line saying what powering `fired` (seat, tile, power) changed since `before`, put
    before the lines its effect logged itself (those from event `at_ev` on)."""
    seat, tid, power = fired
    tile = TILES[tid]
    eff = tile.effect
    op = eff["op"]
    owner = st["act"]["owner"]
    # The line says what the activation changed (#32): the seat's gains and costs, then the
    # owner's bonus; it goes before the lines the effect logged itself (a tile drawn, the marker).
    after = holdings(st)
    gains = changes(before[seat], after[seat])
    if op == "reuse":
        gains.append(msg("a used component may work once more"))
    elif op in ("build", "upgrade"):
        gains.append(
            msg("builds a device of {n} tiles", n=eff["n"]) if op == "build" else msg("adds a tile to a device")
        )
    line = msg(
        "{p} powers {tile} with {power}: {changes}.",
        p=seat_ref(seat),
        tile=tile_name(tid),
        power=power_name(power),
        changes=gains or [msg("nothing changes")],
    )
    if owner != seat and tile.owner:
        line = msg(
            "{line} {owner} takes the owner bonus: {changes}.",
            line=line,
            owner=seat_ref(owner),
            changes=changes(before[owner], after[owner]),
        )
    added = len(ev) - at_ev
    ev.insert(at_ev, Event(line))
    st["log"].insert(len(st["log"]) - added, to_wire(line))
    del st["log"][:-LOG_KEEP]


def holdings(st: State) -> list[tuple[int, int, int, dict[str, int], int]]:
    """Each seat's money, points, clocks, basic sources and tiles in supply."""
    return [(pl["money"], pl["vp"], pl["clocks"], dict(pl["sources"]), len(pl["tiles"])) for pl in st["players"]]


def changes(a: tuple, b: tuple) -> list[Msg]:
    """What changed between two holdings, in words: "+£2", "-£3", "+1 VP", "+2 steam sources"."""
    out: list[Msg] = []
    if b[0] != a[0]:
        out.append(msg("+£{n}", n=b[0] - a[0]) if b[0] > a[0] else msg("-£{n}", n=a[0] - b[0]))
    if b[1] != a[1]:
        out.append(msg("+{n} VP", n=b[1] - a[1]))
    if b[2] != a[2]:
        out.append(msg("+{n} clock(s)", n=b[2] - a[2]))
    for p in POWERS:
        k = b[3][p] - a[3][p]
        if k:
            out.append(
                msg("+{n} {power} source(s)", n=k, power=power_name(p))
                if k > 0
                else msg("-{n} {power} source(s)", n=-k, power=power_name(p))
            )
    if b[4] > a[4]:
        out.append(msg("+{n} tile(s)", n=b[4] - a[4]))
    return out


def maybe_end_activation(st: State, seat: int, ev: list[Event]) -> None:
    """The activation ends when nothing is left to power."""
    if st["phase"] == "activate" and not fire_choices(st, seat):
        end_activation(st, ev)


def end_activation(st: State, ev: list[Event]) -> None:
    """The activation is over: the turn ends."""
    st["act"] = None
    st["phase"] = "main"
    end_turn(st, ev)
