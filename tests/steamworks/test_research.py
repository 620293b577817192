"""The Alarm Chronometer and the Innovation Turbine as the research notes give them (BGA's English
help, from the team's research notes), the start marker they need, and the upgrade of states
saved before it (schema 1)."""

from __future__ import annotations

import json

import pytest

from bot.games.base import GameError
from bot.games.steamworks import ENGINE as E
from bot.games.steamworks.engine import SCHEMA
from bot.i18n import render

from .helpers import T, act, add_device, choices, end_round, game


def _chronometer_game(seats=3, money=5):
    st = game(seats)
    did = add_device(st, 1, [T("src_C", 0, 0), T("alarm_chronometer", 0, 1)])
    st["players"][2]["money"] = money
    st, _ = act(st, 0, "pass")
    st, _ = act(st, 1, "pass")
    st, _ = act(st, 2, "place", f"dev:{did}:0,0")
    return st


# -- Alarm Chronometer: "advance the start-player marker once for free, plus once more per £1 spent.
#    It still advances again at round end."


def test_alarm_chronometer_advances_the_marker_once_for_free_and_it_still_advances_at_round_end():
    st = _chronometer_game()
    assert st["marker"] == 0 and st["start"] == 0
    money = st["players"][2]["money"]
    st, _ = act(st, 2, "fire", "0,1:C:0")
    assert st["marker"] == 1 and st["players"][2]["money"] == money
    assert st["start"] == 0  # this round's turn order stays
    st = end_round(st)
    assert st["start"] == 2 and st["marker"] == 2  # once by the chronometer, once at round end


def test_alarm_chronometer_advances_once_more_per_pound_spent():
    st = _chronometer_game()
    money = st["players"][2]["money"]
    st, _ = act(st, 2, "fire", "0,1:C:1")
    assert st["marker"] == 2 and st["players"][2]["money"] == money - 1
    assert E.view(st, None)["next_start"] == 0
    st = end_round(st)
    assert st["start"] == 0


def test_alarm_chronometer_paid_steps_are_limited_by_money_and_a_full_lap():
    st = _chronometer_game(money=1)
    assert choices(st, 2, "fire") == ["0,1:C:0", "0,1:C:1"]
    st = _chronometer_game(money=9)
    assert choices(st, 2, "fire") == ["0,1:C:0", "0,1:C:1", "0,1:C:2"]  # 3 seats: 3 steps reach every seat
    labels = [render(o["label"], "en") for g in E.menu(st, 2) if g["kind"] == "select" for o in g["options"]]
    assert any("starts next round" in t for t in labels)


def test_without_a_chronometer_the_start_player_moves_one_left():
    st = game(3)
    st = end_round(st)
    assert st["start"] == 1 and st["marker"] == 1


# -- Innovation Turbine: "take a tile from an unlocked supply deck, or pay £1 to choose 1 of 2 revealed
#    tiles".


def _turbine_game(money=5):
    st = game(3)
    did = add_device(st, 1, [T("src_C", 0, 0), T("innovation_turbine", 0, 1)])
    st["players"][0]["money"] = money
    st["stacks"]["1"][:3] = ["monetiser", "manufacturer", "distiller"]
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    return st


def test_innovation_turbine_takes_the_top_tile_of_an_unlocked_stack_for_free():
    st = _turbine_game()
    assert choices(st, 0, "fire") == ["0,1:C:d1", "0,1:C:r1"]
    n = len(st["stacks"]["1"])
    held = st["players"][0]["tiles"].count("monetiser")
    st, _ = act(st, 0, "fire", "0,1:C:d1")
    assert st["players"][0]["tiles"].count("monetiser") == held + 1 and st["players"][0]["money"] == 5
    assert len(st["stacks"]["1"]) == n - 1 and st["stacks"]["1"][0] == "manufacturer"


def test_innovation_turbine_pays_one_to_choose_one_of_two_and_the_other_goes_under_the_stack():
    st = _turbine_game()
    n = len(st["stacks"]["1"])
    st, _ = act(st, 0, "fire", "0,1:C:r1")
    assert st["phase"] == "reveal" and st["players"][0]["money"] == 4
    assert E.view(st, 0)["reveal"]["tiles"] == ["monetiser", "manufacturer"]
    assert [a["choice"] for a in E.legal_actions(st, 0)] == ["0", "1"]
    assert E.legal_actions(st, 1) == []
    labels = [render(o["label"], "en") for g in E.menu(st, 0) for o in g["options"]]
    assert sorted(labels) == ["Keep Manufacturer", "Keep Monetiser"]
    before = list(st["players"][0]["tiles"])
    st, _ = act(st, 0, "keep", "1")
    assert sorted(st["players"][0]["tiles"]) == sorted(before + ["manufacturer"])
    assert st["stacks"]["1"][0] == "distiller" and st["stacks"]["1"][-1] == "monetiser"
    assert len(st["stacks"]["1"]) == n - 1
    assert st["reveal"] is None and st["phase"] == "main"  # nothing else to power: the turn ended


