"""The AI's Pole Position (`AI`, bot/ai/game.py), and its race plan: the rules a good player keeps
across a race, which a look-ahead of a few moves cannot see (issue #34). The searching levels weigh only the moves the plan allows
(`allowed`), and drive their moves by it: strong where the next turn reaches furthest, normal
to the furthest cell.

- Tyres and stops (the stop plan): the stops and sets with the fewest turns to the flag
  expected over the laps left and the weather the forecast holds (8: the weather to come is open
  to all, only when the clouds come is chance), each set's pace its die's mean less its wear
  (6.2) or, a dry tyre in the rain, its turns off the track (4.6), a stop about two turns, the
  one stop the rules demand (3.3) by the last lap it may be made. Hard first in the dry (4 clean
  laps, then 2 on softs: Monaco's 6 laps clean on one stop); a shower the pit meets early calls
  the car in for inters, one mostly gone by the next pit is driven through.
- Points: an EP or BP one at a time (a second boost or brake in a turn costs 2 more points for 3
  more cells, 4.4-4.5) until the last lap; a reroll only on the lowest two faces of the die (4.1:
  about 2 cells gained, a corner's SP buys 1).
- Where the car ends its move: where the next turn's usual roll takes it furthest (strong). The
  furthest cell may leave the car in the wrong lane for the next corner's double arrow, and a
  corner on its racing line costs 2 MP where off it costs 5 (4.2.1); the race order alone hardly
  moves in a short look-ahead.
- Qualifying: roll again unless the first roll is a 6 (a bot wins every tie, 17.3.1).

Tried and dropped (200 seeded Monaco races, 500000+, strong alone with 3 bots; the stop plan
ahead of all in 138): a move into a position fight weighed by its chance against the bot's
overtaking value (17.6.1), lost MP and all (132); 2 SP kept back from corners until the last lap,
for fights and showers (134).

Everything here reads a state redrawn from the seat's view (the caller's): its own car, the
others' places, the circuit and the weather, all open to every seat.
"""

from __future__ import annotations

import dataclasses
import functools
import math

import bot.games.pole.driving as DRIVE
import bot.games.pole.rules as R
from bot.ai.game import GameAI
from bot.games.base import Action, Engine, State, is_preference
from bot.games.pole.common import START_ROUNDS, face_value
from bot.games.pole.content import Circuit, circuits, rules

# Rows a car moves in a turn, about: a lap of R rows takes about R / ROWS_PER_TURN turns (designed).
ROWS_PER_TURN = 10.0
# A lap at -2 may blow out (6.3: one roll in six, then -1 more on every roll): cells lost, about.
BLOWOUT_COST = 4.0
# Rows a move that does not end on the track (a fight, the pit, the flag) is taken to be worth
# beyond its own place, as a plain move's next turn would be (designed: about a turn's move).
NEXT_TURN_ROWS = 9.0


def mean_roll(tyre: str) -> float:
    faces = rules()["dice"][rules()["tyres"][tyre]["die"]]
    return sum(faces) / len(faces)


# ---------------------------------------------------------------- the stop plan
# Where the stops go over the laps left, and on which tyres: the fewest rounds to the flag
# expected, over the weather to come. The forecast is open to every seat (8: grid A's spaces in
# order, grid B's five clouds between them); only when the clouds come is chance (the weather die:
# a cloud on 2 faces of 6). A stop costs about two turns; a set wears at each crossing (6.2), a
# dry tyre in the rain leaves the track on its high rolls (4.6), and the stop the rules demand
# comes before the last lap (3.3).

# Rows a turn gains beyond the die's roll: the points (EP, BP, a corner's SP) and the racing
# lines, about (designed: a dry race on hards runs about 10 rows a turn).
EXTRA_ROWS = 1.5
# Turns a stop costs: two in the pit lane, the way out on the purple die with the MP kept (7).
PIT_TURNS = 2.2
# The most clouds looked ahead (a race of about 45 rounds sees about 15).
CLOUDS_AHEAD = 40


def cloud_chance() -> float:
    faces = rules()["dice"]["weather"]
    return faces.count("cloud") / len(faces)


