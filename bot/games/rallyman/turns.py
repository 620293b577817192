"""A driver's turn in Rallyman: DIRT, on the state in place: what the seat may choose (plans, dice,
re-placings), the dice rolled one by one, secured or all at once (flat out), the car moving
space by space, the time card that ends the turn and the loss of control. A turn's end hands over
to rounds.py (the next driver, round or stage).

`roll_step`, `card` and `draw` are the only places chance enters a turn (tests force them)."""

from __future__ import annotations

from typing import Any

import orjson

from bot.games.base import Event, seat_ref
import bot.games.rallyman.board as B
import bot.games.rallyman.rounds as rounds
import bot.games.rallyman.rules as R
from bot.games.rallyman.texts import die_msg, plan_msg
from bot.games.rng import Rng
from bot.i18n import msg

# Standing preferences (bot/games/base.py `is_preference`): how far to push without being asked.
# "line": the risk line in % (the plan list's first entry is the farthest plan under it; with
# dice "line", a die is rolled without asking while its own chance of the third "!" is under it);
# "dice": "line" (ask only when the next die's risk is above the line), "all" (roll the whole
# plan, never ask), "ask" (ask before every die).
PREF_VALUES: dict[str, tuple] = {"line": (10, 20, 35, 50), "dice": ("line", "all", "ask")}
DEFAULT_PREFS: dict[str, Any] = {"line": 20, "dice": "line"}
LOSES = ("p2", "ov")  # a step that loses control whatever the dice (securing makes the dice safe, not the speed)


# ---- what the seat sees and may choose ----------------------------------------------------------


def orange(state: dict, seat: int) -> bool:
    """Whether the seat drives first this round (the orange die is its coast die)."""
    return bool(state["order"]) and state["order"][0] == seat


def prefs(state: dict, seat: int) -> dict[str, Any]:
    """The seat's standing preferences, defaults filled in."""
    return {**DEFAULT_PREFS, **state["cars"][seat].get("prefs", {})}


def plans(state: dict, st: B.Stage, seat: int) -> list[tuple[list, float]]:
    """The plan list: first the plan a sensible driver takes under the seat's risk line. (Kept for
    the last few states: the moves, the menu and the view ask for it alike.)"""
    return list(_plan_list(state, st, seat)[0])


def _plan_list(state: dict, st: B.Stage, seat: int) -> tuple[list[tuple[list, float]], list[str], bytes]:
    """plans(), their codes (R.encode) and the state's R.state_key, kept by all they read."""
    mine, line, here = orange(state, seat), prefs(state, seat)["line"] / 100, R.state_key(state)
    key = (st.key, seat, mine, line, here)
    hit = _PLANS.get(key)
    if hit is None:
        if len(_PLANS) > 16:
            _PLANS.clear()
        found = R.good_plans(state, st, seat, mine, line, here=here)
        hit = _PLANS[key] = (found, R.encode_all(found), here)
    return hit


_PLANS: dict[tuple, tuple[list[tuple[list, float]], list[str], bytes]] = {}  # _plan_list() by all it reads


def plan_steps(state: dict, st: B.Stage, seat: int, code: Any) -> list[list] | None:
    """The steps of a whole plan's code from the car's place (R.match_steps), None when it is not
    legal: read from the plan list when the list of this state is at hand (a move chosen from it)."""
    if isinstance(code, str):
        here = R.state_key(state)
        hit = _PLANS.get((st.key, seat, orange(state, seat), prefs(state, seat)["line"] / 100, here))
        if hit is not None and code in hit[1]:
            return [list(step) for step in hit[0][hit[1].index(code)][0]]
    m = R.match_steps(state, st, seat, code)
    return None if m is None else m[0]


def draft_ctx(state: dict, st: B.Stage, seat: int) -> R.Ctx | None:
    """Where the plan built die by die has got to (None: it cannot go on)."""
    if not state["draft"]:
        return R.start_ctx(state, seat)
    m = R.match_steps(state, st, seat, R.encode(state["draft"]))
    return None if m is None else m[1]


