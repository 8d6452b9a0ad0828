"""A generated class of 30 answer files, graded by `impulse exercises grade`, with every verdict and
the report's counts required (docs/guide/grading.md).

The students' numbers and the right answers are computed here, not read from the engine: the draw
is written again from its specification (variants_check.py), the XPBD key from the course's formula
p_n = relaxation (-d) / (h w), F = p_n / h (E3 §4), the joint counts from FREE = 7 + 6 and
REVOLUTE = 1 + 1 (E1 §5), the shuffled options by Fisher-Yates as specified. Each known mistake is
made by running the formula with the mistake (w left out, relaxation left out, F = p_n, counts swapped).

usage: grading_class_check.py IMPULSE SCHEMA_JSON
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from variants_check import Stream, xpbd_inputs  # noqa: E402

XPBD = "E3.10-ex2-xpbd-normal"
JOINTS = "E1.11-ex1"
W_OUT = "the inverse effective mass w divides the correction too"
RELAX_OUT = "the relaxation scales the correction: did you leave it out?"
F_IS_PN = "that is the impulse itself: the equivalent force spreads it over the step h"
DOF_SWAP = "that is the number of velocities: a FREE joint's orientation takes four coordinates (a unit quaternion) for its three rotational DOF"
COORD_SWAP = "that is the number of coordinates: a FREE joint has one velocity per DOF, fewer than its coordinates"


def xpbd(seed, relaxation=0.8, w_out=False):
    d, h, w = xpbd_inputs(seed)
    pn = relaxation * (-d) / (h * (1.0 if w_out else w))
    return pn, pn / h


def right_option(seed):
    g = Stream(seed, JOINTS)  # no drawn inputs: the shuffle is the stream's first use
    order = ["a", "b", "c"]  # the course's labels; "a" is right
    for i in range(len(order) - 1, 0, -1):
        j = g.next() % (i + 1)
        order[i], order[j] = order[j], order[i]
    return "abc"[order.index("a")]


def wrong_option(seed):
    return "b" if right_option(seed) != "b" else "c"


def main():
    impulse, schema_path = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="impulse-class-")
    cls = os.path.join(tmp, "answers")
    os.mkdir(cls)
    expect = {}  # student -> {(exercise, part): (correct, mistake or None)}

    def write(name, text, mode="w"):
        with open(os.path.join(cls, name), mode) as f:
            f.write(text)

    for k in range(22):
        s = "s%02d" % (k + 1)
        pn, f = xpbd(s)
        want = {(XPBD, "p_n"): (True, None), (XPBD, "F_avg"): (True, None)}
        if 4 <= k < 8:
            pn = xpbd(s, w_out=True)[0]
            want[(XPBD, "p_n")] = (False, W_OUT)
        elif 8 <= k < 12:
            pn = xpbd(s, relaxation=1.0)[0]
            want[(XPBD, "p_n")] = (False, RELAX_OUT)
        elif 12 <= k < 15:
            f = pn
            want[(XPBD, "F_avg")] = (False, F_IS_PN)
        elif k == 15:
            pn, f = 3 * pn, 3 * f  # wrong by no known mistake
            want[(XPBD, "p_n")] = want[(XPBD, "F_avg")] = (False, None)
        coords, dofs, why = 9, 8, right_option(s)
        want.update({(JOINTS, "joint_coord_count"): (True, None), (JOINTS, "joint_dof_count"): (True, None),
                     (JOINTS, "why"): (True, None)})
        if 16 <= k < 19:
            coords, dofs = 8, 9
            want[(JOINTS, "joint_coord_count")] = (False, DOF_SWAP)
            want[(JOINTS, "joint_dof_count")] = (False, COORD_SWAP)
        elif k >= 19:
            why = wrong_option(s)
            want[(JOINTS, "why")] = (False, None)
        write(s + ".toml", 'student = "%s"\n["%s"]\nanswer = [%r, %r]\n["%s"]\nanswer = [%d, %d, "%s"]\n'
              % (s, XPBD, pn, f, JOINTS, coords, dofs, why))
        expect[s] = want
    bad = {
        "s23.toml": ('student = "s23"\n["%s"]\nanswer = [nan, 800]\n' % XPBD, "not a finite number"),
        "s24.toml": ('student = "s24"\n["%s"]\nanswer = [0.8, 1e400]\n' % XPBD, "floating-point"),
        "s25.toml": ('student = "s25"\n["%s"]\nanswer = ["0.8Ns", 800]\n' % XPBD, "without its unit"),
        "s26.toml": ('student = "s26"\n["E3.10-ex2"]\nanswer = [0.8, 800]\n', "unknown exercise"),
        "s27.toml": ('student = "s01"\n["%s"]\nanswer = [0.8, 800]\n' % XPBD, "already handed in"),
        "s28.toml": (b"\x00\x01PK\x03\x04binary", "binary"),
        "s29.toml": ('student = "s29"\n# %s\n' % ("x" * 70000), "more than an answer file may hold"),
        "s30.toml": ('student = "s30"\n["%s"]\nanswer = [0.8]\n' % XPBD, "takes 2 answer values, got 1"),
    }
    for name, (text, _) in bad.items():
        write(name, text, "wb" if isinstance(text, bytes) else "w")
    assert len(os.listdir(cls)) == 30

    gs = os.path.join(tmp, "gradescope")
    html = os.path.join(tmp, "report.html")
    run = subprocess.run([impulse, "exercises", "grade", cls, "--json", "--gradescope", gs, "--html", html],
                         capture_output=True, text=True)
    assert run.returncode == 1, (run.returncode, run.stderr)
    out = json.loads(run.stdout)

    refused = {os.path.basename(r["file"]): r["error"] for r in out["refused"]}
    assert set(refused) == set(bad), refused
    for name, (_, words) in bad.items():
        assert words in refused[name] and "\n" not in refused[name], (name, refused[name])
        assert refused[name].startswith(os.path.join(cls, name) + ":"), refused[name]

    students = {s["student"]: s for s in out["students"]}
    assert set(students) == set(expect), sorted(students)
    verdicts = 0
    for s, want in expect.items():
        got = {(e["id"], p["part"]): (p["correct"], p["mistake"]) for e in students[s]["exercises"] for p in e["parts"]}
        assert got == want, (s, got, want)
        verdicts += len(got)
        right = sum(1 for e in students[s]["exercises"] for p in e["parts"] if p["correct"])
        score = sum(sum(p["correct"] for p in e["parts"]) / len(e["parts"]) for e in students[s]["exercises"])
        assert abs(students[s]["points"] - score) < 1e-12 and students[s]["max_points"] == 2, (s, right)

    report = {(r["exercise"], r["part"]): r for r in out["report"]}
    for key in report:
        answered = [want[key] for want in expect.values()]
        r = report[key]
        assert r["answered"] == len(answered) == 22
        assert r["correct"] == sum(c for c, _ in answered), (key, r)
        assert r["unexplained"] == sum(1 for c, m in answered if not c and m is None), (key, r)
        for m in r["mistakes"]:
            assert m["count"] == sum(1 for c, mm in answered if mm == m["mistake"]), (key, m)
    assert report[(XPBD, "p_n")]["correct"] == 13 and report[(XPBD, "p_n")]["unexplained"] == 1
    assert report[(JOINTS, "why")]["correct"] == 19

    try:
        import jsonschema
    except ImportError:
        print("grading_class_check: python3-jsonschema missing (./run installs it)")
        return 1
    with open(schema_path) as f:
        schema = json.load(f)
    keys = {(s["student"], e["id"], p["part"]): p["key"] for s in out["students"] for e in s["exercises"] for p in e["parts"]}
    for s in expect:
        with open(os.path.join(gs, s + ".json")) as f:
            res = json.load(f)
        jsonschema.validate(res, schema)
        assert abs(res["score"] - students[s]["points"]) < 1e-12
        for t in res["tests"]:
            ex, part = t["name"].split(" ")
            key = keys[(s, ex, part)].split(" ")[0]
            numeric = any(c.isdigit() for c in key) and key not in ("9", "8")  # counts: small integers anyone writes
            if "incorrect" in t["output"] and numeric:
                assert key not in t["output"], ("the key leaked into the feedback", s, t)
    # One student's sheet: the numbers of the draw, an answer file that grades as handed back.
    sheets = os.path.join(tmp, "sheets")
    subprocess.run([impulse, "exercises", "sheet", "--seed", "s01", "--out", sheets, "--exercises",
                    XPBD + "," + JOINTS], check=True, capture_output=True)
    d, h, w = xpbd_inputs("s01")
    md = open(os.path.join(sheets, "sheet-s01.md")).read()
    assert "gap d = %r m, step h = %r s, inverse effective mass w = %r 1/kg" % (d, h, w) in md, md
    pn, f = xpbd("s01")
    template = open(os.path.join(sheets, "answers-s01.toml")).read()
    filled = template.replace("answer = []", "answer = [%r, %r]" % (pn, f), 1)
    one = os.path.join(tmp, "one")
    os.mkdir(one)
    with open(os.path.join(one, "answers-s01.toml"), "w") as fh:
        fh.write(filled)
    results = os.path.join(tmp, "results.json")
    run1 = subprocess.run([impulse, "exercises", "grade", one, "--gradescope", results], capture_output=True, text=True)
    assert run1.returncode == 0, run1.stdout + run1.stderr
    res = json.load(open(results))
    jsonschema.validate(res, schema)
    assert res["score"] == 1 and res["max_score"] == 2, res  # the XPBD exercise right, the joints one left empty
    page = open(html).read()
    assert page.count("<svg") == len(report) and "<script" not in page and "src=" not in page
    print("grading_class_check: 30 files, %d verdicts of 22 students, 8 refused, report counts and %d "
          "Gradescope files as expected" % (verdicts, len(expect)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
