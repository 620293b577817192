"""PON images: the circuit board (channel), a seat's hand (DM) and the final result, drawn from
the engine's views.

Only view keys are read (see bot/games/pon/engine.py `view`); unknown or missing keys are
tolerated. Discord's phone preview shows an image 390 px wide: the canvas is 800 px wide and no
text is smaller than SMALL (24 px, min_font(800) is 23), so every text stays legible there. The
course being raced is drawn large with its whole text; the others are tiles with number and name.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from bot.games.base import name_seats
from bot.games.text import chain, plus
from bot.i18n import Msg, msg
from rendering.common import (
    BACKGROUND,
    MUTED,
    PANEL,
    seat_colour,
    TEXT,
    MaskDraw as Draw,
    clean_text,
    drawing_in,
    fit,
    font,
    png_bytes,
    player_name,
    tx,
    words,
    wrap,
)

W = 800
MARGIN = 20
SMALL = 24  # the smallest text anywhere
TILE_COLS = 5
TILE_GAP = 10
TILE_H = 122
TILE_ROW = TILE_H + 12  # a row of tiles and the gap under it
HIGHLIGHT = (255, 214, 10)
CARD_FACE = (241, 236, 220)
CARD_INK = (24, 24, 28)
CARD_BACK = (58, 72, 110)
CARD_BACK_LINE = (80, 96, 140)
PASSED = (70, 72, 78)
NUMBER_COLOURS = {1: (52, 152, 219), 2: (46, 174, 96), 3: (230, 126, 34), 4: (192, 57, 43)}
ROW_ALT = (54, 57, 63)
ROW_H = 86  # a running-order row: name and tags, then hand and PON sets
CAPTION_H = 30
LOG_LINES = 5
MAX_H = 2 * W  # like the other games' boards: at most twice as tall as wide
ORANGE = (245, 130, 32)
TAG = (70, 74, 82)


# -- text helpers --------------------------------------------------------------------------------


def _int(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _with_names(line: Any, names: list[str]) -> str:
    """Log lines (Msgs) name seats with markers; the image says the players' names."""
    return name_seats(words(line), [player_name(names, i) for i in range(max(len(names), 4))])


def _number_of(label: Any) -> int:
    """A card label's number: a Msg's {n}, or the head of an English label ("3 · Scavenge")."""
    if isinstance(label, Msg):
        n = label.params.get("n")
        return n if isinstance(n, int) else 0
    label = str(label or "")
    head = label.split(" ", 1)[0] if label else ""
    return int(head) if head.isdigit() else 0


def _short_label(label: Any) -> str:
    """'3 · Scavenge' -> 'Scavenge'; course cards keep a (c) mark."""
    if isinstance(label, Msg) and "name" in label.params:
        if label.key == "{n} · {name} (course)":
            return tx("{name} (c)", name=words(label.params["name"]))
        return words(label.params["name"])
    label = words(label)
    rest = label.split("·", 1)[1].strip() if "·" in label else label
    return rest.replace(" (course)", " (c)")


def _ordinal(i: int) -> str:
    return {0: tx("1st"), 1: tx("2nd"), 2: tx("3rd")}.get(i, tx("{n}th", n=i + 1))


# -- drawing pieces ------------------------------------------------------------------------------


