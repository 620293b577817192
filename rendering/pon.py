"""PON images: the circuit board (channel) and a seat's hand (DM), drawn from the engine's views.

Only view keys are read (see bot/games/pon/engine.py `view`); unknown or missing keys are
tolerated. The canvas is 1200 px wide with fonts of 18 px and more, to stay legible on a phone.
"""
from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from bot.games.base import name_seats
from bot.games.text import chain, plus
from bot.i18n import Msg, msg
from rendering.common import (BACKGROUND, MUTED, PANEL, PLAYER_COLOURS, TEXT, clean_text, drawing_in, fit, font,
                             player_name, tx, words,
                              png_bytes, wrap)

W = 1200
MARGIN = 20
GAP = 26
CARD_H = 176
CHIP_H = 30
THROTTLE_SHOWN = 3
HIGHLIGHT = (255, 214, 10)
CARD_FACE = (241, 236, 220)
CARD_INK = (24, 24, 28)
CARD_BACK = (58, 72, 110)
CARD_BACK_LINE = (80, 96, 140)
PASSED = (70, 72, 78)
NUMBER_COLOURS = {1: (52, 152, 219), 2: (46, 174, 96), 3: (230, 126, 34), 4: (192, 57, 43)}
ROW_ALT = (54, 57, 63)
ORANGE = (245, 130, 32)


# -- text helpers --------------------------------------------------------------------------------

def _int(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _colour(seat: int) -> tuple[int, int, int]:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]




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

