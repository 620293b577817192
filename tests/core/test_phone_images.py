"""Issue #8 / #10: every image kind of every game is readable at Discord's phone width (390 px).

How text height is measured: while `rendering.common.recording()` is on, every text a renderer
draws goes through one call that writes down its font size and glyph box (and Heat's name labels
and cars their boxes). Each image is then checked as the phone shows it, scaled to PHONE_W:
  - every text's em size, scaled, is at least MIN_PHONE_TEXT px (11 px: Discord's own smallest
    message text is about 12 px), and its glyph box lies inside the image (nothing cut off);
  - the records belong to this image (same width as the PNG), and there are plenty of them (a
    renderer that bypassed the recording would fail the count, not pass silently);
  - boards, hands and results are checked in English and Japanese with names in several scripts.
Heat's name labels are checked too: they never overlap one another and never cover a car.
"""

from __future__ import annotations

import functools
import io
import random
from collections.abc import Mapping
from itertools import combinations

import pytest
from PIL import Image

from bot.games.heat import ENGINE as HEAT
from bot.games.pon import ENGINE as PON
from bot.games.pon.simulate import choose
from rendering import heat as H
from rendering import heat_track as ht
from rendering import pon as P
from rendering.common import MIN_PHONE_TEXT, PHONE_W, min_font, recording

MIN_GLYPH = 7.5  # px: the height of a digit's ink at 11 px em is about 8
NAMES = ["ゆきこ", "José Müller", "Ωmega", "Alice", "山田太郎", "Zoë 🚀"]
CIRCUITS = sorted(p.stem for p in ht.CIRCUIT_DIR.glob("*.json"))


def _heat_views() -> dict[str, tuple]:
    """(renderer, view) for each Heat image kind from one seeded race, including a hand with its
    cards in (chosen cards marked, new gear) and a seat with a decision to make."""
    state = HEAT.new_game({"track": "usa"}, 4, 3)
    rng = random.Random(2)
    out: dict[str, tuple] = {}
    for _ in range(4000):
        if HEAT.is_over(state):
            break
        seat = rng.choice(HEAT.to_act(state))
        state, _ = HEAT.apply(state, seat, rng.choice(HEAT.legal_actions(state, seat)))
        if state["phase"] == "submit" and state["cars"][seat]["sub"] is not None:
            out.setdefault("hand_cards_in", (H.render_hand, HEAT.view(state, seat)))
        if state["phase"] == "decide":
            out.setdefault("board_decide", (H.render_board, HEAT.view(state, None)))
            out.setdefault("hand_decide", (H.render_hand, HEAT.view(state, HEAT.to_act(state)[0])))
        if state["phase"] == "submit" and state["round"] >= 4:
            out.setdefault("board_submit", (H.render_board, HEAT.view(state, None)))
            out.setdefault("hand_submit", (H.render_hand, HEAT.view(state, HEAT.to_act(state)[0])))
    assert HEAT.is_over(state)
    out["board_over"] = (H.render_board, HEAT.view(state, None))
    out["results"] = (H.render_results, HEAT.view(state, None))
    return out


def _pon_views() -> dict[str, tuple]:
    rnd = random.Random(21)
    st = PON.new_game({}, 4, 21)
    out: dict[str, tuple] = {
        "board_peek": (P.render_board, PON.view(st, None)),
        "hand_peek": (P.render_hand, PON.view(st, 0)),
    }
    while not PON.is_over(st):
        seat = rnd.choice(PON.to_act(st))
        st, _ = PON.apply(st, seat, choose(st, seat, "greedy", rnd))
        stage = st["phase"]
        out.setdefault(f"board_{stage}", (P.render_board, PON.view(st, None)))
        out.setdefault(f"hand_{stage}", (P.render_hand, PON.view(st, PON.to_act(st)[0] if PON.to_act(st) else 0)))
    out["board_over"] = (P.render_board, PON.view(st, None))
    out["results"] = (P.render_results, PON.view(st, None))
    return out


GAMES = {"heat": _heat_views, "pon": _pon_views}


@functools.cache
def _game_views(game: str) -> dict[str, tuple]:
    """One game's views, played out once per test process, on first use."""
    return {f"{game}_{k}": v for k, v in GAMES[game]().items()}


class _Cases(Mapping):
    """The views, each game's played out on first use of one of its cases, not at import (every
    xdist worker and every -k run paid for a Heat race and a PON game, issue #29); NAMES lists them
    so the tests can be parametrized without playing (test_the_games_give_every_case_named)."""

    NAMES = (
        "heat_board_decide",
        "heat_board_over",
        "heat_board_submit",
        "heat_hand_cards_in",
        "heat_hand_decide",
        "heat_hand_submit",
        "heat_results",
        "pon_board_over",
        "pon_board_peek",
        "pon_board_pick",
        "pon_board_play",
        "pon_board_salvage",
        "pon_board_slip",
        "pon_board_take",
        "pon_hand_over",
        "pon_hand_peek",
        "pon_hand_pick",
        "pon_hand_play",
        "pon_hand_salvage",
        "pon_hand_slip",
        "pon_hand_take",
        "pon_results",
    )

    def __getitem__(self, key: str) -> tuple:
        return _game_views(key.split("_", 1)[0])[key]

    def __iter__(self):
        return iter({k: None for game in GAMES for k in _game_views(game)})

    def __len__(self) -> int:
        return sum(len(_game_views(game)) for game in GAMES)


