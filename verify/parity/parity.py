"""Newton parity: every case of verify/parity/cases/*.toml run in impulse and in Newton, compared.

Usage (./run parity does this):
  parity.py --impulse build/bin/parity_impulse --python 1.6.1=PY --python 1.8.0=PY
            [--baseline 1.6.1] [--oracles PY] --out build/parity

Each case file describes its scenes once; parity_impulse (C++) and newton_side.py (Python, run
in the venv of each Newton version) both read it and print {case: {quantity: [numbers]}}. A case
lists what to compare in [[case.compare]] tables: quantity, tolerance (absolute, in the
quantity's units), reason (why that tolerance), and optionally reduce = "max_abs" (default:
largest elementwise difference), "mean" (difference of the means, for chaotic runs compared as a
time average), "max" (difference of the maxima) or "final" (last element only). Verdicts:

  agree           |impulse - newton| <= tolerance
  differ          beyond the tolerance; on the baseline version this fails the run unless the
                  compare table has `known_difference` (an explained, documented difference)
  drift           agrees on the baseline (1.6.1) but differs on a later release: reported (with the
                  case's [case.drift] explanation when it has one), never a failure
  not_comparable  one engine cannot build or run the case; the reason is its own error message

Writes OUT/report.json (a list of entries: id, case, newton_version, quantity, impulse, newton,
tolerance, verdict, reason, ...) and prints one line per entry and a closing line per version:
  parity: N agree, N differ, N not comparable   (Newton X)
Exit status: 0, 1 when a baseline entry differs without a known_difference, 2 on bad input or
when a side cannot run at all.
"""

import argparse
import glob
import json
import math
import os
import subprocess
import sys
import time
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))


def fail(msg, code=2):
    print(f"parity: {msg}", file=sys.stderr)
    sys.exit(code)


def run_side(cmd, case_file, out_path, label, env=None):
    with open(out_path + ".log", "w") as log:
        p = subprocess.run(cmd + [case_file, out_path], stdout=log, stderr=subprocess.STDOUT, env=env)
    if p.returncode != 0:
        with open(out_path + ".log") as f:
            tail = f.read()[-2000:]
        fail(f"{label} failed on {os.path.basename(case_file)} (exit {p.returncode}); log {out_path}.log:\n{tail}")
    with open(out_path) as f:
        return json.load(f)


def reduce_diff(a, b, how):
    """Returns (difference, shown_impulse, shown_newton)."""
    if how == "mean":
        ma, mb = sum(a) / len(a), sum(b) / len(b)
        return abs(ma - mb), ma, mb
    if how == "max":
        ma, mb = max(a), max(b)
        return abs(ma - mb), ma, mb
    if how == "final":
        return abs(a[-1] - b[-1]), a[-1], b[-1]
    worst = max((abs(x - y) for x, y in zip(a, b)), default=0.0)
    return worst, None, None


def finite(xs):
    return all(isinstance(x, (int, float)) and math.isfinite(x) for x in xs)


