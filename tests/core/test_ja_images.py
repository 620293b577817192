"""Issue #10: Japanese images with names in several scripts (ゆきこ, José Müller, 山田太郎): a board,
a hand and a results image of each game; the texts found cut or run together at phone width are
drawn whole (the measures of readability themselves are tests/core/test_phone_images*.py)."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

import bot.i18n as i18n
from bot.games.heat import ENGINE as HEAT
from bot.games.pole import ENGINE as POLE
from bot.games.pon import ENGINE as PON
from bot.games.rallyman.engine import ENGINE as RALLY
from bot.games.steamworks import ENGINE as STEAM
from rendering import heat as H
from rendering import pole as PR
from rendering import pon as P
from rendering import rallyman as RR
from rendering import steamworks as SR
from rendering.common import MIN_PHONE_TEXT, PHONE_W, recording

NAMES = ["ゆきこ", "José Müller", "山田太郎"]
ENGINES = {
    "heat": (HEAT, H, {"track": "japan"}),
    "pon": (PON, P, {}),
    "pole": (POLE, PR, {"circuit": "monaco"}),
    "rallyman": (RALLY, RR, {"stage": "Rally1 SS1"}),
    "steamworks": (STEAM, SR, {}),
}


def _play(kind: str, moves: int | None, seed: int = 3):
    """A seeded game of three after `moves` random legal moves (None: to the end)."""
    engine, _, options = ENGINES[kind]
    state = engine.new_game(engine.validate_options(options, 3), 3, seed)
    rnd = random.Random(seed)
    for i in range(20000):
        if engine.is_over(state) or (moves is not None and i >= moves):
            break
        seat = rnd.choice(engine.to_act(state))
        actions = [
            a for a in engine.legal_actions(state, seat) if a.get("type") not in ("undo", "clear")
        ] or engine.legal_actions(state, seat)
        state, _ = engine.apply(state, seat, rnd.choice(actions))
    return engine, state


def _draw(fn, view, locale="ja"):
    with recording() as rec:
        data = fn(view, NAMES, locale)
    return Image.open(io.BytesIO(data)), [r for r in rec if r["kind"] == "text"]


def _japanese(text: str) -> bool:
    return any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in text)


@pytest.mark.parametrize("kind", sorted(ENGINES))
def test_japanese_board_hand_and_results_with_names_in_any_script(kind):
    engine, renderer, _ = ENGINES[kind]
    _, mid = _play(kind, 60)
    _, over = _play(kind, None)
    assert engine.is_over(over)
    seat = (engine.to_act(mid) or [0])[0]
    images = {
        "board": (renderer.render_board, engine.view(mid, None)),
        "hand": (renderer.render_hand, engine.view(mid, seat)),
        "results": (renderer.render_results, engine.view(over, None)),
    }
    drawn_names: set[str] = set()
    for what, (fn, view) in images.items():
        image, texts = _draw(fn, view)
        assert texts and any(_japanese(t["text"]) for t in texts), (kind, what)
        scale = PHONE_W / image.width
        for t in texts:
            assert t["size"] * scale >= MIN_PHONE_TEXT - 0.01, (kind, what, t["text"])
            x0, y0, x1, y1 = t["box"]
            assert x0 >= -1 and y0 >= -1 and x1 <= image.width + 1 and y1 <= image.height + 1, (kind, what, t)
        drawn_names |= {n for n in NAMES for t in texts if n in t["text"]}
    assert drawn_names == set(NAMES), (kind, drawn_names)  # every script drawn, none replaced by "P3"


def _flooded_view():
    state = HEAT.new_game(HEAT.validate_options({"track": "japan"}, 3), 3, 3)
    rnd = random.Random(2)
    while not (state["phase"] == "submit" and state["round"] >= 2):
        seat = rnd.choice(HEAT.to_act(state))
        state, _ = HEAT.apply(state, seat, rnd.choice(HEAT.legal_actions(state, seat)))
    view = HEAT.view(state, None)
    assert view.get("flooded")
    return view


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_heat_flood_note_is_whole_and_clear_of_the_panel_captions(locale):
    """Japan (Heavy Rain): "青：浸水（シフトダウンはヒート+1）" was cut to "青：浸水（シフトダウンはヒ…"
    beside the "前ラウンドのプレイ" caption; it now takes a line of its own
    under the caption when it does not fit beside it."""
    view = _flooded_view()
    image, texts = _draw(H.render_board, view, locale)
    note = i18n.tr(locale, "Blue: flooded (downshift +1 Heat)")
    found = [t for t in texts if t["text"] == note]
    assert found, [t["text"] for t in texts if "flood" in t["text"] or "浸水" in t["text"]]
    box = found[0]["box"]
    for t in texts:
        if t is not found[0] and t["text"] in (i18n.tr(locale, "Played last round"), i18n.tr(locale, "Speed")):
            b = t["box"]
            assert min(box[2], b[2]) <= max(box[0], b[0]) or min(box[3], b[3]) <= max(box[1], b[1]), t["text"]
    # Japanese: a line of its own under the caption; English: it fits beside it
    assert image.height == H.board_size(3, H.FLOOD_NOTE_H if locale == "ja" else 0)[1]


def test_heat_japanese_hand_names_the_upgrade_card_whole():
    """The kind on a Japanese upgrade card ("アップグレード") was cut to "アップグレ…"; the value's
    card name is not repeated at the bottom when the top and the big number already say it."""
    state = HEAT.new_game(HEAT.validate_options({"track": "usa"}, 3), 3, 3)
    rnd = random.Random(1)
    for _ in range(400):
        view = HEAT.view(state, HEAT.to_act(state)[0])
        hand = view["me"]["hand"] if "me" in view else []
        if state["phase"] == "submit" and any(c.get("kind") == "upgrade" for c in hand):
            break
        seat = rnd.choice(HEAT.to_act(state))
        state, _ = HEAT.apply(state, seat, rnd.choice(HEAT.legal_actions(state, seat)))
    else:
        pytest.skip("no upgrade card in hand in this seeded game")
    _, texts = _draw(H.render_hand, view)
    words = [t["text"] for t in texts]
    assert "アップグレード" in words and not any(w.startswith("アップグレ") and w.endswith("…") for w in words)
    assert not any(w.startswith("スピード") and w[-1:].isdigit() for w in words)  # "スピード4" under a big 4


def test_steam_works_japanese_device_lines_use_the_japanese_list_separator_and_break_between_tiles():
    engine, state = _play("steamworks", None)
    view = engine.view(state, 0)
    _, texts = _draw(SR.render_hand, view)
    lines = [t["text"] for t in texts if t["text"].startswith("デバイス")]
    assert lines and all(", " not in line for line in lines)
    assert any("、" in line for line in lines)
    assert not any(t["text"].endswith("…") for t in texts if t["text"].startswith("デバイス"))
    _, en = _draw(SR.render_hand, view, "en")
    assert any(t["text"].startswith("Device ") and ", " in t["text"] for t in en)


def test_heat_japanese_hand_on_a_flooded_space_says_so_whole():
    """The hand's "浸水マス：シフトダウンはヒート+1" was cut beside the lap/space/round line; it
    now goes under the prompt when it does not fit there."""
    state = HEAT.new_game(HEAT.validate_options({"track": "japan"}, 3), 3, 1)
    rnd = random.Random(1)
    view = None
    for _ in range(3000):
        seat = rnd.choice(HEAT.to_act(state))
        state, _ = HEAT.apply(state, seat, rnd.choice(HEAT.legal_actions(state, seat)))
        if state["phase"] == "submit":
            view = next(
                (v for v in (HEAT.view(state, s) for s in HEAT.to_act(state)) if v.get("me", {}).get("flooded_here")),
                None,
            )
            if view:
                break
    assert view is not None
    for locale in ("ja", "en"):
        _, texts = _draw(H.render_hand, view, locale)
        assert i18n.tr(locale, "Flooded: shifting down +1 Heat") in [t["text"] for t in texts], locale
