"""Checks shared by the games' text-exit tests: engine texts are Msgs, menus round-trip."""

from __future__ import annotations

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
