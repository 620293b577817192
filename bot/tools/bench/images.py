"""`python -m bot.tools.bench.images`: board images as PNG (as the renderers write them) against lossless
WebP, and the game-end animation, per game; one figure per line as `name: value unit`.

Boards come from one seeded game per kind played to the end by the automatic player (3 seats, or
the most the game seats), up to BOARDS of its turns spread over the game. For each format: the
mean bytes of a board, the encode CPU time (the renderer's own PNG settings; lossless WebP at three
efforts) and the decode CPU time (a stand-in for the reader's device). Then the animation the
thread would get (GIF) and the WebP one, their bytes, frames and the time to replay, draw and
encode them; and how long the event loop stalls while an animation is drawn in a thread or in the
animator's worker process (a 5 ms ticker's worst lateness).

  python -m bot.tools.bench.images [--only heat,pon] [--boards N] [--no-animation] [--no-stall]
"""

from __future__ import annotations

import asyncio
import io
import statistics
import sys
import time
from typing import Any

from PIL import Image

from bot.tools.bench.figures import emit, pct

BOARDS = 24
SEED = 7
WEBP_SETTINGS = {
    "webp_m0": {"lossless": True, "method": 0, "quality": 0},  # the fastest lossless WebP
    "webp": {"lossless": True, "method": 1, "quality": 20},  # the animation's (rendering/animation.py)
    "webp_m4": {"lossless": True, "method": 4, "quality": 50},
}  # libwebp's default effort


def played(kind: str, seats: int | None = None, seed: int = SEED) -> tuple[Any, dict, int, list, dict]:
    """A seeded game played to the end by the automatic player: engine, options, seats, action log
    and final state (also the animation tests' games)."""
    from bot.games.registry import engines

    engine = engines()[kind]
    seats = seats or min(3, engine.max_seats)
    options = engine.validate_options({}, seats)
    state = engine.new_game(options, seats, seed)
    actions = []
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        action = engine.auto_action(state, seat)
        state, _ = engine.apply(state, seat, action)
        actions.append((seat, action))
    return engine, options, seats, actions, state


def encode(image: Image.Image, fmt: str) -> bytes:
    out = io.BytesIO()
    if fmt == "png":
        image.save(out, "PNG", compress_level=3)  # rendering.common.png_bytes
    else:
        image.save(out, "WEBP", **WEBP_SETTINGS[fmt])
    return out.getvalue()


def timed(fn, *args, repeat: int = 3) -> tuple[Any, float]:
    """The call's result and its least CPU time of `repeat` runs: encoders run on one thread, and a
    machine shared with other work inflates wall-clock times by several times."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        result = fn(*args)
        best = min(best, time.process_time() - start)
    return result, best


def boards_of(kind: str, count: int) -> list[Image.Image]:
    from bot import export
    from rendering import animation

    engine, options, seats, actions, _ = played(kind)
    states, _ = export.turn_starts(engine, options, seats, SEED, actions)
    names = ["Alice", "Bob", "Chie"][:seats]
    return [
        Image.open(io.BytesIO(export.board_image(kind, engine, s, names, "en"))) for s in animation.thin(states, count)
    ]


def still_figures(kind: str, count: int) -> None:
    images = boards_of(kind, count)
    for im in images:
        im.load()
    sizes: dict[str, list[int]] = {}
    for fmt in ("png", *WEBP_SETTINGS):
        size, enc, dec = [], [], []
        for im in images:
            data, seconds = timed(encode, im, fmt)
            size.append(len(data))
            enc.append(seconds * 1000)
            _, seconds = timed(lambda d: Image.open(io.BytesIO(d)).load(), data)
            dec.append(seconds * 1000)
        sizes[fmt] = size
        emit(f"board_{kind}_{fmt}_bytes_mean", round(statistics.mean(size)), "B")
        emit(f"board_{kind}_{fmt}_encode_p50", statistics.median(enc), "ms")
        emit(f"board_{kind}_{fmt}_encode_p95", pct(enc, 95), "ms")
        emit(f"board_{kind}_{fmt}_decode_p50", statistics.median(dec), "ms")
    for fmt in WEBP_SETTINGS:
        emit(f"board_{kind}_{fmt}_vs_png", 100 * sum(sizes[fmt]) / sum(sizes["png"]), "%")


def animation_figures(kind: str) -> None:
    from bot import export

    engine, options, seats, actions, _ = played(kind)
    names = ["Alice", "Bob", "Chie"][:seats]
    for fmt in ("gif", "webp"):
        cpu = time.process_time()
        drawn = export.animation(kind, options, seats, SEED, actions, names, "en", (fmt,))
        cpu = time.process_time() - cpu
        assert drawn is not None
        emit(f"animation_{kind}_{fmt}_bytes", len(drawn.data), "B")
        emit(f"animation_{kind}_{fmt}_frames", drawn.frames, "frames")
        emit(f"animation_{kind}_{fmt}_seconds", drawn.seconds, "s")  # wall clock: replay, draw, encode
        emit(f"animation_{kind}_{fmt}_cpu", cpu, "s")
        if fmt == "gif":
            emit(f"animation_{kind}_boards", drawn.boards, "boards")
            emit(f"animation_{kind}_width", drawn.size[0], "px")


async def stall(kind: str) -> None:
    """How late a 5 ms ticker on the event loop runs while one animation is drawn: in a thread
    (asyncio.to_thread) and in the animator's worker process (the bot's way), against the same
    ticker while the loop only waits as long (a busy machine makes the loop late by itself)."""
    from bot import export

    engine, options, seats, actions, _ = played(kind)
    names = ["Alice", "Bob", "Chie"][:seats]
    animator = export.Animator()
    await animator.draw(kind, *export.frame_states(engine, options, seats, SEED, actions[:1]), names, "en")

    async def the_bots_way() -> None:  # the log replayed in a thread (with the statistics), drawn in the worker
        states, whole = await asyncio.to_thread(export.frame_states, engine, options, seats, SEED, actions)
        await animator.draw(kind, states, whole, names, "en")

    async def lateness(work) -> tuple[list[float], float]:
        late: list[float] = []
        done = asyncio.Event()

        async def ticker() -> None:
            while not done.is_set():
                start = time.perf_counter()
                await asyncio.sleep(0.005)
                late.append((time.perf_counter() - start - 0.005) * 1000)

        tick = asyncio.create_task(ticker())
        started = time.perf_counter()
        await work()
        seconds = time.perf_counter() - started
        done.set()
        await tick
        return late, seconds

    thread, seconds = await lateness(
        lambda: asyncio.to_thread(export.animation, kind, options, seats, SEED, actions, names, "en")
    )
    process, _ = await lateness(the_bots_way)
    idle, _ = await lateness(lambda: asyncio.sleep(seconds))
    animator.close()
    for name, late in (("idle", idle), ("thread", thread), ("process", process)):
        emit(f"stall_{kind}_{name}_p95", pct(late, 95), "ms")
        emit(f"stall_{kind}_{name}_max", max(late), "ms")
        emit(f"stall_{kind}_{name}_ticks", len(late), "ticks")


def main(argv: list[str]) -> int:
    from bot.games.registry import engines

    kinds = sorted(engines())
    args = list(argv)
    count = BOARDS
    if "--only" in args:
        kinds = args[args.index("--only") + 1].split(",")
    if "--boards" in args:
        count = int(args[args.index("--boards") + 1])
    for kind in kinds:
        still_figures(kind, count)
        if "--no-animation" not in args:
            animation_figures(kind)
        if "--no-stall" not in args:
            asyncio.run(stall(kind))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
