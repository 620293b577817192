"""Build data/rallyman/tiles.json and stages.json from the team's research files.

Run by hand (python data/rallyman/convert.py /path/to/research); the game reads only the JSON it
writes. Tile layouts (rows, corners, slides, features) come from the research reading of the core
tile images; tiles the research gives no layout for (3xx, 4xx, Climb) get a layout designed from
their edges and pace notes, marked "designed" in the output.

Compact tile format: "e" = the two road edges E1E2, "seq" = segments from E1 to E2:
  "r"            a row of two lanes          "r j3" / "r w"  with a jump 3 / water
  "s"            a slide row (dotted)         "m5"            one full-width space, limit 5
  "C o3@2 i1@1 x2" a corner: outer lane 3 spaces limit 2, inner 1 space limit 1, shortcut 2
                 ("x5*2": a shortcut two spaces long)
  "S|" / "F|"    the start / finish line between the neighbouring rows
"t" = the turn of each corner in order, R or L, seen driving from E1 to E2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

EDGES = "ABCDEF"
OUT = Path(__file__).resolve().parent
DANGER = {"low/yellow": "y", "medium/orange": "o", "high/red": "r"}


def opp(e: str) -> str:
    return EDGES[(EDGES.index(e) + 3) % 6]


def turn(e0: str, e1: str, conn0: str | None) -> str:
    k = (EDGES.index(e1) - EDGES.index(opp(e0))) % 6
    if k in (1, 2):
        return "R"
    if k in (4, 5):
        return "L"
    return "R" if conn0 == "right" else "L"


def limits(notes: list[str]) -> list[int]:
    return sorted(int(n.split()[1]) for n in notes if n.startswith("speed_limit"))


def note_val(notes: list[str], word: str) -> int | None:
    for n in notes:
        if n.startswith(word + " "):
            return int(n.split()[1])
    return None


def corner_tok(o: int, ol: int, i: int, il: int, sc: int | None, sc_len: int = 1) -> str:
    tok = f"C o{o}@{ol} i{i}@{il}"
    if sc is not None:
        tok += f" x{sc}" + (f"*{sc_len}" if sc_len > 1 else "")
    return tok


def core_layout(t: dict) -> tuple[list[str], str]:
    """Layout of a 2xx side from the research reading of the tile image (U in research)."""
    lay = t["layout_from_tile_image"]
    e = "".join(t["road_edges"])
    kind = lay["kind"]
    if kind == "straight":
        rows = ["r"] * lay["rows_of_2_lanes"]
        if "jump" in lay:
            rows[lay["jump"]["row"] - 1] = f"r j{lay['jump']['value']}"
        if "water" in lay:
            rows[lay["water"]["row"] - 1] = "r w"
        for key, mark in (("start_line", "S|"), ("finish_line", "F|")):
            if key in lay:
                rows.insert(int(lay[key].split()[2]), mark)  # "between row k and row k+1"
        return rows, e
    if kind == "bend_no_limit":
        rows = ["r"] * lay["rows_of_2_lanes"]
        if "water" in lay:
            rows[lay["water"]["row"] - 1] = "r w"
        if "jump" in lay:  # 209b: counted from edge B, which is E1
            rows[lay["jump"]["row"] - 1] = f"r j{lay['jump']['value']}"
        return rows, e
    if kind == "wiggle_straight":
        return ["r", f"m{limits(t['pacenotes'])[0]}", "r"], e
    sc = lay.get("shortcut")
    if kind == "double_corner":
        c = [
            corner_tok(
                x["outer_lane"]["spaces"],
                x["outer_lane"]["limit"],
                x["inner_lane"]["spaces"],
                x["inner_lane"]["limit"],
                sc and sc["value"],
            )
            for x in lay["corners"]
        ]
        return ["s", c[0], "s", c[1], "s"], e
    c = lay["corner"]
    tok = corner_tok(
        c["outer_lane"]["spaces"],
        c["outer_lane"]["limit"],
        c["inner_lane"]["spaces"],
        c["inner_lane"]["limit"],
        sc and sc["value"],
        (sc or {}).get("spaces", 1),
    )
    seq = ["s", tok, "s"]
    if lay.get("shape") == "long hairpin with 2-row arms":
        seq = ["r", "s", tok, "s", "r"]
    where = " ".join(str(lay.get(k, {}).get("where", "")) for k in ("jump", "water"))
    e0, e1 = t["road_edges"]
    feats = []
    if "jump" in lay:
        feats.append(f"r j{lay['jump']['value']}")
    if "water" in lay:
        feats.append("r w")
    if feats:  # the arm named in the research gets the feature rows, outermost first
        arm = e0 if f"edge-{e0}" in where else e1
        if arm == e0:
            seq = feats + seq
        else:
            seq = seq + feats[::-1]
    return seq, e


def designed_layout(t: dict, e0: str, e1: str) -> list[str]:
    """A layout for a side the research has no space reading for: like the core tile of the same
    shape (designed)."""
    notes = t["pacenotes"]
    lim = limits(notes)
    conn = t["connections"].get(e0, {})
    k = (EDGES.index(e1) - EDGES.index(opp(e0))) % 6
    jump, water, sc = note_val(notes, "jump"), "water" in notes, note_val(notes, "shortcut")
    if not lim:
        rows = ["r", "r", "r"]
        if jump is not None:
            rows[1] = f"r j{jump}"
        if water:
            rows[0] = "r w"
        if t["num"] in (301,):
            rows.insert(1, "S|")
        if t["num"] in (302,):
            rows.insert(1, "F|")
        return rows
    lo, hi = lim[0], lim[-1]
    if (
        k == 0
        and conn.get("type") == "right"
        and t["connections"].get(e1, {}).get("type") == "right"
        and t["num"] != 231
    ):
        return ["s", corner_tok(3, hi, 1, lo, sc), "s", corner_tok(3, hi, 1, lo, sc), "s"]
    if k == 0 and len(lim) == 1:
        return ["r", f"m{lo}", "r"]
    return ["s", corner_tok(3, hi, 1, lo, sc), "s"]


def main(research: Path) -> None:
    tiles_raw = {t["id"]: t for t in json.loads((research / "rallyman_tiles.json").read_text())["tiles"]}
    stages_raw = json.loads((research / "rallyman_stages.json").read_text())["stages"]
    used: dict[str, set[tuple[str, str]]] = {}
    for st in stages_raw.values():
        for x in st["road_tiles_in_driving_order"]:
            used.setdefault(x["tile"], set()).add(tuple(sorted((x["entry"], x["exit"]))))
    tiles: dict[str, dict] = {}
    for tid, t in sorted(tiles_raw.items()):
        if not t.get("danger") or len(t["road_edges"]) < 2:
            continue
        if t["num"] >= 900:
            continue
        base = {"d": DANGER[t["danger"]], "terrain": t["terrain"]}
        if t.get("layout_from_tile_image") and t["num"] < 300:
            seq, e = core_layout(t)
            e0, e1 = e
            base.update(e=e, seq=seq, src="research")
            base["t"] = "".join(
                turn(e0, e1, t["connections"][e0].get("type"))
                if i == 0
                else ("L" if base.get("t", "R")[0] == "R" else "R")
                for i, s in enumerate(x for x in seq if x.startswith("C"))
            )
            if len(base["t"]) == 2:  # two hairpins in opposite directions
                base["t"] = base["t"][0] + ("L" if base["t"][0] == "R" else "R")
            tiles[tid] = base
            continue
        pairs = sorted(used.get(tid, set())) or ([tuple(t["road_edges"])] if len(t["road_edges"]) == 2 else [])
        for e0, e1 in pairs:
            seq = designed_layout(t, e0, e1)
            key = tid if len(t["road_edges"]) == 2 else f"{tid}:{e0}{e1}"
            n_c = sum(1 for s in seq if s.startswith("C"))
            first = turn(e0, e1, t["connections"].get(e0, {}).get("type"))
            tt = first if n_c == 1 else (first + ("L" if first == "R" else "R") if n_c == 2 else "")
            tiles[key] = dict(base, e=e0 + e1, seq=seq, t=tt, src="designed")
    stages: dict[str, dict] = {}
    for name, st in stages_raw.items():
        road = []
        for x in st["road_tiles_in_driving_order"]:
            tid = x["tile"]
            key = tid if tid in tiles else f"{tid}:{''.join(sorted((x['entry'], x['exit'])))}"
            if key not in tiles:
                key = f"{tid}:{x['exit']}{x['entry']}" if f"{tid}:{x['exit']}{x['entry']}" in tiles else key
            assert key in tiles, (name, tid)
            road.append([key, x["q"], x["r"], x["rot"], x["entry"] + x["exit"]])
        stages[name] = {"road": road}
    (OUT / "tiles.json").write_text(
        json.dumps(
            {
                "about": "Rallyman: DIRT tile sides (own compact format, see convert.py). src=research: layout "
                "read from the printed tiles by the research; src=designed: no reading exists, the "
                "layout follows the core tile of the same shape.",
                "tiles": tiles,
            },
            ensure_ascii=False,
            indent=0,
            sort_keys=True,
        )
        + "\n"
    )
    (OUT / "stages.json").write_text(
        json.dumps(
            {
                "about": "34 stages in driving order: [tile, q, r, rot, entry+exit]; axial flat-top hexes, "
                "neighbours N=(0,1) NE=(1,0) SE=(1,-1) S=(0,-1) SW=(-1,0) NW=(-1,1); local edge k faces "
                "world direction (rot+k)%6 of N,NE,SE,S,SW,NW.",
                "stages": stages,
            },
            ensure_ascii=False,
            indent=0,
        )
        + "\n"
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]))
