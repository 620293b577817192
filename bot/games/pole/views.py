"""What leaves the engine: the view of a seat or a spectator, the labels of moves, the menu of
selects and buttons, and the suggested entry of "Where to?"."""

from __future__ import annotations

from typing import Any

import bot.games.pole.bots as BOTS
import bot.games.pole.championship as CHAMP
import bot.games.pole.custom as CUSTOM
import bot.games.pole.drivers as DRIVERS
import bot.games.pole.events as EVENTS
import bot.games.pole.rules as R
import bot.games.pole.specials as SPECIALS
import bot.games.pole.standin as STANDIN
import bot.games.pole.waiting as WAIT
from bot.games.base import State, View
from bot.games.pole.common import car_name, tyre_name
from bot.games.pole.content import circuits
from bot.i18n import Msg, msg


def describe_action(state: State, seat: int, action: dict[str, Any]) -> Msg:
    a = action.get("type")
    if a == "move":
        o = state["turn"]["opts"][action["i"]]
        return opt_label(state, o)
    if a == "quali":
        return msg("Spend 1 SP for two more rolls") if action["reroll"] else msg("Keep my roll")
    if a == "tyre" and action.get("swap"):
        return msg("Fit {t} tyres, {swap}", t=tyre_name(action["tyre"]), swap=CUSTOM.swap_label(action["swap"]))
    if a == "setup":
        return CUSTOM.label(state, seat, action)
    if a == "next":
        return CHAMP.label(state, seat, action)
    if a == "sc" and action.get("swap"):
        return msg(
            "Pit under the safety car: {t} tyres, {swap} (to the back)",
            t=tyre_name(action["tyre"]),
            swap=CUSTOM.swap_label(action["swap"]),
        )
    if a == "tyre":
        return msg("Fit {t} tyres", t=tyre_name(action["tyre"]))
    if (
        a == "reroll"
        and state["phase"] == "race"
        and state["turn"]
        and DRIVERS.free_reroll(state, seat, R.weather_now(state["weather"], circuits()[state["circuit"]]))
    ):
        return msg("Reroll (free, team)")
    if a == "reroll":
        return msg("Reroll (1 SP)")
    if a == "wear_token":
        return msg("Spend a wear token: +1 MP ({n} left)", n=state["cars"][seat].get("wear_tok", 0) - 1)
    if a == "calm":
        return msg(
            "Calm down: {n} MP less, stress {s}",
            n=3 if state["turn"]["die"] in ("red", "white") else 2,
            s=state["cars"][seat]["stress"] - 1,
        )
    if a == "use":
        rolls = state["turn"]["rolls"]
        if rolls.count(rolls[action["i"]]) > 1:  # the same number twice: which roll it was
            return msg("Use roll {r} ({k} of {n})", r=str(rolls[action["i"]]), k=action["i"] + 1, n=len(rolls))
        return msg("Use roll {r}", r=str(rolls[action["i"]]))
    if a == "reduce":
        return msg("Spend {n} SP to take {n} off the roll", n=action["sp"])
    if a == "off":
        return msg("Go off the track (4 cells)")
    if a == "stay":
        return msg("Stay (no move possible)")
    if a == "sc":
        if not action["tyre"]:
            return msg("Stay out (keep my place in the line)")
        return msg("Pit under the safety car: {t} tyres (to the back)", t=tyre_name(action["tyre"]))
    if a == "crash":
        if action["reroll"]:
            return msg("Roll the collision die again (1 SP, keep the lower)")
        r = state["turn"]["fight"]["crash"]["rolls"][str(seat)]
        return msg("Keep collision roll {r}", r=r)
    if a == "yield":
        return msg("Let them through")
    if a == "fight":
        return msg("Fight for the position")
    if a == "defend":
        return msg("Defend, bidding up to {n} SP", n=action["max"])
    if a == "attack":
        return msg("Attack, bidding up to {n} SP", n=action["max"])
    if a == "prefs" and action.get("preset") in WAIT.PRESETS:
        return preset_label(action["preset"])
    return msg("Preferences")


def opt_label(st: State, o: dict) -> Msg:
    where = place_name(st, o)
    costs = []
    if o["ep"]:
        costs.append(msg("{n} EP", n=o["ep"]))
    if o["bp"]:
        costs.append(msg("{n} BP", n=o["bp"]))
    if o["sp"]:
        costs.append(msg("{n} SP", n=o["sp"]))
    cost = (
        msg("free")
        if not costs
        else costs[0]
        if len(costs) == 1
        else msg("{a}, {b}", a=costs[0], b=costs[1])
        if len(costs) == 2
        else msg("{a}, {b}, {c}", a=costs[0], b=costs[1], c=costs[2])
    )
    if o["kind"] == "fight":
        mod = R.unused_mp_modifier(o.get("unused", 0))
        if mod:
            return msg(
                "Attack {d} from {where} ({cost}; {n} MP left: +{m} on the die)",
                d=[car_name(st, x) for x in o["def"]],
                where=where,
                cost=cost,
                n=o["unused"],
                m=mod,
            )
        return msg("Attack {d} from {where} ({cost})", d=[car_name(st, x) for x in o["def"]], where=where, cost=cost)
    if o["kind"] == "pit":
        return msg("Pit stop ({cost})", cost=cost)
    if o["kind"] == "finish":
        return msg("Cross the finish line at {where} ({cost})", where=where, cost=cost)
    if o.get("risk"):
        return msg("{where} ({cost}), low grip: a 1 sends you off", where=where, cost=cost)
    return msg("{where} ({cost})", where=where, cost=cost)


