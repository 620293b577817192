"""Issue #11: the seed's alternative to the Garage draft: 「望むならドラフトではなく単にカードを
シャッフルして各自に3枚ずつ配るのでも構わない」 (option garage_deal)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.games.base import GameError
from bot.games.heat import ENGINE as E
from bot.games.heat import content
from bot.i18n import render


def codes(st, ids):
    return [st["cards"][c] for c in ids]


def test_option_needs_the_garage_and_reads_in_the_lobby():
    opts = E.validate_options({"garage": "advanced", "garage_deal": True}, 3)
    assert opts["garage_deal"] is True and opts["garage"] == "advanced"
    words = [render(m, "en") for m in E.describe_options(opts)]
    assert "Garage: 3 upgrades dealt to each player (advanced cards)" in words
    assert not any("draft" in w for w in words)
    assert "garage_deal" not in E.validate_options({"garage": "basic"}, 3)
    for bad in ({"garage_deal": True}, {"garage": "off", "garage_deal": True}, {"garage": "basic", "garage_deal": "y"}):
        with pytest.raises(GameError):
            E.validate_options(bad, 3)


@pytest.mark.parametrize("seats", [1, 2, 4, 6])
def test_three_upgrades_dealt_to_each_player_and_the_race_starts_at_once(seats):
    options = {"track": "usa", "garage": "basic", "garage_deal": True, **({"legends": 2} if seats == 1 else {})}
    st = E.new_game(options, seats, 7)
    assert st["phase"] == "submit" and "draft" not in st and st["garage_dealt"]
    assert E.to_act(st) == list(range(seats))
    deck_types = [c for c, t in content.garage()["types"].items() if t["tier"] == "basic"]
    dealt = Counter()
    for s in range(seats):
        car = st["cars"][s]
        picks = st["garage"][s]
        assert len(picks) == 3 and all(p in deck_types for p in picks)
        dealt.update(picks)
        assert len(car["hand"]) == 7
        mine = Counter(codes(st, car["hand"] + car["deck"]))
        # the starting upgrades went back in the box; the dealt ones (a Heat one as plain Heat) came in
        assert not mine["start0"] and not mine["start5"]
        for p in picks:
            want = "heat" if content.garage()["types"][p].get("heat_card") else p
            assert mine[want] >= 1
    assert all(n <= content.garage()["copies"] for n in dealt.values())
    assert E.view(st, None)["garage"] and all(len(g) == 3 for g in E.view(st, None)["garage"])


def test_the_deal_is_random_but_replays_from_the_seed():
    hands = {
        tuple(map(tuple, E.new_game({"track": "usa", "garage": "mixed", "garage_deal": True}, 3, s)["garage"]))
        for s in range(8)
    }
    assert len(hands) > 1
    a = E.new_game({"track": "usa", "garage": "mixed", "garage_deal": True}, 3, 4)
    assert a == E.new_game({"track": "usa", "garage": "mixed", "garage_deal": True}, 3, 4)


def test_dealt_garage_race_to_the_end():
    rnd = random.Random(3)
    st = E.new_game({"track": "france", "garage": "all", "garage_deal": True, "weather": True}, 3, 3)
    while not E.is_over(st):
        seat = rnd.choice(E.to_act(st))
        st, _ = E.apply(st, seat, rnd.choice([a for a in E.legal_actions(st, seat) if a["type"] != "prefs"]))
        assert st["round"] < 300
