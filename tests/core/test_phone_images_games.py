"""Issue #8 / #10 for Pole Position, Rallyman: DIRT and Steam Works: every image kind is readable at
Discord's phone width (390 px), in English and Japanese, with names in several scripts.

The measure is the one tests/core/test_phone_images.py applies to Heat and PON (every drawn text
is recorded by rendering.common's `recording()`): each text's em size scaled to PHONE_W is at least
MIN_PHONE_TEXT, its glyph box is inside the image, a digit's or capital's ink is at least MIN_GLYPH
tall there, and no image is drawn much wider than the phone needs. Added here: no two texts of an
image overlap, and no image is far taller than it is wide.
"""

from __future__ import annotations

import functools
import io
import random
from collections.abc import Mapping
from itertools import combinations

import pytest
from PIL import Image

from bot.games.pole import ENGINE as POLE
from bot.games.rallyman.engine import ENGINE as RALLY
from bot.games.steamworks import ENGINE as STEAM
from rendering import pole as PR
from rendering import rallyman as RR
from rendering import steamworks as SR
from rendering.common import MIN_PHONE_TEXT, PHONE_W, min_font, recording
from tests.pole.helpers import policy

MIN_GLYPH = 7.5
NAMES = ["ゆきこ", "José Müller", "Ωmega", "山田太郎", "Alice", "Zoë 🚀"]
MAX_RATIO = 2.0  # height / width: taller than this, the phone shows the image too small to read


def _pole_views() -> dict[str, tuple]:
    rnd = random.Random(5)
    st = POLE.new_game({"circuit": "monaco"}, 6, 5)
    out: dict[str, tuple] = {
        "board_quali": (PR.render_board, POLE.view(st, None)),
        "hand_quali": (PR.render_hand, POLE.view(st, 0)),
    }
    for _ in range(8000):
        if POLE.is_over(st):
            break
        seat = rnd.choice(POLE.to_act(st))
        st, _ = POLE.apply(st, seat, policy(st, seat, rnd))
        acting = POLE.to_act(st)
        if st["phase"] == "quali" and st["quali"]["choice"]:  # a session under way: rolls and choices
            out.setdefault("board_quali_rolls", (PR.render_board, POLE.view(st, None)))
            out.setdefault("hand_quali_rolls", (PR.render_hand, POLE.view(st, seat)))
        if st["phase"] == "tyres" and acting:
            out.setdefault("hand_tyres", (PR.render_hand, POLE.view(st, acting[0])))
            if st["tyre_pick"]:
                out.setdefault("board_tyres", (PR.render_board, POLE.view(st, None)))
        if st["phase"] == "race" and acting and (st.get("turn") or {}).get("rolls"):
            out.setdefault("board_race", (PR.render_board, POLE.view(st, None)))
            out.setdefault("hand_race", (PR.render_hand, POLE.view(st, acting[0])))
            if st["round"] >= 20:
                out.setdefault("board_race_late", (PR.render_board, POLE.view(st, None)))
                out.setdefault("hand_race_late", (PR.render_hand, POLE.view(st, acting[0])))
    assert POLE.is_over(st)
    out["board_over"] = (PR.render_board, POLE.view(st, None))
    out["results"] = (PR.render_results, POLE.view(st, None))
    return out


def _rally_views() -> dict[str, tuple]:
    st = RALLY.new_game({"stage": "Rally9 SS1"}, 4, 3)
    rnd = random.Random(3)
    out: dict[str, tuple] = {"board_start": (RR.render_board, RALLY.view(st, None))}
    for i in range(8000):
        if RALLY.is_over(st):
            break
        seat = RALLY.to_act(st)[0]
        if i > 40 and st.get("phase") == "plan":
            out.setdefault("hand_plan", (RR.render_hand, RALLY.view(st, seat)))
            out.setdefault("board_plan", (RR.render_board, RALLY.view(st, None)))
        if i > 40 and st.get("phase") == "roll":
            out.setdefault("board_roll", (RR.render_board, RALLY.view(st, None)))
            out.setdefault("hand_roll", (RR.render_hand, RALLY.view(st, seat)))
        acts = RALLY.legal_actions(st, seat)
        st, _ = RALLY.apply(st, seat, rnd.choice([a for a in acts if a["type"] not in ("undo", "clear")] or acts))
    assert RALLY.is_over(st)
    out["board_over"] = (RR.render_board, RALLY.view(st, None))
    out["results"] = (RR.render_results, RALLY.view(st, None))
    return out


