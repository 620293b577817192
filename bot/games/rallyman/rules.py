"""Rallyman: DIRT rules over plain state: dice, placement, risk, track features.

A plan is a list of steps [die, space, gear, jump]: die is "g<v>" (gear die v), "g<v>b" (gear die v
with the brake die, two gears down), or "c" (a coast die: one space, gear kept); space is where the
die lies (after a jump, the landing space); jump is "" or "eq" (gear = jump value: lands one space
on), "p1" (one more: lands two on, loss of control if that die shows "!"), "p2" (two or more:
lands two on, loss of control always) or "ov" (the gear is over the space's limit: loss of control
there, always).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

import orjson

import bot.games.rallyman.board as B


@dataclass(frozen=True)
class Rules:
    time: dict[int, int]
    loss_time: int
    bang: dict[str, int]  # "!" faces out of 6 per die kind
    crash_tokens: dict[int, dict[str, int]]
    secure_cost: tuple[int, ...]
    backs: dict[int, dict[str, int]]
    tokens: dict[str, int]
    spare_seconds: int
    pass_seconds: int


TOKEN_KINDS = ("gear", "brake", "coast", "flag", "ok", "mud")
BACKS = ("sisu", "spin", "crash")


@lru_cache(maxsize=1)
def rules() -> Rules:
    raw = json.loads((B.DATA_DIR / "rules.json").read_text("utf-8"))
    d = raw["designed"]

    def chk(c: bool, what: str) -> None:
        if not c:
            raise B.DataError(f"data/rallyman/rules.json: {what}")

    time = {int(k): int(v) for k, v in raw["time"].items()}
    chk(sorted(time) == [1, 2, 3, 4, 5, 6] and all(time[g] > time[g + 1] for g in range(1, 6)), "time")
    bang = {k: int(v) for k, v in raw["bang_faces"].items()}
    chk(
        set(bang) == {f"g{g}" for g in range(1, 7)} | {"orange", "white", "brake"}
        and all(0 <= v <= 6 for v in bang.values()),
        "bang_faces",
    )
    ct = {int(g): {c: int(n) for c, n in row.items()} for g, row in raw["crash_tokens"].items()}
    chk(sorted(ct) == [1, 2, 3, 4, 5, 6] and all(set(r) == set(B.DANGERS) for r in ct.values()), "crash_tokens")
    backs = {int(g): {k: int(n) for k, n in row.items()} for g, row in d["time_card_backs"].items()}
    chk(
        sorted(backs) == [1, 2, 3, 4, 5, 6]
        and all(set(r) == set(BACKS) and sum(r.values()) == 32 for r in backs.values()),
        "time_card_backs",
    )
    chk(all(r["crash"] > max(r["sisu"], r["spin"]) for r in backs.values()), "crash must be the most frequent back")
    tokens = {k: int(v) for k, v in d["damage_tokens"].items()}
    chk(set(tokens) == set(TOKEN_KINDS) and sum(tokens.values()) == 48, "damage_tokens")
    return Rules(
        time,
        int(raw["loss_time"]),
        bang,
        ct,
        tuple(raw["secure_cost"]),
        backs,
        tokens,
        int(d["spare_tyre_seconds"]),
        int(d["pass_seconds_gear0"]),
    )


PAR_FILE = B.DATA_DIR / "par.json"


@lru_cache(maxsize=1)
def par_times() -> dict[str, int]:
    """Each stage's solo par time in seconds (data/rallyman/par.json, written by par.py)."""
    raw = json.loads(PAR_FILE.read_text("utf-8"))
    par = raw["par"]
    if set(par) != set(B.stage_names()) or not all(isinstance(v, int) and 60 < v < 3000 for v in par.values()):
        raise B.DataError("data/rallyman/par.json: one par time per stage")
    return dict(par)


# ---- dice ---------------------------------------------------------------------------------------


def step_dice(step: list, orange: bool) -> list[str]:
    """The die kinds rolled for a step (for "!" odds)."""
    die = step[0]
    if die == "c":
        return ["orange" if orange else "white"]
    if die.endswith("b"):
        return [die[:-1], "brake"]
    return [die]


def p_bang(kind: str) -> float:
    return rules().bang[kind] / 6.0


def loc_step(alive: dict[int, float], lost: float, step: list, orange: bool) -> tuple[dict[int, float], float]:
    """One more step: alive maps the "!" count so far to its chance (no loss of control yet)."""
    nxt, losses = loc_outcomes(tuple(alive.items()), step[0], step[3], orange)
    for r in losses:  # added one by one, in the order they arise
        lost += r
    return dict(nxt), lost


def loc_outcomes(
    alive: tuple[tuple[int, float], ...], die: str, jump: str, orange: bool
) -> tuple[tuple[tuple[int, float], ...], tuple[float, ...]]:
    """loc_step by what it reads (the counts alive, the step's die and jump): the counts still
    alive after it and the chances that lose control on it, in order. (Kept: a plan search meets
    the same few distributions again and again.)"""
    key = (alive, die, jump, orange)
    hit = _LOC.get(key)
    if hit is None:
        if len(_LOC) > 20000:
            _LOC.clear()
        hit = _LOC[key] = _loc_outcomes(alive, die, jump, orange)
    return hit


_LOC: dict[tuple, tuple[tuple[tuple[int, float], ...], tuple[float, ...]]] = {}  # loc_outcomes() by all it reads


