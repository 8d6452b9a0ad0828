#!/usr/bin/env python3
"""Formula coverage check (a ctest): the registry, the inventory and the tests agree.

Fails when
  - a registered ID is not an inventory ID (golden/course/inventory.tsv),
  - a registered kind differs from the inventory's kind,
  - an implemented item has no test suite named after it (E1.6-ref-point-shift -> E1_6_ref_point_shift;
    a pytest function test_E1_6_ref_point_shift or test_E1_6_ref_point_shift_<what> in python/tests
    counts as one, for the items only the Python package implements),
  - a test suite named like an ID (E1_..., E3_..., ST_...) names no registered ID,
  - a prose-only item gives no reason,
  - an item checked in Newton gives no reason, or verify/parity/newton_claims.py does not run it
    (its CLAIMS table names the ID) in the function the registry names,
  - an exercise TOML file is not registered, or a registered exercise has no TOML file,
  - golden/course/inventory.tsv is out of date with ../shared/course (when that folder exists),
  - one formula, one function: an implemented formula-kind ID has no `@formula ID` tag in lib/ or
    tags on more than one declaration, the tag is not in the file the registry's function field
    names first, or the declaration it documents names none of that field's first functions,
  - an implemented formula-kind ID has no chapter anchor `(ID)=` in chapters/.
A tag is `@formula ID [ID ...]  text` in the comment block directly above the declaration; the
declaration is the block of lines after the comment, up to the next blank or comment line.
Prints a one-line summary per chapter. Usage: coverage_check.py IMPULSE_BINARY REPO_ROOT
"""
import json
import pathlib
import re
import subprocess
import sys


def suite_of(ident: str) -> str:
    return re.sub(r"[.-]", "_", ident)


TAG = re.compile(r"@formula\s+(.*)")
TAG_ID = re.compile(r"\b(?:E1|E3|ST)\.[0-9]+-[A-Za-z0-9-]+")


def formula_tags(root: pathlib.Path) -> dict:
    """ID -> [(file relative to the repository, the declaration lines the tag documents)]."""
    tags = {}
    for src in sorted(list((root / "lib").rglob("*.h")) + list((root / "lib").rglob("*.cpp"))):
        lines = src.read_text(encoding="utf-8").splitlines()
        for n, line in enumerate(lines):
            m = TAG.search(line)
            if not m or not line.lstrip().startswith("//"):
                continue
            ids = TAG_ID.findall(m.group(1).split("  ")[0])
            k = n
            while k < len(lines) and lines[k].lstrip().startswith("//"):
                k += 1
            decl = []
            while k < len(lines) and lines[k].strip() and not lines[k].lstrip().startswith("//"):
                decl.append(lines[k])
                k += 1
            for ident in ids:
                tags.setdefault(ident, []).append((src.relative_to(root).as_posix(), "\n".join(decl)))
    return tags


def formula_problems(root: pathlib.Path, registered: dict) -> list:
    problems = []
    tags = formula_tags(root)
    anchors = set()
    for md in (root / "chapters").rglob("*.md"):
        anchors |= set(re.findall(r"^\(([^)]+)\)=", md.read_text(encoding="utf-8"), re.M))
    for ident, it in registered.items():
        if it["kind"] != "formula" or it["status"] != "implemented":
            continue
        found = tags.get(ident, [])
        first = (it.get("function") or "").split(";")[0]
        path, _, names = first.partition(":")
        names = [w.strip().split(" ")[0].split("::")[-1] for w in names.split(",") if w.strip()]
        if not found:
            problems.append(f"{ident} is a formula without an @formula tag in lib/ (the registry names '{first}')")
        elif len(found) > 1:
            where = "; ".join(f"{f}: {d.splitlines()[0].strip()[:60] if d else '?'}" for f, d in found)
            problems.append(f"{ident} has an @formula tag on {len(found)} declarations ({where}); one formula, one function")
        else:
            f, decl = found[0]
            if f != path.strip():
                problems.append(f"{ident}: the registry names {path.strip()} but the @formula tag is in {f}")
            elif names and not any(re.search(r"\b" + re.escape(n) + r"\b", decl) for n in names):
                problems.append(f"{ident}: the registry names {', '.join(names)} but the @formula tag documents "
                                f"'{decl.splitlines()[0].strip()[:60] if decl else '(nothing)'}'")
        if ident not in anchors:
            problems.append(f"{ident} has no chapter anchor ({ident})= in chapters/")
    return problems


