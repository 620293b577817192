"""The race's flow (seed 3.3-3.4, 17): rounds, turns in position-track order, a turn's end and
its one line in the log, a bot's turn, what follows a fight, the safety car (10.2)."""

from __future__ import annotations

from typing import Any

import bot.games.pole.bots as BOTS
import bot.games.pole.drivers as DRIVERS
import bot.games.pole.events as EVENTS
import bot.games.pole.rules as R
import bot.games.pole.standin as STANDIN
import bot.games.pole.variants as VARIANTS
import bot.games.pole.driving as DRIVE
import bot.games.pole.fights as FIGHTS
import bot.games.pole.views as VIEWS
from bot.games.base import Event, State
from bot.games.pole.common import START_ROUNDS, car_name, face_value, log, roll, running, tyre_name, weather_name
from bot.games.pole.content import circuits, rules
from bot.games.rng import Rng
from bot.i18n import from_wire, msg


def new_round(st: State, rng: Rng, ev: list[Event]) -> None:
    if setup_round(st, rng, ev):
        next_turn(st, rng, ev)


def setup_round(st: State, rng: Rng, ev: list[Event]) -> bool:
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
            log(
                st,
                ev,
                msg("Round {n}: cloud; the weather changes to {w}.", n=st["round"], w=weather_name(now))
                if moved and now != before
                else msg("Round {n}: cloud, the forecast moves on.", n=st["round"]),
            )
        else:
            log(st, ev, msg("Round {n}: no change in the weather.", n=st["round"]))
    else:
        log(st, ev, msg("Race start, round {n}.", n=st["round"]))
    EVENTS.round_start(st, rng, ev, face, w0)  # 9: a "!" may reveal an event
    return True


def next_turn(st: State, rng: Rng, ev: list[Event]) -> None:
    STANDIN.settle(st, ev)  # a car given back during its bot's turn
    while True:
        if st.get("sc_due"):  # 10.2: the turn is interrupted; the race restarts behind the SC
            tell(st, ev)
            st["turn"] = None
            if not sc_start(st, rng, ev):
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
            if not setup_round(st, rng, ev):
                return
            continue
        seat = st["queue"].pop(0)
        if begin_turn(st, rng, ev, seat):
            return


def _new_turn(car: dict[str, Any], seat: int, die: str, face: Any, *, pit_exit: bool, green: int) -> dict[str, Any]:
    """A fresh turn record for `seat` after its first roll `face` of `die`."""
    return {
        "seat": seat,
        "die": die,
        "rolls": [face],
        "use": 0,
        "reduce": 0,
        "pit_exit": pit_exit,
        "green": green,
        "start_pos": list(car["pos"]),
        "start_laps": car["laps"],
        "fought": [],
        "won": [],
        "ms": None,
        "opts": None,
        "stage": "move",
        "cost": [0, 0, 0],
    }


def begin_turn(st: State, rng: Rng, ev: list[Event], seat: int) -> bool:
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
        DRIVE.slide(st, ev, seat, rules()["course_out_cells"])
        car["off"] = 2
        log(st, ev, msg("{p} comes back onto the track.", p=car_name(st, seat)))
        DRIVE.last_lap_without_stop(st, ev, seat, before)
        DRIVE.after_move(st, rng, ev, seat, moved_from=None)
        return False
    if car["pit_turn"] in (1, 2):  # 7.2, 7.3: the green exit cells, nothing else
        car["pos"] = ["g", car["pit_turn"] - 1]
        car["pit_turn"] += 1
        log(st, ev, msg("{p} waits on pit exit cell {i}.", p=car_name(st, seat), i=car["pos"][1] + 1))
        DRIVE.reorder(st)
        return False
    if car.get("bot"):
        return bot_turn(st, rng, ev, seat)
    start = st["round"] <= START_ROUNDS
    if car["pit_turn"] == 3:  # 7.4: purple die plus the green counter
        face = roll(rng, "purple")
        car["pit_turn"] = 0
        turn = _new_turn(car, seat, "purple", face, pit_exit=True, green=car["green"])
        car["green"] = 0
    else:
        die = "purple" if start else rules()["tyres"][car["tyre"]]["die"]
        turn = _new_turn(car, seat, die, roll(rng, die), pit_exit=False, green=0)
    if sc_turn:
        turn["sc_turn"] = True
    if nodrs:
        turn["nodrs"] = True
    turn["story"], turn["sp_paid"] = [], 0
    st["turn"] = turn
    if car.get("drs"):  # 11: the token is for this turn only, on the tyre die, never in the rain
        car["drs"] = False
        if turn["die"] != "purple" and not DRIVE.rain(st):
            turn["drs"] = DRIVERS.drs_mp(st, seat)
            log(st, ev, msg("{p} has DRS: up to {n} more MP.", p=car_name(st, seat), n=turn["drs"]))
    DRIVE.plan(st)
    return True


