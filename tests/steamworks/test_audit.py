"""Tests for the points settled by the rule-by-rule audit (tests/steamworks/AUDIT.md)."""

from __future__ import annotations

from collections import Counter

from bot.games.steamworks import ENGINE as E
from bot.games.steamworks import geometry as geo
from bot.games.steamworks.choices import lay_choices, lay_ok
from bot.games.steamworks.content import setup
from tests.steamworks.helpers import T, act, add_device, choices, end_round, game

S = setup()


# -- タイルの配置 3)/4) and the Power Converter ------------------------------------------------------


def test_a_source_joined_only_to_a_converter_that_powers_nothing_breaks_rule_3():
    # src_E's only line goes into the converter, and the converter passes power to nothing.
    placed = [T("src_C", 0, 0), T("winding_key", 0, 1), T("power_converter", 1, 0), T("src_E", 2, 0)]
    assert geo.powered(placed, (2, 0)) == {}
    assert geo.problems(placed) == ["source_link"]


def test_a_source_powering_a_component_through_a_converter_is_connected():
    placed = [T("src_E", 0, 0), T("power_converter", 1, 0), T("winding_key", 2, 0, 1)]
    assert geo.problems(placed) == []
    assert geo.powered(placed, (0, 0)) == {"2,0": ["C"]}


def test_power_passes_on_through_a_chain_of_converters():
    # the seed: a Power Converter sends power three ways, so one converter feeds the next
    placed = [T("src_C", 0, 0), T("power_converter", 1, 0), T("power_converter", 2, 0), T("winding_key", 3, 0, 1)]
    assert geo.problems(placed) == []
    assert geo.powered(placed, (0, 0)) == {"3,0": ["C"]}


def test_a_converter_no_source_reaches_breaks_rule_4():
    placed = [T("src_C", 0, 0), T("winding_key", 0, 1), T("power_converter", 5, 5)]
    assert "component_link" in geo.problems(placed)


def test_building_with_a_converter_never_offers_a_source_that_would_power_nothing():
    supply = Counter({"src_C": 1, "src_E": 1, "power_converter": 1, "winding_key": 1})
    seen = 0
    for first in geo.legal_lays([], supply, 4):
        rest = supply.copy()
        rest[first["t"]] -= 1
        if not geo.feasible([first], rest, 3):
            raise AssertionError(first)
        seen += 1
    assert seen

    # every finished four-tile device from this supply: each source powers something
    def finish(placed, sup, left):
        if left == 0:
            assert not geo.problems(placed)
            for p in placed:
                if p["t"].startswith("src_"):
                    assert geo.powered(placed, (p["x"], p["y"]))
            return 1
        n = 0
        for c in geo.legal_lays(placed, sup, left)[:6]:
            r = sup.copy()
            r[c["t"]] -= 1
            n += finish(placed + [c], r, left - 1)
        return n

    assert finish([], supply, 4)


def test_a_source_that_powers_nothing_is_never_offered_as_a_space():
    st = game(2)
    # a device stored before the stricter reading: its electrickal source powers nothing
    did = add_device(st, 1, [T("src_C", 0, 0), T("winding_key", 0, 1), T("power_converter", 1, 0), T("src_E", 2, 0)])
    places = choices(st, 0, "place")
    assert f"dev:{did}:0,0" in places and f"dev:{did}:2,0" not in places


# -- Modifier tiles ----------------------------------------------------------------------------------


def _two_modifiers(st):
    # src_C; monetiser south; a reverberator east and one west, each with its clockwork line facing it
    return add_device(
        st, 0, [T("src_C", 0, 0), T("monetiser", 0, 1), T("reverberator", 1, 0, 3), T("reverberator", -1, 0, 1)]
    )


def test_each_modifier_gives_one_more_use_of_an_activated_tile_and_never_repeats_itself():
    st = game(2)
    did = _two_modifiers(st)
    assert set(geo.powered(st["devices"][0]["tiles"], (0, 0))) == {"0,1", "1,0", "-1,0"}
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    m = st["players"][0]["money"]
    st, _ = act(st, 0, "fire", "0,1:C")
    st, _ = act(st, 0, "fire", "1,0:C")
    # the power came back: the monetiser may go again, the used modifier may not
    assert choices(st, 0, "fire") == ["-1,0:C", "0,1:C"]
    st, _ = act(st, 0, "fire", "0,1:C")
    assert choices(st, 0, "fire") == ["-1,0:C"]
    st, _ = act(st, 0, "fire", "-1,0:C")
    assert choices(st, 0, "fire") == ["0,1:C"]
    st, _ = act(st, 0, "fire", "0,1:C")
    assert st["players"][0]["money"] == m + 9 and st["phase"] == "main"


def test_a_modifier_powered_first_keeps_its_return_for_later():
    st = game(2)
    did = _two_modifiers(st)
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    st, _ = act(st, 0, "fire", "1,0:C")
    assert "0,1:C" in choices(st, 0, "fire")  # not used yet: an ordinary use
    st, _ = act(st, 0, "fire", "0,1:C")
    assert "0,1:C" in choices(st, 0, "fire")  # and the return still waits


# -- Round end timing ----------------------------------------------------------------------------------


