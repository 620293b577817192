"""Whom the game waits for and what each seat may do now: `to_act` and `legal_actions` (the
engine's, and what every move is checked against), with the standing fight presets."""

from __future__ import annotations

from typing import Any

import bot.games.pole.championship as CHAMP
import bot.games.pole.custom as CUSTOM
import bot.games.pole.drivers as DRIVERS
import bot.games.pole.rules as R
import bot.games.pole.driving as DRIVE
from bot.games.base import State
from bot.games.pole.common import human
from bot.games.pole.content import TYRES, circuits

MAX_PICKS = 2  # "Use roll N" picks between two rerolls (4.1: one final choice; reading: changed once)

# Standing choices for position fights (the most SP to bid as attacker and as defender; "ask"
# pauses the race for a live answer when defending, "ask_attack" for a live bid when attacking;
# "yield" lets attackers through). Any values can also be sent directly.
PRESETS = {
    "careful": {"attack": 1, "defend": 1, "ask": False, "ask_attack": False, "yield": False},
    "normal": {"attack": 3, "defend": 3, "ask": False, "ask_attack": False, "yield": False},
    "hard": {"attack": 6, "defend": 6, "ask": False, "ask_attack": False, "yield": False},
    "ask": {"ask": True, "yield": False},
    "ask_both": {"ask": True, "ask_attack": True, "yield": False},
    "yield": {"yield": True, "ask": False},
}


def to_act(state: State) -> list[int]:
    ph = state["phase"]
    if ph == "setup":
        return CUSTOM.to_act(state, human)
    if ph == "standings":
        return CHAMP.to_act(state, human)
    if ph == "quali":
        return [s for s in state["quali"]["in"] if str(s) not in state["quali"]["choice"] and human(state, s)]
    if ph == "tyres":
        return [s for s in range(state["seats"]) if str(s) not in state["tyre_pick"] and human(state, s)]
    if ph == "race" and state.get("sc"):
        return [state["sc"]["order"][state["sc"]["i"]]]
    if ph == "race" and state["turn"]:
        t = state["turn"]
        if t["stage"] == "defend":
            f = t["fight"]
            return [f["opt"]["def"][f["i"]]]
        if t["stage"] == "attack":
            return [t["seat"]]
        if t["stage"] == "crash":
            cr = t["fight"]["crash"]
            return [cr["cars"][cr["i"]]]
        return [t["seat"]]
    return []


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [
        {"type": "prefs", "preset": p} for p in PRESETS if human(state, seat) and not (state["phase"] == "over")
    ]
    if not human(state, seat):
        return []
    ph = state["phase"]
    if ph == "setup":  # 13.1
        return out + (CUSTOM.actions(state, seat) if seat in to_act(state) else [])
    if ph == "standings":  # 15: between two races of the season
        return out + (CHAMP.actions(state, seat) if seat in to_act(state) else [])
    # A secret choice (qualifying reroll, starting tyres) may be changed until all are in.
    changing = (ph == "quali" and seat in state["quali"]["in"]) or (ph == "tyres" and 0 <= seat < state["seats"])
    if seat not in to_act(state) and not changing:
        return out
    car = state["cars"][seat]
    if ph == "quali":
        out += [{"type": "quali", "reroll": False}]
        if car["sp"] >= 1:
            out.append({"type": "quali", "reroll": True})
        return out
    if ph == "tyres":
        return out + [{"type": "tyre", "tyre": t} for t in TYRES if car["sets"][t]]
    if state.get("sc"):  # 10.2: stay out, or pit and fit a set
        return (
            out
            + [{"type": "sc", "tyre": None}]
            + [{"type": "sc", "tyre": x} for x in TYRES if car["sets"][x]]
            + CUSTOM.pit_swaps(state, seat, [x for x in TYRES if car["sets"][x]], "sc")
        )
    t = state["turn"]
    if t["stage"] == "crash":
        return out + [{"type": "crash", "reroll": False}, {"type": "crash", "reroll": True}]
    if t["stage"] == "defend":
        if t["fight"]["rolls"] is None:  # before the dice: fight or let them through
            return out + [{"type": "yield"}, {"type": "fight"}]
        top = 0 if car.get("stress", 0) >= 3 else min(car["sp"], 20)
        return out + [{"type": "defend", "max": k} for k in range(top + 1)]
    if t["stage"] == "attack":  # a live bid: the most SP to bid, knowing the dice
        return out + [{"type": "attack", "max": k} for k in range(DRIVE.attack_top(state) + 1)]
    if t["stage"] == "pit_tyre":
        return (
            out
            + [{"type": "tyre", "tyre": x} for x in TYRES if car["sets"][x]]
            + CUSTOM.pit_swaps(state, seat, [x for x in TYRES if car["sets"][x]])
        )  # 13.2
    return _move_actions(state, seat, car, t, out)


def _move_actions(
    state: State, seat: int, car: dict[str, Any], t: dict[str, Any], out: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The mover's choices once the die is rolled (calm, reroll, pick, reduce, move), appended to `out`."""
    lv = car.get("stress", 0)
    calm_ok = lv > 0 and t["ms"] is None and not t.get("calm") and t["die"] in ("red", "white", "green", "blue")
    if calm_ok and lv >= 6:  # 12.1 level 6: the driver must bring it down to 5 this turn
        return out + [{"type": "calm"}]
    if calm_ok:
        out.append({"type": "calm"})
    w_now = R.weather_now(state["weather"], circuits()[state["circuit"]])
    can_reroll = (
        not t["pit_exit"]
        and t["ms"] is None
        and ((car["sp"] - t["reduce"] >= 1 and lv < 5) or DRIVERS.free_reroll(state, seat, w_now))
    )
    if can_reroll:
        out.append({"type": "reroll"})
    # 4.1: in the end the player picks one of the rolls. Reading: a pick may be changed once
    # (two picks between rerolls), so a menu can't toggle between rolls without end.
    if t["ms"] is None and len(t["rolls"]) > 1 and t["die"] != "purple" and t.get("picks", 0) < MAX_PICKS:
        out += [{"type": "use", "i": i} for i in range(len(t["rolls"])) if i != t["use"]]
    if t["ms"] is None and DRIVE.course_out_due(state):
        w = R.weather_now(state["weather"], circuits()[state["circuit"]])
        lim = DRIVERS.course_out_limit(state, seat, car["tyre"], R.course_out_limit(car["tyre"], w))
        need = DRIVE.roll_value(state) - t["reduce"] - lim + 1
        if car["sp"] - t["reduce"] >= need and lv < 5:
            out.append({"type": "reduce", "sp": t["reduce"] + need})
        out.append({"type": "off"})
        return out
    if (
        t["ms"] is None
        and t["die"] != "purple"
        and car["sp"] - t["reduce"] >= 1
        and t["reduce"] < 3
        and lv < 5
        and DRIVE.low_grip_roll_due(state)
    ):
        out.append({"type": "reduce", "sp": t["reduce"] + 1})
    if DRIVERS.wear_token_ok(state, seat):  # the Tyre Whisperer: +1 MP on worn tyres
        out.append({"type": "wear_token"})
    out += [{"type": "move", "i": i} for i in range(len(t["opts"] or []))]
    if not t["opts"]:
        out.append({"type": "stay"})
    return out
