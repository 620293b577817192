"""Tournament mode (seed 000 「トーナメントモード」): no step 1; in step 3 each car shows how many
cards it played, then shifts to that gear (1 Heat for 2 gears, paid then)."""

from __future__ import annotations

from bot.games.heat import ENGINE as E
from tests.heat.helpers import en, round_, setcar


def new(**opts):
    return E.new_game({"track": "usa", "grid": "seats", "tournament": True, **opts}, 2, 1)


def test_option_and_lobby_text():
    assert E.validate_options({"tournament": True}, 2)["tournament"] is True
    assert "tournament" not in E.validate_options({}, 2)
    assert "tournament mode" in en(E.describe_options(E.validate_options({"tournament": True}, 2)))
    assert new()["tournament"] is True and E.view(new(), None)["tournament"] is True


def test_card_counts_shown_then_the_gear_shifts_in_step_three():
    st = new()
    setcar(
        st,
        0,
        pos=10,
        lane=1,
        gear=1,
        hand=["speed2"] * 5 + ["heat"] * 2,
        deck=["speed1"] * 10,
        engine=6,
        prefs={"cooldown": "ask"},
    )
    setcar(
        st, 1, pos=5, lane=1, gear=2, hand=["speed1"] * 7, deck=["speed1"] * 10, engine=6, prefs={"slipstream": "never"}
    )
    st, _ = E.apply(st, 1, {"type": "submit", "cards": st["cars"][1]["hand"][:4]})  # 2 -> 4: 2 gears
    assert st["cars"][1]["gear"] == 2  # no step 1: the gear stays until step 3
    st, ev = E.apply(st, 0, {"type": "submit", "cards": st["cars"][0]["hand"][:1]})
    texts = en([e.text for e in ev if e.to is None])
    assert any(t.startswith("Cards played:") and "4" in t and "1" in t for t in texts)
    # Seat 0 leads and pauses (its cooldown question): seat 1 has not shifted yet.
    assert st["phase"] == "decide" and st["pending"]["seat"] == 0
    assert st["cars"][1]["gear"] == 2 and len(st["cars"][1]["engine"]) == 6
    assert E.view(st, None)["cars"][1]["gear"] == 2
    st, ev = E.apply(st, 0, {"type": "cooldown", "cards": []})
    assert st["cars"][1]["gear"] == 4 and len(st["cars"][1]["engine"]) == 5
    assert any("Shifted 2 gears (2 → 4): 1 Heat" in t for t in en([e.text for e in ev]))


def test_same_moves_as_a_normal_race_otherwise():
    a = E.new_game({"track": "usa", "grid": "seats"}, 2, 3)
    b = E.new_game({"track": "usa", "grid": "seats", "tournament": True}, 2, 3)
    for _ in range(3):
        a, _ = round_(a, {})
        b, _ = round_(b, {})
    assert [c["pos"] for c in a["cars"]] == [c["pos"] for c in b["cars"]]
    assert [c["gear"] for c in a["cars"]] == [c["gear"] for c in b["cars"]]
