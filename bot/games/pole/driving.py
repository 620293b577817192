"""A car on the track (seed 4-8): the turn's roll and the cells it reaches (the options a player
picks from), paying for a move, wear and lap crossings, the order on the position track, going
off the track, stress, DRS, and the move a section-17 bot picks. Plain functions over the state."""

from __future__ import annotations

from typing import Any

import bot.games.pole.bots as BOTS
import bot.games.pole.championship as CHAMP
import bot.games.pole.drivers as DRIVERS
import bot.games.pole.rules as R
import bot.games.pole.variants as VARIANTS
from bot.games.base import Event, State
from bot.games.pole.common import START_ROUNDS, car_name, face_value, log, roll, running, tyre_name
from bot.games.pole.content import circuits, rules
from bot.games.rng import Rng
from bot.i18n import msg


def bot_fit(car: dict, tyre: str) -> None:
    """17.2: a bot has one soft set and as many others as it needs, always new."""
    car["tyre"] = tyre
    car["life"] = BOTS.life_of(tyre)
    if tyre == "soft":
        car["bot"]["soft"] = False
        if car["bot"].get("for") and car["sets"]["soft"]:  # a stand-in's one soft set is the box's
            car["sets"]["soft"].remove(max(car["sets"]["soft"]))


def fit(car: dict, tyre: str) -> None:
    lives = car["sets"][tyre]
    i = max(range(len(lives)), key=lambda j: lives[j])
    car["life"] = lives.pop(i)
    car["tyre"] = tyre


def rain(st: State) -> bool:
    return R.weather_now(st["weather"], circuits()[st["circuit"]]) in R.RAIN


def roll_value(st: State) -> int:
    t = st["turn"]
    return face_value(t["rolls"][t["use"]]) if t["die"] == "purple" else int(t["rolls"][t["use"]])


def course_out_due(st: State) -> bool:
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
    return lim is not None and roll_value(st) - t["reduce"] >= lim


def mp(st: State) -> int:
    t = st["turn"]
    car = st["cars"][t["seat"]]
    v = roll_value(st) - t["reduce"]
    if t["pit_exit"]:
        return v + t["green"] + DRIVERS.exit_bonus(st, t["seat"])  # teams: more MP at the pit exit
    if t["die"] == "purple":
        return v + DRIVERS.start_bonus(st, t["seat"])  # the Rocket: +1 at the start
    heavy = sum(1 for k, rep in car["bd"] if k == "heavy" and not rep)
    sc = DRIVERS.after_sc_bonus(st, t["seat"]) if t.get("sc_turn") else 0
    return max(0, v - R.tyre_penalty(car["life"]) - heavy - t.get("calm", 0)) + sc


def move_ctx(st: State, seat: int) -> R.MoveCtx:
    c = circuits()[st["circuit"]]
    car = st["cars"][seat]
    # rear first on the position track: cars side by side are fought in that order (5.4 B)
    others = tuple(
        (s, st["cars"][s]["laps"], tuple(st["cars"][s]["pos"]), st["cars"][s]["off"])
        for s in reversed(st["order"])
        if s != seat
        and st["cars"][s]["out"] is None
        and st["cars"][s]["finished"] is None
        and st["cars"][s]["pos"] is not None
    )
    idx = st["order"].index(seat)
    ahead = frozenset(st["order"][idx + 1 :]) | frozenset(st["turn"]["won"] if st["turn"] else [])
    t = st["turn"]
    cost = t["cost"] if t else [0, 0, 0]
    fl = st.get("flag")
    lv = car.get("stress", 0)
    bcap, kcap = DRIVERS.caps(st, seat, rain(st))
    return R.MoveCtx(
        c,
        rain(st),
        st["round"] <= START_ROUNDS,
        c.laps - 1,
        others,
        ahead,
        0 if lv >= 4 else car["ep"],
        0 if lv >= 4 else car["bp"],
        0 if lv >= 5 else car["sp"] - cost[2],
        c.corners[0].first,
        c.laps,
        no_pass=frozenset(fl["rows"]) if fl else frozenset(),
        bcap=bcap,
        kcap=kcap,
        no_technical=DRIVERS.no_technical(st, seat),
        sp_double=DRIVERS.sp_double(st, seat),
    )