def _loc_outcomes(
    alive: tuple[tuple[int, float], ...], die: str, jump: str, orange: bool
) -> tuple[tuple[tuple[int, float], ...], tuple[float, ...]]:
    odds = [p_bang(kind) for kind in step_dice([die, 0, 0, jump], orange)]
    certain = jump in ("p2", "ov")
    nxt: dict[int, float] = {}
    losses: list[float] = []
    for n, q in alive:
        outcomes = {(n, False): q}
        for i, p in enumerate(odds):
            o2: dict[tuple[int, bool], float] = {}
            for (m, jb), r in outcomes.items():
                o2[(m, jb)] = o2.get((m, jb), 0.0) + r * (1 - p)
                k = (m + 1, jb or i == 0)
                o2[k] = o2.get(k, 0.0) + r * p
            outcomes = o2
        for (m, jb), r in outcomes.items():
            if m >= 3 or certain or (jump == "p1" and jb):
                losses.append(r)
            else:
                nxt[m] = nxt.get(m, 0.0) + r
    return tuple(nxt.items()), tuple(losses)


def alive_id(alive: tuple[tuple[int, float], ...]) -> int:
    """One number for a distribution of "!" counts still in control (loc_outcomes' first part)."""
    aid = _ALIVE.get(alive)
    if aid is None:
        aid = _ALIVE[alive] = len(_ALIVE_LIST)
        _ALIVE_LIST.append(alive)
    return aid


def loc_by_id(aid: int, die: str, jump: str, orange: bool) -> tuple[int, tuple[float, ...]]:
    """loc_outcomes with the distributions as alive_id() numbers (kept in _LOC_IDS)."""
    nxt, losses = loc_outcomes(_ALIVE_LIST[aid], die, jump, orange)
    if len(_LOC_IDS) > 20000:
        _LOC_IDS.clear()
    hit = _LOC_IDS[(aid, die, jump, orange)] = (alive_id(nxt), losses)
    return hit


_ALIVE: dict[tuple[tuple[int, float], ...], int] = {}  # alive_id() (the distributions are few: dice odds are fixed)
_ALIVE_LIST: list[tuple[tuple[int, float], ...]] = []
_LOC_IDS: dict[tuple[int, str, str, bool], tuple[int, tuple[float, ...]]] = {}


def loc_chance(steps: list[list], orange: bool, bangs: int = 0) -> float:
    """Exact chance of losing control over these steps (rolled in order, none secured), starting
    with `bangs` "!" already showing this turn."""
    return _loc_chance(tuple((step[0], step[3]) for step in steps), orange, bangs)


@lru_cache(maxsize=8192)
def _loc_chance(dice: tuple[tuple[str, str], ...], orange: bool, bangs: int) -> float:
    """loc_chance by what it reads of each step: its die and its jump."""
    alive: dict[int, float] = {bangs: 1.0}
    lost = 0.0
    for die, jump in dice:
        alive, lost = loc_step(alive, lost, [die, 0, 0, jump], orange)
    return lost


# ---- placement ----------------------------------------------------------------------------------


def occupied(state: dict, seat: int) -> dict[int, int]:
    """space -> seat of every other car on the track."""
    out = {}
    for s, car in enumerate(state["cars"]):
        if s != seat and car["sp"] is not None and car["track"] and not car["fin"]:
            out[car["sp"]] = s
    return out


def limit_at(state: dict, st: B.Stage, sid: int) -> int:
    sp = st.spaces[sid]
    if sp.kind == "shortcut":
        return sp.shortcut  # mud never changes the shortcut's own limit
    if sp.limit == 0:
        return 99
    if sp.corner >= 0:
        return sp.limit - state["mud"].get(str(sp.corner), 0)
    return sp.limit


def can_enter(state: dict, st: B.Stage, seat: int, occ: dict[int, int], frm: int, sid: int, gear: int) -> bool:
    """May a die of this gear lie on space sid (coming from frm)? Limits, cars, corners, slides."""
    free, least = _entry(state, st, seat, occ, frm, sid)
    return free and gear >= least


def _entry(state: dict, st: B.Stage, seat: int, occ: dict[int, int], frm: int, sid: int) -> tuple[bool, int]:
    """can_enter() in two parts: (may any die lie there, the least gear it needs); the gear
    counts only beside another car (next_steps asks for several dice: the rest is the same)."""
    if sid in occ:
        return False, 0
    sp = st.spaces[sid]
    cars = state["cars"]
    b = st.beside(sid)
    # moving alongside a car needs at least its gear
    least = cars[occ[b]]["gear"] if b is not None and b in occ else 0
    return _enter_ok(state, st, occ, frm, sid, sp, cars) or _abreast_slider(state, st, seat, occ, frm, sid), least


SLIDERS_ABREAST = 3  # the rules_version from which two cars sliding side by side do not hold each other


def _abreast_slider(state: dict, st: B.Stage, seat: int, occ: dict[int, int], frm: int, sid: int) -> bool:
    """Whether a car held only by a slider level with it may go on: the seed holds a car that follows
    a slider (その車を追いかけて…追い越すことはできません); a car that slid itself, level with it in
    the same row, follows no one (before rules_version 3 two such cars held each other for ever)."""
    car = state["cars"][seat]
    if state.get("rules_version", 0) < SLIDERS_ABREAST or car["side"] is not True or car["sp"] != frm:
        return False
    mine = {osid: o for osid, o in occ.items() if osid not in st.row_spaces(st.spaces[frm].row)}
    return _enter_ok(state, st, mine, frm, sid, st.spaces[sid], state["cars"])


