#!/usr/bin/env python3
"""End-to-end checks of the `impulse` command line: outputs, exit codes, one-line errors.
Usage: cli_check.py IMPULSE_BINARY"""
import json
import os
import re
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
failures = []
checks = 0
# The tutor counts wrong tries per student; keep this run's count in a throwaway file.
TRIES = tempfile.mkdtemp(prefix="impulse-cli-")
os.environ["IMPULSE_TRIES_FILE"] = os.path.join(TRIES, "tries.json")


def run(*args, stdin=None):
    return subprocess.run([BIN, *args], capture_output=True, text=True, input=stdin)


def expect(args, code, out_has=None, err_has=None, stdin=""):
    global checks
    checks += 1
    r = run(*args, stdin=stdin)
    ok = r.returncode == code
    if out_has is not None and out_has not in r.stdout:
        ok = False
    if err_has is not None and err_has not in r.stderr:
        ok = False
    if code == 2 and (r.stderr.strip().count("\n") != 0 or not r.stderr.startswith("impulse: error:")):
        ok = False  # bad input: exactly one line on stderr
    if code == 2 and r.stdout.strip():
        ok = False  # bad input: no result printed, not even part of one
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
r = expect(["bench", "e3-broadphase", "--n", "500", "--mode", "nxn", "--repeat", "1", "--json"], 0)
if r.returncode == 0 and json.loads(r.stdout)["metrics"]["shapes"]["value"] != 500:
    failures.append("bench e3-broadphase did not report its shape count")
expect(["bench", "e3-broadphase", "--mode", "bvh"], 2, err_has="bvh")
expect(["bench", "e3-broadphase", "--n", "1"], 2, err_has="--n")
with tempfile.TemporaryDirectory() as d:
    expect(["run", "e3-contacts", "--out", d], 0)
    if not os.path.exists(os.path.join(d, "e3-contacts.csv")):
        failures.append("run e3-contacts wrote no CSV")
expect(["run", "e3-contacts", "--gap", "-1"], 2, err_has="--gap")
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

# the whole chain: Model -> collide -> SolverXPBD -> update_contacts
with tempfile.TemporaryDirectory() as d:
    expect(["run", "e3-box-drop", "--duration", "0.3", "--out", d], 0, out_has="e3-box-drop: after")
    if not os.path.exists(os.path.join(d, "e3-box-drop.csv")):
        failures.append("run e3-box-drop wrote no CSV")
expect(["run", "e3-box-drop", "--h", "-1"], 2, err_has="--h")
expect(["run", "e3-box-drop", "--iterations", "0"], 2, err_has="--iterations")

# --help and -h on every subcommand; unknown subcommands named with the valid list.
for cmd in (["formulas"], ["calc"], ["exercises"], ["exercises", "list"], ["exercises", "show"], ["exercises", "check"],
            ["scenes"], ["run"], ["bench"], ["verify"], ["lcp"], ["model"]):
    for flag in ("--help", "-h"):
        expect(cmd + [flag], 0, out_has="example")
expect(["frobnicate"], 2, err_has="valid: formulas, calc")
expect(["exercises", "frobnicate"], 2, err_has="valid: list, show, check")
for cmd in (["exercises", "variant"], ["exercises", "grade"], ["exercises", "sheet"]):
    for flag in ("--help", "-h"):
        expect(cmd + [flag], 0, out_has="example")
expect(["exercises", "variant", "E3.10-ex2-xpbd-normal"], 2, err_has="--seed")
expect(["exercises", "variant", "E3.10-ex2", "--seed", "x"], 2, err_has="did you mean E3.10-ex2-xpbd-normal")
expect(["exercises", "grade"], 2, err_has="directory")
expect(["exercises", "check", "E3.10-ex2-xpbd-normal", "0.8", "800", "--seed", "a1"], 1, out_has="incorrect")  # a1 draws d = -0.0013
expect(["exercises", "sheet", "--out", "/tmp/x"], 2, err_has="--seed")
expect(["exercises", "sheet", "--seed", "a", "--out", "/tmp/x", "--exercises", "E9"], 2, err_has="--exercises")
expect(["exercises", "grade", "/nonexistent-class"], 2, err_has="/nonexistent-class")
expect(["calc", "E1.3-box-mass-inertia", "--help"], 0, out_has="allowed: (0, 1e12]")
expect(["calc", "E1.3-box-mass-inertia", "-h"], 0, out_has="formula: m = 8 rho hx hy hz")
expect(["run", "st-bounce", "--help"], 0, out_has="allowed: a whole number in [1, 100000]")
expect(["bench", "e3-spheres", "-h"], 0, out_has="one of xpbd, semi_implicit, featherstone, padmm, vbd")

