"""Pole Position rules as pure functions over plain data (no state mutation outside copies).

Positions: ["t", row, lane] on the track, ["pin", i] in the pit entry lane, ["pit"] in the
car's own pit, ["g", i] on the i-th green exit cell, ["pout", i] in the exit lane after them.
A car's `laps` counts finish-line crossings; entering the pit counts as the crossing (the pit
lane runs past the line, and the seed wears tyres "when crossing the line or pitting").
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NamedTuple

from bot.games.pole.content import Circuit, rules

RAIN = ("light", "heavy")


# ---------------------------------------------------------------- weather (2.4, 8.1)


def weather_now(w: dict, circuit: Circuit) -> str:
    return circuit.weather_a[w["a"]]


def weather_setup(rolls: list[int], b_size: int) -> dict:
    """Three black-die rolls: column, row (grid A), then grid B's space; rolls for B above its
    size are rerolled, so the caller passes the first one that fits (seed 2.4)."""
    col, row, b = rolls
    return {"a": (row - 1) * 6 + (col - 1), "b": b}


def weather_advance(w: dict, b_size: int) -> tuple[dict, bool]:
    """A cloud: token B moves down one; from B's last space it goes back to 1 and token A
    advances one space (right, then the next row's first column, the last wraps to the first)."""
    if w["b"] < b_size:
        return {"a": w["a"], "b": w["b"] + 1}, False
    return {"a": (w["a"] + 1) % 36, "b": 1}, True


# ---------------------------------------------------------------- qualifying (3.1)


def quali_best(first: int, extra: list[int]) -> int:
    return max([first, *extra])


def quali_order(scores: dict[int, int], tiebreak: dict[int, int]) -> list[int]:
    """Seats best first. A tie goes to the higher tiebreak roll (no driver cards: a die roll)."""
    return sorted(scores, key=lambda s: (-scores[s], -tiebreak.get(s, 0), s))


def quali_sessions(cars: int) -> list[str]:
    """6 cars play Q1-Q3, 5 cars Q2-Q3, 4 or fewer only Q3 (seed 3.1)."""
    return ["Q1", "Q2", "Q3"][3 - (3 if cars >= 6 else 2 if cars == 5 else 1) :]


# ---------------------------------------------------------------- tyres (6)


def tyre_penalty(life: int) -> int:
    """At lifespan -1 every tyre roll loses 1, at -2 it loses 2 (seed 6.2)."""
    return max(0, -life)


def wear(life: int, tyre: str, weather: str) -> int:
    """One crossing (or pit stop): the lifespan moves down the track by the wear table, one space
    at a time; the track has no 0 (17.9.2: after "1" comes "-1", as in the standard race; 17.9.1 A:
    at "1" the next space is "-1") and ends at -2."""
    for _ in range(rules()["wear"][weather][tyre]):
        life = -1 if life == 1 else life - 1
    return max(-2, life)


def course_out_limit(tyre: str, weather: str) -> int | None:
    """The raw tyre roll at or above which the car leaves the track (seed 4.6 A), or None."""
    return rules()["course_out"].get(weather, {}).get(tyre)


def low_grip_limit(tyre: str, weather: str) -> int | None:
    return rules()["low_grip"].get(weather, {}).get(tyre)


def sp_to_stay(roll: int, tyre: str, weather: str) -> int:
    """SP needed to bring the roll under the course-out limit (seed 4.6.1: 1 SP = -1, no cap)."""
    lim = course_out_limit(tyre, weather)
    return 0 if lim is None or roll < lim else roll - lim + 1


def unused_mp_modifier(unused: int) -> int:
    for lo, hi, mod in rules()["unused_mp_mod"]:
        if lo <= unused <= hi:
            return mod
    return 0


def extra_cost(cells: int, cap: int) -> int:
    """EP or BP for `cells` boost/brake cells: one use covers `cap` cells; a second use in the
    same turn makes the total 3 points, not 2 (seed 4.4, 4.5); never more than two uses."""
    if cells <= 0:
        return 0
    return 1 if cells <= cap else 3


# ---------------------------------------------------------------- position fights (5.1)


@dataclass
class FightResult:
    attacker_wins: bool
    attacker_pays: int
    defender_pays: int
    attacker_total: int
    defender_total: int


def settle_auction(att: int, dfn: int, att_max: int, dfn_max: int) -> FightResult:
    """Settle the SP auction from each side's standing maximum.

    The open auction (seed 5.1): whoever is losing at the moment (the attacker while its total is
    not higher, the defender while it is lower, since ties go to the defender) may raise; it ends
    when the side that is losing passes, and only the winner pays what it bid. A raise that takes
    the lead by more than needed only costs its maker more, so each raise is the smallest that
    takes the lead. The bids then climb one side at a time until one side would have to go
    beyond its maximum: that side passes and loses, and the winner has bid exactly the least that
    beats (attacker: exceeds, defender: equals) the loser's total at the loser's maximum.
    That is what the open bidding ends at, so settling from the two maxima gives the same winner
    and the same price without making either player wait for the other.
    Why a maximum given in advance loses nothing: in the open auction the only thing a player
    learns while bidding is that the other side raised again, and with smallest raises each
    level of the bidding is known in advance; passing ends the auction, so a player's whole
    plan there is "raise while what I have bid stays within M", which is a maximum M. (Worked
    example of 5.1, tested: green 2 + 1 against yellow 4, green bids 2 and wins 5 to 4, yellow,
    who would have had to bid 1 for a 5-5 tie, passes; green pays 2, yellow nothing.) A player
    who wants to choose M knowing the dice sets "ask me" (defending or attacking): only that
    pauses the race.
    """
    a_cap, d_cap = att + att_max, dfn + dfn_max
    if a_cap > d_cap:
        pay = max(0, d_cap + 1 - att)
        return FightResult(True, pay, 0, att + pay, d_cap)
    pay = max(0, a_cap - dfn)
    return FightResult(False, 0, pay, a_cap, dfn + pay)


# ---------------------------------------------------------------- track geometry


def prog(circuit: Circuit, laps: int, pos: list) -> float:
    """Distance along the race, for the position track: rows on the track; every car in the pit
    lane sits just before the finish line of the lap it is completing (seed 5.5: a car crossing
    the line passes every car in the pits or the pit lanes)."""
    R = len(circuit.rows)
    if pos[0] == "t":
        return laps * R + pos[1]
    if pos[0] == "pin":
        return (laps + 1) * R - 0.5
    return laps * R - 0.5


def corner_rank(circuit: Circuit, pos: list) -> int:
    """Among cars on the same corner row the outermost lane leads (seed 3.3); 0 on straights."""
    if pos[0] != "t":
        return 0
    c = circuit.corner_at(pos[1])
    if c is None:
        return 0
    return 3 - abs(pos[2] - c.outer)


def order_key(circuit: Circuit, car: dict) -> tuple:
    return (prog(circuit, car["laps"], car["pos"]), corner_rank(circuit, car["pos"]))


def next_row(circuit: Circuit, row: int, laps: int) -> tuple[int, int]:
    """The row after `row`; brown dashed rows count on lap 1 only (seed 3.2.4)."""
    R = circuit.length
    while True:
        row += 1
        if row >= R:
            row, laps = 0, laps + 1
        if not circuit.rows[row].brown or laps == 0:
            return row, laps


def is_straight(circuit: Circuit, row: int) -> bool:
    return circuit.rows[row].corner < 0


def brake_ok_at(circuit: Circuit, row: int) -> bool:
    """Braking starts on a double-arrow row or 1-3 cells before it, not inside a corner except
    from its last row when the next corner's arrow is within reach (seed 4.5)."""
    c = circuit.rows[row].corner
    if c >= 0 and circuit.corners[c].last != row:
        return False
    reach = rules()["brake_reach"]
    r, laps = row, 0
    for d in range(reach + 1):
        if any(co.arrow[0] == r for co in circuit.corners):
            return True
        if d < reach:
            r, laps = next_row(circuit, r, 1)
            if circuit.rows[r].corner >= 0:
                return False
    return False


@dataclass(frozen=True)
class MoveCtx:
    """What a movement search needs besides the moving car's own state."""

    circuit: Circuit
    rain: bool
    start_round: bool  # the three race-start rounds (3.2.4)
    final_lap_from: int  # laps value at which the car is on its last lap (no pit entry)
    others: tuple  # ((seat, laps, pos, off), ...) every other running car
    ahead_of: frozenset  # seats the mover counts as ahead of where rows tie on a straight
    ep: int
    bp: int
    sp: int
    first_corner_row: int
    total_laps: int = 99
    bot: bool = False  # a bot always has the racing line, technical corners too (17.5.2.2)
    no_pass: frozenset = frozenset()  # rows between a yellow and a green flag: no overtaking (10.1)
    bcap: int = 0  # cells for 1 EP / 1 BP when not the standard 3 (2 in rain): circuit rules, drivers
    kcap: int = 0
    no_technical: bool = False  # a driver for whom technical corners are green (appendix 1)
    sp_double: bool = False  # corner SP counted in half units: 2 cells per SP in non-technical corners


class MState(NamedTuple):
    """A moving car's state in the search (a named tuple: the search makes hundreds a turn)."""

    pos: tuple
    laps: int
    mode: int  # 0: extras before the tyre MP, 1: counting tyre MP, 2: extras after
    t: int  # tyre MP counted
    b: int  # boost cells
    k: int  # brake cells
    s: int  # SP corner cells
    line: tuple  # (corner index, ok) of the last corner whose arrow region the car met, or ()
    slip: int  # diagonal allowed next move: 9 any (slipstream), a lane (after a pass), -1 none


class Option(NamedTuple):
    """Where a move may end, or must stop for a fight (a named tuple: a search makes hundreds)."""

    state: MState
    kind: str  # "end", "fight", "pit"
    defenders: tuple = ()  # fight: seats to fight, rear first
    free: tuple = ()  # seats passed without a fight by the pending step
    step: MState | None = None  # fight: the state after the step that passes them
    path: tuple = ()  # positions visited


def single_steps(ctx: MoveCtx, st: MState) -> list[tuple[tuple, int, bool, bool]]:
    """Single-cell moves from st.pos: (new pos, new laps, diagonal?, line jump?); a racing-line jump
    only if no car stands in between (4.2.1)."""
    steps = _steps(ctx, _geo(ctx.circuit), st)
    jump = _jump_from(ctx, st)
    if jump is not None and not _line_blocked(ctx, *jump):
        steps.append((("t", jump[3], jump[4]), st.laps, False, True))
    return steps


def _line_blocked(ctx: MoveCtx, laps: int, r0: int, l0: int, r1: int, l1: int) -> bool:
    """A car between two shaded cells stops the jump (4.2.1): any car on a row strictly between
    them in a lane beside or between theirs. (Only cars two lanes away can be passed this way,
    which is the seed's case 1 of 5.3.)"""
    lo, hi = min(l0, l1) - 1, max(l0, l1) + 1
    for seat, ol, opos, off in ctx.others:
        if opos[0] == "t" and ol == laps and r0 < opos[1] < r1 and lo <= opos[2] <= hi and off != 1:
            return True
    return False


def line_after(ctx: MoveCtx, st: MState, npos: tuple, jump: bool) -> tuple:
    """The car's racing-line state after moving to npos."""
    c = ctx.circuit
    if npos[0] != "t":
        return st.line
    _, row, lane = npos
    if ctx.bot:  # 17.5.2.2: a bot takes the racing line even without passing the double arrow
        co = c.corner_at(row)
        if co is not None:
            return (co.index, True)
        for co in c.corners:
            if (row, lane) == co.arrow:
                return (co.index, True)
        return st.line
    for co in c.corners:
        if (row, lane) == co.arrow:
            return (co.index, True)
    co = c.corner_at(row)
    if co is None:
        return st.line
    if not st.line or st.line[0] != co.index:
        return (co.index, False)  # entered the corner without passing its double arrow
    if not st.line[1] or jump:
        return st.line
    if (row, lane) not in co.line and co.technical and not ctx.no_technical:
        return (co.index, False)  # left the line of a technical corner: lost for good (4.2.2)
    return st.line


class _Geo(NamedTuple):
    """A circuit's rows as tables, for the search: the next row (on lap 0 and on later laps, brown
    rows counted on lap 1 only) with the laps added, straights, where braking may start, lanes."""

    circuit: Circuit
    next0: tuple
    next1: tuple
    straight: tuple
    brake_ok: tuple
    lanes: tuple
    corner: tuple
    moves: dict  # the context's flags -> {place: `_moves_from`'s list}


_GEO: dict[int, _Geo] = {}


def _geo(c: Circuit) -> _Geo:
    g = _GEO.get(id(c))
    if g is None or g.circuit is not c:
        rows = range(c.length)
        g = _Geo(
            c,
            tuple(next_row(c, r, 0) for r in rows),
            tuple((lambda x: (x[0], x[1] - 1))(next_row(c, r, 1)) for r in rows),
            tuple(is_straight(c, r) for r in rows),
            tuple(brake_ok_at(c, r) for r in rows),
            tuple(c.rows[r].lanes for r in rows),
            tuple(c.corner_at(r) for r in rows),
            {},
        )
        if len(_GEO) > 64:
            _GEO.clear()
        _GEO[id(c)] = g
    return g


def _next(g: _Geo, row: int, laps: int) -> tuple[int, int]:
    """next_row(circuit, row, laps) from the tables."""
    if laps == 0:
        return g.next0[row]
    if laps > 0:
        r, dl = g.next1[row]
        return r, laps + dl
    return next_row(g.circuit, row, laps)


def _steps(ctx: MoveCtx, g: _Geo, st: MState) -> list[tuple[tuple, int, bool, bool]]:
    """The single-cell moves from st.pos but the racing-line jump (`_jump_from`), from the circuit's
    tables: (new pos, new laps, diagonal?, False). The one statement of the step rules: the move
    search keeps what they give with the circuit (`_moves_from`), `single_steps` adds the jump."""
    c = ctx.circuit
    pos = st.pos
    kind = pos[0]
    if kind == "pin":
        n = c.pit_entry_cells + (c.pit_entry_rain if ctx.rain else 0)
        return [(("pin", pos[1] + 1) if pos[1] + 1 < n else ("pit",), st.laps, False, False)]
    if kind == "g":
        return [(("pout", 0), st.laps, False, False)]
    if kind == "pout":
        n = c.pit_exit_cells + (c.pit_exit_rain if ctx.rain else 0)
        if pos[1] + 1 < n:
            return [(("pout", pos[1] + 1), st.laps, False, False)]
        return [(("t", c.pit_merge_row, c.pit_side), st.laps, False, False)]
    if kind != "t":
        return []
    _, row, lane = pos
    laps = st.laps
    nr, nl = _next(g, row, laps)
    lanes_next = g.lanes[nr]
    straight = g.straight[row]
    diag_ok = (not straight) or (ctx.start_round and laps == 0 and row < ctx.first_corner_row)
    out: list[tuple] = []
    slip = st.slip
    for ln in (lane - 1, lane, lane + 1):
        if ln not in lanes_next:
            continue
        diagonal = ln != lane
        if diagonal and not diag_ok and slip != ln and slip != 9:
            continue
        out.append((("t", nr, ln), nl, diagonal, False))
    if lane not in lanes_next and not any(abs(ln - lane) <= 1 for ln in lanes_next):
        out.append((("t", nr, lanes_next[0]), nl, True, False))
    elif lane not in lanes_next and straight:  # the track narrows: merge into the nearest lane
        near = min(lanes_next, key=lambda ln: abs(ln - lane))
        if near != lane and slip != near and not diag_ok:
            out.append((("t", nr, near), nl, True, False))
    if straight:  # sideways on a straight
        here = g.lanes[row]
        for ln in (lane - 1, lane + 1):
            if ln in here:
                out.append((("t", row, ln), laps, False, False))
    if row == c.pit_entry_row and lane == c.pit_side and laps < ctx.final_lap_from:
        out.append((("pin", 0), laps, False, False))
    return out


def _line_next(corner: Any, row: int, lane: int) -> tuple[int, int] | None:
    """The racing line's next cell after (row, lane) on `corner`'s line (4.2.1): from its arrow the
    line's first cell, from a cell of the line the one after; None off the line or at its end."""
    if (row, lane) == corner.arrow:
        idx = 0
    elif (row, lane) in corner.line:
        idx = corner.line.index((row, lane)) + 1
    else:
        return None
    return corner.line[idx] if idx < len(corner.line) else None


def _jump_from(ctx: MoveCtx, st: MState) -> tuple | None:
    """The racing line's jump from st's cell (4.2.1) as single_steps finds it, but for the cars in
    between: (laps, row, lane, target row, target lane), for `_line_blocked`; None if there is none."""
    if not st.line or not st.line[1] or st.pos[0] != "t":
        return None
    _, row, lane = st.pos
    target = _line_next(ctx.circuit.corners[st.line[0]], row, lane)
    if target is not None:
        tr, tl = target
        if tr - row > 1:
            return st.laps, row, lane, tr, tl
    return None


def _prog_of(length: int, laps: int, pos: tuple) -> float:
    """How far along the race a cell is, in rows (the pit lane's cells half a row before their lap's end)."""
    k = pos[0]
    if k == "t":
        return laps * length + pos[1]
    if k == "pin":
        return (laps + 1) * length - 0.5
    return laps * length - 0.5


def _limits(ctx: MoveCtx) -> tuple[int, int, int, int, int]:
    """The turn's boost and brake cells a use (bcap, kcap) and the most boost, brake and corner-SP
    cells it may spend (4.2, 4.4, 4.5; none in the start rounds)."""
    r = rules()
    bcap = r["boost_cells"]["rain" if ctx.rain else "dry"]
    kcap = ctx.kcap or bcap
    bcap = ctx.bcap or bcap
    scap = r["corner_sp_max"]["rain" if ctx.rain else "dry"]
    max_b = 0 if ctx.start_round else (2 * bcap if ctx.ep >= 3 else bcap if ctx.ep >= 1 else 0)
    max_k = 0 if ctx.start_round else (2 * kcap if ctx.bp >= 3 else kcap if ctx.bp >= 1 else 0)
    max_s = min(scap, ctx.sp) * (2 if ctx.sp_double else 1)
    return bcap, kcap, max_b, max_k, max_s


def _moves_from(ctx: MoveCtx, g: _Geo, st: MState) -> list[tuple]:
    """What each step from st's place (cell, lap, line and slipstream) leads to whatever the other
    cars (the circuit and the context's flags alone): (cell, laps, extras allowed, straight,
    braking may start, corner SP unit, racing line after, progress after, "finish" / "pit" / None,
    the cell and laps a car must hold for a slipstream after the step or None, the racing-line
    jump to check for cars in between or None). Kept with the circuit's tables (`_moves_table`):
    the same places come back turn after turn."""
    c = ctx.circuit
    pos, laps = st.pos, st.laps
    on_track = pos[0] == "t"
    steps = _steps(ctx, g, st)
    jump = _jump_from(ctx, st)
    if jump is not None:
        steps.append((("t", jump[3], jump[4]), laps, False, True))
    out = []
    for npos, nl, diagonal, is_jump in steps:
        n_track = npos[0] == "t"
        ext = on_track and n_track
        is_str = n_track and g.straight[npos[1]]
        unit = 1
        if ext and ctx.sp_double:  # half-SP units: 1 in a non-technical corner, 2 in a technical one
            co = g.corner[npos[1]]
            unit = 1 if co is not None and not co.technical else 2
        slip_at = None
        if is_str:  # right behind a car on a straight: slipstream (5.2.1)
            fr, fl = _next(g, npos[1], nl)
            if g.straight[fr]:
                slip_at = (("t", fr, npos[2]), fl)
        end = "finish" if n_track and nl > laps and nl >= ctx.total_laps else "pit" if npos == ("pit",) else None
        brake = ext and g.brake_ok[pos[1]]
        line = line_after(ctx, st, npos, is_jump)
        out.append(
            (
                npos,
                nl,
                ext,
                is_str,
                brake,
                unit,
                line,
                _prog_of(c.length, nl, npos),
                end,
                slip_at,
                jump if is_jump else None,
            )
        )
    return out


def _moves_table(ctx: MoveCtx, g: _Geo) -> dict:
    """The circuit's `_moves_from` lists for the context's flags, by place (cell, laps, line, slip)."""
    flags = (
        ctx.rain,
        ctx.start_round,
        ctx.final_lap_from,
        ctx.first_corner_row,
        ctx.total_laps,
        ctx.bot,
        ctx.no_technical,
        ctx.sp_double,
    )
    table = g.moves.get(flags)
    if table is None or len(table) > 8192:
        if len(g.moves) > 64:
            g.moves.clear()
        table = g.moves[flags] = {}
    return table


def _others_at(ctx: MoveCtx, fought: frozenset) -> tuple[set, tuple[set, set, list]]:
    """The cells no car may end on (final) and, for `_Places.steps_from`, those no car may drive through,
    the cars on the track (cell, laps) behind which a step has the slipstream, and the rivals a
    move may pass with how far along each is. Green exit cells take any number of cars (seed 7); a car gone off the track
    can be driven through, and on the turn it went off also shared (off 1); on its return turn no one
    may stop on its cell (off 2, 4.6)."""
    c = ctx.circuit
    oinfo = [(o, prog(c, o[1], list(o[2])), corner_rank(c, list(o[2])), o[0] in ctx.ahead_of) for o in ctx.others]
    rivals = [(o, po, tie) for o, po, ro, tie in oinfo if o[0] not in fought]
    stop_final = {tuple(o[2]) for o in ctx.others if o[3] != 1}
    stop_pass = {tuple(o[2]) for o in ctx.others if o[3] not in (1, 2)}
    for free in (stop_final, stop_pass):
        for x in [x for x in free if x[0] in ("g", "pout", "pit")]:
            free.discard(x)
    slip_cars = {(opos, ol) for _, ol, opos, off in ctx.others if opos[0] == "t" and off == 0}
    return stop_final, (stop_pass, slip_cars, rivals)


class _Places:
    """The places one search meets: a cell with its lap, racing-line state and slipstream (all a
    step from it depends on), numbered as they are met. Each place's steps are worked out once
    (`steps_from`) and name the place each leads to, so the search's states are small tuples of
    numbers and its seen-states table is keyed by numbers."""

    __slots__ = ("ctx", "g", "moves", "stop_final", "cars", "index", "at", "final", "steps", "length")

    def __init__(self, ctx: MoveCtx, g: _Geo, fought: frozenset) -> None:
        self.ctx, self.g, self.moves = ctx, g, _moves_table(ctx, g)
        self.length = ctx.circuit.length  # rows in a lap
        self.stop_final, self.cars = _others_at(ctx, fought)
        self.index: dict[tuple, int] = {}
        self.at: list[tuple] = []  # place number -> (cell, laps, line, slip)
        self.final: list[bool] = []  # place number -> may a move end there
        self.steps: list[list | None] = []  # place number -> its steps, once worked out

    def number(self, pos: tuple, laps: int, line: tuple, slip: int) -> int:
        """The place's number, a new one the first time it is met."""
        key = (pos, laps, line, slip)
        p = self.index.get(key)
        if p is None:
            p = self.index[key] = len(self.at)
            self.at.append(key)
            self.final.append(pos not in self.stop_final)
            self.steps.append(None)
        return p

    def steps_from(self, p: int) -> list:
        """What each step from place p leads to, whatever the counts: (number of the place reached,
        cell, extras allowed, straight, braking may start, corner SP unit, the cars to fight (rear
        first) or (), the cars passed freely, "finish" / "pit" / None). Steps into a blocked cell or
        a no-overtaking pass are left out."""
        key = self.at[p]
        moves = self.moves.get(key)
        if moves is None:
            pos, laps, line, slip = key
            moves = self.moves[key] = _moves_from(self.ctx, self.g, MState(pos, laps, 0, 0, 0, 0, 0, line, slip))
        stop_pass, slip_cars, rivals = self.cars
        pos, laps = key[0], key[1]
        cur_p = _prog_of(self.length, laps, pos)
        number = self.number
        out: list[tuple] = []
        for npos, nl, ext, is_str, brake, unit, line, np_, end, slip_at, jump in moves:
            if npos in stop_pass or (jump is not None and _line_blocked(self.ctx, *jump)):
                continue
            slip = 9 if slip_at is not None and slip_at in slip_cars else -1  # any diagonal on the next move
            if np_ <= cur_p or not rivals:  # no move back or sideways passes anyone
                out.append((number(npos, nl, line, slip), npos, ext, is_str, brake, unit, (), (), end))
                continue
            passing = self.passing(pos, cur_p, npos, np_, ext)
            if passing is not None:
                defenders, free = passing
                out.append(
                    (
                        number(npos, nl, line, slip),
                        npos,
                        ext,
                        is_str,
                        brake,
                        unit,
                        defenders,
                        free,
                        None if defenders else end,
                    )
                )
        self.steps[p] = out
        return out

    def passing(self, pos: tuple, cur_p: float, npos: tuple, np_: float, ext: bool) -> tuple[tuple, tuple] | None:
        """The cars a step from pos (progress cur_p) to npos (np_) passes: those to fight (rear first)
        and those passed freely; None if it may not pass them (10.1: no overtaking between the flags)."""
        # Rule reading (5.3 cases 2 and 3): in a corner the attacker stops on the cell beside
        # the defender and the fight is for going beyond it, so passing is judged by rows
        # here; the outer-lane rule of 3.3 only orders the position track after a move.
        ctx = self.ctx
        passed = [
            o
            for o, po, tie in self.cars[2]
            if not (cur_p > po or (cur_p == po and tie)) and (np_ > po or (np_ == po and tie))
        ]
        if not passed:
            return (), ()
        no_pass = ctx.no_pass
        if no_pass and any(
            o[2][0] == "t" and (o[2][1] in no_pass or npos[0] == "t" and npos[1] in no_pass) for o in passed
        ):
            return None  # 10.1: no overtaking between the flags, with or without a fight
        fights = []
        if not ctx.start_round and ext:
            fights = [o for o in passed if o[2][0] == "t" and o[3] == 0 and abs(o[2][2] - pos[2]) <= 1]
        if not fights:
            return (), tuple(o[0] for o in passed)
        c = ctx.circuit
        order = sorted(fights, key=lambda o: (prog(c, o[1], list(o[2])), corner_rank(c, list(o[2]))))
        return tuple(o[0] for o in order), tuple(o[0] for o in passed if o not in fights)


def search(ctx: MoveCtx, start: MState, n: int, count_min: int, fought: frozenset = frozenset(), paths: bool = True):
    """Every way to spend this turn's MP from `start`: n tyre MP of which at least count_min must
    be counted (up to 3 fewer, seed 4), boost / brake / corner-SP cells before or after them,
    never in the middle (4.2, 4.4, 4.5). Returns options: where the move may end (with what it
    costs), where it must stop for a position fight, or the pit. States with the same place, mode
    and count below the minimum keep only those not worse in every count (`_Seen`), explored first
    in, first out: the states one round of steps makes (`_round`) are admitted together, in the
    order made. What depends only on a place, a step or the circuit is worked out once (the search
    runs every turn, every replay and AI look-ahead). `paths=False`: every option's path is left
    empty (the same options otherwise; a turn's menu never reads them, and making them is a fifth
    of the search)."""
    with _gc_paused():
        return _search(ctx, start, n, count_min, fought, paths)


@contextmanager
def _gc_paused() -> Iterator[None]:
    """The cyclic garbage collector held off for a search: it makes thousands of small tuples that
    live to its end and hold no cycles, so the collections their number sets off find nothing to
    free (a quarter of the search's time); left as it was found, to collect once after."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _search(ctx: MoveCtx, start: MState, n: int, count_min: int, fought: frozenset, paths: bool) -> list[Option]:
    """`search`'s work."""
    caps = _limits(ctx)
    places = _Places(ctx, _geo(ctx.circuit), fought)
    seen = _Seen(count_min, _tops(start, n, caps))
    options: list[Option] = []
    p0 = places.number(start.pos, start.laps, start.line, start.slip)
    frontier = seen.admitted(
        [(p0, start.mode, start.t, start.b, start.k, start.s, (start.pos,) if paths else (), None)]
    )
    while frontier:
        frontier = seen.admitted(_round(frontier, n, count_min, caps, places, options))
    return options


def _round(frontier: list, n: int, count_min: int, caps: tuple, places: _Places, options: list) -> list[tuple]:
    """One round of the search: from each state of `frontier` (place, mode, counts, path), the option
    to end there, the change of mode and the steps (one tyre MP counted, or a boost, brake or
    corner-SP cell); returns the states made, in order, each with the path before it and the cell
    its step goes to (None: a change of mode, on the same cell). Options go to `options`."""
    bcap, kcap, max_b, max_k, max_s = caps
    extras = max_b > 0 or max_k > 0 or max_s > 0  # any boost, brake or corner SP cell at all
    final, place_steps, at = places.final, places.steps, places.at
    new = tuple.__new__  # a named tuple made without its keyword checks
    made: list[tuple] = []
    add = made.append
    for st in frontier:
        p, mode, t_, b_, k_, s_, path = st
        if ((mode >= 1 and t_ >= count_min) or (mode == 0 and count_min <= 0)) and final[p]:
            pos, laps, line, slip = at[p]
            options.append(
                new(Option, (new(MState, (pos, laps, mode, t_, b_, k_, s_, line, slip)), "end", (), (), None, path))
            )
        # mode changes: a boost or brake use is spent at one time, before or after the tyre
        # MP: cells of a use left unspent when the tyre count starts or ends are lost.
        if mode == 0 or (mode == 1 and t_ >= count_min):
            add((p, mode + 1, t_, -(-b_ // bcap) * bcap, -(-k_ // kcap) * kcap, s_, path, None))
        if mode == 1:  # counting the tyre MP: one cell a step, no extras
            if t_ >= n:
                continue
        elif not extras:
            continue
        steps = place_steps[p]
        if steps is None:
            steps = places.steps_from(p)
        if mode == 1:
            t1 = t_ + 1
            for np_, npos, ext, is_str, brake_here, unit, fights, free, kind_end in steps:
                if fights or kind_end:
                    _step_option(places, st, (np_, npos, fights, free, kind_end), (1, t1, b_, k_, s_), options)
                else:
                    add((np_, 1, t1, b_, k_, s_, path, npos))
            continue
        # Boost, brake and corner-SP cells (before or after the tyre MP), on the track only.
        more_b, more_k, part_b, part_k = b_ < max_b, k_ < max_k, b_ % bcap != 0, k_ % kcap != 0
        for np_, npos, ext, is_str, brake_here, unit, fights, free, kind_end in steps:
            if not ext:
                continue
            use_b = more_b and is_str
            use_k = more_k and (part_k or brake_here)
            use_s = not is_str and s_ + unit <= max_s
            # A boost or brake use already paid for has cells left: using them is free, so
            # never open another use (or pay SP) instead: that path is never better.
            if use_b and part_b:
                use_k = use_s = False
            elif use_k and part_k:
                use_b = use_s = False
            if fights or kind_end:
                for counts in (
                    use_b and (mode, t_, b_ + 1, k_, s_),
                    use_k and (mode, t_, b_, k_ + 1, s_),
                    use_s and (mode, t_, b_, k_, s_ + unit),
                ):
                    if counts:
                        _step_option(places, st, (np_, npos, fights, free, kind_end), counts, options)
                continue
            if use_b:
                add((np_, mode, t_, b_ + 1, k_, s_, path, npos))
            if use_k:
                add((np_, mode, t_, b_, k_ + 1, s_, path, npos))
            if use_s:
                add((np_, mode, t_, b_, k_, s_ + unit, path, npos))
    return made


def _step_option(places: _Places, st: tuple, step: tuple, counts: tuple, options: list) -> None:
    """The option a step from state `st` reaches with these counts after it: the fight for the
    step (the car stays at st's place), or the end there ("finish" or "pit")."""
    p, mode, t_, b_, k_, s_, path = st
    np_, npos, fights, free, kind_end = step
    npos_, nl, nline, nslip = places.at[np_]
    after = _ms((npos_, nl, *counts, nline, nslip))
    if fights:
        pos, laps, line, slip = places.at[p]
        options.append(Option(_ms((pos, laps, mode, t_, b_, k_, s_, line, slip)), "fight", fights, free, after, path))
    else:
        options.append(Option(after, kind_end, (), free, None, path + (npos,) if path else path))


def _ms(fields: tuple) -> MState:
    return tuple.__new__(MState, fields)


class _Seen:
    """The count vectors (tyre MP, boost, brake, corner-SP cells) met before at each place and mode,
    for `admitted`: each key's vectors as one bit mask over the (tyre MP, boost, brake, SP) box,
    the tyre counts below the minimum each under a key of their own (their first slice of the box);
    `down[i]` is the mask of every point of the box at most point i in each count, so "a vector met
    before is at most this one in every count" is one AND."""

    __slots__ = ("lo", "box", "kk", "ss", "down", "bits", "masks")

    def __init__(self, count_min: int, tops: tuple[int, int, int, int]) -> None:
        top_t, top_b, top_k, top_s = tops  # no count goes over these in the search
        self.lo = max(count_min, 0)  # counts from here on share a key
        self.kk, self.ss = top_k + 1, top_s + 1
        self.box = (top_b + 1) * self.kk * self.ss
        self.down, self.bits = _downs(max(top_t, self.lo) + 1 - self.lo, top_b + 1, top_k + 1, top_s + 1)
        self.masks: dict[int, int] = {}

    def admitted(self, made: list[tuple]) -> list[tuple]:
        """The states of `made` (place, mode, counts, the path before and the cell the step goes to)
        not dominated by one met before, with their paths (none if the search keeps none), in order, each checked after those before it. Fewer MP counted is better once the minimum
        count is reached (whatever the other state can still do, this one can too); below the
        minimum, counts are kept apart, since wasting MP sideways may be the only way to end on a
        nearer cell. Checked as a state is made: the states met before it are the same as when it
        is explored (first in, first out)."""
        lo, box, kk, ss, down, bits, masks = self.lo, self.box, self.kk, self.ss, self.down, self.bits, self.masks
        lo1 = lo + 1
        out = []
        for p, mode, t_, b_, k_, s_, path, cell in made:
            t = t_ if mode else 0
            i = (b_ * kk + k_) * ss + s_
            if t < lo:  # one count under this key: the box's first slice
                key = (p * 3 + mode) * lo1 + t + 1
            else:
                key = (p * 3 + mode) * lo1
                i += (t - lo) * box
            m = masks.get(key, 0)
            if m & down[i]:
                continue
            masks[key] = m | bits[i]
            out.append((p, mode, t_, b_, k_, s_, path + (cell,) if cell is not None and path else path))
        return out


_DOWNS: dict[tuple[int, int, int, int], tuple[list[int], list[int]]] = {}


def _downs(nt: int, nb: int, nk: int, ns: int) -> tuple[list[int], list[int]]:
    """For each point (t, b, k, s) of the box nt x nb x nk x ns (numbered ((t * nb + b) * nk + k) * ns
    + s), the mask of the points at most it in each count, and its own bit; kept for the next search."""
    got = _DOWNS.get((nt, nb, nk, ns))
    if got is None:
        box = nb * nk * ns
        down = [0] * (nt * box)
        for t in range(nt):
            for b in range(nb):
                for k in range(nk):
                    for s in range(ns):
                        i = ((t * nb + b) * nk + k) * ns + s
                        m = 1 << i
                        if t:
                            m |= down[i - box]
                        if b:
                            m |= down[i - nk * ns]
                        if k:
                            m |= down[i - ns]
                        if s:
                            m |= down[i - 1]
                        down[i] = m
        if len(_DOWNS) > 256:
            _DOWNS.clear()
        got = _DOWNS[(nt, nb, nk, ns)] = (down, [1 << i for i in range(nt * box)])
    return got


def _tops(start: MState, n: int, caps: tuple) -> tuple[int, int, int, int]:
    """The most tyre MP, boost, brake and corner-SP cells a search from `start` can count: a step
    adds a count only under its limit, and a use's cells are rounded up to whole uses."""
    bcap, kcap, max_b, max_k, max_s = caps
    return max(n, start.t), max(max_b, start.b + bcap), max(max_k, start.k + kcap), max(max_s, start.s)
