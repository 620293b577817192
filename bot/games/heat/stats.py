"""Heat's end-of-game statistics (issue #35), like Board Game Arena's: positions, speeds, Heat
paid, spin-outs, boosts, slipstreams, rounds per gear. Read from the replayed game: each car's round
record (its `rd`, kept in the state until the next round) as it stood last in each round, and the
race order each round was played in (`last_order`, Legends' cars included)."""

from __future__ import annotations

from typing import Any

from bot.games.base import Engine, State
from bot.games.stats import Step, places_row, row
from bot.i18n import msg

GEARS = (1, 2, 3, 4)


def compute(engine: Engine, first: State, steps: list[Step]) -> dict[str, Any]:
    seats = first["seats"]
    final = steps[-1][3] if steps else first
    records: dict[tuple[int, int], dict] = {}  # (seat, round): the car's round record as it ended
    orders: list[list[int]] = []  # the race order each round was played in
    for before, _, _, after, _ in steps:
        for seat, car in enumerate(after["cars"][:seats]):
            rd = car.get("rd")
            if rd:
                records[(seat, rd["round"])] = rd
        if before["round"] != after["round"] and after.get("last_order"):
            orders.append(list(after["last_order"]))
    mine = [[rd for (s, _), rd in sorted(records.items()) if s == seat] for seat in range(seats)]
    gears = [[0] * len(GEARS) for _ in range(seats)]
    for seat, rds in enumerate(mine):
        for rd in rds:
            for key, params in rd.get("lines", []):
                if key == "Gear {g}: {cards} = speed {s}" and params.get("g") in GEARS:
                    gears[seat][params["g"] - 1] += 1
    speeds = [[rd["speed"] for rd in rds if isinstance(rd.get("speed"), int)] for rds in mine]
    grid = first.get("grid_order") or list(range(seats))
    positions = [[o.index(seat) + 1 for o in orders if seat in o] for seat in range(seats)]
    rows = [
        places_row(engine, final, seats),
        row(msg("Grid position"), [grid.index(s) + 1 if s in grid else "—" for s in range(seats)], best=None),
        row(msg("Rounds in the lead"), [sum(p == 1 for p in ps) for ps in positions]),
        row(msg("Average position"), [round(sum(ps) / len(ps), 1) if ps else "—" for ps in positions], best="min"),
        row(msg("Top speed"), [max(speeds[s], default="—") for s in range(seats)]),
        row(msg("Average speed"), [round(sum(v) / len(v), 1) if v else "—" for v in speeds]),
        row(msg("Heat paid"), [sum(rd.get("heat", 0) for rd in rds) for rds in mine], best="min"),
        row(msg("Spin-outs"), [sum(bool(rd.get("spun")) for rd in rds) for rds in mine], best="min"),
        row(msg("Boosts"), [sum(bool(rd.get("boost")) for rd in rds) for rds in mine]),
        row(msg("Slipstreams"), [sum(bool(rd.get("slip")) for rd in rds) for rds in mine]),
        row(msg("Heat cooled down"), [sum(rd.get("cool", 0) for rd in rds) for rds in mine]),
    ]
    for g in GEARS:
        rows.append(
            row(
                msg("Gear {g}", g=g),
                [gears[s][g - 1] for s in range(seats)],
                best=None,
                section=msg("Rounds per gear") if g == 1 else None,
            )
        )
    return {"title": msg("Heat — statistics"), "rows": rows}
