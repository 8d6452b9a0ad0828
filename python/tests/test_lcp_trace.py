"""`impulse lcp --trace` and the st-lemke-path scene: the pivot path of Lemke's method."""
import pathlib
import subprocess

import numpy as np

import impulse

BIN = pathlib.Path(impulse.__file__).resolve().parents[2] / "bin" / "impulse"


def test_ST_3_lemke_lexicographic_cli_trace_of_the_hand_worked_path():
    # M = [[2, 1], [1, 2]], q = (-5, -6): by hand z0 = 6, 4, 0 and z = (4/3, 7/3)
    # (the derivation is in verify/st/lcp_trace_test.cpp).
    r = subprocess.run([str(BIN), "lcp", "-", "--trace"], input="2\n2 1\n1 2\n-5 -6\n", capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    lines = [l for l in r.stdout.splitlines() if l.startswith("pivot ")]
    assert lines == ["pivot 1: z0 enters, w2 leaves, z0 = 6",
                     "pivot 2: z2 enters, w1 leaves, z0 = 4",
                     "pivot 3: z1 enters, z0 leaves, z0 = 0"]


def test_ST_3_lemke_lexicographic_four_ball_path_scene():
    run = impulse.run("st-lemke-path")
    t = run.table()
    assert run.code == 0 and "solved" in run.log
    assert t["entering_kind"][0] == "z0" and t["leaving_kind"][-1] == "z0"
    assert t["z0"][-1] == 0 and np.all(t["z0"] >= 0)
    # every entering variable after the first is the complement of the one that left before
    for k in range(1, t.rows):
        left, entered = t["leaving_kind"][k - 1], t["entering_kind"][k]
        assert {left, entered} == {"w", "z"} and t["leaving_index"][k - 1] == t["entering_index"][k]
