"""PON setup: the circuit, the peeks, turning courses up, the deal and the throttles."""

from __future__ import annotations

import json

import pytest

from bot.games.base import GameError
from bot.games.pon import ENGINE as E
from bot.games.pon.content import CARDS, COURSE_IDS, RACING_IDS
from bot.games.pon.flow import finish_setup
from tests.pon.helpers import en, plain


def peek_all(st, choose):
    """Every seat peeks (last place first) at the course `choose(seat, st)` returns."""
    while st["phase"] == "peek":
        seat = E.to_act(st)[0]
        st, _ = E.apply(st, seat, {"type": "peek", "course": choose(seat, st)})
    return st


def dealt(seats, seed):
    """The state right after the deal, before the first course is turned up (no course effect yet)."""
    st = E.new_game({}, seats, seed)
    st["peeked"] = list(range(seats))
    st["known"] = [[i] for i in range(seats)]
    st["peek_queue"] = []
    finish_setup(st, [])
    assert st["phase"] == "start_turn"
    return st


def test_content_counts():
    assert len(COURSE_IDS) == 12 and len(RACING_IDS) == 28
    for n in (1, 2, 3, 4):
        assert sum(1 for c in RACING_IDS if CARDS[c].number == n) == 7
        assert sum(1 for c in COURSE_IDS if CARDS[c].number == n) == 3


def test_three_players_use_all_twelve_courses_and_one_card_goes_to_the_discard():
    """3 players: 12 courses; 28 racing cards = 15 in hands + 12 throttles + 1 to the discard."""
    st = dealt(3, 5)
    assert sorted(st["circuit"]) == COURSE_IDS
    assert [len(h) for h in st["hands"]] == [5, 5, 5]
    assert all(len(t) == 1 for t in st["throttles"])
    assert len(st["discard"]) == 1 and st["deck"] == []
    cards_out = [c for h in st["hands"] for c in h] + [c for t in st["throttles"] for c in t] + st["discard"]
    assert sorted(cards_out) == RACING_IDS


def test_four_players_draw_ten_courses_and_the_other_two_join_the_deck():
    st = dealt(4, 5)
    assert len(st["circuit"]) == 10 and len(set(st["circuit"])) == 10
    spare = sorted(set(COURSE_IDS) - set(st["circuit"]))
    assert [len(h) for h in st["hands"]] == [5, 5, 5, 5]
    assert all(len(t) == 1 for t in st["throttles"]) and st["discard"] == [] and st["deck"] == []
    cards_out = [c for h in st["hands"] for c in h] + [c for t in st["throttles"] for c in t]
    assert sorted(cards_out) == sorted(RACING_IDS + spare)


def test_peeks_go_from_last_place_up_one_course_each():
    """ "最下位のプレイヤーから順番にコースを1つ選んで手に取り、その中を確認"."""
    st = E.new_game({}, 4, 9)
    order = st["order"]
    seen = []
    while st["phase"] == "peek":
        seat = E.to_act(st)[0]
        seen.append(seat)
        assert E.legal_actions(st, seat)
        for other in range(4):
            if other != seat:
                assert E.legal_actions(st, other) == []
                with pytest.raises(GameError):
                    E.apply(st, other, {"type": "peek", "course": 0})
        st, _ = E.apply(st, seat, {"type": "peek", "course": len(seen)})
    assert seen == list(reversed(order))


def test_a_course_cannot_be_peeked_twice():
    # Rule reading: the peeked card is in that player's hand until all have peeked.
    st = E.new_game({}, 3, 2)
    first = E.to_act(st)[0]
    st, _ = E.apply(st, first, {"type": "peek", "course": 4})
    second = E.to_act(st)[0]
    assert {"type": "peek", "course": 4} not in E.legal_actions(st, second)
    with pytest.raises(GameError):
        E.apply(st, second, {"type": "peek", "course": 4})
    for bad in (-1, 12, "4", None, True):
        with pytest.raises(GameError):
            E.apply(st, second, {"type": "peek", "course": bad})


def test_all_peek_in_the_back_three_nine_courses_turn_up():
    """ "3人共が後ろ3枚のいずれかを確認していたら、後ろ3枚を除く9枚が全部表向き"."""
    st = peek_all(E.new_game({}, 3, 3), lambda seat, s: [i for i in (9, 10, 11) if i not in s["peeked"]][0])
    assert st["face_up"] == [True] * 9 + [False] * 3


def test_nobody_peeks_in_the_back_three_six_stay_down():
    """ "1人も後ろ3枚から選んでいなかったら、6枚が裏向きのままで、6枚が表向き"."""
    st = peek_all(E.new_game({}, 3, 3), lambda seat, s: [i for i in (0, 4, 7) if i not in s["peeked"]][0])
    # course 0 is run first: it is turned up at the start of turn 1
    up = st["face_up"]
    assert sum(up) == 7 and up[0]
    assert [i for i, u in enumerate(up) if not u] == [4, 7, 9, 10, 11]
    st2 = E.new_game({}, 3, 3)
    st2 = peek_all(st2, lambda seat, s: [i for i in (2, 4, 7) if i not in s["peeked"]][0])
    assert sum(st2["face_up"]) == 6


def test_peeked_course_is_shown_only_to_its_peeker():
    st = E.new_game({}, 3, 11)
    seat = E.to_act(st)[0]
    st, ev = E.apply(st, seat, {"type": "peek", "course": 10})
    secret = CARDS[st["circuit"][10]]
    private = [e for e in ev if e.to == seat]
    assert private and secret.name in en(private[0].text)
    assert all(secret.name not in en(e.text) for e in ev if e.to != seat)
    st = peek_all(st, lambda s_, s: [i for i in range(12) if i not in s["peeked"]][0])
    mine = E.view(st, seat)["me"]["peeked"]
    assert [p["index"] for p in mine] == [10] and en(mine[0]["name"]) == secret.name
    for viewer in [None] + [s for s in range(3) if s != seat]:
        v = E.view(st, viewer)
        assert v["courses"][10]["number"] is None and v["courses"][10]["name"] is None
        assert secret.name not in json.dumps(plain(v))
    assert E.view(st, None)["courses"][10]["known_by"] == [seat]


def test_hands_are_dealt_after_the_peeks_and_the_order_is_random():
    st = E.new_game({}, 3, 1)
    assert E.view(st, None)["hand_counts"] == {"0": 0, "1": 0, "2": 0}
    assert E.view(st, None)["deck_count"] == 28
    orders = {tuple(E.new_game({}, 3, seed)["order"]) for seed in range(30)}
    assert len(orders) > 3


def test_options_and_seat_counts():
    assert E.validate_options({}, 3) == {}
    for seats in (2, 5):
        with pytest.raises(GameError):
            E.validate_options({}, seats)
    with pytest.raises(GameError):
        E.validate_options({"laps": 2}, 3)
