"""Images: board, hand (with the plan being built) and results render for games in progress on
short and long stages, in English and Japanese, at a phone-friendly width."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.games.rallyman import rules as R
from bot.games.rallyman.engine import ENGINE as E
from rendering import rallyman as RR

NAMES = ["Alice", "ボブ", "Charlie", "Dana", "Eve", "Frank"]


def _advance(stage, seats, moves, seed=3):
    st = E.new_game({"stage": stage}, seats, seed)
    rnd = random.Random(seed)
    for _ in range(moves):
        if E.is_over(st):
            break
        seat = E.to_act(st)[0]
        acts = [a for a in E.legal_actions(st, seat) if a["type"] not in ("add", "undo", "clear", "prefs")]
        st, _ = E.apply(st, seat, rnd.choice(acts))
    return st


def _png(data):
    img = Image.open(io.BytesIO(data))
    assert img.width == RR.W and img.height > RR.MAP_H
    return img


def test_board_and_hand_render_in_both_languages():
    for stage, seats in (("Rally4 SS1", 3), ("Rally9 SS1", 6)):
        st = _advance(stage, seats, 15)  # mid-stage: a plan chosen rolls on by itself
        for locale in ("en", "ja"):
            _png(RR.render_board(E.view(st, None), NAMES[:seats], locale))
            seat = E.to_act(st)[0]
            _png(RR.render_hand(E.view(st, seat), NAMES[:seats], locale))


def test_hand_shows_the_draft():
    st = E.new_game({"stage": "Rally1 SS1"}, 2, 1)
    seat = E.to_act(st)[0]
    add = next(a for a in E.legal_actions(st, seat) if a["type"] == "add")
    st, _ = E.apply(st, seat, add)
    v = E.view(st, seat)
    assert v["draft"] and "draft" not in E.view(st, None)
    assert RR.render_hand(v, NAMES[:2], "en") != RR.render_hand(E.view(st, None), NAMES[:2], "en")


def test_long_stage_zooms_to_the_cars():
    from bot.games.rallyman import board as B

    st = B.stage("Rally9 SS1")
    whole = RR._Map(st, [], [], RR.W, RR.MAP_H)
    assert whole.s == RR.SCALE  # too big to show whole at a readable scale: zoomed
    finish = [s.id for s in st.spaces if s.finish]
    near_end = RR._Map(st, finish, finish, RR.W, RR.MAP_H)
    x, y = near_end.p(st.spaces[finish[0]].x, st.spaces[finish[0]].y)
    assert 0 <= x <= RR.W and 0 <= y <= RR.MAP_H


def test_results_image():
    st = _advance("Rally4 SS1", 2, 5000)
    assert E.is_over(st)
    img = Image.open(io.BytesIO(RR.render_results(E.view(st, None), NAMES[:2], "ja")))
    assert img.width == RR.W and img.height == 80 + RR.ROW_H * 2


def test_dm_shows_the_plan_lists_first_entry_before_a_choice():
    st = E.new_game({"stage": "Rally1 SS1"}, 2, 1)
    seat = E.to_act(st)[0]
    v = E.view(st, seat)
    first = E.menu(st, seat)[0]["options"][0]["value"]
    assert R.encode(v["preview"]) == first
    assert "preview" not in E.view(st, None) and "preview" not in E.view(st, 1 - seat)  # the seat's own
    with_path = _png(RR.render_hand(v, NAMES[:2], "en"))
    without = _png(RR.render_hand({k: x for k, x in v.items() if k != "preview"}, NAMES[:2], "en"))
    assert with_path.tobytes() != without.tobytes()
