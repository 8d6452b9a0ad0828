#!/usr/bin/env python3
"""Extract every inventory ID of the course into golden/course/inventory.tsv.

The inventories live in ../shared/course/ (outside the repository) and are written in three
slightly different heading styles:
    ### E1.2-axis-angle · FORMULA · L131
    ### E3.4-xpbd-pn: FORMULA (L235-L237)
    ### ST.2-bounce-example — EXAMPLE — L40
The committed TSV (id, chapter, kind, lines, summary) lets a fresh clone run the coverage check
without ../shared. Usage: sync_inventory.py [--check] [SHARED_COURSE_DIR]
--check exits 1 when the committed file differs from what the inventories give.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "golden" / "course" / "inventory.tsv"
HEAD = re.compile(r"^### ((E1|E3|ST)\.[0-9]+-[A-Za-z0-9-]+)\s*(?:·|:|—)\s*([A-Z][A-Z +()a-z-]*?)\s*(?:·|—|\(|$)\s*(.*)$")


def kind_of(raw: str) -> str:
    first = raw.strip().split()[0].lower()
    return first


def parse(path: pathlib.Path):
    lines = path.read_text(encoding="utf-8").splitlines()
    rows = []
    for i, line in enumerate(lines):
        m = HEAD.match(line)
        if not m:
            continue
        ident, chapter, kind, rest = m.group(1), m.group(2), kind_of(m.group(3)), m.group(4)
        refs = rest.strip().rstrip(")").strip()
        summary = ""
        for nxt in lines[i + 1:i + 8]:
            s = nxt.strip().lstrip("-").strip()
            if s and not s.startswith("```") and not s.startswith("###"):
                summary = s
                break
        summary = re.sub(r"\s+", " ", summary.replace("\t", " "))[:140]
        rows.append((ident, chapter, kind, refs, summary))
    return rows


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    src = pathlib.Path(args[0]) if args else ROOT.parent / "shared" / "course"
    if not src.is_dir():
        print(f"sync_inventory: {src} not found; keeping {OUT.relative_to(ROOT)}")
        return 0
    rows = []
    for name in ("inventory-e1.md", "inventory-e3.md", "inventory-st.md"):
        rows += parse(src / name)
    text = "id\tchapter\tkind\tlines\tsummary\n" + "".join("\t".join(r) + "\n" for r in rows)
    if check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"sync_inventory: {OUT.relative_to(ROOT)} is out of date with {src}; run docs/tools/sync_inventory.py")
            return 1
        print(f"sync_inventory: {len(rows)} IDs, in sync")
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"sync_inventory: wrote {len(rows)} IDs to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