def _number_tile(d, x: float, y: float, n: int, size: int) -> None:
    fill = NUMBER_COLOURS.get(n, MUTED)
    d.rounded_rectangle([x, y, x + size, y + size], radius=max(4, size // 5), fill=fill, outline=(20, 20, 24), width=2)
    d.text(
        (x + size / 2, y + size / 2),
        str(n) if n else "?",
        font=font(max(SMALL, int(size * 0.7))),
        fill=(255, 255, 255),
        anchor="mm",
    )


def _tag(d, x: float, y: float, text: str, fill, ink=TEXT, size: int = SMALL) -> float:
    w = font(size).getlength(text) + 16
    d.rounded_rectangle([x, y, x + w, y + size + 10], radius=8, fill=fill)
    d.text((x + 8, y + (size + 10) / 2), text, font=font(size), fill=ink, anchor="lm")
    return w


def _chip_w(label: Any, size: int = SMALL) -> float:
    return 34 + 10 + font(size).getlength(clean_text(_short_label(label))) + 12


def _chip(d, x: float, y: float, label: Any, max_w: float) -> float:
    """A throttle or discard card: its number tile and name; returns its width."""
    name = clean_text(_short_label(label))
    w = min(max_w, _chip_w(label))
    d.rounded_rectangle([x, y, x + w, y + 38], radius=8, fill=(230, 230, 232))
    _number_tile(d, x + 2, y + 2, _number_of(label), 34)
    d.text((x + 44, y + 19), fit(name, SMALL, w - 52), font=font(SMALL), fill=CARD_INK, anchor="lm")
    return w


def _lines(
    d, x: float, y: float, text: str, size: int, width: float, colour, max_lines: int, step: int | None = None
) -> float:
    """Wrapped text; returns the y below it."""
    step = step or size + 8
    for line in wrap(text, size, width, max_lines):
        d.text((x, y), line, font=font(size), fill=colour)
        y += step
    return y


def _course_name(course: dict) -> str:
    return clean_text(words(course.get("name")), "?")


def _flag(d, x: float, y: float, chequered: bool) -> None:
    """A small flag on a pole: green for the start, chequered for the goal."""
    d.line([(x, y), (x, y + 22)], fill=TEXT, width=2)
    if not chequered:
        d.rectangle([x + 2, y, x + 26, y + 14], fill=(42, 170, 90))
        return
    for i in range(4):
        for j in range(2):
            fill = (250, 250, 250) if (i + j) % 2 == 0 else (18, 18, 20)
            d.rectangle([x + 2 + 6 * i, y + 7 * j, x + 7 + 6 * i, y + 6 + 7 * j], fill=fill)


def _tile(d, x: float, y: float, w: float, course: dict, current: bool, total: int, names: list[str]) -> None:
    """One course of the circuit, small: index, number, name, throttle numbers."""
    idx = _int(course.get("index"))
    passed = bool(course.get("passed"))
    up = bool(course.get("face_up"))
    if current:
        d.rounded_rectangle([x - 5, y - 5, x + w + 5, y + TILE_H + 5], radius=12, fill=HIGHLIGHT)
    face = PASSED if passed else CARD_FACE if up else CARD_BACK
    ink = (190, 190, 196) if passed else CARD_INK if up else (215, 222, 240)
    d.rounded_rectangle([x, y, x + w, y + TILE_H], radius=10, fill=face, outline=(20, 20, 24), width=2)
    strip = (90, 70, 0) if current else (40, 42, 46)
    d.rounded_rectangle([x, y, x + w, y + 34], radius=10, fill=strip)
    d.rectangle([x, y + 20, x + w, y + 34], fill=strip)
    tag = tx("#{k}", k=idx + 1)
    room = w - (50 if up else 16)
    if idx in (0, total - 1):  # the words when they fit, else a flag that says it in any language
        word = tx("#{k} START", k=idx + 1) if idx == 0 else tx("#{k} GOAL", k=idx + 1)
        if font(SMALL).getlength(word) <= room:
            tag = word
        else:
            fx = x + 14 + font(SMALL).getlength(tag)
            _flag(d, fx, y + 7, chequered=idx > 0)
    if up:  # the course number at the strip's right end, the name below on up to two lines
        _number_tile(d, x + w - 34, y + 3, _int(course.get("number")), 28)
    d.text((x + 8, y + 17), fit(tag, SMALL, room), font=font(SMALL), fill=TEXT, anchor="lm")
    if up:
        for i, line in enumerate(wrap(_course_name(course), SMALL, w - 12, 2)):
            d.text((x + 6, y + 48 + 24 * i), line, font=font(SMALL), fill=ink, anchor="lm")
    else:
        known = [s for s in course.get("known_by") or [] if isinstance(s, int)]
        if known:  # who has looked at it: the names on their own line, as wide as the tile
            d.text(
                (x + w / 2, y + 50),
                fit(tx("seen by"), SMALL, w - 8),
                font=font(SMALL),
                fill=(200, 210, 235),
                anchor="mm",
            )
            who = words([player_name(names, s) for s in known])
            d.text((x + w / 2, y + 76), fit(who, SMALL, w - 8), font=font(SMALL), fill=(255, 230, 150), anchor="mm")
        else:
            d.text((x + w / 2, y + 60), "?", font=font(40), fill=(200, 210, 235), anchor="mm")
    throttle = list(course.get("throttle") or [])
    if throttle:
        tx0 = x + 6
        for label in throttle[:3]:
            _number_tile(d, tx0, y + TILE_H - 34, _number_of(label), 30)
            tx0 += 33
        if len(throttle) > 3:
            d.text((tx0 + 2, y + TILE_H - 19), f"+{len(throttle) - 3}", font=font(SMALL), fill=ink, anchor="lm")


def _course_panel(d, y: float, course: dict, title: str, names: list[str], colour, measure: bool = False) -> float:
    """A course in full: number, name, its whole text and its throttle; returns its height."""
    x0, x1 = MARGIN, W - MARGIN
    inner = x1 - x0 - 28
    head = f"{title}  " + tx("#{k}", k=_int(course.get("index")) + 1)
    up = bool(course.get("face_up"))
    effect = clean_text(words(course.get("effect"))) if up else tx("face down")
    effect_lines = wrap(effect, 26, inner, 4)
    throttle = list(course.get("throttle") or [])
    rows, x = 1, 0.0
    for label in throttle:
        w = _chip_w(label) + 8
        if x and x + w > inner:
            rows, x = rows + 1, 0.0
        x += w
    h = 14 + 44 + 34 * len(effect_lines) + (36 + 46 * rows if throttle else 0) + 10
    if measure:
        return h
    d.rounded_rectangle([x0, y, x1, y + h], radius=12, fill=PANEL, outline=colour, width=3)
    d.text((x0 + 14, y + 14 + 20), fit(head, 28, 200), font=font(28), fill=colour, anchor="lm")
    hx = x0 + 14 + min(200, font(28).getlength(head)) + 14
    if up:
        _number_tile(d, hx, y + 14, _int(course.get("number")), 40)
        d.text((hx + 52, y + 34), fit(_course_name(course), 30, x1 - hx - 66), font=font(30), fill=TEXT, anchor="lm")
    yy = y + 14 + 44 + 4
    for line in effect_lines:
        d.text((x0 + 14, yy), line, font=font(26), fill=TEXT)
        yy += 34
    if throttle:
        d.text((x0 + 14, yy + 4), tx("Throttle ({n})", n=len(throttle)), font=font(SMALL), fill=MUTED)
        yy += 36
        x = 0.0
        for label in throttle:
            w = _chip_w(label) + 8
            if x and x + w > inner:
                x, yy = 0.0, yy + 46
            _chip(d, x0 + 14 + x, yy, label, inner)
            x += w
    return h


def _next_lines(course: dict | None) -> list[str]:
    if not course:
        return []
    if not course.get("face_up"):
        return [tx("face down")]
    return wrap(clean_text(words(course.get("effect"))), SMALL, W - 2 * MARGIN - 28, 2)


# -- the board -----------------------------------------------------------------------------------


def render_board(view: dict, names: list[str], locale: str = "en") -> bytes:
    """The public board: the course being raced in full, the whole circuit as tiles, the running
    order with PON sets and hands, status and latest log; its texts in `locale`."""
    with drawing_in(locale):
        # A palette of the image's own 256 colours (flat fills and text): a third of the RGB
        # file and faster to encode (issue #33: the slowest public board).
        return png_bytes(
            _draw_board(view, names).quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        )


def _draw_board(view: dict, names: list[str]) -> Image.Image:
    courses = [c for c in view.get("courses") or [] if isinstance(c, dict)]
    total = max(1, len(courses))
    phase = view.get("phase")
    current = _int(view.get("current"))
    racing = phase not in ("peek", "over") and 0 <= current < len(courses)
    tile_rows = -(-len(courses) // TILE_COLS)
    order = [s for s in view.get("order") or [] if isinstance(s, int)]
    log_lines = [clean_text(_with_names(x, names)) for x in (view.get("log") or [])][-5:]
    status = [
        (line, colour) for text, colour in _status_lines(view, names) for line in wrap(text, 26, W - 2 * MARGIN - 12, 3)
    ]
    log_wrapped = [line for text in log_lines for line in wrap(text, SMALL, W - 2 * MARGIN - 28, 2)][-LOG_LINES:]
    header_h = 110
    now_h = _course_panel(None, 0, courses[current], "", names, HIGHLIGHT, True) + 16 if racing else 0
    nxt = courses[current + 1] if racing and current + 1 < len(courses) else None
    next_lines = _next_lines(nxt)
    if nxt and not nxt.get("face_up"):
        next_lines = []  # "Next: #11 — face down", one line
    next_h = 50 + 32 * len(next_lines) + 14 if nxt else 0
    circuit_h = CAPTION_H + tile_rows * TILE_ROW + 8
    order_h = 50 + ROW_H * max(1, len(order)) + 10
    status_h = 16 + 34 * len(status)
    log_h = 50 + 32 * len(log_wrapped) + 10
    height = header_h + now_h + next_h + circuit_h + order_h + status_h + log_h + 10
    while height > MAX_H and len(log_wrapped) > 1:  # at most twice as tall as wide: the log gives way
        log_wrapped.pop(0)
        log_h -= 32
        height -= 32
    im = Image.new("RGB", (W, int(height)), BACKGROUND)
    d = Draw(im)
    _board_header(d, view, names, total)
    y: float = header_h

    # the course being raced, in full
    if racing:
        _course_panel(d, y, courses[current], tx("NOW"), names, HIGHLIGHT)
        y += now_h
    if nxt:  # the next course too, so that the table can plan for it
        _next_panel(d, y, nxt, next_lines, next_h)
        y += next_h

    _circuit_panel(d, y, courses, current if racing else None, names)
    y += circuit_h

    # running order
    d.rounded_rectangle([MARGIN, y, W - MARGIN, y + order_h - 10], radius=12, fill=PANEL)
    d.text((MARGIN + 14, y + 26), tx("Running order"), font=font(26), fill=TEXT, anchor="lm")
    d.text((W - MARGIN - 14, y + 26), tx("PON sets"), font=font(SMALL), fill=MUTED, anchor="rm")
    yy = y + 50
    for rank, seat in enumerate(order):
        _order_row(d, yy, view, names, (rank, seat))
        yy += ROW_H
    y += order_h

    # status
    for i, (text, colour) in enumerate(status):
        d.text((MARGIN + 6, y + 20 + i * 34), text, font=font(26), fill=colour, anchor="lm")
    y += status_h

    _log_panel(d, y, log_wrapped, log_h)
    return im


def _circuit_panel(d, y: float, courses: list[dict], current: int | None, names: list[str]) -> None:
    """The circuit at `y`: every course as a tile under its caption, the one being raced (`current`) marked."""
    total = max(1, len(courses))
    tw = (W - 2 * MARGIN - (TILE_COLS - 1) * TILE_GAP) / TILE_COLS
    # the circuit: tiles in course order, five a row, under a caption that says what the tiles'
    # numbers are (the course's number top right, its throttle's cards along the bottom)
    d.text(
        (MARGIN + 4, y + CAPTION_H / 2),
        fit(tx("Circuit · top right: course number · bottom: throttle cards"), SMALL, W - 2 * MARGIN - 8),
        font=font(SMALL),
        fill=MUTED,
        anchor="lm",
    )
    for course in courses:
        idx = _int(course.get("index"))
        r, c = divmod(idx, TILE_COLS)
        _tile(
            d, MARGIN + c * (tw + TILE_GAP), y + CAPTION_H + 8 + r * TILE_ROW, tw, course, idx == current, total, names
        )


def _log_panel(d, y: float, lines: list[str], h: float) -> None:
    """The latest log lines in a panel of height `h` at `y`."""
    d.rounded_rectangle([MARGIN, y, W - MARGIN, y + h - 10], radius=12, fill=PANEL)
    d.text((MARGIN + 14, y + 24), tx("Latest"), font=font(SMALL), fill=MUTED, anchor="lm")
    for i, line in enumerate(lines):
        d.text((MARGIN + 14, y + 50 + i * 32), line, font=font(SMALL), fill=TEXT)


def _board_header(d, view: dict, names: list[str], total: int) -> None:
    """The board's title, the course raced, the deck and the course's order of play. The thread
    draws a course's board once and keeps it up while the players take their turns in it (its
    post's "Waiting for" line is what changes), so the board names the order, not who is to act."""
    phase = view.get("phase")
    current = _int(view.get("current"))
    d.text((MARGIN, 32), "PON", font=font(40), fill=TEXT, anchor="lm", stroke_width=1, stroke_fill=TEXT)
    if phase == "peek":
        sub = tx("Setup: players peek at courses")
    elif phase == "over":
        sub = tx("Race over")
    else:
        sub = tx("Course {k} of {n}", k=current + 1, n=total)
    d.text((MARGIN + 110, 32), fit(sub, 30, W - 2 * MARGIN - 250), font=font(30), fill=TEXT, anchor="lm")
    deck = _int(view.get("deck_count"))
    if deck:
        text = tx("Deck {n}", n=deck)
        _tag(d, W - MARGIN - font(SMALL).getlength(text) - 16, 15, text, TAG)
    order = [s for s in view.get("turn_order") or [] if isinstance(s, int)]
    winner = view.get("winner")
    if isinstance(winner, int):
        line, colour = tx("Winner: {name}", name=player_name(names, winner)), HIGHLIGHT
    elif order and phase not in ("peek", "over"):
        line, colour = tx("Order of play: {who}", who=[player_name(names, s) for s in order]), HIGHLIGHT
    else:
        line, colour = "", TEXT
    d.text((MARGIN, 82), fit(line, 28, W - 2 * MARGIN), font=font(28), fill=colour, anchor="lm")


def _next_panel(d, y: float, nxt: dict, next_lines: list[str], next_h: float) -> None:
    """The next course's panel (its number, name and effect once face up)."""
    d.rounded_rectangle([MARGIN, y, W - MARGIN, y + next_h - 14], radius=12, fill=PANEL)
    head = tx("Next: #{k}", k=_int(nxt.get("index")) + 1)
    d.text((MARGIN + 14, y + 25), head, font=font(26), fill=MUTED, anchor="lm")
    if not nxt.get("face_up"):
        d.text(
            (MARGIN + 14 + font(26).getlength(head) + 14, y + 25),
            tx("face down"),
            font=font(26),
            fill=TEXT,
            anchor="lm",
        )
    if nxt.get("face_up"):
        hx = MARGIN + 14 + font(26).getlength(head) + 12
        _number_tile(d, hx, y + 8, _int(nxt.get("number")), 34)
        d.text(
            (hx + 44, y + 25), fit(_course_name(nxt), 26, W - MARGIN - hx - 58), font=font(26), fill=TEXT, anchor="lm"
        )
    for i, line in enumerate(next_lines):
        d.text((MARGIN + 14, y + 50 + 32 * i), line, font=font(SMALL), fill=TEXT)


def _order_row(d, yy: float, view: dict, names: list[str], place: tuple[int, int]) -> None:
    """One row of the running order (`place`: rank and seat): name and tags, then hand size and
    PON sets."""
    rank, seat = place
    phase = view.get("phase")
    winner = view.get("winner")
    if rank % 2:
        d.rectangle([MARGIN + 6, yy, W - MARGIN - 6, yy + ROW_H - 4], fill=ROW_ALT)
    d.text((MARGIN + 14, yy + 22), _ordinal(rank), font=font(28), fill=TEXT, anchor="lm")
    d.rounded_rectangle(
        [MARGIN + 80, yy + 6, MARGIN + 112, yy + 38], radius=8, fill=seat_colour(seat), outline=(15, 15, 18), width=2
    )
    name = fit(player_name(names, seat), 28, 280)
    d.text((MARGIN + 124, yy + 22), name, font=font(28), fill=TEXT, anchor="lm")
    tags = []
    if seat == winner:
        tags.append((tx("WINNER"), HIGHLIGHT, CARD_INK))
    if seat in set(view.get("block_right") or []):
        tags.append((tx("block right"), (42, 157, 80), TEXT))
    if seat in set(view.get("events_used") or []) and phase != "over":
        tags.append((tx("event used"), (90, 92, 100), TEXT))
    tag_x = MARGIN + 124 + font(28).getlength(name) + 12
    for text, fill, ink in tags:
        w = font(SMALL).getlength(text) + 16
        if tag_x + w > W - MARGIN - 10:
            break
        tag_x += _tag(d, tag_x, yy + 5, text, fill, ink) + 6
    # line 2: hand size, then the PON sets
    count = _int((view.get("hand_counts") or {}).get(str(seat)))
    x = MARGIN + 80 + _tag(d, MARGIN + 80, yy + 46, tx("Hand {n}", n=count), TAG) + 16
    sets = [[n for n in pset if isinstance(n, int)] for pset in (view.get("pon_sets") or {}).get(str(seat)) or []]
    if not sets:
        d.text((x, yy + 63), tx("no PON set"), font=font(SMALL), fill=MUTED, anchor="lm")
    for nums in sets:
        if x + 36 * len(nums) > W - MARGIN - 10:
            d.text((x, yy + 63), "…", font=font(SMALL), fill=TEXT, anchor="lm")
            break
        for n in nums:
            _number_tile(d, x, yy + 46, n, 34)
            x += 36
        x += 14


def _status_lines(view: dict, names: list[str]) -> list[tuple[str, tuple[int, int, int]]]:
    out: list[tuple[str, tuple[int, int, int]]] = []
    played = view.get("played")
    actor = view.get("actor")
    if view.get("phase") == "over":
        played = None
    if played and isinstance(actor, int):
        out.append(
            (tx("In play: {card} by {name}", card=clean_text(words(played)), name=player_name(names, actor)), TEXT)
        )
    chase = view.get("overtake")
    if isinstance(chase, dict):
        nums = [str(n) for n in chase.get("numbers") or []]
        need = nums + [tx("any")] * _int(chase.get("any"))
        who = {
            "a": player_name(names, _int(chase.get("attacker"))),
            "d": player_name(names, _int(chase.get("defender"))),
            "n": _int(chase.get("cards_needed")),
            "need": words(plus(need)) or "-",
        }
        if isinstance(chase.get("with_block_right"), int):
            text = tx(
                "Overtake: {a} attacks {d}; a block needs {n} card(s): {need} ({k} with the block right)",
                k=chase["with_block_right"],
                **who,
            )
        else:
            text = tx("Overtake: {a} attacks {d}; a block needs {n} card(s): {need}", **who)
        out.append((text, ORANGE))
    window = view.get("window")
    if isinstance(window, dict):
        out.append((tx("PON window on a {n}: waiting for declarations", n=_int(window.get("number"))), HIGHLIGHT))
    mods = view.get("mods") or {} if view.get("phase") != "over" else {}
    mod_text = {
        "block_extra": tx("blocks +1 card"),
        "pack_block_extra": tx("blocks +1 card (not the leader's)"),
        "block_discount": tx("blocks -1 card"),
        "no_pon": tx("no PON"),
        "no_slipstream": tx("no slipstream"),
        "slip_wide": tx("wide slipstream"),
        "hand_limit": tx("hand limit {n}", n=mods.get("hand_limit")),
    }
    active = [mod_text[k] for k in mods if k in mod_text]
    if active:
        out.append((tx("This turn: {mods}", mods=active), (120, 200, 255)))
    discard = view.get("discard") or []
    top = view.get("discard_top")
    if top:
        out.append((tx("Discard: {n} card(s), top {card}", n=len(discard), card=clean_text(words(top))), MUTED))
    else:
        out.append((tx("Discard: {n} card(s)", n=len(discard)), MUTED))
    return out


# -- the hand ------------------------------------------------------------------------------------


def render_hand(view: dict, names: list[str], locale: str = "en") -> bytes:
    """The viewing seat's hand (number and event of each card), the course being raced, its
    peeked courses and standing choices; texts in `locale`."""
    with drawing_in(locale):
        return png_bytes(_draw_hand(view, names))


HAND_COLS = 3
HAND_GAP = 14
HAND_CARD_H = 300


def _draw_hand(view: dict, names: list[str]) -> Image.Image:
    me = view.get("me") or {}
    seat = _int(me.get("seat"))
    hand = [c for c in me.get("hand") or [] if isinstance(c, dict)]
    peeked = [p for p in me.get("peeked") or [] if isinstance(p, dict)]
    courses = [c for c in view.get("courses") or [] if isinstance(c, dict)]
    cur = _int(view.get("current"))
    racing = view.get("phase") not in ("peek", "over") and 0 <= cur < len(courses)
    cw = (W - 2 * MARGIN - (HAND_COLS - 1) * HAND_GAP) / HAND_COLS
    rows = max(1, -(-len(hand) // HAND_COLS))
    inner = W - 2 * MARGIN
    peek_lines = []
    for p in peeked:
        line = tx(
            "#{k}: {n} {name} - {effect}",
            k=_int(p.get("index")) + 1,
            n=_int(p.get("number")),
            name=clean_text(words(p.get("name"))),
            effect=clean_text(words(p.get("effect"))),
        )
        peek_lines += wrap(line, SMALL, inner - 10, 3)
    prefs = me.get("prefs") or {}
    pon = prefs.get("pon") or {}
    pref_text = tx(
        "Standing choices: PON {pon} | when overtaken: {block} | refill: {refill} | hand-limit discard: {discard}",
        pon=words(chain("{a} {b}", [msg("{n}:{value}", n=k, value=msg(str(pon.get(k)))) for k in sorted(pon)])),
        block=words(msg(str(prefs.get("block", "-")))),
        refill=words(msg(str(prefs.get("refill", "-")))),
        discard=words(msg(str(prefs.get("discard", "-")))),
    )
    pref_lines = wrap(pref_text, SMALL, inner, 4)
    head = 140
    now_h = _course_panel(None, 0, courses[cur], "", names, HIGHLIGHT, True) + 16 if racing else 0
    cards_h = rows * (HAND_CARD_H + HAND_GAP) + 10 if hand else 100
    peek_h = 50 + 32 * len(peek_lines) if peek_lines else 0
    height = head + now_h + cards_h + peek_h + 20 + 32 * len(pref_lines) + 10
    im = Image.new("RGB", (W, int(height)), BACKGROUND)
    d = Draw(im)
    d.rounded_rectangle([MARGIN, 14, MARGIN + 38, 52], radius=8, fill=seat_colour(seat), outline=(15, 15, 18), width=2)
    d.text(
        (MARGIN + 52, 33),
        fit(tx("{name}'s hand", name=player_name(names, seat)), 32, inner - 60),
        font=font(32),
        fill=TEXT,
        anchor="lm",
        stroke_width=1,
        stroke_fill=TEXT,
    )
    _hand_info(d, view, seat, len(hand), racing)
    y: float = head
    if racing:
        _course_panel(d, y, courses[cur], tx("NOW"), names, HIGHLIGHT)
        y += now_h
    if not hand:
        d.text((MARGIN, y + 40), tx("No cards in hand."), font=font(28), fill=MUTED)
    for i, card in enumerate(hand):
        r, c = divmod(i, HAND_COLS)
        _hand_card(d, MARGIN + c * (cw + HAND_GAP), y + r * (HAND_CARD_H + HAND_GAP), cw, card)
    y += cards_h
    if peek_lines:
        d.text((MARGIN, y + 22), tx("Courses only you have seen:"), font=font(26), fill=TEXT, anchor="lm")
        for k, line in enumerate(peek_lines):
            d.text((MARGIN + 10, y + 56 + k * 32), line, font=font(SMALL), fill=TEXT, anchor="lm")
        y += peek_h
    for k, line in enumerate(pref_lines):
        d.text((MARGIN, y + 20 + k * 32), line, font=font(SMALL), fill=MUTED, anchor="lm")
    return im


def _hand_info(d, view: dict, seat: int, held: int, racing: bool) -> None:
    """The hand's tags (place, course, hand size, event used) and whether the seat is to move."""
    me = view.get("me") or {}
    cur = _int(view.get("current"))
    inner = W - 2 * MARGIN
    order = [s for s in view.get("order") or [] if isinstance(s, int)]
    info = []
    if seat in order:
        info.append(tx("{pos} of {n}", pos=_ordinal(order.index(seat)), n=len(order)))
    if racing:
        info.append(tx("Course {k}", k=cur + 1))
    info.append(tx("Hand {n}", n=held))
    if me.get("event_used"):
        info.append(tx("event used"))
    x: float = MARGIN
    for text in info:
        if x + font(SMALL).getlength(text) + 16 > W - MARGIN:
            break
        x += _tag(d, x, 62, text, TAG) + 8
    if me.get("to_act"):
        d.text(
            (MARGIN, 120), fit(tx("Your move: choose below."), 26, inner), font=font(26), fill=HIGHLIGHT, anchor="lm"
        )
    else:
        d.text((MARGIN, 120), fit(tx("Nothing to do right now."), 26, inner), font=font(26), fill=MUTED, anchor="lm")


def _hand_card(d, x: float, top: float, cw: float, card: dict) -> None:
    """One card of the hand: its number band, its event's name and text (a course card: its label)."""
    number = _int(card.get("number"))
    course_card = card.get("kind") == "course"
    band = NUMBER_COLOURS.get(number, MUTED)
    d.rounded_rectangle([x, top, x + cw, top + HAND_CARD_H], radius=12, fill=CARD_FACE, outline=(20, 20, 24), width=3)
    d.rounded_rectangle([x, top, x + cw, top + 72], radius=12, fill=band)
    d.rectangle([x, top + 50, x + cw, top + 72], fill=band)
    d.text((x + 16, top + 38), str(number), font=font(54), fill=(255, 255, 255), anchor="lm")
    if course_card:
        d.text((x + cw - 12, top + 38), tx("course"), font=font(SMALL), fill=(255, 255, 255), anchor="rm")
    title = clean_text(words(card.get("event"))) if not course_card else clean_text(_short_label(card.get("label")))
    d.text((x + 12, top + 94), fit(title, 26, cw - 24), font=font(26), fill=CARD_INK, anchor="lm")
    text = clean_text(words(card.get("text")))
    for k, line in enumerate(wrap(text, SMALL, cw - 24, 6)):
        d.text((x + 12, top + 118 + k * 29), line, font=font(SMALL), fill=(50, 50, 56))


# -- the result ----------------------------------------------------------------------------------


def render_results(view: dict, names: list[str], locale: str = "en") -> bytes:
    """The race's end: the winner, then every player in the final running order with their PON
    sets; texts in `locale`."""
    with drawing_in(locale):
        return png_bytes(_draw_results(view, names))


def _draw_results(view: dict, names: list[str]) -> Image.Image:
    order = [s for s in view.get("order") or [] if isinstance(s, int)]
    winner = view.get("winner")
    if isinstance(winner, int) and winner in order:
        order = [winner] + [s for s in order if s != winner]
    row_h = 96
    height = 170 + row_h * max(1, len(order)) + 20
    im = Image.new("RGB", (W, height), BACKGROUND)
    d = Draw(im)
    d.text(
        (W / 2, 44),
        fit(tx("PON - race over"), 40, W - 40),
        font=font(40),
        fill=TEXT,
        anchor="mm",
        stroke_width=1,
        stroke_fill=TEXT,
    )
    if isinstance(winner, int):
        d.text(
            (W / 2, 110),
            fit(tx("Winner: {name}", name=player_name(names, winner)), 34, W - 40),
            font=font(34),
            fill=HIGHLIGHT,
            anchor="mm",
        )
    pon_sets = view.get("pon_sets") or {}
    y = 160
    for rank, seat in enumerate(order):
        if rank % 2:
            d.rectangle([MARGIN, y, W - MARGIN, y + row_h - 4], fill=ROW_ALT)
        fill = seat_colour(seat)
        ring = {0: (255, 200, 40), 1: (200, 205, 215), 2: (205, 127, 50)}.get(rank, (15, 15, 18))
        d.rounded_rectangle(
            [MARGIN + 10, y + 14, MARGIN + 90, y + row_h - 18], radius=10, fill=fill, outline=ring, width=4
        )
        ink = (20, 20, 24) if sum(fill) > 450 else (255, 255, 255)
        d.text((MARGIN + 50, y + row_h / 2 - 2), _ordinal(rank), font=font(28), fill=ink, anchor="mm")
        d.text(
            (MARGIN + 110, y + 28),
            fit(player_name(names, seat), 30, W - 2 * MARGIN - 130),
            font=font(30),
            fill=TEXT,
            anchor="lm",
        )
        x = MARGIN + 110
        sets = [[n for n in pset if isinstance(n, int)] for pset in pon_sets.get(str(seat)) or []]
        if not sets:
            d.text((x, y + 68), tx("no PON set"), font=font(SMALL), fill=MUTED, anchor="lm")
        for nums in sets:
            if x + 36 * len(nums) > W - MARGIN - 10:
                break
            for n in nums:
                _number_tile(d, x, y + 50, n, 34)
                x += 36
            x += 14
        y += row_h
    return im
