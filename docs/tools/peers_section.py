"""The Measurements page's whole-step section: impulse's pile benchmarks, and the peers when
`./run bench-peers` has written build/bench/peers.json (bench/peers/run_peers.py).

pile_lines(impulse, figures) runs a short impulse-only pile bench (a few seconds) so the page
always has the stage split; peers_lines(path, figures) plots peers.json when it is there and says
plainly when it is not; lcp_lines(path) tables its "lcp" part (bench/peers/run_lcp_peers.py).
Measured, never asserted.
"""
import json
import os
import pathlib
import subprocess

import matplotlib.pyplot as plt

PILE_N = 1000
PILE_STEPS = 30


def _bench(binary, args):
    r = subprocess.run([binary, "bench", *args, "--json"], capture_output=True, text=True, check=True,
                       stdin=subprocess.DEVNULL)
    return {k: v["value"] for k, v in json.loads(r.stdout)["metrics"].items()}


def pile_lines(impulse):
    lines = [
        "## Whole step: collide, solve, read back",
        "",
        f"`impulse bench e3-pile-spheres` and `e3-pile-boxes` at N = {PILE_N}, {PILE_STEPS} steps, one thread",
        "(`--compare-threads 1` also steps a two-thread copy, interleaved step by step): the real",
        "`CollisionPipeline` (SAP broad phase, GJK/EPA narrow phase, the Contacts record), `SolverXPBD`",
        "and `update_contacts`, with the pile of `bench/peers/scenes/pile.toml`. Seconds per step by stage,",
        "quality beside them, and the allocations and parallel_for launches of a step after two warm-up steps.",
        "",
    ]
    # One column per pile and one row per quantity: fourteen quantities side by side would not fit
    # the text column (docs/tools/check_rendered.py measures it).
    rows = [("s per step, whole step", "{:.3g}", "seconds_per_step"), ("s per step, broad phase", "{:.2g}", "broad_seconds_per_step"),
            ("s per step, narrow phase", "{:.2g}", "narrow_seconds_per_step"), ("s per step, record", "{:.2g}", "contacts_seconds_per_step"),
            ("s per step, solve", "{:.2g}", "solve_seconds_per_step"), ("s per step, readback", "{:.2g}", "readback_seconds_per_step"),
            ("contacts", "{:.0f}", "contacts_per_step"), ("max penetration [m]", "{:.2g}", "max_penetration"),
            ("kinetic energy [J]", "{:.2g}", "kinetic_energy")]
    cols = {}
    for kind in ("spheres", "boxes"):
        m = _bench(impulse, [f"e3-pile-{kind}", "--n", str(PILE_N), "--steps", str(PILE_STEPS), "--compare-threads", "1"])
        al = " / ".join(f"{m[f'allocations_{s}_per_step']:.0f}" for s in ("collide", "solve", "readback"))
        if m["allocations_collide_per_step"] < 0:
            al = "not counted"
        la = " / ".join(f"{m[f'launches_{s}_per_step']:.0f}" for s in ("collide", "solve", "readback"))
        cols[kind] = [f.format(m[key]) for _, f, key in rows] + [
            al, la, f"{m['speedup_2_over_1_median']:.2f}", "yes" if m["threads_bitwise_equal"] == 1 else "NO"]
    names = [r[0] for r in rows] + ["allocations (collide / solve / readback)", "launches (collide / solve / readback)",
                                    "2 threads / 1 thread", "bitwise equal, 1 and 2 threads"]
    lines += ["| per step | " + " | ".join(f"{k} pile" for k in cols) + " |", "|---|" + "---:|" * len(cols)]
    for i, name in enumerate(names):
        lines.append(f"| {name} | " + " | ".join(cols[k][i] for k in cols) + " |")
    lines += ["", "The allocations are counted by the `impulse` command's replaced operator new and by every",
              "Buffer. The engine allocates nothing in a step after warm-up: its buffers are kept and grown only",
              "when a count grows. That holds in a CUDA build too (`cuda_built` = 1 in the bench's JSON): a launch",
              "body is an `IMPULSE_KERNEL`, a `__device__` lambda and a plain lambda of one source, because nvcc's",
              "wrapper of a `__host__ __device__` lambda copies the closure to the heap, one allocation per launch.",
              "`bench.pile_smoke` checks zero in every build.", ""]
    return lines


