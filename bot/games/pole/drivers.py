"""Drivers and teams (seed 002, sections 2.3 and 14, appendices 1 and 2), a table option.

Each player draws one driver and one team (data/pole/drivers.json: the twelve driver abilities of
appendix 1 and the twelve team abilities of appendix 2). Bots draw none (they have their cards).
The engine asks this module through small hooks; without the option every hook gives the
standard race's value.
"""

from __future__ import annotations

import json
from typing import Any
from functools import lru_cache

import bot.games.pole.specials as SP
from bot.games.pole.common import car_name, log
from bot.games.pole.content import DATA_DIR
from bot.i18n import msg

DRIVER_KEYS = {
    "id",
    "name",
    "quali",
    "defend",
    "attack",
    "no_technical",
    "pit_sp",
    "wear_tokens",
    "blow_tokens",
    "quali_first",
    "start_purple",
    "after_sc",
    "corner_sp_cells",
    "course_out",
    "rain_ep_cells",
    "rain_attack",
    "rain_bp_cells",
    "rain_defend",
    "drs_range",
    "drs_mp",
}
TEAM_KEYS = {
    "id",
    "name",
    "reroll",
    "collision",
    "breakdown_points",
    "no_blowouts",
    "pit_pass",
    "exit_mp",
    "bp",
    "ep",
    "event_immune",
    "win_mp",
    "pit_point",
}


@lru_cache(maxsize=1)
def data() -> dict:
    d = json.loads((DATA_DIR / "drivers.json").read_text("utf-8"))
    dr, tm = d["drivers"], d["teams"]
    ok = (
        len(dr) == 12
        and len(tm) == 12
        and len({x["id"] for x in dr}) == 12
        and len({x["id"] for x in tm}) == 12
        and all(set(x) <= DRIVER_KEYS and 1 <= x["quali"] <= 6 for x in dr)
        and all(set(x) <= TEAM_KEYS for x in tm)
    )
    starts = sorted((x.get("ep", 0), x.get("bp", 0)) for x in tm if set(x) <= {"id", "name", "ep", "bp"})
    ok = ok and starts == [(0, 3), (1, 2), (2, 1), (3, 0)]  # appendix 2: the four start-point teams
    if not ok:
        raise ValueError("data/pole/drivers.json: twelve drivers and twelve teams of appendices 1 and 2")
    return d


def driver_of(st: dict, seat: int) -> dict:
    did = st["cars"][seat].get("driver")
    return next((x for x in data()["drivers"] if x["id"] == did), {}) if did else {}


def team_of(st: dict, seat: int) -> dict:
    tid = st["cars"][seat].get("team")
    return next((x for x in data()["teams"] if x["id"] == tid), {}) if tid else {}


def on(st: dict) -> bool:
    return bool(st["options"].get("drivers"))


def deal(options: dict, cars: list[dict], rng) -> None:
    """14: one driver and one team for each player (bots none), at random, no two alike; team
    start points (appendix 2) and the driver's tokens (appendix 1) go on the dashboard at once."""
    if not options.get("drivers"):
        return
    ds = [x["id"] for x in data()["drivers"]]
    ts = [x["id"] for x in data()["teams"]]
    rng.shuffle(ds)
    rng.shuffle(ts)
    for car in cars:
        if car.get("bot"):
            continue
        car["driver"], car["team"] = ds.pop(0), ts.pop(0)
        t = next(x for x in data()["teams"] if x["id"] == car["team"])
        d = next(x for x in data()["drivers"] if x["id"] == car["driver"])
        car["ep"] += t.get("ep", 0)
        car["bp"] += t.get("bp", 0)
        if d.get("wear_tokens"):
            car["wear_tok"], car["blow_tok"] = d["wear_tokens"], d["blow_tokens"]


# ---------------------------------------------------------------- qualifying and the start