def end_turn(st: State, rng: Rng, ev: list[Event]) -> None:
    tell(st, ev)
    st["turn"] = None
    next_turn(st, rng, ev)


def tell(st: State, ev: list[Event]) -> None:
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
        head = (
            msg("{p} rolls {r} in the rain: {n} cells", p=p, r=rolls[0], n=t["n"])
            if t.get("rain")
            else msg("{p} drives {n} cells", p=p, n=t["n"])
        )
    elif t["pit_exit"]:
        head = msg("{p} leaves the pits: rolls {r}, {g} MP kept", p=p, r=rolls[t["use"]], g=t["green"])
    elif len(rolls) == 1:
        head = msg("{p} rolls {r}", p=p, r=rolls[0])
    else:
        head = msg("{p} rolls {rolls} and uses {r}", p=p, rolls=rolls, r=rolls[t["use"]])
    where = VIEWS.car_place(car)
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


def finish_move(st: State, rng: Rng, ev: list[Event], ms: dict, kind: str, end: bool = True) -> None:
    """The car stops at ms: pay, wear, checks (low grip, blow-out), then the turn ends."""
    t = st["turn"]
    seat = t["seat"]
    car = st["cars"][seat]
    c = circuits()[st["circuit"]]
    run0 = running(st)
    lead0 = run0[0] if run0 else None  # the leader before this move (12.2)
    DRIVE.charge(st, ms)
    before = t["start_laps"]  # a fight's pass may already have moved the car on
    DRIVE.set_pos(st, seat, ms)
    w = R.weather_now(st["weather"], c)
    if kind == "pit":
        car["laps"] = before + 1
        car["pos"] = ["pit"]
        car["green"] = max(0, t["n"] - ms["t"]) if ms["mode"] >= 1 else t["n"]
        log(st, ev, msg("{p} pits ({g} MP kept).", p=car_name(st, seat), g=car["green"]))
        car["life"] = DRIVE.wear(car, w)  # the stop wears like a crossing (7.1)
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
        DRIVE.reorder(st)
        run = running(st)
        if run and run[0] == seat:  # 5.6: a car caught on the way in (none already in the pits)
            DRIVE.lapping(st, ev, seat, R.prog(c, car["laps"], car["pos"]))
        if seat == lead0:
            DRIVE.stress(st, ev, seat)  # 12.2: the leader pits
        return
    crossed = car["laps"] - before
    if crossed:
        DRIVE.crossings(st, seat, before, car["laps"], ev if kind != "finish" else None)
        if st["options"].get("stress") and lead0 is not None:
            if seat == lead0:
                DRIVE.stress(st, ev, seat)  # 12.2: the leader crosses the finish line
            elif st["cars"][lead0]["pos"][0] in ("pin", "pit", "g", "pout"):
                DRIVE.stress(st, ev, lead0)  # 12.2: a car crossing the line passes the leader in the pits
    if kind == "finish":
        if run0 and all(s == seat or R.order_key(c, st["cars"][s]) < R.order_key(c, car) for s in run0):
            DRIVE.lapping(st, ev, seat, R.prog(c, car["laps"], car["pos"]))  # 5.6: at the flag too
        car["finished"] = len(st["finish"]) + 1
        car["fin_round"] = st["round"]  # for the results' gaps
        car["pos"] = ["done"]
        st["finish"].append(seat)
        log(st, ev, msg("{p} takes the chequered flag in P{n}.", p=car_name(st, seat), n=car["finished"]))
    elif car["out"] is None and not DRIVE.last_lap_without_stop(st, ev, seat, before):
        DRIVE.checks_after_move(st, rng, ev, seat)
        if st["options"].get("drs") and not t.get("bot"):
            DRIVE.drs_check(st, ev, seat)
    DRIVE.after_move(st, rng, ev, seat, None)
    if st["options"].get("stress") and car["out"] is None and car["finished"] is None:
        run = running(st)
        if len(run) > 1 and run[1] == seat and DRIVE.one_mp_behind(st, seat, run[0]):
            DRIVE.stress(st, ev, run[0])  # 12.2: a car ends its move 1 MP behind the leader
    if end:
        end_turn(st, rng, ev)
    else:  # a bot's turn: the caller goes on with the next turn (no recursion per turn)
        tell(st, ev)
        st["turn"] = None