def peers_lines(path, figures, archived=""):
    """The peers section from path (this machine's ./run bench-peers) or, when that does not
    exist, from archived (a committed earlier run, said so on the page)."""
    def has_piles(f):  # ./run bench-peers --lcp-only writes a peers.json without the pile part
        return bool(f) and pathlib.Path(f).is_file() and "results" in json.loads(pathlib.Path(f).read_text(encoding="utf-8"))

    p = pathlib.Path(path)
    lines = ["## Against Bullet, ODE, MuJoCo and Newton", ""]
    if not has_piles(path) and has_piles(archived):
        p = pathlib.Path(archived)
        lines += [
            "`./run bench-peers` has not run the piles on the machine that built this book; the figures below",
            f"are an earlier run kept in the repository (`docs/bench/{p.name}`), with its own machine and",
            "date in the captions. `./run bench-peers` measures this machine and replaces them.", ""]
    if not has_piles(p):
        return lines + [
            "`./run bench-peers` has not been run on the machine that built this book, so there is no",
            "comparison here. It builds the Bullet and ODE drivers of `bench/peers/`, runs MuJoCo from",
            "PyPI, interleaves the engines round by round on the same `pile.toml` and writes",
            "`build/bench/peers.json`, which this page then plots.", ""]
    rep = json.loads(p.read_text(encoding="utf-8"))
    res = rep["results"]
    caption = (f"Measured {rep['date']} on {rep['machine']}; impulse {rep['impulse_threads']} thread, peers "
               f"{rep['peer_threads']} thread, OMP_WAIT_POLICY={rep['omp_wait_policy']}, {rep['rounds']} rounds.")
    kinds = sorted({r["kind"] for r in res})
    engines = sorted({r["engine"] for r in res})
    fig, axes = plt.subplots(1, len(kinds), figsize=(5 * len(kinds), 4), squeeze=False)
    for ax, kind in zip(axes[0], kinds):
        for e in engines:
            pts = sorted((r["n"], r["n"] / r["seconds_per_step"]["median"]) for r in res if r["engine"] == e and r["kind"] == kind)
            if pts:
                ax.loglog([x for x, _ in pts], [y for _, y in pts], marker="o", label=e)
        ax.set_title(f"{kind} pile: whole step")
        ax.set_xlabel("N (bodies)")
        ax.set_ylabel("body-steps per second")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(pathlib.Path(figures) / "peers_throughput.png", dpi=110)
    plt.close(fig)
    fig, axes = plt.subplots(1, len(kinds), figsize=(5 * len(kinds), 4), squeeze=False)
    for ax, kind in zip(axes[0], kinds):
        n0 = min(r["n"] for r in res if r["kind"] == kind)
        for r in res:
            if r["kind"] == kind and r["n"] == n0:
                ax.semilogy(r["series_t"], [max(v, 1e-9) for v in r["series_max_penetration"]],
                            label=f"{r['engine']} @{r['iterations']}")
        ax.set_title(f"{kind} pile, N = {n0}")
        ax.set_xlabel("t [s]")
        ax.set_ylabel("max ground penetration [m]")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(pathlib.Path(figures) / "peers_penetration.png", dpi=110)
    plt.close(fig)
    lines += [
        f"From `{p.name}`, written by `./run bench-peers` (`bench/peers/run_peers.py`): every",
        "engine reads `bench/peers/scenes/pile.toml` and the layout checksums agree; ratios are",
        "(engine's seconds per whole step) / (impulse's) in the same round, median and range over rounds.",
        "",
        "```{figure} figures/peers_throughput.png", ":width: 95%", "", "Whole-step throughput against N, log-log. " + caption, "```",
        "",
        "```{figure} figures/peers_penetration.png", ":width: 95%", "", "Ground penetration against time. " + caption, "```",
        "",
        "Time per step:", "",
        "| pile | N | engine @ iterations | ms per step | ratio to impulse (range) | collide ms | solve ms |",
        "|---|---:|---|---:|---|---:|---:|",
    ]
    ordered = sorted(res, key=lambda r: (r["kind"], r["n"], r["engine"]))
    for r in ordered:
        q = r.get("ratio_to_impulse")
        ratio = f"{q['median']:.2f} ({q['min']:.2f}-{q['max']:.2f})" if q else "-"
        ms = lambda v: f"{v * 1e3:.3g}" if v is not None else "-"  # noqa: E731
        lines.append(f"| {r['kind']} | {r['n']} | {r['engine']} @{r['iterations']} | {ms(r['seconds_per_step']['median'])}"
                     f" | {ratio} | {ms(r['collide_seconds_per_step'])} | {ms(r['solve_seconds_per_step'])} |")
    lines += ["", "Quality of the same runs:", "",
              "| pile | N | engine @ iterations | max pen. [m] | KE [J] | drift max [m] | contacts |",
              "|---|---:|---|---:|---:|---:|---:|"]
    for r in ordered:
        lines.append(f"| {r['kind']} | {r['n']} | {r['engine']} @{r['iterations']} | {r['max_penetration']:.2g}"
                     f" | {r['kinetic_energy']:.2g} | {r['drift_max']:.2g} | {r['contacts_per_step']:.0f} |")
    for kind, m in rep.get("matched_quality", {}).items():
        lines += ["", f"Matched quality, {kind} at N = {m['n']}: impulse at {m['iterations']} iterations "
                  f"({'reaches' if m['reached'] else 'does not reach'} Bullet's max penetration "
                  f"{m['bullet_max_penetration']:.2g} m; tried " +
                  ", ".join(f"{t['iterations']}: {t['max_penetration']:.2g} m" for t in m["tried"]) + ")."]
    lines += curve_lines(rep, figures, caption)
    for m in rep.get("matched_at_rounds", []):
        st = m["setting"]
        lines += ["", f"At matched quality, {m['kind']} pile at N = {m['n']}: impulse at {st['substeps']} substeps x "
                  f"{st['iterations']} iterations (collide {st['collide']}; the setting matched at this N or the "
                  f"largest curve N below it) takes {m['ratio']['median']:.2f}x Bullet's whole step "
                  f"({m['ratio']['min']:.2f}-{m['ratio']['max']:.2f} over {m['ratio']['rounds']} rounds)."]
    if rep.get("estimated_seconds") is not None:
        lines += ["", f"This run ({rep.get('grid', 'default')} grid) took {rep['elapsed_seconds'] / 60:.1f} min; "
                  f"its estimate from short probes was {rep['estimated_seconds'] / 60:.1f} min" +
                  ("; by phase: " + ", ".join(f"{k} {v / 60:.1f} min" for k, v in rep["phase_seconds"].items())
                   if rep.get("phase_seconds") else "") + "."]
    for s in rep.get("skipped", []):
        if s["engine"] == "curves":
            lines += ["", f"Curves not run: {s.get('kind', 'every pile')} at N = {s['n']} ({s['why']})."]
    lines += newton_lines(rep)
    for t in rep.get("impulse_threads_1_vs_2", []):
        lines += ["", f"impulse, {t['kind']} N = {t['n']}: two threads run a step {t['speedup_2_over_1_median']:.2f}x as fast "
                  f"as one (quartiles {t['speedup_2_over_1_p25']:.2f}-{t['speedup_2_over_1_p75']:.2f}); "
                  f"bitwise equal: {'yes' if t['threads_bitwise_equal'] == 1 else 'NO'}."]
    return lines + [""]


