"""Ratings per game (issue #35): OpenSkill, per server and across servers. The model is Bradley-Terry
with every pair of players compared (many players, shared places): openskill's Plackett-Luce moves
two players who share first place below the third (its tie handling; tests/core/test_ratings.py).

Only a finished game counts (an abandoned one never does), rated once, when its last move commits
(Table.commit, after the log is archived); games finished before ratings existed, or left unrated
by a crash in between, are rated at start-up in the order they ended (`catch_up`), and `rebuild`
builds every rating again from the finished games. A store copy carries no ratings: the target's
start-up builds them so (bot/store_copy.py), equal to the source's; except where a crash left a game
unrated while a later game of its kind was rated: the source rated the later one first, the copy
rates them in the order they ended. Who is rated:
- a person by their user id, whoever played the seat at the end: a seat the automatic player
  finished as a stand-in counts as its owner's;
- an AI seat by its level ("ai:strong"), one rating per level, so a player sees where they stand
  against each; two seats of one level in a game each play with the level's rating, and the
  level moves by their mean change.
A game with fewer than two rated entries (a solo race against Legends or bots) rates no one.
The displayed rating is the conservative ordinal, mu - 3 sigma (0 for a newcomer).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

from openskill.models import BradleyTerryFull

from bot.games.base import Engine
from bot.store import Game, Store

log = logging.getLogger(__name__)

MODEL = BradleyTerryFull()
GLOBAL = 0  # the scope across servers (a server's scope is its guild id)
AI_PREFIX = "ai:"


def player_key(user_id: int, ai: str | None) -> str:
    """Who a seat's result counts for: a person's user id, or the AI level."""
    return f"{AI_PREFIX}{ai}" if ai else str(user_id)


def ai_level(player: str) -> str | None:
    return player[len(AI_PREFIX) :] if player.startswith(AI_PREFIX) else None


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown and ranked by: mu - 3 sigma."""
    return mu - 3 * sigma


@dataclass(frozen=True)
class Entry:
    """One seat's result: who it counts for, its name then, its place (1 = won) among `field`."""

    seat: int
    player: str
    name: str
    place: int
    field: int


def entries(engine: Engine, game: Game) -> list[Entry]:
    """The seats a finished game rates, with their places; empty when it rates no one (not
    finished, no ranking, fewer than two players)."""
    state = game.snapshot
    if game.status != "finished" or state is None or not engine.is_over(state):
        return []
    places = engine.placings(state)  # Pole's bots are places after the seats': the seats rank among themselves
    if not places or len(places) < len(game.seats):
        return []
    field = engine.field(state)
    out = [Entry(s.seat, player_key(s.user_id, s.ai), s.name, places[s.seat], field) for s in game.seats]
    return out if len({e.player for e in out}) >= 2 else []


def seen_row(when: float) -> tuple[Any, ...]:
    """The row that marks a finished game that rates no one as seen."""
    return (-1, "", 0, 0, when, 0.0, 0.0)


Current = dict[tuple[int, str], tuple[str, float, float, int, int]]


def update(
    found: list[Entry], current: Current, scope: int
) -> dict[tuple[int, str], tuple[str, float, float, int, int]]:
    """The new ratings in `scope` after a game with these results, from the ratings before
    (missing: a newcomer): {(scope, player): (name, mu, sigma, games, wins)}. Each AI level counts
    one game (and one win if any of its seats won)."""
    teams = []
    for e in found:
        before = current.get((scope, e.player))
        rating = (
            MODEL.rating(name=e.player)
            if before is None
            else MODEL.rating(mu=before[1], sigma=before[2], name=e.player)
        )
        teams.append([rating])
    rated = MODEL.rate(teams, ranks=[e.place for e in found])
    moved: dict[str, list[tuple[float, float]]] = {}
    for e, team in zip(found, rated):
        moved.setdefault(e.player, []).append((team[0].mu, team[0].sigma))
    out = {}
    for player, after in moved.items():
        mine = [e for e in found if e.player == player]
        before = current.get((scope, player))
        games, wins = (before[3], before[4]) if before else (0, 0)
        mu = sum(m for m, _ in after) / len(after)
        sigma = sum(s for _, s in after) / len(after)
        name = mine[0].name if not ai_level(player) else player
        out[(scope, player)] = (name, mu, sigma, games + 1, wins + any(e.place == 1 for e in mine))
    return out


async def record(store: Store, engine: Engine, game: Game, ended_at: float | None = None) -> bool:
    """Rate a finished game (in its server and across servers): once, in one transaction. False
    when it rates no one or was rated already."""
    found = entries(engine, game)
    when = time.time() if ended_at is None else ended_at
    if not found:
        if game.status != "finished":
            return False
        # Marked as seen (seat -1, no one), so start-up does not look at it again.
        return (
            await store.players.rate_game(game.id, game.kind, [], [], lambda current: ({}, [seen_row(when)])) and False
        )
    scopes = [GLOBAL] + ([game.guild_id] if game.guild_id else [])

    def compute(current: Current) -> tuple[dict[tuple[int, str], tuple[Any, ...]], list[tuple[Any, ...]]]:
        ratings: dict[tuple[int, str], tuple[Any, ...]] = {}
        for scope in scopes:
            ratings.update(update(found, current, scope))
        seats = [(e.seat, e.player, e.place, e.field, when, *ratings[(GLOBAL, e.player)][1:3]) for e in found]
        return ratings, seats

    return await store.players.rate_game(game.id, game.kind, scopes, sorted({e.player for e in found}), compute)


async def catch_up(store: Store, engines: dict[str, Engine]) -> int:
    """Rate every finished game not rated yet, in the order they ended (games from before ratings
    existed: the one-time build; a crash between a last move and its rating). How many were rated."""
    count = 0
    for game_id, ended in await store.players.unrated_games():
        try:
            game = await store.game(game_id)
            if game is not None and game.kind in engines and await record(store, engines[game.kind], game, ended):
                count += 1
        except Exception:
            log.exception("game %s: could not rate it", game_id)
    return count


async def rebuild(store: Store, engines: dict[str, Engine]) -> int:
    """Every rating built again from the finished games, in the order they ended."""
    await store.players.clear_ratings()
    return await catch_up(store, engines)
