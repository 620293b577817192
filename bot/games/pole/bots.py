"""Pole Position bots (seed 002, section 17) as pure decisions over plain data.

The engine plays a bot's seat itself inside `apply`: these functions say what the bot card
decides (qualifying reroll, first tyres, when to pit and on which tyres, its MP, the course-out
roll in the rain); the engine does the dice and the moving. `roll` arguments are callables that
roll the black die, so a die is rolled only where the seed has the bot roll one.
"""

from __future__ import annotations

from typing import Callable

import bot.games.pole.rules as R
from bot.games.pole.content import Circuit, bot_cards, rules

COLOURS = ("red", "blue", "yellow", "green", "purple", "orange")  # card i matches seat colour i
PROG_TOP = 6


def card(seat: int, side: str) -> dict:
    """The bot card for a seat: the card whose background matches the car's colour (17.1)."""
    return bot_cards()["cards"][seat % 6][side]


def correct(tyre: str, weather: str) -> bool:
    """17.2: dry wants soft or hard, light rain intermediates, heavy rain wets."""
    return tyre in {"dry": ("soft", "hard"), "light": ("inter",), "heavy": ("wet",)}[weather]


def rain_tyre(weather: str) -> str:
    return "wet" if weather == "heavy" else "inter"


def weather_steps(w: dict, circuit: Circuit) -> tuple[int, str]:
    """17.2: how many advances of the right-hand grid (B) change the current weather, and the
    weather it changes to. (99, current) when the grid never changes it."""
    now = R.weather_now(w, circuit)
    cur = dict(w)
    for steps in range(1, 36 * 7 + 1):
        cur, _ = R.weather_advance(cur, circuit.weather_b)
        fut = R.weather_now(cur, circuit)
        if fut != now:
            return steps, fut
    return 99, now


def first_tyre(grid_pos: int, steps: int, now: str, future: str, roll: Callable[[], int]) -> str:
    """17.8: the bot's tyres at the start (grid_pos 1 = pole)."""
    if steps >= 4:
        if now == "dry":  # A
            r = roll()
            if grid_pos <= 2:
                return "hard" if r <= 2 else "soft"
            return "soft" if r <= 2 else "hard"
        return rain_tyre(now)  # B
    if future == "dry":  # C: the current weather is rain
        return rain_tyre(now) if roll() <= 3 else "soft"
    return rain_tyre(future)  # D (reading: the rain tyre for the coming weather)


def wants_pit(life: int, tyre: str, now: str, steps: int, future: str, roll: Callable[[], int]) -> bool:
    """17.9.1 A-E, checked in order; a die is rolled only where a rule needs one."""
    if life <= -1:  # B (and a tyre already at -2: the same reading)
        return True
    if steps >= 4 and not correct(tyre, now):  # C
        return True
    if steps <= 2 and not correct(tyre, future):  # D
        return True
    if life == 1 and tyre != "wet" and roll() <= 2:  # A (wets never wear: no stop for wear)
        return True
    if steps == 3 and not correct(tyre, future) and roll() <= 2:  # E
        return True
    return False


def new_tyre(steps: int, now: str, future: str, soft_left: bool) -> str:
    """17.9.2 A-D."""
    if steps >= 4:
        if now == "dry":
            return "soft" if soft_left else "hard"
        return rain_tyre(now)
    if future == "dry":
        return "soft" if soft_left else "hard"
    return rain_tyre(future)


def life_of(tyre: str) -> int:
    return rules()["tyres"][tyre]["life"]


def wear(life: int, tyre: str, weather: str) -> int:
    """17.7: a crossing wears the bot's tyres like a car's, but wets never wear."""
    return life if tyre == "wet" else R.wear(life, tyre, weather)


def mp(seat: int, side: str, prog: int, tyre: str, weather: str, life: int) -> int:
    """17.5.2: base speed of the tyre + the progression track (dry or rain), less 1 or 2 at a
    lifespan of -1 or -2."""
    c = card(seat, side)
    track = bot_cards()["tracks"][side]["rain" if weather in R.RAIN else "dry"]
    return max(0, c["speed"][tyre] + track[prog] - R.tyre_penalty(life))


def advance_prog(prog: int) -> int:
    """17.4: the cube moves on with the forecast, never back; after 6 it goes to 1."""
    return 1 if prog >= PROG_TOP else prog + 1


def stays_on(roll: int, tyre: str, weather: str) -> bool:
    """17.11: a bot not on wets in the rain keeps the track on this black roll or more."""
    need = bot_cards()["course_out"][weather][tyre]
    return roll >= need


def rain_cells(weather: str) -> int:
    return bot_cards()["rain_cells"][weather]


def quali_rerolls(first: int, value: int) -> bool:
    """17.3.1 step 3: a first roll at or below the card's value means two purple rolls."""
    return first <= value
