#!/usr/bin/env python3
"""Generate the book's verification matrix and formula index.

matrix.md lists every inventory ID (golden/course/inventory.tsv): its status in the registry, the
function that implements it, the tests whose gtest suite names it with their result from the last
`ctest` run (JUnit file), whether `impulse calc` can evaluate it, and what Newton says about it in
each release of the parity report (build/parity/report.json, when there is one).
Usage: make_pages.py --impulse BIN --junit FILE [--parity REPORT] --out DIR
"""
import argparse
import json
import pathlib
import re
import subprocess
import xml.etree.ElementTree as ET

ROOT = pathlib.Path(__file__).resolve().parents[2]


def suite_of(ident):
    return re.sub(r"[.-]", "_", ident)


def test_results(junit):
    results = {}
    p = pathlib.Path(junit)
    if not p.exists():
        return results
    for case in ET.parse(p).getroot().iter("testcase"):
        name = case.get("name", "")
        if case.find("failure") is not None or case.find("error") is not None:
            state = "failed"
        elif case.find("skipped") is not None or case.get("status") in ("notrun", "disabled"):
            state = "skipped"
        else:
            state = "passed"
        results[name] = state
    return results


def test_names():
    names = {}
    for src in sorted((ROOT / "verify").rglob("*_test.cpp")):
        for m in re.finditer(r"(?:RC_GTEST_PROP|TEST|TEST_F)\(\s*([A-Za-z0-9_]+)\s*,\s*([A-Za-z0-9_]+)",
                             src.read_text(encoding="utf-8")):
            names.setdefault(m.group(1), []).append((m.group(2), str(src.relative_to(ROOT))))
    return names


KIND_WORD = {"newton_artefact": "Newton artefact", "follows_course": "follows the course", "impulse": "impulse's own"}


def newton_says(report):
    """ID -> version -> short text: the parity verdicts of the ID's compared quantities (a differ
    with its kind), and whether a claim about Newton itself holds."""
    says = {}
    if not report:
        return says, []
    versions = [report["baseline"]] + [v for v in report.get("versions", {}) if v != report["baseline"]]
    counts = {}
    for e in report["entries"]:
        if e["newton_version"] not in versions:
            continue
        verdict = e["verdict"].replace("_", " ")
        if verdict == "differ" and e.get("difference_kind"):
            verdict += f" ({KIND_WORD.get(e['difference_kind'], e['difference_kind'])})"
        c = counts.setdefault(e["id"], {}).setdefault(e["newton_version"], {})
        c[verdict] = c.get(verdict, 0) + 1
    for e in report.get("expects", []):
        if e["newton_version"] in versions and e["newton"]["holds"] is not None:
            c = counts.setdefault(e["id"], {}).setdefault(e["newton_version"], {})
            k = "claim holds" if e["newton"]["holds"] else "claim fails"
            c[k] = c.get(k, 0) + 1
    for ident, per in counts.items():
        for v, c in per.items():
            says.setdefault(ident, {})[v] = ", ".join(f"{n} {k}" for k, n in sorted(c.items(), key=lambda kv: -kv[1]))
    for ident, cl in report.get("claims", {}).items():
        for v, r in cl["versions"].items():
            says.setdefault(ident, {})[v] = "holds" if r["holds"] else "does not hold"
            for other, ok in r.get("also", {}).items():
                says.setdefault(other, {})[v] = "holds" if ok else "does not hold"
    return says, versions


