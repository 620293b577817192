"""Pole Position bots (seed 002, section 17): the card's decisions, the seed's examples, bots
driven by the engine inside apply(), fights with humans and between bots, solo races."""

import dataclasses
import json

import pytest

from bot.games.base import GameError
from bot.games.pole import ENGINE as E
from bot.games.pole import bots as B
from bot.games.pole import engine as eng
from bot.games.pole import rules as R
from bot.games.pole.content import bot_cards
from bot.games.pole import race as RACE
from bot.games.pole import fights as FIGHTS
from bot.games.rng import Rng
from tests.pole.helpers import bot_race, circuit, Dice, patch_dice, place

CHINA_STRAIGHT = range(50, 63)  # china: a straight from row 50 to the double arrow (63, lane 0)


def _bot_turn(st, seat):
    rng = Rng(st["rng"])
    ev = []
    paused = RACE.bot_turn(st, rng, ev, seat)
    st["rng"] = rng.state
    return paused, ev


# ------------------------------------------------------------------ the card and its decisions


def test_cards_are_validated_and_designed_numbers_marked():
    b = bot_cards()
    assert len(b["cards"]) == 6 and "designed" in b
    assert [c["colour"] for c in b["cards"]] == list(B.COLOURS)


def test_speed_example_17_5_2():
    # the green bot on hard tyres: base 10 + track 0 = 10; with the cube on 2: 11 dry, 10 in the rain
    green = B.COLOURS.index("green")
    for side in ("A", "B"):
        assert B.mp(green, side, 0, "hard", "dry", 4) == 10
        assert B.mp(green, side, 2, "hard", "dry", 4) == 11
        assert B.mp(green, side, 2, "hard", "light", 4) == 10
    # at lifespan -1 / -2 the MP drop by 1 / 2
    assert B.mp(green, "A", 0, "hard", "dry", -1) == 9
    assert B.mp(green, "A", 0, "hard", "dry", -2) == 8


def test_progression_cube_wraps_6_to_1_17_4():
    assert [B.advance_prog(p) for p in range(7)] == [1, 2, 3, 4, 5, 6, 1]


def test_wear_17_7():
    assert B.wear(4, "hard", "dry") == 3  # the example: a 4 token becomes 3 at the line
    assert B.wear(3, "wet", "dry") == 3  # wets never wear
    assert B.wear(1, "soft", "dry") == -1  # 17.9.2: 「「1」の後は「-1」に寿命トークンを配置し」


def test_rain_table_17_11():
    light = {t: [r for r in range(1, 7) if B.stays_on(r, t, "light")] for t in ("hard", "soft", "inter", "wet")}
    heavy = {t: [r for r in range(1, 7) if B.stays_on(r, t, "heavy")] for t in ("hard", "soft", "inter", "wet")}
    assert light == {"hard": [6], "soft": [5, 6], "inter": [1, 2, 3, 4, 5, 6], "wet": [1, 2, 3, 4, 5, 6]}
    assert heavy == {"hard": [], "soft": [6], "inter": [4, 5, 6], "wet": [1, 2, 3, 4, 5, 6]}
    assert B.rain_cells("light") == 8 and B.rain_cells("heavy") == 7


def _weather_circuit(cells: str, b_size=6):
    c = circuit()
    return dataclasses.replace(
        c, weather_a=tuple({"D": "dry", "L": "light", "H": "heavy"}[x] for x in cells), weather_b=b_size
    )


def test_steps_example_17_2():
    # light rain now, the next two cells light then dry: 9 steps with token B on space 4 of 6
    c = _weather_circuit("LLD" + "D" * 33)
    assert B.weather_steps({"a": 0, "b": 4}, c) == (9, "dry")
    assert B.weather_steps({"a": 1, "b": 6}, c) == (1, "dry")
    assert B.weather_steps({"a": 5, "b": 1}, _weather_circuit("D" * 36)) == (99, "dry")