def compare_entry(case, cmp, imp, new, version, baseline):
    q = cmp["quantity"]
    entry = {
        "id": case["id"],
        "case": case["name"],
        "claim": case.get("claim", ""),
        "newton_version": version,
        "quantity": q,
        "reduce": cmp.get("reduce", "max_abs"),
        "tolerance": cmp.get("tolerance"),
        "tolerance_reason": cmp.get("reason", ""),
        "impulse": None,
        "newton": None,
        "difference": None,
    }
    if "error" in imp or "error" in new:
        side = "impulse" if "error" in imp else "Newton"
        msg = imp.get("error") if "error" in imp else new.get("error")
        entry.update(verdict="not_comparable", reason=f"{side} cannot run this case: {msg}")
        return entry
    if q not in imp or q not in new:
        missing = "impulse" if q not in imp else "Newton"
        entry.update(verdict="not_comparable", reason=f"{missing} does not produce '{q}' for this case")
        return entry
    a, b = imp[q], new[q]
    entry["impulse"], entry["newton"] = a, b
    if len(a) != len(b):
        entry.update(verdict="differ", reason=f"lengths differ: impulse {len(a)} values, Newton {len(b)}")
    elif not finite(a) or not finite(b):
        entry.update(verdict="differ", reason="a non-finite value")
    else:
        d, sa, sb = reduce_diff(a, b, entry["reduce"]) if a else (0.0, None, None)
        entry["difference"] = d
        if sa is not None:
            entry["impulse_reduced"], entry["newton_reduced"] = sa, sb
        tol = float(cmp["tolerance"])
        if d <= tol:
            entry.update(verdict="agree", reason=f"|difference| {d:.3g} <= {tol:.3g}")
        else:
            entry.update(verdict="differ", reason=f"|difference| {d:.3g} > {tol:.3g}")
    note = case.get("drift", {}).get(version)
    if note:
        entry["version_note"] = note
    if entry["verdict"] == "differ" and cmp.get("known_difference"):
        entry["known_difference"] = cmp["known_difference"]
        entry["reason"] += "; known difference: " + cmp["known_difference"]
    return entry


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--impulse", required=True, help="path of the parity_impulse executable")
    ap.add_argument("--python", action="append", default=[], metavar="VERSION=PY",
                    help="a Newton version and the Python of its venv (repeatable)")
    ap.add_argument("--baseline", default="1.6.1", help="the course's Newton version (default 1.6.1)")
    ap.add_argument("--cases", default=os.path.join(HERE, "cases"), help="folder of case files")
    ap.add_argument("--out", required=True, help="output folder (report.json and the raw sides)")
    args = ap.parse_args()

    versions = []
    for spec in args.python:
        if "=" not in spec:
            fail(f"--python must be VERSION=PATH, got '{spec}'")
        v, py = spec.split("=", 1)
        if not os.access(py, os.X_OK):
            fail(f"--python {v}: '{py}' is not an executable Python")
        versions.append((v, py))
    if not versions:
        fail("at least one --python VERSION=PY is needed")
    if args.baseline not in [v for v, _ in versions]:
        fail(f"--baseline {args.baseline} is not one of the --python versions")
    if not os.access(args.impulse, os.X_OK):
        fail(f"--impulse '{args.impulse}' is not an executable")
    files = sorted(glob.glob(os.path.join(args.cases, "*.toml")))
    if not files:
        fail(f"no case files in {args.cases}")
    os.makedirs(args.out, exist_ok=True)

    cases, names = [], set()
    for f in files:
        with open(f, "rb") as fh:
            try:
                doc = tomllib.load(fh)
            except tomllib.TOMLDecodeError as e:
                fail(f"{f}: {e}")
        for c in doc.get("case", []):
            for key in ("name", "id", "kind", "compare"):
                if key not in c:
                    fail(f"{f}: a case lacks '{key}' ({c.get('name', '?')})")
            if c["name"] in names:
                fail(f"{f}: case name '{c['name']}' is used twice")
            names.add(c["name"])
            for cmp in c["compare"]:
                if "quantity" not in cmp or "tolerance" not in cmp or "reason" not in cmp:
                    fail(f"{f}: case {c['name']}: every [[case.compare]] needs quantity, tolerance and reason")
                if not (float(cmp["tolerance"]) >= 0):
                    fail(f"{f}: case {c['name']}: tolerance must be >= 0, got {cmp['tolerance']}")
            c["_file"] = f
            cases.append(c)

    # impulse once per file; Newton once per file and version
    imp, new = {}, {v: {} for v, _ in versions}
    newton_meta = {}
    for f in files:
        stem = os.path.splitext(os.path.basename(f))[0]
        imp.update(run_side([args.impulse], f, os.path.join(args.out, f"impulse-{stem}.json"), "parity_impulse"))
        for v, py in versions:
            env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
            out = run_side([py, os.path.join(HERE, "newton_side.py")], f,
                           os.path.join(args.out, f"newton-{v}-{stem}.json"), f"Newton {v}", env)
            newton_meta[v] = {"newton": out.pop("_newton_version", "?"), "warp": out.pop("_warp_version", "?")}
            if newton_meta[v]["newton"] != v:
                fail(f"the venv given for Newton {v} runs Newton {newton_meta[v]['newton']}")
            new[v].update(out)

    report = []
    for v, _ in versions:
        for c in cases:
            for cmp in c["compare"]:
                e = compare_entry(c, cmp, imp.get(c["name"], {"error": "no output"}),
                                  new[v].get(c["name"], {"error": "no output"}), v, args.baseline)
                report.append(e)
    # drift: agrees on the baseline, differs on a later release
    base = {(e["case"], e["quantity"]): e for e in report if e["newton_version"] == args.baseline}
    by_name = {c["name"]: c for c in cases}
    for e in report:
        if e["newton_version"] == args.baseline or e["verdict"] != "differ":
            continue
        b = base.get((e["case"], e["quantity"]))
        if b and b["verdict"] == "agree":
            e["verdict"] = "drift"
            note = by_name[e["case"]].get("drift", {}).get(e["newton_version"])
            e["drift_explanation"] = note or ""
            e["reason"] = f"agrees on {args.baseline}, differs on {e['newton_version']} ({e['reason']})" + (
                f": {note}" if note else "; no explanation recorded in the case file yet")

    failures = 0
    for v, _ in versions:
        counts = {"agree": 0, "differ": 0, "drift": 0, "not_comparable": 0}
        for e in report:
            if e["newton_version"] != v:
                continue
            counts[e["verdict"]] += 1
            mark = {"agree": "ok  ", "differ": "DIFF", "drift": "drft", "not_comparable": "n/c "}[e["verdict"]]
            print(f"  {mark} {v:6} {e['case']:34} {e['quantity']:15} {e['id']:34} {e['reason']}")
            if e["verdict"] == "differ" and v == args.baseline and not e.get("known_difference"):
                failures += 1
                c = by_name[e["case"]]
                scene = {k: c[k] for k in c if k not in ("compare", "_file", "drift")}
                print(f"       impulse: {e['impulse']}\n       newton:  {e['newton']}\n       inputs ({c['_file']}): "
                      f"{json.dumps(scene)}")
        tail = f", {counts['drift']} drift" if v != args.baseline else ""
        print(f"parity: {counts['agree']} agree, {counts['differ']} differ, {counts['not_comparable']} not comparable"
              f"{tail}   (Newton {v}, warp-lang {newton_meta[v]['warp']})")
    with open(os.path.join(args.out, "report.json"), "w") as f:
        json.dump({"baseline": args.baseline, "date": time.strftime("%Y-%m-%d", time.gmtime()),
                   "versions": newton_meta, "entries": report}, f, indent=1)
    if failures:
        print(f"parity: {failures} unexplained difference(s) on Newton {args.baseline}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
