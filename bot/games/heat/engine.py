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
from typing import Any

import bot.games.heat.championship as championship
import bot.games.heat.content as content
import bot.games.heat.hidden as hidden
import bot.games.heat.moves as moves
import bot.games.heat.options as heat_options
import bot.games.heat.rules as rules
from bot.games.base import Engine, Event, GameError, OptionSpec, choose_again, chosen, move
from bot.games.heat.labels import (PREF_NAMES, PREF_VALUES, card_sort_key, choice_label, desc_cards, distinct_places,
                                   distinct_subsets, face, is_int, parse_ids, plus_sign, pref_label, sorted_cards)
from bot.games.heat.plans import plan_options, summary
from bot.games.heat.racer import random_submission
from bot.games.heat.rules import DEFAULT_PREFS, KIND, LABEL, PLAYABLE, SPEED
from bot.games.rng import Rng
from bot.i18n import Msg, msg

PREF_BUTTONS = 6  # more preferences than this (Garage's nine) go in one select


class HeatEngine(Engine):
    kind = "heat"
    title = "Heat: Pedal to the Metal"
    rules_version = 2  # raise it when a change makes old logs replay differently (bot/games/base.py)
    # One player races alone only against Legends (new_game checks it once the players are known).
    min_seats = 1
    max_seats = 6

    @property
    def options(self) -> list[OptionSpec]:
        return heat_options.specs()

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
            else:  # distinct_subsets(state, playable, g), the hand sorted once for every gear
                if not codes:
                    ordered = sorted_cards(state, playable)
                    codes = tuple(state["cards"][c] for c in ordered)
                out.extend([ordered[i] for i in combo] for combo in distinct_places(codes, g))
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
                out.extend({"type": "discard", "cards": ids} for ids in distinct_subsets(state, disc, n))
            return out
        return []

    def _valid_seat(self, state: dict, seat: Any) -> bool:
        return type(seat) is int and 0 <= seat < state["seats"]

    # ------------------------------------------------------------------ moves (in place, on the one copy)

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
        events.append(Event(msg("Preferences set: {text}.", text=[pref_label(k, v) for k, v in changes.items()]),
                            to=seat))
        pending = st["pending"]
        if (st["phase"] == "decide" and pending and pending["seat"] == seat
                and changes.get(pending["type"], "ask") != "ask"):
            # The decision we wait for is now automatic: resolution goes on.
            st["pending"] = None
            events += moves.resume(st)

    @move("pick", phases=("draft",))
    def _pick(self, st: dict, seat: int, action: dict, events: list[Event]) -> None:
        """The Garage draft: the seat whose turn it is takes one upgrade from the market."""
        raw = action.get("card")
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


    # ------------------------------------------------------------------ describe

    def _describe_submit(self, state: dict, car: dict, ids: list[int]) -> Msg:
        n = len(ids)
        cards = desc_cards(state, ids)
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
                ids = [c for c in parse_ids(action) if 0 <= c < len(state["cards"])]
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
                parts = [pref_label(k, v) for k, v in items if k in PREF_NAMES and v in PREF_VALUES]
                return msg("Preference — {prefs}", prefs=parts)
            if kind == "slipstream":
                if action.get("take") and is_int(action.get("spaces")) and action["spaces"] != 2:
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
                if is_int(s) or (isinstance(s, str) and s.isdigit() and len(s) < 4):
                    return msg("Choice of speed: {s}", s=int(s))
            if kind == "cooldown":
                return msg("Cool down {n} Heat", n=len(parse_ids(action)))
            if kind == "discard":
                ids = [c for c in parse_ids(action) if 0 <= c < len(state["cards"])]
                if not ids:
                    return msg("Discard nothing")
                return msg("Discard: {cards}", cards=desc_cards(state, ids))
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
                                        "text": rules.card_text(c), **face(c)} for i, c in enumerate(dr["market"])],
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
                                            "text": rules.card_text(c), **face(c)}
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
        hand = sorted(car["hand"], key=lambda c: card_sort_key(state, c))
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
            decision["prompt"] = moves.decision_prompt(p)
        return {
            "seat": seat,
            "hand": [{"id": c, "label": msg(LABEL[cards[c]]), **face(cards[c])} for c in hand],
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
            ids = sorted(playable + (heat if clogged else []), key=lambda c: card_sort_key(state, c))
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
                               {"label": msg("{name} → {value}", name=msg(PREF_NAMES[k]), value=msg(PREF_VALUES[v])),
                                "value": f"{k}={v}", "description": msg("Now: {value}", value=msg(PREF_VALUES[prefs[k]]))}
                               for k, vals in allowed.items() for v in vals if v != prefs[k]]})
            return groups
        groups.append({"kind": "buttons", "options": [
            {"label": pref_label(k, prefs[k]),
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
                     "options": [{"label": choice_label(o), "value": str(o[0])} for o in p["options"]]}]
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
        disc = sorted([c for c in car["hand"] if rules.discardable(state, cards[c])], key=lambda c: card_sort_key(state, c))
        return [
            {"kind": "select", "placeholder": msg("Cards to discard"), "min": 1, "max": max(1, len(disc[:25])),
             "action": {"type": "discard"},
             "options": [{"label": msg(LABEL[cards[c]]), "value": str(c)} for c in disc[:25]]},
            {"kind": "buttons", "options": [
                {"label": msg("Keep all"), "action": {"type": "discard", "cards": []}, "style": "secondary"}]},
        ]


ENGINE = HeatEngine()