def quali_value(st: dict, seat: int) -> int:
    """14: a tie in qualifying goes to the higher driver value (then dice)."""
    return driver_of(st, seat).get("quali", 0)


def quali_first(st: dict, seat: int) -> int:
    return driver_of(st, seat).get("quali_first", 0)


def start_bonus(st: dict, seat: int) -> int:
    """The purple die in the three start rounds: +1 for the Rocket."""
    return driver_of(st, seat).get("start_purple", 0)


def after_sc_bonus(st: dict, seat: int) -> int:
    """The first tyre roll after the safety car: +1 for the Rocket (reading: on the MP; the raw roll
    decides a course-out, as every modifier does, 4.6)."""
    return driver_of(st, seat).get("after_sc", 0)


# ---------------------------------------------------------------- moving


def caps(st: dict, seat: int | None, rain: bool) -> tuple[int, int]:
    """Cells for 1 EP / 1 BP: the circuit's (appendix 4), then in rain 3 for the drivers whose card
    says so (appendix 1)."""
    b, k = SP.caps(st, rain)
    if rain and seat is not None:
        d = driver_of(st, seat)
        b, k = d.get("rain_ep_cells", b), d.get("rain_bp_cells", k)
    return b, k


def no_technical(st: dict, seat: int) -> bool:
    return bool(driver_of(st, seat).get("no_technical"))


def sp_double(st: dict, seat: int) -> bool:
    return driver_of(st, seat).get("corner_sp_cells", 1) == 2


