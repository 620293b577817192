"""Position fights (seed 5) and collisions (10): each defender fought in turn, the yellow flag
(10.1). `fight` says how the fight stands ("won", "lost" or "ask": waiting on an answer); what
follows is the turn's (race.after_fight)."""

from __future__ import annotations

from typing import Any

import bot.games.pole.bots as BOTS
import bot.games.pole.drivers as DRIVERS
import bot.games.pole.rules as R
import bot.games.pole.specials as SPECIALS
import bot.games.pole.variants as VARIANTS
import bot.games.pole.driving as DRIVE
from bot.games.base import Event, State
from bot.games.pole.common import car_name, log, roll
from bot.games.pole.content import circuits, rules
from bot.games.rng import Rng
from bot.i18n import msg


def _collision_table() -> dict[int, str]:
    table = {int(k): v for k, v in rules()["collision"].items()}
    if sorted(table) != [1, 2, 3, 4, 5, 6] or not set(table.values()) <= {"none", "ep", "bp", "light", "heavy"}:
        raise ValueError("data/pole/rules.json: collision table")
    return table


COLLISION = _collision_table()


def fight(st: State, rng: Rng, ev: list[Event]) -> str:
    """Fight each defender in turn (rear first, 5.4 B): "won" when every fight is won,
    "lost" at the first lost one, "ask" when a defender who asked to decide live must answer:
    first whether to fight at all, before the dice (5.1), then, knowing the dice, the most
    they will bid."""
    t = st["turn"]
    f = t["fight"]
    opt = f["opt"]
    att = t["seat"]
    while f["i"] < len(opt["def"]):
        d = opt["def"][f["i"]]
        if "crash" in f:  # a collision waiting on a reroll choice: preferences changed since count for nothing
            if not crash_rerolls(st, rng, ev):
                return "ask"
            t["fought"].append(d)
            return "lost"
        out = _one_fight(st, rng, ev, att, d)
        if out is not None:
            return out
        _passed(st, d)
    return "won"


def _one_fight(st: State, rng: Rng, ev: list[Event], att: int, d: int) -> str | None:
    """The fight against one defender: None when the attacker gets past, else "lost" or "ask"."""
    f = st["turn"]["fight"]
    abot, dbot = st["cars"][att].get("bot"), st["cars"][d].get("bot")
    answer = f.get("answer")
    if answer is None and st["prefs"][d]["yield"] and not dbot:
        answer = "yield"
    if abot and dbot:
        return _bots_fight(st, rng, ev, att, d)
    if answer == "yield":  # case 3 of 5.2 / case 4 of 5.3: no fight
        log(st, ev, msg("{d} lets {a} through.", d=car_name(st, d), a=car_name(st, att)))
        return None
    return _dice_fight(st, rng, ev, att, d, answer)


def _bots_fight(st: State, rng: Rng, ev: list[Event], att: int, d: int) -> str | None:
    """17.6.2: two bots roll two purple dice; "!" + "!" stops the pass, else no bids."""
    t = st["turn"]
    f1, f2 = roll(rng, "purple"), roll(rng, "purple")
    log(
        st,
        ev,
        msg(
            "Position fight {a} vs {d}: purple dice {x} and {y}.",
            a=car_name(st, att),
            d=car_name(st, d),
            x=str(f1),
            y=str(f2),
        ),
    )
    if f1 == "!" and f2 == "!":
        # 17.6.2: no pass; with the safety-car option the SC comes out and the bots that
        # caused it go to the back (reading: both, as the standard rule's "the cars that
        # caused it"); without it the attacker just stops here.
        if st["options"].get("safety_car"):
            st["sc_due"] = {"causers": [att, d]}
        t["fought"].append(d)
        log(st, ev, msg("{d} holds the position.", d=car_name(st, d)))
        return "lost"
    log(st, ev, msg("{a} overtakes {d}.", a=car_name(st, att), d=car_name(st, d)))
    return None


