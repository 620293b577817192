"""Pole Position: the standard race (seed 002, sections 2-8). Pure engine over plain data.

Flow: setup (weather, 2.4) -> qualifying Q1-Q3 (3.1; simultaneous secret reroll choices) ->
secret tyre choice (3.2.3) -> rounds (3.3) in position-track order until every car has crossed
the line on its last lap or retired (3.4). A turn: the engine rolls the die at the start of the
turn; the player may reroll for 1 SP each (4.1), choose which roll to use, spend SP to stay on
the track (4.6.1), then picks where to go from a select of reachable cells with what each costs
(tyre MP counted, boost / brake / corner SP). Position fights are settled at once from both
sides' standing maxima (rules.settle_auction explains why that equals the open auction).
Optional rules built as table options: bots (17), DRS (11), collisions (10), yellow flag (10.1),
safety car (10.2), stress (12). Not built yet: events, custom setup, drivers and teams, circuit
rules, championship.
"""
from __future__ import annotations

from typing import Any

from bot.games.base import (Action, Engine, Event, GameError, OptionSpec, State, View, choose_again, chosen,
                            move)
import bot.games.pole.bots as BOTS
from bot.games.pole.common import (START_ROUNDS, car_name, face_value, human, log, roll, running,
                                     tyre_name, weather_name)
import bot.games.pole.hidden as hidden
import bot.games.pole.championship as CHAMP
import bot.games.pole.custom as CUSTOM
import bot.games.pole.drivers as DRIVERS
import bot.games.pole.events as EVENTS
import bot.games.pole.options as OPTS
import bot.games.pole.specials as SPECIALS
import bot.games.pole.standin as STANDIN
import bot.games.pole.variants as VARIANTS
import bot.games.pole.rules as R
from bot.games.pole.content import CIRCUIT_KEYS, TYRES, circuits, rules
from bot.games.rng import Rng
from bot.i18n import Msg, from_wire, msg

SCHEMA = 2  # 2: the number of cars is "seats" (it was "n")
MAX_PICKS = 2  # "Use roll N" picks between two rerolls (4.1: one final choice; reading: changed once)
# Standing choices for position fights (the most SP to bid as attacker and as defender; "ask"
# pauses the race for a live answer when defending, "ask_attack" for a live bid when attacking;
# "yield" lets attackers through). Any values can also be sent directly.
PRESETS = {
    "careful": {"attack": 1, "defend": 1, "ask": False, "ask_attack": False, "yield": False},
    "normal": {"attack": 3, "defend": 3, "ask": False, "ask_attack": False, "yield": False},
    "hard": {"attack": 6, "defend": 6, "ask": False, "ask_attack": False, "yield": False},
    "ask": {"ask": True, "yield": False},
    "ask_both": {"ask": True, "ask_attack": True, "yield": False},
    "yield": {"yield": True, "ask": False},
}


def _collision_table() -> dict[int, str]:
    table = {int(k): v for k, v in rules()["collision"].items()}
    if sorted(table) != [1, 2, 3, 4, 5, 6] or not set(table.values()) <= {"none", "ep", "bp", "light", "heavy"}:
        raise ValueError("data/pole/rules.json: collision table")
    return table


COLLISION = _collision_table()