def test_first_tyre_17_8():
    rolls = iter([1, 3, 2, 5, 3, 4])
    roll = lambda: next(rolls)  # noqa: E731
    assert B.first_tyre(1, 4, "dry", "light", roll) == "hard"  # A, P1, roll 1
    assert B.first_tyre(2, 9, "dry", "light", roll) == "soft"  # A, P2, roll 3
    assert B.first_tyre(3, 4, "dry", "light", roll) == "soft"  # A, P3, roll 2
    assert B.first_tyre(6, 4, "dry", "light", roll) == "hard"  # A, P6, roll 5
    assert B.first_tyre(1, 4, "light", "dry", lambda: pytest.fail("no roll")) == "inter"  # B
    assert B.first_tyre(1, 5, "heavy", "dry", lambda: pytest.fail("no roll")) == "wet"  # B
    assert B.first_tyre(1, 2, "heavy", "dry", roll) == "wet"  # C, roll 3
    assert B.first_tyre(1, 2, "light", "dry", roll) == "soft"  # C, roll 4
    assert B.first_tyre(1, 3, "dry", "light", lambda: pytest.fail("no roll")) == "inter"  # D
    assert B.first_tyre(1, 1, "dry", "heavy", lambda: pytest.fail("no roll")) == "wet"  # D


def test_when_to_pit_17_9_1():
    never = lambda: pytest.fail("no roll")  # noqa: E731
    # the seed's example: hard tyres, future light rain, 2 steps away: D, the bot pits
    assert B.wants_pit(3, "hard", "dry", 2, "light", never) is True
    assert B.wants_pit(-1, "hard", "dry", 20, "light", never) is True  # B
    assert B.wants_pit(3, "hard", "light", 4, "dry", never) is True  # C
    assert B.wants_pit(3, "inter", "light", 4, "dry", never) is False
    assert B.wants_pit(1, "hard", "dry", 9, "light", lambda: 2) is True  # A, 1-2
    assert B.wants_pit(1, "hard", "dry", 9, "light", lambda: 3) is False
    assert B.wants_pit(3, "hard", "dry", 3, "light", lambda: 1) is True  # E, 1-2
    assert B.wants_pit(3, "hard", "dry", 3, "light", lambda: 4) is False
    assert B.wants_pit(3, "soft", "light", 3, "dry", never) is False  # right tyres for the future


def test_new_tyres_17_9_2():
    assert B.new_tyre(4, "dry", "light", True) == "soft"  # A
    assert B.new_tyre(4, "dry", "light", False) == "hard"
    assert B.new_tyre(6, "light", "dry", True) == "inter"  # B
    assert B.new_tyre(6, "heavy", "dry", True) == "wet"
    assert B.new_tyre(2, "light", "dry", False) == "hard"  # C
    assert B.new_tyre(2, "light", "dry", True) == "soft"
    assert B.new_tyre(3, "dry", "heavy", True) == "wet"  # D
    assert B.new_tyre(1, "dry", "light", True) == "inter"


def test_bot_always_has_the_racing_line_even_in_technical_corners():
    c = circuit(technical=True)
    ctx = dataclasses.replace(
        R.MoveCtx(c, False, False, c.laps - 1, (), frozenset(), 0, 0, 0, c.corners[0].first, c.laps), bot=True
    )
    co = c.corners[0]
    st = R.MState(("t", co.first + 2, 0), 0, 1, 0, 0, 0, 0, (), -1)  # in the corner, off the line
    assert R.line_after(ctx, st, ("t", co.first + 2, 0), False) == (0, True)
    human = dataclasses.replace(ctx, bot=False)
    assert R.line_after(human, st, ("t", co.first + 2, 0), False) == (0, False)


# ------------------------------------------------------------------ table and qualifying