def _enter_ok(state: dict, st: B.Stage, occ: dict[int, int], frm: int, sid: int, sp: Any, cars: list) -> bool:
    """The part of can_enter() no gear changes: corners held by cars, shortcuts, sliding cars."""
    if sp.corner >= 0 and sp.kind in ("inner", "outer"):
        here = st.spaces[frm]
        for osid, oseat in occ.items():
            o = st.spaces[osid]
            if o.corner != sp.corner or o.kind not in ("inner", "outer"):
                continue
            if here.corner == o.corner and here.kind in ("inner", "outer"):
                # already in this corner (two cars can be, after a crashed car is back on the
                # road): only a car ahead in one's own lane holds one up
                if here.kind == o.kind and here.index < o.index <= sp.index:
                    return False
                continue
            # a car in a corner: enter in its lane only, never onto or past it
            if o.kind != sp.kind or sp.index >= o.index:
                return False
    if sp.kind == "shortcut" and st.spaces[frm].kind != "shortcut":
        for osid in occ:
            o = st.spaces[osid]
            if o.corner == sp.corner and o.kind in ("inner", "outer"):
                return False  # a car in a corner cannot be passed (seed), not by its shortcut either
    fs = st.spaces[frm]
    if fs.row >= 0 and fs.kind == "slide" and sid not in fs.side:
        for other in st.row_spaces(fs.row):
            if other in occ and cars[occ[other]].get("side") is True:
                return False  # a car sliding in this row cannot be passed (its followers do not block)
    return True


def watching(st: B.Stage, frm: int, sid: int, both: int) -> frozenset[int]:
    """The spaces where another car could keep a die coming from frm off sid, or ask it for a
    gear (`_entry` reads no other): sid itself, the space beside it, its corner's lanes (sid in a
    corner lane, or a shortcut entered from outside it) and frm's slide row (a die leaving the slide
    forwards). Kept per stage by pair() (`both`)."""
    table = _WATCHING.get(st.key)
    if table is None:
        if len(_WATCHING) > 64:
            _WATCHING.clear()
        table = _WATCHING[st.key] = {}
    hit = table.get(both)
    if hit is None:
        sp, fs = st.spaces[sid], st.spaces[frm]
        spaces = {sid}
        b = st.beside(sid)
        if b is not None:
            spaces.add(b)
        if (sp.corner >= 0 and sp.kind in ("inner", "outer")) or (sp.kind == "shortcut" and fs.kind != "shortcut"):
            spaces.update(o.id for o in st.spaces if o.corner == sp.corner and o.kind in ("inner", "outer"))
        if fs.row >= 0 and fs.kind == "slide" and sid not in fs.side:
            spaces.update(st.row_spaces(fs.row))
        hit = table[both] = frozenset(spaces)
    return hit


_WATCHING: dict[str, dict[int, frozenset[int]]] = {}  # watching() by stage and pair()


def watched(st: B.Stage) -> dict[int, tuple[int, ...]]:
    """watching() the other way round: per space, the pairs (pair()) of every way of the stage
    (Geometry.routes) that a car there could hold up. Kept per stage."""
    hit = _WATCHED.get(st.key)
    if hit is None:
        found: dict[int, set[int]] = {}
        for per_side in geometry(st).routes:
            for per_gear in per_side:
                for routes in per_gear:
                    for _, frm, sid, _, _, both, _ in routes:
                        for space in watching(st, frm, sid, both):
                            found.setdefault(space, set()).add(both)
        if len(_WATCHED) > 64:
            _WATCHED.clear()
        hit = _WATCHED[st.key] = {space: tuple(sorted(pairs)) for space, pairs in found.items()}
    return hit


_WATCHED: dict[str, dict[int, tuple[int, ...]]] = {}  # watched() by stage


def dice_left(state: dict, seat: int) -> tuple[int, int, int]:
    car = state["cars"][seat]
    d = car["dmg"]
    return max(0, 6 - d["gear"]), max(0, 1 - d["brake"]), max(0, 2 - d["coast"])


class Ctx(NamedTuple):
    """Where a plan has got to (a tuple: plan searches make many)."""

    pos: int
    gear: int
    dir: int  # 0 none yet, 1 up, -1 down
    used: frozenset  # gear die values used
    n_gear: int
    n_coast: int
    brake: bool
    side: bool  # the last step was sideways along a slide
    done: bool  # the plan cannot go on (finish, water stop, certain loss of control)


_new_ctx = tuple.__new__  # Ctx from a tuple of its nine fields (Ctx._make without its checks)


def start_ctx(state: dict, seat: int) -> Ctx:
    car = state["cars"][seat]
    # a car sliding, or following a slider in "the same way", starts its turn sideways
    return Ctx(car["sp"], car["gear"], 0, frozenset(), 0, 0, False, bool(car.get("side")), False)


def next_steps(
    state: dict, st: B.Stage, seat: int, ctx: Ctx, occ: dict[int, int], pool: dict | None = None
) -> list[tuple[list, Ctx]]:
    """Every step the next die can make. pool (for the flat-out rearrangement) restricts the dice:
    {"g": set of gear values, "brake": bool, "coast": count}."""
    return Steps(state, st, seat, occ, pool).after(ctx)


def state_key(state: dict) -> bytes:
    """All the plans of a state read of it (besides stage, seat and dice colour), as orjson writes
    it with keys sorted: of each car its space, gear, whether it is on the track, sideways or
    finished, and its damage; the mud; the rules_version (the sliders abreast). The caches here
    are kept by it. (Not the cars' cards, tokens, chips or preferences: no plan reads them, and
    leaving them out makes the key several times quicker to write.)"""
    return orjson.dumps(
        [
            state.get("rules_version", 0),
            [(c["sp"], c["gear"], c["track"], c["side"], c["fin"], c["dmg"]) for c in state["cars"]],
            state["mud"],
        ],
        option=orjson.OPT_SORT_KEYS,
    )


def steps_for(state: dict, st: B.Stage, seat: int, here: bytes | None = None) -> Steps:
    """The seat's Steps in this state (next_steps with the cars that are there), kept for the last
    few states by all it reads (state_key, given as `here` when known): the plan search, the
    moves, the menu and the labels share what each has worked out."""
    return _steps_at(state, st, seat, state_key(state) if here is None else here)


