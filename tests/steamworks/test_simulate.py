"""The balance simulation runs (one game for two and for three players) and reports shares that add up."""
from bot.games.steamworks.simulate import run


def test_simulation_reports_win_shares():
    res = run(1, base_seed=3, workers=1, counts=[2, 3])
    assert sorted(res) == [2, 3]
    for seats, r in res.items():
        assert abs(sum(r["seat"]) - 1.0) < 1e-9
        assert r["rounds"] > 3 and r["persona"] and r["tile"]
