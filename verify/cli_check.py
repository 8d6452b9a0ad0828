#!/usr/bin/env python3
"""End-to-end checks of the `impulse` command line: outputs, exit codes, one-line errors.
Usage: cli_check.py IMPULSE_BINARY"""
import json
import os
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
failures = []


def run(*args, stdin=None):
    return subprocess.run([BIN, *args], capture_output=True, text=True, input=stdin)


def expect(args, code, out_has=None, err_has=None):
    r = run(*args)
    ok = r.returncode == code
    if out_has is not None and out_has not in r.stdout:
        ok = False
    if err_has is not None and err_has not in r.stderr:
        ok = False
    if code == 2 and (r.stderr.strip().count("\n") != 0 or not r.stderr.startswith("impulse: error:")):
        ok = False  # bad input: exactly one line on stderr
    if not ok:
        failures.append(f"impulse {' '.join(args)}: exit {r.returncode}\n  stdout: {r.stdout[:400]}\n  stderr: {r.stderr[:400]}")
    return r


# calc: the course's torque example, other numbers, missing/unknown inputs, unknown ID.
r = expect(["calc", "E1.6-torque-example", "--f", "0,10,0", "--P", "0.2,0,0", "--C", "0,0,0", "--json"], 0)
if r.returncode == 0:
    j = json.loads(r.stdout)
    if j["outputs"]["tau_C"]["value"] != [0, 0, 2] or j["outputs"]["tau_C"]["unit"] != "N m":
        failures.append(f"torque example gave {j['outputs']['tau_C']}")
r = expect(["calc", "E1.6-torque-example", "--f", "3,0,0", "--P", "0,1,0", "--C", "0,0,0", "--json"], 0)
if r.returncode == 0 and json.loads(r.stdout)["outputs"]["tau_C"]["value"] != [0, 0, -3]:
    failures.append("torque example with other numbers is wrong")
expect(["calc", "E1.6-torque-example", "--f", "0,10,0", "--P", "0.2,0,0", "--C", "0,0,0"], 0, out_has="tau_C = (0, 0, 2) N m")
expect(["calc", "E1.6-torque-example", "--f", "0,10,0", "--P", "0.2,0,0"], 2, err_has="--C")
expect(["calc", "E1.6-torque-example", "--f", "0,10,0", "--P", "0.2,0,0", "--C", "0,0,0", "--zz", "1"], 2, err_has="--zz")
expect(["calc", "E1.6-torque-example", "--f", "abc", "--P", "0.2,0,0", "--C", "0,0,0"], 2, err_has="--f")
expect(["calc", "E9.9-nothing"], 2, err_has="E9.9-nothing")
expect(["calc", "E1.6-torque-example", "--help"], 0, out_has="--P X,Y,Z")

# exercises
expect(["exercises", "check", "E1.11-ex3", "0", "-0.2", "0"], 0, out_has="correct")
expect(["exercises", "check", "E1.11-ex3", "0", "0.2", "0"], 1, out_has="incorrect")
expect(["exercises", "check", "E1.11-ex3", "abc"], 2, err_has="abc")
expect(["exercises", "check", "E1.11-ex3", "0", "0"], 2, err_has="takes 3")
expect(["exercises", "check", "E9.11-ex3", "0"], 2, err_has="E9.11-ex3")
expect(["exercises", "list"], 0, out_has="E1.11-ex3")
expect(["exercises", "show", "E1.11-ex3"], 0, out_has="omega")
with tempfile.TemporaryDirectory() as d:
    good = os.path.join(d, "good.toml")
    with open(good, "w") as f:
        f.write('["E1.11-ex3"]\nanswer = [0, -0.2, 0]\n')
    expect(["exercises", "check", "--file", good], 0, out_has="correct")
    wrong = os.path.join(d, "wrong.toml")
    with open(wrong, "w") as f:
        f.write('["E1.11-ex3"]\nanswer = [0, 0.2, 0]\n')
    expect(["exercises", "check", "--file", wrong], 1, out_has="incorrect")
    bad = os.path.join(d, "bad.toml")
    with open(bad, "w") as f:
        f.write('["E1.11-ex3"]\nanswer = [0, -0.2,\n')
    expect(["exercises", "check", "--file", bad], 2, err_has="bad.toml:2:")

