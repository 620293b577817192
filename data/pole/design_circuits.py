"""Writes data/pole/circuits.json from the compact designs below (run by hand; not imported).

DESIGNED content: the real boards are not public. Each circuit is a loop of straights and corners
whose turns follow the real circuit's sequence and direction, so the drawn shape evokes it; the
cell counts are chosen so a lap takes 7-9 turns of ~8 MP, as the seed's examples suggest.

Segments: ["S", rows, lanes] or ["C", rows, angle (deg, + = right) or per-row list, technical, lanes].
lanes: 3, 2 (lanes 0-1, i.e. the track narrows to the left two) or 1 (lane 1 only).
The racing line of each corner is generated here by one rule (arrow on the outside lane of the
last straight row; shaded cells every 3 rows ending on the corner's last row; inside lane through
the first half, outside lane at the exit) and written out explicitly, so the JSON is the data.
"""

import json
from pathlib import Path

C = {
    "great_britain": dict(
        name="Great Britain",
        laps=5,
        dir=1,
        pit_side=2,
        lowgrip=[],
        segs=[
            ["S", 10, 3],
            ["C", 5, 45, False, 3],
            ["S", 4, 3],
            ["C", 8, 95, True, 3],
            ["S", 9, 3],
            ["C", 5, 60, False, 3],
            ["S", 3, 2],
            ["C", 5, -40, False, 2],
            ["C", 6, 75, False, 3],
            ["S", 11, 3],
            ["C", 6, 65, False, 3],
            ["S", 4, 3],
            ["C", 7, 60, True, 3],
            ["S", 6, 3],
        ],
        weather_a="DDLDDD LDDLHD DDLLDD DLHHLD DDLDDL LDDDLH",
        weather_b=6,
    ),
    "monaco": dict(
        name="Monaco",
        laps=6,
        dir=1,
        pit_side=2,
        lowgrip=[],
        segs=[
            ["S", 8, 3],
            ["C", 5, 70, True, 2],
            ["S", 5, 2],
            ["C", 5, -60, False, 2],
            ["S", 3, 2],
            ["C", 6, 80, True, 1],
            ["S", 7, 2],
            ["C", 4, 70, False, 2],
            ["S", 4, 2],
            ["C", 5, [-40, -40, 40, 40, 0], True, 1],
            ["S", 4, 2],
            ["C", 6, 110, False, 2],
            ["S", 3, 2],
            ["C", 5, 90, True, 2],
            ["S", 6, 3],
        ],
        weather_a="DDDLDD DLDDDD DDDDLD LDDDDH DDLDDD DDDLDD",
        weather_b=5,
    ),
    "brazil": dict(
        name="Brazil",
        laps=6,
        dir=-1,
        pit_side=0,
        lowgrip=[],
        segs=[
            ["S", 8, 3],
            ["C", 6, [-60, -40, 30, 30, 0, 0], True, 3],
            ["S", 4, 3],
            ["C", 5, -80, False, 3],
            ["S", 9, 3],
            ["C", 6, -110, False, 3],
            ["S", 3, 3],
            ["C", 5, 70, True, 2],
            ["S", 3, 3],
            ["C", 5, -90, False, 3],
            ["S", 4, 3],
            ["C", 5, -110, False, 3],
            ["S", 10, 3],
        ],
        weather_a="DLLDHD LDDLLD DDHLDD LLDDLH DDLDDL HLDDLD",
        weather_b=6,
    ),
    "china": dict(
        name="China",
        laps=5,
        dir=1,
        pit_side=2,
        lowgrip=[],
        segs=[
            ["S", 9, 3],
            ["C", 11, 200, True, 3],
            ["S", 5, 3],
            ["C", 5, -60, False, 3],
            ["S", 6, 3],
            ["C", 5, 90, False, 3],
            ["S", 3, 3],
            ["C", 6, 60, False, 3],
            ["S", 14, 3],
            ["C", 6, 170, True, 3],
            ["S", 4, 3],
            ["C", 5, -100, False, 3],
            ["S", 5, 3],
        ],
        weather_a="DDLDDD DLDDLD LDDDDH DDLLDD DLDDDL DDDHLD",
        weather_b=6,
    ),
    "spain": dict(
        name="Spain",
        laps=5,
        dir=1,
        pit_side=2,
        lowgrip=[],
        segs=[
            ["S", 11, 3],
            ["C", 5, [40, 40, -20, -20, 0], True, 3],
            ["S", 3, 3],
            ["C", 7, 80, False, 3],
            ["S", 7, 3],
            ["C", 5, 80, False, 3],
            ["S", 5, 3],
            ["C", 5, -40, False, 3],
            ["S", 4, 3],
            ["C", 5, 90, False, 3],
            ["S", 4, 2],
            ["C", 6, [40, 40, -30, -30, 40, 50], True, 2],
            ["S", 6, 3],
        ],
        weather_a="DDDDLD DDLDDD DDDDDL DLDDDD DDDLDD LDDDDD",
        weather_b=5,
    ),
    "usa": dict(
        name="USA",
        laps=5,
        dir=-1,
        pit_side=0,
        lowgrip=[],
        segs=[
            ["S", 7, 3],
            ["C", 5, -150, True, 3],
            ["S", 3, 3],
            ["C", 8, [30, -30, 30, -30, 30, -30, 20, -20], False, 3],
            ["S", 3, 3],
            ["C", 5, -90, False, 3],
            ["S", 4, 3],
            ["C", 5, 80, False, 2],
            ["S", 14, 3],
            ["C", 5, -90, True, 3],
            ["S", 4, 3],
            ["C", 7, -110, False, 3],
            ["S", 6, 3],
        ],
        weather_a="DDLDDD LDDDLD DDDLDD DLDDDH DDLDDD LDDHDD",
        weather_b=6,
    ),
    "italy": dict(
        name="Italy",
        laps=6,
        dir=1,
        pit_side=2,
        lowgrip=[[1, 0], [1, 1], [6, 0], [6, 1]],
        segs=[
            ["S", 14, 3],
            ["C", 5, [-50, 0, 60, 0, 0], True, 2],
            ["C", 6, 20, False, 3],
            ["S", 5, 3],
            ["C", 4, [-30, 0, 30, 0], True, 2],
            ["S", 3, 3],
            ["C", 5, 90, False, 3],
            ["C", 4, 60, False, 3],
            ["S", 13, 3],
            ["C", 5, [-30, 30, 20, 20, 0], False, 3],
            ["S", 8, 3],
            ["C", 8, 140, False, 3],
            ["S", 7, 3],
        ],
        weather_a="DDDLDD DLDDDD DDLDLD DDDDHL LDDDDD DDLDDD",
        weather_b=5,
    ),
    "germany": dict(
        name="Germany",
        laps=5,
        dir=1,
        pit_side=2,
        lowgrip=[[1, 1], [1, 2], [4, 0]],
        segs=[
            ["S", 8, 3],
            ["C", 5, 80, False, 3],
            ["S", 5, 3],
            ["C", 6, 130, True, 3],
            ["S", 14, 3],
            ["C", 5, [-30, -30, 30, 30, 0], False, 3],
            ["S", 5, 3],
            ["C", 5, 60, False, 3],
            ["S", 4, 3],
            ["C", 7, 100, True, 3],
            ["S", 3, 3],
            ["C", 5, -80, False, 3],
            ["S", 4, 3],
            ["C", 5, 70, False, 3],
            ["S", 6, 3],
        ],
        weather_a="DLDDLD DDLHDD LDDDLD DLDDDL HDDLDD DDLDHD",
        weather_b=6,
    ),
}


