"""Safety car (seed 002, 10.2), a table option that comes with collisions: a collision that breaks
down both cars (or a human's breakdown against a bot and a black 1-3, or two bots' "!" + "!")
interrupts the turn; four weather rolls; every car lines up behind the SC line, those that stay
out first, then those that pit, then the cars that caused it; the lap counter rules."""

import json

import pytest

from bot.games.base import replay
from bot.games.pole import ENGINE as E
from bot.games.pole import bots as BOTS
from bot.games.pole import engine as eng
from bot.games.pole import race as RACE
from bot.games.rng import Rng
from tests.pole.helpers import Dice, play_race, race_with_collisions, said, turn

GB = eng.circuits()["great_britain"]


def test_options_safety_car_turns_collisions_on():
    o = E.validate_options({"safety_car": True}, 2)
    assert o["safety_car"] is True and o["collisions"] is True and "yellow_flag" not in o
    assert "safety_car" not in E.validate_options({"collisions": True}, 2)


def _four(st):
    """blue leads on row 60, green on 40, yellow on 30 (centre), purple attacks from 28 (left)."""
    blue, green, yellow, purple = 0, 1, 2, 3
    for s, row, lane in ((blue, 60, 1), (green, 40, 1), (yellow, 30, 1), (purple, 28, 0)):
        st["cars"][s].update(pos=["t", row, lane], laps=0, line=[])
    st["order"] = [blue, green, yellow, purple]
    for s in range(4):
        st["prefs"][s] = {"attack": 3, "defend": 3, "yield": False, "ask": False}
    st["cars"][yellow]["sp"] = st["cars"][purple]["sp"] = 0
    return blue, green, yellow, purple


def test_example_purple_and_yellow_break_down_and_blue_pits(monkeypatch):
    """10.2's example: purple (6, heavy) and yellow (4, light) both break down: the SC comes out.
    Everyone but them lines up in order; blue pits and goes to the back of those; yellow and purple
    follow, in their order before the collision."""
    st = race_with_collisions(n=4, safety_car=True)
    blue, green, yellow, purple = _four(st)
    Dice(monkeypatch, [9])
    st = turn(st, purple)
    f = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "fight" and o["def"] == [yellow])
    Dice(monkeypatch, [3, 3, 4, 6, "sun", "sun", "sun", "sun"])
    st, ev = E.apply(st, purple, {"type": "move", "i": f})
    assert st["cars"][yellow]["bd"] == [["light", False]] and st["cars"][purple]["bd"] == [["heavy", False]]
    assert any(e.text.key == "Safety car! The race is neutralised." for e in said(ev))
    assert not st.get("flag")
    # decisions in position-track order: blue first
    assert E.to_act(st) == [blue] and st["turn"] is None
    acts = [a for a in E.legal_actions(st, blue) if a["type"] != "prefs"]
    assert {"type": "sc", "tyre": None} in acts and {"type": "sc", "tyre": "soft"} in acts
    assert E.view(st, None)["sc"]["order"] == [blue, green, yellow, purple]
    st["cars"][blue]["bd"] = [["light", False]]
    sp = st["cars"][blue]["sp"] = 4
    st, _ = E.apply(st, blue, {"type": "sc", "tyre": "soft"})
    assert E.to_act(st) == [green]
    st, _ = E.apply(st, green, {"type": "sc", "tyre": None})
    st, _ = E.apply(st, yellow, {"type": "sc", "tyre": None})
    st, ev = E.apply(st, purple, {"type": "sc", "tyre": None})
    assert st["order"] == [green, blue, yellow, purple]
    sc = GB.sc_row
    assert [st["cars"][s]["pos"] for s in st["order"]] == [["t", sc - 1 - i, 1] for i in range(4)]
    assert all(st["cars"][s]["laps"] == 0 for s in range(4))  # the leader was before the SC line
    b = st["cars"][blue]
    assert b["tyre"] == "soft" and b["pitted"] and b["bd"] == [["light", True]] and b["sp"] == sp + 3
    assert st["cars"][yellow]["bd"] == [["light", False]]  # it did not pit
    # the interrupted round is over: a new one starts from the new leader
    assert st["turn"]["seat"] == green and st["turn"].get("sc_turn")


