"""What Heat shows (`view`): the public race (cars, corners, the last round's lines, the modules'
boards) and, for a seat, its own hand and the public facts about its car."""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

import bot.games.heat.championship as championship
import bot.games.heat.content as content
import bot.games.heat.rules as rules
from bot.games.heat.labels import card_sort_key, describe_submit, face, is_seat, plus_sign
from bot.games.heat.menus import to_act
from bot.games.heat.moves import decision_prompt
from bot.games.heat.rules import DEFAULT_PREFS, LABEL
from bot.i18n import Msg, msg


def view(state: dict, viewer: int | None) -> dict:
    """The race as everyone sees it; for a seat, its own hand and car facts under "me"."""
    tr = rules.track_of(state)
    phase = state["phase"]
    res = state["res"]
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
        "cars": [_car(state, tr, s, c) for s, c in enumerate(state["cars"])],
        "order": list(state["places"]) + rules.race_order(state, tr),
        "last_round": _last_round(state),
        "log_round": (
            state["round"] if res is not None else (state["round"] - 1 if phase == "submit" else state["round"])
        ),
        "waiting_for": to_act(state),
        "standings": list(state["places"]),
        "adrenaline_cars": state["adrenaline"],
        "modules": list(state["modules"]),
    }
    if state.get("weather") is not None:  # (no key without the module: base views stay as they were)
        out["weather"] = weather_view(state, tr)
    if tr.flooded:  # Heavy Rain: the flooded spaces (a downshift from one costs 1 Heat more)
        out["flooded"] = sorted(tr.flooded)
    if "draft" in state:
        dr = state["draft"]
        out["draft"] = {
            "round": dr["round"],
            "rounds": rules.DRAFT_ROUNDS,
            "picking": dr["order"][dr["i"]],
            "order": list(dr["order"]),
            "market": _market(dr["market"]),
            "picks": [[msg(rules.draft_label(c)) for c in p] for p in dr["picks"]],
        }
    if "garage" in state:
        out["garage"] = [[msg(rules.draft_label(c)) for c in p] for p in state["garage"]]
    if "legend_deck" in state:
        out["legend_card"] = _legend_card(state)
    if viewer is not None and is_seat(state, viewer):
        out["me"] = me(state, viewer)
    if "champ" in state:
        _season(state, viewer, out)
    if state.get("tournament"):
        out["tournament"] = True
    return out


def _car(state: dict, tr: content.Track, s: int, c: dict) -> dict:
    """One car as everyone sees it; its round's cards once they are shown."""
    rd = c["rd"]
    shown = rd is not None and rd["shown"]
    out = {
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
    }
    if c.get("out"):  # Championship event: out of the race (a spin-out), no place
        out["out"] = True
    if "legend" in c:
        out["legend"] = True
        out["name"] = rules.car_name(state, s)
        if shown and state.get("legend_card") is not None:
            h, dmd = content.legend_cards()[state["legend_card"]][c["legend"] % 6]
            h += state.get("legend_bonus", 0)
            out["revealed"] = [msg("Helmet {h}", h=h), msg("Diamond {d}", d=dmd)]
    return out


def _last_round(state: dict) -> list[dict]:
    """Each shown car's lines of the round being resolved (or the last one), in race order."""
    res = state["res"]
    out = []
    for s in res["order"] if res is not None else state["last_order"]:
        rd = state["cars"][s]["rd"]
        if rd is not None and rd["shown"]:
            out.append({"seat": s, "lines": [rules.line_msg(x) for x in rd["lines"]]})
    return out


def _market(codes: list[str]) -> list[dict]:
    """Upgrade cards on offer (the Garage draft's, the championship market's), with their faces."""
    return [
        {"index": i, "code": c, "label": msg(rules.draft_label(c)), "text": rules.card_text(c), **face(c)}
        for i, c in enumerate(codes)
    ]


def _legend_card(state: dict) -> dict | None:
    """The Legends' card of the round (None before the first Legend moves): each Legend's helmet and diamond."""
    k = state["legend_card"]
    if k is None:
        return None
    return {
        "number": k + 1,
        "helmets": [
            {
                "car": s,
                "name": rules.car_name(state, s),
                "helmet": content.legend_cards()[k][c["legend"] % 6][0],
                "diamond": content.legend_cards()[k][c["legend"] % 6][1],
            }
            for s, c in enumerate(state["cars"])
            if "legend" in c
        ],
    }


