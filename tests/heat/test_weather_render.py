"""The board image with Weather and road conditions: a band under the map names the weather
tile (its setup change) and every corner's road token; the map shows the tokens by the signs
(corner tokens) and beside the road (sector tokens). Readable at phone width."""
from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.games.heat import ENGINE as E
from rendering import heat as H
from rendering.common import drawing_in, min_font, recording

NAMES = ["Alice", "Bob", "Chandra", "Dmitri", "Eve", "Fumiko"]


def _played(track, seats, seed, rounds=2):
    st = E.new_game({"track": track, "weather": True}, seats, seed)
    rnd = random.Random(seed)
    while st["round"] <= rounds and not E.is_over(st):
        seat = E.to_act(st)[0]
        st, _ = E.apply(st, seat, rnd.choice([a for a in E.legal_actions(st, seat) if a["type"] != "prefs"]))
    return st


@pytest.mark.parametrize("track", ["usa", "france", "great_britain", "italy"])
@pytest.mark.parametrize("locale", ["en", "ja"])
def test_weather_board_band_lists_tile_and_every_token(track, locale):
    st = _played(track, 4, 3)
    view = E.view(st, None)
    with recording() as rec:
        png = H.render_board(view, NAMES[:4], locale)
    image = Image.open(io.BytesIO(png))
    with drawing_in(locale):  # the chips wrap by their width in the image's language
        band = H._band_height(H._weather_items(view))
    assert band >= 2 * H.BAND_LINE
    assert image.size == H.board_size(4, band)
    texts = [r for r in rec if r["kind"] == "text"]
    assert min(r["size"] for r in texts) >= min_font(image.width)
    numbers = {r["text"] for r in texts if H.HEADER_H + H.MAP_H <= r["box"][1] < H.HEADER_H + H.MAP_H + band}
    assert {str(i + 1) for i in range(len(view["corners"]))} <= numbers  # one numbered chip per corner
    if locale == "en":
        shown = " ".join(r["text"] for r in texts)
        assert "Weather: " in shown
        for r in view["weather"]["road"]:
            assert H.english(r["effect"] or r["name"]) in shown


def test_base_board_has_no_band():
    st = E.new_game({"track": "usa"}, 3, 1)
    image = Image.open(io.BytesIO(H.render_board(E.view(st, None), NAMES[:3])))
    assert image.size == H.board_size(3)


def test_limit_tokens_show_the_changed_limit_on_the_sign_and_in_the_band():
    st = E.new_game({"track": "usa", "grid": "seats", "weather": True}, 2, 1)
    st["weather"] = {"tile": "cloud", "road": ["minus1", "plus1", "overheat", "free_boost"]}
    view = E.view(st, None)
    items = H._weather_items(view)
    assert items[1][2] == "Limit -1 (7\u21926)" and items[2][2] == "Limit +1 (3\u21924)"
    assert [c["speed"] for c in view["corners"]] == [6, 4, 3, 2]
    with recording() as rec:
        H.render_board(view, NAMES[:2])
    assert any(r["text"] == "6" for r in rec if r["kind"] == "text")  # corner 1's sign, near the grid


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_garage_hand_shows_upgrade_symbols_and_the_draft_market(locale):
    from tests.heat.helpers import setcar
    st = E.new_game({"track": "usa", "garage": "mixed"}, 3, 4)
    seat = E.to_act(st)[0]
    with recording() as rec:
        png = H.render_hand(E.view(st, seat), NAMES[:3], locale)
    image = Image.open(io.BytesIO(png))
    texts = [r for r in rec if r["kind"] == "text"]
    assert min(r["size"] for r in texts) >= min_font(image.width)
    market = E.view(st, seat)["draft"]["market"]
    assert len(market) == 6
    if locale == "en":  # each card's family label at the bottom (cut with "…" when long)
        shown = [r["text"] for r in texts]
        assert all(any(t.startswith(H.english(c["label"])[:5]) for t in shown) for c in market if c["kind"] != "heat")
    while st["phase"] == "draft":
        st, _ = E.apply(st, E.to_act(st)[0], {"type": "pick", "card": 0})
    setcar(st, 0, hand=["g28", "g40", "g19", "g44", "g31", "g36", "g03"])
    with recording() as rec:
        png = H.render_hand(E.view(st, 0), NAMES[:3], locale)
    texts = [r for r in rec if r["kind"] == "text"]
    assert min(r["size"] for r in texts) >= min_font(800)
    if locale == "en":
        shown = {r["text"] for r in texts}
        assert {"Scrap 5!", "Direct", "Accel +1", "Limit +1!", "1/2", "Gas pedal 1"} <= shown
