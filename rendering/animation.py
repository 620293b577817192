"""A finished game's boards as one animated image (pure Pillow): one frame per round or turn, the
boards the thread showed, for the game-end post and `python -m bot replay`.

Discord takes at most 10 MiB. Boards differ in height from turn to turn, so each frame is laid on
a canvas as large as the largest board (the board's own corner colour around it). Formats are tried
in the caller's order of preference, the first that fits wins: a GIF animates in every Discord
client, phones included, while animated WebP attachments came to the desktop clients first (Discord's
media service, lilliput issue #159, 2024); a lossless WebP is about half the GIF's bytes and keeps every
colour (measured per game: `python -m bot.tools.bench.images`). An image over the budget is drawn at half size,
then with every other frame dropped (the first and last are always kept), until it fits; only a
format that cannot fit even one frame gives way to the next. (Half size helps little: resampling
blurs every edge of text and lines, and a board at 3/4 size was measured larger than at full size.)"""

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
SCALES = (1.0, 0.5)  # sizes tried before frames are dropped
# Lossless WebP: method 1 with a low effort is within a fifth of method 4's bytes at a third of its time,
# and lossy WebP (quality 70-85) was larger and slower on boards of flat colours and text.
WEBP_METHOD, WEBP_EFFORT = 1, 20
FORMATS = ("gif", "webp")  # the thread's preference: every client animates a GIF
# Still boards in lossless WebP (issue #35, `python -m bot.tools.bench.images`, median CPU time per board):
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


class Boards:
    """The boards to animate, kept as their compressed bytes (a tenth of a drawn frame's memory); each
    frame is drawn when an encoder takes it. Every board goes on a canvas of the largest one's size,
    centred across, from the top, its own top-left colour around it (boards have flat backgrounds)."""

    def __init__(self, data: Sequence[bytes], size: tuple[int, int] | None = None) -> None:
        self.data = list(data)
        if size is None:
            sizes = [Image.open(io.BytesIO(b)).size for b in self.data]  # reads the headers only
            size = (max(w for w, _ in sizes), max(h for _, h in sizes))
        self.size = size

    def __len__(self) -> int:
        return len(self.data)

    def halved(self) -> "Boards":
        """Every other board (the first and last kept); two: the final board alone. Same canvas."""
        return Boards(halve(self.data) if len(self.data) > 2 else self.data[-1:], self.size)

    def scaled_size(self, scale: float) -> tuple[int, int]:
        return max(1, round(self.size[0] * scale)), max(1, round(self.size[1] * scale))

    def frame(self, i: int, scale: float = 1.0) -> Image.Image:
        im = Image.open(io.BytesIO(self.data[i])).convert("RGB")
        if im.size != self.size:
            frame = Image.new("RGB", self.size, im.getpixel((0, 0)))
            frame.paste(im, ((self.size[0] - im.width) // 2, 0))
            im = frame
        return im if scale == 1.0 else im.resize(self.scaled_size(scale), Image.Resampling.LANCZOS)


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


def encode_webp(boards: Boards, scale: float = 1.0) -> bytes:
    frames = [boards.frame(i, scale) for i in range(len(boards))]
    out = io.BytesIO()
    frames[0].save(
        out,
        format="WEBP",
        save_all=True,
        append_images=frames[1:],
        duration=durations(len(frames)),
        loop=0,
        lossless=True,
        quality=WEBP_EFFORT,
        method=WEBP_METHOD,
    )
    return out.getvalue()


def encode_gif(boards: Boards, scale: float = 1.0) -> bytes:
    # One palette for the whole animation, from the colours of a few boards spread over the game (a
    # colour that shows up late still gets its entry), so unchanged areas stay identical from frame
    # to frame and Pillow stores only the part of each frame that changed. Frames are held as
    # palette images only (one byte a pixel).
    picks = thin(range(len(boards)), GIF_SAMPLES)
    width, height = boards.scaled_size(scale)
    sheet = Image.new("RGB", (width, height * len(picks)))
    for k, i in enumerate(picks):
        sheet.paste(boards.frame(i, scale), (0, k * height))
    palette = sheet.quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    del sheet
    paletted = [boards.frame(i, scale).quantize(palette=palette, dither=Image.Dither.NONE) for i in range(len(boards))]
    out = io.BytesIO()
    paletted[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=paletted[1:],
        duration=durations(len(paletted)),
        loop=0,
        optimize=False,
        disposal=1,
    )
    return out.getvalue()


def animate(
    boards: Sequence[bytes], limit: int = LIMIT, formats: Sequence[str] = FORMATS, max_frames: int = MAX_FRAMES
) -> Animation | None:
    """The boards (PNG or any image bytes, in order) as one looping animation of at most `limit`
    bytes, in the first of `formats` that fits: at full size, else half size, else with every
    other frame dropped, and so on; None when there are no boards or not even the final board at
    half size fits."""
    if not boards:
        return None
    first = Boards(thin(boards, max_frames))
    encoders = {"webp": encode_webp, "gif": encode_gif}
    for fmt in formats:  # a GIF with fewer frames before a WebP with all: every phone animates a GIF
        frames = first
        while True:
            for scale in SCALES:
                data = encoders[fmt](frames, scale)
                if len(data) <= limit:
                    return Animation(data, fmt, len(frames), frames.scaled_size(scale))
            if len(frames) == 1:
                break
            frames = frames.halved()  # every other frame, the first and last kept; of two, the final board
    return None
