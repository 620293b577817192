"""Events (seed 002, sections 2.2 and 9, appendix 3), a table option: the A/B/C deck by circuit,
the "!" weather roll then the purple die, the lowest black roll takes a one-player event, the
seven effects, the SC card with and without the safety-car rule, reshuffling, bots unaffected."""

import json

import pytest

from bot.games.pole import ENGINE as E
from bot.games.pole import race as RACE
from bot.games.rng import Rng
from tests.pole.helpers import event_round, race, said


def _keys(ev):
    return [e.text.key for e in said(ev)]


def test_deck_by_circuit_and_letter():
    """2.2: A cards always; B (the second SC card) on Monaco and the USA; C only on request."""
    gb = race(events=True)["events"]
    assert sorted(gb["deck"]) == sorted(["light", "heavy", "ep", "bp", "sc_a", "weather3"])
    for circ in ("monaco", "usa"):
        d = race(circuit=circ, events=True)["events"]["deck"]
        assert "sc_b" in d and len(d) == 7
    d = race(events_c=True)["events"]["deck"]
    assert len(d) == 8 and {"weather6", "light_c"} <= set(d)
    assert "events" not in race()  # without the option: no deck, the race as before
    assert E.validate_options({"events_often": True}, 3)["events"] is True


def test_deck_order_never_shown():
    st = race(events=True)
    for viewer in (None, 0, 1):
        v = E.view(st, viewer)
        assert v["events"] == {"last": None, "discard": [], "left": 6}
        assert "deck" not in json.dumps(v["events"])


def test_bang_then_purple_bang_reveals(monkeypatch):
    st = race(events=True)
    st, ev = event_round(st, ["weather3", "light"], ["!", "!"], monkeypatch)
    assert "Event: {what}." in _keys(ev)
    assert st["events"]["discard"] == ["weather3"] and st["events"]["deck"] == ["light"]
    assert st["weather"]["b"] == 4  # token B moved on 3 spaces
    assert E.view(st, None)["events"]["last"] == {"card": "weather3", "round": 11, "seat": None}


@pytest.mark.parametrize(
    "purple,often,revealed", [(3, False, False), (3, True, True), (4, True, False), ("!", False, True)]
)
def test_purple_three_counts_only_with_events_often(monkeypatch, purple, often, revealed):
    st = race(events=True, events_often=often)
    st, ev = event_round(st, ["weather3"], ["!", purple], monkeypatch)
    assert ("Event: {what}." in _keys(ev)) is revealed


def test_no_event_without_bang(monkeypatch):
    st = race(events=True)
    st, ev = event_round(st, ["weather3"], ["cloud"], monkeypatch)
    assert st["events"]["discard"] == []


def test_lowest_black_roll_takes_it_ties_roll_again(monkeypatch):
    st = race(events=True)
    bp = [c["bp"] for c in st["cars"]]
    # black rolls in position-track order; seats 1 and 2 tie on 2 and roll again: 5 and 3
    order = [s for s in st["order"]]
    rolls = {order[0]: 4, order[1]: 2, order[2]: 2}
    again = {order[1]: 5, order[2]: 3}
    st, ev = event_round(
        st, ["bp"], ["!", "!"] + [rolls[s] for s in order] + [again[s] for s in order[1:]], monkeypatch
    )
    hit = order[2]
    assert [c["bp"] for c in st["cars"]] == [b - (1 if s == hit else 0) for s, b in enumerate(bp)]
    assert st["events"]["last"]["seat"] == hit


def test_breakdown_events(monkeypatch):
    st = race(n=1, events=True)  # one player (and a bot): the player takes it without a roll
    st, ev = event_round(st, ["heavy"], ["!", "!"], monkeypatch)
    assert st["cars"][0]["bd"] == [["heavy", False]]
    st, ev = event_round(st, ["light"], ["!", "!"], monkeypatch)
    assert st["cars"][0]["bd"] == [["heavy", False], ["light", False]]
    assert st["cars"][0]["out"] == "breakdown"  # two unrepaired breakdowns (10)


def test_point_that_cannot_be_lost_retires(monkeypatch):
    st = race(n=1, events=True)
    st["cars"][0]["ep"] = 0
    st, ev = event_round(st, ["ep"], ["!", "!"], monkeypatch)
    assert st["cars"][0]["out"] == "event"


def test_bots_take_no_events(monkeypatch):
    st = race(n=1, events=True, bots=2)
    st["cars"][0]["out"] = "lapped"  # only bots are left: the card is discarded
    st["order"] = st["order"][1:] + [0] if st["order"][0] == 0 else st["order"]
    st, ev = event_round(st, ["heavy"], ["!", "!"], monkeypatch)
    assert "No player can take the event: it is discarded." in _keys(ev)
    assert all(c["bd"] == [] for c in st["cars"])


def test_sc_card_without_the_safety_car_rule_draws_again(monkeypatch):
    st = race(n=1, events=True)
    st, ev = event_round(st, ["sc_a", "bp"], ["!", "!"], monkeypatch)
    assert "No safety car in this race: another card is drawn." in _keys(ev)
    assert st["events"]["discard"] == ["sc_a", "bp"] and not st.get("sc_due")


def test_sc_card_brings_the_safety_car(monkeypatch):
    st = race(n=2, events=True, safety_car=True)
    st, ev = event_round(st, ["sc_a"], ["!", "!"], monkeypatch)
    assert st["sc_due"] == {"causers": []}
    rng = Rng(st["rng"])
    RACE.next_turn(st, rng, ev)  # the SC procedure: every car decides whether to pit
    assert st.get("sc") and E.to_act(st) == [st["sc"]["order"][0]]


def test_empty_deck_is_made_from_the_shuffled_discards(monkeypatch):
    st = race(n=1, events=True)
    st["events"]["discard"] = ["weather3", "light", "heavy"]
    st, ev = event_round(st, [], ["!", "!"], monkeypatch)
    assert "The event deck is shuffled again." in _keys(ev)
    assert len(st["events"]["deck"]) == 2 and len(st["events"]["discard"]) == 1


def test_no_events_during_the_start(monkeypatch):
    st = race(events=True)
    assert st["round"] == 1 and st["events"]["discard"] == []
