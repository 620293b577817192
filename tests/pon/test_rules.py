"""PON rules: the main phase, PON, slipstream, overtakes and blocks, end of turn, end of game.

Each test names the rule-sheet statement or final Q&A (最終確認) answer it checks.
"""

from __future__ import annotations

import pytest

from bot.games.base import GameError
from bot.games.pon import ENGINE as E
from tests.pon.helpers import C, act, arrange, cards, en, hand_names, names, play, texts

NEVER = {"pon": {n: "never" for n in "1234"}}
YIELD = {"block": "yield", **NEVER}
ASK_BLOCK = {"block": "ask", **NEVER}


# -- main phase ---------------------------------------------------------------------------------


def test_turn_order_is_fixed_at_turn_start_even_after_an_overtake():
    """ "オーバーテイクによって暫定順位が変動しても、ターン開始時に決められた順番に従って手番を行う"."""
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Draft"]},
        hands={0: ["Dive Bomb"], 1: ["Tow", "Fuel Save"], 2: ["Scavenge"]},
        prefs={0: YIELD, 1: NEVER, 2: NEVER},
    )
    assert E.to_act(st) == [0]
    st, _ = play(st, 0, "Dive Bomb")
    assert E.to_act(st) == [1]
    st, ev = play(st, 1, "Tow")  # course number 1: overtakes seat 0, who yields
    assert st["order"] == [1, 0, 2]
    assert "P2 overtakes P1" in texts(ev)
    assert st["actor"] == 2 and E.to_act(st) == [2]  # seat 0 does not play again


def test_take_a_throttle_card_then_the_played_card_goes_into_the_throttle():
    """ "スロットルから1枚を選んで手札に加えた後、プレイしたカードをスロットルに置く"."""
    st, _ = arrange(
        circuit={0: "Blind Crest"},
        throttles={0: ["Draft", "Covering"]},
        hands={0: ["Scavenge", "Grip"], 1: ["Tow"], 2: ["Switchback"]},
        prefs={s: NEVER for s in range(3)},
    )
    st, _ = play(st, 0, "Scavenge")
    assert st["phase"] == "take" and E.to_act(st) == [0]
    takes = [a["card"] for a in E.legal_actions(st, 0) if a["type"] == "take"]
    assert sorted(takes) == cards("Draft", "Covering")  # not the card just played
    with pytest.raises(GameError):
        act(st, 0, {"type": "take", "card": C("Scavenge")})
    st, _ = act(st, 0, {"type": "take", "card": C("Covering")})
    assert hand_names(st, 0) == {"Grip", "Covering"}
    assert names(st["throttles"][0]) == ["Draft", "Scavenge"]
    assert E.to_act(st) == [1]