def _car_view(s: int, car: dict[str, Any]) -> dict[str, Any]:
    """The board's view of car `s`: its dashboard, with a bot driver's colour and progress."""
    cv = {
        k: car[k]
        for k in (
            "ep",
            "bp",
            "sp",
            "tyre",
            "life",
            "sets",
            "bd",
            "pos",
            "laps",
            "pitted",
            "off",
            "out",
            "finished",
            "green",
        )
    }
    cv["drs"] = bool(car.get("drs"))
    if "stress" in car:
        cv["stress"] = car["stress"]
    if car.get("must_pit"):
        cv["must_pit"] = True
    if "fin_round" in car:
        cv["fin_round"] = car["fin_round"]
    b = car.get("bot")
    if b and b.get("for"):  # a bot drives a player's car: the board shows the player's dashboard
        cv.update({k: v for k, v in b["dash"].items() if k in ("ep", "bp", "sp", "stress")})
    cv.update(DRIVERS.view(STANDIN.dashboard(car)))
    cv["bot"] = {"colour": BOTS.COLOURS[s % 6], "side": b["side"], "prog": b["prog"]} if b else None
    if b and b.get("for"):
        cv["bot"]["for"] = True
    return cv


def view(state: State, viewer: int | None) -> View:
    c = circuits()[state["circuit"]]
    cars = [_car_view(s, car) for s, car in enumerate(state["cars"])]
    v: View = {
        "kind": "pole",
        "circuit": state["circuit"],
        "phase": state["phase"],
        "round": state["round"],
        "turn": state["turn_no"] + (1000000 if state["phase"] == "over" else 0),
        "viewer": viewer,
        "post": [state["phase"], state["round"]],  # a round's cars share one thread post
        "weather": dict(state["weather"]),
        "weather_now": R.weather_now(state["weather"], c),
        "order": list(state["order"]),
        "cars": cars,
        "finish": list(state["finish"]),
        "laps": c.laps,
        "log": list(state["log"][-12:]),
        "to_act": WAIT.to_act(state),
    }
    if state.get("sc"):
        v["sc"] = {"order": list(state["sc"]["order"]), "pit": {k: bool(x) for k, x in state["sc"]["pit"].items()}}
    if EVENTS.on(state):
        v["events"] = EVENTS.view(state)
    if SPECIALS.on(state):
        v["circuit_rules"] = True
    v.update(CHAMP.view(state) or {})
    if state.get("flag"):
        v["flag"] = {"from": state["flag"]["rows"][0], "to": state["flag"]["rows"][-1], "until": state["flag"]["until"]}
    if state["phase"] == "tyres":  # secret until all have chosen (3.2.3)
        for s, car in enumerate(cars):
            car["tyre"] = None
        v["chosen"] = sorted(int(s) for s in state["tyre_pick"])
        if viewer is not None and str(viewer) in state["tyre_pick"]:
            v["my_tyre"] = state["tyre_pick"][str(viewer)]
    if state["phase"] == "setup":
        v["setup"] = {"chosen": sorted(int(s) for s in state["setup"])}
    if state["phase"] == "quali":
        q = state["quali"]
        v["quali"] = {
            "session": q["sessions"][q["idx"]],
            "first": dict(q["first"]),
            "chosen": sorted(int(s) for s in q["choice"]),
            "back": list(q["back"]),
        }
        if viewer is not None and str(viewer) in q["choice"]:
            v["quali"]["mine"] = q["choice"][str(viewer)]
    if viewer is not None:  # standing fight preferences are secret (the other side's maximum)
        v["me"] = {"seat": viewer, "prefs": dict(state["prefs"][viewer])}
    t = state["turn"]
    if t:
        v["turn_info"] = {
            "seat": t["seat"],
            "rolls": [str(x) for x in t["rolls"]],
            "use": t["use"],
            "reduce": t["reduce"],
            "stage": t["stage"],
        }
    return v


