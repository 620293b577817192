"""The bench figures compute (tiny samples: the numbers themselves are not pinned)."""
from bot.games.rallyman import bench


def test_bench_figures_compute():
    assert bench.turns_per_second(0.2) > 0
    assert bench.render_ms_p95(samples=3) > 0