def test_slipstream_second_place_matching_the_throttle_takes_any_discard():
    """ "2位以下でスロットルの数字とそれが同じならスリップストリーム…捨て札から好きな1枚"."""
    st, _ = arrange(
        order=[0, 1, 2],
        turn_order=[1, 0, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Scavenge"]},
        discard=["Tow", "Draft", "Grip"],
        hands={0: ["Dive Bomb"], 1: ["Slingshot", "Fuel Save"], 2: ["Covering"]},
        prefs={s: NEVER for s in range(3)},
    )
    st, ev = play(st, 1, "Slingshot")
    assert "P2 gets a slipstream." in texts(ev)
    assert st["phase"] == "slip" and E.to_act(st) == [1]
    acts = E.legal_actions(st, 1)
    assert sorted(a["card"] for a in acts if a["type"] == "slip") == sorted(cards("Tow", "Draft", "Grip"))
    assert {"type": "event", "card": C("Fuel Save")} in acts  # "自分の手番中ならいつでも" (issue #9)
    st, _ = act(st, 1, {"type": "slip", "card": C("Draft")})  # any card, not only the top one
    assert "Draft" in hand_names(st, 1) and names(st["discard"]) == ["Tow", "Grip"]


def test_slipstream_compares_with_every_throttle_card():
    """ "プレイしたカードとスロットルの内、いずれかと数字が同じなら" (the throttle may hold several)."""
    st, _ = arrange(
        order=[0, 1, 2],
        turn_order=[1, 0, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Draft", "Scavenge"]},
        discard=["Tow"],
        hands={0: ["Dive Bomb"], 1: ["Slingshot", "Fuel Save"], 2: ["Covering"]},
        prefs={s: NEVER for s in range(3)},
    )
    st, ev = play(st, 1, "Slingshot")
    assert "Tow" in hand_names(st, 1)  # one discard card: taken without asking


def test_the_leader_gets_no_slipstream():
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Scavenge"]},
        discard=["Tow", "Grip"],
        hands={0: ["Slingshot", "Fuel Save"], 1: ["Draft"], 2: ["Covering"]},
        prefs={s: NEVER for s in range(3)},
    )
    st, ev = play(st, 0, "Slingshot")
    assert "slipstream" not in texts(ev)
    assert st["phase"] == "play" and E.to_act(st) == [1]
    assert names(st["discard"]) == ["Tow", "Grip"]


def test_slipstream_then_overtake_when_course_and_throttle_share_the_number():
    """ "コースの数字とスロットルの数字が同じなら、スリップストリーム→オーバーテイク権の順番で両方"."""
    st, _ = arrange(
        order=[0, 1, 2],
        turn_order=[1, 0, 2],
        circuit={0: "Tunnel"},
        throttles={0: ["Scavenge"]},
        discard=["Tow", "Grip"],
        hands={0: ["Dive Bomb"], 1: ["Slingshot", "Draft"], 2: ["Covering"]},
        prefs={0: ASK_BLOCK, 1: NEVER, 2: NEVER},
    )
    st, _ = play(st, 1, "Slingshot")
    assert st["phase"] == "slip"
    st, ev = act(st, 1, {"type": "slip", "card": C("Tow")})
    assert st["phase"] == "block" and E.to_act(st) == [0]
    assert "P2 attacks P1!" in texts(ev)


# -- overtakes and blocks ---------------------------------------------------------------------------


def attack_state(
    attacker_pon=None, defender_hand=("Dive Bomb", "Grip"), defender_prefs=ASK_BLOCK, throttle="Slick Tyres", **kw
):
    """Seat 1 (2nd) is about to play Inside Line (4) on a 4 course; seat 0 (1st) defends."""
    return arrange(
        order=[0, 1, 2],
        turn_order=[1, 0, 2],
        circuit={0: "Back Straight"},
        throttles={0: [throttle]},
        hands={0: list(defender_hand), 1: ["Inside Line", "Draft"], 2: ["Covering"]},
        pon={1: attacker_pon or []},
        prefs={0: defender_prefs, 1: NEVER, 2: NEVER},
        **kw,
    )


def test_overtake_without_pon_blocked_by_any_one_card():
    """ "PONがなければ、好きな手札1枚をスロットルに置く"; blocked: no decay, no change of place."""
    st, _ = attack_state()
    st, ev = play(st, 1, "Inside Line")
    assert st["phase"] == "block" and E.to_act(st) == [0]
    blocks = [a["cards"] for a in E.legal_actions(st, 0) if a["type"] == "block"]
    assert sorted(blocks) == sorted([[C("Dive Bomb")], [C("Grip")]])
    assert {"type": "yield"} in E.legal_actions(st, 0)
    st, ev = act(st, 0, {"type": "block", "cards": [C("Grip")]})
    assert st["order"] == [0, 1, 2]
    assert "Grip" in names(st["throttles"][0]) and hand_names(st, 0) == {"Dive Bomb"}
    assert st["phase"] == "take"  # Tow auto-taken since only one card: then next seat
    assert "P1 blocks P2 with 4 · Grip." in texts(ev)


def test_pon_set_means_the_block_needs_that_number():
    """ "オーバーテイクしたプレイヤーにPONがあれば、それと同じ数字を置きます。なければブロックできず"."""
    st, _ = attack_state(
        attacker_pon=[["Switchback", "Hold the Line", "Sideswipe"]], defender_hand=("Recon Lap", "Dive Bomb")
    )
    st, _ = play(st, 1, "Inside Line")
    blocks = [a["cards"] for a in E.legal_actions(st, 0) if a["type"] == "block"]
    assert blocks == [[C("Recon Lap")]]
    with pytest.raises(GameError):
        act(st, 0, {"type": "block", "cards": [C("Dive Bomb")]})
    # without a 3 the defender cannot block at all: only Yield
    st, _ = attack_state(
        attacker_pon=[["Switchback", "Hold the Line", "Sideswipe"]], defender_hand=("Tow", "Dive Bomb")
    )
    st, _ = play(st, 1, "Inside Line")
    assert E.legal_actions(st, 0) == [{"type": "yield"}]


def test_two_pon_sets_need_both_numbers():
    """ "PONが2組以上あった場合、ブロックするには「その全ての数字」…PONが2組あれば2枚必要"."""
    st, _ = attack_state(
        attacker_pon=[["Switchback", "Hold the Line", "Sideswipe"], ["Tow", "Pit Stop", "Send It"]],
        defender_hand=("Recon Lap", "Late Braking", "Dive Bomb"),
    )
    st, _ = play(st, 1, "Inside Line")
    blocks = [a["cards"] for a in E.legal_actions(st, 0) if a["type"] == "block"]
    assert blocks == [sorted(cards("Recon Lap", "Late Braking"))]
    st, ev = act(st, 0, {"type": "block", "cards": blocks[0]})
    assert st["order"] == [0, 1, 2] and hand_names(st, 0) == {"Dive Bomb"}
    assert [len(s) for s in st["pon"][1]] == [3, 3]  # blocked: no decay


@pytest.mark.parametrize(
    "hand,blocks",
    [(("Recon Lap", "Pit Board", "Dive Bomb"), [["Pit Board", "Recon Lap"]]), (("Recon Lap", "Dive Bomb", "Grip"), [])],
)
def test_two_pon_sets_of_the_same_number_need_two_cards_of_it(hand, blocks):
    # Rule reading: one card per set. (4 players: course cards left out of the circuit are
    # ordinary number cards, so enough 3s exist.)
    st, _ = arrange(
        4,
        order=[0, 1, 2, 3],
        turn_order=[1, 0, 2, 3],
        circuit={0: "Back Straight"},
        throttles={0: ["Slick Tyres"]},
        hands={0: list(hand), 1: ["Inside Line", "Draft"]},
        pon={1: [["Switchback", "Slingshot", "Scavenge"], ["Hold the Line", "Sideswipe", "Tunnel"]]},
        prefs={0: ASK_BLOCK, 1: NEVER, 2: NEVER, 3: NEVER},
    )
    st, _ = play(st, 1, "Inside Line")
    offered = [a["cards"] for a in E.legal_actions(st, 0) if a["type"] == "block"]
    assert offered == [sorted(cards(*b)) for b in blocks]


def test_successful_overtake_decays_every_pon_set_by_one():
    """ "オーバーテイクに成功したら、PONがあれば減衰します。PON1組につき…1枚を捨て札"."""
    st, _ = attack_state(
        attacker_pon=[["Switchback", "Hold the Line", "Sideswipe"], ["Tow", "Pit Stop", "Send It"]],
        defender_hand=("Dive Bomb",),
    )
    st, ev = play(st, 1, "Inside Line")
    assert E.legal_actions(st, 0) == [{"type": "yield"}]
    st, ev = act(st, 0, {"type": "yield"})
    assert st["order"] == [1, 0, 2]
    assert [len(s) for s in st["pon"][1]] == [2, 2]
    assert {"Sideswipe", "Send It"} <= set(names(st["discard"]))
    assert "P2's PON decays (successful overtake)" in texts(ev)


def test_overtake_chain_goes_up_until_first_place_decaying_each_time():
    """ "オーバーテイクに成功すると、続けてオーバーテイクが発生…暫定順位1位になるか、ブロックされると解除"."""
    st, _ = arrange(
        order=[0, 1, 2],
        turn_order=[2, 0, 1],
        circuit={0: "Back Straight"},
        throttles={0: ["Tow"]},
        hands={0: ["Dive Bomb"], 1: ["Covering"], 2: ["Inside Line", "Draft"]},
        pon={2: [["Switchback", "Hold the Line", "Sideswipe"]]},
        prefs={0: YIELD, 1: YIELD, 2: NEVER},
    )
    st, ev = play(st, 2, "Inside Line")
    assert st["order"] == [2, 0, 1]
    assert texts(ev).count("overtakes") == 2
    assert [len(s) for s in st["pon"][2]] == [1]  # two decays; a one-card set is still a set


def test_overtake_chain_stops_at_a_block():
    st, _ = arrange(
        order=[0, 1, 2],
        turn_order=[2, 0, 1],
        circuit={0: "Back Straight"},
        throttles={0: ["Tow"]},
        hands={0: ["Dive Bomb"], 1: ["Covering"], 2: ["Inside Line", "Draft"]},
        prefs={0: NEVER, 1: YIELD, 2: NEVER},
    )
    st, ev = play(st, 2, "Inside Line")
    assert st["order"] == [0, 2, 1]
    assert "P1 blocks P3 with 2 · Dive Bomb." in texts(ev)


def test_last_place_can_reach_first_in_one_play():
    """Q&A "最下位からいきなり1位になることはできる? 理屈上は可能" (4 players, three overtakes)."""
    st, _ = arrange(
        4,
        order=[0, 1, 2, 3],
        turn_order=[3, 0, 1, 2],
        circuit={0: "Back Straight"},
        throttles={0: ["Tow"]},
        hands={3: ["Inside Line", "Draft"]},
        prefs={s: YIELD for s in range(4)},
    )
    st, ev = play(st, 3, "Inside Line")  # the others hold no card: they cannot block
    assert st["order"] == [3, 0, 1, 2]
    assert texts(ev).count("overtakes") == 3


def test_leader_playing_the_course_number_gets_the_block_right_used_once():
    """ "暫定順位が1位の時は…オートブロック…1回だけ、ブロックの際にスロットルに置く手札を1枚減らす"."""
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Tunnel"},
        throttles={0: ["Tow"]},
        hands={0: ["Scavenge", "Draft"], 1: ["Slingshot", "Covering"], 2: ["Hold the Line", "Grip"]},
        prefs={0: NEVER, 1: YIELD, 2: NEVER},
    )
    st, ev = play(st, 0, "Scavenge")
    assert "P1 leads and takes the block right" in texts(ev)
    assert E.view(st, None)["block_right"] == [0]
    hand0 = sorted(st["hands"][0])
    st, ev = play(st, 1, "Slingshot")  # attacker without PON: 1 card - 1 = no card needed
    assert "P1 blocks P2 without a card." in texts(ev)
    assert sorted(st["hands"][0]) == hand0 and st["order"] == [0, 1, 2]
    assert E.view(st, None)["block_right"] == []
    st, ev = play(st, 2, "Hold the Line")  # seat 1 yields, then seat 0 must pay a card this time
    assert st["order"] == [0, 2, 1]
    assert "P1 blocks P3 with" in texts(ev)
    assert len(st["hands"][0]) == len(hand0) - 1


