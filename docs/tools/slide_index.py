#!/usr/bin/env python3
"""The front page of the lecture decks: one list per chapter folder of the staged slide source,
each deck by its title (its first heading). Prints MyST Markdown.

    python3 docs/tools/slide_index.py build/book/slides-src > build/book/slides-src/index.md
"""
import pathlib
import sys

PER_SLIDE = 7  # decks listed on one slide of the index
NAMES = {"e1": "E1 · Model, coordinates, state and time", "e3": "E3 · Contacts, solvers and force observation",
         "st": "ST · Stewart and Trinkle 1996"}


def title(deck):
    for line in deck.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return deck.stem


def main():
    if len(sys.argv) != 2 or not pathlib.Path(sys.argv[1]).is_dir():
        print("usage: slide_index.py SLIDE_SOURCE_FOLDER", file=sys.stderr)
        return 2
    src = pathlib.Path(sys.argv[1])
    out = ["# impulse · lecture slides", "", "One deck per section of the book. Keys: arrows move, `s` opens the",
           "speaker view, `Esc` the overview. The book itself is one folder up.", ""]
    toc = ["```{toctree}", ":hidden:", ""]
    for ch, name in NAMES.items():
        decks = sorted((src / ch).glob("*.md")) if (src / ch).is_dir() else []
        if not decks:
            continue
        parts = [decks[i:i + PER_SLIDE] for i in range(0, len(decks), PER_SLIDE)]
        for k, part in enumerate(parts, 1):
            out += [f"## {name}" + (f" ({k}/{len(parts)})" if len(parts) > 1 else ""), ""]
            for d in part:
                out.append(f"- {{doc}}`{title(d)} <{ch}/{d.stem}>`")
                toc.append(f"{ch}/{d.stem}")
            out.append("")
    print("\n".join(out + toc + ["```"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
