"""Ratings per game (issue #35, bot/ratings.py): OpenSkill over finished games, per server and across
servers, on both backends. Ties share a place, many players rate at once, abandoned games never
count, a seat the automatic player finished counts as its owner's, AI seats are rated per level."""

from __future__ import annotations

import pytest

from bot import ratings
from bot.games.base import Engine
from bot.games.registry import engines
from bot.store import Game, Seat, Store
from tests.core.stores import database_for

GUILD = 111 << 22


class Placed(Engine):
    """A game whose final state says each seat's place (state["places"]): results chosen by the test."""

    kind = "pon"

    def is_over(self, state):
        return True

    def placings(self, state):
        return state["places"]


PLACED = Placed()


def game_of(
    places: list[int],
    ai: dict[int, str] = (),
    auto: set[int] = (),
    status: str = "finished",  # type: ignore[assignment]
    guild: int | None = GUILD,
    game_id: int = 1,
) -> Game:
    seats = [
        Seat(i, -i if i in dict(ai) else 100 + i, f"P{i}", True, 0, "", i in auto, dict(ai).get(i))
        for i in range(len(places))
    ]
    return Game(game_id, "pon", guild, 5, 6, None, 100, status, {}, 1, 9, {"places": places}, seats=seats)


def test_a_shared_place_moves_both_alike_and_many_players_rate_at_once():
    found = ratings.entries(PLACED, game_of([1, 1, 3, 4, 5, 6]))
    after = ratings.update(found, {}, 0)
    mu = {p: row[1] for (_, p), row in after.items()}
    assert mu["100"] == pytest.approx(mu["101"])  # the tie: equal results, equal ratings
    assert mu["101"] > mu["102"] > mu["103"] > mu["104"] > mu["105"]  # six players ranked at once
    assert all(row[2] < 25 / 3 for row in after.values())  # everyone is known better afterwards
    assert after[(0, "100")][3:] == (1, 1) and after[(0, "102")][3:] == (1, 0)  # games, wins


def test_a_stand_in_seat_counts_as_its_owner_and_ai_seats_as_their_level():
    # issue #35: "a seat a stand-in finished counts as its owner's"; "AI seats are rated too, so a
    # player can see where they stand against each level".
    found = ratings.entries(PLACED, game_of([2, 1, 3], ai={2: "strong"}, auto={1}))
    assert [e.player for e in found] == ["100", "101", "ai:strong"]
    two = ratings.entries(PLACED, game_of([3, 1, 2], ai={1: "easy", 2: "easy"}))
    after = ratings.update(two, {}, 0)
    assert set(after) == {(0, "100"), (0, "ai:easy")}  # one rating for the level ...
    assert after[(0, "ai:easy")][3:] == (1, 1)  # ... one game, won by one of its seats
    assert after[(0, "100")][1] < 25


def test_bots_places_count_only_between_the_seats():
    # Pole's placings list the bots' cars after the seats (places among every car): the two
    # players are rated by their own places, 4th and 2nd of four cars.
    game = game_of([4, 2])
    game.snapshot = {"places": [4, 2, 1, 3]}
    found = ratings.entries(PLACED, game)
    assert [(e.player, e.place, e.field) for e in found] == [("100", 4, 4), ("101", 2, 4)]
    after = ratings.update(found, {}, 0)
    assert after[(0, "101")][1] > after[(0, "100")][1]


def test_no_rating_without_two_players_or_a_finish():
    assert ratings.entries(PLACED, game_of([1])) == []  # alone (a solo race): no one to be rated against
    assert ratings.entries(PLACED, game_of([1, 2], status="abandoned")) == []


async def finished(
    store: Store, places: list[int], guild: int | None = GUILD, users: tuple[int, ...] = (), ai: int = 0
) -> int:
    """A game in the store whose last move finished it with these places."""
    users = users or tuple(100 + i for i in range(len(places) - ai))
    game_id = await store.create_game("pon", guild, 5, users[0], f"U{users[0]}", {}, 1, ai=0)
    for user in users[1:]:
        assert await store.join(game_id, user, f"U{user}", 9)
    for n in range(ai):
        await store._db.execute(
            "INSERT INTO seats (game_id, seat, user_id, name, auto, ai) VALUES (?, ?, ?, ?, 1, ?)",
            (game_id, len(users) + n, -1 - n, f"AI {n}", "strong"),
        )
    assert await store.start(game_id, 7, {"places": places}, [])
    await store.commit_move(game_id, 0, 0, {"type": "x"}, {"places": places}, True, [])
    return game_id


@pytest.fixture(params=["sqlite", "postgresql"])
async def store(request, tmp_path):
    s = await Store.open(await database_for(request.param, tmp_path))
    yield s
    await s.close()


