from bot.games.base import name_seats, seat_ref
from bot.games.rng import Rng


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
