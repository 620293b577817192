"""Hidden information in the bot's log: lines carrying JSON keys of the engines' private state
(a seat's hand, a deck, the rng that orders the deck, peeked courses...)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable

# Heat: cars[].hand / deck / engine / discard order; PON: hands, deck, known, peeked, circuit order.
# Both: rng (it decides every future draw). Quotes may come escaped inside a repr.
PRIVATE_KEYS = ("hand", "hands", "deck", "rng", "known", "peeked", "peek_queue", "circuit", "engine")
PATTERN = re.compile(r'\\?"(?:%s)\\?"\s*:' % "|".join(PRIVATE_KEYS))


def secret_lines(paths: Iterable[Path]) -> int:
    count = 0
    for path in paths:
        if not path.exists():
            continue
        with open(path, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if PATTERN.search(line):
                    count += 1
    return count