async def test_a_finished_game_is_rated_once_in_its_server_and_across_servers(store):
    game_id = await finished(store, [2, 1, 2])
    game = await store.game(game_id)
    assert await ratings.record(store, PLACED, game)
    assert not await ratings.record(store, PLACED, game)  # rated once however often asked
    board = await store.players.leaderboard("pon", GUILD)
    assert [row[0] for row in board] == ["101", "100", "102"] or [row[0] for row in board] == ["101", "102", "100"]
    assert board[0][4:] == (1, 1)
    assert await store.players.leaderboard("pon", ratings.GLOBAL) == board
    assert await store.players.rank_in("pon", GUILD, "101") == (1, 3)
    history = await store.players.rating_history("101", "pon")
    assert [(h[0], h[2], h[3]) for h in history] == [(game_id, 1, 3)]
    # A game in another server moves the global ratings, not this server's.
    other = await store.game(await finished(store, [1, 2], guild=222 << 22, users=(102, 101)))
    assert await ratings.record(store, PLACED, other)
    assert await store.players.leaderboard("pon", GUILD) == board
    assert (await store.players.rank_in("pon", ratings.GLOBAL, "101"))[1] == 3
    assert (await store.players.ratings_of("101", ratings.GLOBAL))[0][4:] == (2, 1)


async def test_an_abandoned_game_never_counts(store):
    game_id = await store.create_game("pon", GUILD, 5, 100, "U100", {}, 1)
    assert await store.join(game_id, 101, "U101", 9)
    assert await store.start(game_id, 7, {"places": [1, 2]}, [])
    assert await store.set_status(game_id, "abandoned")
    assert not await ratings.record(store, PLACED, await store.game(game_id))
    assert await ratings.catch_up(store, {"pon": PLACED}) == 0
    assert await store.players.leaderboard("pon", ratings.GLOBAL) == []


async def test_ai_levels_are_on_the_leaderboard(store):
    game = await store.game(await finished(store, [2, 1, 3], ai=2))
    assert await ratings.record(store, PLACED, game)
    board = await store.players.leaderboard("pon", ratings.GLOBAL)
    assert sorted(row[0] for row in board) == ["100", "ai:strong"]
    assert dict((row[0], row[4:]) for row in board)["ai:strong"] == (1, 1)
    assert [row[0] for row in await store.players.ai_ratings("pon", ratings.GLOBAL)] == ["ai:strong"]


async def test_start_up_rates_older_games_and_a_rebuild_gives_the_same_ratings(store):
    ids = [await finished(store, places) for places in ([1, 2, 3], [3, 1, 2], [1, 1, 2], [2, 3, 1])]
    await finished(store, [1])  # a solo game: seen, rates no one
    assert await ratings.catch_up(store, {"pon": PLACED}) == 4  # the one-time build, in the order they ended
    assert await ratings.catch_up(store, {"pon": PLACED}) == 0
    assert await store.players.unrated_games() == []
    before = await store.players.leaderboard("pon", GUILD)
    assert len(await store.players.rating_history("100", "pon")) == len(ids)
    assert await ratings.rebuild(store, {"pon": PLACED}) == 4
    assert await store.players.leaderboard("pon", GUILD) == before


async def played_to_the_end(store: Store, engine, game_id: int, state):
    """The started stored game played by the automatic player to its end, every move committed."""
    version = 0
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        action = engine.auto_action(state, seat)
        state, _ = engine.apply(state, seat, action)
        version = await store.commit_move(game_id, version, seat, action, state, engine.is_over(state), [])
    return state


async def test_a_real_game_played_to_its_end_is_rated(store):
    engine = engines()["pon"]
    game_id = await store.create_game("pon", GUILD, 5, 100, "U100", {}, 3)
    assert await store.join(game_id, 101, "U101", 6) and await store.join(game_id, 102, "U102", 6)
    state = engine.new_game(engine.validate_options({}, 3), 3, 3)
    assert await store.start(game_id, 7, state, [])
    state = await played_to_the_end(store, engine, game_id, state)
    assert await ratings.record(store, engine, await store.game(game_id))
    places = engine.placings(state)
    board = await store.players.leaderboard("pon", GUILD)
    assert [row[0] for row in board][0] == str(100 + places.index(1))


async def test_six_drivers_with_two_sharing_the_fastest_time(store):
    # A seeded Rallyman stage of six where two drivers share the best time (seed: the time cards'
    # seconds less the chips; equal times share the place): both rate alike, above the four others.
    engine = engines()["rallyman"]
    users = tuple(200 + k for k in range(6))
    game_id = await store.create_game("rallyman", GUILD, 5, users[0], "U200", {}, 3)
    for user in users[1:]:
        assert await store.join(game_id, user, f"U{user}", 6)
    options = engine.validate_options({"stage": "Rally1 SS1"}, 6)
    state = engine.new_game(options, 6, 3)
    assert await store.start(game_id, 7, state, [])
    state = await played_to_the_end(store, engine, game_id, state)
    places = engine.placings(state)
    assert places == [6, 1, 3, 1, 4, 5]
    assert await ratings.record(store, engine, await store.game(game_id))
    board = {row[0]: ratings.ordinal(row[2], row[3]) for row in await store.players.leaderboard("rallyman", GUILD)}
    assert len(board) == 6 and board["201"] == pytest.approx(board["203"])
    assert min(board["201"], board["203"]) > max(v for p, v in board.items() if p not in ("201", "203"))
    assert sorted(board, key=board.get, reverse=True)[2:] == ["202", "204", "205", "200"]
