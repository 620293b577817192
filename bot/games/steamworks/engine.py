"""Steam Works: worker placement where the devices you build become action spaces for everyone.

Pure rules engine over plain-data state (see bot/games/base.py for the contract). The rules come
from the seed (BGA's Japanese help); the content (tiles, personas, clocks, belts) is designed, see
data/steamworks/. Rule readings of ambiguous sentences are marked `# Rule reading:`.

Flow: rounds of turns from the start player clockwise; each turn the active player takes their
leftmost unused mechanic and places it (pays the cost under its home space; first of a round free)
or passes (takes the coins shown there). Placing on a persona space does its action at once;
placing on a device's source starts an activation ("activate" stage: fire the powered components
one by one, or all at once with defaults); building enters the "build" stage (lay tiles one at a
time from legal options only, then confirm). When every mechanic is used the round ends: mechanics
come home, the automaton takes its clock, the age check, the belts advance and refill, the start
player moves left.

Every action is {"type": ..., "choice": str}; a select sends {"type": ..., "values": [str]}, read
the same way. Choices: place "tile:<age>" "source:<C|S|E>" "build" "workshop:<age>:<slot>"
"dev:<id>:<x>,<y>"; fire "<x>,<y>:<power>[:<param>]"; lay "<tile>:<x>:<y>:<r>[:<device id>]"; plan
"<tile>:<x>:<y>:<r>/..." (a whole new device at once, offered where every legal one fits a select).
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from bot.games.base import Action, Engine, Event, GameError, OptionSpec, State, View, chosen, clone, move, seat_ref
from bot.games.rng import Rng
from bot.games.steamworks import geometry as geo
from bot.games.steamworks import hidden
from bot.games.steamworks.content import POWERS, setup, tiles
from bot.i18n import Msg, from_wire, msg, to_wire

SCHEMA = 3  # 2: the start marker ("marker") and the Innovation Turbine's private look ("reveal");
# 3: the phase is "phase" (it was "stage")
LOG_KEEP = 40
VIEW_LOG = 12
TILES = tiles()
SETUP = setup()
AGES = ("1", "2", "3")
POWER_NAMES = {"C": "clockwork", "S": "steam", "E": "electrickal"}
AGE_NAMES = {"1": "Age I", "2": "Age II", "3": "Age III"}
SPACE_NAMES = {s["id"]: s["name"] for s in SETUP.spaces}
BUILD_SIZE = next(s["n"] for s in SETUP.spaces if s["id"] == "build")
WORKSHOP_PRICE = next(s["price"] for s in SETUP.spaces if s["id"] == "workshop")


def _p(seat: int) -> str:
    return seat_ref(seat)


def tile_name(tid: str) -> Msg:
    return msg(TILES[tid].name)


def power_name(p: str) -> Msg:
    return msg(POWER_NAMES[p])


def age_name(a: str | int) -> Msg:
    return msg(AGE_NAMES[str(a)])


def _log(st: State, ev: list[Event], text: Msg) -> None:
    ev.append(Event(text))
    st["log"].append(to_wire(text))
    del st["log"][:-LOG_KEEP]


class SteamWorksEngine(Engine):
    kind = "steamworks"
    title = "Steam Works"
    rules_version = 2  # raise it when a change makes old logs replay differently (bot/games/base.py)
    min_seats = SETUP.min_players
    max_seats = SETUP.max_players
    options = [OptionSpec("personas", "How persona boards are dealt", ["random", "seat order"], "str", "random")]

    def describe_options(self, options: dict[str, Any]) -> list[Msg]:
        """The table's options as the lobby shows them."""
        return [msg("persona boards dealt in seat order") if options.get("personas") == "seat order"
                else msg("persona boards dealt at random")]

    # -- setup --------------------------------------------------------------------------------------

    def new_game(self, options: dict[str, Any], seats: int, seed: int) -> State:
        options = self.validate_options(options, seats)
        rng = Rng(seed)
        personas = list(SETUP.personas)
        if options["personas"] == "random":
            rng.shuffle(personas)
        stacks: dict[str, list[str]] = {}
        for a in AGES:
            pile = [t.id for t in TILES.values() if t.age == int(a) for _ in range(t.copies)]
            rng.shuffle(pile)
            stacks[a] = pile
        players = []
        for s in range(seats):
            p = SETUP.personas[personas[s]]
            players.append({"persona": p.id, "money": p.money,
                            "sources": {c: p.sources.get(c, 0) for c in POWERS},
                            "tiles": sorted(p.tiles), "clocks": 0, "vp": 0})
        belt = SETUP.belt[seats]
        st: State = {
            "schema": SCHEMA, "rng": 0, "seats": seats, "options": options,
            "age": 1, "unlocked": ["1"], "stacks": stacks,
            "belts": {a: [None] * belt for a in AGES},
            "clocks": {a: SETUP.clocks[seats][i] for i, a in enumerate(AGES)},
            "supply_sources": {c: 20 - sum(pl["sources"][c] for pl in players) for c in POWERS},
            "players": players, "devices": [], "occupied": {},
            "start": rng.below(seats), "marker": 0, "round": 1, "turn": 0, "turn_no": 1,
            "used": [0] * seats, "passed": [[] for _ in range(seats)],
            "phase": "main", "act": None, "build": None, "reveal": None, "log": [], "final": None,
        }
        st["marker"] = st["start"]
        self._refill_belt(st, "1")
        st["rng"] = rng.state
        _log(st, [], msg("Steam Works begins. {p} is the start player.", p=_p(st["start"])))
        st["rules_version"] = self.rules_version
        return st

    # -- saved states from older versions ---------------------------------------------------------------

    def upgrade(self, state: State) -> State:
        """A state saved by an older version, brought to the current schema (a new dict; the
        current schema is returned as it is). The table calls this once when it loads a game."""
        if not isinstance(state, dict) or state.get("schema", SCHEMA) == SCHEMA:
            return state
        st = clone(state)
        if st["schema"] == 1:
            # Schema 1 had "next_start" (the designed Alarm Chronometer: "you start the next
            # round"); schema 2 has the start marker, which the round end moves one seat left. A
            # claimed next start becomes a marker one seat to its right, so the same seat starts.
            n = st["seats"]
            nxt = st.pop("next_start", None)
            st["marker"] = (nxt - 1) % n if nxt is not None else st["start"]
            st["reveal"] = None
            st["schema"] = 2
        if st["schema"] == 2:
            st["phase"] = st.pop("stage")
            st["schema"] = 3
        return st

    # -- small helpers ------------------------------------------------------------------------------

    def mechanics(self, st: State) -> int:
        return SETUP.start_mechanics + st["age"] - 1

    def active(self, st: State) -> int:
        return (st["start"] + st["turn"]) % st["seats"]

    def _cost(self, st: State, seat: int) -> int:
        # Rule reading: the cost is printed under the home space of the mechanic being used, the
        # leftmost unused one; the first of a round is free.
        return SETUP.mechanic_cost[st["used"][seat]]

    def _clock_to(self, st: State, ev: list[Event], owner: int, n: int = 1, supply_only: bool = False) -> None:
        a = str(st["age"])
        for _ in range(n):
            if not supply_only and st["clocks"][a] > 0:
                st["clocks"][a] -= 1
            st["players"][owner]["clocks"] += 1

    def _refill_belt(self, st: State, a: str) -> bool:
        """Slide tiles right, then fill the empty spaces from the stack. False if it ran short."""
        belt = st["belts"][a]
        tiles_on = [t for t in belt if t is not None]
        belt[:] = [None] * (len(belt) - len(tiles_on)) + tiles_on
        for i in range(len(belt)):
            if belt[i] is None:
                if not st["stacks"][a]:
                    return False
                belt[i] = st["stacks"][a].pop(0)
        return True

    def _supply(self, st: State, seat: int) -> Counter:
        pl = st["players"][seat]
        c = Counter(pl["tiles"])
        for p in POWERS:
            if pl["sources"][p]:
                c[f"src_{p}"] = pl["sources"][p]
        return c

    def _take_from_supply(self, st: State, seat: int, tid: str) -> None:
        pl = st["players"][seat]
        if TILES[tid].is_basic:
            pl["sources"][tid[-1]] -= 1
        else:
            pl["tiles"].remove(tid)

    def _gain_source(self, st: State, seat: int, p: str, n: int) -> int:
        n = min(n, st["supply_sources"][p])
        st["supply_sources"][p] -= n
        st["players"][seat]["sources"][p] += n
        return n

    def _device(self, st: State, did: int) -> dict[str, Any]:
        for d in st["devices"]:
            if d["id"] == did:
                return d
        raise GameError(msg("There is no such device."))

    def _take_from_belt(self, st: State, ev: list[Event], seat: int, age: str) -> None:
        """The seat takes the rightmost tile of an age's belt."""
        i = self._belt_rightmost(st, age)
        tid = st["belts"][age][i]
        st["belts"][age][i] = None
        pl = st["players"][seat]
        pl["tiles"].append(tid)
        pl["tiles"].sort()
        _log(st, ev, msg("{p} takes {tile} from the {age} belt.", p=_p(seat), tile=tile_name(tid), age=age_name(age)))

    def _belt_rightmost(self, st: State, a: str) -> int | None:
        belt = st["belts"][a]
        for i in range(len(belt) - 1, -1, -1):
            if belt[i] is not None:
                return i
        return None

    # -- what may be done ---------------------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        return [] if state["phase"] == "over" else [self.active(state)]

    def _place_choices(self, st: State, seat: int) -> list[str]:
        money = st["players"][seat]["money"]
        cost = self._cost(st, seat)
        if money < cost:
            return []
        out = []
        own = lambda space: f"p{seat}:{space}" not in st["occupied"]  # noqa: E731
        if own("tile"):
            out += [f"tile:{a}" for a in st["unlocked"] if self._belt_rightmost(st, a) is not None]
        if own("source"):
            out += [f"source:{p}" for p in POWERS if st["supply_sources"][p] > 0]
        if own("build") and geo.feasible([], self._supply(st, seat), BUILD_SIZE):
            out.append("build")
        if own("workshop") and money >= cost + WORKSHOP_PRICE:
            out += [f"workshop:{a}:{i}" for a in st["unlocked"] for i, t in enumerate(st["belts"][a]) if t]
        for d in st["devices"]:
            for pt in d["tiles"]:
                key = f"dev:{d['id']}:{pt['x']},{pt['y']}"
                if TILES[pt["t"]].is_source and key not in st["occupied"] \
                        and geo.powered(d["tiles"], (pt["x"], pt["y"])):
                    out.append(key)
        return out

    def _fire_choices(self, st: State, seat: int) -> list[str]:
        act = st["act"]
        pl = st["players"][seat]
        out = []
        for at, types in act["targets"].items():
            used = at in act["used"]
            tid = self._tile_at(st, act["dev"], at)
            # Rule reading: "a modifier sends the power back, so an activated tile can be used once
            # more": each modifier powered gives one more use of any tile already activated in this
            # activation (a modifier itself never repeats, or two would loop for ever).
            if used and (act["reuse"] <= 0 or TILES[tid].kind == "modifier"):
                continue
            eff = TILES[tid].effect
            op = eff["op"]
            for p in types:
                base = f"{at}:{p}"
                if op == "gain_any":
                    n = eff["n"]
                    picks = ([f"{a}" for a in POWERS] if n == 1 else
                             [a + b for i, a in enumerate(POWERS) for b in POWERS[i:]])
                    picks = [k for k in picks if all(st["supply_sources"][c] >= k.count(c) for c in set(k))]
                    out += [f"{base}:{k}" for k in picks]
                elif op == "sell_source":
                    out += [f"{base}:{c}" for c in POWERS if pl["sources"][c] > 0]
                elif op == "turbine":
                    # Research (BGA help): take a tile from an unlocked supply deck, or pay £1 to
                    # choose 1 of 2 revealed tiles. "d<age>": the top tile; "r<age>": look at two.
                    out += [f"{base}:d{a}" for a in st["unlocked"] if st["stacks"][a]]
                    if pl["money"] >= eff["price"]:
                        out += [f"{base}:r{a}" for a in st["unlocked"] if len(st["stacks"][a]) >= 2]
                elif op == "advance_start":
                    # Research (BGA help): advance the start marker once free, once more per £1.
                    # More than a full lap changes nothing, so at most seats - 1 paid steps.
                    out += [f"{base}:{k}" for k in range(min(pl["money"], st["seats"] - 1) + 1)]
                elif op == "stack_by_power":
                    a = {"C": "1", "S": "2", "E": "3"}[p]
                    if a in st["unlocked"] and st["stacks"][a]:
                        out.append(base)
                elif op == "belt_take":
                    out += [f"{base}:{a}" for a in st["unlocked"] if self._belt_rightmost(st, a) is not None]
                elif op == "build":
                    if pl["money"] >= eff.get("price", 0) and geo.feasible([], self._supply(st, seat), eff["n"]):
                        out.append(base)
                elif op == "upgrade":
                    if pl["money"] >= eff.get("price", 0) and self._upgrade_targets(st, seat):
                        out.append(base)
                elif op == "buy_vp":
                    if pl["money"] >= eff["price"]:
                        out.append(base)
                elif op == "gain_same":
                    if st["supply_sources"][p] > 0:
                        out.append(base)
                else:
                    out.append(base)
        return out

    def _upgrade_targets(self, st: State, seat: int) -> list[int]:
        sup = self._supply(st, seat)
        return [d["id"] for d in st["devices"] if d["owner"] == seat and geo.feasible(d["tiles"], sup, 1)]

    def _lay_choices(self, st: State, seat: int) -> list[str]:
        b = st["build"]
        sup = self._supply(st, seat)
        if b["left"] == 0:
            return []
        if b["mode"] == "upgrade":
            out = []
            for did in self._upgrade_targets(st, seat):
                d = self._device(st, did)
                out += [f"{c['t']}:{c['x']}:{c['y']}:{c['r']}:{did}" for c in geo.legal_lays(d["tiles"], sup, 1)]
            return out if not b.get("tile") else [c for c in out if c.split(":")[0] == b["tile"]]
        out = [f"{c['t']}:{c['x']}:{c['y']}:{c['r']}" for c in geo.legal_lays(b["placed"], sup, b["left"])]
        return out if not b.get("tile") else [c for c in out if c.split(":")[0] == b["tile"]]

    def _plans(self, st: State, seat: int) -> list[str]:
        """Whole devices to build at once (tiles, places and turns chosen together), as choices
        "<tile>:<x>:<y>:<r>/..." in the order the menu offers them: only for a new device not yet
        begun, and only when all of them fit one select (else the tiles are laid one by one)."""
        b = st["build"]
        if st["phase"] != "build" or b["mode"] != "new" or b["placed"] or b.get("tile"):
            return []
        sup = self._supply(st, seat)
        plans = geo.whole_devices(tuple(sorted((t, n) for t, n in sup.items() if n > 0)), b["left"])
        return ["/".join(f"{t}:{x}:{y}:{r}" for t, x, y, r in sorted(p, key=lambda q: (q[2], q[1]))) for p in plans]

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        st = state
        if st["phase"] == "over" or seat != self.active(st):
            return []
        if st["phase"] == "main":
            acts = [{"type": "place", "choice": c} for c in self._place_choices(st, seat)]
            return acts + [{"type": "pass"}]
        if st["phase"] == "activate":
            acts = [{"type": "fire", "choice": c} for c in self._fire_choices(st, seat)]
            return acts + [{"type": "auto"}, {"type": "done"}]
        if st["phase"] == "reveal":
            return [{"type": "keep", "choice": str(i)} for i in range(2)]
        b = st["build"]
        lays = self._lay_choices(st, seat)
        acts = [{"type": "plan", "choice": c} for c in self._plans(st, seat)]
        acts += [{"type": "lay", "choice": c} for c in lays]
        if b.get("tile"):
            acts.append({"type": "tile", "choice": ""})  # back to every tile
        elif len(lays) > 25:
            # more lays than a select holds: the tile may be chosen first (then its positions and
            # rotations fit in one select)
            acts += [{"type": "tile", "choice": t} for t in dict.fromkeys(c.split(":")[0] for c in lays)]
        if b["left"] == 0:
            acts.append({"type": "confirm"})
        if b["placed"]:
            acts.append({"type": "undo"})
        return acts

    # -- apply ------------------------------------------------------------------------------------

    @staticmethod
    def _choice(action: Action) -> Any:
        """The move's choice: its "choice", or the one value a select sent (`chosen`)."""
        choice = action.get("choice")
        if choice is None:
            values = chosen(action)
            choice = values[0] if len(values) == 1 else None
        return choice

    def _check_choice(self, choice: Any, legal: list[str]) -> str:
        if not isinstance(choice, str) or choice not in legal:
            raise GameError(msg("That choice is not possible now."))
        return choice

    # -- main stage -----------------------------------------------------------------------------------

    @move("pass", phases=("main",))
    def _do_pass(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        n = SETUP.pass_income[st["used"][seat]]
        st["players"][seat]["money"] += n
        st["passed"][seat].append(st["used"][seat])
        _log(st, ev, msg("{p} passes and takes £{n}.", p=_p(seat), n=n))
        self._end_turn(st, ev)

    @move("place", phases=("main",))
    def _do_place(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        choice = self._check_choice(self._choice(action), self._place_choices(st, seat))
        pl = st["players"][seat]
        cost = self._cost(st, seat)
        pl["money"] -= cost
        parts = choice.split(":")
        space = parts[0]
        if space != "dev":
            st["occupied"][f"p{seat}:{space}"] = seat
        if space == "tile":
            self._take_from_belt(st, ev, seat, parts[1])
        elif space == "source":
            self._gain_source(st, seat, parts[1], 1)
            _log(st, ev, msg("{p} takes 1 {power} source.", p=_p(seat), power=power_name(parts[1])))
        elif space == "workshop":
            a, i = parts[1], int(parts[2])
            pl["money"] -= WORKSHOP_PRICE
            tid = st["belts"][a][i]
            st["belts"][a][i] = None
            pl["tiles"].append(tid)
            pl["tiles"].sort()
            _log(st, ev, msg("{p} pays £{n} and takes {tile} from the {age} belt.", p=_p(seat), n=WORKSHOP_PRICE,
                             tile=tile_name(tid), age=age_name(a)))
        elif space == "build":
            _log(st, ev, msg("{p} starts building a device of {n} tiles.", p=_p(seat), n=BUILD_SIZE))
            self._start_build(st, "new", BUILD_SIZE, "turn")
            return
        else:  # a device's source
            did = int(parts[1])
            x, y = (int(v) for v in parts[2].split(","))
            d = self._device(st, did)
            st["occupied"][choice] = seat
            owner = d["owner"]
            if owner != seat:
                # Using another player's device: its owner takes a clock from the current age's
                # stack, or from the general supply once that stack is empty mid-round.
                self._clock_to(st, ev, owner)
                _log(st, ev, msg("{p} uses {owner}'s device {n}; {owner} gains a clock.", p=_p(seat),
                                 owner=_p(owner), n=did))
            else:
                _log(st, ev, msg("{p} uses their own device {n}.", p=_p(seat), n=did))
            # The device's component set is fixed once activation starts (a tile added mid-way
            # by an Upgrader does not fire now).
            st["act"] = {"dev": did, "src": [x, y], "owner": owner,
                         "targets": geo.powered(d["tiles"], (x, y)), "used": [], "reuse": 0}
            st["phase"] = "activate"
            self._maybe_end_activation(st, seat, ev)
            return
        self._end_turn(st, ev)

    # -- activation -----------------------------------------------------------------------------------

    def _tile_at(self, st: State, did: int, at: str) -> str:
        x, y = (int(v) for v in at.split(","))
        for pt in self._device(st, did)["tiles"]:
            if pt["x"] == x and pt["y"] == y:
                return pt["t"]
        raise GameError(msg("That choice is not possible now."))

    @move("fire", phases=("activate",))
    def _do_fire(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        choice = self._check_choice(self._choice(action), self._fire_choices(st, seat))
        self._fire(st, seat, choice, ev)
        self._maybe_end_activation(st, seat, ev)

    def _fire(self, st: State, seat: int, choice: str, ev: list[Event]) -> None:
        act = st["act"]
        parts = choice.split(":")
        at, power = parts[0], parts[1]
        param = parts[2] if len(parts) > 2 else None
        tid = self._tile_at(st, act["dev"], at)
        tile = TILES[tid]
        if at in act["used"]:
            act["reuse"] -= 1  # a modifier sent the power back
        else:
            act["used"].append(at)
        pl = st["players"][seat]
        eff = tile.effect
        op = eff["op"]
        before = self._holdings(st)
        at_ev = len(ev)
        if op == "coins":
            pl["money"] += eff["coins"]
        elif op == "vp":
            pl["vp"] += eff["vp"]
        elif op == "gain_same":
            self._gain_source(st, seat, power, eff["n"])
        elif op == "gain_any":
            for c in param:
                self._gain_source(st, seat, c, 1)
        elif op == "sell_source":
            pl["sources"][param] -= 1
            st["supply_sources"][param] += 1
            pl["money"] += eff["coins"]
        elif op == "stack_by_power" or (op == "turbine" and param[0] == "d"):
            a = param[1:] if op == "turbine" else {"C": "1", "S": "2", "E": "3"}[power]
            got = st["stacks"][a].pop(0)
            pl["tiles"].append(got)
            pl["tiles"].sort()
            _log(st, ev, msg("{p} draws {tile} from the {age} stack.", p=_p(seat), tile=tile_name(got), age=age_name(a)))
        elif op == "turbine":
            # Rule reading: the research says "pay £1 to choose 1 of 2 revealed tiles" and does not
            # say the others see them; the tile not kept goes back under its stack (as the belt's
            # last tile does), so only the payer looks: the two tiles stay in the stack until the
            # choice and only that seat's view shows them.
            a = param[1:]
            pl["money"] -= eff["price"]
            st["reveal"] = {"seat": seat, "age": a}
            _log(st, ev, msg("{p} pays £{n} to look at the top two tiles of the {age} stack.", p=_p(seat),
                             n=eff["price"], age=age_name(a)))
        elif op == "advance_start":
            # Rule reading: the marker moves now and the round's turn order stays; the round end
            # still moves it one more seat left, so the seat after the marker starts next round.
            k = 1 + int(param)
            pl["money"] -= int(param)
            st["marker"] = (st["marker"] + k) % st["seats"]
            _log(st, ev, msg("{p} moves the start marker {k} seat(s) left (£{n}); it is at {q}.", p=_p(seat),
                             k=k, n=int(param), q=_p(st["marker"])))
        elif op == "belt_take":
            self._take_from_belt(st, ev, seat, param)
        elif op == "per_component_coins":
            d = self._device(st, act["dev"])
            pl["money"] += sum(1 for pt in d["tiles"] if TILES[pt["t"]].kind in ("component", "modifier"))
        elif op == "buy_vp":
            pl["money"] -= eff["price"]
            pl["vp"] += eff["vp"]
        elif op == "clocks":
            self._clock_to(st, ev, seat, eff["n"], supply_only=True)
        elif op == "vp_per_device":
            pl["vp"] += min(eff["max"], sum(1 for d in st["devices"] if d["owner"] == seat))
        elif op == "reuse":
            act["reuse"] += 1
        if op not in ("coins", "sell_source"):  # an extra gain printed after the effect
            pl["money"] += eff.get("coins", 0)
        if op in ("build", "upgrade"):
            pl["money"] -= eff.get("price", 0)
        owner = act["owner"]
        if owner != seat and tile.owner:
            # Owner bonus: only when another player activates the component.
            o = st["players"][owner]
            o["money"] += tile.owner.get("coins", 0)
            o["vp"] += tile.owner.get("vp", 0)
            if tile.owner.get("source"):
                self._gain_source(st, owner, power, tile.owner["source"])
        # The line says what the activation changed (#32): the seat's gains and costs, then the
        # owner's bonus; it goes before the lines the effect logged itself (a tile drawn, the marker).
        after = self._holdings(st)
        gains = self._changes(before[seat], after[seat])
        if op == "reuse":
            gains.append(msg("a used component may work once more"))
        elif op in ("build", "upgrade"):
            gains.append(msg("builds a device of {n} tiles", n=eff["n"]) if op == "build"
                         else msg("adds a tile to a device"))
        line = msg("{p} powers {tile} with {power}: {changes}.", p=_p(seat), tile=tile_name(tid),
                   power=power_name(power), changes=gains or [msg("nothing changes")])
        if owner != seat and tile.owner:
            line = msg("{line} {owner} takes the owner bonus: {changes}.", line=line, owner=_p(owner),
                       changes=self._changes(before[owner], after[owner]))
        added = len(ev) - at_ev
        ev.insert(at_ev, Event(line))
        st["log"].insert(len(st["log"]) - added, to_wire(line))
        del st["log"][:-LOG_KEEP]
        if st["reveal"] is not None:
            st["phase"] = "reveal"
        elif op == "build":
            self._start_build(st, "new", eff["n"], "act")
        elif op == "upgrade":
            self._start_build(st, "upgrade", eff["n"], "act")

    def _holdings(self, st: State) -> list[tuple[int, int, int, dict[str, int], int]]:
        """Each seat's money, points, clocks, basic sources and tiles in supply."""
        return [(pl["money"], pl["vp"], pl["clocks"], dict(pl["sources"]), len(pl["tiles"])) for pl in st["players"]]

    def _changes(self, a: tuple, b: tuple) -> list[Msg]:
        """What changed between two holdings, in words: "+£2", "-£3", "+1 VP", "+2 steam sources"."""
        out: list[Msg] = []
        if b[0] != a[0]:
            out.append(msg("+£{n}", n=b[0] - a[0]) if b[0] > a[0] else msg("-£{n}", n=a[0] - b[0]))
        if b[1] != a[1]:
            out.append(msg("+{n} VP", n=b[1] - a[1]))
        if b[2] != a[2]:
            out.append(msg("+{n} clock(s)", n=b[2] - a[2]))
        for p in POWERS:
            k = b[3][p] - a[3][p]
            if k:
                out.append(msg("+{n} {power} source(s)", n=k, power=power_name(p)) if k > 0 else
                           msg("-{n} {power} source(s)", n=-k, power=power_name(p)))
        if b[4] > a[4]:
            out.append(msg("+{n} tile(s)", n=b[4] - a[4]))
        return out

    def _default_fire(self, st: State, seat: int) -> str | None:
        """The suggested next component: money and points first, building last."""
        choices = self._fire_choices(st, seat)
        if not choices:
            return None
        pl = st["players"][seat]
        order = {"reuse": 0, "vp": 1, "vp_per_device": 1, "clocks": 1, "buy_vp": 2, "coins": 3,
                 "per_component_coins": 3, "gain_same": 4, "gain_any": 4, "sell_source": 5, "advance_start": 5,
                 "turbine": 6, "stack_by_power": 6, "belt_take": 6, "upgrade": 8, "build": 9}
        act = st["act"]

        def rank(c: str) -> tuple:
            parts = c.split(":")
            tid = self._tile_at(st, act["dev"], parts[0])
            op = TILES[tid].effect["op"]
            fresh = 0 if parts[0] not in act["used"] else 1
            if op == "reuse" and not act["used"]:
                return (99,)
            param = parts[2] if len(parts) > 2 else ""
            pref = 0
            if op == "gain_any":
                pref = sum(pl["sources"][k] for k in param)
            elif op == "sell_source":
                pref = -pl["sources"][param]
            elif op == "belt_take":
                pref = -int(param)
            elif op == "turbine":  # the free draw first (the look costs £1 and stops the flow)
                pref = 10 * (param[0] == "r") - int(param[1:])
            elif op == "advance_start":
                pref = int(param)
            return (fresh, order[op], pref, c)

        best = min(choices, key=rank)
        return best

    @move("auto", phases=("activate",))
    def _do_auto(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        # Fire every remaining component in the suggested order with the suggested choices; stops
        # for a building effect (the player lays its tiles).
        while st["phase"] == "activate":
            c = self._default_fire(st, seat)
            if c is None:
                break
            self._fire(st, seat, c, ev)
            self._maybe_end_activation(st, seat, ev)
        if st["phase"] == "activate":
            self._end_activation(st, ev)

    @move("keep", phases=("reveal",))
    def _do_keep(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """The Innovation Turbine's look: keep one of the stack's top two tiles, the other goes
        under the stack (nobody else learns which tile that is)."""
        i = int(self._check_choice(self._choice(action), ["0", "1"]))
        a = st["reveal"]["age"]
        stack = st["stacks"][a]
        kept = stack.pop(i)
        stack.append(stack.pop(0))
        pl = st["players"][seat]
        pl["tiles"].append(kept)
        pl["tiles"].sort()
        st["reveal"] = None
        _log(st, ev, msg("{p} keeps {tile} and puts the other tile under the {age} stack.", p=_p(seat),
                         tile=tile_name(kept), age=age_name(a)))
        st["phase"] = "activate"
        self._maybe_end_activation(st, seat, ev)

    @move("done", phases=("activate",))
    def _do_done(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        self._end_activation(st, ev)

    def _maybe_end_activation(self, st: State, seat: int, ev: list[Event]) -> None:
        if st["phase"] == "activate" and not self._fire_choices(st, seat):
            self._end_activation(st, ev)

    def _end_activation(self, st: State, ev: list[Event]) -> None:
        st["act"] = None
        st["phase"] = "main"
        self._end_turn(st, ev)

    # -- building ---------------------------------------------------------------------------------------

    def _start_build(self, st: State, mode: str, n: int, back: str) -> None:
        st["build"] = {"mode": mode, "n": n, "left": n, "placed": [], "dev": None, "back": back, "tile": None}
        st["phase"] = "build"

    def _lay_ok(self, st: State, seat: int, choice: Any) -> bool:
        """Is `choice` one of _lay_choices? Checked for that one lay (the whole list is a search)."""
        if not isinstance(choice, str):
            return False
        parts = choice.split(":")
        b = st["build"]
        try:
            tid, x, y, r = parts[0], int(parts[1]), int(parts[2]), int(parts[3])
            if f"{tid}:{x}:{y}:{r}" != ":".join(parts[:4]) or b["left"] == 0:
                return False
            sup = self._supply(st, seat)
            if sup[tid] <= 0:
                return False
            if b.get("tile") and tid != b["tile"]:
                return False
            if b["mode"] == "upgrade":
                if len(parts) != 5 or str(int(parts[4])) != parts[4] or int(parts[4]) not in self._upgrade_targets(st, seat):
                    return False
                placed = self._device(st, int(parts[4]))["tiles"]
            elif len(parts) != 4:
                return False
            else:
                placed = b["placed"]
            c = {"t": tid, "x": x, "y": y, "r": r}
            if c not in geo.candidates(placed, Counter({tid: 1})):
                return False
            rest = sup.copy()
            rest[tid] -= 1
            return geo.feasible(placed + [c], rest, b["left"] - 1)
        except (ValueError, IndexError, KeyError, GameError):
            return False

    @move("lay", phases=("build",))
    def _do_lay(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        choice = self._choice(action)
        if not self._lay_ok(st, seat, choice):
            raise GameError(msg("That choice is not possible now."))
        parts = choice.split(":")
        b = st["build"]
        pt = {"t": parts[0], "x": int(parts[1]), "y": int(parts[2]), "r": int(parts[3])}
        if b["mode"] == "upgrade":
            b["dev"] = int(parts[4])
        self._take_from_supply(st, seat, pt["t"])
        b["placed"].append(pt)
        b["left"] -= 1
        b["tile"] = None

    @move("plan", phases=("build",))
    def _do_plan(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """A whole device at once: its tiles laid as the plan shows, then confirmed."""
        choice = self._check_choice(self._choice(action), self._plans(st, seat))
        b = st["build"]
        for part in choice.split("/"):
            t, x, y, r = part.split(":")
            self._take_from_supply(st, seat, t)
            b["placed"].append({"t": t, "x": int(x), "y": int(y), "r": int(r)})
        b["left"] = 0
        self._confirm(st, seat, ev)

    @move("tile", phases=("build",))
    def _do_tile(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """Choose the next tile first (its positions and rotations come next), or "" for all."""
        legal = [a["choice"] for a in self.legal_actions(st, seat) if a["type"] == "tile"]
        st["build"]["tile"] = self._check_choice(self._choice(action), legal) or None

    @move("undo", phases=("build",))
    def _do_undo(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        b = st["build"]
        if not b["placed"]:
            raise GameError(msg("That move is not possible now."))
        pt = b["placed"].pop()
        b["left"] += 1
        b["tile"] = None
        if b["mode"] == "upgrade":
            b["dev"] = None
        pl = st["players"][seat]
        if TILES[pt["t"]].is_basic:
            pl["sources"][pt["t"][-1]] += 1
        else:
            pl["tiles"].append(pt["t"])
            pl["tiles"].sort()

    @move("confirm", phases=("build",))
    def _do_confirm(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        if st["build"]["left"] != 0:
            raise GameError(msg("Lay every tile of the device first."))
        self._confirm(st, seat, ev)

    def _confirm(self, st: State, seat: int, ev: list[Event]) -> None:
        """The device laid is built (or the tile added): back to the activation or the turn's end."""
        b = st["build"]
        if b["mode"] == "upgrade":
            d = self._device(st, b["dev"])
            d["tiles"].extend(b["placed"])
            assert not geo.problems(d["tiles"])
            _log(st, ev, msg("{p} adds {tile} to device {n}.", p=_p(seat), tile=tile_name(b["placed"][0]["t"]),
                             n=d["id"]))
        else:
            assert not geo.problems(b["placed"])
            did = 1 + max((d["id"] for d in st["devices"]), default=0)
            st["devices"].append({"id": did, "owner": seat, "tiles": b["placed"]})
            _log(st, ev, msg("{p} builds device {n}: {tiles}.", p=_p(seat), n=did,
                             tiles=[tile_name(pt["t"]) for pt in b["placed"]]))
        back = b["back"]
        st["build"] = None
        if back == "act":
            st["phase"] = "activate"
            self._maybe_end_activation(st, seat, ev)
        else:
            st["phase"] = "main"
            self._end_turn(st, ev)

    # -- turns, rounds, ages ------------------------------------------------------------------------

    def _end_turn(self, st: State, ev: list[Event]) -> None:
        seat = self.active(st)
        st["used"][seat] += 1
        st["turn"] += 1
        st["turn_no"] += 1
        if st["turn"] >= st["seats"] * self.mechanics(st):
            self._end_round(st, ev)

    def _end_round(self, st: State, ev: list[Event]) -> None:
        n = st["seats"]
        a = str(st["age"])
        # I: mechanics come home; the automaton returns to the central board (designed: taking one
        # clock counter of the current age out of the game, so every age ends).
        st["occupied"] = {}
        st["used"] = [0] * n
        st["passed"] = [[] for _ in range(n)]
        if st["clocks"][a] > 0:
            st["clocks"][a] -= 1
        # II: the age check.
        if st["clocks"][a] == 0:
            if st["age"] == 3:
                self._finish(st, ev)
                return
            st["age"] += 1
            a = str(st["age"])
            if a not in st["unlocked"]:
                st["unlocked"].append(a)
            _log(st, ev, msg("{age} begins: everyone gains a mechanic.", age=age_name(a)))
        # III: belts: the rightmost tile of each belt goes under its stack, the rest slide right,
        # then each unlocked stack refills its belt.
        for b in st["unlocked"]:
            belt = st["belts"][b]
            if belt[-1] is not None:
                st["stacks"][b].append(belt[-1])
                belt[-1] = None
        for b in list(st["unlocked"]):
            full = self._refill_belt(st, b)
            if not full and b == a:
                # Rule reading: the current stack ran short, so its clocks leave the game and the
                # next age unlocks (its belt fills at once); the age itself changes at the next
                # round's age check. If that was Age III's stack, the game ends now.
                st["clocks"][a] = 0
                if st["age"] == 3:
                    self._finish(st, ev)
                    return
                nxt = str(st["age"] + 1)
                if nxt not in st["unlocked"]:
                    st["unlocked"].append(nxt)
                    self._refill_belt(st, nxt)
                _log(st, ev, msg("The {age} stack ran short: its clocks are gone and {next} is unlocked.",
                                 age=age_name(a), next=age_name(nxt)))
        # IV: the start marker moves left (after any Alarm Chronometer moves: it still advances
        # at round end), and its seat starts the new round.
        st["start"] = st["marker"] = (st["marker"] + 1) % n
        st["round"] += 1
        st["turn"] = 0
        _log(st, ev, msg("Round {n} begins; {p} starts.", n=st["round"], p=_p(st["start"])))

    def scores(self, st: State) -> list[dict[str, Any]]:
        out = []
        for s, pl in enumerate(st["players"]):
            prestige = sum(TILES[pt["t"]].prestige for d in st["devices"] if d["owner"] == s for pt in d["tiles"])
            left_sources = sum(pl["sources"].values()) + sum(1 for t in pl["tiles"] if TILES[t].is_source)
            left_comps = sum(1 for t in pl["tiles"] if not TILES[t].is_source)
            out.append({"seat": s, "vp": pl["vp"], "clocks": pl["clocks"], "prestige": prestige,
                        "total": pl["vp"] + pl["clocks"] + prestige,
                        "tiebreak": pl["money"] + left_sources + left_comps})
        return out

    def _finish(self, st: State, ev: list[Event]) -> None:
        st["phase"] = "over"
        st["act"] = None
        st["build"] = None
        sc = self.scores(st)
        # Rule reading: the seed gives one tie-break (money + source tiles + component tiles left);
        # players still tied after it share the win.
        best = max((r["total"], r["tiebreak"]) for r in sc)
        winners = [r["seat"] for r in sc if (r["total"], r["tiebreak"]) == best]
        st["final"] = {"scores": sc, "winners": winners}
        _log(st, ev, msg("The game ends. Winner: {p}.", p=[_p(w) for w in winners]))

    # -- texts ---------------------------------------------------------------------------------------------

    def describe_action(self, state: State, seat: int, action: dict[str, Any]) -> Msg:
        st = state
        kind = action.get("type") if isinstance(action, dict) else None
        c = action.get("choice") if isinstance(action, dict) else None
        if kind == "pass":
            return msg("Pass (+£{n})", n=SETUP.pass_income[min(st["used"][seat], 3)])
        if kind == "auto":
            return msg("Power everything left (suggested order)")
        if kind == "done":
            return msg("End the activation")
        if kind == "confirm":
            return msg("Confirm the device")
        if kind == "tile":
            if c:
                return msg("Choose {tile} first", tile=tile_name(c)) if c in TILES else msg("Unknown move")
            return msg("Choose another tile")
        if kind == "keep":
            rv = st.get("reveal")
            # only the seat that looks is offered this move, so naming its tile reveals nothing
            if isinstance(rv, dict) and rv.get("seat") == seat and c in ("0", "1"):
                return msg("Keep {tile}", tile=tile_name(st["stacks"][rv["age"]][int(c)]))
            return msg("Unknown move")
        if kind == "undo":
            return msg("Take back the last tile")
        if not isinstance(c, str):
            return msg("Unknown move")
        if kind == "plan":
            plans = self._plans(st, seat) if st["phase"] == "build" else []
            if c not in plans:
                return msg("Unknown move")
            names = [tile_name(part.split(":")[0]) for part in c.split("/")]
            return msg("Whole device {k}: {tiles}", k=plans.index(c) + 1, tiles=names)
        parts = c.split(":")
        try:
            if kind == "place":
                return self._describe_place(st, parts)
            if kind == "fire":
                return self._describe_fire(st, parts)
            if kind == "lay":
                pos = msg("at ({x}, {y})", x=int(parts[1]), y=int(parts[2]))
                base = msg("{tile} {pos}, turned {r}°", tile=tile_name(parts[0]), pos=pos, r=int(parts[3]) * 90)
                if len(parts) > 4:
                    return msg("{what} on device {n}", what=base, n=int(parts[4]))
                return base
        except (KeyError, ValueError, IndexError, GameError):
            pass
        return msg("Unknown move")

    def _describe_place(self, st: State, parts: list[str]) -> Msg:
        space = parts[0]
        if space == "tile":
            a = parts[1]
            i = self._belt_rightmost(st, a)
            return msg("{space}: take {tile} ({age} belt)", space=msg(SPACE_NAMES["tile"]),
                       tile=tile_name(st["belts"][a][i]), age=age_name(a))
        if space == "source":
            return msg("{space}: take 1 {power} source", space=msg(SPACE_NAMES["source"]), power=power_name(parts[1]))
        if space == "build":
            return msg("{space}: build a device of {n} tiles", space=msg(SPACE_NAMES["build"]), n=BUILD_SIZE)
        if space == "workshop":
            a, i = parts[1], int(parts[2])
            return msg("{space}: £{n} for {tile} ({age} belt, space {k})", space=msg(SPACE_NAMES["workshop"]),
                       n=WORKSHOP_PRICE, tile=tile_name(st["belts"][a][i]), age=age_name(a), k=i + 1)
        did = int(parts[1])
        d = self._device(st, did)
        x, y = (int(v) for v in parts[2].split(","))
        targets = geo.powered(d["tiles"], (x, y))
        names = [tile_name(self._tile_at(st, did, k)) for k in targets]
        return msg("Device {n} of {owner}, {source} {pos}: {tiles}", n=did, owner=_p(d["owner"]),
                   source=tile_name(self._tile_at(st, did, parts[2])), pos=msg("at ({x}, {y})", x=x, y=y),
                   tiles=names)

    def _describe_fire(self, st: State, parts: list[str]) -> Msg:
        act = st["act"]
        tid = self._tile_at(st, act["dev"], parts[0])
        base = msg("{tile} with {power}", tile=tile_name(tid), power=power_name(parts[1]))
        twins = [k for k in act["targets"] if self._tile_at(st, act["dev"], k) == tid]
        if len(twins) > 1:  # two alike in one device: say which
            x, y = (int(v) for v in parts[0].split(","))
            base = msg("{what} {pos}", what=base, pos=msg("at ({x}, {y})", x=x, y=y))
        if parts[0] in act["used"]:
            base = msg("{what} (again)", what=base)
        if len(parts) > 2:
            op = TILES[tid].effect["op"]
            p = parts[2]
            if op == "gain_any":
                extra: Any = [power_name(k) for k in p]
            elif op == "sell_source":
                extra = msg("sell a {power} source", power=power_name(p))
            elif op == "turbine" and p[0] == "d":
                extra = msg("draw the top tile of the {age} stack", age=age_name(p[1:]))
            elif op == "turbine":
                extra = msg("£{n}: look at two tiles of the {age} stack, keep one", n=TILES[tid].effect["price"],
                            age=age_name(p[1:]))
            elif op == "advance_start":
                k = int(p)
                nxt = (st["marker"] + 1 + k + 1) % st["seats"]
                extra = msg("move the start marker {k} (£{n}); {q} starts next round", k=1 + k, n=k, q=_p(nxt))
            else:
                i = self._belt_rightmost(st, p)
                extra = msg("{tile} from the {age} belt", tile=tile_name(st["belts"][p][i]), age=age_name(p))
            return msg("{what}: {extra}", what=base, extra=extra)
        return base

    # -- view -------------------------------------------------------------------------------------------

    def view(self, state: State, viewer: int | None) -> View:
        st = state
        players = []
        for s, pl in enumerate(st["players"]):
            persona = SETUP.personas[pl["persona"]]
            players.append({
                "seat": s, "persona": msg(persona.name), "money": pl["money"], "sources": dict(pl["sources"]),
                "tiles": list(pl["tiles"]), "clocks": pl["clocks"], "vp": pl["vp"],
                "mechanics": self.mechanics(st), "used": st["used"][s], "passed": list(st["passed"][s]),
                "spaces": {sp: (f"p{s}:{sp}" in st["occupied"]) for sp in SPACE_NAMES},
            })
        devices = [{"id": d["id"], "owner": d["owner"], "tiles": [dict(pt) for pt in d["tiles"]],
                    "busy": {k.split(":")[2]: v for k, v in st["occupied"].items()
                             if k.startswith(f"dev:{d['id']}:")}} for d in st["devices"]]
        v: View = {
            "kind": "steamworks", "seats": st["seats"], "age": st["age"], "round": st["round"],
            "turn": st["turn_no"], "start": st["start"], "marker": st["marker"],
            "post": [st["age"], st["round"]],  # a round's turns share one thread post
            "next_start": (st["marker"] + 1) % st["seats"], "stage": st["phase"],
            "active": None if st["phase"] == "over" else self.active(st),
            "unlocked": list(st["unlocked"]),
            "belts": {a: list(b) for a, b in st["belts"].items()},
            "stack_counts": {a: len(s) for a, s in st["stacks"].items()},  # the order stays hidden
            "clocks": dict(st["clocks"]), "supply_sources": dict(st["supply_sources"]),
            "players": players, "devices": devices,
            "act": clone(st["act"]), "build": clone(st["build"]),
            "cost": None if st["phase"] == "over" else self._cost(st, self.active(st)),
            "log": from_wire(st["log"][-VIEW_LOG:]),
            "final": clone(st["final"]),
        }
        rv = st.get("reveal")
        if rv is not None:
            # the Innovation Turbine's look is private: only the looking seat sees the two tiles
            v["reveal"] = {"seat": rv["seat"], "age": rv["age"]}
            if viewer == rv["seat"]:
                v["reveal"]["tiles"] = list(st["stacks"][rv["age"]][:2])
        if viewer is not None and 0 <= viewer < st["seats"]:
            v["me"] = {"seat": viewer, "to_act": viewer in self.to_act(st)}
            if st["phase"] == "build" and viewer == self.active(st):
                # the whole devices the menu offers, in its order, for the DM's pictures
                v["plans"] = [[{"t": t, "x": int(x), "y": int(y), "r": int(r)}
                               for t, x, y, r in (q.split(":") for q in p.split("/"))] for p in self._plans(st, viewer)]
        return v

    # -- menu -------------------------------------------------------------------------------------------

    def placings(self, state: State) -> list[int]:
        """Each seat's place at the end (1 = a winner; equal score and tie-break share a place)."""
        keys = {r["seat"]: (r["total"], r["tiebreak"]) for r in state["final"]["scores"]}
        return [1 + sum(1 for k in keys.values() if k > keys[s]) for s in sorted(keys)]

    def redraw_hidden(self, state: dict, seat: int, seed: int) -> dict:
        """What the seat cannot see, dealt again (bot/games/steamworks/hidden.py)."""
        return hidden.redraw(state, seat, seed)

    def auto_action(self, state: State, seat: int) -> dict[str, Any]:
        """The automatic player of an absent seat: the simulator's greedy builder."""
        import random

        from bot.games.steamworks.simulate import greedy
        return greedy(state, seat, random.Random(seat))

    def menu(self, state: State, seat: int) -> list[dict[str, Any]]:
        st = state
        acts = self.legal_actions(st, seat)
        if not acts:
            return []
        groups: list[dict[str, Any]] = []

        def selects(placeholder: Msg, kind: str, choices: list[str], limit: int) -> None:
            for start in range(0, min(len(choices), 25 * limit), 25):
                chunk = choices[start:start + 25]
                ph = placeholder if len(choices) <= 25 else msg("{placeholder} ({page})", placeholder=placeholder,
                                                                page=start // 25 + 1)
                groups.append({"kind": "select", "placeholder": ph, "min": 1, "max": 1, "action": {"type": kind},
                               "options": [{"label": self.describe_action(st, seat, {"type": kind, "choice": c}),
                                            "value": c} for c in chunk]})

        if st["phase"] == "main":
            places = [a["choice"] for a in acts if a["type"] == "place"]
            pl = st["players"][seat]

            def own_rank(c: str) -> tuple:
                # the best-looking first: build, the newest belt tiles, the source you lack most
                parts = c.split(":")
                if parts[0] == "build":
                    return (0, 0, c)
                if parts[0] == "tile":
                    return (1, -int(parts[1]), c)
                if parts[0] == "source":
                    return (2, pl["sources"][parts[1]], c)
                return (3, -int(parts[1]), c)

            own = sorted((c for c in places if not c.startswith("dev:")), key=own_rank)
            devs = sorted((c for c in places if c.startswith("dev:")),
                          key=lambda c: (-len(geo.powered(self._device(st, int(c.split(':')[1]))["tiles"],
                                                          tuple(int(v) for v in c.split(":")[2].split(",")))), c))
            cost = self._cost(st, seat)
            if own:
                selects(msg("Place a mechanic on your persona board (£{n})", n=cost), "place", own, 2)
            if devs:
                selects(msg("Place a mechanic on a device (£{n})", n=cost), "place", devs, 2)
            groups.append({"kind": "buttons", "options": [
                {"label": self.describe_action(st, seat, {"type": "pass"}), "action": {"type": "pass"},
                 "style": "secondary"}]})
        elif st["phase"] == "reveal":
            rv = st["reveal"]
            two = st["stacks"][rv["age"]][:2]
            order = sorted(range(2), key=lambda i: (-TILES[two[i]].prestige, i))  # the higher prestige first
            groups.append({"kind": "buttons", "options": [
                {"label": self.describe_action(st, seat, {"type": "keep", "choice": str(i)}),
                 "action": {"type": "keep", "choice": str(i)}, "style": "primary" if j == 0 else "secondary"}
                for j, i in enumerate(order)]})
        elif st["phase"] == "activate":
            fires = [a["choice"] for a in acts if a["type"] == "fire"]
            best = self._default_fire(st, seat)
            fires.sort(key=lambda c: (c != best, c))
            selects(msg("Power a component"), "fire", fires, 3)
            groups.append({"kind": "buttons", "options": [
                {"label": msg("Power everything left (suggested order)"), "action": {"type": "auto"}, "style": "primary"},
                {"label": msg("End the activation"), "action": {"type": "done"}, "style": "secondary"}]})
        else:
            lays = [a["choice"] for a in acts if a["type"] == "lay"]
            picks = [a["choice"] for a in acts if a["type"] == "tile" and a["choice"]]
            plans = [a["choice"] for a in acts if a["type"] == "plan"]
            if plans:  # the whole device in one choice, as the DM image numbers them
                selects(msg("Build a whole device (numbered in the picture)"), "plan", plans, 1)
            if picks:  # too many lays for one select: the best 25, then every tile to choose first
                selects(msg("Lay a tile ({n} left)", n=st["build"]["left"]), "lay", lays[:25], 1)
                selects(msg("Or choose the tile first"), "tile", picks, 2)
            elif lays:
                selects(msg("Lay a tile ({n} left)", n=st["build"]["left"]), "lay", lays, 3)
            buttons = []
            if any(a["type"] == "tile" and not a["choice"] for a in acts):
                buttons.append({"label": msg("Choose another tile"), "action": {"type": "tile", "choice": ""},
                                "style": "secondary"})
            if any(a["type"] == "confirm" for a in acts):
                buttons.append({"label": msg("Confirm the device"), "action": {"type": "confirm"}, "style": "success"})
            if any(a["type"] == "undo" for a in acts):
                buttons.append({"label": msg("Take back the last tile"), "action": {"type": "undo"},
                                "style": "secondary"})
            if buttons:
                groups.append({"kind": "buttons", "options": buttons})
        return groups


ENGINE = SteamWorksEngine()
