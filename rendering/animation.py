"""A finished game's boards as one animated image (pure Pillow): one frame per round or turn, the
boards the thread showed, for the game-end post and `python -m bot replay`.

Discord takes at most 10 MiB. Boards differ in height from turn to turn, so each frame is laid on
a canvas as large as the largest board (the board's own corner colour around it). Formats are tried
in the caller's order of preference, the first that fits wins: a GIF animates in every Discord
client, phones included, while animated WebP attachments came to the desktop clients first (Discord's
media service, lilliput issue #159, 2024); a lossless WebP is about half the GIF's bytes and keeps every
colour (measured per game: `python -m bot.bench_images`). An image over the budget is drawn smaller, then
with every other frame dropped (the first and last are always kept), until it fits."""
from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

LIMIT = 10 * 1024 * 1024 - 64 * 1024  # Discord's 10 MiB upload, less room for the message around it
FRAME_MS = 800  # each round or turn on screen (designed: long enough to see who moved)
FIRST_MS = 1500  # the starting grid
LAST_MS = 5000  # the final board stays before the loop starts again
MAX_FRAMES = 150  # more turns than this are thinned (the first and last kept) before encoding
SCALES = (1.0, 0.75, 0.5)  # sizes tried, largest first, before frames are dropped
# Lossless WebP: method 1 with a low effort is within a fifth of method 4's bytes at a third of its time,
# and lossy WebP (quality 70-85) was larger and slower on boards of flat colours and text.
WEBP_METHOD, WEBP_EFFORT = 1, 20
FORMATS = ("gif", "webp")  # the thread's preference: every client animates a GIF
# Still boards in lossless WebP (issue #35, `python -m bot.bench_images`, median CPU time per board):
# Pole and Rallyman boards are 39% of their PNG's bytes (25 KB against 64, 28 against 73) and encode
# no slower (10-12 ms against 12-14), decode faster too: smaller and not slower. Heat, PON and Steam
# Works save 13-17 KB (71-77% of the bytes) but take 13-16 ms against their palette PNGs' 3-4 ms, more
# than the ~13 KB saved takes to upload on a server's link: they stay PNG.
WEBP_BOARDS = ("pole", "rallyman")
GIF_SAMPLES = 6  # frames whose colours make the GIF's one palette


@dataclass
class Animation:
    data: bytes
    format: str  # "webp" or "gif"
    frames: int  # frames kept
    size: tuple[int, int]  # width, height

    @property
    def extension(self) -> str:
        return self.format


def thin(items: Sequence, most: int) -> list:
    """At most `most` of `items`, evenly spread, always keeping the first and the last."""
    n = len(items)
    if n <= most:
        return list(items)
    if most < 2:
        return [items[-1]]
    picks = sorted({round(i * (n - 1) / (most - 1)) for i in range(most)})
    return [items[i] for i in picks]


def halve(items: Sequence) -> list:
    """Every other item, keeping the first and the last."""
    kept = list(items[::2])
    if len(items) > 1 and (len(items) - 1) % 2:
        kept.append(items[-1])
    return kept


def canvas(images: list[Image.Image]) -> list[Image.Image]:
    """Every board on a canvas of the largest one's size, centred across, from the top, the board's
    own top-left colour around it (boards are drawn on a flat background)."""
    width = max(im.width for im in images)
    height = max(im.height for im in images)
    out = []
    for im in images:
        im = im.convert("RGB")
        if im.size == (width, height):
            out.append(im)
            continue
        frame = Image.new("RGB", (width, height), im.getpixel((0, 0)))  # type: ignore[arg-type]
        frame.paste(im, ((width - im.width) // 2, 0))
        out.append(frame)
    return out


def lossless_webp(image: Image.Image) -> bytes:
    """A still board as a lossless WebP, at the effort the animation uses."""
    out = io.BytesIO()
    image.save(out, format="WEBP", lossless=True, quality=WEBP_EFFORT, method=WEBP_METHOD)
    return out.getvalue()


def extension(data: bytes) -> str:
    """An image's file extension from its first bytes: webp, gif, else png (Discord picks how to
    show an attachment by its name)."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data[:4] == b"GIF8":
        return "gif"
    return "png"


def durations(n: int) -> list[int]:
    if n == 1:
        return [LAST_MS]
    return [FIRST_MS, *([FRAME_MS] * (n - 2)), LAST_MS]


def encode_webp(frames: list[Image.Image]) -> bytes:
    out = io.BytesIO()
    frames[0].save(out, format="WEBP", save_all=True, append_images=frames[1:], duration=durations(len(frames)),
                   loop=0, lossless=True, quality=WEBP_EFFORT, method=WEBP_METHOD)
    return out.getvalue()


def encode_gif(frames: list[Image.Image]) -> bytes:
    out = io.BytesIO()
    # One palette for the whole animation, from the colours of a few boards spread over the game (a
    # colour that shows up late still gets its entry), so unchanged areas stay identical from frame
    # to frame and Pillow stores only the part of each frame that changed.
    samples = thin(frames, GIF_SAMPLES)
    sheet = Image.new("RGB", (frames[0].width, frames[0].height * len(samples)))
    for i, f in enumerate(samples):
        sheet.paste(f, (0, i * f.height))
    palette = sheet.quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    paletted = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    paletted[0].save(out, format="GIF", save_all=True, append_images=paletted[1:], duration=durations(len(frames)),
                     loop=0, optimize=False, disposal=1)
    return out.getvalue()


def scaled(frames: list[Image.Image], scale: float) -> list[Image.Image]:
    if scale == 1.0:
        return frames
    size = (max(1, round(frames[0].width * scale)), max(1, round(frames[0].height * scale)))
    return [f.resize(size, Image.Resampling.LANCZOS) for f in frames]


def animate(boards: Sequence[bytes], limit: int = LIMIT, formats: Sequence[str] = FORMATS,
            max_frames: int = MAX_FRAMES) -> Animation | None:
    """The boards (PNG or any image bytes, in order) as one looping animation of at most `limit`
    bytes: the largest scale and most frames at which one of `formats` fits, the first of them
    that does; None when there are no boards or even one frame at the smallest scale is too big."""
    if not boards:
        return None
    frames = canvas([Image.open(io.BytesIO(b)) for b in thin(boards, max_frames)])
    encoders = {"webp": encode_webp, "gif": encode_gif}
    while True:
        for scale in SCALES:
            frames_now = scaled(frames, scale)
            for fmt in formats:
                data = encoders[fmt](frames_now)
                if len(data) <= limit:
                    return Animation(data, fmt, len(frames_now), frames_now[0].size)
        if len(frames) == 1:
            return None
        # Every other frame, the first and last kept; two frames that do not fit: the final board alone.
        frames = halve(frames) if len(frames) > 2 else frames[-1:]
