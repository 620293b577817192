"""A bot takes an absent player's seat (section 17), and gives the car back.

The table hands an absent seat to the automatic player; for Pole that means a section-17 bot
drives the car (`takeover`), through an engine action the table alone commits, until the owner
takes it back (`give_back`). Readings, both ways:
- the car itself carries over: position, laps, tyre in use and its life, damage, pit-stop state,
  pit exit (green MP), course-out, DRS token, retirement or finish;
- the player's dashboard is put aside while the bot drives and comes back unchanged: EP, BP, SP
  (bots have none, 17.2/17.6: they never bid), stress level (bots take no stress, 17.12), driver
  and team (their abilities are the driver's, not the bot card's), the driver's tokens;
- the tyre box stays the player's: a bot fits new sets of its own (17.2, unlimited), except the
  one soft set, which it takes from the box if the box still has one (and only then: 17.2's single
  soft set is the car's);
- the bot card is the one of the car's colour (17.1), on the table's side (the `bot_side` option,
  A by default); its speed cube stands where the other bots' cubes stand (they share one space,
  17.1), or at the start of the progression track when no other bot races, and moves on with the
  forecast from then on (17.4);
- a decision the player was asked for is taken the bot's way: in qualifying the bot's card rule
  (17.3.1), the first tyres by 17.8, a pit choice under the safety car by 17.9, a defence by the
  bot's overtaking value without bids (17.6.1; dice already rolled stand), a collision roll as it
  fell (17.2: no rerolls); a turn not yet moved is driven by the card from its start (a purple
  roll already made stands, 17.5.1/17.10); a turn under way (after a won fight, or a live bid) is
  driven on by the bot with the MP the turn had;
- a give-back during the bot's own turn (it waits on a defender) takes effect when that turn ends.
"""

from __future__ import annotations


from bot.games.base import seat_ref
from bot.games.pole.common import log
from bot.i18n import msg

TAKE, BACK = "bot_takeover", "bot_return"
# What is the player's and waits while the bot drives (see the module's readings).
DASHBOARD = ("ep", "bp", "sp", "sp0", "stress", "stress_r", "driver", "team", "wear_tok", "blow_tok")


def stand_in(car: dict) -> bool:
    """A player's car a bot drives for now."""
    return bool((car.get("bot") or {}).get("for"))


def racing(st: dict) -> bool:
    return st["phase"] in ("setup", "quali", "tyres", "race")


def takeover_action(st: dict, seat: int) -> dict | None:
    if not isinstance(seat, int) or not 0 <= seat < st["seats"] or not racing(st):
        return None
    car = st["cars"][seat]
    return None if car.get("bot") or car["out"] is not None or car["finished"] is not None else {"type": TAKE}


def return_action(st: dict, seat: int) -> dict | None:
    if not isinstance(seat, int) or not 0 <= seat < st["seats"]:
        return None
    car = st["cars"][seat]
    return {"type": BACK} if stand_in(car) and not car["bot"].get("back") else None


def dashboard(car: dict) -> dict:
    """The player's own numbers: put aside while a bot drives, else the car's."""
    return car["bot"]["dash"] if stand_in(car) else car


def convert(st: dict, seat: int) -> None:
    """The player's car becomes a bot's (17): the dashboard put aside, the bot card of its colour."""
    car = st["cars"][seat]
    dash = {k: car.pop(k) for k in DASHBOARD if k in car}
    cubes = [c["bot"]["prog"] for c in st["cars"] if c.get("bot")]
    car["bot"] = {
        "side": st["options"].get("bot_side", "A"),
        "prog": max(cubes, default=0),
        "soft": bool(car["sets"]["soft"]),
        "pit_lap": -1,
        "pit": False,
        "for": True,
        "dash": dash,
    }
    car.update(ep=0, bp=0, sp=0, sp0=0)


def restore(car: dict) -> None:
    """The bot gives the car back: the player's dashboard as it was."""
    b = car.pop("bot")
    for k in ("ep", "bp", "sp", "sp0"):
        car.pop(k, None)
    car.update(b["dash"])


def restore_all(st: dict) -> None:
    """Every stand-in's car back to its player, quietly (a championship race is over)."""
    for car in st["cars"]:
        if stand_in(car):
            restore(car)


def settle(st: dict, ev: list) -> None:
    """Between turns: a give-back that waited for the bot's turn to end takes effect."""
    for seat, car in enumerate(st["cars"]):
        if stand_in(car) and car["bot"].get("back"):
            restore(car)
            log(st, ev, msg("{p} drives their own car again.", p=seat_ref(seat)))
