"""Three rule readings from seed 000 (issue #33), each quoted: when the Legend card is revealed,
a press corner passed by slipstream, and when a sponsorship card reaches the hand."""

from __future__ import annotations

from bot.games.heat import ENGINE as E
from tests.heat.helpers import en, ids_of, parked, setcar, submit
from tests.heat.championships import press_race, sponsors_in
from tests.heat.legends import lnew, with_card


def test_legend_card_revealed_when_the_first_legend_moves():
    # 「各ラウンドで「レジェンドが最初に公開と移動を行うステップ」でレジェンドデッキの一番上の
    # カードを公開し右側に重ねておく」: the card is turned up at the Legends' first move, not when
    # the round starts to resolve. The player leads and stops to decide on a boost: no Legend has
    # moved, so the deck is whole and nobody (the player included) sees the round's card.
    st = lnew(seats=1, legends=2, seed=3)
    parked(st, 0, 30)
    st["cars"][0]["prefs"]["boost"] = "ask"
    st["cars"][1]["pos"], st["cars"][1]["lane"] = 5, 1
    st["cars"][2]["pos"], st["cars"][2]["lane"] = 5, 2
    with_card(st, 7)
    deck = len(st["legend_deck"])
    st, _ = submit(st, 0, ["start0"])
    assert st["phase"] == "decide" and st["pending"]["type"] == "boost"
    assert len(st["legend_deck"]) == deck
    for viewer in (None, 0):
        assert E.view(st, viewer)["legend_card"] is None
    # The boost answered, the Legends move: now the card is turned up, one for both Legends.
    boost = next(a for a in E.legal_actions(st, 0) if a["type"] == "boost")
    st, _ = E.apply(st, 0, boost)
    assert len(st["legend_deck"]) == deck - 1
    assert E.view(st, None)["legend_card"]["number"] == 7


def test_press_corner_passed_by_slipstream_from_the_last_space_before_the_line():
    # 「プレス席のあるコーナーをスリップストリームによる移動で通過した場合」: the card move ends on
    # space 12, the last space before corner 1's line (a car there has not crossed it); the
    # slipstream takes it over the line to 14: the corner was passed by the slipstream move.
    st = press_race()
    # The other car stays on space 12 (a 0 played), beside the spot the car stops on.
    setcar(st, 1, pos=12, lane=2, gear=1, hand=["start0"] * 7, deck=["speed1"] * 10, discard=[], engine=6)
    setcar(
        st,
        0,
        pos=10,
        lane=1,
        gear=2,
        hand=["speed1"] * 7,
        deck=["speed1"] * 10,
        engine=6,
        prefs={"slipstream": "always"},
    )
    before = len(st["champ"]["sponsor_deck"])
    st, ev = submit(st, 1, ["start0"])
    st, more = submit(st, 0, ["speed1", "speed1"])
    ev += more
    car = st["cars"][0]
    assert car["rd"]["slip"] and car["rd"]["speed"] == 2 and car["pos"] == 14
    assert before - len(st["champ"]["sponsor_deck"]) == 1
    assert any("Press corner 1 (slipstream)" in x for x in en([e.text for e in ev if e.to is None]))


def test_sponsorship_card_in_hand_at_once_before_the_step_8_discard():
    # 「スポンサーシップカードを即座に1枚手札に得る」: the card is in the hand the moment the corner is
    # passed, so it is there for the step-8 discard, and step 9 fills the hand to 7, not 8.
    st = press_race()
    setcar(
        st,
        0,
        pos=5,
        lane=1,
        gear=2,
        hand=["speed4", "speed4", "speed1", "speed1", "speed1", "speed1", "speed1"],
        deck=["speed1"] * 10,
        engine=6,
        prefs={"discard": "ask"},
    )
    st, _ = submit(st, 1, ["speed1"])
    st, _ = submit(st, 0, ["speed4", "speed4", "speed1"])  # speed 9 = limit 7 + 2
    assert st["pending"]["type"] == "discard"
    got = sponsors_in(st, 0)
    assert len(got) == 1  # in hand while the player chooses what to discard
    sp = ids_of(st, 0, got)
    # It may even be discarded at once (unused: it stays a card of the deck).
    st, _ = E.apply(st, 0, {"type": "discard", "cards": sp})
    assert sponsors_in(st, 0, "discard") == got
    assert len(st["cars"][0]["hand"]) == 7
    # Kept (no discard asked): the hand is 7 after the refill, the new card among them.
    st = press_race()
    setcar(
        st,
        0,
        pos=5,
        lane=1,
        gear=2,
        hand=["speed4", "speed4", "speed1", "speed1", "speed1", "speed1", "speed1"],
        deck=["speed1"] * 10,
        engine=6,
    )
    st, _ = submit(st, 1, ["speed1"])
    st, _ = submit(st, 0, ["speed4", "speed4", "speed1"])
    assert len(st["cars"][0]["hand"]) == 7 and len(sponsors_in(st, 0)) == 1
