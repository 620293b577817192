"""Every rule of the seed (BGA help, Japanese), one test per sentence or worked rule."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.games.base import GameError
from bot.games.steamworks import ENGINE as E
from bot.games.steamworks import geometry as geo
from bot.games.steamworks.content import setup, tiles
from tests.steamworks.helpers import T, act, add_device, choices, end_round, game

S = setup()


# -- 準備 -------------------------------------------------------------------------------------------


def test_setup_each_player_gets_persona_resources_and_two_mechanics():
    st = E.new_game({"personas": "seat order"}, 4, 7)
    names = list(S.personas)
    for s, pl in enumerate(st["players"]):
        p = S.personas[names[s]]
        assert pl["persona"] == p.id and pl["money"] == p.money
        assert pl["tiles"] == sorted(p.tiles)
        assert all(pl["sources"][c] == p.sources.get(c, 0) for c in "CSE")
    assert E.mechanics(st) == 2
    assert st["belts"]["1"].count(None) == 0 and st["belts"]["2"] == [None] * 4  # only Age I is open


# -- A: 配置 --------------------------------------------------------------------------------------


def test_first_mechanic_of_the_round_is_free_later_ones_cost_the_printed_cost():
    st = game(2)
    m0 = [p["money"] for p in st["players"]]
    st, _ = act(st, 0, "place", "source:C")
    assert st["players"][0]["money"] == m0[0]  # leftmost mechanic: 0
    st, _ = act(st, 1, "place", "source:S")
    st, _ = act(st, 0, "place", "tile:1")  # second mechanic: the cost under its home space
    assert st["players"][0]["money"] == m0[0] - S.mechanic_cost[1]


def test_cannot_place_without_the_money():
    st = game(2)
    st["players"][0]["money"] = 0
    st["used"][0] = 1
    st["turn"] = 2
    assert choices(st, 0, "place") == []
    with pytest.raises(GameError):
        act(st, 0, "place", "source:C")
    assert [a["type"] for a in E.legal_actions(st, 0)] == ["pass"]


def test_one_mechanic_per_space():
    st = game(2)
    st, _ = act(st, 0, "place", "source:C")
    st, _ = act(st, 1, "pass")
    assert not any(c.startswith("source:") for c in choices(st, 0, "place"))
    with pytest.raises(GameError):
        act(st, 0, "place", "source:E")


def test_only_the_active_seat_acts():
    st = game(3)
    assert E.to_act(st) == [0]
    with pytest.raises(GameError):
        act(st, 1, "pass")
    assert E.legal_actions(st, 1) == []


def test_placing_on_another_players_device_gives_its_owner_a_clock_from_the_current_stack():
    st = game(2)
    did = add_device(st, 1, [T("src_C", 0, 0), T("winding_key", 0, 1)])
    before = st["clocks"]["1"]
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    assert st["players"][1]["clocks"] == 1 and st["clocks"]["1"] == before - 1


def test_own_device_gives_no_clock():
    st = game(2)
    did = add_device(st, 0, [T("src_C", 0, 0), T("winding_key", 0, 1)])
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    assert st["players"][0]["clocks"] == 0 and st["clocks"]["1"] == S.clocks[2][0]


def test_clocks_come_from_the_general_supply_once_the_stack_is_empty_mid_round():
    st = game(2)
    did = add_device(st, 1, [T("src_C", 0, 0), T("winding_key", 0, 1)])
    st["clocks"]["1"] = 0
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    assert st["players"][1]["clocks"] == 1 and st["clocks"]["1"] == 0 and st["clocks"]["2"] == S.clocks[2][1]


def test_a_busy_source_is_not_a_free_space():
    st = game(3)
    did = add_device(st, 2, [T("src_C", 0, 0), T("winding_key", 0, 1)])
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    assert f"dev:{did}:0,0" not in choices(st, 1, "place")


# -- B: パス -----------------------------------------------------------------------------------------


def test_pass_takes_the_coins_shown_on_the_mechanic_space():
    st = game(2)
    m = st["players"][0]["money"]
    st, _ = act(st, 0, "pass")
    assert st["players"][0]["money"] == m + S.pass_income[0]
    st, _ = act(st, 1, "pass")
    st, _ = act(st, 0, "pass")
    assert st["players"][0]["money"] == m + S.pass_income[0] + S.pass_income[1]


def test_round_ends_when_every_mechanic_is_used_and_the_start_player_moves_left():
    st = game(3)
    for _ in range(3 * 2):
        st, _ = act(st, E.active(st), "pass")
    assert st["round"] == 2 and st["start"] == 1 and st["used"] == [0, 0, 0] and E.active(st) == 1


# -- タイルの活性化 ---------------------------------------------------------------------------------


def test_source_powers_directly_connected_components_in_the_order_chosen():
    st = game(2)
    # winding_key (C north/south) below and monetiser turned (C east/west) to the right
    did = add_device(st, 0, [T("src_C", 0, 0), T("winding_key", 0, 1), T("monetiser", 1, 0, 1)])
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    assert st["phase"] == "activate" and set(st["act"]["targets"]) == {"0,1", "1,0"}
    m = st["players"][0]["money"]
    st, _ = act(st, 0, "fire", "1,0:C")  # monetiser first
    assert st["players"][0]["money"] == m + 3
    st, _ = act(st, 0, "fire", "0,1:C")
    assert st["players"][0]["money"] == m + 5 and st["phase"] == "main"  # nothing left: the turn ends


def test_some_components_may_be_left_unpowered():
    st = game(2)
    did = add_device(st, 0, [T("src_C", 0, 0), T("winding_key", 0, 1), T("monetiser", 1, 0, 1)])
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    m = st["players"][0]["money"]
    st, _ = act(st, 0, "fire", "1,0:C")
    st, _ = act(st, 0, "done")
    assert st["players"][0]["money"] == m + 3 and st["phase"] == "main" and E.active(st) == 1


def test_only_properly_connected_tiles_activate():
    # winding_key turned so its lines run east-west: beside the source's south side it has no line
    placed = [T("src_C", 0, 0), T("winding_key", 0, 1, 1)]
    assert geo.powered(placed, (0, 0)) == {}
    # a steam line against a clockwork source does not match either
    placed = [T("src_C", 0, 0), T("kettle_drum", 0, 1)]
    assert geo.powered(placed, (0, 0)) == {}
    placed = [T("src_S", 0, 0), T("kettle_drum", 0, 1)]
    assert geo.powered(placed, (0, 0)) == {"0,1": ["S"]}


def test_multi_type_source_chooses_the_power_per_direction():
    # SteamWork sends clockwork or steam each way: condenser (C north, S east) takes either
    # line that faces it; here its clockwork line faces the source.
    placed = [T("steamwork", 0, 0), T("condenser", 0, 1), T("kettle_drum", 1, 0, 1)]
    pw = geo.powered(placed, (0, 0))
    assert pw == {"0,1": ["C"], "1,0": ["S"]}
    st = game(2)
    did = add_device(st, 0, placed)
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    c = st["players"][0]["sources"]["C"]
    st, _ = act(st, 0, "fire", "0,1:C")  # the condenser gains sources of the powering type
    assert st["players"][0]["sources"]["C"] == c + 2


def test_librarifier_draws_from_the_age_of_its_power():
    st = game(2)
    # aether engine: any power each way; librarifier's C north, S east, E south
    did = add_device(st, 0, [T("aether_engine", 0, 0), T("librarifier", 0, 1)])
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    assert st["act"]["targets"] == {"0,1": ["C"]}
    assert choices(st, 0, "fire") == ["0,1:C"]  # Age I, unlocked
    st2 = game(2)
    did = add_device(st2, 0, [T("aether_engine", 0, 0), T("librarifier", 0, 1, 3)])  # steam line north
    assert geo.powered(st2["devices"][0]["tiles"], (0, 0)) == {"0,1": ["S"]}
    st2, _ = act(st2, 0, "place", f"dev:{did}:0,0")
    # Age II is locked: nothing to do, so the activation ends at once
    assert st2["phase"] == "main"


def test_owner_bonus_only_when_another_player_activates():
    st = game(2)
    did = add_device(st, 1, [T("src_C", 0, 0), T("monetiser", 0, 1)])
    m1 = st["players"][1]["money"]
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    st, _ = act(st, 0, "fire", "0,1:C")
    assert st["players"][1]["money"] == m1 + 1  # owner bonus £1
    st2 = game(2)
    did = add_device(st2, 0, [T("src_C", 0, 0), T("monetiser", 0, 1)])
    m0 = st2["players"][0]["money"]
    st2, _ = act(st2, 0, "place", f"dev:{did}:0,0")
    st2, _ = act(st2, 0, "fire", "0,1:C")
    assert st2["players"][0]["money"] == m0 + 3  # only the effect, no bonus


def test_modifier_sends_power_back_so_a_component_works_again():
    st = game(2)
    # src_C; monetiser south (C line N/S); reverberator east turned so its C line faces west
    did = add_device(st, 0, [T("src_C", 0, 0), T("monetiser", 0, 1), T("reverberator", 1, 0, 3)])
    assert geo.powered(st["devices"][0]["tiles"], (0, 0)) == {"0,1": ["C"], "1,0": ["C"]}
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    m = st["players"][0]["money"]
    st, _ = act(st, 0, "fire", "0,1:C")
    assert "0,1:C" not in choices(st, 0, "fire")  # used
    st, _ = act(st, 0, "fire", "1,0:C")  # the modifier
    assert "0,1:C" in choices(st, 0, "fire")
    st, _ = act(st, 0, "fire", "0,1:C")
    assert st["players"][0]["money"] == m + 6 and st["phase"] == "main"


def test_power_converter_sends_power_three_ways():
    # source west of the converter; components north, east and south of it
    placed = [
        T("src_C", 0, 1),
        T("power_converter", 1, 1),
        T("ticker_press", 1, 0, 2),
        T("spark_jar", 2, 1, 1),
        T("winding_key", 1, 2),
    ]
    assert not geo.problems(placed)
    pw = geo.powered(placed, (0, 1))
    assert set(pw) == {"1,0", "2,1", "1,2"}
    assert pw["1,0"] == ["E"] and pw["1,2"] == ["C"]  # converted from clockwork


def test_component_set_is_fixed_once_activation_starts():
    st = game(2)
    did = add_device(st, 0, [T("src_C", 0, 0), T("upgrader", 0, 1)])
    st["players"][0]["tiles"] = ["winding_key"]
    st["players"][0]["money"] = 2  # the Upgrader's designed price (balance)
    st["players"][0]["sources"] = {"C": 0, "S": 0, "E": 0}
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    st, _ = act(st, 0, "fire", "0,1:C")
    assert st["phase"] == "build" and st["players"][0]["money"] == 0
    lays = choices(st, 0, "lay")
    assert lays and all(c.startswith("winding_key") for c in lays)
    st, _ = act(
        st,
        0,
        "lay",
        next(c for c in lays if c.split(":")[1:3] == ["1", "0"])
        if any(c.split(":")[1:3] == ["1", "0"] for c in lays)
        else lays[0],
    )
    st, _ = act(st, 0, "confirm")
    assert len(st["devices"][0]["tiles"]) == 3
    # the winding key joined the device and is powered by its source, yet not in this activation
    assert st["phase"] == "main"  # nothing left to fire: the turn ended
    assert st["act"] is None


# -- タイルの配置 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "placed,broken",
    [
        ([T("winding_key", 0, 0), T("monetiser", 0, 1)], {"source"}),  # 1) a source
        ([T("src_C", 0, 0), T("src_S", 0, 1)], {"component"}),  # 2) a component
        ([T("src_C", 0, 0), T("winding_key", 0, 1), T("src_E", 1, 0)], {"source_link"}),  # 3) each source
        ([T("src_C", 0, 0), T("winding_key", 0, 1), T("kettle_drum", 1, 0)], {"component_link"}),  # 4) each comp.
        ([T("src_C", 0, 0), T("winding_key", 0, 1)], set()),
    ],
)
def test_the_four_building_rules(placed, broken):
    found = set(geo.problems(placed))
    assert broken <= found and bool(found) == bool(broken)


def test_building_offers_only_legal_lays_and_places_tiles_in_your_own_area():
    st = game(2)
    st["players"][0]["tiles"] = ["winding_key", "kettle_drum"]
    st["players"][0]["sources"] = {"C": 1, "S": 0, "E": 0}
    st, _ = act(st, 0, "place", "build")
    assert st["phase"] == "build"
    first = choices(st, 0, "lay")
    assert {c.split(":")[0] for c in first} == {"src_C", "winding_key"}  # the kettle drum never fits
    st, _ = act(st, 0, "lay", "src_C:0:0:0")
    second = choices(st, 0, "lay")
    assert second and all(c.startswith("winding_key") for c in second)
    for c in second:
        _, x, y, r = c.split(":")
        assert not geo.problems([T("src_C", 0, 0), T("winding_key", int(x), int(y), int(r))])
    with pytest.raises(GameError):
        act(st, 0, "lay", "kettle_drum:0:1:0")
    with pytest.raises(GameError):
        act(st, 0, "confirm")
    st, _ = act(st, 0, "lay", second[0])
    st, _ = act(st, 0, "undo")
    assert st["players"][0]["tiles"] == ["kettle_drum", "winding_key"]
    st, _ = act(st, 0, "lay", second[0])
    st, _ = act(st, 0, "confirm")
    assert len(st["devices"]) == 1 and st["devices"][0]["owner"] == 0
    assert st["players"][0]["tiles"] == ["kettle_drum"] and st["players"][0]["sources"]["C"] == 0
    assert E.active(st) == 1


def test_build_space_only_offered_when_a_legal_device_can_be_made():
    st = game(2)
    st["players"][0]["tiles"] = ["kettle_drum"]
    st["players"][0]["sources"] = {"C": 3, "S": 0, "E": 0}
    assert "build" not in choices(st, 0, "place")
    st["players"][0]["sources"]["S"] = 1
    assert "build" in choices(st, 0, "place")


def test_placed_tiles_never_move():
    st = game(2)
    did = add_device(st, 0, [T("src_C", 0, 0), T("upgrader", 0, 1)])
    before = [dict(t) for t in st["devices"][0]["tiles"]]
    st["players"][0]["tiles"] = ["monetiser"]
    st["players"][0]["money"] = 2
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    st, _ = act(st, 0, "fire", "0,1:C")
    st, _ = act(st, 0, "lay", choices(st, 0, "lay")[0])
    st, _ = act(st, 0, "confirm")
    assert st["devices"][0]["tiles"][:2] == before


# -- ラウンド・ゲームの終了 -------------------------------------------------------------------------


def test_age_changes_when_the_clock_stack_is_empty_and_everyone_gains_a_mechanic():
    st = game(2)
    st["clocks"]["1"] = 1  # the automaton takes the last one at round end
    st = end_round(st)
    assert st["age"] == 2 and E.mechanics(st) == 3 and "2" in st["unlocked"]
    assert None not in st["belts"]["2"]
    st["clocks"]["2"] = 0
    st = end_round(st)
    assert st["age"] == 3 and E.mechanics(st) == 4 and "3" in st["unlocked"]
    st["clocks"]["3"] = 0
    st = end_round(st)
    assert E.is_over(st) and st["final"]["winners"]


def test_belt_advances_rightmost_to_the_bottom_then_slides_and_refills():
    st = game(2)
    belt = list(st["belts"]["1"])  # 3 spaces
    st["belts"]["1"][0] = None  # a gap on the left after someone took a tile
    top2 = st["stacks"]["1"][:2]
    st = end_round(st)
    assert st["stacks"]["1"][-1] == belt[2]  # the rightmost tile went under its stack
    assert st["belts"]["1"] == [top2[0], top2[1], belt[1]]  # slid right, refilled from the top


def test_short_stack_removes_the_age_clocks_and_unlocks_the_next_age():
    st = game(2)
    st["stacks"]["1"] = []
    st["belts"]["1"] = [None, None, "condenser"]
    st = end_round(st)
    assert st["clocks"]["1"] == 0 and "2" in st["unlocked"] and st["age"] == 1
    assert None not in st["belts"]["2"]
    st = end_round(st)  # the next age check sees the empty stack
    assert st["age"] == 2 and E.mechanics(st) == 3


def test_age_three_stack_running_short_ends_the_game():
    st = game(2)
    st["age"] = 3
    st["unlocked"] = ["1", "2", "3"]
    st["stacks"]["3"] = []
    st["belts"]["3"] = [None, None, None]
    st = end_round(st)
    assert E.is_over(st)


def test_scoring_and_tie_break():
    st = game(2)
    st["players"][0].update(vp=3, clocks=2, money=0, tiles=[], sources={"C": 0, "S": 0, "E": 0})
    st["players"][1].update(vp=1, clocks=1, money=5, tiles=[], sources={"C": 0, "S": 0, "E": 0})
    add_device(st, 0, [T("src_C", 0, 0), T("winding_key", 0, 1)])  # 2 prestige
    add_device(st, 1, [T("src_E", 0, 0), T("haiku_generator", 0, 1)])  # 1 + 2 prestige
    sc = E.scores(st)
    assert [r["total"] for r in sc] == [7, 5]
    st["players"][1]["vp"] = 3
    sc = E.scores(st)
    assert [r["total"] for r in sc] == [7, 7] and [r["tiebreak"] for r in sc] == [0, 5]
    st["age"] = 3
    st["clocks"]["3"] = 1
    st = end_round(st)
    assert st["final"]["winners"] == [1]  # money + sources + components left


def test_auto_powers_everything_with_suggested_choices():
    st = game(2)
    did = add_device(st, 0, [T("src_C", 0, 0), T("winding_key", 0, 1), T("monetiser", 1, 0, 1)])
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    m = st["players"][0]["money"]
    st, _ = act(st, 0, "auto")
    assert st["players"][0]["money"] == m + 5 and st["phase"] == "main"


def test_content_counts():
    ts = tiles()
    assert sum(t.copies for t in ts.values() if t.age == 1) == 28
    assert sum(t.copies for t in ts.values() if t.age == 2) == 23
    assert sum(t.copies for t in ts.values() if t.age == 3) == 16
    assert sum(S.clocks[5]) == 45
    assert Counter(S.belt.values())


def test_many_lays_the_tile_is_chosen_first_then_its_positions_and_rotations():
    st = game(2)
    pl = st["players"][0]
    pl["sources"] = {"C": 2, "S": 2, "E": 2}
    pl["tiles"] = sorted(
        [
            "winding_key",
            "kettle_drum",
            "dynamo_lamp",
            "gear_train",
            "monetiser",
            "ticker_press",
            "aether_engine",
            "grand_orrery",
            "spark_jar",
        ]
    )
    st["phase"] = "build"  # a Manufacturer's device of 3 tiles, after an Aether Engine (any power each way)
    st["build"] = {"mode": "new", "n": 3, "left": 3, "placed": [], "dev": None, "back": "turn", "tile": None}
    st, _ = act(st, 0, "lay", "aether_engine:0:0:0")
    lays = choices(st, 0, "lay")
    assert len(lays) > 25
    picks = choices(st, 0, "tile")
    assert sorted(picks) == sorted({c.split(":")[0] for c in lays})
    menu = E.menu(st, 0)
    sels = [g for g in menu if g["kind"] == "select"]
    assert sels[0]["action"] == {"type": "lay"} and [o["value"] for o in sels[0]["options"]] == lays[:25]
    assert sels[1]["action"] == {"type": "tile"}
    st, _ = act(st, 0, "tile", "gear_train")
    only = choices(st, 0, "lay")
    assert only == [c for c in lays if c.startswith("gear_train:")] and len(only) <= 25
    assert choices(st, 0, "tile") == [""]  # back to every tile
    with pytest.raises(GameError):
        act(st, 0, "lay", next(c for c in lays if c.startswith("monetiser:")))
    st, _ = act(st, 0, "lay", only[0])
    assert st["build"]["tile"] is None and st["build"]["left"] == 1
    assert any(g["kind"] == "buttons" for g in E.menu(st, 0))


def test_manufacturer_costs_three_pounds_and_builds_two_tiles():  # designed price (balance)
    st = game(2)
    did = add_device(st, 1, [T("src_S", 0, 0), T("manufacturer", 0, 1)])
    pl = st["players"][0]
    pl["sources"] = {"C": 2, "S": 2, "E": 0}
    pl["tiles"] = ["winding_key", "monetiser"]
    pl["money"] = 2
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    assert choices(st, 0, "fire") == []  # nothing it can pay for: the activation ended
    st = game(2)
    did = add_device(st, 1, [T("src_S", 0, 0), T("manufacturer", 0, 1)])
    pl = st["players"][0]
    pl["sources"] = {"C": 2, "S": 2, "E": 0}
    pl["tiles"] = ["winding_key", "monetiser"]
    pl["money"] = 3
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    st, _ = act(st, 0, "fire", "0,1:S")
    assert st["players"][0]["money"] == 0 and st["phase"] == "build" and st["build"]["left"] == 2


def test_upgrader_needs_two_pounds():  # designed price (balance)
    st = game(2)
    did = add_device(st, 0, [T("src_C", 0, 0), T("upgrader", 0, 1), T("winding_key", 1, 0)])
    st["players"][0]["tiles"] = ["monetiser"]
    st["players"][0]["money"] = 1
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    assert not any(c.startswith("0,1") for c in choices(st, 0, "fire"))