def test_the_age_changes_only_at_the_round_end_check_even_if_the_clocks_run_out_mid_round():
    st = game(2)
    did = add_device(st, 1, [T("src_C", 0, 0), T("winding_key", 0, 1)])
    st["clocks"]["1"] = 1
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    st, _ = act(st, 0, "done")
    assert st["clocks"]["1"] == 0 and st["age"] == 1 and E.mechanics(st) == 2 and st["unlocked"] == ["1"]
    st = end_round(st)
    assert st["age"] == 2 and E.mechanics(st) == 3 and st["unlocked"] == ["1", "2"]
    assert None not in st["belts"]["2"]  # step III after the age check: the new belt is filled


def test_the_game_ends_at_the_age_check_and_the_belts_do_not_move():
    st = game(2)
    st["age"] = 3
    st["unlocked"] = ["1", "2", "3"]
    for a in ("2", "3"):
        st["belts"][a] = [st["stacks"][a].pop(0) for _ in range(3)]
    st["clocks"]["3"] = 1  # the automaton takes the last at step I
    belts = {a: list(b) for a, b in st["belts"].items()}
    st = end_round(st)
    assert E.is_over(st) and st["belts"] == belts and st["round"] == 1


def test_a_full_tie_after_the_tie_break_shares_the_win():
    st = game(2)
    for pl in st["players"]:
        pl.update(vp=2, clocks=1, money=3, tiles=[], sources={"C": 0, "S": 0, "E": 0})
    st["age"] = 3
    st["clocks"]["3"] = 1
    st = end_round(st)
    assert st["final"]["winners"] == [0, 1] and E.placings(st) == [1, 1]


def test_the_tie_break_counts_money_sources_and_components_left():
    st = game(2)
    st["players"][0].update(
        vp=2, clocks=0, money=1, tiles=["electroclock", "monetiser"], sources={"C": 1, "S": 0, "E": 0}
    )
    st["players"][1].update(vp=2, clocks=0, money=4, tiles=[], sources={"C": 0, "S": 0, "E": 0})
    sc = E.scores(st)
    assert [r["tiebreak"] for r in sc] == [4, 4]  # £1 + 2 sources + 1 component, £4
    st["age"] = 3
    st["clocks"]["3"] = 1
    st = end_round(st)
    assert st["final"]["winners"] == [0, 1]


# -- A: 配置 / B: パス ------------------------------------------------------------------------------


def test_after_passing_the_first_mechanic_the_next_costs_what_is_printed_under_its_home_space():
    st = game(2)
    st, _ = act(st, 0, "pass")
    st, _ = act(st, 1, "pass")
    m = st["players"][0]["money"]
    st, _ = act(st, 0, "place", "source:C")
    assert st["players"][0]["money"] == m - S.mechanic_cost[1]


def test_persona_spaces_do_their_action_at_once_and_each_board_is_its_own():
    st = game(2)
    pl = st["players"][0]
    c, right = pl["sources"]["C"], st["belts"]["1"][-1]
    st, _ = act(st, 0, "place", "source:C")  # Foundry: a basic source of your choice
    assert st["players"][0]["sources"]["C"] == c + 1
    assert "source:C" in choices(st, 1, "place")  # player 1's own Foundry is free
    st, _ = act(st, 1, "place", "tile:1")  # Acquisition: the rightmost belt tile
    assert right in st["players"][1]["tiles"] and st["belts"]["1"][-1] is None
    m = st["players"][0]["money"]
    tid = st["belts"]["1"][0]
    st, _ = act(st, 0, "place", "workshop:1:0")  # Patent Office: £2 more for any belt tile
    assert st["players"][0]["money"] == m - S.mechanic_cost[1] - 2 and tid in st["players"][0]["tiles"]


# -- III: belts ---------------------------------------------------------------------------------------


def test_an_earlier_age_stack_running_short_only_leaves_its_belt_gaps():
    st = game(2)
    st["age"] = 2
    st["unlocked"] = ["1", "2"]
    st["belts"]["2"] = [st["stacks"]["2"].pop(0) for _ in range(3)]
    st["stacks"]["1"] = []
    st["belts"]["1"] = [None, "condenser", None]
    clocks = dict(st["clocks"])
    st = end_round(st)
    assert st["belts"]["1"] == [None, None, "condenser"] and st["unlocked"] == ["1", "2"]
    assert st["clocks"]["2"] == clocks["2"] - 1  # only the automaton's clock left


def test_the_automaton_takes_one_clock_of_the_current_age_out_of_the_game_each_round_end():
    # designed (the seed only returns it to the central board at step I)
    st = game(3)
    before = dict(st["clocks"])
    st = end_round(st)
    assert st["clocks"] == {**before, "1": before["1"] - 1}
    assert all(pl["clocks"] == 0 for pl in st["players"])


def test_a_lay_is_accepted_exactly_when_it_is_among_the_offered_lays():
    # apply checks one lay without listing them all (the list is a search); both must agree
    import random

    from bot.games.steamworks.simulate import greedy

    seen = 0
    for seed in range(3):
        st = E.new_game({}, 2 + seed, seed)
        rnd = random.Random(seed)
        while not E.is_over(st) and seen < 40:
            (seat,) = E.to_act(st)
            if st["phase"] == "build":
                legal = set(lay_choices(st, seat))
                assert all(lay_ok(st, seat, c) for c in legal)
                for c in (
                    "src_C:9:9:0",
                    "src_C:0:0:0",
                    "src_C:0:0:0:1",
                    "winding_key:0:0:5",
                    "x",
                    "src_C:00:0:0",
                    "src_C:0:0:0:",
                    None,
                ):
                    assert lay_ok(st, seat, c) == (c in legal)
                seen += 1
            st, _ = E.apply(st, seat, greedy(st, seat, rnd))
    assert seen >= 10
