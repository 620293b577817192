"""A roll that would send a car off the track, made in the pit entry lane, and the tyre wear told
in the turn's line at each new lap (issue #30)."""

import json

from bot.games.pole import ENGINE as E
from bot.games.pole import engine as eng
from bot.games.pole import race as RACE
from bot.games.pole import driving as DRIVE
from bot.games.rng import Rng
from bot.i18n import render
from tests.pole.helpers import Dice, drs_race


def _turn(monkeypatch, roll, pos, laps=1, tyre="soft", life=2, weather="light"):
    """Seat 0's turn from `pos` on lap `laps`, the weather set to `weather`, the die showing `roll`."""
    st = json.loads(json.dumps(drs_race(drs=False)))
    c = eng.circuits()[st["circuit"]]
    st["round"], st["queue"], st["turn"] = 10, [], None
    st["weather"] = {"a": c.weather_a.index(weather), "b": 1}
    st["cars"][0].update({"pos": pos, "laps": laps, "line": [], "tyre": tyre, "life": life})
    st["cars"][1].update({"pos": ["t", 30, 0], "laps": laps, "line": []})
    st["order"] = [0, 1]
    Dice(monkeypatch, [roll])
    ev = []
    RACE.begin_turn(st, Rng(st["rng"]), ev, 0)
    return st, c


def test_no_course_out_in_the_pit_entry_lane(monkeypatch):
    # 4.6: going off, the car 「ダイスロールで得られたMPの代わりに4セル前進し」 and the others pass it
    # 「彼の車がコースの外にあるかのように」; 7: 「ピット入口レーンでの追い越しは認められていません」.
    # Reading: a car in the pit entry lane has no track to leave: its roll counts (as a bot's
    # rain roll, 17.11, and the low-grip roll are made on the track only). It was sent "off" and
    # left where it was, told it had moved 4 cells.
    st, c = _turn(monkeypatch, 10, ["pin", 0])  # soft tyres in light rain: 9 and more go off on the track
    assert not DRIVE.course_out_due(st) and st["cars"][0]["off"] == 0
    assert not [a for a in E.legal_actions(st, 0) if a["type"] in ("off", "reduce")]
    pit = [i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "pit"]
    assert pit  # 10 MP take it past the zigzag line into its pit (7.1)
    st, ev = E.apply(st, 0, {"type": "move", "i": pit[0]})
    assert st["cars"][0]["pos"] == ["pit"] and st["cars"][0]["off"] == 0
    said = " ".join(render(e.text, "en") for e in ev if e.to is None)
    assert "goes off" not in said and "pits" in said
    # on the track the same roll still goes off (4.6)
    st, c = _turn(monkeypatch, 10, ["t", 40, 1])
    assert DRIVE.course_out_due(st)


def _crossing_line(monkeypatch, laps, tyre="hard", life=3):
    """Seat 0 three rows before the line on lap `laps`, in the dry, rolls 8 and drives as far as it may."""
    st = json.loads(json.dumps(drs_race(drs=False)))
    c = eng.circuits()[st["circuit"]]
    st["round"], st["queue"], st["turn"] = 10, [], None
    st["weather"] = {"a": c.weather_a.index("dry"), "b": 1}
    row = c.length - 3
    st["cars"][0].update(
        {"pos": ["t", row, c.rows[row].lanes[0]], "laps": laps, "line": [], "tyre": tyre, "life": life, "pitted": True}
    )
    st["cars"][1].update({"pos": ["t", 30, 0], "laps": laps, "line": []})
    st["order"] = [0, 1]
    Dice(monkeypatch, [8])
    RACE.begin_turn(st, Rng(st["rng"]), [], 0)
    opts = st["turn"]["opts"]
    i = max(range(len(opts)), key=lambda j: (opts[j]["kind"] in ("end", "finish"), opts[j]["prog"]))
    st, ev = E.apply(st, 0, {"type": "move", "i": i})
    return st, " ".join(render(e.text, "en") for e in ev if e.to is None)


def test_the_turn_line_tells_the_tyre_wear_at_a_new_lap(monkeypatch):
    # 6.2 「車がフィニッシュラインを通過する(またはピットストップする)たびに…使用中のタイヤの寿命を
    # 短くする」: the crossing's wear is part of what happened in the turn.
    st, said = _crossing_line(monkeypatch, laps=1, tyre="hard", life=3)
    assert st["cars"][0]["laps"] == 2 and st["cars"][0]["life"] == 2
    assert "New lap: hard tyres, life 2." in said, said
    # below 0 the line says what the wear costs: every roll counts 1 less (6.2)
    st, said = _crossing_line(monkeypatch, laps=1, tyre="soft", life=1)
    assert st["cars"][0]["life"] == -1
    assert "New lap: soft tyres, life -1: every roll counts 1 less." in said, said


def test_the_flag_is_no_new_lap(monkeypatch):
    c = eng.circuits()["great_britain"]
    st, said = _crossing_line(monkeypatch, laps=c.laps - 1)
    assert st["cars"][0]["finished"] == 1
    assert "chequered flag" in said and "New lap" not in said, said
