"""Images for every stage in English and Japanese, and a Japanese entry for every text the game
passes through variables (tile, persona and space names, effect texts, powers, ages)."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

from PIL import Image

from bot.games.steamworks import ENGINE as E
from bot.games.steamworks.content import setup, tiles
from bot.games.steamworks.common import AGE_NAMES, POWER_NAMES
from bot.i18n import Msg, render
from rendering import steamworks as R

ROOT = Path(__file__).resolve().parents[2]
JA = {
    **json.loads((ROOT / "data/i18n/ja.json").read_text("utf-8")),
    **json.loads((ROOT / "data/i18n/ja/steamworks.json").read_text("utf-8")),
}


def test_every_variable_text_has_a_japanese_entry():
    keys = {E.title, *POWER_NAMES.values(), *AGE_NAMES.values(), "random", "seat order"}
    for t in tiles().values():
        keys |= {t.name, t.text}
    for p in setup().personas.values():
        keys.add(p.name)
    for s in setup().spaces:
        keys |= {s["name"], s["text"]}
    assert not sorted(k for k in keys if k not in JA)


def _keys(value, out):
    if isinstance(value, Msg):
        out.add(value.key)
        for v in value.params.values():
            _keys(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _keys(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            _keys(v, out)


def _png(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    assert im.format == "PNG" and im.size[0] == R.W
    return im


def test_images_for_every_stage_and_texts_in_japanese():
    rnd = random.Random(4)
    st = E.new_game({}, 3, 9)
    names = ["Ada", "ボブ", "Cy"]
    seen_stages = set()
    used: set[str] = set()
    steps = 0
    while not E.is_over(st):
        (seat,) = E.to_act(st)
        acts = E.legal_actions(st, seat)
        for a in acts[:30]:
            _keys(E.describe_action(st, seat, a), used)
        _keys(E.menu(st, seat), used)
        if st["phase"] not in seen_stages or steps % 40 == 0:
            seen_stages.add(st["phase"])
            for loc in ("en", "ja"):
                _png(R.render_board(E.view(st, None), names, loc))
                _png(R.render_hand(E.view(st, seat), names, loc))
        good = [a for a in acts if a["type"] not in ("pass", "done", "undo")]
        st, ev = E.apply(st, seat, rnd.choice(good if good and rnd.random() < 0.9 else acts))
        for e in ev:
            _keys(e.text, used)
        steps += 1
    assert {"main", "activate", "build"} <= seen_stages
    _keys(E.view(st, None), used)
    _png(R.render_board(E.view(st, None), names, "ja"))
    _png(R.render_results(E.view(st, None), names, "ja"))
    missing = sorted(k for k in used if k not in JA)
    assert not missing, missing
    assert render(E.view(st, None)["log"][-1], "ja") != render(E.view(st, None)["log"][-1], "en")
