"""Pole Position: the championship standings (15) after each race and at the end of the season,
and the constructors' table (15.2)."""

from __future__ import annotations

from PIL import Image

from bot.games.pole.content import circuits
from rendering.common import BACKGROUND, MUTED, PANEL, TEXT, Draw, fit, font, player_name, seat_colour, tx

W = 800
ROW = 68
HIGHLIGHT = (255, 214, 10)
DARK = (16, 16, 18)


def wanted(view: dict) -> bool:
    return bool(view.get("season")) or bool(view.get("constructors"))


def image(view: dict, names: list[str]) -> Image.Image:
    se = view.get("season")
    cars = view.get("cars") or []
    n = len(cars)
    cons = view.get("constructors") or []
    if se:
        order = [s for s in se.get("standings") or range(n) if 0 <= s < n]
        pts = se.get("points") or [0] * n
        last = (se.get("results") or [{}])[-1].get("points") if se.get("results") else None
    else:
        finish = [s for s in view.get("finish") or [] if 0 <= s < n]
        order = finish + [s for s in range(n) if s not in finish]
        pts, last = None, None
    height = 120 + ROW * len(order) + (70 + ROW * len(cons) if cons else 0) + 16
    img = Image.new("RGB", (W, height), BACKGROUND)
    d = Draw(img)
    d.rectangle([0, 0, W, 104], fill=PANEL)
    if se:
        done = len(se.get("results") or [])
        total = len(se.get("races") or [])
        title = (
            tx("Championship: final standings")
            if done >= total
            else tx("Championship after race {i} of {n}", i=done, n=total)
        )
        nxt = (se.get("races") or [])[done] if done < total else None
        sub = tx("Next: {circuit}", circuit=tx(circuits()[nxt].name)) if nxt else ""
    else:
        title, sub = tx("Race result"), ""
    d.text((20, 34), fit(title, 34, W - 40), font=font(34), fill=TEXT, anchor="lm")
    if sub:
        d.text((20, 78), fit(sub, 28, W - 40), font=font(28), fill=HIGHLIGHT, anchor="lm")
    y = 120
    chosen = set(se.get("chosen") or []) if se else set()
    final = bool(se and len(se.get("results") or []) >= len(se.get("races") or []))
    damage = (se.get("damage") if se and not final else None) or [0] * n
    for i, s in enumerate(order):
        if i % 2 == 0:
            d.rectangle([0, y, W, y + ROW], fill=(54, 57, 63))
        mid = y + ROW / 2
        d.text((30, mid), str(i + 1), font=font(32), fill=TEXT, anchor="mm")
        d.ellipse([60, mid - 14, 88, mid + 14], fill=seat_colour(s), outline=DARK)
        d.text((102, mid), fit(player_name(names, s), 30, 330), font=font(30), fill=TEXT, anchor="lm")
        if damage[s]:
            d.text(
                (420, mid),
                fit(tx("engine -{n}", n=min(2, damage[s])) if damage[s] < 3 else tx("new engine due"), 24, 190),
                font=font(24),
                fill=(255, 120, 90),
                anchor="lm",
            )
        if last is not None and last[s]:
            d.text((W - 130, mid), f"+{last[s]}", font=font(26), fill=MUTED, anchor="rm")
        if pts is not None:
            d.text((W - 24, mid), tx("{n} pts", n=pts[s]), font=font(30), fill=TEXT, anchor="rm")
        if s in chosen:
            d.text((W - 4, y + 12), "✓", font=font(24), fill=(90, 200, 120), anchor="rm")
        y += ROW
    if cons:
        y += 16
        d.text((20, y + 24), tx("Constructors"), font=font(30), fill=HIGHLIGHT, anchor="lm")
        y += 54
        for i, t in enumerate(cons):
            mid = y + ROW / 2
            d.text((30, mid), str(i + 1), font=font(32), fill=TEXT, anchor="mm")
            x = 60
            for s in t["seats"]:
                d.ellipse([x, mid - 14, x + 28, mid + 14], fill=seat_colour(s), outline=DARK)
                x += 36
            label = " + ".join(player_name(names, s) for s in t["seats"])
            d.text((x + 8, mid), fit(label, 28, W - x - 170), font=font(28), fill=TEXT, anchor="lm")
            d.text((W - 24, mid), tx("{n} pts", n=t["points"]), font=font(30), fill=TEXT, anchor="rm")
            y += ROW
    return img
