"""Five rule readings checked against the seed's own words (issue #30): every car moves, the tyre
life track has no 0, bots never wear wets, no DRS on the turn after a collision, and DRS looks at
the car ahead once the move's passes count."""

import json

from bot.games.pole import ENGINE as E
from bot.games.pole import bots as B
from bot.games.pole import engine as eng
from bot.games.pole import rules as R
from bot.games.pole import race as RACE
from bot.games.pole import driving as DRIVE
from bot.games.rng import Rng
from tests.pole.helpers import bot_race, Dice, drs_go, drs_race, place, red_turn


# ---- 1. every car moves (3.3)
def _wet_turn(monkeypatch, roll, life=3, row=30, lane=1):
    st = drs_race(drs=False)
    st = json.loads(json.dumps(st))
    st["round"], st["queue"], st["turn"] = 10, [], None
    st["cars"][0].update({"pos": ["t", row, lane], "laps": 1, "line": [], "tyre": "wet", "life": life})
    st["cars"][1].update({"pos": ["t", 60, 0], "laps": 1, "line": []})
    st["order"] = [1, 0]
    Dice(monkeypatch, [roll])
    RACE.begin_turn(st, Rng(st["rng"]), [], 0)
    return st


def test_every_car_moves_a_wet_3_counts_at_least_1(monkeypatch):
    # 3.3 「各ラウンドでは、すべての車を移動させる必要があります」 and 4 「プレイヤーは常に最大3セルまで
    # 少なくカウントすることを決定できます」: up to 3 fewer than the roll, but never none.
    st = _wet_turn(monkeypatch, 3)
    start = st["cars"][0]["pos"]
    opts = st["turn"]["opts"]
    assert opts and all(o["pos"] != start for o in opts)
    assert all(o["ms"]["t"] >= 1 for o in opts if o["kind"] == "end")
    assert {"type": "stay"} not in E.legal_actions(st, 0)
    # a bigger roll still allows 3 fewer: a 7 counts 4 to 7
    st = _wet_turn(monkeypatch, 7)
    counted = {
        o["ms"]["t"]
        for o in st["turn"]["opts"]
        if o["kind"] == "end" and o["ms"]["b"] == 0 and o["ms"]["k"] == 0 and o["ms"]["s"] == 0
    }
    assert min(counted) == 4


def test_no_move_at_all_only_when_the_tyres_leave_none(monkeypatch):
    # A wet 3 at life -2 leaves 1 MP; the car still moves one cell (it is never offered to stay).
    st = _wet_turn(monkeypatch, 3, life=-2)
    assert st["turn"]["n"] == 1 and st["turn"]["opts"]
    assert all(o["pos"] != ["t", 30, 1] for o in st["turn"]["opts"])


# ---- 2. the tyre life track: 1 -> -1 (17.9.2, 17.9.1 A)
def test_life_track_has_no_zero():
    # 17.9.2 「「1」の後は「-1」に寿命トークンを配置し、標準レースと同様の効果があることに注意してください」
    # 17.9.1 A 「「-1」の位置に到達しようとしている(言い換えれば、使用中のタイヤの寿命が「1」の位置にある)」
    life, seen = 2, []
    for _ in range(4):
        life = R.wear(life, "soft", "dry")
        seen.append(life)
    assert seen == [1, -1, -2, -2]
    # dry weather on intermediates wears 2 spaces a crossing (6.2): 3 -> 1 -> -2 (via -1)
    assert R.wear(3, "inter", "dry") == 1 and R.wear(1, "inter", "dry") == -2
    assert R.wear(2, "inter", "dry") == -1  # 2, 1, -1
    assert R.wear(3, "wet", "dry") == -1  # 3 spaces: 2, 1, -1


def test_a_race_never_shows_life_0():
    st, lives = E.new_game({"circuit": "great_britain", "bots": 2}, 2, 5), set()
    while not E.is_over(st):
        seat = E.to_act(st)[0]
        st, _ = E.apply(st, seat, E.auto_action(st, seat))
        if st["phase"] == "race":
            lives |= {car["life"] for car in st["cars"]}
            lives |= {x for car in st["cars"] for box in car["sets"].values() for x in box}
    assert 0 not in lives and -1 in lives


# ---- 3. bots and tyres (17.7, 17.9.2)
def test_bots_never_wear_wets_and_step_from_1_to_minus_1(monkeypatch):
    # 17.7 「ボットはウェットタイヤ(青)を摩耗させませんが」; 17.9.2 as above for the other tyres.
    st = bot_race(1, 1)
    st = place(st, {0: (20, 1), 1: (10, 0)})
    bot = st["cars"][1]
    bot.update({"tyre": "wet", "life": 3})
    DRIVE.crossings(st, 1, 1, 2)
    assert bot["life"] == 3
    bot.update({"tyre": "soft", "life": 1})
    DRIVE.crossings(st, 1, 1, 2)
    assert bot["life"] == -1
    # a human on wets wears them (6.2; dry weather: 3 spaces)
    human = st["cars"][0]
    human.update({"tyre": "wet", "life": 3})
    DRIVE.crossings(st, 0, 1, 2)
    assert human["life"] == -1
    assert B.wear(1, "hard", "dry") == -1


# ---- 4. DRS after a collision (11)
def test_no_drs_token_taken_on_the_turn_after_a_collision(monkeypatch):
    # 11 「衝突が発生した場合、損傷を受けていなかった場合でも、関係するすべての車両は、次のターン中に
    # DRSをアクティブにできません」; the section says activate for taking the token too
    # (「赤の車はDRSを有効にし、DRSトークンを取得して」): on that turn no token is taken either.
    st = drs_race()
    for collided, gets in ((True, False), (False, True)):
        s2 = json.loads(json.dumps(st))
        s2["cars"][0]["nodrs"] = collided  # what a collision leaves on every car in it (10)
        Dice(monkeypatch, [6])
        s2 = red_turn(s2)
        s2, _ = drs_go(s2, 4, 2)  # past the DRS line, 1 MP behind green
        assert bool(s2["cars"][0].get("drs")) is gets
        assert "nodrs" not in s2["cars"][0]  # one turn only


# ---- 5. DRS looks at the car ahead after the move's passes (11, 3.3)
def test_drs_after_passing_a_car_in_the_same_move(monkeypatch):
    # 11 「移動中に車がDRSラインを越え先行する車から1MP離れて移動を終了すると、DRSの恩恵を受けます」
    # and 3.3 「プレイヤーは、オーバーテイクが発生したときにポジショントラックを更新する必要があります」:
    # red passes blue (two lanes away, no fight) and ends 1 MP behind green: the car ahead is green.
    st = drs_race(n=3)
    st = json.loads(json.dumps(st))
    Dice(monkeypatch, [6])
    c = eng.circuits()["great_britain"]
    st["cars"][2].update({"pos": ["t", 90, 2], "laps": 1, "line": [], "life": 4})
    st["order"] = [1, 2, 0]
    st["round"], st["queue"], st["turn"] = 10, [], None
    st["weather"]["a"] = next(i for i, w in enumerate(c.weather_a) if w == "dry")
    st["cars"][0].update({"pos": ["t", 88, 0], "laps": 1, "line": [], "life": 4})
    st["cars"][1].update({"pos": ["t", 6, 0], "laps": 2, "line": [], "life": 4})
    rng = Rng(st["rng"])
    RACE.begin_turn(st, rng, [], 0)
    st["rng"] = rng.state
    st, ev = drs_go(st, 4, 2)
    assert st["order"][:2] == [1, 0]
    assert st["cars"][0]["drs"] is True
