"""Menus over 12 seeded races with the optional rules mixed in (issue #30): every label in a menu is
unique, in English and in Japanese, so the entries can be told apart; no two different moves hide
behind one button label; the first "Where to?" entry is the suggested default and says why."""

import copy
import random

import pytest

import bot.games.pole.driving as D
from bot.games.pole import ENGINE as E
from bot.games.pole.content import circuits
from bot.i18n import render
from tests.pole.helpers import policy

CIRCUITS = ["great_britain", "monaco", "brazil", "china", "spain", "usa", "italy", "germany"]
EXTRA = [
    {},
    {"drs": True},
    {"collisions": True, "safety_car": True},
    {"stress": True},
    {"bots": 2},
    {"yellow_flag": True, "drs": True},
]
GAMES = [(dict({"circuit": CIRCUITS[g % 8]}, **EXTRA[g % 6]), 2 + g % 4, 200 + g) for g in range(12)]


def _check_menu(st, seat, stats):
    for grp in E.menu(st, seat):
        for loc in ("en", "ja"):
            labels = [render(o["label"], loc) for o in grp["options"]]
            assert len(labels) == len(set(labels)), (loc, labels)
        if grp.get("action", {}).get("type") != "move":
            continue
        stats["menus"] += 1
        opts = st["turn"]["opts"]
        first = opts[int(grp["options"][0]["value"])]
        ends = [o for o in opts if o["kind"] in ("end", "finish")]
        if ends:  # never a position fight first while a plain move is on offer
            assert first["kind"] in ("end", "finish", "pit")
            assert grp["options"][0].get("description"), "the first entry says why it is first"
        free = [o for o in ends if o["ep"] + o["bp"] + o["sp"] == 0 and not o.get("risk")]
        car, laps = st["cars"][seat], circuits()[st["circuit"]].laps
        due = not car["pitted"] and car["laps"] >= laps - 2 and any(o["kind"] == "pit" for o in opts)
        if due:
            assert first["kind"] == "pit"
        elif free:
            assert first["ep"] + first["bp"] + first["sp"] == 0 and not first.get("risk")
            assert first["prog"] == max(o["prog"] for o in free)
            stats["free_first"] += 1
    # a button label stands for one action only (the menu keeps one button per label)
    acts = [a for a in E.legal_actions(st, seat) if a["type"] not in ("move", "prefs", "defend", "attack")]
    labels = [render(E.describe_action(st, seat, a), "en") for a in acts]
    assert len(labels) == len(set(labels)), labels


@pytest.mark.parametrize("options,n,seed", GAMES)
def test_menu_labels_unique_and_a_sensible_first_move(options, n, seed):
    rnd = random.Random(seed)
    st = E.new_game(options, n, seed)
    stats = {"menus": 0, "free_first": 0}
    for _ in range(6000):
        if E.is_over(st):
            break
        seat = rnd.choice(E.to_act(st))
        _check_menu(st, seat, stats)
        st, _ = E.apply(st, seat, policy(st, seat, rnd))
    assert E.is_over(st) and stats["menus"] > 20 and stats["free_first"] > stats["menus"] // 2


def _ways_to_pay(opts) -> set[tuple[int, int, int]]:
    return {(o["sp"], o["ep"], o["bp"]) for o in opts if o["kind"] == "end" and o["ep"] + o["bp"] + o["sp"]}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_way_to_pay_one_point_is_on_the_menu(seed, monkeypatch):
    """Rules_version 4: a move paying a single EP, BP or SP (4.4-4.5) that the search finds is never
    cut from the 25-entry menu for the furthest boost-and-brake moves (before: in 54 of 142 turns
    that had one, over 8 seeded races)."""
    rnd = random.Random(seed)
    st = E.new_game({"circuit": "monaco"}, 4, seed)
    checked = 0
    for _ in range(20000):
        if E.is_over(st):
            break
        seat = E.to_act(st)[0]
        t = st.get("turn") or {}
        if st["phase"] == "race" and t.get("opts") and t.get("seat") == seat and t.get("ms") is None:
            whole = copy.deepcopy(st)
            with monkeypatch.context() as m:  # the menu with no cut: every place the search reaches
                m.setattr(D, "MENU_MAX", 10_000)
                m.setattr(D, "FREE_KEPT", 10_000)
                D.plan(whole)
            one = {w for w in _ways_to_pay(whole["turn"]["opts"]) if sum(w) == 1}
            checked += bool(one)
            assert one <= _ways_to_pay(t["opts"]), (seed, st["round"], one, _ways_to_pay(t["opts"]))
        moves = [a for a in E.legal_actions(st, seat) if a["type"] == "move"]
        st, _ = E.apply(st, seat, rnd.choice(moves) if moves and rnd.random() < 0.5 else E.auto_action(st, seat))
    assert checked >= 10