def secure_cost(state: dict) -> int | None:
    """The seconds that secure the next die, None when it cannot be secured."""
    r = state["roll"]
    if r is None or r["flat"] or r["i"] >= len(state["plan"]):
        return None
    seat = state["order"][state["turn"]]
    n = len(R.step_dice(state["plan"][r["i"]], orange(state, seat)))
    cost = R.secure_cost(r["secured"], n)
    if cost is None or cost > state["cars"][seat]["chips"]:
        return None
    return cost


def decisions(state: dict, seat: int) -> list[dict]:
    """The moves of the seat the game waits for, by phase (the standing preferences apart)."""
    ph = state["phase"]
    st = B.stage(state["stage"])
    if ph == "plan":
        return _plan_decisions(state, st, seat)
    if ph == "roll":
        acts = [{"type": "roll"}]
        if secure_cost(state) is not None:
            acts.append({"type": "secure"})
        acts.append({"type": "flat"} if state["roll"]["i"] == 0 else {"type": "stop"})
        return acts
    if ph == "rearrange":
        return [{"type": "crash", "values": [c]} for c, _ in rearrangements(state, st, seat)]
    if ph == "spare":
        car = state["cars"][seat]
        return [{"type": "spare", "k": k} for k in ("gear", "brake", "coast") if car["dmg"][k] > 0] + [
            {"type": "nospare"}
        ]
    return []


def _plan_decisions(state: dict, st: B.Stage, seat: int) -> list[dict]:
    found, codes, here = _plan_list(state, st, seat)
    acts: list[dict] = [{"type": "plan", "values": [c]} for c in codes]
    acts += [{"type": "flat", "values": [c]} for c in codes]
    ctx = draft_ctx(state, st, seat)
    if ctx is not None:
        ways = R.steps_for(state, st, seat, here)
        acts += [{"type": "add", "values": [R.step_code(s)]} for s, _ in ways.kept_after(ctx)]
    if state["draft"]:
        acts += [{"type": "go"}, {"type": "undo"}, {"type": "clear"}]
    if not found:
        acts.append({"type": "pass"})
    return acts


def pool(st: dict, seat: int) -> dict:
    """The flat-out dice with their faces: gear values by "!", brake, coast dice."""
    mine = orange(st, seat)
    out: dict[str, Any] = {"g": {}, "brake": None, "coast": []}
    for step, faces in zip(st["plan"], st["roll"]["faces"]):
        for k, f in zip(R.step_dice(step, mine), faces):
            if k.startswith("g"):
                out["g"][int(k[1:])] = f
            elif k == "brake":
                out["brake"] = f
            else:
                out["coast"].append(f)
    return out


def rearrangements(st: dict, stage: B.Stage, seat: int) -> list[tuple[str, tuple]]:
    """Re-placings of the flat-out dice that lose control: one per (space, gear), least damage
    first. Faces are kept; the loss of control happens at the last die. (Kept for the last few
    states: the menu, the labels and the move ask for them alike.)"""
    key = (
        stage.key,
        seat,
        orjson.dumps(
            [orange(st, seat), st["plan"], st["roll"]["faces"], st["cars"], st["mud"]], option=orjson.OPT_SORT_KEYS
        ),
    )
    hit = _REPLACINGS.get(key)
    if hit is None:
        if len(_REPLACINGS) > 16:
            _REPLACINGS.clear()
        hit = _REPLACINGS[key] = _rearrangements(st, stage, seat)
    return list(hit)


_REPLACINGS: dict[tuple, list[tuple[str, tuple]]] = {}  # rearrangements() by all it reads


