"""Drivers and teams (seed 002, section 14, appendices 1 and 2), a table option: dealing, the
qualifying value, and a test for each of the twelve driver and twelve team abilities."""

import json
from dataclasses import replace

import pytest

from bot.games.pole.variants import breakdown
from bot.games.pole import ENGINE as E
from bot.games.pole import drivers as D
from bot.games.pole import engine as eng
from bot.games.pole import rules as R
from bot.games.pole import race as RACE
from bot.games.pole import qualifying as QUALI
from bot.games.pole import driving as DRIVE
from bot.games.rng import Rng
from tests.pole.helpers import (
    attack,
    circuit,
    ctx,
    Dice,
    drs_race,
    event_round,
    fight_setup,
    race,
    red_turn,
    said,
    turn,
)


def _with(st, seat, driver=None, team=None):
    if driver:
        st["cars"][seat]["driver"] = driver
    if team:
        st["cars"][seat]["team"] = team
    return st


def test_deal_one_each_distinct_bots_none():
    st = E.new_game({"circuit": "great_britain", "drivers": True, "bots": 2}, 4, 9)
    ds = [c.get("driver") for c in st["cars"]]
    ts = [c.get("team") for c in st["cars"]]
    assert all(ds[:4]) and all(ts[:4]) and len(set(ds[:4])) == 4 and len(set(ts[:4])) == 4
    assert ds[4:] == [None, None] and ts[4:] == [None, None]
    v = E.view(st, None)
    assert v["cars"][0]["driver"] == ds[0] and v["cars"][0]["team"] == ts[0]
    assert "driver" not in E.new_game({"circuit": "great_britain"}, 2, 9)["cars"][0]


@pytest.mark.parametrize(
    "team,ep,bp", [("engine3", 10, 7), ("engine2", 9, 8), ("brake2", 8, 9), ("brake3", 7, 10), ("sturdy", 7, 8)]
)
def test_team_start_points(team, ep, bp):
    t = next(x for x in D.data()["teams"] if x["id"] == team)
    assert (7 + t.get("ep", 0), 7 + t.get("bp", 0)) == (ep, bp)


def test_deal_applies_team_points_and_tokens():
    class Fixed:
        def shuffle(self, seq):
            seq.sort(key=lambda x: {"tyre_whisperer": 0, "engine3": 0}.get(x, 1))

    cars = [{"ep": 7, "bp": 7}]
    D.deal({"drivers": True}, cars, Fixed())
    assert cars[0]["driver"] == "tyre_whisperer" and cars[0]["team"] == "engine3"
    assert (cars[0]["ep"], cars[0]["bp"], cars[0]["wear_tok"], cars[0]["blow_tok"]) == (10, 7, 4, 2)


def test_qualifying_tie_goes_to_the_higher_driver_value(monkeypatch):
    st = E.new_game({"circuit": "great_britain", "drivers": True}, 2, 1)
    st["cars"][0]["driver"], st["cars"][1]["driver"] = "fighter", "starter"  # values 1 and 6
    st["quali"]["first"] = {"0": 4, "1": 4}
    Dice(monkeypatch, [5, 3])  # the dice would favour seat 0; the driver value decides first
    for s in (0, 1):
        st, _ = E.apply(st, s, {"type": "quali", "reroll": False})
    assert st["grid"][0] == 1


def test_rocket_plus_1_on_quali_first_roll_and_start(monkeypatch):
    st = E.new_game({"circuit": "great_britain", "drivers": True}, 1, 1)
    st["cars"][0]["driver"] = "starter"
    Dice(monkeypatch, [3, 3])
    st["quali"]["idx"] = -1
    QUALI.next_session(st, Rng(st["rng"]), [])
    assert st["quali"]["first"]["0"] == 4 and st["quali"]["first"]["1"] == 3
    st = race(n=1, drivers=True)
    s = 0
    st["cars"][s]["driver"] = "starter"
    st = json.loads(json.dumps(st))
    st["turn"], st["queue"] = None, []
    Dice(monkeypatch, [4])
    RACE.begin_turn(st, Rng(st["rng"]), [], s)
    assert st["turn"]["die"] == "purple" and st["turn"]["n"] == 5


def test_rocket_plus_1_after_the_sc(monkeypatch):
    st = _with(race(n=1, drivers=True), 0, "starter")
    st["cars"][0]["sc_turn"] = True
    Dice(monkeypatch, [8])
    st = turn(st, 0)
    assert st["turn"]["n"] == 9


