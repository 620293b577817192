"""Issue #8, deciding from the DM: the Heat submission menu offers whole plans, each saying what it
does if nobody else moves (spaces, the corner's Heat or the next corner ahead, a spin when the
Engine cannot pay, the 2-gear shift's Heat), and every plan is a legal submission."""

from __future__ import annotations

from bot.games.heat import ENGINE as E
from bot.games.heat import rules
from bot.games.heat.plans import preview
from bot.i18n import render


def _race(seats=2, seed=4):
    return E.new_game(E.validate_options({"track": "usa"}, seats), seats, seed)


def _plans(st, seat):
    return next(
        g for g in E.menu(st, seat) if g["kind"] == "select" and "Whole plans" in render(g["placeholder"], "en")
    )


def _set_hand(st, seat, codes):
    """The seat's hand made of these card types (ids taken from anywhere in the race's cards)."""
    ids = []
    for code in codes:
        ids.append(next(i for i, c in enumerate(st["cards"]) if c == code and i not in ids))
    st["cars"][seat]["hand"] = ids
    return ids


def test_every_plan_is_a_legal_submission_and_the_menu_fits_discord():
    st = _race(3, 7)
    checked = 0
    while not E.is_over(st) and checked < 60:
        seat = E.to_act(st)[0]
        if st["phase"] == "submit":
            menu = E.menu(st, seat)
            rows = sum(1 for g in menu if g["kind"] == "select") + sum(
                -(-len(g["options"]) // 5) for g in menu if g["kind"] == "buttons"
            )
            assert rows <= 5
            plans = _plans(st, seat)
            assert 1 <= len(plans["options"]) <= 25
            for option in plans["options"]:
                E.apply(st, seat, dict(plans["action"], values=[option["value"]]))  # raises if illegal
                checked += 1
        st, _ = E.apply(st, seat, E.auto_action(st, seat))
    assert checked >= 60


def test_a_plan_says_the_corner_heat_and_the_spin():
    st = _race()
    car = st["cars"][0]
    tr = rules.track_of(st)
    line, _, limit = tr.lines[1]  # a corner with limit 3
    assert limit == 3
    car["pos"], car["gear"] = line - 2, 2
    fast = _set_hand(st, 0, ["speed4", "speed3", "speed1", "speed2", "speed3"])[:2]  # 7 > limit 3
    assert render(preview(st, 0, fast), "en") == "7 spaces; corner 2 (limit 3): 4 Heat"
    car["engine"] = car["engine"][:2]
    assert render(preview(st, 0, fast), "en") == "7 spaces; corner 2 (limit 3): 4 Heat, you have 2: spin!"
    slow = fast[1:] + [car["hand"][2]]  # 3 + 1 = 4: over by 1
    assert render(preview(st, 0, slow), "en") == "4 spaces; corner 2 (limit 3): 1 Heat"
    short = [car["hand"][2]]  # 1 space: stops before the line
    assert render(preview(st, 0, short), "en") == "1 space; corner 2 (limit 3) 2 spaces ahead"


def test_a_plan_names_every_corner_it_crosses_and_never_says_in_0():
    # Issue #33: 8 spaces over two corners read "corner limit 2: 10 Heat"; each corner is named.
    st = _race()
    car = st["cars"][0]
    tr = rules.track_of(st)
    (l2, i2, lim2), (l3, i3, lim3) = tr.lines[2], tr.lines[3]  # corners 3 and 4: 8 spaces apart
    car["pos"], car["gear"] = l3 - 10, 3
    ids = _set_hand(st, 0, ["speed4", "speed4", "speed3", "speed1", "speed2"])[:3]  # 11 spaces, two corners
    assert car["pos"] <= l2 and car["pos"] + 11 > l3
    cost = (11 - lim2) + (11 - lim3)
    car["engine"] = car["engine"][:3]
    text = render(preview(st, 0, ids), "en")
    assert text == (
        f"11 spaces; corner {i2 + 1} (limit {lim2}): {11 - lim2} Heat, "
        f"corner {i3 + 1} (limit {lim3}): {11 - lim3} Heat; {cost} Heat, you have 3: spin!"
    ), text
    assert len(text) <= 100  # a select option's description
    # Stopping on the last space before a corner line: one more space crosses it, not "in 0".
    car["pos"] = l2 - 1
    one = [car["hand"][3]]  # a 1
    assert render(preview(st, 0, one), "en") == f"1 space; corner {i2 + 1} (limit {lim2}) 1 space ahead"
    assert "in 0" not in render(preview(st, 0, one), "en")


def test_a_two_gear_shift_says_its_heat_and_pays_it_before_the_corners():
    st = _race()
    car = st["cars"][0]
    tr = rules.track_of(st)
    line, _, _ = tr.lines[1]
    car["pos"], car["gear"] = line - 2, 1
    ids = _set_hand(st, 0, ["speed2", "speed2", "speed1", "speed3", "speed3"])[:3]  # gear 3: 5 spaces, over by 2
    car["engine"] = car["engine"][:2]  # 1 for the shift leaves 1 for a 2-Heat corner
    assert render(preview(st, 0, ids), "en") == "5 spaces; corner 2 (limit 3): 2 Heat, you have 1: spin!"
    option = next(
        o
        for o in _plans(st, 0)["options"]
        if o["value"] == ",".join(map(str, ids)) or sorted(o["value"].split(",")) == sorted(map(str, ids))
    )
    assert "2-gear shift: 1 Heat" in render(option["label"], "en")


def test_unknown_speeds_and_the_finish():
    st = _race()
    car = st["cars"][0]
    ids = _set_hand(st, 0, ["speed4", "stress", "speed1", "speed2", "speed3"])
    assert render(preview(st, 0, ids[:2]), "en").startswith("4+? spaces")
    car["pos"] = rules.track_of(st).finish - 2
    assert render(preview(st, 0, ids[:1]), "en") == "4 spaces: over the finish line"


def test_a_plan_over_three_corners_still_fits_a_select_description():
    """Japan's chicane: three corner lines within a few spaces; each is named, the line fits."""
    st = E.new_game(E.validate_options({"track": "japan"}, 2), 2, 4)
    car = st["cars"][0]
    tr = rules.track_of(st)
    for i in range(len(tr.lines) - 2):
        if tr.lines[i + 2][0] - tr.lines[i][0] <= 14:
            break
    else:
        raise AssertionError("no three corner lines within 14 spaces")
    car["pos"], car["gear"] = tr.lines[i][0], 4
    ids = _set_hand(st, 0, ["speed4", "speed4", "speed4", "speed3", "speed2"])[:4]  # 15 spaces
    car["engine"] = car["engine"][:2]
    text = render(preview(st, 0, ids), "en")
    assert [f"corner {tr.lines[i + k][1] + 1}:" in text for k in range(3)] == [True] * 3, text
    assert text.endswith("spin!") and len(text) <= 100, text
    assert len(render(preview(st, 0, ids), "ja")) <= 100