def _rearrangements(st: dict, stage: B.Stage, seat: int) -> list[tuple[str, tuple]]:
    dice = pool(st, seat)
    found: dict[tuple[int, int], tuple[tuple, str]] = {}
    coast_faces = sorted(dice["coast"], reverse=True)
    # the dice rolled: one Steps for the whole search (a gear die already placed is never placed
    # again whatever the pool says, so the pool is the same at every place), its steps kept per place
    ways = R.Steps(
        st,
        stage,
        seat,
        R.occupied(st, seat),
        {"g": set(dice["g"]), "brake": dice["brake"] is not None, "coast": len(coast_faces)},
    )
    faces: dict[Any, list[tuple[int, bool, tuple[bool, ...]]]] = {}  # faces_for() by die (and coast faces used)

    def faces_for(die: str, used: tuple[bool, ...]) -> list[tuple[int, bool, tuple[bool, ...]]]:
        """What the die may show: ("!" it adds, whether its first die shows one, the coast faces
        used after it, sorted)."""
        key = (die, used) if die == "c" else die
        hit = faces.get(key)
        if hit is None:
            if die != "c":
                g = int(die[1:-1] if die.endswith("b") else die[1:])
                fs = [dice["g"][g]] + ([dice["brake"]] if die.endswith("b") else [])
                hit = [(sum(fs), fs[0], ())]
            else:
                left = list(coast_faces)
                for f in used:
                    left.remove(f)
                hit = [(int(f), f, tuple(sorted((*used, f)))) for f in sorted(set(left))]
            faces[key] = hit
        return hit if die == "c" else [(hit[0][0], hit[0][1], used)]

    # a place reached again with the same "!" and coast faces left reaches the same re-placings
    # with the same damage: never less than what its first visit kept (kept only when less)
    visited: set[tuple] = set()
    spaces, tokens = stage.spaces, R.rules().crash_tokens

    def rec(ctx: R.Ctx, steps: list, bangs: int, used: tuple[bool, ...]) -> None:
        here = (ctx, bangs, used)
        if here in visited:
            return
        visited.add(here)
        for step, nctx in ways.kept_after(ctx):
            die, sid, gear, jump = step
            for added, first, after in faces_for(die, used):
                nb = bangs + added
                plan = steps + [[die + ("!" if die == "c" and first else ""), sid, gear, jump]]
                if nb >= 3 or jump in LOSES or (jump == "p1" and first):
                    sp = spaces[sid]
                    dmg = (tokens[gear][sp.danger] if gear >= 1 else 0, -sp.front, gear)  # R.crash_tokens
                    if (sid, gear) not in found or dmg < found[(sid, gear)][0]:
                        found[(sid, gear)] = (dmg, ",".join([f"{s[0]}:{s[1]}:{s[3]}" for s in plan]))
                elif not nctx.done:
                    rec(nctx, plan, nb, after)

    rec(R.start_ctx(st, seat), [], 0, ())
    out = sorted(found.values())
    return [(code, dmg) for dmg, code in out[:25]]


# ---- chance -------------------------------------------------------------------------------------


def roll_step(rng: Rng, step: list, mine: bool) -> list[bool]:
    """The faces of one plan step's dice (True: a "!")."""
    return [rng.below(6) < R.rules().bang[k] for k in R.step_dice(step, mine)]


def take_one(st: dict, counts: dict, kinds: Any) -> str:
    """One item drawn at random from a bag of `counts` per kind (taken out of it)."""
    rng = Rng(st["rng"])
    k = rng.below(sum(counts.values()))
    st["rng"] = rng.state
    for kind in kinds:
        if k < counts[kind]:
            counts[kind] -= 1
            return str(kind)
        k -= counts[kind]
    raise AssertionError("an empty bag")


def draw(st: dict) -> str | None:
    """A token from the bag (None: designed, an empty bag draws nothing)."""
    bag = st["bag"]
    if sum(bag.values()) == 0:
        return None
    return take_one(st, bag, R.TOKEN_KINDS)


def card(st: dict, gear: int) -> str:
    """Take a time card of this gear: returns its back (SISU, spin or crash)."""
    pile = st["piles"][str(gear)]
    if sum(pile.values()) == 0:
        pile.update(R.rules().backs[gear])  # designed: an empty pile is reshuffled from the box
    return take_one(st, pile, R.BACKS)


def damage(car: dict, kind: str) -> None:
    """One damage token of `kind` on the car, within what its dice can lose."""
    if kind == "gear" and car["dmg"]["gear"] >= 5:
        return  # designed: the last gear die is never lost, so every car can finish
    if kind != "gear" and car["dmg"][kind] >= (1 if kind == "brake" else 2):
        return
    car["dmg"][kind] += 1
    car["tokens"].append(kind)