def sp_cost(st: dict, seat: int, units: int) -> int:
    """SP for corner cells: with the Corner Master the search counts half-SP units (a cell in a
    non-technical corner is 1 unit, in a technical one 2), so the cost is units / 2 rounded up."""
    return -(-units // 2) if sp_double(st, seat) else units


def course_out_limit(st: dict, seat: int, tyre: str, lim: int | None) -> int | None:
    """The Rain Dancer: the course-out thresholds of hard and soft tyres one higher (light rain:
    hard 9, soft 10; heavy rain: hard 8, soft 9)."""
    if lim is None or tyre not in ("hard", "soft"):
        return lim
    return lim + driver_of(st, seat).get("course_out", 0)


def wear_token_ok(st: dict, seat: int) -> bool:
    car = st["cars"][seat]
    t = st["turn"]
    return (
        car.get("wear_tok", 0) > 0
        and car["life"] < 0
        and t
        and t["ms"] is None
        and not t.get("wear_tok")
        and t["die"] in ("red", "white", "green", "blue")
    )


def free_reroll(st: dict, seat: int, weather: str) -> bool:
    """Teams 1-3: on the named tyres in the named weather, a free reroll each turn (best kept)."""
    r = team_of(st, seat).get("reroll")
    t = st["turn"]
    car = st["cars"][seat]
    return bool(
        r
        and t
        and not t.get("free_used")
        and t["die"] != "purple"
        and r["weather"] == weather
        and r["tyre"] == car["tyre"]
    )


def drs_range(st: dict, seat: int) -> int:
    return 1 + driver_of(st, seat).get("drs_range", 0)


def drs_mp(st: dict, seat: int) -> int:
    return SP.drs_mp(st) + driver_of(st, seat).get("drs_mp", 0)


def exit_bonus(st: dict, seat: int) -> int:
    return team_of(st, seat).get("exit_mp", 0)


def win_bonus(st: dict, seat: int) -> int:
    return team_of(st, seat).get("win_mp", 0)


# ---------------------------------------------------------------- fights, collisions, damage


def fight_bonus(st: dict, att: int, dfn: int, rain: bool) -> tuple[int, int]:
    da, dd = driver_of(st, att), driver_of(st, dfn)
    a = da.get("attack", 0) + (da.get("rain_attack", 0) if rain else 0)
    d = dd.get("defend", 0) + (dd.get("rain_defend", 0) if rain else 0)
    return a, d


def collision_roll(st: dict, seat: int, roll: int) -> int:
    """Teams: each collision roll 2 (or 1) lower; never below 1."""
    return max(1, roll + team_of(st, seat).get("collision", 0))


def extra_breakdown_points(st: dict, seat: int) -> int:
    return team_of(st, seat).get("breakdown_points", 0)


def no_blowouts(st: dict, seat: int) -> bool:
    return bool(team_of(st, seat).get("no_blowouts"))


def use_blow_token(st: dict, ev: list, seat: int) -> bool:
    """The Tyre Whisperer: a blow-out token avoids the puncture (spent automatically: it always
    helps)."""
    car = st["cars"][seat]
    if car.get("blow_tok", 0) <= 0:
        return False
    car["blow_tok"] -= 1
    log(st, ev, msg("{p} spends a blow-out token: no puncture.", p=car_name(st, seat)))
    return True


def immune_to_breakdown_events(st: dict, seat: int) -> bool:
    return bool(team_of(st, seat).get("event_immune"))


# ---------------------------------------------------------------- pit stops


def at_pit(st: dict, ev: list, seat: int) -> None:
    """At every stop: the Strategist's 2 more SP; Fix It Fast's 1 EP or 1 BP back (designed: the one
    further below its value at the start, EP on a tie; none when both are full); Lightning Pits
    passes every car that stopped in the same round."""
    if not on(st):
        return
    car = st["cars"][seat]
    d, t = driver_of(st, seat), team_of(st, seat)
    car["pit_round"] = st["round"]
    if d.get("pit_sp"):
        car["sp"] = min(car["sp0"], car["sp"] + d["pit_sp"])
    if t.get("pit_point"):
        e0, b0 = car.get("ep0", car["ep"]), car.get("bp0", car["bp"])
        lack = {"ep": e0 - car["ep"], "bp": b0 - car["bp"]}
        what = "ep" if lack["ep"] >= lack["bp"] else "bp"
        if lack[what] > 0:
            car[what] += 1
            log(
                st,
                ev,
                msg(
                    "{p}'s crew gives back 1 {what}.",
                    p=car_name(st, seat),
                    what=msg("EP") if what == "ep" else msg("BP"),
                ),
            )
    if t.get("pit_pass"):
        order = st["order"]
        same = [
            s
            for s in order
            if s != seat
            and st["cars"][s].get("pit_round") == st["round"]
            and st["cars"][s]["pos"]
            and st["cars"][s]["pos"][0] in ("pit", "g", "pout", "pin")
            and st["cars"][s]["laps"] == car["laps"]
        ]
        if same and seat in order:
            first = min(order.index(s) for s in same)
            if order.index(seat) > first:
                order.remove(seat)
                order.insert(first, seat)
                log(
                    st,
                    ev,
                    msg(
                        "{p}'s pit crew gets the car out ahead of the cars that stopped this round.",
                        p=car_name(st, seat),
                    ),
                )


def remember_start(st: dict) -> None:
    """The dashboard at the start (after the setup step): what Fix It Fast restores up to."""
    if on(st):
        for car in st["cars"]:
            if car.get("team"):
                car["ep0"], car["bp0"] = car["ep"], car["bp"]


def view(car: dict) -> dict:
    return {k: car[k] for k in ("driver", "team", "wear_tok", "blow_tok") if k in car}


def team_stat(team_id: str | None, key: str) -> int:
    t: dict[str, Any] = next((x for x in data()["teams"] if x["id"] == team_id), {}) if team_id else {}
    return int(t.get(key, 0))


def tokens(car: dict) -> None:
    """The Tyre Whisperer's tokens, new for each race."""
    d: dict[str, Any] = next((x for x in data()["drivers"] if x["id"] == car.get("driver")), {})
    if d.get("wear_tokens"):
        car["wear_tok"], car["blow_tok"] = d["wear_tokens"], d["blow_tokens"]