def plan(st: State) -> None:
    """Compute the move options for the turn's current state (stored so replays agree)."""
    t = st["turn"]
    seat = t["seat"]
    car = st["cars"][seat]
    if course_out_due(st):
        t["opts"] = []
        return
    ctx = move_ctx(st, seat)
    if t["ms"] is None:
        n = mp(st) + t.get("drs", 0) + t.get("bonus", 0)  # DRS, tokens: up to, the least unchanged
        ms = R.MState(tuple(car["pos"]), car["laps"], 0, 0, 0, 0, 0, tuple(car["line"]), -1)
        t["n"] = n
    else:
        d = t["ms"]
        ms = R.MState(
            tuple(d["pos"]), d["laps"], d["mode"], d["t"], d["b"], d["k"], d["s"], tuple(d["line"]), d["slip"]
        )
    n = t["n"]
    # 4: up to 3 cells fewer than the roll may be counted; 3.3 "各ラウンドでは、すべての車を移動させる
    # 必要があります": never none, so the least count is 1, and a move must not end where it began.
    least = max(1 if n > 0 else 0, n - 3 - t.get("drs", 0) - t.get("bonus", 0))
    opts = R.search(ctx, ms, n, least, frozenset(t["fought"]), paths=False)  # the menu reads no paths
    if not opts and ctx.no_pass:  # held behind a car between the flags: it stops short (10.1)
        opts = R.search(ctx, ms, n, 0, frozenset(t["fought"]), paths=False)
    here = (ms.pos, ms.laps) if t["ms"] is None else None
    t["opts"] = CHAMP.restrict(st, VARIANTS.restrict(st, choose_opts(st, opts, ctx, here)))


MENU_MAX = 25  # a Discord select's most options
FREE_KEPT = 12  # the moves that cost nothing keep at least so many of them
# From rules_version 4 the moves that cost points are kept each way of paying first (before, the
# furthest alone: mostly a boost and a brake together, so a move paying a single EP or BP, the rules'
# usual way to gain a cell, 4.4-4.5, was missing from about half the menus that had points to spend).
EVERY_WAY_TO_PAY = 4


def choose_opts(st: State, opts: list, ctx: R.MoveCtx, not_at: tuple | None = None) -> list[dict]:
    """The turn's menu entries from a search's options: the cheapest way to each place (and to each
    fight's die modifier), at most 25 of them. `not_at`: the cell and laps where a fresh move
    begins, so no move may end there (3.3)."""
    c = circuits()[st["circuit"]]
    seat = st["turn"]["seat"]
    bcap, kcap = DRIVERS.caps(st, seat, ctx.rain)
    best: dict[tuple, tuple] = {}  # where -> (score, option, cost): the option's entry made once chosen
    stressed = st["cars"][seat].get("stress", 0) >= 2
    sp_cost: dict[int, int] = {}
    n = st["turn"]["n"]
    costs: dict[tuple, tuple] = {}  # (mode, t, b, k, s) -> what the counts cost: many options share them
    for o in opts:
        ms, kind, defenders, _, step, _ = o
        if kind == "end":  # an end has no defenders: its place is its cell and laps
            key: tuple = ms[:2]
            if key == not_at:
                continue  # a fresh move must not end where it began
        ck = ms[2:7]
        cost = costs.get(ck)
        if cost is None:
            spc = sp_cost.get(ms.s)
            if spc is None:
                spc = sp_cost[ms.s] = DRIVERS.sp_cost(st, seat, ms.s)
            cost = costs[ck] = _counts_cost(ms, n, bcap, kcap, spc, stressed)
        if cost[5]:
            continue  # 12.1 level 2: not both EP and BP in one turn
        if kind == "fight":
            # a fight reached with more MP left gets a better die modifier (5.1): keep the cheapest
            # way to each modifier (the seed's example boosts first to attack with 3 MP left)
            key = ("fight", ms.pos, step.laps, defenders, R.unused_mp_modifier(cost[3]))
        elif kind != "end":
            key = (kind, ms.pos, ms.laps, defenders)
        old = best.get(key)
        if old is None or cost[4] < old[0]:  # the same place for fewer MP keeps more
            best[key] = (cost[4], o, cost)
    # Each place's entry: sorted by what it shows (progress, cost, kind, cell), and made only if kept.
    rows = []
    for entry in best.values():
        score, o, cost = entry
        fin = o.step if o.kind == "fight" else o.state
        pos = o.state.pos if o.kind == "fight" else fin.pos
        rows.append((-R.prog(c, fin.laps, list(fin.pos)), score, o.kind, pos, score[0], entry))
    rows.sort(key=lambda r: r[:4])
    # At most 25 entries: fights, the pit and the flag first, then the moves that cost
    # nothing (the furthest first), then those that cost points.
    keep = [r for r in rows if r[2] != "end"][:6]
    free = [r for r in rows if r[2] == "end" and r[4] == 0]
    paid = [r for r in rows if r[2] == "end" and r[4] > 0]
    if st.get("rules_version", 0) >= EVERY_WAY_TO_PAY:
        paid = _each_way_to_pay(paid)
    ends = free[: max(FREE_KEPT, MENU_MAX - len(keep) - len(paid))]
    ends += paid[: MENU_MAX - len(keep) - len(ends)]
    return [_option_entry(st, c, r[5]) for r in sorted(keep + ends, key=lambda r: (r[0], r[2], r[3], r[4]))]


