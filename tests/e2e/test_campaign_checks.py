"""The campaign's checks must be able to fail (issue #28): each test plays a real game with the
in-process bot, sees the check at 0, plants one fault in what Discord shows or in the stored game,
sees the figure rise, and takes the fault back."""

from __future__ import annotations

import copy
import json
import sqlite3
import zlib
from types import SimpleNamespace

import pytest

from bot.tools.campaign.checks import (
    duplicates,
    announcements_duplicated,
    announcements_missing,
    lobbies_left_live,
    menus_missing,
    replay_failures,
    replays,
    results_image,
    results_missing,
    threads_orphaned,
    is_animation,
)
from bot.tools.campaign.common import Db, Index

from bot.tools.emulator.players import Player, play_until
from bot.tools.emulator.tables import open_table, start

from . import standins


@pytest.fixture(autouse=True)
def _stand_in_results(monkeypatch):
    """The bot draws stand-in pictures here (conftest): the check draws its expected results image
    the same way, from the same view, so the byte-for-byte comparison still tells views apart."""
    monkeypatch.setattr(
        "bot.tools.campaign.checks.renderer",
        lambda kind: SimpleNamespace(render_results=standins.stand_in_renderer(kind).results),
    )


def checks(w, db):
    """The figures the campaign computes at its end, for the world as it is now."""
    index = Index(w.emu)
    games = db.games(snapshot=True)
    replayed = replays(db, games)
    users = [w.alice, w.bob]
    return {
        "replay_failures": replay_failures(replayed),
        "announcements_missing": announcements_missing(w.emu, index, replayed),
        "announcements_duplicated": announcements_duplicated(w.emu, index, replayed, users),
        "results_missing": results_missing(w.emu, index, replayed),
        "menus_missing": menus_missing(w.emu, db, index, games, set()),
    }


def write(db: Db, sql: str, params: tuple = ()) -> None:
    con = sqlite3.connect(db.path)
    try:
        con.execute(sql, params)
        con.commit()
    finally:
        con.close()


def event_posts(emu, thread, lines):
    """(message, index of its line) for each line of the game's log, in order."""
    said = set(lines)
    return [
        (m, i)
        for m in emu.messages_in(thread)
        if m.author.id == emu.bot.id
        for i, line in enumerate(m.content.split("\n"))
        if line in said
    ]


async def finished_game(w, kind, **options):
    lobby = await open_table(w, w.alice, w.bob, kind=kind, **options)
    thread = await start(w, lobby, w.alice)
    players = [Player(w.emu, w.alice, "select", 1, kind), Player(w.emu, w.bob, "select", 2, kind)]
    db = Db(w.tmp_path / "state" / "bot.sqlite3")

    def over():
        rows = db.query("SELECT status, archive IS NOT NULL FROM games WHERE id = 1")
        return bool(rows) and rows[0] == ("finished", 1)

    await play_until(players, thread, over, max_steps=3000)
    await w.emu.wait_until(
        lambda: results_missing(w.emu, Index(w.emu), replays(db, db.games(snapshot=True))) == 0, timeout=20
    )
    return thread, db