# ---- the dice of a turn ---------------------------------------------------------------------------


def start_roll(st: dict, seat: int, steps: list[list], events: list[Event]) -> None:
    """The plan is fixed: the roll phase begins with its first die."""
    rounds.mark_round(st, events)
    st["plan"] = steps
    st["draft"] = []
    st["phase"] = "roll"
    st["roll"] = {"i": 0, "bangs": 0, "secured": 0, "flat": False, "faces": []}
    st["turn_no"] += 1  # a fresh board in the thread shows the dice where they lie
    stage = B.stage(st["stage"])
    events.append(
        Event(
            msg(
                "{p} plans {plan}.",
                p=seat_ref(seat),
                plan=plan_msg(st, stage, seat, steps, R.loc_chance(steps, orange(st, seat))),
            )
        )
    )


def auto_next(st: dict, seat: int) -> bool:
    """Does the seat's preference roll the next die without asking?"""
    pref = prefs(st, seat)
    if pref["dice"] == "all":
        return True
    if pref["dice"] == "ask":
        return False
    r = st["roll"]
    risk = R.loc_chance(st["plan"][r["i"] : r["i"] + 1], orange(st, seat), r["bangs"])
    return bool(risk <= pref["line"] / 100 + 1e-9)


def auto_roll(st: dict, seat: int, events: list[Event]) -> None:
    """Roll on by the seat's standing preference until the turn ends or a die needs an answer."""
    while st["phase"] == "roll" and st["order"][st["turn"]] == seat and auto_next(st, seat):
        roll_one(st, seat, events)


def roll_one(st: dict, seat: int, events: list[Event]) -> None:
    """The next die of the plan rolled: the car moves on, or loses control on the third "!"."""
    r = st["roll"]
    rng = Rng(st["rng"])
    step = st["plan"][r["i"]]
    faces = roll_step(rng, step, orange(st, seat))
    st["rng"] = rng.state
    r["faces"].append(faces)
    r["bangs"] += sum(faces)
    r["i"] += 1
    events.append(
        Event(
            msg(
                "{p} rolls {die}: {faces}.",
                p=seat_ref(seat),
                die=die_msg(step),
                faces=" ".join("!" if f else "✓" for f in faces),
            )
        )
    )
    enter(st, seat, step, events)
    if r["bangs"] >= 3 or step[3] in LOSES or (step[3] == "p1" and faces[0]):
        lose_control(st, seat, step, events)
    elif r["i"] >= len(st["plan"]):
        end_normal(st, seat, step, events)


def secure(st: dict, seat: int, cost: int, events: list[Event]) -> None:
    """The next die secured with `cost` seconds of chips: it moves the car without a roll."""
    r = st["roll"]
    step = st["plan"][r["i"]]
    car = st["cars"][seat]
    car["chips"] -= cost
    r["secured"] += len(R.step_dice(step, orange(st, seat)))
    r["faces"].append([False] * len(R.step_dice(step, orange(st, seat))))
    r["i"] += 1
    events.append(Event(msg("{p} secures {die} for {secs} s.", p=seat_ref(seat), die=die_msg(step), secs=cost)))
    enter(st, seat, step, events)
    if step[3] in LOSES:  # securing makes the dice safe, not the speed
        lose_control(st, seat, step, events)
    elif r["i"] >= len(st["plan"]):
        end_normal(st, seat, step, events)
    else:
        auto_roll(st, seat, events)


