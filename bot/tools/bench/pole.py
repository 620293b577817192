"""What `/game log` and `/game replay` cost on a finished Pole Position game (issue #30): both
replay the whole game from its seed and action log (cogs/table.py public_log, bot/replay.py
turn_starts); the move search runs at every turn. A development tool: the product never imports it.

    .venv/bin/python -m bot.tools.bench.pole

Prints `pole_log_<circuit>: <ms> ms` and `pole_replay_<circuit>: <ms> ms` (processor time, so a
busy machine counts less) for seeded 6-car races played to the end by the automatic players, and
`pole_search: <ms> ms` per move search over them."""

from __future__ import annotations

import sys
import time

from bot.games.pole import ENGINE as E
from bot.games.pole import rules as R
from bot.i18n import render

GAMES = (("great_britain", 1), ("monaco", 2), ("italy", 3))


def finished(circuit: str, seed: int, seats: int = 6) -> list[tuple[int, dict]]:
    """A seeded race to the end, every seat playing the engine's automatic choice: its action log."""
    st, actions = E.new_game({"circuit": circuit}, seats, seed), []
    while not E.is_over(st):
        seat = E.to_act(st)[0]
        action = E.auto_action(st, seat)
        st, _ = E.apply(st, seat, action)
        actions.append((seat, action))
    return actions


def log_lines(circuit: str, seed: int, seats: int, actions: list) -> list[str]:
    """As /game log: replay, keeping the public lines in words."""
    st, lines = E.new_game({"circuit": circuit}, seats, seed), []
    for seat, action in actions:
        st, events = E.apply(st, seat, action)
        lines += [render(e.text, "en") for e in events if e.to is None]
    return lines


def boards(circuit: str, seed: int, seats: int, actions: list) -> list[dict]:
    """As /game replay: replay, keeping the state at the start of each turn (the view's "turn")."""
    st = E.new_game({"circuit": circuit}, seats, seed)
    out, turn = [st], E.view(st, None).get("turn")
    for seat, action in actions:
        st, _ = E.apply(st, seat, action)
        now = E.view(st, None).get("turn")
        if now != turn:
            out.append(st)
            turn = now
    return out


def main() -> int:
    searches = [0, 0.0]
    search = R.search

    def timed(*args, **kwargs):
        t = time.process_time()
        try:
            return search(*args, **kwargs)
        finally:
            searches[0] += 1
            searches[1] += time.process_time() - t

    for circuit, seed in GAMES:
        actions = finished(circuit, seed)
        R.search = timed
        t = time.process_time()
        log_lines(circuit, seed, 6, actions)
        print(f"pole_log_{circuit}: {(time.process_time() - t) * 1000:.0f} ms", flush=True)
        R.search = search
        t = time.process_time()
        boards(circuit, seed, 6, actions)
        print(f"pole_replay_{circuit}: {(time.process_time() - t) * 1000:.0f} ms", flush=True)
    print(f"pole_search: {searches[1] * 1000 / max(1, searches[0]):.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
