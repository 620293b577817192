"""Issue #35: the game-end animation (rendering/animation.py) and the export file (bot/export.py).
An animation keeps every board in order, fits Discord's 10 MiB by drawing smaller and then dropping
frames (never the first or the last); an export that is not one, or that would not replay, is
refused with a clear word."""

from __future__ import annotations

import io
import json
import random

import pytest
from PIL import Image

from bot import export
from bot.tools.bench import images as bench_images
from bot.games.registry import engines
from rendering import animation

ENGINES = engines()


def board(colour: tuple[int, int, int], size=(200, 120), mark: int = 0, detail: bool = False) -> bytes:
    im = Image.new("RGB", size, (240, 240, 235))
    if detail:  # fine detail (like a board's text) that costs bytes in proportion to its area
        # (8 levels a channel: as costly to store as any noise, and few colours for GIF's palette
        # look-ups, which full RGB noise made most of this file's CPU)
        noise = bytes(b & 0xE0 for b in random.Random(mark).randbytes(3 * (size[0] - 120) * (size[1] - 80)))
        im.paste(Image.frombytes("RGB", (size[0] - 120, size[1] - 80), noise), (110, 70))
    im.paste(colour, (10 + mark * 3, 10, 60 + mark * 3, 60))
    out = io.BytesIO()
    im.save(out, "PNG")
    return out.getvalue()


def frames_of(data: bytes) -> list[Image.Image]:
    im = Image.open(io.BytesIO(data))
    out = []
    for i in range(im.n_frames):
        im.seek(i)
        out.append(im.convert("RGB").copy())
    return out


def test_every_board_is_a_frame_in_order_on_one_canvas():
    boards = [board((200, 0, 0)), board((0, 150, 0), (200, 160)), board((0, 0, 200), mark=5)]
    made = animation.animate(boards)
    assert made is not None and made.format == "gif" and made.frames == 3 and made.size == (200, 160)
    frames = frames_of(made.data)
    assert [f.getpixel((30, 30)) for f in frames] == [(200, 0, 0), (0, 150, 0), (0, 0, 200)]
    assert frames[0].getpixel((100, 150)) == (240, 240, 235)  # a shorter board: its own colour below it
    gif = Image.open(io.BytesIO(made.data))
    durations = []
    for i in range(gif.n_frames):
        gif.seek(i)
        durations.append(gif.info["duration"])
    assert durations == [animation.FIRST_MS, animation.FRAME_MS, animation.LAST_MS]  # the end stays longest


def test_only_a_format_that_cannot_fit_one_frame_gives_way_to_the_next(monkeypatch):
    boards = [board((i * 12 % 256, 200, 40), (400, 300), mark=i) for i in range(20)]
    gif = animation.animate(boards)
    assert gif is not None and gif.format == "gif" and gif.size == (400, 300) and gif.frames == 20
    fewer = animation.animate(boards, limit=len(gif.data) - 1)  # a GIF with fewer frames first
    assert fewer is not None and fewer.format == "gif" and fewer.frames < 20
    monkeypatch.setattr(animation, "encode_gif", lambda frames, scale=1.0: b"x" * (animation.LIMIT + 1))
    other = animation.animate(boards)  # no GIF fits at all: the WebP, every frame, full size
    assert other is not None and other.format == "webp" and other.size == (400, 300) and other.frames == 20


def test_webp_on_request_keeps_every_colour():
    boards = [board((200, 10, 30)), board((10, 150, 90), mark=2)]
    made = animation.animate(boards, formats=("webp",))
    assert made is not None and made.format == "webp"
    frames = frames_of(made.data)
    assert [f.getpixel((30, 30)) for f in frames] == [(200, 10, 30), (10, 150, 90)]  # lossless


