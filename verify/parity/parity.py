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

A compare table may carry its own `id` and `claim` (when the quantity tests another inventory item
than the case's). A case may also state what the course's claim needs of each engine on its own,
in [[case.expect]] tables: quantity, reduce ("max_abs" of the series, or of its difference with
the case named by `versus`), at_least or at_most, id, claim, reason. Each is evaluated on impulse
and on every Newton version (verdict holds / fails per engine); one that fails in impulse or in
the baseline Newton fails the run.

Then, per version, the API the course teaches (newton_api.py over course_api.toml: present,
signature, keyword arguments, deprecation and its replacement) and the course's claims about
Newton itself that impulse cannot run (newton_claims.py: the MuJoCo adapter).

Writes OUT/report.json (entries: id, case, newton_version, quantity, impulse, newton, tolerance,
verdict, reason, ...; api: per name and version; claims: per ID and version) and prints one line
per entry and a closing line per version:
  parity: N agree, N differ, N not comparable   (Newton X)
Exit status: 0, 1 when a baseline entry differs without a known_difference, a name of
course_api.toml is absent from the baseline or a claim about Newton does not hold on it, 2 on bad
input or when a side cannot run at all.
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
# The kinds of an explained difference: a Newton artefact (float32 roundoff, MPR's tolerance), impulse
# following the course where Newton does not, or impulse's own divergence (a choice or a defect of its own).
DIFFERENCE_KINDS = ("newton_artefact", "follows_course", "impulse")


def fail(msg, code=2):
    print(f"parity: {msg}", file=sys.stderr)
    sys.exit(code)


def run_side(cmd, case_file, out_path, label, env=None, with_case=True, extra=None):
    with open(out_path + ".log", "w") as log:
        args = cmd + (extra if extra is not None else ([case_file] if with_case else []) + [out_path])
        p = subprocess.run(args, stdout=log, stderr=subprocess.STDOUT, env=env)
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


def expect_value(ex, out, others):
    """max |series| (or max |series - the versus case's series|) of one engine's output, or an
    error text."""
    q = ex["quantity"]
    if "error" in out or q not in out:
        return None, out.get("error", f"no '{q}'")
    a = out[q]
    if "versus" in ex:
        b = others.get(ex["versus"], {})
        if "error" in b or q not in b or len(b[q]) != len(a):
            return None, f"case '{ex['versus']}' has no comparable '{q}'"
        a = [x - y for x, y in zip(a, b[q])]
    if not finite(a):
        return None, "a non-finite value"
    return max((abs(x) for x in a), default=0.0), None


def expect_entry(case, ex, imp_all, new_all, version):
    name = case["name"]
    entry = {"id": ex.get("id", case["id"]), "case": name, "claim": ex.get("claim", case.get("claim", "")),
             "quantity": ex["quantity"] + (f" - {ex['versus']}" if "versus" in ex else ""), "reason": ex["reason"],
             "bound": ("at_least", ex["at_least"]) if "at_least" in ex else ("at_most", ex["at_most"]),
             "newton_version": version, "kind": "expect"}
    for side, outs in (("impulse", imp_all), ("newton", new_all)):
        value, err = expect_value(ex, outs.get(name, {"error": "no output"}), outs)
        ok = None if value is None else (value >= ex["at_least"] if "at_least" in ex else value <= ex["at_most"])
        entry[side] = {"value": value, "holds": ok, "error": err}
    return entry


def compare_entry(case, cmp, imp, new, version, baseline, f32=False):
    """One report entry; f32: impulse ran in float32, and the table's tolerance_f32 / reason_f32
    (where float32 needs its own) replace tolerance / reason."""
    q = cmp["quantity"]
    tol_key, reason_key = ("tolerance_f32", "reason_f32") if f32 and "tolerance_f32" in cmp else ("tolerance", "reason")
    entry = {
        "id": cmp.get("id", case["id"]),
        "case": case["name"],
        "claim": cmp.get("claim", case.get("claim", "")),
        "newton_version": version,
        "quantity": q,
        "reduce": cmp.get("reduce", "max_abs"),
        "tolerance": cmp.get(tol_key),
        "tolerance_reason": cmp.get(reason_key, ""),
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
        tol = float(cmp[tol_key])
        if d <= tol:
            entry.update(verdict="agree", reason=f"|difference| {d:.3g} <= {tol:.3g}")
        else:
            entry.update(verdict="differ", reason=f"|difference| {d:.3g} > {tol:.3g}")
    note = case.get("drift", {}).get(version)
    if note:
        entry["version_note"] = note
    if entry["verdict"] == "differ" and cmp.get("known_difference"):
        entry["known_difference"] = cmp["known_difference"]
        entry["difference_kind"] = cmp["difference_kind"]
        entry["reason"] += "; known difference: " + cmp["known_difference"]
    return entry


def api_status(e):
    """absent | deprecated | present, for one name in one version."""
    if not e["present"]:
        return "absent"
    return "deprecated" if e["deprecations"] else "present"


def api_table(api, baseline):
    """One row per name: per version its status, signature, keyword arguments the course passes
    that the signature lacks, and the deprecation texts; `changed` names the first version whose
    signature differs from the baseline's."""
    versions = list(api)
    with open(os.path.join(HERE, "course_api.toml"), "rb") as f:
        listed = {e["name"]: e for e in tomllib.load(f)["api"]}
    names = list(api[baseline]["names"])
    rows = []
    for n in names:
        row = {"name": n, "where": listed.get(n, {}).get("where", ""), "ids": listed.get(n, {}).get("ids", []),
               "versions": {}}
        for v in versions:
            e = api[v]["names"].get(n, {"present": False, "deprecations": [], "kwargs": {}, "signature": None})
            kw_dep = {k: [d["text"] for d in x["deprecations"]] for k, x in e.get("kwargs", {}).items() if x["deprecations"]}
            row["versions"][v] = {
                "status": api_status(e), "kind": e.get("kind"), "signature": e.get("signature"),
                "missing_kwargs": [k for k, x in e.get("kwargs", {}).items() if not x["present"] and not x.get("through_kwargs")],
                "kwarg_deprecations": kw_dep,
                "deprecations": sorted({d["text"] for d in e["deprecations"]}),
                "raised": (e.get("runtime") or {}).get("raised"),
            }
        base_sig = row["versions"][baseline]["signature"]
        row["signature_changed_in"] = next((v for v in versions if v != baseline and
                                            row["versions"][v]["signature"] != base_sig), None)
        rows.append(row)
    return {"versions": versions, "probe_errors": {v: api[v].get("probe_error") for v in versions}, "names": rows}


def api_summary(api, baseline):
    failures = 0
    for v in api:
        es = api[v]["names"]
        st = [api_status(e) for e in es.values()]
        print(f"parity: API: {len(st)} names, {st.count('present')} present, {st.count('deprecated')} deprecated, "
              f"{st.count('absent')} absent   (Newton {v})")
        if api[v].get("probe_error"):
            print(f"parity: API probe failed on Newton {v}: {api[v]['probe_error']}")
            failures += v == baseline
        for n, e in es.items():
            if api_status(e) != "present":
                print(f"  {api_status(e)[:4]} {v:6} {n:45} " + "; ".join(d["text"] for d in e["deprecations"])[:160])
            if v == baseline and not e["present"]:
                failures += 1
    return failures


def claims_table(claims, baseline):
    out = {}
    for v, c in claims.items():
        for ident, r in c["claims"].items():
            out.setdefault(ident, {"claim": r["claim"], "versions": {}})["versions"][v] = {
                "holds": r["holds"], "text": r["text"], "also": r.get("also", {}), "mujoco": c.get("_mujoco_version")}
    return out


def claims_summary(claims, baseline):
    failures = 0
    for v, c in claims.items():
        for ident, r in c["claims"].items():
            mark = "ok  " if r["holds"] else "FAIL" if v == baseline else "drft"
            print(f"  {mark} {v:6} {ident:34} {r['text'][:200]}")
            if v == baseline and not r["holds"]:
                failures += 1
    return failures


def load_cases(folder):
    """The case files of folder (sorted) and their cases, each checked and tagged with its file."""
    files = sorted(glob.glob(os.path.join(folder, "*.toml")))
    if not files:
        fail(f"no case files in {folder}")
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
                if cmp.get("known_difference") and cmp.get("difference_kind") not in DIFFERENCE_KINDS:
                    fail(f"{f}: case {c['name']}: a known_difference needs difference_kind, one of "
                         f"{', '.join(DIFFERENCE_KINDS)} (got {cmp.get('difference_kind')!r})")
                for key in ("tolerance", "tolerance_f32"):
                    if key in cmp and not (float(cmp[key]) >= 0):
                        fail(f"{f}: case {c['name']}: {key} must be >= 0, got {cmp[key]}")
                if ("tolerance_f32" in cmp) != ("reason_f32" in cmp):
                    fail(f"{f}: case {c['name']}: tolerance_f32 and reason_f32 go together ({cmp['quantity']})")
            for ex in c.get("expect", []):
                if "quantity" not in ex or "reason" not in ex or ("at_least" in ex) == ("at_most" in ex):
                    fail(f"{f}: case {c['name']}: every [[case.expect]] needs quantity, reason and one of at_least / at_most")
            c["_file"] = f
            cases.append(c)
    return files, cases


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--impulse", required=True, help="path of the parity_impulse executable")
    ap.add_argument("--python", action="append", default=[], metavar="VERSION=PY",
                    help="a Newton version and the Python of its venv (repeatable)")
    ap.add_argument("--baseline", default="1.6.1", help="the course's Newton version (default 1.6.1)")
    ap.add_argument("--cases", default=os.path.join(HERE, "cases"), help="folder of case files")
    ap.add_argument("--middle", choices=("subset", "full"), default="subset",
                    help="releases between the baseline and the last: only the cases whose verdict changed (subset) or all")
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
    with open(os.path.join(HERE, "..", "..", "golden", "course", "inventory.tsv"), encoding="utf-8") as f:
        inventory = {line.split("\t")[0] for line in f}
    with open(os.path.join(HERE, "course_api.toml"), "rb") as f:
        for e in tomllib.load(f)["api"]:
            for ident in e.get("ids", []):
                if ident not in inventory:
                    fail(f"course_api.toml: {e['name']} names '{ident}', not an inventory ID")
    files, cases = load_cases(args.cases)
    os.makedirs(args.out, exist_ok=True)

    # impulse once per file; Newton once per file and version. A release between the baseline and
    # the last one (--middle subset, the default) runs only the cases whose verdict changed from the
    # baseline to the last release, which is what it has to place; its API and claims run in full.
    imp, new = {}, {v: {} for v, _ in versions}
    newton_meta = {}
    seconds = {v: 0.0 for v, _ in versions}
    last = versions[-1][0]
    middle = [v for v, _ in versions if v not in (args.baseline, last)] if args.middle == "subset" else []
    ran = {v: set() for v, _ in versions}

    def newton_run(v, py, f, only=None):
        stem = os.path.splitext(os.path.basename(f))[0]
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        t0 = time.monotonic()
        cmd = [py, os.path.join(HERE, "newton_side.py")]
        out_path = os.path.join(args.out, f"newton-{v}-{stem}.json")
        if only is None:
            out = run_side(cmd, f, out_path, f"Newton {v}", env)
        else:
            out = run_side(cmd, f, out_path, f"Newton {v}", env, with_case=False, extra=[f, out_path, ",".join(only)])
        seconds[v] += time.monotonic() - t0
        newton_meta[v] = {"newton": out.pop("_newton_version", "?"), "warp": out.pop("_warp_version", "?")}
        if newton_meta[v]["newton"] != v:
            fail(f"the venv given for Newton {v} runs Newton {newton_meta[v]['newton']}")
        new[v].update(out)
        ran[v] |= set(out)

    for f in files:
        stem = os.path.splitext(os.path.basename(f))[0]
        imp.update(run_side([args.impulse], f, os.path.join(args.out, f"impulse-{stem}.json"), "parity_impulse"))
        for v, py in versions:
            if v not in middle:
                newton_run(v, py, f)
    if middle:
        changed = {c["name"] for c in cases for cmp in c["compare"]
                   if compare_entry(c, cmp, imp.get(c["name"], {"error": "no output"}),
                                    new[args.baseline].get(c["name"], {"error": "no output"}), args.baseline,
                                    args.baseline)["verdict"] !=
                   compare_entry(c, cmp, imp.get(c["name"], {"error": "no output"}),
                                 new[last].get(c["name"], {"error": "no output"}), last, args.baseline)["verdict"]}
        # and the cases whose claims each engine must show on its own ([[case.expect]]), in every release
        changed |= {n for c in cases for ex in c.get("expect", []) for n in (c["name"], ex.get("versus", c["name"]))}
        for v, py in versions:
            if v in middle:
                for f in files:
                    only = [c["name"] for c in cases if c["_file"] == f and c["name"] in changed]
                    if only:
                        newton_run(v, py, f, only)
                print(f"parity: Newton {v} runs the {len(ran[v])} case(s) whose verdict changed between "
                      f"{args.baseline} and {last} or that carry [[case.expect]]: {', '.join(sorted(ran[v])) or 'none'}")

    report = []
    for v, _ in versions:
        for c in cases:
            if v in middle and c["name"] not in ran[v]:
                continue
            for cmp in c["compare"]:
                e = compare_entry(c, cmp, imp.get(c["name"], {"error": "no output"}),
                                  new[v].get(c["name"], {"error": "no output"}), v, args.baseline)
                report.append(e)
    expects = [expect_entry(c, ex, imp, new[v], v) for v, _ in versions for c in cases for ex in c.get("expect", [])
               if v not in middle or (c["name"] in ran[v] and ex.get("versus", c["name"]) in ran[v])]
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
              f"{tail}   (Newton {v}, warp-lang {newton_meta.get(v, {}).get('warp', '?')})")
    api, claims = {}, {}
    for v, py in versions:
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        t0 = time.monotonic()
        api[v] = run_side([py, os.path.join(HERE, "newton_api.py"), os.path.join(HERE, "course_api.toml")], "",
                          os.path.join(args.out, f"api-{v}.json"), f"Newton {v} (API)", env, with_case=False)
        claims[v] = run_side([py, os.path.join(HERE, "newton_claims.py")], "",
                             os.path.join(args.out, f"claims-{v}.json"), f"Newton {v} (claims)", env, with_case=False)
        seconds[v] += time.monotonic() - t0
        newton_meta.setdefault(v, {"newton": api[v].get("_newton_version", "?"), "warp": api[v].get("_warp_version", "?")})
        # measured, never asserted: what each release adds to the run (Warp compiles its kernels once)
        print(f"parity: Newton {v}: {seconds[v]:.0f} s (cases, API, claims)")
    failures += api_summary(api, args.baseline) + claims_summary(claims, args.baseline)
    for e in expects:
        bound = f"{e['bound'][0].replace('_', ' ')} {e['bound'][1]:.3g}"
        sides = []
        for side in ("impulse", "newton"):
            r = e[side]
            sides.append(f"{side} " + (f"{r['value']:.3g} {'holds' if r['holds'] else 'FAILS'}" if r["value"] is not None
                                       else f"cannot: {r['error']}"))
            first = side == "impulse" and e["newton_version"] == versions[0][0]
            if (first or (side == "newton" and e["newton_version"] == args.baseline)) and not r["holds"]:
                failures += 1
        print(f"  expt {e['newton_version']:6} {e['case']:34} {e['quantity']:15} {e['id']:34} {bound}: {', '.join(sides)}")
    with open(os.path.join(args.out, "report.json"), "w") as f:
        json.dump({"baseline": args.baseline, "date": time.strftime("%Y-%m-%d", time.gmtime()), "versions": {v: newton_meta[v] for v, _ in versions if v in newton_meta}, "entries": report, "expects": expects,
                   "subset": {v: sorted(ran[v]) for v in middle},
                   "api": api_table(api, args.baseline), "claims": claims_table(claims, args.baseline)}, f, indent=1)
    if failures:
        print(f"parity: {failures} unexplained difference(s) on Newton {args.baseline}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
