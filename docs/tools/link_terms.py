#!/usr/bin/env python3
"""Link the first use of each glossary term on every chapter page to the glossary (one-off edit).

For each page under chapters/ (not the glossary itself), the first prose occurrence of every term
of chapters/glossary.md becomes {term}`text <term>`. Prose only: headings, fenced blocks and
directives, tables, math, inline code, links and roles are left alone. Re-running changes nothing
that is already linked (a term linked once on a page is not linked again).

Usage: python3 docs/tools/link_terms.py [--check]   (--check: exit 1 if a page would change)
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SKIP_TERMS = {"state", "model", "normal", "record", "collision", "material", "step size", "iteration",
              "prediction", "projection", "constraint", "joint", "pose", "combination", "capacity"}


def glossary_terms():
    text = (ROOT / "chapters/glossary.md").read_text(encoding="utf-8")
    block = text.split("```{glossary}", 1)[1].split("\n```", 1)[0]
    terms = []
    for line in block.splitlines():
        if line and not line.startswith(" ") and re.match(r"[A-Za-z]", line) and "," not in line:
            terms.append(line.strip())
    return [t for t in terms if t.lower() not in SKIP_TERMS]


# Senses that differ by chapter: E1 and E3 speak of a joint's pivot, not a Lemke pivot; the reading
# of Stewart and Trinkle calls the signed distance the "gap" (linked there as {term}`gap <signed distance>`).
SKIP_IN_CHAPTER = {("pivot", "e1"), ("pivot", "e3"), ("gap", "st")}
# "impulse" is also this project's name: link it only after a word that makes it the quantity.
IMPULSE_BEFORE = {"an", "the", "one", "normal", "accumulated", "contact", "friction", "tangential", "total",
                  "same", "this", "each", "its", "restitution", "position", "constraint", "that"}

# spans a term must not be linked inside: inline code, math, roles, links
PROTECTED = re.compile(r"`[^`]*`|\$[^$]*\$|\{[a-z]+\}`[^`]*`|\[[^\]]*\]\([^)]*\)|\*\*[^*]*\*\*")


def link_page(text, terms, chapter):
    linked = set(re.findall(r"\{term\}`(?:[^`<]*<)?([^`>]+)>?`", text))
    out, fence, in_math = [], None, False
    for line in text.split("\n"):
        s = line.strip()
        m = re.match(r"^(`{3,}|:{3,})", s)
        if m:
            mark = m.group(1)
            if fence is None:
                fence = mark
            elif s == fence:
                fence = None
            out.append(line)
            continue
        if fence is not None:
            out.append(line)
            continue
        if s.startswith("$$"):
            if not (s.endswith("$$") and len(s) > 4):
                in_math = not in_math
            out.append(line)
            continue
        # a line with an odd number of $ or ` continues a span from or into another line: leave it
        odd = line.replace("\\$", "").count("$") % 2 or line.count("`") % 2
        if in_math or odd or not s or s.startswith(("#", "|", "(", ">")) or re.match(r"^\*[^*].*\*$", s):
            out.append(line)
            continue
        pieces = []
        last = 0
        for m in PROTECTED.finditer(line):
            pieces.append((False, line[last:m.start()]))
            pieces.append((True, m.group(0)))
            last = m.end()
        pieces.append((False, line[last:]))
        for term in terms:
            if term in linked or (term, chapter) in SKIP_IN_CHAPTER:
                continue
            pat = re.compile(r"(?<![\w{<`-])(" + re.escape(term) + r")(s|es)?(?![\w>-])", re.I)
            for i, (prot, chunk) in enumerate(pieces):
                if prot:
                    continue
                m = pat.search(chunk)
                while m and term == "impulse":
                    before = re.findall(r"([A-Za-z]+)\s*$", chunk[:m.start()])
                    if before and before[0].lower() in IMPULSE_BEFORE:
                        break
                    m = pat.search(chunk, m.end())
                if m:
                    shown = m.group(0)
                    role = "{term}`" + (shown if shown == term else f"{shown} <{term}>") + "`"
                    pieces[i] = (False, chunk[:m.start()])
                    pieces.insert(i + 1, (True, role))
                    pieces.insert(i + 2, (False, chunk[m.end():]))
                    linked.add(term)
                    break
        out.append("".join(c for _, c in pieces))
    return "\n".join(out)


def main():
    check = "--check" in sys.argv
    terms = sorted(glossary_terms(), key=len, reverse=True)  # longer terms first: "contact force" before "contact"
    changed = 0
    for page in sorted((ROOT / "chapters").rglob("*.md")):
        if page.name in ("glossary.md", "index.md", "animations.md") or "slides" in page.parts:
            continue  # the lecture decks are built without the glossary
        old = page.read_text(encoding="utf-8")
        new = link_page(old, terms, page.parent.name)
        if new != old:
            changed += 1
            if not check:
                page.write_text(new, encoding="utf-8")
    print(f"link_terms: {changed} page(s) {'would change' if check else 'changed'}"
          + ("; run python3 docs/tools/link_terms.py to link them" if check and changed else ""))
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