def _dice_fight(st: State, rng: Rng, ev: list[Event], att: int, d: int, answer: Any) -> str | None:
    """5.1: the dice of a fight with a player in it, a collision on equal rolls (10), the live
    answers asked for, then the auction."""
    t = st["turn"]
    f = t["fight"]
    pa, pd = st["prefs"][att], st["prefs"][d]
    abot, dbot = st["cars"][att].get("bot"), st["cars"][d].get("bot")
    if answer is None and pd.get("ask") and not f.get("fights") and not dbot:
        t["stage"] = "defend"  # 5.1: the defender decides to fight or not before the dice
        return "ask"
    if f["rolls"] is None:
        _roll_fight(st, rng, ev, att, d)
    if st["options"].get("collisions") and f["rolls"][0] == f["rolls"][1]:
        # 10 / 5.1: equal raw rolls (a bot's value against a human's roll too, 17.6.1)
        if "crash" not in f:
            crash_start(st, rng, ev, att, d)
        if not crash_rerolls(st, rng, ev):
            return "ask"
        t["fought"].append(d)
        return "lost"
    a_answer = f.get("a_answer")
    if a_answer is None and pa.get("ask_attack") and not abot and DRIVE.attack_top(st) > 0:
        t["stage"] = "attack"  # the attacker bids live, knowing the dice (its own turn)
        return "ask"
    if answer is None and pd.get("ask") and not dbot:
        t["stage"] = "defend"
        return "ask"
    return _auction(st, ev, att, d, answer, a_answer)


def _roll_fight(st: State, rng: Rng, ev: list[Event], att: int, d: int) -> None:
    """The fight's two numbers: both black dice, attacker first (5.1), or a bot's overtaking value
    against the human's roll (17.6.1)."""
    f = st["turn"]["fight"]
    abot, dbot = st["cars"][att].get("bot"), st["cars"][d].get("bot")
    if abot or dbot:
        # 17.6.1: the bot's "roll" is its card's overtaking value; only the human rolls
        ov = BOTS.card(att if abot else d, (abot or dbot)["side"])["overtake"]
        r = roll(rng, "black")
        f["rolls"] = [ov, r] if abot else [r, ov]
        log(
            st,
            ev,
            msg(
                "Position fight {a} vs {d}: {b} has overtaking value {v}, {h} rolls {r}.",
                a=car_name(st, att),
                d=car_name(st, d),
                b=car_name(st, att if abot else d),
                v=ov,
                h=car_name(st, d if abot else att),
                r=r,
            ),
        )
        return
    ra, rd = roll(rng, "black"), roll(rng, "black")  # attacker first (5.1)
    f["rolls"] = [ra, rd]
    log(
        st,
        ev,
        msg(
            "Position fight {a} vs {d}: black dice {ra} and {rd}.", a=car_name(st, att), d=car_name(st, d), ra=ra, rd=rd
        ),
    )


def _auction(st: State, ev: list[Event], att: int, d: int, answer: Any, a_answer: Any) -> str | None:
    """5.1: both totals, then the bids (each side's standing or live maximum); only the winner pays.
    None when the attacker wins, "lost" otherwise."""
    t = st["turn"]
    f = t["fight"]
    opt = f["opt"]
    pa, pd = st["prefs"][att], st["prefs"][d]
    abot, dbot = st["cars"][att].get("bot"), st["cars"][d].get("bot")
    ra, rd = f["rolls"]
    mod = R.unused_mp_modifier(opt["unused"])
    a_tot = ra + mod - (1 if st["cars"][att]["blown"] else 0)  # a blown tyre: -1 (6.3)
    d_tot = rd - (1 if st["cars"][d]["blown"] else 0)
    a_bonus, d_bonus = SPECIALS.fight_bonus(st)  # appendix 4: Great Britain, Monaco
    a_tot, d_tot = a_tot + a_bonus, d_tot + d_bonus
    a_bonus, d_bonus = DRIVERS.fight_bonus(st, att, d, DRIVE.rain(st))  # appendix 1
    a_tot, d_tot = a_tot + a_bonus, d_tot + d_bonus
    d_max = pd["defend"] if answer is None else int(answer)
    keep = DRIVERS.sp_cost(st, att, opt["step"]["s"]) - DRIVERS.sp_cost(
        st, att, opt["ms"]["s"]
    )  # SP the passing step needs
    a_max = max(0, min(pa["attack"] if a_answer is None else int(a_answer), st["cars"][att]["sp"] - keep))
    d_max = max(0, min(d_max, st["cars"][d]["sp"]))
    if st["cars"][att].get("stress", 0) >= 3:  # 12.1 level 3: no SP in position fights
        a_max = 0
    if st["cars"][d].get("stress", 0) >= 3:
        d_max = 0
    if abot:  # 17.6.1: the bot's value as it stands, and it never bids beyond it
        a_tot, a_max = ra, 0
    if dbot:  # the human attacker must beat the value; the defender wins ties (5.1)
        d_tot, d_max = rd, 0
    res = R.settle_auction(a_tot, d_tot, a_max, d_max)
    log(
        st,
        ev,
        msg(
            "{a} {at} against {d} {dt}: {a} bids {ba}, {d} bids {bd}.",
            a=car_name(st, att),
            d=car_name(st, d),
            at=res.attacker_total,
            dt=res.defender_total,
            ba=res.attacker_pays,
            bd=res.defender_pays,
        ),
    )
    st["cars"][att]["sp"] -= res.attacker_pays  # only the winner pays (5.1)
    t["sp_paid"] = t.get("sp_paid", 0) + res.attacker_pays
    st["cars"][d]["sp"] -= res.defender_pays
    if not res.attacker_wins:
        t["fought"].append(d)
        log(st, ev, msg("{d} holds the position.", d=car_name(st, d)))
        return "lost"
    log(st, ev, msg("{a} overtakes {d}.", a=car_name(st, att), d=car_name(st, d)))
    # Victory Lane: 2 more MP for a won fight (reading: the attacker's, who moves on)
    t["n"] = t.get("n", 0) + DRIVERS.win_bonus(st, att)
    return None