async def test_a_finished_game_is_checked_and_each_planted_fault_counts(table):
    w, emu = table, table.emu
    w.bot.table.lobbies.new_seed = lambda: 2
    thread, db = await finished_game(w, "rallyman", stage="Rally1 SS1")
    game = db.games(snapshot=True)[0]
    # The finished game's log lives in its archive now, not in `actions`: the checks read it there.
    assert db.query("SELECT COUNT(*) FROM actions WHERE game_id = 1") == [(0,)]
    log = db.actions(1)
    assert [v for v, _, _ in log] == list(range(1, game["version"] + 1))
    assert db.actions(1, game["version"] - 1) == log[-1:]  # a double click on the last move is seen
    (replayed,) = replays(db, [game])
    assert replayed.problem is None and len(replayed.lines) > 10
    assert checks(w, db) == dict.fromkeys(
        ("replay_failures", "announcements_missing", "announcements_duplicated", "results_missing", "menus_missing"), 0
    )
    posts = event_posts(emu, thread, replayed.lines)

    # A deleted thread line: the last one moved to the first post, so an identical line still
    # shows earlier in the thread (a substring match over the whole thread saw nothing wrong).
    first, (last, i) = posts[0][0], posts[-1]
    was_first, was_last = first.content, last.content
    moved = last.content.split("\n")[i]
    last.content = "\n".join(x for k, x in enumerate(last.content.split("\n")) if k != i)
    first.content += "\n" + moved
    assert checks(w, db)["announcements_missing"] == 1
    first.content, last.content = was_first, was_last

    # A post deleted from the thread: all its lines are missing.
    lost = sum(1 for m, _ in posts if m is posts[1][0])
    posts[1][0].deleted = True
    assert checks(w, db)["announcements_missing"] == lost
    posts[1][0].deleted = False

    # A line repeated inside an edited round post (a catch-up appending lines already there).
    m, i = posts[len(posts) // 2]
    was = m.content
    m.content += "\n" + m.content.split("\n")[i]
    assert checks(w, db)["announcements_duplicated"] == 1
    m.content = was

    # A post's text repeated later in the thread, not right after it.
    text_post = posts[1][0]
    assert emu.messages_in(thread)[-1] is not text_post
    copy = emu.messaging.create(thread, emu.bot, {"content": text_post.content})
    assert checks(w, db)["announcements_duplicated"] == sum(
        1 for line in text_post.content.split("\n") if line in set(replayed.lines)
    )
    emu.messaging.delete(copy)

    # The results image missing from the last board post (every game draws one).
    await emu.wait_until(lambda: any(is_animation(m) for m in emu.messages_in(thread)), timeout=60)
    boards = [m for m in emu.messages_in(thread) if m.attachments]
    assert is_animation(boards[-1])  # the game's closing animation comes after its results
    board = [m for m in boards if not is_animation(m)][-1]
    expected = results_image(replayed)
    assert expected is not None and any(a.data == expected for a in board.attachments)
    attachments = board.attachments
    board.attachments = [a for a in attachments if a.data != expected]
    assert checks(w, db)["results_missing"] == 1
    board.attachments = attachments

    # A snapshot that is not what the log replays to (the status and version agree).
    snapshot = json.loads(game["snapshot"])
    changed = dict(snapshot, seed_check="planted")
    write(db, "UPDATE games SET snapshot = ? WHERE id = 1", (zlib.compress(json.dumps(changed).encode()),))
    assert checks(w, db)["replay_failures"] == 1
    write(db, "UPDATE games SET snapshot = ? WHERE id = 1", (zlib.compress(json.dumps(snapshot).encode()),))
    assert checks(w, db) == dict.fromkeys(
        ("replay_failures", "announcements_missing", "announcements_duplicated", "results_missing", "menus_missing"), 0
    )


async def test_an_active_game_stale_menus_live_lobbies_and_orphan_threads(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, kind="heat", track="usa")
    lobby_buttons = copy.deepcopy(lobby.components)
    await start(w, lobby, w.alice)
    db = Db(w.tmp_path / "state" / "bot.sqlite3")
    index = Index(emu)
    await emu.wait_until(lambda: all(any(m.components for m in emu.dm_messages(u)) for u in (w.alice, w.bob)))
    games = db.games(snapshot=True)
    assert menus_missing(emu, db, index, games, set()) == 0
    # The game moved on for bob (his prompt version rose) but no new DM came: his live-looking
    # buttons would be refused as stale.
    write(db, "UPDATE seats SET prompt_version = prompt_version + 1 WHERE game_id = 1 AND seat = 1")
    assert menus_missing(emu, db, index, games, set()) == 1
    write(db, "UPDATE seats SET prompt_version = prompt_version - 1 WHERE game_id = 1 AND seat = 1")
    # No DM with controls at all.
    menu = [m for m in emu.dm_messages(w.alice) if m.components][-1]
    menu.deleted = True
    assert menus_missing(emu, db, index, games, set()) == 1
    assert menus_missing(emu, db, index, games, {w.alice.id}) == 0  # closed DMs: no DM expected
    menu.deleted = False
    assert menus_missing(emu, db, index, games, set()) == 0

    # A DM menu sent again later (same content and controls), with another DM in between.
    assert announcements_duplicated(emu, index, [], [w.alice, w.bob]) == 0

    # The lobby still offering Join/Start once its game started.
    assert lobbies_left_live(emu, index, games) == 0
    started = lobby.components
    lobby.components = lobby_buttons
    assert lobbies_left_live(emu, index, games) == 1
    lobby.components = started

    # A second thread the bot opened for the game, which plays in the first one.
    assert threads_orphaned(emu, index, games) == 0
    extra = emu.world.create_thread(w.general, "Heat #1", emu.bot)
    assert threads_orphaned(emu, index, games) == 1
    extra.deleted = True
    assert threads_orphaned(emu, index, games) == 0
    dm = emu.dm_channel(w.alice)
    between = emu.messaging.create(dm, emu.bot, {"content": "something else"})
    again = emu.messaging.create(dm, emu.bot, {"content": menu.content, "components": menu.components})
    again.attachments = menu.attachments  # the same hand image
    assert announcements_duplicated(emu, index, [], [w.alice, w.bob]) == 1
    emu.messaging.delete(again)
    emu.messaging.delete(between)
    assert announcements_duplicated(emu, index, [], [w.alice, w.bob]) == 0


async def test_a_deferred_answer_never_completed_is_unanswered():
    from types import SimpleNamespace

    from bot.tools.campaign.forged import answered

    thinking = SimpleNamespace(loading=True)
    deferred = SimpleNamespace(acked=True, callback_type=5, response=thinking, followups=[])
    assert not await answered(deferred, wait=0.2)  # "thinking..." forever: no answer
    thinking.loading = False  # the placeholder filled in
    assert await answered(deferred, wait=0.2)
    thinking.loading, deferred.followups = True, [object()]  # or a follow-up sent
    assert await answered(deferred, wait=0.2)
    assert await answered(SimpleNamespace(acked=True, callback_type=4, response=None, followups=[]), wait=0.2)
    assert not await answered(SimpleNamespace(acked=False, callback_type=None, response=None, followups=[]), wait=0.2)


class FakeDb:
    """The bot's database as Table.refresh reads it: status, version, seats waited for, the log."""

    def __init__(self):
        self.log, self.to_act_seats = [], [0, 1]

    def to_act(self, game_id):
        return "active", len(self.log), list(self.to_act_seats)

    def actions(self, game_id, after=-1):
        return [(v, s, json.dumps(a)) for v, (s, a) in enumerate(self.log, 1) if v > after]


def test_one_stuck_seat_stalls_a_game_the_others_keep_moving(monkeypatch):
    from types import SimpleNamespace

    import bot.tools.campaign.tables as tables
    from bot.tools.campaign.run import STALL

    now = [1000.0]
    monkeypatch.setattr(tables.time, "monotonic", lambda: now[0])
    db = FakeDb()
    ctx = SimpleNamespace(emu=None, channels={0: None}, db=db)
    table = tables.Table(ctx, 0, "heat", [], set(), [])
    table.game_id, table.started = 1, True
    table.refresh()
    for _ in range(40):  # seat 0 re-submits every second; seat 1 never moves
        now[0] += 1.0
        db.log.append((0, {"type": "play", "cards": [len(db.log) % 3]}))
        db.log.append((0, {"type": "prefs"}))
        table.refresh()
    assert table.version == 80 and now[0] - table.last_change < 1  # the version alone says "moving"
    assert table.stuck(now[0], 0.0, STALL) == [1]
    assert table.stuck(now[0], now[0] - STALL / 2, STALL) == []  # a kill restarts the count
    db.log.append((1, {"type": "play"}))  # seat 1 decides: it waits anew
    table.refresh()
    assert table.stuck(now[0], 0.0, STALL) == []
    db.log.append((1, {"type": "prefs"}))  # a preference is no decision
    db.to_act_seats = [1]  # seat 0 is done (submitted); the game waits for seat 1 alone
    now[0] += STALL
    table.refresh()
    assert table.stuck(now[0], 0.0, STALL) == [1]


def test_a_player_never_gives_up_on_a_menu(monkeypatch):
    from types import SimpleNamespace

    import bot.tools.campaign.players as players

    assert all(players.retry_after(n) <= players.PATIENCE for n in range(1000))
    now = [0.0]
    monkeypatch.setattr(players.time, "monotonic", lambda: now[0])
    menu = SimpleNamespace(
        menu_key=("m", "mv:1:0:0:b0"),
        components=[1],
        buttons=[{"custom_id": "mv:1:0:0:b0", "label": "Go"}],
        selects=[],
        all_components=lambda: [{"type": 2, "custom_id": "mv:1:0:0:b0"}],
    )
    player = players.Player.__new__(players.Player)
    player.ctx = SimpleNamespace(botctl=SimpleNamespace(kills=0))
    player.tries, player.kills_at_try, player.done_with, player.last_try = players.Counter(), {}, set(), {}
    player.visible = lambda: [menu]
    tries = 0
    while tries < 40 and now[0] < 3600:
        if player.candidate() is menu:  # the player acts; nothing visible comes of it
            tries += 1
            player.tries[menu.menu_key] += 1
            player.last_try[menu.menu_key] = now[0]
            player.kills_at_try[menu.menu_key] = 0
        now[0] += 1.0
    assert tries == 40  # 16 tries were the end of it before
    player.done_with.add(menu.menu_key)  # it went through, yet the menu is still there much later
    now[0] += players.PATIENCE
    assert player.candidate() is menu


async def test_both_of_a_double_click_applied_counts(monkeypatch):
    from types import SimpleNamespace

    import bot.tools.campaign.players as players

    db = FakeDb()
    fig = players.Counter()
    player = players.Player.__new__(players.Player)
    player.ctx, player.fig = SimpleNamespace(db=db), fig

    async def went_through(rec):
        return True

    player.went_through = went_through
    db.log = [(0, {"type": "play", "card": 1}), (1, {"type": "play", "card": 2})]
    await player.count_double((1, 0, 1), [object(), object()], "double")
    assert fig == {"double_clicks": 1}  # only seat 1 moved since version 1: one applied
    db.log.append((1, {"type": "play", "card": 2}))  # the same action of the same seat again
    await player.count_double((1, 1, 1), [object(), object()], "double")
    assert fig == {"double_clicks": 2, "double_applied": 1}
    await player.count_double((1, 1, 1), [object(), object()], "slash")
    assert fig == {"double_clicks": 2, "double_applied": 1, "slash_pairs": 1, "slash_double_applied": 1}


def test_secrets_and_tracebacks_in_the_log_count(tmp_path):
    from bot.tools.campaign.leaks import secret_lines

    log = tmp_path / "bot.log"
    log.write_text('INFO game 1: moved\nDEBUG state {"phase": "submit"}\n', encoding="utf-8")
    assert secret_lines([log]) == 0
    log.write_text(log.read_text() + 'DEBUG state {"cars": [{"hand": [1, 2]}]}\n', encoding="utf-8")
    assert secret_lines([log]) == 1


def test_lines_are_matched_in_order():
    from bot.tools.campaign.checks import Replayed, lines_missing, lines_repeated, unshown_versions

    said = ["a", "b", "a", "c"]
    assert lines_missing(said, ["t", "a", "b", "x", "a", "c", "w"]) == 0
    assert lines_missing(said, ["a", "b", "c"]) == 1  # the second "a" is lost; the first does not stand in
    assert lines_missing(said, ["a", "c", "b", "a"]) == 1  # out of order
    assert lines_repeated(said, ["a", "b", "a", "c", "c", "t"]) == {"c": 1}
    r = Replayed({}, [], "en", lines=said, versions=[1, 2, 3, 4])
    assert unshown_versions(r, ["a", "a", "c"]) == [2]


def test_only_a_request_cut_by_a_kill_is_kept_out_of_the_campaigns_output():
    import logging
    import sys

    from bot.tools.campaign.run import KilledMidRequest

    def record(err):
        try:
            raise err
        except Exception:
            return logging.LogRecord(
                "aiohttp.server", logging.ERROR, "", 0, "Error handling request", (), sys.exc_info()
            )

    assert not KilledMidRequest().filter(record(ConnectionResetError("Connection lost")))
    assert KilledMidRequest().filter(record(ValueError("a real emulator error")))


def test_a_text_post_repeats_only_the_post_right_before_it_in_the_thread():
    # Two pings for one player's next decisions (each a title once its "Waiting for" line is set
    # aside) with the moves' post between them are no repeat; the same post twice in a row is (the
    # campaign of seed 29 counted the first: it compared the text posts with each other only).
    def post(i: int, content: str) -> SimpleNamespace:
        return SimpleNamespace(id=i, channel_id=9, content=content, attachments=[], all_components=lambda: [])

    ping, moves = post(1, "**Rallyman: DIRT #5**"), post(2, "**Rallyman: DIRT #5**\nbob plans 4")
    again = post(3, ping.content)
    assert duplicates([ping, moves, again], anywhere=False, only={1, 3}) == []
    assert duplicates([ping, again], anywhere=False, only={1, 3}) == [again]
