"""Heat: Pedal to the Metal — the engine object (contract in bot/games/base.py).

Flow: each round every racing car makes ONE private submission ({"type": "submit", "cards":
[ids]}; the number of cards is the new gear). A submission may be replaced until the last one
arrives; then the round resolves by itself in race order. Standing preferences ({"type":
"prefs", ...}) decide slipstream, boost, adrenaline, cooldown, discard and the boost/adrenaline
order; only an "ask" preference pauses the resolution for that car's decision.
"""
from __future__ import annotations

import random
from bisect import bisect_left
from functools import lru_cache

from itertools import combinations
from typing import Any

from bot.games.base import Engine, Event, GameError, OptionSpec, choose_again
from bot.games.heat import championship, content, rules
from bot.games.heat import hidden
from bot.games.heat.plans import plan_options, summary
from bot.games.heat.racer import random_submission
from bot.games.heat.rules import (DEFAULT_PREFS, KIND, LABEL, PLAYABLE, SHORT,
                                  SPEED, seat_name)
from bot.games.rng import Rng
from bot.games.text import plus
from bot.i18n import Msg, msg

DECISIONS = ("slipstream", "boost", "adrenaline", "cooldown", "discard", "order", "choice")
_TRACK_ALIASES = {
    "us": "usa", "united states": "usa", "fr": "france", "gb": "great_britain", "uk": "great_britain",
    "great britain": "great_britain", "britain": "great_britain", "it": "italy", "italia": "italy",
    "jp": "japan", "suzuka": "japan", "mx": "mexico", "mexico city": "mexico",
}
_PREF_NAMES = {
    "slipstream": "Slipstream", "boost": "Boost", "adrenaline": "Adrenaline", "cooldown": "Cooldown",
    "discard": "Discard", "order": "Boost/Adrenaline order", "direct": "Direct play", "accelerate": "Accelerate",
    "choice": "Choice of speed",
}
PREF_BUTTONS = 6  # more preferences than this (Garage's nine) go in one select
_PREF_VALUES = {
    "smart": "Smart", "always": "Always", "never": "Never", "ask": "Ask me", "auto": "Auto", "keep": "Keep all",
    "best": "Best", "heat": "Heat cards when allowed",
}
_KIND_ORDER = {"speed": 0, "upgrade": 1, "stress": 2, "heat": 3}


def _face(code: str) -> dict:
    """A card's face for the images: kind, the big value ("1/3" for a choice), its symbols."""
    if code in content.garage()["types"] and content.garage()["types"][code].get("heat_card"):
        return {"kind": "heat", "value": None}
    kind = KIND[code]
    out: dict[str, Any] = {"kind": kind, "value": SPEED[code] if kind in ("speed", "upgrade") else None}
    if code in rules.GARAGE:
        if code in rules.CHOICES:
            out["value"] = "/".join(str(v) for v in rules.CHOICES[code])
        out["text"] = rules.card_text(code)
        out["symbols"] = rules.card_symbols(code)
        # the family and speed the card prints (its label may add the symbol that tells it from a twin)
        if code in content.garage()["types"]:  # (a sponsorship card has no twin)
            out["family"] = msg(content.garage_label(content.garage()["types"][code]))
    if rules.TYPES[code].get("sponsor"):  # Championship: a one-time-use sponsorship card
        out["sponsor"] = True
    return out


def plus_sign(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}"


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _parse_ids(action: dict) -> list[int]:
    """Card ids from "cards" (ints) or "values" (the strings a select sends)."""
    raw = action["cards"] if "cards" in action else action.get("values")
    if type(raw) is not list or len(raw) > 30:
        raise GameError(msg("Choose cards from your hand."))
    if len(raw) == 1 and isinstance(raw[0], str) and "," in raw[0]:  # a whole plan from the plans select
        raw = raw[0].split(",")[:30]
    out = []
    for x in raw:
        if type(x) is int:
            out.append(x)
        elif isinstance(x, str) and x.isdigit() and len(x) < 10:
            out.append(int(x))
        else:
            raise GameError(msg("Choose cards from your hand."))
    return out


def _card_sort_key(st: dict, cid: int) -> tuple:
    code = st["cards"][cid]
    return (_KIND_ORDER.get(KIND[code], 9), -SPEED[code], code, cid)


_CODE_ORDER: dict[str, tuple] = {}  # card type -> _card_sort_key without the card id (filled as met)


def _sorted_cards(st: dict, ids: list[int]) -> list[int]:
    """sorted(ids, key=_card_sort_key), with each type's key worked out once."""
    cards = st["cards"]
    order = _CODE_ORDER

    def key(cid: int) -> tuple:
        code = cards[cid]
        k = order.get(code)
        if k is None:
            k = order[code] = (_KIND_ORDER.get(KIND[code], 9), -SPEED[code], code)
        return k, cid

    return sorted(ids, key=key)


def _desc_cards(st: dict, ids: list[int]) -> Any:
    ordered = sorted(ids, key=lambda c: _card_sort_key(st, c))
    return plus(msg(SHORT[st["cards"][c]]) for c in ordered)


def _pref_label(key: str, value: str) -> Msg:
    """"Boost: Smart": a preference and its value, both translated."""
    return msg("{name}: {value}", name=msg(_PREF_NAMES[key]), value=msg(_PREF_VALUES[value]))


def _distinct_subsets(st: dict, ids: list[int], size: int) -> list[list[int]]:
    """Subsets of `size` cards, one per distinct multiset of card types."""
    cards = st["cards"]
    ordered = _sorted_cards(st, ids)
    return [[ordered[i] for i in combo] for combo in _distinct_places(tuple(cards[c] for c in ordered), size)]


@lru_cache(maxsize=65536)
def _distinct_places(codes: tuple[str, ...], size: int) -> tuple[tuple[int, ...], ...]:
    """_distinct_subsets() of sorted cards given by their types, as places in the hand: the
    first of each multiset of types in combinations' order (hands repeat: played cards come back
    in new hands, so a search asks again and again)."""
    seen = set()
    out = []
    for combo in combinations(range(len(codes)), size):
        key = tuple(codes[i] for i in combo)
        if key not in seen:
            seen.add(key)
            out.append(combo)
    return tuple(out)