def _passed(st: State, d: int) -> None:
    """The attacker is past defender `d`: the next defender's fight starts afresh."""
    t = st["turn"]
    f = t["fight"]
    t["fought"].append(d)
    t["won"].append(d)
    DRIVE.reorder_with_won(st)
    f["i"] += 1
    f["rolls"] = None
    f["answer"] = None
    f["a_answer"] = None
    f["fights"] = False
    t["stage"] = "move"


def crash_start(st: State, rng: Rng, ev: list[Event], att: int, d: int) -> None:
    """The pass does not happen; every car in it makes a collision roll in position-track order:
    the attacker, the defender and, in a multiple overtake (5.4), the car alongside the defender
    (10: all three roll even when only two fight). Bots make no collision roll (17.2)."""
    t = st["turn"]
    f = t["fight"]
    dcar = st["cars"][d]
    involved = {att, d}
    if dcar["pos"][0] == "t":
        for s, o in enumerate(st["cars"]):
            if (
                o["out"] is None
                and o["finished"] is None
                and o["pos"]
                and o["pos"][0] == "t"
                and o["pos"][1] == dcar["pos"][1]
                and o["laps"] == dcar["laps"]
            ):
                involved.add(s)
    cars = [s for s in st["order"] if s in involved]
    log(
        st,
        ev,
        msg(
            "Collision! {a} and {d} both roll {r}: no overtake.",
            a=car_name(st, att),
            d=car_name(st, d),
            r=f["rolls"][0],
        ),
    )
    rolls = {}
    for s in cars:
        st["cars"][s]["nodrs"] = True
        DRIVE.stress(st, ev, s)  # 12.2: a driver in a collision
        if not st["cars"][s].get("bot"):
            rolls[str(s)] = roll(rng, "black")
            log(st, ev, msg("{p} makes a collision roll: {r}.", p=car_name(st, s), r=rolls[str(s)]))
    f["crash"] = {"cars": [s for s in cars if str(s) in rolls], "rolls": rolls, "i": 0, "choice": {}}


def crash_reroll_offered(st: State, seat: int) -> bool:
    cr = st["turn"]["fight"]["crash"]
    return (
        st["cars"][seat]["sp"] >= 1
        and COLLISION[DRIVERS.collision_roll(st, seat, cr["rolls"][str(seat)])] != "none"
        and st["cars"][seat].get("stress", 0) < 5
    )  # 12.1 level 5: no SP at all


