"""Small helpers for engine texts (`Msg`s, see bot/i18n.py) shared by the games."""

from __future__ import annotations

from typing import Any, Iterable

from bot.i18n import Msg, msg


def chain(template: str, items: Iterable[Any]) -> Any:
    """`items` joined two by two with `template` (a key with {a} and {b}, e.g. "{a} + {b}"), so a
    translator sees the joining pattern as a whole: chain("{a} + {b}", [x, y, z]) is
    msg("{a} + {b}", a=x, b=msg("{a} + {b}", a=y, b=z)). One item is itself; none is ""."""
    items = list(items)
    if not items:
        return ""
    out = items[-1]
    for item in reversed(items[:-1]):
        out = Msg(template, {"a": item, "b": out})
    return out


def plus(items: Iterable[Any]) -> Any:
    """Card names joined with " + " (a hand, a played set)."""
    return chain("{a} + {b}", items)


__all__ = ["chain", "plus", "msg", "Msg"]
