"""Writes the book's "Newton parity" page and its figures from build/parity/report.json.

Usage: parity_page.py --report build/parity/report.json [--report-archived docs/parity/report.json]
                      --out SRC/generated
The report is written by verify/parity/parity.py and oracles.py (./run parity). Without one (Newton
could not be installed, e.g. offline) the page shows the archived report, committed in the
repository, and says so in its first line with that report's date; without either it says how to
make one. Nothing here computes a verdict.
"""

import argparse
import json
import os
import sys

MARK = {"agree": "agree", "differ": "**differ**", "drift": "*drift*", "not_comparable": "n/c"}


def esc(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def fmt(v):
    return "" if v is None else f"{v:.3g}"


def plots(entries, versions, figdir):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series = [e for e in entries if e["newton_version"] == versions[0] and e["quantity"] in ("z", "x", "fz")
              and isinstance(e.get("impulse"), list) and isinstance(e.get("newton"), list)
              and len(e["impulse"]) > 20 and len(e["impulse"]) == len(e["newton"])]
    made = []
    groups = [("xpbd", "XPBD (E3 §4-§5)"), ("semi-implicit", "SemiImplicit, Featherstone, VBD (E3 §6)"),
              ("mujoco", "SolverMuJoCo on the CPU (E3 §6)"), ("substeps", "E1 predictor and substeps")]
    for prefix, title in groups:
        chosen = [e for e in series if e["case"].startswith(prefix) or (prefix == "semi-implicit" and
                  e["case"].startswith(("featherstone", "vbd"))) or (prefix == "substeps" and e["case"].startswith("predictor"))]
        if not chosen:
            continue
        fig, ax = plt.subplots(figsize=(8, 4.2))
        for e in chosen:
            d = [max(abs(a - b), 1e-17) for a, b in zip(e["impulse"], e["newton"])]
            ax.semilogy(range(1, len(d) + 1), d, label=f"{e['case']} ({e['quantity']})", lw=1.2)
            if e.get("tolerance"):
                ax.axhline(float(e["tolerance"]), color=ax.lines[-1].get_color(), ls=":", lw=0.8)
        ax.set_xlabel("step")
        ax.set_ylabel("|impulse - Newton| [m or N]")
        ax.set_title(f"{title}: per-step difference against Newton {versions[0]} (dotted: tolerance)")
        ax.legend(fontsize=7, loc="lower right")
        ax.grid(True, which="both", alpha=0.3)
        name = f"parity_{prefix.replace('-', '_')}.png"
        fig.tight_layout()
        fig.savefig(os.path.join(figdir, name), dpi=110)
        plt.close(fig)
        made.append((name, title))
    return made


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--report", required=True)
    ap.add_argument("--report-archived", default="", help="a committed report, shown when --report is missing")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(os.path.join(args.out, "figures"), exist_ok=True)
    page = os.path.join(args.out, "parity.md")
    L = ["(newton-parity)=", "# Newton parity", ""]
    if not os.path.exists(args.report) and args.report_archived and os.path.exists(args.report_archived):
        args.report = args.report_archived
        with open(args.report) as f:
            made = json.load(f).get("date", "an earlier date")
        L += [f"*Newton was not run when this book was built (`./run parity` could not install it or was not run); "
              f"this page shows the report kept in the repository (`docs/parity/report.json`), made on {made}.*", ""]
    if not os.path.exists(args.report):
        L += ["No parity report was found when this book was built. `./run parity` runs every case in",
              "impulse and in Newton and writes `build/parity/report.json`; `./run test` and `./run book` run it."]
        open(page, "w").write("\n".join(L) + "\n")
        return 0
    with open(args.report) as f:
        report = json.load(f)
    entries = report["entries"]
    base = report.get("baseline", "1.6.1")
    versions = [base] + [v for v in report.get("versions", {}) if v != base]
    meta = report.get("versions", {})
    oracles = report.get("oracles", {})
    newton_entries = [e for e in entries if e["newton_version"] in versions]
    oracle_entries = [e for e in entries if e["newton_version"] not in versions]
    cases = sorted({e["case"] for e in newton_entries})

    L += [
        "Every checkable claim of the course that Newton can run is run in Newton itself, and in impulse,",
        "from one description: `verify/parity/cases/*.toml` holds each scene once (bodies, shapes, joints,",
        "materials, solver and settings, `h`, steps, what to measure) and both engines build it from there:",
        "impulse through its `ModelBuilder` (`verify/parity/impulse_side.cpp`), Newton through its own API",
        "(`ModelBuilder.add_body` / `add_link` / `add_shape_*` / `add_joint_*`, `finalize`, `CollisionPipeline.collide`,",
        "the solvers' `step`, `update_contacts`, `eval_fk` / `eval_ik`; `verify/parity/newton_side.py`), on Warp's CPU",
        "device. Newton runs in float32 and impulse in double, so every comparison states its tolerance and why.",
        "",
        "Newton " + ", ".join(f"{v} (warp-lang {meta.get(v, {}).get('warp', '?')})" for v in versions) +
        f"; the course's version is {base}. A claim that agrees on {base} and not on a later release is",
        "*drift*: shown here, with the Newton change behind it, not counted as a failure. `./run parity` runs it all",
        "and writes `build/parity/report.json`; a difference on the baseline that the case file does not explain",
        "fails `./run test`.",
        "",
        "## Summary",
        "",
        "| Newton | agree | differ (all explained) | drift | not comparable |",
        "|---|---|---|---|---|",
    ]
    for v in versions:
        es = [e for e in newton_entries if e["newton_version"] == v]
        c = {k: sum(1 for e in es if e["verdict"] == k) for k in MARK}
        L.append(f"| {v} | {c['agree']} | {c['differ']} | {c['drift']} | {c['not_comparable']} |")
    L += ["", f"{len(cases)} cases, {len([e for e in newton_entries if e['newton_version'] == base])} compared quantities per version.", ""]

    L += ["## The matrix", "", "One row per compared quantity; the difference is the largest elementwise one unless the",
          "reduction says otherwise (`mean`, `max`, `final`).", "",
          "| case | ID | quantity | tolerance | " + " | ".join(f"Newton {v}" for v in versions) + " |",
          "|---|---|---|---|" + "---|" * len(versions)]
    by = {(e["case"], e["quantity"], e["newton_version"]): e for e in newton_entries}
    keys = []
    for e in newton_entries:
        k = (e["case"], e["quantity"])
        if k not in keys:
            keys.append(k)
    for case, q in keys:
        b = by[(case, q, base)]
        cells = []
        for v in versions:
            e = by.get((case, q, v))
            cells.append("" if e is None else f"{MARK[e['verdict']]} {fmt(e.get('difference'))}")
        red = "" if b.get("reduce", "max_abs") == "max_abs" else f" ({b['reduce']})"
        L.append(f"| `{case}` | {b['id']} | {q}{red} | {fmt(b.get('tolerance'))} | " + " | ".join(cells) + " |")

    L += ["", f"## Differences on Newton {base}, and why", ""]
    for e in newton_entries:
        if e["newton_version"] == base and e["verdict"] in ("differ", "not_comparable"):
            why = e.get("known_difference") or e["reason"]
            L += [f"- **`{e['case']}`** ({e['id']}, {e['quantity']}): impulse {fmt(e.get('impulse_reduced'))}"
                  f"{'' if e.get('impulse_reduced') is None else ', Newton ' + fmt(e.get('newton_reduced'))}"
                  f"{' difference ' + fmt(e.get('difference')) if e.get('difference') is not None else ''}. {esc(why)}"]
    L += ["", "## Drift: what changed after 1.6.1", ""]
    drift = [e for e in newton_entries if e["verdict"] == "drift"]
    notes = {}
    for e in newton_entries:
        if e["newton_version"] != base and e.get("version_note"):
            notes[(e["case"], e["newton_version"])] = e["version_note"]
    if not drift and not notes:
        L.append("No case changed its verdict between the versions.")
    for e in drift:
        L.append(f"- **`{e['case']}`** ({e['id']}, {e['quantity']}) on Newton {e['newton_version']}: {esc(e['reason'])}")
    for (case, v), note in notes.items():
        if not any(d["case"] == case and d["newton_version"] == v for d in drift):
            L.append(f"- **`{case}`** on Newton {v}: {esc(note)}")

    L += ["", "## What the cases settle about the course's wording", "",
          "- **`update_contacts` and kinematic bodies.** Newton 1.6.1's docstring of `SolverXPBD.update_contacts`",
          "  says that a contact between a dynamic and a kinematic body is scaled by the dynamic body's count",
          "  (1/N_dynamic). Its kernel counts every body with an id, kinematic or not, and uses 1/N only when the",
          "  other side is the world (body -1), the harmonic mean 2/(N_a + N_b) otherwise. The case",
          "  `xpbd-kinematic-platform-two-cubes` (two cubes on one kinematic platform: N = 8 for the platform, 4 for",
          "  each cube, weight 1/6 instead of 1/4) agrees with Newton's code; impulse follows the code",
          "  (E3.4-count-by-body-id), and its docstring says so.",
          "- **The single-step readback `(1 - 0.2^k) m g`** (E3.4-readback-scale) holds for one contact whose lever arm",
          "  is parallel to the normal: a sphere resting on the ground (`xpbd-sphere-single-step-readback-k2`, `-k4`).",
          "  A box resting on four corners (`xpbd-box-single-step-readback`) reads back about a quarter of m g after",
          "  one step at k = 2 in both engines: each corner's correction also turns the box, so the four rows do not",
          "  add up to the sphere's law. The chapter states the law for the sphere only.",
          "- **XPBD joints are solved row by row in the joint frame.** The parity of the pendulum cases needed",
          "  impulse's joint rows to be Newton's: one positional row per locked axis of the parent joint frame,",
          "  all evaluated on the same poses, with the translation relaxed by 0.7 and the rotation by 0.4",
          "  (`newton/_src/solvers/xpbd/kernels.py`, `solve_body_joints`). A single row along the separation gave",
          "  a different pendulum (0.028 m apart after one second).",
          ""]

    if oracle_entries:
        L += ["## Other oracles: Pinocchio and MuJoCo", "",
              f"Pinocchio {oracles.get('pinocchio', '?')} checks the generalized-coordinate dynamics behind SolverFeatherstone on",
              "random trees of REVOLUTE and PRISMATIC joints with rotated frames: the joint-space mass matrix against",
              "`pinocchio.crba`, the forward dynamics against `pinocchio.aba`, and `pinocchio.rnea` at impulse's",
              f"accelerations (it must return zero). MuJoCo {oracles.get('mujoco', '?')} steps the pendulum and a 3-link chain with",
              "its four integrators against impulse's `SolverGeneralizedIntegrator`; both run in float64, so the",
              "tolerances are roundoff-sized. The scenes are generated from a fixed seed into",
              "`build/parity/oracle_cases.toml` and read by both sides.", "",
              "| case | ID | quantity | oracle | verdict | difference | tolerance |", "|---|---|---|---|---|---|---|"]
        for e in oracle_entries:
            L.append(f"| `{e['case']}` | {e['id']} | {e['quantity']} | {e['newton_version']} | {MARK[e['verdict']]} | "
                     f"{fmt(e.get('difference'))} | {fmt(e.get('tolerance'))} |")
        L.append("")

    made = plots(newton_entries, versions, os.path.join(args.out, "figures"))
    if made:
        L += ["## Per-step differences", ""]
        for name, title in made:
            L += [f"```{{figure}} figures/{name}", f":width: 100%", "", f"{title}: |impulse - Newton {base}| per step "
                  "for every trajectory case; dotted lines are the cases' tolerances.", "```", ""]
    L += ["## Tolerances", "", "Each case's tolerance and its reason, as the case file states them:", "",
          "| case | quantity | tolerance | reason |", "|---|---|---|---|"]
    for case, q in keys:
        b = by[(case, q, base)]
        L.append(f"| `{case}` | {q} | {fmt(b.get('tolerance'))} | {esc(b.get('tolerance_reason', ''))} |")
    open(page, "w").write("\n".join(L) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
