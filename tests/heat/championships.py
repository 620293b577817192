"""Heat positions with the garage and the championship that several test modules build: a race after
the draft, a car parked at a space, a season's race with its event, sponsors in a hand."""

from __future__ import annotations

from bot.games.heat import championship as C
from bot.games.heat import ENGINE as E
from bot.games.heat import content

from tests.heat.helpers import setcar


def gnew(seats=2, seed=1, grid="seats", **opts):
    return E.new_game({"track": "usa", "grid": grid, "garage": "basic", **opts}, seats, seed)


def drafted(seats=2, seed=1):
    st = gnew(seats, seed)
    while st["phase"] == "draft":
        seat = E.to_act(st)[0]
        st, _ = E.apply(st, seat, {"type": "pick", "card": 0})
    return st


def season(year="1963", seats=2, seed=1, **opts):
    return E.new_game({"track": "usa", "championship": year, **opts}, seats, seed)


def plain(st):
    """No weather on the track (limits as printed), for exact corner scenarios."""
    st.pop("weather", None)
    return st


def with_event(st, code):
    st["champ"]["races"][st["champ"]["race"]]["event"] = code
    ev = C.events()[code]
    st["champ"]["press"] = C._press_corners(content.tracks()[st["track"]], ev["press"])
    for key in ("slip_min_gear", "no_adrenaline", "discard_heat"):
        if ev.get(key):
            st[key] = ev[key]
    return st


def park(st, seat, pos, lane=2):
    setcar(st, seat, pos=pos, lane=lane, gear=1, hand=["speed1"] * 7, deck=["speed1"] * 10, discard=[], engine=6)


def through_market(st, swap=None):
    """Everyone takes the first card on offer; the first picker keeps (or makes `swap`)."""
    while st["phase"] in C.PHASES:
        seat = E.to_act(st)[0]
        action = swap if st["phase"] == "swap" and swap else E.legal_actions(st, seat)[0]
        st, _ = E.apply(st, seat, action)
    return st


def sponsors_in(st, seat, zone="hand"):
    return sorted(st["cards"][c] for c in st["cars"][seat][zone] if C.is_sponsor(st["cards"][c]))


def press_race(code="e7", seed=1):
    """USA (1963 race 1), no weather; press corner A = corner 1 (after space 12, limit 7)."""
    st = plain(through_market(season("1963", seats=2, seed=seed)))
    with_event(st, code)
    park(st, 1, 40)
    st["cars"][0]["prefs"]["adrenaline"] = "never"  # (the last car's +1 would change the speeds)
    return st
