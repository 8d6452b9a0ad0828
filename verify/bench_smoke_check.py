#!/usr/bin/env python3
"""Smoke test of the whole-step pile benchmarks and the route (c) collide bench: each runs at a tiny
size and writes valid JSON.

impulse bench e3-pile-spheres / e3-pile-boxes (every column present and finite, one and two
threads bitwise equal, no allocation per step after warm-up), impulse run (the CSV), and the peer drivers
bullet_pile / ode_pile where the build made them (same columns, same layout checksum as impulse).
Measured values are never compared with thresholds: this checks that the benchmarks work. The one
counts that are checked exactly are the allocations of a step after warm-up: none, in every build
(for e3-hydro-consumers: of a collide of the hydroelastic pair, primitive and mesh-volume SDF).
In a CUDA build that holds only because every launch body is an IMPULSE_KERNEL (lib/core/hd.h): a
__host__ __device__ lambda made in host code allocates once, inside nvcc's wrapper (it copies the
closure to the heap), so one such launch in a step fails this check there. Every launch is also
listed by stage and name (launches.<stage>.<function>:<line>), and those per-site counts must add
up to the stage's launches. The host<->device copies of a step are counted too: none in collide,
at most the solver step's one readback.

    bench_smoke_check.py IMPULSE BIN_DIR SOURCE_ROOT
"""
import json
import math
import pathlib
import subprocess
import sys
import tempfile
import tomllib

COLUMNS = ["seconds_per_step", "contacts_per_step", "max_penetration", "mean_penetration", "kinetic_energy",
           "drift_mean", "drift_max", "layout_checksum"]
WINDOW = ["window_ground_penetration_max", "window_ground_penetration_mean", "window_body_penetration_max",
          "window_body_penetration_mean", "window_kinetic_energy", "window_centre_drift", "seconds_per_simulated_second"]
STAGES = ["broad_seconds_per_step", "narrow_seconds_per_step", "contacts_seconds_per_step", "solve_seconds_per_step",
          "readback_seconds_per_step"]


def fail(msg):
    print(f"bench_smoke_check: {msg}")
    sys.exit(1)


def measured_window(root, scene, common, steps, np):
    """(window_start, window_settled) of pile_measure.run on a 4-cube pile that does not move."""
    sys.path.insert(0, str(root / "bench" / "peers"))
    import pile_measure  # noqa: E402
    kind_table = tomllib.load(open(scene, "rb"))["boxes"]
    pos = np.array([[*x, 1.0, 0.0, 0.0, 0.0] for x in pile_measure.positions(kind_table, 4)])
    out = pile_measure.run(common, kind_table, "boxes", 4, steps, lambda: {}, lambda: (pos, np.zeros((4, 6))),
                           np.ones(4), lambda: 0)
    return out["window_start"], out["window_settled"]


def check_window(impulse, bin_dir, root, scene):
    """The quality window of pile.toml in impulse, the C++ drivers and pile_measure.py (MuJoCo's and
    Newton's): W = ceil(quality_window / h) frames from settle_time, window_settled = 1, when the run
    holds settle_time + quality_window (+ 5 frames, so that "the last W frames" would differ); a
    short run is judged over its last frames and says window_settled = 0."""
    common = tomllib.load(open(scene, "rb"))["common"]
    h = common["h"]
    settle = math.ceil(common["settle_time"] / h - 1e-9)
    frames = math.ceil(common["quality_window"] / h - 1e-9)
    long_run = settle + frames + 5
    for steps, start, settled in ((long_run, settle * h, 1), (6, 0.0, 0)):
        got = {}
        r = subprocess.run([impulse, "bench", "e3-pile-boxes", "--n", "4", "--steps", str(steps), "--compare-threads",
                            "0", "--json"], capture_output=True, text=True)
        m = {k: v["value"] for k, v in json.loads(r.stdout)["metrics"].items()}
        got["impulse"] = (m["window_start"], m["window_settled"])
        for engine in ("bullet", "ode"):
            exe = bin_dir / f"{engine}_pile"
            if exe.exists():
                p = json.loads(subprocess.run([str(exe), "--scene", str(scene), "--kind", "boxes", "--n", "4", "--steps",
                                               str(steps)], capture_output=True, text=True, check=True).stdout)
                got[engine] = (p["window_start"], p["window_settled"])
        try:
            import numpy as np
        except ImportError:  # the configure's Python lacks NumPy (Debian's python3-numpy has it)
            print("bench_smoke_check: no NumPy in this Python, pile_measure.py's window not checked")
            np = None
        if np is not None:
            got["pile_measure"] = measured_window(root, scene, common, steps, np)
        for who, (w0, ok) in got.items():
            if abs(w0 - start) > 1e-9 or ok != settled:
                fail(f"{who}: {steps} steps: window from {w0} s, settled {ok} (expected {start} s, {settled}; "
                     f"pile.toml settle_time {common['settle_time']} s, quality_window {common['quality_window']} s)")