def _steps_at(state: dict, st: B.Stage, seat: int, here: bytes) -> Steps:
    """steps_for(), `here` its key (state_key)."""
    key = (st.key, seat, here)
    hit = _STEPS.get(key)
    if hit is None:
        if len(_STEPS) > 16:
            _STEPS.clear()
        hit = _STEPS[key] = Steps(state, st, seat, occupied(state, seat))
    return hit


_STEPS: dict[tuple, Steps] = {}


@dataclass(frozen=True)
class Target:
    """A space a die may go to from another, with what the way there reads of it (all fixed by the
    stage): the shortcut's limit when it is entered there (99: none), the jump's value (0: none,
    or sideways) and where a jump lands, one space on ("eq") or two ("p1", "p2")."""

    sid: int
    sideways: bool
    shortcut: int
    jump: int
    land_eq: tuple[int, ...]
    land_far: tuple[int, ...]


# A way a die of some gear may go from a space (Geometry.routes), all the stage decides of it:
# (the jump space it flies over, or -1; the space it comes from onto its own; its space; its
# jump ("", "eq", "p1", "p2"); sideways along a slide; the two spaces as one key, pair(); its
# space and sideways as one number, space * 2 + sideways)
Route = tuple[int, int, int, str, bool, int, int]


def pair(frm: int, sid: int) -> int:
    """One key for a die coming from frm onto sid (Steps.entries)."""
    return frm * 4096 + sid


@dataclass(frozen=True)
class Geometry:
    """A stage's ways, worked out once: targets[space][sideways before] (a car that slid drifts
    on: no inside corner lane), and each space's finish, water and front."""

    targets: tuple[tuple[tuple[Target, ...], tuple[Target, ...]], ...]
    finish: tuple[bool, ...]
    water: tuple[bool, ...]
    front: tuple[float, ...]
    routes: tuple[tuple[tuple[tuple[Route, ...], ...], ...], ...]  # routes[space][sideways before][gear]
    # no two routes of a die onto one space differ but by their jump (so a step's place and die
    # tell it apart: the plan search needs no check of its own against the same step twice)
    plain: bool


def geometry(st: B.Stage) -> Geometry:
    """The stage's Geometry (kept per stage)."""
    geo = _GEOMETRY.get(st.key)
    if geo is None:
        if len(_GEOMETRY) > 64:
            _GEOMETRY.clear()
        targets = tuple((_targets(st, sid, False), _targets(st, sid, True)) for sid in range(len(st.spaces)))
        routes = tuple(
            tuple(tuple(_routes(sid, ways, gear) for gear in range(8)) for ways in both)
            for sid, both in enumerate(targets)
        )
        geo = _GEOMETRY[st.key] = Geometry(
            targets,
            tuple(bool(sp.finish) for sp in st.spaces),
            tuple(bool(sp.water) for sp in st.spaces),
            tuple(sp.front for sp in st.spaces),
            routes,
            all(_plain(rs) for both in routes for per in both for rs in per),
        )
    return geo


_GEOMETRY: dict[str, Geometry] = {}


def _targets(st: B.Stage, pos: int, side: bool) -> tuple[Target, ...]:
    spaces = st.spaces
    here = spaces[pos]
    targets = [(n, False) for n in here.succ]
    if here.kind == "slide" and not side:
        targets += [(n, True) for n in here.side]
    if side and here.kind == "slide":
        # reading of the seed's "no change of orientation midway" (向き: inside lane =
        # lengthwise, outside = sideways, a drift): a car that slid drifts into the corner
        targets = [t for t in targets if spaces[t[0]].kind != "inner"]
    out = []
    for n, sideways in targets:
        sp = spaces[n]
        far = {b for a in sp.succ for b in spaces[a].succ}
        out.append(
            Target(
                n,
                sideways,
                sp.shortcut if sp.kind == "shortcut" and here.kind != "shortcut" else 99,
                0 if sideways else sp.jump,
                _landings(st, set(sp.succ)),
                _landings(st, far),
            )
        )
    return tuple(out)


def _routes(pos: int, targets: tuple[Target, ...], ng: int) -> tuple[Route, ...]:
    """The routes of a die of gear ng from pos, in the order of the targets and their landings."""
    out: list[Route] = []
    for t in targets:
        if ng > t.shortcut:
            continue
        if t.jump and ng >= t.jump:
            cls = "eq" if ng == t.jump else ("p1" if ng == t.jump + 1 else "p2")
            out += [
                (t.sid, t.sid, L, cls, False, pair(t.sid, L), L * 2) for L in (t.land_eq if cls == "eq" else t.land_far)
            ]
        else:
            out.append((-1, pos, t.sid, "", t.sideways, pair(pos, t.sid), t.sid * 2 + t.sideways))
    return tuple(out)


def _plain(routes: tuple[Route, ...]) -> bool:
    """Whether routes onto the same space all go the same way (sideways or not)."""
    way: dict[int, bool] = {}
    return all(way.setdefault(r[2], r[4]) == r[4] for r in routes)


_DICE: dict[int, list[tuple[str, int, int, bool]]] = {}  # Steps.grown_dice() by grown() * 512 + Steps.left
_GROWN: dict[tuple, int] = {}  # grown() numbers
_GROWN_LIST: list[tuple] = []  # and what each stands for


def as_ctx(where: tuple) -> Ctx:
    """Where a plan has got to, kept by Steps.plans as (space, grown(), sideways, done), as a Ctx."""
    return _new_ctx(Ctx, (where[0], *_GROWN_LIST[where[1]], where[2], where[3]))


