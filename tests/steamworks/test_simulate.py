"""The balance simulation runs (one game for two and for three players) and reports shares that add up."""
from bot.games.steamworks.simulate import run


def test_simulation_reports_win_shares():
    res = run(1, base_seed=3, workers=1, counts=[2, 3])
    assert sorted(res) == [2, 3]
    for seats, r in res.items():
        assert abs(sum(r["seat"]) - 1.0) < 1e-9
        assert r["rounds"] > 3 and r["persona"] and r["tile"]


def test_balance_report_gives_persona_position_count_and_tile_figures():
    from bot.games.steamworks.balance import report, simulate
    recs = simulate(1, base_seed=5, workers=1, counts=[2, 3])
    assert len(recs) == 5 and abs(sum(r["fair"] for r in recs if r["seats"] == 3) - 3.0) < 1e-9
    rep = report(recs)
    assert sorted(rep["counts"]) == [2, 3]
    assert len(rep["counts"][3]["position"]) == 3 and len(rep["counts"][3]["last"]) == 3
    assert rep["persona"] and rep["worst_persona"] >= 0 and rep["worst_position"] >= 0
