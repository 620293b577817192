"""DRS (seed 002, section 11), a table option: crossing the DRS line and ending 1 MP behind the
car ahead gives up to 2 more MP on the next turn; not in the rain; off by default."""

import json

from bot.games.pole import ENGINE as E
from bot.games.pole import engine as eng
from bot.games.pole import race as RACE
from bot.games.pole import driving as DRIVE
from bot.games.rng import Rng
from tests.pole.helpers import Dice, drs_go, drs_race, red_turn, said


def test_example_red_takes_drs_behind_green_then_adds_2_mp(monkeypatch):
    Dice(monkeypatch, [6])
    st = red_turn(drs_race())
    st, ev = drs_go(st, 4, 2)  # 88, 89, 90, line, 2, 4: past the DRS line, 1 MP behind green on 6
    assert st["cars"][0]["drs"] is True and E.view(st, None)["cars"][0]["drs"] is True
    assert any(e.text.key == "{p} takes DRS for the next turn." for e in said(ev))
    # red's next turn: the tyre roll plus up to 2 MP, then the token is gone
    st2 = json.loads(json.dumps(st))
    st2["cars"][1]["pos"] = ["t", 40, 0]
    st2["turn"], st2["queue"] = None, []
    plain = json.loads(json.dumps(st2))
    plain["cars"][0]["drs"] = False
    Dice(monkeypatch, [7, 7])
    rng = Rng(st2["rng"])
    RACE.begin_turn(st2, rng, [], 0)
    RACE.begin_turn(plain, Rng(plain["rng"]), [], 0)
    assert st2["turn"]["n"] == 7 + 2 and st2["cars"][0]["drs"] is False
    assert plain["turn"]["n"] == 7

    def furthest(s):
        return max(o["prog"] for o in s["turn"]["opts"] if o["ep"] + o["bp"] + o["sp"] == 0)

    assert furthest(st2) > furthest(plain)


def test_no_drs_without_the_option_in_the_rain_or_far_behind(monkeypatch):
    Dice(monkeypatch, [6])
    st = red_turn(drs_race(drs=False))
    st, _ = drs_go(st, 4, 2)
    assert not st["cars"][0].get("drs")
    c = eng.circuits()["great_britain"]
    if "light" in c.weather_a:
        Dice(monkeypatch, [6])
        st = red_turn(drs_race(), weather="light")
        opts = [o for o in st["turn"]["opts"] if o["pos"] == ["t", 4, 0] and o["laps"] == 2]
        if opts:
            st, _ = drs_go(st, 4, 2)
            assert not st["cars"][0].get("drs")
    Dice(monkeypatch, [6])
    st = red_turn(drs_race())
    st, _ = drs_go(st, 2, 2)  # two moves behind green: no DRS
    assert not st["cars"][0].get("drs")


def test_saved_games_without_drs_keep_their_options():
    assert "drs" not in E.validate_options({}, 3)
    assert E.validate_options({"drs": True}, 3)["drs"] is True


def test_no_drs_for_a_car_off_the_track(monkeypatch):
    """コースアウトした車からDRSを作動させることはできません"""
    Dice(monkeypatch, [6])
    st = red_turn(drs_race())
    st["cars"][0].update(pos=["t", 4, 0], laps=2)  # past the DRS line, 1 MP behind green (row 6)
    for off, drs in ((1, False), (0, True)):  # off the track: no token; the same cell on it: the token
        s2 = json.loads(json.dumps(st))
        s2["cars"][0]["off"] = off
        DRIVE.drs_check(s2, [], 0)
        assert bool(s2["cars"][0].get("drs")) is drs


def test_ep_and_bp_in_the_same_turn_as_drs(monkeypatch):
    """► プレイヤーは、DRSの追加ポイントを消費するのと同じターンにエンジンポイントまたはブレーキポイントを使用できます。"""
    Dice(monkeypatch, [6])
    st = red_turn(drs_race())
    st, _ = drs_go(st, 4, 2)
    assert st["cars"][0]["drs"]
    st["cars"][1]["pos"] = ["t", 40, 0]
    st["turn"], st["queue"] = None, []
    plain = json.loads(json.dumps(st))
    plain["cars"][0]["drs"] = False
    Dice(monkeypatch, [7, 7])
    RACE.begin_turn(st, Rng(st["rng"]), [], 0)
    RACE.begin_turn(plain, Rng(plain["rng"]), [], 0)
    assert st["turn"]["drs"] == 2

    def furthest_with_points(s):
        return max(o["prog"] for o in s["turn"]["opts"] if o["ep"] or o["bp"])

    assert furthest_with_points(st) > furthest_with_points(plain)  # DRS MP and EP/BP add up