def test_options_and_seats():
    assert E.validate_options({}, 3) == {"circuit": "great_britain"}  # saved tables: as before
    assert E.validate_options({"bots": 2}, 3)["bots"] == 2
    with pytest.raises(GameError):
        E.validate_options({"bots": 9}, 2)
    with pytest.raises(GameError):
        E.validate_options({"bots": 1, "bot_side": "C"}, 2)
    st = E.new_game({"bots": 5}, 3, 1)  # 3 humans + as many bots as fit: 3
    assert st["seats"] == 6 and [bool(c.get("bot")) for c in st["cars"]] == [False] * 3 + [True] * 3
    solo = E.new_game({}, 1, 1)  # a lone player always gets a rival
    assert solo["seats"] == 2 and solo["cars"][1]["bot"]["side"] == "A"
    plain = E.new_game({}, 2, 1)
    assert all("bot" not in c for c in plain["cars"])


def test_quali_example_17_3_1(monkeypatch):
    # six cars: one human (red) and five B bots; the blue bot's value is 1, it rolls 1, then 3 and 6
    Dice(monkeypatch, [1, 1, 1, 4, 1, 5, 5, 5, 5, 3, 6, 1, 2, 3, 4, 5])
    st = E.new_game({"bots": 5, "bot_side": "B"}, 1, 1)
    assert st["quali"]["first"] == {"0": 4, "1": 1, "2": 5, "3": 5, "4": 5, "5": 5}
    assert E.to_act(st) == [0]
    st, ev = E.apply(st, 0, {"type": "quali", "reroll": False})
    texts = [e.text for e in ev]
    assert any(
        t.key == "{p} rolls the purple die twice: {a} and {b}." and t.params["a"] == "3" and t.params["b"] == "6"
        for t in texts
    )
    # the human's 4 is the lowest: out in Q1 and last on the grid (pays nothing; bots have no SP);
    # Q2 and Q3 are bots only and run by themselves
    assert st["phase"] == "tyres" and st["grid"][-1] == 0 and st["cars"][0]["sp"] == 9
    q1 = next(t for t in texts if t.key.startswith("{session}: {p} is out"))
    assert q1.params["p"] == "<seat:0>"


def test_bot_wins_a_tie_with_a_human_17_3_1(monkeypatch):
    # two cars: only Q3; both first rolls 6; the tie rolls 6 (human) and 1 (bot): the bot still leads
    Dice(monkeypatch, [1, 1, 1, 6, 6, 6, 1])
    st = E.new_game({"bots": 1}, 1, 1)
    st, _ = E.apply(st, 0, {"type": "quali", "reroll": False})
    assert st["grid"] == [1, 0]


def test_bots_never_act_and_choose_tyres_after_the_humans():
    st = E.new_game({"bots": 3}, 2, 4)
    while st["phase"] == "quali":
        assert all(s < 2 for s in E.to_act(st))
        for s in E.to_act(st):
            st, _ = E.apply(st, s, {"type": "quali", "reroll": False})
    assert E.to_act(st) == [0, 1]
    assert E.legal_actions(st, 3) == []
    with pytest.raises(GameError):
        E.apply(st, 3, {"type": "tyre", "tyre": "soft"})
    st, _ = E.apply(st, 0, {"type": "tyre", "tyre": "hard"})
    assert all(E.view(st, 0)["cars"][s]["tyre"] is None for s in range(5))  # still secret
    st, ev = E.apply(st, 1, {"type": "tyre", "tyre": "soft"})
    assert st["phase"] == "race" and all(st["cars"][s]["tyre"] for s in range(5))
    assert all(st["cars"][s]["life"] == B.life_of(st["cars"][s]["tyre"]) for s in (2, 3, 4))
    assert E.view(st, None)["cars"][3]["bot"]["colour"] == "green"


# ------------------------------------------------------------------ driving


def test_bot_moves_its_card_mp_and_lines_up_for_the_corner(monkeypatch):
    st = bot_race(1, 1)
    c = eng.circuits()["china"]
    assert all(c.rows[r].lanes == (0, 1, 2) for r in CHINA_STRAIGHT)
    st = place(st, {0: (20 + 5, 0), 1: (50, 2)})
    st["cars"][1]["tyre"], st["cars"][1]["life"] = "hard", 4
    st["cars"][1]["bot"]["prog"] = 0
    n = B.mp(1, "A", 0, "hard", "dry", 4)
    paused, ev = _bot_turn(st, 1)
    assert not paused and st["turn"] is None
    car = st["cars"][1]
    # n MP: two sideways to the double-arrow lane (0) first, then straight on (17.5.2.1)
    assert car["pos"] == ["t", 50 + n - 2, 0]


