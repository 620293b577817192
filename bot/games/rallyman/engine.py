"""Rallyman: DIRT engine: a rally time trial, 1-6 players, one stage.

Flow per round: entrants join one per round (round k adds the k-th car of the random start order);
turn order by distance > gear > inside lane; each player in turn plans dice (a whole plan from the
select, or step by step), then rolls die by die (stopping, or securing a die with seconds chips) or
goes flat out; the turn ends with a time card. See rules.py for placement and odds.
"""
from __future__ import annotations

import re
from typing import Any

from bot.games.base import Engine, Event, GameError, OptionSpec, clone, seat_ref
from bot.games.rallyman import board as B
from bot.games.rallyman import generator as G
from bot.games.rallyman import par as P
from bot.games.rallyman import rules as R
from bot.games.rng import Rng
from bot.i18n import Msg, from_wire, msg, to_wire

SCHEMA = 1
RANDOM = re.compile(r"^random(?: (\d{1,2}))?$", re.I)
LOG_KEEP = 30
DEFAULT_STAGE = "Rally1 SS1"
# Standing preferences (bot/games/base.py `is_preference`): how far to push without being asked.
# "line": the risk line in % (the plan list's first entry is the farthest plan under it; with
# dice "line", a die is rolled without asking while its own chance of the third "!" is under it);
# "dice": "line" (ask only when the next die's risk is above the line), "all" (roll the whole
# plan, never ask), "ask" (ask before every die).
PREF_VALUES: dict[str, tuple] = {"line": (10, 20, 35, 50), "dice": ("line", "all", "ask")}
DEFAULT_PREFS: dict[str, Any] = {"line": 20, "dice": "line"}


def _err(text: Msg) -> GameError:
    return GameError(text)


def _pct(p: float) -> str:
    return f"{p * 100:.0f}%" if p >= 0.01 or p == 0 else "<1%"


def rallies() -> dict[str, list[str]]:
    """Rally name -> its special stages in order ("Rally1" -> Rally1 SS1, SS2, SS3)."""
    out: dict[str, list[str]] = {}
    for name in B.stage_names():
        head, _, ss = name.rpartition(" SS")
        if head and ss.isdigit():
            out.setdefault(head, []).append(name)
    return {k: sorted(v, key=lambda n: int(n.rpartition(" SS")[2])) for k, v in out.items() if len(v) > 1}


