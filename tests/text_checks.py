"""Checks shared by the games' text-exit tests: engine texts are Msgs, menus round-trip; and every
literal key the code passes to the catalog (the Japanese catalog's test reads them)."""

from __future__ import annotations

import re
from pathlib import Path

from bot.i18n import Msg, from_wire, render, to_wire


def assert_text(value, where: str) -> None:
    """`value` is a Msg (its parameters may be Msgs, lists of them or plain values: numbers, seat
    markers, card codes), and every placeholder has its parameter."""
    assert isinstance(value, Msg), f"{where}: {value!r} is not a Msg"
    render(value, "en")


def assert_menu(menu: list, where: str) -> None:
    for g in menu:
        if g["kind"] == "select":
            assert_text(g["placeholder"], f"{where} placeholder")
        for o in g["options"]:
            assert_text(o["label"], f"{where} label")
            if "description" in o:
                assert_text(o["description"], f"{where} description")
    assert from_wire(to_wire(menu)) == menu, f"{where}: the menu does not round-trip"


ROOT = Path(__file__).resolve().parents[1]
STRING_LITERAL = r'(?:"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\')'


# msg("..."), t("..."), tr(locale, "..."), Msg("...", ...); adjacent literals are one key.
_CALL = re.compile(r"(?<![\w.])(?:(?:msg|t|Msg)\(|tr\([^,()\n]*,)\s*((?:" + STRING_LITERAL + r"\s*)+)")


def literal_keys() -> dict[str, str]:
    """Every literal key passed to msg / t / tr / Msg in bot/, cogs/ and rendering/: {key: where}."""
    keys: dict[str, str] = {}
    for folder in ("bot", "cogs", "rendering"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            src = path.read_text("utf-8")
            for m in _CALL.finditer(src):
                parts = re.findall(STRING_LITERAL, m[1])
                key = "".join(eval(p) for p in parts)  # plain string literals only (no f-strings)
                line = src.count("\n", 0, m.start()) + 1
                keys.setdefault(key, f"{path.relative_to(ROOT)}:{line}")
    return keys