def test_cloud_moves_every_bot_cube(monkeypatch):
    st = bot_race(1, 2)
    st = json.loads(json.dumps(st))
    st["round"] = 5
    Dice(monkeypatch, ["cloud"])
    rng = Rng(st["rng"])
    RACE.setup_round(st, rng, [])
    assert [c.get("bot", {}).get("prog") for c in st["cars"]] == [None, 1, 1]


def test_bot_attacks_a_human_with_its_overtaking_value(monkeypatch):
    st = bot_race(1, 1, "monaco")
    ov = B.card(1, "A")["overtake"]
    # on a two-lane straight, the bot right behind the human: it tries to pass (17.6.1)
    base = place(st, {0: (34, 0), 1: (33, 0)})
    base["cars"][1]["tyre"], base["cars"][1]["life"] = "hard", 4
    base["prefs"][0].update({"defend": 0, "yield": False, "ask": False})
    st = json.loads(json.dumps(base))
    Dice(monkeypatch, [ov - 1])
    _bot_turn(st, 1)
    assert st["order"].index(1) < st["order"].index(0)  # overtaken
    # a roll equal to the value holds the position: the defender wins ties
    st = json.loads(json.dumps(base))
    Dice(monkeypatch, [ov])
    _, ev = _bot_turn(st, 1)
    assert st["order"].index(0) < st["order"].index(1)
    assert st["cars"][1]["pos"][1] <= 34
    # a human with SP spends just enough to hold (the bot never bids beyond its value)
    st = json.loads(json.dumps(base))
    st["prefs"][0]["defend"] = 5
    Dice(monkeypatch, [ov - 2])
    _bot_turn(st, 1)
    assert st["cars"][0]["sp"] == base["cars"][0]["sp"] - 2
    assert st["order"].index(0) < st["order"].index(1)


def test_human_defender_who_asks_is_asked_and_the_bot_drives_on(monkeypatch):
    st = bot_race(1, 1, "monaco")
    st = place(st, {0: (34, 0), 1: (33, 0)})
    st["cars"][1]["tyre"], st["cars"][1]["life"] = "hard", 4
    st["prefs"][0].update({"ask": True})
    st["queue"] = []
    paused, _ = _bot_turn(st, 1)
    assert paused and E.to_act(st) == [0]
    st, _ = E.apply(st, 0, {"type": "yield"})
    assert st["order"].index(1) < st["order"].index(0)
    assert st["cars"][1]["pos"][1] > 35  # it went on with its MP
    assert st["turn"] is None or st["turn"]["seat"] == 0
    assert 1 not in E.to_act(st)


def test_human_attacker_must_beat_the_bot_value(monkeypatch):
    st = bot_race(1, 1)
    ov = B.card(1, "A")["overtake"]
    for roll, sp_max, wins in ((ov, 0, False), (ov + 1, 0, True), (ov - 1, 2, True), (ov - 1, 1, False)):
        s2 = place(st, {0: (33, 0), 1: (34, 0)})
        s2["prefs"][0].update({"attack": sp_max})
        s2["turn"] = {
            "seat": 0,
            "fought": [],
            "won": [],
            "stage": "move",
            "fight": {
                "opt": {"def": [1], "unused": 0, "ms": {"s": 0}, "step": {"s": 0}},
                "i": 0,
                "rolls": None,
                "answer": None,
                "fights": False,
            },
        }
        Dice(monkeypatch, [roll])
        res = FIGHTS.fight(s2, Rng(1), [])
        assert (res == "won") is wins, (roll, sp_max)
        if wins:
            assert s2["cars"][0]["sp"] == st["cars"][0]["sp"] - max(0, ov + 1 - roll)