def grown(rest: tuple) -> int:
    """One number for the rest of a Ctx after its space: (gear, dir, used, n_gear, n_coast,
    brake); they are few (the same for every stage and search)."""
    gid = _GROWN.get(rest)
    if gid is None:
        gid = _GROWN[rest] = len(_GROWN_LIST)
        _GROWN_LIST.append(rest)
    return gid


def _grown(ctx: tuple, code: str, ng: int, nd: int) -> tuple:
    """What a die adds to where a plan has got to, wherever it lies: Ctx's gear, dir, used,
    n_gear, n_coast and brake after it."""
    is_gear = code != "c"
    return (
        ng,
        nd,
        ctx[3] | {ng} if is_gear else ctx[3],
        ctx[4] + 1 if is_gear else ctx[4],
        ctx[5] if is_gear else ctx[5] + 1,
        ctx[6] or code.endswith("b"),
    )


def _landings(st: B.Stage, land: set[int]) -> tuple[int, ...]:
    # water is an obstacle (seed: 水の障害物), and no jump lands on one; a shortcut is entered
    # from the slide space before it, not from the air
    return tuple(L for L in sorted(land) if not st.spaces[L].water and st.spaces[L].kind != "shortcut")


def limits(state: dict, st: B.Stage) -> tuple[int, ...]:
    """limit_at() of every space of the stage (kept per stage and mud)."""
    key = (st.key, tuple(sorted(state["mud"].items())))
    hit = _LIMITS.get(key)
    if hit is None:
        if len(_LIMITS) > 256:
            _LIMITS.clear()
        hit = _LIMITS[key] = tuple(limit_at(state, st, sid) for sid in range(len(st.spaces)))
    return hit


_LIMITS: dict[tuple, tuple[int, ...]] = {}


