"""The balance simulation runs (one game for two and for three players) and reports shares that add
up; the strategies differ as they say, and the tile test's favouring seat really goes for its tile."""

import random

from bot.tools.bench.steamworks_balance import STACK_TILES, report, simulate, table
from bot.games.steamworks.engine import ENGINE as E
from bot.games.steamworks.simulate import GREEDY, STYLES, choose, favouring, place_value, play, run


def test_simulation_reports_win_shares():
    res = run(1, base_seed=3, workers=1, counts=[2, 3])
    assert sorted(res) == [2, 3]
    for seats, r in res.items():
        assert abs(sum(r["seat"]) - 1.0) < 1e-9
        assert r["rounds"] > 3 and r["persona"] and r["tile"]


def test_balance_report_gives_persona_position_strategy_and_tile_figures():
    recs = simulate(1, base_seed=5, workers=1, counts=[2, 3], kind="tiles")
    assert len(recs) == 5 and abs(sum(r["fair"] for r in recs if r["seats"] == 3) - 3.0) < 1e-9
    assert sum(1 for r in recs if r["favourite"]) == 2  # one favouring seat per game
    rep = report(recs)
    assert sorted(rep["counts"]) == [2, 3]
    assert len(rep["counts"][3]["position"]) == 3 and len(rep["counts"][3]["last"]) == 3
    ratio, se, n = rep["counts"][3]["position"][0]
    assert n == 1 and ratio in (0.0, 3.0, 1.5, 1.0)
    assert sum(v[2] for v in rep["persona"].values()) == 5
    assert set(rep["style"]) == {"greedy", "favour"}
    assert sum(v["n"] for v in rep["tiles"].values()) == 2 and all(v["built"] >= 0 for v in rep["tiles"].values())
    assert rep["worst_persona"] >= 0 and rep["worst_position"] >= 0 and rep["worst_tile"][0] in rep["tiles"]


def test_tables_rotate_the_favoured_tile_and_seat_and_mix_the_strategies():
    n = len(STACK_TILES)
    seen = set()
    for seed in range(3 * n):
        styles = table("tiles", 3, seed)
        (seat,) = [s for s, st in enumerate(styles) if st.favourite]
        seen.add((styles[seat].favourite, seat))
    assert len(seen) == 3 * n  # every tile from every seat, once
    one = [table("tiles", 3, seed, "aether_engine") for seed in range(3)]
    assert [[st.favourite for st in styles] for styles in one] == [
        ["aether_engine", None, None],
        [None, "aether_engine", None],
        [None, None, "aether_engine"],
    ]
    mixed = {st.name for seed in range(40) for st in table("mixed", 4, seed)}
    assert mixed == set(STYLES) and table("greedy", 2, 7) == [GREEDY, GREEDY]


def _belt_with(tid: str):
    st = E.new_game({}, 2, 5)
    st["belts"]["1"] = [tid, "steam_bank", "monetiser"]  # the favourite on the left, not the rightmost
    return st, E.active(st)


def test_the_favouring_seat_pays_for_its_tile_and_greedy_does_not():
    st, seat = _belt_with("distiller")
    fav = choose(st, seat, random.Random(1), favouring("distiller"))
    assert fav == {"type": "place", "choice": "workshop:1:0"}
    plain = choose(st, seat, random.Random(1), GREEDY)
    assert plain.get("choice") != "workshop:1:0"


def test_the_miser_keeps_its_money_where_others_pay():
    st, seat = _belt_with("distiller")
    st["used"][seat] = 1  # the second mechanic: £2 to place, and only the Patent Office is free
    st["occupied"] = {f"p{seat}:{space}": seat for space in ("tile", "build", "source")}
    assert choose(st, seat, random.Random(2), STYLES["miser"]) == {"type": "pass"}
    assert choose(st, seat, random.Random(2), favouring("distiller"))["choice"] == "workshop:1:0"


def test_a_favoured_tile_ends_up_built_more_often():
    tid, games = "monetiser", 6
    fav_built = plain_built = 0
    for g in range(games):
        st = play(2, 900 + g, [favouring(tid), GREEDY])
        owned = [{pt["t"] for d in st["devices"] if d["owner"] == s for pt in d["tiles"]} for s in (0, 1)]
        fav_built += tid in owned[0]
        plain_built += tid in owned[1]
    assert fav_built >= games // 2 and fav_built > plain_built


def test_greedy_takes_the_source_its_components_wait_for():
    st = E.new_game({}, 2, 5)
    seat = E.active(st)
    pl = st["players"][seat]
    pl["tiles"], pl["sources"] = ["monetiser"], {"C": 0, "S": 1, "E": 0}  # clockwork lines, a steam source
    value = {p: place_value(st, seat, f"source:{p}") for p in "CSE"}
    assert value["C"] > value["S"] == value["E"]  # no component takes steam or electrickal
    pl["sources"]["C"] = 1
    assert place_value(st, seat, "source:C") < value["C"]  # one clockwork source is enough for one component
