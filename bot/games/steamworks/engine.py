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

import random
from typing import Any

from bot.games.base import Action, Engine, Event, GameError, OptionSpec, State, View, chosen, clone, move
from bot.games.rng import Rng
import bot.games.steamworks.geometry as geo
from bot.games.steamworks.activation import end_activation, fire, maybe_end_activation
from bot.games.steamworks.choices import (
    default_fire,
    fire_choices,
    lay_ok,
    legal_actions,
    place_choices,
    to_act,
    whole_plans,
)
from bot.games.steamworks.common import (
    AGES,
    BUILD_SIZE,
    SETUP,
    TILES,
    WORKSHOP_PRICE,
    active_seat,
    age_name,
    clock_to,
    device_by_id,
    gain_source,
    log_line,
    mechanic_cost,
    mechanics_now,
    power_name,
    refill_belt,
    seat_ref,
    start_build,
    take_from_belt,
    take_from_supply,
    tile_name,
)
from bot.games.steamworks.content import POWERS
from bot.games.steamworks.hidden import redraw
from bot.games.steamworks.menu import describe_action, menu
from bot.games.steamworks.rounds import end_turn, scores
from bot.games.steamworks.strategy import greedy
from bot.games.steamworks.view import view
from bot.i18n import Msg, msg

SCHEMA = 3  # 2: the start marker ("marker") and the Innovation Turbine's private look ("reveal");
# 3: the phase is "phase" (it was "stage")