# Calculator inputs outside their domains: exit 2, one line naming the input, no number printed.
BOX = ["calc", "E1.3-box-mass-inertia", "--hx", "0.1", "--hy", "0.05", "--hz", "0.025", "--density", "1000"]
def box(**over):
    a = list(BOX)
    for k, v in over.items():
        a[a.index("--" + k) + 1] = v
    return a
expect(BOX, 0, out_has="mass = 1 kg")
for name in ("hx", "hy", "hz", "density"):
    for bad in ("-0.1", "0", "nan", "inf", "1e999", "1e13", "abc", ""):
        expect(box(**{name: bad}), 2, err_has="--" + name)
TORQUE = ["--f", "0,10,0", "--P", "0.2,0,0", "--C", "0,0,0"]
expect(["calc", "E1.6-torque-example", "--f", "0,1e999,0", "--P", "0.2,0,0", "--C", "0,0,0"], 2, err_has="--f")
expect(["calc", "E1.6-torque-example", "--f", "0,nan,0", "--P", "0.2,0,0", "--C", "0,0,0"], 2, err_has="--f")
expect(["calc", "E1.6-torque-example", "--f", "0,10", "--P", "0.2,0,0", "--C", "0,0,0"], 2, err_has="--f")
expect(["calc", "E1.6-torque-example"] + TORQUE + ["--f", "1,1,1"], 2, err_has="--f")
expect(["calc", "E1.2-axis-angle", "--axis", "0,0,0", "--theta", "1"], 2, err_has="--axis")
expect(["calc", "E1.2-rotation-orthonormal", "--q", "0,0,0,0"], 2, err_has="--q")
expect(["calc", "E1.2-rotation-orthonormal", "--q", "0,0,0,2"], 2, err_has="--q")
expect(["calc", "E1.2-rotation-orthonormal", "--q", "0,0,0.7071068,0.7071068"], 0, out_has="det_R")
expect(["calc", "E1.2-rigid-transform", "--p", "0,0,0", "--q", "0,0,0,0", "--x_B", "1,0,0"], 2, err_has="--q")
expect(["calc", "E3.3-xpbd-friction-mix", "--mu0", "-0.1", "--mu1", "1", "--t0", "0", "--t1", "0", "--r0", "0", "--r1", "0"],
       2, err_has="--mu0")
expect(["calc", "E3.3-xpbd-restitution-mix", "--e0", "1.5", "--e1", "0.5"], 2, err_has="--e0")
expect(["calc", "E3.4-xpbd-pn", "--d", "-0.01", "--h", "0.01", "--w", "0", "--relaxation", "0.8"], 2, err_has="--w")
expect(["calc", "E3.4-xpbd-pn", "--d", "-0.01", "--h", "0", "--w", "2", "--relaxation", "0.8"], 2, err_has="--h")
expect(["calc", "E1.10-linear-update", "--v", "nan,0,0", "--c", "0,0,0", "--f", "0,0,0", "--m", "1", "--g", "0,0,-9.81",
        "--h", "0.01"], 2, err_has="--v")
expect(["calc", "E1.10-linear-update", "--v", "0,0,0", "--c", "0,0,0", "--f", "0,0,0", "--m", "-1", "--g", "0,0,-9.81",
        "--h", "0.01"], 2, err_has="--m")
expect(["calc", "E1.7-substep", "--H", "0.02", "--N", "2.5"], 2, err_has="--N")
expect(["calc", "E1.7-substep", "--H", "0.02", "--N", "0"], 2, err_has="--N")
expect(["calc", "ST.2-polyhedral-friction", "--k", "2", "--mu_pn", "1", "--theta", "0"], 2, err_has="--k")
expect(["calc", "ST.4-error-metrics", "--h", "1e-9"], 2, err_has="--h")  # a step off the reference grid
expect(["calc", "E1.6-torque-example", "--json"] + TORQUE[:4], 2, err_has="--C")

