"""What every part of the Pole Position engine shares: how texts name cars, tyres and weather, the
game's log, the dice, and which seats are players' and which cars still race.

The engine (engine.py) and the modules of the optional rules (events, drivers, variants,
championship, standin) all write through `log` and name cars with `car_name`, so they import this
module and never the engine."""

from __future__ import annotations

from typing import Any

from bot.games.base import Event, State, clone, seat_ref
import bot.games.pole.bots as BOTS
from bot.games.pole.content import rules
from bot.games.rng import Rng
from bot.i18n import Msg, msg, to_wire

LOG_KEEP = 30  # public log lines a state keeps
START_ROUNDS = 3  # the race's first rounds roll the purple die (3.2.4)

_COLOUR_NAMES = {
    "red": lambda: msg("Red"),
    "blue": lambda: msg("Blue"),
    "yellow": lambda: msg("Yellow"),
    "green": lambda: msg("Green"),
    "purple": lambda: msg("Purple"),
    "orange": lambda: msg("Orange"),
}


def car_name(st: State, seat: int) -> Any:
    """How texts name a car: the player (a seat ref the table fills in) or the bot's name."""
    b = st["cars"][seat].get("bot")
    if b and b.get("for"):  # a player's car a bot drives for now (17, an absent player)
        return msg("{p} (bot)", p=seat_ref(seat))
    if b:
        return msg("{colour} bot ({side})", colour=_COLOUR_NAMES[BOTS.COLOURS[seat % 6]](), side=b["side"])
    return seat_ref(seat)


def tyre_name(t: str) -> Msg:
    return {"soft": msg("soft"), "hard": msg("hard"), "inter": msg("intermediate"), "wet": msg("wet")}[t]


def weather_name(w: str) -> Msg:
    return {"dry": msg("dry weather"), "light": msg("light rain"), "heavy": msg("heavy rain")}[w]


def log(st: State, ev: list[Event], text: Msg, to: int | None = None, now: bool = False) -> None:
    """A line for the players: public (to=None) or to one seat. A public line in a turn under way
    joins the turn's story, told as one line when the turn ends (or waits on a decision), unless
    `now`; public lines are kept in the state's log (the last LOG_KEEP)."""
    t = st.get("turn")
    if to is None and not now and t and t.get("story") is not None:  # a turn under way: one line at its end
        t["story"].append(to_wire(text))
        return
    ev.append(Event(text, to))
    if to is None:
        st["log"] = (st["log"] + [text.key and {"key": text.key, "params": to_wire(text.params)}])[-LOG_KEEP:]


def copy_state(st: State) -> State:
    """The copy `apply` changes in place, sharing the log's lines with `st`: a line is never changed
    once written (`log` makes a new list each time), and the lines are about half a state's bytes,
    so the JSON round trip copies everything else and the log is a new list of the same lines, the
    keys in the same order (issue #34)."""
    lines = st.get("log")
    if not isinstance(lines, list):
        return clone(st)
    out = clone({**st, "log": None})
    out["log"] = list(lines)
    return out


def roll(rng: Rng, die: str) -> Any:
    """A roll of the named die (its faces in data/pole/rules.json; the purple die has a "!")."""
    return rng.choice(rules()["dice"][die])


def face_value(face: Any) -> int:
    """A die face as a number (the purple die's "!" counts as rules.json's purple_bang_value)."""
    return int(rules()["purple_bang_value"]) if face == "!" else int(face)


def human(state: State, seat: Any) -> bool:
    """A seat a player sits in (bots are played by the engine and never act)."""
    return (
        isinstance(seat, int)
        and not isinstance(seat, bool)
        and 0 <= seat < state["seats"]
        and not state["cars"][seat].get("bot")
    )


def running(st: State) -> list[int]:
    """The cars still racing (neither out nor finished), in position order."""
    return [s for s in st["order"] if st["cars"][s]["out"] is None and st["cars"][s]["finished"] is None]
