"""How simple driving styles fare against par, and what a turn costs in clicks (a dev tool: the
product never imports it).

    .venv/bin/python -m bot.tools.bench.rallyman_styles [seeds] [stage ...]

Each style drives every stage solo (seeds 1..N, not the seeds par was computed on) and is compared
with the stage's par time (data/rallyman/par.json). Styles:
  steady     the old par driver's settings: plans within 15%, never flat out, secures a die when
             its risk x 45 s is more than its cost, stops when the next die's risk passes 25%
  cautious   plans within 5%, never flat out or secures, stops above 10%
  bold       the farthest plan within 35%, always flat out
  flat       the menu's first entry, always flat out
  menu-first the menu's first entry, default preferences, the first button when asked
  par        the par driver (bot/games/rallyman/par.py)
Clicks per turn are counted for menu-first with the default preferences and with "ask before
every die" (how the game played before standing preferences). Prints `name: value unit` lines."""

from __future__ import annotations

import statistics
import sys
from dataclasses import dataclass, field

from bot.games.rallyman import board as B
from bot.games.rallyman import par as P
from bot.games.rallyman import rules as R
from bot.games.rallyman import turns as T
from bot.games.rallyman.engine import ENGINE

STYLES = {
    "steady": P.Driver(line=0.15, flat=-1.0, stop=0.25, secure=True),
    "cautious": P.Driver(line=0.05, flat=-1.0, stop=0.10, secure=False),
    "bold": P.Driver(line=0.35, flat=1.0, stop=1.0, secure=False),
}


@dataclass
class Tally:
    times: list[float] = field(default_factory=list)  # time / par - 1, per stage run
    losses: list[int] = field(default_factory=list)
    clicks: list[int] = field(default_factory=list)  # per turn
    first_certain: int = 0
    first_risky: int = 0
    plan_menus: int = 0


def menu_first(state: dict, seat: int, tally: Tally, flat: bool = False) -> dict:
    """The first entry of the menu: the first plan (flat out from the second select), the first button."""
    groups = [
        g
        for g in ENGINE.menu(state, seat)
        if not (g["kind"] == "buttons" and all(o["action"]["type"] == "prefs" for o in g["options"]))
    ]
    g = (
        groups[1]
        if flat and state["phase"] == "plan" and len(groups) > 1 and groups[1]["action"]["type"] == "flat"
        else groups[0]
    )
    if g["kind"] == "select":
        if g["action"]["type"] in ("plan", "flat"):
            tally.plan_menus += 1
            m = R.match_steps(state, B.stage(state["stage"]), seat, g["options"][0]["value"])
            assert m is not None  # a plan the menu offers matches its steps
            risk = R.loc_chance(m[0], T.orange(state, seat))
            tally.first_certain += risk >= 1 - 1e-9
            tally.first_risky += risk >= 0.25
        return dict(g["action"], values=[g["options"][0]["value"]])
    return g["options"][0]["action"]


def drive(stage: str, seed: int, style: str, tally: Tally, prefs: dict | None = None) -> None:
    state = ENGINE.new_game({"stage": stage}, 1, seed)
    if style in STYLES or style == "par":
        state, _ = ENGINE.apply(state, 0, {"type": "prefs", "dice": "ask"})
    for k, v in (prefs or {}).items():
        state, _ = ENGINE.apply(state, 0, {"type": "prefs", k: v})
    clicks = 0
    turn = (state["leg"], state["round"], state["turn"])
    while not ENGINE.is_over(state):
        if style == "par":
            action = P.PAR.action(state, 0)
        elif style in STYLES:
            action = STYLES[style].action(state, 0)
        else:
            action = menu_first(state, 0, tally, flat=style == "flat")
        state, _ = ENGINE.apply(state, 0, action)
        clicks += 1
        now = (state["leg"], state["round"], state["turn"])
        if now != turn or ENGINE.is_over(state):
            tally.clicks.append(clicks)
            clicks, turn = 0, now
    par = sum(P.load()[leg] for leg in state["legs"])
    tally.times.append(state["result"]["totals"][0] / par - 1)
    tally.losses.append(sum(1 for c in state["cars"][0]["cards"] if c[2] in ("sisu", "spin", "crash")))


def main(argv: list[str]) -> None:
    seeds = int(argv[0]) if argv else 4
    stages = argv[1:] or B.stage_names()
    for style in ("steady", "cautious", "bold", "flat", "menu-first", "par"):
        t = Tally()
        for stage in stages:
            for seed in range(1, seeds + 1):
                drive(stage, seed, style, t)
        print(f"{style}_vs_par: {100 * statistics.mean(t.times):+.1f} %")
        print(f"{style}_losses_of_control: {statistics.mean(t.losses):.2f} per stage")
        if style == "menu-first":
            print(f"first_entry_certain_loss: {100 * t.first_certain / max(1, t.plan_menus):.1f} % of plan menus")
            print(f"first_entry_risk_25_or_more: {100 * t.first_risky / max(1, t.plan_menus):.1f} % of plan menus")
            print(f"clicks_per_turn_defaults_median: {statistics.median(t.clicks):.1f} clicks")
            print(f"clicks_per_turn_defaults_mean: {statistics.mean(t.clicks):.2f} clicks")
            ask = Tally()
            for stage in stages:
                for seed in range(1, seeds + 1):
                    drive(stage, seed, "menu-first", ask, {"dice": "ask"})
            print(f"clicks_per_turn_ask_every_die_median: {statistics.median(ask.clicks):.1f} clicks")
            print(f"clicks_per_turn_ask_every_die_mean: {statistics.mean(ask.clicks):.2f} clicks")


if __name__ == "__main__":
    main(sys.argv[1:])
