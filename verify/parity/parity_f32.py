"""Newton parity in float32: the cases of verify/parity/cases/*.toml run by the float32 build of
impulse (IMPULSE_SINGLE_PRECISION, Newton's own precision) and by the double build, each compared
with Newton 1.6.1 (the course's version); what changes from double to float32 is the report's
`changes` section.

Usage (./run float32 does this):
  parity_f32.py --impulse-f32 build/f32/bin/parity_impulse --impulse build/bin/parity_impulse
                --python 1.6.1=PY [--newton-outputs build/parity] --out build/f32/parity

Newton's side does not depend on impulse's precision: its outputs are read from --newton-outputs
(newton-1.6.1-<file>.json, written by ./run parity) when they are newer than the case file,
newton_side.py and the venv's pins; otherwise Newton runs here, in the venv of --python.

A [[case.compare]] table states where float32 needs its own tolerance: tolerance_f32 with
reason_f32, the bound derived from float32's epsilon (2^-23 = 1.19e-7) and the case's scale.
Without it the double tolerance holds in float32 too. An entry may carry note_f32: why its
difference moves in float32 (shown in the changes section). Verdicts as in parity.py; a float32
entry that differs without a known_difference, or a [[case.expect]] that impulse's float32 build
fails, fails the run.

changes: every entry whose verdict differs between the two builds, that has a float32 tolerance,
whose difference became exactly zero, or whose difference moved by more than a quarter of the
double tolerance (a tenth of itself, when it differs in both builds); with both differences and tolerances, and why: the case file's note_f32 /
reason_f32, or for an exact zero that float32 impulse reproduces Newton's float32 numbers. A verdict
that changes without a written reason fails the run.

Writes OUT/report.json (precision, baseline, versions, entries, expects, changes) and prints the
entries that do not agree, the changes and one closing line:
  parity float32: N agree, N differ, N not comparable (Newton 1.6.1); N change verdict, N change difference
Exit status 0, 1 on an unexplained float32 difference, verdict change or failed expectation, 2 on
bad input.
"""

import argparse
import json
import os
import sys
import time

import parity as P

HERE = os.path.dirname(os.path.abspath(__file__))


def newton_outputs(version, py, f, reuse_dir, out_dir):
    """Newton's raw outputs for case file f: reused when fresh, else run in py's venv."""
    stem = os.path.splitext(os.path.basename(f))[0]
    inputs = [f, os.path.join(HERE, "newton_side.py")]
    pins = os.path.join(os.path.dirname(os.path.dirname(py)), ".pins")
    if os.path.exists(pins):
        inputs.append(pins)
    if reuse_dir:
        path = os.path.join(reuse_dir, f"newton-{version}-{stem}.json")
        if os.path.exists(path) and os.path.getmtime(path) > max(os.path.getmtime(i) for i in inputs):
            with open(path) as fh:
                return json.load(fh), "reused"
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    out = P.run_side([py, os.path.join(HERE, "newton_side.py")], f, os.path.join(out_dir, f"newton-{version}-{stem}.json"),
                     f"Newton {version}", env)
    return out, "ran"


