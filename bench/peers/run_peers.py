#!/usr/bin/env python3
"""impulse against Bullet, ODE, MuJoCo and Newton on the piles of bench/peers/scenes/pile.toml.

Every engine reads the same file; before any time is compared, the layout checksums of all
engines must agree. Rounds interleave the engines (the order rotates each round), each run a
fresh process that times only its step loop. Per engine and N: seconds per whole step (median
over rounds), per stage where the engine exposes it, the ratio to impulse of the same round
(median, min, max), and the quality columns (from the last round). impulse runs on one thread
(its 1-vs-2-thread ratio and bitwise check come from one extra impulse run per N with
--compare-threads 1).

The cost of quality, as curves (at each N of --curve-n, the file's full run so that the pile has
settled): impulse over --substeps x --iterations through its frame loop (simulate_frame, collide
every substep; --once-substeps adds the collide-once-per-frame variant), each peer over
--peer-iterations. Quality is the settled pile's (pile.toml: over the last quality_window
seconds, ground and body-body penetration max and mean, kinetic energy, drift of the centre);
cost is seconds per simulated second. Matched = every one of those six at or below Bullet's at
peer_iterations; the cheapest impulse setting that matches, and its ratio to Bullet, go in the
report's "curves", and that setting joins the rounds at that N as "impulse-matched". MuJoCo runs
up to --mujoco-max-n bodies; skipped runs are listed in the report.

Newton 1.6.1 (Warp's CPU device, float32; --newton-python, the parity venv) runs the same scene,
algorithm and settings as impulse's bench (SolverXPBD at impulse_iterations, the same gap), timed
per stage (collide, solve) and whole step, up to --newton-max-n bodies; --impulse-f32 (the float32
build's impulse) joins the rounds as "impulse-f32", so that both precisions are compared with it.
"newton_ratios" in the report: Newton's time over impulse's (double and float32) per stage and
whole step, median over rounds (each ratio of the same round).

Measured, never asserted. Writes OUT/peers.json and prints a table.

    run_peers.py --impulse BIN --drivers DIR --python PY --out DIR [--n 1000,10000] [--rounds 3]
                 [--kinds spheres,boxes] [--steps S] [--curve-n 1000] [--substeps 1,2,4,8]
                 [--iterations 1,2,4,8] [--once-substeps 4,8] [--peer-iterations 5,10,20]
                 [--newton-python PY] [--impulse-f32 BIN] [--newton-iterations 4] [--newton-max-n 10000]
"""
import argparse
import csv
import datetime
import json
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import tempfile
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCENE = ROOT / "bench" / "peers" / "scenes" / "pile.toml"
_COMMON = tomllib.load(open(SCENE, "rb"))["common"]
# the scenes of a fixed body count (pile.toml's n): the tall stack and the heavy-on-light stack
FIXED_N = {k: int(v["n"]) for k, v in tomllib.load(open(SCENE, "rb")).items() if isinstance(v, dict) and "n" in v}
SPEC_STEPS, SPEC_H, PEER_ITERATIONS = int(_COMMON["steps"]), float(_COMMON["h"]), int(_COMMON["peer_iterations"])
QUALITY = ["window_ground_penetration_max", "window_ground_penetration_mean", "window_body_penetration_max",
           "window_body_penetration_mean", "window_kinetic_energy", "window_centre_drift"]


def steps_for(n, override):
    """Default steps: the file's 300 at N = 10^3, fewer at larger N (at least 20): ~3e5 body-steps."""
    return override if override > 0 else max(20, min(300, 300000 // n))


def run_json(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                       env=dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "2")))
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} failed ({r.returncode}): {r.stderr.strip()[-400:]}")
    return json.loads(r.stdout)


