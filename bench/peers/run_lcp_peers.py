#!/usr/bin/env python3
"""impulse's Lemke against DART's and Siconos's LCP solvers on the same contact LCP files.

The sets are written at bench time by `impulse lcp --write-set scenes|held-out` (lib/cli/lcp_sets.h):
`scenes`, LCPs that the Stewart-Trinkle scenes solve, and `held-out`, random ball piles from a
fixed seed. Every engine is a driver of bench/peers/ (lcp_common.h) that reads the files, solves each
one `--repeat` times after a warm-up solve, and prints per file its seconds per solve, its own verdict
and the independent check (relative residuals <= 1e-6, see lcp_common.h). Rounds interleave the
engines (the order rotates each round), each a fresh process on every file of both sets, on one
thread (OMP_NUM_THREADS=1).

Per engine and set: solved / failed by the solver's own status and by the check, the problems it
fails (with its status and residuals), and the time ratio engine / impulse: per problem the median
over rounds of the same-round ratio, then the median and range over the set's problems (and the
median per round, to show the spread between rounds).

Measured, never asserted. Merges its report into OUT/peers.json under the key "lcp" (the pile
part, when there, is kept) and prints a table.

    run_lcp_peers.py --impulse BIN --drivers DIR --out DIR [--rounds 3] [--repeat 20]
                     [--engines impulse:lemke,dart:lemke,siconos:lemke,siconos:pivot] [--count 28] [--seed 1]
"""
import argparse
import datetime
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys

from run_peers import machine  # the same machine line as the pile part

SETS = ("scenes", "held-out")
SMALL_N = 30  # the report splits each set's ratios at this LCP size (small problems favour less setup)
DEFAULT_ENGINES = "impulse:lemke,dart:lemke,siconos:lemke,siconos:pivot"
# What each engine:solver is, for the report (the drivers' file comments say more).
DESCRIPTION = {
    "impulse:lemke": "impulse st::solve_lcp: Lemke, lexicographic ratio test, basis inverse updated per pivot",
    "dart:lemke": "DART 6.12 dart::lcpsolver::Lemke: Lemke, min-ratio test with 1e-5 slack, LU solve per pivot",
    "siconos:lemke": "Siconos numerics lcp_lexicolemke: Lemke on a full tableau, lexicographic ratio test",
    "siconos:pivot": "Siconos numerics lcp_pivot: complementary pivoting, its default rule (Lemke)",
    "siconos:newton_fb": "Siconos numerics Newton on the Fischer-Burmeister function with line search",
}


def bad_input(msg):
    """Bad input: one line naming the argument, exit 2 (nothing written)."""
    print(msg, file=sys.stderr)
    sys.exit(2)


def write_sets(a, root):
    """The two sets, fresh, as files under root/<set>/; returns {set: [paths]}."""
    files = {}
    for s in SETS:
        d = root / s
        shutil.rmtree(d, ignore_errors=True)
        cmd = [a.impulse, "lcp", "--write-set", s, "--out", str(d)]
        if s == "held-out":
            cmd += ["--count", str(a.count), "--seed", str(a.seed)]
        subprocess.run(cmd, check=True, capture_output=True, stdin=subprocess.DEVNULL)
        files[s] = sorted(str(p) for p in d.glob("*.lcp"))
    return files


def run_driver(a, engine, solver, paths):
    cmd = [str(pathlib.Path(a.drivers) / f"{engine}_lcp"), "--solver", solver, "--repeat", str(a.repeat), *paths]
    # One thread: impulse_lib is built with OpenMP, which Eigen would use for large products.
    r = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                       env=dict(os.environ, OMP_NUM_THREADS="1"))
    if r.returncode != 0:
        raise RuntimeError(f"{engine}_lcp failed ({r.returncode}): {r.stderr.strip()[-400:]}")
    # Only the JSON lines: a peer library may print its own messages on standard output.
    return [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]