def test_the_look_is_not_offered_without_the_pound_or_two_tiles():
    st = _turbine_game(money=0)
    assert choices(st, 0, "fire") == ["0,1:C:d1"]
    st = _turbine_game()
    st["stacks"]["1"] = ["monetiser"]
    assert choices(st, 0, "fire") == ["0,1:C:d1"]


def test_the_look_is_private_other_views_log_and_errors_do_not_show_the_two_tiles():
    a = _turbine_game()
    b = json.loads(json.dumps(a))
    b["stacks"]["1"][:2] = ["upgrader", "sourcer"]  # other tiles on top: nobody else may tell
    a, _ = act(a, 0, "fire", "0,1:C:r1")
    b, _ = act(b, 0, "fire", "0,1:C:r1")
    for viewer in (None, 1, 2):
        assert json.dumps(E.view(a, viewer), sort_keys=True, default=str) == json.dumps(
            E.view(b, viewer), sort_keys=True, default=str
        )
    assert a["log"] == b["log"]
    for bad in ("2", "-1", None, "monetiser"):
        with pytest.raises(GameError) as e:
            act(a, 0, "keep", bad)
        assert "onetiser" not in str(e.value) and "anufacturer" not in str(e.value)
    with pytest.raises(GameError):
        act(a, 1, "keep", "0")
    # after the choice the log names only the kept tile
    a2, ev = act(a, 0, "keep", "0")
    text = " ".join(render(e.text, "en") for e in ev)
    assert "Monetiser" in text and "Manufacturer" not in text


def test_the_look_stops_auto_and_the_activation_goes_on_after_the_choice():
    st = game(3)
    did = add_device(st, 1, [T("src_C", 0, 0), T("innovation_turbine", 0, 1), T("winding_key", 1, 0, 1)])
    st["stacks"]["1"][:2] = ["monetiser", "manufacturer"]
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    targets = set(st["act"]["targets"])
    assert targets == {"0,1", "1,0"}
    st, _ = act(st, 0, "fire", "0,1:C:r1")
    st, _ = act(st, 0, "keep", "0")
    assert st["phase"] == "activate" and choices(st, 0, "fire") == ["1,0:C"]


# -- the schema-2 upgrade of states saved with schema 1 ----------------------------------------------


def _as_schema_1(st, next_start):
    old = json.loads(json.dumps(st))
    old["schema"] = 1
    del old["marker"], old["reveal"]
    old["next_start"] = next_start
    old["stage"] = old.pop("phase")
    return old


def test_a_schema_1_state_loads_and_plays_on():
    st = game(3)
    old = _as_schema_1(st, None)
    new = E.upgrade(old)
    assert new["schema"] == SCHEMA and new["marker"] == 0 and new["reveal"] is None and "next_start" not in new
    assert new["phase"] == "main" and "stage" not in new
    assert old["schema"] == 1 and "marker" not in old  # the saved state is not changed
    assert new == st
    assert E.legal_actions(new, 0) == E.legal_actions(st, 0)
    assert E.view(new, None) == E.view(st, None)
    nxt, _ = act(new, 0, "pass")
    assert nxt["schema"] == SCHEMA
    assert end_round(new)["start"] == 1


def test_a_schema_1_claimed_next_start_still_starts_the_next_round():
    st = game(3)
    old = _as_schema_1(st, 2)  # the old chronometer: seat 2 starts the next round
    assert E.upgrade(old)["marker"] == 1
    assert end_round(E.upgrade(old))["start"] == 2


def test_the_current_schema_is_returned_as_it_is():
    st = game(2)
    assert E.upgrade(st) is st


def test_auto_powers_a_turbine_beside_other_tile_taking_components():
    # the suggested order ranks the Turbine's choices next to the Librarifier's (found by a playout)
    from bot.games.steamworks import geometry as geo

    for r in range(4):
        tiles = [T("src_C", 0, 0), T("innovation_turbine", 0, 1), T("librarifier", 1, 0, r)]
        if len(geo.powered(tiles, (0, 0))) == 2:
            break
    st = game(3)
    did = add_device(st, 1, tiles)
    n = len(st["players"][0]["tiles"])
    st, _ = act(st, 0, "place", f"dev:{did}:0,0")
    st, _ = act(st, 0, "auto")
    assert st["phase"] == "main" and len(st["players"][0]["tiles"]) == n + 2
