"""Issue #35 through the real bot and the emulator: seeded games feed the ratings (stand-ins count
for their owners, AI seats per level, many players, abandoned games never), /leaderboard and /stats
answer with them, and a finished game's results carry its statistics image."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot import ratings
from bot.games.base import Event, seat_ref
from bot.games.registry import engines
from bot.games.stats import tally
from bot.i18n import msg, render
from rendering.common import MIN_PHONE_TEXT, PHONE_W, recording
from bot.games.stats import compute_stats
from rendering.stats import end_stats, render_chart, render_game_stats

from bot.tools.emulator.tables import open_table, start


async def race_to_the_end(w, thread, seats: list[int]) -> None:
    """The automatic player finishes these seats (stand-ins, as for absent players) to the end."""
    for seat in seats:
        await w.bot.store.clocks.set_auto(1, seat, True)
    w.bot.table.autoplayer.soon(1)
    await w.emu.wait_until(lambda: any("The game is over" in m.content for m in w.emu.messages_in(thread)), timeout=120)


async def answer(w, who, *path, **options):
    rec = await w.emu.slash(who, w.general, *path, **options)
    await w.emu.wait_until(lambda: rec.followups)
    return rec.followups[0]


async def test_four_stand_ins_finish_a_game_their_owners_are_rated_and_the_results_carry_statistics(table):
    w, emu = table, table.emu
    w.bot.table.lobbies.new_seed = lambda: 5
    lobby = await open_table(w, w.alice, w.bob, w.carol, w.dave, kind="pon")
    thread = await start(w, lobby, w.alice)
    await race_to_the_end(w, thread, [0, 1, 2, 3])
    game = await w.bot.store.game(1)
    places = w.bot.table.engines["pon"].placings(game.snapshot)
    # Rated when the last move committed: the seats' owners, though the automatic player finished them.
    board = await w.bot.store.players.leaderboard("pon", w.guild.id)
    owners = {str(s.user_id): places[s.seat] for s in game.seats}
    assert {row[0] for row in board} == set(owners) and all(row[4] == 1 for row in board)
    assert board[0][0] == next(p for p, place in owners.items() if place == 1)
    assert await w.bot.store.players.leaderboard("pon", ratings.GLOBAL) == board
    # The end's post: the board, the results, then the statistics (drawn 780 px wide).
    end = [m for m in emu.messages_in(thread) if "The game is over" in m.content][-1]
    assert len(end.attachments) >= 3
    stats = Image.open(io.BytesIO(end.attachments[-1].data))
    assert stats.width == 780 and stats.height > 300
    text = (await answer(w, w.alice, "leaderboard", game="pon")).content
    assert "leaderboard of this server" in text and "alice" in text and "(1 game," in text, text
    mine = await answer(w, w.bob, "stats")
    assert "ratings across servers" in mine.content and mine.attachments, mine.content
    assert Image.open(io.BytesIO(mine.attachments[0].data)).width == 780
    nobody = await answer(w, w.alice, "stats", user=w.mod.id)
    assert "no rated games yet" in nobody.content and not nobody.attachments
    # A store from before ratings (or a crash between the last move and its rating): start-up rates
    # its finished games, to the same ratings.
    await w.bot.store.players.clear_ratings()
    cog = w.bot.get_cog("StatsCog")
    await cog.cog_load()
    await cog.catching_up
    assert await w.bot.store.players.leaderboard("pon", w.guild.id) == board


async def test_ai_seats_are_rated_per_level(table):
    w = table
    w.bot.table.lobbies.new_seed = lambda: 2
    lobby = await open_table(w, w.alice, kind="pon", ai=2, ai_level="easy")
    thread = await start(w, lobby, w.alice)
    await race_to_the_end(w, thread, [0])
    board = await w.bot.store.players.leaderboard("pon", ratings.GLOBAL)
    assert sorted((row[0], row[4]) for row in board) == [(str(w.alice.id), 1), ("ai:easy", 1)]
    text = (await answer(w, w.alice, "leaderboard", game="pon", scope="global")).content
    assert "leaderboard of all servers" in text and "AI (easy)" in text, text
    mine = (await answer(w, w.alice, "stats", game="pon")).content
    assert "Against the AI at PON: easy " in mine, mine  # where alice stands against the level


async def test_an_abandoned_game_is_never_rated(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, w.carol, kind="pon")
    thread = await start(w, lobby, w.alice)
    rec = await emu.slash(w.mod, thread, "game", "abandon")
    await emu.wait_until(lambda: rec.followups)
    assert (await w.bot.store.game(1)).status == "abandoned"
    assert await ratings.catch_up(w.bot.store, w.bot.table.engines) == 0
    assert await w.bot.store.players.leaderboard("pon", ratings.GLOBAL) == []
    text = (await answer(w, w.alice, "leaderboard", game="pon")).content
    assert "No finished games rated yet." in text


# -- each game's end-of-game statistics, from seeded games played to the end -----------------------

GAMES = {  # kind: (options, players, seed)
    "heat": ({"track": "usa"}, 3, 3),
    "pon": ({}, 4, 5),
    "pole": ({"circuit": "monaco", "bots": 2}, 3, 2),
    "rallyman": ({"stage": "Rally4"}, 2, 5),
    "steamworks": ({}, 4, 5),
}
NAMES = ["ゆきこ", "José Müller", "Ωmega", "山田太郎"]


def played(kind: str):
    engine = engines()[kind]
    options, n, seed = GAMES[kind]
    options = engine.validate_options(options, n)
    state, actions = engine.new_game(options, n, seed), []
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        action = engine.auto_action(state, seat)
        actions.append((seat, action))
        state, _ = engine.apply(state, seat, action)
    return engine, options, n, seed, actions, state


def table_of(stats) -> dict[str, list]:
    return {render(r["label"], "en"): r["values"] for r in stats["rows"]}


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_game_has_its_statistics_image_readable_on_a_phone(kind):
    engine, options, n, seed, actions, final = played(kind)
    stats = compute_stats(engine, options, n, seed, actions, final)
    rows = table_of(stats)
    assert all(len(values) == n for values in rows.values())
    assert rows["Final place"] == engine.placings(final)[:n]
    for locale in ("en", "ja"):
        with recording() as texts:
            png = end_stats(engine, options, n, seed, actions, final, NAMES[:n], locale)
        image = Image.open(io.BytesIO(png))
        assert image.width == 780 and len(texts) > 6 * n
        for t in texts:  # at 390 px every text is at least 11 px, and inside the image
            assert t["size"] * PHONE_W / image.width >= MIN_PHONE_TEXT, t
            assert t["box"][0] >= 0 and t["box"][2] <= image.width and t["box"][3] <= image.height, t
        assert not [t["text"] for t in texts if t["text"].endswith("…")]  # every label fits its column
        most = engine.max_seats
        wide = {**stats, "rows": [dict(r, values=(list(r["values"]) * most)[:most]) for r in stats["rows"]]}
        with recording() as texts:  # ... also beside as many seats' columns as the game has
            render_game_stats(wide, list("ABCDEF")[:most], locale)
        assert not [t["text"] for t in texts if t["text"].endswith("…")]
    # a game started under other rules no longer replays: no statistics rather than wrong ones
    assert compute_stats(engine, options, n, seed, actions, {**final, "rules_version": -1}) is None


def test_heat_statistics():
    engine, options, n, seed, actions, final = played("heat")
    rows = table_of(compute_stats(engine, options, n, seed, actions, final))
    for key in ("Heat paid", "Spin-outs", "Boosts", "Slipstreams", "Rounds in the lead", "Average position"):
        assert key in rows
    assert sum(rows["Rounds in the lead"]) == final["round"] - 1 or sum(rows["Rounds in the lead"]) == final["round"]
    assert sum(rows["Spin-outs"]) > 0 and sum(rows["Heat paid"]) > 0  # the seeded race has both
    # every round a car played it played in one gear (or a clogged hand: no gear played)
    played_rounds = [sum(rows[f"Gear {g}"][s] for g in (1, 2, 3, 4)) for s in range(n)]
    assert all(0 < r <= final["round"] for r in played_rounds)
    assert all(top >= mean > 0 for top, mean in zip(rows["Top speed"], rows["Average speed"]))


def test_pon_statistics():
    engine, options, n, seed, actions, final = played("pon")
    rows = table_of(compute_stats(engine, options, n, seed, actions, final))
    assert sum(rows["Overtakes"]) == sum(rows["Overtaken"]) > 0  # no bots: each pass has both sides at the table
    assert sum(rows["Blocks"]) == sum(rows["Blocked"]) > 0
    assert sum(rows["PON sets won"]) > 0


def test_pole_statistics():
    engine, options, n, seed, actions, final = played("pole")
    rows = table_of(compute_stats(engine, options, n, seed, actions, final))
    assert all(0 <= w <= f for w, f in zip(rows["Fights won"], rows["Position fights"]))
    assert sum(rows["Laps led"]) <= final["options"].get("laps", 99)
    assert sum(rows["SP spent"]) > 0 and sum(rows["Pit stops"]) > 0


def test_rallyman_statistics():
    engine, options, n, seed, actions, final = played("rallyman")
    rows = table_of(compute_stats(engine, options, n, seed, actions, final))
    stages = [rows[leg] for leg in final["legs"]]
    assert len(stages) > 1  # a whole rally: one row per stage
    # seed: "各プレイヤーは受け取ったタイムカードに描かれている時間を全て合計し、秒チップの秒数が引かれた数が
    # レースにかかった時間となります。"
    for s in range(n):
        assert rows["Total time (s)"][s] == sum(stage[s] for stage in stages) - rows["Chips kept (s)"][s]
        assert rows["Chips earned (s)"][s] - rows["Chips spent (s)"][s] == rows["Chips kept (s)"][s]
    assert rows["Losses of control"] == [
        a + b + c for a, b, c in zip(rows["Saved by SISU"], rows["Spins"], rows["Crashes"])
    ]


def test_steamworks_statistics():
    engine, options, n, seed, actions, final = played("steamworks")
    rows = table_of(compute_stats(engine, options, n, seed, actions, final))
    # seed: "各時計カウンターは、ゲーム終了時に1勝利点の価値があります。"
    for s in range(n):
        assert rows["Total VP"][s] == (
            rows["Prestige of your devices"][s]
            + rows["Clocks"][s]
            + rows["VP tokens, own turns"][s]
            + rows["VP tokens, owner bonus"][s]
        )
    # seed: "別のプレイヤーが所有するデバイスにメカニックを配置すると、デバイスの所有者は...時計カウンターを1つ...取得します"
    assert sum(rows["Devices borrowed"]) == sum(rows["Your devices borrowed"]) > 0
    assert all(b > 0 for b in rows["Devices built"])


def test_a_line_inside_a_turn_line_and_a_car_a_stand_in_drives_are_counted():
    # Pole tells a whole turn in one line, its parts as parameters; a player's car the bot drives
    # for an absent player is "{p} (bot)": the pass still counts for that seat.
    part = msg("{a} overtakes {d}.", a=msg("{p} (bot)", p=seat_ref(1)), d=seat_ref(0))
    line = Event(msg("{line} {more}", line=msg("{a}.", a="…"), more=part))
    secret = Event(msg("{a} overtakes {d}.", a=seat_ref(0), d=seat_ref(1)), to=0)  # a DM line is not counted
    steps = [({}, 1, {}, {}, [line, secret])]
    assert tally(steps, 2, "{a} overtakes {d}.", "a") == [0, 1]
    assert tally(steps, 2, "{a} overtakes {d}.", "d") == [1, 0]


@pytest.mark.parametrize("games", [0, 1, 40])
def test_the_rating_chart_is_readable_on_a_phone(games):
    points = [(1.5 * k - 3, 1 + k % 4, 4) for k in range(games)]
    for locale in ("en", "ja"):
        with recording() as texts:
            png = render_chart("ゆきこ — Heat: Pedal to the Metal", "rating 12.3 · 40 games · 10 won", points, locale)
        image = Image.open(io.BytesIO(png))
        assert image.width == 780 and texts
        for t in texts:
            assert t["size"] * PHONE_W / image.width >= MIN_PHONE_TEXT, t
            assert t["box"][0] >= 0 and t["box"][2] <= image.width and t["box"][3] <= image.height, t
        ticks = sorted(
            t["box"][1] for t in texts if t["text"].lstrip("-").isdigit() and t["box"][2] <= 90 and t["box"][1] < 430
        )  # the rating axis, left of the plot
        assert all(b - a > 20 for a, b in zip(ticks, ticks[1:]))  # the rating axis' labels never overlap