def flat_out(st: dict, seat: int, events: list[Event]) -> None:
    """All the plan's dice at once: three "!" make the driver re-place them and lose control,
    otherwise the car goes the whole way and earns seconds chips."""
    r = st["roll"]
    rng = Rng(st["rng"])
    mine = orange(st, seat)
    all_faces = [roll_step(rng, s, mine) for s in st["plan"]]
    st["rng"] = rng.state
    r["flat"] = True
    r["faces"] = all_faces
    bangs = sum(sum(f) for f in all_faces)
    events.append(
        Event(
            msg(
                "{p} goes flat out: {faces}.",
                p=seat_ref(seat),
                faces=" ".join("".join("!" if x else "✓" for x in f) for f in all_faces),
            )
        )
    )
    if bangs >= 3:
        # three "!": the rolled dice are re-ordered and re-placed, and must lose control
        r["bangs"] = bangs
        st["phase"] = "rearrange"
        events.append(Event(msg('{p} shows three "!" and chooses where to lose control.', p=seat_ref(seat))))
        return
    for i, (step, faces) in enumerate(zip(st["plan"], all_faces)):
        r["i"] = i + 1
        enter(st, seat, step, events)
        if step[3] in LOSES or (step[3] == "p1" and faces[0]):
            lose_control(st, seat, step, events)
            return
    # reading: the seconds are earned when the flat out ends safely (the seed's "無事に進めた場合")
    n = sum(1 for s in st["plan"] for k in R.step_dice(s, mine) if k != "brake")
    st["cars"][seat]["chips"] += n
    events.append(Event(msg("{p} earns {n} s of chips.", p=seat_ref(seat), n=n)))
    end_normal(st, seat, st["plan"][-1], events)


def crash_at(st: dict, seat: int, steps: list[list], events: list[Event]) -> None:
    """The re-placed flat-out dice: the car goes along them and loses control at the last."""
    st["plan"] = steps
    for step in steps:
        enter(st, seat, step, events)
    lose_control(st, seat, steps[-1], events)


# ---- moving and ending ------------------------------------------------------------------------------


def enter(st: dict, seat: int, step: list, events: list[Event]) -> None:
    """The car moves onto the step's space: shortcuts draw a damage token on entry."""
    stage = B.stage(st["stage"])
    car = st["cars"][seat]
    prev = car["sp"]
    sp = stage.spaces[step[1]]
    car["sp"] = step[1]
    car["gear"] = step[2]
    car["track"] = True
    car["side"] = prev is not None and step[1] in stage.spaces[prev].side
    if sp.kind == "slide" and any(
        o["side"] and o["track"] and not o["fin"] and o["sp"] in stage.row_spaces(sp.row)
        for i, o in enumerate(st["cars"])
        if i != seat
    ):
        car["side"] = "follow"  # following a sliding car into its slide: sideways too (it does not block)
    if sp.kind == "shortcut" and (prev is None or stage.spaces[prev].kind != "shortcut"):
        _shortcut(st, seat, sp, events)


def _shortcut(st: dict, seat: int, sp: B.Space, events: list[Event]) -> None:
    tok = draw(st)
    if tok is None:
        return
    if tok == "mud":
        key = str(sp.corner)
        st["mud"][key] = st["mud"].get(key, 0) + 1
        events.append(
            Event(msg("{p} takes the shortcut and sprays mud: that corner's limit drops by 1.", p=seat_ref(seat)))
        )
    elif tok in ("gear", "brake", "coast"):  # one bag: a crash token drawn here damages as well
        damage(st["cars"][seat], tok)
        events.append(Event(msg("{p} takes the shortcut: {kind} damage.", p=seat_ref(seat), kind=msg(tok))))
    else:
        events.append(Event(msg("{p} takes the shortcut: OK!", p=seat_ref(seat))))


def check_finish(st: dict, seat: int, events: list[Event]) -> bool:
    """Whether the car has crossed the finish line (it then leaves the track)."""
    car = st["cars"][seat]
    if B.stage(st["stage"]).spaces[car["sp"]].finish:
        car["fin"] = True
        car["track"] = False
        events.append(Event(msg("{p} crosses the finish line.", p=seat_ref(seat))))
        return True
    return False


def _end_in(st: dict, seat: int, gear: int, events: list[Event]) -> None:
    """After a time card: the next driver, or the spare tyre's question after gear 1."""
    car = st["cars"][seat]
    if check_finish(st, seat, events):
        rounds.next_turn(st, events)
        return
    if gear == 1 and car["spare"] and any(car["dmg"].values()):
        st["phase"] = "spare"
        return
    rounds.next_turn(st, events)