@pytest.mark.parametrize(
    "sets,hand,expected",
    [
        ([["Switchback", "Hold the Line", "Sideswipe"]], ("Dive Bomb",), [[]]),
        (
            [["Switchback", "Hold the Line", "Sideswipe"], ["Tow", "Pit Stop", "Send It"]],
            ("Recon Lap", "Dive Bomb"),
            [["Recon Lap"]],
        ),
        (
            [["Switchback", "Hold the Line", "Sideswipe"], ["Tow", "Pit Stop", "Send It"]],
            ("Late Braking", "Recon Lap"),
            [["Late Braking"], ["Recon Lap"], ["Late Braking", "Recon Lap"]],
        ),
        ([], ("Dive Bomb", "Grip"), [[], ["Dive Bomb"], ["Grip"]]),
    ],
)
def test_block_right_lowers_the_pon_requirement_by_one(sets, hand, expected):
    """ "(オーバーテイクするプレイヤーにPONがないか、あるいは1組以下なら、手札0枚でもブロック可能)";
    the full-price blocks stay on offer ("必要がなければ温存も可能": the right may be saved)."""
    st, _ = attack_state(attacker_pon=sets, defender_hand=hand)
    st["turn"]["discounts"] = {"0": 1}
    st, _ = play(st, 1, "Inside Line")
    blocks = sorted(a["cards"] for a in E.legal_actions(st, 0) if a["type"] == "block")
    assert blocks == sorted(sorted(cards(*e)) for e in expected)


