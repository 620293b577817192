"""Circuit special rules (seed 002, appendix 4), a table option: every rule of the eight circuits."""

import json

import pytest

from bot.games.pole import ENGINE as E
from bot.games.pole import engine as eng
from bot.games.pole import rules as R
from bot.games.pole import race as RACE
from bot.games.pole import driving as DRIVE
from bot.games.rng import Rng
from tests.pole.helpers import attack, Dice, event_round, fight_setup, race, said


@pytest.mark.parametrize(
    "circuit,ep,bp",
    [
        ("great_britain", 7, 7),
        ("monaco", 7, 7),
        ("brazil", 7, 6),
        ("china", 8, 7),
        ("spain", 6, 8),
        ("usa", 6, 7),
        ("italy", 7, 7),
        ("germany", 7, 7),
    ],
)
def test_start_points(circuit, ep, bp):
    st = E.new_game({"circuit": circuit, "circuit_rules": True}, 2, 3)
    assert [(c["ep"], c["bp"]) for c in st["cars"]] == [(ep, bp)] * 2
    st = E.new_game({"circuit": circuit}, 2, 3)
    assert [(c["ep"], c["bp"]) for c in st["cars"]] == [(7, 7)] * 2  # without the option: as always


def test_china_everyone_starts_with_stress_1_bots_none():
    st = race(n=3, circuit="china", circuit_rules=True, stress=True, bots=1)
    assert [c.get("stress") for c in st["cars"]] == [1, 1, 1, None]
    st = race(n=3, circuit="china", stress=True)
    assert sorted(c["stress"] for c in st["cars"]) == [0, 0, 1]


def test_china_first_event_at_the_end_of_the_start(monkeypatch):
    st = race(n=1, circuit="china", circuit_rules=True, events=True)
    st = json.loads(json.dumps(st))
    st["round"], st["queue"], st["turn"] = 3, [], None
    st["events"]["deck"] = ["weather3"]
    Dice(monkeypatch, ["sun"])
    ev = []
    RACE.setup_round(st, Rng(st["rng"]), ev)
    assert st["round"] == 4 and st["events"]["discard"] == ["weather3"]


def test_spain_light_rain_beginning_reveals_an_event(monkeypatch):
    c = eng.circuits()["spain"]
    st = race(n=1, circuit="spain", circuit_rules=True, events=True)
    # a dry cell of grid A followed by light rain; token B on its last space: a cloud moves A on
    a = next(i for i in range(35) if c.weather_a[i] == "dry" and c.weather_a[i + 1] == "light")
    st = json.loads(json.dumps(st))
    st["round"], st["queue"], st["turn"] = 10, [], None
    st["weather"] = {"a": a, "b": c.weather_b}
    st["events"]["deck"] = ["bp"]
    Dice(monkeypatch, ["cloud"])
    ev = []
    RACE.setup_round(st, Rng(st["rng"]), ev)
    assert st["events"]["discard"] == ["bp"]
    # the same without the circuit rules: no event
    st2 = race(n=1, circuit="spain", events=True)
    st2 = json.loads(json.dumps(st2))
    st2["round"], st2["queue"], st2["turn"] = 10, [], None
    st2["weather"] = {"a": a, "b": c.weather_b}
    Dice(monkeypatch, ["cloud"])
    RACE.setup_round(st2, Rng(st2["rng"]), [])
    assert st2["events"]["discard"] == []


def test_great_britain_each_event_moves_the_weather_2_more(monkeypatch):
    st = race(n=1, circuit_rules=True, events=True)
    st, ev = event_round(st, ["bp"], ["!", "!"], monkeypatch)
    assert st["weather"]["b"] == 3  # from 1: +2, and the card itself does not move it
    st = race(n=1, events=True)
    st, ev = event_round(st, ["bp"], ["!", "!"], monkeypatch)
    assert st["weather"]["b"] == 1


