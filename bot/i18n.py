"""Text, and the one way out for it: a message key with parameters, put into words per audience.

Engines never produce finished sentences. They return `Msg`s: the key (its English text, gettext
style, so `msg("Not your turn.")` reads naturally in code) and parameters, which may themselves be
`Msg`s or lists of them. The table turns a `Msg` into words with `render(value, locale)` where the
text leaves: a player's DM and private answers in their own language, the thread in the table's.
It is to text what `view` is to secrets.

A catalog for another locale (data/i18n/<locale>.json) maps the English key to its translation;
missing entries fall back to English. Parameters are filled with str.format after translation.
`t()` renders at once in the process's default locale (texts with no audience of their own).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_CATALOG_DIR = Path(__file__).resolve().parent.parent / "data" / "i18n"
_catalogs: dict[str, dict[str, str]] = {}
_locale = "en"
LIST_SEPARATOR = ", "  # a key too: a catalog may join lists its own way ("、")


class Msg:
    """A text not yet in any language. (A plain class with slots: engines make many of them, and a
    frozen dataclass costs twice as much to build.)"""

    __slots__ = ("key", "params")

    def __init__(self, key: str, params: dict[str, Any] | None = None) -> None:
        self.key = key
        self.params = {} if params is None else params

    def __eq__(self, other: object) -> bool:
        return type(other) is Msg and other.key == self.key and other.params == self.params

    __hash__ = None  # type: ignore[assignment]  # its params are a dict

    def __repr__(self) -> str:
        return f"Msg({self.key!r}, {self.params!r})"

    def __str__(self) -> str:  # English, for logs and code that has no audience
        return render(self, "en")


def msg(key: str, /, **params: Any) -> Msg:
    return Msg(key, params)


LANGUAGE_NAMES = {"en": "English", "ja": "日本語"}  # each in its own words


def supported_locales() -> list[str]:
    """English (built in) and every locale with a catalog in data/i18n."""
    return ["en", *sorted(p.stem for p in _CATALOG_DIR.glob("*.json"))]


def locale_for(discord_locale: str | None) -> str | None:
    """The supported locale for a Discord locale ("ja", "en-US", "pt-BR"), or None."""
    if not discord_locale:
        return None
    base = discord_locale.split("-")[0].lower()
    return base if base in supported_locales() else None


def set_locale(locale: str) -> None:
    global _locale
    _locale = locale


def default_locale() -> str:
    return _locale


def catalog_files(locale: str) -> list[Path]:
    """A locale's catalog: data/i18n/<locale>.json (the table's texts) and one file per game in
    data/i18n/<locale>/ (so each game's texts live apart)."""
    main = _CATALOG_DIR / f"{locale}.json"
    return ([main] if main.exists() else []) + sorted((_CATALOG_DIR / locale).glob("*.json"))


def _catalog(locale: str) -> dict[str, str]:
    if locale not in _catalogs:
        merged: dict[str, str] = {}
        for path in catalog_files(locale):
            merged.update(json.loads(path.read_text("utf-8")))
        _catalogs[locale] = merged
    return _catalogs[locale]


def _translate(key: str, locale: str) -> str:
    return _catalog(locale).get(key, key) if locale != "en" else key


def render(value: Any, locale: str | None = None) -> str:
    """Words for `value` (a Msg, a list of them, or plain text) in `locale`."""
    locale = locale or _locale
    if isinstance(value, Msg):
        template = _translate(value.key, locale)
        if not value.params:
            return template
        return template.format(**{k: render(v, locale) for k, v in value.params.items()})
    if isinstance(value, (list, tuple)):
        return _translate(LIST_SEPARATOR, locale).join(render(v, locale) for v in value)
    return str(value)


def t(text: str, /, **params: object) -> str:
    """Translate `text` into the default locale and fill in `params` at once."""
    return render(Msg(text, dict(params)), _locale)


def tr(locale: str | None, text: str, /, **params: object) -> str:
    """`t` for a given audience's locale."""
    return render(Msg(text, dict(params)), locale)


def to_wire(value: Any) -> Any:
    """JSON for a value that may hold Msgs (stored with a move, hashed in a menu)."""
    if isinstance(value, Msg):
        return {"msg": value.key, "params": {k: to_wire(v) for k, v in value.params.items()}}
    if isinstance(value, (list, tuple)):
        return [to_wire(v) for v in value]
    if isinstance(value, dict):
        return {k: to_wire(v) for k, v in value.items()}
    return value


def from_wire(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"msg", "params"}:
        return Msg(value["msg"], {k: from_wire(v) for k, v in value["params"].items()})
    if isinstance(value, list):
        return [from_wire(v) for v in value]
    if isinstance(value, dict):
        return {k: from_wire(v) for k, v in value.items()}
    return value


def translation(text: str, locale: str) -> str | None:
    """`text` in `locale` if its catalog has it (slash-command names and descriptions use this,
    so Discord shows each user their own language); None otherwise."""
    return _catalog(locale).get(text) if locale != "en" else None
