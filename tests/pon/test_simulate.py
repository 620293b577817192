"""The balance simulation runs and reports (the full run is `python -m bot.games.pon.simulate`)."""

from __future__ import annotations

import io

from bot.games.pon import simulate


def test_strategies_play_full_games():
    for strategies in (["random"] * 3, ["greedy", "ponhappy", "random"], ["ponhappy"] * 4):
        result = simulate.play_game(len(strategies), 3, strategies)
        assert result["winner"] in range(len(strategies))
        assert result["snaps"]


def test_report_lists_seats_strategies_and_every_card():
    results = simulate.run(3, 30, workers=1)
    out = io.StringIO()
    stats = simulate.report(3, results, out)
    text = out.getvalue()
    assert "win rate by starting place" in text and "greedy" in text
    assert len(stats["cards"]) == 40
    assert abs(sum(stats["start"].values()) - 1) < 1e-9
