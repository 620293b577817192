"""The one translation function every user-facing string goes through.

Strings are keyed by their English text (gettext style), so `t("Not your turn.")` reads naturally
in code. A catalog for another locale maps the English text to its translation; missing entries
fall back to English. Parameters are filled with str.format after translation.
"""
from __future__ import annotations

import json
from pathlib import Path

_CATALOG_DIR = Path(__file__).resolve().parent.parent / "data" / "i18n"
_catalogs: dict[str, dict[str, str]] = {}
_locale = "en"


def set_locale(locale: str) -> None:
    global _locale
    _locale = locale


def _catalog(locale: str) -> dict[str, str]:
    if locale not in _catalogs:
        path = _CATALOG_DIR / f"{locale}.json"
        _catalogs[locale] = json.loads(path.read_text("utf-8")) if path.exists() else {}
    return _catalogs[locale]


def t(text: str, /, **params: object) -> str:
    """Translate `text` into the current locale and fill in `params`."""
    if _locale != "en":
        text = _catalog(_locale).get(text, text)
    return text.format(**params) if params else text


def translation(text: str, locale: str) -> str | None:
    """`text` in `locale` if its catalog has it (slash-command names and descriptions use this,
    so Discord shows each user their own language); None otherwise."""
    return _catalog(locale).get(text) if locale != "en" else None