# formulas, verify, scenes, run, bench
expect(["formulas", "--chapter", "E1"], 0, out_has="E1.6-torque-example  example  implemented")
r = expect(["formulas", "--json"], 0)
expect(["formulas", "--chapter", "E7"], 2)
expect(["verify", "--chapter", "E1"], 0, out_has="PASS  E1.6-torque-example")
expect(["scenes"], 0, out_has="e1-frames")
with tempfile.TemporaryDirectory() as d:
    expect(["run", "e1-frames", "--out", d], 0)
    if not os.path.exists(os.path.join(d, "e1-frames.csv")):
        failures.append("run e1-frames wrote no CSV")
expect(["run", "no-such-scene"], 2, err_has="no-such-scene")
expect(["run", "e1-frames", "--bogus", "1"], 2, err_has="--bogus")
r = expect(["bench", "e1-spatial-shift", "--n", "1000", "--repeat", "2", "--json"], 0)
if r.returncode == 0 and json.loads(r.stdout)["metrics"]["bodies"]["value"] != 1000:
    failures.append("bench did not report its body count")
expect(["bench", "e1-spatial-shift", "--n", "-5"], 2, err_has="--n")
expect(["bench", "e1-spatial-shift", "--device", "tpu"], 2, err_has="tpu")
expect(["bench", "e1-frames"], 2, err_has="no benchmark")
expect(["frobnicate"], 2)

# lcp (Stewart-Trinkle chapter): a solvable 2x2, an infeasible one, bad files naming the line.
with tempfile.TemporaryDirectory() as d:
    def lcp_file(name, text):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(text)
        return path
    expect(["lcp", lcp_file("ok.txt", "2\n2 1\n1 2\n-5 -6\n")], 0, out_has="status: solved")
    expect(["lcp", lcp_file("ok2.txt", "2\n2 1\n1 2\n-5 -6\n"), "--json"], 0, out_has='"pivots"')
    expect(["lcp", lcp_file("ray.txt", "1\n-1\n-1\n")], 1, out_has="ray_termination")
    expect(["lcp", lcp_file("short.txt", "2\n1 0\n0 1\n-1\n")], 2, err_has="short.txt:4:")
    expect(["lcp", lcp_file("word.txt", "2\n1 0\n0 x\n-1 -1\n")], 2, err_has="word.txt:3:")
    expect(["lcp", lcp_file("nan.txt", "1\nnan\n-1\n")], 2, err_has="not finite")
    expect(["lcp", lcp_file("extra.txt", "1\n1\n-1\n7\n")], 2, err_has="extra.txt:4:")
    expect(["lcp", os.path.join(d, "missing.txt")], 2, err_has="missing.txt")

# Stewart-Trinkle scenes: the bounce reading numbers, the Lemke benchmark, bad options.
with tempfile.TemporaryDirectory() as d:
    expect(["run", "st-bounce", "--out", d], 0, out_has="v+ = -0.5 m/s, p = 0.7 N s")
    expect(["run", "st-block", "--out", d], 0, out_has="F_avg = 1000 N")
expect(["bench", "st-lcp", "--n", "70", "--repeat", "1", "--json"], 0, out_has='"four_ball_lcp_size"')
expect(["bench", "st-lcp", "--n", "75"], 2, err_has="--n")
expect(["run", "st-rod", "--h", "-1"], 2, err_has="--h")

for f in failures:
    print("FAIL " + f)
n = 47
print(f"cli: {n - len(failures) if len(failures) < n else 0} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
