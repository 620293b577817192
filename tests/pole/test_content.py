"""Pole Position content: the seed's stated numbers, and every circuit validates on load."""

import copy
import json

import pytest

from bot.games.pole import content

RAW = json.loads((content.DATA_DIR / "circuits.json").read_text("utf-8"))


def test_eight_circuits_of_the_seed():
    cs = content.circuits()
    assert [c.name for c in cs.values()] == [
        "Great Britain",
        "Monaco",
        "Brazil",
        "China",
        "Spain",
        "USA",
        "Italy",
        "Germany",
    ]


@pytest.mark.parametrize("key", content.CIRCUIT_KEYS)
def test_circuit_structure(key):
    c = content.circuits()[key]
    assert c.laps >= 4 and len(c.weather_a) == 36 and c.weather_b in (5, 6)
    assert any(co.technical for co in c.corners) and any(not co.technical for co in c.corners)
    for co in c.corners:
        # a corner ends on the row of its last shaded cell; its arrow is on the row before it
        assert co.line[-1][0] == co.last and co.arrow[0] == co.first - 1
        assert c.rows[co.arrow[0]].corner == -1
    assert len(c.points) == c.length
    # low-grip areas only where the seed's appendix 4 says (Italy, Germany)
    assert bool(c.low_grip) == (key in ("italy", "germany"))


def test_some_circuit_narrows():
    assert any(len(r.lanes) < 3 for c in content.circuits().values() for r in c.rows)
    assert any(len(r.lanes) == 1 for r in content.circuits()["monaco"].rows)


def test_rules_numbers_from_the_seed():
    r = content.rules()
    assert r["start_points"] == {"ep": 7, "bp": 7, "sp": 9}
    assert r["tyres"]["hard"]["life"] == 4 and r["tyres"]["soft"]["life"] == 2
    assert r["wear"]["dry"]["inter"] == 2
    assert r["course_out"]["light"] == {"soft": 9, "hard": 8} and r["course_out"]["heavy"]["hard"] == 7
    # the seed's rolls exist on the dice: 9, 10, 11 on soft/hard; purple 3, 4, 6
    assert {9, 10, 11} <= set(r["dice"]["red"]) and {10} <= set(r["dice"]["white"])
    assert {3, 4, 6} <= set(r["dice"]["purple"])
    # dry dice roll higher than wet ones (seed 6)
    assert min(r["dice"]["white"]) > min(r["dice"]["green"]) > min(r["dice"]["blue"])


@pytest.mark.parametrize(
    "breaker",
    [
        lambda c: c["segments"][1].update(line=[[0, 0]]),  # line not ending on the last row
        lambda c: c["segments"][1].update(arrow_lane=7),
        lambda c: c.update(weather_b=4),
        lambda c: c.update(weather_a=c["weather_a"][:5]),
        lambda c: c["segments"].insert(2, copy.deepcopy(c["segments"][1])),  # two corners with no straight
        lambda c: c.update(grid=c["grid"][:5]),
        lambda c: c["pit"].update(entry_row=3),
    ],
)
def test_bad_circuit_data_is_refused(breaker):
    raw = copy.deepcopy(RAW["circuits"]["great_britain"])
    breaker(raw)
    with pytest.raises(ValueError):
        content.circuit_from("broken", raw)