def test_bot_against_bot_two_purple_dice_17_6_2(monkeypatch):
    st = bot_race(1, 2, "monaco")
    base = place(st, {0: (20, 1), 1: (33, 0), 2: (34, 0)})
    for s in (1, 2):
        base["cars"][s]["tyre"], base["cars"][s]["life"] = "hard", 4
    st = json.loads(json.dumps(base))
    Dice(monkeypatch, ["!", "!"])
    _bot_turn(st, 1)
    assert st["order"].index(2) < st["order"].index(1)  # "!" + "!": no pass
    st = json.loads(json.dumps(base))
    Dice(monkeypatch, ["!", 3])
    _bot_turn(st, 1)
    assert st["order"].index(1) < st["order"].index(2)  # otherwise it passes without bids


def test_bot_goes_off_in_the_rain_17_11(monkeypatch):
    st = bot_race(1, 1)
    c = eng.circuits()["china"]
    if "light" not in c.weather_a:
        pytest.skip("no light rain on this circuit's grid")
    st = place(st, {0: (20, 1), 1: (50, 0)}, weather="light")
    st["cars"][1]["tyre"], st["cars"][1]["life"] = "hard", 4
    Dice(monkeypatch, [5])  # hard in light rain keeps the track only on a 6
    _bot_turn(st, 1)
    assert st["cars"][1]["off"] == 1 and st["cars"][1]["pos"] == ["t", 54, 0]
    st = place(st, {0: (20, 1), 1: (50, 0)}, weather="light")
    st["cars"][1].update({"tyre": "soft", "life": 2, "off": 0})
    Dice(monkeypatch, [5])
    _bot_turn(st, 1)
    assert st["cars"][1]["off"] == 0 and st["cars"][1]["pos"][1] == 58  # 8 cells in light rain


def test_bot_pits_on_worn_tyres_and_fits_new_ones(monkeypatch):
    st = bot_race(1, 1)
    c = eng.circuits()["china"]
    st = place(st, {0: (20, 1), 1: (c.pit_entry_row - 3, c.pit_side)})
    st["cars"][1].update({"tyre": "hard", "life": -1})
    for _ in range(4):
        if st["cars"][1]["pitted"]:
            break
        _bot_turn(st, 1)
    car = st["cars"][1]
    assert car["pitted"] and car["life"] == B.life_of(car["tyre"]) and car["pit_turn"] == 1
    assert car["bot"]["pit"] is False


# ------------------------------------------------------------------ whole races


def _play(humans, bots, circuit_, seed, side="A", drs=True):
    import random

    rnd = random.Random(seed)
    st = E.new_game({"circuit": circuit_, "bots": bots, "bot_side": side, "drs": drs}, humans, seed)
    actions = []
    for _ in range(3000):
        if E.is_over(st):
            break
        ta = E.to_act(st)
        assert ta and all(not st["cars"][s].get("bot") for s in ta)
        seat = rnd.choice(ta)
        acts = [a for a in E.legal_actions(st, seat) if a["type"] != "prefs"]
        a = rnd.choice(acts)
        if st["phase"] == "race" and st["turn"]["stage"] == "move":
            opts = st["turn"]["opts"] or []
            car = st["cars"][seat]
            pit = [i for i, o in enumerate(opts) if o["kind"] == "pit"]
            if pit and not car["pitted"]:
                a = {"type": "move", "i": pit[0]}
            elif opts and rnd.random() < 0.9:
                a = {"type": "move", "i": 0}
        before = json.dumps(st, sort_keys=True)
        st, _ = E.apply(st, seat, a)
        actions.append((seat, a))
        assert json.loads(before) is not None
        for viewer in [None] + list(range(humans)):
            v = E.view(st, viewer)
            json.dumps(v)
            if st["phase"] == "tyres":
                assert all(c["tyre"] is None for c in v["cars"])
            if viewer is not None:
                assert v["me"]["seat"] == viewer
    assert E.is_over(st), (circuit_, humans, bots, seed)
    return st, actions


