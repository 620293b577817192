"""Small circuits and scripted dice for the seed's worked examples."""
from __future__ import annotations


from bot.games.pole import content
from bot.games.pole import rules as R


def circuit(corner_rows=11, technical=False, line=None, arrow_lane=0, angle=90, lanes=(0, 1, 2)):
    """A test lap: straight 20 rows, a right-hand corner, straight 20, a left corner, straight 15."""
    n = corner_rows
    line = line or [[1, 1], [4, 2], [7, 2], [10, 0]]
    segs = [
        {"kind": "straight", "rows": 20, "lanes": list(lanes)},
        {"kind": "corner", "rows": n, "lanes": list(lanes), "angles": [angle / n] * n, "technical": technical,
         "arrow_lane": arrow_lane, "line": line},
        {"kind": "straight", "rows": 20, "lanes": list(lanes)},
        {"kind": "corner", "rows": 5, "lanes": list(lanes), "angles": [-270 / 5] * 5, "technical": False,
         "arrow_lane": 2, "line": [[1, 1], [4, 2]]},
        {"kind": "straight", "rows": 15, "lanes": list(lanes)},
    ]
    raw = {"name": "Test", "laps": 3, "direction": "clockwise", "segments": segs, "brown_rows": [],
           "grid": [[5, 0], [4, 2], [3, 0], [2, 2], [1, 0], [0, 2]],
           "pit": {"side": 2, "entry_row": 60 + n - 5, "entry_cells": 3, "entry_rain_cells": 1, "exit_cells": 2,
                   "exit_rain_cells": 1, "merge_row": 6},
           "drs_row": 1, "sc_row": 50, "low_grip": [[25, 0], [25, 1], [25, 2]],
           "weather_a": ["DDDDDD"] * 6, "weather_b": 6}
    return content.circuit_from("test", raw)


def ctx(c, others=(), rain=False, start_round=False, ep=7, bp=7, sp=9, ahead=()):
    return R.MoveCtx(c, rain, start_round, c.laps - 1, tuple(others), frozenset(ahead), ep, bp, sp,
                     c.corners[0].first, c.laps)


def ms(row, lane, laps=0, line=()):
    return R.MState(("t", row, lane), laps, 0, 0, 0, 0, 0, tuple(line), -1)


def ends(options):
    """{(row, lane): cheapest (ep, bp, sp)} of the options that end the move on the track."""
    out = {}
    for o in options:
        if o.kind == "end" and o.state.pos[0] == "t":
            key = (o.state.pos[1], o.state.pos[2])
            bc = 3
            cost = (R.extra_cost(o.state.b, bc), R.extra_cost(o.state.k, bc), o.state.s)
            if key not in out or sum(cost) < sum(out[key]):
                out[key] = cost
    return out


def patch_dice(monkeypatch, die) -> None:
    """Every die the engine rolls comes from `die(rng, name)`: each module of the engine that rolls
    (they all roll with bot.games.pole.common.roll) gets it."""
    import sys

    from bot.games.pole import common
    for name, module in list(sys.modules.items()):
        if name.startswith("bot.games.pole.") and module is not common and hasattr(module, "roll"):
            monkeypatch.setattr(module, "roll", die)


class Dice:
    """Scripted dice for common.roll: a list of faces, taken in order (after them: random)."""

    def __init__(self, monkeypatch, faces):
        from bot.games.pole import common
        self.faces = list(faces)
        orig = common.roll

        def die(rng, name):
            if self.faces:
                return self.faces.pop(0)
            return orig(rng, name)
        patch_dice(monkeypatch, die)


def said(ev):
    """Every message the events hold, a turn's one line opened up into its parts (the roll, the
    fights, the pit stop... each as it was logged), as events with the same audience."""
    from bot.games.base import Event
    from bot.i18n import Msg

    out = []

    def walk(m, to):
        if isinstance(m, Msg):
            out.append(Event(m, to))
            for v in m.params.values():
                walk(v, to)
        elif isinstance(m, (list, tuple)):
            for v in m:
                walk(v, to)

    for e in ev:
        walk(e.text, e.to)
    return out
