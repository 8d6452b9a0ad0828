#!/usr/bin/env python3
"""impulse against Bullet, ODE, MuJoCo and Newton on the piles of bench/peers/scenes/pile.toml.

Every engine reads the same file; before any time is compared, the layout checksums of all
engines must agree. Rounds interleave the engines (the order rotates each round), each run a
fresh process that times only its step loop. Per engine and N: seconds per whole step (median
over rounds), per stage where the engine exposes it, the ratio to impulse of the same round
(median, min, max), and the quality columns (from the last round). impulse runs on one thread
(its 1-vs-2-thread ratio and bitwise check come from one extra impulse run per N with
--compare-threads 1).

The cost of quality, as curves (at each N of --curve-n; each curve run is settle_time +
quality_window of pile.toml long, so that its window judges the pile at rest): impulse over
--substeps x --iterations through its frame loop (simulate_frame, collide every substep;
--once-substeps adds the collide-once-per-frame variant; --gs-substeps x --gs-iterations x
--gs-friction-scales the Gauss-Seidel, warm-started contact pass, SolverXPBD's extension;
--gsm-substeps x --gsm-iterations x --gsm-sweeps the Gauss-Seidel pass that solves a shape pair's rows
together, contact_manifold_sweeps, without warm start), each peer over --peer-iterations.
Quality is the settled pile's (pile.toml: over quality_window seconds from settle_time on, ground
and body-body penetration max and mean, kinetic energy, drift of the centre); cost is seconds per
simulated second. Matched = every one of those six at or below Bullet's at peer_iterations, both on
a settled window; the cheapest impulse setting that matches, and its ratio to Bullet, go in the
report's "curves", and that setting joins the rounds at that N as "impulse-matched".

The default run fits in 20 minutes on the 2-core reference machine at 1 thread: a narrow grid at
the first curve N; at the next curve N (10^4) Bullet at peer_iterations and impulse up the first
N's settings in order of cost from its match (--ladder tries, stopping at the first match); the
rounds at N >= 10^5 run Bullet at peer_iterations and impulse at the setting matched at the largest
curve N below (or, with none, impulse's default, said so). MuJoCo and Newton run up to
--mujoco-max-n / --newton-max-n bodies (10^3 by default); --full-grid is the issue's whole grid
(hours). Before it runs, a probe of each engine (30 steps) gives an estimate of the whole run's
time, printed (--estimate-only stops there); the report holds the estimate and the elapsed time.
Once the first curve N has run, the rest is estimated again with the settings then known (the
rounds from the probes, each pile's next curve N from its first N's measured costs): the piles'
next curve N run cheapest first while they fit in --budget-min (20); a pile left out is said so,
and its rounds above use the first N's match. The report's phase_seconds holds what each phase took.

Newton 1.6.1 (Warp's CPU device, float32; --newton-python, the parity venv) runs the same scene,
algorithm and settings as impulse's bench (SolverXPBD at impulse_iterations, the same gap), timed
per stage (collide, solve) and whole step, up to --newton-max-n bodies; --impulse-f32 (the float32
build's impulse) joins the rounds as "impulse-f32", so that both precisions are compared with it.
"newton_ratios" in the report: Newton's time over impulse's (double and float32) per stage and
whole step, median over rounds (each ratio of the same round).

Measured, never asserted. Writes OUT/peers.json and prints a table.

    run_peers.py --impulse BIN --drivers DIR --python PY --out DIR [--n 1000,10000,100000] [--rounds 3]
                 [--kinds spheres,boxes] [--steps S] [--curve-n 1000,10000] [--substeps 1,4,8]
                 [--iterations 2,4,8,16] [--once-substeps 4,8] [--gs-substeps 1] [--gs-iterations 2,4,8]
                 [--peer-iterations 10] [--ladder 3]
                 [--full-grid] [--estimate-only] [--newton-python PY] [--impulse-f32 BIN]
                 [--newton-iterations 4] [--newton-max-n 1000] [--mujoco-max-n 1000]
"""
import argparse
import csv
import datetime
import json
import math
import os
import time
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
IMPULSE_ITERATIONS = int(_COMMON["impulse_iterations"])
# A curve run holds the settled pile's window (pile.toml): S = ceil(settle_time / h) frames to rest,
# then W = ceil(quality_window / h) frames judged.
SETTLE_FRAMES = math.ceil(float(_COMMON["settle_time"]) / SPEC_H - 1e-9)
WINDOW_FRAMES = math.ceil(float(_COMMON["quality_window"]) / SPEC_H - 1e-9)
CURVE_STEPS = SETTLE_FRAMES + WINDOW_FRAMES
BIG_N = 100000  # from here on: Bullet at peer_iterations and impulse at the matched setting only (issue 26)
# The default grid fits ./run bench-peers in 20 minutes on the 2-core reference machine at 1 thread;
# --full-grid is the full grid.
# At N = 10^3 (this machine, 2026-12-07) the sphere and box piles first matched Bullet@10 at 8 substeps
# x 16 iterations, the stack at 8 x 8, the heavy-on-light stack at 8 x 4 (the plain pass; --full-grid reaches 8 x 16).
# The Gauss-Seidel, warm-started contact pass (SolverXPBD rigid_contact_gauss_seidel + contact_warm_start,
# impulse's extension) is its own curve, with the friction impulses carried over (scale 1) or not (0):
# at N = 10^3 the sphere pile matched at 1 substep x 2 iterations (scale 1), the box pile at 1 x 16 (0).
# The Gauss-Seidel pass solving a shape pair's rows together (contact_manifold_sweeps, no warm start)
# is a third curve: the tall stack first matched at 1 x 16 with 2 sweeps (8.4x Bullet, 2026-12-07), the
# heavy-on-light stack at 1 x 16 with 8 (with 2 or 4 sweeps it needs 32 iterations or more).
# The plain pass's default iterations are 2 and 8: the 4 and 16 columns cost 3.9 of the 10^3 curves'
# 6.2 minutes (docs/bench/peers.json of 2026-12-07) and matched nothing the Gauss-Seidel curves did
# not match for less; --iterations 2,4,8,16 or --full-grid draws them.
# From the first curve N (10^3) to the next (10^4) a curve run's cost grew 22-29 fold in that report
# (Bullet 27 and 29, impulse's Gauss-Seidel settings 22 and 25): the budget check scales the first N's
# measured costs by (N1 / N0)^NEXT_N_EXPONENT.
NEXT_N_EXPONENT = 1.4
# Both Gauss-Seidel curves run linearised (SolverXPBD contact_linearised: the step's rows linearised
# once, the bodies moved once after the iterations; 4.5x cheaper a pass on the 10^3 box pile), and the
# warm-started one also with a pair's rows swept twice (--gs-sweeps): the 10^3 box pile settled
# exactly at 1 x 5 so (2026-12-07, impulse bench), where rows one by one needed 1 x 16.
DEFAULT_GRID = {"substeps": "1,4,8", "iterations": "2,8", "once_substeps": "", "gs_substeps": "1",
                "gs_iterations": "2,5,8", "gs_friction_scales": "1,0", "gs_sweeps": "0,2", "gs_linearised": "1",
                "gsm_substeps": "1", "gsm_iterations": "8,16", "gsm_sweeps": "2,8", "gsm_linearised": "1",
                "peer_iterations": "10",
                "curve_n": "1000,10000", "mujoco_max_n": 1000, "newton_max_n": 1000, "mujoco_rounds_max_n": 0, "ladder": 1, "big_rounds": 1}