def _each_way_to_pay(paid: list) -> list:
    """The paid moves (furthest first) in the order the menu keeps them: the furthest of all, then
    the furthest place for each way of paying (SP, EP, BP), the cheapest way first, then the rest,
    furthest first."""
    seen: set[tuple] = set()
    firsts: list = []
    rest: list = []
    for r in paid:
        way = r[1][1:4]  # the ranking score's (SP, EP, BP)
        (rest if way in seen else firsts).append(r)
        seen.add(way)
    return firsts[:1] + sorted(firsts[1:], key=lambda r: (r[4], r[0])) + rest


def _counts_cost(ms: R.MState, n: int, bcap: int, kcap: int, spc: int, stressed: bool) -> tuple:
    """What an option's counts cost (spc: the SP for its corner cells): (EP, BP, SP, unused MP, the
    score that ranks ways to the same place (points, SP, EP, BP, tyre MP), whether stress level 2
    rules it out: not both EP and BP in one turn, 12.1)."""
    ep, bp = R.extra_cost(ms.b, bcap), R.extra_cost(ms.k, kcap)
    return (ep, bp, spc, unused_mp(n, ms, bcap), (ep + bp + spc, spc, ep, bp, ms.t), bool(ep and bp and stressed))


def _option_entry(st: State, c: Any, chosen: tuple) -> dict:
    """A kept option as the turn stores it (what the menu, the move and the bots read)."""
    score, o, (ep, bp, spc, unused, _, _) = chosen
    fin = o.step if o.kind == "fight" else o.state
    ms = o.state
    return {
        "kind": o.kind,
        "pos": list(ms.pos if o.kind == "fight" else fin.pos),
        "laps": fin.laps,
        "ep": ep,
        "bp": bp,
        "sp": spc,
        "def": list(o.defenders),
        "free": list(o.free),
        "ms": ms_data(ms),
        "step": ms_data(o.step) if o.step else None,
        "unused": unused,
        "prog": R.prog(c, fin.laps, list(fin.pos)),
        "risk": o.kind == "end" and low_grip_risk(st, fin.pos),
    }


def low_grip_risk(st: State, pos) -> bool:
    """Ending here means the low-grip roll (4.6 B): shown in the option's label."""
    t = st["turn"]
    c = circuits()[st["circuit"]]
    if t["die"] == "purple" or pos[0] != "t" or (pos[1], pos[2]) not in c.low_grip:
        return False
    w = R.weather_now(st["weather"], c)
    lim = R.low_grip_limit(st["cars"][t["seat"]]["tyre"], w) if w in R.RAIN else None
    return lim is not None and roll_value(st) - t["reduce"] >= lim