class Steps:
    """next_steps for one seat in one state, for as many places as a search asks about: the
    stage's ways (geometry), limits and what may lie where (can_enter) worked out once each."""

    __slots__ = (
        "state",
        "st",
        "seat",
        "occ",
        "pool",
        "dice_left",
        "left",
        "geo",
        "limits",
        "entries",
        "memo",
        "pool_dice",
    )

    def __init__(self, state: dict, st: B.Stage, seat: int, occ: dict[int, int], pool: dict | None = None) -> None:
        self.state, self.st, self.seat, self.occ, self.pool = state, st, seat, occ, pool
        self.dice_left = dice_left(state, seat)
        self.left = self.dice_left[0] * 16 + self.dice_left[1] * 4 + self.dice_left[2]  # one number, under 512
        self.geo = geometry(st)
        self.limits = limits(state, st)
        # need() by pair(frm, sid): none (0, left out) but where another car watches the way
        # (watched()); -1 there until need() has worked it out
        self.entries: dict[int, int] = {}
        watch = watched(st)
        for space in occ:
            for both in watch.get(space, ()):
                self.entries[both] = -1
        self.memo: dict[Ctx, list[tuple[list, Ctx]]] = {}  # after() by ctx
        self.pool_dice: dict[int, list[tuple[str, int, int, bool]]] = {}  # grown_dice() from the pool

    def dice(self, ctx: Ctx) -> list[tuple[str, int, int]]:
        """The dice the next step may use: (die code, new gear, new direction)."""
        pool = self.pool
        max_g, max_b, max_c = self.dice_left
        dice: list[tuple[str, int, int]] = []
        g = ctx.gear

        def gear_ok(v: int) -> bool:
            if pool is not None:
                return v in pool["g"] and v not in ctx.used
            return 1 <= v <= 6 and v not in ctx.used and ctx.n_gear < max_g

        if ctx.dir >= 0 and gear_ok(g + 1):
            dice.append((f"g{g + 1}", g + 1, 1))
        if ctx.dir <= 0 and g - 1 >= 1 and gear_ok(g - 1):
            dice.append((f"g{g - 1}", g - 1, -1))
        brake_ok = (pool["brake"] if pool is not None else max_b > 0) and not ctx.brake
        # the brake: placed with a gear die two below (6 -> [4 + brake]). The seed's example "[6] ->
        # [5 + brake]" with "speed -1" also ends in gear 4 one space on (5 - 1), as BGA's "6 -> brake
        # -> 4" does; the die lying there is read as the gear reached, since the seed's water rule
        # ("a gear-1 die, not combined with the brake") needs a [1 + brake] to exist
        if ctx.dir <= 0 and g - 2 >= 1 and gear_ok(g - 2) and brake_ok:
            dice.append((f"g{g - 2}b", g - 2, -1))
        coast_ok = (ctx.n_coast < pool["coast"]) if pool is not None else ctx.n_coast < max_c
        if g >= 1 and coast_ok:
            dice.append(("c", g, ctx.dir))
        return dice

    def after(self, ctx: Ctx) -> list[tuple[list, Ctx]]:
        """Every step the next die can make from ctx, each (die, space, jump) once. (Kept per
        ctx: the moves, the menu and the labels of a state ask alike.)"""
        return list(self.kept_after(ctx))

    def kept_after(self, ctx: Ctx) -> list[tuple[list, Ctx]]:
        """after() as it is kept: a caller that only reads it saves the copy (it must change
        neither the list nor its steps)."""
        hit = self.memo.get(ctx)
        if hit is None:
            hit = self.memo[ctx] = self._after(ctx)
        return hit

    def _after(self, ctx: Ctx) -> list[tuple[list, Ctx]]:
        if ctx.done or self.geo.finish[ctx.pos]:
            return []
        gid = grown(ctx[1:7])
        dice = _DICE.get(gid * 512 + self.left) if self.pool is None else self.pool_dice.get(gid)
        if dice is None:
            dice = self.grown_dice(gid)
        occ, needs, limits, finish, water = self.occ, self.entries, self.limits, self.geo.finish, self.geo.water
        routes = self.geo.routes[ctx.pos][1 if ctx.side else 0]
        seen: set = set()
        out = []
        for code, ng, next_gid, stops in dice:  # with grown_dice's Ctx after each die
            rest = _GROWN_LIST[next_gid]
            for over, frm, sid, jump, sideways, both, _ in routes[ng]:
                if over >= 0 and over in occ:
                    continue
                need = needs.get(both, 0)
                if need < 0:
                    need = self.need(frm, sid, both)
                if ng < need:
                    continue
                if ng > limits[sid]:
                    jump, done = "ov", True  # over the limit: loss of control on that space, certain
                else:
                    done = finish[sid] or (water[sid] and stops) or jump == "p2"
                if (code, sid, jump) in seen:
                    continue  # both spaces of a jump row can lead to the same landing
                seen.add((code, sid, jump))
                out.append(([code, sid, ng, jump], _new_ctx(Ctx, (sid, *rest, sideways, done))))
        return out

    def plans(self, start: Ctx, orange: bool, cap: int) -> dict[int, tuple[float, list, tuple]]:
        """all_plans' search: plans grown die by die from start (after()'s work inline, a
        place already reached in the same way is not grown again), per (end space, end gear) the
        least chance of losing control (loc_step's arithmetic in its order), then the fewest dice,
        by space * 8 + gear; with each its risk and where it has got to as (space, grown(), sideways, done), grown()
        being the number of the rest of a Ctx (as_ctx() makes it one). A plan's steps are shared with
        the plans it leads to (a plan is its list of steps: they are few, and the plans kept many)."""
        best: dict[int, tuple[float, list, tuple, int]] = {}  # by space * 8 + gear: risk, plan, where, length
        seen: set[int] = set()
        # (where the plan has got to: space, grown(), sideways, done; the plan; the "!" counts in
        # control and their chances (alive_id()); the chance lost so far; the plan's length)
        stack: list[tuple[int, int, bool, bool, list, int, float, int]] = [
            (start.pos, grown(start[1:7]), start.side, start.done, [], alive_id(((0, 1.0),)), 0.0, 0)
        ]
        n = 0
        routes_at, finish, water, limits = self.geo.routes, self.geo.finish, self.geo.water, self.limits
        occ, needs, check_twice = self.occ, self.entries, not self.geo.plain
        left, loc, width = self.left, _LOC_IDS, 2 * len(finish)
        taken: set = set()  # (die, space, jump): once each per place, as after() keeps them
        while stack and n < cap:
            pos, gid, side, done, node, alive, lost, depth = stack.pop()
            if done or finish[pos]:
                continue
            routes = routes_at[pos][1 if side else 0]
            if check_twice:
                taken = set()
            dice = _DICE.get(gid * 512 + left)
            if dice is None:
                dice = self.grown_dice(gid)
            depth += 1
            for code, ng, next_gid, stops in dice:
                base = next_gid * width
                for over, frm, sid, jump, sideways, both, place in routes[ng]:
                    k = base + place  # one number for (grown, space, sideways)
                    again = k in seen
                    if again and not check_twice:
                        continue  # (the checks below would not let it through either)
                    if over >= 0 and over in occ:
                        continue
                    need = needs.get(both, 0)
                    if need < 0:
                        need = self.need(frm, sid, both)
                    if ng < need:
                        continue
                    if ng > limits[sid]:
                        jump = "ov"  # over the limit: loss of control on that space, certain
                        ends = True
                    else:
                        ends = finish[sid] or (water[sid] and stops) or jump == "p2"
                    if check_twice:
                        if (code, sid, jump) in taken:
                            continue
                        taken.add((code, sid, jump))
                        if again:
                            continue
                    seen.add(k)
                    n += 1
                    plan = [*node, [code, sid, ng, jump]]
                    out = loc.get((alive, code, jump, orange)) or loc_by_id(alive, code, jump, orange)
                    risk = lost
                    for r in out[1]:  # as loc_step adds them
                        risk += r
                    end = sid * 8 + ng
                    old = best.get(end)
                    if old is None or risk < old[0] - 1e-12 or (abs(risk - old[0]) < 1e-12 and depth < old[3]):
                        best[end] = (risk, plan, (sid, next_gid, sideways, ends), depth)
                    if not ends:  # (a plan that ends grows no further)
                        stack.append((sid, next_gid, sideways, ends, plan, out[0], risk, depth))
        return {end: (risk, plan, w) for end, (risk, plan, w, _) in best.items()}

    def grown_dice(self, gid: int) -> list[tuple[str, int, int, bool]]:
        """dice() for plans() and after(), kept by the dice left and the rest of a Ctx (its grown()
        number), or with the Steps when a pool gives the dice: (die, new gear, the grown() number
        after it, whether water stops it)."""
        ctx = (0, *_GROWN_LIST[gid], False, False)
        dice: list[tuple[str, int, int, bool]] = []
        if self.pool is None:
            _DICE[gid * 512 + self.left] = dice
        else:
            self.pool_dice[gid] = dice
        for code, ng, nd in self.dice(Ctx(*ctx)):
            dice.append((code, ng, grown(_grown(ctx, code, ng, nd)), code not in ("c", "g1")))
        return dice

    def need(self, frm: int, sid: int, both: int) -> int:
        """The least gear a die needs to lie on sid coming from frm (99: none may), kept by pair()
        (asked only where another car watches the way: elsewhere none)."""
        free, least = _entry(self.state, self.st, self.seat, self.occ, frm, sid)
        need = self.entries[both] = least if free else 99
        return need