def end_normal(st: dict, seat: int, step: list, events: list[Event]) -> None:
    """The turn ends without a loss of control: a time card of the last die's gear."""
    car = st["cars"][seat]
    stage = B.stage(st["stage"])
    gear = step[2]
    card(st, gear)
    secs = R.rules().time[gear]
    car["cards"].append([gear, secs, "time"])
    sp = stage.spaces[car["sp"]]
    if sp.water and not (step[0] in ("c", "g1")):
        events.append(Event(msg("{p} hits the water: the turn ends.", p=seat_ref(seat))))
    events.append(Event(msg("{p} ends in gear {gear}: +{secs} s.", p=seat_ref(seat), gear=gear, secs=secs)))
    _end_in(st, seat, gear, events)


def lose_control(st: dict, seat: int, step: list, events: list[Event]) -> None:
    """A loss of control in the step's gear: the time card's back says SISU (saved), spin or crash."""
    car = st["cars"][seat]
    gear = step[2]
    back = card(st, gear)
    ru = R.rules()
    if back == "sisu":
        car["cards"].append([gear, ru.time[gear], "sisu"])
        events.append(
            Event(
                msg(
                    "{p} loses control in gear {gear}... SISU! Saved: +{secs} s.",
                    p=seat_ref(seat),
                    gear=gear,
                    secs=ru.time[gear],
                )
            )
        )
        _end_in(st, seat, gear, events)
        return
    car["cards"].append([gear, ru.loss_time, back])
    car["gear"] = 0
    car["side"] = False
    if back == "spin":
        events.append(
            Event(
                msg(
                    "{p} loses control in gear {gear} and spins: +{secs} s.",
                    p=seat_ref(seat),
                    gear=gear,
                    secs=ru.loss_time,
                )
            )
        )
    else:
        _crash(st, seat, gear, events)
    check_finish(st, seat, events)
    rounds.next_turn(st, events)


def _crash(st: dict, seat: int, gear: int, events: list[Event]) -> None:
    car = st["cars"][seat]
    n = R.crash_tokens(gear, B.stage(st["stage"]).spaces[car["sp"]].danger)
    got = []
    for _ in range(n):
        tok = draw(st)
        if tok is None:
            break
        got.append(tok)
        if tok in ("gear", "brake", "coast"):  # designed: "OK!" and mud are shortcut results, no damage
            damage(car, tok)
    car["track"] = False  # a crashed car does not block the track
    events.append(
        Event(
            msg(
                "{p} loses control in gear {gear} and crashes: +{secs} s, damage: {tokens}.",
                p=seat_ref(seat),
                gear=gear,
                secs=R.rules().loss_time,
                tokens=[msg(t) for t in got] or msg("none"),
            )
        )
    )


def pass_turn(st: dict, seat: int, events: list[Event]) -> None:
    """A car with no legal move stays put and takes a time card of its gear (or the pass seconds)."""
    rounds.mark_round(st, events)
    car = st["cars"][seat]
    ru = R.rules()
    secs = ru.time[car["gear"]] if car["gear"] >= 1 else ru.pass_seconds
    car["cards"].append([car["gear"], secs, "pass"])
    events.append(Event(msg("{p} cannot move and stays put ({secs} s).", p=seat_ref(seat), secs=secs)))
    rounds.next_turn(st, events)


def fit_spare(st: dict, seat: int, kind: str, events: list[Event]) -> None:
    """The spare tyre: one damaged die back, seconds on the clock, the car off the lane till its next turn."""
    car = st["cars"][seat]
    car["dmg"][kind] -= 1
    car["tokens"].remove(kind)
    car["spare"] = False
    secs = R.rules().spare_seconds
    car["cards"].append([0, secs, "spare"])
    car["track"] = False  # off the lane until the next turn, which starts in gear 0
    car["gear"] = 0
    events.append(
        Event(
            msg("{p} fits the spare tyre: one {kind} die back, +{secs} s.", p=seat_ref(seat), kind=msg(kind), secs=secs)
        )
    )
    rounds.next_turn(st, events)