def low_grip_roll_due(st: State) -> bool:
    """Whether the roll, as it stands, would call for the low-grip check on this circuit now:
    the only use of lowering it besides avoiding a course-out (4.6.1, example 4)."""
    c = circuits()[st["circuit"]]
    w = R.weather_now(st["weather"], c)
    if not c.low_grip or w not in R.RAIN:
        return False
    lim = R.low_grip_limit(st["cars"][st["turn"]["seat"]]["tyre"], w)
    return lim is not None and roll_value(st) - st["turn"]["reduce"] >= lim


def charge(st: State, ms: dict) -> None:
    """Pay what the move used so far: EP/BP for boost/brake cells, SP for corner cells."""
    t = st["turn"]
    if t.get("bot"):  # bots have no points to pay (17): a stand-in's move already paid its own
        return
    car = st["cars"][t["seat"]]
    bcap, kcap = DRIVERS.caps(st, t["seat"], rain(st))
    ep, bp, sp = R.extra_cost(ms["b"], bcap), R.extra_cost(ms["k"], kcap), DRIVERS.sp_cost(st, t["seat"], ms["s"])
    car["ep"] -= ep - t["cost"][0]
    car["bp"] -= bp - t["cost"][1]
    car["sp"] -= sp - t["cost"][2]
    t["cost"] = [ep, bp, sp]


def set_pos(st: State, seat: int, ms: dict) -> None:
    car = st["cars"][seat]
    before = car["laps"]
    car["pos"] = list(ms["pos"])
    car["laps"] = ms["laps"]
    car["line"] = list(ms["line"])
    return before


def slide(st: State, ev: list[Event], seat: int, cells: int) -> None:
    """A car off the track goes `cells` cells straight on in its lane (designed: the seed
    says only "4 cells"): it is off the track, so it passes other cars, but it stops on the
    furthest free cell (its own lane first, then the others of that row), never on a car."""
    c = circuits()[st["circuit"]]
    car = st["cars"][seat]
    if car["pos"][0] != "t":
        return
    occupied = {
        (o["laps"], tuple(o["pos"]))
        for s, o in enumerate(st["cars"])
        if s != seat and o["pos"] and o["out"] is None and o["finished"] is None
    }
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
    crossings(st, seat, car["laps"], laps, ev)
    car["pos"] = ["t", row, lane]
    car["laps"] = laps
    car["line"] = []


def wear(car: dict, weather: str) -> int:
    """A crossing's (or a stop's) wear: a bot's card never wears wets (17.7); a player's car a
    bot drives for now keeps the player's tyres and wears them as the player would (reading)."""
    b = car.get("bot")
    if b and not b.get("for"):
        return BOTS.wear(car["life"], car["tyre"], weather)
    return R.wear(car["life"], car["tyre"], weather)


def crossings(st: State, seat: int, before: int, after: int, ev: list[Event] | None = None) -> None:
    """Tyre wear per finish-line crossing (6.2); a new lap allows a new blow-out roll. With
    `ev`, the wear is told (in the turn's line): the tyres' life and, below 0, the roll lost."""
    car = st["cars"][seat]
    w = R.weather_now(st["weather"], circuits()[st["circuit"]])
    for _ in range(after - before):
        car["life"] = wear(car, w)
        car["blow_done"] = False
        if ev is not None and car.get("tyre"):
            k = R.tyre_penalty(car["life"])
            log(
                st,
                ev,
                msg("New lap: {t} tyres, life {n}.", t=tyre_name(car["tyre"]), n=car["life"])
                if not k
                else msg(
                    "New lap: {t} tyres, life {n}: every roll counts {k} less.",
                    t=tyre_name(car["tyre"]),
                    n=car["life"],
                    k=k,
                ),
            )


def reorder(st: State) -> None:
    """The position track: progress along the race, corners ranked by the outer lane, ties on
    straights keep the previous order (sorted() is stable); finished cars lead in finishing
    order, retired cars trail."""
    c = circuits()[st["circuit"]]
    live = [s for s in st["order"] if st["cars"][s]["out"] is None and st["cars"][s]["finished"] is None]
    live.sort(key=lambda s: R.order_key(c, st["cars"][s]), reverse=True)
    outs = [s for s in st["order"] if st["cars"][s]["out"] is not None]
    st["order"] = list(st["finish"]) + live + outs


