"""Issue #17, the move path at the table: a whole move (Table.move_seat: load, pick, apply, plan,
commit; then the announcement's bookkeeping) is one statement on either backend; the seats'
menus are hashed with orjson, stored hashes of the older format still match; each menu a move
builds is built once (the DMs reuse the prompts')."""

from __future__ import annotations

import hashlib
import json

import orjson
import pytest

from bot.delivery import Delivery
from bot.i18n import to_wire
from bot.store import Game, PromptUpdate, Seat, Store
from bot.picks import OLD_HASH_LENGTH, _SORTED, _wire, menu_hash
from bot.table import Table
from tests.core.stores import BACKENDS, database_for, statements
from tests.core.tables import ENGINES, HEAT, NoBot, a_move, heat_game


def old_hash(menu) -> str:
    """How menus were hashed before orjson (stored in the seats of games started then)."""
    return hashlib.blake2b(json.dumps(to_wire(menu), sort_keys=True).encode(), digest_size=8).hexdigest()


@pytest.fixture(params=BACKENDS)
async def path(request, tmp_path):
    return await database_for(request.param, tmp_path)


async def test_a_whole_move_at_the_table_is_one_statement(path):
    store = await Store.open(path)
    table = Table(NoBot(), store, ENGINES, 3600)  # type: ignore[arg-type]
    announced = []
    table.schedule_announce = lambda outcome: announced.append(outcome) or outcome  # type: ignore[method-assign]
    gids = [await heat_game(store, table, seed=s) for s in (4, 5)]
    await store.flush()
    for gid in gids:
        await store.game(gid)  # the first load of a game after start-up reads it; later moves do not

    async def moves():
        for _ in range(3):
            for gid in gids:
                game = await store.game(gid)
                seat = HEAT.to_act(game.snapshot)[0]
                outcome = await table.move_seat(gid, lambda g, seat=seat: seat, a_move)
                # the announcement's bookkeeping, as Delivery and the announcer do it
                await store.mark_sent(gid, outcome.versions, "post")
                await store.settle(gid, outcome.versions)

    seen = await statements(store, moves)
    # Six moves, six statements (a trigger's steps are traced with its statement's text: one run
    # of one text is one statement): no load, no separate write of timers or announcements.
    runs = (
        seen
        if store.backend == "postgresql"
        else [text for i, text in enumerate(seen) if i == 0 or text != seen[i - 1]]
    )
    assert len(announced) == 6 and len(runs) == 6, [r[:60] for r in runs]
    assert all(text.startswith(("INSERT INTO moves", "SELECT commit_move")) for text in runs)
    # ... and the announcements' progress of all of them: one statement, later.
    flushed = await statements(store, store.flush)
    assert len(flushed) == 1 and not await store.owed()
    await store.close()


def test_menu_hash_writes_what_to_wire_writes_for_every_engine():
    for kind, engine in ENGINES.items():
        seats = max(engine.min_seats, 2)  # (a lone Heat player needs Legends)
        state = engine.new_game(
            engine.validate_options({}, seats) if kind != "heat" else engine.validate_options({"track": "usa"}, seats),
            seats,
            3,
        )
        for seat in range(seats):
            menu = engine.menu(state, seat)
            assert orjson.loads(orjson.dumps(menu, default=_wire, option=_SORTED)) == json.loads(
                json.dumps(to_wire(menu))
            ), kind
            assert len(menu_hash(menu)) == 18 and menu_hash(menu) == menu_hash(menu)
            assert menu_hash(menu, like=old_hash(menu)) == old_hash(menu)


def heat_table_game(seats: int = 3) -> tuple[Table, Game, dict]:
    options = HEAT.validate_options({"track": "usa"}, seats)
    state = HEAT.new_game(options, seats, 7)
    game = Game(
        1,
        "heat",
        1,
        1,
        1,
        None,
        100,
        "active",
        options,
        7,
        0,
        state,
        seats=[Seat(s, 100 + s, f"p{s}", True, 0, "") for s in range(seats)],
    )
    return Table(NoBot(), None, ENGINES, 3600), game, state  # type: ignore[arg-type]


def test_seats_storing_hashes_of_the_older_format_are_not_seen_as_changed():
    table, game, state = heat_table_game()
    menus = [HEAT.menu(state, s) for s in range(3)]
    for s in game.seats:
        s.prompt_hash = old_hash(menus[s.seat])
    game.seats[2].prompt_hash = old_hash([])  # a menu that has changed since
    updates = table.prompts(HEAT, game, state, actor=0)
    # the seat that moved and the changed one, now with hashes of the new format
    assert updates == [PromptUpdate(0, menu_hash(menus[0])), PromptUpdate(2, menu_hash(menus[2]))]
    assert all(len(u.prompt_hash) == OLD_HASH_LENGTH + 2 for u in updates)
    for u in updates:
        game.seats[u.seat].prompt_hash = u.prompt_hash
    assert table.prompts(HEAT, game, state) == []  # the old (seat 1) and the new hashes both match


