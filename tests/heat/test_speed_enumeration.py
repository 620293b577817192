"""The faster enumeration of a hand's submissions (issue #34) gives what the plain definitions give:
distinct_places built from the runs of equal types equals filtering every combination, ranked_cards
sorts as card_sort_key does, and the preference changes are every other value of each preference."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from bot.games.heat import ENGINE as E
from bot.games.heat import labels, menus, rules


def _by_definition(codes: tuple, size: int) -> tuple:
    seen, out = set(), []
    for combo in combinations(range(len(codes)), size):
        key = tuple(codes[i] for i in combo)
        if key not in seen:
            seen.add(key)
            out.append(combo)
    return tuple(out)


@pytest.mark.parametrize("seed", range(5))
def test_distinct_places_equal_the_definition(seed):
    rnd = random.Random(seed)
    for _ in range(2000):
        n, size = rnd.randint(0, 10), rnd.randint(0, 5)
        grouped = tuple(sorted(rnd.randint(0, 5) for _ in range(n)))
        assert labels.distinct_places(grouped, size) == _by_definition(grouped, size), (grouped, size)
        loose = tuple(rnd.choice("abcd") for _ in range(n))  # (not sorted: the definition itself)
        assert labels.distinct_places(loose, size) == _by_definition(loose, size), (loose, size)


def test_ranked_cards_sort_as_card_sort_key():
    rnd = random.Random(3)
    types = list(rules.KIND)
    for _ in range(300):
        cards = [rnd.choice(types) for _ in range(rnd.randint(1, 40))]
        ids = rnd.sample(range(len(cards)), rnd.randint(0, len(cards)))
        ordered, ranks = labels.ranked_cards(cards, ids)
        assert ordered == sorted(ids, key=lambda c: labels.card_sort_key({"cards": cards}, c))
        assert [ranks[i] == ranks[j] for i in range(len(ids)) for j in range(len(ids))] == [
            cards[ordered[i]] == cards[ordered[j]] for i in range(len(ids)) for j in range(len(ids))
        ]


def _pref_changes_by_definition(state: dict, car: dict) -> list[dict]:
    return [
        {"type": "prefs", key: v}
        for key, values in rules.prefs_of(state).items()
        for v in values
        if v != car["prefs"].get(key, values[0])
    ]


def test_pref_actions_are_every_other_value():
    """The same car preferences in a plain race, a Garage race and a championship race (each offers
    its own preferences) give each race's own changes."""
    rnd = random.Random(5)
    plain, garage = E.new_game({"track": "usa"}, 3, 1), E.new_game({"track": "usa", "garage": "all"}, 3, 1)
    champ = {**plain, "champ": {}}
    for _ in range(60):
        prefs = {k: rnd.choice(v) for k, v in rules.prefs_of(plain).items() if rnd.random() < 0.8}
        for st in (plain, garage, champ):
            car = {**st["cars"][0], "prefs": prefs}
            assert menus.pref_actions(st, car) == _pref_changes_by_definition(st, car)


@pytest.mark.parametrize("options", [{"track": "usa"}, {"track": "italy", "garage": "all", "garage_deal": True}])
def test_submit_actions_from_the_whole_hand_equal_the_split_hand(options):
    """The hand sorted whole (Heat last) gives the actions the playable cards sorted alone give, clogged
    hands (Heat in the submission) included."""
    rnd = random.Random(9)
    st = E.new_game(dict(options), 3, 2)
    heat = [i for i, code in enumerate(st["cards"]) if not rules.PLAYABLE[code]]
    clogged = 0
    for _ in range(400):
        car = st["cars"][rnd.randrange(3)]
        ids = [i for i, c in enumerate(st["cards"]) if rules.PLAYABLE[c]]
        car["hand"] = rnd.sample(ids, rnd.randint(0, 7))
        car["hand"] += rnd.sample(heat, min(len(heat), 7 - len(car["hand"])))
        rnd.shuffle(car["hand"])
        car["gear"] = rnd.randint(1, 4)
        car["engine"] = heat[: rnd.randint(0, 3)]
        got = menus.submit_actions(st, car)
        assert got == menus._submit_actions_split(st, car)
        clogged += any(not rules.PLAYABLE[st["cards"][c]] for a in got for c in a["cards"])
    assert clogged


def test_submit_actions_remembered_by_hand_shape_stay_each_cars_own():
    """submit_actions keeps each hand's outline (by its sorted types, the gear, the Engine's Heat and a
    flooded start): cars on Japan's flooded and dry spaces, with 0 to 3 Heat in the Engine, each get
    what working it out afresh gives (the split form keeps nothing), asked twice over in turn so the
    second asks meet outlines kept from other cars."""
    rnd = random.Random(21)
    st = E.new_game({"track": "japan"}, 3, 4)
    tr = rules.track_of(st)
    heat = [i for i, code in enumerate(st["cards"]) if not rules.PLAYABLE[code]]
    playable = [i for i, c in enumerate(st["cards"]) if rules.PLAYABLE[c]]
    flooded = sorted(tr.flooded)
    dry = [s for s in range(1, tr.spaces + 1) if s not in tr.flooded]
    cars = []
    for _ in range(300):
        car = dict(st["cars"][rnd.randrange(3)])
        car["hand"] = rnd.sample(playable[:12], rnd.randint(2, 7))
        car["hand"] += rnd.sample(heat, min(len(heat), 7 - len(car["hand"])))
        car["gear"] = rnd.randint(1, 4)
        car["engine"] = heat[: rnd.randint(0, 3)]
        car["pos"] = rnd.choice(flooded if rnd.random() < 0.5 else dry)
        cars.append(car)
    for car in cars + cars[::-1]:
        assert menus.submit_actions(st, car) == menus._submit_actions_split(st, car), car


def test_pref_actions_are_fresh_dicts_each_time():
    """The kept preference actions are handed out as copies: a caller that changes the ones it got
    (a menu adding its label, say) changes nothing the next caller gets."""
    st = E.new_game({"track": "usa"}, 3, 1)
    first = E.legal_actions(st, 0)
    for a in first:
        a["changed"] = True
    again = E.legal_actions(st, 0)
    assert again and not any("changed" in a for a in again)
    assert [a for a in again if a["type"] == "prefs"] == _pref_changes_by_definition(st, st["cars"][0])