FULL_GRID = {"substeps": "1,2,4,8", "iterations": "1,2,4,8,16", "once_substeps": "4,8", "gs_substeps": "1,2",
             "gs_iterations": "1,2,4,8,16", "gs_friction_scales": "1,0", "gs_sweeps": "0,2", "gs_linearised": "0,1",
             "gsm_substeps": "1,2", "gsm_iterations": "4,8,16,32", "gsm_sweeps": "4,8", "gsm_linearised": "0,1",
             "peer_iterations": "5,10,20",
             "curve_n": "1000,10000", "mujoco_max_n": 10000, "newton_max_n": 10000, "mujoco_rounds_max_n": 10000, "ladder": 3, "big_rounds": 3}
QUALITY = ["window_ground_penetration_max", "window_ground_penetration_mean", "window_body_penetration_max",
           "window_body_penetration_mean", "window_kinetic_energy", "window_centre_drift"]


def steps_for(n, override):
    """Steps of a timed round: the file's 300 at N = 10^3, fewer at larger N (at least 20): ~3e5
    body-steps. Rounds time the step; they are too short to hold a settled pile (window_settled 0)."""
    return override if override > 0 else max(20, min(300, 300000 // n))


def run_json(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                       env=dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "2")))
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))} failed ({r.returncode}): {r.stderr.strip()[-400:]}")
    return json.loads(r.stdout)


def impulse_run(a, kind, n, steps, iterations=None, compare=False, substeps=1, once=False, binary=None, gs=False,
                friction_scale=1.0, manifold_sweeps=0, linearised=False):
    cmd = [binary or a.impulse, "bench", f"e3-pile-{kind}", "--n", str(n), "--steps", str(steps), "--threads", "1",
           "--compare-threads", "1" if compare else "0", "--substeps", str(substeps),
           "--collide", "once" if once else "every", "--json"]
    if iterations:
        cmd += ["--iterations", str(iterations)]
    if gs or manifold_sweeps or linearised:  # the Gauss-Seidel contact pass
        cmd += ["--gauss-seidel", "1"]
    if gs:  # warm-started
        cmd += ["--contact-warm-start", "1", "--warm-start-friction-scale", str(friction_scale)]
    if manifold_sweeps:  # a shape pair's rows solved together
        cmd += ["--manifold-sweeps", str(manifold_sweeps)]
    if linearised:  # on the rows linearised once per step
        cmd += ["--linearised", "1"]
    m = {k: v["value"] for k, v in run_json(cmd)["metrics"].items()}
    return {"engine": "impulse", "kind": kind, "n": n, "steps": steps, "iterations": int(m["iterations"]),
            "substeps": substeps, "collide": "once" if once else "every",
            **{q: m[q] for q in QUALITY}, "window_settled": int(m["window_settled"]),
            "window_start": m["window_start"],
            "layout_checksum": m["layout_checksum"], "seconds_per_step": m["seconds_per_step"],
            "collide_seconds_per_step": m["broad_seconds_per_step"] + m["narrow_seconds_per_step"] +
            m["contacts_seconds_per_step"],
            "solve_seconds_per_step": m["solve_seconds_per_step"],
            "stages": {k.replace("_seconds_per_step", ""): m[k] for k in m if k.endswith("_seconds_per_step")},
            "contacts_per_step": m["contacts_per_step"], "max_penetration": m["max_penetration"],
            "mean_penetration": m["mean_penetration"], "kinetic_energy": m["kinetic_energy"],
            "drift_mean": m["drift_mean"], "drift_max": m["drift_max"],
            "allocations_per_step": {k: m[k] for k in m if k.startswith("allocations_")}, "metrics": m}