def impulse_run(a, kind, n, steps, iterations=None, compare=False, substeps=1, once=False, binary=None):
    cmd = [binary or a.impulse, "bench", f"e3-pile-{kind}", "--n", str(n), "--steps", str(steps), "--threads", "1",
           "--compare-threads", "1" if compare else "0", "--substeps", str(substeps),
           "--collide", "once" if once else "every", "--json"]
    if iterations:
        cmd += ["--iterations", str(iterations)]
    m = {k: v["value"] for k, v in run_json(cmd)["metrics"].items()}
    return {"engine": "impulse", "kind": kind, "n": n, "steps": steps, "iterations": int(m["iterations"]),
            "substeps": substeps, "collide": "once" if once else "every",
            **{q: m[q] for q in QUALITY},
            "layout_checksum": m["layout_checksum"], "seconds_per_step": m["seconds_per_step"],
            "collide_seconds_per_step": m["broad_seconds_per_step"] + m["narrow_seconds_per_step"] +
            m["contacts_seconds_per_step"],
            "solve_seconds_per_step": m["solve_seconds_per_step"],
            "stages": {k.replace("_seconds_per_step", ""): m[k] for k in m if k.endswith("_seconds_per_step")},
            "contacts_per_step": m["contacts_per_step"], "max_penetration": m["max_penetration"],
            "mean_penetration": m["mean_penetration"], "kinetic_energy": m["kinetic_energy"],
            "drift_mean": m["drift_mean"], "drift_max": m["drift_max"],
            "allocations_per_step": {k: m[k] for k in m if k.startswith("allocations_")}, "metrics": m}


def impulse_series(binary, kind, n, steps, iterations):
    """Penetration against time from `impulse run` (the CSV of the same pile and options)."""
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([binary, "run", f"e3-pile-{kind}", "--n", str(n), "--steps", str(steps), "--iterations",
                        str(iterations), "--out", d], check=True, capture_output=True, stdin=subprocess.DEVNULL)
        rows = list(csv.DictReader(open(pathlib.Path(d) / f"e3-pile-{kind}.csv", encoding="utf-8")))
    return [float(r["t_s"]) for r in rows], [float(r["max_penetration_m"]) for r in rows]


def peer_run(a, engine, kind, n, steps, iterations=None):
    args = ["--scene", str(SCENE), "--kind", kind, "--n", str(n), "--steps", str(steps)]
    if iterations:
        args += ["--iterations", str(iterations)]
    if engine == "mujoco":
        return run_json([a.python, str(ROOT / "bench" / "peers" / "mujoco_pile.py"), *args])
    if engine == "newton":
        return run_json([a.newton_python, str(ROOT / "bench" / "peers" / "newton_pile.py"), *args])
    return run_json([str(pathlib.Path(a.drivers) / f"{engine}_pile"), *args])


def matches(r, ref):
    """Every settled-pile quality number of r at or below ref's."""
    return all(r[q] <= ref[q] for q in QUALITY)


def curves(a, kind, n, steps, h, engines, peer_iters):
    """Quality against seconds per simulated second for every engine, and the cheapest match."""
    points = []

    def add(r, engine, setting):
        pt = {"engine": engine, "setting": setting, "seconds_per_simulated_second": r["seconds_per_step"] / h,
              "contacts_per_step": r["contacts_per_step"], **{q: r[q] for q in QUALITY}}
        points.append(pt)
        print(f"curve {kind} N={n}: {engine} {setting}: {pt['seconds_per_simulated_second']:.3g} s/s, ground max "
              f"{pt['window_ground_penetration_max']:.2g} m, body max {pt['window_body_penetration_max']:.2g} m, "
              f"KE {pt['window_kinetic_energy']:.2g} J", file=sys.stderr)
        return pt

    for sub in a.substeps_list:
        for it in a.iterations_list:
            add(impulse_run(a, kind, n, steps, iterations=it, substeps=sub), "impulse",
                {"substeps": sub, "iterations": it, "collide": "every"})
    for sub in a.once_list:
        for it in a.iterations_list:
            add(impulse_run(a, kind, n, steps, iterations=it, substeps=sub, once=True), "impulse-collide-once",
                {"substeps": sub, "iterations": it, "collide": "once"})
    ref = None
    for e in engines:
        if e.startswith("impulse") or skip_reason(a, e, n):
            continue
        for it in (a.newton_iterations_list if e == "newton" else peer_iters):
            pt = add(peer_run(a, e, kind, n, steps, iterations=it), e, {"iterations": it})
            if e == "bullet" and it == PEER_ITERATIONS:
                ref = pt
    out = {"kind": kind, "n": n, "steps": steps, "points": points, "reference": ref}
    if ref:
        ok = [p for p in points if p["engine"].startswith("impulse") and matches(p, ref)]
        best = min(ok, key=lambda p: p["seconds_per_simulated_second"]) if ok else None
        out["matched"] = best
        out["ratio_to_bullet"] = (best["seconds_per_simulated_second"] / ref["seconds_per_simulated_second"]
                                  if best else None)
    return out


