"""Each engine's `rules_version` says which rules a stored game began under: only a game on today's
number can be checked by replaying its log (bot/store_copy.py). So the number must go up whenever a
change makes a game's log end in another state. Here a few seeded games per engine, every seat
played by the engine's own automatic choice, are fingerprinted: when a fingerprint changes, raise
that engine's `rules_version` and write the new pair below. The games use default options: a change
to an optional rule alone may not show here, so raise the number by hand for one."""

import hashlib
import json

import pytest

from bot.games.registry import engines

FINGERPRINTS = {  # kind: (rules_version, fingerprint of the games below)
    "heat": (2, "a3fa7d14a56cbea7"),
    "pole": (4, "edc126fd64c664e5"),  # 4: the move menu keeps each way to pay (bot/games/pole/driving.py)
    "pon": (2, "7ffb91057144a3cf"),  # schema 2 names the phase "phase": the same games, renamed key
    "rallyman": (3, "02ec5dca3dbcabbf"),  # 3: two cars sliding abreast no longer hold each other
    "steamworks": (2, "0aaa6ca9e4ea923a"),  # schema 3 likewise
}
SEEDS = (3, 4)


def fingerprint(kind: str) -> str:
    engine = engines()[kind]
    seats = max(engine.min_seats, 3)
    h = hashlib.sha256()
    for seed in SEEDS:
        st = engine.new_game({}, seats, seed)
        for _ in range(20_000):
            if engine.is_over(st):
                break
            seat = engine.to_act(st)[0]
            st, _ = engine.apply(st, seat, engine.auto_action(st, seat))
        assert engine.is_over(st), f"{kind}: the automatic players did not finish seed {seed}"
        h.update(json.dumps(st, sort_keys=True, separators=(",", ":")).encode())
    return h.hexdigest()[:16]


def test_every_engine_has_a_fingerprint():
    assert set(FINGERPRINTS) == set(engines())


@pytest.mark.parametrize("kind", sorted(FINGERPRINTS))
def test_a_rules_change_raises_the_rules_version(kind):
    engine = engines()[kind]
    assert (engine.rules_version, fingerprint(kind)) == FINGERPRINTS[kind], (
        f"{kind}: seeded games end differently now; raise {type(engine).__name__}.rules_version and write "
        f"the new pair here, so that games begun before are no longer checked by replaying them"
    )


def test_a_heat_championship_keeps_its_stamp_from_race_to_race():
    engine = engines()["heat"]
    st, races = engine.new_game({"championship": "1961"}, 2, 5), set()
    while not engine.is_over(st):
        seat = engine.to_act(st)[0]
        st, _ = engine.apply(st, seat, engine.auto_action(st, seat))
        races.add(st["champ"]["race"])
        assert st.get("rules_version") == engine.rules_version
    assert len(races) > 1
