"""Each game's rules in the bot's own words (`/<game> rules`): data/<game>/rules/<locale>.md, a
sequence of `## Title` sections, each short enough for one Discord message. A locale without its
own file reads the English one."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from bot.errors import PlayerError
from bot.i18n import Msg, msg

DATA = Path(__file__).resolve().parent.parent / "data"
MAX_PAGE = 1900  # a page's title and body, inside Discord's 2,000 characters with the header


@lru_cache(maxsize=None)
def pages(kind: str, locale: str) -> tuple[tuple[str, str], ...]:
    """(title, body) of each section, in order; empty if the game has no rules pages."""
    folder = DATA / kind / "rules"
    path = folder / f"{locale}.md"
    if not path.exists():
        path = folder / "en.md"
    if not path.exists():
        return ()
    sections: list[tuple[str, str]] = []
    for chunk in path.read_text("utf-8").split("\n## ")[0:]:
        chunk = chunk.removeprefix("## ").strip()
        if not chunk:
            continue
        title, _, body = chunk.partition("\n")
        sections.append((title.strip(), body.strip()))
    return tuple(sections)


def page_text(kind: str, sections: tuple[tuple[str, str], ...], page: int | None) -> tuple[Msg, int]:
    """Page `page` (1-based; None: the first) of a game's rules `sections` as its message, naming the
    other pages, and its number. Raises PlayerError when the game has no pages or not that one."""
    if not sections:
        raise PlayerError(msg("There are no rules pages for this game yet."))
    number = 1 if page is None else page
    if not 1 <= number <= len(sections):
        raise PlayerError(
            msg("There is no page {n}: the rules have pages 1 to {total}.", n=number, total=len(sections))
        )
    title, body = sections[number - 1]
    others = [f"{i}. {t}" for i, (t, _) in enumerate(sections, 1) if i != number]
    return msg(
        "**{title}** ({n}/{total})\n{body}\n-# /{kind} rules page: {others}",
        title=title,
        n=number,
        total=len(sections),
        body=body,
        kind=kind,
        others=" · ".join(others),
    ), number