def test_the_block_right_may_be_saved_for_a_later_attack_this_turn():
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Tunnel"},
        throttles={0: ["Tow"]},
        hands={0: ["Scavenge", "Draft", "Grip"], 1: ["Slingshot", "Covering"], 2: ["Hold the Line", "Lucky Break"]},
        pon={2: [["Late Braking", "Pit Stop", "Send It"]]},
        prefs={0: ASK_BLOCK, 1: YIELD, 2: NEVER},
    )
    st, _ = play(st, 0, "Scavenge")  # leader: block right
    st, _ = play(st, 1, "Slingshot")
    labels = {en(E.describe_action(st, 0, a)): a for a in E.legal_actions(st, 0)}
    assert "Block without a card (uses your block right)" in labels
    save = next(a for a in E.legal_actions(st, 0) if a["type"] == "block" and len(a["cards"]) == 1)
    st, _ = act(st, 0, save)  # pays a card, keeps the right
    assert E.view(st, None)["block_right"] == [0]
    st, _ = act(st, 1, {"type": "take", "card": C("Tow")})
    st, _ = play(st, 2, "Hold the Line")  # seat 1 yields; seat 2 (one PON set of 1s) attacks seat 0
    assert st["phase"] == "block" and E.to_act(st) == [0]
    view = E.view(st, None)["overtake"]
    assert view["cards_needed"] == 1 and view["with_block_right"] == 0
    st, ev = act(st, 0, {"type": "block", "cards": []})  # a 1 would be needed without the right
    assert "P1 blocks P3 without a card." in texts(ev) and E.view(st, None)["block_right"] == []


def test_block_right_does_not_carry_over_to_the_next_turn():
    """ "ブロック権はターンを持ち越せず、次ターンにはなくなってしまいます"."""
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Tunnel", 1: "Back Straight"},
        throttles={0: ["Tow"], 1: ["Lucky Break"]},
        hands={0: ["Scavenge", "Draft"], 1: ["Covering"], 2: ["Grip"]},
        prefs={s: NEVER for s in range(3)},
    )
    st, _ = play(st, 0, "Scavenge")
    assert E.view(st, None)["block_right"] == [0]
    st, _ = play(st, 1, "Covering")
    st, _ = play(st, 2, "Grip")  # end of turn: refills, next course
    assert st["current"] == 1 and E.view(st, None)["block_right"] == []


def test_leader_never_overtakes():
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Tunnel"},
        throttles={0: ["Tow"]},
        hands={0: ["Scavenge"], 1: ["Covering"], 2: ["Grip"]},
        prefs={s: NEVER for s in range(3)},
    )
    st, ev = play(st, 0, "Scavenge")
    assert "attacks" not in texts(ev) and st["order"] == [0, 1, 2]


# -- PON ----------------------------------------------------------------------------------------


def test_pon_forms_a_three_card_set_and_the_player_plays_again_and_can_be_ponned_again():
    """ "PONされたら、改めて手札1枚をプレイ…(この新しくプレイされた手札にもPONできます)"."""
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Grip"]},
        hands={
            0: ["Scavenge", "Dive Bomb", "Lucky Break"],
            1: ["Slingshot", "Switchback", "Draft"],
            2: ["Fuel Save", "Covering", "Tow"],
        },
    )
    st, ev = play(st, 0, "Scavenge")
    assert "PON! P2 takes 3 · Scavenge" in texts(ev)
    assert sorted(st["pon"][1][0]) == sorted(cards("Scavenge", "Slingshot", "Switchback"))
    assert hand_names(st, 1) == {"Draft"}
    assert st["phase"] == "play" and E.to_act(st) == [0]
    st, ev = play(st, 0, "Dive Bomb")
    assert "PON! P3 takes 2 · Dive Bomb" in texts(ev)
    assert E.view(st, None)["pon_sets"] == {"0": [], "1": [[3, 3, 3]], "2": [[2, 2, 2]]}
    assert E.to_act(st) == [0]


def test_a_ponned_card_gives_no_slipstream_and_no_overtake():
    """Q&A main-phase order: "PONされなくなるまで手札をプレイ" comes before slipstream and overtake."""
    st, _ = arrange(
        order=[0, 1, 2],
        turn_order=[1, 0, 2],
        circuit={0: "Tunnel"},
        throttles={0: ["Scavenge"]},
        discard=["Tow", "Grip"],
        hands={
            0: ["Dive Bomb"],
            1: ["Slingshot", "Covering", "Fuel Save"],
            2: ["Switchback", "Hold the Line", "Pit Stop"],
        },
        prefs={0: NEVER, 1: NEVER},
    )
    st, ev = play(st, 1, "Slingshot")  # 3 = course and throttle number, but seat 2 PONs it
    assert "PON! P3" in texts(ev)
    assert "slipstream" not in texts(ev) and "attacks" not in texts(ev)
    assert st["order"] == [0, 1, 2] and st["phase"] == "play" and E.to_act(st) == [1]


def test_one_player_may_hold_several_pon_sets():
    """ "PONは条件さえ満たしていれば宣言することができ、同時に複数セットすることが可能"."""
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Pit Stop"]},
        hands={
            0: ["Scavenge", "Dive Bomb", "Lucky Break"],
            1: ["Slingshot", "Switchback", "Fuel Save", "Covering", "Tow"],
            2: ["Grip"],
        },
    )
    st, _ = play(st, 0, "Scavenge")
    st, _ = play(st, 0, "Dive Bomb")
    assert [len(pset) for pset in st["pon"][1]] == [3, 3]
    assert E.view(st, None)["pon_sets"]["1"] == [[3, 3, 3], [2, 2, 2]]


def test_pon_on_your_own_card():
    """ "自分がプレイしたカードに、自分でPONすることも可能です"."""
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Grip"]},
        hands={0: ["Scavenge", "Slingshot", "Switchback", "Draft"], 1: ["Tow"], 2: ["Covering"]},
    )
    st, ev = play(st, 0, "Scavenge")
    assert "PON! P1 takes 3 · Scavenge" in texts(ev)
    assert len(st["pon"][0]) == 1 and hand_names(st, 0) == {"Draft"}
    assert E.to_act(st) == [0] and st["phase"] == "play"


