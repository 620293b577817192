"""Issue #35: when a game ends its thread gets the whole game as one animation, after the final
post; `/game export` hands anyone the finished game as a JSON file; `python -m bot replay FILE`
draws its boards again, and its log replays to the very state the bot stored."""

from __future__ import annotations

import io
import json

from PIL import Image

from bot import export
from bot.games.base import replay
from bot.games.registry import engines

from bot.tools.emulator.tables import open_table, start

ENGINES = engines()
LIMIT = 10 * 1024 * 1024  # Discord's upload limit


async def finish_by_automatic_players(w, kind: str, seats: int, **options):
    """A game of `kind` played to the end by the automatic player in every seat, through the
    bot's own commit path; returns its thread."""
    emu = w.emu
    users = (w.alice, w.bob, w.carol)[:seats]
    lobby = await open_table(w, *users, kind=kind, **options)
    thread = await start(w, lobby, w.alice)
    for seat in range(seats):
        await w.bot.store.clocks.set_auto(1, seat, True)
    w.bot.table.autoplayer.soon(1)
    await emu.wait_until(lambda: any("The game is over" in m.content for m in emu.messages_in(thread)), timeout=120)
    return thread


def animation_post(emu, thread):
    return [m for m in emu.messages_in(thread) if m.attachments and "-replay." in m.attachments[0].filename]


async def test_a_finished_game_posts_its_animation_and_exports_a_file_that_replays(table, tmp_path):
    w, emu = table, table.emu
    w.bot.table.lobbies.new_seed = lambda: 4
    thread = await finish_by_automatic_players(w, "rallyman", 2)
    game = await w.bot.store.game(1)
    assert game.status == "finished"

    # the animation: after the final post, one GIF (every client animates it) under Discord's limit,
    # one frame per turn as /game replay shows them
    post = (await emu.wait_until(lambda: animation_post(emu, thread), timeout=60))[0]
    messages = emu.messages_in(thread)
    over = [i for i, m in enumerate(messages) if "The game is over" in m.content][-1]
    assert messages.index(post) > over
    data = post.attachments[0].data
    assert post.attachments[0].filename == "rallyman-1-replay.gif"
    assert data.startswith(b"GIF8") and len(data) <= LIMIT
    assert post.content.startswith("**Rallyman: DIRT #1** from start to finish")
    engine = ENGINES["rallyman"]
    actions = await w.bot.store.actions(1)
    boards, whole = export.turn_starts(engine, game.options, 2, game.seed, actions)
    gif = Image.open(io.BytesIO(data))
    assert whole and gif.n_frames == len(boards) > 5

    # a game that does not exist cannot be exported
    rec = await emu.slash(w.carol, w.general, "game", "export", game=2)
    await emu.wait_until(lambda: rec.followups)
    assert "find that game" in rec.followups[0].content

    # /game export, by someone who did not play: a JSON file, only to them
    rec = await emu.slash(w.carol, thread, "game", "export")
    shown = (await emu.wait_until(lambda: rec.followups))[0]
    assert shown.ephemeral and shown.attachments[0].filename == "rallyman-1.json"
    doc = json.loads(shown.attachments[0].data)
    assert doc["game"] == "rallyman" and doc["seed"] == 4 and doc["options"] == game.options
    assert [s["name"] for s in doc["seats"]] == [s.name for s in game.seats]
    assert doc["rules_version"] == engine.rules_version and len(doc["actions"]) == len(actions)
    assert str(w.alice.id) not in json.dumps(doc)  # names only, no Discord ids

    # the round trip: the file's log replays to the state the bot stored ...
    loaded = export.load(shown.attachments[0].data, ENGINES)
    assert replay(engine, loaded.options, len(loaded.names), loaded.seed, loaded.actions) == game.snapshot
    # ... and `python -m bot replay FILE` draws one board per turn (the same as /game replay)
    path = tmp_path / "rallyman-1.json"
    path.write_bytes(shown.attachments[0].data)
    assert export.main([str(path)]) == 0
    drawn = sorted((tmp_path / "rallyman-1").glob("board-*"))
    assert len(drawn) == len(boards) and drawn[0].name == "board-001.webp"  # Rallyman boards are WebP
    assert drawn[-1].read_bytes() == export.board_image("rallyman", engine, game.snapshot, loaded.names, "en")
    # ... or the animation, as WebP on request
    assert export.main([str(path), "--format", "webp", "--out", str(tmp_path / "anim")]) == 0
    webp = Image.open(tmp_path / "anim.webp")
    assert webp.format == "WEBP" and webp.n_frames == len(boards)


async def test_a_running_game_is_not_exported(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, kind="rallyman")
    thread = await start(w, lobby, w.alice)
    rec = await emu.slash(w.alice, thread, "game", "export")
    await emu.wait_until(lambda: rec.followups)
    assert "Only a finished game can be exported" in rec.followups[0].content
    assert not rec.followups[0].attachments
