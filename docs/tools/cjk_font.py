#!/usr/bin/env python3
"""The book's Chinese, in a font that travels with it: every CJK character used by the book's
sources is cut out of WenQuanYi Micro Hei (Debian package fonts-wqy-microhei) into one small WOFF
file, which impulse.css loads as "impulse CJK" ahead of the system fonts. A reader without any CJK
font installed then sees the characters, not boxes.

    python3 docs/tools/cjk_font.py build/book/src --out build/book/mathjax-static/fonts/impulse-cjk.woff

The folders given are scanned (symbolic links followed) for .md, .py and .toml text. Exit 2, with
the package to install, when the font is missing.
"""
import argparse
import os
import pathlib
import sys

FONT = pathlib.Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")
PACKAGE = "fonts-wqy-microhei"
# CJK punctuation, kana, unified ideographs (and extension A), compatibility ideographs, full-width forms
RANGES = ((0x3000, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF))


def cjk(ch):
    o = ord(ch)
    return any(a <= o <= b for a, b in RANGES)


def characters(folders):
    found = set()
    for folder in folders:
        for dirpath, _, files in os.walk(folder, followlinks=True):
            for name in files:
                if name.endswith((".md", ".py", ".toml", ".txt")):
                    text = pathlib.Path(dirpath, name).read_text(encoding="utf-8", errors="replace")
                    found.update(ch for ch in text if cjk(ch))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+", type=pathlib.Path)
    ap.add_argument("--out", type=pathlib.Path, required=True)
    a = ap.parse_args()
    if not FONT.is_file():
        print(f"cjk_font: {FONT} not found; install the Debian package {PACKAGE} "
              f"(apt-get install {PACKAGE}) so that the book's Chinese renders without a system CJK font",
              file=sys.stderr)
        return 2
    import logging

    from fontTools import subset
    from fontTools.ttLib import TTFont

    logging.getLogger("fontTools").setLevel(logging.ERROR)
    chars = characters(a.folders)
    font = TTFont(FONT, fontNumber=0)
    opts = subset.Options()
    opts.flavor = "woff"
    opts.layout_features = ["*"]
    opts.name_IDs = ["*"]
    opts.notdef_outline = True
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=[ord(c) for c in sorted(chars)])
    sub.subset(font)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = a.out.with_suffix(".tmp")
    subset.save_font(font, str(tmp), opts)
    tmp.replace(a.out)
    print(f"cjk_font: {len(chars)} characters, {a.out.stat().st_size // 1024} KiB ({a.out})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
