"""Custom setup (seed 002, section 13), a table option: up to 2 points between EP and BP at the
start (a short step before qualifying), 1 point either way at every pit stop."""

from bot.games.pole import ENGINE as E
from bot.games.pole import engine as eng
from tests.pole.helpers import Dice, turn


def _new(n=2, **opts):
    return E.new_game({"circuit": "great_britain", "custom_setup": True, **opts}, n, 4)


def test_setup_step_before_qualifying():
    st = _new(n=2, bots=1)
    assert st["phase"] == "setup" and E.to_act(st) == [0, 1]
    acts = [a for a in E.legal_actions(st, 0) if a["type"] != "prefs"]
    assert acts == [{"type": "setup", "ep": d} for d in (0, 1, 2, -1, -2)]
    assert E.auto_action(st, 0) == {"type": "setup", "ep": 0}  # the default keeps 7 and 7
    st, _ = E.apply(st, 0, {"type": "setup", "ep": 1})
    assert (st["cars"][0]["ep"], st["cars"][0]["bp"]) == (8, 6) and st["phase"] == "setup"
    assert E.to_act(st) == [1] and [a for a in E.legal_actions(st, 0) if a["type"] != "prefs"] == []
    st, _ = E.apply(st, 1, {"type": "setup", "ep": 2})
    assert (st["cars"][1]["ep"], st["cars"][1]["bp"]) == (9, 5)  # "9 EP and 5 BP"
    assert st["phase"] == "quali" and st["cars"][2]["ep"] == 0  # the bot has no dashboard points
    assert E.view(st, None)["phase"] == "quali"


def test_without_the_option_no_setup_step():
    st = E.new_game({"circuit": "great_britain"}, 2, 4)
    assert st["phase"] == "quali" and "setup" not in st


def test_label_names_the_result():
    from bot.i18n import render

    st = _new()
    assert render(E.describe_action(st, 0, {"type": "setup", "ep": -2}), "en") == "5 EP and 9 BP"
    assert render(E.describe_action(st, 0, {"type": "setup", "ep": 0}), "en") == "Keep 7 EP and 7 BP"


def _at_pit(monkeypatch, ep, bp):
    st = _new(n=1)
    st, _ = E.apply(st, 0, {"type": "setup", "ep": 0})
    while st["phase"] == "quali":
        for s in E.to_act(st):
            st, _ = E.apply(st, s, {"type": "quali", "reroll": False})
    for s in E.to_act(st):
        st, _ = E.apply(st, s, {"type": "tyre", "tyre": "hard"})
    c = eng.circuits()["great_britain"]
    st["cars"][0].update(pos=["t", c.pit_entry_row - 2, c.pit_side], laps=1, line=[], ep=ep, bp=bp, life=2)
    for o in range(1, st["seats"]):
        st["cars"][o].update(pos=["t", 20, 0], laps=1)
    st["order"] = [0] + list(range(1, st["seats"]))
    Dice(monkeypatch, [9])
    st = turn(st, 0)
    i = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "pit")
    st, _ = E.apply(st, 0, {"type": "move", "i": i})
    assert st["turn"]["stage"] == "pit_tyre"
    return st


def test_example_pit_swap_1_bp_5_ep_becomes_2_bp_4_ep(monkeypatch):
    st = _at_pit(monkeypatch, ep=5, bp=1)
    acts = [a for a in E.legal_actions(st, 0) if a["type"] == "tyre"]
    assert {"type": "tyre", "tyre": "soft", "swap": -1} in acts and {"type": "tyre", "tyre": "soft"} in acts
    st, _ = E.apply(st, 0, {"type": "tyre", "tyre": "soft", "swap": -1})
    assert (st["cars"][0]["ep"], st["cars"][0]["bp"]) == (4, 2) and st["cars"][0]["tyre"] == "soft"


def test_pit_swap_needs_the_point(monkeypatch):
    st = _at_pit(monkeypatch, ep=3, bp=0)
    acts = [a for a in E.legal_actions(st, 0) if a["type"] == "tyre"]
    assert all(a.get("swap") != 1 for a in acts)  # no BP to give
    assert len(E.menu(st, 0)[0]["options"]) <= 15


def test_no_pit_swap_without_the_option(monkeypatch):
    import bot.games.pole.custom as C

    st = {"options": {}, "cars": [{"ep": 3, "bp": 3}]}
    assert C.pit_swaps(st, 0, ["soft"]) == []


def test_sc_stop_may_swap_too():
    import bot.games.pole.custom as C

    st = {"options": {"custom_setup": True}, "cars": [{"ep": 3, "bp": 3}]}
    assert C.pit_swaps(st, 0, ["soft"], "sc") == [
        {"type": "sc", "tyre": "soft", "swap": 1},
        {"type": "sc", "tyre": "soft", "swap": -1},
    ]
