"""Rallyman: DIRT engine: a rally time trial, 1-6 players, one stage or a whole rally.

Flow per round: entrants join one per round (round k adds the k-th car of the random start order);
turn order by distance > gear > inside lane; each player in turn plans dice (a whole plan from the
select, or step by step), then rolls die by die (stopping, or securing a die with seconds chips) or
goes flat out; the turn ends with a time card. The state's "stage" is the special stage being
driven (not a phase: "phase" is plan, roll, rearrange, spare or over).

The parts: turns.py (a turn's dice, moves and losses of control), rounds.py (rounds, stages, the
result), texts.py (the words), rules.py (placement and odds), driver.py (the automatic player).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import orjson

from bot.games.base import Engine, Event, GameError, OptionSpec, chosen, move, seat_ref
import bot.games.rallyman.board as B
import bot.games.rallyman.generator as G
import bot.games.rallyman.rounds as rounds
import bot.games.rallyman.rules as R
import bot.games.rallyman.turns as T
from bot.games.rallyman.driver import good_action
from bot.games.rallyman.texts import crash_msg, die_msg, pct, plan_msg, pref_label, where
from bot.games.rallyman.turns import DEFAULT_PREFS, PREF_VALUES
from bot.games.rng import Rng
from bot.i18n import Msg, from_wire, msg, to_wire

__all__ = ["DEFAULT_PREFS", "DEFAULT_STAGE", "ENGINE", "PREF_VALUES", "SCHEMA", "RallymanEngine", "rallies"]

SCHEMA = 2  # 2: the number of seats kept as "seats" (1: only len(state["cars"]))
RANDOM = re.compile(r"^random(?: (\d{1,2}))?$", re.I)
LOG_KEEP = 30
DEFAULT_STAGE = "Rally1 SS1"
PLANNING = ("plan",)
ROLLING = ("roll",)


def rallies() -> dict[str, list[str]]:
    """Rally name -> its special stages in order ("Rally1" -> Rally1 SS1, SS2, SS3). (A new dict
    each time, from the stage names read once: every game started asks.)"""
    return {rally: list(legs) for rally, legs in _rallies().items()}


@lru_cache(maxsize=1)
def _rallies() -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for name in B.stage_names():
        head, _, ss = name.rpartition(" SS")
        if head and ss.isdigit():
            out.setdefault(head, []).append(name)
    return {k: tuple(sorted(v, key=lambda n: int(n.rpartition(" SS")[2]))) for k, v in out.items() if len(v) > 1}


def _copy_car(car: dict) -> dict:
    """A car for copy_state: its damage, cards, tokens and preferences in lists and dicts of their
    own (the cards themselves shared); anything else it may hold, copied by a JSON round trip."""
    if car.keys() == _CAR_KEYS:  # a car as the engine writes it: its other values numbers, words and flags
        out = car.copy()
        out["dmg"], out["prefs"] = car["dmg"].copy(), car["prefs"].copy()
        out["cards"], out["tokens"] = car["cards"].copy(), car["tokens"].copy()
        return out
    out = {}
    for key, value in car.items():
        if value is None or type(value) in _SCALARS:
            out[key] = value
        elif key in ("cards", "tokens"):
            out[key] = list(value)
        elif key in ("dmg", "prefs"):
            out[key] = dict(value)
        else:
            out[key] = orjson.loads(orjson.dumps(value))
    return out


def _copy_roll(roll: dict | None) -> dict | None:
    """The dice rolled this turn, for copy_state: a new list of faces (each shared)."""
    return None if roll is None else {**roll, "faces": list(roll["faces"])}


def _copy_steps(steps: list) -> list:
    """A plan or draft for copy_state: each step a list of its own."""
    return [list(step) for step in steps]


_SCALARS = (int, str, bool, float)
_CAR_KEYS = {
    "sp",
    "gear",
    "track",
    "side",
    "fin",
    "entered",
    "dmg",
    "cards",
    "chips",
    "spare",
    "tokens",
    "past",
    "prefs",
}
_COPY: dict[str, Any] = {  # copy_state's copy of a key's value, by its shape
    "cars": lambda cars: [_copy_car(car) for car in cars],
    "log": list,
    "roll": _copy_roll,
    "draft": _copy_steps,
    "plan": _copy_steps,
    "mud": dict,
    "bag": dict,
    "piles": lambda piles: {gear: dict(pile) for gear, pile in piles.items()},
    "entry": list,
    "order": list,
    "legs": list,
    "marked": list,
}


def _wire(text: Msg) -> Any:
    """to_wire(text) for a log line: a number or a word among its parameters is written as it is
    without a call (to_wire leaves them so); the rest goes through to_wire."""
    if type(text) is not Msg:
        return to_wire(text)
    return {
        "msg": text.key,
        "params": {k: v if v is None or type(v) in _SCALARS else to_wire(v) for k, v in text.params.items()},
    }


def _one_value(action: dict) -> Any:
    """The single value a select sent (None unless exactly one)."""
    values = chosen(action)
    return values[0] if len(values) == 1 else None


class RallymanEngine(Engine):
    kind = "rallyman"
    title = "Rallyman: DIRT"
    rules_version = (
        3  # raise it when a change makes old logs replay differently (bot/games/base.py); 3: sliders abreast
    )
    min_seats = 1
    max_seats = 6
    # a stage's name, a whole rally's ("Rally1") or "random N": check_options knows them all
    options = [OptionSpec("stage", "Special stage", [], "str", DEFAULT_STAGE)]

    def describe_options(self, options: dict[str, Any]) -> list[Msg | str]:
        """The table's options as the lobby shows them. Stage and rally names are proper names, as
        printed in the game (Rally1 SS1), in every language."""
        stage = options.get("stage") or DEFAULT_STAGE
        rnd = RANDOM.match(stage)
        if rnd:
            return [msg("a random stage of {n} tiles", n=int(rnd.group(1) or 10))]
        if stage in rallies():
            return [msg("the whole rally {rally} ({n} stages)", rally=stage, n=len(rallies()[stage]))]
        return [msg("stage {stage}", stage=stage)]

    def check_options(self, options: dict[str, Any], seats: int) -> dict[str, Any]:
        """The stage as the game keeps it: a stage's name, a whole rally's (its special stages one
        after another, times added up) or "random N" (a stage of N road tiles built at the start;
        "random" alone: 10)."""
        stage = options["stage"] or DEFAULT_STAGE
        rnd = RANDOM.match(stage)
        if rnd:
            n = int(rnd[1] or 10)
            if not G.MIN_LEN <= n <= G.MAX_LEN:
                raise GameError(msg("A random stage has {lo} to {hi} tiles.", lo=G.MIN_LEN, hi=G.MAX_LEN))
            stage = f"random {n}"
        elif stage not in rallies() and not B.is_stage(stage):
            raise GameError(msg("Unknown stage: {stage}.", stage=str(stage)[:40]))
        return {"stage": stage}

    # ---- setup -------------------------------------------------------------------------------

    def new_game(self, options: dict[str, Any], seats: int, seed: int) -> dict:
        opts = self.validate_options(options, seats)
        rng = Rng(seed)
        rnd = RANDOM.match(opts["stage"])
        legs = rallies().get(opts["stage"], [opts["stage"]])
        if rnd:
            legs = [G.name_for(int(rnd[1]), rng.below(10**9))]
        entry = list(range(seats))
        rng.shuffle(entry)  # the start order is random
        ru = R.rules()
        st: dict[str, Any] = {
            "schema": SCHEMA,
            "seats": seats,
            "rng": 0,
            "stage": legs[0],
            "legs": legs,
            "leg": 0,
            "entry": entry,
            "round": 0,
            "order": [],
            "turn": 0,
            "phase": "plan",
            "draft": [],
            "plan": [],
            "roll": None,
            "mud": {},
            "bag": dict(ru.tokens),
            "piles": {str(g): dict(v) for g, v in ru.backs.items()},
            "cars": [
                {
                    "sp": None,
                    "gear": 0,
                    "track": False,
                    "side": False,
                    "fin": False,
                    "entered": False,
                    "dmg": {"gear": 0, "brake": 0, "coast": 0},
                    "cards": [],
                    "chips": 0,
                    "spare": True,
                    "tokens": [],
                    "past": 0,
                    "prefs": {},
                }
                for _ in range(seats)
            ],
            "log": [],
            "turn_no": 0,
            "result": None,
        }
        st["rng"] = rng.state
        rounds.new_round(st)
        rounds.begin_turn(st)
        st["rules_version"] = self.rules_version
        return st

    def copy_state(self, state: dict) -> dict:
        """A deep copy but for what is never changed once written: the log's lines (after_move
        only adds and drops whole lines), the cars' time cards and the roll's faces (only ever
        added, or their list replaced): their lists are new, the lines, cards and faces shared.
        Known keys are copied by their shape (_COPY), any other by a JSON round trip."""
        out = {}
        for key, value in state.items():
            if value is None or type(value) in _SCALARS:
                out[key] = value
            else:
                copy = _COPY.get(key)
                out[key] = copy(value) if copy is not None else orjson.loads(orjson.dumps(value))
        return out

    def upgrade(self, state: dict) -> dict:
        """Schema 1 (before issue #29) counted the seats by the cars only: "seats" is added."""
        if state.get("schema", 1) < 2:
            state = {**state, "schema": SCHEMA, "seats": len(state["cars"])}
        return state

    # ---- queries -----------------------------------------------------------------------------

    def to_act(self, state: dict) -> list[int]:
        if state["phase"] == "over":
            return []
        return [state["order"][state["turn"]]]

    def prefs(self, state: dict, seat: int) -> dict[str, Any]:
        """The seat's standing preferences, defaults filled in."""
        return T.prefs(state, seat)

    def _pref_actions(self, state: dict, seat: int) -> list[dict]:
        if state["phase"] == "over" or not 0 <= seat < state["seats"]:
            return []
        mine = T.prefs(state, seat)
        return [{"type": "prefs", k: v} for k, vals in PREF_VALUES.items() for v in vals if v != mine[k]]

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        if not isinstance(seat, int) or not 0 <= seat < state["seats"]:
            return []
        if seat not in self.to_act(state):
            return self._pref_actions(state, seat)
        return T.decisions(state, seat) + self._pref_actions(state, seat)

    def describe_action(self, state: dict, seat: int, action: dict) -> Msg:
        t = action.get("type")
        st = B.stage(state["stage"])
        value = (chosen(action) or [""])[0]
        if t in ("plan", "flat") and value:
            m = R.match_steps(state, st, seat, value)
            if m:
                text = plan_msg(state, st, seat, m[0], R.loc_chance(m[0], T.orange(state, seat)))
                return text if t == "plan" else msg("Flat out: {plan}", plan=text)
        if t == "prefs":
            return msg(
                "Preference — {prefs}",
                prefs=[pref_label(k, v) for k, v in action.items() if k in PREF_VALUES and v in PREF_VALUES[k]],
            )
        if t == "add":
            dec = R.decode(value)
            if dec:
                d, sid, j = dec[0]
                prev = state["draft"][-1][1] if state["draft"] else state["cars"][seat]["sp"]
                return msg("{die}: {where}", die=die_msg([d]), where=where(st, prev, [d, sid, 0, j]))
        if t == "crash":
            for c, dmg in T.rearrangements(state, st, seat):
                if c == value:
                    return crash_msg(state, st, seat, value, dmg)
        if t == "spare":
            return msg("Spare tyre — recover a {kind} die", kind=msg(action.get("k", "")))
        labels = {
            "go": msg("Confirm the plan"),
            "undo": msg("Undo the last die"),
            "clear": msg("Clear the plan"),
            "pass": msg("Stay put (no legal move)"),
            "roll": msg("Roll the next die"),
            "secure": msg("Secure the next die with seconds"),
            "flat": msg("Flat out!"),
            "stop": msg("Stop here"),
            "nospare": msg("Keep the spare tyre"),
        }
        return labels.get(str(t), msg("Unknown action."))

    # ---- moves -------------------------------------------------------------------------------

    def after_move(self, st: dict, seat: int, events: list[Event]) -> None:
        """The move's public lines go to the game's log, which keeps the last LOG_KEEP."""
        for event in events:
            if event.to is None:
                st["log"].append(_wire(event.text))
        del st["log"][:-LOG_KEEP]

    @move("prefs", anytime=True)
    def _move_prefs(self, st: dict, seat: int, action: dict, events: list[Event]) -> None:
        changes = {}
        for key, value in action.items():
            if key == "type":
                continue
            if key not in PREF_VALUES:
                raise GameError(msg("Unknown preference {name}.", name=str(key)[:30]))
            if value not in PREF_VALUES[key] or isinstance(value, bool):
                raise GameError(
                    msg("{name} can be: {values}.", name=key, values=[pref_label(key, v) for v in PREF_VALUES[key]])
                )
            changes[key] = value
        if not changes:
            raise GameError(msg("No preference given."))
        if all(T.prefs(st, seat)[k] == v for k, v in changes.items()):
            raise GameError(msg("That is your preference already."))
        st["cars"][seat]["prefs"] = {**st["cars"][seat].get("prefs", {}), **changes}
        events.append(Event(msg("Preferences set: {text}.", text=[pref_label(k, v) for k, v in changes.items()]), seat))
        if st["phase"] == "roll" and self.to_act(st) == [seat]:
            T.auto_roll(st, seat, events)  # the die waiting for an answer may now roll by itself

    @move("plan", phases=PLANNING)
    def _move_plan(self, st: dict, seat: int, action: dict, events: list[Event]) -> None:
        steps = T.plan_steps(st, B.stage(st["stage"]), seat, _one_value(action))
        if not steps:
            raise GameError(msg("That plan is not legal."))
        T.start_roll(st, seat, steps, events)
        T.auto_roll(st, seat, events)

    @move("add", phases=PLANNING)
    def _move_add(self, st: dict, seat: int, action: dict, events: list[Event]) -> None:
        stage = B.stage(st["stage"])
        ctx = T.draft_ctx(st, stage, seat)
        m = R.match_steps(st, stage, seat, _one_value(action), ctx=ctx) if ctx else None
        if m is None or len(m[0]) != 1:
            raise GameError(msg("That die cannot go there."))
        st["draft"].append(m[0][0])

    @move("undo", phases=PLANNING)
    def _move_undo(self, st: dict, seat: int, action: dict, events: list[Event]) -> None:
        if not st["draft"]:
            raise GameError(msg("No dice are planned yet."))
        st["draft"].pop()

    @move("clear", phases=PLANNING)
    def _move_clear(self, st: dict, seat: int, action: dict, events: list[Event]) -> None:
        st["draft"] = []

    @move("go", phases=PLANNING)
    def _move_go(self, st: dict, seat: int, action: dict, events: list[Event]) -> None:
        if not st["draft"]:
            raise GameError(msg("No dice are planned yet."))
        steps, st["draft"] = st["draft"], []
        T.start_roll(st, seat, steps, events)
        T.auto_roll(st, seat, events)

    @move("pass", phases=PLANNING)
    def _move_pass(self, st: dict, seat: int, action: dict, events: list[Event]) -> None:
        if R.all_plans(st, B.stage(st["stage"]), seat, T.orange(st, seat)):
            raise GameError(msg("You can move: place at least one die."))
        T.pass_turn(st, seat, events)

    @move("roll", phases=ROLLING)
    def _move_roll(self, st: dict, seat: int, action: dict, events: list[Event]) -> None:
        T.roll_one(st, seat, events)
        T.auto_roll(st, seat, events)

    @move("secure", phases=ROLLING)
    def _move_secure(self, st: dict, seat: int, action: dict, events: list[Event]) -> None:
        cost = T.secure_cost(st)
        if cost is None:
            raise GameError(msg("You cannot secure this die."))
        T.secure(st, seat, cost, events)

    @move("stop", phases=ROLLING)
    def _move_stop(self, st: dict, seat: int, action: dict, events: list[Event]) -> None:
        r = st["roll"]
        if r["i"] == 0:
            raise GameError(msg("Roll at least one die first."))
        events.append(Event(msg("{p} stops.", p=seat_ref(seat))))
        T.end_normal(st, seat, st["plan"][r["i"] - 1], events)

    @move("flat", phases=PLANNING + ROLLING)
    def _move_flat(self, st: dict, seat: int, action: dict, events: list[Event]) -> None:
        if st["phase"] == "plan":  # a whole plan from the list, flat out at once
            steps = T.plan_steps(st, B.stage(st["stage"]), seat, _one_value(action))
            if not steps:
                raise GameError(msg("That plan is not legal."))
            T.start_roll(st, seat, steps, events)
        elif action.get("values") is not None:
            raise GameError(msg("That is not possible now."))
        elif st["roll"]["i"] != 0:
            raise GameError(msg("Flat out only before the first roll."))
        T.flat_out(st, seat, events)

    @move("crash", phases=("rearrange",))
    def _move_crash(self, st: dict, seat: int, action: dict, events: list[Event]) -> None:
        stage = B.stage(st["stage"])
        code = _one_value(action)
        if code not in dict(T.rearrangements(st, stage, seat)):
            raise GameError(msg("That is not a legal re-placing."))
        pool = T.pool(st, seat)
        m = R.match_steps(
            st,
            stage,
            seat,
            code.replace("c!", "c"),
            pool={"g": set(pool["g"]), "brake": pool["brake"] is not None, "coast": len(pool["coast"])},
        )
        assert m is not None
        T.crash_at(st, seat, m[0], events)

    @move("spare", phases=("spare",))
    def _move_spare(self, st: dict, seat: int, action: dict, events: list[Event]) -> None:
        k = action.get("k")
        if k not in ("gear", "brake", "coast") or st["cars"][seat]["dmg"][k] <= 0:
            raise GameError(msg("You have no such damage."))
        T.fit_spare(st, seat, k, events)

    @move("nospare", phases=("spare",))
    def _move_nospare(self, st: dict, seat: int, action: dict, events: list[Event]) -> None:
        rounds.next_turn(st, events)

    # ---- views -------------------------------------------------------------------------------

    def view(self, state: dict, viewer: int | None) -> dict:
        cars = []
        for seat, car in enumerate(state["cars"]):
            cars.append(
                {
                    "seat": seat,
                    "space": car["sp"],
                    "gear": car["gear"],
                    "on_track": car["track"],
                    "sideways": bool(car["side"]),
                    "finished": car["fin"],
                    "entered": car["entered"],
                    "damage": dict(car["dmg"]),
                    "tokens": list(car["tokens"]),
                    "cards": [list(c) for c in car["cards"]],
                    "chips": car["chips"],
                    "spare": car["spare"],
                    "time": car["past"] + sum(c[1] for c in car["cards"]),
                }
            )
        v: dict[str, Any] = {
            "kind": self.kind,
            "stage": state["stage"],
            "leg": state["leg"],
            "legs": list(state["legs"]),
            "round": state["round"],
            "turn": state["turn_no"],
            # a round's drivers share one thread post, from its first move (the round's mark) on
            "post": [
                state["leg"],
                state["round"] if state.get("marked") == [state["leg"], state["round"]] else state["round"] - 1,
            ],
            "phase": state["phase"],
            "order": list(state["order"]),
            "to_act": self.to_act(state),
            "entry": list(state["entry"]),
            "cars": cars,
            "mud": dict(state["mud"]),
            "plan": [list(s) for s in state["plan"]],
            "log": from_wire(state["log"][-12:]),
            "result": state["result"],
        }
        r = state["roll"]
        if r is not None:
            v["roll"] = {
                "next": r["i"],
                "bangs": r["bangs"],
                "secured": r["secured"],
                "flat": r["flat"],
                "faces": [list(f) for f in r["faces"]],
            }
        if state["phase"] == "roll" and r is not None:
            orange = T.orange(state, state["order"][state["turn"]])
            rest = state["plan"][r["i"] :]
            v["chance_next"] = R.loc_chance(rest[:1], orange, r["bangs"])
            v["chance_flat"] = R.loc_chance(state["plan"], orange) if r["i"] == 0 else None
        if viewer is not None and self.to_act(state) == [viewer]:
            v["draft"] = [list(s) for s in state["draft"]]
            if state["phase"] == "plan" and not state["draft"]:
                plans = T.plans(state, B.stage(state["stage"]), viewer)
                if plans:  # the plan list's first entry, drawn on the seat's map before it chooses
                    v["preview"] = [list(s) for s in plans[0][0]]
        return v

    def placings(self, state: dict) -> list[int]:
        """Each seat's place at the end (1 = the fastest; equal times share a place)."""
        return list(state["result"]["places"])

    def auto_action(self, state: dict, seat: int) -> dict:
        """The automatic player of an absent seat: the par driver (fast, few risks)."""
        return good_action(state, seat)

    # ---- menus -------------------------------------------------------------------------------

    def menu(self, state: dict, seat: int) -> list[dict]:
        if seat not in self.to_act(state):
            return []
        ph = state["phase"]
        if ph == "plan":
            return self._plan_menu(state, seat) + [self._pref_buttons(state, seat)]
        if ph == "roll":
            return [self._roll_buttons(state, seat), self._pref_buttons(state, seat)]
        if ph == "rearrange":
            st = B.stage(state["stage"])
            return [
                {
                    "kind": "select",
                    "placeholder": msg("Where do you lose control?"),
                    "min": 1,
                    "max": 1,
                    "action": {"type": "crash"},
                    "options": [
                        {"label": crash_msg(state, st, seat, code, dmg), "value": code}
                        for code, dmg in T.rearrangements(state, st, seat)
                    ],
                }
            ]
        if ph == "spare":
            car = state["cars"][seat]
            return [
                {
                    "kind": "buttons",
                    "options": [
                        {
                            "label": msg("Spare tyre — recover a {kind} die", kind=msg(k)),
                            "action": {"type": "spare", "k": k},
                        }
                        for k in ("gear", "brake", "coast")
                        if car["dmg"][k] > 0
                    ]
                    + [{"label": msg("Keep the spare tyre"), "action": {"type": "nospare"}}],
                }
            ]
        return []

    def _pref_buttons(self, state: dict, seat: int) -> dict:
        """The standing preferences, one button each: it shows the value now and moves to the next."""
        mine = T.prefs(state, seat)
        return {
            "kind": "buttons",
            "options": [
                {
                    "label": pref_label(k, mine[k]),
                    "style": "secondary",
                    "action": {"type": "prefs", k: vals[(vals.index(mine[k]) + 1) % len(vals)]},
                }
                for k, vals in PREF_VALUES.items()
            ],
        }

    def _plan_menu(self, state: dict, seat: int) -> list[dict]:
        """Whole plans (rolled, or flat out), the die-by-die builder and its buttons."""
        st = B.stage(state["stage"])
        groups: list[dict] = []
        plans = T.plans(state, st, seat)
        line = T.prefs(state, seat)["line"]
        if plans:
            first = plans[0][1] <= line / 100 + 1e-9
            why = (
                msg("Farthest plan within your {n}% risk line", n=line)
                if first
                else msg("The safest plan: none is within your {n}% risk line", n=line)
            )
            for kind, placeholder in (
                ("plan", msg("Choose a whole plan (dice rolled as your preference says)")),
                ("flat", msg("Or go flat out with a whole plan (all dice at once, chips)")),
            ):
                groups.append(
                    {
                        "kind": "select",
                        "placeholder": placeholder,
                        "min": 1,
                        "max": 1,
                        "action": {"type": kind},
                        "options": [
                            {
                                "label": plan_msg(state, st, seat, p, r),
                                "value": R.encode(p),
                                **({"description": why} if i == 0 else {}),
                            }
                            for i, (p, r) in enumerate(plans[:25])
                        ],
                    }
                )
        ctx = T.draft_ctx(state, st, seat)
        if ctx is not None:
            nxt = R.steps_for(state, st, seat).after(ctx)
            if nxt:
                groups.append(
                    {
                        "kind": "select",
                        "placeholder": msg("Or build it die by die"),
                        "min": 1,
                        "max": 1,
                        "action": {"type": "add"},
                        "options": [
                            {
                                "label": msg("{die}: {where}", die=die_msg(s), where=where(st, ctx.pos, s)),
                                "value": R.encode([s]),
                            }
                            for s, _ in nxt[:25]
                        ],
                    }
                )
        buttons: list[dict] = []
        if state["draft"]:
            buttons += [
                {"label": msg("Confirm the plan"), "action": {"type": "go"}, "style": "success"},
                {"label": msg("Undo the last die"), "action": {"type": "undo"}},
                {"label": msg("Clear the plan"), "action": {"type": "clear"}, "style": "danger"},
            ]
        if not plans:
            buttons.append({"label": msg("Stay put (no legal move)"), "action": {"type": "pass"}})
        if buttons:
            groups.append({"kind": "buttons", "options": buttons})
        return groups

    def _roll_buttons(self, state: dict, seat: int) -> dict:
        """Roll the next die, secure it, go flat out (before the first die) or stop."""
        orange = T.orange(state, seat)
        r = state["roll"]
        rest = state["plan"][r["i"] :]
        buttons = [
            {
                "label": msg(
                    'Roll {die} (three "!" {chance})',
                    die=die_msg(rest[0]),
                    chance=pct(R.loc_chance(rest[:1], orange, r["bangs"])),
                ),
                "action": {"type": "roll"},
                "style": "primary",
            }
        ]
        cost = T.secure_cost(state)
        if cost is not None:
            buttons.append({"label": msg("Secure it ({secs} s)", secs=cost), "action": {"type": "secure"}})
        if r["i"] == 0:
            buttons.append(
                {
                    "label": msg('Flat out! (three "!" {chance})', chance=pct(R.loc_chance(state["plan"], orange))),
                    "action": {"type": "flat"},
                    "style": "danger",
                }
            )
        else:
            buttons.append({"label": msg("Stop here"), "action": {"type": "stop"}, "style": "success"})
        return {"kind": "buttons", "options": buttons}


ENGINE = RallymanEngine()
