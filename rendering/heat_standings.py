"""Heat Championship images: the season's standings (posted in the thread when a race is over,
while the next race's upgrade market runs, and as the final results), and the championship
marks on the race board (the press corners on the map, the race's event in a strip).

Reads only the engine's view (view["champ"], see bot/games/heat/championship.view). 800 px wide
like the other Heat images; no text under 24 px, so it stays readable at the phone's 390 px.
"""

from __future__ import annotations

import io

from PIL import Image

from rendering.common import (
    BACKGROUND,
    MUTED,
    PANEL,
    TEXT,
    Draw,
    clean_text,
    drawing_in,
    fit,
    font,
    player_name,
    tx,
    words,
    wrap,
)
from rendering.heat_colours import legend_seats, seat_colour

W = 800
GOLD, SILVER, BRONZE = (255, 200, 40), (200, 205, 215), (205, 127, 50)
PRESS = (255, 214, 10)  # the press stand's colour (the board's "waiting" yellow: in its palette)
TEAL = (20, 140, 130)
ROW = 52
SMALL = 24


def _encode(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, "PNG", compress_level=3)
    return buf.getvalue()


def _names(view: dict, names: list[str]) -> list[str]:
    ch = view["champ"]
    out = list(names)
    for s, n in enumerate(ch.get("names") or []):
        if s >= len(out):
            out.append(clean_text(words(n), ""))
        elif s >= len(names) or not names[s]:
            out[s] = clean_text(words(n), "")
    return out


def _tag(d, x, y, text, fill, size=SMALL, ink=(20, 20, 24)) -> float:
    f = font(size)
    w = f.getlength(text) + 14
    d.rounded_rectangle([x, y, x + w, y + size + 8], radius=6, fill=fill)
    d.text((x + 7, y + (size + 8) / 2), text, font=f, fill=ink, anchor="lm")
    return w


def render_standings(view: dict, names: list[str], locale: str = "en") -> bytes:
    with drawing_in(locale), legend_seats(view):
        return _encode(_draw(view, _names(view, names)))


def _draw_table(d: Draw, ch: dict, names: list[str], standings: list[int], y: int) -> int:
    """The standings from `y` down: place, car, points per race, total. Returns the y below it."""
    races = ch.get("races") or []
    results = ch.get("results") or []
    # the standings: place, car, points per race, total
    d.text((20, y + 20), tx("Standings"), font=font(28), fill=TEXT, anchor="lm")
    cols_x = W - 110 - 64 * len(races)
    for i in range(len(races)):
        d.text((cols_x + 64 * i + 32, y + 20), tx("R{n}", n=i + 1), font=font(SMALL), fill=MUTED, anchor="mm")
    d.text((W - 60, y + 20), tx("Pts"), font=font(SMALL), fill=MUTED, anchor="mm")
    y += 44
    points = ch.get("points") or []
    for k, s in enumerate(standings):
        fill = PANEL if k % 2 == 0 else (54, 57, 63)
        d.rectangle([16, y, W - 16, y + ROW - 4], fill=fill)
        medal = (GOLD, SILVER, BRONZE)[k] if k < 3 else (70, 74, 82)
        d.ellipse([24, y + 7, 58, y + 41], fill=medal)
        d.text((41, y + 24), str(k + 1), font=font(SMALL), fill=(20, 20, 24), anchor="mm")
        d.ellipse([70, y + 14, 90, y + 34], fill=seat_colour(s))
        d.text((100, y + 24), fit(player_name(names, s), 28, cols_x - 110), font=font(28), fill=TEXT, anchor="lm")
        for i, res in enumerate(results):
            p = res["points"][s] if s < len(res.get("points") or []) else 0
            out = s in (res.get("out") or [])
            d.text(
                (cols_x + 64 * i + 32, y + 24),
                "×" if out else str(p),
                font=font(26),
                fill=MUTED if out or not p else TEXT,
                anchor="mm",
            )
        d.text((W - 60, y + 24), str(points[s] if s < len(points) else 0), font=font(30), fill=TEXT, anchor="mm")
        y += ROW
    return y


def _draw_races(d: Draw, races: list[dict], done: int, y: int) -> int:
    """The season's races from `y` down: track and event, done or next. Returns the y below them."""
    for i, r in enumerate(races):
        colour = (70, 74, 82) if r.get("done") else (TEAL if i == done else PANEL)
        d.rounded_rectangle([16, y, W - 16, y + 38], radius=8, fill=colour)
        d.text((30, y + 19), str(i + 1), font=font(26), fill=TEXT, anchor="lm")
        track = clean_text(words(r.get("track_name")), "?")
        d.text((64, y + 19), fit(track, 26, 250), font=font(26), fill=TEXT, anchor="lm")
        d.text(
            (330, y + 19),
            fit(clean_text(words(r.get("event")), ""), SMALL, W - 350),
            font=font(SMALL),
            fill=TEXT,
            anchor="lm",
        )
        y += 44
    return y