# Scene options: finite, physical, with ceilings on steps, bodies and duration; nothing written.
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "out")
    for args, name in ((["st-bounce", "--steps", "1000000000"], "--steps"), (["st-bounce", "--steps", "0"], "--steps"),
                       (["st-bounce", "--steps", "2.5"], "--steps"), (["st-bounce", "--h", "nan"], "--h"),
                       (["st-bounce", "--m", "-1"], "--m"), (["st-bounce", "--v", "inf"], "--v"),
                       (["st-rod", "--T", "1e9"], "--T"), (["st-rod", "--T", "500", "--h", "0.0001"], "--T"),
                       (["st-rod", "--mu", "-0.6"], "--mu"), (["st-rod", "--nonlinear", "-1"], "--nonlinear"),
                       (["e3-bounce", "--e", "2"], "--e"), (["e3-box-drop", "--duration", "1e300"], "--duration"),
                       (["e3-spheres", "--n", "1e12"], "--n"), (["e1-free-body", "--fps", "0"], "--fps"),
                       (["e1-free-body", "--wx", "nan"], "--wx"), (["e3-contacts", "--mode", "quadtree"], "--mode"),
                       (["e1-robot", "--dt", "-0.01"], "--dt"), (["e3-pyramid", "--steps", "99999999999"], "--steps")):
        expect(["run"] + args + ["--out", out], 2, err_has=name)
    if os.path.exists(out) and os.listdir(out):
        failures.append(f"refused runs left files in {out}: {os.listdir(out)}")
    expect(["run", "e3-penalty-stability", "--above", "1.5", "--steps", "1000", "--out", out], 2,
           err_has="--above 1.5 --steps 1000")  # the unstable run leaves double range
    expect(["run", "st-bounce", "--out", out, "--max-output", "10"], 2, err_has="--max-output")
    if os.path.exists(out) and os.listdir(out):
        failures.append(f"a run over --max-output left files: {os.listdir(out)}")
    expect(["run", "st-bounce", "--out", out, "--max-output", "-1"], 2, err_has="--max-output")
    blocker = os.path.join(d, "a-file")
    open(blocker, "w").close()
    expect(["run", "st-bounce", "--out", blocker], 2, err_has="--out")
expect(["bench", "e1-spatial-shift", "--n", "1e12"], 2, err_has="--n")
expect(["bench", "e1-spatial-shift", "--n", "1000", "--n", "2000"], 2, err_has="given twice")
expect(["bench", "e1-spatial-shift", "--repeat", "100000"], 2, err_has="--repeat")
expect(["bench", "e3-spheres", "--n", "1000000", "--steps", "100000"], 2, err_has="--steps")  # hours of work
expect(["run", "e1-free-body", "--frames", "100000", "--substeps", "1000"], 2, err_has="--frames")
expect(["bench", "e3-broadphase", "--n", "100", "--per-world", "500"], 2, err_has="--per-world")
expect(["bench", "e3-spheres", "--solver", "padmm", "--n", "100000"], 2, err_has="--n")
expect(["bench", "e1-free-bodies", "--steps", "1e9"], 2, err_has="--steps")
expect(["bench", "e3-broadphase", "--mode", "nxn", "--n", "1000000"], 2, err_has="--n")
expect(["bench", "st-lcp", "--n", "100000"], 2, err_has="--n")
expect(["bench", "e3-spheres", "--solver", "magic"], 2, err_has="--solver")
expect(["bench", "e3-spheres", "--repeat", "1"], 2, err_has="--repeat")

# LCP files: row lengths, square M, finite entries, a limit on n.
with tempfile.TemporaryDirectory() as d:
    def lcp2(name, text):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(text)
        return path
    expect(["lcp", lcp2("q-lines.txt", "2\n2 1\n1 2\n-5\n-6\n")], 0, out_has="status: solved")
    expect(["lcp", lcp2("row3.txt", "2\n2 1 0\n1\n-5 -6\n")], 2, err_has="row3.txt:2: row 1 of M has 3")
    expect(["lcp", lcp2("row1.txt", "2\n2 1\n1\n-5 -6\n")], 2, err_has="row1.txt:3: row 2 of M has 1")
    expect(["lcp", lcp2("nfirst.txt", "2 2\n2 1\n1 2\n-5 -6\n")], 2, err_has="nfirst.txt:1:")
    expect(["lcp", lcp2("big.txt", "3000\n")], 2, err_has="[1, 2000]")
    expect(["lcp", lcp2("zero.txt", "0\n")], 2, err_has="[1, 2000]")
    expect(["lcp", lcp2("frac.txt", "1.5\n")], 2, err_has="[1, 2000]")
    expect(["lcp", lcp2("inf.txt", "1\ninf\n-1\n")], 2, err_has="M(1,1)")
    expect(["lcp", lcp2("huge.txt", "1\n1e999\n-1\n")], 2, err_has="M(1,1)")
    expect(["lcp", lcp2("qshort.txt", "2\n2 1\n1 2\n-5 -6 7\n")], 2, err_has="qshort.txt:4:")
    expect(["lcp", lcp2("empty.txt", "# nothing\n")], 2, err_has="empty")
    expect(["lcp", d], 2, err_has=d)
    expect(["lcp", "-"], 2, err_has="<stdin>")