def newton_lines(rep):
    """Newton 1.6.1 on Warp's CPU device against impulse in double and float32: same scene, XPBD,
    iterations and gap; Newton's seconds over impulse's, per stage and whole step, same round."""
    rows = rep.get("newton_ratios", [])
    if not rows:
        return []

    def fmt(x):
        return f"{x['median']:.1f} ({x['min']:.1f}-{x['max']:.1f})"

    lines = ["", "### Newton 1.6.1 on Warp's CPU device", "",
             "The same scene, algorithm and settings: SolverXPBD at impulse's iterations, the same contact gap, the",
             "sweep-and-prune broad phase, contact forces read back each step (`bench/peers/newton_pile.py`, float32,",
             "Newton's only precision). Newton's seconds over impulse's in the same round, median (range) over rounds;",
             "impulse-f32 is impulse's float32 build (`IMPULSE_SINGLE_PRECISION`).", "",
             "| pile | N | impulse build | whole step | collide | solve |", "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['kind']} | {r['n']} | {r['impulse']} | {fmt(r['seconds_per_step'])} "
                     f"| {fmt(r['collide_seconds_per_step'])} | {fmt(r['solve_seconds_per_step'])} |")
    return lines


# The settled-pile quality numbers of a curve point (bench/peers/run_peers.py QUALITY), as plotted.
CURVE_PANELS = [("window_ground_penetration_max", "max ground penetration [m]"),
                ("window_body_penetration_max", "max body-body penetration [m]"),
                ("window_kinetic_energy", "kinetic energy [J]")]


