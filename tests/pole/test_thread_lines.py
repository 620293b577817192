"""What the thread and /game log read (issue #30): one line per car's turn with the roll and
rerolls, where it went in the menu's words, what it spent, then what else happened in the turn;
the choosing player is told what a secret choice means; the lobby and the weather read once."""

import json
import random
import re

from bot.games.pole import ENGINE as E
from bot.games.pole import engine as eng
from bot.games.pole import race as RACE
from bot.games.rng import Rng
from bot.i18n import render
from tests.pole.helpers import Dice, drs_race, policy

NAMES = ["alice", "bob", "carol", "dave", "erin", "fred"]


def words(m, loc="en"):
    return re.sub(r"<seat:(\d+)>", lambda x: NAMES[int(x.group(1))], render(m, loc))


def _turn(st, seat, row, lane, laps=1):
    st = json.loads(json.dumps(st))
    c = eng.circuits()[st["circuit"]]
    st["round"], st["queue"], st["turn"] = 10, [], None
    st["weather"]["a"] = next(i for i, w in enumerate(c.weather_a) if w == "dry")
    st["cars"][seat].update({"pos": ["t", row, lane], "laps": laps, "line": [], "life": 4})
    other = 1 - seat
    st["cars"][other].update({"pos": ["t", 60, 2], "laps": laps, "line": []})
    rng = Rng(st["rng"])
    ev = []
    RACE.begin_turn(st, rng, ev, seat)
    st["rng"] = rng.state
    return st, ev


def test_a_turn_is_one_line_roll_rerolls_where_and_cost(monkeypatch):
    st = drs_race(drs=False)
    Dice(monkeypatch, [7])
    st, ev = _turn(st, 0, 20, 0)
    assert [e for e in ev if e.to is None] == []  # the roll waits for the turn's line
    Dice(monkeypatch, [9])
    st, ev = E.apply(st, 0, {"type": "reroll"})
    assert [e for e in ev if e.to is None] == []
    opts = st["turn"]["opts"]
    i = next(i for i, o in enumerate(opts) if o["kind"] == "end" and o["ep"] and o["bp"])
    label = words(E.describe_action(st, 0, {"type": "move", "i": i}))
    where = label.split(" (")[0]
    o = opts[i]
    st, ev = E.apply(st, 0, {"type": "move", "i": i})
    public = [words(e.text) for e in ev if e.to is None]
    line = next(x for x in public if x.startswith("alice"))
    # the reroll's SP counts with the corner SP
    assert line == f"alice rolls 7, 9 and uses 9, to {where}, spending {o['ep']} EP, {o['bp']} BP, {o['sp'] + 1} SP."
    assert sum(x.startswith("alice") for x in public) == 1
    ja = next(words(e.text, "ja") for e in ev if e.to is None and words(e.text).startswith("alice"))
    assert ja.startswith("aliceの出目は7、9で、9を使用、") and ja.endswith("を消費）。"), ja


def test_seeded_races_one_line_per_turn_in_the_menu_words():
    """Every line that starts a car's turn names the roll and the car's cell in the move menu's words;
    a turn that goes on after a decision by someone else tells what happened so far, never twice."""
    for opts, n, seed in (
        ({"circuit": "great_britain", "bots": 2, "drs": True}, 2, 21),
        ({"circuit": "monaco", "collisions": True}, 3, 22),
    ):
        rnd = random.Random(seed)
        st = E.new_game(opts, n, seed)
        turns = lines = 0
        while not E.is_over(st):
            seat = rnd.choice(E.to_act(st))
            before = st["turn_no"]
            st, ev = E.apply(st, seat, policy(st, seat, rnd))
            turns += st["turn_no"] - before
            for e in ev:
                if e.to is not None:
                    continue
                assert e.text.key not in (
                    "{p} rolls {roll}.",
                    "{p} spends 1 SP and rerolls: {roll}.",
                    "{p} drives {n} cells.",
                )
                text = words(e.text)
                if e.text.key == "{a}.":
                    lines += 1
                    assert re.match(r"^\S.* (rolls|drives|leaves the pits)", text), text
                    assert len(text) < 1900
        assert E.is_over(st) and lines > turns // 2


def test_keep_my_roll_says_what_was_kept_and_what_next():
    st = E.new_game({"circuit": "great_britain"}, 2, 3)
    st, ev = E.apply(st, 0, {"type": "quali", "reroll": False})
    mine = [words(e.text) for e in ev if e.to == 0]
    first = st["quali"]["first"]["0"]
    assert mine == [
        f"You keep your roll of {first}. The session is settled once everyone has chosen; until "
        "then you may change your mind."
    ]
    assert all(e.to in (None, 0) for e in ev)
    first1 = st["quali"]["first"]["1"]
    st, ev = E.apply(st, 1, {"type": "quali", "reroll": True})  # the last to choose: the session is settled
    assert [words(e.text) for e in ev if e.to == 1] == [
        f"You will spend 1 SP and roll twice more; your best roll counts (first roll {first1})."
    ]


def test_lobby_and_weather_read_once(monkeypatch):
    assert "1 bot (side A)" in [words(m) for m in E.describe_options({"bots": 1, "bot_side": "A"})]
    assert "2 bots (side B)" in [words(m) for m in E.describe_options({"bots": 2, "bot_side": "B"})]
    st = drs_race(drs=False)
    c = eng.circuits()[st["circuit"]]
    seen = []
    for a in range(36):  # a cloud from grid B's last space moves grid A on: said once
        st["turn"], st["round"], st["weather"] = None, 10, {"a": a, "b": c.weather_b}
        Dice(monkeypatch, ["cloud"])
        ev = []
        RACE.setup_round(st, Rng(1), ev)
        seen += [words(e.text) for e in ev if e.text.key.startswith("Round")]
    changed = [x for x in seen if "changes" in x]
    assert changed and all(
        re.fullmatch(r"Round 11: cloud; the weather changes to (dry weather|light rain|heavy rain)\.", x)
        for x in changed
    ), changed
    assert not any("Weather dry weather" in x for x in seen)