def _draw_market(d: Draw, market: dict, names: list[str], y: int) -> int:
    """The next race's upgrade market from `y` down: who picks, then each card. Returns the y below it."""
    who = market.get("picking")
    head = (
        tx("Upgrade market: {who} picks", who=player_name(names, who)) if isinstance(who, int) else tx("Upgrade market")
    )
    d.text((20, y + 24), fit(head, 28, W - 40), font=font(28), fill=TEXT, anchor="lm")
    y += 56
    for c in market["cards"]:
        d.rounded_rectangle([16, y, W - 16, y + 58], radius=8, fill=TEAL)
        label = clean_text(words(c.get("label")), "?")
        d.text((28, y + 16), fit(label, 26, W - 56), font=font(26), fill=(255, 255, 255), anchor="lm")
        d.text(
            (28, y + 43),
            fit(clean_text(words(c.get("text")), ""), SMALL, W - 56),
            font=font(SMALL),
            fill=(225, 240, 238),
            anchor="lm",
        )
        y += 64
    return y


def _draw(view: dict, names: list[str]) -> Image.Image:
    ch = view["champ"]
    races = ch.get("races") or []
    results = ch.get("results") or []
    standings = [s for s in ch.get("standings") or [] if isinstance(s, int)]
    market = ch.get("market")
    event_lines = wrap(clean_text(words(ch["event"].get("text")), ""), SMALL, W - 40, 3) if not ch.get("done") else []
    market_rows = len(market["cards"]) if market else 0
    h = (
        92
        + 16
        + len(races) * 44
        + 20
        + 44
        + len(standings) * ROW
        + 16
        + ((48 + len(event_lines) * 32) if event_lines else 0)
        + ((56 + market_rows * 64) if market else 0)
        + (68 if ch.get("done") else 0)
        + 16
    )
    im = Image.new("RGB", (W, h), BACKGROUND)
    d = Draw(im)
    # header: the season, how far it is
    season = ch.get("season")
    title = tx("Championship {year}", year=season) if season != "custom" else tx("Championship (custom season)")
    d.text((20, 34), fit(title, 36, W - 40), font=font(36), fill=TEXT, anchor="lm")
    done = len(results)
    sub = (
        tx("Final standings after {n} races", n=done)
        if ch.get("done")
        else tx("After race {n} of {m}", n=done, m=len(races))
        if done
        else tx("Race 1 of {m}", m=len(races))
    )
    d.text((20, 74), fit(sub, 26, W - 40), font=font(26), fill=MUTED, anchor="lm")
    y = 92 + 16
    # the races: track and event, done or next
    y = _draw_races(d, races, done, y)
    y += 20
    y = _draw_table(d, ch, names, standings, y)
    y += 16
    if ch.get("done") and standings:  # the season's winner
        text = tx("Champion: {name}", name=player_name(names, standings[0]))
        d.rounded_rectangle([16, y, W - 16, y + 52], radius=10, fill=GOLD)
        d.text((W / 2, y + 26), fit(text, 30, W - 60), font=font(30), fill=(20, 20, 24), anchor="mm")
        y += 68
    # the next race's event card
    if event_lines:
        ev = clean_text(words(ch["event"].get("name")), "")
        d.text(
            (20, y + 20),
            fit(tx("Race {n} event: {name}", n=ch.get("race", 1), name=ev), 28, W - 40),
            font=font(28),
            fill=PRESS,
            anchor="lm",
        )
        y += 48
        for line in event_lines:
            d.text((20, y + 14), line, font=font(SMALL), fill=TEXT, anchor="lm")
            y += 32
    # the upgrade market of the next race (車体の設計)
    if market:
        _draw_market(d, market, names, y)
    return im


def decorate(image: Image.Image, view: dict) -> Image.Image:
    """The race board with the championship's marks: a strip on top with the race and its event
    and the press corners, and a "Press" tag by each press corner's sign on the map."""
    ch = view.get("champ")
    if not isinstance(ch, dict):
        return image
    strip = 44
    out = Image.new("RGB", (image.width, image.height + strip), BACKGROUND)
    out.paste(image, (0, strip))
    d = Draw(out)
    d.rectangle([0, 0, image.width, strip], fill=(25, 28, 34))
    x: float = 12
    x += (
        _tag(d, x, 6, tx("Race {n}/{m}", n=ch.get("race", 1), m=len(ch.get("races") or [])), TEAL, ink=(255, 255, 255))
        + 10
    )
    press = [p for p in ch.get("press") or [] if isinstance(p, int)]
    if press:
        x += _tag(d, x, 6, tx("Press: corner {list}", list=", ".join(str(p) for p in press)), PRESS) + 10
    ev = clean_text(words(ch.get("event", {}).get("name")), "")
    d.text((x, 22), fit(ev, SMALL, image.width - x - 12), font=font(SMALL), fill=TEXT, anchor="lm")
    return out


def press_marks(d, view: dict, signs: list[tuple[float, float]], inside) -> list[tuple]:
    """On the map: a "Press" tag above each press corner's sign (`signs`: the corners' sign
    centres in image pixels, in corner order). Returns the tags' boxes."""
    ch = view.get("champ")
    if not isinstance(ch, dict):
        return []
    boxes = []
    f = font(SMALL)
    text = tx("Press")
    w = f.getlength(text) + 14
    for p in ch.get("press") or []:
        if not isinstance(p, int) or not 1 <= p <= len(signs):
            continue
        sx, sy = signs[p - 1]
        if not inside(sx, sy, 0):
            continue
        x, y = sx - w / 2, sy - 30 - (SMALL + 8)
        _tag(d, x, y, text, PRESS)
        d.rounded_rectangle([x, y, x + w, y + SMALL + 8], radius=6, outline=(15, 15, 18), width=2)
        boxes.append((x + w / 2, y + (SMALL + 8) / 2, w / 2 + 2, 300.0))
    return boxes