def bot_turn(st: State, rng: Rng, ev: list[Event], seat: int, face: Any = None) -> bool:
    """Play a bot's turn (its card says how far it goes); True when it waits on a human
    defender's answer. `face`: a purple roll already made this turn (a bot took the seat)."""
    car = st["cars"][seat]
    b = car["bot"]
    c = circuits()[st["circuit"]]
    w = R.weather_now(st["weather"], c)
    base = {
        "seat": seat,
        "use": 0,
        "reduce": 0,
        "pit_exit": False,
        "green": 0,
        "start_pos": list(car["pos"]),
        "start_laps": car["laps"],
        "fought": [],
        "won": [],
        "ms": None,
        "opts": None,
        "stage": "move",
        "cost": [0, 0, 0],
        "bot": True,
        "story": [],
    }
    if car["pit_turn"] == 3:  # 17.10: the purple die plus the green counter, as for a player
        face = roll(rng, "purple") if face is None else face
        car["pit_turn"] = 0
        turn = dict(
            base, die="purple", rolls=[face], pit_exit=True, green=car["green"], n=face_value(face) + car["green"]
        )
        car["green"] = 0
    elif st["round"] <= START_ROUNDS:  # 17.5.1: the purple die at the start
        face = roll(rng, "purple") if face is None else face
        turn = dict(base, die="purple", rolls=[face], n=face_value(face))
    elif w in R.RAIN and car["tyre"] != "wet" and car["pos"][0] == "t":  # 17.11: the rain roll
        r = roll(rng, "black")
        if not BOTS.stays_on(r, car["tyre"], w):
            log(st, ev, msg("{p} rolls {r} in the rain.", p=car_name(st, seat), r=r))
            st["turn"] = None
            DRIVE.go_off(st, ev, seat)
            DRIVE.after_move(st, rng, ev, seat, None)
            return False
        n = BOTS.rain_cells(w)
        turn = dict(base, die="bot", rolls=[r], n=n, rain=True)
    else:  # 17.5.2: base speed of the tyre + the progression track, less the wear penalty
        n = BOTS.mp(seat, b["side"], b["prog"], car["tyre"], w, car["life"])
        turn = dict(base, die="bot", rolls=[n], n=n)
    st["turn"] = turn
    return bot_go(st, rng, ev)


