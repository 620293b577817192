"""A Pole Position game begun before the move menu kept each way to pay (rules_version 3) replays
from its log as it was played: every replay (the /game replay pages, the end's statistics and
animation, /game log) starts from the stamp the game was begun under (bot/games/base.py begin),
not today's rules, whose menus would give the same move numbers other places."""

import json
import random

import pytest

from bot import export, replay
from bot.delivery import Delivery
from bot.games.pole import ENGINE as E
from bot.games.registry import engines
from bot.store import Game, Seat
from cogs.table import public_log
from tests.pole.helpers import policy

OPTIONS = {"circuit": "monaco"}
SEATS, SEED = 3, 21


class Recording:
    """The engine, keeping the last state its `apply` made (what /game log replayed to)."""

    def __init__(self, engine):
        self.engine, self.last = engine, None

    def __getattr__(self, name):
        return getattr(self.engine, name)

    def apply(self, state, seat, action):
        self.last, events = self.engine.apply(state, seat, action)
        return self.last, events


def played_under_version_3() -> tuple[dict, list]:
    rnd = random.Random(SEED)
    st = E.new_game(OPTIONS, SEATS, SEED)
    st["rules_version"] = 3
    log = []
    while not E.is_over(st):
        seat = rnd.choice(E.to_act(st))
        action = policy(st, seat, rnd)
        log.append((seat, action))
        st, _ = E.apply(st, seat, action)
    return st, log


def finished_game(final: dict, log: list) -> Game:
    game = Game(1, "pole", 1, 1, 2, 3, 4, "finished", OPTIONS, SEED, len(log), final)
    game.seats = [Seat(s, 100 + s, f"p{s}", True, 0, "") for s in range(SEATS)]
    return game


def test_a_game_begun_under_older_menus_replays_as_played():
    final, log = played_under_version_3()
    game = finished_game(final, log)
    boards, whole = replay.turn_starts(E, game, log)
    assert whole and boards[-1] == final
    assert export.replay_log(E, OPTIONS, SEATS, SEED, log, game.rules_version).states[-1] == final
    _, frames = Delivery.end_replay(E, game, log, final, [s.name for s in game.seats], "en")
    assert frames is not None and frames[-1] == final  # the end's statistics and animation
    seen = Recording(E)
    assert public_log(seen, game, log, "en") and seen.last == final
    # today's menus would number the moves otherwise: the same log is another race (or refused)
    today, whole_today = export.turn_starts(E, OPTIONS, SEATS, SEED, log)
    assert not whole_today or today[-1] != final


def test_its_export_replays_as_played_and_a_log_of_other_rules_is_refused():
    """`python -m bot replay FILE` (export.replayed_export): the export names rules version 3, and
    its log replays under them to the final state it names; under today's rules it does not, and
    a log of version 3 that does not reach the state it names is refused naming both versions."""
    final, log = played_under_version_3()
    doc = json.loads(export.dumps(export.export_doc(E, finished_game(final, log), log)))
    assert doc["rules_version"] == 3 < E.rules_version
    states = export.replayed_export(E, export.load(json.dumps(doc), engines()))
    assert states[-1] == final
    today = export.load(json.dumps({**doc, "rules_version": E.rules_version}), engines())
    with pytest.raises(export.ExportError):  # (today's menus: another race, or a move refused)
        export.replayed_export(E, today)
    elsewhere = {**doc, "final": "0" * 32}  # a log of version 3 that does not reach the state named
    with pytest.raises(export.ExportError, match="rules version 3; this bot plays version 4, and its moves do not"):
        export.replayed_export(E, export.load(json.dumps(elsewhere), engines()))
