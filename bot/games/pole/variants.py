"""The variants (seed 002, section 16), table options.

No retirements (16.1): a car that takes more breakdown points than it can hold (or a second
unrepaired breakdown), or must lose an EP / BP it does not have, is not out: it must pit as soon
as it can (the pit stop is then its only move whenever the pit lane is in reach). The points stay
on its dashboard (repairs turn breakdowns green but do not remove them), so from then on every
new breakdown sends it back to the pits, as the seed says.

Long race (16.2): twice the circuit's laps (the circuit key gets "@long", see content.circuits),
12 EP, 12 BP, 15 SP, 4 breakdown points, the safety car moves the lap counter one space more, and
the second hard set ("12") is available.

Team immunity to breakdown events (appendix 2) is asked here too (drivers and teams, when built).
"""

from __future__ import annotations

import json
from functools import lru_cache

from bot.games.pole.content import DATA_DIR, rules
import bot.games.pole.drivers as D
from bot.games.pole.common import car_name, log
from bot.i18n import msg


@lru_cache(maxsize=1)
def data() -> dict:
    d = json.loads((DATA_DIR / "variants.json").read_text("utf-8"))
    lr = d["long_race"]
    if lr != {
        "laps_factor": 2,
        "ep": 12,
        "bp": 12,
        "sp": 15,
        "max_breakdown_points": 4,
        "sc_extra_laps": 1,
        "hard_sets": 2,
    }:
        raise ValueError("data/pole/variants.json: the long race of 16.2")
    return d


def long_race(st_or_opts: dict) -> bool:
    opts = st_or_opts.get("options", st_or_opts)
    return bool(opts.get("long_race"))


def circuit_key(options: dict) -> str:
    return options["circuit"] + ("@long" if options.get("long_race") else "")


def start_car(options: dict, car: dict) -> None:
    """16.2: the long race's dashboard and the second hard set."""
    if options.get("long_race"):
        lr = data()["long_race"]
        car["ep"], car["bp"], car["sp"], car["sp0"] = lr["ep"], lr["bp"], lr["sp"], lr["sp"]
        car["sets"]["hard"] = [rules()["tyres"]["hard"]["life"]] * lr["hard_sets"]


def max_breakdown_points(st: dict, seat: int) -> int:
    base = data()["long_race"]["max_breakdown_points"] if long_race(st) else rules()["max_breakdown_points"]
    return base + D.extra_breakdown_points(st, seat)


def sc_extra_laps(st: dict) -> int:
    return data()["long_race"]["sc_extra_laps"] if long_race(st) else 0


def immune_to_breakdown_events(st: dict, seat: int) -> bool:
    return D.immune_to_breakdown_events(st, seat)


def breakdown(st: dict, ev: list, seat: int, kind: str) -> None:
    """7: a light or heavy breakdown; too many breakdown points, or a second one not yet repaired,
    retire the car (unless no retirements sends it to the pits, 16.1)."""
    car = st["cars"][seat]
    car["bd"].append([kind, False])
    pts = sum(2 if k == "heavy" else 1 for k, _ in car["bd"])
    unrep = sum(1 for _, rep in car["bd"] if not rep)
    log(
        st,
        ev,
        msg(
            "{p} suffers a {kind} breakdown.",
            p=car_name(st, seat),
            kind=msg("heavy") if kind == "heavy" else msg("light"),
        ),
    )
    if (pts > max_breakdown_points(st, seat) or unrep >= 2) and not instead_of_retiring(st, ev, seat):  # 16.1
        car["out"] = "breakdown"
        log(st, ev, msg("{p} retires with too many breakdowns.", p=car_name(st, seat)))


def instead_of_retiring(st: dict, ev: list, seat: int) -> bool:
    """16.1: True when the car must pit instead of retiring (the variant is on)."""
    if not st["options"].get("no_retire"):
        return False
    car = st["cars"][seat]
    car["must_pit"] = True
    if car.get("bot"):
        car["bot"]["pit"] = True
    log(st, ev, msg("{p} is not out (no retirements) but must pit as soon as possible.", p=car_name(st, seat)))
    return True


def pitted(car: dict) -> None:
    car.pop("must_pit", None)


def restrict(st: dict, opts: list[dict]) -> list[dict]:
    """A car that must pit: when the pit lane is in reach, the stop is its only move."""
    t = st["turn"]
    if not t or not st["cars"][t["seat"]].get("must_pit"):
        return opts
    pit = [o for o in opts if o["kind"] == "pit" or o["pos"][0] == "pin"]
    return pit or opts