def bot_go(st: State, rng: Rng, ev: list[Event]) -> bool:
    """Move the bot from where it is to the end of its turn; True when a human defender must
    answer first (the move goes on after the answer)."""
    while True:
        t = st["turn"]
        seat = t["seat"]
        car = st["cars"][seat]
        o = DRIVE.bot_pick(st, rng, ev)
        if o is None:  # nowhere to go: it stays
            cur = t["ms"] or {
                "pos": list(car["pos"]),
                "laps": car["laps"],
                "mode": 0,
                "t": 0,
                "b": 0,
                "k": 0,
                "s": 0,
                "line": list(car["line"]),
                "slip": -1,
            }
            finish_move(st, rng, ev, cur, "end", end=False)
            return False
        if o.kind == "fight":
            od = {
                "kind": "fight",
                "pos": list(o.state.pos),
                "laps": o.state.laps,
                "def": list(o.defenders),
                "free": list(o.free),
                "ms": DRIVE.ms_data(o.state),
                "step": DRIVE.ms_data(o.step),
                "unused": t["n"] - o.state.t,
                "ep": 0,
                "bp": 0,
                "sp": 0,
            }
            DRIVE.set_pos(st, seat, od["ms"])
            t["ms"] = od["ms"]
            t["fight"] = {"opt": od, "i": 0, "rolls": None, "answer": None, "fights": False}
            res = FIGHTS.fight(st, rng, ev)
            if res == "ask":
                return True
            if not bot_after_fight(st, rng, ev, res):
                return False
            continue
        finish_move(st, rng, ev, DRIVE.ms_data(o.state), o.kind, end=False)
        if o.kind == "pit":  # 17.9.2: the new set
            c = circuits()[st["circuit"]]
            steps, future = BOTS.weather_steps(st["weather"], c)
            tyre = BOTS.new_tyre(steps, R.weather_now(st["weather"], c), future, car["bot"]["soft"])
            car["sets"][car["tyre"]].pop()  # no tyre box to keep: a bot's sets are always new (17.2)
            DRIVE.bot_fit(car, tyre)
            car["bot"]["pit"] = False
            log(st, ev, msg("{p} fits {t} tyres.", p=car_name(st, seat), t=tyre_name(tyre)))
            tell(st, ev)
            st["turn"] = None
        return False


def bot_after_fight(st: State, rng: Rng, ev: list[Event], result: str) -> bool:
    """After a bot's fight: True when it drives on with the MP left (17.6)."""
    t = st["turn"]
    o = t.pop("fight")["opt"]
    t["stage"] = "move"
    seat = t["seat"]
    c = circuits()[st["circuit"]]
    if result == "lost":  # it stays where it stopped and loses the MP left (5)
        t["ms"] = o["ms"]
        finish_move(st, rng, ev, o["ms"], "end", end=False)
        return False
    step = dict(o["step"])
    if step["pos"][0] == "t" and step["laps"] >= c.laps:
        finish_move(st, rng, ev, step, "finish", end=False)
        return False
    d_pos = st["cars"][o["def"][-1]]["pos"]
    if d_pos[0] == "t" and step["pos"][0] == "t" and R.is_straight(c, step["pos"][1]) and d_pos[2] != step["pos"][2]:
        step["slip"] = d_pos[2]  # after the pass: diagonally into its lane (5.2.1)
    t["ms"] = step
    DRIVE.set_pos(st, seat, step)
    DRIVE.reorder_with_won(st)
    return True


def sc_start(st: State, rng: Rng, ev: list[Event]) -> bool:
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
    log(
        st,
        ev,
        msg(
            "Safety car weather rolls: {faces}; weather {w}.",
            faces=", ".join(map(str, faces)),
            w=weather_name(R.weather_now(st["weather"], c)),
        ),
    )
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
        DRIVE.reorder(st)
        st["phase"] = "over"
        st["queue"] = []
        log(st, ev, msg("The lap counter passes the race's laps: the race ends in this order."))
        return True
    for s in run:
        car = st["cars"][s]
        if queue_lap > car["laps"]:
            DRIVE.crossings(st, s, car["laps"], queue_lap)
    st["sc"] = {
        "order": list(run),
        "i": 0,
        "pit": {},
        "causers": [x for x in run if x in due["causers"]],
        "lap": queue_lap,
    }
    return sc_decide(st, rng, ev)


