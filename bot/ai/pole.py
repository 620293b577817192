"""The AI's Pole Position (`AI`, bot/ai/game.py), and its race plan: the rules a good player keeps
across a race, which a look-ahead of a few moves cannot see (issue #34). The searching levels weigh only the moves the plan allows
(`allowed`), and drive their moves by it: strong where the next turn reaches furthest, normal
to the furthest cell.

- Tyres: the set that runs the laps left at the best pace (the die's mean roll, less the wear
  penalty of each lap, 6.2), right for the weather to come; hard first in the dry (4 clean laps,
  then 2 on softs: Monaco's 6 laps clean on one stop).
- Pit stops: the one stop the rules demand (3.3) before the tyres wear below 0 at the next
  crossing, or on the last lap it may be made; another only when the wear still to come costs
  more than a stop (about two turns), or for the weather (8). The wear counts only until the
  forecast's next weather makes the set wrong (a stop comes then anyway): the rules stopped for
  inters, again for fresh inters through the shower, then for softs.
- Points: an EP or BP one at a time (a second boost or brake in a turn costs 2 more points for 3
  more cells, 4.4-4.5) until the last lap; a reroll only on the lowest two faces of the die (4.1:
  about 2 cells gained, a corner's SP buys 1), never of a roll that keeps the track in the rain
  on a tyre that may leave it (4.6); a corner's SP only beyond 3 kept until the last
  lap (for rerolls, fights and a shower's rolls, 4.6.1).
- Where the car ends its move: where the next turn's usual roll takes it furthest (strong). The
  furthest cell may leave the car in the wrong lane for the next corner's double arrow, and a
  corner on its racing line costs 2 MP where off it costs 5 (4.2.1); the race order alone hardly
  moves in a short look-ahead.
- Qualifying: roll again unless the first roll is a 6 (a bot wins every tie, 17.3.1).

Tried and dropped (strong alone with 3 section-17 bots on Monaco, the share of races ahead of
every bot): a stop plan choosing the stops and sets by the fewest turns to the flag expected over
the forecast's weather (the clouds' timing a binomial, a dry tyre in the rain off the track two
turns in three, a stop 2.2 turns): fewer stops (3+ in 7 races of 200 against 25) but no more races
ahead: the arena's 200 0.69 -> 0.69, 200 more (500000+) 136 -> 138, Great Britain 35 -> 33 of
60, its decisions' p95 0.009 -> 0.10 s; on it, slicks weighed 0.75 as fast in a shower (131), a
fight move weighed by its chance against the bot's overtaking value, lost MP and all (132), 2 SP
kept back from corners for fights and showers (134). On today's rules (400 races: the arena's 200
and 500000+, paired): 3 SP kept back from corners and rerolls for fights until the last lap,
274 -> 258 (the dry 141 -> 125 of 177); rerolls on the lowest three faces 274 -> 254, on the
lowest one 284 -> 267; the first tyres for rain within 3 clouds (as the bots) 284 -> 277. Then
with the wear counted to the weather's change (284): the pit called for the weather 1 cloud
ahead 281, 3 clouds 258; a fight move worth 5 rows beyond its place 278, 14 rows 284; the next
turn's reach averaged over rolls of 2 less, the usual and 2 more 285; no stop for the weather on
the last 2 laps 284; softs first when rain comes within 5 clouds 285, 8 clouds 275; a stop
weighed at 10 or 28 cells 283; a corner's SP only beyond 1 kept 283, 2: 291, 4: 280, 5: 272
(3 kept: 297). On that (297): only 1 SP kept on the last 2 laps 291; qualifying kept on a 5
as on a 6: 294. With no reroll of a safe roll in the rain (305): a move ending on a low-grip cell
at its limit (4.6 B) weighed 1.5 rows less: the same 400 races but one.

Everything here reads a state redrawn from the seat's view (the caller's): its own car, the
others' places, the circuit and the weather, all open to every seat.
"""

from __future__ import annotations

import dataclasses

import bot.games.pole.bots as BOTS
import bot.games.pole.driving as DRIVE
import bot.games.pole.rules as R
from bot.ai.game import GameAI
from bot.games.base import Action, Engine, State, is_preference
from bot.games.pole.common import START_ROUNDS, face_value
from bot.games.pole.content import Circuit, circuits, rules

# Rows a car moves in a turn, about: a lap of R rows takes about R / ROWS_PER_TURN turns (designed).
ROWS_PER_TURN = 10.0
# What a pit stop costs, in cells: two turns in the pit lane, less the cells of the lane (designed).
PIT_COST = 18.0
# A lap at -2 may blow out (6.3: one roll in six, then -1 more on every roll): cells lost, about.
BLOWOUT_COST = 4.0
# Rows a move that does not end on the track (a fight, the pit, the flag) is taken to be worth
# beyond its own place, as a plain move's next turn would be (designed: about a turn's move).
NEXT_TURN_ROWS = 9.0