def spread(v):
    return {"median": statistics.median(v), "min": min(v), "max": max(v), "count": len(v)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--impulse", required=True)
    ap.add_argument("--drivers", required=True, help="folder with impulse_lcp, dart_lcp, siconos_lcp")
    ap.add_argument("--out", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=20, help="timed solves per file and round")
    ap.add_argument("--engines", default=DEFAULT_ENGINES, help="engine:solver list, impulse:lemke first")
    ap.add_argument("--count", type=int, default=28, help="problems in the held-out set")
    ap.add_argument("--seed", type=int, default=1, help="seed of the held-out set")
    a = ap.parse_args()
    if not 1 <= a.rounds <= 20:
        bad_input(f"bench-peers: --rounds must be in [1, 20], got {a.rounds}")
    if not 1 <= a.repeat <= 1000:
        bad_input(f"bench-peers: --repeat must be in [1, 1000], got {a.repeat}")
    engines = [tuple(e.split(":", 1)) for e in a.engines.split(",")]
    if engines[0] != ("impulse", "lemke") or any(len(e) != 2 or f"{e[0]}:{e[1]}" not in DESCRIPTION for e in engines):
        bad_input(f"bench-peers: --engines must start with impulse:lemke and name only {', '.join(DESCRIPTION)}; "
                  f"got '{a.engines}'")
    missing = [e for e, _ in engines if not (pathlib.Path(a.drivers) / f"{e}_lcp").is_file()]
    skipped = [{"engine": f"{e}:{s}", "why": f"{e}_lcp was not built (its Debian package was not found)"}
               for e, s in engines if e in missing]
    engines = [(e, s) for e, s in engines if e not in missing]

    out = pathlib.Path(a.out)
    files = write_sets(a, out / "lcp")
    every = [p for s in SETS for p in files[s]]
    set_of = {p: s for s in SETS for p in files[s]}

    runs = {}  # (engine:solver, file) -> [per-round result]
    for rnd in range(a.rounds):
        order = engines[rnd % len(engines):] + engines[:rnd % len(engines)]
        for e, s in order:
            for r in run_driver(a, e, s, every):
                r["round"] = rnd
                runs.setdefault((f"{e}:{s}", r["file"]), []).append(r)
            total = sum(runs[(f"{e}:{s}", p)][-1]["seconds_per_solve"] for p in every)
            print(f"lcp round {rnd}: {e}:{s} {total * 1e3:.3f} ms for one solve of each of {len(every)} LCPs",
                  file=sys.stderr)

    sets = []
    for st in SETS:
        paths = files[st]
        ns = [runs[("impulse:lemke", p)][0]["n"] for p in paths]
        for key in (f"{e}:{s}" for e, s in engines):
            rows = [runs[(key, p)] for p in paths]
            first = [r[0] for r in rows]
            per_problem = []
            for p, rs in zip(paths, rows):
                base = runs[("impulse:lemke", p)]
                per_problem.append({
                    "file": pathlib.Path(p).name, "n": rs[0]["n"],
                    "seconds_per_solve": statistics.median(r["seconds_per_solve"] for r in rs),
                    "ratio_to_impulse": statistics.median(r["seconds_per_solve"] / b["seconds_per_solve"]
                                                          for r, b in zip(rs, base)),
                    "own_solved": rs[0]["own_solved"], "own_status": rs[0]["own_status"],
                    "check_solved": rs[0]["check_solved"], "complementarity": rs[0]["complementarity"],
                    "feasibility": rs[0]["feasibility"],
                    # a deterministic solver gives the same verdict every round; say so if not
                    "verdict_changed_between_rounds": len({(r["own_solved"], r["check_solved"]) for r in rs}) > 1})
            per_round = [statistics.median(runs[(key, p)][rnd]["seconds_per_solve"] /
                                           runs[("impulse:lemke", p)][rnd]["seconds_per_solve"] for p in paths)
                         for rnd in range(a.rounds)]
            sets.append({
                "set": st, "engine": key, "description": DESCRIPTION[key], "problems": len(paths),
                "n_min": min(ns), "n_max": max(ns),
                "own_solved": sum(r["own_solved"] for r in first),
                "check_solved": sum(r["check_solved"] for r in first),
                "own_solved_but_check_failed": sum(r["own_solved"] and not r["check_solved"] for r in first),
                "seconds_per_solve_total": sum(pp["seconds_per_solve"] for pp in per_problem),
                "ratio_to_impulse": spread([pp["ratio_to_impulse"] for pp in per_problem]),
                "ratio_to_impulse_per_round": spread(per_round),
                **{f"ratio_to_impulse_n_{tag}": spread(v) if v else None for tag, v in (
                    (f"below_{SMALL_N}", [pp["ratio_to_impulse"] for pp in per_problem if pp["n"] < SMALL_N]),
                    (f"from_{SMALL_N}", [pp["ratio_to_impulse"] for pp in per_problem if pp["n"] >= SMALL_N]))},
                "failed": [pp for pp in per_problem if not (pp["own_solved"] and pp["check_solved"])],
                "per_problem": per_problem})

    report = {
        "machine": machine(), "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "threads": 1, "rounds": a.rounds, "repeat": a.repeat, "check_tolerance": next(iter(runs.values()))[0]["check_tolerance"],
        "small_n": SMALL_N, "held_out_seed": a.seed, "held_out_count": a.count,
        "command": f"impulse lcp --write-set scenes|held-out (--count {a.count} --seed {a.seed})",
        "sets": sets, "skipped": skipped}
    out.mkdir(parents=True, exist_ok=True)
    path = out / "peers.json"
    whole = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    whole["lcp"] = report
    path.write_text(json.dumps(whole, indent=1))

    def fmt(q):
        return f"{q['median']:.3g} ({q['min']:.3g}-{q['max']:.3g})" if q else "-"
    print(f"{'set':9} {'engine':15} {'n':>7} {'own':>6} {'check':>6}  {'ratio to impulse: median (range)':34}"
          f" {'n < ' + str(SMALL_N):22} {'n >= ' + str(SMALL_N):22} per-round medians")
    for r in sets:
        pr = r["ratio_to_impulse_per_round"]
        print(f"{r['set']:9} {r['engine']:15} {str(r['n_min']) + '-' + str(r['n_max']):>7} "
              f"{r['own_solved']:>3}/{r['problems']:<2} {r['check_solved']:>3}/{r['problems']:<2}  "
              f"{fmt(r['ratio_to_impulse']):34} {fmt(r[f'ratio_to_impulse_n_below_{SMALL_N}']):22} "
              f"{fmt(r[f'ratio_to_impulse_n_from_{SMALL_N}']):22} {pr['min']:.3g}-{pr['max']:.3g}")
    for r in sets:
        for f in r["failed"]:
            print(f"  {r['engine']} fails {r['set']}/{f['file']} (n = {f['n']}): own status {f['own_status']}, "
                  f"check {'passed' if f['check_solved'] else 'failed'} (complementarity {f['complementarity']}, "
                  f"feasibility {f['feasibility']})")
    for s in skipped:
        print(f"  skipped {s['engine']}: {s['why']}")
    print(f"wrote the LCP comparison into {path} (key \"lcp\")")


if __name__ == "__main__":
    main()
