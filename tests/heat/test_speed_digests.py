"""Heat's speed work (issue #34) changes no rule: seeded random playouts of 3, 5 and 6 players, with
Legends, weather and the Garage (drafted and dealt), give the same actions, events, states, views and
menus as the code before it. Each case hashes, after every move: the action chosen, every event (its
recipient, log flag and English words), the state (json, sorted keys), the spectator's view and the
mover's view, and the mover's menu and legal actions (the enumeration the speed work rewrites).

The digests were recorded from commit 73c0227 (before the speed work of this branch). If a deliberate
rules change alters them, re-record with
    .venv/bin/python -m tests.heat.test_speed_digests
and say why in the commit.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from bot.games.heat import ENGINE as E
from bot.games.heat import rules
from bot.i18n import Msg, render

# (name, seats, options): 3-, 5- and 6-player races, Legends, weather, the Garage drafted and dealt.
CASES = [
    ("3p_usa", 3, {"track": "usa"}),
    ("3p_legends_weather", 3, {"track": "france", "modules": ["legends", "weather"], "legends": 2}),
    ("3p_garage_draft", 3, {"track": "italy", "garage": "mixed"}),
    ("5p_weather_garage_deal", 5, {"track": "great_britain", "weather": True, "garage": "all", "garage_deal": True}),
    ("5p_plain", 5, {"track": "italy"}),
    ("6p_weather", 6, {"track": "usa", "weather": True}),
    ("6p_garage", 6, {"track": "france", "garage": "advanced"}),
    ("2p_legends_tournament", 2, {"track": "usa", "legends": 3, "modules": ["legends"], "tournament": True}),
]


def _words(value):
    """Every Msg as its English words (a state keeps some as JSON; those stay as stored)."""
    if isinstance(value, Msg):
        return render(value, "en")
    if isinstance(value, list):
        return [_words(v) for v in value]
    if isinstance(value, tuple):
        return [_words(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _words(v) for k, v in value.items()}
    return value


def _dump(value) -> bytes:
    return json.dumps(_words(value), sort_keys=True, default=str).encode()


def digest(seats: int, options: dict, seed: int) -> str:
    """One seeded race with random actions (preferences set at random first, so "ask" pauses happen,
    and sometimes changed mid-race), everything the table sees hashed along the way."""
    rnd = random.Random(seed * 31 + seats)
    h = hashlib.sha256()
    state = E.new_game(dict(options), seats, seed)
    for seat in range(seats):
        prefs = {"type": "prefs", **{k: rnd.choice(v) for k, v in rules.prefs_of(state).items()}}
        state, events = E.apply(state, seat, prefs)
    for _ in range(6000):
        if E.is_over(state):
            break
        seat = rnd.choice(E.to_act(state))
        legal = E.legal_actions(state, seat)
        h.update(_dump(legal))
        h.update(_dump(E.menu(state, seat)))
        acts = [a for a in legal if a["type"] != "prefs"]
        action = rnd.choice(legal if rnd.random() < 0.03 or not acts else acts)
        h.update(_dump(action))
        state, events = E.apply(state, seat, action)
        for ev in events:
            h.update(f"{ev.to}|{ev.log}|{render(ev.text, 'en')}\n".encode())
        h.update(_dump(state))
        h.update(_dump(E.view(state, None)))
        h.update(_dump(E.view(state, seat)))
    assert E.is_over(state)
    h.update(_dump(state))
    return h.hexdigest()[:16]


EXPECTED: dict[str, str] = {
    "3p_usa": "da9231335059f0ef",
    "3p_legends_weather": "5a42aac2232578eb",
    "3p_garage_draft": "2b87713347b32281",
    "5p_weather_garage_deal": "3ef2d50c984c0c49",
    "5p_plain": "3c51e88a5b23b360",
    "6p_weather": "769fa93a35165475",
    "6p_garage": "a5205f53c0308c16",
    "2p_legends_tournament": "7f0f54782777a8d1",
}


@pytest.mark.parametrize("name,seats,options", CASES, ids=[c[0] for c in CASES])
def test_seeded_playouts_unchanged(name, seats, options):
    assert digest(seats, options, seed=7 + 11 * CASES.index((name, seats, options))) == EXPECTED[name]


if __name__ == "__main__":
    print("EXPECTED: dict[str, str] = {")
    for name, seats, options in CASES:
        print(f"    {name!r}: {digest(seats, options, seed=7 + 11 * CASES.index((name, seats, options)))!r},")
    print("}")