async def test_a_move_builds_each_menu_once(monkeypatch, tmp_path):
    table, game, state = heat_table_game()
    seat = HEAT.to_act(state)[0]
    action = a_move(HEAT, game, state)
    new_state, events = HEAT.apply(state, seat, action)
    built = []
    real = type(HEAT).menu
    monkeypatch.setattr(type(HEAT), "menu", lambda self, st, s: built.append(s) or real(self, st, s))
    plan = table.plan(HEAT, game, seat, state, new_state, events)
    assert sorted(built) == [0, 1, 2] and plan.outcome.menus == {s: real(HEAT, new_state, s) for s in range(3)}
    # The DM of a seat uses the menu the prompts built.
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        out = Delivery(NoBot(), store, ENGINES)  # type: ignore[arg-type]
        built.clear()
        message = await out.dms.private_message(game, new_state, seat, [], "en", menu=plan.outcome.menus[seat])
        assert built == [] and "view" in message
        await out.dms.private_message(game, new_state, seat, [], "en")  # without it, built here
        assert built == [seat]
    finally:
        await store.close()


async def test_the_bench_counts_about_one_statement_a_move(tmp_path, capsys):
    from bot.tools.bench import live as bench_live

    await bench_live.move_db(tmp_path, races=1)
    lines = dict(line.split(": ", 1) for line in capsys.readouterr().out.splitlines())
    assert float(lines["move_db_ratio"].split()[0]) > 0 and float(lines["move_db_ratio_hot_bare"].split()[0]) > 0
    # one statement a move; the archive and the rating at the end of the race (one transaction
    # each, six statements for the rating) and the progress written behind add about a tenth in
    # this short race
    assert 1.0 <= float(lines["move_db_statements"].split()[0]) < 1.2


async def test_a_move_behind_another_processes_is_judged_again_on_the_fresh_game(path):
    """Two processes on one database (a DM click served by another shard's process): this
    table's kept copy is one move behind, the commit is refused as stale, the copy dropped, and
    the pick judged once more against the game as it is now: the player's move goes through."""
    store, other = await Store.open(path), await Store.open(path)
    table = Table(NoBot(), store, ENGINES, 3600)  # type: ignore[arg-type]
    there = Table(NoBot(), other, ENGINES, 3600)  # type: ignore[arg-type]
    for t in (table, there):
        t.schedule_announce = lambda outcome: outcome  # type: ignore[method-assign]
    gid = await heat_game(store, table)
    await store.flush()
    await store.game(gid)  # kept here at version 0
    first = HEAT.to_act((await other.game(gid)).snapshot)[0]
    await there.move_seat(gid, lambda g: first, a_move)  # the other process moves one seat
    picked = []
    seat = next(s for s in HEAT.to_act((await other.game(gid)).snapshot) if s != first)

    def pick(engine, game, state):
        picked.append(game.version)
        return next(a for a in engine.legal_actions(state, seat) if a.get("type") != "prefs")

    outcome = await table.move_seat(gid, lambda g: seat, pick)
    assert picked == [0, 1] and outcome.game.version == 2  # stale copy first, then the fresh game
    await store.close()
    await other.close()


async def test_a_board_post_is_drawn_while_the_move_is_planned_and_written():
    """Issue #29: a move that brings a new board starts drawing it as soon as the move is planned
    (the render is most of a move's way to its post); the images are the ones post_outcome would
    draw itself. A move within a turn draws nothing."""
    table, game, state = heat_table_game()
    names = [s.name for s in game.seats]
    for _ in range(20):
        seat = HEAT.to_act(state)[0]
        new_state, events = HEAT.apply(state, seat, a_move(HEAT, game, state))
        outcome = table.plan(HEAT, game, seat, state, new_state, events).outcome
        assert outcome.view == HEAT.view(new_state, None)  # the view plan compared turns with
        if not outcome.board:
            assert outcome.drawing is None
            state = new_state
            continue
        assert outcome.drawing is not None
        assert await outcome.drawing == table.out.board_images(
            "heat", HEAT.view(new_state, None), names, HEAT.is_over(new_state), "en"
        )
        return
    raise AssertionError("no new turn in 20 moves")
