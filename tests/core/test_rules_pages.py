"""`/<game> rules` pages (issue #8): every game has them, in every language with a catalog, the
same sections in each, and every page fits one Discord message as the command shows it."""

from __future__ import annotations

import pytest

from bot import rules_pages
from bot.delivery import MAX_CONTENT
from bot.games.registry import engines
from bot.i18n import msg, render, supported_locales

KINDS = sorted(engines())


def shown(kind: str, locale: str, number: int) -> str:
    """The reply exactly as the cog builds it."""
    sections = rules_pages.pages(kind, locale)
    title, body = sections[number - 1]
    others = [f"{i}. {t}" for i, (t, _) in enumerate(sections, 1) if i != number]
    return render(
        msg(
            "**{title}** ({n}/{total})\n{body}\n-# /{kind} rules page: {others}",
            title=title,
            n=number,
            total=len(sections),
            body=body,
            kind=kind,
            others=" · ".join(others),
        ),
        locale,
    )


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("locale", supported_locales())
def test_every_page_fits_a_message(kind, locale):
    assert (rules_pages.DATA / kind / "rules" / f"{locale}.md").exists()
    sections = rules_pages.pages(kind, locale)
    assert 3 <= len(sections) <= 25  # the page option's autocomplete lists them all
    assert len(sections) == len(rules_pages.pages(kind, "en"))
    for number, (title, body) in enumerate(sections, 1):
        assert title and body and "\n## " not in body
        assert len(shown(kind, locale, number)) <= MAX_CONTENT, (kind, locale, title)


def test_a_locale_without_its_own_pages_reads_english():
    assert rules_pages.pages("heat", "xx") == rules_pages.pages("heat", "en")
    assert rules_pages.pages("no-such-game", "en") == ()
