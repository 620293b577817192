"""The world championship (seed 002, section 15), table options.

One game holds the whole season: `championship: N` (4-8 races) runs N races in the same thread,
the chosen circuit first and then the next ones in the rulebook's order (designed). After each
race but the last, a standings step: the board shows the standings and each player presses
"Next race" (with engine damage, 15.1, they may fit a new engine there and start from the back of
the grid; a third 0-EP finish forces it). Points tables: data/pole/championship.json (designed).
Drivers and teams are kept for the season (designed). Ties: most wins, then most 2nd places...

Constructors (15.2, `constructors:`, in a single race too): the cars form teams of two in seat
order; a team's points are added; a car may not enter the pits while its team-mate is still in
them (designed reading of "waits until the team-mate's car leaves the pit").
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from bot.games.base import GameError
import bot.games.pole.drivers as D
import bot.games.pole.standin as standin
from bot.games.pole.content import CIRCUIT_KEYS, DATA_DIR, circuits
from bot.games.pole.common import car_name, human, log
from bot.i18n import Msg, msg


@lru_cache(maxsize=1)
def data() -> dict:
    d = json.loads((DATA_DIR / "championship.json").read_text("utf-8"))
    ok = (
        len(d["points"]) == 6
        and len(d["final_points"]) == 6
        and d["points"] == sorted(d["points"], reverse=True)
        and d["final_points"] == sorted(d["final_points"], reverse=True)
    )
    if not ok:
        raise ValueError("data/pole/championship.json: two points tables for 6 places")
    return d


def validate(options: dict[str, Any], out: dict[str, Any]) -> None:
    n = options.get("championship") or 0  # its spec keeps it a whole number from 0 to 8
    if n:
        if n < 4:
            raise GameError(msg("A championship has 4 to 8 races."))
        out["championship"] = n
    if options.get("engine_damage"):
        if not n:
            raise GameError(msg("Engine damage is a championship rule."))
        if options.get("custom_setup"):  # 15.1: "this rule is not compatible with rule 13.1"
            raise GameError(msg("Engine damage cannot be combined with custom setup."))
        out["engine_damage"] = True
    if options.get("constructors"):
        out["constructors"] = True


def season_circuits(first: str, n: int) -> list[str]:
    i = CIRCUIT_KEYS.index(first)
    return [CIRCUIT_KEYS[(i + k) % len(CIRCUIT_KEYS)] for k in range(n)]


def begin(st: dict) -> None:
    n = st["options"].get("championship")
    if n:
        st["season"] = {
            "races": season_circuits(st["options"]["circuit"], n),
            "i": 0,
            "points": [0] * st["seats"],
            "results": [],
            "damage": [0] * st["seats"],
            "new_engine": [],
        }


def teams(n: int) -> list[list[int]]:
    return [list(range(i, min(i + 2, n))) for i in range(0, n, 2)]


def mate(st: dict, seat: int) -> int | None:
    if not st["options"].get("constructors"):
        return None
    for t in teams(st["seats"]):
        if seat in t and len(t) == 2:
            return t[0] if t[1] == seat else t[1]
    return None


def restrict(st: dict, opts: list[dict]) -> list[dict]:
    """15.2: no entering the shared pit while the team-mate is still in it."""
    t = st["turn"]
    m = mate(st, t["seat"]) if t else None
    if m is None or not st["cars"][m]["pos"] or st["cars"][m]["pos"][0] not in ("pit", "g"):
        return opts
    return [o for o in opts if o["kind"] != "pit"]


def race_points(st: dict, final: bool) -> list[int]:
    table = data()["final_points" if final else "points"]
    pts = [0] * st["seats"]
    for k, s in enumerate(st["finish"]):
        if k < len(table):
            pts[s] = table[k]
    return pts


def _rank_key(points: int, places: list[int]):
    return (-points, *[-places.count(p) for p in range(1, 7)])


def standings(st: dict) -> list[int]:
    """Seats best first: points, then most wins, most 2nd places..."""
    se = st["season"]
    places = {s: [r["finish"].index(s) + 1 for r in se["results"] if s in r["finish"]] for s in range(st["seats"])}
    return sorted(range(st["seats"]), key=lambda s: (*_rank_key(se["points"][s], places[s]), s))


def constructors(st: dict) -> list[dict]:
    """Teams best first with their points (the season's, or this race's in a single race)."""
    if st.get("season"):
        se = st["season"]
        pts = se["points"]
        places = {s: [r["finish"].index(s) + 1 for r in se["results"] if s in r["finish"]] for s in range(st["seats"])}
    else:
        pts = race_points(st, False)
        places = {s: [st["finish"].index(s) + 1] if s in st["finish"] else [] for s in range(st["seats"])}
    out = [
        {"seats": t, "points": sum(pts[s] for s in t), "places": [p for s in t for p in places[s]]}
        for t in teams(st["seats"])
    ]
    out.sort(key=lambda x: (*_rank_key(x["points"], x["places"]), x["seats"][0]))
    return [{"seats": x["seats"], "points": x["points"]} for x in out]


def after_apply(st: dict, rng, ev: list) -> None:
    """When a race of the season ends: points, engine damage, then the standings step (or the
    end of the season)."""
    se = st.get("season")
    if not se or st["phase"] != "over" or len(se["results"]) > se["i"]:
        return
    final = se["i"] == len(se["races"]) - 1
    standin.restore_all(st)  # the race is over: every car a bot drove for a player is the player's again
    pts = race_points(st, final)
    for s in range(st["seats"]):
        se["points"][s] += pts[s]
    se["results"].append({"circuit": st["circuit"], "finish": list(st["finish"]), "points": pts})
    if st["options"].get("engine_damage") and not final:  # damage matters for the races still to come
        for s, car in enumerate(st["cars"]):
            if not car.get("bot") and car["ep"] == 0:  # 15.1: a race ended with 0 EP
                se["damage"][s] = min(3, se["damage"][s] + 1)
                log(
                    st, ev, msg("{p} ends the race with 0 EP: engine damage {n}.", p=car_name(st, s), n=se["damage"][s])
                )
    log(st, ev, msg("Race {i} of {n} is over.", i=se["i"] + 1, n=len(se["races"])))
    if not final:
        st["phase"] = "standings"
        st["next"] = {}
        st["turn"] = None


def to_act(st: dict, human) -> list[int]:
    return [s for s in range(st["seats"]) if human(st, s) and str(s) not in st["next"]]


def actions(st: dict, seat: int) -> list[dict]:
    dmg = st["season"]["damage"][seat]
    if st["options"].get("engine_damage") and dmg >= 3:
        return [{"type": "next", "engine": True}]  # 15.1: a third damaged engine must be changed
    out = [{"type": "next", "engine": False}]
    if st["options"].get("engine_damage") and dmg > 0:
        out.append({"type": "next", "engine": True})
    return out


def label(st: dict, seat: int, action: dict) -> Msg:
    if action["engine"]:
        return msg("Next race with a new engine (start from the back)")
    dmg = st["season"]["damage"][seat]
    if dmg:
        return msg("Next race (engine damage: {n} EP less)", n=dmg)
    return msg("Next race")


def choose(eng, st: dict, rng, ev: list, seat: int, action: dict) -> None:
    st["next"][str(seat)] = bool(action["engine"])
    if not to_act(st, human):
        start_next(eng, st, rng, ev)


def start_next(eng, st: dict, rng, ev: list) -> None:
    """The next race: a fresh race state for the next circuit, with the season, the players'
    drivers and teams, fight preferences and engine damage carried over."""
    se = dict(st["season"])
    new_engine = sorted(int(s) for s, e in st["next"].items() if e)
    se["damage"] = [0 if s in new_engine else d for s, d in enumerate(se["damage"])]
    se["i"] += 1
    se["new_engine"] = new_engine
    humans = sum(1 for c in st["cars"] if not c.get("bot"))
    opts = dict(st["options"], circuit=se["races"][se["i"]])
    nxt = eng.new_game(opts, humans, rng.below(2**31))
    for s, car in enumerate(nxt["cars"]):
        old = st["cars"][s]
        if car.get("bot"):
            continue
        if old.get("team"):  # drivers and teams stay for the season
            for key in ("ep", "bp"):
                car[key] -= D.team_stat(car.get("team"), key)
                car[key] += D.team_stat(old["team"], key)
            car["driver"], car["team"] = old["driver"], old["team"]
            car.pop("wear_tok", None)
            car.pop("blow_tok", None)
            D.tokens(car)
        if se["damage"][s]:  # 15.1: 1 EP less after one damaged engine, 2 after two
            car["ep"] = max(0, car["ep"] - min(2, se["damage"][s]))
    nxt["prefs"] = st["prefs"]
    nxt["log"] = (st["log"] + nxt["log"])[-30:]
    nxt["turn_no"] += st["turn_no"] + 1
    nxt["version"] = st["version"]
    nxt["season"] = se
    for s in new_engine:
        log(nxt, ev, msg("{p} fits a new engine and will start from the back.", p=car_name(nxt, s)))
    log(
        nxt,
        ev,
        msg(
            "Race {i} of {n}: {circuit}.",
            i=se["i"] + 1,
            n=len(se["races"]),
            circuit=msg(eng_circuit_name(opts["circuit"])),
        ),
    )
    st.clear()
    st.update(nxt)


def eng_circuit_name(key: str) -> str:
    return circuits()[key].name


def grid(st: dict, grid: list[int], rng) -> list[int]:
    """15.1: players with a new engine start from the back (their order by a die roll)."""
    se = st.get("season")
    if not se or not se.get("new_engine"):
        return grid
    back = [s for s in grid if s in se["new_engine"]]
    if len(back) > 1:
        rng.shuffle(back)
    return [s for s in grid if s not in back] + back


def placings(st: dict) -> list[int] | None:
    if not st.get("season"):
        return None
    order = standings(st)
    return [order.index(s) + 1 for s in range(st["seats"])]


def view(st: dict) -> dict | None:
    se = st.get("season")
    out: dict[str, Any] = {}
    if se:
        out["season"] = {
            "races": list(se["races"]),
            "i": se["i"],
            "points": list(se["points"]),
            "results": [dict(r) for r in se["results"]],
            "damage": list(se["damage"]),
            "standings": standings(st),
        }
        if st["phase"] == "standings":
            out["season"]["chosen"] = sorted(int(s) for s in st["next"])
    if st["options"].get("constructors"):
        out["constructors"] = constructors(st)
    return out or None
