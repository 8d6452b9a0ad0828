"""Same script, two engines (issue 23): scripts written in Newton 1.6.1's own API
(python/tests/newton_scripts/) run unchanged but for their two import lines, once in Newton 1.6.1
on the CPU (the parity suite's venv, build/parity/venv-newton-1.6.1, made by ./run parity) and once
on impulse, and their printed numbers are compared at the parity suite's tolerances
(verify/parity/cases/*.toml, whose reasons are quoted by case name below).

Skipped, saying why, when the Newton venv is absent (before ./run parity has made it, or offline).
IMPULSE_NEWTON_PYTHON names another Python with newton 1.6.1 installed.
"""
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

HERE = pathlib.Path(__file__).resolve().parent
SCRIPTS = HERE / "newton_scripts"
ROOT = HERE.parent.parent
IMPULSE_PATH = pathlib.Path(__import__("impulse").__file__).resolve().parent.parent

# The only lines that differ between the two runs: Newton's imports and impulse's.
IMPORTS = {"import warp as wp": "from impulse import wp", "import newton": "import impulse as newton"}


def newton_python():
    env = os.environ.get("IMPULSE_NEWTON_PYTHON")
    py = pathlib.Path(env) if env else ROOT / "build" / "parity" / "venv-newton-1.6.1" / "bin" / "python"
    if not py.exists():
        pytest.skip(f"Newton 1.6.1 is not installed at {py} (./run parity makes that venv from PyPI; "
                    "IMPULSE_NEWTON_PYTHON names another)")
    return str(py)


def for_impulse(text):
    lines = text.splitlines()
    for newton_line in IMPORTS:
        assert lines.count(newton_line) == 1, f"the script must have the line '{newton_line}' once"
    return "\n".join(IMPORTS.get(line, line) for line in lines) + "\n"


def result(python, text, env=None):
    p = subprocess.run([python, "-c", text], capture_output=True, text=True, timeout=600, env=env, cwd=SCRIPTS)
    assert p.returncode == 0, p.stderr[-3000:]
    lines = [line for line in p.stdout.splitlines() if line.startswith("RESULT ")]
    assert len(lines) == 1, p.stdout[-2000:]
    return json.loads(lines[0][len("RESULT "):])


def both(name):
    text = (SCRIPTS / f"{name}.py").read_text()
    newton_py = newton_python()
    env = dict(os.environ, PYTHONPATH=str(IMPULSE_PATH), OMP_WAIT_POLICY="passive")
    mine = result(sys.executable, for_impulse(text), env)
    theirs = result(newton_py, text)
    return mine, theirs


def close(mine, theirs, key, atol, rtol=0.0):
    a, b = np.asarray(mine[key], dtype=float), np.asarray(theirs[key], dtype=float)
    assert a.shape == b.shape, f"{key}: impulse has {a.shape}, Newton {b.shape}"
    err = np.abs(a - b) - rtol * np.abs(b)
    worst = int(np.argmax(err))
    assert err.max() <= atol, (f"{key}[{worst}]: impulse {a.ravel()[worst]!r}, Newton {b.ravel()[worst]!r}, "
                               f"|diff| {abs(a.ravel()[worst] - b.ravel()[worst]):.3g} > {atol:g} + {rtol:g} |Newton|")


def test_import_lines_are_the_only_difference():
    for f in sorted(SCRIPTS.glob("*.py")):
        text = f.read_text()
        changed = [(a, b) for a, b in zip(text.splitlines(), for_impulse(text).splitlines()) if a != b]
        assert sorted(changed) == sorted(IMPORTS.items()), f.name


def test_E1_8_minimal_example_same_script_two_engines():
    mine, theirs = both("e1_minimal")
    # mass and inertia of the section 3 box: float32 storage, 1e-7 relative ("mass-box" cases)
    for key in ("body_mass", "body_com", "body_inertia"):
        close(mine, theirs, key, 1e-9, 1e-6)
    assert mine["coord_dof"] == theirs["coord_dof"] == [7, 6]
    # heights: the xpbd-box-drop case's 2e-5 m ("float32 heights over 120 steps of free fall and
    # four-row contact"); this box lands tilted on an edge, where rows switch as in that case
    close(mine, theirs, "z", 2e-5)
    close(mine, theirs, "first_frame_again", 1e-6)
    close(mine, theirs, "snapshot_unchanged", 1e-7)
    assert mine["clock"] == pytest.approx(0.5) and theirs["clock"] == pytest.approx(0.5)
    # the cold restart reproduces the first frame (E1.8-minimal-example)
    assert mine["first_frame_again"][0] == pytest.approx(mine["z"][0], abs=1e-12)


def test_double_pendulum_same_script_two_engines():
    mine, theirs = both("double_pendulum")
    close(mine, theirs, "body_mass", 1e-9, 1e-6)
    # eval_fk: float32 poses of numbers near 1, a few ulp ("fk-*" cases, 1e-6)
    close(mine, theirs, "fk_body_q", 1e-6)
    # featherstone-pendulum / featherstone-chain: 1e-4 m ("float32 over 1000 steps: the
    # articulated-body algebra rounds at 1e-7 per step"); the angles the same in rad over 0.3 m links
    close(mine, theirs, "link_z", 1e-4)
    close(mine, theirs, "joint_q", 1e-4 / 0.3)
    close(mine, theirs, "ik_joint_q", 1e-4 / 0.3)
    close(mine, theirs, "ik_joint_qd", 1e-3)


def test_E3_8_box_drop_readback_same_script_two_engines():
    mine, theirs = both("e3_box_drop")
    close(mine, theirs, "body_mass", 1e-9, 1e-6)
    # xpbd-box-drop's tolerances, with their reasons in verify/parity/cases/e3_solvers.toml
    close(mine, theirs, "z", 2e-5)
    close(mine, theirs, "fz", 0.05)
    close(mine, theirs, "sensor_fz", 0.05)
    assert mine["contact_count"] == theirs["contact_count"]
    # the readback carries the box's weight once it rests: m g = 9.81 N
    assert np.mean(mine["fz"][-20:]) == pytest.approx(9.81, rel=0.02)
