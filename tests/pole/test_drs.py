"""DRS (seed 002, section 11), a table option: crossing the DRS line and ending 1 MP behind the
car ahead gives up to 2 more MP on the next turn; not in the rain; off by default."""
import json

from bot.games.pole import ENGINE as E
from bot.games.pole import engine as eng
from bot.games.pole import race as RACE
from bot.games.pole import driving as DRIVE
from bot.games.rng import Rng
from tests.pole.helpers import Dice, race, said


def _race(drs=True, n=2):
    return race(n, drs=drs)


def _red_turn(st, weather="dry"):
    """Red (seat 0) on lap 2 three rows before the line, green (seat 1) just past the DRS line."""
    st = json.loads(json.dumps(st))
    c = eng.circuits()["great_britain"]
    assert c.drs_row == 1 and c.rows[1].brown  # rows 1, 3, 5 are lap-1 only: the next rows are 0, 2, 4, 6
    st["round"], st["queue"], st["turn"] = 10, [], None
    st["weather"]["a"] = next(i for i, w in enumerate(c.weather_a) if w == weather)
    st["cars"][0].update({"pos": ["t", 88, 0], "laps": 1, "line": [], "life": 4})
    st["cars"][1].update({"pos": ["t", 6, 0], "laps": 2, "line": [], "life": 4})
    st["order"] = [1, 0]
    rng = Rng(st["rng"])
    RACE.begin_turn(st, rng, [], 0)
    st["rng"] = rng.state
    return st


def _go(st, row, laps):
    i = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "end" and o["pos"] == ["t", row, 0]
             and o["laps"] == laps)
    return E.apply(st, 0, {"type": "move", "i": i})


def test_example_red_takes_drs_behind_green_then_adds_2_mp(monkeypatch):
    Dice(monkeypatch, [6])
    st = _red_turn(_race())
    st, ev = _go(st, 4, 2)  # 88, 89, 90, line, 2, 4: past the DRS line, 1 MP behind green on 6
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
    st = _red_turn(_race(drs=False))
    st, _ = _go(st, 4, 2)
    assert not st["cars"][0].get("drs")
    c = eng.circuits()["great_britain"]
    if "light" in c.weather_a:
        Dice(monkeypatch, [6])
        st = _red_turn(_race(), weather="light")
        opts = [o for o in st["turn"]["opts"] if o["pos"] == ["t", 4, 0] and o["laps"] == 2]
        if opts:
            st, _ = _go(st, 4, 2)
            assert not st["cars"][0].get("drs")
    Dice(monkeypatch, [6])
    st = _red_turn(_race())
    st, _ = _go(st, 2, 2)  # two moves behind green: no DRS
    assert not st["cars"][0].get("drs")


def test_saved_games_without_drs_keep_their_options():
    assert "drs" not in E.validate_options({}, 3)
    assert E.validate_options({"drs": True}, 3)["drs"] is True


def test_no_drs_for_a_car_off_the_track(monkeypatch):
    """コースアウトした車からDRSを作動させることはできません"""
    Dice(monkeypatch, [6])
    st = _red_turn(_race())
    st["cars"][0].update(pos=["t", 4, 0], laps=2)  # past the DRS line, 1 MP behind green (row 6)
    for off, drs in ((1, False), (0, True)):  # off the track: no token; the same cell on it: the token
        s2 = json.loads(json.dumps(st))
        s2["cars"][0]["off"] = off
        DRIVE.drs_check(s2, [], 0)
        assert bool(s2["cars"][0].get("drs")) is drs


def test_ep_and_bp_in_the_same_turn_as_drs(monkeypatch):
    """► プレイヤーは、DRSの追加ポイントを消費するのと同じターンにエンジンポイントまたはブレーキポイントを使用できます。"""
    Dice(monkeypatch, [6])
    st = _red_turn(_race())
    st, _ = _go(st, 4, 2)
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
