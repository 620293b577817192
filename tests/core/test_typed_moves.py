"""A move typed into /<game> play: case, width and spacing do not matter, a prefix only one move has
is enough, and a player with nothing to do is told whose move it is (issue #27)."""

from __future__ import annotations

import pytest

from bot.__main__ import main
from bot.errors import PlayerError
from bot.i18n import render
from bot.picks import typed_move

LABELS = [("Keep my roll", "keep"), ("Spend 1 SP for two more rolls", "spend"), ("Spend 2 SP", "spend2")]


@pytest.mark.parametrize("typed", ["Keep my roll", "keep my roll", "ＫＥＥＰ　ｍｙ roll", "  keep  my roll ", "kee"])
def test_a_label_typed_loosely_or_a_unique_prefix_is_the_move(typed):
    assert typed_move(typed, LABELS) == ["keep"]


def test_a_prefix_of_several_moves_names_them():
    with pytest.raises(PlayerError) as err:
        typed_move("spend", LABELS)
    text = render(err.value.args[0], "en")
    assert "Spend 1 SP for two more rolls" in text and "Spend 2 SP" in text and "Type more" in text


def test_a_move_that_is_not_there_is_refused():
    with pytest.raises(PlayerError) as err:
        typed_move("reroll", LABELS)
    assert "is not a move you can make now" in render(err.value.args[0], "en")


@pytest.mark.parametrize("command", ["bench", "campaign", "store", "sandbox"])
def test_every_sub_command_answers_help(command, capsys):
    assert main([command, "--help"]) == 0
    assert f"python -m bot {command}" in capsys.readouterr().out