def test_too_big_is_drawn_smaller_then_thinned_keeping_the_first_and_last():
    n = 12  # (frames enough to thin; each one more is a tenth of a second to encode, several times over)
    boards = [board((i * 12 % 256, 255 - i * 7 % 256, i * 31 % 256), (260, 190), mark=i, detail=True) for i in range(n)]
    full = animation.animate(boards)
    assert full is not None and full.frames == n
    smaller = animation.animate(boards, limit=len(full.data) - 1, formats=("gif",))
    assert smaller is not None and len(smaller.data) < len(full.data)
    assert smaller.size[0] < 260 and smaller.frames == n  # smaller first, every frame kept
    tiny = animation.animate(boards, limit=len(full.data) // 6, formats=("gif",))
    assert tiny is not None and len(tiny.data) <= len(full.data) // 6 and tiny.frames < n
    first, *_, last = frames_of(tiny.data)
    sx = tiny.size[0] / 260
    assert first.getpixel((int(30 * sx), int(30 * sx))) == pytest.approx((0, 255, 0), abs=40)
    k = n - 1
    assert last.getpixel((int((35 + k * 3) * sx), int(35 * sx))) == pytest.approx(
        (k * 12 % 256, 255 - k * 7 % 256, k * 31 % 256), abs=40
    )
    alone = animation.encode_gif(animation.Boards(boards[1:2]), 0.5)
    last_only = animation.animate(boards[:2], limit=len(alone) + 10, formats=("gif",))
    assert last_only is not None and last_only.frames == 1  # two that do not fit: the final board
    assert animation.animate(boards[:3], limit=100) is None  # nothing fits: no animation, no error
    assert animation.animate([]) is None


def test_thinning_spreads_evenly_and_keeps_both_ends():
    assert animation.thin(list(range(10)), 4) == [0, 3, 6, 9]
    assert animation.thin(list(range(3)), 5) == [0, 1, 2]
    assert animation.halve(list(range(6))) == [0, 2, 4, 5]
    assert animation.halve(list(range(5))) == [0, 2, 4]
    assert animation.halve(list(range(3))) == [0, 2]


def played(kind: str, seats: int, seed: int = 3):
    engine, options, _, actions, state = bench_images.played(kind, seats, seed)
    return engine, options, state, actions


def doc_for(kind: str = "rallyman") -> tuple[dict, object]:
    from types import SimpleNamespace

    engine, options, state, actions = played(kind, 2)
    seats = [SimpleNamespace(seat=i, name=n, ai=None) for i, n in enumerate(("Aiko", "Ben"))]
    game = SimpleNamespace(
        kind=kind, id=7, status="finished", options=options, seed=3, locale=None, snapshot=state, seats=seats
    )
    return json.loads(export.dumps(export.export_doc(engine, game, actions))), state


def test_an_export_loads_back_and_replays_to_its_final_state():
    doc, final = doc_for()
    loaded = export.load(json.dumps(doc), ENGINES)
    assert loaded.names == ["Aiko", "Ben"] and loaded.final == export.digest(final)
    states, whole = export.turn_starts(ENGINES["rallyman"], loaded.options, 2, loaded.seed, loaded.actions)
    assert whole and states[-1] == final


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: "not json {", "not JSON"),
        (lambda d: {**d, "format": "other"}, "not a game export"),
        (lambda d: {**d, "format_version": 99}, "format version 99"),
        (lambda d: {**d, "game": "chess"}, "unknown game 'chess'"),
        (lambda d: {**d, "rules_version": d["rules_version"] + 1}, "would not replay the same"),
        (lambda d: {**d, "seed": "3"}, '"seed" should be an integer'),
        (lambda d: {**d, "actions": [[0, "go"]]}, "[seat, action] pairs"),
        (lambda d: {**d, "seats": d["seats"] * 6}, "12 seats; rallyman seats"),
        (lambda d: {**d, "options": []}, '"options" should be an object'),
    ],
)
def test_a_bad_file_is_refused_with_a_clear_word(change, words):
    doc, _ = doc_for()
    bad = change(doc)
    with pytest.raises(export.ExportError, match=None) as err:
        export.load(bad if isinstance(bad, str) else json.dumps(bad), ENGINES)
    assert words in str(err.value)


def test_the_replay_command_refuses_a_log_that_does_not_reach_the_final_state(tmp_path, capsys):
    doc, _ = doc_for()
    doc["actions"] = doc["actions"][:-1]  # a move lost on the way
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    assert export.main([str(path)]) == 2
    assert "does not replay to the game's final state" in capsys.readouterr().err
    assert not (tmp_path / "game").exists()  # nothing drawn
    assert export.main([str(path), "--format", "png"]) == 2
    assert "--format is gif or webp" in capsys.readouterr().err


def test_many_turns_animate_one_frame_per_round():
    engine, options, state, actions = played("pole", 3)
    turns, _ = export.turn_starts(engine, options, 3, 3, actions)
    frames, whole = export.frame_states(engine, options, 3, 3, actions)
    assert len(turns) > export.TURN_FRAMES and whole
    assert 8 <= len(frames) < len(turns) and frames[0] == turns[0] and frames[-1] == state


@pytest.mark.parametrize("kind", sorted(ENGINES))
def test_boards_are_webp_where_smaller_and_not_slower_else_png(kind):
    """Measured by bot/tools/bench/images.py: Pole's and Rallyman's boards are lossless WebP, the
    others PNG; either way a lossless copy of the drawn board, named by its format."""
    import importlib

    seats = max(2, ENGINES[kind].min_seats)
    engine, options, state, _ = played(kind, seats)
    data = importlib.import_module(f"rendering.{kind}").render_board(
        engine.view(state, None), list("ABCD")[:seats], "en"
    )
    want = "webp" if kind in animation.WEBP_BOARDS else "png"
    assert animation.extension(data) == want and Image.open(io.BytesIO(data)).format == want.upper()


def test_a_lossless_webp_keeps_every_pixel():
    im = Image.open(io.BytesIO(board((12, 34, 56), (300, 200), mark=3, detail=True))).convert("RGB")
    again = Image.open(io.BytesIO(animation.lossless_webp(im))).convert("RGB")
    assert again.tobytes() == im.tobytes()
    assert animation.extension(b"GIF89a....") == "gif" and animation.extension(b"\x89PNG\r\n") == "png"
