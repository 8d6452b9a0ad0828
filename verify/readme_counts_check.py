#!/usr/bin/env python3
"""The README's Status counts are the tool's own counts (so that a hand-typed number cannot rot).

Reads the README's "Status" paragraph and compares each count with what the built `impulse` reports:
per chapter, registered items and how many are implemented, checked in Newton or prose-only (`impulse formulas
--json`); the values `impulse verify --json` recomputes, printed and derived apart; the exercises
(`impulse exercises list`) and the scenes (`impulse scenes`).
Usage: readme_counts_check.py IMPULSE_BIN SOURCE_DIR
"""
import collections
import json
import pathlib
import re
import subprocess
import sys


def run(binary, *args):
    return subprocess.run([binary, *args], capture_output=True, text=True, check=True).stdout


def main():
    binary, root = sys.argv[1], pathlib.Path(sys.argv[2])
    text = re.sub(r"\s+", " ", (root / "README.md").read_text(encoding="utf-8"))
    items = json.loads(run(binary, "formulas", "--json"))
    status = collections.Counter((i["id"].split(".")[0], i["status"]) for i in items)
    total = collections.Counter(i["id"].split(".")[0] for i in items)
    verify = json.loads(run(binary, "verify", "--json"))
    expected = {}
    for ch in ("E1", "E3", "ST"):
        expected[rf"{ch} (\d+) of \d+ \("] = total[ch]
        expected[rf"{ch} \d+ of \d+ \((\d+)"] = status[(ch, "implemented")]
        expected[rf"{ch} \d+ of \d+ \(\d+,? (?:implemented and tested, )?(?:\d+ checked in Newton[^,]*, )?(?:and )?(\d+)"] = \
            status[(ch, "prose-only")]
        if status[(ch, "checked in Newton")]:
            expected[rf"{ch} \d+ of \d+ \(\d+,? (?:implemented and tested, )?(\d+) checked in Newton"] = \
                status[(ch, "checked in Newton")]
    expected[r"recomputes (\d+) values"] = len(verify["checks"])
    expected[r"(\d+) printed by the course"] = verify["printed"]
    expected[r"(\d+) derived from their formulas"] = verify["derived"]
    expected[r"holds (\d+) gradable exercises"] = len([l for l in run(binary, "exercises", "list").splitlines() if l.strip()])
    expected[r"`impulse scenes` (\d+) scenes"] = len([l for l in run(binary, "scenes").splitlines() if l.strip()])
    problems = []
    for pattern, value in expected.items():
        m = re.search(pattern, text)
        if not m:
            problems.append(f"README.md has no count matching /{pattern}/ (the tool says {value})")
        elif int(m.group(1)) != value:
            problems.append(f"README.md says {m.group(0)!r}: the tool counts {value}")
    for p in problems:
        print("readme:", p)
    print(f"readme: {len(expected) - len(problems)} of {len(expected)} counts agree")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