def _sc_now(st, lead_row, lead_laps):
    st = json.loads(json.dumps(st))
    for i, s in enumerate(st["order"]):
        st["cars"][s].update(pos=["t", lead_row - 2 * i, 1], laps=lead_laps, line=[], life=4)
    st["turn"], st["queue"] = None, []
    st["sc_due"] = {"causers": []}
    rng = Rng(st["rng"])
    ev = []
    RACE.next_turn(st, rng, ev)
    st["rng"] = rng.state
    return st, ev


def test_leader_past_the_sc_line_moves_the_lap_counter(monkeypatch):
    st = race_with_collisions(n=3, safety_car=True)
    Dice(monkeypatch, ["sun"] * 4)
    st, _ = _sc_now(st, GB.sc_row + 1, 1)  # the leader between the SC line and the finish line
    assert E.to_act(st) == [st["order"][0]]
    for s in list(st["sc"]["order"]):
        st, _ = E.apply(st, s, {"type": "sc", "tyre": None})
    for s in range(3):
        car = st["cars"][s]
        assert car["laps"] == 2 and car["pos"][1] < GB.sc_row
    # the cars on the leader's side of the line crossed it: worn tyres (hard: 1 a lap in the dry)
    lives = sorted(st["cars"][s]["life"] for s in range(3))
    assert lives[0] == 3 and lives[-1] == 3


def test_leader_before_the_sc_line_keeps_the_lap_counter(monkeypatch):
    st = race_with_collisions(n=3, safety_car=True)
    Dice(monkeypatch, ["sun"] * 4)
    st, _ = _sc_now(st, 60, 1)
    for s in list(st["sc"]["order"]):
        st, _ = E.apply(st, s, {"type": "sc", "tyre": None})
    assert all(st["cars"][s]["laps"] == 1 and st["cars"][s]["life"] == 4 for s in range(3))


def test_past_the_race_laps_the_race_ends_in_the_current_order(monkeypatch):
    st = race_with_collisions(n=3, safety_car=True)
    order = list(st["order"])
    Dice(monkeypatch, ["sun"] * 4)
    st, ev = _sc_now(st, GB.sc_row + 1, GB.laps - 1)
    assert E.is_over(st) and st["finish"] == order
    assert [st["cars"][s]["finished"] for s in order] == [1, 2, 3]


def test_reaching_the_last_lap_only_the_sc_line_to_the_flag_is_left(monkeypatch):
    st = race_with_collisions(n=3, safety_car=True)
    Dice(monkeypatch, ["sun"] * 4)
    st, _ = _sc_now(st, GB.sc_row + 1, GB.laps - 2)
    first = st["sc"]["order"][0]
    st["cars"][first]["pitted"] = True
    for s in list(st["sc"]["order"]):
        st, _ = E.apply(st, s, {"type": "sc", "tyre": None})
    assert st["cars"][first]["laps"] == GB.laps - 1 and st["cars"][first]["out"] is None
    # cars that never stopped and stay out start the last lap without a stop: out (3.3)
    assert all(st["cars"][s]["out"] == "no_stop" for s in range(3) if s != first)


def test_four_weather_rolls(monkeypatch):
    st = race_with_collisions(n=2, safety_car=True)
    w0 = dict(st["weather"])
    Dice(monkeypatch, ["cloud", "sun", "cloud", "!"])
    st, ev = _sc_now(st, 60, 1)
    assert any(
        e.text.key == "Safety car weather rolls: {faces}; weather {w}."
        and e.text.params["faces"] == "cloud, sun, cloud, !"
        for e in said(ev)
    )
    assert st["weather"] != w0 or GB.weather_b == 0


def test_no_drs_gained_on_the_first_turn_after_the_sc(monkeypatch):
    st = race_with_collisions(n=2, safety_car=True, drs=True)
    Dice(monkeypatch, ["sun"] * 4)
    st, _ = _sc_now(st, 60, 1)
    for s in list(st["sc"]["order"]):
        st, _ = E.apply(st, s, {"type": "sc", "tyre": None})
    assert all(st["cars"][s]["drs"] is False for s in range(2))
    assert st["turn"]["sc_turn"]
    assert not any(st["cars"][s].get("sc_turn") for s in range(2) if s == st["turn"]["seat"])


