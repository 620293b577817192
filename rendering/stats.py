"""Statistics images (issue #35): a player's rating chart for /stats, and the end-of-game statistics
posted with the results.

render_chart: the rating (mu - 3 sigma) after each rated game as a line, each game's place under it
(gold for a win), the totals on top. render_game_stats: a table, one row per statistic, one column
per seat (its name on top in the seat's colour). Both are drawn 780 px wide, so at a phone's 390 px
every text is at least 11 px high. end_stats: the statistics of a finished game (bot/games/stats.py
compute_stats), drawn.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from bot.games.base import Engine
from bot.games.stats import compute_stats
from rendering.common import (
    BACKGROUND,
    MUTED,
    PANEL,
    TEXT,
    Draw,
    drawing_in,
    fit,
    font,
    min_font,
    player_name,
    png_bytes,
    seat_colour,
    tx,
    words,
)

W = 780
SMALL = min_font(W)  # 22 px: 11 px on a phone
BODY = 26
TITLE = 32
MARGIN = 24
GOLD = (255, 200, 40)
LINE = (88, 166, 255)
GRID = (70, 72, 78)


# -- /stats: a player's rating and places over time ----------------------------------------------


def render_chart(title: str, summary: str, points: list[tuple[float, int, int]], locale: str = "en") -> bytes:
    """`points`: per rated game, oldest first, (rating after it, place, field)."""
    with drawing_in(locale):
        return png_bytes(_chart(title, summary, points))


def _chart(title: str, summary: str, points: list[tuple[float, int, int]]) -> Image.Image:
    height = 590
    im = Image.new("RGB", (W, height), BACKGROUND)
    d = Draw(im)
    d.text((MARGIN, 34), fit(title, TITLE, W - 2 * MARGIN), font=font(TITLE), fill=TEXT, anchor="lm")
    d.text((MARGIN, 80), fit(summary, BODY, W - 2 * MARGIN), font=font(BODY), fill=MUTED, anchor="lm")
    d.text((MARGIN, 122), tx("rating after each game"), font=font(SMALL), fill=MUTED, anchor="lm")
    left, right, top, bottom = MARGIN + 70, W - MARGIN, 144, 410
    d.rectangle([left, top, right, bottom], fill=PANEL)
    if not points:
        d.text((W / 2, (top + bottom) / 2), tx("No rated games yet."), font=font(BODY), fill=MUTED, anchor="mm")
        return im
    values = [p[0] for p in points]
    low, high = min(values + [0.0]), max(values + [0.0])
    if high - low < 4:
        low, high = low - 2, high + 2
    pad = (high - low) * 0.08
    low, high = low - pad, high + pad

    def y_of(v: float) -> float:
        return bottom - (v - low) / (high - low) * (bottom - top)

    n = len(points)

    def x_of(i: int) -> float:
        return left + 20 + (right - left - 40) * (i / (n - 1) if n > 1 else 0.5)

    drawn: list[float] = []
    for v in sorted({0, round(min(values)), round(max(values))}, key=lambda t: (t != 0, t)):  # 0 first
        y = y_of(v)
        if low <= v <= high and all(abs(y - other) > 30 for other in drawn):  # labels never overlap
            drawn.append(y)
            d.line([left, y, right, y], fill=GRID, width=1)
            d.text((left - 8, y), f"{v:g}", font=font(SMALL), fill=MUTED, anchor="rm")
    xy = [(x_of(i), y_of(v)) for i, v in enumerate(values)]
    if n > 1:
        d.line(xy, fill=LINE, width=4, joint="curve")
    for (x, y), (_, place, _) in zip(xy, points):
        r = 7 if n <= 40 else 4
        d.ellipse([x - r, y - r, x + r, y + r], fill=GOLD if place == 1 else LINE)
    # Places: the newest games (as many as fit), one box each, gold for a win.
    d.text((MARGIN, 448), tx("Places, newest last"), font=font(SMALL), fill=MUTED, anchor="lm")
    box = 44
    fits = (W - 2 * MARGIN) // (box + 6)
    x = MARGIN
    for _, place, field in points[-fits:]:
        won = place == 1
        d.rounded_rectangle(
            [x, 470, x + box, 470 + box], radius=8, fill=GOLD if won else PANEL, outline=None if won else GRID, width=2
        )
        d.text(
            (x + box / 2, 470 + box / 2), str(place), font=font(BODY), fill=(20, 20, 24) if won else TEXT, anchor="mm"
        )
        x += box + 6
    d.text(
        (MARGIN, 552),
        tx("1 = won; the line is the rating shown on the leaderboard."),
        font=font(SMALL),
        fill=MUTED,
        anchor="lm",
    )
    return im


# -- the end of a game: its statistics ----------------------------------------------------------


def render_game_stats(stats: dict[str, Any], names: list[str], locale: str = "en") -> bytes:
    """`stats`: {"title": Msg, "rows": [{"label": Msg, "values": [per seat], "section"?: Msg}]}
    (a value a number or short text; a row with "section" starts a titled group)."""
    with drawing_in(locale):
        return png_bytes(_game_stats(stats, names))


def _game_stats(stats: dict[str, Any], names: list[str]) -> Image.Image:
    rows = stats.get("rows") or []
    seats = max((len(r["values"]) for r in rows), default=len(names))
    label_w = 300 if seats <= 5 else 250
    col = (W - 2 * MARGIN - label_w) / max(1, seats)
    row_h = 40
    sections = sum(1 for r in rows if r.get("section"))
    head_rows = 2 if col < 120 else 1  # narrow columns: the names on two lines
    height = 84 + head_rows * 34 + 16 + row_h * len(rows) + 44 * sections + 20
    im = Image.new("RGB", (W, height), BACKGROUND)
    d = Draw(im)
    d.text(
        (W / 2, 40),
        fit(words(stats.get("title")) or tx("Statistics"), TITLE, W - 2 * MARGIN),
        font=font(TITLE),
        fill=TEXT,
        anchor="mm",
    )
    y = 84
    for seat in range(seats):
        cx = MARGIN + label_w + col * (seat + 0.5)
        name = player_name(names, seat)
        d.rounded_rectangle(
            [cx - col / 2 + 3, y, cx + col / 2 - 3, y + head_rows * 34], radius=6, fill=seat_colour(seat)
        )
        ink = (20, 20, 24) if sum(seat_colour(seat)) > 450 else (255, 255, 255)
        if head_rows == 1:
            d.text((cx, y + 17), fit(name, SMALL, col - 10), font=font(SMALL), fill=ink, anchor="mm")
        else:  # two lines: broken at a space where the name has one that fits; the second clipped
            first, rest = _two_lines(name, col - 10)
            d.text((cx, y + 17), first, font=font(SMALL), fill=ink, anchor="mm")
            if rest:
                d.text((cx, y + 51), fit(rest, SMALL, col - 10), font=font(SMALL), fill=ink, anchor="mm")
    y += head_rows * 34 + 16
    for i, row in enumerate(rows):
        if row.get("section"):
            d.text(
                (MARGIN, y + 22),
                fit(words(row["section"]), BODY, W - 2 * MARGIN),
                font=font(BODY),
                fill=GOLD,
                anchor="lm",
            )
            y += 44
        if i % 2 == 0:
            d.rectangle([MARGIN, y, W - MARGIN, y + row_h - 2], fill=PANEL)
        d.text(
            (MARGIN + 8, y + row_h / 2),
            fit(words(row["label"]), SMALL, label_w - 12),
            font=font(SMALL),
            fill=TEXT,
            anchor="lm",
        )
        values = list(row["values"])
        best = _best(values, row.get("best"))
        for seat, value in enumerate(values):
            cx = MARGIN + label_w + col * (seat + 0.5)
            text = words(value) if not isinstance(value, (int, float)) else _number(value)
            d.text(
                (cx, y + row_h / 2),
                fit(text, SMALL, col - 8),
                font=font(SMALL),
                fill=GOLD if seat in best else TEXT,
                anchor="mm",
            )
        y += row_h
    return im


def _two_lines(name: str, width: float) -> tuple[str, str]:
    f = font(SMALL)
    if f.getlength(name) <= width:
        return name, ""
    words_ = name.split(" ")
    for n in range(len(words_) - 1, 0, -1):
        head = " ".join(words_[:n])
        if f.getlength(head) <= width:
            return head, " ".join(words_[n:])
    cut = next(k for k in range(len(name), 0, -1) if f.getlength(name[:k]) <= width or k == 1)
    return name[:cut], name[cut:]  # no space to break at (山田太郎): broken where the line is full


def _number(value: float) -> str:
    return f"{value:g}" if isinstance(value, int) or value == int(value) else f"{value:.1f}"


def _best(values: list[Any], how: str | None) -> set[int]:
    """The seats a row marks in gold: the highest ("max") or lowest ("min") number, if any differ."""
    nums = [v for v in values if isinstance(v, (int, float))]
    if how not in ("max", "min") or len(nums) != len(values) or len(set(nums)) < 2:
        return set()
    target = max(nums) if how == "max" else min(nums)
    return {i for i, v in enumerate(values) if v == target}


def end_stats(
    engine: Engine,
    options: dict[str, Any],
    seats: int,
    seed: int,
    actions: list[tuple[int, dict[str, Any]]],
    final: dict | None,
    names: list[str],
    locale: str,
) -> bytes | None:
    """The statistics image of a finished game (None where there is none)."""
    stats = compute_stats(engine, options, seats, seed, actions, final)
    return None if stats is None else render_game_stats(stats, names, locale)
