"""Writes the book's "Newton parity" page and its figures from build/parity/report.json.

Usage: parity_page.py --report build/parity/report.json [--report-archived docs/parity/report.json]
                      [--drake build/drake/report.json] [--f32 build/f32/parity/report.json]
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
KIND = {"newton_artefact": "Newton artefact", "follows_course": "follows the course", "impulse": "impulse's own"}


def api_section(api, base):
    """The API table: each name the course teaches, per release present / deprecated / absent,
    with the replacement each deprecation names and the release whose signature changed."""
    versions = api["versions"]
    L = ["", "## The API the course teaches, release by release", "",
         f"Every Newton name the course uses ({len(api['names'])}, listed once in `verify/parity/course_api.toml`), checked in",
         "each release by `verify/parity/newton_api.py`: present, its signature, the keyword arguments the course passes,",
         "and deprecation, read from the warning a call emits (the course's own sequence is run: builder, finalize,",
         "request, sensor, contacts, collide, step, `update_contacts`, `SensorContact.update`, the other solvers), a",
         "`warnings.warn(..., DeprecationWarning)` in its body, or a `.. deprecated::` note. Footnotes give each",
         "deprecation's text, which names the replacement.", "",
         "| name | course | " + " | ".join(f"Newton {v}" for v in versions) + " |", "|---|---|" + "---|" * len(versions)]
    notes = []
    for row in api["names"]:
        cells = []
        for v in versions:
            r = row["versions"][v]
            word = {"present": "present", "deprecated": "**deprecated**", "absent": "**absent**"}[r["status"]]
            extra = []
            if r["missing_kwargs"]:
                extra.append("no " + ", ".join(f"`{k}=`" for k in r["missing_kwargs"]))
            for k, texts in r["kwarg_deprecations"].items():
                extra.append(f"`{k}=` deprecated")
                texts_all = [f"`{k}=`: {t}" for t in texts]
                notes += [(row["name"], v, t) for t in texts_all]
            if row.get("signature_changed_in") == v:
                extra.append("signature changed")
            if r["raised"]:
                extra.append(f"raises {r['raised'].split(':')[0]}")
            for t in r["deprecations"]:
                notes.append((row["name"], v, t))
            cells.append(word + (f" ({'; '.join(extra)})" if extra else ""))
        L.append(f"| `{row['name']}` | {esc(row.get('where', ''))} | " + " | ".join(cells) + " |")
    L += ["", "Deprecation texts, as Newton words them:", ""]
    where = {}
    for name, v, t in notes:
        vs = where.setdefault((name, t), [])
        if v not in vs:
            vs.append(v)
    for (name, t), vs in where.items():
        L.append(f"- `{name}`, Newton {', '.join(vs)}: {esc(t)}")
    if any(api["probe_errors"].values()):
        L += ["", "The probe that runs the course's sequence failed on: " +
              "; ".join(f"Newton {v}: {esc(e.splitlines()[0])}" for v, e in api["probe_errors"].items() if e)]
    return L


def claims_section(claims, versions):
    """The course's claims about Newton itself (its MuJoCo adapter), as each release answers them."""
    L = ["", "## The course's claims about Newton's MuJoCo adapter", "",
         "impulse has no MuJoCo backend, so these are run in Newton alone (`verify/parity/newton_claims.py`), with the",
         "`mujoco` package each release pins, on the CPU.", ""]
    for ident, c in claims.items():
        L += [f"**{ident}**: {esc(c['claim'])}.", ""]
        for v in versions:
            r = c["versions"].get(v)
            if r is None:
                continue
            verdict = "holds" if r["holds"] else "**does not hold**" if r["holds"] is False else "**could not run**"
            L.append(f"- Newton {v} (mujoco {r.get('mujoco', '?')}): {verdict}. {esc(r['text']).rstrip('.')}.")
        L.append("")
    return L


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