@pytest.mark.parametrize(
    "driver,team,at,dt", [("attacker", None, 2, 0), ("defender", None, 0, 2), ("fighter", None, 1, 1)]
)
def test_fight_bonuses(monkeypatch, driver, team, at, dt):
    st = race(collisions=False, drivers=True)
    a, d, _ = fight_setup(st)
    st["prefs"][a]["attack"] = st["prefs"][d]["defend"] = 0
    for s in range(st["seats"]):
        st["cars"][s].pop("driver", None)
        st["cars"][s].pop("team", None)
    base = _totals(monkeypatch, json.loads(json.dumps(st)), a, d)
    # the card on the side it helps: the attacker's attack bonus, the defender's defence bonus
    st["cars"][a]["driver"] = driver
    st["cars"][d]["driver"] = driver
    got = _totals(monkeypatch, st, a, d)
    assert got == (base[0] + at, base[1] + dt)


def _totals(monkeypatch, st, a, d):
    st, ev = attack(monkeypatch, st, a, d, [3, 4])
    e = next(e for e in said(ev) if e.text.key == "{a} {at} against {d} {dt}: {a} bids {ba}, {d} bids {bd}.")
    return e.text.params["at"], e.text.params["dt"]


def test_rain_drivers_fight_bonus_only_in_rain():
    st = {"options": {"drivers": True}, "cars": [{"driver": "rain_engine"}, {"driver": "rain_brake"}]}
    assert D.fight_bonus(st, 0, 1, True) == (1, 1) and D.fight_bonus(st, 0, 1, False) == (0, 0)


def test_rain_drivers_3_cells_per_point_in_rain():
    st = {"options": {}, "circuit": "great_britain", "cars": [{"driver": "rain_engine"}, {"driver": "rain_brake"}]}
    assert D.caps(st, 0, True) == (3, 2) and D.caps(st, 1, True) == (2, 3) and D.caps(st, 0, False) == (3, 3)


def test_technician_technical_corners_are_green():
    c = circuit(technical=True)
    co = c.corners[0]
    x = ctx(c)
    line = (co.index, True)
    off = R.line_after(x, R.MState(("t", co.first, 1), 0, 1, 0, 0, 0, 0, line, -1), ("t", co.first + 1, 0), False)
    assert off == (co.index, False)  # left the line of a technical corner: lost
    x = replace(x, no_technical=True)
    off = R.line_after(x, R.MState(("t", co.first, 1), 0, 1, 0, 0, 0, 0, line, -1), ("t", co.first + 1, 0), False)
    assert off != (co.index, False)


def test_corner_master_two_cells_per_sp_in_normal_corners():
    c = circuit()
    co = c.corners[0]
    start = R.MState(("t", co.first, 0), 0, 0, 0, 0, 0, 0, (), -1)
    one = R.search(ctx(c, sp=1), start, 1, 1)
    two = R.search(replace(ctx(c, sp=1), sp_double=True), start, 1, 1)

    def far(opts):
        return max(o.state.pos[1] for o in opts if o.kind == "end" and o.state.pos[0] == "t" and o.state.s > 0)

    assert far(two) == far(one) + 1  # 1 SP: 2 cells instead of 1
    st = {"options": {"drivers": True}, "cars": [{"driver": "corner_master"}]}
    assert D.sp_cost(st, 0, 3) == 2 and D.sp_cost(st, 0, 2) == 1


def test_corner_master_technical_corner_still_one_cell_per_sp():
    c = circuit(technical=True)
    co = c.corners[0]
    start = R.MState(("t", co.first, 0), 0, 0, 0, 0, 0, 0, (), -1)
    one = R.search(ctx(c, sp=1), start, 1, 1)
    two = R.search(replace(ctx(c, sp=1), sp_double=True), start, 1, 1)
    f = lambda opts: max(o.state.pos[1] for o in opts if o.kind == "end" and o.state.pos[0] == "t")  # noqa: E731
    assert f(one) == f(two)


def test_rain_dancer_course_out_thresholds():
    st = {"options": {"drivers": True}, "cars": [{"driver": "rain_safe"}]}
    assert D.course_out_limit(st, 0, "hard", R.course_out_limit("hard", "light")) == 9
    assert D.course_out_limit(st, 0, "soft", R.course_out_limit("soft", "light")) == 10
    assert D.course_out_limit(st, 0, "hard", R.course_out_limit("hard", "heavy")) == 8
    assert D.course_out_limit(st, 0, "soft", R.course_out_limit("soft", "heavy")) == 9