def after_move(st: State, rng: Rng, ev: list[Event], seat: int, moved_from) -> None:
    c = circuits()[st["circuit"]]
    car = st["cars"][seat]
    reorder(st)
    # lapped cars (5.6): the leader catching a car a lap down retires it
    run = running(st)
    if run and run[0] == seat:
        lapping(st, ev, seat, R.prog(c, car["laps"], car["pos"]))


def lapping(st: State, ev: list[Event], seat: int, lead: float) -> None:
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
    reorder(st)


def checks_after_move(st: State, rng: Rng, ev: list[Event], seat: int) -> None:
    t = st["turn"]
    car = st["cars"][seat]
    c = circuits()[st["circuit"]]
    w = R.weather_now(st["weather"], c)
    if (
        t["die"] not in ("purple", "bot")
        and car["pos"][0] == "t"
        and w in R.RAIN
        and (car["pos"][1], car["pos"][2]) in c.low_grip
    ):
        lim = R.low_grip_limit(car["tyre"], w)
        if lim is not None and roll_value(st) - t["reduce"] >= lim:
            r = roll(rng, "black")  # 4.6 B: a 1 sends the car off
            log(st, ev, msg("{p} ends in a low-grip area and rolls {r}.", p=car_name(st, seat), r=r))
            if r == 1:  # (the low-grip roll)
                car["pos"], car["laps"] = list(t["start_pos"]), t["start_laps"]
                go_off(st, ev, seat)
                return
    if (
        car["life"] <= -2
        and car["tyre"] != "wet"
        and not car["blow_done"]
        and car["pos"][0] == "t"
        and not DRIVERS.no_blowouts(st, seat)
    ):  # Iron Chassis never punctures
        r = roll(rng, "black")  # 6.3 blow-out roll
        log(st, ev, msg("{p} makes a blow-out roll: {r}.", p=car_name(st, seat), r=r))
        if r == 1 and not DRIVERS.use_blow_token(st, ev, seat):
            car["blow_done"] = True
            car["blown"] = True
            VARIANTS.breakdown(st, ev, seat, "heavy")


def go_off(st: State, ev: list[Event], seat: int) -> None:
    car = st["cars"][seat]
    before = car["laps"]
    slide(st, ev, seat, rules()["course_out_cells"])
    car["off"] = 1
    log(st, ev, msg("{p} goes off the track and moves 4 cells.", p=car_name(st, seat)))
    last_lap_without_stop(st, ev, seat, before)


def last_lap_without_stop(st: State, ev: list[Event], seat: int, before: int) -> bool:
    """3.3: a stop is due before the last lap; a car that starts it without one (by any move,
    a slide off the track too) is out."""
    car = st["cars"][seat]
    if car["laps"] > before and car["laps"] == circuits()[st["circuit"]].laps - 1 and not car["pitted"]:
        car["out"] = "no_stop"
        log(st, ev, msg("{p} starts the last lap without a pit stop and is out.", p=car_name(st, seat)))
        return True
    return False


def stress(st: State, ev: list[Event], seat: int) -> None:
    """12.2: one level up, at most once a round, never past 6; bots take none (17.12)."""
    car = st["cars"][seat]
    if (
        not st["options"].get("stress")
        or "stress" not in car
        or car["out"] is not None
        or car["finished"] is not None
        or car.get("stress_r") == st["round"]
        or car["stress"] >= 6
    ):
        return
    car["stress"] += 1
    car["stress_r"] = st["round"]
    log(st, ev, msg("{p}'s stress rises to {n}.", p=car_name(st, seat), n=car["stress"]))


def one_mp_behind(st: State, seat: int, ahead_seat: int) -> bool:
    """One move of the car (a racing-line jump too) would reach the cell of the car ahead."""
    car, ahead = st["cars"][seat], st["cars"][ahead_seat]
    if car["pos"][0] != "t" or ahead["pos"][0] != "t" or st["turn"] is None:
        return False
    ctx = move_ctx(st, seat)
    ms = R.MState(tuple(car["pos"]), car["laps"], 1, 0, 0, 0, 0, tuple(car["line"]), -1)
    return any(npos == tuple(ahead["pos"]) and nl == ahead["laps"] for npos, nl, _, _ in R.single_steps(ctx, ms))


