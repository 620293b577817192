"""Shared helpers: a game with chosen devices and supplies."""

from __future__ import annotations

from typing import Any

from bot.games.steamworks import ENGINE as E


def game(seats: int = 3, seed: int = 1) -> dict[str, Any]:
    st = E.new_game({"personas": "seat order"}, seats, seed)
    st["start"] = 0
    return st


def T(t: str, x: int, y: int, r: int = 0) -> dict[str, Any]:
    return {"t": t, "x": x, "y": y, "r": r}


def add_device(st: dict[str, Any], owner: int, tiles: list[dict[str, Any]]) -> int:
    did = 1 + max((d["id"] for d in st["devices"]), default=0)
    st["devices"].append({"id": did, "owner": owner, "tiles": tiles})
    return did


def act(st: dict[str, Any], seat: int, type_: str, choice: str | None = None):
    action = {"type": type_} if choice is None else {"type": type_, "choice": choice}
    return E.apply(st, seat, action)


def choices(st: dict[str, Any], seat: int, type_: str) -> list[str]:
    return [a["choice"] for a in E.legal_actions(st, seat) if a["type"] == type_]


def end_round(st: dict[str, Any]) -> dict[str, Any]:
    """Every seat passes until the round (or the game) ends."""
    while True:
        r = st["round"]
        st, _ = act(st, E.active(st), "pass")
        if st["round"] != r or E.is_over(st):
            return st