class PoleEngine(Engine):
    kind = "pole"
    title = "Pole Position"
    rules_version = 3  # raise it when a change makes old logs replay differently (bot/games/base.py)
    min_seats = 1  # a lone player races against bots (17)
    max_seats = 6
    options = [OptionSpec("circuit", "Circuit", list(CIRCUIT_KEYS), default="great_britain"),
               OptionSpec("bots", "Bots: cars the game drives itself (as many as fit in 6 cars)", kind="int",
                          default=0, min_value=0, max_value=5),
               OptionSpec("bot_side", "Bot cards: side A (slightly better) or B", ["A", "B"], default="A"),
               OptionSpec("drs", "DRS: +2 MP after ending a move just behind a car past the DRS line", kind="bool",
                          default=False),
               OptionSpec("collisions", "Collisions: equal fight rolls crash both cars (damage rolls, SP rerolls)",
                          kind="bool", default=False),
               OptionSpec("yellow_flag", "Yellow flag: no overtaking in a damaging collision's sector for 2 rounds "
                          "(turns collisions on)", kind="bool", default=False),
               OptionSpec("safety_car", "Safety car: after a collision that breaks down two cars, all line up "
                          "behind the SC line and may pit (turns collisions on)", kind="bool", default=False),
               OptionSpec("stress", "Stress: leading, collisions and rivals close behind raise a driver's stress "
                          "level, which limits EP, BP and SP", kind="bool", default=False)] + OPTS.SPECS

    # ------------------------------------------------------------ setup
    def describe_options(self, options: dict[str, Any]) -> list[Msg]:
        return OPTS.describe(options)

    def check_options(self, options: dict[str, Any], seats: int) -> dict[str, Any]:
        """The options as the game keeps them: an optional rule only when it is on, so tables saved
        before it existed keep theirs as they were; rules another one needs are turned on with it."""
        out = {"circuit": options["circuit"]}
        if options["bots"] or seats < 2:  # saved tables without bots keep their options as they were
            out["bots"] = options["bots"]
            out["bot_side"] = options["bot_side"]
        if options["drs"]:  # DRS (11), an optional rule
            out["drs"] = True
        if options["collisions"] or options["yellow_flag"] or options["safety_car"]:
            out["collisions"] = True  # collisions (10), an optional rule
        for name in ("yellow_flag", "safety_car", "stress"):  # 10.1 and 10.2 come with collisions; 12
            if options[name]:
                out[name] = True
        OPTS.validate(options, out)  # events, circuit rules, variants
        return out

    def upgrade(self, state: State) -> State:
        """Schema 1 named the number of cars (players' and bots') "n"; it is "seats" from schema 2."""
        if state.get("schema", 1) < 2 and "n" in state:
            state = dict(state)
            state["seats"] = state.pop("n")
            state["schema"] = 2
        return state

    def new_game(self, options: dict[str, Any], seats: int, seed: int) -> State:
        opts = self.validate_options(options, seats)
        rng = Rng(seed)
        c = circuits()[opts["circuit"]]
        col, row = roll(rng, "black"), roll(rng, "black")
        b = roll(rng, "black")
        while b > c.weather_b:  # seed 2.4: reroll until it fits grid B
            b = roll(rng, "black")
        sp0 = rules()["start_points"]
        humans = seats
        # 17.1: humans + bots make at most 6 cars; a lone player always gets at least one rival.
        nbots = max(1 if humans < 2 else 0, min(opts.get("bots", 0), self.max_seats - humans))
        seats = humans + nbots
        cars = []
        for s in range(seats):
            sets = {t: [rules()["tyres"][t]["life"]] * rules()["tyres"][t]["sets"] for t in TYRES}
            cars.append({"ep": sp0["ep"], "bp": sp0["bp"], "sp": sp0["sp"], "sp0": sp0["sp"], "tyre": None,
                         "life": 0, "sets": sets, "bd": [], "pos": None, "laps": 0, "pitted": False,
                         "line": [], "off": 0, "pit_turn": 0, "green": 0, "out": None, "blow_done": False,
                         "blown": False, "finished": None})
            VARIANTS.start_car(opts, cars[-1])  # 16.2
            SPECIALS.start_points(opts, cars[-1])  # appendix 4
            if s >= humans:  # a bot car: its card (the one matching its colour), side and cube (17.1)
                cars[-1]["bot"] = {"side": opts.get("bot_side", "A"), "prog": 0, "soft": True, "pit_lap": -1,
                                   "pit": False}
                cars[-1]["sp"] = cars[-1]["sp0"] = 0
                cars[-1]["ep"] = cars[-1]["bp"] = 0
        DRIVERS.deal(opts, cars, rng)  # 14: a driver and a team for each player
        st: State = {
            "schema": SCHEMA, "rng": 0, "options": opts, "circuit": VARIANTS.circuit_key(opts), "seats": seats,
            "phase": "quali", "weather": R.weather_setup([col, row, b], c.weather_b), "cars": cars,
            "order": list(range(seats)), "round": 0, "queue": [], "turn": None, "finish": [],
            "quali": None, "grid": [], "tyre_pick": {}, "version": 0, "log": [], "turn_no": 0,
            "prefs": [{"attack": 3, "defend": 3, "yield": False, "ask": False, "ask_attack": False}
                      for _ in range(seats)],
        }
        if EVENTS.on(st):  # 2.2: the event deck
            st["events"] = EVENTS.new_deck(opts, rng)
        CHAMP.begin(st)  # 15: the season
        ev: list[Event] = []
        log(st, ev, msg("Weather roll {a}, {b}, {c}: the race starts in {w}.", a=col, b=row, c=b,
                              w=weather_name(R.weather_now(st["weather"], c))))
        st["quali"] = {"sessions": R.quali_sessions(seats), "idx": -1, "in": list(range(seats)),
                       "back": []}
        if not CUSTOM.begin(st):  # 13.1: the setup step comes first, then qualifying
            self._next_session(st, rng, ev)
        st["rng"] = rng.state
        st["rules_version"] = self.rules_version
        return st

    def _setup_done(self, st: State, rng: Rng, ev: list[Event]) -> None:
        st["phase"] = "quali"
        self._next_session(st, rng, ev)

    # ------------------------------------------------------------ qualifying
    def _next_session(self, st: State, rng: Rng, ev: list[Event]) -> None:
        q = st["quali"]
        q["idx"] += 1
        st["turn_no"] += 1
        name = q["sessions"][q["idx"]]
        q["first"] = {str(s): roll(rng, "black") for s in q["in"]}
        for s in q["in"]:  # the Rocket: +1 on each session's first roll (appendix 1)
            q["first"][str(s)] += DRIVERS.quali_first(st, s)
        q["choice"] = {}
        log(st, ev, msg("{session}: first rolls {rolls}.", session=name,
                              rolls=[msg("{p} {r}", p=car_name(st, s), r=q["first"][str(s)]) for s in q["in"]]))
        if not self.to_act(st):  # only bots left in the session: it runs by itself
            self._resolve_session(st, rng, ev)

    def _resolve_session(self, st: State, rng: Rng, ev: list[Event]) -> None:
        q = st["quali"]
        name = q["sessions"][q["idx"]]
        scores = {}
        for s in q["in"]:
            extra = []
            bot = st["cars"][s].get("bot")
            if bot:  # 17.3.1 step 3: at or below the card's value, two purple rolls
                value = BOTS.card(s, bot["side"])["quali"][int(name[1]) - 1]
                if BOTS.quali_rerolls(q["first"][str(s)], value):
                    faces = [roll(rng, "purple"), roll(rng, "purple")]
                    extra = [face_value(f) for f in faces]
                    log(st, ev, msg("{p} rolls the purple die twice: {a} and {b}.", p=car_name(st, s),
                                          a=str(faces[0]), b=str(faces[1])))
            elif q["choice"][str(s)]:
                st["cars"][s]["sp"] -= 1
                extra = [roll(rng, "black"), roll(rng, "black")]
                log(st, ev, msg("{p} spends 1 SP and rolls {a} and {b}.", p=car_name(st, s), a=extra[0], b=extra[1]))
            scores[s] = R.quali_best(q["first"][str(s)], extra)
        tb = {}
        vals = list(scores.values())
        for s in scores:  # ties: a die roll (no driver cards), rolled again while still tied
            tb[s] = 0
        for v in set(vals):
            tied = [s for s in scores if scores[s] == v]
            while len(tied) > 1:
                rolls = {s: roll(rng, "black") for s in tied}
                for s in tied:  # 17.3.1 step 4: a bot tied with a human always goes first
                    tb[s] = rolls[s] + (1000 if st["cars"][s].get("bot") else 0) + 10 * DRIVERS.quali_value(st, s)
                if len(set(rolls.values())) == len(tied):
                    break
        order = R.quali_order(scores, tb)
        if name == "Q3":
            st["grid"] = CHAMP.grid(st, order + q["back"], rng)  # 15.1: new engines at the back
            log(st, ev, msg("Q3: the grid is {grid}.", grid=[car_name(st, s) for s in st["grid"]]))
            self._start_tyres(st, ev)
            return
        out = order[-1]
        q["back"].insert(0, out)
        q["in"] = order[:-1]
        for s in q["in"]:
            if not st["cars"][s].get("bot"):  # bots have no SP (17.3.1 step 5: humans pay)
                st["cars"][s]["sp"] -= 1  # advancing costs 1 SP (3.1.1)
        log(st, ev, msg("{session}: {p} is out and starts P{pos}; the others pay 1 SP to go on.",
                              session=name, p=car_name(st, out), pos=len(order)))
        self._next_session(st, rng, ev)

    # ------------------------------------------------------------ tyres and start
    def _start_tyres(self, st: State, ev: list[Event]) -> None:
        st["phase"] = "tyres"
        st["turn_no"] += 1
        st["tyre_pick"] = {}
        c = circuits()[st["circuit"]]
        for slot, s in enumerate(st["grid"]):
            row, lane = c.grid[slot]
            st["cars"][s]["pos"] = ["t", row, lane]
        st["order"] = list(st["grid"])

    def _bot_fit(self, car: dict, tyre: str) -> None:
        """17.2: a bot has one soft set and as many others as it needs, always new."""
        car["tyre"] = tyre
        car["life"] = BOTS.life_of(tyre)
        if tyre == "soft":
            car["bot"]["soft"] = False
            if car["bot"].get("for") and car["sets"]["soft"]:  # a stand-in's one soft set is the box's
                car["sets"]["soft"].remove(max(car["sets"]["soft"]))

    def _fit(self, car: dict, tyre: str) -> None:
        lives = car["sets"][tyre]
        i = max(range(len(lives)), key=lambda j: lives[j])
        car["life"] = lives.pop(i)
        car["tyre"] = tyre

    def _start_race(self, st: State, rng: Rng, ev: list[Event]) -> None:
        c = circuits()[st["circuit"]]
        for s in st["grid"]:  # 17.8: once the humans have chosen, each bot chooses, in grid order
            if st["cars"][s].get("bot"):
                steps, future = BOTS.weather_steps(st["weather"], c)
                st["tyre_pick"][str(s)] = BOTS.first_tyre(st["grid"].index(s) + 1, steps,
                                                          R.weather_now(st["weather"], c), future,
                                                          lambda: roll(rng, "black"))
        for s, t in sorted(st["tyre_pick"].items()):
            if st["cars"][int(s)].get("bot"):
                self._bot_fit(st["cars"][int(s)], t)
            else:
                self._fit(st["cars"][int(s)], t)
        log(st, ev, msg("Tyres revealed: {list}.", list=[
            msg("{p}: {t}", p=car_name(st, int(s)), t=tyre_name(t)) for s, t in sorted(st["tyre_pick"].items(), key=lambda x: int(x[0]))]))
        st["phase"] = "race"
        DRIVERS.remember_start(st)
        if st["options"].get("stress"):  # 12: the pole-sitter starts at 1, the others at 0; bots never
            for s in st["grid"]:
                if not st["cars"][s].get("bot"):
                    st["cars"][s]["stress"] = SPECIALS.start_stress(st, s, 1 if s == st["grid"][0] else 0)
        self._new_round(st, rng, ev)

    # ------------------------------------------------------------ rounds and turns
    def _new_round(self, st: State, rng: Rng, ev: list[Event]) -> None:
        if self._setup_round(st, rng, ev):
            self._next_turn(st, rng, ev)

    def _setup_round(self, st: State, rng: Rng, ev: list[Event]) -> bool:
        """A new round: its turn queue and the leader's weather roll; False when the race is over.
        (Rounds follow one another in a loop, not by recursion: bots may drive many in one go.)"""
        for car in st["cars"]:
            if car["off"] == 2:
                car["off"] = 0
        st["round"] += 1
        fl = st.get("flag")
        if fl and st["round"] > fl["until"]:  # 10.1: after this round and the next, both flags go
            st["flag"] = None
            log(st, ev, msg("The yellow and green flags are removed."))
        run = running(st)
        if not run:
            st["phase"] = "over"
            return False
        st["queue"] = list(run)
        c = circuits()[st["circuit"]]
        face, w0 = None, R.weather_now(st["weather"], c)
        if st["round"] > START_ROUNDS:
            face = roll(rng, "weather")  # the leader's weather roll (8.1)
            if face == "cloud":
                for car in st["cars"]:  # 17.4: every bot card's cube moves on with the forecast
                    if car.get("bot"):
                        car["bot"]["prog"] = BOTS.advance_prog(car["bot"]["prog"])
                before = R.weather_now(st["weather"], c)
                st["weather"], moved = R.weather_advance(st["weather"], c.weather_b)
                now = R.weather_now(st["weather"], c)
                log(st, ev, msg("Round {n}: cloud; the weather changes to {w}.", n=st["round"], w=weather_name(now))
                          if moved and now != before else msg("Round {n}: cloud, the forecast moves on.", n=st["round"]))
            else:
                log(st, ev, msg("Round {n}: no change in the weather.", n=st["round"]))
        else:
            log(st, ev, msg("Race start, round {n}.", n=st["round"]))
        EVENTS.round_start(st, rng, ev, face, w0)  # 9: a "!" may reveal an event
        return True

    def _next_turn(self, st: State, rng: Rng, ev: list[Event]) -> None:
        STANDIN.settle(st, ev)  # a car given back during its bot's turn
        while True:
            if st.get("sc_due"):  # 10.2: the turn is interrupted; the race restarts behind the SC
                self._tell(st, ev)
                st["turn"] = None
                if not self._sc_start(st, rng, ev):
                    return  # a player decides whether to pit
                if st["phase"] == "over":
                    return
                continue
            st["queue"] = [s for s in st["queue"] if st["cars"][s]["out"] is None and st["cars"][s]["finished"] is None]
            if not st["queue"]:
                st["turn"] = None
                if not running(st):
                    st["phase"] = "over"
                    return
                if not self._setup_round(st, rng, ev):
                    return
                continue
            seat = st["queue"].pop(0)
            if self._begin_turn(st, rng, ev, seat):
                return

    def _rain(self, st: State) -> bool:
        return R.weather_now(st["weather"], circuits()[st["circuit"]]) in R.RAIN

    def _begin_turn(self, st: State, rng: Rng, ev: list[Event], seat: int) -> bool:
        """Start `seat`'s turn; returns False when it was played out automatically."""
        car = st["cars"][seat]
        st["turn_no"] += 1
        # 11: "関係するすべての車両は、次のターン中にDRSをアクティブにできません": on the turn after a
        # collision, damaged or not, the car neither uses a token nor takes one (reading: the section
        # says "activate" for taking the token as well, "DRSを有効にし、DRSトークンを取得して").
        nodrs = car.pop("nodrs", False)
        if nodrs:
            car["drs"] = False
        sc_turn = car.pop("sc_turn", False)  # 11: no DRS gained on the first turn after the SC
        if car["off"] == 1:  # the turn after going off: no roll, 4 more cells (4.6)
            car["off"] = 0
            before = car["laps"]
            self._slide(st, ev, seat, rules()["course_out_cells"])
            car["off"] = 2
            log(st, ev, msg("{p} comes back onto the track.", p=car_name(st, seat)))
            self._last_lap_without_stop(st, ev, seat, before)
            self._after_move(st, rng, ev, seat, moved_from=None)
            return False
        if car["pit_turn"] in (1, 2):  # 7.2, 7.3: the green exit cells, nothing else
            car["pos"] = ["g", car["pit_turn"] - 1]
            car["pit_turn"] += 1
            log(st, ev, msg("{p} waits on pit exit cell {i}.", p=car_name(st, seat), i=car["pos"][1] + 1))
            self._reorder(st)
            return False
        if car.get("bot"):
            return self._bot_turn(st, rng, ev, seat)
        start = st["round"] <= START_ROUNDS
        if car["pit_turn"] == 3:  # 7.4: purple die plus the green counter
            face = roll(rng, "purple")
            car["pit_turn"] = 0
            turn = {"seat": seat, "die": "purple", "rolls": [face], "use": 0, "reduce": 0, "pit_exit": True,
                    "green": car["green"], "start_pos": list(car["pos"]), "start_laps": car["laps"],
                    "fought": [], "won": [], "ms": None, "opts": None, "stage": "move", "cost": [0, 0, 0]}
            car["green"] = 0
        else:
            die = "purple" if start else rules()["tyres"][car["tyre"]]["die"]
            turn = {"seat": seat, "die": die, "rolls": [roll(rng, die)], "use": 0, "reduce": 0, "pit_exit": False,
                    "green": 0, "start_pos": list(car["pos"]), "start_laps": car["laps"], "fought": [], "won": [],
                    "ms": None, "opts": None, "stage": "move", "cost": [0, 0, 0]}
        if sc_turn:
            turn["sc_turn"] = True
        if nodrs:
            turn["nodrs"] = True
        turn["story"], turn["sp_paid"] = [], 0
        st["turn"] = turn
        if car.get("drs"):  # 11: the token is for this turn only, on the tyre die, never in the rain
            car["drs"] = False
            if turn["die"] != "purple" and not self._rain(st):
                turn["drs"] = DRIVERS.drs_mp(st, seat)
                log(st, ev, msg("{p} has DRS: up to {n} more MP.", p=car_name(st, seat), n=turn["drs"]))
        self._plan(st)
        return True

    # --- the roll in use and the plan options
    def _roll_value(self, st: State) -> int:
        t = st["turn"]
        return face_value(t["rolls"][t["use"]]) if t["die"] == "purple" else int(t["rolls"][t["use"]])

    def _course_out_due(self, st: State) -> bool:
        t = st["turn"]
        if t["die"] == "purple":
            return False
        car = st["cars"][t["seat"]]
        # 4.6 "コースアウト": the car leaves the track, 4 cells on "as if outside the course" while
        # others pass it. Reading: a car in a pit lane (no overtaking at the entry, 7) has no track
        # to leave and uses its roll, as a bot's rain roll (17.11) and the low-grip roll are made
        # on the track only.
        if car["pos"][0] != "t":
            return False
        w = R.weather_now(st["weather"], circuits()[st["circuit"]])
        lim = DRIVERS.course_out_limit(st, t["seat"], car["tyre"], R.course_out_limit(car["tyre"], w))
        return lim is not None and self._roll_value(st) - t["reduce"] >= lim

    def _mp(self, st: State) -> int:
        t = st["turn"]
        car = st["cars"][t["seat"]]
        v = self._roll_value(st) - t["reduce"]
        if t["pit_exit"]:
            return v + t["green"] + DRIVERS.exit_bonus(st, t["seat"])  # teams: more MP at the pit exit
        if t["die"] == "purple":
            return v + DRIVERS.start_bonus(st, t["seat"])  # the Rocket: +1 at the start
        heavy = sum(1 for k, rep in car["bd"] if k == "heavy" and not rep)
        sc = DRIVERS.after_sc_bonus(st, t["seat"]) if t.get("sc_turn") else 0
        return max(0, v - R.tyre_penalty(car["life"]) - heavy - t.get("calm", 0)) + sc

    def _ctx(self, st: State, seat: int) -> R.MoveCtx:
        c = circuits()[st["circuit"]]
        car = st["cars"][seat]
        # rear first on the position track: cars side by side are fought in that order (5.4 B)
        others = tuple((s, st["cars"][s]["laps"], tuple(st["cars"][s]["pos"]), st["cars"][s]["off"])
                       for s in reversed(st["order"]) if s != seat and st["cars"][s]["out"] is None
                       and st["cars"][s]["finished"] is None and st["cars"][s]["pos"] is not None)
        idx = st["order"].index(seat)
        ahead = frozenset(st["order"][idx + 1:]) | frozenset(st["turn"]["won"] if st["turn"] else [])
        t = st["turn"]
        cost = t["cost"] if t else [0, 0, 0]
        fl = st.get("flag")
        lv = car.get("stress", 0)
        bcap, kcap = DRIVERS.caps(st, seat, self._rain(st))
        return R.MoveCtx(c, self._rain(st), st["round"] <= START_ROUNDS, c.laps - 1, others, ahead,
                         0 if lv >= 4 else car["ep"], 0 if lv >= 4 else car["bp"],
                         0 if lv >= 5 else car["sp"] - cost[2], c.corners[0].first, c.laps,
                         no_pass=frozenset(fl["rows"]) if fl else frozenset(), bcap=bcap, kcap=kcap,
                         no_technical=DRIVERS.no_technical(st, seat), sp_double=DRIVERS.sp_double(st, seat))

    def _plan(self, st: State) -> None:
        """Compute the move options for the turn's current state (stored so replays agree)."""
        t = st["turn"]
        seat = t["seat"]
        car = st["cars"][seat]
        if self._course_out_due(st):
            t["opts"] = []
            return
        ctx = self._ctx(st, seat)
        if t["ms"] is None:
            n = self._mp(st) + t.get("drs", 0) + t.get("bonus", 0)  # DRS, tokens: up to, the least unchanged
            ms = R.MState(tuple(car["pos"]), car["laps"], 0, 0, 0, 0, 0, tuple(car["line"]), -1)
            t["n"] = n
        else:
            d = t["ms"]
            ms = R.MState(tuple(d["pos"]), d["laps"], d["mode"], d["t"], d["b"], d["k"], d["s"], tuple(d["line"]), d["slip"])
        n = t["n"]
        # 4: up to 3 cells fewer than the roll may be counted; 3.3 "各ラウンドでは、すべての車を移動させる
        # 必要があります": never none, so the least count is 1, and a move must not end where it began.
        least = max(1 if n > 0 else 0, n - 3 - t.get("drs", 0) - t.get("bonus", 0))
        opts = R.search(ctx, ms, n, least, frozenset(t["fought"]))
        if not opts and ctx.no_pass:  # held behind a car between the flags: it stops short (10.1)
            opts = R.search(ctx, ms, n, 0, frozenset(t["fought"]))
        if t["ms"] is None:
            opts = [o for o in opts if o.kind != "end" or (o.state.pos, o.state.laps) != (ms.pos, ms.laps)]
        t["opts"] = CHAMP.restrict(st, VARIANTS.restrict(st, self._choose_opts(st, opts, ctx)))

    def _choose_opts(self, st: State, opts: list, ctx: R.MoveCtx) -> list[dict]:
        c = circuits()[st["circuit"]]
        seat = st["turn"]["seat"]
        bcap, kcap = DRIVERS.caps(st, seat, ctx.rain)
        best: dict[tuple, tuple] = {}  # where -> (score, option, ep, bp, sp, unused): the option's entry made once chosen
        stressed = st["cars"][seat].get("stress", 0) >= 2
        sp_cost: dict[int, int] = {}
        n = st["turn"]["n"]
        costs: dict[tuple, tuple] = {}  # (b, k, s, mode, t) -> what the counts cost: many options share them
        for o in opts:
            ms = o.state
            ck = (ms.b, ms.k, ms.s, ms.mode, ms.t)
            cost = costs.get(ck)
            if cost is None:
                ep, bp = R.extra_cost(ms.b, bcap), R.extra_cost(ms.k, kcap)
                spc = sp_cost.get(ms.s)
                if spc is None:
                    spc = sp_cost[ms.s] = DRIVERS.sp_cost(st, seat, ms.s)
                cost = costs[ck] = (ep, bp, spc, _unused(n, ms, bcap), (ep + bp + spc, spc, ep, bp, ms.t))
            ep, bp, spc, unused, score = cost  # score: the same place for fewer MP keeps more
            if ep and bp and stressed:
                continue  # 12.1 level 2: not both EP and BP in one turn
            if o.kind == "fight":
                # a fight reached with more MP left gets a better die modifier (5.1): keep the cheapest
                # way to each modifier (the seed's example boosts first to attack with 3 MP left)
                key = ("fight", ms.pos, o.step.laps, o.defenders, R.unused_mp_modifier(unused))
            else:
                key = (o.kind, ms.pos, ms.laps, o.defenders)
            old = best.get(key)
            if old is None or score < old[0]:
                best[key] = (score, o, ep, bp, spc, unused)
        chosen = []
        for score, o, ep, bp, spc, unused in best.values():
            fin = o.step if o.kind == "fight" else o.state
            ms = o.state
            chosen.append(({"kind": o.kind, "pos": list(ms.pos if o.kind == "fight" else fin.pos), "laps": fin.laps,
                            "ep": ep, "bp": bp, "sp": spc, "def": list(o.defenders), "free": list(o.free),
                            "ms": _ms(ms), "step": _ms(o.step) if o.step else None,
                            "unused": unused,
                            "prog": R.prog(c, fin.laps, list(fin.pos)),
                            "risk": o.kind == "end" and self._low_grip_risk(st, fin.pos)}, score))
        out = [d for d, _ in sorted(chosen, key=lambda x: (-x[0]["prog"], x[1], x[0]["kind"], x[0]["pos"]))]
        # At most 25 entries: fights, the pit and the flag first, then the moves that cost
        # nothing (the furthest first), then the furthest of those that cost points.
        keep = [d for d in out if d["kind"] != "end"][:6]
        free = [d for d in out if d["kind"] == "end" and d["ep"] + d["bp"] + d["sp"] == 0]
        paid = [d for d in out if d["kind"] == "end" and d["ep"] + d["bp"] + d["sp"] > 0]
        ends = free[: max(12, 25 - len(keep) - len(paid))]
        ends += paid[: 25 - len(keep) - len(ends)]
        return sorted(keep + ends, key=lambda d: (-d["prog"], d["kind"], d["pos"], d["ep"] + d["bp"] + d["sp"]))

    def _low_grip_risk(self, st: State, pos) -> bool:
        """Ending here means the low-grip roll (4.6 B): shown in the option's label."""
        t = st["turn"]
        c = circuits()[st["circuit"]]
        if t["die"] == "purple" or pos[0] != "t" or (pos[1], pos[2]) not in c.low_grip:
            return False
        w = R.weather_now(st["weather"], c)
        lim = R.low_grip_limit(st["cars"][t["seat"]]["tyre"], w) if w in R.RAIN else None
        return lim is not None and self._roll_value(st) - t["reduce"] >= lim

    def _low_grip_roll_due(self, st: State) -> bool:
        """Whether the roll, as it stands, would call for the low-grip check on this circuit now:
        the only use of lowering it besides avoiding a course-out (4.6.1, example 4)."""
        c = circuits()[st["circuit"]]
        w = R.weather_now(st["weather"], c)
        if not c.low_grip or w not in R.RAIN:
            return False
        lim = R.low_grip_limit(st["cars"][st["turn"]["seat"]]["tyre"], w)
        return lim is not None and self._roll_value(st) - st["turn"]["reduce"] >= lim

    # ------------------------------------------------------------ moving
    def _charge(self, st: State, ms: dict) -> None:
        """Pay what the move used so far: EP/BP for boost/brake cells, SP for corner cells."""
        t = st["turn"]
        if t.get("bot"):  # bots have no points to pay (17): a stand-in's move already paid its own
            return
        car = st["cars"][t["seat"]]
        bcap, kcap = DRIVERS.caps(st, t["seat"], self._rain(st))
        ep, bp, sp = R.extra_cost(ms["b"], bcap), R.extra_cost(ms["k"], kcap), DRIVERS.sp_cost(st, t["seat"], ms["s"])
        car["ep"] -= ep - t["cost"][0]
        car["bp"] -= bp - t["cost"][1]
        car["sp"] -= sp - t["cost"][2]
        t["cost"] = [ep, bp, sp]

    def _set_pos(self, st: State, seat: int, ms: dict) -> None:
        car = st["cars"][seat]
        before = car["laps"]
        car["pos"] = list(ms["pos"])
        car["laps"] = ms["laps"]
        car["line"] = list(ms["line"])
        return before

    def _slide(self, st: State, ev: list[Event], seat: int, cells: int) -> None:
        """A car off the track goes `cells` cells straight on in its lane (designed: the seed
        says only "4 cells"): it is off the track, so it passes other cars, but it stops on the
        furthest free cell (its own lane first, then the others of that row), never on a car."""
        c = circuits()[st["circuit"]]
        car = st["cars"][seat]
        if car["pos"][0] != "t":
            return
        occupied = {(o["laps"], tuple(o["pos"])) for s, o in enumerate(st["cars"])
                    if s != seat and o["pos"] and o["out"] is None and o["finished"] is None}
        _, row, lane = car["pos"]
        laps = car["laps"]
        path = []
        for _ in range(cells):
            nr, nl = R.next_row(c, row, laps)
            if nl >= c.laps:
                break  # never across the line on the last lap while off the track
            lanes = c.rows[nr].lanes
            lane = lane if lane in lanes else min(lanes, key=lambda x: abs(x - lane))
            row, laps = nr, nl
            path.append((row, lane, laps))
        dest = None
        for row, lane, laps in reversed(path):
            for ln in sorted(c.rows[row].lanes, key=lambda x: abs(x - lane)):
                if (laps, ("t", row, ln)) not in occupied:
                    dest = (row, ln, laps)
                    break
            if dest:
                break
        if dest is None:
            return
        row, lane, laps = dest
        self._crossings(st, seat, car["laps"], laps, ev)
        car["pos"] = ["t", row, lane]
        car["laps"] = laps
        car["line"] = []

    @staticmethod
    def _wear(car: dict, weather: str) -> int:
        """A crossing's (or a stop's) wear: a bot's card never wears wets (17.7); a player's car a
        bot drives for now keeps the player's tyres and wears them as the player would (reading)."""
        b = car.get("bot")
        if b and not b.get("for"):
            return BOTS.wear(car["life"], car["tyre"], weather)
        return R.wear(car["life"], car["tyre"], weather)

    def _crossings(self, st: State, seat: int, before: int, after: int, ev: list[Event] | None = None) -> None:
        """Tyre wear per finish-line crossing (6.2); a new lap allows a new blow-out roll. With
        `ev`, the wear is told (in the turn's line): the tyres' life and, below 0, the roll lost."""
        car = st["cars"][seat]
        w = R.weather_now(st["weather"], circuits()[st["circuit"]])
        for _ in range(after - before):
            car["life"] = self._wear(car, w)
            car["blow_done"] = False
            if ev is not None and car.get("tyre"):
                k = R.tyre_penalty(car["life"])
                log(st, ev, msg("New lap: {t} tyres, life {n}.", t=tyre_name(car["tyre"]), n=car["life"])
                          if not k else msg("New lap: {t} tyres, life {n}: every roll counts {k} less.",
                                            t=tyre_name(car["tyre"]), n=car["life"], k=k))

    def _reorder(self, st: State) -> None:
        """The position track: progress along the race, corners ranked by the outer lane, ties on
        straights keep the previous order (sorted() is stable); finished cars lead in finishing
        order, retired cars trail."""
        c = circuits()[st["circuit"]]
        live = [s for s in st["order"] if st["cars"][s]["out"] is None and st["cars"][s]["finished"] is None]
        live.sort(key=lambda s: R.order_key(c, st["cars"][s]), reverse=True)
        outs = [s for s in st["order"] if st["cars"][s]["out"] is not None]
        st["order"] = list(st["finish"]) + live + outs

    def _after_move(self, st: State, rng: Rng, ev: list[Event], seat: int, moved_from) -> None:
        c = circuits()[st["circuit"]]
        car = st["cars"][seat]
        self._reorder(st)
        # lapped cars (5.6): the leader catching a car a lap down retires it
        run = running(st)
        if run and run[0] == seat:
            self._lapping(st, ev, seat, R.prog(c, car["laps"], car["pos"]))

    def _lapping(self, st: State, ev: list[Event], seat: int, lead: float) -> None:
        """5.6: the leader (at race distance `lead`) catching a car a lap down retires it, with no
        fight. Not when both are in the pits (pit lanes included); a car in the pits when the
        leader crosses the line on the track is caught (the pits sit at the line, 5.5)."""
        c = circuits()[st["circuit"]]
        pits = ("pin", "pit", "g", "pout")
        in_pits = st["cars"][seat]["pos"][0] in pits
        for s in running(st):
            o = st["cars"][s]
            if s == seat or (in_pits and o["pos"][0] in pits):
                continue
            if lead >= R.prog(c, o["laps"], o["pos"]) + c.length:
                o["out"] = "lapped"
                log(st, ev, msg("{p} is lapped and retires.", p=car_name(st, s)))
        self._reorder(st)

    def _end_turn(self, st: State, rng: Rng, ev: list[Event]) -> None:
        self._tell(st, ev)
        st["turn"] = None
        self._next_turn(st, rng, ev)

    def _tell(self, st: State, ev: list[Event]) -> None:
        """The turn's one line for the thread and the log: the roll (and rerolls), where the car
        went in the words the menu and the board use, what it spent, then what else happened in
        the turn (fights and bids, course-outs, pit stops, tyres), each as it was logged."""
        t = st.get("turn")
        if not t or t.get("story") is None:
            return
        story = t.pop("story")
        seat = t["seat"]
        car = st["cars"][seat]
        p = car_name(st, seat)
        rolls = [str(x) for x in t["rolls"]]
        if t["die"] == "bot":
            head = msg("{p} rolls {r} in the rain: {n} cells", p=p, r=rolls[0], n=t["n"]) if t.get("rain") \
                else msg("{p} drives {n} cells", p=p, n=t["n"])
        elif t["pit_exit"]:
            head = msg("{p} leaves the pits: rolls {r}, {g} MP kept", p=p, r=rolls[t["use"]], g=t["green"])
        elif len(rolls) == 1:
            head = msg("{p} rolls {r}", p=p, r=rolls[0])
        else:
            head = msg("{p} rolls {rolls} and uses {r}", p=p, rolls=rolls, r=rolls[t["use"]])
        where = _where_car(car)
        off = "{p} goes off the track and moves 4 cells."
        if where is not None and car["off"] == 1 and any(part["msg"] == off for part in story):
            head = msg("{a}, goes off the track: 4 cells on to {where}", a=head, where=where)
            story = [part for part in story if part["msg"] != off]
        elif where is not None:
            head = msg("{a}, to {where}", a=head, where=where)
        ep, bp, sp = t["cost"][0], t["cost"][1], t["cost"][2] + t.get("sp_paid", 0)
        costs = [m for n, m in ((ep, msg("{n} EP", n=ep)), (bp, msg("{n} BP", n=bp)), (sp, msg("{n} SP", n=sp))) if n > 0]
        if costs:
            head = msg("{a}, spending {costs}", a=head, costs=costs)
        line = msg("{a}.", a=head)
        for part in story:
            line = msg("{line} {more}", line=line, more=from_wire(part))
        log(st, ev, line)

    def _finish_move(self, st: State, rng: Rng, ev: list[Event], ms: dict, kind: str, end: bool = True) -> None:
        """The car stops at ms: pay, wear, checks (low grip, blow-out), then the turn ends."""
        t = st["turn"]
        seat = t["seat"]
        car = st["cars"][seat]
        c = circuits()[st["circuit"]]
        run0 = running(st)
        lead0 = run0[0] if run0 else None  # the leader before this move (12.2)
        self._charge(st, ms)
        before = t["start_laps"]  # a fight's pass may already have moved the car on
        self._set_pos(st, seat, ms)
        w = R.weather_now(st["weather"], c)
        if kind == "pit":
            car["laps"] = before + 1
            car["pos"] = ["pit"]
            car["green"] = max(0, t["n"] - ms["t"]) if ms["mode"] >= 1 else t["n"]
            log(st, ev, msg("{p} pits ({g} MP kept).", p=car_name(st, seat), g=car["green"]))
            car["life"] = self._wear(car, w)  # the stop wears like a crossing (7.1)
            car["sets"][car["tyre"]].append(car["life"])  # a life token keeps what is left (6.1 D)
            car["sp"] = min(car["sp0"], car["sp"] + rules()["pit_sp_regain"])
            car["bd"] = [[k, True] for k, _ in car["bd"]]
            car["blown"] = False
            car["blow_done"] = False
            car["pitted"] = True
            VARIANTS.pitted(car)
            DRIVERS.at_pit(st, ev, seat)  # drivers and teams: SP, a point back, passing in the pits
            car["pit_turn"] = 1
            car["line"] = []
            t["stage"] = "pit_tyre"
            t["opts"] = None
            self._reorder(st)
            run = running(st)
            if run and run[0] == seat:  # 5.6: a car caught on the way in (none already in the pits)
                self._lapping(st, ev, seat, R.prog(c, car["laps"], car["pos"]))
            if seat == lead0:
                self._stress(st, ev, seat)  # 12.2: the leader pits
            return
        crossed = car["laps"] - before
        if crossed:
            self._crossings(st, seat, before, car["laps"], ev if kind != "finish" else None)
            if st["options"].get("stress") and lead0 is not None:
                if seat == lead0:
                    self._stress(st, ev, seat)  # 12.2: the leader crosses the finish line
                elif st["cars"][lead0]["pos"][0] in ("pin", "pit", "g", "pout"):
                    self._stress(st, ev, lead0)  # 12.2: a car crossing the line passes the leader in the pits
        if kind == "finish":
            if run0 and all(s == seat or R.order_key(c, st["cars"][s]) < R.order_key(c, car) for s in run0):
                self._lapping(st, ev, seat, R.prog(c, car["laps"], car["pos"]))  # 5.6: at the flag too
            car["finished"] = len(st["finish"]) + 1
            car["fin_round"] = st["round"]  # for the results' gaps
            car["pos"] = ["done"]
            st["finish"].append(seat)
            log(st, ev, msg("{p} takes the chequered flag in P{n}.", p=car_name(st, seat), n=car["finished"]))
        elif car["out"] is None and not self._last_lap_without_stop(st, ev, seat, before):
            self._checks_after_move(st, rng, ev, seat)
            if st["options"].get("drs") and not t.get("bot"):
                self._drs_check(st, ev, seat)
        self._after_move(st, rng, ev, seat, None)
        if st["options"].get("stress") and car["out"] is None and car["finished"] is None:
            run = running(st)
            if len(run) > 1 and run[1] == seat and self._one_mp_behind(st, seat, run[0]):
                self._stress(st, ev, run[0])  # 12.2: a car ends its move 1 MP behind the leader
        if end:
            self._end_turn(st, rng, ev)
        else:  # a bot's turn: the caller goes on with the next turn (no recursion per turn)
            self._tell(st, ev)
            st["turn"] = None

    def _checks_after_move(self, st: State, rng: Rng, ev: list[Event], seat: int) -> None:
        t = st["turn"]
        car = st["cars"][seat]
        c = circuits()[st["circuit"]]
        w = R.weather_now(st["weather"], c)
        if t["die"] not in ("purple", "bot") and car["pos"][0] == "t" and w in R.RAIN \
                and (car["pos"][1], car["pos"][2]) in c.low_grip:
            lim = R.low_grip_limit(car["tyre"], w)
            if lim is not None and self._roll_value(st) - t["reduce"] >= lim:
                r = roll(rng, "black")  # 4.6 B: a 1 sends the car off
                log(st, ev, msg("{p} ends in a low-grip area and rolls {r}.", p=car_name(st, seat), r=r))
                if r == 1:  # (the low-grip roll)
                    car["pos"], car["laps"] = list(t["start_pos"]), t["start_laps"]
                    self._go_off(st, ev, seat)
                    return
        if car["life"] <= -2 and car["tyre"] != "wet" and not car["blow_done"] and car["pos"][0] == "t" \
                and not DRIVERS.no_blowouts(st, seat):  # Iron Chassis never punctures
            r = roll(rng, "black")  # 6.3 blow-out roll
            log(st, ev, msg("{p} makes a blow-out roll: {r}.", p=car_name(st, seat), r=r))
            if r == 1 and not DRIVERS.use_blow_token(st, ev, seat):
                car["blow_done"] = True
                car["blown"] = True
                VARIANTS.breakdown(st, ev, seat, "heavy")

    def _go_off(self, st: State, ev: list[Event], seat: int) -> None:
        car = st["cars"][seat]
        before = car["laps"]
        self._slide(st, ev, seat, rules()["course_out_cells"])
        car["off"] = 1
        log(st, ev, msg("{p} goes off the track and moves 4 cells.", p=car_name(st, seat)))
        self._last_lap_without_stop(st, ev, seat, before)

    def _last_lap_without_stop(self, st: State, ev: list[Event], seat: int, before: int) -> bool:
        """3.3: a stop is due before the last lap; a car that starts it without one (by any move,
        a slide off the track too) is out."""
        car = st["cars"][seat]
        if car["laps"] > before and car["laps"] == circuits()[st["circuit"]].laps - 1 and not car["pitted"]:
            car["out"] = "no_stop"
            log(st, ev, msg("{p} starts the last lap without a pit stop and is out.", p=car_name(st, seat)))
            return True
        return False

    # ------------------------------------------------------------ stress (12)
    def _stress(self, st: State, ev: list[Event], seat: int) -> None:
        """12.2: one level up, at most once a round, never past 6; bots take none (17.12)."""
        car = st["cars"][seat]
        if not st["options"].get("stress") or "stress" not in car or car["out"] is not None \
                or car["finished"] is not None or car.get("stress_r") == st["round"] or car["stress"] >= 6:
            return
        car["stress"] += 1
        car["stress_r"] = st["round"]
        log(st, ev, msg("{p}'s stress rises to {n}.", p=car_name(st, seat), n=car["stress"]))

    def _one_mp_behind(self, st: State, seat: int, ahead_seat: int) -> bool:
        """One move of the car (a racing-line jump too) would reach the cell of the car ahead."""
        car, ahead = st["cars"][seat], st["cars"][ahead_seat]
        if car["pos"][0] != "t" or ahead["pos"][0] != "t" or st["turn"] is None:
            return False
        ctx = self._ctx(st, seat)
        ms = R.MState(tuple(car["pos"]), car["laps"], 1, 0, 0, 0, 0, tuple(car["line"]), -1)
        return any(npos == tuple(ahead["pos"]) and nl == ahead["laps"] for npos, nl, _, _ in R._steps(ctx, ms))

    # ------------------------------------------------------------ DRS (11)
    def _drs_check(self, st: State, ev: list[Event], seat: int) -> None:
        """11: a car that crossed the DRS line this move and ended it 1 MP behind the car ahead
        takes the DRS token (not in the rain, not from off the track)."""
        t = st["turn"]
        car = st["cars"][seat]
        c = circuits()[st["circuit"]]
        if car["pos"][0] != "t" or car["off"] or car["out"] or self._rain(st) or t["start_pos"][0] != "t" \
                or car.get("nodrs") or t.get("nodrs") or t.get("sc_turn"):
            return
        self._reorder(st)  # the car ahead once this move's passes count (the position track is updated first)
        p0 = R.prog(c, t["start_laps"], t["start_pos"])
        p1 = R.prog(c, car["laps"], car["pos"])
        if not any(p0 < k * c.length + c.drs_row <= p1 for k in (t["start_laps"], t["start_laps"] + 1)):
            return
        run = running(st)
        i = run.index(seat)
        if i == 0:
            return
        ahead = st["cars"][run[i - 1]]
        if ahead["pos"][0] != "t" or ahead["off"] == 1:
            return
        ctx = self._ctx(st, seat)
        ms = R.MState(tuple(car["pos"]), car["laps"], 1, 0, 0, 0, 0, tuple(car["line"]), -1)
        # "1 MP away": one move of the car (a racing-line jump too) would reach the car ahead's cell
        near = {(npos, nl) for npos, nl, _, _ in R._steps(ctx, ms)}
        if DRIVERS.drs_range(st, seat) > 1:  # the Slipstreamer: DRS range one more
            near |= {(p2, l2) for npos, nl, _, jump in R._steps(ctx, ms) for p2, l2, _, _ in R._steps(
                ctx, R.MState(npos, nl, 1, 0, 0, 0, 0, R._line_after(ctx, ms, npos, jump), -1))}
        if (tuple(ahead["pos"]), ahead["laps"]) in near:
            car["drs"] = True
            log(st, ev, msg("{p} takes DRS for the next turn.", p=car_name(st, seat)))
            self._stress(st, ev, run[i - 1])  # 12.2: the driver whose follower gains DRS

    # ------------------------------------------------------------ bots (17)
    def _bot_turn(self, st: State, rng: Rng, ev: list[Event], seat: int, face: Any = None) -> bool:
        """Play a bot's turn (its card says how far it goes); True when it waits on a human
        defender's answer. `face`: a purple roll already made this turn (a bot took the seat)."""
        car = st["cars"][seat]
        b = car["bot"]
        c = circuits()[st["circuit"]]
        w = R.weather_now(st["weather"], c)
        base = {"seat": seat, "use": 0, "reduce": 0, "pit_exit": False, "green": 0, "start_pos": list(car["pos"]),
                "start_laps": car["laps"], "fought": [], "won": [], "ms": None, "opts": None, "stage": "move",
                "cost": [0, 0, 0], "bot": True, "story": []}
        if car["pit_turn"] == 3:  # 17.10: the purple die plus the green counter, as for a player
            face = roll(rng, "purple") if face is None else face
            car["pit_turn"] = 0
            turn = dict(base, die="purple", rolls=[face], pit_exit=True, green=car["green"],
                        n=face_value(face) + car["green"])
            car["green"] = 0
        elif st["round"] <= START_ROUNDS:  # 17.5.1: the purple die at the start
            face = roll(rng, "purple") if face is None else face
            turn = dict(base, die="purple", rolls=[face], n=face_value(face))
        elif w in R.RAIN and car["tyre"] != "wet" and car["pos"][0] == "t":  # 17.11: the rain roll
            r = roll(rng, "black")
            if not BOTS.stays_on(r, car["tyre"], w):
                log(st, ev, msg("{p} rolls {r} in the rain.", p=car_name(st, seat), r=r))
                st["turn"] = None
                self._go_off(st, ev, seat)
                self._after_move(st, rng, ev, seat, None)
                return False
            n = BOTS.rain_cells(w)
            turn = dict(base, die="bot", rolls=[r], n=n, rain=True)
        else:  # 17.5.2: base speed of the tyre + the progression track, less the wear penalty
            n = BOTS.mp(seat, b["side"], b["prog"], car["tyre"], w, car["life"])
            turn = dict(base, die="bot", rolls=[n], n=n)
        st["turn"] = turn
        return self._bot_go(st, rng, ev)

    def _bot_go(self, st: State, rng: Rng, ev: list[Event]) -> bool:
        """Move the bot from where it is to the end of its turn; True when a human defender must
        answer first (the move goes on after the answer)."""
        while True:
            t = st["turn"]
            seat = t["seat"]
            car = st["cars"][seat]
            o = self._bot_pick(st, rng, ev)
            if o is None:  # nowhere to go: it stays
                cur = t["ms"] or {"pos": list(car["pos"]), "laps": car["laps"], "mode": 0, "t": 0, "b": 0, "k": 0,
                                  "s": 0, "line": list(car["line"]), "slip": -1}
                self._finish_move(st, rng, ev, cur, "end", end=False)
                return False
            if o.kind == "fight":
                od = {"kind": "fight", "pos": list(o.state.pos), "laps": o.state.laps, "def": list(o.defenders),
                      "free": list(o.free), "ms": _ms(o.state), "step": _ms(o.step), "unused": t["n"] - o.state.t,
                      "ep": 0, "bp": 0, "sp": 0}
                self._set_pos(st, seat, od["ms"])
                t["ms"] = od["ms"]
                t["fight"] = {"opt": od, "i": 0, "rolls": None, "answer": None, "fights": False}
                res = self._fight(st, rng, ev)
                if res == "ask":
                    return True
                if not self._bot_after_fight(st, rng, ev, res):
                    return False
                continue
            self._finish_move(st, rng, ev, _ms(o.state), o.kind, end=False)
            if o.kind == "pit":  # 17.9.2: the new set
                c = circuits()[st["circuit"]]
                steps, future = BOTS.weather_steps(st["weather"], c)
                tyre = BOTS.new_tyre(steps, R.weather_now(st["weather"], c), future, car["bot"]["soft"])
                car["sets"][car["tyre"]].pop()  # no tyre box to keep: a bot's sets are always new (17.2)
                self._bot_fit(car, tyre)
                car["bot"]["pit"] = False
                log(st, ev, msg("{p} fits {t} tyres.", p=car_name(st, seat), t=tyre_name(tyre)))
                self._tell(st, ev)
                st["turn"] = None
            return False

    def _bot_after_fight(self, st: State, rng: Rng, ev: list[Event], result: str) -> bool:
        """After a bot's fight: True when it drives on with the MP left (17.6)."""
        t = st["turn"]
        o = t.pop("fight")["opt"]
        t["stage"] = "move"
        seat = t["seat"]
        c = circuits()[st["circuit"]]
        if result == "lost":  # it stays where it stopped and loses the MP left (5)
            t["ms"] = o["ms"]
            self._finish_move(st, rng, ev, o["ms"], "end", end=False)
            return False
        step = dict(o["step"])
        if step["pos"][0] == "t" and step["laps"] >= c.laps:
            self._finish_move(st, rng, ev, step, "finish", end=False)
            return False
        d_pos = st["cars"][o["def"][-1]]["pos"]
        if d_pos[0] == "t" and step["pos"][0] == "t" and R.is_straight(c, step["pos"][1]) \
                and d_pos[2] != step["pos"][2]:
            step["slip"] = d_pos[2]  # after the pass: diagonally into its lane (5.2.1)
        t["ms"] = step
        self._set_pos(st, seat, step)
        self._reorder_with_won(st)
        return True

    def _bot_pick(self, st: State, rng: Rng, ev: list[Event]):
        """Where the bot's MP take it (17.5, 17.6, 17.9.1): every MP counted where it can be, the
        furthest place, overtaking whenever the MP reach past a car (a fight counts as the cells
        beyond it), the next corner's double-arrow lane on straights and the shaded cells in
        corners; the pit lane only when it has decided to stop."""
        from dataclasses import replace
        t = st["turn"]
        seat = t["seat"]
        car = st["cars"][seat]
        b = car["bot"]
        c = circuits()[st["circuit"]]
        ctx = replace(self._ctx(st, seat), bot=True, ep=0, bp=0, sp=0)
        d = t["ms"]
        if d is None:
            ms = R.MState(tuple(car["pos"]), car["laps"], 0, 0, 0, 0, 0, tuple(car["line"]), -1)
        else:
            ms = R.MState(tuple(d["pos"]), d["laps"], d["mode"], d["t"], d["b"], d["k"], d["s"], tuple(d["line"]),
                          d["slip"])
        n = t["n"]
        fought = frozenset(t["fought"])
        opts = R.search(ctx, ms, n, n, fought)
        if not any(o.kind != "end" or o.state.t >= n for o in opts):
            opts = R.search(ctx, ms, n, 0, fought)
        pit_near = any(o.kind == "pit" or (o.kind == "end" and o.state.pos[0] == "pin") for o in opts)
        if car["pos"][0] == "t" and car["pos"][1] <= c.pit_entry_row <= car["pos"][1] + 2 * n + 2:
            pit_near = True  # the entry is this turn's or the next one's: decide now, to line up for it
        if car["pos"][0] == "pin":
            b["pit"] = True
        elif car["laps"] >= c.laps - 1:  # no pit stop on the last lap (3.3)
            b["pit"] = False
        elif pit_near and b["pit_lap"] != car["laps"]:  # 17.9.1: asked once each time the pits are in reach
            b["pit_lap"] = car["laps"]
            steps, future = BOTS.weather_steps(st["weather"], c)
            # Reading: the mandatory stop (3.3) binds bots too; the bot rules never lift it.
            must = not car["pitted"] and car["laps"] >= c.laps - 2
            b["pit"] = must or BOTS.wants_pit(car["life"], car["tyre"], R.weather_now(st["weather"], c), steps,
                                              future, lambda: roll(rng, "black"))
            if b["pit"]:
                log(st, ev, msg("{p} heads for the pits.", p=car_name(st, seat)))
        want = b["pit"]
        nxt = None
        if want and car["pos"][0] == "t" and not any(o.kind == "pit" or o.state.pos[0] == "pin" for o in opts):
            # heading for the pits but not there this turn: stay short of the entry, in its lane
            nxt = c.pit_side
            short = [o for o in opts if o.kind != "finish" and (o.step if o.kind == "fight" else o.state).laps == car["laps"]
                     and (o.step if o.kind == "fight" else o.state).pos[0] == "t"
                     and (o.step if o.kind == "fight" else o.state).pos[1] <= c.pit_entry_row]
            opts = short or opts

        def score(o):
            if o.kind == "finish":
                return (9, 0.0, 0)
            if o.kind == "pit":
                return (8, 0.0, 0) if want else None
            fin = o.step if o.kind == "fight" else o.state
            if fin.pos[0] == "pin":
                return (7, float(fin.pos[1]), 0) if want else None
            p = R.prog(c, fin.laps, list(fin.pos))
            if o.kind == "fight":
                p += max(0, n - fin.t)
            pref, lane_pen = 0, 0
            if fin.pos[0] == "t":
                co = c.corner_at(fin.pos[1])
                if co is not None:
                    pref = 1 if (fin.pos[1], fin.pos[2]) in co.line else 0
                else:  # 17.5.2.1: the first MP go toward the next corner's double-arrow lane
                    target = nxt if nxt is not None else self._next_arrow(c, fin.pos)
                    lane_pen = abs(fin.pos[2] - target) if target is not None else 0
            return (0, -lane_pen, p, pref, 0 if o.kind == "fight" else 1)

        def zigzag(o) -> bool:  # sideways and straight back on one row: MP thrown away
            pth = o.path
            return any(pth[i][0] == "t" and pth[i] == pth[i + 2] and pth[i][1] == pth[i + 1][1]
                       for i in range(len(pth) - 2))

        opts = [o for o in opts if not zigzag(o)] or opts
        best, key = None, None
        for o in opts:
            k = score(o)
            if k is not None and (key is None or k > key):
                best, key = o, k
        return best

    @staticmethod
    def _next_arrow(c, pos) -> int | None:
        """The double-arrow lane of the next corner ahead (17.5.2.1)."""
        if not pos or pos[0] != "t":
            return None
        row = pos[1]
        for co in c.corners:
            if co.arrow[0] >= row:
                return co.arrow[1]
        return c.corners[0].arrow[1]

    # ------------------------------------------------------------ position fights
    def _fight(self, st: State, rng: Rng, ev: list[Event]) -> str:
        """Fight each defender in turn (rear first, 5.4 B): "won" when every fight is won,
        "lost" at the first lost one, "ask" when a defender who asked to decide live must answer:
        first whether to fight at all, before the dice (5.1), then, knowing the dice, the most
        they will bid."""
        t = st["turn"]
        f = t["fight"]
        opt = f["opt"]
        att = t["seat"]
        while f["i"] < len(opt["def"]):
            d = opt["def"][f["i"]]
            pa, pd = st["prefs"][att], st["prefs"][d]
            abot, dbot = st["cars"][att].get("bot"), st["cars"][d].get("bot")
            if "crash" in f:  # a collision waiting on a reroll choice: preferences changed since count for nothing
                if not self._crash_rerolls(st, rng, ev):
                    return "ask"
                t["fought"].append(d)
                return "lost"
            answer = f.get("answer")
            if answer is None and pd["yield"] and not dbot:
                answer = "yield"
            if abot and dbot:  # 17.6.2: two purple dice; "!" + "!" stops the pass, else no bids
                f1, f2 = roll(rng, "purple"), roll(rng, "purple")
                log(st, ev, msg("Position fight {a} vs {d}: purple dice {x} and {y}.", a=car_name(st, att),
                                      d=car_name(st, d), x=str(f1), y=str(f2)))
                if f1 == "!" and f2 == "!":
                    # 17.6.2: no pass; with the safety-car option the SC comes out and the bots that
                    # caused it go to the back (reading: both, as the standard rule's "the cars that
                    # caused it"); without it the attacker just stops here.
                    if st["options"].get("safety_car"):
                        st["sc_due"] = {"causers": [att, d]}
                    t["fought"].append(d)
                    log(st, ev, msg("{d} holds the position.", d=car_name(st, d)))
                    return "lost"
                log(st, ev, msg("{a} overtakes {d}.", a=car_name(st, att), d=car_name(st, d)))
            elif answer == "yield":  # case 3 of 5.2 / case 4 of 5.3: no fight
                log(st, ev, msg("{d} lets {a} through.", d=car_name(st, d), a=car_name(st, att)))
            else:
                if answer is None and pd.get("ask") and not f.get("fights") and not dbot:
                    t["stage"] = "defend"  # 5.1: the defender decides to fight or not before the dice
                    return "ask"
                if f["rolls"] is None and (abot or dbot):
                    # 17.6.1: the bot's "roll" is its card's overtaking value; only the human rolls
                    ov = BOTS.card(att if abot else d, (abot or dbot)["side"])["overtake"]
                    r = roll(rng, "black")
                    f["rolls"] = [ov, r] if abot else [r, ov]
                    log(st, ev, msg("Position fight {a} vs {d}: {b} has overtaking value {v}, {h} rolls {r}.",
                                          a=car_name(st, att), d=car_name(st, d), b=car_name(st, att if abot else d), v=ov,
                                          h=car_name(st, d if abot else att), r=r))
                if f["rolls"] is None:
                    ra, rd = roll(rng, "black"), roll(rng, "black")  # attacker first (5.1)
                    f["rolls"] = [ra, rd]
                    log(st, ev, msg("Position fight {a} vs {d}: black dice {ra} and {rd}.",
                                          a=car_name(st, att), d=car_name(st, d), ra=ra, rd=rd))
                if st["options"].get("collisions") and f["rolls"][0] == f["rolls"][1]:
                    # 10 / 5.1: equal raw rolls (a bot's value against a human's roll too, 17.6.1)
                    if "crash" not in f:
                        self._crash_start(st, rng, ev, att, d)
                    if not self._crash_rerolls(st, rng, ev):
                        return "ask"
                    t["fought"].append(d)
                    return "lost"
                a_answer = f.get("a_answer")
                if a_answer is None and pa.get("ask_attack") and not abot and self._attack_top(st) > 0:
                    t["stage"] = "attack"  # the attacker bids live, knowing the dice (its own turn)
                    return "ask"
                if answer is None and pd.get("ask") and not dbot:
                    t["stage"] = "defend"
                    return "ask"
                ra, rd = f["rolls"]
                mod = R.unused_mp_modifier(opt["unused"])
                a_tot = ra + mod - (1 if st["cars"][att]["blown"] else 0)  # a blown tyre: -1 (6.3)
                d_tot = rd - (1 if st["cars"][d]["blown"] else 0)
                a_bonus, d_bonus = SPECIALS.fight_bonus(st)  # appendix 4: Great Britain, Monaco
                a_tot, d_tot = a_tot + a_bonus, d_tot + d_bonus
                a_bonus, d_bonus = DRIVERS.fight_bonus(st, att, d, self._rain(st))  # appendix 1
                a_tot, d_tot = a_tot + a_bonus, d_tot + d_bonus
                d_max = pd["defend"] if answer is None else int(answer)
                keep = DRIVERS.sp_cost(st, att, opt["step"]["s"]) - DRIVERS.sp_cost(st, att, opt["ms"]["s"])  # SP the passing step needs
                a_max = max(0, min(pa["attack"] if a_answer is None else int(a_answer), st["cars"][att]["sp"] - keep))
                d_max = max(0, min(d_max, st["cars"][d]["sp"]))
                if st["cars"][att].get("stress", 0) >= 3:  # 12.1 level 3: no SP in position fights
                    a_max = 0
                if st["cars"][d].get("stress", 0) >= 3:
                    d_max = 0
                if abot:  # 17.6.1: the bot's value as it stands, and it never bids beyond it
                    a_tot, a_max = ra, 0
                if dbot:  # the human attacker must beat the value; the defender wins ties (5.1)
                    d_tot, d_max = rd, 0
                res = R.settle_auction(a_tot, d_tot, a_max, d_max)
                log(st, ev, msg("{a} {at} against {d} {dt}: {a} bids {ba}, {d} bids {bd}.", a=car_name(st, att),
                                      d=car_name(st, d), at=res.attacker_total, dt=res.defender_total,
                                      ba=res.attacker_pays, bd=res.defender_pays))
                st["cars"][att]["sp"] -= res.attacker_pays  # only the winner pays (5.1)
                t["sp_paid"] = t.get("sp_paid", 0) + res.attacker_pays
                st["cars"][d]["sp"] -= res.defender_pays
                if not res.attacker_wins:
                    t["fought"].append(d)
                    log(st, ev, msg("{d} holds the position.", d=car_name(st, d)))
                    return "lost"
                log(st, ev, msg("{a} overtakes {d}.", a=car_name(st, att), d=car_name(st, d)))
                # Victory Lane: 2 more MP for a won fight (reading: the attacker's, who moves on)
                t["n"] = t.get("n", 0) + DRIVERS.win_bonus(st, att)
            t["fought"].append(d)
            t["won"].append(d)
            self._reorder_with_won(st)
            f["i"] += 1
            f["rolls"] = None
            f["answer"] = None
            f["a_answer"] = None
            f["fights"] = False
            t["stage"] = "move"
        return "won"

    def _attack_top(self, st: State) -> int:
        """The most SP the attacker can bid in the fight under way (what the passing step itself
        needs stays back; stress level 3: none)."""
        t = st["turn"]
        car = st["cars"][t["seat"]]
        opt = t["fight"]["opt"]
        if car.get("stress", 0) >= 3:
            return 0
        return max(0, min(car["sp"] - (opt["step"]["s"] - opt["ms"]["s"]), 20))

    # ------------------------------------------------------------ collisions (10)
    def _crash_start(self, st: State, rng: Rng, ev: list[Event], att: int, d: int) -> None:
        """The pass does not happen; every car in it makes a collision roll in position-track order:
        the attacker, the defender and, in a multiple overtake (5.4), the car alongside the defender
        (10: all three roll even when only two fight). Bots make no collision roll (17.2)."""
        t = st["turn"]
        f = t["fight"]
        dcar = st["cars"][d]
        cars = {att, d}
        if dcar["pos"][0] == "t":
            for s, o in enumerate(st["cars"]):
                if o["out"] is None and o["finished"] is None and o["pos"] and o["pos"][0] == "t" \
                        and o["pos"][1] == dcar["pos"][1] and o["laps"] == dcar["laps"]:
                    cars.add(s)
        cars = [s for s in st["order"] if s in cars]
        log(st, ev, msg("Collision! {a} and {d} both roll {r}: no overtake.", a=car_name(st, att), d=car_name(st, d),
                              r=f["rolls"][0]))
        rolls = {}
        for s in cars:
            st["cars"][s]["nodrs"] = True
            self._stress(st, ev, s)  # 12.2: a driver in a collision
            if not st["cars"][s].get("bot"):
                rolls[str(s)] = roll(rng, "black")
                log(st, ev, msg("{p} makes a collision roll: {r}.", p=car_name(st, s), r=rolls[str(s)]))
        f["crash"] = {"cars": [s for s in cars if str(s) in rolls], "rolls": rolls, "i": 0, "choice": {}}

    def _crash_reroll_offered(self, st: State, seat: int) -> bool:
        cr = st["turn"]["fight"]["crash"]
        return st["cars"][seat]["sp"] >= 1 and COLLISION[DRIVERS.collision_roll(st, seat, cr["rolls"][str(seat)])] != "none" \
            and st["cars"][seat].get("stress", 0) < 5  # 12.1 level 5: no SP at all

    def _crash_rerolls(self, st: State, rng: Rng, ev: list[Event]) -> bool:
        """Once all have rolled, each (in position-track order) may roll again for 1 SP and must keep
        the lower roll (10); then the damage. False while a player's choice is awaited."""
        t = st["turn"]
        cr = t["fight"]["crash"]
        while cr["i"] < len(cr["cars"]):
            s = cr["cars"][cr["i"]]
            if self._crash_reroll_offered(st, s):
                if str(s) not in cr["choice"]:
                    t["stage"] = "crash"
                    return False
                if cr["choice"][str(s)]:
                    st["cars"][s]["sp"] -= 1
                    r = roll(rng, "black")
                    cr["rolls"][str(s)] = min(cr["rolls"][str(s)], r)
                    log(st, ev, msg("{p} spends 1 SP on a second collision roll: {r}; keeps {k}.",
                                          p=car_name(st, s), r=r, k=cr["rolls"][str(s)]))
            cr["i"] += 1
        t["stage"] = "move"
        damaged, broke = [], []
        for s in cr["cars"]:
            res = self._crash_damage(st, ev, s, cr["rolls"][str(s)])
            if res:
                damaged.append(s)
            if res in ("light", "heavy"):
                broke.append(s)
        t["fight"]["crash_done"] = damaged
        f = t["fight"]
        d = f["opt"]["def"][f["i"]]
        if st["options"].get("safety_car"):
            both = [t["seat"], d]
            if any(st["cars"][x].get("bot") for x in both):
                # 17.6.1: a human who breaks down against a bot rolls the black die: 1-3, SC
                if broke:
                    r = roll(rng, "black")
                    log(st, ev, msg("Safety car roll: {r}.", r=r))
                    if r <= 3:
                        st["sc_due"] = {"causers": both}
            elif len(broke) >= 2:  # 10.2 (A): both cars break down
                st["sc_due"] = {"causers": [x for x in cr["cars"] if x in both or x in broke]}
            if st.get("sc_due"):
                return True  # no yellow flag under the safety car (10.1)
        if damaged and st["options"].get("yellow_flag"):
            self._yellow_flag(st, ev, t["fight"]["opt"]["def"][t["fight"]["i"]])
        return True

    def _yellow_flag(self, st: State, ev: list[Event], d: int) -> None:
        """10.1: a collision with damage puts a yellow flag at the start of its sector and a green
        one at its end: a corner from the row after its double arrow to its last shaded row, a
        straight from the row after the corner before it to the next double-arrow row; no
        overtaking between them this round and the next. Where the collision is: the defender's cell."""
        c = circuits()[st["circuit"]]
        pos = st["cars"][d]["pos"]
        if pos[0] != "t":
            return
        row = pos[1]
        co = c.corner_at(row)
        if co is not None:
            rows = list(range(co.first, co.last + 1))
        else:
            rows = [row]
            r = row
            while len(rows) < c.length and R.is_straight(c, (r - 1) % c.length):
                r = (r - 1) % c.length
                rows.insert(0, r)
            r = row
            while len(rows) < c.length and R.is_straight(c, (r + 1) % c.length):
                r = (r + 1) % c.length
                rows.append(r)
        st["flag"] = {"rows": rows, "until": st["round"] + 1}
        log(st, ev, msg("Yellow flag: no overtaking from row {a} to row {b} this round and the next.",
                              a=rows[0] + 1, b=rows[-1] + 1))

    def _crash_damage(self, st: State, ev: list[Event], seat: int, roll: int) -> str | None:
        """The collision table (10): what the car suffered ("ep", "bp", "light", "heavy"), or None."""
        car = st["cars"][seat]
        res = COLLISION[DRIVERS.collision_roll(st, seat, roll)]  # teams: lower collision rolls
        if res == "none":
            log(st, ev, msg("{p}: no damage.", p=car_name(st, seat)))
            return None
        if res in ("ep", "bp"):
            if car[res] <= 0 and VARIANTS.instead_of_retiring(st, ev, seat):
                pass  # 16.1: to the pits instead
            elif car[res] <= 0:  # a point the car does not have: out of the race (10)
                car["out"] = "crash"
                log(st, ev, msg("{p} has no {what} left to lose and retires.", p=car_name(st, seat),
                                      what=msg("EP") if res == "ep" else msg("BP")))
            else:
                car[res] -= 1
                log(st, ev, msg("{p} loses 1 {what}.", p=car_name(st, seat),
                                      what=msg("EP") if res == "ep" else msg("BP")))
            return res
        VARIANTS.breakdown(st, ev, seat, res)
        return res

    # ------------------------------------------------------------ safety car (10.2)
    def _sc_start(self, st: State, rng: Rng, ev: list[Event]) -> bool:
        """10.2: four weather rolls, then every car lines up behind the SC line (wearing its tyres
        for each finish-line crossing on the way); the lap counter moves on one when the leader was
        between the SC line and the finish line. Then each car, in position-track order, decides
        whether to pit. False while a player's decision is awaited."""
        due = st.pop("sc_due")
        c = circuits()[st["circuit"]]
        st["flag"] = None  # no flags under the safety car (10.1)
        log(st, ev, msg("Safety car! The race is neutralised."))
        w0 = R.weather_now(st["weather"], c)
        faces = [roll(rng, "weather") for _ in range(4)]
        for face in faces:
            if face == "cloud":
                for car in st["cars"]:
                    if car.get("bot"):
                        car["bot"]["prog"] = BOTS.advance_prog(car["bot"]["prog"])
                st["weather"], _ = R.weather_advance(st["weather"], c.weather_b)
        log(st, ev, msg("Safety car weather rolls: {faces}; weather {w}.", faces=", ".join(map(str, faces)),
                              w=weather_name(R.weather_now(st["weather"], c))))
        EVENTS.weather_moved(st, w0)  # Spain: light rain beginning reveals an event (next round)
        run = running(st)
        if not run:
            return True
        lead = st["cars"][run[0]]
        p = R.prog(c, lead["laps"], lead["pos"])
        lap = int(p // c.length)
        queue_lap = lap + (1 if p - lap * c.length >= c.sc_row else 0)
        queue_lap += VARIANTS.sc_extra_laps(st)  # 16.2: the lap counter moves one space more than usual
        if queue_lap >= c.laps:  # past the race's laps: the race ends in the current order (10.2)
            for s in run:
                car = st["cars"][s]
                car["finished"] = len(st["finish"]) + 1
                car["fin_round"] = st["round"]
                car["pos"] = ["done"]
                st["finish"].append(s)
            self._reorder(st)
            st["phase"] = "over"
            st["queue"] = []
            log(st, ev, msg("The lap counter passes the race's laps: the race ends in this order."))
            return True
        for s in run:
            car = st["cars"][s]
            if queue_lap > car["laps"]:
                self._crossings(st, s, car["laps"], queue_lap)
        st["sc"] = {"order": list(run), "i": 0, "pit": {}, "causers": [x for x in run if x in due["causers"]],
                    "lap": queue_lap}
        return self._sc_decide(st, rng, ev)

    def _sc_decide(self, st: State, rng: Rng, ev: list[Event]) -> bool:
        sc = st["sc"]
        c = circuits()[st["circuit"]]
        while sc["i"] < len(sc["order"]):
            s = sc["order"][sc["i"]]
            car = st["cars"][s]
            if car.get("bot") and str(s) not in sc["pit"]:
                steps, future = BOTS.weather_steps(st["weather"], c)
                must = not car["pitted"] and sc["lap"] >= c.laps - 2
                sc["pit"][str(s)] = bool(must or BOTS.wants_pit(car["life"], car["tyre"], R.weather_now(st["weather"], c),
                                                                steps, future, lambda: roll(rng, "black")))
                if sc["pit"][str(s)]:
                    sc["pit"][str(s)] = BOTS.new_tyre(steps, R.weather_now(st["weather"], c), future, car["bot"]["soft"])
            if str(s) not in sc["pit"]:
                return False
            choice = sc["pit"][str(s)]
            if choice:
                self._sc_pit(st, ev, s, choice)
            else:
                log(st, ev, msg("{p} stays out.", p=car_name(st, s)))
            sc["i"] += 1
        self._sc_line_up(st, ev)
        return True

    def _sc_pit(self, st: State, ev: list[Event], seat: int, tyre: str) -> None:
        """A stop under the safety car (7.1 steps 2-5): wear, SP, repairs, new tyres; the car then
        joins the back of the line (reading: it needs no pit-exit turns, the field is queued)."""
        car = st["cars"][seat]
        w = R.weather_now(st["weather"], circuits()[st["circuit"]])
        car["life"] = self._wear(car, w)
        if car.get("bot"):
            self._bot_fit(car, tyre)
        else:
            car["sets"][car["tyre"]].append(car["life"])
            car["sp"] = min(car["sp0"], car["sp"] + rules()["pit_sp_regain"])
            self._fit(car, tyre)
            DRIVERS.at_pit(st, ev, seat)
        car["bd"] = [[k, True] for k, _ in car["bd"]]
        car["blown"] = False
        car["pitted"] = True
        VARIANTS.pitted(car)
        log(st, ev, msg("{p} pits under the safety car and fits {t} tyres.", p=car_name(st, seat), t=tyre_name(tyre)))

    def _sc_line_up(self, st: State, ev: list[Event]) -> None:
        """The line behind the SC line, one car a row (designed: in the centre lane): the cars that
        stayed out in their order, then those that pitted, then the cars that caused it (10.2)."""
        sc = st.pop("sc")
        c = circuits()[st["circuit"]]
        stay = [s for s in sc["order"] if not sc["pit"][str(s)] and s not in sc["causers"]]
        went = [s for s in sc["order"] if sc["pit"][str(s)] and s not in sc["causers"]]
        line = stay + went + sc["causers"]
        row, laps = c.sc_row, sc["lap"]
        for s in line:
            while True:
                row -= 1
                if row < 0:
                    row, laps = c.length - 1, laps - 1
                if not c.rows[row].brown or laps == 0:
                    break
            lanes = c.rows[row].lanes
            car = st["cars"][s]
            car.update(pos=["t", row, 1 if 1 in lanes else lanes[0]], laps=laps, line=[], off=0, pit_turn=0,
                       green=0, drs=False, sc_turn=True)
            car.pop("nodrs", None)
        st["order"] = list(st["finish"]) + line + [s for s in st["order"] if st["cars"][s]["out"] is not None]
        log(st, ev, msg("Behind the safety car: {cars}.", cars=[car_name(st, s) for s in line]))
        for s in line:
            if sc["lap"] == c.laps - 1:
                self._last_lap_without_stop(st, ev, s, sc["lap"] - 1)
        st["queue"] = []  # the interrupted round is over: the next one starts from the new order
        self._reorder(st)

    def _after_fight(self, st: State, rng: Rng, ev: list[Event], result: str) -> None:
        t = st["turn"]
        if result == "ask":
            return
        if t.get("bot"):  # a human defender has answered a bot: the bot drives on
            if self._bot_after_fight(st, rng, ev, result) and self._bot_go(st, rng, ev):
                return
            self._end_turn(st, rng, ev)
            return
        o = t.pop("fight")["opt"]
        t["stage"] = "move"
        seat = t["seat"]
        if result == "lost":  # the attacker stays where it stopped and loses the MP left (5)
            t["ms"] = o["ms"]
            self._finish_move(st, rng, ev, o["ms"], "end")
            return
        step = dict(o["step"])
        d_pos = st["cars"][o["def"][-1]]["pos"]
        c = circuits()[st["circuit"]]
        if step["pos"][0] == "t" and step["laps"] >= c.laps:  # the pass crossed the line: finished
            self._finish_move(st, rng, ev, step, "finish")
            return
        if d_pos[0] == "t" and step["pos"][0] == "t" and R.is_straight(c, step["pos"][1]) \
                and d_pos[2] != step["pos"][2]:
            step["slip"] = d_pos[2]  # after the pass: diagonally into its lane (5.2.1)
        t["ms"] = step
        self._set_pos(st, seat, step)
        self._reorder_with_won(st)
        self._plan(st)
        if not t["opts"]:
            self._finish_move(st, rng, ev, step, "end")

    def _reorder_with_won(self, st: State) -> None:
        """A won fight puts the attacker ahead of the defender on the position track at once
        (5.4 B: even if the next fight is lost)."""
        t = st["turn"]
        order = st["order"]
        a = t["seat"]
        for d in t["won"]:
            if order.index(a) > order.index(d):
                order.remove(a)
                order.insert(order.index(d), a)

    # ------------------------------------------------------------ the contract
    def to_act(self, state: State) -> list[int]:
        ph = state["phase"]
        if ph == "setup":
            return CUSTOM.to_act(state, human)
        if ph == "standings":
            return CHAMP.to_act(state, human)
        if ph == "quali":
            return [s for s in state["quali"]["in"] if str(s) not in state["quali"]["choice"] and human(state, s)]
        if ph == "tyres":
            return [s for s in range(state["seats"]) if str(s) not in state["tyre_pick"] and human(state, s)]
        if ph == "race" and state.get("sc"):
            return [state["sc"]["order"][state["sc"]["i"]]]
        if ph == "race" and state["turn"]:
            t = state["turn"]
            if t["stage"] == "defend":
                f = t["fight"]
                return [f["opt"]["def"][f["i"]]]
            if t["stage"] == "attack":
                return [t["seat"]]
            if t["stage"] == "crash":
                cr = t["fight"]["crash"]
                return [cr["cars"][cr["i"]]]
            return [t["seat"]]
        return []

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [{"type": "prefs", "preset": p} for p in PRESETS
                                     if human(state, seat) and not self.is_over(state)]
        if not human(state, seat):
            return []
        ph = state["phase"]
        if ph == "setup":  # 13.1
            return out + (CUSTOM.actions(state, seat) if seat in self.to_act(state) else [])
        if ph == "standings":  # 15: between two races of the season
            return out + (CHAMP.actions(state, seat) if seat in self.to_act(state) else [])
        # A secret choice (qualifying reroll, starting tyres) may be changed until all are in.
        changing = (ph == "quali" and seat in state["quali"]["in"]) or (ph == "tyres" and 0 <= seat < state["seats"])
        if seat not in self.to_act(state) and not changing:
            return out
        car = state["cars"][seat]
        if ph == "quali":
            out += [{"type": "quali", "reroll": False}]
            if car["sp"] >= 1:
                out.append({"type": "quali", "reroll": True})
            return out
        if ph == "tyres":
            return out + [{"type": "tyre", "tyre": t} for t in TYRES if car["sets"][t]]
        if state.get("sc"):  # 10.2: stay out, or pit and fit a set
            return out + [{"type": "sc", "tyre": None}] + [{"type": "sc", "tyre": x} for x in TYRES if car["sets"][x]] \
                + CUSTOM.pit_swaps(state, seat, [x for x in TYRES if car["sets"][x]], "sc")
        t = state["turn"]
        if t["stage"] == "crash":
            return out + [{"type": "crash", "reroll": False}, {"type": "crash", "reroll": True}]
        if t["stage"] == "defend":
            if t["fight"]["rolls"] is None:  # before the dice: fight or let them through
                return out + [{"type": "yield"}, {"type": "fight"}]
            top = 0 if car.get("stress", 0) >= 3 else min(car["sp"], 20)
            return out + [{"type": "defend", "max": k} for k in range(top + 1)]
        if t["stage"] == "attack":  # a live bid: the most SP to bid, knowing the dice
            return out + [{"type": "attack", "max": k} for k in range(self._attack_top(state) + 1)]
        if t["stage"] == "pit_tyre":
            return out + [{"type": "tyre", "tyre": x} for x in TYRES if car["sets"][x]] \
                + CUSTOM.pit_swaps(state, seat, [x for x in TYRES if car["sets"][x]])  # 13.2
        lv = car.get("stress", 0)
        calm_ok = lv > 0 and t["ms"] is None and not t.get("calm") and t["die"] in ("red", "white", "green", "blue")
        if calm_ok and lv >= 6:  # 12.1 level 6: the driver must bring it down to 5 this turn
            return out + [{"type": "calm"}]
        if calm_ok:
            out.append({"type": "calm"})
        w_now = R.weather_now(state["weather"], circuits()[state["circuit"]])
        can_reroll = not t["pit_exit"] and t["ms"] is None and (
            (car["sp"] - t["reduce"] >= 1 and lv < 5) or DRIVERS.free_reroll(state, seat, w_now))
        if can_reroll:
            out.append({"type": "reroll"})
        # 4.1: in the end the player picks one of the rolls. Reading: a pick may be changed once
        # (two picks between rerolls), so a menu can't toggle between rolls without end.
        if t["ms"] is None and len(t["rolls"]) > 1 and t["die"] != "purple" and t.get("picks", 0) < MAX_PICKS:
            out += [{"type": "use", "i": i} for i in range(len(t["rolls"])) if i != t["use"]]
        if t["ms"] is None and self._course_out_due(state):
            w = R.weather_now(state["weather"], circuits()[state["circuit"]])
            lim = DRIVERS.course_out_limit(state, seat, car["tyre"], R.course_out_limit(car["tyre"], w))
            need = self._roll_value(state) - t["reduce"] - lim + 1
            if car["sp"] - t["reduce"] >= need and lv < 5:
                out.append({"type": "reduce", "sp": t["reduce"] + need})
            out.append({"type": "off"})
            return out
        if t["ms"] is None and t["die"] != "purple" and car["sp"] - t["reduce"] >= 1 and t["reduce"] < 3 \
                and lv < 5 and self._low_grip_roll_due(state):
            out.append({"type": "reduce", "sp": t["reduce"] + 1})
        if DRIVERS.wear_token_ok(state, seat):  # the Tyre Whisperer: +1 MP on worn tyres
            out.append({"type": "wear_token"})
        out += [{"type": "move", "i": i} for i in range(len(t["opts"] or []))]
        if not t["opts"]:
            out.append({"type": "stay"})
        return out

    def describe_action(self, state: State, seat: int, action: dict[str, Any]) -> Msg:
        a = action.get("type")
        if a == "move":
            o = state["turn"]["opts"][action["i"]]
            return self._opt_label(state, o)
        if a == "quali":
            return msg("Spend 1 SP for two more rolls") if action["reroll"] else msg("Keep my roll")
        if a == "tyre" and action.get("swap"):
            return msg("Fit {t} tyres, {swap}", t=tyre_name(action["tyre"]), swap=CUSTOM.swap_label(action["swap"]))
        if a == "setup":
            return CUSTOM.label(state, seat, action)
        if a == "next":
            return CHAMP.label(state, seat, action)
        if a == "sc" and action.get("swap"):
            return msg("Pit under the safety car: {t} tyres, {swap} (to the back)", t=tyre_name(action["tyre"]),
                       swap=CUSTOM.swap_label(action["swap"]))
        if a == "tyre":
            return msg("Fit {t} tyres", t=tyre_name(action["tyre"]))
        if a == "reroll" and state["phase"] == "race" and state["turn"] and DRIVERS.free_reroll(
                state, seat, R.weather_now(state["weather"], circuits()[state["circuit"]])):
            return msg("Reroll (free, team)")
        if a == "reroll":
            return msg("Reroll (1 SP)")
        if a == "wear_token":
            return msg("Spend a wear token: +1 MP ({n} left)", n=state["cars"][seat].get("wear_tok", 0) - 1)
        if a == "calm":
            return msg("Calm down: {n} MP less, stress {s}", n=3 if state["turn"]["die"] in ("red", "white") else 2,
                       s=state["cars"][seat]["stress"] - 1)
        if a == "use":
            rolls = state["turn"]["rolls"]
            if rolls.count(rolls[action["i"]]) > 1:  # the same number twice: which roll it was
                return msg("Use roll {r} ({k} of {n})", r=str(rolls[action["i"]]), k=action["i"] + 1, n=len(rolls))
            return msg("Use roll {r}", r=str(rolls[action["i"]]))
        if a == "reduce":
            return msg("Spend {n} SP to take {n} off the roll", n=action["sp"])
        if a == "off":
            return msg("Go off the track (4 cells)")
        if a == "stay":
            return msg("Stay (no move possible)")
        if a == "sc":
            if not action["tyre"]:
                return msg("Stay out (keep my place in the line)")
            return msg("Pit under the safety car: {t} tyres (to the back)", t=tyre_name(action["tyre"]))
        if a == "crash":
            if action["reroll"]:
                return msg("Roll the collision die again (1 SP, keep the lower)")
            r = state["turn"]["fight"]["crash"]["rolls"][str(seat)]
            return msg("Keep collision roll {r}", r=r)
        if a == "yield":
            return msg("Let them through")
        if a == "fight":
            return msg("Fight for the position")
        if a == "defend":
            return msg("Defend, bidding up to {n} SP", n=action["max"])
        if a == "attack":
            return msg("Attack, bidding up to {n} SP", n=action["max"])
        if a == "prefs" and action.get("preset") in PRESETS:
            return _preset_label(action["preset"])
        return msg("Preferences")

    def _opt_label(self, st: State, o: dict) -> Msg:
        where = _where(st, o)
        costs = []
        if o["ep"]:
            costs.append(msg("{n} EP", n=o["ep"]))
        if o["bp"]:
            costs.append(msg("{n} BP", n=o["bp"]))
        if o["sp"]:
            costs.append(msg("{n} SP", n=o["sp"]))
        cost = msg("free") if not costs else costs[0] if len(costs) == 1 else msg("{a}, {b}", a=costs[0], b=costs[1]) if len(costs) == 2 else msg("{a}, {b}, {c}", a=costs[0], b=costs[1], c=costs[2])
        if o["kind"] == "fight":
            mod = R.unused_mp_modifier(o.get("unused", 0))
            if mod:
                return msg("Attack {d} from {where} ({cost}; {n} MP left: +{m} on the die)", d=[car_name(st, x) for x in o["def"]],
                           where=where, cost=cost, n=o["unused"], m=mod)
            return msg("Attack {d} from {where} ({cost})", d=[car_name(st, x) for x in o["def"]], where=where, cost=cost)
        if o["kind"] == "pit":
            return msg("Pit stop ({cost})", cost=cost)
        if o["kind"] == "finish":
            return msg("Cross the finish line at {where} ({cost})", where=where, cost=cost)
        if o.get("risk"):
            return msg("{where} ({cost}), low grip: a 1 sends you off", where=where, cost=cost)
        return msg("{where} ({cost})", where=where, cost=cost)

    # ------------------------------------------------------------ moves
    # Every move but a preference is one of the seat's legal actions (`_take`); the table's own moves
    # for an absent seat (17) are the ones `takeover_action` / `return_action` give, never legal actions.
    def _take(self, st: State, seat: int, action: Action) -> Action:
        """The move as a plain action (a select's chosen value read into it), once it is among the
        seat's legal actions; it counts then as one more move of the game (the state's "version").
        GameError, with nothing changed, otherwise."""
        plain = _plain(action)
        if plain not in self.legal_actions(st, seat):
            raise GameError(msg("That move is not possible now."))
        st["version"] += 1
        return plain

    def after_move(self, st: State, seat: int, events: list[Event]) -> None:
        """After every move: when the turn waits on a decision, what it told so far goes out now (a
        turn otherwise tells one line at its end); a race of the season that ended is closed (15)."""
        t = st.get("turn")
        if t and t.get("story"):
            self._tell(st, events)
            t["story"] = []
        rng = Rng(st["rng"])
        CHAMP.after_apply(st, rng, events)
        st["rng"] = rng.state

    @move("prefs", anytime=True)
    def _prefs(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """Standing choices for position fights: a preset, or values sent directly. Not a move of the
        game: it is never counted and changes nothing else."""
        action = _plain(action)
        preset = str(action["preset"]) if "preset" in action else ""
        bids = {k: action[k] for k in ("attack", "defend") if k in action}
        if not human(st, seat) or ("preset" in action and preset not in PRESETS) or any(
                not isinstance(v, int) or not 0 <= v <= 30 for v in bids.values()):
            raise GameError(msg("That move is not possible now."))
        p = st["prefs"][seat]
        if "preset" in action:
            p.update(PRESETS[preset])
            log(st, ev, msg("Your fight preferences: {what}.", what=_preset_label(preset)), to=seat)
        for k in ("ask", "ask_attack"):
            if k in action:
                p[k] = bool(action[k])
        p.update(bids)
        if "yield" in action:
            p["yield"] = bool(action["yield"])

    @move(STANDIN.TAKE, anytime=True)
    def _bot_takes_over(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """The table hands an absent seat to a section-17 bot (only as `takeover_action` gives it)."""
        if _plain(action) != self.takeover_action(st, seat):
            raise GameError(msg("That move is not possible now."))
        st["version"] += 1
        rng = Rng(st["rng"])
        STANDIN.takeover(self, st, rng, ev, seat)
        st["rng"] = rng.state

    @move(STANDIN.BACK, anytime=True)
    def _player_takes_back(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """The owner takes the car back from the bot (only as `return_action` gives it)."""
        if _plain(action) != self.return_action(st, seat):
            raise GameError(msg("That move is not possible now."))
        st["version"] += 1
        rng = Rng(st["rng"])
        STANDIN.give_back(self, st, rng, ev, seat)
        st["rng"] = rng.state

    @move("next", phases=("standings",))
    def _next_race(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """15: ready for the next race of the season (with a new engine or not)."""
        action = self._take(st, seat, action)
        rng = Rng(st["rng"])
        CHAMP.choose(self, st, rng, ev, seat, action)
        st["rng"] = rng.state

    @move("setup", phases=("setup",))
    def _setup(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """13.1: the car's setup (points moved between EP and BP)."""
        action = self._take(st, seat, action)
        rng = Rng(st["rng"])
        CUSTOM.choose(st, seat, action["ep"])
        log(st, ev, msg("{p} has set up the car.", p=car_name(st, seat)))
        if not self.to_act(st):
            self._setup_done(st, rng, ev)
        st["rng"] = rng.state

    @move("quali", phases=("quali",), anytime=True)
    def _quali(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """3.1: keep the first roll or spend 1 SP for two more; secret, and open to change until
        everyone in the session has chosen."""
        action = self._take(st, seat, action)
        rng = Rng(st["rng"])
        q = st["quali"]
        q["choice"][str(seat)] = bool(action["reroll"])
        wait = bool(self.to_act(st))  # the others still choose: this choice may be changed until then
        first = q["first"][str(seat)]
        if action["reroll"]:
            log(st, ev, msg("You will spend 1 SP and roll twice more; your best roll counts (first roll {r}).",
                                  r=first) if not wait else
                      msg("You will spend 1 SP and roll twice more; your best roll counts (first roll {r}). "
                          "The dice are rolled once everyone has chosen; until then you may change your mind.",
                          r=first), to=seat)
        else:
            log(st, ev, msg("You keep your roll of {r}.", r=first) if not wait else
                      msg("You keep your roll of {r}. The session is settled once everyone has chosen; "
                          "until then you may change your mind.", r=first), to=seat)
        if not self.to_act(st):
            self._resolve_session(st, rng, ev)
        st["rng"] = rng.state

    @move("tyre", phases=("tyres", "race"), anytime=True)
    def _tyre(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """The starting tyres (3.2.3: secret, open to change until all have chosen), or the set
        fitted at a pit stop (with a setup swap, 13.2)."""
        action = self._take(st, seat, action)
        rng = Rng(st["rng"])
        if st["phase"] == "tyres":
            if str(seat) not in st["tyre_pick"]:
                log(st, ev, msg("{p} has chosen tyres.", p=car_name(st, seat)))
            st["tyre_pick"][str(seat)] = action["tyre"]
            if self.to_act(st):  # secret until all have chosen (3.2.3)
                log(st, ev, msg("You start on {t} tyres. They are revealed once everyone has chosen; until "
                                      "then you may change them.", t=tyre_name(action["tyre"])), to=seat)
            if not self.to_act(st):
                self._start_race(st, rng, ev)
        else:
            car = st["cars"][seat]
            self._fit(car, action["tyre"])
            CUSTOM.pit_swap(car, action.get("swap", 0))  # 13.2
            log(st, ev, msg("{p} fits {t} tyres.", p=car_name(st, seat), t=tyre_name(action["tyre"])))
            self._end_turn(st, rng, ev)
        st["rng"] = rng.state

    @move("sc", phases=("race",))
    def _safety_car(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """10.2: under the safety car, stay out or pit and fit a set."""
        action = self._take(st, seat, action)
        rng = Rng(st["rng"])
        st["sc"]["pit"][str(seat)] = action["tyre"] or False
        CUSTOM.pit_swap(st["cars"][seat], action.get("swap", 0))  # 13.2
        if self._sc_decide(st, rng, ev):
            self._next_turn(st, rng, ev)
        st["rng"] = rng.state

    @move("crash", phases=("race",))
    @move("attack", phases=("race",))
    @move("defend", phases=("race",))
    @move("yield", phases=("race",))
    @move("fight", phases=("race",))
    def _fight_answer(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """An answer a position fight waits on (5): the defender fights or lets the attacker through,
        a live bid of either side, a collision roll kept or rolled again (10)."""
        action = self._take(st, seat, action)
        rng = Rng(st["rng"])
        f = st["turn"]["fight"]
        a = action["type"]
        if a == "crash":
            f["crash"]["choice"][str(seat)] = bool(action["reroll"])
        elif a == "attack":
            f["a_answer"] = action["max"]
        elif a == "fight":
            f["fights"] = True
        else:
            f["answer"] = "yield" if a == "yield" else action["max"]
        self._after_fight(st, rng, ev, self._fight(st, rng, ev))
        st["rng"] = rng.state

    @move("calm", phases=("race",))
    def _calm(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """12.3: 3 MP off a dry die's roll (2 off a wet one), one stress level down."""
        self._take(st, seat, action)
        t, car = st["turn"], st["cars"][seat]
        t["calm"] = 3 if t["die"] in ("red", "white") else 2
        car["stress"] -= 1
        log(st, ev, msg("{p} gives up {n} MP to calm down: stress {s}.", p=car_name(st, seat), n=t["calm"],
                              s=car["stress"]))
        self._plan(st)

    @move("wear_token", phases=("race",))
    def _wear_token(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """14: the Tyre Whisperer's token, +1 MP on worn tyres."""
        self._take(st, seat, action)
        t = st["turn"]
        st["cars"][seat]["wear_tok"] -= 1
        t["wear_tok"] = True
        t["bonus"] = t.get("bonus", 0) + 1
        log(st, ev, msg("{p} spends a wear token: +1 MP.", p=car_name(st, seat)))
        self._plan(st)

    @move("reroll", phases=("race",))
    def _reroll(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """4.1: roll the die again for 1 SP (a team's free reroll, 14); the best roll is used
        until the player picks another."""
        self._take(st, seat, action)
        rng = Rng(st["rng"])
        t, car = st["turn"], st["cars"][seat]
        if DRIVERS.free_reroll(st, seat, R.weather_now(st["weather"], circuits()[st["circuit"]])):
            t["free_used"] = True  # teams: one free reroll a turn on their tyres and weather
            car["sp"] += 1
            t["sp_paid"] = t.get("sp_paid", 0) - 1
        car["sp"] -= 1
        t["sp_paid"] = t.get("sp_paid", 0) + 1
        t["rolls"].append(roll(rng, t["die"]))
        t.pop("picks", None)  # a new roll: the pick among them starts again
        if t["die"] == "purple":  # 3.2.4: keep the higher
            t["use"] = max(range(len(t["rolls"])), key=lambda i: face_value(t["rolls"][i]))
        else:
            t["use"] = max(range(len(t["rolls"])), key=lambda i: t["rolls"][i])
        if t.get("story") is None:  # a turn from before turns were told in one line
            log(st, ev, msg("{p} spends 1 SP and rerolls: {roll}.", p=car_name(st, seat), roll=str(t["rolls"][-1])))
        self._plan(st)
        st["rng"] = rng.state

    @move("use", phases=("race",))
    def _use(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """4.1: the roll to use, among the rolls made."""
        action = self._take(st, seat, action)
        t = st["turn"]
        t["use"] = action["i"]
        t["picks"] = t.get("picks", 0) + 1
        self._plan(st)

    @move("reduce", phases=("race",))
    def _reduce(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """4.6.1: SP spent to take as much off the roll (to stay on the track)."""
        action = self._take(st, seat, action)
        t = st["turn"]
        extra = action["sp"] - t["reduce"]
        st["cars"][seat]["sp"] -= extra
        t["sp_paid"] = t.get("sp_paid", 0) + extra
        t["reduce"] = action["sp"]
        log(st, ev, msg("{p} spends {n} SP to lower the roll.", p=car_name(st, seat), n=extra))
        self._plan(st)

    @move("off", phases=("race",))
    @move("stay", phases=("race",))
    def _no_move(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """The car goes off the track (4.6.1), or stays where it is when no move is possible."""
        action = self._take(st, seat, action)
        rng = Rng(st["rng"])
        if action["type"] == "off":
            self._go_off(st, ev, seat)
        self._after_move(st, rng, ev, seat, None)
        self._end_turn(st, rng, ev)
        st["rng"] = rng.state

    @move("move", phases=("race",))
    def _move(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """Where the car goes, among the turn's options: a cell, the pits, the finish, or an attack
        (a position fight, 5)."""
        action = self._take(st, seat, action)
        rng = Rng(st["rng"])
        t = st["turn"]
        o = t["opts"][action["i"]]
        if o["kind"] == "fight":
            self._charge(st, o["ms"])
            self._set_pos(st, seat, o["ms"])
            t["fight"] = {"opt": o, "i": 0, "rolls": None, "answer": None, "fights": False}
            self._after_fight(st, rng, ev, self._fight(st, rng, ev))
        else:
            self._finish_move(st, rng, ev, o["ms"], o["kind"])
        st["rng"] = rng.state

    # ------------------------------------------------------------ output
    def view(self, state: State, viewer: int | None) -> View:
        c = circuits()[state["circuit"]]
        cars = []
        for s, car in enumerate(state["cars"]):
            cars.append({k: car[k] for k in ("ep", "bp", "sp", "tyre", "life", "sets", "bd", "pos", "laps",
                                             "pitted", "off", "out", "finished", "green")})
            cars[-1]["drs"] = bool(car.get("drs"))
            if "stress" in car:
                cars[-1]["stress"] = car["stress"]
            if car.get("must_pit"):
                cars[-1]["must_pit"] = True
            if "fin_round" in car:
                cars[-1]["fin_round"] = car["fin_round"]
            b = car.get("bot")
            if b and b.get("for"):  # a bot drives a player's car: the board shows the player's dashboard
                cars[-1].update({k: v for k, v in b["dash"].items() if k in ("ep", "bp", "sp", "stress")})
            cars[-1].update(DRIVERS.view(STANDIN.dashboard(car)))
            cars[-1]["bot"] = {"colour": BOTS.COLOURS[s % 6], "side": b["side"], "prog": b["prog"]} if b else None
            if b and b.get("for"):
                cars[-1]["bot"]["for"] = True
        v: View = {"kind": "pole", "circuit": state["circuit"], "phase": state["phase"], "round": state["round"],
                   "turn": state["turn_no"] + (1000000 if state["phase"] == "over" else 0), "viewer": viewer,
                   "post": [state["phase"], state["round"]],  # a round's cars share one thread post
                   "weather": dict(state["weather"]), "weather_now": R.weather_now(state["weather"], c),
                   "order": list(state["order"]), "cars": cars, "finish": list(state["finish"]),
                   "laps": c.laps, "log": list(state["log"][-12:]), "to_act": self.to_act(state)}
        if state.get("sc"):
            v["sc"] = {"order": list(state["sc"]["order"]), "pit": {k: bool(x) for k, x in state["sc"]["pit"].items()}}
        if EVENTS.on(state):
            v["events"] = EVENTS.view(state)
        if SPECIALS.on(state):
            v["circuit_rules"] = True
        v.update(CHAMP.view(state) or {})
        if state.get("flag"):
            v["flag"] = {"from": state["flag"]["rows"][0], "to": state["flag"]["rows"][-1],
                         "until": state["flag"]["until"]}
        if state["phase"] == "tyres":  # secret until all have chosen (3.2.3)
            for s, car in enumerate(cars):
                car["tyre"] = None
            v["chosen"] = sorted(int(s) for s in state["tyre_pick"])
            if viewer is not None and str(viewer) in state["tyre_pick"]:
                v["my_tyre"] = state["tyre_pick"][str(viewer)]
        if state["phase"] == "setup":
            v["setup"] = {"chosen": sorted(int(s) for s in state["setup"])}
        if state["phase"] == "quali":
            q = state["quali"]
            v["quali"] = {"session": q["sessions"][q["idx"]], "first": dict(q["first"]),
                          "chosen": sorted(int(s) for s in q["choice"]), "back": list(q["back"])}
            if viewer is not None and str(viewer) in q["choice"]:
                v["quali"]["mine"] = q["choice"][str(viewer)]
        if viewer is not None:  # standing fight preferences are secret (the other side's maximum)
            v["me"] = {"seat": viewer, "prefs": dict(state["prefs"][viewer])}
        t = state["turn"]
        if t:
            v["turn_info"] = {"seat": t["seat"], "rolls": [str(x) for x in t["rolls"]], "use": t["use"],
                              "reduce": t["reduce"], "stage": t["stage"]}
        return v

    def placings(self, state: State) -> list[int]:
        """Each seat's place at the end (1 = the winner): the finishers in order, then the rest."""
        season = CHAMP.placings(state)  # 15: the championship's standings
        if season:
            return season
        return [state["order"].index(s) + 1 for s in range(len(state["order"]))]

    def field(self, state: State) -> int:
        """Places count among every car, bots included."""
        return len(state["order"])

    def redraw_hidden(self, state: dict, seat: int, seed: int) -> dict:
        """What the seat cannot see, dealt again (bot/games/pole/hidden.py)."""
        st, again = hidden.redraw(state, seat, seed)
        return choose_again(self, st, again)

    def auto_action(self, state: State, seat: int) -> dict[str, Any]:
        """The automatic player of an absent seat: no rerolls, the roll as it came, the furthest cell
        on offer, and otherwise the first decision that is not a preference."""
        acts = [a for a in self.legal_actions(state, seat) if a["type"] not in ("prefs", "reroll", "use")]
        bids = [a for a in acts if a["type"] in ("attack", "defend")]
        if bids:  # a live bid: the seat's standing maximum, as if it had not asked
            want = state["prefs"][seat]["attack" if bids[0]["type"] == "attack" else "defend"]
            return bids[min(want, len(bids) - 1)]
        moves = [a for a in acts if a["type"] == "move"]
        return (moves or acts or self.legal_actions(state, seat))[0]

    def takeover_action(self, state: State, seat: int) -> dict[str, Any] | None:
        """The table hands an absent seat to the automatic player: a section-17 bot drives its car
        (bot/games/pole/standin.py); None when there is no car to drive (between races, retired)."""
        return STANDIN.takeover_action(state, seat)

    def return_action(self, state: State, seat: int) -> dict[str, Any] | None:
        """The owner takes the seat back: the car is theirs again (None: no bot drives it)."""
        return STANDIN.return_action(state, seat)

    def suggested_move(self, state: State, seat: int) -> tuple[int, Msg] | None:
        """The "Where to?" entry offered first, and why: the stop when it is due before the last lap
        (3.3), else the farthest cell that costs no EP, BP or SP and holds no low-grip roll, else the
        cheapest move (SP last, then EP and BP); position fights are never the first entry."""
        t = state["turn"]
        opts = (t or {}).get("opts") or []
        if not opts or t["stage"] != "move" or t["seat"] != seat:
            return None
        car = state["cars"][seat]
        c = circuits()[state["circuit"]]
        pit = [i for i, o in enumerate(opts) if o["kind"] == "pit"]
        if pit and not car["pitted"] and car["laps"] >= c.laps - 2:
            return pit[0], msg("Suggested: the stop is due before the last lap")
        ends = [i for i, o in enumerate(opts) if o["kind"] in ("end", "finish")]
        safe = [i for i in ends if not opts[i].get("risk")]
        free = [i for i in safe if opts[i]["ep"] + opts[i]["bp"] + opts[i]["sp"] == 0]
        if free:
            i = max(free, key=lambda j: (opts[j]["prog"], -j))
            farther = any(opts[j]["prog"] > opts[i]["prog"] for j in ends if j not in free)
            return i, (msg("Suggested: the farthest cell that costs no EP, BP or SP (farther ones cost points)")
                       if farther else msg("Suggested: the farthest cell on offer, at no cost"))
        pool = safe or ends
        if not pool:
            return None
        i = min(pool, key=lambda j: (opts[j]["sp"], opts[j]["ep"] + opts[j]["bp"], -opts[j]["prog"], j))
        return i, msg("Suggested: every move costs points here; this one costs the least")

    def menu(self, state: State, seat: int) -> list[dict[str, Any]]:
        acts = self.legal_actions(state, seat)
        moves = [a for a in acts if a["type"] == "move"]
        prefs = [a for a in acts if a["type"] == "prefs"]
        others = [a for a in acts if a["type"] not in ("move", "prefs", "defend", "attack")]
        defend = [a for a in acts if a["type"] == "defend"]
        attack = [a for a in acts if a["type"] == "attack"]
        groups: list[dict[str, Any]] = []
        if moves:
            entries = [{"label": self.describe_action(state, seat, a), "value": str(a["i"])} for a in moves[:25]]
            pick = self.suggested_move(state, seat)
            if pick is not None:
                i, why = pick
                first = next(e for e in entries if e["value"] == str(i))
                first["description"] = why
                entries = [first] + [e for e in entries if e is not first]
            groups.append({"kind": "select", "placeholder": msg("Where to?"), "min": 1, "max": 1,
                           "action": {"type": "move"}, "options": entries})
        if defend:
            groups.append({"kind": "select", "placeholder": msg("Defend: the most SP you will bid"), "min": 1,
                           "max": 1, "action": {"type": "defend"},
                           "options": [{"label": self.describe_action(state, seat, a), "value": str(a["max"])}
                                       for a in defend[:25]]})
        if attack:
            f = state["turn"]["fight"]
            groups.append({"kind": "select", "placeholder": msg("Attack: the most SP you will bid (rolls {a} and {d})",
                                                                a=f["rolls"][0], d=f["rolls"][1]),
                           "min": 1, "max": 1, "action": {"type": "attack"},
                           "options": [{"label": self.describe_action(state, seat, a), "value": str(a["max"])}
                                       for a in attack[:25]]})
        if others:
            seen, buttons = set(), []
            for a in others:
                label = self.describe_action(state, seat, a)
                key = repr(label)
                if key in seen:
                    continue
                seen.add(key)
                buttons.append({"label": label, "action": a})
            groups.append({"kind": "buttons", "options": buttons[:15]})
        if prefs and self.to_act(state):
            groups.append({"kind": "select", "placeholder": msg("Preferences: position fights"), "min": 1,
                           "max": 1, "action": {"type": "prefs"},
                           "options": [{"label": self.describe_action(state, seat, a), "value": a["preset"]}
                                       for a in prefs]})
        return groups


# The moves a menu offers as a select, and the key its chosen value goes to.
_SELECTS = {"move": "i", "defend": "max", "attack": "max", "prefs": "preset"}


def _plain(action: Action) -> Action:
    """A move as the engine reads it: a select's one chosen value (`chosen`) put in its key (the
    option index, the most SP to bid, the preset); any other move without "values"."""
    values = chosen(action)
    kind = action["type"]
    if len(values) != 1 or kind not in _SELECTS:
        return {k: v for k, v in action.items() if k != "values"}
    if kind == "prefs":
        return {"type": kind, "preset": values[0]}
    try:
        return {"type": kind, _SELECTS[kind]: int(values[0])}
    except ValueError:
        raise GameError(msg("That move is not possible now.")) from None


def _preset_label(p: str) -> Msg:
    return {"careful": msg("Fights: bid at most 1 SP"), "normal": msg("Fights: bid at most 3 SP"),
            "hard": msg("Fights: bid at most 6 SP"), "ask": msg("Fights: ask me when defending"),
            "ask_both": msg("Fights: ask me when attacking and defending"),
            "yield": msg("Fights: let attackers through")}[p]


def _where(st: State, o: dict) -> Msg:
    pos = o["pos"]
    if pos[0] == "t":
        lane = {0: msg("left"), 1: msg("centre"), 2: msg("right")}[pos[2]]
        return msg("lap {lap} row {row} {lane}", lap=o["laps"] + 1, row=pos[1] + 1, lane=lane)
    # Each cell of the pit lane by its number, so two of them never read alike (issue #29).
    return {"pin": msg("pit entry {n}", n=pos[1] + 1) if len(pos) > 1 else msg("pit lane"),
            "pit": msg("my pit"), "g": msg("pit exit {n}", n=pos[1] + 1) if len(pos) > 1 else msg("pit lane"),
            "pout": msg("pit lane out {n}", n=pos[1] + 1) if len(pos) > 1 else msg("pit lane")}.get(pos[0], msg("pit lane"))


def _where_car(car: dict) -> Msg | None:
    """Where a car is, in the words of the move menu and the board (None once it is done or out)."""
    pos = car["pos"]
    if not pos or car["out"] is not None or pos[0] == "done":
        return None
    if pos[0] == "pit":
        return msg("the pits")
    return _where({}, {"pos": pos, "laps": car["laps"]})


def _unused(n: int, ms, bcap: int) -> int:
    """The attacker's unused MP where it stops for a fight (5.1): the tyre MP not yet counted (none
    once the count is over: the rest was given up) and the cells left of a boost or brake use
    already paid for. (Example: 10 + 3 boost cells first, 10 counted, 3 unused.)"""
    paid = sum(bcap - x % bcap for x in (ms.b, ms.k) if x % bcap)
    if ms.mode == 0:
        return n + paid
    if ms.mode == 1:
        return n - ms.t
    return paid


def _ms(ms) -> dict:
    return {"pos": list(ms.pos), "laps": ms.laps, "mode": ms.mode, "t": ms.t, "b": ms.b, "k": ms.k, "s": ms.s,
            "line": list(ms.line), "slip": ms.slip}


ENGINE = PoleEngine()