def sc_decide(st: State, rng: Rng, ev: list[Event]) -> bool:
    sc = st["sc"]
    c = circuits()[st["circuit"]]
    while sc["i"] < len(sc["order"]):
        s = sc["order"][sc["i"]]
        car = st["cars"][s]
        if car.get("bot") and str(s) not in sc["pit"]:
            steps, future = BOTS.weather_steps(st["weather"], c)
            must = not car["pitted"] and sc["lap"] >= c.laps - 2
            sc["pit"][str(s)] = bool(
                must
                or BOTS.wants_pit(
                    car["life"], car["tyre"], R.weather_now(st["weather"], c), steps, future, lambda: roll(rng, "black")
                )
            )
            if sc["pit"][str(s)]:
                sc["pit"][str(s)] = BOTS.new_tyre(steps, R.weather_now(st["weather"], c), future, car["bot"]["soft"])
        if str(s) not in sc["pit"]:
            return False
        choice = sc["pit"][str(s)]
        if choice:
            sc_pit(st, ev, s, choice)
        else:
            log(st, ev, msg("{p} stays out.", p=car_name(st, s)))
        sc["i"] += 1
    sc_line_up(st, ev)
    return True


def sc_pit(st: State, ev: list[Event], seat: int, tyre: str) -> None:
    """A stop under the safety car (7.1 steps 2-5): wear, SP, repairs, new tyres; the car then
    joins the back of the line (reading: it needs no pit-exit turns, the field is queued)."""
    car = st["cars"][seat]
    w = R.weather_now(st["weather"], circuits()[st["circuit"]])
    car["life"] = DRIVE.wear(car, w)
    if car.get("bot"):
        DRIVE.bot_fit(car, tyre)
    else:
        car["sets"][car["tyre"]].append(car["life"])
        car["sp"] = min(car["sp0"], car["sp"] + rules()["pit_sp_regain"])
        DRIVE.fit(car, tyre)
        DRIVERS.at_pit(st, ev, seat)
    car["bd"] = [[k, True] for k, _ in car["bd"]]
    car["blown"] = False
    car["pitted"] = True
    VARIANTS.pitted(car)
    log(st, ev, msg("{p} pits under the safety car and fits {t} tyres.", p=car_name(st, seat), t=tyre_name(tyre)))


def sc_line_up(st: State, ev: list[Event]) -> None:
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
        car.update(
            pos=["t", row, 1 if 1 in lanes else lanes[0]],
            laps=laps,
            line=[],
            off=0,
            pit_turn=0,
            green=0,
            drs=False,
            sc_turn=True,
        )
        car.pop("nodrs", None)
    st["order"] = list(st["finish"]) + line + [s for s in st["order"] if st["cars"][s]["out"] is not None]
    log(st, ev, msg("Behind the safety car: {cars}.", cars=[car_name(st, s) for s in line]))
    for s in line:
        if sc["lap"] == c.laps - 1:
            DRIVE.last_lap_without_stop(st, ev, s, sc["lap"] - 1)
    st["queue"] = []  # the interrupted round is over: the next one starts from the new order
    DRIVE.reorder(st)


def after_fight(st: State, rng: Rng, ev: list[Event], result: str) -> None:
    t = st["turn"]
    if result == "ask":
        return
    if t.get("bot"):  # a human defender has answered a bot: the bot drives on
        if bot_after_fight(st, rng, ev, result) and bot_go(st, rng, ev):
            return
        end_turn(st, rng, ev)
        return
    o = t.pop("fight")["opt"]
    t["stage"] = "move"
    seat = t["seat"]
    if result == "lost":  # the attacker stays where it stopped and loses the MP left (5)
        t["ms"] = o["ms"]
        finish_move(st, rng, ev, o["ms"], "end")
        return
    step = dict(o["step"])
    d_pos = st["cars"][o["def"][-1]]["pos"]
    c = circuits()[st["circuit"]]
    if step["pos"][0] == "t" and step["laps"] >= c.laps:  # the pass crossed the line: finished
        finish_move(st, rng, ev, step, "finish")
        return
    if d_pos[0] == "t" and step["pos"][0] == "t" and R.is_straight(c, step["pos"][1]) and d_pos[2] != step["pos"][2]:
        step["slip"] = d_pos[2]  # after the pass: diagonally into its lane (5.2.1)
    t["ms"] = step
    DRIVE.set_pos(st, seat, step)
    DRIVE.reorder_with_won(st)
    DRIVE.plan(st)
    if not t["opts"]:
        finish_move(st, rng, ev, step, "end")