def skip_reason(a, engine, n):
    """Why engine does not run at N bodies (None when it does)."""
    if engine == "mujoco" and n > a.mujoco_max_n:
        return f"N above --mujoco-max-n {a.mujoco_max_n}"
    if engine == "newton" and n > a.newton_max_n:
        return f"N above --newton-max-n {a.newton_max_n}"
    return None


def newton_ratios(runs, kind, n):
    """Newton's seconds over impulse's (double and float32), per stage and whole step, per round."""
    out = []
    for base in ("impulse", "impulse-f32"):
        if ("newton", kind, n) not in runs or (base, kind, n) not in runs:
            continue
        row = {"kind": kind, "n": n, "impulse": base}
        for st in ("seconds_per_step", "collide_seconds_per_step", "solve_seconds_per_step"):
            row[st] = spread([nr[st] / br[st] for nr, br in zip(runs[("newton", kind, n)], runs[(base, kind, n)])])
        out.append(row)
    return out


def machine():
    model = platform.machine()
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} logical cores"


def bad_input(msg):
    """Bad input: one line naming the argument, exit 2 (nothing written)."""
    print(msg, file=sys.stderr)
    sys.exit(2)


def spread(v):
    return {"median": statistics.median(v), "min": min(v), "max": max(v), "rounds": len(v)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--impulse", required=True)
    ap.add_argument("--drivers", required=True, help="folder with bullet_pile and ode_pile")
    ap.add_argument("--python", required=True, help="a Python with mujoco")
    ap.add_argument("--out", required=True)
    ap.add_argument("--n", default="1000,10000")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--kinds", default="spheres,boxes,stack,heavy")
    ap.add_argument("--steps", type=int, default=-1)
    ap.add_argument("--curve-n", default="1000", help="N of the quality curves (each run the file's full steps)")
    ap.add_argument("--substeps", default="1,2,4,8", help="impulse substeps per frame on the curves")
    ap.add_argument("--iterations", default="1,2,4,8", help="impulse XPBD iterations on the curves")
    ap.add_argument("--once-substeps", default="4,8", help="substeps of the collide-once-per-frame variant")
    ap.add_argument("--peer-iterations", default="5,10,20", help="peer iterations on the curves")
    ap.add_argument("--engines", default="impulse,bullet,ode,mujoco,newton")
    ap.add_argument("--mujoco-max-n", type=int, default=10000,
                    help="largest N given to MuJoCo (its model compile and Newton solve grow fast with N)")
    ap.add_argument("--newton-python", default="", help="a Python with newton 1.6.1 (the parity venv); none: no Newton")
    ap.add_argument("--impulse-f32", default="", help="the float32 build's impulse; none: no impulse-f32")
    ap.add_argument("--newton-iterations", default="4", help="Newton's XPBD iterations on the curves")
    ap.add_argument("--newton-max-n", type=int, default=10000, help="largest N given to Newton")
    a = ap.parse_args()
    try:
        sizes = [int(x) for x in a.n.split(",")]
    except ValueError:
        bad_input(f"bench-peers: --n must be a comma-separated list of whole numbers, got '{a.n}'")
    if any(not 1 <= n <= 100000 for n in sizes):  # impulse's e3-pile domain (lib/course/scene_domains.cpp)
        bad_input(f"bench-peers: every --n must be in [1, 100000], got '{a.n}'")
    if not 1 <= a.rounds <= 20:
        bad_input(f"bench-peers: --rounds must be in [1, 20], got {a.rounds}")
    kinds = a.kinds.split(",")
    if any(k not in ("spheres", "boxes", "stack", "heavy") for k in kinds):
        bad_input(f"bench-peers: --kinds must list spheres, boxes, stack and/or heavy, got '{a.kinds}'")
    engines = a.engines.split(",")
    if any(e not in ("impulse", "bullet", "ode", "mujoco", "newton") for e in engines):
        bad_input(f"bench-peers: --engines must list impulse, bullet, ode, mujoco and/or newton, got '{a.engines}'")
    skipped = []
    if "newton" in engines and not a.newton_python:
        engines.remove("newton")
        skipped.append({"engine": "newton", "why": "no Newton venv (--newton-python; PyPI out of reach?)"})
    if a.impulse_f32:
        engines.insert(engines.index("impulse") + 1 if "impulse" in engines else 0, "impulse-f32")
    try:
        a.substeps_list = [int(x) for x in a.substeps.split(",")]
        a.iterations_list = [int(x) for x in a.iterations.split(",")]
        a.once_list = [int(x) for x in a.once_substeps.split(",") if x]
        peer_iters = [int(x) for x in a.peer_iterations.split(",")]
        a.newton_iterations_list = [int(x) for x in a.newton_iterations.split(",")]
        curve_sizes = [int(x) for x in a.curve_n.split(",") if x]
    except ValueError:
        bad_input("bench-peers: --substeps, --iterations, --once-substeps, --peer-iterations and --curve-n must be "
                  "comma-separated whole numbers")
    if any(not 1 <= x <= 64 for x in a.substeps_list + a.iterations_list + a.once_list + peer_iters +
           a.newton_iterations_list):
        bad_input("bench-peers: every --substeps, --iterations, --once-substeps, --peer-iterations and "
                  "--newton-iterations must be in [1, 64]")
    if PEER_ITERATIONS not in peer_iters and "bullet" in engines:
        peer_iters.append(PEER_ITERATIONS)  # the reference of "matched"

    # The cost of quality: curves, and the cheapest impulse setting that matches Bullet.
    curve_list, matched = [], {}
    for kind in kinds:
        for n in ([FIXED_N[kind]] if kind in FIXED_N else curve_sizes):
            c = curves(a, kind, n, SPEC_STEPS, SPEC_H, engines, peer_iters)
            curve_list.append(c)
            if c.get("matched"):
                matched[(kind, n)] = c["matched"]["setting"]

    runs = {}  # (engine, kind, n) -> list of per-round results
    threads = {}
    for kind in kinds:
        for n in ([FIXED_N[kind]] if kind in FIXED_N else sizes):
            steps = steps_for(n, a.steps)
            threads[(kind, n)] = impulse_run(a, kind, n, steps, compare=True)["metrics"]
            order = [e for e in engines if not skip_reason(a, e, n)]
            skipped += [{"engine": e, "kind": kind, "n": n, "why": skip_reason(a, e, n)}
                        for e in engines if skip_reason(a, e, n)]
            if (kind, n) in matched:
                order.append("impulse-matched")
            for rnd in range(a.rounds):
                rot = order[rnd % len(order):] + order[:rnd % len(order)]
                for e in rot:
                    if e == "impulse":
                        r = impulse_run(a, kind, n, steps)
                    elif e == "impulse-f32":
                        r = impulse_run(a, kind, n, steps, binary=a.impulse_f32)
                        r["engine"] = e
                    elif e == "impulse-matched":
                        st = matched[(kind, n)]
                        r = impulse_run(a, kind, n, steps, iterations=st["iterations"], substeps=st["substeps"],
                                        once=st["collide"] == "once")
                        r["engine"] = e
                    else:
                        r = peer_run(a, e, kind, n, steps)
                    r["round"] = rnd
                    runs.setdefault((e, kind, n), []).append(r)
                    print(f"{kind} N={n} round {rnd}: {e} {r['seconds_per_step'] * 1e3:.3f} ms/step", file=sys.stderr)
            sums = {runs[(e, kind, n)][0]["layout_checksum"] for e in order}
            if max(sums) - min(sums) > 1e-6 * max(1.0, abs(max(sums))):
                sys.exit(f"bench-peers: the engines built different {kind} layouts at N={n} (checksums {sorted(sums)})")

    results = []
    for (e, kind, n), rs in runs.items():
        base = runs[("impulse", kind, n)] if ("impulse", kind, n) in runs else None
        last = rs[-1]
        row = {k: last[k] for k in ("engine", "kind", "n", "steps", "iterations", "contacts_per_step", "max_penetration",
                                     "mean_penetration", "kinetic_energy", "drift_mean", "drift_max")}
        row.update({q: last[q] for q in QUALITY if q in last})
        row["seconds_per_step"] = spread([r["seconds_per_step"] for r in rs])
        for st in ("collide_seconds_per_step", "solve_seconds_per_step"):
            vals = [r[st] for r in rs if r.get(st, -1) >= 0]
            row[st] = statistics.median(vals) if vals else None
        if "stages" in last:
            row["stages"] = {k: statistics.median([r["stages"][k] for r in rs]) for k in last["stages"]}
            row["allocations_per_step"] = last["allocations_per_step"]
        if base:
            row["ratio_to_impulse"] = spread([r["seconds_per_step"] / b["seconds_per_step"]
                                              for r, b in zip(rs, base)])
        if e.startswith("impulse"):  # the bench returns numbers only; the run writes the series
            if n == min(sizes):
                binary = a.impulse_f32 if e == "impulse-f32" else a.impulse
                last["series_t"], last["series_max_penetration"] = impulse_series(binary, kind, n, last["steps"],
                                                                                  last["iterations"])
            else:
                last["series_t"], last["series_max_penetration"] = [], []
        row["series_t"], row["series_max_penetration"] = last["series_t"], last["series_max_penetration"]
        results.append(row)
    ratios = [r for kind in kinds for n in ([FIXED_N[kind]] if kind in FIXED_N else sizes)
              for r in newton_ratios(runs, kind, n)]
    report = {
        "machine": machine(), "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY", "(unset)"), "impulse_threads": 1,
        "peer_threads": 1, "rounds": a.rounds, "scene": str(SCENE.relative_to(ROOT)), "results": results,
        "curves": curve_list, "newton_ratios": ratios, "quality_metrics": QUALITY, "quality_window": _COMMON["quality_window"], "skipped": skipped,
        "impulse_threads_1_vs_2": [{"kind": k, "n": n, **{x: m[x] for x in m if "two" in x or "speedup" in x or "bitwise" in x},
                                    "one_thread_seconds_per_step": m["seconds_per_step"]}
                                   for (k, n), m in threads.items()],
    }
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "peers.json").write_text(json.dumps(report, indent=1))

    print(f"{'kind':8} {'N':>7} {'engine':16} {'ms/step':>9} {'ratio to impulse (min-max)':>28} {'max pen m':>10}"
          f" {'KE J':>10} {'drift m':>9} {'contacts':>9}")
    for r in sorted(results, key=lambda r: (r["kind"], r["n"], r["engine"])):
        ratio = r.get("ratio_to_impulse")
        rt = f"{ratio['median']:.2f} ({ratio['min']:.2f}-{ratio['max']:.2f})" if ratio else "-"
        print(f"{r['kind']:8} {r['n']:7d} {r['engine'] + '@' + str(r['iterations']):16} "
              f"{r['seconds_per_step']['median'] * 1e3:9.3f} {rt:>28} {r['max_penetration']:10.3g}"
              f" {r['kinetic_energy']:10.3g} {r['drift_max']:9.3g} {r['contacts_per_step']:9.0f}")
    for t in report["impulse_threads_1_vs_2"]:
        print(f"impulse {t['kind']} N={t['n']}: 2 threads {t['speedup_2_over_1_median']:.2f}x one thread "
              f"(quartiles {t['speedup_2_over_1_p25']:.2f}-{t['speedup_2_over_1_p75']:.2f}), bitwise equal: "
              f"{bool(t['threads_bitwise_equal'])}, OMP_WAIT_POLICY={report['omp_wait_policy']}")
    for r in ratios:
        print(f"newton / {r['impulse']} {r['kind']} N={r['n']}: whole step {r['seconds_per_step']['median']:.2f}x, "
              f"collide {r['collide_seconds_per_step']['median']:.2f}x, solve {r['solve_seconds_per_step']['median']:.2f}x "
              f"(median of {r['seconds_per_step']['rounds']} rounds)")
    for c in curve_list:
        m = c.get("matched")
        if m:
            print(f"matched {c['kind']} N={c['n']}: impulse {m['setting']} {m['seconds_per_simulated_second']:.3g} s/s, "
                  f"Bullet@{PEER_ITERATIONS} {c['reference']['seconds_per_simulated_second']:.3g} s/s: ratio "
                  f"{c['ratio_to_bullet']:.2f}")
        else:
            print(f"matched {c['kind']} N={c['n']}: no impulse setting on the grid matched Bullet@{PEER_ITERATIONS}")
    print(f"wrote {out / 'peers.json'}")


if __name__ == "__main__":
    main()
