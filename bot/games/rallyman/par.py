"""Solo par times: each stage driven by the par driver, the mean of several runs.

    .venv/bin/python -m bot.games.rallyman.par [runs]   (rewrites data/rallyman/par.json)

The par driver is a good driver, and what an absent player's seat uses (engine.auto_action). It
takes the plan list's sensible choice (the best plan within its risk line: rules.best_plan), goes
flat out with it when the seconds chips earned outweigh the risk, and otherwise rolls die by die:
a die that could cause the loss of control is secured with chips when that costs less than the
loss it risks, and the car stops when the next die's risk passes its stop line. Spare tyre
whenever allowed; the least damaging spot after a flat-out crash. `Driver` also gives the simple
styles the measuring script (bot/games/rallyman/styles.py) compares with it."""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from functools import lru_cache

from bot.games.rallyman import board as B
from bot.games.rallyman import rules as R

PAR_FILE = B.DATA_DIR / "par.json"
LOSS_SECONDS = 45.0  # what a loss of control costs a driver, as the par driver weighs it (designed)


@dataclass(frozen=True)
class Driver:
    line: float  # the plan's chance of losing control it accepts
    flat: float  # goes flat out when the plan's risk x LOSS_SECONDS is under the chips (and risk <= this)
    stop: float  # stops when the next die's risk is above this (after the first die)
    secure: bool  # secures a die when its risk x loss is more than the seconds it costs
    loss: float = LOSS_SECONDS  # what a loss of control costs, as this driver weighs it

    def action(self, state: dict, seat: int) -> dict:
        from bot.games.rallyman.engine import ENGINE
        ph = state["phase"]
        stage = B.stage(state["stage"])
        orange = ENGINE._orange(state, seat)
        if ph == "plan":
            best = R.best_plan(state, stage, seat, orange, self.line)
            if best is None:
                return {"type": "pass"}
            plan, risk = best
            chips = sum(1 for s in plan for k in R.step_dice(s, orange) if k != "brake")
            flat = risk <= self.flat and risk * self.loss < chips
            return {"type": "flat" if flat else "plan", "values": [R.encode(plan)]}
        if ph == "roll":
            r = state["roll"]
            nxt = R.loc_chance(state["plan"][r["i"]:r["i"] + 1], orange, r["bangs"])
            cost = ENGINE._secure_cost(state)
            if self.secure and nxt > 0 and cost is not None and nxt * self.loss > cost:
                return {"type": "secure"}
            if nxt > self.stop and r["i"] > 0:
                return {"type": "stop"}
            return {"type": "roll"}
        return ENGINE._decisions(state, seat)[0]


PAR = Driver(line=0.3, flat=1.0, stop=0.35, secure=True, loss=20.0)


def good_action(state: dict, seat: int) -> dict:
    """The par driver's move for the seat."""
    return PAR.action(state, seat)


def run(stage: str, seed: int, driver: Driver = PAR) -> int:
    """One solo stage (or rally) by the driver, asked before every die; its total time."""
    from bot.games.rallyman.engine import ENGINE
    state = ENGINE.new_game({"stage": stage}, 1, seed)
    state, _ = ENGINE.apply(state, 0, {"type": "prefs", "dice": "ask"})
    while not ENGINE.is_over(state):
        state, _ = ENGINE.apply(state, 0, driver.action(state, 0))
    return state["result"]["totals"][0]


def compute(runs: int = 8) -> dict[str, int]:
    return {name: round(sum(run(name, 100 + k) for k in range(runs)) / runs) for name in B.stage_names()}


@lru_cache(maxsize=1)
def load() -> dict[str, int]:
    raw = json.loads(PAR_FILE.read_text("utf-8"))
    par = raw["par"]
    if set(par) != set(B.stage_names()) or not all(isinstance(v, int) and 60 < v < 3000 for v in par.values()):
        raise B.DataError("data/rallyman/par.json: one par time per stage")
    return par


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    PAR_FILE.write_text(json.dumps({
        "about": f"designed: solo par times in seconds, the mean of {n} runs of the par driver "
                 "in bot/games/rallyman/par.py (no source gives par times)",
        "par": compute(n)}, indent=1) + "\n")