def test_highest_placed_declaration_wins_and_the_other_is_void():
    """ "複数のプレイヤーがPONした場合、常に暫定順位の高いプレイヤーが優先され、その他…無効化"."""
    ask3 = {"pon": {"3": "ask"}}
    st, _ = arrange(
        order=[2, 0, 1],
        turn_order=[0, 2, 1],
        circuit={0: "Blind Crest"},
        throttles={0: ["Grip"]},
        hands={
            0: ["Scavenge", "Draft"],
            1: ["Slingshot", "Switchback", "Tow"],
            2: ["Hold the Line", "Sideswipe", "Covering"],
        },
        prefs={1: ask3, 2: ask3},
    )
    st, ev = play(st, 0, "Scavenge")
    assert st["phase"] == "pon" and E.to_act(st) == [1, 2]
    st, _ = act(st, 1, {"type": "pon", "cards": cards("Slingshot", "Switchback")})
    assert E.to_act(st) == [2]
    st, ev = act(st, 2, {"type": "pon", "cards": cards("Hold the Line", "Sideswipe")})
    assert "PON! P3 takes" in texts(ev)  # seat 2 is first: it wins
    assert "P2" not in texts(ev)
    assert hand_names(st, 1) == {"Slingshot", "Switchback", "Tow"}  # the void declaration keeps its cards


def test_pon_needs_two_cards_of_the_played_number():
    """ "プレイされたカードと同じ数字の手札が2枚あれば、「PON」を宣言することができます"."""
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Grip"]},
        hands={0: ["Scavenge", "Draft"], 1: ["Slingshot", "Tow", "Covering"], 2: ["Fuel Save"]},
        prefs={1: {"pon": {"3": "ask"}}},
    )
    st, _ = play(st, 0, "Scavenge")
    assert E.legal_actions(st, 1) == [{"type": "pon_pass"}]
    for bad in (
        cards("Slingshot", "Tow"),
        cards("Slingshot"),
        cards("Slingshot", "Slingshot"),
        [C("Recon Lap"), C("Slingshot")],
    ):
        with pytest.raises(GameError):
            act(st, 1, {"type": "pon", "cards": bad})


def test_pon_that_empties_the_hand_takes_a_discard_and_passes():
    """ "PONなどにより手札がなくなったら、捨て札があればその中から好きな1枚を手札に加えて手番をパス"."""
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Grip"]},
        discard=["Tow", "Pit Stop"],
        hands={0: ["Scavenge"], 1: ["Slingshot", "Switchback", "Draft"], 2: ["Covering"]},
    )
    st, ev = play(st, 0, "Scavenge")
    assert st["phase"] == "salvage" and E.to_act(st) == [0]
    st, ev = act(st, 0, {"type": "salvage", "card": C("Tow")})
    assert hand_names(st, 0) == {"Tow"} and "P1 passes." in texts(ev)
    assert names(st["throttles"][0]) == ["Grip"]  # no throttle exchange
    assert E.to_act(st) == [1]


def test_empty_hand_with_empty_discard_just_passes():
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Grip"]},
        hands={0: [], 1: ["Draft"], 2: ["Covering"]},
        prefs={s: NEVER for s in range(3)},
    )
    assert E.to_act(st) == [1]
    assert "<seat:0> passes." in "\n".join(en(st["log"]))


# -- hand limit, end of turn, end of game ---------------------------------------------------------


def test_hand_limit_five_excess_discarded_at_once():
    """Q&A "手札の最大枚数は? 5枚。5枚より多くなったら、即捨て札にして5枚になるよう調整"."""
    base = dict(
        order=[0, 1, 2],
        turn_order=[1, 0, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Scavenge"]},
        discard=["Tow"],
        hands={0: ["Dive Bomb"], 1: ["Slingshot", "Draft", "Fuel Save", "Covering", "Grip"], 2: ["Spotter"]},
    )
    st, ev = arrange(**base, prefs={s: NEVER for s in range(3)})
    st, ev = play(st, 1, "Slingshot")  # 4 cards, +Tow (slipstream) 5, +Scavenge (throttle) 6 -> discard one
    assert len(st["hands"][1]) == 5
    assert "discards" in texts(ev)
    st, ev = arrange(**base, prefs={0: NEVER, 1: {"discard": "ask", **NEVER}, 2: NEVER})
    st, ev = play(st, 1, "Slingshot")
    assert len(st["hands"][1]) == 6 and E.to_act(st) == [1]
    assert {a["type"] for a in E.legal_actions(st, 1)} == {"discard"}
    st, ev = act(st, 1, {"type": "discard", "card": C("Grip")})
    assert len(st["hands"][1]) == 5 and names(st["discard"])[-1] == "Grip"
    assert E.to_act(st) == [0]


def test_end_of_turn_refill_from_last_place_while_the_throttle_lasts():
    """ "暫定順位が低いプレイヤーから順番に、好きなスロットルを1枚ずつ…途中でスロットルが尽きたらそこまで"."""
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest", 1: "Back Straight"},
        throttles={0: ["Draft", "Covering"], 1: ["Lucky Break"]},
        hands={0: ["Scavenge"], 1: ["Recon Lap"], 2: ["Pit Board"]},
        prefs={0: NEVER, 1: NEVER, 2: {"refill": "ask", **NEVER}},
    )
    for seat, name in ((0, "Scavenge"), (1, "Recon Lap")):
        st, _ = play(st, seat, name)
        st, _ = act(st, seat, {"type": "take", "card": E.legal_actions(st, seat)[0]["card"]})
    st, _ = play(st, 2, "Pit Board")
    st, _ = act(st, 2, {"type": "take", "card": E.legal_actions(st, 2)[0]["card"]})
    assert st["phase"] == "refill" and E.to_act(st) == [2]  # last place first, asked (pref ask)
    throttle = list(st["throttles"][0])
    assert len(throttle) == 2
    st, ev = act(st, 2, {"type": "refill", "card": throttle[1]})
    # seat 1 (auto) takes the last card; seat 0 (first) gets nothing
    assert len(st["hands"][2]) == 2 and len(st["hands"][1]) == 2 and len(st["hands"][0]) == 1
    assert st["current"] == 1
    assert C("Blind Crest") in st["discard"]


