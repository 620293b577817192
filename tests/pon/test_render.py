"""The PON renderer turns any engine view into a valid, phone-sized PNG."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.games.pon import ENGINE as E
from bot.games.pon.simulate import choose
from rendering import pon as R
from rendering.common import clean_text

NAMES = ["Alice", "Bob the Builder with a very long name", "千代 Chiyo", "Dmitri 🚗"]


def states(seats, seed):
    """A few states of one game: setup, early, a block or PON window if met, the end."""
    rnd = random.Random(seed)
    st = E.new_game({}, seats, seed)
    for s in range(seats):
        st, _ = E.apply(st, s, {"type": "prefs", "pon": {n: "ask" for n in "1234"}, "block": "ask"})
    out = {"peek": st}
    while not E.is_over(st):
        seat = rnd.choice(E.to_act(st))
        st, _ = E.apply(st, seat, choose(st, seat, "greedy", rnd))
        out.setdefault(st["phase"], st)
    out["over"] = st
    return out


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.verify()
    return Image.open(io.BytesIO(data)).size


@pytest.mark.parametrize("seats", [3, 4])
def test_board_and_hand_images(seats):
    found = states(seats, 21)
    assert {"peek", "play", "pon", "block", "over"} <= set(found)
    for stage, st in found.items():
        w, h = png_size(R.render_board(E.view(st, None), NAMES[:seats]))
        assert w == R.W == 800 and 600 < h < 2000, (stage, h)
        for seat in range(seats):
            w, h = png_size(R.render_hand(E.view(st, seat), NAMES[:seats]))
            assert w == 800 and 300 < h < 1600
    w, h = png_size(R.render_results(E.view(found["over"], None), NAMES[:seats]))
    assert w == 800 and 300 < h < 1000


def test_renderer_tolerates_sparse_views_and_missing_names():
    assert png_size(R.render_board({}, []))[0] == 800
    assert png_size(R.render_hand({}, []))[0] == 800
    assert png_size(R.render_results({}, []))[0] == 800
    st = states(3, 5)["play"]
    png_size(R.render_board(E.view(st, None), []))


def test_text_cleaning_and_names_in_the_log():
    assert clean_text("Course effect — Hairpin") == "Course effect - Hairpin"
    assert R._with_names("<seat:1> overtakes <seat:0>; PON!", ["Ann", "Ben"]) == "Ben overtakes Ann; PON!"
    assert clean_text("🚗", "x") == "x"


def test_japanese_and_accented_names_are_drawn():
    st = states(3, 5)["play"]
    fallback = R.render_board(E.view(st, None), ["🚗", "Ben", "Cy"])
    for name in ["ゆきこ", "José Müller", "山田太郎", "Zoë 🚀"]:
        assert R.render_board(E.view(st, None), [name, "Ben", "Cy"]) != fallback, name
        assert R.render_hand(E.view(st, 0), [name, "Ben", "Cy"]) != R.render_hand(E.view(st, 0), ["🚗", "Ben", "Cy"])
    assert clean_text("Zoë 🚀", "P1") == "Zoë"


def test_the_board_is_at_most_twice_as_tall_as_wide_and_says_what_tile_numbers_are():
    """Issue #33: the board was 1,640 px tall for 800 wide; like the other games' boards it is
    at most twice as tall as wide, the latest log lines giving way when a turn says a lot. The
    circuit's caption says which number is the course's and which are its throttle's cards."""
    from bot.tools.bench.pon import seeded_states
    from rendering.common import recording

    for st in seeded_states(12)[::3]:
        w, h = Image.open(io.BytesIO(R.render_board(E.view(st, None), NAMES))).size
        assert h <= 2 * w, (w, h)
    st = next(s for s in seeded_states(12) if s["seats"] == 4 and s["phase"] != "over")
    view = E.view(st, None)  # four players, and (drawn from any view) a circuit of 12 courses
    view["courses"] = view["courses"] + [dict(c, index=10 + i) for i, c in enumerate(view["courses"][:2])]
    view["log"] = ["A long line of the log that wraps over two lines of the board at this width, " * 2] * 12
    view["overtake"] = {
        "attacker": 1,
        "defender": 0,
        "cards_needed": 2,
        "numbers": [3, 3],
        "any": 1,
        "with_block_right": 1,
    }
    view["window"] = {"number": 3}
    view["mods"] = {"block_extra": True, "no_pon": True, "no_slipstream": True, "hand_limit": 4}
    view["pon_sets"] = {str(s): [[1, 1], [2, 2, 2]] for s in range(4)}
    with recording() as drawn:
        png = R.render_board(view, NAMES)
    w, h = Image.open(io.BytesIO(png)).size
    assert h <= 2 * w, (w, h)
    # Even a circuit of 16 courses (four rows) stays within it: the log gives way.
    view["courses"] = view["courses"] + [dict(c, index=12 + i) for i, c in enumerate(view["courses"][:4])]
    w, h = Image.open(io.BytesIO(R.render_board(view, NAMES))).size
    assert h <= 2 * w, (w, h)
    assert any(t.get("text", "").startswith("Circuit · top right: course number") for t in drawn)