def mean_roll(tyre: str) -> float:
    faces = rules()["dice"][rules()["tyres"][tyre]["die"]]
    return sum(faces) / len(faces)


def lap_penalties(life: int, tyre: str, weather: str, laps: int) -> float:
    """Cells a turn the wear costs, summed over the next `laps` laps from a lifespan of `life`
    (6.2, 6.3)."""
    lost = 0.0
    for _ in range(laps):
        lost += R.tyre_penalty(life) + (BLOWOUT_COST if life <= -2 and tyre != "wet" else 0.0)
        life = R.wear(life, tyre, weather)
    return lost


def stint_worth(circuit: Circuit, tyre: str, life: int, weather: str, laps: int) -> float:
    """Cells a set of `tyre` at `life` is worth over `laps` laps against the slowest die's pace: its
    mean roll a turn, less the wear (a tyre wrong for the weather: as good as lost)."""
    if not BOTS.correct(tyre, weather):
        return -1000.0
    turns = len(circuit.rows) / ROWS_PER_TURN
    return laps * turns * (mean_roll(tyre) - mean_roll("wet")) - lap_penalties(life, tyre, weather, laps) * turns


def coming_weather(state: State, soon: int = 2) -> str:
    """The weather to fit tyres for: the forecast's next weather when it comes within `soon`
    advances of grid B (a cloud on the weather die, a third of the rounds), else today's."""
    circuit = circuits()[state["circuit"]]
    steps, future = BOTS.weather_steps(state["weather"], circuit)
    return future if steps <= soon else R.weather_now(state["weather"], circuit)


def best_tyre(state: State, seat: int, tyres: list[str]) -> str:
    """The set to fit at a stop for the laps left (each kind's longest-lived, as the engine fits it)."""
    circuit = circuits()[state["circuit"]]
    car = state["cars"][seat]
    weather = coming_weather(state)
    laps = max(1, circuit.laps - car["laps"])
    return max(tyres, key=lambda t: (stint_worth(circuit, t, max(car["sets"][t]), weather, laps), t == "soft"))


def start_tyre(state: State, tyres: list[str]) -> str:
    """The first set: the longest-lived right for the weather (hard in the dry: 4 clean laps, the
    stop fits the softs for the last 2). The stop comes late, the SP it gives back (7.1) spent
    before it, and the laps that settle the places run on the faster die. Softs first: 73 of 120
    seeded races ahead of every bot against 80."""
    weather = coming_weather(state, soon=1)
    right = [t for t in tyres if BOTS.correct(t, weather)] or tyres
    return max(right, key=lambda t: (rules()["tyres"][t]["life"], mean_roll(t)))


def wants_pit(state: State, seat: int) -> bool:
    """Whether the car should stop at the pit on this lap (3.3, 6.2, 7, 8)."""
    circuit = circuits()[state["circuit"]]
    car = state["cars"][seat]
    laps_left = circuit.laps - car["laps"]  # this one included
    if laps_left <= 1:
        return False  # the last lap: the flag comes first
    if not BOTS.correct(car["tyre"], coming_weather(state)):
        return True  # rain coming, or gone
    weather = R.weather_now(state["weather"], circuit)
    after = R.wear(car["life"], car["tyre"], weather)
    if not car["pitted"]:
        return laps_left == 2 or after < 0  # the last lap a stop may be made (3.3), or worn tyres
    turns = len(circuit.rows) / ROWS_PER_TURN
    return (
        lap_penalties(after, car["tyre"], weather, min(laps_left - 1, laps_to_change(state, seat))) * turns > PIT_COST
    )


# Rounds a cloud takes, about: two faces of the weather die's six (8.1).
ROUNDS_PER_CLOUD = 3.0


def laps_to_change(state: State, seat: int) -> int:
    """Whole laps the car's set still runs before the forecast's next weather makes it wrong
    (17.2), about (the clouds' timing: a cloud every 3 rounds); 99 when that weather keeps it.
    A stop then fits the right set anyway: the wear after it costs this set nothing."""
    circuit = circuits()[state["circuit"]]
    steps, future = BOTS.weather_steps(state["weather"], circuit)
    if BOTS.correct(state["cars"][seat]["tyre"], future):
        return 99
    return int(steps * ROUNDS_PER_CLOUD / (len(circuit.rows) / ROWS_PER_TURN))