def curve_lines(rep, figures, caption):
    """The cost of quality: one figure per pile and N, quality against seconds per simulated second,
    log-log, every engine; impulse one line per substep count (iterations along it)."""
    out = []
    for c in rep.get("curves", []):
        name = f"peers_curve_{c['kind']}_{c['n']}.png"
        fig, axes = plt.subplots(1, len(CURVE_PANELS), figsize=(4.2 * len(CURVE_PANELS), 3.8), squeeze=False)
        groups = {}
        for p in c["points"]:
            st = p["setting"]
            label = (f"{p['engine']} {st['substeps']} substeps" if "substeps" in st else p["engine"])
            groups.setdefault(label, []).append(p)
        for ax, (key, ylabel) in zip(axes[0], CURVE_PANELS):
            for label, pts in sorted(groups.items()):
                pts = sorted(pts, key=lambda p: p["seconds_per_simulated_second"])
                style = "--" if "once" in label else "-"
                ax.loglog([p["seconds_per_simulated_second"] for p in pts], [max(p[key], 1e-12) for p in pts],
                          style, marker="o" if label.startswith("impulse") else "s", markersize=3, label=label)
            ax.set_xlabel("seconds per simulated second")
            ax.set_ylabel(ylabel)
            ax.grid(True, which="both", alpha=0.3)
        axes[0][0].legend(fontsize=6)
        settle = c.get("settle_time", rep.get("settle_time"))
        span = (f"over {rep.get('quality_window', 0.2)} s from {settle} s (settled)" if settle is not None
                else f"over the last {rep.get('quality_window', 0.2)} s")
        fig.suptitle(f"{c['kind']} pile, N = {c['n']}: quality {span} against cost", fontsize=9)
        fig.tight_layout()
        fig.savefig(pathlib.Path(figures) / name, dpi=110)
        plt.close(fig)
        m, ref = c.get("matched"), c.get("reference")
        if m and ref:
            verdict = (f"the cheapest impulse setting that matches Bullet at {ref['setting']['iterations']} iterations "
                       f"on all six numbers is {m['setting']}, {m['seconds_per_simulated_second']:.3g} s/s against "
                       f"Bullet's {ref['seconds_per_simulated_second']:.3g}: ratio {c['ratio_to_bullet']:.2f}.")
        elif ref:
            verdict = "no impulse setting on the grid matched Bullet on all six numbers."
        else:
            verdict = "Bullet was not run, so nothing is matched."
        out += ["", f"```{{figure}} figures/{name}", ":width: 95%", "",
                f"{c['kind']} pile, N = {c['n']}, {c['steps']} frames: {verdict} " + caption, "```"]
    if rep.get("curves"):
        settle, window = rep.get("settle_time"), rep.get("quality_window", 0.2)
        when = (f"from the file's settle_time = {settle} s, when the pile has come to rest (its kinetic energy "
                "against time, measured in every engine, is flat by then), for its quality_window = "
                f"{window} s" if settle is not None else f"over the run's last {window} s")
        out = ["", "The cost of quality. Each point is one run of `bench/peers/scenes/pile.toml`'s pile; quality is",
               f"taken {when}: ground and body-body penetration (max and mean), kinetic energy (jitter at",
               "rest) and drift of the pile's centre; matched means all six at or below Bullet's at 10",
               "iterations, on a settled window in both. impulse runs the course's frame loop (E1 §7): N",
               "substeps, collide at each (dashed: collide once per frame), iterations along each line. At",
               "the second N the default run tries impulse's settings from the first N's match upwards in",
               "cost and stops at the first match (`--full-grid`: every setting at every N)."] + out
    return out


