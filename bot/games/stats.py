"""What the end-of-game statistics of every game share (issue #35; each game's own are in
bot/games/<game>/stats.py): reading the replayed game's public events. Pure: no I/O, no Discord.

A game's `compute(engine, first_state, steps)` gets the game move by move, each step (state before,
seat, action, state after, events), and returns {"title": Msg, "rows": [{"label": Msg, "values":
[one per seat], "best"?: "max" | "min", "section"?: Msg}]} (rendering/stats.py draws it)."""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Iterator
from typing import Any

from bot.games.base import Engine, State, on_todays_rules
from bot.i18n import Msg, msg

Step = tuple[State, int, dict[str, Any], State, list[Any]]
_SEAT = re.compile(r"<seat:(\d{1,2})>")


def seat_in(value: Any) -> int | None:
    """The seat a parameter names: a seat_ref, or a Msg naming one seat (Pole's "{p} (bot)": a
    player's car a stand-in drives); None if it names none."""
    if isinstance(value, Msg):
        inner = [seat_in(v) for v in value.params.values()]
        return inner[0] if len(inner) == 1 else None
    match = _SEAT.fullmatch(value) if isinstance(value, str) else None
    return int(match[1]) if match else None


def _within(text: Msg) -> Iterator[Msg]:
    yield text
    for value in text.params.values():
        for v in value if isinstance(value, (list, tuple)) else (value,):
            if isinstance(v, Msg):
                yield from _within(v)


def public(steps: Iterable[Step]) -> Iterator[Msg]:
    """Every public event text, in order, and the texts inside them (a line that tells a whole
    turn carries its parts as parameters)."""
    for step in steps:
        for event in step[4]:
            if event.to is None and isinstance(event.text, Msg):
                yield from _within(event.text)


def tally(steps: Iterable[Step], seats: int, key: str, param: str, when: Any = None) -> list[int]:
    """How many public events with this key name each seat in `param` (and pass `when(params)`)."""
    out = [0] * seats
    for text in public(steps):
        if text.key == key and (when is None or when(text.params)):
            seat = seat_in(text.params.get(param))
            if seat is not None and seat < seats:
                out[seat] += 1
    return out


def places_row(engine: Engine, final: State, seats: int) -> dict[str, Any]:
    places = engine.placings(final)
    values: list[Any] = list(places) if places else ["—"] * seats
    return {"label": msg("Final place"), "values": values, "best": "min"}


def row(label: Msg, values: list[Any], best: str | None = "max", section: Msg | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"label": label, "values": values}
    if best:
        out["best"] = best
    if section is not None:
        out["section"] = section
    return out


def replayed(
    engine: Engine, options: dict[str, Any], seats: int, seed: int, actions: list[tuple[int, dict[str, Any]]]
) -> list[tuple[dict, int, dict, dict, list]]:
    """The game move by move: (state before, seat, action, state after, events)."""
    state = engine.new_game(options, seats, seed)
    out = []
    for seat, action in actions:
        after, events = engine.apply(state, seat, action)
        out.append((state, seat, action, after, events))
        state = after
    return out


def compute_stats(
    engine: Engine,
    options: dict[str, Any],
    seats: int,
    seed: int,
    actions: list[tuple[int, dict[str, Any]]],
    final: dict | None = None,
) -> dict[str, Any] | None:
    """A finished game's statistics (its bot/games/<kind>/stats.py over the replayed log); None where
    the game has none or its log no longer replays (started under older rules)."""
    if final is not None and not on_todays_rules(engine, final):
        return None
    if _stats_module(engine) is None:
        return None
    steps = replayed(engine, options, seats, seed, actions)
    return stats_of(engine, steps[0][0] if steps else engine.new_game(options, seats, seed), steps, final)


def stats_of(engine: Engine, first: State, steps: list[Step], final: dict | None = None) -> dict[str, Any] | None:
    """compute_stats over a replay already made (`first`: the new game's state; `steps` as
    `replayed` gives them), so a game's end replays its log once for its statistics and its
    animation."""
    if final is not None and not on_todays_rules(engine, final):
        return None
    module = _stats_module(engine)
    return None if module is None else module.compute(engine, first, steps)


def _stats_module(engine: Engine) -> Any:
    try:
        return importlib.import_module(f"bot.games.{engine.kind}.stats")
    except ModuleNotFoundError:
        return None