def test_monaco_light_breakdown_events_are_heavy(monkeypatch):
    st = race(n=1, circuit="monaco", circuit_rules=True, events=True)
    st, ev = event_round(st, ["light"], ["!", "!"], monkeypatch)
    assert st["cars"][0]["bd"] == [["heavy", False]]


def _fight_totals(monkeypatch, **opts):
    st = race(collisions=False, **opts)
    a, d, _ = fight_setup(st)
    st["prefs"][a]["attack"] = st["prefs"][d]["defend"] = 0
    st, ev = attack(monkeypatch, st, a, d, [3, 4])
    e = next(e for e in said(ev) if e.text.key == "{a} {at} against {d} {dt}: {a} bids {ba}, {d} bids {bd}.")
    return e.text.params["at"], e.text.params["dt"]


def test_great_britain_attackers_and_monaco_defenders_get_1(monkeypatch):
    from bot.games.pole import specials as SP

    at, dt = _fight_totals(monkeypatch)
    assert _fight_totals(monkeypatch, circuit_rules=True) == (at + 1, dt)
    assert SP.fight_bonus({"options": {"circuit_rules": True}, "circuit": "great_britain"}) == (1, 0)
    assert SP.fight_bonus({"options": {"circuit_rules": True}, "circuit": "monaco"}) == (0, 1)
    assert SP.fight_bonus({"options": {}, "circuit": "monaco"}) == (0, 0)
    assert SP.fight_bonus({"options": {"circuit_rules": True}, "circuit": "china"}) == (0, 0)


@pytest.mark.parametrize("bcap,kcap,reach", [(4, 0, 12), (0, 0, 11)])
def test_dry_engine_point_cells(bcap, kcap, reach):
    """Brazil: in the dry 1 EP moves 4 cells, not 3: 6 tyre MP from row 2 and one boost."""
    from dataclasses import replace
    from tests.pole.helpers import circuit, ctx, ms

    c = circuit()
    x = replace(ctx(c), bcap=bcap, kcap=kcap)
    opts = R.search(x, ms(2, 1), 6, 3)
    one_ep = bcap or 3
    far = max(
        o.state.pos[1]
        for o in opts
        if o.kind == "end"
        and o.state.pos[0] == "t"
        and o.state.pos[1] < 20
        and 0 < o.state.b <= one_ep
        and o.state.k == 0
        and o.state.s == 0
    )
    assert far == reach


def test_engine_asks_the_circuit_for_its_caps():
    st = race(n=1, circuit="brazil", circuit_rules=True)
    c = eng.circuits()["brazil"]
    st["weather"]["a"] = next(i for i, w in enumerate(c.weather_a) if w == "dry")
    seat = next(s for s in range(st["seats"]) if not st["cars"][s].get("bot"))
    x = DRIVE.move_ctx(st, seat)
    assert (x.bcap, x.kcap) == (4, 3)


def test_usa_brake_point_cells():
    """USA: in the dry 1 BP moves 4 cells (search with the brake cap the circuit rules give)."""
    from bot.games.pole import specials as SP

    st = {"options": {"circuit_rules": True}, "circuit": "usa"}
    assert SP.caps(st, False) == (3, 4) and SP.caps(st, True) == (2, 2)
    st["circuit"] = "brazil"
    assert SP.caps(st, False) == (4, 3)
    st["options"] = {}
    assert SP.caps(st, False) == (3, 3)


def test_germany_drs_gives_3():
    from bot.games.pole import specials as SP

    assert SP.drs_mp({"options": {"circuit_rules": True}, "circuit": "germany"}) == 3
    assert SP.drs_mp({"options": {}, "circuit": "germany"}) == 2
    assert SP.drs_mp({"options": {"circuit_rules": True}, "circuit": "italy"}) == 2


def test_italy_and_germany_have_low_grip_areas():
    for k in ("italy", "germany"):
        assert eng.circuits()[k].low_grip