def test_end_of_turn_course_and_throttle_go_to_discard_and_pon_decays():
    """ "コースと残ったスロットル全てを捨て札に…PON1組につき、その中の好きな1枚を捨て札"."""
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest", 1: "Back Straight"},
        throttles={0: ["Draft"], 1: ["Lucky Break"]},
        hands={0: ["Scavenge"], 1: ["Recon Lap"], 2: ["Pit Board"]},
        pon={1: [["Tow", "Pit Stop"], ["Dive Bomb"]]},
        prefs={s: NEVER for s in range(3)},
    )
    for seat, name in ((0, "Scavenge"), (1, "Recon Lap"), (2, "Pit Board")):
        st, _ = play(st, seat, name)
    assert st["current"] == 1
    assert [len(s) for s in st["pon"][1]] == [1]  # the one-card set is gone, the other lost a card
    assert {"Blind Crest", "Dive Bomb", "Pit Stop"} <= set(names(st["discard"]))
    assert st["throttles"][0] == []


def test_a_decayed_one_card_set_still_counts_for_blocking():
    # Rule reading: a set counts while it holds at least one card.
    st, _ = attack_state(attacker_pon=[["Switchback"]], defender_hand=("Dive Bomb", "Recon Lap"))
    st, _ = play(st, 1, "Inside Line")
    assert [a["cards"] for a in E.legal_actions(st, 0) if a["type"] == "block"] == [[C("Recon Lap")]]


def end_of_turn_with_sets(sets, prefs1=None):
    """Seat 1 holds PON `sets`; the four seats play one card each and the turn ends (4 players:
    two course cards are left out of the circuit, so one can sit in a PON set)."""
    st, _ = arrange(
        4,
        order=[0, 1, 2, 3],
        circuit={0: "Blind Crest", 1: "Chicane"},
        throttles={0: ["Draft"], 1: []},
        hands={0: ["Scavenge"], 1: ["Recon Lap"], 2: ["Pit Board"], 3: ["Fuel Save"]},
        pon={1: sets},
        prefs={0: NEVER, 1: {**NEVER, **(prefs1 or {})}, 2: NEVER, 3: NEVER},
    )
    ev = []
    for seat, name in ((0, "Scavenge"), (1, "Recon Lap"), (2, "Pit Board"), (3, "Fuel Save")):
        st, e = play(st, seat, name)
        ev += e
    return st, ev


def test_decay_drops_the_cheapest_card_of_the_set_by_default():
    """ "PON1組につき、その中の好きな1枚": the owner's choice; "auto" drops the card whose loss costs
    least - the course card (no event) before the racing cards, though it is the oldest."""
    st, ev = end_of_turn_with_sets([["Wet Patch", "Inside Line", "Lucky Break"]])
    assert st["current"] == 1 and E.to_act(st) == [0]  # no question
    assert names(st["pon"][1][0]) == ["Inside Line", "Lucky Break"]
    assert "Wet Patch" in names(st["discard"])
    assert "P2's PON decays (end of turn): 4 · Wet Patch (course) to the discard." in texts(ev)


def test_decay_ask_lets_the_owner_choose_the_card_of_each_set():
    st, ev = end_of_turn_with_sets(
        [["Wet Patch", "Inside Line", "Lucky Break"], ["Tow", "Pit Stop"], ["Grip"]], prefs1={"decay": "ask"}
    )
    assert E.to_act(st) == [1] and st["current"] == 1  # the next turn waits for the choice
    assert len(st["pon"][1]) == 2  # the one-card set had no choice: it decayed at once
    assert "P2 chooses which PON cards decay (end of turn)." in texts(ev)
    acts = E.legal_actions(st, 1)
    assert sorted(a["card"] for a in acts) == sorted(
        cards("Wet Patch", "Inside Line", "Lucky Break", "Tow", "Pit Stop")
    )
    assert all(a["type"] == "decay" for a in acts)
    assert E.legal_actions(st, 0) == [] and E.to_act(st) == [1]
    menu = E.menu(st, 1)
    assert menu[0]["action"] == {"type": "decay"} and len(menu[0]["options"]) == 5
    assert all(len(en(o["label"])) <= 80 and len(en(o["description"])) <= 100 for o in menu[0]["options"])
    with pytest.raises(GameError):
        act(st, 1, {"type": "decay", "card": C("Recon Lap")})  # not in a decaying set
    with pytest.raises(GameError):
        act(st, 1, {"type": "play", "card": C("Recon Lap")})
    st, ev = act(st, 1, {"type": "decay", "card": C("Lucky Break")})
    assert "P2's PON decays (end of turn): 4 · Lucky Break to the discard." in texts(ev)
    assert E.to_act(st) == [1]
    assert sorted(a["card"] for a in E.legal_actions(st, 1)) == sorted(cards("Tow", "Pit Stop"))
    with pytest.raises(GameError):  # that set has decayed already this time
        act(st, 1, {"type": "decay", "card": C("Inside Line")})
    st, ev = act(st, 1, {"type": "decay", "card": C("Tow")})
    assert [names(p) for p in st["pon"][1]] == [["Wet Patch", "Inside Line"], ["Pit Stop"]]
    assert {"Lucky Break", "Tow", "Grip"} <= set(names(st["discard"]))
    assert not st["decay"] and E.to_act(st) == [0]  # the next course has begun


