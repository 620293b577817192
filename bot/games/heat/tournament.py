"""Heat tournament mode (a table option, seed 000 「トーナメントモード」): step 1 (shift gears) is
skipped; in step 3 every car first shows how many cards it played (not which), then shifts to that
gear, paying 1 Heat for a 2-gear shift (and a flooded space's Heat) at that moment.

Rule reading: the cards played still set the new gear (gear N plays N cards), so a submission is
the same as in a normal race; what changes is that no gear is shown before step 3, the card counts
are shown when the round starts to resolve, and each car's shift Heat is paid in its own step 3,
in race order."""

from __future__ import annotations

import bot.games.heat.rules as rules
from bot.i18n import Msg, msg


def card_counts(st: dict, order: list[int]) -> tuple[None, Msg]:
    """The public event: how many cards each car played this round."""
    parts = [
        msg("{who} {n}", who=rules.car_name(st, s), n=len(st["cars"][s]["played"]))
        for s in order
        if "legend" not in st["cars"][s]
    ]
    return None, msg("Cards played: {list}.", list=parts)


def tournament_shift(st: dict, car: dict, rd: dict) -> None:
    """This car's gear shift in its step 3 (Heat for 2 gears or a flooded downshift)."""
    old, new = rd.pop("shift")
    need = rules.shift_heat(st, car, new)
    if need:
        paid = rules.pay_heat(car, need)
        rd["heat"] += paid
        if abs(new - old) == 2 and need == 1:
            rd["lines"].append(rules.round_line("Shifted 2 gears ({a} → {b}): 1 Heat", a=old, b=new))
        else:
            rd["lines"].append(
                rules.round_line("Shifted down on a flooded space ({a} → {b}): {n} Heat", a=old, b=new, n=need)
            )
    car["gear"] = new