# Answer files: not a table, unknown exercise, a choice that is not an option, a wrong count.
with tempfile.TemporaryDirectory() as d:
    def answers(name, text):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(text)
        return path
    expect(["exercises", "check", "--file", answers("nt.toml", 'x = 3\n')], 2, err_has="'x' must be a table")
    expect(["exercises", "check", "--file", answers("ue.toml", '["E9.9-x"]\nanswer = [1]\n')], 2, err_has="E9.9-x")
    expect(["exercises", "check", "--file", answers("ch.toml", '["E1.11-ex1"]\nanswer = [9, 8, "z"]\n')], 2,
           err_has="not one of the options a, b, c")
    expect(["exercises", "check", "--file", answers("cnt.toml", '["E1.11-ex3"]\nanswer = [0, 1]\n')], 2, err_has="takes 3")
    expect(["exercises", "check", "--file", answers("na.toml", '["E1.11-ex3"]\nanswr = [0, -0.2, 0]\n')], 2,
           err_has="answr")
    expect(["exercises", "check", "--file", answers("nest.toml", '["E1.11-ex3"]\nanswer = [[0], -0.2, 0]\n')], 2,
           err_has="nest.toml:2")
    expect(["exercises", "check", "--file", d], 2, err_has=d)

# The tutor: which part, the tolerance and a hint; nothing derived from the key before the solution.
r = expect(["exercises", "check", "E1.11-ex2", "8", "0.0334", "1", "0.004167"], 1, out_has="I_xx_density_kept: incorrect")
if r.returncode == 1:
    for want in ("tolerance: ", "4 significant figures", "hint: course E1", "E1.4-scaling-laws", "--reveal"):
        if want not in r.stdout:
            failures.append(f"the tutor's reply to a wrong E1.11-ex2 lacks '{want}':\n{r.stdout}")
    if "why:" in r.stdout or "0.0333333" in r.stdout:
        failures.append("a first wrong answer showed the key or the worked solution")
expect(["exercises", "check", "E1.11-ex2", "8", "0.03333", "1", "0.004167"], 0, out_has="correct")
expect(["exercises", "check", "E1.11-ex3", "0", "0.2", "0", "--reveal"], 1, out_has="why:")
expect(["exercises", "check", "E1.11-ex1", "9", "8", "z"], 2, err_has="not one of the options")
expect(["exercises", "check", "E1.11-ex1", "9", "8", "b", "--bogus"], 2, err_has="--bogus")

NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?:/\d+)?")
ID_OR_SECTION = re.compile(r"\b(?:E1|E3|ST)\.[\w.-]+|§\d+|\(recorded in [^)]*\)")


def key_of(exercise_id):
    """The key and the shape of an exercise, read from its revealed solution: ['0.8', '800'], ..."""
    r = run("exercises", "check", exercise_id, "--reveal")
    line = next((l for l in r.stdout.splitlines() if l.strip().startswith("answer:")), "")
    return [v.split("=", 1)[1].strip() for v in line.split(":", 1)[1].split(";") if "=" in v] if line else []