def replay_steps(
    state: dict, st: B.Stage, seat: int, steps: list[list], ctx: Ctx | None = None, pool: dict | None = None
) -> Ctx | None:
    """Check that steps are legal one after another; the context after them, or None."""
    occ = occupied(state, seat)
    ctx = ctx or start_ctx(state, seat)
    for step in steps:
        for cand, nctx in next_steps(state, st, seat, ctx, occ, pool):
            if cand == list(step):
                ctx = nctx
                break
        else:
            return None
    return ctx


def all_plans(
    state: dict, st: B.Stage, seat: int, orange: bool, cap: int = 4000, here: bytes | None = None
) -> list[tuple[list, float]]:
    """Whole plans: per (end space, end gear) the one with the least chance of losing control.
    (`here`: the state's state_key when known.)"""
    here = state_key(state) if here is None else here
    key = (st.key, seat, orange, here)
    hit = _PLANS.get(key)
    if hit is not None:
        return hit
    best = _steps_at(state, st, seat, here).plans(start_ctx(state, seat), orange, cap)
    out = [(p, r) for r, p, _ in best.values()]
    if len(_PLANS) > 16:
        _PLANS.clear()
        _ENDS.clear()
    _PLANS[key] = out
    _ENDS[(st.key, seat, here)] = best
    return out


_PLANS: dict[tuple, list] = {}
# the plans all_plans found, by (stage, seat, cars and mud) and their ends (space * 8 + gear), with
# their risk and where each has got to (as Steps.plans keeps it): match_steps reads a whole plan's
# code there at once
_ENDS: dict[tuple, dict[int, tuple[float, list, tuple]]] = {}


def _measures(
    state: dict, st: B.Stage, seat: int, plans: list[tuple[list, float]]
) -> tuple[list[tuple], list[float], list[tuple]]:
    """Per plan, in its order: its rank as a sensible driver ranks the plans under its risk line
    (not too fast for the corner ahead, then the farthest, then the highest gear: a faster time
    card, then the safest), its score in the plan list and its place in the list's order
    (good_plans); too_fast() worked out once per end (space, gear)."""
    table = _penalty_table(state, st, 6)
    geo = geometry(st)
    fronts, finish = geo.front, geo.finish
    start = fronts[state["cars"][seat]["sp"]]
    keys, scores, order = [], [], []
    for p, r in plans:
        last = p[-1]
        sid, gear = last[1], last[2]
        pen = table.get(sid * 8 + gear)
        if pen is None:
            pen = table[sid * 8 + gear] = _too_fast(state, st, sid, gear, 6)
        front = fronts[sid]
        gain = front - start
        keys.append((-pen, gain, gear, -r))
        scores.append(gain - 14.0 * r + 0.25 * gear + (3.0 if finish[sid] else 0.0) - pen)
        order.append((r >= 1 - 1e-9, -front, r, -gear))
    return keys, scores, order


def best_plan(state: dict, st: B.Stage, seat: int, orange: bool, line: float) -> tuple[list, float] | None:
    """The plan a sensible driver takes: the best ranked (_measures) whose chance of losing control is at
    most `line`; if none is, the safest. Never a certain loss of control when another plan exists."""
    plans = all_plans(state, st, seat, orange)
    if not plans:
        return None
    return plans[_best_index(plans, _measures(state, st, seat, plans)[0], line)]


def _best_index(plans: list[tuple[list, float]], keys: list[tuple], line: float) -> int:
    """best_plan among these plans (there are some), their ranks given: its place in the list
    (the first of equals)."""
    best = -1
    for i, (_, r) in enumerate(plans):
        if r <= line + 1e-9 and (best < 0 or keys[i] > keys[best]):
            best = i
    if best >= 0:
        return best
    return min(range(len(plans)), key=lambda i: (plans[i][1], [-x for x in keys[i]]))


def good_plans(
    state: dict, st: B.Stage, seat: int, orange: bool, line: float = 0.2, k: int = 24, here: bytes | None = None
) -> list[tuple[list, float]]:
    """The plan list: first the plan a sensible driver takes under the risk line (best_plan), then
    the best others by a score (distance, risk, gear, the corner ahead), farthest first; plans
    that lose control for certain come last."""
    plans = all_plans(state, st, seat, orange, here=here)
    if not plans:
        return []
    keys, scores, order = _measures(state, st, seat, plans)
    first = _best_index(plans, keys, line)
    rest = [i for i in range(len(plans)) if i != first]
    rest.sort(key=scores.__getitem__, reverse=True)
    top = rest[: k - 1]
    top.sort(key=order.__getitem__)
    return [plans[first]] + [plans[i] for i in top]


def too_fast(state: dict, st: B.Stage, sid: int, gear: int, depth: int = 6) -> float:
    """A penalty for ending a turn too fast for a corner ahead: the d-th die from here can be at
    best gear - d - 1 (one step down per die, one more with the brake); if that is still over the
    corner's higher (outer) limit, next turn can only lose control there or crawl."""
    table = _penalty_table(state, st, depth)
    hit = table.get(sid * 8 + gear)
    if hit is None:
        hit = table[sid * 8 + gear] = _too_fast(state, st, sid, gear, depth)
    return hit


def _penalty_table(state: dict, st: B.Stage, depth: int) -> dict[int, float]:
    """too_fast() by space * 8 + gear, kept per stage, mud and depth (all else it reads)."""
    key = (st.key, tuple(sorted(state["mud"].items())), depth)
    table = _TOO_FAST.get(key)
    if table is None:
        if len(_TOO_FAST) > 256:
            _TOO_FAST.clear()
        table = _TOO_FAST[key] = {}
    return table


_TOO_FAST: dict[tuple, dict[int, float]] = {}


