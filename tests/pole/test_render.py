"""Pole Position images: every phase draws in English and Japanese, from the views only."""
import io
import random

import pytest
from PIL import Image

from bot.games.pole import ENGINE as E
from rendering import pole as P
from tests.pole.test_playouts import policy

NAMES = ["Alice", "Bob", "千尋", "Dmitri", "Eve", "Fay"]


def _states(circuit="monaco", n=4, seed=5):
    rnd = random.Random(seed)
    st = E.new_game({"circuit": circuit}, n, seed)
    out = {"quali": st}
    for _ in range(4000):
        if E.is_over(st):
            break
        seat = rnd.choice(E.to_act(st))
        st, _ = E.apply(st, seat, policy(st, seat, rnd))
        out.setdefault(st["phase"], st)
        if st["phase"] == "race" and st["round"] == 12:
            out["mid"] = st
    out["over"] = st
    return out


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_every_phase_draws(locale):
    for phase, st in _states().items():
        board = Image.open(io.BytesIO(P.render_board(E.view(st, None), NAMES, locale)))
        assert board.width == 800 and board.height > 600
        hand = Image.open(io.BytesIO(P.render_hand(E.view(st, 1), NAMES, locale)))
        assert hand.width == 800
    res = Image.open(io.BytesIO(P.render_results(E.view(st, None), NAMES, locale)))
    assert res.height >= 110 + 72 * 4


@pytest.mark.parametrize("circuit", ["great_britain", "usa", "china"])
def test_each_circuit_draws(circuit):
    st = E.new_game({"circuit": circuit}, 6, 2)
    P.render_board(E.view(st, None), NAMES, "en")
