import pytest

from bot.games.base import Engine, Event, GameError, OptionSpec, chosen, fill_options, move, name_seats, seat_ref
from bot.games.rng import Rng
from bot.i18n import msg


def test_seat_refs_become_names():
    text = f"{seat_ref(0)} overtakes {seat_ref(11)} and {seat_ref(2)}"
    assert name_seats(text, ["Ann", "Bo", "Cy"]) == "Ann overtakes <seat:11> and Cy"


def test_rng_is_deterministic_and_uniform_enough():
    a, b = Rng(42), Rng(42)
    assert [a.randint(1, 6) for _ in range(50)] == [b.randint(1, 6) for _ in range(50)]
    counts = [0] * 6
    r = Rng(1)
    for _ in range(60000):
        counts[r.randint(1, 6) - 1] += 1
    assert all(9000 < c < 11000 for c in counts)
    deck = list(range(10))
    Rng(3).shuffle(deck)
    assert sorted(deck) == list(range(10)) and deck != list(range(10))


# -- the shared parts of the contract (issue #29) -------------------------------------------------

SPECS = [
    OptionSpec("laps", "Laps", kind="int", default=2, min_value=1, max_value=3),
    OptionSpec("track", "Track", choices=["usa", "italia"], default="usa"),
    OptionSpec("weather", "Weather", kind="bool", default=False),
]


def test_options_are_filled_and_checked_by_their_specs():
    assert fill_options(SPECS, None) == {"laps": 2, "track": "usa", "weather": False}
    assert fill_options(SPECS, {"laps": "3", "weather": "on", "track": "italia"}) == {
        "laps": 3,
        "track": "italia",
        "weather": True,
    }
    for bad in ({"laps": 4}, {"laps": True}, {"laps": "x"}, {"track": "mars"}, {"weather": "maybe"}, {"colour": "red"}):
        with pytest.raises(GameError):
            fill_options(SPECS, bad)


class Counter(Engine):
    """A one-seat toy: count up in phase "up" until 3, then the game is over."""

    kind, title, min_seats, max_seats, options, rules_version = "counter", "Counter", 1, 2, SPECS, 1

    def to_act(self, state):
        return [] if state["phase"] == "over" else [state["turn"]]

    @move("add", phases=("up",))
    def _add(self, st, seat, action, events):
        if chosen(action) not in ([], ["1"], ["2"]):
            raise GameError(msg("That move is not possible now."))
        st["n"] += int((chosen(action) or ["1"])[0])
        st["phase"] = "over" if st["n"] >= 3 else "up"
        events.append(Event(msg("Added."), None))

    @move("note", anytime=True)
    def _note(self, st, seat, action, events):
        st["notes"] += 1


def test_apply_checks_the_move_then_its_handler_changes_a_copy():
    engine = Counter()
    state = {"phase": "up", "seats": 2, "turn": 0, "n": 0, "notes": 0}
    new, events = engine.apply(state, 0, {"type": "add", "values": ["2"]})
    assert state["n"] == 0 and new["n"] == 2 and len(events) == 1
    assert engine.apply(state, 1, {"type": "note"})[0]["notes"] == 1  # anytime: not waited for
    for seat, action in (
        (1, {"type": "add"}),
        (0, {"type": "jump"}),
        (2, {"type": "add"}),
        (0, "add"),
        (0, {"type": "add", "values": ["9"]}),
    ):
        with pytest.raises(GameError):
            engine.apply(state, seat, action)
    over, _ = engine.apply(new, 0, {"type": "add"})
    assert engine.is_over(over)
    with pytest.raises(GameError):
        engine.apply(over, 0, {"type": "note"})
    assert set(Counter.moves) == {"add", "note"} and Engine.moves == {}
    assert engine.validate_options({"laps": 1}, 2)["laps"] == 1
    with pytest.raises(GameError):
        engine.validate_options({}, 3)