def crash_rerolls(st: State, rng: Rng, ev: list[Event]) -> bool:
    """Once all have rolled, each (in position-track order) may roll again for 1 SP and must keep
    the lower roll (10); then the damage. False while a player's choice is awaited."""
    t = st["turn"]
    cr = t["fight"]["crash"]
    while cr["i"] < len(cr["cars"]):
        s = cr["cars"][cr["i"]]
        if crash_reroll_offered(st, s):
            if str(s) not in cr["choice"]:
                t["stage"] = "crash"
                return False
            if cr["choice"][str(s)]:
                st["cars"][s]["sp"] -= 1
                r = roll(rng, "black")
                cr["rolls"][str(s)] = min(cr["rolls"][str(s)], r)
                log(
                    st,
                    ev,
                    msg(
                        "{p} spends 1 SP on a second collision roll: {r}; keeps {k}.",
                        p=car_name(st, s),
                        r=r,
                        k=cr["rolls"][str(s)],
                    ),
                )
        cr["i"] += 1
    t["stage"] = "move"
    damaged, broke = [], []
    for s in cr["cars"]:
        res = crash_damage(st, ev, s, cr["rolls"][str(s)])
        if res:
            damaged.append(s)
        if res in ("light", "heavy"):
            broke.append(s)
    t["fight"]["crash_done"] = damaged
    f = t["fight"]
    d = f["opt"]["def"][f["i"]]
    if st["options"].get("safety_car"):
        both = [t["seat"], d]
        if any(st["cars"][x].get("bot") for x in both):
            # 17.6.1: a human who breaks down against a bot rolls the black die: 1-3, SC
            if broke:
                r = roll(rng, "black")
                log(st, ev, msg("Safety car roll: {r}.", r=r))
                if r <= 3:
                    st["sc_due"] = {"causers": both}
        elif len(broke) >= 2:  # 10.2 (A): both cars break down
            st["sc_due"] = {"causers": [x for x in cr["cars"] if x in both or x in broke]}
        if st.get("sc_due"):
            return True  # no yellow flag under the safety car (10.1)
    if damaged and st["options"].get("yellow_flag"):
        yellow_flag(st, ev, t["fight"]["opt"]["def"][t["fight"]["i"]])
    return True


def yellow_flag(st: State, ev: list[Event], d: int) -> None:
    """10.1: a collision with damage puts a yellow flag at the start of its sector and a green
    one at its end: a corner from the row after its double arrow to its last shaded row, a
    straight from the row after the corner before it to the next double-arrow row; no
    overtaking between them this round and the next. Where the collision is: the defender's cell."""
    c = circuits()[st["circuit"]]
    pos = st["cars"][d]["pos"]
    if pos[0] != "t":
        return
    row = pos[1]
    co = c.corner_at(row)
    if co is not None:
        rows = list(range(co.first, co.last + 1))
    else:
        rows = [row]
        r = row
        while len(rows) < c.length and R.is_straight(c, (r - 1) % c.length):
            r = (r - 1) % c.length
            rows.insert(0, r)
        r = row
        while len(rows) < c.length and R.is_straight(c, (r + 1) % c.length):
            r = (r + 1) % c.length
            rows.append(r)
    st["flag"] = {"rows": rows, "until": st["round"] + 1}
    log(
        st,
        ev,
        msg(
            "Yellow flag: no overtaking from row {a} to row {b} this round and the next.", a=rows[0] + 1, b=rows[-1] + 1
        ),
    )


def crash_damage(st: State, ev: list[Event], seat: int, roll: int) -> str | None:
    """The collision table (10): what the car suffered ("ep", "bp", "light", "heavy"), or None."""
    car = st["cars"][seat]
    res = COLLISION[DRIVERS.collision_roll(st, seat, roll)]  # teams: lower collision rolls
    if res == "none":
        log(st, ev, msg("{p}: no damage.", p=car_name(st, seat)))
        return None
    if res in ("ep", "bp"):
        if car[res] <= 0 and VARIANTS.instead_of_retiring(st, ev, seat):
            pass  # 16.1: to the pits instead
        elif car[res] <= 0:  # a point the car does not have: out of the race (10)
            car["out"] = "crash"
            log(
                st,
                ev,
                msg(
                    "{p} has no {what} left to lose and retires.",
                    p=car_name(st, seat),
                    what=msg("EP") if res == "ep" else msg("BP"),
                ),
            )
        else:
            car[res] -= 1
            log(st, ev, msg("{p} loses 1 {what}.", p=car_name(st, seat), what=msg("EP") if res == "ep" else msg("BP")))
        return res
    VARIANTS.breakdown(st, ev, seat, res)
    return res