CASES = _Cases()


def test_the_games_give_every_case_named():
    assert sorted(CASES) == sorted(_Cases.NAMES)


def test_every_image_kind_is_covered():
    kinds = {name.split("_")[0] + "_" + name.split("_")[1] for name in CASES}
    assert {"heat_board", "heat_hand", "heat_results", "pon_board", "pon_hand", "pon_results"} <= kinds
    assert "heat_hand_cards_in" in CASES


def _render(case: str, locale: str, names: list[str]) -> tuple[Image.Image, list[dict]]:
    renderer, view = CASES[case]
    with recording() as rec:
        data = renderer(view, names, locale)
    return Image.open(io.BytesIO(data)), rec


@pytest.mark.parametrize("locale", ["en", "ja"])
@pytest.mark.parametrize("case", sorted(_Cases.NAMES))
def test_text_is_readable_at_phone_width(case, locale):
    image, rec = _render(case, locale, NAMES[:4])
    texts = [r for r in rec if r["kind"] == "text"]
    assert len(texts) >= 5, case  # the renderer's texts really went through the recording
    scale = PHONE_W / image.width
    for r in texts:
        assert r["image_w"] == image.width, (case, r["text"])
        assert r["size"] * scale >= MIN_PHONE_TEXT, (case, r["text"], r["size"])
        assert r["text"][0] not in "ー、。", (case, r["text"])  # Japanese lines break where they may
        x0, y0, x1, y1 = r["box"]
        assert x0 >= -1 and y0 >= -1 and x1 <= image.width + 1 and y1 <= image.height + 1, (case, r["text"], r["box"])
        if any(ch.isdigit() or "A" <= ch <= "Z" for ch in r["text"]):
            # the ink itself: a digit or a capital is at least MIN_GLYPH px tall on the phone
            assert (y1 - y0) * scale >= MIN_GLYPH, (case, r["text"], r["box"])
    assert min(r["size"] for r in texts) >= min_font(image.width)
    # an image the phone shows at 390 px is not drawn much wider than it needs
    assert image.width <= 800


def test_min_font_matches_the_phone_rule():
    assert min_font(800) == 23 and min_font(390) == 11
    assert min_font(1280) * PHONE_W / 1280 >= MIN_PHONE_TEXT


def test_japanese_and_english_texts_differ_and_names_in_any_script_are_drawn():
    for case in (
        "heat_board_decide",
        "heat_hand_cards_in",
        "heat_results",
        "pon_board_play",
        "pon_hand_play",
        "pon_results",
    ):
        _, en = _render(case, "en", NAMES[:4])
        _, ja = _render(case, "ja", NAMES[:4])
        en_texts = {r["text"] for r in en if r["kind"] == "text"}
        ja_texts = {r["text"] for r in ja if r["kind"] == "text"}
        assert en_texts != ja_texts, case
        assert any(any("\u3040" <= ch <= "\u30ff" for ch in t) for t in ja_texts if "ゆきこ" not in t), case
        drawn = " ".join(ja_texts | en_texts)
        view = CASES[case][1]
        shown = [NAMES[view["me"]["seat"]]] if "hand" in case else NAMES[:3]  # a hand names its owner
        for name in shown:
            assert name in drawn, (case, name)


# ---------------------------------------------------------------- Heat: labels never overlap


def _view(track: str, placements: list[tuple[int, int]]) -> dict:
    circuit = ht.load_circuit(track)
    cars = [
        {
            "seat": i,
            "space": s,
            "lane": lane,
            "lap": 1,
            "finished": False,
            "gear": 2,
            "engine_heat": 3,
            "revealed": ["Speed 2"],
            "speed": 4,
            "submitted": True,
        }
        for i, (s, lane) in enumerate(placements)
    ]
    return {
        "kind": "heat",
        "track": track,
        "track_name": circuit.name,
        "laps": circuit.laps,
        "spaces": circuit.spaces,
        "round": 3,
        "phase": "decide",
        "corners": [{"space": s, "speed": v} for s, v in circuit.corners],
        "cars": cars,
        "order": list(range(len(cars))),
        "waiting_for": [0],
    }


def _hairpin(track: str) -> tuple[int, int]:
    """Two spaces far apart along the circuit but nearest on the board (a hairpin's two sides)."""
    geo = ht.geometry(*H._board_key(_view(track, [])))
    n = geo.circuit.spaces
    best = None
    for a in range(1, n + 1):
        for b in range(a + 6, n + 1):
            if min(b - a, n - b + a) < 6:
                continue
            (ax, ay), (bx, by) = geo.centre[a], geo.centre[b]
            d = (ax - bx) ** 2 + (ay - by) ** 2
            if best is None or d < best[0]:
                best = (d, a, b)
    return best[1], best[2]


