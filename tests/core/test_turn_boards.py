"""A turn's board is drawn once, when the turn begins (bot/table.py plan: a new view "turn"), and
stays up in the thread while the turn's moves come in; only the post's text is edited, and its
"Waiting for" line says who is to act now. So a board must not say who is still to act: along
seeded games of every kind, the board drawn at a turn's start is the same image with the seats
waiting at any later moment of that turn (Heat's cards, Pole Position's qualifying and tyre
choices, PON's players taking their main phases in a course)."""

from __future__ import annotations

import pytest

from bot.games.registry import engines
from bot.tools.arena import KINDS, OPTIONS  # (the five games, and the options the arena plays them with)
from rendering.registry import renderer

WAITING_KEYS = ("waiting_for", "to_act", "actor")  # where a spectator view names who is to act
NAMES = ["Alice", "Bob", "Cy"]
CHECKS = 6  # moments checked per game (each renders a board)


def _later_moments(kind: str, seed: int):
    """(the view a turn's board is drawn from, a view later in the same turn whose waiting seats
    differ), along a seeded game of the automatic player."""
    engine = engines()[kind]
    state = engine.new_game(engine.validate_options(dict(OPTIONS.get(kind, {})), 3), 3, seed)
    drawn = engine.view(state, None)
    for _ in range(5000):
        if engine.is_over(state):
            return
        seat = engine.to_act(state)[0]
        state, _ = engine.apply(state, seat, engine.auto_action(state, seat))
        now = engine.view(state, None)
        if now.get("turn") != drawn.get("turn") or engine.is_over(state):
            drawn = now  # a new turn: the table posts a new board
        elif any(now.get(k) != drawn.get(k) for k in WAITING_KEYS):
            yield drawn, now


@pytest.mark.parametrize("kind", KINDS)
def test_a_turns_board_does_not_say_who_is_still_to_act(kind):
    draw = renderer(kind).board
    checked, seen = 0, set()
    for seed in range(3):
        for drawn, later in _later_moments(kind, seed):
            if checked == CHECKS:
                break
            turn = (seed, repr(drawn.get("turn")))
            if turn in seen:  # (one moment per board, so that several turns are seen)
                continue
            seen.add(turn)
            waiting_now = {k: later[k] for k in WAITING_KEYS if k in drawn}
            assert draw({**drawn, **waiting_now}, NAMES, "en") == draw(drawn, NAMES, "en"), (kind, seed, waiting_now)
            checked += 1
    if kind in ("heat", "pon", "pole"):  # (the kinds whose turns hold moves by several seats)
        assert checked == CHECKS