def _choice_label(o: list) -> Msg:
    """A choice-of-speed option: the total, where it takes the car, the corner Heat or a spin."""
    total, space, heat, spin, finish = o
    if finish:
        return msg("Speed {s}: across the finish line", s=total)
    if spin:
        return msg("Speed {s}: to space {p}, a spin at a corner (Heat {h} needed)", s=total, p=space, h=heat)
    if heat:
        return msg("Speed {s}: to space {p}, corner Heat {h}", s=total, p=space, h=heat)
    return msg("Speed {s}: to space {p}", s=total, p=space)


class HeatEngine(Engine):
    kind = "heat"
    title = "Heat: Pedal to the Metal"
    rules_version = 2  # raise it when a change makes old logs replay differently (bot/games/base.py)
    # One player races alone only against Legends (new_game checks it once the players are known).
    min_seats = 1
    max_seats = 6

    @property
    def options(self) -> list[OptionSpec]:
        return [
            OptionSpec("track", "Race track (laps, spaces and corners as on the board)",
                       choices=list(content.offered_tracks()), default="usa"),
            OptionSpec("grid", "Starting grid order: random, or by seat order",
                       choices=["random", "seats"], default="random"),
            OptionSpec("weather", "Weather and road conditions module (a weather tile, road tokens on corners)",
                       kind="bool", default=False),
            OptionSpec("garage", "Garage module: draft 3 upgrade cards before the race (off, or the deck)",
                       choices=["off", *rules.GARAGE_DECKS], default="off"),
            OptionSpec("garage_deal", "Garage: deal 3 upgrades to each player instead of the draft",
                       kind="bool", default=False),
            OptionSpec("legends", "Legends module: cars the bot drives (3 players or fewer; 2 or more suggested)",
                       kind="int", default=0, min_value=0, max_value=rules.MAX_CARS - 1),
            OptionSpec("legend_bonus", "Advanced Legends: add this to the Legends' helmet numbers (0-3)",
                       kind="int", default=0, min_value=0, max_value=3),
            OptionSpec("aggressive_legends", "Aggressive Legends (Heavy Rain): one more corner line from a ∧ diamond",
                       kind="bool", default=False),
            OptionSpec("tournament", "Tournament mode: no gear shift before the cards; shown card counts set the gear",
                       kind="bool", default=False),
            OptionSpec("championship", "Championship: a season of races in this game (off, 1961-1964, custom)",
                       choices=["off", *championship.SEASONS], default="off"),
            OptionSpec("races", "Custom championship: number of races (2-4)", kind="int", default=4, min_value=2,
                       max_value=4),
            OptionSpec("season_tracks", "Custom championship: the tracks in order, comma-separated (default: shuffled)",
                       default=""),
        ]

    def describe_options(self, options: dict[str, Any]) -> list[Msg]:
        """The table's options as the lobby shows them."""
        grid = msg("random grid") if options.get("grid", "random") == "random" else msg("grid in seat order")
        out = [grid] if options.get("championship") else [
            msg("{track} circuit", track=msg(content.tracks()[options["track"]].name)), grid]
        if "weather" in options.get("modules", ()):
            out.append(msg("weather and road conditions (drawn at the start)"))
        if "garage" in options.get("modules", ()) and options.get("garage_deal"):
            out.append(msg("Garage: 3 upgrades dealt to each player ({deck} cards)",
                           deck=msg(options.get("garage", "basic"))))
        elif "garage" in options.get("modules", ()):
            out.append(msg("Garage: draft of 3 upgrades ({deck} cards)", deck=msg(options.get("garage", "basic"))))
        if "legends" in options.get("modules", ()):
            n = options.get("legends", 2)
            out.append(msg("{n} Legends (cars the bot drives)", n=n))
            # Said in the lobby before anyone sits down (the Start checks it): Legends race with 3
            # players or fewer, 6 cars in all.
            most = min(rules.LEGEND_MAX_PLAYERS, rules.MAX_CARS - n)
            out.append(msg("at most 1 player with {n} Legends", n=n) if most == 1 else
                       msg("at most {p} players with {n} Legends", p=most, n=n))
            if options.get("legend_bonus"):
                out.append(msg("advanced Legends: helmets +{n}", n=options["legend_bonus"]))
            if options.get("aggressive_legends"):
                out.append(msg("aggressive Legends"))
        if options.get("tournament"):
            out.append(msg("tournament mode"))
        if options.get("championship"):  # (the season's own tracks, grid, market and weather)
            out = championship.describe(options) + [m for m in out[2:] if m.key not in (
                "weather and road conditions (drawn at the start)", "Garage: draft of 3 upgrades ({deck} cards)")]
        return out

    # ------------------------------------------------------------------ setup

    def validate_options(self, options: dict[str, Any], seats: int) -> dict[str, Any]:
        if not _is_int(seats) or not self.min_seats <= seats <= self.max_seats:
            raise GameError(msg("Heat needs {lo} to {hi} players.", lo=self.min_seats, hi=self.max_seats))
        options = dict(options or {})
        track = options.get("track", "usa")
        if not isinstance(track, str):
            raise GameError(msg("Unknown track."))
        key = track.strip().lower()
        key = _TRACK_ALIASES.get(key, key).replace(" ", "_")
        if key not in content.offered_tracks():
            raise GameError(msg("Unknown track {track}; choose one of: {names}.", track=track,
                              names=list(content.offered_tracks())))
        grid = options.get("grid", "random")
        if grid not in ("random", "seats"):
            raise GameError(msg("Grid order must be random or seats."))
        modules = options.get("modules", [])
        if isinstance(modules, str):
            modules = [m.strip() for m in modules.split(",") if m.strip()]
        if not isinstance(modules, list) or not all(isinstance(m, str) for m in modules):
            raise GameError(msg("Modules must be a list of names."))
        weather = options.get("weather", False)
        if not isinstance(weather, bool):
            raise GameError(msg("Weather must be on or off."))
        if weather:
            modules = list(modules) + ["weather"]
        garage = options.get("garage", "off")
        if garage not in ("off", *rules.GARAGE_DECKS):
            raise GameError(msg("Garage can be: {values}.", values=["off", *rules.GARAGE_DECKS]))
        if garage != "off":
            modules = list(modules) + ["garage"]
        deal = options.get("garage_deal", False)
        if not isinstance(deal, bool):
            raise GameError(msg("Dealing the upgrades must be on or off."))
        if deal and "garage" not in modules:
            raise GameError(msg("Dealing upgrades needs the Garage module (garage: a deck)."))
        legends = options.get("legends", 0)
        if not _is_int(legends) or legends < 0:
            raise GameError(msg("Legends must be a number of cars."))
        if "legends" in modules and not legends:
            legends = 2  # the module named without a number: the suggested two
        modules = [m for m in modules if m != "legends"]
        if legends > rules.MAX_CARS - self.min_seats:
            raise GameError(msg("At most {n} cars race: {k} Legends at most with {p} players.", n=rules.MAX_CARS,
                                k=rules.MAX_CARS - self.min_seats, p=self.min_seats))
        bonus = options.get("legend_bonus", 0)
        if not _is_int(bonus) or not 0 <= bonus <= 3:
            raise GameError(msg("The Legends' bonus is 0 to 3."))
        aggressive = options.get("aggressive_legends", False)
        if not isinstance(aggressive, bool):
            raise GameError(msg("Aggressive Legends must be on or off."))
        if legends:
            modules = list(modules) + ["legends"]
        for m in modules:
            if m not in rules.KNOWN_MODULES:
                raise GameError(msg("The {module} module is not available yet.", module=m))
        out = {"track": key, "grid": grid, "modules": sorted(set(modules))}
        if "garage" in out["modules"]:
            out["garage"] = garage if garage != "off" else "basic"
            if deal:
                out["garage_deal"] = True
        if "legends" in out["modules"]:
            out["legends"] = legends
            if bonus:
                out["legend_bonus"] = bonus
            if aggressive:
                out["aggressive_legends"] = True
        tournament = options.get("tournament", False)
        if not isinstance(tournament, bool):
            raise GameError(msg("Tournament mode must be on or off."))
        if tournament:
            out["tournament"] = True
        championship.validate(options, out, seats)
        return out

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
            raise GameError(msg("At most {n} cars race: {k} Legends at most with {p} players.", n=rules.MAX_CARS,
                                k=rules.MAX_CARS - seats, p=seats))
        if opts.get("championship"):  # a whole season: the first race, its upgrade market first
            return dict(championship.new_season(opts, seats, int(seed)), rules_version=self.rules_version)
        st = rules.new_state(opts["track"], seats, int(seed), opts["grid"], opts["modules"], opts.get("garage"),
                             legends)
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

    # ------------------------------------------------------------------ queries

    def to_act(self, state: dict) -> list[int]:
        phase = state["phase"]
        if phase in championship.PHASES:
            return championship.to_act(state)
        if phase == "submit":
            cars = state["cars"]
            return [s for s in range(state["seats"]) if not cars[s]["fin"] and cars[s]["sub"] is None]
        if phase == "decide" and state["pending"] is not None:
            return [state["pending"]["seat"]]
        if phase == "draft":
            dr = state["draft"]
            return [dr["order"][dr["i"]]]
        return []

    def is_over(self, state: dict) -> bool:
        return state["phase"] == "over"

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        if not self._valid_seat(state, seat) or state["phase"] == "over":
            return []
        if state["phase"] in championship.PHASES:
            return championship.legal_actions(state, seat)
        car = state["cars"][seat]
        out: list[dict] = []
        if state["phase"] == "draft":
            if self.to_act(state) == [seat]:
                seen = set()
                for i, code in enumerate(state["draft"]["market"]):
                    if code not in seen:  # one pick per card type
                        seen.add(code)
                        out.append({"type": "pick", "card": i})
        elif state["phase"] == "submit" and not car["fin"]:
            out.extend({"type": "submit", "cards": ids} for ids in self._submissions(state, car))
        elif state["phase"] == "decide" and state["pending"] and state["pending"]["seat"] == seat:
            out.extend(self._decision_actions(state, car, state["pending"]))
        if not car["fin"]:
            for key, values in rules.prefs_of(state).items():
                for v in values:
                    if v != car["prefs"].get(key, values[0]):
                        out.append({"type": "prefs", key: v})
        return out

    def _submissions(self, state: dict, car: dict) -> list[list[int]]:
        gears, clogged = rules.fillable_gears(state, car)
        playable, heat = rules.split_hand(state, car)
        out = []
        ordered: list[int] = []
        codes: tuple[str, ...] = ()
        for g in gears:
            if g in clogged:  # every playable card, Heat for the rest (one way: Heat cards are alike)
                out.append(playable + heat[:g - len(playable)])
            else:  # _distinct_subsets(state, playable, g), the hand sorted once for every gear
                if not codes:
                    ordered = _sorted_cards(state, playable)
                    codes = tuple(state["cards"][c] for c in ordered)
                out.extend([ordered[i] for i in combo] for combo in _distinct_places(codes, g))
        return out

    def _decision_actions(self, state: dict, car: dict, pending: dict) -> list[dict]:
        kind = pending["type"]
        if kind == "slipstream":
            if pending.get("lengths"):
                return [{"type": "slipstream", "take": True, "spaces": k} for k in reversed(pending["lengths"])] \
                    + [{"type": "slipstream", "take": False}]
            return [{"type": "slipstream", "take": True}, {"type": "slipstream", "take": False}]
        if kind in ("boost", "adrenaline"):
            return [{"type": kind, "use": True}, {"type": kind, "use": False}]
        if kind == "order":
            return [{"type": "order", "first": "adrenaline"}, {"type": "order", "first": "boost"}]
        if kind == "choice":
            return [{"type": "choice", "speed": o[0]} for o in pending["options"]]
        cards = state["cards"]
        if kind == "cooldown":
            heat = [c for c in car["hand"] if KIND[cards[c]] == "heat"]
            return [{"type": "cooldown", "cards": heat[:n]} for n in range(pending["max"], -1, -1)]
        if kind == "discard":
            disc = [c for c in car["hand"] if rules.discardable(state, cards[c])]
            out = [{"type": "discard", "cards": []}]
            for n in range(1, len(disc) + 1):
                out.extend({"type": "discard", "cards": ids} for ids in _distinct_subsets(state, disc, n))
            return out
        return []

    def _valid_seat(self, state: dict, seat: Any) -> bool:
        return type(seat) is int and 0 <= seat < state["seats"]

    # ------------------------------------------------------------------ apply

    def apply(self, state: dict, seat: int, action: dict) -> tuple[dict, list[Event]]:
        if "champ" in state:  # the Championship: its market steps, and the next race after each one
            if not (type(seat) is int and 0 <= seat < state["seats"]):
                raise GameError(msg("You are not in this race."))
            if state["phase"] == "over":
                raise GameError(msg("The race is over."))
            return championship.apply(self, state, seat, action, self._apply_race)
        return self._apply_race(state, seat, action)

    def _apply_race(self, state: dict, seat: int, action: dict) -> tuple[dict, list[Event]]:
        if not (type(seat) is int and 0 <= seat < state["seats"]):  # _valid_seat, inlined (hot)
            raise GameError(msg("You are not in this race."))
        if not isinstance(action, dict):
            raise GameError(msg("Unknown action."))
        if state.get("schema", 1) < rules.SCHEMA:  # saved by an older version
            state = rules.upgrade(state)
        kind = action.get("type")
        if state["phase"] == "over":
            raise GameError(msg("The race is over."))
        if kind == "prefs":
            return self._apply_prefs(state, seat, action)
        if kind == "submit":
            return self._apply_submit(state, seat, action)
        if kind == "pick":
            return self._apply_pick(state, seat, action)
        if kind in DECISIONS:
            return self._apply_decision(state, seat, kind, action)
        raise GameError(msg("Unknown action."))

    def _apply_prefs(self, state: dict, seat: int, action: dict) -> tuple[dict, list[Event]]:
        car = state["cars"][seat]
        changes = {}
        items = list(action.items())
        if isinstance(action.get("values"), list):  # the preferences select: "key=value"
            items += [tuple(str(v).split("=", 1)) for v in action["values"] if "=" in str(v)]
            if not any("=" in str(v) for v in action["values"]):
                raise GameError(msg("No preference given."))
        for key, value in items:
            if key in ("type", "values"):
                continue
            allowed = rules.prefs_of(state)
            if key not in allowed:
                raise GameError(msg("Unknown preference {name}.", name=str(key)[:30]))
            if value not in allowed[key]:
                raise GameError(msg("{name} can be: {values}.", name=msg(_PREF_NAMES[key]),
                                  values=list(allowed[key])))
            changes[key] = value
        if not changes:
            raise GameError(msg("No preference given."))
        new = dict(state)
        new["cars"] = list(state["cars"])
        nc = dict(car)
        nc["prefs"] = {**car["prefs"], **changes}
        new["cars"][seat] = nc
        events = [Event(msg("Preferences set: {text}.", text=[_pref_label(k, v) for k, v in changes.items()]),
                        to=seat)]
        pending = state["pending"]
        if (state["phase"] == "decide" and pending and pending["seat"] == seat
                and changes.get(pending["type"], "ask") != "ask"):
            # The decision we wait for is now automatic: resolution goes on.
            new = rules.clone(new)
            new["pending"] = None
            events += self._resume(new)
        return new, events

    def _apply_pick(self, state: dict, seat: int, action: dict) -> tuple[dict, list[Event]]:
        if state["phase"] != "draft":
            raise GameError(msg("The Garage draft is over."))
        if self.to_act(state) != [seat]:
            raise GameError(msg("It is not your turn to pick."))
        raw = action.get("card")
        if raw is None and isinstance(action.get("values"), list) and len(action["values"]) == 1:
            raw = action["values"][0]
        if isinstance(raw, str) and raw.isdigit() and len(raw) < 4:
            raw = int(raw)
        if not _is_int(raw) or not 0 <= raw < len(state["draft"]["market"]):
            raise GameError(msg("Pick one of the cards on offer."))
        new = rules.clone(state)
        rng = Rng(new["rng"])
        evs = rules.draft_pick(new, seat, raw, rng)
        new["rng"] = rng.state
        return new, self._events(new, evs)

    def _apply_submit(self, state: dict, seat: int, action: dict) -> tuple[dict, list[Event]]:
        if state["phase"] == "draft":
            raise GameError(msg("The Garage draft comes first."))
        if state["phase"] != "submit":
            raise GameError(msg("The round is being resolved; cards can't be changed now."))
        car = state["cars"][seat]
        if car["fin"]:
            raise GameError(msg("Your car has finished the race."))
        ids = _parse_ids(action)
        err = rules.check_submission(state, car, ids)
        if err:
            raise GameError(err)
        if car["sub"] == ids:  # the same cards again (a second click or command): nothing to change
            raise GameError(msg("Those cards are already in."))
        cars = state["cars"]
        racing = waiting = 0  # waiting: the other racing cars without a submission
        for c in cars[:state["seats"]]:  # (Legends submit nothing)
            if not c["fin"]:
                racing += 1
                if c["sub"] is None and c is not car:
                    waiting += 1
        # The last player's cards resolve the round at once: no "you may change them" for them.
        events = [Event(msg("Round {n}: your cards are changed, {k} now (gear {k}). You may change them until "
                            "everyone is in.", n=state["round"], k=len(ids)) if car["sub"] is not None else
                        msg("Round {n}: your card is in (gear 1). You may change it until everyone is in.",
                            n=state["round"], k=1) if waiting and len(ids) == 1 else
                        msg("Round {n}: your {k} cards are in (gear {k}). You may change them until everyone "
                            "is in.", n=state["round"], k=len(ids)) if waiting else
                        msg("Round {n}: your card is in (gear 1), the last: the round is played.",
                            n=state["round"], k=1) if len(ids) == 1 else
                        msg("Round {n}: your {k} cards are in (gear {k}), the last: the round is played.",
                            n=state["round"], k=len(ids)), to=seat)]
        if car["sub"] is None:
            events.append(Event(msg("{who} is ready ({k}/{n}).", who=seat_name(seat), k=racing - waiting,
                                    n=racing), log=False))
        if waiting:
            # Only this car changes: the other cars are shared with the input state, not copied.
            new = dict(state)
            new["cars"] = list(cars)
            nc = new["cars"][seat] = dict(car)
            nc["sub"] = ids  # a fresh list from _parse_ids
            return new, events
        # The last submission: the round resolves, on a full copy.
        new = rules.clone(state, new_round=True)
        new["cars"][seat]["sub"] = ids
        rng = Rng(new["rng"])
        evs = rules.start_resolution(new, rng)
        new["rng"] = rng.state
        events += self._events(new, evs)
        return new, events

    def _apply_decision(self, state: dict, seat: int, kind: str, action: dict) -> tuple[dict, list[Event]]:
        pending = state["pending"]
        if state["phase"] != "decide" or not pending or pending["seat"] != seat:
            raise GameError(msg("Nothing to decide for you now."))
        if pending["type"] != kind:
            raise GameError(msg("The decision now is: {kind}.", kind=msg(_PREF_NAMES[pending["type"]])))
        car = state["cars"][seat]
        cards = state["cards"]
        if kind == "slipstream":
            value: Any = action.get("take")
            if not isinstance(value, bool):
                raise GameError(msg("Say whether you take the slipstream."))
            lengths = pending.get("lengths")
            if value and lengths:
                k = action.get("spaces", lengths[-1])
                if not _is_int(k) or k not in lengths:
                    raise GameError(msg("Slipstream {n} spaces is not open to you.", n=str(k)[:5]))
                value = k
        elif kind in ("boost", "adrenaline"):
            value = action.get("use")
            if not isinstance(value, bool):
                raise GameError(msg("Say yes or no."))
        elif kind == "order":
            value = action.get("first")
            if value not in ("boost", "adrenaline"):
                raise GameError(msg("Say which goes first: boost or adrenaline."))
        elif kind == "choice":
            value = action.get("speed")
            raw = action.get("values")
            if value is None and type(raw) is list and len(raw) == 1 and isinstance(raw[0], str) \
                    and raw[0].isdigit() and len(raw[0]) < 4:  # from the select
                value = int(raw[0])
            if not _is_int(value) or value not in [o[0] for o in pending["options"]]:
                raise GameError(msg("Pick one of the speeds on offer."))
        else:
            ids = _parse_ids(action)
            if len(set(ids)) != len(ids) or any(c not in car["hand"] for c in ids):
                raise GameError(msg("That card is not in your hand."))
            if kind == "cooldown":
                if any(KIND[cards[c]] != "heat" for c in ids):
                    raise GameError(msg("Only Heat cards can be cooled down."))
                if len(ids) > pending["max"]:
                    raise GameError(msg("You can cool down at most {n} Heat.", n=pending["max"]))
            elif any(not rules.discardable(state, cards[c]) for c in ids):
                raise GameError(msg("Heat and Stress cards can't be discarded."))
            value = ids
        new = rules.clone(state)
        new["cars"][seat]["rd"]["ans"][kind] = value
        new["pending"] = None
        return new, self._resume(new)

    def _resume(self, new: dict) -> list[Event]:
        rng = Rng(new["rng"])
        evs = rules.run(new, rng, [])
        new["rng"] = rng.state
        return self._events(new, evs)

    def _events(self, st: dict, evs: list[tuple[int | None, Msg]]) -> list[Event]:
        out = [Event(text, to) for to, text in evs]
        if st["phase"] == "decide" and st["pending"]:
            p = st["pending"]
            out.append(Event(msg("Waiting for {who} to decide.", who=seat_name(p["seat"]))))
            out.append(Event(self._decision_prompt(st, p), to=p["seat"]))
        return out

    def _decision_prompt(self, st: dict, p: dict) -> Msg:
        kind = p["type"]
        if kind == "slipstream":
            if p.get("lengths"):
                return msg("Slipstream: move {a} or {b} more spaces (road conditions)? (It does not add to "
                           "your speed for corners.)", a=p["lengths"][0], b=p["lengths"][-1])
            return msg("Slipstream: move 2 more spaces? (It does not add to your speed for corners.)")
        if kind == "boost":
            return msg("Boost: pay 1 Heat to reveal cards until a Speed card and add it to your speed?")
        if kind == "adrenaline":
            return msg("Adrenaline: move 1 more space (+1 speed)?")
        if kind == "choice":
            lo, hi = p["options"][0][0], p["options"][-1][0]
            return msg("Choice of speed: your other cards make {base}; pick your total speed, {lo} to {hi}.",
                       base=p["base"], lo=lo, hi=hi)
        if kind == "order":
            return msg("Boost and Adrenaline each move on their own and the order changes where you "
                     "can land: which goes first? (You still decide each one when it comes.)")
        if kind == "cooldown":
            return msg("Cooldown: return up to {n} Heat cards from your hand to your Engine.", n=p["max"])
        return msg("Discard any cards you don't want (not Heat or Stress), or keep them all.")

    # ------------------------------------------------------------------ describe

    def _describe_submit(self, state: dict, car: dict, ids: list[int]) -> Msg:
        n = len(ids)
        cards = _desc_cards(state, ids)
        shift = abs(n - car["gear"]) == 2
        clogged = any(not PLAYABLE[state["cards"][c]] for c in ids if 0 <= c < len(state["cards"]))
        flood = rules.shift_heat(state, car, n) - (1 if shift else 0)
        if flood:  # Heavy Rain: shifting down from a flooded space
            label = msg("Gear {g}: {cards} (flooded downshift: {n} Heat)", g=n, cards=cards, n=flood + (1 if shift else 0))
            return msg("{a} (clogged: no move)", a=label) if clogged else label
        if shift and clogged:
            return msg("Gear {g}: {cards} (2-gear shift: 1 Heat) (clogged: no move)", g=n, cards=cards)
        if shift:
            return msg("Gear {g}: {cards} (2-gear shift: 1 Heat)", g=n, cards=cards)
        if clogged:
            return msg("Gear {g}: {cards} (clogged: no move)", g=n, cards=cards)
        return msg("Gear {g}: {cards}", g=n, cards=cards)

    def describe_action(self, state: dict, seat: int, action: dict) -> Msg:
        if "champ" in state and isinstance(action, dict) and action.get("type") in ("market", "swap"):
            return championship.describe_action(state, seat, action) or msg("Unknown action")
        try:
            kind = action.get("type")
            if kind == "submit":
                ids = [c for c in _parse_ids(action) if 0 <= c < len(state["cards"])]
                car = state["cars"][seat]
                label = self._describe_submit(state, car, ids)
                if state["phase"] == "submit" and ids and set(ids) <= set(car["hand"]):
                    # (a move's list, e.g. /heat play's: where it takes the car, the corner Heat)
                    plan = summary(state, seat, ids)
                    if plan is not None:
                        return msg("{move} → {plan}", move=label, plan=plan)
                return label
            if kind == "pick":
                code = state["draft"]["market"][int(action.get("card"))]
                return msg("Take {card}", card=msg(rules.draft_label(code)))
            if kind == "prefs":
                items = list(action.items()) + [tuple(str(v).split("=", 1)) for v in action.get("values") or []
                                                if "=" in str(v)]
                parts = [_pref_label(k, v) for k, v in items if k in _PREF_NAMES and v in _PREF_VALUES]
                return msg("Preference — {prefs}", prefs=parts)
            if kind == "slipstream":
                if action.get("take") and _is_int(action.get("spaces")) and action["spaces"] != 2:
                    return msg("Slipstream: +{n} spaces", n=action["spaces"])
                return msg("Slipstream: +2 spaces") if action.get("take") else msg("Slipstream: no")
            if kind == "boost":
                return msg("Boost: pay 1 Heat") if action.get("use") else msg("Boost: no")
            if kind == "adrenaline":
                return msg("Adrenaline: move +1") if action.get("use") else msg("Adrenaline: stay")
            if kind == "order":
                return msg("Adrenaline first") if action.get("first") == "adrenaline" else msg("Boost first")
            if kind == "choice":
                s = action.get("speed", (action.get("values") or [None])[0])
                if _is_int(s) or (isinstance(s, str) and s.isdigit() and len(s) < 4):
                    return msg("Choice of speed: {s}", s=int(s))
            if kind == "cooldown":
                return msg("Cool down {n} Heat", n=len(_parse_ids(action)))
            if kind == "discard":
                ids = [c for c in _parse_ids(action) if 0 <= c < len(state["cards"])]
                if not ids:
                    return msg("Discard nothing")
                return msg("Discard: {cards}", cards=_desc_cards(state, ids))
        except (GameError, AttributeError, IndexError, KeyError, TypeError):
            pass
        return msg("Unknown action")

    # ------------------------------------------------------------------ view

    def view(self, state: dict, viewer: int | None) -> dict:
        tr = rules.track_of(state)
        phase = state["phase"]
        cars = []
        for s, c in enumerate(state["cars"]):
            rd = c["rd"]
            shown = rd is not None and rd["shown"]
            cars.append({
                "seat": s,
                "space": rules.space_of(tr, c["pos"]),
                "lane": c["lane"],
                "lap": rules.lap_of(tr, c),
                "finished": c["fin"],
                "place": c["place"],
                "gear": c["gear"],
                "engine_heat": len(c["engine"]),
                "hand_count": len(c["hand"]),
                "deck_count": len(c["deck"]),
                "discard_count": len(c["discard"]),
                "discard_top": msg(LABEL[state["cards"][c["discard"][-1]]]) if c["discard"] else None,
                "revealed": rules.revealed_labels(state, rd["rev"]) if shown else [],
                "speed": rd["speed"] if shown else None,
                "submitted": c["sub"] is not None,
                "spun": bool(shown and rd["spun"]),
                "adrenaline": bool(shown and rd["adr"]),
                "slipstreamed": bool(shown and rd["slip"]),
                "boosted": bool(shown and rd["boost"]),
                "clogged": bool(shown and rd["clog"]),
                "heat_paid": rd["heat"] if shown else 0,
                "stress_taken": c["stress"],
            })
            if c.get("out"):  # Championship event: out of the race (a spin-out), no place
                cars[-1]["out"] = True
            if "legend" in c:
                cars[-1]["legend"] = True
                cars[-1]["name"] = rules.car_name(state, s)
                if shown and state.get("legend_card") is not None:
                    h, dmd = content.legend_cards()[state["legend_card"]][c["legend"] % 6]
                    h += state.get("legend_bonus", 0)
                    cars[-1]["revealed"] = [msg("Helmet {h}", h=h), msg("Diamond {d}", d=dmd)]
        res = state["res"]
        log_order = res["order"] if res is not None else state["last_order"]
        last_round = []
        for s in log_order:
            rd = state["cars"][s]["rd"]
            if rd is not None and rd["shown"]:
                last_round.append({"seat": s, "lines": [rules.line_msg(x) for x in rd["lines"]]})
        racing = [s for s in rules.race_order(state, tr)]
        out: dict[str, Any] = {
            "kind": "heat",
            "track": state["track"],
            "track_name": msg(tr.name),
            "circuit": tr.circuit,
            "laps": tr.laps,
            "spaces": tr.spaces,
            "round": state["round"],
            "turn": state["round"],  # a new round gets a new board image
            "phase": phase,
            "corners": [{"space": c.space, "speed": c.speed, "lane": c.lane} for c in tr.corners],
            "cars": cars,
            "order": list(state["places"]) + racing,
            "last_round": last_round,
            "log_round": (state["round"] if res is not None else
                          (state["round"] - 1 if phase == "submit" else state["round"])),
            "waiting_for": self.to_act(state),
            "standings": list(state["places"]),
            "adrenaline_cars": state["adrenaline"],
            "modules": list(state["modules"]),
        }
        if state.get("weather") is not None:  # (no key without the module: base views stay as they were)
            out["weather"] = self._weather_view(state, tr)
        if tr.flooded:  # Heavy Rain: the flooded spaces (a downshift from one costs 1 Heat more)
            out["flooded"] = sorted(tr.flooded)
        if "draft" in state:
            dr = state["draft"]
            out["draft"] = {"round": dr["round"], "rounds": rules.DRAFT_ROUNDS, "picking": dr["order"][dr["i"]],
                            "order": list(dr["order"]),
                            "market": [{"index": i, "code": c, "label": msg(rules.draft_label(c)),
                                        "text": rules.card_text(c), **_face(c)} for i, c in enumerate(dr["market"])],
                            "picks": [[msg(rules.draft_label(c)) for c in p] for p in dr["picks"]]}
        if "garage" in state:
            out["garage"] = [[msg(rules.draft_label(c)) for c in p] for p in state["garage"]]
        if "legend_deck" in state:
            k = state["legend_card"]
            out["legend_card"] = None if k is None else {
                "number": k + 1, "helmets": [{"car": s, "name": rules.car_name(state, s),
                                              "helmet": content.legend_cards()[k][c["legend"] % 6][0],
                                              "diamond": content.legend_cards()[k][c["legend"] % 6][1]}
                                             for s, c in enumerate(state["cars"]) if "legend" in c]}
        if viewer is not None and self._valid_seat(state, viewer):
            out["me"] = self._me(state, viewer)
        if "champ" in state:  # the season; a new board image with each race's market and round
            out["champ"] = championship.view(state, viewer)
            out["turn"] = state["champ"]["race"] * 1000 + (0 if phase in championship.PHASES else state["round"])
            if phase in championship.PHASES:  # the market, shown in the hand image like the Garage draft's
                ch = state["champ"]
                out["draft"] = {"round": ch["race"] + 1, "rounds": len(ch["races"]),
                                "picking": championship.to_act(state)[0], "order": list(ch["market"]["order"]),
                                "market": [{"index": i, "code": c, "label": msg(rules.draft_label(c)),
                                            "text": rules.card_text(c), **_face(c)}
                                           for i, c in enumerate(ch["market"]["cards"])],
                                "picks": [[msg(rules.draft_label(c)) for c in u] for u in ch["upgrades"]]}
        if state.get("tournament"):
            out["tournament"] = True
        return out

    def _weather_view(self, state: dict, tr: content.Track) -> dict | None:
        """The race's weather tile and road tokens (public), or None without the module."""
        w = state.get("weather")
        if w is None:
            return None
        data = content.weather()
        tile = data["tiles"][w["tile"]]
        road = []
        firsts = {c.chicane for c in tr.corners if c.chicane is not None}
        for c, token in zip(tr.corners, w["road"]):
            t = data["tokens"][token]
            if c.index in firsts and (token == "weather" or t["where"] == "sector"):
                continue  # a chicane's ↔ token: shown once, on its 2nd line (it works behind the chicane)
            fx = tile["sector"] if token == "weather" else token if t["where"] == "sector" else None
            road.append({"corner": c.index + 1, "space": c.space, "token": token, "where": t["where"],
                         "name": msg(t["name"]), "printed": tr.printed[c.index], "speed": c.speed,
                         "effect": msg(data["sector_effects"][fx]["name"]) if fx in data["sector_effects"]
                         else msg(t["name"]) if fx else None, "fx": fx})
        return {"tile": w["tile"], "name": msg(tile["name"]), "setup": self._weather_setup(tile["setup"]),
                "sector": msg(data["sector_effects"][tile["sector"]]["name"]), "road": road}

    @staticmethod
    def _weather_setup(setup: dict) -> Msg:
        k, v = next(iter(setup.items()))
        if k == "stress":
            return msg("{n} Stress card in each deck", n=plus_sign(v))
        if k == "heat":
            return msg("{n} Heat card in each Engine", n=plus_sign(v))
        if k == "heat_to_deck":
            return msg("{n} Engine Heat shuffled into each deck", n=v)
        return msg("{n} Engine Heat start in each discard pile", n=v)

    def _me(self, state: dict, seat: int) -> dict:
        car = state["cars"][seat]
        cards = state["cards"]
        hand = sorted(car["hand"], key=lambda c: _card_sort_key(state, c))
        tr_flooded = bool(content.tracks()[state["track"]].flooded)
        sub = car["sub"]
        submission = None
        if sub is not None:
            submission = {"cards": list(sub), "gear": len(sub),
                          "shift_heat": rules.shift_heat(state, car, len(sub)),
                          "label": self._describe_submit(state, car, sub)}
        gears, clogged = rules.fillable_gears(state, car)
        decision = None
        p = state["pending"]
        if state["phase"] == "decide" and p and p["seat"] == seat:
            decision = dict(p)
            decision["prompt"] = self._decision_prompt(state, p)
        return {
            "seat": seat,
            "hand": [{"id": c, "label": msg(LABEL[cards[c]]), **_face(cards[c])} for c in hand],
            "played": [{"id": c, "label": msg(LABEL[cards[c]])} for c in car["played"]],
            "submission": submission,
            "prefs": {**DEFAULT_PREFS, **{k: v[0] for k, v in rules.prefs_of(state).items()}, **car["prefs"]},
            "deck_count": len(car["deck"]),
            "discard_count": len(car["discard"]),
            "engine_heat": len(car["engine"]),
            "gears": gears if state["phase"] == "submit" and not car["fin"] else [],
            # clogged: some gear open to you can only be filled with Heat (then the car won't move)
            "clogged": bool(clogged),
            "clogged_gears": clogged if state["phase"] == "submit" and not car["fin"] else [],
            "decision": decision,
            # Public facts the hand image shows (derived from the car's public position).
            "position": self._position(state, seat),
            "next_corner": self._next_corner(state, seat),
            **self._road_here(state, seat),
            # Heavy Rain (tracks with flooded spaces only): a downshift here costs 1 Heat more
            **({"flooded_here": rules.flooded_start(state, car)} if tr_flooded else {}),
        }

    def _road_here(self, state: dict, seat: int) -> dict:
        """With the weather module: the sector effect where the car stands (None: none)."""
        if state.get("weather") is None:
            return {}
        tr = rules.track_of(state)
        fx = rules.sector_fx(tr, state["cars"][seat]["pos"])
        data = content.weather()
        name = (data["sector_effects"][fx]["name"] if fx in data["sector_effects"]
                else data["tokens"][fx]["name"] if fx else None)
        return {"road_here": msg(name) if name else None}

    def _position(self, state: dict, seat: int) -> int | None:
        """The car's place in the race order (1 = leading), counting finished cars first."""
        order = list(state["places"]) + rules.race_order(state, rules.track_of(state))
        return order.index(seat) + 1 if seat in order else None

    def _next_corner(self, state: dict, seat: int) -> dict | None:
        """The first corner line ahead of the car: its space, speed limit and how many spaces
        the car must move to cross it (None after the last corner of the race)."""
        car = state["cars"][seat]
        if car["fin"]:
            return None
        tr = rules.track_of(state)
        i = bisect_left(tr.line_pos, car["pos"])
        if i >= len(tr.lines):
            return None
        line, _, limit = tr.lines[i]
        out = {"space": rules.space_of(tr, line), "speed": limit, "distance": line - car["pos"] + 1}
        w = state.get("weather")
        if w is not None:  # its road token, when it is a corner one (Overheat, limit -1/+1)
            token = w["road"][tr.lines[i][1]]
            if content.weather()["tokens"][token]["where"] == "corner":
                out["token"] = msg(content.weather()["tokens"][token]["name"])
        return out

    # ------------------------------------------------------------------ menu

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

    def menu(self, state: dict, seat: int) -> list[dict]:
        if not self._valid_seat(state, seat) or state["phase"] == "over":
            return []
        if state["phase"] in championship.PHASES:
            return championship.menu(state, seat)
        car = state["cars"][seat]
        if car["fin"]:
            return []
        groups: list[dict] = []
        cards = state["cards"]
        if state["phase"] == "draft":
            if self.to_act(state) != [seat]:
                return []
            dr = state["draft"]
            seen = set()
            options = []
            for i, code in enumerate(dr["market"]):
                if code in seen:
                    continue
                seen.add(code)
                options.append({"label": msg(rules.draft_label(code)), "value": str(i),
                                "description": rules.card_text(code)})
            return [{"kind": "select", "min": 1, "max": 1, "action": {"type": "pick"}, "options": options,
                     "placeholder": msg("Garage draft, round {n}/{m}: take one upgrade", n=dr["round"],
                                        m=rules.DRAFT_ROUNDS)}]
        if state["phase"] == "submit":
            gears, clogged = rules.fillable_gears(state, car)
            playable, heat = rules.split_hand(state, car)
            ids = sorted(playable + (heat if clogged else []), key=lambda c: _card_sort_key(state, c))
            options = []
            for c in ids[:25]:
                code = cards[c]
                if KIND[code] == "stress":
                    desc = msg("Reveals cards until a Speed card")
                elif not PLAYABLE[code]:
                    desc = msg("Only for gear {g}+ (clogged hand: all non-Heat cards + Heat, no move)",
                             g=min(clogged))
                else:
                    desc = rules.card_text(code) if code in rules.GARAGE else msg("Speed {v}", v=SPEED[code])
                options.append({"label": msg(LABEL[code]), "value": str(c), "description": desc})
            lo, hi = min(gears), min(max(gears), len(options))
            if car["sub"] is not None:
                ph = msg("Sent: {desc}. Pick again to change.", desc=self._describe_submit(state, car, car["sub"]))
            elif clogged and len(clogged) == len(gears):
                ph = msg("Clogged hand: play all non-Heat cards + Heat ({lo}-{hi} cards, no move)", lo=lo, hi=hi)
            elif clogged:
                ph = msg("Gear {g} now: pick {lo}-{hi} cards; {k}+ = all non-Heat + Heat, no move",
                       g=car["gear"], lo=lo, hi=hi, k=min(clogged))
            else:
                ph = msg("Gear {g} now: pick {lo}-{hi} cards (cards = new gear)", g=car["gear"], lo=lo, hi=hi)
            plans = plan_options(state, seat, self._submissions(state, car),
                                 lambda ids: self._describe_submit(state, car, ids))
            if plans:
                groups.append({"kind": "select", "placeholder": msg("Whole plans: gear, cards, where they take you"),
                               "min": 1, "max": 1, "action": {"type": "submit"}, "options": plans})
            groups.append({"kind": "select", "placeholder": ph, "min": lo, "max": hi,
                           "action": {"type": "submit"}, "options": options})
        elif state["phase"] == "decide" and state["pending"] and state["pending"]["seat"] == seat:
            groups.extend(self._decision_menu(state, car, state["pending"]))
        allowed = rules.prefs_of(state)
        prefs = {**DEFAULT_PREFS, **{k: v[0] for k, v in allowed.items()}, **car["prefs"]}
        if len(allowed) > PREF_BUTTONS:
            # Garage's nine preferences: one select after the cards' (not two rows of buttons
            # above the decision's), each option a new value, the current one said once.
            groups.append({"kind": "select", "placeholder": msg("Preferences: pick one to change it"),
                           "min": 1, "max": 1, "action": {"type": "prefs"}, "options": [
                               {"label": msg("{name} → {value}", name=msg(_PREF_NAMES[k]), value=msg(_PREF_VALUES[v])),
                                "value": f"{k}={v}", "description": msg("Now: {value}", value=msg(_PREF_VALUES[prefs[k]]))}
                               for k, vals in allowed.items() for v in vals if v != prefs[k]]})
            return groups
        groups.append({"kind": "buttons", "options": [
            {"label": _pref_label(k, prefs[k]),
             "action": {"type": "prefs", k: vals[(vals.index(prefs[k]) + 1) % len(vals)]},
             "style": "secondary"}
            for k, vals in allowed.items()]})
        return groups

    def _decision_menu(self, state: dict, car: dict, p: dict) -> list[dict]:
        kind = p["type"]
        cards = state["cards"]
        if kind == "slipstream":
            if p.get("lengths"):
                return [{"kind": "buttons", "options": [
                    {"label": msg("Slipstream +{n}", n=k), "action": {"type": "slipstream", "take": True, "spaces": k},
                     "style": "success"} for k in reversed(p["lengths"])] + [
                    {"label": msg("No slipstream"), "action": {"type": "slipstream", "take": False},
                     "style": "secondary"}]}]
            return [{"kind": "buttons", "options": [
                {"label": msg("Slipstream +2"), "action": {"type": "slipstream", "take": True}, "style": "success"},
                {"label": msg("No slipstream"), "action": {"type": "slipstream", "take": False}, "style": "secondary"}]}]
        if kind == "boost":
            return [{"kind": "buttons", "options": [
                {"label": msg("Boost (1 Heat)"), "action": {"type": "boost", "use": True}, "style": "danger"},
                {"label": msg("No boost"), "action": {"type": "boost", "use": False}, "style": "secondary"}]}]
        if kind == "adrenaline":
            return [{"kind": "buttons", "options": [
                {"label": msg("Adrenaline +1"), "action": {"type": "adrenaline", "use": True}, "style": "success"},
                {"label": msg("Stay"), "action": {"type": "adrenaline", "use": False}, "style": "secondary"}]}]
        if kind == "choice":
            return [{"kind": "select", "placeholder": msg("Choice of speed: pick your total speed"), "min": 1,
                     "max": 1, "action": {"type": "choice"},
                     "options": [{"label": _choice_label(o), "value": str(o[0])} for o in p["options"]]}]
        if kind == "order":
            return [{"kind": "buttons", "options": [
                {"label": msg("Adrenaline first"), "action": {"type": "order", "first": "adrenaline"},
                 "style": "primary"},
                {"label": msg("Boost first"), "action": {"type": "order", "first": "boost"}, "style": "primary"}]}]
        if kind == "cooldown":
            heat = [c for c in car["hand"] if KIND[cards[c]] == "heat"]
            return [{"kind": "buttons", "options": [
                {"label": msg("Cool down {n} Heat", n=n), "action": {"type": "cooldown", "cards": heat[:n]},
                 "style": "primary" if n == p["max"] else "secondary"}
                for n in range(p["max"], -1, -1)]}]
        disc = sorted([c for c in car["hand"] if rules.discardable(state, cards[c])], key=lambda c: _card_sort_key(state, c))
        return [
            {"kind": "select", "placeholder": msg("Cards to discard"), "min": 1, "max": max(1, len(disc[:25])),
             "action": {"type": "discard"},
             "options": [{"label": msg(LABEL[cards[c]]), "value": str(c)} for c in disc[:25]]},
            {"kind": "buttons", "options": [
                {"label": msg("Keep all"), "action": {"type": "discard", "cards": []}, "style": "secondary"}]},
        ]


ENGINE = HeatEngine()