# Every numeric exercise, answered wrongly on a first try: the reply names parts, tolerance and hint,
# and holds no number but the student's own, the try count, the significant figures and the three
# tries; no 'off by', no percentage, no command that would print the key.
with tempfile.TemporaryDirectory() as d:
    listing = run("exercises", "list", "--json")
    ids = [e["id"] for e in json.loads(listing.stdout)] if listing.returncode == 0 else []
    numeric = 0
    for exercise_id in ids:
        shown = json.loads(run("exercises", "show", exercise_id, "--json").stdout)
        if all(p["kind"] != "number" for p in shown["answer"]):
            continue
        numeric += 1
        wrong = []  # numbers off the key; a choice part keeps its (right) label
        for part, k in zip(shown["answer"], key_of(exercise_id)):
            if part["kind"] != "number":
                wrong.append(k)
                continue
            for x in NUMBER.findall(k.split(" ")[0] if not k.startswith("(") else k):
                wrong.append(repr(1.25 * float(x) + 0.37))
        env = dict(os.environ, IMPULSE_TRIES_FILE=os.path.join(d, f"{exercise_id}.json"))
        r = subprocess.run([BIN, "exercises", "check", exercise_id, *wrong], capture_output=True, text=True, env=env)
        checks += 1
        text = ID_OR_SECTION.sub(" ", r.stdout)
        allowed = set(wrong) | {"1", "3", "4", "0"} | {str(n) for n in range(1, 7)}
        leaked = [x for x in NUMBER.findall(text) if x not in allowed and x.lstrip("+") not in allowed]
        if r.returncode != 1 or leaked or "hint:" not in r.stdout or "tolerance:" not in r.stdout:
            failures.append(f"{exercise_id}: a first wrong answer {wrong}: exit {r.returncode}, numbers beyond the "
                            f"student's own: {leaked}\n{r.stdout}")
        for banned in ("off by", "%", "impulse calc", "  answer:"):
            if banned in r.stdout:
                failures.append(f"{exercise_id}: a first wrong answer's reply holds '{banned}':\n{r.stdout}")
    if numeric < 11:
        failures.append(f"only {numeric} exercises with numeric parts were tried")

# A typical mistake is named: F_avg given as the impulse itself, p_n without the relaxation.
r = expect(["exercises", "check", "E3.10-ex2-xpbd-normal", "1", "0.8"], 1, out_has="that is the impulse itself")
if "did you leave it out" not in r.stdout:
    failures.append(f"E3.10-ex2 with p_n = 1 (no relaxation) did not name the mistake:\n{r.stdout}")

# Answers as students write them.
expect(["exercises", "check", "E3.10-ex3-readback-scale", "1/3"], 0, out_has="correct (yours 1/3)")
expect(["exercises", "check", "E3.10-ex3-readback-scale", "0.333"], 0, out_has="correct")
expect(["exercises", "check", "E3.10-ex3-readback-scale", "0.33"], 1, out_has="to 3 significant figures")
expect(["exercises", "check", "E3.10-ex2-xpbd-normal", "1.6N", "800"], 2, err_has="write the number without its unit")
expect(["exercises", "check", "E3.10-ex2-xpbd-normal", "0.8", "800", "N"], 2, err_has="write the number without its unit")
expect(["exercises", "check", "E3.10-ex3-readback-scale", "1,6"], 2, err_has="the comma separates vector components")
expect(["exercises", "check", "E3.10-ex3-readback-scale", "1/0"], 2, err_has="divides by zero")
expect(["exercises", "check", "E3.10-ex2", "0.8", "800"], 2, err_has="did you mean E3.10-ex2-xpbd-normal?")
expect(["exercises", "check", "E3.10-ex2-xpbd-normla", "0.8", "800"], 2, err_has="did you mean E3.10-ex2-xpbd-normal?")
r = expect(["exercises", "list"], 0)
order = [l.split()[0] for l in r.stdout.splitlines() if l.strip()]
if "E3.10-ex10-static-vs-kinematic-scale" in order and order.index("E3.10-ex10-static-vs-kinematic-scale") < order.index("E3.10-ex9-matching-warmstart"):
    failures.append("exercises list is not in natural order (ex10 before ex9)")
r = expect(["exercises", "check", "E3.10-ex2-xpbd-normal", "--reveal"], 0, out_has="why:")
if "no try counted" not in r.stdout:
    failures.append(f"--reveal without an answer:\n{r.stdout}")
r = expect(["exercises", "show", "E3.10-ex2-xpbd-normal"], 0,
           out_has="impulse exercises check E3.10-ex2-xpbd-normal p_n F_avg")
if "..." in r.stdout or "p_n: to 3 significant figures" not in r.stdout:
    failures.append(f"show names no real command or no precision:\n{r.stdout}")
r = expect(["exercises", "show", "E3.10-ex8-mujoco-torque"], 0)
if any(l.strip() in ("a", "b", "c") for l in r.stdout.splitlines()):
    failures.append(f"show prints bare option labels under the question:\n{r.stdout}")

