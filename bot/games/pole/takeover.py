"""The stand-in's moves (17): a bot takes an absent player's car, and the player takes it back.
The readings of what carries over and what waits are in standin.py; here the game goes on from
where the player left it: a decision the game waited for is taken the bot's way."""

from __future__ import annotations

import bot.games.pole.bots as BOTS
import bot.games.pole.driving as DRIVE
import bot.games.pole.fights as FIGHTS
import bot.games.pole.qualifying as QUALI
import bot.games.pole.race as RACE
import bot.games.pole.rules as R
import bot.games.pole.standin as STANDIN
import bot.games.pole.waiting as WAIT
from bot.games.base import seat_ref
from bot.games.pole.common import car_name, log, tyre_name
from bot.games.pole.content import circuits
from bot.games.rng import Rng
from bot.i18n import msg


def takeover(st: dict, rng: Rng, ev: list, seat: int) -> None:
    """17: the bot drives `seat`'s car from now on; a decision the game waited for is taken."""
    car = st["cars"][seat]
    t = st["turn"]
    own = t is not None and t["seat"] == seat and not t.get("bot")
    restart = own and t["stage"] == "move" and t["ms"] is None and "fight" not in t
    if restart and t["pit_exit"]:  # the pit exit's purple roll and green MP stand (17.10)
        car["pit_turn"], car["green"] = 3, t["green"]
    face = t["rolls"][t["use"]] if restart and t["die"] == "purple" else None
    if own and t["ms"] is not None and t["stage"] == "move":
        DRIVE.charge(st, t["ms"])  # what the player's move used so far is paid from their dashboard
    STANDIN.convert(st, seat)
    log(
        st,
        ev,
        msg("{p} is away: a bot (card {side}) drives their car now.", p=seat_ref(seat), side=car["bot"]["side"]),
        now=True,
    )
    ph = st["phase"]
    if ph == "setup":
        if not WAIT.to_act(st):
            QUALI.setup_done(st, rng, ev)
    elif ph == "quali":
        st["quali"]["choice"].pop(str(seat), None)
        if str(seat) in st["quali"]["first"] and not WAIT.to_act(st):
            QUALI.resolve_session(st, rng, ev)
    elif ph == "tyres":
        st["tyre_pick"].pop(str(seat), None)
        if not WAIT.to_act(st):
            QUALI.start_race(st, rng, ev)
    elif st.get("sc"):
        if st["sc"]["order"][st["sc"]["i"]] == seat and RACE.sc_decide(st, rng, ev):
            RACE.next_turn(st, rng, ev)
    elif restart:
        st["turn"] = None
        if not RACE.bot_turn(st, rng, ev, seat, face):
            RACE.next_turn(st, rng, ev)
    elif own and t["stage"] == "pit_tyre":  # 17.9.2: the bot's new set
        c = circuits()[st["circuit"]]
        steps, future = BOTS.weather_steps(st["weather"], c)
        tyre = BOTS.new_tyre(steps, R.weather_now(st["weather"], c), future, car["bot"]["soft"])
        DRIVE.bot_fit(car, tyre)
        log(st, ev, msg("{p} fits {t} tyres.", p=car_name(st, seat), t=tyre_name(tyre)))
        RACE.end_turn(st, rng, ev)
    elif t is not None:
        if own:  # a turn under way: the bot drives on with the MP it had
            t["bot"] = True
            t.setdefault("n", 0)
        if seat in _waiting(t) or (own and t["stage"] == "move"):
            _answer(st, rng, ev, seat)


def _waiting(t: dict) -> list[int]:
    f = t.get("fight") or {}
    if t["stage"] == "defend":
        return [f["opt"]["def"][f["i"]]]
    if t["stage"] == "crash":
        cr = f["crash"]
        return [cr["cars"][cr["i"]]]
    return [t["seat"]] if t["stage"] == "attack" else []


def _answer(st: dict, rng: Rng, ev: list, seat: int) -> None:
    """The fight or move the former player was to answer goes on the bot's way."""
    t = st["turn"]
    f = t.get("fight")
    if f is None:  # a move under way after a won fight
        if not RACE.bot_go(st, rng, ev):
            RACE.end_turn(st, rng, ev)
        return
    if t["stage"] == "defend":
        f["answer"] = None
        f["fights"] = False
    elif t["stage"] == "attack":
        f["a_answer"] = None
    t["stage"] = "move"
    RACE.after_fight(st, rng, ev, FIGHTS.fight(st, rng, ev))


def give_back(st: dict, rng: Rng, ev: list, seat: int) -> None:
    """The player takes the car back (at once, or when the bot's turn under way ends)."""
    car = st["cars"][seat]
    t = st["turn"]
    if t is not None and t["seat"] == seat:
        car["bot"]["back"] = True
        log(st, ev, msg("{p} takes the car back when this turn ends.", p=seat_ref(seat)), now=True)
        return
    STANDIN.restore(car)
    log(st, ev, msg("{p} drives their own car again.", p=seat_ref(seat)), now=True)
