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

from typing import Any

from bot.games.base import seat_ref
import bot.games.pole.bots as BOTS
import bot.games.pole.rules as R
from bot.games.pole.common import car_name, log, tyre_name
from bot.games.pole.content import circuits
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


def _convert(st: dict, seat: int) -> None:
    car = st["cars"][seat]
    dash = {k: car.pop(k) for k in DASHBOARD if k in car}
    cubes = [c["bot"]["prog"] for c in st["cars"] if c.get("bot")]
    car["bot"] = {"side": st["options"].get("bot_side", "A"), "prog": max(cubes, default=0),
                  "soft": bool(car["sets"]["soft"]), "pit_lap": -1, "pit": False, "for": True, "dash": dash}
    car.update(ep=0, bp=0, sp=0, sp0=0)


def _restore(car: dict) -> None:
    b = car.pop("bot")
    for k in ("ep", "bp", "sp", "sp0"):
        car.pop(k, None)
    car.update(b["dash"])


def restore_all(st: dict) -> None:
    """Every stand-in's car back to its player, quietly (a championship race is over)."""
    for car in st["cars"]:
        if stand_in(car):
            _restore(car)


def takeover(eng: Any, st: dict, rng: Any, ev: list, seat: int) -> None:
    """17: the bot drives `seat`'s car from now on; a decision the game waited for is taken."""
    car = st["cars"][seat]
    t = st["turn"]
    own = t is not None and t["seat"] == seat and not t.get("bot")
    restart = own and t["stage"] == "move" and t["ms"] is None and "fight" not in t
    if restart and t["pit_exit"]:  # the pit exit's purple roll and green MP stand (17.10)
        car["pit_turn"], car["green"] = 3, t["green"]
    face = t["rolls"][t["use"]] if restart and t["die"] == "purple" else None
    if own and t["ms"] is not None and t["stage"] == "move":
        eng._charge(st, t["ms"])  # what the player's move used so far is paid from their dashboard
    _convert(st, seat)
    log(st, ev, msg("{p} is away: a bot (card {side}) drives their car now.", p=seat_ref(seat),
                         side=car["bot"]["side"]), now=True)
    ph = st["phase"]
    if ph == "setup":
        if not eng.to_act(st):
            eng._setup_done(st, rng, ev)
    elif ph == "quali":
        st["quali"]["choice"].pop(str(seat), None)
        if str(seat) in st["quali"]["first"] and not eng.to_act(st):
            eng._resolve_session(st, rng, ev)
    elif ph == "tyres":
        st["tyre_pick"].pop(str(seat), None)
        if not eng.to_act(st):
            eng._start_race(st, rng, ev)
    elif st.get("sc"):
        if st["sc"]["order"][st["sc"]["i"]] == seat and eng._sc_decide(st, rng, ev):
            eng._next_turn(st, rng, ev)
    elif restart:
        st["turn"] = None
        if not eng._bot_turn(st, rng, ev, seat, face):
            eng._next_turn(st, rng, ev)
    elif own and t["stage"] == "pit_tyre":  # 17.9.2: the bot's new set
        c = circuits()[st["circuit"]]
        steps, future = BOTS.weather_steps(st["weather"], c)
        tyre = BOTS.new_tyre(steps, R.weather_now(st["weather"], c), future, car["bot"]["soft"])
        eng._bot_fit(car, tyre)
        log(st, ev, msg("{p} fits {t} tyres.", p=car_name(st, seat), t=tyre_name(tyre)))
        eng._end_turn(st, rng, ev)
    elif t is not None:
        if own:  # a turn under way: the bot drives on with the MP it had
            t["bot"] = True
            t.setdefault("n", 0)
        if seat in _waiting(t) or (own and t["stage"] == "move"):
            _answer(eng, st, rng, ev, seat)


def _waiting(t: dict) -> list[int]:
    f = t.get("fight") or {}
    if t["stage"] == "defend":
        return [f["opt"]["def"][f["i"]]]
    if t["stage"] == "crash":
        cr = f["crash"]
        return [cr["cars"][cr["i"]]]
    return [t["seat"]] if t["stage"] == "attack" else []


def _answer(eng: Any, st: dict, rng: Any, ev: list, seat: int) -> None:
    """The fight or move the former player was to answer goes on the bot's way."""
    t = st["turn"]
    f = t.get("fight")
    if f is None:  # a move under way after a won fight
        if not eng._bot_go(st, rng, ev):
            eng._end_turn(st, rng, ev)
        return
    if t["stage"] == "defend":
        f["answer"] = None
        f["fights"] = False
    elif t["stage"] == "attack":
        f["a_answer"] = None
    t["stage"] = "move"
    eng._after_fight(st, rng, ev, eng._fight(st, rng, ev))


def give_back(eng: Any, st: dict, rng: Any, ev: list, seat: int) -> None:
    """The player takes the car back (at once, or when the bot's turn under way ends)."""
    car = st["cars"][seat]
    t = st["turn"]
    if t is not None and t["seat"] == seat:
        car["bot"]["back"] = True
        log(st, ev, msg("{p} takes the car back when this turn ends.", p=seat_ref(seat)), now=True)
        return
    _restore(car)
    log(st, ev, msg("{p} drives their own car again.", p=seat_ref(seat)), now=True)


def settle(st: dict, ev: list) -> None:
    """Between turns: a give-back that waited for the bot's turn to end takes effect."""
    for seat, car in enumerate(st["cars"]):
        if stand_in(car) and car["bot"].get("back"):
            _restore(car)
            log(st, ev, msg("{p} drives their own car again.", p=seat_ref(seat)))