def test_rain_dancer_in_the_engine(monkeypatch):
    st = _with(race(n=1, drivers=True), 0, "rain_safe")
    c = eng.circuits()["great_britain"]
    st["weather"]["a"] = next(i for i, w in enumerate(c.weather_a) if w == "light")
    st = json.loads(json.dumps(st))
    st["round"], st["queue"], st["turn"] = 10, [], None
    Dice(monkeypatch, [8])
    RACE.begin_turn(st, Rng(st["rng"]), [], 0)
    assert not DRIVE.course_out_due(st)  # hard in light rain: 8 would go off, the Rain Dancer holds to 9


def test_strategist_two_more_sp_at_each_stop():
    st = _with(race(n=1, drivers=True), 0, "pit_sp")
    st["cars"][0]["sp"] = 2
    D.at_pit(st, [], 0)
    assert st["cars"][0]["sp"] == 4


def test_tyre_whisperer_wear_token_and_blowout_token(monkeypatch):
    st = _with(race(n=1, drivers=True), 0, "tyre_whisperer")
    st["cars"][0].update(wear_tok=4, blow_tok=2, life=-1)
    Dice(monkeypatch, [9])
    st = turn(st, 0)
    n = st["turn"]["n"]
    assert {"type": "wear_token"} in E.legal_actions(st, 0)
    st, _ = E.apply(st, 0, {"type": "wear_token"})
    assert st["turn"]["n"] == n + 1 and st["cars"][0]["wear_tok"] == 3
    assert {"type": "wear_token"} not in E.legal_actions(st, 0)  # once a turn
    ev = []
    assert D.use_blow_token(st, ev, 0) and st["cars"][0]["blow_tok"] == 1


def test_slipstreamer_drs_plus_1_mp():
    st = {"options": {"drivers": True}, "circuit": "great_britain", "cars": [{"driver": "drs"}]}
    assert D.drs_mp(st, 0) == 3 and D.drs_range(st, 0) == 2
    st["options"]["circuit_rules"] = True
    st["circuit"] = "germany"
    assert D.drs_mp(st, 0) == 4


@pytest.mark.parametrize(
    "team,weather,tyre,free",
    [
        ("inter_light", "light", "inter", True),
        ("inter_light", "dry", "inter", False),
        ("hard_dry", "dry", "hard", True),
        ("soft_dry", "dry", "soft", True),
        ("soft_dry", "dry", "hard", False),
    ],
)
def test_team_free_reroll(monkeypatch, team, weather, tyre, free):
    st = _with(race(n=1, drivers=True), 0, team=team)
    c = eng.circuits()["great_britain"]
    st["cars"][0].update(tyre=tyre, life=3, sp=0)
    st = json.loads(json.dumps(st))
    st["round"], st["queue"], st["turn"] = 10, [], None
    st["weather"]["a"] = next(i for i, w in enumerate(c.weather_a) if w == weather)
    Dice(monkeypatch, [6, 8])
    RACE.begin_turn(st, Rng(st["rng"]), [], 0)
    assert ({"type": "reroll"} in E.legal_actions(st, 0)) is free
    if free:
        st, _ = E.apply(st, 0, {"type": "reroll"})
        assert st["cars"][0]["sp"] == 0 and st["turn"]["rolls"] == [6, 8] and st["turn"]["use"] == 1
        assert {"type": "reroll"} not in E.legal_actions(st, 0)  # once a turn (no SP left)


def test_collision_teams():
    st = {"options": {"drivers": True}, "cars": [{"team": "tough"}, {"team": "sturdy"}, {}]}
    assert D.collision_roll(st, 0, 6) == 4 and D.collision_roll(st, 0, 2) == 1
    assert D.collision_roll(st, 1, 6) == 5 and D.collision_roll(st, 2, 6) == 6
    assert D.extra_breakdown_points(st, 0) == 2 and D.no_blowouts(st, 0)
    assert D.immune_to_breakdown_events(st, 1) and not D.immune_to_breakdown_events(st, 0)


def test_iron_chassis_holds_5_breakdown_points():
    st = _with(race(n=1, drivers=True), 0, team="tough")
    ev = []
    breakdown(st, ev, 0, "heavy")
    st["cars"][0]["bd"][0][1] = True
    breakdown(st, ev, 0, "heavy")
    st["cars"][0]["bd"][1][1] = True
    breakdown(st, ev, 0, "light")
    assert st["cars"][0]["out"] is None  # 5 points: 3 + 2


