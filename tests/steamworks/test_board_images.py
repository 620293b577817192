"""The thread's board images (issue #32): the table, then every player's devices drawn in the
workshops, readable at phone width, split rather than shrunk; power symbols instead of codes;
tile names never broken inside a word."""

from __future__ import annotations

import io
import random
from itertools import combinations

import pytest
from PIL import Image

from bot.games.steamworks import ENGINE as E
from bot.games.steamworks.content import tiles
from bot.games.steamworks.simulate import GREEDY, choose
from rendering import steamworks as R
from rendering.common import MIN_PHONE_TEXT, PHONE_W, recording

NAMES = ["Ada", "ボブ", "Cy", "Dee", "Eve"]


def _states(seats: int, seed: int) -> list[dict]:
    rnd = random.Random(seed)
    st = E.new_game({}, seats, seed)
    out = [st]
    while not E.is_over(st):
        (seat,) = E.to_act(st)
        st, _ = E.apply(st, seat, choose(st, seat, rnd, GREEDY))
        out.append(st)
    return out


@pytest.fixture(scope="module")
def late() -> dict:
    """A busy table: the last state of a seeded 3-player game before its end (dozens of devices)."""
    return _states(3, 5)[-2]


def _overlap(a, b, slack: float = 1.0) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack


def _check_texts(image: Image.Image, texts: list[dict]) -> None:
    scale = PHONE_W / image.width
    assert image.width == R.W and image.height <= 2 * image.width, image.size
    for r in texts:
        assert r["size"] >= R.SMALL, r["text"]  # no text under 24 px at 800 px
        assert r["size"] * scale >= MIN_PHONE_TEXT
        x0, y0, x1, y1 = r["box"]
        assert x0 >= -1 and y0 >= -1 and x1 <= image.width + 1 and y1 <= image.height + 1, (r["text"], r["box"])
    for a, b in combinations(texts, 2):
        assert not _overlap(a["box"], b["box"]), (a["text"], b["text"])


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_every_device_is_drawn_in_the_workshops_readable_at_phone_width(late, locale):
    view = E.view(late, None)
    assert len(view["devices"]) >= 20  # a busy table
    with R.drawing_in(locale):
        workshops = []
        for png_rec in _workshop_parts(view):
            workshops.append(png_rec)
    seen = set()
    for image, texts in workshops:
        _check_texts(image, texts)
        seen |= {int(t["text"][1:]) for t in texts if t["text"].startswith("#") and t["text"][1:].isdigit()}
    assert seen == {d["id"] for d in view["devices"]}
    assert len(workshops) >= 2  # split, not shrunk


def _workshop_parts(view: dict) -> list[tuple[Image.Image, list[dict]]]:
    """Each workshop image with the texts drawn on it (recorded one image at a time)."""
    out = []
    with recording() as rec:
        pngs = R._render_workshops(view, NAMES[: view["seats"]])
    # texts are recorded in drawing order, image after image: an image's texts lie within its
    # height; a new image starts where a text's top goes back up to the first lines
    parts: list[list[dict]] = [[]]
    last_top = -1.0
    for r in (r for r in rec if r["kind"] == "text"):
        if r["box"][1] < last_top - 200:
            parts.append([])
        parts[-1].append(r)
        last_top = r["box"][1]
    assert len(parts) == len(pngs)
    for png, texts in zip(pngs, parts):
        out.append((Image.open(io.BytesIO(png)), texts))
    return out


def test_a_busy_source_names_whose_mechanic_is_on_it_and_free_ones_say_free(late):
    st = late
    view = E.view(st, None)
    busy = [(d, pos, who) for d in view["devices"] for pos, who in d["busy"].items()]
    assert busy
    texts = [t["text"] for _, recs in _workshop_parts(view) for t in recs]
    for _, _, who in busy:
        assert NAMES[who] in [t.strip() for t in texts]
    assert "open" in [t.strip() for t in texts]


def test_the_table_shows_power_symbols_not_codes_and_whole_words(late):
    view = E.view(late, None)
    with recording() as rec:
        R.render_board(view, NAMES[:3])
    texts = [r["text"] for r in rec if r["kind"] == "text"]
    assert not any("sources C" in t or " S0" in t or " E0" in t for t in texts)
    # the names on the belts' tiles: each line is whole words of the tile's name
    words = {w for t in tiles().values() for w in t.name.split()}
    belt_lines = [t for t in texts if t.strip() and all(w in words for w in t.split())]
    assert belt_lines
    assert not any(t.endswith("-") for t in texts)


def test_every_tile_says_what_it_does_in_a_few_words():
    with R.drawing_in("en"):
        for t in tiles().values():
            text = R.effect_text(t.id)
            assert text, t.id
            assert len(text) <= 60, (t.id, text)
    with R.drawing_in("en"):
        assert R.effect_text("condenser") == "+2 sources of that power"
        assert R.effect_text("miscellanerie") == "+1 source(s) of any power +£1; owner +£1"


def test_the_dm_stays_within_twice_its_width_on_a_busy_table():
    """Dozens of devices listed one a line made a DM up to 1,865 px tall (this state's: 1,805): the
    list stops where a phone still shows the image whole, and says how many more the board's
    workshops show."""
    late = _states(3, 4)[310]
    for seat in range(3):
        with recording() as rec:
            png = R.render_hand(E.view(late, seat), NAMES[:3])
        image = Image.open(io.BytesIO(png))
        assert image.height <= 2 * image.width, image.size
        texts = [r["text"] for r in rec if r["kind"] == "text"]
        listed = [t for t in texts if t.startswith("Device ")]
        more = [t for t in texts if "more: see the workshops" in t]
        assert len(listed) == len(late["devices"]) or (
            more and int(more[0].split()[0]) + len(listed) == len(late["devices"])
        )