def suggested_move(state: State, seat: int) -> tuple[int, Msg] | None:
    """The "Where to?" entry offered first, and why: the stop when it is due before the last lap
    (3.3), else the farthest cell that costs no EP, BP or SP and holds no low-grip roll, else the
    cheapest move (SP last, then EP and BP); position fights are never the first entry."""
    t = state["turn"]
    opts = (t or {}).get("opts") or []
    if not opts or t["stage"] != "move" or t["seat"] != seat:
        return None
    car = state["cars"][seat]
    c = circuits()[state["circuit"]]
    pit = [i for i, o in enumerate(opts) if o["kind"] == "pit"]
    if pit and not car["pitted"] and car["laps"] >= c.laps - 2:
        return pit[0], msg("Suggested: the stop is due before the last lap")
    ends = [i for i, o in enumerate(opts) if o["kind"] in ("end", "finish")]
    safe = [i for i in ends if not opts[i].get("risk")]
    free = [i for i in safe if opts[i]["ep"] + opts[i]["bp"] + opts[i]["sp"] == 0]
    if free:
        i = max(free, key=lambda j: (opts[j]["prog"], -j))
        farther = any(opts[j]["prog"] > opts[i]["prog"] for j in ends if j not in free)
        return i, (
            msg("Suggested: the farthest cell that costs no EP, BP or SP (farther ones cost points)")
            if farther
            else msg("Suggested: the farthest cell on offer, at no cost")
        )
    pool = safe or ends
    if not pool:
        return None
    i = min(pool, key=lambda j: (opts[j]["sp"], opts[j]["ep"] + opts[j]["bp"], -opts[j]["prog"], j))
    return i, msg("Suggested: every move costs points here; this one costs the least")


def menu(state: State, seat: int) -> list[dict[str, Any]]:
    acts = WAIT.legal_actions(state, seat)
    moves = [a for a in acts if a["type"] == "move"]
    prefs = [a for a in acts if a["type"] == "prefs"]
    others = [a for a in acts if a["type"] not in ("move", "prefs", "defend", "attack")]
    defend = [a for a in acts if a["type"] == "defend"]
    attack = [a for a in acts if a["type"] == "attack"]
    groups: list[dict[str, Any]] = []
    if moves:
        entries = [{"label": describe_action(state, seat, a), "value": str(a["i"])} for a in moves[:25]]
        pick = suggested_move(state, seat)
        if pick is not None:
            i, why = pick
            first = next(e for e in entries if e["value"] == str(i))
            first["description"] = why
            entries = [first] + [e for e in entries if e is not first]
        groups.append(
            {
                "kind": "select",
                "placeholder": msg("Where to?"),
                "min": 1,
                "max": 1,
                "action": {"type": "move"},
                "options": entries,
            }
        )
    if defend:
        groups.append(
            {
                "kind": "select",
                "placeholder": msg("Defend: the most SP you will bid"),
                "min": 1,
                "max": 1,
                "action": {"type": "defend"},
                "options": [{"label": describe_action(state, seat, a), "value": str(a["max"])} for a in defend[:25]],
            }
        )
    if attack:
        f = state["turn"]["fight"]
        groups.append(
            {
                "kind": "select",
                "placeholder": msg(
                    "Attack: the most SP you will bid (rolls {a} and {d})", a=f["rolls"][0], d=f["rolls"][1]
                ),
                "min": 1,
                "max": 1,
                "action": {"type": "attack"},
                "options": [{"label": describe_action(state, seat, a), "value": str(a["max"])} for a in attack[:25]],
            }
        )
    if others:
        seen, buttons = set(), []
        for a in others:
            label = describe_action(state, seat, a)
            key = repr(label)
            if key in seen:
                continue
            seen.add(key)
            buttons.append({"label": label, "action": a})
        groups.append({"kind": "buttons", "options": buttons[:15]})
    if prefs and WAIT.to_act(state):
        groups.append(
            {
                "kind": "select",
                "placeholder": msg("Preferences: position fights"),
                "min": 1,
                "max": 1,
                "action": {"type": "prefs"},
                "options": [{"label": describe_action(state, seat, a), "value": a["preset"]} for a in prefs],
            }
        )
    return groups


def preset_label(p: str) -> Msg:
    return {
        "careful": msg("Fights: bid at most 1 SP"),
        "normal": msg("Fights: bid at most 3 SP"),
        "hard": msg("Fights: bid at most 6 SP"),
        "ask": msg("Fights: ask me when defending"),
        "ask_both": msg("Fights: ask me when attacking and defending"),
        "yield": msg("Fights: let attackers through"),
    }[p]


def place_name(st: State, o: dict) -> Msg:
    pos = o["pos"]
    if pos[0] == "t":
        lane = {0: msg("left"), 1: msg("centre"), 2: msg("right")}[pos[2]]
        return msg("lap {lap} row {row} {lane}", lap=o["laps"] + 1, row=pos[1] + 1, lane=lane)
    # Each cell of the pit lane by its number, so two of them never read alike (issue #29).
    return {
        "pin": msg("pit entry {n}", n=pos[1] + 1) if len(pos) > 1 else msg("pit lane"),
        "pit": msg("my pit"),
        "g": msg("pit exit {n}", n=pos[1] + 1) if len(pos) > 1 else msg("pit lane"),
        "pout": msg("pit lane out {n}", n=pos[1] + 1) if len(pos) > 1 else msg("pit lane"),
    }.get(pos[0], msg("pit lane"))


def car_place(car: dict) -> Msg | None:
    """Where a car is, in the words of the move menu and the board (None once it is done or out)."""
    pos = car["pos"]
    if not pos or car["out"] is not None or pos[0] == "done":
        return None
    if pos[0] == "pit":
        return msg("the pits")
    return place_name({}, {"pos": pos, "laps": car["laps"]})