def test_decay_ask_switched_to_auto_resolves_at_once():
    st, _ = end_of_turn_with_sets([["Wet Patch", "Inside Line", "Lucky Break"]], prefs1={"decay": "ask"})
    assert E.to_act(st) == [1]
    st, _ = act(st, 1, {"type": "prefs", "decay": "auto"})
    assert names(st["pon"][1][0]) == ["Inside Line", "Lucky Break"] and E.to_act(st) == [0]


def test_decay_ask_after_a_successful_overtake_then_the_chain_goes_on():
    """ "オーバーテイクに成功したら、PONがあれば減衰します。「PON1組につき、その中の好きな1枚」"."""
    st, _ = arrange(
        order=[0, 1, 2],
        turn_order=[2, 0, 1],
        circuit={0: "Back Straight"},
        throttles={0: ["Tow"]},
        hands={0: ["Dive Bomb"], 1: ["Covering"], 2: ["Inside Line", "Draft"]},
        pon={2: [["Switchback", "Hold the Line", "Sideswipe"]]},
        prefs={0: YIELD, 1: YIELD, 2: {**NEVER, "decay": "ask"}},
    )
    st, ev = play(st, 2, "Inside Line")
    assert st["order"] == [0, 2, 1] and E.to_act(st) == [2]  # first overtake done, decay asked
    st, ev = act(st, 2, {"type": "decay", "card": C("Switchback")})
    assert st["order"] == [2, 0, 1]  # the chain went on: seat 0 yielded too
    assert E.to_act(st) == [2]  # ... and the second decay asks again
    st, ev = act(st, 2, {"type": "decay", "card": C("Sideswipe")})
    assert names(st["pon"][2][0]) == ["Hold the Line"]
    assert {"Switchback", "Sideswipe"} <= set(names(st["discard"]))


def test_game_ends_after_the_last_course_and_first_place_wins():
    """Q&A "ゲームの終了条件は? 最終コースを暫定順位1位で通過する"."""
    st, _ = arrange(
        order=[1, 2, 0],
        current=11,
        circuit={11: "Blind Crest"},
        throttles={11: ["Draft"]},
        hands={0: ["Scavenge"], 1: ["Recon Lap"], 2: ["Pit Board"]},
        prefs={s: NEVER for s in range(3)},
    )
    for seat, name in ((1, "Recon Lap"), (2, "Pit Board"), (0, "Scavenge")):
        st, ev = play(st, seat, name)
    assert E.is_over(st) and st["winner"] == 1
    assert E.to_act(st) == [] and E.legal_actions(st, 1) == [] and E.menu(st, 1) == []
    assert "Chequered flag! P2 wins." in texts(ev)
    assert E.view(st, None)["winner"] == 1
    with pytest.raises(GameError):
        act(st, 1, {"type": "play", "card": C("Draft")})


# -- events -------------------------------------------------------------------------------------


def test_event_once_per_turn_goes_into_this_throttle_own_main_phase_only():
    """Q&A "イベントの使用方法は? 自分の手番に…スロットルに置く。1ターンに1枚だけ使用可能"."""
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Draft"]},
        hands={0: ["Defensive Line", "Hold the Line", "Grip"], 1: ["Covering", "Spotter"], 2: ["Tow"]},
        prefs={s: NEVER for s in range(3)},
    )
    with pytest.raises(GameError):  # not seat 1's main phase
        act(st, 1, {"type": "event", "card": C("Covering")})
    st, ev = act(st, 0, {"type": "event", "card": C("Defensive Line")})
    assert "P1 uses Defensive Line (1)" in texts(ev)
    assert names(st["throttles"][0]) == ["Draft", "Defensive Line"]
    assert not [a for a in E.legal_actions(st, 0) if a["type"] == "event"]
    with pytest.raises(GameError):
        act(st, 0, {"type": "event", "card": C("Hold the Line")})
    st, _ = play(st, 0, "Grip")
    assert st["phase"] == "take"
    assert not [a for a in E.legal_actions(st, 0) if a["type"] == "event"]


def test_events_can_be_used_at_the_throttle_step_but_not_play_modifiers():
    """ "自分の手番中ならいつでも" — also after the overtake step, before the throttle pick."""
    st, _ = arrange(
        order=[0, 1, 2],
        circuit={0: "Blind Crest"},
        throttles={0: ["Draft", "Fuel Save"]},
        discard=["Pit Stop"],
        hands={0: ["Tow", "Late Braking", "Grip"], 1: ["Covering"], 2: ["Spotter"]},
        prefs={s: NEVER for s in range(3)},
    )
    st, _ = play(st, 0, "Grip")
    events = sorted(a["card"] for a in E.legal_actions(st, 0) if a["type"] == "event")
    assert events == [C("Tow")]  # Late Braking concerns the next play: not offered now
    st, _ = act(st, 0, {"type": "event", "card": C("Tow")})
    assert "Pit Stop" in hand_names(st, 0) and st["phase"] == "take"


def chain_state(attacker_prefs=None, attacker_hand=("Inside Line", "Push to Pass", "Draft")):
    """Seat 2 (3rd) plays Inside Line on a 4 course: seat 1 yields, seat 0 blocks with its one card."""
    st, _ = arrange(
        order=[0, 1, 2],
        turn_order=[2, 0, 1],
        circuit={0: "Back Straight"},
        throttles={0: ["Tow"]},
        discard=["Grip"],
        hands={0: ["Dive Bomb"], 1: ["Covering"], 2: list(attacker_hand)},
        prefs={0: NEVER, 1: YIELD, 2: {**NEVER, **(attacker_prefs or {})}},
    )
    return st