def _number_tile(d: ImageDraw.ImageDraw, x: float, y: float, n: int, size: int) -> None:
    fill = NUMBER_COLOURS.get(n, MUTED)
    d.rounded_rectangle([x, y, x + size, y + size], radius=max(4, size // 5), fill=fill, outline=(20, 20, 24),
                        width=2)
    d.text((x + size / 2, y + size / 2), str(n) if n else "?", font=font(int(size * 0.7)), fill=(255, 255, 255),
           anchor="mm")


def _chip(d: ImageDraw.ImageDraw, x: float, y: float, w: float, label: Any) -> None:
    d.rounded_rectangle([x, y, x + w, y + CHIP_H - 4], radius=6, fill=(230, 230, 232))
    n = _number_of(label)
    _number_tile(d, x + 2, y + 1, n, CHIP_H - 6)
    d.text((x + CHIP_H + 2, y + (CHIP_H - 4) / 2), fit(clean_text(_short_label(label)), 18, w - CHIP_H - 6),
           font=font(18), fill=CARD_INK, anchor="lm")


def _tag(d: ImageDraw.ImageDraw, x: float, y: float, text: str, fill, ink=TEXT, size: int = 20) -> float:
    w = font(size).getlength(text) + 16
    d.rounded_rectangle([x, y, x + w, y + size + 10], radius=8, fill=fill)
    d.text((x + 8, y + (size + 10) / 2), text, font=font(size), fill=ink, anchor="lm")
    return w


def _arrow(d: ImageDraw.ImageDraw, x: float, y: float, direction: str, colour=MUTED, s: float = 9) -> None:
    if direction == "right":
        pts = [(x - s, y - s), (x + s, y), (x - s, y + s)]
    elif direction == "left":
        pts = [(x + s, y - s), (x - s, y), (x + s, y + s)]
    else:  # down
        pts = [(x - s, y - s), (x + s, y - s), (x, y + s)]
    d.polygon(pts, fill=colour)


def _course_card(d: ImageDraw.ImageDraw, x: float, y: float, w: float, course: dict, current: bool,
                 total: int, names: list[str]) -> None:
    idx = _int(course.get("index"))
    passed = bool(course.get("passed"))
    up = bool(course.get("face_up"))
    if current:
        d.rounded_rectangle([x - 6, y - 6, x + w + 6, y + CARD_H + 6], radius=14, fill=HIGHLIGHT)
    if up:
        face = PASSED if passed else CARD_FACE
        ink = (170, 170, 176) if passed else CARD_INK
        d.rounded_rectangle([x, y, x + w, y + CARD_H], radius=10, fill=face, outline=(20, 20, 24), width=2)
        n = _int(course.get("number"))
        _number_tile(d, x + 8, y + 30, n, 46)
        size = 20
        title = wrap(clean_text(words(course.get("name"))), size, w - 66, 2)
        if any(line.endswith("…") for line in title):
            size = 18
            title = wrap(clean_text(words(course.get("name"))), size, w - 66, 2)
        for i, line in enumerate(title):
            d.text((x + 62, y + 53 + (i - (len(title) - 1) / 2) * 22), line, font=font(size), fill=ink, anchor="lm")
        effect = clean_text(words(course.get("effect")))
        for i, line in enumerate(wrap(effect, 18, w - 16, 4)):
            d.text((x + 8, y + 84 + i * 22), line, font=font(18), fill=ink)
    else:
        d.rounded_rectangle([x, y, x + w, y + CARD_H], radius=10, fill=CARD_BACK, outline=(20, 20, 24), width=2)
        d.rounded_rectangle([x + 8, y + 32, x + w - 8, y + CARD_H - 8], radius=8, outline=CARD_BACK_LINE, width=3)
        d.text((x + w / 2, y + 80), "?", font=font(56), fill=(200, 210, 235), anchor="mm")
        d.text((x + w / 2, y + 128), tx("face down"), font=font(18), fill=(200, 210, 235), anchor="mm")
        known = [s for s in course.get("known_by") or [] if isinstance(s, int)]
        if known:
            text = tx("seen: {who}", who=[fit(player_name(names, s), 18, 60) for s in known])
            d.text((x + w / 2, y + 154), fit(text, 18, w - 12), font=font(18), fill=(255, 230, 150), anchor="mm")
    # the index strip on top
    tag = tx("#{k}", k=idx + 1)
    if idx == 0:
        tag = tx("#{k} START", k=idx + 1)
    elif idx == total - 1:
        tag = tx("#{k} GOAL", k=idx + 1)
    strip_fill = (40, 42, 46) if not current else (90, 70, 0)
    d.rounded_rectangle([x, y, x + w, y + 24], radius=10, fill=strip_fill)
    d.rectangle([x, y + 12, x + w, y + 24], fill=strip_fill)
    d.text((x + 8, y + 12), tag, font=font(18), fill=TEXT, anchor="lm")
    if current:
        d.text((x + w - 8, y + 12), tx("NOW"), font=font(18), fill=HIGHLIGHT, anchor="rm")


def _throttle(d: ImageDraw.ImageDraw, x: float, y: float, w: float, labels: list, passed: bool) -> None:
    if not labels:
        return
    d.text((x + 2, y + 2), tx("Throttle ({n})", n=len(labels)), font=font(18), fill=MUTED)
    yy = y + 26
    for label in labels[:THROTTLE_SHOWN]:
        _chip(d, x, yy, w, label)
        yy += CHIP_H
    if len(labels) > THROTTLE_SHOWN:
        d.text((x + 4, yy), tx("+{n} more", n=len(labels) - THROTTLE_SHOWN), font=font(18), fill=MUTED)


# -- the board -----------------------------------------------------------------------------------

def _circuit_layout(total: int) -> list[tuple[int, int]]:
    """(row, column) per course: the top row runs left to right, the bottom row back (an oval)."""
    per_row = (total + 1) // 2
    out = []
    for i in range(total):
        if i < per_row:
            out.append((0, i))
        else:
            out.append((1, per_row - 1 - (i - per_row)))
    return out


def render_board(view: dict, names: list[str], locale: str = "en") -> bytes:
    """The public board: circuit with throttles, running order with PON sets and hands, status, log;
    its texts in `locale`."""
    with drawing_in(locale):
        return _render_board(view, names)


def _render_board(view: dict, names: list[str]) -> bytes:
    courses = [c for c in view.get("courses") or [] if isinstance(c, dict)]
    total = max(1, len(courses))
    per_row = (total + 1) // 2
    cw = (W - 2 * MARGIN - (per_row - 1) * GAP) / per_row
    layout = _circuit_layout(len(courses))

    def throttle_height(row: int) -> int:
        sizes = [len(c.get("throttle") or []) for c, (r, _) in zip(courses, layout) if r == row]
        most = max(sizes, default=0)
        if not most:
            return 0
        return 26 + min(most, THROTTLE_SHOWN) * CHIP_H + (22 if most > THROTTLE_SHOWN else 0)

    row_tops = [0, CARD_H + 10 + throttle_height(0) + 28]
    header_h = 84
    circuit_top = header_h + 8
    circuit_h = row_tops[1] + (CARD_H + 10 + throttle_height(1) if len(courses) > per_row else 0) + 16
    order = [s for s in view.get("order") or [] if isinstance(s, int)]
    seats = _int(view.get("seats"), len(order))
    standings_h = 44 + 62 * max(1, len(order))
    log_lines = [clean_text(_with_names(x, names)) for x in (view.get("log") or [])][-7:]
    status = _status_lines(view, names)
    status_h = 20 + 28 * len(status)
    log_h = 44 + 24 * len(log_lines)
    height = circuit_top + circuit_h + standings_h + status_h + log_h + 20
    im = Image.new("RGB", (W, int(height)), BACKGROUND)
    d = ImageDraw.Draw(im)

    # header
    current = _int(view.get("current"))
    d.text((MARGIN, 26), "PON", font=font(40), fill=TEXT, anchor="lm")
    phase = view.get("phase")
    if phase == "peek":
        sub = tx("Setup: players peek at courses")
    elif phase == "over":
        sub = tx("Race over")
    else:
        sub = tx("Course {k} of {n}", k=current + 1, n=total)
    d.text((MARGIN + 110, 26), sub, font=font(28), fill=TEXT, anchor="lm")
    waiting = [s for s in view.get("waiting_for") or [] if isinstance(s, int)]
    winner = view.get("winner")
    if isinstance(winner, int):
        line = tx("Winner: {name}", name=player_name(names, winner))
        colour = HIGHLIGHT
    elif waiting:
        line = tx("Waiting for: {who}", who=[player_name(names, s) for s in waiting])
        colour = HIGHLIGHT
    else:
        line, colour = "", TEXT
    d.text((MARGIN, 64), fit(line, 24, W - 2 * MARGIN), font=font(24), fill=colour, anchor="lm")
    deck = _int(view.get("deck_count"))
    if deck:
        d.text((W - MARGIN, 26), tx("Deck {n}", n=deck), font=font(22), fill=MUTED, anchor="rm")

    # circuit
    for course, (row, col) in zip(courses, layout):
        x = MARGIN + col * (cw + GAP)
        y = circuit_top + row_tops[row]
        idx = _int(course.get("index"))
        is_current = idx == current and phase not in ("peek", "over")
        _course_card(d, x, y, cw, course, is_current, total, names)
        _throttle(d, x, y + CARD_H + 8, cw, list(course.get("throttle") or []),
                  bool(course.get("passed")))
        mid = y + CARD_H / 2
        if row == 0 and col < per_row - 1:
            _arrow(d, x + cw + GAP / 2, mid, "right")
        elif row == 1 and col > 0 and idx < total - 1:
            _arrow(d, x - GAP / 2, mid, "left")
    if len(courses) > per_row:
        _arrow(d, W - MARGIN - cw / 2, circuit_top + row_tops[1] - 16, "down")

    # standings
    y = circuit_top + circuit_h
    d.rounded_rectangle([MARGIN, y, W - MARGIN, y + standings_h - 10], radius=12, fill=PANEL)
    d.text((MARGIN + 14, y + 20), tx("Running order"), font=font(22), fill=TEXT, anchor="lm")
    d.text((640, y + 20), tx("PON sets"), font=font(20), fill=MUTED, anchor="lm")
    d.text((440, y + 20), tx("Hand"), font=font(20), fill=MUTED, anchor="lm")
    hand_counts = view.get("hand_counts") or {}
    pon_sets = view.get("pon_sets") or {}
    block_right = set(view.get("block_right") or [])
    events_used = set(view.get("events_used") or [])
    actor = view.get("actor")
    yy = y + 40
    for rank, seat in enumerate(order):
        if rank % 2:
            d.rectangle([MARGIN + 6, yy, W - MARGIN - 6, yy + 58], fill=ROW_ALT)
        d.text((MARGIN + 18, yy + 29), _ordinal(rank), font=font(26), fill=TEXT, anchor="lm")
        d.rounded_rectangle([MARGIN + 74, yy + 12, MARGIN + 108, yy + 46], radius=8, fill=_colour(seat),
                            outline=(15, 15, 18), width=2)
        label = tx("{name} (P{n})", name=fit(player_name(names, seat), 26, 220), n=seat + 1)
        d.text((MARGIN + 120, yy + 29), label, font=font(26), fill=TEXT, anchor="lm")
        count = _int(hand_counts.get(str(seat)))
        for k in range(min(count, 6)):
            d.rounded_rectangle([440 + k * 22, yy + 14, 440 + k * 22 + 18, yy + 44], radius=4,
                                fill=(200, 205, 215), outline=(30, 30, 34))
        d.text((440 + min(count, 6) * 22 + 8, yy + 29), str(count), font=font(24), fill=TEXT, anchor="lm")
        x = 640
        for pset in pon_sets.get(str(seat)) or []:
            nums = [n for n in pset if isinstance(n, int)]
            for n in nums:
                _number_tile(d, x, yy + 13, n, 32)
                x += 34
            x += 14
        if not pon_sets.get(str(seat)):
            d.text((x, yy + 29), "-", font=font(24), fill=MUTED, anchor="lm")
        tags = []
        if seat == winner:
            tags.append((tx("WINNER"), HIGHLIGHT, CARD_INK))
        if seat == actor and phase == "main":
            tags.append((tx("main phase"), (60, 110, 200), TEXT))
        if seat in waiting:
            tags.append((tx("to act"), HIGHLIGHT, CARD_INK))
        if seat in block_right:
            tags.append((tx("block right"), (42, 157, 80), TEXT))
        if seat in events_used and phase != "over":
            tags.append((tx("event used"), (90, 92, 100), TEXT))
        tag_x = W - MARGIN - 12
        for text, fill, ink in reversed(tags):
            w = font(18).getlength(text) + 16
            tag_x -= w
            _tag(d, tag_x, yy + 15, text, fill, ink, size=18)
            tag_x -= 8
        yy += 62
    _ = seats

    # status
    y = circuit_top + circuit_h + standings_h
    for i, (text, colour) in enumerate(status):
        d.text((MARGIN + 6, y + 14 + i * 28), fit(text, 22, W - 2 * MARGIN), font=font(22), fill=colour,
               anchor="lm")

    # log
    y += status_h
    d.rounded_rectangle([MARGIN, y, W - MARGIN, y + log_h - 6], radius=12, fill=PANEL)
    d.text((MARGIN + 14, y + 20), tx("Latest"), font=font(20), fill=MUTED, anchor="lm")
    for i, line in enumerate(log_lines):
        d.text((MARGIN + 14, y + 40 + i * 24), fit(line, 18, W - 2 * MARGIN - 28), font=font(18), fill=TEXT)
    return png_bytes(im)


def _status_lines(view: dict, names: list[str]) -> list[tuple[str, tuple[int, int, int]]]:
    out: list[tuple[str, tuple[int, int, int]]] = []
    played = view.get("played")
    actor = view.get("actor")
    if view.get("phase") == "over":
        played = None
    if played and isinstance(actor, int):
        out.append((tx("In play: {card} by {name}", card=clean_text(words(played)), name=player_name(names, actor)), TEXT))
    chase = view.get("overtake")
    if isinstance(chase, dict):
        nums = [str(n) for n in chase.get("numbers") or []]
        need = nums + [tx("any")] * _int(chase.get("any"))
        who = {"a": player_name(names, _int(chase.get("attacker"))),
               "d": player_name(names, _int(chase.get("defender"))), "n": _int(chase.get("cards_needed")),
               "need": words(plus(need)) or "-"}
        if isinstance(chase.get("with_block_right"), int):
            text = tx("Overtake: {a} attacks {d}; a block needs {n} card(s): {need} ({k} with the block right)",
                      k=chase["with_block_right"], **who)
        else:
            text = tx("Overtake: {a} attacks {d}; a block needs {n} card(s): {need}", **who)
        out.append((text, ORANGE))
    window = view.get("window")
    if isinstance(window, dict):
        out.append((tx("PON window on a {n}: waiting for declarations", n=_int(window.get("number"))), HIGHLIGHT))
    mods = view.get("mods") or {} if view.get("phase") != "over" else {}
    mod_text = {"block_extra": tx("blocks +1 card"), "pack_block_extra": tx("blocks +1 card (not the leader's)"), "block_discount": tx("blocks -1 card"), "no_pon": tx("no PON"),
                "no_slipstream": tx("no slipstream"), "slip_wide": tx("wide slipstream"),
                "hand_limit": tx("hand limit {n}", n=mods.get("hand_limit"))}
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
    """The viewing seat's hand (number and event of each card), its peeked courses and prefs;
    texts in `locale`."""
    with drawing_in(locale):
        return _render_hand(view, names)


def _render_hand(view: dict, names: list[str]) -> bytes:
    me = view.get("me") or {}
    seat = _int(me.get("seat"))
    hand = [c for c in me.get("hand") or [] if isinstance(c, dict)]
    peeked = [p for p in me.get("peeked") or [] if isinstance(p, dict)]
    n = max(1, len(hand))
    gap = 14
    cw = min(220, (W - 2 * MARGIN - (n - 1) * gap) / n)
    ch = 260
    head = 140
    peek_h = 40 + 28 * len(peeked) if peeked else 0
    height = head + ch + 30 + peek_h + 70
    im = Image.new("RGB", (W, int(height)), BACKGROUND)
    d = ImageDraw.Draw(im)
    d.rounded_rectangle([MARGIN, 20, MARGIN + 40, 60], radius=8, fill=_colour(seat), outline=(15, 15, 18), width=2)
    d.text((MARGIN + 54, 40), fit(tx("{name}'s hand", name=player_name(names, seat)), 32, 560), font=font(32), fill=TEXT,
           anchor="lm")
    order = [s for s in view.get("order") or [] if isinstance(s, int)]
    info = []
    if seat in order:
        info.append(tx("{pos} of {n}", pos=_ordinal(order.index(seat)), n=len(order)))
    if view.get("phase") not in ("peek", "over"):
        info.append(tx("Course {k}", k=_int(view.get("current")) + 1))
    if me.get("event_used"):
        info.append(tx("event used"))
    x = W - MARGIN
    for text in reversed(info):
        w = font(22).getlength(text) + 16
        x -= w
        _tag(d, x, 24, text, (70, 74, 82), size=22)
        x -= 10
    if me.get("to_act"):
        d.text((MARGIN, 84), tx("Your move: use the buttons below."), font=font(22), fill=HIGHLIGHT, anchor="lm")
    else:
        d.text((MARGIN, 84), tx("Nothing to do right now."), font=font(22), fill=MUTED, anchor="lm")
    courses = [c for c in view.get("courses") or [] if isinstance(c, dict)]
    cur = _int(view.get("current"))
    if view.get("phase") not in ("peek", "over") and 0 <= cur < len(courses):
        course = courses[cur]
        throttle = words(chain("{a} {b}", [str(_number_of(x)) for x in course.get("throttle") or []])) or "-"
        line = tx("Now: #{k} {name} (course number {n}); throttle numbers: {thr}", k=cur + 1,
                 name=clean_text(words(course.get("name")), "?"), n=_int(course.get("number")), thr=throttle)
        d.text((MARGIN, 118), fit(line, 22, W - 2 * MARGIN), font=font(22), fill=TEXT, anchor="lm")
    y = head + 10
    if not hand:
        d.text((MARGIN, y + 40), tx("No cards in hand."), font=font(26), fill=MUTED)
    for i, card in enumerate(hand):
        x = MARGIN + i * (cw + gap)
        number = _int(card.get("number"))
        course_card = card.get("kind") == "course"
        d.rounded_rectangle([x, y, x + cw, y + ch], radius=12, fill=CARD_FACE, outline=(20, 20, 24), width=3)
        d.rounded_rectangle([x, y, x + cw, y + 74], radius=12, fill=NUMBER_COLOURS.get(number, MUTED))
        d.rectangle([x, y + 50, x + cw, y + 74], fill=NUMBER_COLOURS.get(number, MUTED))
        d.text((x + 16, y + 38), str(number), font=font(54), fill=(255, 255, 255), anchor="lm")
        title = clean_text(words(card.get("event"))) if not course_card else clean_text(_short_label(card.get("label")))
        d.text((x + 12, y + 96), fit(title, 22, cw - 24), font=font(22), fill=CARD_INK, anchor="lm")
        text = clean_text(words(card.get("text")))
        for k, line in enumerate(wrap(text, 19, cw - 24, 7)):
            d.text((x + 12, y + 120 + k * 24), line, font=font(19), fill=(50, 50, 56))
        if course_card:
            d.text((x + cw - 12, y + 38), tx("course"), font=font(18), fill=(255, 255, 255), anchor="rm")
    y += ch + 20
    if peeked:
        d.text((MARGIN, y + 14), tx("Courses only you have seen:"), font=font(22), fill=TEXT, anchor="lm")
        for k, p in enumerate(peeked):
            line = tx("#{k}: {n} {name} - {effect}", k=_int(p.get("index")) + 1, n=_int(p.get("number")),
                     name=clean_text(words(p.get("name"))), effect=clean_text(words(p.get("effect"))))
            d.text((MARGIN + 10, y + 44 + k * 28), fit(line, 20, W - 2 * MARGIN - 10), font=font(20), fill=TEXT,
                   anchor="lm")
        y += peek_h
    prefs = me.get("prefs") or {}
    pon = prefs.get("pon") or {}
    line = tx("Standing choices: PON {pon} | when overtaken: {block} | refill: {refill} | hand-limit discard: {discard}",
             pon=words(chain("{a} {b}", [msg("{n}:{value}", n=k, value=msg(str(pon.get(k)))) for k in sorted(pon)])),
             block=words(msg(str(prefs.get("block", "-")))), refill=words(msg(str(prefs.get("refill", "-")))),
             discard=words(msg(str(prefs.get("discard", "-")))))
    d.text((MARGIN, y + 20), fit(line, 18, W - 2 * MARGIN), font=font(18), fill=MUTED, anchor="lm")
    return png_bytes(im)
