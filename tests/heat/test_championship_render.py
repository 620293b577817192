"""Championship images: the standings (with the market, and final), the race board's press
corners and event strip, sponsorship cards in the hand; readable at the phone's 390 px."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.games.heat import ENGINE as E
from rendering import heat as R
from rendering.common import MIN_PHONE_TEXT, PHONE_W, recording
from tests.heat.helpers import setcar
from tests.heat.championships import through_market

NAMES = ["ゆきこ", "José Müller", "Ωmega", "山田太郎", "Alice", "Zoë"]


def _check(png: bytes, texts: list[dict]) -> Image.Image:
    im = Image.open(io.BytesIO(png))
    assert im.width == 800 and im.height <= 2 * im.width
    for t in texts:
        if t.get("kind") == "text" and t["text"].strip():
            assert t["size"] * PHONE_W / t["image_w"] >= MIN_PHONE_TEXT, t["text"]
    return im


def _play_until(st, cond, seed=1):
    rnd = random.Random(seed)
    while not cond(st):
        s = E.to_act(st)[0]
        st, _ = E.apply(st, s, rnd.choice([a for a in E.legal_actions(st, s) if a["type"] != "prefs"]))
    return st


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_standings_with_the_market_and_the_final(locale):
    st = E.new_game({"track": "usa", "championship": "custom", "races": 2}, 6, 3)
    with recording() as rec:
        png = R.render_board(E.view(st, None), NAMES, locale)
    _check(png, rec)
    st = _play_until(st, lambda s: s["champ"]["race"] == 1)
    assert st["phase"] == "market"
    with recording() as rec:
        png = R.render_board(E.view(st, None), NAMES, locale)
    im = _check(png, rec)
    top = str(max(st["champ"]["points"]))
    assert any(top == t["text"] for t in rec if t.get("kind") == "text")  # the leader's points
    st = _play_until(st, E.is_over)
    with recording() as rec:
        png = R.render_results(E.view(st, None), NAMES, locale)
    _check(png, rec)
    assert im.height > 600


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_board_shows_press_corners_and_hand_sponsors(locale):
    st = through_market(E.new_game({"track": "usa", "championship": "1963"}, 2, 4))
    setcar(st, 0, pos=8, lane=1, hand=["sp1", "sp2", "sp3", "sp4", "sp5", "sp6", "speed3"])
    setcar(st, 1, pos=6, lane=2)
    with recording() as rec:
        png = R.render_board(E.view(st, None), NAMES, locale)
    _check(png, rec)
    texts = [t["text"] for t in rec if t.get("kind") == "text"]
    press = "Press" if locale == "en" else "プレス席"
    assert texts.count(press) == 1  # the tag on the map by corner 1
    assert any(t.startswith(press + ":") or t.startswith(press + "：") for t in texts)  # the strip
    with recording() as rec:
        png = R.render_hand(E.view(st, 0), NAMES, locale)
    _check(png, rec)
    texts = [t["text"] for t in rec if t.get("kind") == "text"]
    assert texts.count("1×") == 6  # each sponsorship card says it is used once