def test_solid_motors_ignores_breakdown_events(monkeypatch):
    st = _with(race(n=1, drivers=True, events=True), 0, team="sturdy")
    st, ev = event_round(st, ["heavy"], ["!", "!"], monkeypatch)
    assert st["cars"][0]["bd"] == []


def test_exit_bonuses():
    for team, mp in (("pit_crew", 3), ("winners", 1), ("repair", 3), ("engine3", 0)):
        st = {"options": {"drivers": True}, "cars": [{"team": team}]}
        assert D.exit_bonus(st, 0) == mp


def test_victory_lane_two_more_mp_after_a_won_fight(monkeypatch):
    st = race(collisions=False, drivers=True)
    a, d, _ = fight_setup(st)
    for s in range(st["seats"]):
        st["cars"][s].pop("driver", None)
        st["cars"][s].pop("team", None)
    st["cars"][a]["team"] = "winners"
    Dice(monkeypatch, [9])
    st = turn(st, a)
    n0 = st["turn"]["n"]
    f = next(i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "fight" and o["def"] == [d])
    Dice(monkeypatch, [6, 1])
    st, ev = E.apply(st, a, {"type": "move", "i": f})
    assert any(e.text.key == "{a} overtakes {d}." for e in said(ev))
    assert st["turn"]["seat"] == a and st["turn"]["n"] == n0 + 2  # the move goes on with 2 more MP


def test_fix_it_fast_gives_back_a_point():
    st = _with(race(n=1, drivers=True), 0, team="repair")
    st["cars"][0].update(ep0=7, bp0=7, ep=5, bp=6)
    D.at_pit(st, [], 0)
    assert (st["cars"][0]["ep"], st["cars"][0]["bp"]) == (6, 6)
    st["cars"][0].update(ep=7, bp=7)
    D.at_pit(st, [], 0)
    assert (st["cars"][0]["ep"], st["cars"][0]["bp"]) == (7, 7)


def test_lightning_pits_passes_the_cars_that_stopped_this_round():
    st = _with(race(n=3, drivers=True), 2, team="pit_crew")
    for s in range(3):
        st["cars"][s].pop("team", None) if s != 2 else None
        st["cars"][s].update(pos=["pit"], laps=2)
    st["cars"][0].update(pit_round=st["round"])
    st["cars"][1].update(pos=["t", 5, 0])
    st["order"] = [1, 0, 2]
    D.at_pit(st, [], 2)
    assert st["order"] == [1, 2, 0]


def test_slipstreamer_takes_drs_two_moves_behind(monkeypatch):
    """DRS range +1: ending 2 MP behind the car ahead (one cell more than the normal reach)."""
    Dice(monkeypatch, [6])
    base = drs_race()
    base["options"]["drivers"] = True
    base["cars"][0]["driver"] = "drs"
    st = red_turn(base)
    # red ends on row 2 (lap 2): green is on row 6, two moves ahead (rows 2 -> 4 -> 6)
    i = next(
        i for i, o in enumerate(st["turn"]["opts"]) if o["kind"] == "end" and o["pos"] == ["t", 2, 0] and o["laps"] == 2
    )
    st, ev = E.apply(st, 0, {"type": "move", "i": i})
    assert st["cars"][0]["drs"] is True
    plain = red_turn(drs_race())
    i = next(
        i
        for i, o in enumerate(plain["turn"]["opts"])
        if o["kind"] == "end" and o["pos"] == ["t", 2, 0] and o["laps"] == 2
    )
    Dice(monkeypatch, [])
    plain, _ = E.apply(plain, 0, {"type": "move", "i": i})
    assert not plain["cars"][0].get("drs")


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_rules_pages_name_every_driver_and_team_with_its_ability(locale):
    """Rivals' drivers and teams are public (the board names them): `/pole rules` says what each does,
    by the name the board shows, in the reader's language."""
    from bot import rules_pages
    from bot.i18n import msg, render

    text = "\n".join(body for _, body in rules_pages.pages("pole", locale))
    colon = "：" if locale == "ja" else ":"
    for x in D.data()["drivers"] + D.data()["teams"]:
        name = render(msg(x["name"]), locale)
        line = next((ln for ln in text.splitlines() if ln.startswith(f"- **{name}{colon}**")), None)
        assert line and len(line) > len(name) + 8, (locale, name)