def _steam_game(seed: int) -> dict[str, tuple]:
    rnd = random.Random(4)
    st = STEAM.new_game({}, 4, seed)
    out: dict[str, tuple] = {
        "board_start": (SR.render_board, STEAM.view(st, None)),
        "hand_start": (SR.render_hand, STEAM.view(st, 0)),
    }
    steps, early = 0, {}  # each stage's first view after step 80 (a busy table), else its first at all
    while not STEAM.is_over(st):
        (seat,) = STEAM.to_act(st)
        views = out if steps > 80 else early
        views.setdefault(f"board_{st['phase']}", (SR.render_board, STEAM.view(st, None)))
        views.setdefault(f"hand_{st['phase']}", (SR.render_hand, STEAM.view(st, seat)))
        acts = STEAM.legal_actions(st, seat)
        good = [a for a in acts if a["type"] not in ("pass", "done", "undo")]
        st, _ = STEAM.apply(st, seat, rnd.choice(good if good and rnd.random() < 0.9 else acts))
        steps += 1
    out["board_over"] = (SR.render_board, STEAM.view(st, None))
    out["results"] = (SR.render_results, STEAM.view(st, None))
    return {**early, **out}


def _steam_views() -> dict[str, tuple]:
    """The first game from seed 23 on that reaches every stage, the Turbine's reveal too (a
    content change reshuffles which seeds do; the cases are checked below)."""
    for seed in range(23, 123):
        views = _steam_game(seed)
        if {"hand_reveal", "board_reveal", "hand_build", "hand_activate"} <= set(views):
            return views
    return views


GAMES = {"pole": _pole_views, "rally": _rally_views, "steam": _steam_views}


@functools.cache
def _game_views(game: str) -> dict[str, tuple]:
    """One game's views, played out once per test process, on first use."""
    return {f"{game}_{k}": v for k, v in GAMES[game]().items()}


