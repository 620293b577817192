"""The arena's results file (`python -m bot arena --results FILE`): a long run spread over several
sittings plays every game once, and counts only games the current code played."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bot.tools import arena


def kept_lines(path: Path, kind: str, games: int, code: str) -> None:
    with path.open("a") as out:
        for i, (figure, _, players, _) in enumerate(arena.matches(kind, games)):
            places = list(range(1, len(players) + 1))  # seat 0 wins every game
            row = {"kind": kind, "seed": 100003 + i, "code": code, "places": places, "times": {"strong": [0.5]}}
            out.write(json.dumps(row) + "\n")


def test_kept_games_are_reported_without_playing_them(tmp_path, monkeypatch, capsys):
    path = tmp_path / "arena.jsonl"
    kept_lines(path, "pon", 1, arena.code_fingerprint("pon"))

    def refuse(*args):
        raise AssertionError("a kept game was played again")

    monkeypatch.setattr(arena, "play_kept", refuse)
    assert arena.main(["--games", "1", "--only", "pon", "--workers", "1", "--results", str(path)]) == 0
    out = capsys.readouterr().out
    assert "ai_pon_strong_share_vs_auto_games: 1 games" in out
    assert "ai_pon_strong_decision_p95_s: 0.500 s" in out


def test_games_of_other_code_are_not_counted(tmp_path):
    path = tmp_path / "arena.jsonl"
    kept_lines(path, "pon", 1, "an older fingerprint")
    kept = arena.ResultsFile(path)
    assert kept.get("pon", 100003, arena.code_fingerprint("pon")) is None
    assert kept.get("pon", 100003, "an older fingerprint") is not None
    assert arena.code_fingerprint("pon") != arena.code_fingerprint("heat")


def test_a_game_is_kept_as_soon_as_it_ends(tmp_path, monkeypatch):
    path = tmp_path / "arena.jsonl"
    monkeypatch.setattr(arena, "_one", lambda job: ("table", "strong", job[4], arena.Result([2, 1, 3], {})))
    kept = arena.ResultsFile(path)
    with ThreadPoolExecutor(1) as pool:
        future = arena.play_kept(pool, kept, "pon", 7, "code", ("table", "strong", ["strong", "auto", "auto"], {}))
        future.result()
    pool.shutdown(wait=True)
    assert arena.ResultsFile(path).get("pon", 7, "code") == arena.Result([2, 1, 3], {})


@pytest.mark.parametrize("kind", arena.KINDS)
def test_every_game_has_a_fingerprint(kind):
    assert len(arena.code_fingerprint(kind)) == 16


def test_figures_play_only_the_figures_asked_for_with_the_full_runs_seeds(tmp_path, monkeypatch, capsys):
    path = tmp_path / "arena.jsonl"
    kept_lines(path, "pon", 1, arena.code_fingerprint("pon"))  # the ladder's game is kept at its full-run seed
    monkeypatch.setattr(arena, "play_kept", lambda *a: (_ for _ in ()).throw(AssertionError("played")))
    argv = ["--games", "1", "--only", "pon", "--workers", "1", "--results", str(path), "--figures", "ladder"]
    assert arena.main(argv) == 0
    out = capsys.readouterr().out
    assert "ai_pon_ladder_strong_share_games: 1 games" in out
    assert "strong_share_vs_auto" not in out


def test_the_decision_time_percentile():
    assert arena.percentile([0.3, 0.1, 0.2], 0.5) == 0.2
    assert arena.percentile(list(range(100)), 0.95) == 95
    assert arena.percentile([], 0.95) == 0.0
