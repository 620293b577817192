"""Pole Position: the standard race (seed 002, sections 2-8). Pure engine over plain data.

Flow: setup (weather, 2.4) -> qualifying Q1-Q3 (3.1; simultaneous secret reroll choices) ->
secret tyre choice (3.2.3) -> rounds (3.3) in position-track order until every car has crossed
the line on its last lap or retired (3.4). A turn: the engine rolls the die at the start of the
turn; the player may reroll for 1 SP each (4.1), choose which roll to use, spend SP to stay on
the track (4.6.1), then picks where to go from a select of reachable cells with what each costs
(tyre MP counted, boost / brake / corner SP). Position fights are settled at once from both
sides' standing maxima (rules.settle_auction explains why that equals the open auction).
Optional rules built as table options: bots (17), DRS (11), collisions (10), yellow flag (10.1),
safety car (10.2), stress (12), events (9), custom setup (13), drivers and teams (14), the
championship (15), variants (16), circuit rules (appendix 4).

This module is the contract (bot/games/base.py): the options, a new game, and one `@move` handler
per move type. The game itself is in plain functions over the state, by phase, each module
importing only those below it: qualifying.py (setup, Q1-Q3, tyres, the start) -> race.py (rounds,
turns, a bot's turn, the safety car) -> fights.py (position fights, collisions) -> driving.py (a
car's roll, its options and its move); waiting.py says whom the game waits for and what a seat may
do, views.py what leaves the engine; takeover.py is the stand-in's moves (17); common.py what
every part shares (names, the log, the dice).
"""

from __future__ import annotations

from typing import Any

from bot.games.base import Action, Engine, Event, GameError, OptionSpec, State, View, choose_again, chosen, move
from bot.games.pole.common import car_name, copy_state, face_value, human, log, roll, tyre_name, weather_name
import bot.games.pole.hidden as hidden
import bot.games.pole.championship as CHAMP
import bot.games.pole.custom as CUSTOM
import bot.games.pole.drivers as DRIVERS
import bot.games.pole.events as EVENTS
import bot.games.pole.options as OPTS
import bot.games.pole.specials as SPECIALS
import bot.games.pole.standin as STANDIN
import bot.games.pole.takeover as TAKEOVER
import bot.games.pole.variants as VARIANTS
import bot.games.pole.driving as DRIVE
import bot.games.pole.fights as FIGHTS
import bot.games.pole.race as RACE
import bot.games.pole.qualifying as QUALI
import bot.games.pole.waiting as WAIT
import bot.games.pole.views as VIEWS
import bot.games.pole.rules as R
from bot.games.pole.content import CIRCUIT_KEYS, TYRES, circuits, rules
from bot.games.rng import Rng
from bot.i18n import Msg, msg

SCHEMA = 2  # 2: the number of cars is "seats" (it was "n")


def _new_car(opts: dict[str, Any], bot: bool) -> dict[str, Any]:
    """A car at the start: its points and tyre sets, and a bot's card when `bot`."""
    sp0 = rules()["start_points"]
    sets = {t: [rules()["tyres"][t]["life"]] * rules()["tyres"][t]["sets"] for t in TYRES}
    car: dict[str, Any] = {
        "ep": sp0["ep"],
        "bp": sp0["bp"],
        "sp": sp0["sp"],
        "sp0": sp0["sp"],
        "tyre": None,
        "life": 0,
        "sets": sets,
        "bd": [],
        "pos": None,
        "laps": 0,
        "pitted": False,
        "line": [],
        "off": 0,
        "pit_turn": 0,
        "green": 0,
        "out": None,
        "blow_done": False,
        "blown": False,
        "finished": None,
    }
    VARIANTS.start_car(opts, car)  # 16.2
    SPECIALS.start_points(opts, car)  # appendix 4
    if bot:  # a bot car: its card (the one matching its colour), side and cube (17.1)
        car["bot"] = {"side": opts.get("bot_side", "A"), "prog": 0, "soft": True, "pit_lap": -1, "pit": False}
        car["sp"] = car["sp0"] = 0
        car["ep"] = car["bp"] = 0
    return car