def drs_check(st: State, ev: list[Event], seat: int) -> None:
    """11: a car that crossed the DRS line this move and ended it 1 MP behind the car ahead
    takes the DRS token (not in the rain, not from off the track)."""
    t = st["turn"]
    car = st["cars"][seat]
    c = circuits()[st["circuit"]]
    if (
        car["pos"][0] != "t"
        or car["off"]
        or car["out"]
        or rain(st)
        or t["start_pos"][0] != "t"
        or car.get("nodrs")
        or t.get("nodrs")
        or t.get("sc_turn")
    ):
        return
    reorder(st)  # the car ahead once this move's passes count (the position track is updated first)
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
    ctx = move_ctx(st, seat)
    ms = R.MState(tuple(car["pos"]), car["laps"], 1, 0, 0, 0, 0, tuple(car["line"]), -1)
    # "1 MP away": one move of the car (a racing-line jump too) would reach the car ahead's cell
    near = {(npos, nl) for npos, nl, _, _ in R.single_steps(ctx, ms)}
    if DRIVERS.drs_range(st, seat) > 1:  # the Slipstreamer: DRS range one more
        near |= {
            (p2, l2)
            for npos, nl, _, jump in R.single_steps(ctx, ms)
            for p2, l2, _, _ in R.single_steps(
                ctx, R.MState(npos, nl, 1, 0, 0, 0, 0, R.line_after(ctx, ms, npos, jump), -1)
            )
        }
    if (tuple(ahead["pos"]), ahead["laps"]) in near:
        car["drs"] = True
        log(st, ev, msg("{p} takes DRS for the next turn.", p=car_name(st, seat)))
        stress(st, ev, run[i - 1])  # 12.2: the driver whose follower gains DRS


def bot_pick(st: State, rng: Rng, ev: list[Event]) -> Any:
    """Where the bot's MP take it (17.5, 17.6, 17.9.1): every MP counted where it can be, the
    furthest place, overtaking whenever the MP reach past a car (a fight counts as the cells
    beyond it), the next corner's double-arrow lane on straights and the shaded cells in
    corners; the pit lane only when it has decided to stop."""
    from dataclasses import replace

    t = st["turn"]
    seat = t["seat"]
    car = st["cars"][seat]
    c = circuits()[st["circuit"]]
    ctx = replace(move_ctx(st, seat), bot=True, ep=0, bp=0, sp=0)
    n = t["n"]
    fought = frozenset(t["fought"])
    ms = _bot_start(t, car)
    opts = R.search(ctx, ms, n, n, fought)
    if not any(o.kind != "end" or o.state.t >= n for o in opts):
        opts = R.search(ctx, ms, n, 0, fought)
    _bot_decides_to_pit(st, rng, ev, opts)
    want = car["bot"]["pit"]
    nxt = None
    if want and car["pos"][0] == "t" and not any(o.kind == "pit" or o.state.pos[0] == "pin" for o in opts):
        # heading for the pits but not there this turn: stay short of the entry, in its lane
        nxt = c.pit_side
        short = [
            o
            for o in opts
            if o.kind != "finish"
            and _bot_end(o).laps == car["laps"]
            and _bot_end(o).pos[0] == "t"
            and _bot_end(o).pos[1] <= c.pit_entry_row
        ]
        opts = short or opts
    opts = [o for o in opts if not _zigzag(o)] or opts
    best, key = None, None
    for o in opts:
        k = _bot_score(c, n, want, nxt, o)
        if k is not None and (key is None or k > key):
            best, key = o, k
    return best


def _bot_start(t: dict, car: dict) -> Any:
    """Where the bot's move starts: the car's cell, or a move under way (after a won fight)."""
    d = t["ms"]
    if d is None:
        return R.MState(tuple(car["pos"]), car["laps"], 0, 0, 0, 0, 0, tuple(car["line"]), -1)
    return R.MState(tuple(d["pos"]), d["laps"], d["mode"], d["t"], d["b"], d["k"], d["s"], tuple(d["line"]), d["slip"])


