"""Issue #10: the Japanese catalog (data/i18n/ja.json) covers every text key the code uses, keeps
each key's placeholders exactly, and leaves nothing in English that has words to translate."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from bot.games.heat import rules
from bot.games.heat.content import tracks
from bot.games.pole.content import circuits as pole_circuits
from bot.games.heat.labels import PREF_NAMES, PREF_VALUES
from bot.games.pon import common as pon_prefs
from bot.games.pon.content import load_cards
from bot.i18n import LIST_SEPARATOR, catalog_files
from cogs.base import CLOCKS
from tests.text_checks import STRING_LITERAL, literal_keys

ROOT = Path(__file__).resolve().parents[2]


def _load_ja() -> dict[str, str]:
    """Every Japanese catalog file; a key in two files must say the same in both."""
    merged: dict[str, str] = {}
    for path in catalog_files("ja"):
        for key, value in json.loads(path.read_text("utf-8")).items():
            assert merged.get(key, value) == value, f"{path.name}: {key!r} translated differently elsewhere"
            merged[key] = value
    return merged


JA: dict[str, str] = _load_ja()

# Keys that stay as they are, and why.
SAME_AS_ENGLISH = {
    "PON": "the game's own name, written PON in the Japanese rules too",
    "P{n}": "a seat tag on the images (P1, P2...), as short as the image needs",
}
# Slash-command, group and option names: Discord wants them lowercase without spaces, and the
# translator would offer a catalog entry for them too, so they must not be in the catalog, even
# where the same word is a text elsewhere ("heat", a card-kind tag on the hand image, stays English).
COMMAND_NAMES = {
    "heat",
    "pon",
    "new",
    "join",
    "hand",
    "play",
    "games",
    "game",
    "status",
    "log",
    "abandon",
    "track",
    "grid",
    "language",
    "move",
    "count",
    "rules",
    "page",
    "clock",
    "back",
    "replay",
    "board",
    "history",
    "notify",
    "how",
    "ai",
    "ai_level",
}

_MORE = re.compile(
    r"(?<![\w.])(?:tx|chain|round_line)\(\s*((?:" + STRING_LITERAL + r"\s*)+)"
)  # renderer texts, joining patterns, Heat's round-record lines
_DESC = re.compile(
    r"(?:\bdescription|LANGUAGE_HELP\s*|CLOCK_HELP\s*|AI_HELP\s*|AI_LEVEL_HELP\s*)=\s*((?:" + STRING_LITERAL + r"\s*)+)"
)  # slash-command texts
_DESCRIBE = re.compile(r"describe\(((?:[^()]|\([^()]*\))*)\)", re.S)  # option descriptions


def _join(literals: str) -> str:
    return "".join(eval(p) for p in re.findall(STRING_LITERAL, literals))


def code_keys() -> dict[str, str]:
    """Literal keys (the key-scan test's collection), plus renderer texts (tx), chain() patterns
    and slash-command / option descriptions: {key: where}."""
    keys = dict(literal_keys())
    for folder in ("bot", "cogs", "rendering"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            src = path.read_text("utf-8")
            where = str(path.relative_to(ROOT))
            for rx in (_MORE, _DESC):
                for m in rx.finditer(src):
                    keys.setdefault(_join(m[1]), where)
            for m in _DESCRIBE.finditer(src):
                for a in re.finditer(r"\w+\s*=\s*((?:" + STRING_LITERAL + r"\s*)+)", m[1]):
                    keys.setdefault(_join(a[1]), where)
    return keys


def variable_keys() -> set[str]:
    """Keys passed through variables: msg(LABEL[...]), msg(card.name), msg(status), tx(caption)..."""
    keys = {LIST_SEPARATOR}
    keys |= set(rules.LABEL.values()) | set(rules.SHORT.values())  # Heat card labels
    keys |= set(PREF_NAMES.values()) | set(PREF_VALUES.values())  # Heat preferences
    keys |= {t.name for t in tracks().values()}  # Heat tracks (also the /heat new choices)
    for card in load_cards().values():  # PON card names, events and course effects
        keys |= {card.name, card.text}
    keys |= set(pon_prefs.PON_PREFS) | set(pon_prefs.BLOCK_PREFS) | set(pon_prefs.PICK_PREFS)
    keys |= set(pon_prefs.EVENT_PREFS) | {"-"}  # PON preference values (rendering/pon.py: "-" unset)
    keys |= {"Heat: Pedal to the Metal", "PON"}  # engine titles
    keys |= {"Join", "Leave", "Start"}  # bot/components.py LOBBY_LABELS
    keys |= {"lobby", "active", "finished", "abandoned"}  # game statuses, msg(status)
    keys |= {"1st", "2nd", "3rd", "{n}th"}  # Heat ordinals (rules.py)
    keys |= {caption for caption, _ in __import__("rendering.heat", fromlist=["STAT_COLS"]).STAT_COLS}
    keys |= {"random", "seat order"}  # /heat new grid choices
    keys |= {c.name for c in CLOCKS}  # every /<game> new: the table's clock
    keys |= {"gear", "brake", "coast", "flag", "ok", "mud", "Rallyman: DIRT", "Special stage"}  # Rallyman
    keys |= {c.name for c in pole_circuits().values()} | {"Pole Position"}  # Pole Position circuits, title
    return keys


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}


def test_the_scan_finds_the_code_base():
    keys = code_keys()
    assert len(keys) > 350
    for k in (
        "Gear {g}: {cards}",
        "Open a Heat table in this channel",
        "The game's number (optional)",
        "Throttle ({n})",
        "{a} · {b}",
    ):
        assert k in keys


def test_every_key_the_code_uses_has_a_japanese_entry():
    missing = {k: w for k, w in code_keys().items() if k not in JA and k not in COMMAND_NAMES}
    missing.update({k: "variable" for k in variable_keys() if k not in JA})
    assert not missing, f"{len(missing)} keys without a ja entry: {missing}"


def test_command_and_option_names_are_not_keys():
    assert not COMMAND_NAMES & set(JA)


@pytest.mark.parametrize("key", sorted(JA))
def test_entry_keeps_the_placeholders_and_formats(key):
    value = JA[key]
    assert isinstance(value, str) and value
    assert _fields(value) == _fields(key), f"{key!r} -> {value!r}"
    dummy = {f: "X" for f in _fields(key)}
    value.format(**dummy)  # valid str.format with dummy values
    if "<@{user}>" in key:
        assert "<@{user}>" in value
    assert value.count("**") == key.count("**")
    assert value.count("\n") == key.count("\n")


def test_nothing_is_left_in_english():
    def has_words(s: str) -> bool:
        return bool(re.search(r"[A-Za-z]", re.sub(r"\{\w*\}", "", s)))

    left = [k for k, v in JA.items() if v == k and has_words(k) and k not in SAME_AS_ENGLISH]
    assert not left, left
    assert JA[", "] == "、"


def test_select_and_button_labels_stay_short():
    for key, value in JA.items():
        assert len(value) <= max(100, len(key)), key
