"""Each game's rules in the bot's own words (`/<game> rules`): data/<game>/rules/<locale>.md, a
sequence of `## Title` sections, each short enough for one Discord message. A locale without its
own file reads the English one."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

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