@functools.cache
def turn_rows(tyre: str, weather: str, life: int) -> float:
    """Rows a turn on `tyre` at `life` in `weather`, about: the die's mean and EXTRA_ROWS, less
    the wear (6.2) and a blow-out's risk at -2 (6.3). A roll at or over the course-out limit
    (4.6) leaves the track for two turns of 4 cells (the SP that would keep it on are taken to be
    spent by then: a car on dry tyres through a shower went off six turns running)."""
    faces = [face_value(f) for f in rules()["dice"][rules()["tyres"][tyre]["die"]]]
    blowout = BLOWOUT_COST / ROWS_PER_TURN if life <= -2 and tyre != "wet" else 0.0
    on = [max(1.0, f + EXTRA_ROWS - R.tyre_penalty(life) - blowout) for f in faces]
    limit = R.course_out_limit(tyre, weather)
    if limit is None:
        return sum(on) / len(on)
    kept = [r for f, r in zip(faces, on) if f < limit]
    stay = len(kept) / len(faces)
    off = rules()["course_out_cells"]
    return (sum(kept) / len(faces) + (1 - stay) * 2 * off) / (stay + 2 * (1 - stay))


Sets = tuple[tuple[str, tuple[int, ...]], ...]


def _sets(sets: dict[str, list[int]]) -> Sets:
    return tuple(sorted((k, tuple(sorted(v))) for k, v in sets.items()))


def _take(sets: Sets, tyre: str) -> tuple[int, Sets] | None:
    """The longest-lived set of `tyre` (as the engine fits it) and the sets left, None if none."""
    lives = dict(sets).get(tyre, ())
    if not lives:
        return None
    return lives[-1], tuple((k, v[:-1] if k == tyre else v) for k, v in sets)


def _put(sets: Sets, tyre: str, life: int) -> Sets:
    return tuple((k, tuple(sorted(v + (life,))) if k == tyre else v) for k, v in sets)


class StopPlan:
    """The expected rounds to the flag from a lap's end, for a race on `circuit` whose weather
    stands at `weather` (the grids' tokens) now: `choices` at a lap's end (go on, or stop for a
    kind of tyre), `lap` for a lap begun. Clouds counted from now index the weather to come."""

    def __init__(self, circuit: Circuit, weather: dict) -> None:
        self.circuit = circuit
        self.rows = len(circuit.rows)
        self.weathers = [R.weather_now(weather, circuit)]
        w = dict(weather)
        for _ in range(CLOUDS_AHEAD):
            w, _ = R.weather_advance(w, circuit.weather_b)
            self.weathers.append(R.weather_now(w, circuit))
        self.memo: dict[tuple, float] = {}

    def weather(self, clouds: int) -> str:
        return self.weathers[min(clouds, CLOUDS_AHEAD)]

    def clouds(self, turns: float) -> list[tuple[int, float]]:
        """How many clouds come in so many turns, with their chances: the binomial's mean and a
        standard deviation either side (a quarter each), so the plan stays quick."""
        p = cloud_chance()
        mean, sd = turns * p, math.sqrt(max(0.0, turns * p * (1 - p)))
        low, mid, high = max(0, round(mean - sd)), round(mean), round(mean + sd)
        return [(low, 0.25), (mid, 0.5), (high, 0.25)]

    def stint(self, tyre: str, life: int, clouds: int, share: float) -> float:
        """Turns to run `share` of a lap: its first half in the weather now, the rest in the
        weather the clouds of that half bring."""
        first = share * self.rows / 2 / turn_rows(tyre, self.weather(clouds), life)
        later = self.weather(clouds + round(first * cloud_chance()))
        return first + share * self.rows / 2 / turn_rows(tyre, later, life)

    def lap(self, lap: int, tyre: str, life: int, sets: Sets, pitted: bool, clouds: int, share: float = 1.0) -> float:
        """Expected turns from `share` of lap `lap` (0-based) to go, to the flag."""
        key = (lap, tyre, life, sets, pitted, clouds, share)
        if key not in self.memo:
            turns = self.stint(tyre, life, clouds, share)
            if lap >= self.circuit.laps - 1:
                self.memo[key] = turns
            else:
                self.memo[key] = turns + sum(
                    p * min(self.choices(lap, tyre, life, sets, pitted, clouds + k).values())
                    for k, p in self.clouds(turns)
                )
        return self.memo[key]

    def choices(self, lap: int, tyre: str, life: int, sets: Sets, pitted: bool, clouds: int) -> dict[str | None, float]:
        """At the end of lap `lap`: the expected turns to the flag for going on (None) and for a
        stop for each kind of tyre left (the stop wears the set taken off like a crossing, 7.1)."""
        worn = R.wear(life, tyre, self.weather(clouds))
        out: dict[str | None, float] = {}
        if pitted or lap + 1 < self.circuit.laps - 1:  # 3.3: no last lap without a stop
            out[None] = self.lap(lap + 1, tyre, worn, sets, pitted, clouds)
        back = _put(sets, tyre, worn)
        for kind in rules()["tyres"]:
            taken = _take(back, kind)
            if taken is not None:
                out[kind] = PIT_TURNS + self.lap(lap + 1, kind, taken[0], taken[1], True, clouds)
        return out


