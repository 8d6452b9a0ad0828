#!/usr/bin/env python3
"""impulse against Bullet, ODE and MuJoCo on the piles of bench/peers/scenes/pile.toml.

Every engine reads the same file; before any time is compared, the layout checksums of all
engines must agree. Rounds interleave the engines (the order rotates each round), each run a
fresh process that times only its step loop. Per engine and N: seconds per whole step (median
over rounds), per stage where the engine exposes it, the ratio to impulse of the same round
(median, min, max), and the quality columns (from the last round). impulse runs on one thread
(its 1-vs-2-thread ratio and bitwise check come from one extra impulse run per N with
--compare-threads 1). Matched quality: impulse's XPBD iterations are raised (4, 8, 16, 32, 64)
until its max ground penetration is at most Bullet's at peer_iterations, at the matching N, and
that configuration joins the rounds at that N as "impulse-matched". MuJoCo runs up to
--mujoco-max-n bodies; skipped runs are listed in the report.

Measured, never asserted. Writes OUT/peers.json and prints a table.

    run_peers.py --impulse BIN --drivers DIR --python PY --out DIR [--n 1000,10000] [--rounds 3]
                 [--kinds spheres,boxes] [--steps S] [--match-n N]
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

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCENE = ROOT / "bench" / "peers" / "scenes" / "pile.toml"
MATCH_ITERATIONS = [4, 8, 16, 32, 64]


def steps_for(n, override):
    """Default steps: the file's 300 at N = 10^3, fewer at larger N (at least 20): ~3e5 body-steps."""
    return override if override > 0 else max(20, min(300, 300000 // n))


def run_json(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                       env=dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "2")))
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} failed ({r.returncode}): {r.stderr.strip()[-400:]}")
    return json.loads(r.stdout)


def impulse_run(a, kind, n, steps, iterations=None, compare=False):
    cmd = [a.impulse, "bench", f"e3-pile-{kind}", "--n", str(n), "--steps", str(steps), "--threads", "1",
           "--compare-threads", "1" if compare else "0", "--json"]
    if iterations:
        cmd += ["--iterations", str(iterations)]
    m = {k: v["value"] for k, v in run_json(cmd)["metrics"].items()}
    return {"engine": "impulse", "kind": kind, "n": n, "steps": steps, "iterations": int(m["iterations"]),
            "layout_checksum": m["layout_checksum"], "seconds_per_step": m["seconds_per_step"],
            "collide_seconds_per_step": m["broad_seconds_per_step"] + m["narrow_seconds_per_step"] +
            m["contacts_seconds_per_step"],
            "solve_seconds_per_step": m["solve_seconds_per_step"],
            "stages": {k.replace("_seconds_per_step", ""): m[k] for k in m if k.endswith("_seconds_per_step")},
            "contacts_per_step": m["contacts_per_step"], "max_penetration": m["max_penetration"],
            "mean_penetration": m["mean_penetration"], "kinetic_energy": m["kinetic_energy"],
            "drift_mean": m["drift_mean"], "drift_max": m["drift_max"],
            "allocations_per_step": {k: m[k] for k in m if k.startswith("allocations_")}, "metrics": m}


def impulse_series(a, kind, n, steps, iterations):
    """Penetration against time from `impulse run` (the CSV of the same pile and options)."""
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([a.impulse, "run", f"e3-pile-{kind}", "--n", str(n), "--steps", str(steps), "--iterations",
                        str(iterations), "--out", d], check=True, capture_output=True, stdin=subprocess.DEVNULL)
        rows = list(csv.DictReader(open(pathlib.Path(d) / f"e3-pile-{kind}.csv", encoding="utf-8")))
    return [float(r["t_s"]) for r in rows], [float(r["max_penetration_m"]) for r in rows]


def peer_run(a, engine, kind, n, steps):
    args = ["--scene", str(SCENE), "--kind", kind, "--n", str(n), "--steps", str(steps)]
    if engine == "mujoco":
        return run_json([a.python, str(ROOT / "bench" / "peers" / "mujoco_pile.py"), *args])
    return run_json([str(pathlib.Path(a.drivers) / f"{engine}_pile"), *args])


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
    ap.add_argument("--kinds", default="spheres,boxes")
    ap.add_argument("--steps", type=int, default=-1)
    ap.add_argument("--match-n", type=int, default=-1, help="N of the matched-quality search (default: 10^4 if listed)")
    ap.add_argument("--engines", default="impulse,bullet,ode,mujoco")
    ap.add_argument("--mujoco-max-n", type=int, default=10000,
                    help="largest N given to MuJoCo (its model compile and Newton solve grow fast with N)")
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
    if any(k not in ("spheres", "boxes") for k in kinds):
        bad_input(f"bench-peers: --kinds must list spheres and/or boxes, got '{a.kinds}'")
    engines = a.engines.split(",")
    peers = [e for e in engines if e != "impulse"]
    match_n = a.match_n if a.match_n > 0 else (10000 if 10000 in sizes else sizes[0])

    # Matched quality: impulse's iterations raised until its penetration is Bullet's or less.
    matched = {}
    if "bullet" in engines:
        for kind in kinds:
            steps = steps_for(match_n, a.steps)
            target = peer_run(a, "bullet", kind, match_n, steps)["max_penetration"]
            tried = []
            for it in MATCH_ITERATIONS:
                r = impulse_run(a, kind, match_n, steps, iterations=it)
                tried.append({"iterations": it, "max_penetration": r["max_penetration"]})
                print(f"match {kind} N={match_n}: impulse {it} iterations max penetration {r['max_penetration']:.3g} m"
                      f" (Bullet {target:.3g} m)", file=sys.stderr)
                if r["max_penetration"] <= target:
                    break
            matched[kind] = {"n": match_n, "bullet_max_penetration": target, "tried": tried,
                             "iterations": tried[-1]["iterations"],
                             "reached": tried[-1]["max_penetration"] <= target}

    runs = {}  # (engine, kind, n) -> list of per-round results
    skipped = []
    threads = {}
    for kind in kinds:
        for n in sizes:
            steps = steps_for(n, a.steps)
            threads[(kind, n)] = impulse_run(a, kind, n, steps, compare=True)["metrics"]
            order = [e for e in engines if not (e == "mujoco" and n > a.mujoco_max_n)]
            if n > a.mujoco_max_n and "mujoco" in engines:
                skipped.append({"engine": "mujoco", "kind": kind, "n": n, "why": f"N above --mujoco-max-n {a.mujoco_max_n}"})
            if kind in matched and n == matched[kind]["n"]:
                order.append("impulse-matched")
            for rnd in range(a.rounds):
                rot = order[rnd % len(order):] + order[:rnd % len(order)]
                for e in rot:
                    if e == "impulse":
                        r = impulse_run(a, kind, n, steps)
                    elif e == "impulse-matched":
                        r = impulse_run(a, kind, n, steps, iterations=matched[kind]["iterations"])
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
                last["series_t"], last["series_max_penetration"] = impulse_series(a, kind, n, last["steps"],
                                                                                  last["iterations"])
            else:
                last["series_t"], last["series_max_penetration"] = [], []
        row["series_t"], row["series_max_penetration"] = last["series_t"], last["series_max_penetration"]
        results.append(row)
    report = {
        "machine": machine(), "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY", "(unset)"), "impulse_threads": 1,
        "peer_threads": 1, "rounds": a.rounds, "scene": str(SCENE.relative_to(ROOT)), "results": results,
        "matched_quality": matched, "skipped": skipped,
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
    print(f"wrote {out / 'peers.json'}")


if __name__ == "__main__":
    main()