def test_events_between_blocks_of_your_own_overtake_chain():
    """ "自分の手番中ならいつでも、手札のレーシングカード1枚を…スロットルへ置けば、そのイベント効果が
    適用されます" (issue #9): also between the blocks of your own overtake chain."""
    st, ev = play(chain_state(), 2, "Inside Line")
    # default "auto": it stops because Push to Pass can change the coming blocks
    assert st["phase"] == "attack" and E.to_act(st) == [2]
    acts = E.legal_actions(st, 2)
    assert {"type": "attack"} in acts and {"type": "event", "card": C("Push to Pass")} in acts
    assert {"type": "event", "card": C("Draft")} not in acts  # "your next card": nothing left to play
    menu = E.menu(st, 2)
    assert menu[0]["kind"] == "buttons" and menu[0]["options"][0]["action"] == {"type": "attack"}
    assert any(g.get("action") == {"type": "event"} for g in menu)
    assert E.view(st, None)["overtake"]["defender"] == 1
    st, ev = act(st, 2, {"type": "attack"})
    assert st["order"] == [0, 2, 1] and st["phase"] == "attack" and E.to_act(st) == [2]  # between blocks
    blocked, ev_b = act(st, 2, {"type": "attack"})
    assert blocked["order"] == [0, 2, 1] and "P1 blocks P3 with 2 · Dive Bomb." in texts(ev_b)
    st, ev = act(st, 2, {"type": "event", "card": C("Push to Pass")})
    assert "P3 uses Push to Pass" in texts(ev)
    assert st["order"] == [2, 0, 1]  # seat 0 now needs two cards: it cannot block


def test_events_pref_never_and_ask():
    st, ev = play(chain_state({"events": "never"}), 2, "Inside Line")
    assert st["order"] == [0, 2, 1] and "P1 blocks P3" in texts(ev)  # no pause: the chain runs through
    # "ask" stops even for an event that cannot change the blocks, and at a forced throttle pick
    st, ev = play(chain_state({"events": "ask"}, ("Inside Line", "Scavenge")), 2, "Inside Line")
    assert st["phase"] == "attack" and {"type": "event", "card": C("Scavenge")} in E.legal_actions(st, 2)
    st, _ = act(st, 2, {"type": "attack"})
    st, _ = act(st, 2, {"type": "attack"})
    assert st["phase"] == "take" and E.to_act(st) == [2] and len(st["throttles"][0]) == 2
    st, ev = play(chain_state({"events": "ask"}, ("Recon Lap", "Scavenge")), 2, "Recon Lap")
    assert st["phase"] == "take" and len(st["throttles"][0]) == 1  # one card: only the event makes it a choice
    assert E.legal_actions(st, 2) == [{"type": "take", "card": C("Tow")}, {"type": "event", "card": C("Scavenge")}]
    st, _ = play(chain_state({}, ("Recon Lap", "Scavenge")), 2, "Recon Lap")
    assert st["phase"] != "take" and E.to_act(st) == [0]  # "auto": the forced pick goes through


def test_a_course_card_in_hand_has_no_event():
    st, _ = arrange(
        4,
        order=[0, 1, 2, 3],
        circuit={0: "Blind Crest"},
        throttles={0: ["Draft"]},
        hands={0: ["Wet Patch", "Grip"], 1: ["Covering"], 2: ["Tow"], 3: ["Fuel Save"]},
        prefs={s: NEVER for s in range(4)},
    )
    assert {"type": "event", "card": C("Wet Patch")} not in E.legal_actions(st, 0)
    assert {"type": "play", "card": C("Wet Patch")} in E.legal_actions(st, 0)
    with pytest.raises(GameError):
        act(st, 0, {"type": "event", "card": C("Wet Patch")})


def test_a_racing_card_turned_up_as_a_course_has_no_course_effect():
    """ "(表向きになったのがレーシングカードなら、これを行いません)"."""
    st, ev = arrange(
        order=[0, 1, 2],
        circuit={0: "Scavenge"},
        face_down=[0],
        throttles={0: ["Draft"]},
        hands={0: ["Recon Lap"], 1: ["Covering"], 2: ["Tow"]},
        effect=True,
    )
    assert st["face_up"][0]
    assert texts(ev).count("no course effect") == 1  # said once, on the line that turns it up
    assert "Course 1 is turned up: 3 · Scavenge — Racing card: no course effect." in texts(ev)
    # Already face up when its turn comes (turned up earlier): the turn's start says it.
    st, ev = arrange(
        order=[0, 1, 2],
        circuit={0: "Scavenge"},
        throttles={0: ["Draft"]},
        hands={0: ["Recon Lap"], 1: ["Covering"], 2: ["Tow"]},
        effect=True,
    )
    assert "This course is a racing card: no course effect." in texts(ev)
    course = E.view(st, None)["courses"][0]
    assert course["number"] == 3 and course["racing_card"] is True


def test_a_course_turned_up_says_its_effect_once():
    """Issue #33: "Course 1 is turned up: … No room to breathe…" then "Course effect — Chicane:
    No room to breathe…" in one post: the effect is said once."""
    st, ev = arrange(
        order=[0, 1, 2],
        circuit={0: "Chicane"},
        face_down=[0],
        throttles={0: ["Draft"]},
        hands={0: ["Recon Lap"], 1: ["Covering"], 2: ["Tow"]},
        effect=True,
    )
    assert texts(ev).count("No room to breathe") == 1
    assert st["turn"]["mods"].get("no_pon")  # and the effect still applies
    st, ev = arrange(
        order=[0, 1, 2],
        circuit={0: "Chicane"},
        throttles={0: ["Draft"]},
        hands={0: ["Recon Lap"], 1: ["Covering"], 2: ["Tow"]},
        effect=True,
    )
    assert texts(ev).count("No room to breathe") == 1 and "Course effect — Chicane" in texts(ev)