# Tries are counted exactly under concurrency (a lock around each read-modify-write), and a corrupt
# record is refused and kept.
with tempfile.TemporaryDirectory() as d:
    record = os.path.join(d, "tries.json")
    env = dict(os.environ, IMPULSE_TRIES_FILE=record)
    procs = [subprocess.Popen([BIN, "exercises", "check", "E1.11-ex3", "0", "0.2", "0"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(30)]
    codes = [p.wait() for p in procs]
    checks += 1
    with open(record) as f:
        counted = json.load(f).get("E1.11-ex3")
    if counted != 30 or codes != [1] * 30:
        failures.append(f"30 concurrent wrong tries recorded {counted} (exit codes {sorted(set(codes))})")
    with open(record, "w") as f:
        f.write("{not json")
    r = subprocess.run([BIN, "exercises", "check", "E1.11-ex3", "0", "0.2", "0"], capture_output=True, text=True, env=env)
    checks += 1
    with open(record) as f:
        kept = f.read()
    if r.returncode != 2 or "is not a JSON object" not in r.stderr or kept != "{not json":
        failures.append(f"a corrupt tries file: exit {r.returncode}, {r.stderr.strip()}, file now {kept!r}")

WRONG_EX8 = "a"  # E1.11-ex8 is a choice whose answer is b
for k in range(3):
    r = expect(["exercises", "check", "E1.11-ex8", WRONG_EX8], 1)
if "why:" not in r.stdout:
    failures.append("the worked solution was not shown after three wrong tries")

# impulse model: the URDF/MJCF importers on real files; bad files and options refused.
with tempfile.TemporaryDirectory() as d:
    def model_file(name, text):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(text)
        return path
    urdf = model_file("arm.urdf", """<robot name="arm">
  <link name="base"><inertial><mass value="2"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="upper"><inertial><origin xyz="0 0 0.25"/><mass value="1"/><inertia ixx="0.02" iyy="0.02" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/><origin xyz="0 0 0.1"/><axis xyz="0 1 0"/></joint>
</robot>
""")
    r = expect(["model", urdf, "--json"], 0)
    if r.returncode == 0:
        j = json.loads(r.stdout)
        if (j["body_count"], j["joint_coord_count"], j["joint_dof_count"]) != (2, 8, 7):
            failures.append(f"model arm.urdf: FREE root + 1 revolute should be 2 bodies, q 8, qd 7: {j}")
    expect(["model", urdf, "--fixed-base"], 0, out_has="joint_q: 1 coordinates")
    mjcf = model_file("ball.xml", """<mujoco><worldbody><body name="ball" pos="0 0 1"><freejoint/>
<geom type="sphere" size="0.1" density="1000"/></body></worldbody></mujoco>
""")
    expect(["model", mjcf], 0, out_has="joint_q: 7 coordinates, joint_qd: 6 velocities")
    neg = model_file("neg.urdf", '<robot name="r"><link name="a"><inertial><mass value="-1"/>'
                     '<inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link></robot>\n')
    expect(["model", neg], 2, err_has="neg.urdf")
    nan = model_file("nan.urdf", '<robot name="r"><link name="a"><inertial><mass value="nan"/>'
                     '<inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link></robot>\n')
    expect(["model", nan], 2, err_has="nan.urdf")
    broken = model_file("broken.urdf", "<robot name='r'><link name='a'>\n")
    expect(["model", broken], 2, err_has="broken.urdf")
    zero_box = model_file("box.xml", '<mujoco><worldbody><body><freejoint/><geom type="box" size="-0.1 0.1 0.1"/></body>'
                          '</worldbody></mujoco>\n')
    expect(["model", zero_box], 2, err_has="box.xml")
    far = model_file("far.xml", '<mujoco><worldbody><body pos="1e308 0 0"><freejoint/><geom type="sphere" size="0.1"/>'
                     '</body></worldbody></mujoco>\n')
    expect(["model", far], 2, err_has="far.xml")
    expect(["model", urdf, "--scale", "0"], 2, err_has="--scale")
    expect(["model", urdf, "--scale", "nan"], 2, err_has="--scale")
    expect(["model", urdf, "--density", "-5"], 2, err_has="--density")
    expect(["model", model_file("x.txt", "hello")], 2, err_has="--format")
    expect(["model", os.path.join(d, "missing.urdf")], 2, err_has="missing.urdf")
    expect(["model"], 2, err_has="FILE")

for f in failures:
    print("FAIL " + f)
print(f"cli: {max(0, checks - len(failures))} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
