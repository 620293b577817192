"""Turns, rounds and ages in Steam Works: a turn's end, the round's end (mechanics home, the
automaton's clock, the age check, the belts, the start marker) and the final scores."""

from __future__ import annotations

from typing import Any

from bot.games.base import Event, State
from bot.games.steamworks.common import TILES, active_seat, age_name, log_line, mechanics_now, refill_belt, seat_ref
from bot.i18n import msg


def end_turn(st: State, ev: list[Event]) -> None:
    """The active seat's turn is over; after the last mechanic of the round, the round ends."""
    seat = active_seat(st)
    st["used"][seat] += 1
    st["turn"] += 1
    st["turn_no"] += 1
    if st["turn"] >= st["seats"] * mechanics_now(st):
        end_round(st, ev)


def end_round(st: State, ev: list[Event]) -> None:
    """The round's end: mechanics home, the automaton's clock, the age check, the belts, the start marker."""
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
            finish(st, ev)
            return
        st["age"] += 1
        a = str(st["age"])
        if a not in st["unlocked"]:
            st["unlocked"].append(a)
        log_line(st, ev, msg("{age} begins: everyone gains a mechanic.", age=age_name(a)))
    # III: belts: the rightmost tile of each belt goes under its stack, the rest slide right,
    # then each unlocked stack refills its belt.
    for b in st["unlocked"]:
        belt = st["belts"][b]
        if belt[-1] is not None:
            st["stacks"][b].append(belt[-1])
            belt[-1] = None
    for b in list(st["unlocked"]):
        full = refill_belt(st, b)
        if not full and b == a:
            # Rule reading: the current stack ran short, so its clocks leave the game and the
            # next age unlocks (its belt fills at once); the age itself changes at the next
            # round's age check. If that was Age III's stack, the game ends now.
            st["clocks"][a] = 0
            if st["age"] == 3:
                finish(st, ev)
                return
            nxt = str(st["age"] + 1)
            if nxt not in st["unlocked"]:
                st["unlocked"].append(nxt)
                refill_belt(st, nxt)
            log_line(
                st,
                ev,
                msg(
                    "The {age} stack ran short: its clocks are gone and {next} is unlocked.",
                    age=age_name(a),
                    next=age_name(nxt),
                ),
            )
    # IV: the start marker moves left (after any Alarm Chronometer moves: it still advances
    # at round end), and its seat starts the new round.
    st["start"] = st["marker"] = (st["marker"] + 1) % n
    st["round"] += 1
    st["turn"] = 0
    log_line(st, ev, msg("Round {n} begins; {p} starts.", n=st["round"], p=seat_ref(st["start"])))


def scores(st: State) -> list[dict[str, Any]]:
    """Each seat's points, clocks, prestige, total and tie-break."""
    out = []
    for s, pl in enumerate(st["players"]):
        prestige = sum(TILES[pt["t"]].prestige for d in st["devices"] if d["owner"] == s for pt in d["tiles"])
        left_sources = sum(pl["sources"].values()) + sum(1 for t in pl["tiles"] if TILES[t].is_source)
        left_comps = sum(1 for t in pl["tiles"] if not TILES[t].is_source)
        out.append(
            {
                "seat": s,
                "vp": pl["vp"],
                "clocks": pl["clocks"],
                "prestige": prestige,
                "total": pl["vp"] + pl["clocks"] + prestige,
                "tiebreak": pl["money"] + left_sources + left_comps,
            }
        )
    return out


def finish(st: State, ev: list[Event]) -> None:
    """The game ends: scores and winners."""
    st["phase"] = "over"
    st["act"] = None
    st["build"] = None
    sc = scores(st)
    # Rule reading: the seed gives one tie-break (money + source tiles + component tiles left);
    # players still tied after it share the win.
    best = max((r["total"], r["tiebreak"]) for r in sc)
    winners = [r["seat"] for r in sc if (r["total"], r["tiebreak"]) == best]
    st["final"] = {"scores": sc, "winners": winners}
    log_line(st, ev, msg("The game ends. Winner: {p}.", p=[seat_ref(w) for w in winners]))