class PoleEngine(Engine):
    kind = "pole"
    title = "Pole Position"
    rules_version = 4  # raise it when a change makes old logs replay differently (bot/games/base.py)
    min_seats = 1  # a lone player races against bots (17)
    max_seats = 6
    options = [
        OptionSpec("circuit", "Circuit", list(CIRCUIT_KEYS), default="great_britain"),
        OptionSpec(
            "bots",
            "Bots: cars the game drives itself (as many as fit in 6 cars)",
            kind="int",
            default=0,
            min_value=0,
            max_value=5,
        ),
        OptionSpec("bot_side", "Bot cards: side A (slightly better) or B", ["A", "B"], default="A"),
        OptionSpec(
            "drs", "DRS: +2 MP after ending a move just behind a car past the DRS line", kind="bool", default=False
        ),
        OptionSpec(
            "collisions",
            "Collisions: equal fight rolls crash both cars (damage rolls, SP rerolls)",
            kind="bool",
            default=False,
        ),
        OptionSpec(
            "yellow_flag",
            "Yellow flag: no overtaking in a damaging collision's sector for 2 rounds (turns collisions on)",
            kind="bool",
            default=False,
        ),
        OptionSpec(
            "safety_car",
            "Safety car: after a collision that breaks down two cars, all line up "
            "behind the SC line and may pit (turns collisions on)",
            kind="bool",
            default=False,
        ),
        OptionSpec(
            "stress",
            "Stress: leading, collisions and rivals close behind raise a driver's stress "
            "level, which limits EP, BP and SP",
            kind="bool",
            default=False,
        ),
    ] + OPTS.SPECS

    # ------------------------------------------------------------ setup
    def describe_options(self, options: dict[str, Any]) -> list[Msg | str]:
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

    def copy_state(self, state: State) -> State:
        """`apply`'s copy, sharing the log's lines (bot/games/pole/common.py `copy_state`)."""
        return copy_state(state)

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
        humans = seats
        # 17.1: humans + bots make at most 6 cars; a lone player always gets at least one rival.
        nbots = max(1 if humans < 2 else 0, min(opts.get("bots", 0), self.max_seats - humans))
        seats = humans + nbots
        cars = [_new_car(opts, s >= humans) for s in range(seats)]
        DRIVERS.deal(opts, cars, rng)  # 14: a driver and a team for each player
        st: State = {
            "schema": SCHEMA,
            "rng": 0,
            "options": opts,
            "circuit": VARIANTS.circuit_key(opts),
            "seats": seats,
            "phase": "quali",
            "weather": R.weather_setup([col, row, b], c.weather_b),
            "cars": cars,
            "order": list(range(seats)),
            "round": 0,
            "queue": [],
            "turn": None,
            "finish": [],
            "quali": None,
            "grid": [],
            "tyre_pick": {},
            "version": 0,
            "log": [],
            "turn_no": 0,
            "prefs": [
                {"attack": 3, "defend": 3, "yield": False, "ask": False, "ask_attack": False} for _ in range(seats)
            ],
        }
        if EVENTS.on(st):  # 2.2: the event deck
            st["events"] = EVENTS.new_deck(opts, rng)
        CHAMP.begin(st)  # 15: the season
        ev: list[Event] = []
        log(
            st,
            ev,
            msg(
                "Weather roll {a}, {b}, {c}: the race starts in {w}.",
                a=col,
                b=row,
                c=b,
                w=weather_name(R.weather_now(st["weather"], c)),
            ),
        )
        st["quali"] = {"sessions": R.quali_sessions(seats), "idx": -1, "in": list(range(seats)), "back": []}
        if not CUSTOM.begin(st):  # 13.1: the setup step comes first, then qualifying
            QUALI.next_session(st, rng, ev)
        st["rng"] = rng.state
        st["rules_version"] = self.rules_version
        return st

    # ------------------------------------------------------------ the contract
    def to_act(self, state: State) -> list[int]:
        return WAIT.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return WAIT.legal_actions(state, seat)

    def describe_action(self, state: State, seat: int, action: Action) -> Msg:
        return VIEWS.describe_action(state, seat, action)

    def view(self, state: State, viewer: int | None) -> View:
        return VIEWS.view(state, viewer)

    def menu(self, state: State, seat: int) -> list[dict[str, Any]]:
        return VIEWS.menu(state, seat)

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
            RACE.tell(st, events)
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
        if (
            not human(st, seat)
            or ("preset" in action and preset not in WAIT.PRESETS)
            or any(not isinstance(v, int) or not 0 <= v <= 30 for v in bids.values())
        ):
            raise GameError(msg("That move is not possible now."))
        p = st["prefs"][seat]
        if "preset" in action:
            p.update(WAIT.PRESETS[preset])
            log(st, ev, msg("Your fight preferences: {what}.", what=VIEWS.preset_label(preset)), to=seat)
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
        TAKEOVER.takeover(st, rng, ev, seat)
        st["rng"] = rng.state

    @move(STANDIN.BACK, anytime=True)
    def _player_takes_back(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """The owner takes the car back from the bot (only as `return_action` gives it)."""
        if _plain(action) != self.return_action(st, seat):
            raise GameError(msg("That move is not possible now."))
        st["version"] += 1
        rng = Rng(st["rng"])
        TAKEOVER.give_back(st, rng, ev, seat)
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
            QUALI.setup_done(st, rng, ev)
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
            log(
                st,
                ev,
                msg("You will spend 1 SP and roll twice more; your best roll counts (first roll {r}).", r=first)
                if not wait
                else msg(
                    "You will spend 1 SP and roll twice more; your best roll counts (first roll {r}). "
                    "The dice are rolled once everyone has chosen; until then you may change your mind.",
                    r=first,
                ),
                to=seat,
            )
        else:
            log(
                st,
                ev,
                msg("You keep your roll of {r}.", r=first)
                if not wait
                else msg(
                    "You keep your roll of {r}. The session is settled once everyone has chosen; "
                    "until then you may change your mind.",
                    r=first,
                ),
                to=seat,
            )
        if not self.to_act(st):
            QUALI.resolve_session(st, rng, ev)
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
                log(
                    st,
                    ev,
                    msg(
                        "You start on {t} tyres. They are revealed once everyone has chosen; until "
                        "then you may change them.",
                        t=tyre_name(action["tyre"]),
                    ),
                    to=seat,
                )
            if not self.to_act(st):
                QUALI.start_race(st, rng, ev)
        else:
            car = st["cars"][seat]
            DRIVE.fit(car, action["tyre"])
            CUSTOM.pit_swap(car, action.get("swap", 0))  # 13.2
            log(st, ev, msg("{p} fits {t} tyres.", p=car_name(st, seat), t=tyre_name(action["tyre"])))
            RACE.end_turn(st, rng, ev)
        st["rng"] = rng.state

    @move("sc", phases=("race",))
    def _safety_car(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """10.2: under the safety car, stay out or pit and fit a set."""
        action = self._take(st, seat, action)
        rng = Rng(st["rng"])
        st["sc"]["pit"][str(seat)] = action["tyre"] or False
        CUSTOM.pit_swap(st["cars"][seat], action.get("swap", 0))  # 13.2
        if RACE.sc_decide(st, rng, ev):
            RACE.next_turn(st, rng, ev)
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
        RACE.after_fight(st, rng, ev, FIGHTS.fight(st, rng, ev))
        st["rng"] = rng.state

    @move("calm", phases=("race",))
    def _calm(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """12.3: 3 MP off a dry die's roll (2 off a wet one), one stress level down."""
        self._take(st, seat, action)
        t, car = st["turn"], st["cars"][seat]
        t["calm"] = 3 if t["die"] in ("red", "white") else 2
        car["stress"] -= 1
        log(
            st,
            ev,
            msg("{p} gives up {n} MP to calm down: stress {s}.", p=car_name(st, seat), n=t["calm"], s=car["stress"]),
        )
        DRIVE.plan(st)

    @move("wear_token", phases=("race",))
    def _wear_token(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """14: the Tyre Whisperer's token, +1 MP on worn tyres."""
        self._take(st, seat, action)
        t = st["turn"]
        st["cars"][seat]["wear_tok"] -= 1
        t["wear_tok"] = True
        t["bonus"] = t.get("bonus", 0) + 1
        log(st, ev, msg("{p} spends a wear token: +1 MP.", p=car_name(st, seat)))
        DRIVE.plan(st)

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
        DRIVE.plan(st)
        st["rng"] = rng.state

    @move("use", phases=("race",))
    def _use(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """4.1: the roll to use, among the rolls made."""
        action = self._take(st, seat, action)
        t = st["turn"]
        t["use"] = action["i"]
        t["picks"] = t.get("picks", 0) + 1
        DRIVE.plan(st)

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
        DRIVE.plan(st)

    @move("off", phases=("race",))
    @move("stay", phases=("race",))
    def _no_move(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """The car goes off the track (4.6.1), or stays where it is when no move is possible."""
        action = self._take(st, seat, action)
        rng = Rng(st["rng"])
        if action["type"] == "off":
            DRIVE.go_off(st, ev, seat)
        DRIVE.after_move(st, rng, ev, seat, None)
        RACE.end_turn(st, rng, ev)
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
            DRIVE.charge(st, o["ms"])
            DRIVE.set_pos(st, seat, o["ms"])
            t["fight"] = {"opt": o, "i": 0, "rolls": None, "answer": None, "fights": False}
            RACE.after_fight(st, rng, ev, FIGHTS.fight(st, rng, ev))
        else:
            RACE.finish_move(st, rng, ev, o["ms"], o["kind"])
        st["rng"] = rng.state

    # ------------------------------------------------------------ output

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


ENGINE = PoleEngine()