def lcp_lines(path, figures, archived=""):
    """The LCP comparison from the "lcp" key of path or, when path has none, of archived, with a
    plot of each problem's time ratio against its size."""
    lines = ["## Lemke against DART and Siconos", ""]
    rep, source = None, None
    for i, f in enumerate((path, archived)):
        if f and pathlib.Path(f).is_file():
            whole = json.loads(pathlib.Path(f).read_text(encoding="utf-8"))
            if "lcp" in whole:
                rep, source = whole["lcp"], pathlib.Path(f)
                if i == 1:
                    lines += [
                        "The LCP comparison has not been run on the machine that built this book; the table",
                        f"below is an earlier run kept in the repository (`docs/bench/{source.name}`), with its",
                        "own machine and date.", ""]
                break
    if rep is None:
        return lines + [
            "`./run bench-peers` has not run the LCP comparison on the machine that built this book.", ""]
    small = rep.get("small_n", 30)
    lines += [
        "`./run bench-peers` (or `--lcp-only`) writes two sets of contact LCPs with",
        "`impulse lcp --write-set scenes|held-out`: *scenes*, the first LCP of a few steps of each",
        "Stewart-Trinkle run (`st-bounce`, a point on an incline, `st-rod`, `st-balls` with 4, 8 and 16",
        "friction directions and its 7-contact LCP, rows of touching balls), and",
        f"*held-out*, {rep['held_out_count']} random ball piles of 3-10 balls (seed {rep['held_out_seed']}).",
        "Each engine is a driver of `bench/peers/` that reads the same files and solves each one",
        f"{rep['repeat']} times per round after a warm-up solve; {rep['rounds']} rounds interleave the engines.",
        "DART's other LCP solver, the ODE-derived Dantzig `dSolveLCP`, factors the clamped block as",
        "L D L^T, i.e. it assumes a symmetric matrix, which the Stewart-Trinkle contact LCP is not (its",
        "friction-cone rows), so it is not run.",
        "*Own* counts the solver's own success status; *checked* counts answers with relative",
        f"complementarity and feasibility residuals at most {rep['check_tolerance']:g}",
        "(`bench/peers/lcp_common.h`). Ratio = engine's seconds per solve / impulse's in the same round,",
        "per problem the median over rounds; the table gives the median over the set's problems and",
        "the range over problems.",
        "",
        f"Measured {rep['date']} on {rep['machine']}, {rep['threads']} thread per engine.",
        "",
        "```{figure} figures/lcp_ratio.png", ":width: 95%", "",
        f"Seconds per solve of each engine / impulse's, per problem (failed solves included) against its size n, log-log (above 1:"
        f" slower than impulse). Measured {rep['date']} on {rep['machine']}, one thread, {rep['rounds']} rounds.",
        "```",
        "",
        "| set | n | engine | solver | own solved | checked solved |",
        "|---|---|---|---|---:|---:|",
    ]

    def fmt(q):
        return f"{q['median']:.3g} ({q['min']:.3g}-{q['max']:.3g})" if q else "-"
    for r in rep["sets"]:
        lines.append(f"| {r['set']} | {r['n_min']}-{r['n_max']} | {r['engine']} | {r['description']} "
                     f"| {r['own_solved']}/{r['problems']} | {r['check_solved']}/{r['problems']} |")
    lines += ["", "Seconds per solve against impulse's: median (range over problems).", "",
              f"| set | engine | all n | n < {small} | n >= {small} |", "|---|---|---|---|---|"]
    for r in rep["sets"]:
        lines.append(f"| {r['set']} | {r['engine']} | {fmt(r['ratio_to_impulse'])} "
                     f"| {fmt(r.get(f'ratio_to_impulse_n_below_{small}'))} | {fmt(r.get(f'ratio_to_impulse_n_from_{small}'))} |")
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), squeeze=False)
    for ax, name in zip(axes[0], ("scenes", "held-out")):
        for r in rep["sets"]:
            if r["set"] == name and r["engine"] != "impulse:lemke":
                ax.loglog([p["n"] for p in r["per_problem"]], [p["ratio_to_impulse"] for p in r["per_problem"]],
                          "o", ms=4, alpha=0.7, label=r["engine"])
        ax.axhline(1.0, color="k", lw=0.8)
        ax.set_title(f"{name} set")
        ax.set_xlabel("LCP size n")
        ax.set_ylabel("seconds per solve / impulse's")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(pathlib.Path(figures) / "lcp_ratio.png", dpi=110)
    plt.close(fig)
    failed = [(r, f) for r in rep["sets"] for f in r["failed"]]
    if failed:
        lines += ["", "Failed problems (own status: the solver's return code; residuals relative):", ""]
        for r, f in failed:
            c = "-" if f["complementarity"] is None else f"{f['complementarity']:.2g}"
            fe = "-" if f["feasibility"] is None else f"{f['feasibility']:.2g}"
            lines.append(f"- {r['engine']}, {r['set']}/`{f['file']}` (n = {f['n']}): own status {f['own_status']}"
                         f" ({'success' if f['own_solved'] else 'failure'}), complementarity {c}, feasibility {fe}")
    for s in rep.get("skipped", []):
        lines += ["", f"Skipped {s['engine']}: {s['why']}."]
    return lines + [""]