def main():
    impulse, bin_dir, root = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    scene = root / "bench" / "peers" / "scenes" / "pile.toml"
    for kind, frame in (("spheres", []), ("boxes", []), ("stack", []), ("heavy", []),
                        ("spheres", ["--substeps", "3", "--collide", "once"]),
                        ("boxes", ["--substeps", "3", "--broad-phase-reuse", "1"])):
        r = subprocess.run([impulse, "bench", f"e3-pile-{kind}", "--n", "16", "--steps", "6", "--json"] + frame,
                           capture_output=True, text=True)
        if r.returncode != 0:
            fail(f"impulse bench e3-pile-{kind} {' '.join(frame)} exited {r.returncode}: {r.stderr.strip()}")
        m = {k: v["value"] for k, v in json.loads(r.stdout)["metrics"].items()}
        for c in COLUMNS + WINDOW + STAGES + ["speedup_2_over_1_median", "threads_bitwise_equal"]:
            if c not in m or not math.isfinite(m[c]):
                fail(f"e3-pile-{kind}: column {c} missing or not finite ({m.get(c)})")
        if m["threads_bitwise_equal"] != 1:
            fail(f"e3-pile-{kind}: one and two threads differ")
        if m["contacts_per_step"] <= 0:
            fail(f"e3-pile-{kind}: no contacts")
        for s in ("collide", "solve", "readback"):
            a, launches = m[f"allocations_{s}_per_step"], m[f"launches_{s}_per_step"]
            if a != -1 and a != 0:
                fail(f"e3-pile-{kind}: allocations_{s}_per_step = {a} after warm-up (expected 0; "
                     f"{launches} launches, cuda_built = {m['cuda_built']})")
            named = sum(v for k, v in m.items() if k.startswith(f"launches.{s}."))
            if abs(named - launches) > 1e-9 * max(1.0, launches):
                fail(f"e3-pile-{kind}: the named launches of {s} add up to {named}, not launches_{s}_per_step = {launches}")
        # The step's one readback (core/host_copies.h): collide copies nothing, each solver step (one
        # per substep of a frame) once.
        copies = (m["host_copies_collide_per_step"], m["host_copies_solve_per_step"])
        if copies[0] != 0 or copies[1] > m["substeps"]:
            fail(f"e3-pile-{kind} {' '.join(frame)}: host copies per frame collide {copies[0]}, solve {copies[1]} "
                 f"(expected 0 and at most one per substep, {m['substeps']})")
        with tempfile.TemporaryDirectory() as d:
            r = subprocess.run([impulse, "run", f"e3-pile-{kind}", "--n", "16", "--steps", "4", "--out", d],
                               capture_output=True, text=True)
            csv = pathlib.Path(d) / f"e3-pile-{kind}.csv"
            if r.returncode != 0 or not csv.is_file() or len(csv.read_text().splitlines()) < 2:
                fail(f"impulse run e3-pile-{kind} wrote no CSV: {r.stderr.strip()}")
        for engine in ("bullet", "ode"):
            exe = bin_dir / f"{engine}_pile"
            if not exe.exists():
                print(f"bench_smoke_check: {exe.name} not built, skipped")
                continue
            r = subprocess.run([str(exe), "--scene", str(scene), "--kind", kind, "--n", "16", "--steps", "4"],
                               capture_output=True, text=True)
            if r.returncode != 0:
                fail(f"{exe.name} --kind {kind} exited {r.returncode}: {r.stderr.strip()}")
            p = json.loads(r.stdout)
            for c in COLUMNS + WINDOW[:-1]:
                if not math.isfinite(p[c]):
                    fail(f"{exe.name} {kind}: {c} not finite")
            if abs(p["layout_checksum"] - m["layout_checksum"]) > 1e-9 * max(1, abs(m["layout_checksum"])):
                fail(f"{exe.name} {kind}: layout checksum {p['layout_checksum']} differs from impulse's {m['layout_checksum']}")
    check_window(impulse, bin_dir, root, scene)
    r = subprocess.run([impulse, "bench", "e3-hydro-consumers", "--json"], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"impulse bench e3-hydro-consumers exited {r.returncode}: {r.stderr.strip()}")
    m = {k: v["value"] for k, v in json.loads(r.stdout)["metrics"].items()}
    for c in ("collide_route_c_per_pair", "collide_route_a_per_pair", "route_c_over_route_a"):
        if c not in m or not math.isfinite(m[c]) or m[c] <= 0:
            fail(f"e3-hydro-consumers: column {c} missing, not finite or not positive ({m.get(c)})")
    for c in ("allocations_per_collide_route_c", "allocations_per_collide_route_c_mesh_volume"):
        if c in m and m[c] != 0:
            fail(f"e3-hydro-consumers: {c} = {m[c]} after warm-up (expected 0)")
    print("bench_smoke_check: the pile and route (c) benchmarks ran and wrote valid JSON")


if __name__ == "__main__":
    main()