def impulse_setting_run(a, kind, n, steps, st):
    """impulse at one setting of its curves (impulse_grid)."""
    return impulse_run(a, kind, n, steps, iterations=st["iterations"], substeps=st["substeps"],
                       once=st["collide"] == "once", gs=st.get("contact") == "gs-warm",
                       friction_scale=st.get("friction_scale", 1.0), manifold_sweeps=st.get("sweeps", 0),
                       linearised=bool(st.get("linearised", 0)))


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
    """Every settled-pile quality number of r at or below ref's, both judged on a settled window."""
    return bool(r["window_settled"]) and bool(ref["window_settled"]) and all(r[q] <= ref[q] for q in QUALITY)


def impulse_grid(a):
    """impulse's settings on the curves: substeps x iterations colliding every substep, then the
    collide-once-per-frame variant."""
    return ([{"substeps": sub, "iterations": it, "collide": "every"} for sub in a.substeps_list
             for it in a.iterations_list] +
            [{"substeps": sub, "iterations": it, "collide": "once"} for sub in a.once_list for it in a.iterations_list] +
            [{"substeps": sub, "iterations": it, "collide": "every", "contact": "gs-warm", "friction_scale": fs,
              **({"sweeps": sw} if sw else {}), **({"linearised": 1} if lin else {})}
             for lin in a.gs_linearised_list for sw in a.gs_sweeps_list for fs in a.gs_friction_list
             for sub in a.gs_substeps_list for it in a.gs_iterations_list] +
            [{"substeps": sub, "iterations": it, "collide": "every", "contact": "gs-manifold", "sweeps": sw,
              **({"linearised": 1} if lin else {})}
             for lin in a.gsm_linearised_list for sw in a.gsm_sweeps_list for sub in a.gsm_substeps_list
             for it in a.gsm_iterations_list])


def setting_engine(st):
    """The curve an impulse setting is drawn on."""
    lin = "-lin" if st.get("linearised") else ""
    if st.get("contact") == "gs-warm":
        return ("impulse-gs-warm" + ("" if st.get("friction_scale", 1) else "-t0") +
                (f"-pairs{st['sweeps']}" if st.get("sweeps") else "") + lin)
    if st.get("contact") == "gs-manifold":
        return "impulse-gs-manifold" + lin
    return "impulse-collide-once" if st["collide"] == "once" else "impulse"


def setting_factor(st, split):
    """Cost of an impulse setting relative to 1 substep at impulse_iterations, from the probe's
    collide and solve seconds (c, s): substeps x (c + s it / it0), or c + substeps s it / it0 when
    colliding once per frame."""
    c, sv = split
    solve = sv * st["iterations"] / IMPULSE_ITERATIONS
    whole = (c + st["substeps"] * solve) if st["collide"] == "once" else st["substeps"] * (c + solve)
    return whole / max(1e-12, c + sv)


def peer_factor(engine, it, split):
    """Cost of a peer at `it` iterations relative to peer_iterations (collide fixed, solve linear);
    1 for engines whose stages are not split (MuJoCo) or whose iterations are the file's (Newton)."""
    c, sv = split
    if c < 0 or sv < 0:
        return 1.0
    base = PEER_ITERATIONS if engine != "newton" else IMPULSE_ITERATIONS
    return (c + sv * it / base) / max(1e-12, c + sv)


def ladder(points, matched, tries):
    """impulse settings to try at the next N: those of the previous N's curve in order of cost, from
    the one that matched there, at most `tries` of them (the cheapest match at the next N is the
    first that matches); impulse's default setting when nothing matched there."""
    pts = sorted((p for p in points if "substeps" in p["setting"]),  # impulse's settings (a peer's has iterations only)
                 key=lambda p: p["seconds_per_simulated_second"])
    if matched is None:  # nothing matched: impulse's default setting, beside Bullet
        return [{"substeps": 1, "iterations": IMPULSE_ITERATIONS, "collide": "every"}]
    i = next(k for k, p in enumerate(pts) if p["setting"] == matched)
    return [p["setting"] for p in pts[i:i + tries]]