def test_bot_against_bot_double_bang_brings_the_sc_and_both_go_back(monkeypatch):
    st = race_with_collisions(n=1, bots=3, safety_car=True)
    bots = [s for s in range(st["seats"]) if st["cars"][s].get("bot")]
    human = 0
    a, d, x = bots
    st["cars"][human].update(pos=["t", 70, 1], laps=0)
    st["cars"][d].update(pos=["t", 30, 1], laps=0)
    st["cars"][a].update(pos=["t", 28, 1], laps=0, tyre="hard", life=4)
    st["cars"][x].update(pos=["t", 20, 1], laps=0)
    st["order"] = [human, d, a, x]
    st["round"], st["queue"], st["turn"] = 10, [], None
    st["weather"]["a"] = next(i for i, w in enumerate(GB.weather_a) if w == "dry")
    Dice(monkeypatch, ["!", "!", "sun", "sun", "sun", "sun"])
    rng = Rng(st["rng"])
    ev = []
    st["queue"] = [x]
    RACE.begin_turn(st, rng, ev, a)
    if st["turn"] is None:
        RACE.next_turn(st, rng, ev)
    assert any(e.text.key == "Safety car! The race is neutralised." for e in said(ev))
    assert E.to_act(st) == [human]
    st["rng"] = rng.state
    st, _ = E.apply(st, human, {"type": "sc", "tyre": None})
    assert st["order"][:2] == [human, x] and set(st["order"][2:]) == {a, d}


@pytest.mark.parametrize("roll,sc", [(3, True), (4, False)])
def test_human_breaking_down_against_a_bot_rolls_for_the_sc(monkeypatch, roll, sc):
    st = race_with_collisions(n=2, bots=1, safety_car=True)
    bot = next(s for s in range(st["seats"]) if st["cars"][s].get("bot"))
    human = next(s for s in range(st["seats"]) if s != bot and not st["cars"][s].get("bot"))
    for s in range(st["seats"]):
        if s not in (bot, human):
            st["cars"][s].update(pos=["t", 75 + s, 1])
    st["order"] = [bot, human] + [s for s in range(st["seats"]) if s not in (bot, human)]
    st["cars"][bot]["pos"] = ["t", 30, 1]
    st["cars"][human]["pos"] = ["t", 28, 0]
    st["cars"][human]["sp"] = 0
    ov = BOTS.card(bot, st["cars"][bot]["bot"]["side"])["overtake"]
    Dice(monkeypatch, [9])
    st = turn(st, human)
    f = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "fight" and o["def"] == [bot])
    Dice(monkeypatch, [ov, 5, roll] + (["sun"] * 4 if sc else []))
    st, ev = E.apply(st, human, {"type": "move", "i": f})
    assert st["cars"][human]["bd"] == [["light", False]]
    assert any(e.text.key == "Safety car! The race is neutralised." for e in said(ev)) is sc


@pytest.mark.parametrize("n,bots,seed", [(6, 0, 5), (2, 3, 2), (4, 0, 24), (3, 2, 23)])
def test_random_races_with_every_option(n, bots, seed):
    st, actions, options, keys = play_race(n, bots, seed, {"safety_car": True, "yellow_flag": True, "drs": True})
    assert E.is_over(st)
    assert all(c["finished"] is not None or c["out"] is not None for c in st["cars"])
    if (n, seed) in ((6, 5), (2, 2)):  # seeds re-picked when the rules change the dice
        assert keys["Safety car! The race is neutralised."]
    again = replay(E, options, n, seed, actions)
    assert again == json.loads(json.dumps(st))


def test_the_board_shows_the_safety_car(monkeypatch):
    from rendering import pole

    st = race_with_collisions(n=2, safety_car=True)
    Dice(monkeypatch, ["sun"] * 4)
    st, _ = _sc_now(st, 60, 1)
    v = E.view(st, None)
    assert v["sc"]["order"] == st["sc"]["order"]
    for loc in ("en", "ja"):
        assert pole.render_board(v, ["A", "B"], loc)[8:12] == b"WEBP"
        assert pole.render_hand(E.view(st, 0), ["A", "B"], loc)[:4] == b"\x89PNG"