class RallymanEngine(Engine):
    kind = "rallyman"
    title = "Rallyman: DIRT"
    rules_version = 2  # raise it when a change makes old logs replay differently (bot/games/base.py)
    min_seats = 1
    max_seats = 6

    @property
    def options(self) -> list[OptionSpec]:
        return [OptionSpec("stage", "Special stage", list(B.stage_names()), "str", DEFAULT_STAGE)]

    def describe_options(self, options: dict[str, Any]) -> list[Msg]:
        """The table's options as the lobby shows them. Stage and rally names are proper names, as
        printed in the game (Rally1 SS1), in every language."""
        stage = options.get("stage") or DEFAULT_STAGE
        rnd = RANDOM.match(stage)
        if rnd:
            return [msg("a random stage of {n} tiles", n=int(rnd.group(1) or 10))]
        if stage in rallies():
            return [msg("the whole rally {rally} ({n} stages)", rally=stage, n=len(rallies()[stage]))]
        return [msg("stage {stage}", stage=stage)]

    def validate_options(self, options: dict[str, Any], seats: int) -> dict[str, Any]:
        stage = options.get("stage") or DEFAULT_STAGE
        rnd = RANDOM.match(stage) if isinstance(stage, str) else None
        if rnd:  # "random" or "random N": a stage built at the start (N road tiles, default 10)
            n = int(rnd[1] or 10)
            if not G.MIN_LEN <= n <= G.MAX_LEN:
                raise _err(msg("A random stage has {lo} to {hi} tiles.", lo=G.MIN_LEN, hi=G.MAX_LEN))
            stage = f"random {n}"
        elif isinstance(stage, str) and stage in rallies():
            pass  # a whole rally: its special stages one after another, times added up
        elif not isinstance(stage, str) or not B.is_stage(stage):
            raise _err(msg("Unknown stage: {stage}.", stage=str(stage)[:40]))
        if not self.min_seats <= seats <= self.max_seats:
            raise _err(msg("Rallyman: DIRT is for 1 to 6 players."))
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
            "schema": SCHEMA, "rng": 0, "stage": legs[0], "legs": legs, "leg": 0, "entry": entry, "round": 0,
            "order": [],
            "turn": 0, "phase": "plan", "draft": [], "plan": [], "roll": None,
            "mud": {}, "bag": dict(ru.tokens), "piles": {str(g): dict(v) for g, v in ru.backs.items()},
            "cars": [{"sp": None, "gear": 0, "track": False, "side": False, "fin": False, "entered": False,
                      "dmg": {"gear": 0, "brake": 0, "coast": 0}, "cards": [], "chips": 0, "spare": True,
                      "tokens": [], "past": 0, "prefs": {}} for _ in range(seats)],
            "log": [], "turn_no": 0, "result": None,
        }
        st["rng"] = rng.state
        self._new_round(st)
        self._begin_turn(st)
        st["rules_version"] = self.rules_version
        return st

    # ---- queries -----------------------------------------------------------------------------

    def to_act(self, state: dict) -> list[int]:
        if state["phase"] == "over":
            return []
        return [state["order"][state["turn"]]]

    def is_over(self, state: dict) -> bool:
        return state["phase"] == "over"

    def _stage(self, state: dict) -> B.Stage:
        return B.stage(state["stage"])

    def _orange(self, state: dict, seat: int) -> bool:
        return bool(state["order"]) and state["order"][0] == seat

    def prefs(self, state: dict, seat: int) -> dict[str, Any]:
        """The seat's standing preferences, defaults filled in."""
        return {**DEFAULT_PREFS, **state["cars"][seat].get("prefs", {})}

    def _pref_actions(self, state: dict, seat: int) -> list[dict]:
        if state["phase"] == "over" or not 0 <= seat < len(state["cars"]):
            return []
        mine = self.prefs(state, seat)
        return [{"type": "prefs", k: v} for k, vals in PREF_VALUES.items() for v in vals if v != mine[k]]

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        if not isinstance(seat, int) or not 0 <= seat < len(state["cars"]):
            return []
        if seat not in self.to_act(state):
            return self._pref_actions(state, seat)
        return self._decisions(state, seat) + self._pref_actions(state, seat)

    def _decisions(self, state: dict, seat: int) -> list[dict]:
        ph = state["phase"]
        st = self._stage(state)
        if ph == "plan":
            plans = self._plans(state, st, seat)
            acts: list[dict] = [{"type": "plan", "values": [R.encode(p)]} for p, _ in plans]
            acts += [{"type": "flat", "values": [R.encode(p)]} for p, _ in plans]
            ctx = self._draft_ctx(state, st, seat)
            if ctx is not None:
                occ = R.occupied(state, seat)
                acts += [{"type": "add", "values": [R.encode([s])]}
                         for s, _ in R.next_steps(state, st, seat, ctx, occ)]
            if state["draft"]:
                acts += [{"type": "go"}, {"type": "undo"}, {"type": "clear"}]
            if not plans:
                acts.append({"type": "pass"})
            return acts
        if ph == "roll":
            r = state["roll"]
            acts = [{"type": "roll"}]
            if self._secure_cost(state) is not None:
                acts.append({"type": "secure"})
            if r["i"] == 0:
                acts.append({"type": "flat"})
            else:
                acts.append({"type": "stop"})
            return acts
        if ph == "rearrange":
            return [{"type": "crash", "values": [c]} for c, _ in self._rearrangements(state, st, seat)]
        if ph == "spare":
            car = state["cars"][seat]
            return [{"type": "spare", "k": k} for k in ("gear", "brake", "coast") if car["dmg"][k] > 0] + \
                [{"type": "nospare"}]
        return []

    def _plans(self, state: dict, st: B.Stage, seat: int) -> list[tuple[list, float]]:
        """The plan list: first the plan a sensible driver takes under the seat's risk line."""
        return R.good_plans(state, st, seat, self._orange(state, seat), self.prefs(state, seat)["line"] / 100)

    def _draft_ctx(self, state: dict, st: B.Stage, seat: int) -> R.Ctx | None:
        m = R.match_steps(state, st, seat, R.encode(state["draft"]))
        return None if m is None else m[1]

    def _secure_cost(self, state: dict) -> int | None:
        r = state["roll"]
        if r is None or r["flat"] or r["i"] >= len(state["plan"]):
            return None
        seat = state["order"][state["turn"]]
        n = len(R.step_dice(state["plan"][r["i"]], self._orange(state, seat)))
        cost = R.secure_cost(r["secured"], n)
        if cost is None or cost > state["cars"][seat]["chips"]:
            return None
        return cost

    # ---- texts -------------------------------------------------------------------------------

    def _die_msg(self, step: list) -> Msg:
        die = step[0]
        if die == "c":
            return msg("coast")
        if die.endswith("b"):
            return msg("gear {g} + brake", g=int(die[1:-1]))
        return msg("gear {g}", g=int(die[1:]))

    @staticmethod
    def _where(st: B.Stage, frm: int | None, step: list) -> Msg:
        """Where a die goes, in words a player can match with the image."""
        to = st.spaces[step[1]]
        if step[3] in ("eq", "p1", "p2"):
            return msg("jump, landing {lane}", lane=RallymanEngine._end_where(st, step[1]))
        if to.kind == "shortcut":
            return msg("shortcut")
        if to.kind == "inner":
            return msg("inside lane of the corner")
        if to.kind == "outer":
            return msg("outside lane of the corner")
        if to.kind == "single":
            return msg("ahead")
        f = st.spaces[frm] if frm is not None else None
        if f is not None and step[1] in f.side:
            return msg("slide sideways")
        side = msg("left") if to.lane == 0 else msg("right")
        if f is None or f.lane < 0 or f.lane == to.lane:
            return msg("ahead, {side} lane", side=side)
        return msg("diagonally, {side} lane", side=side)

    @staticmethod
    def _end_where(st: B.Stage, sid: int) -> Msg:
        sp = st.spaces[sid]
        if sp.kind == "inner":
            return msg("inside")
        if sp.kind == "outer":
            return msg("outside")
        if sp.kind == "shortcut":
            return msg("shortcut")
        if sp.lane == 0:
            return msg("left")
        if sp.lane == 1:
            return msg("right")
        return msg("ahead")

    def _crash_msg(self, state: dict, st: B.Stage, seat: int, code: str, dmg: tuple) -> Msg:
        sid = int(code.split(":")[-2])
        gain = st.spaces[sid].front - st.spaces[state["cars"][seat]["sp"]].front
        return msg("+{spaces} ({where}) in gear {gear}: {n} damage tokens", spaces=f"{gain:g}",
                   where=self._end_where(st, sid), gear=dmg[2], n=dmg[0])

    def _plan_msg(self, state: dict, st: B.Stage, seat: int, steps: list[list], risk: float) -> Msg:
        start = st.spaces[state["cars"][seat]["sp"]].front
        last = steps[-1]
        gain = st.spaces[last[1]].front - start
        dice = " ".join("C" if s[0] == "c" else s[0][1:-1] + "B" if s[0].endswith("b") else s[0][1:] for s in steps)
        return msg("{dice} → +{spaces} ({where}), gear {gear}, risk {risk}", dice=dice,
                   spaces=f"{gain:g}", where=self._end_where(st, last[1]), gear=last[2], risk=_pct(risk))

    def describe_action(self, state: dict, seat: int, action: dict) -> Msg:
        t = action.get("type")
        st = self._stage(state)
        if t in ("plan", "flat") and action.get("values"):
            m = R.match_steps(state, st, seat, (action.get("values") or [""])[0])
            if m:
                text = self._plan_msg(state, st, seat, m[0], R.loc_chance(m[0], self._orange(state, seat)))
                return text if t == "plan" else msg("Flat out: {plan}", plan=text)
        if t == "prefs":
            return msg("Preference — {prefs}", prefs=[self._pref_label(k, v) for k, v in action.items()
                                                      if k in PREF_VALUES and v in PREF_VALUES[k]])
        if t == "add":
            dec = R.decode((action.get("values") or [""])[0])
            if dec:
                d, sid, j = dec[0]
                prev = state["draft"][-1][1] if state["draft"] else state["cars"][seat]["sp"]
                return msg("{die}: {where}", die=self._die_msg([d]), where=self._where(st, prev, [d, sid, 0, j]))
        if t == "crash":
            code = (action.get("values") or [""])[0]
            for c, dmg in self._rearrangements(state, st, seat):
                if c == code:
                    return self._crash_msg(state, st, seat, code, dmg)
        if t == "spare":
            return msg("Spare tyre — recover a {kind} die", kind=msg(action.get("k", "")))
        labels = {"go": msg("Confirm the plan"), "undo": msg("Undo the last die"), "clear": msg("Clear the plan"),
                  "pass": msg("Stay put (no legal move)"), "roll": msg("Roll the next die"),
                  "secure": msg("Secure the next die with seconds"), "flat": msg("Flat out!"),
                  "stop": msg("Stop here"), "nospare": msg("Keep the spare tyre")}
        return labels.get(t, msg("Unknown action."))

    # ---- apply -------------------------------------------------------------------------------

    def apply(self, state: dict, seat: int, action: dict) -> tuple[dict, list[Event]]:
        if not isinstance(action, dict) or not isinstance(seat, int):
            raise _err(msg("Unknown action."))
        if action.get("type") == "prefs" and 0 <= seat < len(state["cars"]) and state["phase"] != "over":
            return self._apply_prefs(state, seat, action)
        if seat not in self.to_act(state):
            raise _err(msg("Not your turn."))
        t = action.get("type")
        ph = state["phase"]
        allowed = {"plan": ("plan", "flat", "add", "undo", "clear", "go", "pass"),
                   "roll": ("roll", "secure", "flat", "stop"),
                   "rearrange": ("crash",), "spare": ("spare", "nospare")}.get(ph, ())
        if t not in allowed:
            raise _err(msg("That is not possible now."))
        new = clone(state)
        evs: list[tuple[int | None, Msg]] = []
        getattr(self, "_do_" + t)(new, seat, action, evs)
        for to, text in evs:
            if to is None:
                new["log"].append(to_wire(text))
        del new["log"][:-LOG_KEEP]
        return new, [Event(text, to) for to, text in evs]

    @staticmethod
    def _pref_label(key: str, value: Any) -> Msg:
        if key == "line":
            return msg("Risk line: {n}%", n=value)
        return {"line": msg("Dice: ask above the line"), "all": msg("Dice: roll the whole plan"),
                "ask": msg("Dice: ask before every die")}[value]

    def _apply_prefs(self, state: dict, seat: int, action: dict) -> tuple[dict, list[Event]]:
        changes = {}
        for key, value in action.items():
            if key == "type":
                continue
            if key not in PREF_VALUES:
                raise _err(msg("Unknown preference {name}.", name=str(key)[:30]))
            if value not in PREF_VALUES[key] or isinstance(value, bool):
                raise _err(msg("{name} can be: {values}.", name=key,
                               values=[self._pref_label(key, v) for v in PREF_VALUES[key]]))
            changes[key] = value
        if not changes:
            raise _err(msg("No preference given."))
        if all(self.prefs(state, seat)[k] == v for k, v in changes.items()):
            raise _err(msg("That is your preference already."))
        new = clone(state)
        new["cars"][seat]["prefs"] = {**new["cars"][seat].get("prefs", {}), **changes}
        evs: list[tuple[int | None, Msg]] = [
            (seat, msg("Preferences set: {text}.", text=[self._pref_label(k, v) for k, v in changes.items()]))]
        if new["phase"] == "roll" and self.to_act(new) == [seat]:
            self._auto_roll(new, seat, evs)  # the die waiting for an answer may now roll by itself
        for to, text in evs:
            if to is None:
                new["log"].append(to_wire(text))
        del new["log"][:-LOG_KEEP]
        return new, [Event(text, to) for to, text in evs]

    def _auto_next(self, st: dict, seat: int) -> bool:
        """Does the seat's preference roll the next die without asking?"""
        pref = self.prefs(st, seat)
        if pref["dice"] == "all":
            return True
        if pref["dice"] == "ask":
            return False
        r = st["roll"]
        risk = R.loc_chance(st["plan"][r["i"]:r["i"] + 1], self._orange(st, seat), r["bangs"])
        return risk <= pref["line"] / 100 + 1e-9

    def _auto_roll(self, st: dict, seat: int, evs: list) -> None:
        """Roll on by the seat's standing preference until the turn ends or a die needs an answer."""
        while st["phase"] == "roll" and self.to_act(st) == [seat] and self._auto_next(st, seat):
            self._roll_one(st, seat, evs)

    def _value(self, action: dict) -> Any:
        vals = action.get("values")
        if isinstance(vals, list) and len(vals) == 1:
            return vals[0]
        return action.get("value")

    def _do_plan(self, st: dict, seat: int, action: dict, evs: list) -> None:
        stage = self._stage(st)
        m = R.match_steps(st, stage, seat, self._value(action))
        if m is None or not m[0]:
            raise _err(msg("That plan is not legal."))
        self._start_roll(st, seat, m[0], evs)
        self._auto_roll(st, seat, evs)

    def _do_add(self, st: dict, seat: int, action: dict, evs: list) -> None:
        stage = self._stage(st)
        ctx = self._draft_ctx(st, stage, seat)
        m = R.match_steps(st, stage, seat, self._value(action), ctx=ctx) if ctx else None
        if m is None or len(m[0]) != 1:
            raise _err(msg("That die cannot go there."))
        st["draft"].append(m[0][0])

    def _do_undo(self, st: dict, seat: int, action: dict, evs: list) -> None:
        if not st["draft"]:
            raise _err(msg("No dice are planned yet."))
        st["draft"].pop()

    def _do_clear(self, st: dict, seat: int, action: dict, evs: list) -> None:
        st["draft"] = []

    def _do_go(self, st: dict, seat: int, action: dict, evs: list) -> None:
        if not st["draft"]:
            raise _err(msg("No dice are planned yet."))
        steps, st["draft"] = st["draft"], []
        self._start_roll(st, seat, steps, evs)
        self._auto_roll(st, seat, evs)

    def _do_pass(self, st: dict, seat: int, action: dict, evs: list) -> None:
        stage = self._stage(st)
        if R.all_plans(st, stage, seat, self._orange(st, seat)):
            raise _err(msg("You can move: place at least one die."))
        self._mark_round(st, evs)
        car = st["cars"][seat]
        ru = R.rules()
        secs = ru.time[car["gear"]] if car["gear"] >= 1 else ru.pass_seconds
        car["cards"].append([car["gear"], secs, "pass"])
        evs.append((None, msg("{p} cannot move and stays put ({secs} s).", p=seat_ref(seat), secs=secs)))
        self._next_turn(st, evs)

    def _start_roll(self, st: dict, seat: int, steps: list[list], evs: list) -> None:
        self._mark_round(st, evs)
        st["plan"] = steps
        st["draft"] = []
        st["phase"] = "roll"
        st["roll"] = {"i": 0, "bangs": 0, "secured": 0, "flat": False, "faces": []}
        st["turn_no"] += 1  # a fresh board in the thread shows the dice where they lie
        stage = self._stage(st)
        evs.append((None, msg("{p} plans {plan}.", p=seat_ref(seat),
                              plan=self._plan_msg(st, stage, seat, steps, R.loc_chance(steps, self._orange(st, seat))))))

    def _rng(self, st: dict) -> Rng:
        return Rng(st["rng"])

    def _roll_step(self, st: dict, rng: Rng, step: list, orange: bool) -> list[bool]:
        return [rng.below(6) < R.rules().bang[k] for k in R.step_dice(step, orange)]

    def _do_roll(self, st: dict, seat: int, action: dict, evs: list) -> None:
        self._roll_one(st, seat, evs)
        self._auto_roll(st, seat, evs)

    def _roll_one(self, st: dict, seat: int, evs: list) -> None:
        r = st["roll"]
        rng = self._rng(st)
        step = st["plan"][r["i"]]
        faces = self._roll_step(st, rng, step, self._orange(st, seat))
        st["rng"] = rng.state
        r["faces"].append(faces)
        r["bangs"] += sum(faces)
        r["i"] += 1
        evs.append((None, msg("{p} rolls {die}: {faces}.", p=seat_ref(seat), die=self._die_msg(step),
                              faces=" ".join("!" if f else "✓" for f in faces))))
        self._enter(st, seat, step, evs)
        if r["bangs"] >= 3 or step[3] in ("p2", "ov") or (step[3] == "p1" and faces[0]):
            self._lose_control(st, seat, step, evs)
        elif r["i"] >= len(st["plan"]):
            self._end_normal(st, seat, step, evs)

    def _do_secure(self, st: dict, seat: int, action: dict, evs: list) -> None:
        cost = self._secure_cost(st)
        if cost is None:
            raise _err(msg("You cannot secure this die."))
        r = st["roll"]
        step = st["plan"][r["i"]]
        car = st["cars"][seat]
        car["chips"] -= cost
        r["secured"] += len(R.step_dice(step, self._orange(st, seat)))
        r["faces"].append([False] * len(R.step_dice(step, self._orange(st, seat))))
        r["i"] += 1
        evs.append((None, msg("{p} secures {die} for {secs} s.", p=seat_ref(seat), die=self._die_msg(step), secs=cost)))
        self._enter(st, seat, step, evs)
        if step[3] in ("p2", "ov"):  # securing makes the dice safe, not the speed
            self._lose_control(st, seat, step, evs)
        elif r["i"] >= len(st["plan"]):
            self._end_normal(st, seat, step, evs)
        else:
            self._auto_roll(st, seat, evs)

    def _do_stop(self, st: dict, seat: int, action: dict, evs: list) -> None:
        r = st["roll"]
        if r["i"] == 0:
            raise _err(msg("Roll at least one die first."))
        evs.append((None, msg("{p} stops.", p=seat_ref(seat))))
        self._end_normal(st, seat, st["plan"][r["i"] - 1], evs)

    def _do_flat(self, st: dict, seat: int, action: dict, evs: list) -> None:
        if st["phase"] == "plan":  # a whole plan from the list, flat out at once
            stage = self._stage(st)
            m = R.match_steps(st, stage, seat, self._value(action))
            if m is None or not m[0]:
                raise _err(msg("That plan is not legal."))
            self._start_roll(st, seat, m[0], evs)
        elif action.get("values") is not None:
            raise _err(msg("That is not possible now."))
        r = st["roll"]
        if r["i"] != 0:
            raise _err(msg("Flat out only before the first roll."))
        rng = self._rng(st)
        orange = self._orange(st, seat)
        all_faces = [self._roll_step(st, rng, s, orange) for s in st["plan"]]
        st["rng"] = rng.state
        r["flat"] = True
        r["faces"] = all_faces
        bangs = sum(sum(f) for f in all_faces)
        evs.append((None, msg("{p} goes flat out: {faces}.", p=seat_ref(seat),
                              faces=" ".join("".join("!" if x else "✓" for x in f) for f in all_faces))))
        if bangs >= 3:
            # three "!": the rolled dice are re-ordered and re-placed, and must lose control
            r["bangs"] = bangs
            st["phase"] = "rearrange"
            evs.append((None, msg("{p} shows three \"!\" and chooses where to lose control.", p=seat_ref(seat))))
            return
        for i, (step, faces) in enumerate(zip(st["plan"], all_faces)):
            r["i"] = i + 1
            self._enter(st, seat, step, evs)
            if step[3] in ("p2", "ov") or (step[3] == "p1" and faces[0]):
                self._lose_control(st, seat, step, evs)
                return
        # reading: the seconds are earned when the flat out ends safely (the seed's "無事に進めた場合")
        n = sum(1 for s in st["plan"] for k in R.step_dice(s, orange) if k != "brake")
        st["cars"][seat]["chips"] += n
        evs.append((None, msg("{p} earns {n} s of chips.", p=seat_ref(seat), n=n)))
        self._end_normal(st, seat, st["plan"][-1], evs)

    def _pool(self, st: dict, seat: int) -> dict:
        """The flat-out dice with their faces: gear values by "!", brake, coast dice."""
        orange = self._orange(st, seat)
        pool = {"g": {}, "brake": None, "coast": []}
        for step, faces in zip(st["plan"], st["roll"]["faces"]):
            for k, f in zip(R.step_dice(step, orange), faces):
                if k.startswith("g"):
                    pool["g"][int(k[1:])] = f
                elif k == "brake":
                    pool["brake"] = f
                else:
                    pool["coast"].append(f)
        return pool

    def _rearrangements(self, st: dict, stage: B.Stage, seat: int) -> list[tuple[str, tuple]]:
        """Re-placings of the flat-out dice that lose control: one per (space, gear), least damage
        first. Faces are kept; the loss of control happens at the last die."""
        pool = self._pool(st, seat)
        occ = R.occupied(st, seat)
        found: dict[tuple[int, int], tuple[tuple, str]] = {}
        coast_faces = sorted(pool["coast"], reverse=True)

        def rec(ctx: R.Ctx, steps: list, bangs: int, coast_used: list[bool]) -> None:
            lim = {"g": set(pool["g"]) - set(ctx.used), "brake": pool["brake"] is not None,
                   "coast": len(coast_faces)}
            for step, nctx in R.next_steps(st, stage, seat, ctx, occ, lim):
                options = []
                if step[0] == "c":
                    left = list(coast_faces)
                    for f in coast_used:
                        left.remove(f)
                    for f in sorted(set(left)):
                        options.append(([f], coast_used + [f]))
                else:
                    g = int(step[0][1:-1] if step[0].endswith("b") else step[0][1:])
                    fs = [pool["g"][g]] + ([pool["brake"]] if step[0].endswith("b") else [])
                    options.append((fs, coast_used))
                for fs, cu in options:
                    nb = bangs + sum(fs)
                    code_step = [step[0] + ("!" if step[0] == "c" and fs[0] else ""), step[1], step[2], step[3]]
                    plan = steps + [code_step]
                    loc = nb >= 3 or step[3] in ("p2", "ov") or (step[3] == "p1" and fs[0])
                    if loc:
                        sp = stage.spaces[step[1]]
                        key = (step[1], step[2])
                        dmg = (R.crash_tokens(step[2], sp.danger), -sp.front, step[2])
                        code = ",".join(f"{s[0]}:{s[1]}:{s[3]}" for s in plan)
                        if key not in found or dmg < found[key][0]:
                            found[key] = (dmg, code)
                        continue
                    if nctx.done:
                        continue
                    rec(nctx, plan, nb, cu)

        rec(R.start_ctx(st, seat), [], 0, [])
        out = sorted(found.values())
        return [(code, dmg) for dmg, code in out[:25]]

    def _do_crash(self, st: dict, seat: int, action: dict, evs: list) -> None:
        stage = self._stage(st)
        code = self._value(action)
        opts = dict(self._rearrangements(st, stage, seat))
        if code not in opts:
            raise _err(msg("That is not a legal re-placing."))
        dec = R.decode(code.replace("c!", "c"))
        m = R.match_steps(st, stage, seat, code.replace("c!", "c"),
                          pool={"g": set(self._pool(st, seat)["g"]), "brake": self._pool(st, seat)["brake"] is not None,
                                "coast": len(self._pool(st, seat)["coast"])})
        assert dec is not None and m is not None
        steps = m[0]
        st["plan"] = steps
        for step in steps:
            self._enter(st, seat, step, evs)
        self._lose_control(st, seat, steps[-1], evs)

    def _do_spare(self, st: dict, seat: int, action: dict, evs: list) -> None:
        car = st["cars"][seat]
        k = action.get("k")
        if k not in ("gear", "brake", "coast") or car["dmg"][k] <= 0:
            raise _err(msg("You have no such damage."))
        car["dmg"][k] -= 1
        car["tokens"].remove(k)
        car["spare"] = False
        secs = R.rules().spare_seconds
        car["cards"].append([0, secs, "spare"])
        car["track"] = False  # off the lane until the next turn, which starts in gear 0
        car["gear"] = 0
        evs.append((None, msg("{p} fits the spare tyre: one {kind} die back, +{secs} s.", p=seat_ref(seat),
                              kind=msg(k), secs=secs)))
        self._next_turn(st, evs)

    def _do_nospare(self, st: dict, seat: int, action: dict, evs: list) -> None:
        self._next_turn(st, evs)

    # ---- moving and ending -------------------------------------------------------------------

    def _enter(self, st: dict, seat: int, step: list, evs: list) -> None:
        """The car moves onto the step's space: shortcuts draw a damage token on entry."""
        stage = self._stage(st)
        car = st["cars"][seat]
        prev = car["sp"]
        sp = stage.spaces[step[1]]
        car["sp"] = step[1]
        car["gear"] = step[2]
        car["track"] = True
        car["side"] = prev is not None and step[1] in stage.spaces[prev].side
        if sp.kind == "slide" and any(o["side"] and o["track"] and not o["fin"] and o["sp"] in stage.row_spaces(sp.row)
                                      for i, o in enumerate(st["cars"]) if i != seat):
            car["side"] = "follow"  # following a sliding car into its slide: sideways too (it does not block)
        if sp.kind == "shortcut" and (prev is None or stage.spaces[prev].kind != "shortcut"):
            tok = self._draw(st)
            if tok is None:
                return
            if tok == "mud":
                key = str(sp.corner)
                st["mud"][key] = st["mud"].get(key, 0) + 1
                evs.append((None, msg("{p} takes the shortcut and sprays mud: that corner's limit drops by 1.",
                                      p=seat_ref(seat))))
            elif tok in ("gear", "brake", "coast"):  # one bag: a crash token drawn here damages as well
                self._damage(car, tok)
                evs.append((None, msg("{p} takes the shortcut: {kind} damage.", p=seat_ref(seat), kind=msg(tok))))
            else:
                evs.append((None, msg("{p} takes the shortcut: OK!", p=seat_ref(seat))))

    def _draw(self, st: dict) -> str | None:
        bag = st["bag"]
        total = sum(bag.values())
        if total == 0:
            return None  # designed: an empty bag draws nothing
        return self._take_one(st, bag, R.TOKEN_KINDS)

    def _damage(self, car: dict, kind: str) -> None:
        if kind == "gear" and car["dmg"]["gear"] >= 5:
            return  # designed: the last gear die is never lost, so every car can finish
        if kind != "gear" and car["dmg"][kind] >= (1 if kind == "brake" else 2):
            return
        car["dmg"][kind] += 1
        car["tokens"].append(kind)

    def _card(self, st: dict, gear: int) -> str:
        """Take a time card of this gear: returns its back (SISU, spin or crash)."""
        pile = st["piles"][str(gear)]
        if sum(pile.values()) == 0:
            pile.update(R.rules().backs[gear])  # designed: an empty pile is reshuffled from the box
        return self._take_one(st, pile, R.BACKS)

    def _take_one(self, st: dict, counts: dict, kinds) -> str:
        """One item drawn at random from a bag of `counts` per kind (taken out of it)."""
        rng = self._rng(st)
        k = rng.below(sum(counts.values()))
        st["rng"] = rng.state
        for kind in kinds:
            if k < counts[kind]:
                counts[kind] -= 1
                return kind
            k -= counts[kind]
        raise AssertionError("an empty bag")

    def _end_normal(self, st: dict, seat: int, step: list, evs: list) -> None:
        car = st["cars"][seat]
        stage = self._stage(st)
        gear = step[2]
        self._card(st, gear)
        secs = R.rules().time[gear]
        car["cards"].append([gear, secs, "time"])
        sp = stage.spaces[car["sp"]]
        if sp.water and not (step[0] in ("c", "g1")):
            evs.append((None, msg("{p} hits the water: the turn ends.", p=seat_ref(seat))))
        evs.append((None, msg("{p} ends in gear {gear}: +{secs} s.", p=seat_ref(seat), gear=gear, secs=secs)))
        if self._check_finish(st, seat, evs):
            self._next_turn(st, evs)
            return
        if gear == 1 and car["spare"] and any(car["dmg"].values()):
            st["phase"] = "spare"
            return
        self._next_turn(st, evs)

    def _check_finish(self, st: dict, seat: int, evs: list) -> bool:
        car = st["cars"][seat]
        if self._stage(st).spaces[car["sp"]].finish:
            car["fin"] = True
            car["track"] = False
            evs.append((None, msg("{p} crosses the finish line.", p=seat_ref(seat))))
            return True
        return False

    def _lose_control(self, st: dict, seat: int, step: list, evs: list) -> None:
        car = st["cars"][seat]
        stage = self._stage(st)
        gear = step[2]
        back = self._card(st, gear)
        ru = R.rules()
        if back == "sisu":
            car["cards"].append([gear, ru.time[gear], "sisu"])
            evs.append((None, msg("{p} loses control in gear {gear}... SISU! Saved: +{secs} s.", p=seat_ref(seat),
                                  gear=gear, secs=ru.time[gear])))
            if self._check_finish(st, seat, evs):
                self._next_turn(st, evs)
                return
            if gear == 1 and car["spare"] and any(car["dmg"].values()):
                st["phase"] = "spare"
                return
            self._next_turn(st, evs)
            return
        car["cards"].append([gear, ru.loss_time, back])
        car["gear"] = 0
        car["side"] = False
        if back == "spin":
            evs.append((None, msg("{p} loses control in gear {gear} and spins: +{secs} s.", p=seat_ref(seat),
                                  gear=gear, secs=ru.loss_time)))
        else:
            n = R.crash_tokens(gear, stage.spaces[car["sp"]].danger)
            got = []
            for _ in range(n):
                tok = self._draw(st)
                if tok is None:
                    break
                got.append(tok)
                if tok in ("gear", "brake", "coast"):  # designed: "OK!" and mud are shortcut results, no damage
                    self._damage(car, tok)
            car["track"] = False  # a crashed car does not block the track
            evs.append((None, msg("{p} loses control in gear {gear} and crashes: +{secs} s, damage: {tokens}.",
                                  p=seat_ref(seat), gear=gear, secs=ru.loss_time,
                                  tokens=[msg(t) for t in got] or msg("none"))))
        self._check_finish(st, seat, evs)
        self._next_turn(st, evs)

    # ---- rounds ------------------------------------------------------------------------------

    def _next_turn(self, st: dict, evs: list) -> None:
        st["plan"], st["roll"], st["draft"] = [], None, []
        st["phase"] = "plan"
        st["turn"] += 1
        while st["turn"] < len(st["order"]) and st["cars"][st["order"][st["turn"]]]["fin"]:
            st["turn"] += 1
        if st["turn"] >= len(st["order"]):
            self._new_round(st)
            if st["phase"] == "over":
                self._finish(st, evs)  # the rally's next stage starts here, if there is one
                if st["phase"] == "over":
                    return
        self._begin_turn(st)

    def _mark_round(self, st: dict, evs: list) -> None:
        """The thread marks each round as its first driver moves: its number, the stage, the drivers
        in order. Until then the round's thread post is the last one's ("post" in the view), so
        the post of a round holds its turns only, from its mark to the end of its last turn."""
        here = [st["leg"], st["round"]]
        if st.get("marked") != here:
            st["marked"] = here
            evs.append((None, msg("Round {n} of {stage}: {order}.", n=st["round"], stage=st["stage"],
                                  order=[seat_ref(s) for s in st["order"]])))

    def _begin_turn(self, st: dict) -> None:
        seat = st["order"][st["turn"]]
        car = st["cars"][seat]
        if not car["track"]:
            # back on the lane (after a crash or the spare tyre) if the space is free
            if car["sp"] not in R.occupied(st, seat):
                car["track"] = True
        st["turn_no"] += 1

    def _new_round(self, st: dict) -> None:
        stage = self._stage(st)
        st["round"] += 1
        k = st["round"]
        for seat in st["entry"][:k]:
            car = st["cars"][seat]
            if car["entered"]:
                continue
            occ = R.occupied(st, seat)
            free = [s for s in stage.starts if s not in occ]
            if not free:
                continue  # designed: waits a round when both start spaces are taken
            free.sort(key=lambda s: not stage.spaces[s].inside)
            car.update(sp=free[0], entered=True, track=True, gear=0)
        active = [s for s in range(len(st["cars"])) if st["cars"][s]["entered"] and not st["cars"][s]["fin"]]
        if not active and all(c["entered"] for c in st["cars"]):
            st["phase"] = "over"
            st["order"] = []
            return
        if not active:  # everyone on the stage has finished before the last car entered
            self._new_round(st)
            return

        def key(s: int) -> tuple:
            c = st["cars"][s]
            sp = stage.spaces[c["sp"]]
            return (-sp.front, -c["gear"], 0 if sp.inside else 1, st["entry"].index(s))

        st["order"] = sorted(active, key=key)
        st["turn"] = 0

    def _finish(self, st: dict, evs: list) -> None:
        legs = [sum(c[1] for c in car["cards"]) for car in st["cars"]]
        best_leg = min(legs)
        if len(st["legs"]) > 1:  # a rally: each stage's fastest; a lone stage is said once, below
            evs.append((None, msg("{stage} done. Fastest: {who} in {secs} s.", stage=st["stage"],
                                  who=[seat_ref(s) for s in range(len(legs)) if legs[s] == best_leg], secs=best_leg)))
        if st["leg"] + 1 < len(st["legs"]):
            self._next_leg(st, legs)
            return
        totals = [car["past"] + legs[seat] - car["chips"] for seat, car in enumerate(st["cars"])]
        ranking = sorted(range(len(totals)), key=lambda s: totals[s])
        places = [1 + sum(1 for t in totals if t < totals[s]) for s in range(len(totals))]  # ties shared
        st["result"] = {"totals": totals, "places": places}
        best = min(totals)
        winners = [seat_ref(s) for s in ranking if totals[s] == best]
        if len(st["legs"]) > 1:
            evs.append((None, msg("Rally over. Fastest in all: {who} in {secs} s.", who=winners, secs=best)))
        else:
            evs.append((None, msg("Stage over. Fastest: {who} in {secs} s.", who=winners, secs=best)))
        par_times = P.load()
        if len(totals) == 1 and all(leg in par_times for leg in st["legs"]):
            par = sum(par_times[leg] for leg in st["legs"])  # solo: against the simulated par
            st["result"]["par"] = par
            evs.append((None, msg("Par time: {par} s. You are {diff} s {side}.", par=par, diff=abs(totals[0] - par),
                                  side=msg("under par") if totals[0] <= par else msg("over par"))))

    def _next_leg(self, st: dict, legs: list[int]) -> None:
        """The next special stage of the rally. Designed (no source): the service park between
        stages repairs all damage and gives a fresh spare tyre; seconds chips are kept; the
        running order is the standings so far, fastest first."""
        ru = R.rules()
        for seat, car in enumerate(st["cars"]):
            car["past"] += legs[seat]
            car.update(sp=None, gear=0, track=False, side=False, fin=False, entered=False,
                       dmg={"gear": 0, "brake": 0, "coast": 0}, cards=[], spare=True, tokens=[])
        st["leg"] += 1
        st["stage"] = st["legs"][st["leg"]]
        st["mud"], st["bag"] = {}, dict(ru.tokens)
        st["entry"] = sorted(range(len(st["cars"])),
                             key=lambda s: (st["cars"][s]["past"] - st["cars"][s]["chips"], st["entry"].index(s)))
        st["round"] = 0
        st["phase"] = "plan"
        self._new_round(st)

    # ---- views -------------------------------------------------------------------------------

    def view(self, state: dict, viewer: int | None) -> dict:
        cars = []
        for seat, car in enumerate(state["cars"]):
            cars.append({
                "seat": seat, "space": car["sp"], "gear": car["gear"], "on_track": car["track"],
                "sideways": bool(car["side"]), "finished": car["fin"], "entered": car["entered"],
                "damage": dict(car["dmg"]), "tokens": list(car["tokens"]), "cards": [list(c) for c in car["cards"]],
                "chips": car["chips"], "spare": car["spare"],
                "time": car["past"] + sum(c[1] for c in car["cards"]),
            })
        v: dict[str, Any] = {
            "kind": self.kind, "stage": state["stage"], "leg": state["leg"], "legs": list(state["legs"]),
            "round": state["round"], "turn": state["turn_no"],
            # a round's drivers share one thread post, from its first move (the round's mark) on
            "post": [state["leg"], state["round"] if state.get("marked") == [state["leg"], state["round"]]
                     else state["round"] - 1],
            "phase": state["phase"], "order": list(state["order"]), "to_act": self.to_act(state),
            "entry": list(state["entry"]), "cars": cars, "mud": dict(state["mud"]),
            "plan": [list(s) for s in state["plan"]], "log": from_wire(state["log"][-12:]),
            "result": state["result"],
        }
        r = state["roll"]
        if r is not None:
            v["roll"] = {"next": r["i"], "bangs": r["bangs"], "secured": r["secured"], "flat": r["flat"],
                         "faces": [list(f) for f in r["faces"]]}
        if state["phase"] == "roll" and r is not None:
            seat = state["order"][state["turn"]]
            orange = self._orange(state, seat)
            rest = state["plan"][r["i"]:]
            v["chance_next"] = R.loc_chance(rest[:1], orange, r["bangs"])
            v["chance_flat"] = R.loc_chance(state["plan"], orange) if r["i"] == 0 else None
        if viewer is not None and self.to_act(state) == [viewer]:
            v["draft"] = [list(s) for s in state["draft"]]
            if state["phase"] == "plan" and not state["draft"]:
                plans = self._plans(state, self._stage(state), viewer)
                if plans:  # the plan list's first entry, drawn on the seat's map before it chooses
                    v["preview"] = [list(s) for s in plans[0][0]]
        return v

    def placings(self, state: dict) -> list[int]:
        """Each seat's place at the end (1 = the fastest; equal times share a place)."""
        return list(state["result"]["places"])

    def auto_action(self, state: dict, seat: int) -> dict:
        """The automatic player of an absent seat: the par driver (fast, few risks)."""
        from bot.games.rallyman.par import good_action
        return good_action(state, seat)

    def _pref_buttons(self, state: dict, seat: int) -> dict:
        """The standing preferences, one button each: it shows the value now and moves to the next."""
        mine = self.prefs(state, seat)
        return {"kind": "buttons", "options": [
            {"label": self._pref_label(k, mine[k]), "style": "secondary",
             "action": {"type": "prefs", k: vals[(vals.index(mine[k]) + 1) % len(vals)]}}
            for k, vals in PREF_VALUES.items()]}

    def menu(self, state: dict, seat: int) -> list[dict]:
        if seat not in self.to_act(state):
            return []
        st = self._stage(state)
        ph = state["phase"]
        orange = self._orange(state, seat)
        if ph == "plan":
            groups: list[dict] = []
            plans = self._plans(state, st, seat)
            line = self.prefs(state, seat)["line"]
            if plans:
                first = plans[0][1] <= line / 100 + 1e-9
                why = msg("Farthest plan within your {n}% risk line", n=line) if first else \
                    msg("The safest plan: none is within your {n}% risk line", n=line)
                for kind, placeholder in (("plan", msg("Choose a whole plan (dice rolled as your preference says)")),
                                          ("flat", msg("Or go flat out with a whole plan (all dice at once, chips)"))):
                    groups.append({"kind": "select", "placeholder": placeholder, "min": 1, "max": 1,
                                   "action": {"type": kind},
                                   "options": [{"label": self._plan_msg(state, st, seat, p, r), "value": R.encode(p),
                                                **({"description": why} if i == 0 else {})}
                                               for i, (p, r) in enumerate(plans[:25])]})
            ctx = self._draft_ctx(state, st, seat)
            if ctx is not None:
                nxt = R.next_steps(state, st, seat, ctx, R.occupied(state, seat))
                if nxt:
                    groups.append({"kind": "select", "placeholder": msg("Or build it die by die"), "min": 1, "max": 1,
                                   "action": {"type": "add"},
                                   "options": [{"label": msg("{die}: {where}", die=self._die_msg(s),
                                                             where=self._where(st, ctx.pos, s)),
                                                "value": R.encode([s])} for s, _ in nxt[:25]]})
            buttons = []
            if state["draft"]:
                buttons += [{"label": msg("Confirm the plan"), "action": {"type": "go"}, "style": "success"},
                            {"label": msg("Undo the last die"), "action": {"type": "undo"}},
                            {"label": msg("Clear the plan"), "action": {"type": "clear"}, "style": "danger"}]
            if not plans:
                buttons.append({"label": msg("Stay put (no legal move)"), "action": {"type": "pass"}})
            if buttons:
                groups.append({"kind": "buttons", "options": buttons})
            return groups + [self._pref_buttons(state, seat)]
        if ph == "roll":
            r = state["roll"]
            rest = state["plan"][r["i"]:]
            buttons = [{"label": msg("Roll {die} (three \"!\" {chance})", die=self._die_msg(rest[0]),
                                     chance=_pct(R.loc_chance(rest[:1], orange, r["bangs"]))),
                        "action": {"type": "roll"}, "style": "primary"}]
            cost = self._secure_cost(state)
            if cost is not None:
                buttons.append({"label": msg("Secure it ({secs} s)", secs=cost), "action": {"type": "secure"}})
            if r["i"] == 0:
                buttons.append({"label": msg("Flat out! (three \"!\" {chance})", chance=_pct(R.loc_chance(state["plan"], orange))),
                                "action": {"type": "flat"}, "style": "danger"})
            else:
                buttons.append({"label": msg("Stop here"), "action": {"type": "stop"}, "style": "success"})
            return [{"kind": "buttons", "options": buttons}, self._pref_buttons(state, seat)]
        if ph == "rearrange":
            opts = self._rearrangements(state, st, seat)
            return [{"kind": "select", "placeholder": msg("Where do you lose control?"), "min": 1, "max": 1,
                     "action": {"type": "crash"},
                     "options": [{"label": self._crash_msg(state, st, seat, code, dmg), "value": code}
                                 for code, dmg in opts]}]
        if ph == "spare":
            car = state["cars"][seat]
            return [{"kind": "buttons", "options":
                     [{"label": msg("Spare tyre — recover a {kind} die", kind=msg(k)), "action": {"type": "spare", "k": k}}
                      for k in ("gear", "brake", "coast") if car["dmg"][k] > 0] +
                     [{"label": msg("Keep the spare tyre"), "action": {"type": "nospare"}}]}]
        return []


ENGINE = RallymanEngine()