def newton_claim_problems(root: pathlib.Path, ident: str, it: dict) -> list:
    """An item checked in Newton names its reason and the newton_claims.py function that runs it,
    and that file's CLAIMS table maps the ID to that function."""
    if not it.get("reason"):
        return [f"{ident} is checked in Newton without a reason"]
    path, _, fn = (it.get("function") or "").partition(":")
    src = root / path.strip()
    if path.strip() != "verify/parity/newton_claims.py" or not src.exists():
        return [f"{ident} is checked in Newton but names '{it.get('function')}', not verify/parity/newton_claims.py"]
    text = src.read_text(encoding="utf-8")
    if not re.search(r'"' + re.escape(ident) + r'":\s*\([^)]*?\b' + re.escape(fn.strip()) + r'\)', text, re.S):
        return [f"{ident} is checked in Newton but newton_claims.py's CLAIMS does not run it with {fn.strip()}"]
    return []


def main(binary: str, root: str) -> int:
    root = pathlib.Path(root)
    problems = []
    inventory = {}
    with open(root / "golden" / "course" / "inventory.tsv", encoding="utf-8") as f:
        next(f)
        for line in f:
            ident, chapter, kind = line.rstrip("\n").split("\t")[:3]
            inventory[ident] = kind
    items = json.loads(subprocess.run([binary, "formulas", "--json"], check=True, capture_output=True, text=True).stdout)
    registered = {i["id"]: i for i in items}

    suites = set()
    for src in (root / "verify").rglob("*.cpp"):
        for m in re.finditer(r"(?:RC_GTEST_PROP|TEST|TEST_F)\(\s*([A-Za-z0-9_]+)\s*,", src.read_text(encoding="utf-8")):
            suites.add(m.group(1))
    by_suite = {suite_of(i): i for i in registered}
    py_tests = set()
    for src in (root / "python" / "tests").rglob("test_*.py"):
        py_tests |= set(re.findall(r"^def test_((?:E1|E3|ST)_[0-9]+_[A-Za-z0-9_]+)\(", src.read_text(encoding="utf-8"), re.M))

    def has_suite(ident: str) -> bool:
        s = suite_of(ident)
        return s in suites or any(t == s or t.startswith(s + "_") for t in py_tests)

    for ident, it in registered.items():
        if ident not in inventory:
            problems.append(f"registered ID {ident} is not an inventory ID")
            continue
        if it["kind"] != inventory[ident]:
            problems.append(f"{ident}: registered kind '{it['kind']}' but the inventory says '{inventory[ident]}'")
        if it["status"] == "implemented" and not has_suite(ident):
            problems.append(f"{ident} is implemented but no test suite is named {suite_of(ident)}")
        if it["status"] == "prose-only" and not it.get("reason"):
            problems.append(f"{ident} is prose-only without a reason")
        if it["status"] == "checked in Newton":
            problems += newton_claim_problems(root, ident, it)
    for s in sorted(suites):
        if re.match(r"^(E1|E3|ST)_[0-9]+_", s) and s not in by_suite:
            problems.append(f"test suite {s} names no registered ID")

    problems += formula_problems(root, registered)

    exercise_files = {}
    for toml in (root / "exercises").rglob("*.toml"):
        m = re.search(r'^id\s*=\s*"([^"]+)"', toml.read_text(encoding="utf-8"), re.M)
        if m:
            exercise_files[m.group(1)] = toml
    for ident in exercise_files:
        if ident not in registered:
            problems.append(f"exercise file {exercise_files[ident].relative_to(root)} has unregistered ID {ident}")
    for ident, it in registered.items():
        if it["kind"] == "exercise" and ident not in exercise_files:
            problems.append(f"registered exercise {ident} has no file in exercises/")

    shared = root.parent / "shared" / "course"
    if shared.is_dir():
        r = subprocess.run([sys.executable, str(root / "docs" / "tools" / "sync_inventory.py"), "--check", str(shared)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            problems.append(r.stdout.strip())

    for chapter in ("E1", "E3", "ST"):
        total = sum(1 for i in inventory if i.startswith(chapter + "."))
        impl = sum(1 for i, it in registered.items() if i.startswith(chapter + ".") and it["status"] == "implemented")
        prose = sum(1 for i, it in registered.items() if i.startswith(chapter + ".") and it["status"] == "prose-only")
        newton = sum(1 for i, it in registered.items() if i.startswith(chapter + ".") and it["status"] == "checked in Newton")
        print(f"{chapter}: {impl} implemented, {newton} checked in Newton, {prose} prose-only, "
              f"{total - impl - prose - newton} not yet registered, of {total}")
    for p in problems:
        print("coverage: " + p)
    print(f"coverage: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
