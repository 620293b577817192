"""The par driver: a good driver, and what an absent player's seat uses (engine.auto_action).

It takes the plan list's sensible choice (the best plan within its risk line: rules.best_plan),
goes flat out with it when the seconds chips earned outweigh the risk, and otherwise rolls die by
die: a die that could cause the loss of control is secured with chips when that costs less than
the loss it risks, and the car stops when the next die's risk passes its stop line. Spare tyre
whenever allowed; the least damaging spot after a flat-out crash. `Driver` also gives the simple
styles the measuring script (bot/tools/bench/rallyman_styles.py) compares with it; par.py measures the
par times with it."""

from __future__ import annotations

from dataclasses import dataclass

import bot.games.rallyman.board as B
import bot.games.rallyman.rules as R
import bot.games.rallyman.turns as T

LOSS_SECONDS = 45.0  # what a loss of control costs a driver, as the par driver weighs it (designed)


@dataclass(frozen=True)
class Driver:
    line: float  # the plan's chance of losing control it accepts
    flat: float  # goes flat out when the plan's risk x LOSS_SECONDS is under the chips (and risk <= this)
    stop: float  # stops when the next die's risk is above this (after the first die)
    secure: bool  # secures a die when its risk x loss is more than the seconds it costs
    loss: float = LOSS_SECONDS  # what a loss of control costs, as this driver weighs it

    def action(self, state: dict, seat: int) -> dict:
        """The driver's move for the seat the game waits for."""
        ph = state["phase"]
        stage = B.stage(state["stage"])
        orange = T.orange(state, seat)
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
            nxt = R.loc_chance(state["plan"][r["i"] : r["i"] + 1], orange, r["bangs"])
            cost = T.secure_cost(state)
            if self.secure and nxt > 0 and cost is not None and nxt * self.loss > cost:
                return {"type": "secure"}
            if nxt > self.stop and r["i"] > 0:
                return {"type": "stop"}
            return {"type": "roll"}
        return T.decisions(state, seat)[0]


PAR = Driver(line=0.3, flat=1.0, stop=0.35, secure=True, loss=20.0)


def good_action(state: dict, seat: int) -> dict:
    """The par driver's move for the seat."""
    return PAR.action(state, seat)