@functools.lru_cache(maxsize=64)
def _plan(circuit: str, a: int, b: int) -> StopPlan:
    return StopPlan(circuits()[circuit], {"a": a, "b": b})


def stop_plan(state: State) -> StopPlan:
    return _plan(state["circuit"], state["weather"]["a"], state["weather"]["b"])


def best_tyre(state: State, seat: int, tyres: list[str]) -> str:
    """The set to fit at a stop (the car in the pit, its old set back among its sets): the one
    with the fewest turns to the flag expected (the stop plan); on a tie the longer-lived, which
    needs no further stop."""
    car = state["cars"][seat]
    plan, sets = stop_plan(state), _sets(car["sets"])

    def turns(tyre: str) -> float:
        taken = _take(sets, tyre)
        return 1e9 if taken is None else plan.lap(car["laps"], tyre, taken[0], taken[1], True, 0)

    return min(tyres, key=lambda t: (round(turns(t), 1), -(_take(sets, t) or (0,))[0]))  # ties: the longer-lived


# Turns a longer-lived first set may cost over the plan's best (designed): the stop comes late, the
# SP it gives back (7.1) spent before it, and the laps that settle the places run on the faster
# die (hard first in the dry: 80 of 120 seeded races ahead of every bot against softs' 73).
START_MARGIN = 1.0


def start_tyre(state: State, tyres: list[str]) -> str:
    """The first set: the one with the fewest turns to the flag expected (the stop plan: hard in
    the dry, 4 clean laps and the stop for softs late; the rain's tyres for rain that stays)."""
    plan, sets = stop_plan(state), _sets(state["cars"][0]["sets"])

    def turns(tyre: str) -> float:
        taken = _take(sets, tyre)
        return 1e9 if taken is None else plan.lap(0, tyre, taken[0], taken[1], False, 0)

    best = min(turns(t) for t in tyres)
    close = [t for t in tyres if turns(t) <= best + START_MARGIN]
    return max(close, key=lambda t: (rules()["tyres"][t]["life"], -turns(t)))


def stop_choices(state: State, seat: int) -> dict[str | None, float]:
    """The expected turns to the flag at the end of the car's lap for going on (None) and for a
    stop for each kind of tyre, the clouds of the rest of the lap counted (the stop plan)."""
    plan = stop_plan(state)
    car = state["cars"][seat]
    pos = car["pos"]
    share = round((plan.rows - pos[1]) / plan.rows, 2) if pos and pos[0] == "t" else 0.0
    turns = plan.stint(car["tyre"], car["life"], 0, share)
    sets = _sets(car["sets"])
    out: dict[str | None, float] = {}
    for k, p in plan.clouds(turns):
        for choice, value in plan.choices(car["laps"], car["tyre"], car["life"], sets, car["pitted"], k).items():
            out[choice] = out.get(choice, 0.0) + p * value
    return out


def wants_pit(state: State, seat: int) -> bool:
    """Whether the car should stop at the pit on this lap (3.3, 6.2, 7, 8): a stop for some tyre
    saves turns to the flag (the stop plan), or it is the last lap a stop may be made."""
    circuit = circuits()[state["circuit"]]
    car = state["cars"][seat]
    if circuit.laps - car["laps"] <= 1:
        return False  # the last lap: the flag comes first
    choices = stop_choices(state, seat)
    return None not in choices or min(choices, key=lambda c: choices[c]) is not None


def last_lap(state: State, seat: int) -> bool:
    return state["cars"][seat]["laps"] >= circuits()[state["circuit"]].laps - 1


def wants_reroll(state: State, seat: int) -> bool:
    """A reroll on the lowest two faces of the die (4.1), while the car has an SP for it."""
    t = state["turn"]
    if state["cars"][seat]["sp"] - t["reduce"] < 1:
        return False
    faces = sorted(face_value(f) for f in rules()["dice"][t["die"]])
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


def affordable(state: State, seat: int, o: dict) -> bool:
    """One boost and one brake a turn at most (4.4, 4.5) until the last lap."""
    return last_lap(state, seat) or (o["ep"] <= 1 and o["bp"] <= 1)


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