def cell(s):
    return s.replace("|", "\\|").replace("\n", " ")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--impulse", required=True)
    ap.add_argument("--junit", required=True)
    ap.add_argument("--parity", default="", help="the parity report (optional)")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)

    items = {i["id"]: i for i in json.loads(subprocess.run([a.impulse, "formulas", "--json"], check=True,
                                                           capture_output=True, text=True).stdout)}
    inventory = []
    with open(ROOT / "golden" / "course" / "inventory.tsv", encoding="utf-8") as f:
        next(f)
        for line in f:
            inventory.append(line.rstrip("\n").split("\t"))
    verified = {}
    vr = subprocess.run([a.impulse, "verify", "--json"], capture_output=True, text=True)
    for c in json.loads(vr.stdout)["checks"]:
        verified.setdefault(c["id"], []).append(c["origin"])
    results = test_results(a.junit)
    tests = test_names()
    have_results = bool(results)
    report = None
    if a.parity and pathlib.Path(a.parity).exists():
        report = json.loads(pathlib.Path(a.parity).read_text(encoding="utf-8"))
    says, versions = newton_says(report)

    lines = ["# Verification matrix", "",
             "Every item of the course inventories, with what implements and checks it. Test results are those of",
             "the last `./run test` (" + ("read from its JUnit file" if have_results else
                                           "no test run was found: results are shown as 'not run'") + ").",
             "A test is listed under an ID when its gtest suite is the ID with `.` and `-` replaced by `_`.",
             "The verify column counts the values `impulse verify` recomputes for the ID: printed by the course",
             "or the paper, or derived from the printed formula with inputs of our own.",
             "A second table per chapter says what the parity suite found for each ID in each Newton release: its compared",
             "quantities' verdicts (a difference with its kind: a Newton artefact such as float32 or MPR, impulse",
             "following the course where Newton does not, or impulse's own), or whether a claim about Newton itself holds"
             + (" (no parity report was found)." if not report else "."), ""]
    for chapter, title in (("E1", "E1: model, coordinates, state and time"),
                           ("E3", "E3: contacts, solvers and force observation"),
                           ("ST", "ST: Stewart and Trinkle 1996")):
        rows = [r for r in inventory if r[1] == chapter]
        done = sum(1 for r in rows if items.get(r[0], {}).get("status") == "implemented")
        prose = sum(1 for r in rows if items.get(r[0], {}).get("status") == "prose-only")
        newton = sum(1 for r in rows if items.get(r[0], {}).get("status") == "checked in Newton")
        lines += [f"## {title}", "",
                  f"{done} implemented, {newton} checked in Newton, {prose} prose-only, "
                  f"{len(rows) - done - prose - newton} not yet implemented, of {len(rows)}.", "",
                  "| ID | kind | status | calc | verify | tests | function |",
                  "|---|---|---|---|---|---|---|"]
        # What Newton says per release: a table of its own, so that neither table outgrows the column.
        said = [f"What the parity suite found in Newton for the {chapter} IDs it runs, per release:", "",
                "| ID |" + "".join(f" Newton {v} |" for v in versions), "|---|" + "---|" * len(versions)]
        for ident, _, kind, _lines, _summary in rows:
            it = items.get(ident)
            status = it["status"] if it else "not yet"
            if it and it["status"] in ("prose-only", "checked in Newton"):
                status += ": " + it.get("reason", "")
            function = f"`{it['function']}`" if it and it.get("function") else ""
            ts = []
            for name, src in tests.get(suite_of(ident), []):
                full = f"{suite_of(ident)}.{name}"
                ts.append(f"{name} ({results.get(full, 'not run')})")
            calc = "yes" if it and it.get("calculator") else ""
            origins = verified.get(ident, [])
            ver = ", ".join(f"{origins.count(o)} {o}" for o in ("printed", "derived") if o in origins)
            lines.append(f"| {ident} | {kind} | {cell(status)} | {calc} | {ver} | {cell('; '.join(ts))} | {cell(function)} |")
            if any(says.get(ident, {}).get(v) for v in versions):
                said.append(f"| {ident} |" + "".join(f" {cell(says.get(ident, {}).get(v, ''))} |" for v in versions))
        lines.append("")
        if versions and len(said) > 4:
            lines += said + [""]
    (out / "matrix.md").write_text("\n".join(lines) + "\n", encoding="utf-8")

    fl = ["# Formula index", "",
          "Every registered item with a calculator; evaluate any of them with",
          "`impulse calc ID --<input> VALUE ...` (`impulse calc ID --help` lists inputs and units).", "",
          "| ID | title | function |", "|---|---|---|"]
    for ident, it in items.items():
        if it.get("calculator"):
            fl.append(f"| {ident} | {cell(it['title'])} | `{cell(it['function'])}` |")
    (out / "formulas.md").write_text("\n".join(fl) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
