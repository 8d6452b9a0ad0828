#!/usr/bin/env python3
"""Smoke test of the LCP comparison of ./run bench-peers (bench/peers/run_lcp_peers.py).

`impulse lcp --write-set held-out --count 1` writes one contact LCP that `impulse lcp` reads and
solves; then every LCP driver (impulse_lcp, and dart_lcp / siconos_lcp where the build made them)
runs on it and on a 2 x 2 LCP whose solution is known by hand, and its output must parse with every
field present. The 2 x 2 one, M = [[2, 1], [1, 2]], q = (-5, -6): both w = 0 gives z = (4/3, 7/3) >= 0,
so every solver must return it and the independent check must pass; on the infeasible 1 x 1 LCP
w = 0 z - 1 no z passes, so impulse_lcp must report it failed by both verdicts (the check can
fail). No time is compared with anything. Exit 77 (skipped) when a driver was not built (a
peer's Debian package is absent; the sanitizer build makes none), after checking those that were.

    lcp_peers_smoke_check.py IMPULSE BIN_DIR
"""
import json
import math
import pathlib
import subprocess
import sys
import tempfile

FIELDS = {"engine": str, "solver": str, "file": str, "n": int, "repeat": int, "seconds_per_solve": float,
          "own_solved": bool, "own_status": str, "check_solved": bool, "check_tolerance": float}
DRIVERS = {"impulse_lcp": ["lemke"], "dart_lcp": ["lemke"], "siconos_lcp": ["lemke", "pivot", "newton_fb"]}


def fail(msg):
    print(f"lcp_peers_smoke_check: {msg}")
    sys.exit(1)


def run(cmd):
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if r.returncode != 0:
        fail(f"{' '.join(map(str, cmd))} exited {r.returncode}: {r.stderr.strip()[-300:]}")
    return r.stdout


def main():
    impulse, bin_dir = sys.argv[1], pathlib.Path(sys.argv[2])
    with tempfile.TemporaryDirectory() as d:
        d = pathlib.Path(d)
        run([impulse, "lcp", "--write-set", "held-out", "--count", "1", "--seed", "3", "--out", d / "set"])
        contact = sorted((d / "set").glob("*.lcp"))
        if len(contact) != 1:
            fail(f"--write-set held-out --count 1 wrote {len(contact)} files")
        solved = json.loads(run([impulse, "lcp", contact[0], "--json"]))
        if solved["status"] != "solved":
            fail(f"impulse lcp does not solve the written {contact[0].name}: {solved['status']}")
        known = d / "known.lcp"
        known.write_text("2\n2 1\n1 2\n-5 -6\n")
        missing = []
        for exe, solvers in DRIVERS.items():
            if not (bin_dir / exe).exists():
                print(f"lcp_peers_smoke_check: {exe} not built, skipped")
                missing.append(exe)
                continue
            for solver in solvers:
                lines = [json.loads(x) for x in run([bin_dir / exe, "--solver", solver, "--repeat", "2", known, contact[0]])
                         .splitlines() if x.startswith("{")]
                if len(lines) != 2:
                    fail(f"{exe} --solver {solver}: {len(lines)} result lines for 2 files")
                for r in lines:
                    for k, t in FIELDS.items():
                        if not isinstance(r.get(k), t) and not (t is float and isinstance(r.get(k), int)):
                            fail(f"{exe} --solver {solver}: field {k} missing or not {t.__name__}: {r}")
                    if not (math.isfinite(r["seconds_per_solve"]) and r["seconds_per_solve"] >= 0):
                        fail(f"{exe}: seconds_per_solve = {r['seconds_per_solve']}")
                if not (lines[0]["own_solved"] and lines[0]["check_solved"]):
                    fail(f"{exe} --solver {solver} does not solve the 2 x 2 LCP with z = (4/3, 7/3): {lines[0]}")
        if "impulse_lcp" not in missing:  # the check can fail: w = 0 z - 1 < 0 for every z
            infeasible = d / "infeasible.lcp"
            infeasible.write_text("1\n0\n-1\n")
            r = json.loads(run([bin_dir / "impulse_lcp", "--repeat", "1", infeasible]).splitlines()[0])
            if r["own_solved"] or r["check_solved"]:
                fail(f"impulse_lcp reports the infeasible LCP w = 0 z - 1 as solved: {r}")
            bad = subprocess.run([str(bin_dir / "impulse_lcp"), "--repeat", "0", str(known)], capture_output=True,
                                 text=True)
            if bad.returncode != 2 or "--repeat" not in bad.stderr:
                fail(f"impulse_lcp --repeat 0: exit {bad.returncode}, stderr {bad.stderr.strip()}")
    if missing:
        print(f"lcp_peers_smoke_check: skipped (not built: {', '.join(missing)})")
        sys.exit(77)
    print("lcp_peers_smoke_check: every driver parses and solves the known LCP")


if __name__ == "__main__":
    main()