def curves(a, kind, n, steps, h, engines, peer_iters, settings, stop_at_match=False, peers=None):
    """Quality against seconds per simulated second for every engine, and the cheapest match.
    Peers run first (Bullet at peer_iterations is the reference); with stop_at_match the impulse
    settings (in order of cost) stop at the first that matches."""
    points = []

    def add(r, engine, setting):
        pt = {"engine": engine, "setting": setting, "seconds_per_simulated_second": r["seconds_per_step"] / h,
              "contacts_per_step": r["contacts_per_step"], "window_settled": r["window_settled"],
              **{q: r[q] for q in QUALITY}}
        points.append(pt)
        print(f"curve {kind} N={n}: {engine} {setting}: {pt['seconds_per_simulated_second']:.3g} s/s, ground max "
              f"{pt['window_ground_penetration_max']:.2g} m, body max {pt['window_body_penetration_max']:.2g} m, "
              f"KE {pt['window_kinetic_energy']:.2g} J, drift {pt['window_centre_drift']:.2g} m", file=sys.stderr)
        return pt

    ref = None
    for e in engines:
        if e.startswith("impulse") or skip_reason(a, e, n) or (peers is not None and e not in peers):
            continue
        for it in (a.newton_iterations_list if e == "newton" else peer_iters):
            pt = add(peer_run(a, e, kind, n, steps, iterations=it), e, {"iterations": it})
            if e == "bullet" and it == PEER_ITERATIONS:
                ref = pt
    for st in settings:
        pt = add(impulse_setting_run(a, kind, n, steps, st), setting_engine(st), st)
        if stop_at_match and ref and matches(pt, ref):
            break
    out = {"kind": kind, "n": n, "steps": steps, "settle_time": _COMMON["settle_time"], "points": points,
           "reference": ref}
    if ref:
        ok = [p for p in points if p["engine"].startswith("impulse") and matches(p, ref)]
        best = min(ok, key=lambda p: p["seconds_per_simulated_second"]) if ok else None
        out["matched"] = best
        out["ratio_to_bullet"] = (best["seconds_per_simulated_second"] / ref["seconds_per_simulated_second"]
                                  if best else None)
    return out


PROBE_STEPS = 30  # steps of each probe run that the time estimate scales from


class Phases:
    """Wall seconds of each phase of the run (the report's "phase_seconds"), so that the default
    grid's budget can be checked against what each part really took."""

    def __init__(self):
        self.seconds, self._t = {}, time.monotonic()

    def mark(self, name):
        """Charge the time since the last mark to `name`."""
        now = time.monotonic()
        self.seconds[name] = self.seconds.get(name, 0.0) + now - self._t
        self._t = now


def past_budget(costs, left):
    """The keys of costs (pile -> seconds) left out when they run cheapest first while they fit in
    `left` seconds."""
    out = []
    for kind in sorted(costs, key=costs.get):
        if costs[kind] <= left:
            left -= costs[kind]
        else:
            out.append(kind)
    return out


def next_curve_seconds(c, tries, n_next):
    """Estimated wall seconds of the next curve N for one pile: Bullet at peer_iterations and every
    ladder try, each at its measured cost on curve c (the first N), scaled by (n_next / n)^NEXT_N_EXPONENT."""
    sps = {json.dumps(p["setting"], sort_keys=True): p["seconds_per_simulated_second"] for p in c["points"]
           if p["engine"].startswith("impulse")}
    ref = (c.get("reference") or {}).get("seconds_per_simulated_second", 0.0)
    own = sum(sps.get(json.dumps(st, sort_keys=True), 0.0) for st in tries)
    return (ref + own) * CURVE_STEPS * SPEC_H * (n_next / c["n"]) ** NEXT_N_EXPONENT


def matched_below(matched, kind, n):
    """The setting matched at the largest curve N below n (the 10^4 match for 10^5), or None."""
    below = [m for (k, m_n), m in sorted(matched.items(), key=lambda x: x[0][1]) if k == kind and m_n < n]
    return below[-1] if below else None


def probe(a, kinds, engines, tiny):
    """One short run of each engine and kind at N = tiny[kind]: seconds per step, the (collide,
    solve) split where the engine has it, and the run's wall time beyond its steps (start-up)."""
    out = {}
    for kind in kinds:
        n = tiny[kind]
        for e in engines:
            if skip_reason(a, e, n) and e not in ("mujoco", "newton"):
                continue
            t0 = time.monotonic()
            if e.startswith("impulse"):
                r = impulse_run(a, kind, n, PROBE_STEPS, binary=a.impulse_f32 if e == "impulse-f32" else None)
                split = (r["collide_seconds_per_step"], r["seconds_per_step"] - r["collide_seconds_per_step"])
            else:
                r = peer_run(a, e, kind, n, PROBE_STEPS)
                split = (r["collide_seconds_per_step"], r["solve_seconds_per_step"])
            wall = time.monotonic() - t0
            out[(e, kind)] = {"n": n, "step": r["seconds_per_step"], "split": split,
                              "startup": max(0.0, wall - PROBE_STEPS * r["seconds_per_step"])}
            print(f"probe {kind} N={n}: {e} {r['seconds_per_step'] * 1e3:.3f} ms/step, start-up "
                  f"{out[(e, kind)]['startup']:.2f} s", file=sys.stderr)
    return out