def drake_section(path):
    """Route (c) against Drake (verify/parity/drake_hydro.py): its rows, or one line when not run."""
    L = ["## Route (c): hydroelastic contact against Drake", "",
         "Newton builds its SDF and hydroelastic route on CUDA only (`SDF.create_from_mesh` refuses without a",
         "CUDA device), so it is not among the cases above, which run Newton on the CPU; no GPU case compares",
         "it yet. Drake's hydroelastic contact runs on the CPU: for a sphere its compliant field E (R - r) / R",
         "is Newton's linear law with kh = E / R, so a sphere pressed into a rigid box has the same force in",
         "both (and the closed form of chapters/e3/04-materials.md). `./run drake` compares impulse's F_agg",
         "with Drake's contact force at ten depths.", ""]
    if not path or not os.path.exists(path):
        return L + ["*Drake was not run when this book was built (`./run drake` skips when PyPI is out of reach).*", ""]
    with open(path) as f:
        d = json.load(f)
    L += [f"Drake {d['drake']}, sphere R = {d['radius_m']} m, kh = {d['kh_N_per_m3']:g} N/m³ "
          f"(E = {d['kh_N_per_m3'] * d['radius_m']:g} Pa), resolution_hint {d['resolution_hint_m']} m; tolerance "
          f"{100 * d['tolerance']:g} % (Drake's tessellated sphere is inscribed and loses up to 0.7 % of the force at this hint).", "",
          "| depth [m] | impulse F_agg [N] | Drake [N] | closed form [N] | difference |", "|---|---|---|---|---|"]
    for r in d["rows"]:
        L.append(f"| {r['depth_m']:g} | {r['impulse_N']:.4g} | {r['drake_N']:.4g} | {r['closed_form_N']:.4g} | "
                 f"{100 * r['difference']:.2f} % |")
    return L + [""]