def _too_fast(state: dict, st: B.Stage, sid: int, gear: int, depth: int) -> float:
    pen = 0.0
    frontier, seen = [sid], {sid}
    for d in range(1, depth + 1):
        nxt = []
        for a in frontier:
            for b in st.spaces[a].succ:
                if b in seen:
                    continue
                seen.add(b)
                nxt.append(b)
                sp = st.spaces[b]
                if sp.kind == "outer" and sp.index == 0:
                    over = max(1, gear - d - 1) - limit_at(state, st, b)
                    if over > 0:
                        pen = max(pen, 4.0 + 2.0 * over)
        frontier = nxt
    return pen


def encode(steps: list[list]) -> str:
    return ",".join([f"{s[0]}:{s[1]}:{s[3]}" for s in steps])


def step_code(step: list) -> str:
    """encode() of a plan of this one step."""
    return f"{step[0]}:{step[1]}:{step[3]}"


def encode_all(plans: list[tuple[list, float]]) -> list[str]:
    """encode() of each plan of a list; a step the plans share (all_plans' plans share their first
    steps, the same objects) is written once."""
    parts: dict[int, str] = {}  # by id(step): the steps are all alive while this runs
    out = []
    for p, _ in plans:
        codes = []
        for s in p:
            c = parts.get(id(s))
            if c is None:
                c = parts[id(s)] = f"{s[0]}:{s[1]}:{s[3]}"
            codes.append(c)
        out.append(",".join(codes))
    return out


def decode(code: Any) -> list[tuple[str, int, str]] | None:
    if not isinstance(code, str) or len(code) > 200:
        return None
    out = []
    for part in code.split(",") if code else []:
        bits = part.split(":")
        if len(bits) != 3 or not bits[1].isdigit() or bits[2] not in ("", "eq", "p1", "p2", "ov"):
            return None
        out.append((bits[0], int(bits[1]), bits[2]))
    return out


def match_steps(
    state: dict, st: B.Stage, seat: int, code: Any, ctx: Ctx | None = None, pool: dict | None = None
) -> tuple[list[list], Ctx] | None:
    """Decode a plan code and check it step by step: (steps, context after) or None."""
    dec = decode(code)
    if dec is None:
        return None
    if ctx is None and pool is None:
        return _match_from_start(state, st, seat, dec)
    ctx = ctx or start_ctx(state, seat)
    ways = steps_for(state, st, seat) if pool is None else Steps(state, st, seat, occupied(state, seat), pool)
    steps = []
    for die, sid, jump in dec:
        found = _step_like(ways, ctx, die, sid, jump)
        if found is None:
            return None
        steps.append(found[0])
        ctx = found[1]
    return steps, ctx


def _step_like(ways: Steps, ctx: Ctx, die: str, sid: int, jump: str) -> tuple[list, Ctx] | None:
    """The first step from `ctx` with this die, space and jump (None: there is none)."""
    for cand, nctx in ways.kept_after(ctx):
        if cand[0] == die and cand[1] == sid and cand[3] == jump:
            return cand, nctx
    return None


def _match_from_start(
    state: dict, st: B.Stage, seat: int, dec: list[tuple[str, int, str]]
) -> tuple[list[list], Ctx] | None:
    """match_steps from the car's own place, each step kept for the state it was found in: the
    plans of a list share their first steps, and labels, menus and moves match the same codes."""
    if not dec:
        return [], start_ctx(state, seat)
    cars = state_key(state)
    here = (st.key, seat, cars)
    known = _known_plan(state, seat, dec, _ENDS.get(here))
    if known is not None:
        return known
    if len(_MATCHES) > 4096:
        _MATCHES.clear()
    ctx = start_ctx(state, seat)
    steps = []
    for i, (die, sid, jump) in enumerate(dec):
        key = (here, tuple(dec[: i + 1]))
        if key in _MATCHES:
            found = _MATCHES[key]
        else:
            found = _MATCHES[key] = _step_like(_steps_at(state, st, seat, cars), ctx, die, sid, jump)
        if found is None:
            return None
        steps.append(list(found[0]))
        ctx = found[1]
    return steps, ctx


_MATCHES: dict[tuple, tuple[list, Ctx] | None] = {}  # a plan code's last step, by all the steps read


def _known_plan(
    state: dict, seat: int, dec: list[tuple[str, int, str]], ends: dict[int, tuple[float, list, tuple]] | None
) -> tuple[list[list], Ctx] | None:
    """The plan all_plans found with exactly these steps (die, space, jump), and where it has got
    to; None if it found none (the steps are then matched one by one)."""
    if not ends:
        return None
    gear = state["cars"][seat]["gear"]  # a coast die keeps the gear of the die before it
    for die, _, _ in dec:
        if die[:1] == "g" and die[1:2].isdigit():
            gear = int(die[1])
    found = ends.get(dec[-1][1] * 8 + gear)
    if found is None or len(found[1]) != len(dec):
        return None
    if any(s[0] != d or s[1] != sid or s[3] != j for s, (d, sid, j) in zip(found[1], dec)):
        return None
    return [list(s) for s in found[1]], as_ctx(found[2])


def crash_tokens(gear: int, danger: str) -> int:
    if gear < 1:
        return 0
    return rules().crash_tokens[gear][danger]


def secure_cost(n_secured: int, n_dice: int) -> int:
    """Seconds to secure the next step (n_dice dice) after n_secured secured dice this turn.
    Reading of the seed (1 s for the first die, 2 s, 3 s as more dice are secured): the k-th
    secured die of a turn costs k seconds; the seed names no end to the rise, so past the
    listed prices each further die costs one second more than the one before."""
    cost = rules().secure_cost

    def kth(k: int) -> int:  # k from 0
        return cost[k] if k < len(cost) else cost[-1] + (k - len(cost) + 1)

    return sum(kth(k) for k in range(n_secured, n_secured + n_dice))