def estimate(a, kinds, engines, sizes, curve_sizes, settings, peer_iters, probes, tiny, next_tries=None, quiet=False,
             matched_factor=None):
    """Seconds the run will take: each planned run's steps x the probe's seconds per step x N / N_probe
    x the setting's factor, plus the probe's start-up x N / N_probe. Before the first curves: the
    ladder at the next curve N counts its cheapest tries (the matches so far were cheap settings) and
    the rounds count impulse-matched at the costliest setting. With next_tries (kind -> the settings
    the next curve N will try, known once the first curves ran): the rest of the run only, with those settings; matched_factor (kind -> the
    matched setting's measured cost over the probe's) replaces the setting's modelled factor. A curve
    run at a later curve N grows as N^NEXT_N_EXPONENT from the first; before the first curves, as the
    run itself does after them, the piles' later curve N count cheapest first while they fit in
    --budget-min (without --full-grid)."""
    def cost(e, kind, n, steps, factor=1.0):
        p = probes.get(("impulse" if e == "impulse-matched" else e, kind))
        if p is None:
            return 0.0
        scale = n / p["n"]
        return (steps * p["step"] * factor + p["startup"]) * scale

    total = 0.0
    parts = {}
    later = {}  # kind -> seconds of its later curve N (before the first curves only)

    def part(name, seconds):
        parts[name] = parts.get(name, 0.0) + seconds
        return seconds

    worst = max(settings, key=lambda st: setting_factor(st, probes.get(("impulse", kinds[0]), {"split": (1, 1)})["split"])) \
        if settings else None
    for kind in kinds:
        split = probes.get(("impulse", kind), {"split": (1.0, 1.0)})["split"]
        for i, n in enumerate([FIXED_N[kind]] if kind in FIXED_N else curve_sizes):
            if next_tries is not None and i == 0:
                continue  # ran already
            first = i == 0 or a.full_grid
            grow = 1.0 if i == 0 else (n / curve_sizes[0]) ** (NEXT_N_EXPONENT - 1)
            before = total
            for e in engines:
                if e.startswith("impulse") or skip_reason(a, e, n) or (not first and e != "bullet"):
                    continue
                its = a.newton_iterations_list if e == "newton" else (peer_iters if first else [PEER_ITERATIONS])
                psplit = probes.get((e, kind), {"split": (-1, -1)})["split"]
                total += part(f"curves N={n} peers",
                              grow * sum(cost(e, kind, n, CURVE_STEPS, peer_factor(e, it, psplit)) for it in its))
            tries = (settings if first else next_tries[kind] if next_tries is not None
                     else sorted(settings, key=lambda st: setting_factor(st, split))[:a.ladder])
            total += part(f"curves N={n} impulse", grow * sum(cost("impulse", kind, n, CURVE_STEPS,
                                                                   setting_factor(st, split)) for st in tries))
            if i > 0 and next_tries is None and not a.full_grid:
                later[kind] = later.get(kind, 0.0) + total - before
        for n in ([FIXED_N[kind]] if kind in FIXED_N else sizes):
            steps = steps_for(n, a.steps)
            if n >= BIG_N:
                order = [e for e in engines if e == "bullet"] + ["impulse-matched"]
            else:
                order = [e for e in engines if not skip_reason(a, e, n, rounds=True)] + ["impulse-matched"]
                total += part(f"rounds N={n}", 2 * cost("impulse", kind, n, steps))  # the 1-vs-2-thread run
            for e in order:
                known = next_tries.get(kind) if next_tries is not None else None
                f = ((matched_factor or {}).get(kind) or
                     (setting_factor(known[-1], split) if known else setting_factor(worst, split) if worst else 1.0)) \
                    if e == "impulse-matched" else 1.0
                total += part(f"rounds N={n}", (a.big_rounds if n >= BIG_N else a.rounds) * cost(e, kind, n, steps, f))
    for kind in past_budget(later, 60 * a.budget_min - (total - sum(later.values()))):
        total -= later[kind]
        parts[f"curves N>{curve_sizes[0]} of {kind} past the budget at this estimate"] = -later[kind]
    if not quiet:
        print("bench-peers: estimate by part: " + ", ".join(f"{k} {v / 60:.1f} min" for k, v in sorted(parts.items())),
              file=sys.stderr)
    return total


def skip_reason(a, engine, n, rounds=False):
    """Why engine does not run at N bodies (None when it does); rounds: in the timed rounds."""
    if rounds and engine == "mujoco" and n > a.mujoco_rounds_max_n:
        return (f"timed rounds: N above {a.mujoco_rounds_max_n} (MuJoCo's sphere pile costs 0.1-0.4 s a step at N = "
                "10^3 here; its cost and quality are on the curves; --full-grid times it in the rounds too)")
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