def lanes_of(n):
    return {3: [0, 1, 2], 2: [0, 1], 1: [1]}[n]


def build(key, d):
    out = []
    seq = []
    for s in d["segs"]:  # a corner's double arrow lies on a straight row: two corners in a row
        if seq and s[0] == "C" and seq[-1][0] == "C":  # get a short straight between them
            seq.append(["S", 2, s[4]])
        seq.append(s)
    for s in seq:
        if s[0] == "S":
            out.append({"kind": "straight", "rows": s[1], "lanes": lanes_of(s[2])})
        else:
            _, n, ang, tech, nl = s
            lanes = lanes_of(nl)
            angles = ang if isinstance(ang, list) else [ang / n] * n
            assert len(angles) == n, key
            turn = 1 if sum(angles) > 0 or (sum(angles) == 0 and angles[0] > 0) else -1
            outer = lanes[0] if turn > 0 else lanes[-1]
            inner = lanes[-1] if turn > 0 else lanes[0]
            prev = out[-1]
            assert prev["kind"] == "straight", key
            arrow = outer if outer in prev["lanes"] else prev["lanes"][0]
            offs = list(range(n - 1, -1, -3))[::-1]
            line = []
            for i, o in enumerate(offs):
                ln = outer if i == len(offs) - 1 else (inner if i >= (len(offs) - 1) // 2 else (lanes[len(lanes) // 2]))
                line.append([o, ln])
            out.append(
                {
                    "kind": "corner",
                    "rows": n,
                    "lanes": lanes,
                    "angles": angles,
                    "technical": tech,
                    "arrow_lane": arrow,
                    "line": line,
                }
            )
    rows = sum(x["rows"] for x in out)
    corner_rows, at = [], 0
    for x in out:
        if x["kind"] == "corner":
            corner_rows.append(range(at, at + x["rows"]))
        at += x["rows"]
    total = sum(sum(x.get("angles", [0])) for x in out)
    assert abs(total - 360 * d["dir"]) < 1e-6, (key, total)
    first = out[0]
    last = out[-1]
    assert first["kind"] == "straight" and last["kind"] == "straight"
    side = d["pit_side"]
    circuit = {
        "name": d["name"],
        "laps": d["laps"],
        "direction": "clockwise" if d["dir"] > 0 else "anticlockwise",
        "segments": out,
        # Start/finish: the finish line lies just before row 0. The grid fills the first rows of
        # the start straight; the odd grid rows are the brown dashed subdivisions (lap 1 only).
        "brown_rows": [1, 3, 5],
        "grid": [[5, 0], [4, 2], [3, 0], [2, 2], [1, 0], [0, 2]]
        if side == 2
        else [[5, 2], [4, 0], [3, 2], [2, 0], [1, 2], [0, 0]],
        "pit": {
            "side": side,
            "entry_row": rows - 5,
            "entry_cells": 3,
            "entry_rain_cells": 1,
            "exit_cells": 2,
            "exit_rain_cells": 1,
            "merge_row": 6,
        },
        "drs_row": 1,
        "sc_row": rows - 2,
        # low grip: given as (corner index, lane): every cell of that corner in that lane
        "low_grip": [[r, ln] for ci, ln in d["lowgrip"] for r in corner_rows[ci]],
        "weather_a": d["weather_a"].split(),
        "weather_b": d["weather_b"],
    }
    return circuit


def main():
    res = {
        "designed": "All circuit content here is designed (see design_circuits.py); the seed gives "
        "only the generic structure (3 lanes, corners, racing line, pits).",
        "circuits": {k: build(k, d) for k, d in C.items()},
    }
    p = Path(__file__).with_name("circuits.json")
    p.write_text(json.dumps(res, ensure_ascii=False, indent=1) + "\n", "utf-8")
    for k, c in res["circuits"].items():
        print(k, sum(s["rows"] for s in c["segments"]))


if __name__ == "__main__":
    main()