class _Cases(Mapping):
    """The views, each game's played out on first use of one of its cases (not at import: every
    worker and every -k run would pay for three whole games, and a run of one game's cases plays
    only that game); NAMES lists them so the tests can be parametrized without playing."""

    NAMES = (
        "pole_board_over",
        "pole_board_quali",
        "pole_board_quali_rolls",
        "pole_board_race",
        "pole_board_race_late",
        "pole_board_tyres",
        "pole_hand_quali",
        "pole_hand_quali_rolls",
        "pole_hand_race",
        "pole_hand_race_late",
        "pole_hand_tyres",
        "pole_results",
        "rally_board_over",
        "rally_board_plan",
        "rally_board_roll",
        "rally_board_start",
        "rally_hand_plan",
        "rally_hand_roll",
        "rally_results",
        "steam_board_activate",
        "steam_board_build",
        "steam_board_main",
        "steam_board_over",
        "steam_board_reveal",
        "steam_board_start",
        "steam_hand_activate",
        "steam_hand_build",
        "steam_hand_main",
        "steam_hand_reveal",
        "steam_hand_start",
        "steam_results",
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
    for game in ("pole", "rally", "steam"):
        for kind in ("board", "hand", "results"):
            assert any(c.startswith(f"{game}_{kind}") for c in CASES), (game, kind)
    assert {
        "pole_board_race",
        "pole_hand_race",
        "steam_hand_build",
        "steam_hand_activate",
        "steam_hand_reveal",
        "steam_board_reveal",
        "rally_board_roll",
        "rally_hand_plan",
    } <= set(CASES)


def _render(case: str, locale: str, names: list[str]) -> tuple[Image.Image, list[dict]]:
    renderer, view = CASES[case]
    with recording() as rec:
        data = renderer(view, names, locale)
    return Image.open(io.BytesIO(data)), rec


def _overlap(a, b, slack: float = 1.0) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack


@pytest.mark.parametrize("locale", ["en", "ja"])
@pytest.mark.parametrize("case", sorted(_Cases.NAMES))
def test_text_is_readable_at_phone_width(case, locale):
    seats = len(CASES[case][1].get("cars") or CASES[case][1].get("players") or [])
    image, rec = _render(case, locale, NAMES[: max(seats, 2)])
    texts = [r for r in rec if r["kind"] == "text"]
    assert len(texts) >= 5, case  # the renderer's texts really went through the recording
    scale = PHONE_W / image.width
    for r in texts:
        assert r["image_w"] == image.width, (case, r["text"])
        assert r["size"] * scale >= MIN_PHONE_TEXT, (case, r["text"], r["size"])
        assert r["text"][0] not in "ー、。", (case, r["text"])
        x0, y0, x1, y1 = r["box"]
        assert x0 >= -1 and y0 >= -1 and x1 <= image.width + 1 and y1 <= image.height + 1, (case, r["text"], r["box"])
        if any(ch.isdigit() or "A" <= ch <= "Z" for ch in r["text"]):
            assert (y1 - y0) * scale >= MIN_GLYPH, (case, r["text"], r["box"])
    assert min(r["size"] for r in texts) >= min_font(image.width)
    assert image.width <= 800 and image.height <= MAX_RATIO * image.width, (case, image.size)
    for a, b in combinations(_visible(rec), 2):
        assert not _overlap(a["box"], b["box"]), (case, a["text"], b["text"])


def _visible(rec: list[dict]) -> list[dict]:
    """The texts not hidden under a car or die drawn after them (a corner limit under a car)."""
    out = []
    for i, r in enumerate(rec):
        if r["kind"] != "text":
            continue
        cx, cy = (r["box"][0] + r["box"][2]) / 2, (r["box"][1] + r["box"][3]) / 2
        if not any(
            c["kind"] == "car" and c["box"][0] <= cx <= c["box"][2] and c["box"][1] <= cy <= c["box"][3]
            for c in rec[i + 1 :]
        ):
            out.append(r)
    return out


@pytest.mark.parametrize(
    "case",
    [
        "pole_board_race",
        "pole_hand_race",
        "pole_results",
        "rally_board_roll",
        "rally_results",
        "steam_board_main",
        "steam_hand_main",
        "steam_results",
    ],
)
def test_japanese_and_english_texts_differ_and_names_in_any_script_are_drawn(case):
    _, en = _render(case, "en", NAMES[:4])
    _, ja = _render(case, "ja", NAMES[:4])
    en_texts = {r["text"] for r in en if r["kind"] == "text"}
    ja_texts = {r["text"] for r in ja if r["kind"] == "text"}
    assert en_texts != ja_texts, case
    assert any(any("\u3040" <= ch <= "\u30ff" for ch in t) for t in ja_texts if "ゆきこ" not in t), case
    drawn = " ".join(ja_texts | en_texts)
    view = CASES[case][1]
    if "hand" in case:
        shown = [NAMES[view["me"]["seat"]]]
    else:
        shown = NAMES[:3]
    for name in shown:
        assert name in drawn, (case, name)


# ---------------------------------------------------------------- Pole Position: the action where it happens


def test_pole_board_zooms_on_the_car_to_play():
    view = CASES["pole_board_race"][1]
    from bot.games.pole.content import circuits

    c = circuits()[view["circuit"]]
    seat = view["turn_info"]["seat"]
    cars, order = view["cars"], view["order"]
    map_h = PR._map_height(view, c, cars, order, seat)
    v = PR._focus(c, cars, order, seat, PR.W, map_h)
    whole = PR._whole_view(c.key, PR.W, map_h)
    assert v.k >= PR.K_MIN > whole.k  # closer than the whole lap, and close enough to read
    x, y, _ = PR._pos_u(c, cars[seat]["pos"])
    px, py = v.p(x, y)
    assert 20 <= px <= PR.W - 20 and 20 <= py <= map_h - 20
    for case in ("pole_board_race", "pole_hand_race", "pole_board_race_late", "pole_hand_race_late"):
        with recording() as rec:
            CASES[case][0](CASES[case][1], NAMES)
        circles = [r["box"] for r in rec if r["kind"] == "car"]
        assert circles and all(27 <= b[2] - b[0] <= 40 for b in circles), case  # a car is a car, not a poster
        for a, b in combinations(circles, 2):  # cars never hide one another
            assert not _overlap(a, b, slack=4), case


def test_pole_hand_shows_the_circuit_around_the_seat_only_in_the_race():
    race = CASES["pole_hand_race"][1]
    quali = CASES["pole_hand_quali"][1]
    tall = Image.open(io.BytesIO(PR.render_hand(race, NAMES)))
    short = Image.open(io.BytesIO(PR.render_hand(quali, NAMES)))
    assert tall.height == short.height + PR.HAND_MAP_H


def test_pole_row_numbers_name_rows_as_the_move_select_does():
    """The select says "lap {lap} row {row} {lane}" (row = index + 1, lanes left, centre, right):
    the map labels every fifth row that way; each strip under it numbers every row it shows, one
    after the other round the lap, and names its lap and its lanes in the select's words."""
    from bot.games.pole.content import circuits
    from bot.i18n import msg, render

    for case in ("pole_board_race", "pole_board_race_late"):
        view = CASES[case][1]
        c = circuits()[view["circuit"]]
        with recording() as rec:
            PR.render_board(view, NAMES)
        cars = [r["box"] for r in rec if r["kind"] == "car"]

        def on_a_car(box) -> bool:
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            return any(c[0] <= cx <= c[2] and c[1] <= cy <= c[3] for c in cars)

        primary = PR._primary(view)
        map_h, strips = PR._layout(view, c, view["cars"], view["order"], primary, PR.ROW_H)
        assert strips and primary in strips[0][0]  # the car to play's strip comes first
        top = PR.HEADER_H
        map_texts = [
            r for r in rec if r["kind"] == "text" and top <= r["box"][1] < top + map_h and not on_a_car(r["box"])
        ]
        assert map_texts and all(r["text"].isdigit() and int(r["text"]) % 5 == 0 for r in map_texts), case
        lanes = [render(msg(w), "en") for w in ("left", "centre", "right")]
        for i, (_, lo) in enumerate(strips):
            y0 = top + map_h + PR.STRIP_H * i
            texts = [
                r for r in rec if r["kind"] == "text" and y0 <= r["box"][1] < y0 + PR.STRIP_H and not on_a_car(r["box"])
            ]
            nums = [int(r["text"]) for r in sorted(texts, key=lambda r: r["box"][0]) if r["text"].isdigit()]
            assert len(nums) == PR.STRIP_ROWS and nums[0] == lo % c.length + 1, (case, nums)
            assert all(b == a % c.length + 1 for a, b in zip(nums, nums[1:])), (case, nums)
            words = [r["text"] for r in sorted(texts, key=lambda r: r["box"][1]) if not r["text"].isdigit()]
            lap = max(1, min((lo + PR.STRIP_ROWS - 1) // c.length + 1, c.laps))
            assert words == [render(msg("lap {lap}", lap=lap), "en")] + lanes, (case, words)


# ---------------------------------------------------------------- Steam Works


def test_steam_tile_names_break_long_words_with_a_hyphen():
    assert SR._tile_lines("Miscellanerie", 24, 110) == ["Miscella-", "nerie"] or all(
        len(x) > 1 for x in SR._tile_lines("Miscellanerie", 24, 110)
    )
    lines = SR._tile_lines("Patriotic Haiku Generator", 24, 140)
    assert lines and "".join(lines).replace("-", "") == "PatrioticHaikuGenerator"
    assert SR._tile_lines("改良機", 24, 110) == ["改良機"]


def test_steam_hand_lists_each_supply_tile_once_with_its_count():
    view = CASES["steam_hand_main"][1]
    me = view["me"]["seat"]
    supply = next(p for p in view["players"] if p["seat"] == me)["tiles"]
    with recording() as rec:
        SR.render_hand(view, NAMES)
    # the supply list comes first; the devices drawn below it name their tiles again
    devices_at = min(
        (r["box"][1] for r in rec if r["kind"] == "text" and r["text"].startswith("#") and r["text"][1:].isdigit()),
        default=float("inf"),
    )
    texts = [r["text"] for r in rec if r["kind"] == "text" and r["box"][1] < devices_at]
    for tid in set(supply):
        name = SR._tile_name(tid)
        n = supply.count(tid)
        assert sum(1 for t in texts if t == name or t.startswith(name + " ×")) == 1, name
        if n > 1:
            assert f"{name} ×{n}" in texts


def test_steam_hand_names_every_device_on_the_table_its_own_first():
    view = CASES["steam_hand_main"][1]
    me = view["me"]["seat"]
    with recording() as rec:
        SR.render_hand(view, NAMES)
    lines = [r["text"] for r in rec if r["kind"] == "text" and r["text"].startswith("Device ")]
    devices = view["devices"]
    assert len(lines) == len(devices) >= 2
    owners = [next(d["owner"] for d in devices if lines[i].startswith(f"Device {d['id']}:")) for i in range(len(lines))]
    assert owners == sorted(owners, key=lambda o: (o != me, o))


def test_steam_board_stays_near_square_with_five_players_at_the_end():
    rnd = random.Random(3)
    st = STEAM.new_game({}, 5, 3)
    while not STEAM.is_over(st):
        (seat,) = STEAM.to_act(st)
        acts = STEAM.legal_actions(st, seat)
        good = [a for a in acts if a["type"] not in ("pass", "done", "undo")]
        st, _ = STEAM.apply(st, seat, rnd.choice(good if good and rnd.random() < 0.9 else acts))
    for locale in ("en", "ja"):
        image = Image.open(io.BytesIO(SR.render_board(STEAM.view(st, None), NAMES[:5], locale)))
        assert image.height <= 1.8 * image.width, image.size  # it was 2042 px tall before


def test_pole_qualifying_shows_each_first_roll_and_who_has_chosen():
    view = CASES["pole_board_quali_rolls"][1]
    with recording() as rec:
        PR.render_board(view, NAMES)
    texts = [r["text"] for r in rec if r["kind"] == "text"]
    assert texts.count("✓") == len(view["quali"]["chosen"]) >= 1
    for roll in view["quali"]["first"].values():
        assert str(roll) in texts
    hand = CASES["pole_hand_quali_rolls"][1]
    with recording() as rec:
        PR.render_hand(hand, NAMES)
    mine = str(hand["quali"]["first"][str(hand["me"]["seat"])])
    assert any(r["text"].startswith(f"Your rolls: {mine}") for r in rec if r["kind"] == "text")


def test_pole_tyre_choice_ticks_who_has_chosen_and_keeps_the_tyres_secret():
    view = CASES["pole_board_tyres"][1]
    with recording() as rec:
        PR.render_board(view, NAMES)
    texts = [r["text"] for r in rec if r["kind"] == "text"]
    assert texts.count("✓") == len(view["chosen"]) >= 1
    assert not any(t in PR.TYRE_LETTER.values() for t in texts)  # no tyre drawn before all have chosen


def test_rally_stage_marks_are_readable_and_never_overlap_on_any_stage():
    """Every stage, windows along it: limits, jumps, water, shortcuts and mud stay >= 24 px and apart."""
    from bot.games.rallyman import board as B

    for key in B.stage_names():
        stage = B.stage(key)
        for i in range(0, len(stage.spaces), 20):
            m = RR._Map(stage, [i], [i], RR.W, RR.MAP_H)
            mud = tuple((str(c.id), 1) for c in stage.corners[:1])
            RR._static.cache_clear()
            with recording() as rec:
                _, kept = RR._static(key, round(m.cx, 3), round(m.cy, 3), round(m.s, 3), mud, "ja")
                RR._replay(kept)
            texts = [r for r in rec if r["kind"] == "text"]
            for r in texts:
                assert r["size"] >= RR.SMALL and r["box"][1] >= RR.HEADER_H - 1
                assert r["box"][3] <= RR.HEADER_H + RR.MAP_H + 1 and -1 <= r["box"][0] and r["box"][2] <= RR.W + 1
            for a, b in combinations(texts, 2):
                assert not _overlap(a["box"], b["box"], slack=2), (key, i, a["text"], b["text"])


def test_rally_limits_close_together_are_always_the_same_value():
    """The renderer draws one of two limit circles closer than a circle's width: that is only
    right while such neighbours share their value, as on every stage shipped."""
    import math
    from bot.games.rallyman import board as B

    for key in B.stage_names():
        marks = [sp for sp in B.stage(key).spaces if sp.kind in ("inner", "outer", "single") and sp.limit]
        for a, b in combinations(marks, 2):
            if math.hypot(a.x - b.x, a.y - b.y) * RR.SCALE < 2 * max(RR.SCALE * 0.13, 15) * 1.42:
                assert a.limit == b.limit and a.corner == b.corner, (key, a.id, b.id)


@pytest.mark.parametrize("circuit", sorted(__import__("bot.games.pole.content", fromlist=["x"]).CIRCUIT_KEYS))
def test_pole_every_circuit_mid_race_is_readable(circuit):
    rnd = random.Random(circuit)
    st = POLE.new_game({"circuit": circuit}, 6, 7)
    while not POLE.is_over(st) and not (
        st["phase"] == "race" and st["round"] >= 4 and (st.get("turn") or {}).get("rolls")
    ):
        seat = rnd.choice(POLE.to_act(st))
        st, _ = POLE.apply(st, seat, policy(st, seat, rnd))
    for renderer, view in ((PR.render_board, POLE.view(st, None)), (PR.render_hand, POLE.view(st, st["turn"]["seat"]))):
        with recording() as rec:
            image = Image.open(io.BytesIO(renderer(view, NAMES, "ja")))
        texts = _visible(rec)
        assert texts and all(r["size"] >= PR.SMALL - 1 for r in texts)
        for r in texts:
            x0, y0, x1, y1 = r["box"]
            assert x0 >= -1 and y0 >= -1 and x1 <= image.width + 1 and y1 <= image.height + 1, (circuit, r["text"])
        for a, b in combinations(texts, 2):
            assert not _overlap(a["box"], b["box"]), (circuit, a["text"], b["text"])
        circles = [r["box"] for r in rec if r["kind"] == "car"]
        assert circles, circuit
        for a, b in combinations(circles, 2):
            assert not _overlap(a, b, slack=4), circuit