class SteamWorksEngine(Engine):
    kind = "steamworks"
    title = "Steam Works"
    rules_version = 2  # raise it when a change makes old logs replay differently (bot/games/base.py)
    min_seats = SETUP.min_players
    max_seats = SETUP.max_players
    options = [OptionSpec("personas", "How persona boards are dealt", ["random", "seat order"], "str", "random")]

    def describe_options(self, options: dict[str, Any]) -> list[Msg | str]:
        """The table's options as the lobby shows them."""
        return [
            msg("persona boards dealt in seat order")
            if options.get("personas") == "seat order"
            else msg("persona boards dealt at random")
        ]

    # -- setup ---------------------------------------------------------------------------------------

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
        players: list[dict[str, Any]] = []
        for s in range(seats):
            p = SETUP.personas[personas[s]]
            players.append(
                {
                    "persona": p.id,
                    "money": p.money,
                    "sources": {c: p.sources.get(c, 0) for c in POWERS},
                    "tiles": sorted(p.tiles),
                    "clocks": 0,
                    "vp": 0,
                }
            )
        belt = SETUP.belt[seats]
        st: State = {
            "schema": SCHEMA,
            "rng": 0,
            "seats": seats,
            "options": options,
            "age": 1,
            "unlocked": ["1"],
            "stacks": stacks,
            "belts": {a: [None] * belt for a in AGES},
            "clocks": {a: SETUP.clocks[seats][i] for i, a in enumerate(AGES)},
            "supply_sources": {c: 20 - sum(pl["sources"][c] for pl in players) for c in POWERS},
            "players": players,
            "devices": [],
            "occupied": {},
            "start": rng.below(seats),
            "marker": 0,
            "round": 1,
            "turn": 0,
            "turn_no": 1,
            "used": [0] * seats,
            "passed": [[] for _ in range(seats)],
            "phase": "main",
            "act": None,
            "build": None,
            "reveal": None,
            "log": [],
            "final": None,
        }
        st["marker"] = st["start"]
        refill_belt(st, "1")
        st["rng"] = rng.state
        log_line(st, [], msg("Steam Works begins. {p} is the start player.", p=seat_ref(st["start"])))
        st["rules_version"] = self.rules_version
        return st

    # -- saved states from older versions ------------------------------------------------------------

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

    # -- moves ---------------------------------------------------------------------------------------

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

    @move("pass", phases=("main",))
    def _do_pass(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        n = SETUP.pass_income[st["used"][seat]]
        st["players"][seat]["money"] += n
        st["passed"][seat].append(st["used"][seat])
        log_line(st, ev, msg("{p} passes and takes £{n}.", p=seat_ref(seat), n=n))
        end_turn(st, ev)

    @move("place", phases=("main",))
    def _do_place(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        choice = self._check_choice(self._choice(action), place_choices(st, seat))
        pl = st["players"][seat]
        cost = mechanic_cost(st, seat)
        pl["money"] -= cost
        parts = choice.split(":")
        space = parts[0]
        if space != "dev":
            st["occupied"][f"p{seat}:{space}"] = seat
        if space == "tile":
            take_from_belt(st, ev, seat, parts[1])
        elif space == "source":
            gain_source(st, seat, parts[1], 1)
            log_line(st, ev, msg("{p} takes 1 {power} source.", p=seat_ref(seat), power=power_name(parts[1])))
        elif space == "workshop":
            a, i = parts[1], int(parts[2])
            pl["money"] -= WORKSHOP_PRICE
            tid = st["belts"][a][i]
            st["belts"][a][i] = None
            pl["tiles"].append(tid)
            pl["tiles"].sort()
            log_line(
                st,
                ev,
                msg(
                    "{p} pays £{n} and takes {tile} from the {age} belt.",
                    p=seat_ref(seat),
                    n=WORKSHOP_PRICE,
                    tile=tile_name(tid),
                    age=age_name(a),
                ),
            )
        elif space == "build":
            log_line(st, ev, msg("{p} starts building a device of {n} tiles.", p=seat_ref(seat), n=BUILD_SIZE))
            start_build(st, "new", BUILD_SIZE, "turn")
            return
        else:  # a device's source
            did = int(parts[1])
            x, y = (int(v) for v in parts[2].split(","))
            d = device_by_id(st, did)
            st["occupied"][choice] = seat
            owner = d["owner"]
            if owner != seat:
                # Using another player's device: its owner takes a clock from the current age's
                # stack, or from the general supply once that stack is empty mid-round.
                clock_to(st, ev, owner)
                log_line(
                    st,
                    ev,
                    msg(
                        "{p} uses {owner}'s device {n}; {owner} gains a clock.",
                        p=seat_ref(seat),
                        owner=seat_ref(owner),
                        n=did,
                    ),
                )
            else:
                log_line(st, ev, msg("{p} uses their own device {n}.", p=seat_ref(seat), n=did))
            # The device's component set is fixed once activation starts (a tile added mid-way
            # by an Upgrader does not fire now).
            st["act"] = {
                "dev": did,
                "src": [x, y],
                "owner": owner,
                "targets": geo.powered(d["tiles"], (x, y)),
                "used": [],
                "reuse": 0,
            }
            st["phase"] = "activate"
            maybe_end_activation(st, seat, ev)
            return
        end_turn(st, ev)

    @move("fire", phases=("activate",))
    def _do_fire(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        choice = self._check_choice(self._choice(action), fire_choices(st, seat))
        fire(st, seat, choice, ev)
        maybe_end_activation(st, seat, ev)

    @move("auto", phases=("activate",))
    def _do_auto(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        # Fire every remaining component in the suggested order with the suggested choices; stops
        # for a building effect (the player lays its tiles).
        while st["phase"] == "activate":
            c = default_fire(st, seat)
            if c is None:
                break
            fire(st, seat, c, ev)
            maybe_end_activation(st, seat, ev)
        if st["phase"] == "activate":
            end_activation(st, ev)

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
        log_line(
            st,
            ev,
            msg(
                "{p} keeps {tile} and puts the other tile under the {age} stack.",
                p=seat_ref(seat),
                tile=tile_name(kept),
                age=age_name(a),
            ),
        )
        st["phase"] = "activate"
        maybe_end_activation(st, seat, ev)

    @move("done", phases=("activate",))
    def _do_done(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        end_activation(st, ev)

    @move("lay", phases=("build",))
    def _do_lay(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        choice = self._choice(action)
        if not lay_ok(st, seat, choice):
            raise GameError(msg("That choice is not possible now."))
        parts = choice.split(":")
        b = st["build"]
        pt = {"t": parts[0], "x": int(parts[1]), "y": int(parts[2]), "r": int(parts[3])}
        if b["mode"] == "upgrade":
            b["dev"] = int(parts[4])
        take_from_supply(st, seat, pt["t"])
        b["placed"].append(pt)
        b["left"] -= 1
        b["tile"] = None

    @move("plan", phases=("build",))
    def _do_plan(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """A whole device at once: its tiles laid as the plan shows, then confirmed."""
        choice = self._check_choice(self._choice(action), whole_plans(st, seat))
        b = st["build"]
        for part in choice.split("/"):
            t, x, y, r = part.split(":")
            take_from_supply(st, seat, t)
            b["placed"].append({"t": t, "x": int(x), "y": int(y), "r": int(r)})
        b["left"] = 0
        self._confirm(st, seat, ev)

    @move("tile", phases=("build",))
    def _do_tile(self, st: State, seat: int, action: Action, ev: list[Event]) -> None:
        """Choose the next tile first (its positions and rotations come next), or "" for all."""
        legal = [a["choice"] for a in legal_actions(st, seat) if a["type"] == "tile"]
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
            d = device_by_id(st, b["dev"])
            d["tiles"].extend(b["placed"])
            assert not geo.problems(d["tiles"])
            log_line(
                st,
                ev,
                msg("{p} adds {tile} to device {n}.", p=seat_ref(seat), tile=tile_name(b["placed"][0]["t"]), n=d["id"]),
            )
        else:
            assert not geo.problems(b["placed"])
            did = 1 + max((d["id"] for d in st["devices"]), default=0)
            st["devices"].append({"id": did, "owner": seat, "tiles": b["placed"]})
            log_line(
                st,
                ev,
                msg(
                    "{p} builds device {n}: {tiles}.",
                    p=seat_ref(seat),
                    n=did,
                    tiles=[tile_name(pt["t"]) for pt in b["placed"]],
                ),
            )
        back = b["back"]
        st["build"] = None
        if back == "act":
            st["phase"] = "activate"
            maybe_end_activation(st, seat, ev)
        else:
            st["phase"] = "main"
            end_turn(st, ev)

    # -- the parts that read the state ---------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        return to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        return legal_actions(state, seat)

    def describe_action(self, state: State, seat: int, action: dict[str, Any]) -> Msg:
        return describe_action(state, seat, action)

    def view(self, state: State, viewer: int | None) -> View:
        return view(state, viewer)

    def menu(self, state: State, seat: int) -> list[dict[str, Any]]:
        return menu(state, seat)

    def active(self, st: State) -> int:
        """The seat whose turn it is."""
        return active_seat(st)

    def mechanics(self, st: State) -> int:
        """How many mechanics each seat has this age."""
        return mechanics_now(st)

    def scores(self, st: State) -> list[dict[str, Any]]:
        """Each seat's points, clocks, prestige, total and tie-break."""
        return scores(st)

    def placings(self, state: State) -> list[int]:
        """Each seat's place at the end (1 = a winner; equal score and tie-break share a place)."""
        keys = {r["seat"]: (r["total"], r["tiebreak"]) for r in state["final"]["scores"]}
        return [1 + sum(1 for k in keys.values() if k > keys[s]) for s in sorted(keys)]

    def redraw_hidden(self, state: dict, seat: int, seed: int) -> dict:
        """What the seat cannot see, dealt again (bot/games/steamworks/hidden.py)."""
        return redraw(state, seat, seed)

    def auto_action(self, state: State, seat: int) -> dict[str, Any]:
        """The automatic player of an absent seat: the simulator's greedy builder."""
        return greedy(state, seat, random.Random(seat))


ENGINE = SteamWorksEngine()
