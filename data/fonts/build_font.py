"""Rebuild data/fonts/NotoSansJP-*.subset.ttf from the full Noto Sans JP TTFs.

Build-time only (needs fontTools: `pip install fonttools`); the bot reads the result with Pillow.

    python data/fonts/build_font.py path/to/NotoSansJP_400Regular.ttf [path/to/NotoSansJP_700Bold.ttf]

The full fonts come from the npm package @expo-google-fonts/noto-sans-jp (`npm pack
@expo-google-fonts/noto-sans-jp`, files 400Regular/… and 700Bold/… in the .tgz). The kept
characters are listed in data/fonts/README.md; kanji appearing in extra text files can be added
with --text FILE (repeatable).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

OUT = Path(__file__).resolve().parent  # data/fonts
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"  # beside the checkout; only for this build

RANGES = [
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x00FF),  # Latin-1 Supplement
    (0x0100, 0x017F),  # Latin Extended-A
    (0x0300, 0x036F),  # combining diacritics (for decomposed input)
    (0x2000, 0x206F),  # General Punctuation (— – ’ … · etc.)
    (0x20A0, 0x20BF),  # currency symbols
    (0x2100, 0x214F),  # letterlike symbols
    (0x2190, 0x21FF),  # arrows (→)
    (0x2200, 0x22FF),  # math operators
    (0x2460, 0x24FF),  # enclosed alphanumerics (①)
    (0x2500, 0x257F),  # box drawing
    (0x25A0, 0x25FF),  # geometric shapes (● ■ ▲)
    (0x2600, 0x26FF),  # misc symbols (★ ☆)
    (0x2700, 0x27BF),  # dingbats (✓ ✗)
    (0x2F00, 0x2FDF),  # Kangxi radicals (text copied from PDFs uses them for kanji)
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x3040, 0x309F),  # Hiragana
    (0x30A0, 0x30FF),  # Katakana
    (0x31F0, 0x31FF),  # Katakana phonetic extensions
    (0xFF00, 0xFFEF),  # half-width and full-width forms
]
# Jōyō kanji (2010 list) whose standard form is outside JIS X 0208.
JOYO_OUTSIDE_JIS = "𠮟塡剝頰"


def jis_x_0208() -> set[str]:
    """Every character of JIS X 0208 (symbols, kana, level 1 and level 2 kanji), via EUC-JP."""
    chars = set()
    for row in range(1, 95):
        for cell in range(1, 95):
            try:
                chars.add(bytes([0xA0 + row, 0xA0 + cell]).decode("euc_jp"))
            except UnicodeDecodeError:
                pass
    return chars


def wanted(texts: list[Path]) -> set[int]:
    cps = {cp for lo, hi in RANGES for cp in range(lo, hi + 1)}
    cps |= {ord(c) for c in jis_x_0208() | set(JOYO_OUTSIDE_JIS)}
    han = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\U00020000-\U0003ffff]")
    for path in texts:
        cps |= {ord(c) for c in han.findall(path.read_text("utf-8", errors="replace"))}
    return cps


def build(src: Path, dst: Path, cps: set[int]) -> None:
    opts = subset.Options()
    opts.layout_features = ["kern", "palt", "liga", "locl", "ccmp", "mark", "mkmk", "vert"]
    opts.name_IDs = ["*"]
    opts.name_languages = ["*"]
    opts.notdef_outline = True
    opts.hinting = False
    opts.drop_tables += ["vhea", "vmtx", "BASE", "STAT"]
    font = TTFont(src)
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=cps)
    sub.subset(font)
    font.save(dst)
    print(f"{dst.name}: {len(font.getBestCmap())} characters, {dst.stat().st_size:,} bytes")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("fonts", nargs="+", type=Path)
    ap.add_argument("--text", action="append", type=Path, default=[])
    args = ap.parse_args()
    texts = list(args.text) + (sorted(SEEDS.glob("*.txt")) if SEEDS.is_dir() else [])
    cps = wanted(texts)
    OUT.mkdir(parents=True, exist_ok=True)
    for src in args.fonts:
        weight = "Bold" if "Bold" in src.name else "Regular"
        build(src, OUT / f"NotoSansJP-{weight}.subset.ttf", cps)


if __name__ == "__main__":
    sys.exit(main())