def float32_section(path):
    """impulse's float32 build against Newton 1.6.1 (verify/parity/parity_f32.py): counts and what
    changes from double, or one line when not run."""
    L = ["## impulse in float32", "",
         "Newton computes in float32; impulse's float32 build (`IMPULSE_SINGLE_PRECISION`) runs the same cases against",
         "the same Newton outputs (`./run float32`, `verify/parity/parity_f32.py`). The table lists every entry whose",
         "verdict or tolerance changes from the double build, whose difference becomes exactly zero, or whose",
         "difference moves by more than a quarter of its tolerance, with the reason.", ""]
    if not path or not os.path.exists(path):
        return L + ["*The float32 parity run was not made when this book was built (`./run float32` makes it).*", ""]
    with open(path) as f:
        d = json.load(f)
    counts = {k: sum(e["verdict"] == k for e in d["entries"]) for k in ("agree", "differ", "not_comparable")}
    changed = sum(c["verdict_double"] != c["verdict_f32"] for c in d["changes"])
    holds = sum(e["impulse"]["holds"] is True for e in d["expects"])
    L += [f"Newton {d['baseline']}: {counts['agree']} agree, {counts['differ']} differ (known differences: "
          f"{sum(bool(e.get('known_difference')) for e in d['entries'])}), {counts['not_comparable']} not comparable; "
          f"{changed} verdicts change from double; {holds} of {len(d['expects'])} expectations hold in float32.", "",
          "| case | quantity | verdict (double → float32) | difference double | difference float32 | tolerance | why |",
          "|---|---|---|---|---|---|---|"]
    for c in d["changes"]:
        verdict = c["verdict_double"] + ("" if c["verdict_f32"] == c["verdict_double"] else " → " + c["verdict_f32"])
        tol = fmt(c["tolerance_double"]) + ("" if c["tolerance_f32"] == c["tolerance_double"] else " → " + fmt(c["tolerance_f32"]))
        L.append(f"| `{c['case']}` | {c['quantity']} | {verdict} | {fmt(c['difference_double'])} | "
                 f"{fmt(c['difference_f32'])} | {tol} | {esc(c['why'])} |")
    return L + [""]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--report", required=True)
    ap.add_argument("--report-archived", default="", help="a committed report, shown when --report is missing")
    ap.add_argument("--drake", default="", help="build/drake/report.json of verify/parity/drake_hydro.py")
    ap.add_argument("--f32", default="", help="build/f32/parity/report.json of verify/parity/parity_f32.py")
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

    api = report.get("api")
    claims = report.get("claims", {})
    expects = [e for e in report.get("expects", []) if e["newton_version"] in versions]
    vlist = ", ".join(versions[:-1]) + f" and {versions[-1]}" if len(versions) > 1 else versions[0]
    L += [
        f"Run in Newton {vlist} on Warp's CPU device here: {len(cases)} scenes of the course, each built from one",
        "description in Newton and in impulse and compared quantity by quantity"
        + (f", the {len(api['names'])} Newton names the course teaches (present, signature, deprecation)" if api else "")
        + (f", and the course's {len(claims)} claims about Newton's MuJoCo adapter" if claims else "") + ";",
        "not run in Newton: its GPU and MuJoCo-Warp physics (only the branch MuJoCo-Warp's step takes is observed),",
        "the Stewart and Trinkle chapter (Newton has no LCP solver), and every other inventory item, which impulse's",
        "own tests check against the course (the verification matrix says per ID which is which).",
        "",
        "Each scene lives once in `verify/parity/cases/*.toml` (bodies, shapes, joints, materials, solver and settings,",
        "`h`, steps, what to measure), and both engines build it from there: impulse through its `ModelBuilder`",
        "(`verify/parity/impulse_side.cpp`), Newton through its own API (`ModelBuilder.add_body` / `add_link` /",
        "`add_shape_*` / `add_joint_*`, `finalize`, `CollisionPipeline.collide`, the solvers' `step`, `update_contacts`,",
        "`eval_fk` / `eval_ik`; `verify/parity/newton_side.py`). Newton runs in float32 and impulse in double, so",
        "every comparison states its tolerance and why.",
        "",
        "Newton " + ", ".join(f"{v} (warp-lang {meta.get(v, {}).get('warp', '?')})" for v in versions) +
        f"; the course's version is {base}. A comparison that agrees on {base} and not on a later release is",
        "*drift*: shown here at the first release that made it, with the Newton change behind it, not counted as a",
        "failure. An explained difference is one of three kinds: a Newton artefact (float32, MPR's tolerance),",
        "impulse following the course where Newton does not, or impulse's own. `./run parity` runs it all and",
        "writes `build/parity/report.json`; a difference on the baseline that the case file does not explain fails",
        "`./run test`.",
        "",
        "## Summary",
        "",
        "| Newton | agree | differ: Newton artefact | differ: follows the course | differ: impulse's own | drift | not comparable |",
        "|---|---|---|---|---|---|---|",
    ]
    for v in versions:
        es = [e for e in newton_entries if e["newton_version"] == v]
        c = {k: sum(1 for e in es if e["verdict"] == k) for k in MARK}
        kinds = {k: sum(1 for e in es if e["verdict"] == "differ" and e.get("difference_kind") == k) for k in KIND}
        L.append(f"| {v} | {c['agree']} | {kinds['newton_artefact']} | {kinds['follows_course']} | {kinds['impulse']} | "
                 f"{c['drift']} | {c['not_comparable']} |")
    L += ["", f"{len(cases)} cases, {len([e for e in newton_entries if e['newton_version'] == base])} compared quantities per version.", ""]
    for v, names in report.get("subset", {}).items():
        L += [f"Newton {v} sits between the course's release and the current one, so it runs only the {len(names)} case(s) "
              f"whose verdict changed from {base} to {versions[-1]} or that state what each engine must show on its own "
              f"({', '.join(f'`{n}`' for n in names) or 'none'}), which places each change at its release; its API and",
              "claims run in full.", ""]

    L += ["## The matrix", "", "One row per compared quantity, with the claim it tests; the difference is the largest",
          "elementwise one unless the reduction says otherwise (`mean`, `max`, `final`).", "",
          "| case: claim | ID | quantity | tolerance | " + " | ".join(f"Newton {v}" for v in versions) + " |",
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
            if e is None:
                cells.append("")
                continue
            mark = MARK[e["verdict"]]
            if e["verdict"] == "differ" and e.get("difference_kind"):
                mark += f" ({KIND[e['difference_kind']]})"
            cells.append(f"{mark} {fmt(e.get('difference'))}".strip())
        red = "" if b.get("reduce", "max_abs") == "max_abs" else f" ({b['reduce']})"
        L.append(f"| `{case}`: {esc(b.get('claim', ''))} | {b['id']} | {q}{red} | {fmt(b.get('tolerance'))} | "
                 + " | ".join(cells) + " |")

    if expects:
        L += ["", "## What each engine must show on its own", "",
              "Some claims are about one engine's behaviour, not about the two agreeing: an enabled restitution pass",
              "with e = 0 still changes velocities, the readback leaves the restitution pass's impulse out. Each is",
              "checked in impulse and in Newton, in every release (the value is the largest |series|, or the largest",
              "difference with the case named after the minus sign).", "",
              "| claim | ID | quantity | bound | impulse | " + " | ".join(f"Newton {v}" for v in versions) + " |",
              "|---|---|---|---|---|" + "---|" * len(versions)]
        seen = []
        for e in expects:
            k = (e["case"], e["quantity"], e["id"])
            if k in seen:
                continue
            seen.append(k)
            row = {x["newton_version"]: x for x in expects if (x["case"], x["quantity"], x["id"]) == k}

            def says(r):
                if r["value"] is None:
                    return f"cannot run: {esc(r['error'])}"
                return f"{'holds' if r['holds'] else '**fails**'} {fmt(r['value'])}"

            bound = f"{e['bound'][0].replace('_', ' ')} {fmt(e['bound'][1])}"
            L.append(f"| {esc(e['claim'])} (`{e['case']}`) | {e['id']} | {e['quantity']} | {bound} | {says(e['impulse'])} | "
                     + " | ".join(says(row[v]["newton"]) if v in row else "" for v in versions) + " |")

    L += ["", f"## Explained differences on Newton {base}, by kind", ""]
    for kind, title in (("newton_artefact", "A Newton artefact (float32, MPR)"),
                        ("follows_course", "impulse follows the course where Newton does not"),
                        ("impulse", "impulse's own")):
        rows = [e for e in newton_entries if e["newton_version"] == base and e["verdict"] == "differ"
                and e.get("difference_kind") == kind]
        if not rows:
            continue
        L += [f"### {title}", ""]
        for e in rows:
            nums = []
            if e.get("impulse_reduced") is not None:
                nums.append(f"impulse {fmt(e['impulse_reduced'])}, Newton {fmt(e['newton_reduced'])}")
            if e.get("difference") is not None:
                nums.append(f"difference {fmt(e['difference'])}")
            L.append(f"- **`{e['case']}`** ({e['id']}, {e['quantity']}{': ' + '; '.join(nums) if nums else ''}). "
                     f"{esc(e.get('known_difference') or e['reason'])}")
        L.append("")
    unexplained = [e for e in newton_entries if e["newton_version"] == base and e["verdict"] == "differ"
                   and not e.get("difference_kind")]
    nc = [e for e in newton_entries if e["newton_version"] == base and e["verdict"] == "not_comparable"]
    if unexplained:
        L += ["### Not explained (these fail the run)", ""]
        L += [f"- **`{e['case']}`** ({e['id']}, {e['quantity']}): {esc(e['reason'])}" for e in unexplained]
        L.append("")
    if nc:
        L += ["### Not comparable", ""]
        L += [f"- **`{e['case']}`** ({e['id']}, {e['quantity']}): {esc(e['reason'])}" for e in nc]
        L.append("")

    L += ["## Drift: what changed after " + base, ""]
    first = {}
    for e in newton_entries:
        if e["verdict"] == "drift":
            k = (e["case"], e["quantity"])
            if k not in first or versions.index(e["newton_version"]) < versions.index(first[k]["newton_version"]):
                first[k] = e
    notes = {}
    for e in newton_entries:
        if e["newton_version"] != base and e.get("version_note"):
            notes[(e["case"], e["newton_version"])] = e["version_note"]
    if not first and not notes:
        L.append("No comparison changed its verdict between the versions.")
    for e in first.values():
        later = [v for v in versions if versions.index(v) > versions.index(e["newton_version"])
                 and by.get((e["case"], e["quantity"], v), {}).get("verdict") == "drift"]
        since = f"from Newton {e['newton_version']} on" if later or e["newton_version"] == versions[-1] else \
            f"on Newton {e['newton_version']} only"
        L.append(f"- **`{e['case']}`** ({e['id']}, {e['quantity']}), {since}: {esc(e['reason'])}")
    for (case, v), note in notes.items():
        if not any(d["case"] == case for d in first.values()):
            L.append(f"- **`{case}`** on Newton {v}: {esc(note)}")
    fixed = {}
    for e in newton_entries:
        b = by.get((e["case"], e["quantity"], base))
        if e["newton_version"] != base and e["verdict"] == "agree" and b and b["verdict"] == "differ":
            fixed.setdefault((e["case"], e["quantity"]), e["newton_version"])
    for (case, q), v in fixed.items():
        b = by[(case, q, base)]
        L.append(f"- **`{case}`** ({b['id']}, {q}): differs on {base} ({KIND.get(b.get('difference_kind'), 'unexplained')}), "
                 f"agrees from Newton {v} on; the {base} difference is explained above.")

    if api:
        L += api_section(api, base)
    if claims:
        L += claims_section(claims, versions)

    L += ["", "## Weighting off", "", "```{include} ../chapters/e3/weighting-off.inc", "```"]
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
    L += drake_section(args.drake)
    L += float32_section(args.f32)
    L += ["## Tolerances", "", "Each case's tolerance and its reason, as the case file states them:", "",
          "| case | quantity | tolerance | reason |", "|---|---|---|---|"]
    for case, q in keys:
        b = by[(case, q, base)]
        L.append(f"| `{case}` | {q} | {fmt(b.get('tolerance'))} | {esc(b.get('tolerance_reason', ''))} |")
    open(page, "w").write("\n".join(L) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
