"""Solo par times: each stage driven by a steady simulated driver, the mean of several runs.

    .venv/bin/python -m bot.games.rallyman.par [runs]   (rewrites data/rallyman/par.json)

The driver: the whole plan that gets furthest with at most a 15% chance of three "!", rolled die
by die; a die is secured with seconds chips when it could cause the loss of control, and the car
stops when the next die's risk passes 25%. Spare tyre whenever allowed; the least damaging spot
after a flat-out crash (it never goes flat out, so that never comes up)."""
from __future__ import annotations

import json
import sys
from functools import lru_cache

from bot.games.rallyman import board as B
from bot.games.rallyman import rules as R

PAR_FILE = B.DATA_DIR / "par.json"


def good_action(state: dict, seat: int) -> dict:
    from bot.games.rallyman.engine import ENGINE
    ph = state["phase"]
    stage = B.stage(state["stage"])
    orange = ENGINE._orange(state, seat)
    if ph == "plan":
        plans = R.all_plans(state, stage, seat, orange)
        if not plans:
            return {"type": "pass"}
        start = stage.spaces[state["cars"][seat]["sp"]].front
        safe = [(p, r) for p, r in plans if r <= 0.15] or sorted(plans, key=lambda pr: pr[1])[:1]
        best = max(safe, key=lambda pr: (stage.spaces[pr[0][-1][1]].front - start, pr[0][-1][2], -pr[1]))
        return {"type": "plan", "values": [R.encode(best[0])]}
    if ph == "roll":
        r = state["roll"]
        nxt = R.loc_chance(state["plan"][r["i"]:r["i"] + 1], orange, r["bangs"])
        if nxt > 0 and ENGINE._secure_cost(state) is not None:
            return {"type": "secure"}
        if nxt > 0.25 and r["i"] > 0:
            return {"type": "stop"}
        return {"type": "roll"}
    return ENGINE.legal_actions(state, seat)[0]


def run(stage: str, seed: int) -> int:
    from bot.games.rallyman.engine import ENGINE
    state = ENGINE.new_game({"stage": stage}, 1, seed)
    while not ENGINE.is_over(state):
        state, _ = ENGINE.apply(state, 0, good_action(state, 0))
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
        "about": f"designed: solo par times in seconds, the mean of {n} runs of the steady simulated driver "
                 "in bot/games/rallyman/par.py (no source gives par times)",
        "par": compute(n)}, indent=1) + "\n")
