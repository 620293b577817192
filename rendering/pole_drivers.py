"""Pole Position: the driver and team (14, appendices 1 and 2) on the player's dashboard: names,
what each ability does, and the Tyre Whisperer's tokens."""

from __future__ import annotations

from bot.games.pole import drivers as D
from rendering.common import MUTED, TEXT, fit, font, tx

LINE_H = 44


def _ability(kind: str, key: str) -> str:
    texts = {
        ("driver", "defender"): lambda: tx("+2 on the die when defending"),
        ("driver", "attacker"): lambda: tx("+2 on the die when attacking"),
        ("driver", "technician"): lambda: tx("technical corners count as green"),
        ("driver", "pit_sp"): lambda: tx("2 more SP at each pit stop"),
        ("driver", "tyre_whisperer"): lambda: tx("wear tokens +1 MP on worn tyres, blow-out tokens"),
        ("driver", "starter"): lambda: tx("+1: qualifying first rolls, start, first roll after the SC"),
        ("driver", "corner_master"): lambda: tx("2 MP per SP in non-technical corners"),
        ("driver", "rain_safe"): lambda: tx("course-out thresholds +1 (hard, soft)"),
        ("driver", "rain_engine"): lambda: tx("in rain: 3 MP per EP, +1 attacking"),
        ("driver", "rain_brake"): lambda: tx("in rain: 3 MP per BP, +1 defending"),
        ("driver", "fighter"): lambda: tx("+1 in every position fight"),
        ("driver", "drs"): lambda: tx("DRS range +1 and +1 MP"),
        ("team", "inter_light"): lambda: tx("free reroll: intermediates in light rain"),
        ("team", "hard_dry"): lambda: tx("free reroll: hard tyres in the dry"),
        ("team", "soft_dry"): lambda: tx("free reroll: soft tyres in the dry"),
        ("team", "tough"): lambda: tx("collision rolls -2, +2 breakdown points, no blow-outs"),
        ("team", "pit_crew"): lambda: tx("passes the cars pitting with it, +3 MP at the exit"),
        ("team", "sturdy"): lambda: tx("+1 BP, collision rolls -1, no breakdown events"),
        ("team", "winners"): lambda: tx("+2 MP for a won fight, +1 MP at the pit exit"),
        ("team", "repair"): lambda: tx("1 EP or BP back at each stop, +3 MP at the exit"),
        ("team", "engine3"): lambda: tx("+3 EP at the start"),
        ("team", "engine2"): lambda: tx("+2 EP and +1 BP at the start"),
        ("team", "brake2"): lambda: tx("+1 EP and +2 BP at the start"),
        ("team", "brake3"): lambda: tx("+3 BP at the start"),
    }
    f = texts.get((kind, key))
    return f() if f else ""


BOARD_LINE_H = 34  # the public board's third line of a car's row: its driver and team


def names(car: dict) -> str:
    """ "The Wall / Aqua Racing": a car's driver and team for the public board ('' without them)."""
    data = D.data()
    dr = next((x for x in data["drivers"] if x["id"] == car.get("driver")), None)
    tm = next((x for x in data["teams"] if x["id"] == car.get("team")), None)
    return " / ".join(tx(x["name"]) for x in (dr, tm) if x)


def extra_height(car: dict) -> int:
    return (4 * LINE_H + 16) if car.get("driver") or car.get("team") else 0


def draw(d, car: dict, y: int, width: int) -> None:
    data = D.data()
    rows = []
    if car.get("driver"):
        dr = next((x for x in data["drivers"] if x["id"] == car["driver"]), None)
        if dr:
            ability = _ability("driver", dr["id"])
            if "wear_tok" in car:  # the tokens left say it all
                ability = tx("{w} wear (+1 MP), {b} blow-out tokens", w=car["wear_tok"], b=car.get("blow_tok", 0))
            rows.append((tx("Driver"), tx(dr["name"]), ability))
    if car.get("team"):
        tm = next((x for x in data["teams"] if x["id"] == car["team"]), None)
        if tm:
            rows.append((tx("Team"), tx(tm["name"]), _ability("team", tm["id"])))
    for label, name, ability in rows:  # "Driver  name", then what it does on its own line
        d.text((28, y), label, font=font(26), fill=MUTED, anchor="lm")
        x = int(28 + font(26).getlength(label) + 14)
        d.text((x, y), fit(name, 28, width - x - 20), font=font(28), fill=TEXT, anchor="lm")
        d.text((48, y + LINE_H - 4), fit(ability, 26, width - 68), font=font(26), fill=TEXT, anchor="lm")
        y += 2 * LINE_H
