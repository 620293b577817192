"""PON's designed card content, loaded from data/pon/*.json and validated on load.

The rule sheet names the two card types (course cards with a course effect, racing cards with
an event) but lists none of them, so every effect here is our own design. Each effect is a small
dict {"op": ..., params} that the engine interprets; the data drives behaviour.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parents[3] / "data" / "pon"

# Course effects: op -> allowed parameter names.
COURSE_OPS: dict[str, set[str]] = {
    "mod": {"block_extra", "pack_block_extra", "block_discount", "no_pon", "no_slipstream", "slip_wide", "hand_limit"},
    "reveal_next": set(),
    "reverse_order": set(),
    "last_take": {"count"},
    "leader_discard": {"count"},
    "throttle_from_discard": {"count"},
    "pon_decay": set(),
}
# Events: op -> allowed parameter names.
EVENT_OPS: dict[str, set[str]] = {
    "line": {"reach"},
    "take_discard": set(),
    "shield": set(),
    "peek": set(),
    "attack_boost": set(),
    "take_throttle": {"where"},
    "pon_hold": set(),
    "slip_any": set(),
    "leader_discard": set(),
    "reveal": set(),
    "pon_add": set(),
    "swap_course": set(),
}
# Events whose effect concerns the card you are about to play: only usable before a card is
# played (later in the turn they would do nothing).
BEFORE_PLAY_OPS = {"line", "slip_any"}
# Events whose effect concerns your overtakes: usable until the last block of your chain (before
# the play, at the slipstream pick, between blocks), not at the throttle step.
ATTACK_OPS = {"attack_boost"}

HAND_LIMIT = 5
COURSE_COUNT = 12
RACING_COUNT = 28


@dataclass(frozen=True)
class Card:
    id: int
    kind: str  # "course" | "racing"
    number: int
    name: str
    text: str
    effect: dict[str, Any]  # the course effect or the event

    @property
    def label(self) -> str:
        if self.kind == "course":
            return f"{self.number} · {self.name} (course)"
        return f"{self.number} · {self.name}"


def _load_file(name: str) -> dict[str, Any]:
    return json.loads((DATA_DIR / name).read_text("utf-8"))


def load_cards() -> dict[int, Card]:
    courses = _load_file("courses.json")
    racing = _load_file("racing_cards.json")
    cards: dict[int, Card] = {}
    for doc, kind, ops, key in ((courses, "course", COURSE_OPS, "effect"), (racing, "racing", EVENT_OPS, "event")):
        if doc.get("designed") is not True or not doc.get("note"):
            raise ValueError(f"data/pon: {kind} file must be marked designed with a note")
        for raw in doc["cards"]:
            cid, number, effect = raw["id"], raw["number"], raw[key]
            if not isinstance(cid, int) or cid in cards:
                raise ValueError(f"data/pon: bad or duplicate id {cid!r}")
            if number not in (1, 2, 3, 4):
                raise ValueError(f"data/pon: card {cid} has number {number!r}")
            op = effect.get("op")
            if op not in ops or set(effect) - {"op"} - ops[op]:
                raise ValueError(f"data/pon: card {cid} has an unknown effect {effect!r}")
            if not raw["text"] or len(raw["text"]) > 100 or len(raw["name"]) > 24:
                raise ValueError(f"data/pon: card {cid} text or name too long")
            cards[cid] = Card(cid, kind, number, raw["name"], raw["text"], dict(effect))
    course_ids = [c.id for c in cards.values() if c.kind == "course"]
    racing_ids = [c.id for c in cards.values() if c.kind == "racing"]
    if len(course_ids) != COURSE_COUNT or len(racing_ids) != RACING_COUNT:
        raise ValueError("data/pon: expected 12 course cards and 28 racing cards")
    if sorted(cards) != list(range(COURSE_COUNT + RACING_COUNT)):
        raise ValueError("data/pon: card ids must be 0..39")
    for n in (1, 2, 3, 4):
        if sum(1 for c in cards.values() if c.kind == "racing" and c.number == n) != RACING_COUNT // 4:
            raise ValueError("data/pon: racing cards must be 7 of each number")
    if len({c.name for c in cards.values()}) != len(cards):
        raise ValueError("data/pon: card names must be unique")
    return cards


CARDS: dict[int, Card] = load_cards()
COURSE_IDS: list[int] = sorted(c.id for c in CARDS.values() if c.kind == "course")
RACING_IDS: list[int] = sorted(c.id for c in CARDS.values() if c.kind == "racing")
ALL_IDS: list[int] = sorted(CARDS)