def matched_rounds(runs):
    """impulse at its matched setting over Bullet at peer_iterations, per round of each scene and N."""
    out = []
    for (e, kind, n), rs in sorted(runs.items(), key=lambda x: (x[0][1], x[0][2])):
        if e == "impulse-matched" and ("bullet", kind, n) in runs:
            out.append({"kind": kind, "n": n, "setting": rs[-1]["setting"],
                        "ratio": spread([r["seconds_per_step"] / b["seconds_per_step"]
                                         for r, b in zip(rs, runs[("bullet", kind, n)])])})
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
    ap.add_argument("--n", default="1000,10000,100000",
                    help=f"N of the timed rounds (from {BIG_N}: Bullet and impulse at the matched setting only)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--kinds", default="spheres,boxes,stack,heavy")
    ap.add_argument("--steps", type=int, default=-1)
    ap.add_argument("--full-grid", action="store_true",
                    help="the issue's full grid (every setting at every curve N; hours): " +
                         ", ".join(f"{k} {v}" for k, v in FULL_GRID.items()))
    ap.add_argument("--estimate-only", action="store_true", help="probe, print the estimated time, stop")
    ap.add_argument("--budget-min", type=float, default=20.0,
                    help="without --full-grid: after the first curve N, the next is left out when the rest of the "
                         "run (estimated with the settings then known) would take the whole past this [min]")
    ap.add_argument("--curve-n", default=None, help="N of the quality curves (each run settle_time + quality_window); "
                    f"default {DEFAULT_GRID['curve_n']}")
    ap.add_argument("--substeps", default=None, help=f"impulse substeps per frame on the curves ({DEFAULT_GRID['substeps']})")
    ap.add_argument("--iterations", default=None, help=f"impulse XPBD iterations on the curves ({DEFAULT_GRID['iterations']})")
    ap.add_argument("--once-substeps", default=None, help="substeps of the collide-once-per-frame variant (none)")
    ap.add_argument("--gs-substeps", default=None,
                    help=f"substeps of the Gauss-Seidel warm-started contact pass ({DEFAULT_GRID['gs_substeps']})")
    ap.add_argument("--gs-iterations", default=None,
                    help=f"iterations of the Gauss-Seidel warm-started contact pass ({DEFAULT_GRID['gs_iterations']})")
    ap.add_argument("--gs-friction-scales", default=None,
                    help="contact_warm_start_friction_scale values of the Gauss-Seidel pass "
                         f"({DEFAULT_GRID['gs_friction_scales']})")
    ap.add_argument("--gs-sweeps", default=None,
                    help=f"contact_manifold_sweeps of the warm-started pass ({DEFAULT_GRID['gs_sweeps']}; 0: rows one by one)")
    ap.add_argument("--gs-linearised", default=None,
                    help=f"contact_linearised of the warm-started pass, 0 and/or 1 ({DEFAULT_GRID['gs_linearised']})")
    ap.add_argument("--gsm-linearised", default=None,
                    help=f"contact_linearised of the pair-rows pass, 0 and/or 1 ({DEFAULT_GRID['gsm_linearised']})")
    ap.add_argument("--gsm-substeps", default=None,
                    help=f"substeps of the Gauss-Seidel pass solving a shape pair's rows together ({DEFAULT_GRID['gsm_substeps']})")
    ap.add_argument("--gsm-iterations", default=None,
                    help=f"iterations of that pass ({DEFAULT_GRID['gsm_iterations']})")
    ap.add_argument("--gsm-sweeps", default=None,
                    help=f"its contact_manifold_sweeps ({DEFAULT_GRID['gsm_sweeps']}; 0 for none)")
    ap.add_argument("--peer-iterations", default=None, help=f"peer iterations on the curves ({DEFAULT_GRID['peer_iterations']})")
    ap.add_argument("--big-rounds", type=int, default=None,
                    help=f"rounds at N >= {BIG_N} ({DEFAULT_GRID['big_rounds']}; --full-grid {FULL_GRID['big_rounds']})")
    ap.add_argument("--ladder", type=int, default=None,
                    help="without --full-grid, impulse settings tried at each curve N after the first: from the "
                         f"previous N's match upwards in cost, stopping at the first match ({DEFAULT_GRID['ladder']})")
    ap.add_argument("--engines", default="impulse,bullet,ode,mujoco,newton")
    ap.add_argument("--mujoco-max-n", type=int, default=None,
                    help="largest N given to MuJoCo (its model compile and Newton solve grow fast with N; "
                         f"{DEFAULT_GRID['mujoco_max_n']})")
    ap.add_argument("--newton-python", default="", help="a Python with newton 1.6.1 (the parity venv); none: no Newton")
    ap.add_argument("--impulse-f32", default="", help="the float32 build's impulse; none: no impulse-f32")
    ap.add_argument("--newton-iterations", default="4", help="Newton's XPBD iterations on the curves")
    ap.add_argument("--mujoco-rounds-max-n", type=int, default=None,
                    help=f"largest N of MuJoCo in the timed rounds ({DEFAULT_GRID['mujoco_rounds_max_n']}: curves only)")
    ap.add_argument("--newton-max-n", type=int, default=None, help=f"largest N given to Newton ({DEFAULT_GRID['newton_max_n']})")
    a = ap.parse_args()
    grid = FULL_GRID if a.full_grid else DEFAULT_GRID
    for key, value in grid.items():
        if getattr(a, key) is None:
            setattr(a, key, value)
    t_start = time.monotonic()
    phases = Phases()
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
        a.gs_substeps_list = [int(x) for x in a.gs_substeps.split(",") if x]
        a.gs_iterations_list = [int(x) for x in a.gs_iterations.split(",") if x]
        a.gs_friction_list = [float(x) for x in a.gs_friction_scales.split(",") if x]
        a.gsm_substeps_list = [int(x) for x in a.gsm_substeps.split(",") if x]
        a.gsm_iterations_list = [int(x) for x in a.gsm_iterations.split(",") if x]
        a.gsm_sweeps_list = [int(x) for x in a.gsm_sweeps.split(",") if x and int(x) != 0]
        a.gs_sweeps_list = [int(x) for x in a.gs_sweeps.split(",") if x]
        a.gs_linearised_list = [int(x) for x in a.gs_linearised.split(",") if x]
        a.gsm_linearised_list = [int(x) for x in a.gsm_linearised.split(",") if x]
        peer_iters = [int(x) for x in a.peer_iterations.split(",")]
        a.newton_iterations_list = [int(x) for x in a.newton_iterations.split(",")]
        curve_sizes = [int(x) for x in a.curve_n.split(",") if x]
    except ValueError:
        bad_input("bench-peers: --substeps, --iterations, --once-substeps, --peer-iterations and --curve-n must be "
                  "comma-separated whole numbers")
    if any(not 1 <= x <= 64 for x in a.substeps_list + a.iterations_list + a.once_list + a.gs_substeps_list +
           a.gs_iterations_list + a.gsm_substeps_list + a.gsm_iterations_list + a.gsm_sweeps_list + peer_iters +
           a.newton_iterations_list):
        bad_input("bench-peers: every --substeps, --iterations, --once-substeps, --gs-*, --gsm-*, --peer-iterations "
                  "and --newton-iterations must be in [1, 64]")
    if any(not 0 <= x <= 1 for x in a.gs_friction_list):
        bad_input("bench-peers: every --gs-friction-scales must be in [0, 1]")
    if any(not 0 <= x <= 64 for x in a.gs_sweeps_list):
        bad_input(f"bench-peers: every --gs-sweeps must be in [0, 64], got '{a.gs_sweeps}'")
    if any(x not in (0, 1) for x in a.gs_linearised_list + a.gsm_linearised_list):
        bad_input("bench-peers: --gs-linearised and --gsm-linearised list 0 and/or 1")
    if PEER_ITERATIONS not in peer_iters and "bullet" in engines:
        peer_iters.append(PEER_ITERATIONS)  # the reference of "matched"

    # What runs: the curves at each curve N (the fixed-N scenes at their n), then the timed rounds.
    settings = impulse_grid(a)
    tiny = {k: FIXED_N[k] if k in FIXED_N else min(1000, min(sizes + curve_sizes)) for k in kinds}
    probes = probe(a, kinds, engines, tiny)
    est = estimate(a, kinds, engines, sizes, curve_sizes, settings, peer_iters, probes, tiny)
    print(f"bench-peers: estimated {est / 60:.1f} min at 1 thread (probes of {PROBE_STEPS} steps at N = "
          f"{sorted(set(tiny.values()))}, scaled in N (linearly; a later curve N's runs as N^{NEXT_N_EXPONENT}), steps "
          f"and substeps x iterations; the later curve N are decided on measured costs after the first; "
          f"{'full grid' if a.full_grid else 'default grid, --full-grid for all'})", file=sys.stderr)
    if a.estimate_only:
        return

    # The cost of quality: curves, and the cheapest impulse setting that matches Bullet.
    curve_list, matched, unmatched, prev, left_out = [], {}, [], {}, set()
    phases.mark("probes")
    for level in range(len(curve_sizes)):  # every pile at the first N before any at the next
        for kind in kinds:
            sizes_of = [FIXED_N[kind]] if kind in FIXED_N else curve_sizes
            if level >= len(sizes_of) or kind in left_out:
                continue
            n = sizes_of[level]
            if kind not in prev or a.full_grid:
                c = curves(a, kind, n, CURVE_STEPS, SPEC_H, engines, peer_iters, settings)
            else:  # the next N: Bullet's reference, impulse up the previous N's ladder from its match
                tries = ladder(prev[kind]["points"], (prev[kind].get("matched") or {}).get("setting"), a.ladder)
                c = curves(a, kind, n, CURVE_STEPS, SPEC_H, engines, [PEER_ITERATIONS], tries,
                           stop_at_match=True, peers=["bullet"])
            curve_list.append(c)
            if c.get("matched"):
                matched[(kind, n)] = c["matched"]["setting"]
                print(f"bench-peers: matched {kind} N={n}: impulse {c['matched']['setting']} "
                      f"{c['matched']['seconds_per_simulated_second']:.3g} s/s over Bullet@{PEER_ITERATIONS} "
                      f"{c['reference']['seconds_per_simulated_second']:.3g} s/s: {c['ratio_to_bullet']:.2f}",
                      file=sys.stderr)
            elif c.get("reference"):
                unmatched.append((kind, n))
                print(f"bench-peers: matched {kind} N={n}: no impulse setting tried matched Bullet@{PEER_ITERATIONS}",
                      file=sys.stderr)
            prev[kind] = c
            phases.mark(f"curves N={n}")
        if level == 0 and len(curve_sizes) > 1 and not a.full_grid:
            # The rest of the run with the settings now known: the rounds (estimated from the probes, the
            # matched settings at their measured cost), then each pile's next curve N (its first N's
            # measured costs, scaled), cheapest first, while they fit in --budget-min; a pile left out
            # is said so, and its rounds above use the first N's match.
            nxt = {k: ladder(prev[k]["points"], (prev[k].get("matched") or {}).get("setting"), a.ladder)
                   for k in kinds if k in prev}
            factor = {k: prev[k]["matched"]["seconds_per_simulated_second"] * SPEC_H / probes[("impulse", k)]["step"]
                      for k in kinds if k in prev and prev[k].get("matched") and ("impulse", k) in probes}
            rounds = estimate(a, kinds, engines, sizes, curve_sizes[:1], settings, peer_iters, probes, tiny, nxt,
                              quiet=True, matched_factor=factor)
            spent = time.monotonic() - t_start
            need = {k: next_curve_seconds(prev[k], nxt[k], curve_sizes[1]) for k in kinds if k not in FIXED_N}
            for kind in past_budget(need, 60 * a.budget_min - spent - rounds):
                left_out.add(kind)
                print(f"bench-peers: {spent / 60:.1f} min spent, the rounds about {rounds / 60:.1f} min; the {kind} "
                      f"curves at N = {curve_sizes[1:]} (about {need[kind] / 60:.1f} min) would pass --budget-min "
                      f"{a.budget_min}: left out (its rounds use the match at N = {curve_sizes[0]})", file=sys.stderr)
                skipped.append({"engine": "curves", "kind": kind, "n": curve_sizes[1:],
                                "why": f"about {need[kind] / 60:.1f} min, over what --budget-min {a.budget_min} left"})

    runs = {}  # (engine, kind, n) -> list of per-round results
    threads = {}
    for kind in kinds:
        for n in ([FIXED_N[kind]] if kind in FIXED_N else sizes):
            steps = steps_for(n, a.steps)
            order = [e for e in engines if not skip_reason(a, e, n, rounds=True)]
            skipped += [{"engine": e, "kind": kind, "n": n, "why": skip_reason(a, e, n, rounds=True)}
                        for e in engines if skip_reason(a, e, n, rounds=True)]
            st = matched.get((kind, n)) or matched_below(matched, kind, n)
            if n >= BIG_N:
                # Bullet at peer_iterations and impulse at the setting matched below this N; without
                # one, impulse at its default setting beside Bullet, said so.
                order = [e for e in order if e == "bullet"]
                if st:
                    order.append("impulse-matched")
                else:
                    order.append("impulse")
                    print(f"bench-peers: {kind} N={n}: no impulse setting matched Bullet@{PEER_ITERATIONS} at a "
                          f"smaller N; impulse runs at its default ({IMPULSE_ITERATIONS} iterations, 1 substep)",
                          file=sys.stderr)
            else:
                threads[(kind, n)] = impulse_run(a, kind, n, steps, compare=True)["metrics"]
                if st:
                    order.append("impulse-matched")
            for rnd in range(a.big_rounds if n >= BIG_N else a.rounds):
                rot = order[rnd % len(order):] + order[:rnd % len(order)]
                for e in rot:
                    if e == "impulse":
                        r = impulse_run(a, kind, n, steps)
                    elif e == "impulse-f32":
                        r = impulse_run(a, kind, n, steps, binary=a.impulse_f32)
                        r["engine"] = e
                    elif e == "impulse-matched":
                        r = impulse_setting_run(a, kind, n, steps, st)
                        r["engine"] = e
                        r["setting"] = st
                    else:
                        r = peer_run(a, e, kind, n, steps)
                    r["round"] = rnd
                    runs.setdefault((e, kind, n), []).append(r)
                    print(f"{kind} N={n} round {rnd}: {e} {r['seconds_per_step'] * 1e3:.3f} ms/step", file=sys.stderr)
            phases.mark(f"rounds N={n}")
            sums = {runs[(e, kind, n)][0]["layout_checksum"] for e in order}
            if max(sums) - min(sums) > 1e-6 * max(1.0, abs(max(sums))):
                sys.exit(f"bench-peers: the engines built different {kind} layouts at N={n} (checksums {sorted(sums)})")

    results = []
    for (e, kind, n), rs in runs.items():
        base = runs.get(("impulse", kind, n)) or runs.get(("impulse-matched", kind, n))
        last = rs[-1]
        row = {k: last[k] for k in ("engine", "kind", "n", "steps", "iterations", "contacts_per_step", "max_penetration",
                                     "mean_penetration", "kinetic_energy", "drift_mean", "drift_max")}
        row.update({q: last[q] for q in QUALITY if q in last})
        row["window_settled"] = last.get("window_settled", 0)  # rounds are short: mostly no settled pile
        if "setting" in last:
            row["setting"] = last["setting"]
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
    phases.mark("series")
    ratios = [r for kind in kinds for n in ([FIXED_N[kind]] if kind in FIXED_N else sizes)
              for r in newton_ratios(runs, kind, n)]
    report = {
        "machine": machine(), "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY", "(unset)"), "impulse_threads": 1,
        "peer_threads": 1, "rounds": a.rounds, "scene": str(SCENE.relative_to(ROOT)), "results": results,
        "curves": curve_list, "newton_ratios": ratios, "quality_metrics": QUALITY, "quality_window": _COMMON["quality_window"],
        "settle_time": _COMMON["settle_time"], "curve_steps": CURVE_STEPS, "skipped": skipped,
        "grid": "full" if a.full_grid else "default", "estimated_seconds": est,
        "unmatched": [{"kind": k, "n": n} for k, n in unmatched],
        "elapsed_seconds": time.monotonic() - t_start, "phase_seconds": phases.seconds,
        "matched_at_rounds": matched_rounds(runs),
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
    for m in report["matched_at_rounds"]:
        print(f"rounds {m['kind']} N={m['n']}: impulse at {m['setting']} over Bullet@{PEER_ITERATIONS}, whole step "
              f"{m['ratio']['median']:.2f} ({m['ratio']['min']:.2f}-{m['ratio']['max']:.2f}, {m['ratio']['rounds']} rounds)")
    print(f"bench-peers: {report['elapsed_seconds'] / 60:.1f} min, estimated {est / 60:.1f} min; by phase: " +
          ", ".join(f"{k} {v / 60:.1f} min" for k, v in report["phase_seconds"].items()))
    print(f"wrote {out / 'peers.json'}")


if __name__ == "__main__":
    main()