def last_lap(state: State, seat: int) -> bool:
    return state["cars"][seat]["laps"] >= circuits()[state["circuit"]].laps - 1


def wants_reroll(state: State, seat: int) -> bool:
    """A reroll on the lowest two faces of the die (4.1), while the car has an SP for it."""
    t = state["turn"]
    if state["cars"][seat]["sp"] - t["reduce"] < 1:
        return False
    faces = sorted(face_value(f) for f in rules()["dice"][t["die"]])
    if t["die"] != "purple":
        car = state["cars"][seat]
        limit = R.course_out_limit(car["tyre"], R.weather_now(state["weather"], circuits()[state["circuit"]]))
        if limit is not None and face_value(t["rolls"][t["use"]]) < limit:
            return False  # a roll that keeps the track in the rain (4.6): a reroll may not
    return face_value(t["rolls"][t["use"]]) <= faces[1]


def next_roll(state: State, seat: int) -> int:
    """The MP the car's next roll gives, about: the die's mean less the wear (3.2.4: the purple
    die in the start's rounds)."""
    car = state["cars"][seat]
    if state["round"] + 1 <= START_ROUNDS:
        return 4
    return max(1, round(mean_roll(car["tyre"])) - R.tyre_penalty(car["life"]))


def reach(state: State, seat: int, o: dict) -> float:
    """Where a move leaves the car for the next turn, in rows: the furthest the next turn's usual
    roll takes it from where the move ends (the lane of the next corner's double arrow and the
    shaded cells of its racing line count there, 4.2.1), without points, the others where they
    are now; the move's own place breaks ties."""
    if o["kind"] != "end" or o["pos"][0] != "t":
        return o["prog"] + NEXT_TURN_ROWS
    circuit = circuits()[state["circuit"]]
    ctx = DRIVE.move_ctx(state, seat)
    ctx = dataclasses.replace(ctx, ep=0, bp=0, sp=0, start_round=state["round"] + 1 <= START_ROUNDS)
    d = o["ms"]
    start = R.MState(tuple(d["pos"]), d["laps"], 0, 0, 0, 0, 0, tuple(d["line"]), -1)
    n = next_roll(state, seat)
    ahead = max(
        (R.prog(circuit, x.state.laps, list(x.state.pos)) for x in R.search(ctx, start, n, max(1, n - 3))),
        default=o["prog"],
    )
    return min(ahead, circuit.laps * len(circuit.rows)) + 0.01 * o["prog"]  # nothing past the flag


# SP a corner's cells never spend until the last lap (designed): kept for rerolls, position fights
# (5.1) and a shower's rolls (4.6.1), where an SP buys more than a corner's one cell.
SP_KEPT = 3


def affordable(state: State, seat: int, o: dict) -> bool:
    """One boost and one brake a turn at most (4.4, 4.5) until the last lap, and a corner's SP
    (4.2) only from the points beyond the SP kept."""
    if last_lap(state, seat):
        return True
    if o["sp"] and state["cars"][seat]["sp"] - state["turn"]["reduce"] - o["sp"] < SP_KEPT:
        return False
    return o["ep"] <= 1 and o["bp"] <= 1


def pit_entry(state: State, seat: int) -> float:
    """Where the pit lane begins on the car's lap, on the position track's measure (7.1): a move
    ending past it has passed the stop for this lap."""
    circuit = circuits()[state["circuit"]]
    return R.prog(circuit, state["cars"][seat]["laps"], ["t", circuit.pit_entry_row, circuit.pit_side])


def _is_pit(o: dict) -> bool:
    return o["kind"] == "pit" or o["pos"][0] == "pin"


def _moves(state: State, seat: int, options: list[Action], level: str | None) -> list[Action]:
    """The turn's moves the plan allows: a reroll if it wants one; the pit (the cheapest way in)
    when it wants a stop, never otherwise; the moves within the points' plan; and for a level,
    its one move: strong the one that reaches furthest on the next turn, normal the furthest."""
    if any(a["type"] == "reroll" for a in options) and wants_reroll(state, seat):
        return [a for a in options if a["type"] == "reroll"]
    options = [a for a in options if a["type"] not in ("reroll", "use")]
    opts = state["turn"]["opts"] or []
    moves = [a for a in options if a["type"] == "move"]
    if not moves:
        return options
    pit = [a for a in moves if _is_pit(opts[a["i"]])]
    stop = wants_pit(state, seat)
    if pit and stop:
        o = opts
        return [
            min(pit, key=lambda a: (o[a["i"]]["ep"] + o[a["i"]]["bp"] + o[a["i"]]["sp"], o[a["i"]]["kind"] != "pit"))
        ]
    flag = [a for a in moves if opts[a["i"]]["kind"] == "finish"]
    if flag:
        return flag[:1]  # the chequered flag: nothing is worth more (3.4)
    onward = [a for a in moves if not _is_pit(opts[a["i"]])] or moves
    kept = [a for a in onward if affordable(state, seat, opts[a["i"]])] or onward
    here = R.prog(circuits()[state["circuit"]], state["cars"][seat]["laps"], state["cars"][seat]["pos"])
    kept = [a for a in kept if opts[a["i"]]["prog"] > here] or kept  # a move sideways only, never
    if stop:  # the pit out of reach this turn: short of its entry, so the next turn reaches it
        entry = pit_entry(state, seat)
        kept = [a for a in kept if opts[a["i"]]["prog"] < entry] or kept
    if level == "strong":
        return [max(kept, key=lambda a: reach(state, seat, opts[a["i"]]))]
    if level is not None:
        return kept[:1]  # the options come furthest first
    return [a for a in options if a["type"] != "move"] + kept