def _season(state: dict, viewer: int | None, out: dict) -> None:
    """The championship's season; a new board image with each race's market and round."""
    phase = state["phase"]
    out["champ"] = championship.view(state, viewer)
    out["turn"] = state["champ"]["race"] * 1000 + (0 if phase in championship.PHASES else state["round"])
    if phase in championship.PHASES:  # the market, shown in the hand image like the Garage draft's
        ch = state["champ"]
        out["draft"] = {
            "round": ch["race"] + 1,
            "rounds": len(ch["races"]),
            "picking": championship.to_act(state)[0],
            "order": list(ch["market"]["order"]),
            "market": _market(ch["market"]["cards"]),
            "picks": [[msg(rules.draft_label(c)) for c in u] for u in ch["upgrades"]],
        }


def weather_view(state: dict, tr: content.Track) -> dict | None:
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
        road.append(
            {
                "corner": c.index + 1,
                "space": c.space,
                "token": token,
                "where": t["where"],
                "name": msg(t["name"]),
                "printed": tr.printed[c.index],
                "speed": c.speed,
                "effect": msg(data["sector_effects"][fx]["name"])
                if fx in data["sector_effects"]
                else msg(t["name"])
                if fx
                else None,
                "fx": fx,
            }
        )
    return {
        "tile": w["tile"],
        "name": msg(tile["name"]),
        "setup": weather_setup(tile["setup"]),
        "sector": msg(data["sector_effects"][tile["sector"]]["name"]),
        "road": road,
    }


def weather_setup(setup: dict) -> Msg:
    k, v = next(iter(setup.items()))
    if k == "stress":
        return msg("{n} Stress card in each deck", n=plus_sign(v))
    if k == "heat":
        return msg("{n} Heat card in each Engine", n=plus_sign(v))
    if k == "heat_to_deck":
        return msg("{n} Engine Heat shuffled into each deck", n=v)
    return msg("{n} Engine Heat start in each discard pile", n=v)


def me(state: dict, seat: int) -> dict:
    car = state["cars"][seat]
    cards = state["cards"]
    hand = sorted(car["hand"], key=lambda c: card_sort_key(state, c))
    tr_flooded = bool(content.tracks()[state["track"]].flooded)
    sub = car["sub"]
    submission = None
    if sub is not None:
        submission = {
            "cards": list(sub),
            "gear": len(sub),
            "shift_heat": rules.shift_heat(state, car, len(sub)),
            "label": describe_submit(state, car, sub),
        }
    gears, clogged = rules.fillable_gears(state, car)
    decision = None
    p = state["pending"]
    if state["phase"] == "decide" and p and p["seat"] == seat:
        decision = dict(p)
        decision["prompt"] = decision_prompt(p)
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
        "position": position(state, seat),
        "next_corner": next_corner(state, seat),
        **road_here(state, seat),
        # Heavy Rain (tracks with flooded spaces only): a downshift here costs 1 Heat more
        **({"flooded_here": rules.flooded_start(state, car)} if tr_flooded else {}),
    }


def road_here(state: dict, seat: int) -> dict:
    """With the weather module: the sector effect where the car stands (None: none)."""
    if state.get("weather") is None:
        return {}
    tr = rules.track_of(state)
    fx = rules.sector_fx(tr, state["cars"][seat]["pos"])
    data = content.weather()
    name = (
        data["sector_effects"][fx]["name"]
        if fx in data["sector_effects"]
        else data["tokens"][fx]["name"]
        if fx
        else None
    )
    return {"road_here": msg(name) if name else None}


def position(state: dict, seat: int) -> int | None:
    """The car's place in the race order (1 = leading), counting finished cars first."""
    order = list(state["places"]) + rules.race_order(state, rules.track_of(state))
    return order.index(seat) + 1 if seat in order else None


def next_corner(state: dict, seat: int) -> dict | None:
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