@pytest.mark.parametrize(
    "humans,bots,circuit_,side",
    [
        (1, 5, "great_britain", "A"),
        (1, 1, "monaco", "B"),
        (2, 4, "brazil", "A"),
        (3, 3, "china", "B"),
        (4, 2, "spain", "A"),
        (5, 1, "usa", "B"),
        (6, 3, "italy", "A"),
        (1, 3, "germany", "A"),
    ],
)
def test_seeded_races_with_bots_and_drs_end_and_replay(humans, bots, circuit_, side):
    from bot.games.base import replay

    st, actions = _play(humans, bots, circuit_, 11, side)
    assert st["seats"] == min(6, humans + bots)
    done = [s for s, c in enumerate(st["cars"]) if c["finished"] or c["out"]]
    assert len(done) == st["seats"]
    assert sorted(st["order"]) == list(range(st["seats"]))
    again = replay(E, {"circuit": circuit_, "bots": bots, "bot_side": side, "drs": True}, humans, 11, actions)
    assert json.dumps(again, sort_keys=True) == json.dumps(st, sort_keys=True)


def test_bot_names_in_texts_and_images():
    from bot.i18n import render
    from rendering.pole import render_board, render_hand, render_results

    st, _ = _play(1, 2, "monaco", 3)
    text = render(E.view(st, None)["log"][-1]["key"] and eng.car_name(st, 1), "en")
    assert text == "Blue bot (A)"
    assert render(eng.car_name(st, 2), "ja") == "黄ボット（A）"
    for png in (
        render_board(E.view(st, None), ["Alice"], "en"),
        render_hand(E.view(st, 0), ["Alice"], "ja"),
        render_results(E.view(st, None), ["Alice"], "en"),
    ):
        assert png[:4] == b"\x89PNG" or png[8:12] == b"WEBP"  # the board is a WebP (issue #35)


# ------------------------------------------------------------------ the start rounds and the pit exit


def _record_dice(monkeypatch, faces):
    """Scripted dice that also note which die was rolled."""
    names, faces = [], list(faces)

    def die(rng, name):
        names.append(name)
        return faces.pop(0)

    patch_dice(monkeypatch, die)
    return names


def test_bots_roll_the_purple_die_in_the_start_rounds_17_5_1(monkeypatch):
    """すべてのボットが紫ダイスを振り、それに応じて車を動かします。"""
    st = bot_race(1, 1)
    st = place(st, {0: (20, 1), 1: (50, 0)}, round_=2)  # round 2 of the 3 start rounds
    st["cars"][1]["bot"]["prog"] = 0
    assert B.mp(1, "A", 0, "hard", "dry", 4) != 4  # the card would give another number
    names = _record_dice(monkeypatch, [4])
    paused, ev = _bot_turn(st, 1)
    assert not paused and names == ["purple"]
    assert st["cars"][1]["pos"] == ["t", 54, 0]  # the purple 4, straight on in the double-arrow lane


def test_bot_leaves_the_pits_with_the_purple_die_and_the_green_counter_17_10(monkeypatch):
    """ボットがピットを出るときは、標準ルールと同様です:紫ダイスを振って残りのMP(緑のトークン)を適用します。"""
    st = bot_race(1, 1)
    st = place(st, {0: (20, 1), 1: (30, 1)})
    car = st["cars"][1]
    car.update(pos=["g", 1], pit_turn=3, green=2, pitted=True, tyre="hard", life=4)
    runs = {}
    for face, green in ((2, 2), (5, 2), (2, 0)):
        s2 = json.loads(json.dumps(st))
        s2["cars"][1]["green"] = green
        names = _record_dice(monkeypatch, [face])
        paused, ev = _bot_turn(s2, 1)
        c2 = s2["cars"][1]
        assert not paused and names == ["purple"] and c2["pit_turn"] == 0 and c2["green"] == 0
        assert c2["pos"][0] != "g"
        runs[face, green] = R.prog(eng.circuits()["china"], c2["laps"], c2["pos"])
    assert runs[2, 0] < runs[2, 2] < runs[5, 2]  # the purple roll and the green counter set how far it goes
