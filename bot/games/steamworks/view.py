"""What a Steam Works seat (or a spectator) sees; the Innovation Turbine's two tiles only in the
looking seat's view."""

from __future__ import annotations

from bot.games.base import State, View, clone
from bot.games.steamworks.choices import to_act, whole_plans
from bot.games.steamworks.common import SETUP, SPACE_NAMES, VIEW_LOG, active_seat, mechanic_cost, mechanics_now
from bot.i18n import from_wire, msg


def view(state: State, viewer: int | None) -> View:
    """What `viewer` sees (None: a spectator)."""
    st = state
    players = []
    for s, pl in enumerate(st["players"]):
        persona = SETUP.personas[pl["persona"]]
        players.append(
            {
                "seat": s,
                "persona": msg(persona.name),
                "money": pl["money"],
                "sources": dict(pl["sources"]),
                "tiles": list(pl["tiles"]),
                "clocks": pl["clocks"],
                "vp": pl["vp"],
                "mechanics": mechanics_now(st),
                "used": st["used"][s],
                "passed": list(st["passed"][s]),
                "spaces": {sp: (f"p{s}:{sp}" in st["occupied"]) for sp in SPACE_NAMES},
            }
        )
    devices = [
        {
            "id": d["id"],
            "owner": d["owner"],
            "tiles": [dict(pt) for pt in d["tiles"]],
            "busy": {k.split(":")[2]: v for k, v in st["occupied"].items() if k.startswith(f"dev:{d['id']}:")},
        }
        for d in st["devices"]
    ]
    v: View = {
        "kind": "steamworks",
        "seats": st["seats"],
        "age": st["age"],
        "round": st["round"],
        "turn": st["turn_no"],
        "start": st["start"],
        "marker": st["marker"],
        "post": [st["age"], st["round"]],  # a round's turns share one thread post
        "next_start": (st["marker"] + 1) % st["seats"],
        "stage": st["phase"],
        "active": None if st["phase"] == "over" else active_seat(st),
        "unlocked": list(st["unlocked"]),
        "belts": {a: list(b) for a, b in st["belts"].items()},
        "stack_counts": {a: len(s) for a, s in st["stacks"].items()},  # the order stays hidden
        "clocks": dict(st["clocks"]),
        "supply_sources": dict(st["supply_sources"]),
        "players": players,
        "devices": devices,
        "act": clone(st["act"]),
        "build": clone(st["build"]),
        "cost": None if st["phase"] == "over" else mechanic_cost(st, active_seat(st)),
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
        v["me"] = {"seat": viewer, "to_act": viewer in to_act(st)}
        if st["phase"] == "build" and viewer == active_seat(st):
            # the whole devices the menu offers, in its order, for the DM's pictures
            v["plans"] = [
                [{"t": t, "x": int(x), "y": int(y), "r": int(r)} for t, x, y, r in (q.split(":") for q in p.split("/"))]
                for p in whole_plans(st, viewer)
            ]
    return v