def _bot_end(o: Any) -> Any:
    """Where an option leaves the car: a fight's cell before the passing step, else its end."""
    return o.step if o.kind == "fight" else o.state


def _bot_decides_to_pit(st: State, rng: Rng, ev: list[Event], opts: list) -> None:
    """17.9.1: whether the bot heads for the pits, asked once each time they are in reach; never
    on the last lap (3.3), always once in the pit entry."""
    t = st["turn"]
    seat = t["seat"]
    car = st["cars"][seat]
    b = car["bot"]
    c = circuits()[st["circuit"]]
    n = t["n"]
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
        b["pit"] = must or BOTS.wants_pit(
            car["life"], car["tyre"], R.weather_now(st["weather"], c), steps, future, lambda: roll(rng, "black")
        )
        if b["pit"]:
            log(st, ev, msg("{p} heads for the pits.", p=car_name(st, seat)))


def _bot_score(c: Any, n: int, want: bool, nxt: int | None, o: Any) -> tuple | None:
    """How much the bot likes an option (higher is better; None: not for it): the finish, the pits
    when it wants them, else the furthest place (a fight counts the cells beyond it), the racing
    line in corners and the next corner's double-arrow lane (or the pit lane's) on straights."""
    if o.kind == "finish":
        return (9, 0.0, 0)
    if o.kind == "pit":
        return (8, 0.0, 0) if want else None
    fin = _bot_end(o)
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
            target = nxt if nxt is not None else next_arrow(c, fin.pos)
            lane_pen = abs(fin.pos[2] - target) if target is not None else 0
    return (0, -lane_pen, p, pref, 0 if o.kind == "fight" else 1)


def _zigzag(o: Any) -> bool:
    """Sideways and straight back on one row: MP thrown away."""
    pth = o.path
    return any(pth[i][0] == "t" and pth[i] == pth[i + 2] and pth[i][1] == pth[i + 1][1] for i in range(len(pth) - 2))


def next_arrow(c, pos) -> int | None:
    """The double-arrow lane of the next corner ahead (17.5.2.1)."""
    if not pos or pos[0] != "t":
        return None
    row = pos[1]
    for co in c.corners:
        if co.arrow[0] >= row:
            return co.arrow[1]
    return c.corners[0].arrow[1]


def attack_top(st: State) -> int:
    """The most SP the attacker can bid in the fight under way (what the passing step itself
    needs stays back; stress level 3: none)."""
    t = st["turn"]
    car = st["cars"][t["seat"]]
    opt = t["fight"]["opt"]
    if car.get("stress", 0) >= 3:
        return 0
    return max(0, min(car["sp"] - (opt["step"]["s"] - opt["ms"]["s"]), 20))


def reorder_with_won(st: State) -> None:
    """A won fight puts the attacker ahead of the defender on the position track at once
    (5.4 B: even if the next fight is lost)."""
    t = st["turn"]
    order = st["order"]
    a = t["seat"]
    for d in t["won"]:
        if order.index(a) > order.index(d):
            order.remove(a)
            order.insert(order.index(d), a)


def unused_mp(n: int, ms, bcap: int) -> int:
    """The attacker's unused MP where it stops for a fight (5.1): the tyre MP not yet counted (none
    once the count is over: the rest was given up) and the cells left of a boost or brake use
    already paid for. (Example: 10 + 3 boost cells first, 10 counted, 3 unused.)"""
    paid = sum(bcap - x % bcap for x in (ms.b, ms.k) if x % bcap)
    if ms.mode == 0:
        return n + paid
    if ms.mode == 1:
        return n - ms.t
    return paid


def ms_data(ms) -> dict:
    return {
        "pos": list(ms.pos),
        "laps": ms.laps,
        "mode": ms.mode,
        "t": ms.t,
        "b": ms.b,
        "k": ms.k,
        "s": ms.s,
        "line": list(ms.line),
        "slip": ms.slip,
    }