def change_entry(cmp, e64, e32):
    """The changes-section row of one compare table, or None when nothing worth a line moved: a
    verdict that changed, a float32 tolerance, a difference that became exactly zero (float32
    impulse gives Newton's float32 numbers bit for bit) or one that moved by over a quarter of the
    double tolerance."""
    d64, d32 = e64["difference"], e32["difference"]
    tol64 = float(cmp["tolerance"])
    move = abs(d32 - d64) if d64 is not None and d32 is not None else None
    exact = d32 == 0 and d64 not in (None, 0)
    # a difference beyond the tolerance in both builds (a known difference) moves with rounding:
    # listed only when it moved by over a tenth of itself
    bound = 0.1 * d64 if e64["verdict"] == e32["verdict"] == "differ" and d64 is not None else 0.25 * tol64
    if (e64["verdict"] == e32["verdict"] and "tolerance_f32" not in cmp and not exact
            and not (move is not None and move > bound)):
        return None
    why = " ".join(x for x in (cmp.get("note_f32", ""), cmp.get("reason_f32", "")) if x)
    if not why and exact:
        why = ("float32 impulse gives Newton's float32 numbers bit for bit: the double build's difference "
               "was its double rounding against Newton's float32")
    return {
        "case": e32["case"], "id": e32["id"], "quantity": e32["quantity"],
        "verdict_double": e64["verdict"], "verdict_f32": e32["verdict"],
        "difference_double": d64, "difference_f32": d32,
        "tolerance_double": tol64, "tolerance_f32": float(e32["tolerance"]),
        "move_over_tolerance": move / tol64 if move is not None and tol64 > 0 else None,
        "why": why,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--impulse-f32", required=True, help="parity_impulse of the float32 build")
    ap.add_argument("--impulse", required=True, help="parity_impulse of the double build")
    ap.add_argument("--python", required=True, metavar="VERSION=PY", help="the baseline Newton and its venv's Python")
    ap.add_argument("--newton-outputs", default="", help="folder of ./run parity's raw Newton outputs, reused when fresh")
    ap.add_argument("--cases", default=os.path.join(HERE, "cases"), help="folder of case files")
    ap.add_argument("--out", required=True, help="output folder (report.json and the raw sides)")
    args = ap.parse_args()
    if "=" not in args.python:
        P.fail(f"--python must be VERSION=PATH, got '{args.python}'")
    version, py = args.python.split("=", 1)
    if not os.access(py, os.X_OK):
        P.fail(f"--python {version}: '{py}' is not an executable Python")
    for flag, path in (("--impulse-f32", args.impulse_f32), ("--impulse", args.impulse)):
        if not os.access(path, os.X_OK):
            P.fail(f"{flag} '{path}' is not an executable")
    files, cases = P.load_cases(args.cases)
    os.makedirs(args.out, exist_ok=True)

    imp32, imp64, new, how = {}, {}, {}, set()
    for f in files:
        stem = os.path.splitext(os.path.basename(f))[0]
        imp32.update(P.run_side([args.impulse_f32], f, os.path.join(args.out, f"impulse-f32-{stem}.json"), "parity_impulse (float32)"))
        imp64.update(P.run_side([args.impulse], f, os.path.join(args.out, f"impulse-{stem}.json"), "parity_impulse (double)"))
        out, h = newton_outputs(version, py, f, args.newton_outputs, args.out)
        how.add(h)
        meta = {"newton": out.pop("_newton_version", "?"), "warp": out.pop("_warp_version", "?")}
        if meta["newton"] != version:
            P.fail(f"the Newton outputs given for {version} come from Newton {meta['newton']}")
        new.update(out)

    no = {"error": "no output"}
    entries, changes, failures = [], [], 0
    counts = {"agree": 0, "differ": 0, "not_comparable": 0}
    for c in cases:
        for cmp in c["compare"]:
            i32, i64, n = imp32.get(c["name"], no), imp64.get(c["name"], no), new.get(c["name"], no)
            e32 = P.compare_entry(c, cmp, i32, n, version, version, f32=True)
            e64 = P.compare_entry(c, cmp, i64, n, version, version)
            e32["precision"] = "float32"
            entries.append(e32)
            counts[e32["verdict"]] += 1
            if e32["verdict"] != "agree":
                mark = {"differ": "DIFF", "not_comparable": "n/c "}[e32["verdict"]]
                print(f"  {mark} f32    {e32['case']:34} {e32['quantity']:15} {e32['id']:34} {e32['reason']}")
            if e32["verdict"] == "differ" and not e32.get("known_difference"):
                failures += 1
            ch = change_entry(cmp, e64, e32)
            if ch:
                changes.append(ch)
                if ch["verdict_double"] != ch["verdict_f32"] and not ch["why"]:
                    failures += 1
    expects = [P.expect_entry(c, ex, imp32, new, version) for c in cases for ex in c.get("expect", [])]
    for e in expects:
        r = e["impulse"]
        if not r["holds"]:
            failures += 1
            print(f"  FAIL f32    {e['case']:34} {e['quantity']:15} {e['id']:34} impulse float32 "
                  + (f"{r['value']:.3g}" if r["value"] is not None else f"cannot: {r['error']}")
                  + f", needs {e['bound'][0].replace('_', ' ')} {e['bound'][1]:.3g}")
    verdict_changes = sum(ch["verdict_double"] != ch["verdict_f32"] for ch in changes)
    print("parity float32: what changes from double (difference to Newton, double -> float32; tolerance):")
    for ch in changes:
        fmt = lambda x: "-" if x is None else f"{x:.3g}"
        tol = fmt(ch["tolerance_double"]) + ("" if ch["tolerance_f32"] == ch["tolerance_double"] else " -> " + fmt(ch["tolerance_f32"]))
        verdict = ch["verdict_double"] + ("" if ch["verdict_f32"] == ch["verdict_double"] else " -> " + ch["verdict_f32"])
        print(f"  {ch['case']:34} {ch['quantity']:15} {verdict:16} {fmt(ch['difference_double'])} -> "
              f"{fmt(ch['difference_f32'])}; tol {tol}: "
              f"{ch['why'] or 'no explanation recorded in the case file'}")
    with open(os.path.join(args.out, "report.json"), "w") as f:
        json.dump({"precision": "float32", "baseline": version, "date": time.strftime("%Y-%m-%d", time.gmtime()),
                   "newton_outputs": sorted(how), "entries": entries, "expects": expects, "changes": changes}, f, indent=1)
    print(f"parity float32: {counts['agree']} agree, {counts['differ']} differ, {counts['not_comparable']} not comparable "
          f"(Newton {version}); {verdict_changes} change verdict, {len(changes) - verdict_changes} change difference "
          f"or tolerance; {sum(e['impulse']['holds'] is True for e in expects)} of {len(expects)} expectations hold")
    if failures:
        print(f"parity float32: {failures} unexplained difference(s) or failed expectation(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
