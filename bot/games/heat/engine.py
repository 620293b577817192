"""Heat: Pedal to the Metal — the engine object (contract in bot/games/base.py).

Flow: each round every racing car makes ONE private submission ({"type": "submit", "cards":
[ids]}; the number of cards is the new gear). A submission may be replaced until the last one
arrives; then the round resolves by itself in race order. Standing preferences ({"type":
"prefs", ...}) decide slipstream, boost, adrenaline, cooldown, discard and the boost/adrenaline
order; only an "ask" preference pauses the resolution for that car's decision.
"""

from __future__ import annotations

import random
from typing import Any

import bot.games.heat.championship as championship
import bot.games.heat.hidden as hidden
import bot.games.heat.menus as menus
import bot.games.heat.moves as moves
import bot.games.heat.options as heat_options
import bot.games.heat.rules as rules
import bot.games.heat.views as views
from bot.games.base import Engine, Event, GameError, OptionSpec, choose_again, chosen, clone, move
from bot.games.heat.labels import is_int, pref_label
from bot.games.heat.racer import random_submission
from bot.games.rng import Rng
from bot.i18n import Msg, msg


class HeatEngine(Engine):
    kind = "heat"
    title = "Heat: Pedal to the Metal"
    rules_version = 2  # raise it when a change makes old logs replay differently (bot/games/base.py)
    # One player races alone only against Legends (new_game checks it once the players are known).
    min_seats = 1
    max_seats = 6

    options: list[OptionSpec] = heat_options.specs()

    def check_options(self, options: dict[str, Any], seats: int) -> dict[str, Any]:
        """Track aliases, the modules the options switch on, the championship's options; the
        options as the game keeps them (bot/games/heat/options.py)."""
        return heat_options.normalise(options)

    def describe_options(self, options: dict[str, Any]) -> list[Msg | str]:
        """The table's options as the lobby shows them."""
        return list(heat_options.describe(options))

    def new_game(self, options: dict[str, Any], seats: int, seed: int) -> dict:
        opts = self.validate_options(options, seats)
        legends = opts.get("legends", 0)
        # The lobby checks the options before the players sit down; the player count is known here.
        if legends and seats > rules.LEGEND_MAX_PLAYERS:
            raise GameError(msg("Legends are for races of {n} players or fewer.", n=rules.LEGEND_MAX_PLAYERS))
        if seats < 2 and not legends:
            # Solo: the seed's Legends are the only rivals a lone player can have.
            raise GameError(msg("A solo race needs Legends: set legends to 1 or more (2 or more suggested)."))
        if seats + legends > rules.MAX_CARS:
            raise GameError(
                msg(
                    "At most {n} cars race: {k} Legends at most with {p} players.",
                    n=rules.MAX_CARS,
                    k=rules.MAX_CARS - seats,
                    p=seats,
                )
            )
        if opts.get("championship"):  # a whole season: the first race, its upgrade market first
            return dict(championship.new_season(opts, seats, int(seed)), rules_version=self.rules_version)
        st = rules.new_state(
            opts["track"], seats, int(seed), opts["grid"], opts["modules"], opts.get("garage"), legends
        )
        if opts.get("tournament"):
            st["tournament"] = True
        if opts.get("legend_bonus"):
            st["legend_bonus"] = opts["legend_bonus"]  # advanced Legends: + to every helmet number
        if opts.get("aggressive_legends"):
            st["aggressive_legends"] = True  # Heavy Rain: Legends may cross one more line from a ∧ diamond
        if opts.get("garage_deal"):
            rules.deal_garage(st)  # the seed's alternative to the draft: 3 upgrades dealt to each
        st["rules_version"] = self.rules_version
        return st

    # ------------------------------------------------------------------ queries (menus.py, views.py)

    def to_act(self, state: dict) -> list[int]:
        return menus.to_act(state)

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        return menus.legal_actions(state, seat)

    def describe_action(self, state: dict, seat: int, action: dict) -> Msg:
        return menus.describe_action(state, seat, action)

    def menu(self, state: dict, seat: int) -> list[dict]:
        return menus.menu(state, seat)

    def view(self, state: dict, viewer: int | None) -> dict:
        return views.view(state, viewer)

    # ------------------------------------------------------------------ moves (in place, on the one copy)

    def copy_state(self, state: dict) -> dict:
        """rules.clone (Heat's layout, copied several times faster than a JSON round trip), and the
        championship's season record. While the cards are chosen no move changes a racing car's
        round record, and the last submission gives each a new one (resolve.start_resolution):
        those records are shared, not copied (rules.clone's new_round). While two or more cars are
        still to submit, no move can resolve the round: a submission or a preference only replaces
        one car's "sub" or "prefs" (moves.submit, _prefs), so only the cars are copied, one level."""
        if state["phase"] == "submit" and moves.waiting(state) >= 2:
            st = dict(state)
            st["cars"] = [dict(c) for c in state["cars"]]
            return st
        st = rules.clone(state, new_round=state["phase"] == "submit")
        if "champ" in st:
            st["champ"] = clone(st["champ"])
        return st

    def upgrade(self, state: dict) -> dict:
        """A state saved by an older schema (rules.SCHEMA), in today's shape (rules.upgrade)."""
        return rules.upgrade(state)

    @move("prefs", anytime=True)
    def _prefs(self, st: dict, seat: int, action: dict, events: list[Event]) -> None:
        """Standing preferences: any time, by a seat the game is not waiting for too. Changing the
        one a paused decision asks for to an automatic value lets the resolution go on."""
        changes = moves.pref_changes(st, action)
        car = st["cars"][seat]
        car["prefs"] = {**car["prefs"], **changes}
        events.append(
            Event(msg("Preferences set: {text}.", text=[pref_label(k, v) for k, v in changes.items()]), to=seat)
        )
        pending = st["pending"]
        if (
            st["phase"] == "decide"
            and pending
            and pending["seat"] == seat
            and changes.get(pending["type"], "ask") != "ask"
        ):
            # The decision we wait for is now automatic: resolution goes on.
            st["pending"] = None
            events += moves.resume(st)

    @move("pick", phases=("draft",))
    def _pick(self, st: dict, seat: int, action: dict, events: list[Event]) -> None:
        """The Garage draft: the seat whose turn it is takes one upgrade from the market."""
        raw: Any = action.get("card")
        values = chosen(action)
        if raw is None and len(values) == 1:
            raw = values[0]
        if isinstance(raw, str) and raw.isdigit() and len(raw) < 4:
            raw = int(raw)
        if not is_int(raw) or not 0 <= raw < len(st["draft"]["market"]):
            raise GameError(msg("Pick one of the cards on offer."))
        rng = Rng(st["rng"])
        evs = rules.draft_pick(st, seat, raw, rng)
        st["rng"] = rng.state
        events += moves.with_prompt(st, evs)

    @move("submit", phases=("submit",), anytime=True)
    def _submit(self, st: dict, seat: int, action: dict, events: list[Event]) -> None:
        """A car's cards for the round (anytime: a submission may be replaced until the last one
        is in); the last one resolves the round."""
        moves.submit(st, seat, action, events)

    @move("slipstream", phases=("decide",))
    @move("boost", phases=("decide",))
    @move("adrenaline", phases=("decide",))
    @move("cooldown", phases=("decide",))
    @move("discard", phases=("decide",))
    @move("order", phases=("decide",))
    @move("choice", phases=("decide",))
    def _decide(self, st: dict, seat: int, action: dict, events: list[Event]) -> None:
        """The answer to the decision the resolution paused for (an "ask" preference)."""
        value = moves.decision_value(st, seat, action)
        st["cars"][seat]["rd"]["ans"][action["type"]] = value
        st["pending"] = None
        events += moves.resume(st)

    @move("market", phases=("market",))
    def _market(self, st: dict, seat: int, action: dict, events: list[Event]) -> None:
        """Championship, before each race: one upgrade from the market."""
        events += [Event(t, to) for to, t in championship.pick(st, seat, action)]

    @move("swap", phases=("swap",))
    def _swap(self, st: dict, seat: int, action: dict, events: list[Event]) -> None:
        """Championship: the first picker may swap one upgrade with the market."""
        events += [Event(t, to) for to, t in championship.swap(st, seat, action)]

    def after_move(self, st: dict, seat: int, events: list[Event]) -> None:
        """A Championship race that ended: its points, then the next race replaces it (or the season
        ends)."""
        if st["phase"] == "over" and "champ" in st and not st["champ"].get("done"):
            new, more = championship.finish_race(st)
            if new is not st:
                st.clear()
                st.update(new)
            events += [Event(t, to) for to, t in more]

    # ------------------------------------------------------------------ hooks

    def placings(self, state: dict) -> list[int]:
        """Each seat's place at the end (1 = the winner): the finishing order among the players
        (Legends' cars, after the seats, take no place). Solo, the player races the Legends: their
        place among every car (Legends still on the track when the player finishes come after)."""
        if "champ" in state:
            return championship.placings(state)
        seats = range(state["seats"])
        if state["seats"] == 1:
            return [state["cars"][0]["place"] or len(state["cars"])]
        order = [s for s in state["places"] if s in seats] + [s for s in seats if s not in state["places"]]
        return [order.index(s) + 1 for s in seats]

    def field(self, state: dict) -> int:
        """How many the places count among: the players, or every car when one races the Legends."""
        return len(state["cars"]) if state["seats"] == 1 else state["seats"]

    def most_seats(self, options: dict) -> int:
        """Legends: races of 3 players or fewer, and every car, Legends too, fits the grid."""
        legends = options.get("legends", 0) if "legends" in options.get("modules", ()) else 0
        if not legends:
            return self.max_seats
        return min(rules.LEGEND_MAX_PLAYERS, rules.MAX_CARS - legends)

    def least_seats(self, options: dict) -> int:
        """A lone player races only against Legends."""
        return 1 if "legends" in options.get("modules", ()) else 2

    def redraw_hidden(self, state: dict, seat: int, seed: int) -> dict:
        """What the seat cannot see, dealt again (bot/games/heat/hidden.py)."""
        st, again = hidden.redraw(state, seat, seed)
        return choose_again(self, st, again)

    def auto_action(self, state: dict, seat: int) -> dict:
        """The automatic player of an absent seat: a legal gear with cards (never Heat cards while
        others fit), otherwise the first thing on offer that is not a preference."""
        rnd = random.Random(seat * 1000 + state["round"])
        if state["phase"] == "submit":
            act = random_submission(state, seat, rnd)
            if rules.check_submission(state, state["cars"][seat], act["cards"]) is None:
                return act
            # (the random racer knows no flooded-space Heat: a legal submission instead)
            return next(a for a in self.legal_actions(state, seat) if a["type"] == "submit")
        p = state["pending"]
        if state["phase"] == "decide" and p and p["seat"] == seat and p["type"] == "choice":
            # what "auto" would pick: no spin if avoidable, then the least corner Heat, then the farthest
            best = min(p["options"], key=lambda o: (o[3], o[2], -o[0]))
            return {"type": "choice", "speed": best[0]}
        acts = self.legal_actions(state, seat)
        return next((a for a in acts if a["type"] != "prefs"), acts[0])


ENGINE = HeatEngine()