def allowed(state: State, seat: int, options: list[Action], level: str | None = None) -> list[Action]:
    """The seat's options the plan allows (never none: all of them where it has no rule). For a
    `level`, a turn's move is the plan's one (the look-ahead's player, None, keeps them all)."""
    phase = state["phase"]
    kinds = {a["type"] for a in options}
    if phase == "quali" and kinds == {"quali"}:
        want = state["quali"]["first"][str(seat)] < 6
        return [a for a in options if a["reroll"] == want] or options
    if kinds == {"tyre"}:
        tyres = [a["tyre"] for a in options if "swap" not in a]
        pick = start_tyre(state, tyres) if phase == "tyres" else best_tyre(state, seat, tyres)
        return [a for a in options if a.get("tyre") == pick and "swap" not in a] or options
    if phase == "race" and state.get("turn") and state["turn"]["stage"] == "move":
        return _moves(state, seat, options, level) or options
    return options


def policy(engine: Engine, state: State, seat: int) -> Action:
    """How the look-ahead plays a Pole seat: the automatic player's furthest cell among the moves
    the plan allows (the automatic player spends every point it may on its first turns)."""
    acts = allowed(state, seat, [a for a in engine.legal_actions(state, seat) if not is_preference(a)])
    bids = [a for a in acts if a["type"] in ("attack", "defend")]
    if bids:  # a live bid: the seat's standing maximum, as the automatic player
        want = state["prefs"][seat]["attack" if bids[0]["type"] == "attack" else "defend"]
        return bids[min(want, len(bids) - 1)]
    moves = [a for a in acts if a["type"] in ("move", "reroll")]
    return (moves or acts or [engine.auto_action(state, seat)])[0]


# A point kept is worth the cells it will buy (4.4, 4.5: 3 cells an EP or BP; an SP a corner's
# cell or a reroll's gain), while there are turns left to spend it in (designed: one EP or BP
# every other turn, an SP a turn).
EP_CELLS = 3.0
SP_CELLS = 1.5
DONE = 10000.0


def _kept(circuit: Circuit, car: dict) -> float:
    turns = max(0.0, (circuit.laps * len(circuit.rows) - R.prog(circuit, car["laps"], car["pos"])) / ROWS_PER_TURN)
    return EP_CELLS * (min(car["ep"], turns / 2) + min(car["bp"], turns / 2)) + SP_CELLS * min(car["sp"], turns)


def score(state: State) -> list[float]:
    """Each car's standing in rows: finishers by their finishing order far ahead, retired cars far
    behind, the rest by their distance along the race (the position track's measure, a corner's
    outer lane a little ahead) and, for a player's car, the cells its points will still buy (a
    point spent on a cell the race order did not need looked free)."""
    circuit = circuits()[state["circuit"]]
    finish = state.get("finish") or []
    out = []
    for seat, car in enumerate(state["cars"]):
        if seat in finish:
            out.append(2 * DONE - finish.index(seat))
        elif car["out"] is not None:
            out.append(-DONE)
        elif car["pos"] is None:
            out.append(-float(state["order"].index(seat)))
        else:
            here = R.prog(circuit, car["laps"], car["pos"]) + 0.1 * R.corner_rank(circuit, car["pos"])
            bot = car.get("bot")
            out.append(here if bot and not bot.get("for") else here + _kept(circuit, car))
    return out


# The judgement: distance and the points still to spend, a lead of 10 rows about a sure place; the
# look-ahead plays the plan's furthest cell. Pole's move search is slow, hence few playouts.
AI = GameAI(score=score, scale=10.0, depth=6, playouts=40, policy=policy, plan=allowed)
