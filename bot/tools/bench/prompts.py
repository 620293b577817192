"""The event-loop cost of a move's prompts (issue #17): `Table.prompts` builds every seat's menu
and hashes it, on every move, to find the seats whose buttons changed. Timed over the moves of a
seeded 6-player Heat race (whole plans in each submission menu), in this process, no database.

  python -m bot.tools.bench.prompts [races]

Figures: `prompts_ms_heat6` (Table.prompts per move, all six seats), `prompts_menus_ms_heat6`
(the menus alone: what no hash can save) and `prompts_old_hash_ms_heat6` (the hash as it was
before orjson: json.dumps of to_wire, for the before/after).
"""

from __future__ import annotations

import hashlib
import json
import random
import statistics
import sys
import time
from typing import Any

from bot.tools.bench.live import emit
from bot.games.heat.racer import random_submission
from bot.games.registry import engines
from bot.i18n import to_wire
from bot.store import Game, Seat
from bot.table import Table

SEATS = 6


def race_states(seed: int) -> list[dict[str, Any]]:
    """The states after each move of a seeded 6-player race on the USA track."""
    engine = engines()["heat"]
    state = engine.new_game(engine.validate_options({"track": "usa"}, SEATS), SEATS, seed)
    rnd = random.Random(seed)
    states: list[dict[str, Any]] = []
    while not engine.is_over(state) and len(states) < 2000:
        seat = rnd.choice(engine.to_act(state))
        if state["phase"] == "submit":
            action = random_submission(state, seat, rnd)
        else:
            action = rnd.choice([a for a in engine.legal_actions(state, seat) if a.get("type") != "prefs"])
        state, _ = engine.apply(state, seat, action)
        states.append(state)
    return states


def old_hash(menu: list[dict[str, Any]]) -> str:
    return hashlib.blake2b(json.dumps(to_wire(menu), sort_keys=True).encode(), digest_size=8).hexdigest()


def prompts_figures(races: int = 2) -> dict[str, float]:
    """Milliseconds per move: Table.prompts, the menus alone, the menus with the old hash."""
    engine = engines()["heat"]
    table = Table(None, None, {"heat": engine}, 3600)  # type: ignore[arg-type]  # prompts() needs neither
    game = Game(
        1,
        "heat",
        1,
        1,
        1,
        None,
        1,
        "active",
        {"track": "usa"},
        0,
        0,
        None,
        seats=[Seat(s, 100 + s, f"p{s}", True, 0, "") for s in range(SEATS)],
    )
    times: dict[str, list[float]] = {"prompts": [], "menus": [], "old": []}
    for seed in range(1, races + 1):
        for state in race_states(seed):
            start = time.perf_counter()
            updates = table.prompts(engine, game, state)
            times["prompts"].append(time.perf_counter() - start)
            for u in updates:  # as a commit does: the seats keep their new hashes
                game.seats[u.seat].prompt_hash = u.prompt_hash
            start = time.perf_counter()
            menus = [engine.menu(state, s) for s in range(SEATS)]
            times["menus"].append(time.perf_counter() - start)
            start = time.perf_counter()
            [old_hash(engine.menu(state, s)) for s in range(SEATS)]
            times["old"].append(time.perf_counter() - start)
            del menus
    return {k: statistics.mean(v) * 1000 for k, v in times.items()}


def emit_prompts(races: int = 2) -> None:
    figures = prompts_figures(races)
    emit("prompts_ms_heat6", figures["prompts"], "ms a move, all 6 seats (mean)")
    emit("prompts_menus_ms_heat6", figures["menus"], "ms (building the menus alone)")
    emit("prompts_old_hash_ms_heat6", figures["old"], "ms (the menus hashed as before: json.dumps of to_wire)")


def main(argv: list[str]) -> int:
    emit_prompts(int(argv[0]) if argv else 2)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