def _layouts(track: str) -> list[list[tuple[int, int]]]:
    n = ht.load_circuit(track).spaces
    a, b = _hairpin(track)
    out = [
        [(a, 1), (a, 2), (a - 1, 1), (b, 1), (b, 2), (b + 1, 2)],  # both sides of the hairpin
        [(a, 1), (b, 2), (a + 1, 2), (b - 1, 1)],
    ]
    for corner, _ in ht.load_circuit(track).corners:
        out.append([(corner - i // 2, 1 + i % 2) for i in range(6)])  # bunched before a corner
    rnd = random.Random(track)
    for _ in range(3):
        start = rnd.randint(1, n)
        out.append([((start + rnd.randint(0, 4) - 1) % n + 1, rnd.randint(1, 2)) for _ in range(6)])
    return out


def _hits(rect, circle_box) -> bool:
    cx, cy = (circle_box[0] + circle_box[2]) / 2, (circle_box[1] + circle_box[3]) / 2
    r = (circle_box[2] - circle_box[0]) / 2
    nx, ny = min(max(cx, rect[0]), rect[2]), min(max(cy, rect[1]), rect[3])
    return (cx - nx) ** 2 + (cy - ny) ** 2 < r * r - 1


@pytest.mark.parametrize("track", CIRCUITS)
def test_heat_labels_never_overlap_nor_hide_a_car(track):
    for placements in _layouts(track):
        view = _view(track, placements)
        with recording() as rec:
            H.render_board(view, NAMES)
        labels = [r["box"] for r in rec if r["kind"] == "label"]
        cars = [r["box"] for r in rec if r["kind"] == "car"]
        assert len(labels) == len(cars) == len(placements)
        for a, b in combinations(labels, 2):
            assert min(a[2], b[2]) <= max(a[0], b[0]) or min(a[3], b[3]) <= max(a[1], b[1]), (track, placements)
        for box in labels:
            assert 0 <= box[0] and box[2] <= H.W and H.HEADER_H <= box[1] and box[3] <= H.HEADER_H + H.MAP_H
            assert not any(_hits(box, car) for car in cars), (track, placements, box)


def test_heat_hand_marks_the_chosen_cards_and_shows_the_new_gear():
    _, view = CASES["heat_hand_cards_in"]
    sub = view["me"]["submission"]
    with recording() as rec:
        data = H.render_hand(view, NAMES)
    texts = [r["text"] for r in rec if r["kind"] == "text"]
    car = next(c for c in view["cars"] if c["seat"] == view["me"]["seat"])
    assert f"Gear {car['gear']} → {sub['gear']}" in texts
    assert texts.count("✓") == len(sub["cards"])
    image = Image.open(io.BytesIO(data)).convert("RGB")
    hand = view["me"]["hand"]
    for card, (x0, y0, _, _) in zip(hand, H.hand_card_boxes(len(hand))):
        ring = image.getpixel((int(x0) - 3, int(y0) + 60))
        assert (ring == H.CHOSEN) == (card["id"] in sub["cards"]), card


def test_heat_hand_header_says_position_and_next_corner():
    _, view = CASES["heat_hand_submit"]
    me = view["me"]
    with recording() as rec:
        H.render_hand(view, NAMES)
    texts = " | ".join(r["text"] for r in rec if r["kind"] == "text")
    nc = me["next_corner"]
    assert nc and f"limit {nc['speed']}" in texts and str(nc["distance"]) in texts
    assert f"{H._ordinal(me['position'])} of {len(view['cars'])}" in texts
    assert f"Gear {next(c for c in view['cars'] if c['seat'] == me['seat'])['gear']}" in texts


def test_heat_paid_heat_reads_as_paid():
    view = _view("usa", [(10, 1), (9, 2)])
    view["cars"][0]["heat_paid"] = 4
    with recording() as rec:
        H.render_board(view, NAMES)
    texts = [r["text"] for r in rec if r["kind"] == "text"]
    assert "paid 4 Heat" in texts and not any(t.startswith("+4") for t in texts)
    with recording() as rec:
        H.render_board(view, NAMES, "ja")
    assert "ヒート4支払い" in [r["text"] for r in rec if r["kind"] == "text"]


def test_japanese_wrapping_never_opens_a_line_with_a_long_vowel_or_stop():
    from rendering.common import font, wrap

    for text in ("メインストレートです。", "バックストレート", "カードが1枚少なくなる。"):
        for width in range(60, 260, 4):  # (two characters a line at least)
            lines = wrap(text, 24, width)
            assert "".join(lines) == text or lines[-1].endswith("…"), (text, width, lines)
            assert all(line[0] not in "ー。、" for line in lines), (text, width, lines)
            assert all(font(24).getlength(line) <= width or len(line) <= 2 for line in lines), (text, width)
