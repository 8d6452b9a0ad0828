"""The new exercise kinds: every code and derive task accepts a correct student function and
rejects a wrong one; every experiment accepts the reading of its data and rejects another.

The correct functions here are written from the course's formulas independently of lib/ (NumPy,
by hand); the wrong ones are the mistakes the course warns about."""
import math

import numpy as np
import pytest

import impulse
import impulse.tasks as tasks


def _rotate(q, v):
    x, y, z, w = q
    u = np.array([x, y, z])
    v = np.asarray(v, dtype=float)
    return v + 2 * np.cross(u, np.cross(u, v) + w * v)


def test_E1_3_code_box_inertia_right_and_wrong():
    def box(hx, hy, hz, density):
        m = 8 * density * hx * hy * hz
        return [m, m * (hy**2 + hz**2) / 3, m * (hx**2 + hz**2) / 3, m * (hx**2 + hy**2) / 3]
    assert tasks.check("E1.3-code-box-inertia", box)
    def full_extents(hx, hy, hz, density):  # the mistake: treats half extents as full sides
        m = density * hx * hy * hz
        return [m, m * (hy**2 + hz**2) / 12, m * (hx**2 + hz**2) / 12, m * (hx**2 + hy**2) / 12]
    g = tasks.check("E1.3-code-box-inertia", full_extents)
    assert not g and "expected" in g.message


def test_E1_6_code_origin_velocity_right_and_wrong():
    right = lambda v_C, omega, q, c_B: np.asarray(v_C) - np.cross(omega, _rotate(q, c_B))
    assert tasks.check("E1.6-code-origin-velocity", right)
    sign = lambda v_C, omega, q, c_B: np.asarray(v_C) + np.cross(omega, _rotate(q, c_B))
    assert not tasks.check("E1.6-code-origin-velocity", sign)
    unrotated = lambda v_C, omega, q, c_B: np.asarray(v_C) - np.cross(omega, c_B)
    assert not tasks.check("E1.6-code-origin-velocity", unrotated)


def test_E1_10_derive_free_fall_right_and_wrong():
    assert tasks.check("E1.10-derive-free-fall", lambda z0, h, k, g: z0 - g * h * h * k * (k + 1) / 2)
    assert not tasks.check("E1.10-derive-free-fall", lambda z0, h, k, g: z0 - g * (k * h) ** 2 / 2)  # continuous


def test_E1_6_exp_frames_right_and_wrong():
    assert tasks.check("E1.6-exp-frames", 0.1, px=0.1)     # tau_O = (P - O) x f vanishes at O = P
    assert not tasks.check("E1.6-exp-frames", 0.0, px=0.1)  # not at the COM
    with pytest.raises(ValueError, match=r"px must be a number in \[-0.2, 0.4\] m"):
        tasks.check("E1.6-exp-frames", 0.1, px=3.0)
    with pytest.raises(ValueError, match=r"give the parameter you chose as px="):
        tasks.check("E1.6-exp-frames", 0.1)


def test_E3_4_code_pn_right_and_wrong():
    assert tasks.check("E3.4-code-pn", lambda d, h, w, relaxation: relaxation * max(-d, 0.0) / (h * w))
    g = tasks.check("E3.4-code-pn", lambda d, h, w, relaxation: relaxation * (-d) / (h * w))  # no d >= 0 branch
    assert not g
    assert not tasks.check("E3.4-code-pn", lambda d, h, w, relaxation: relaxation * max(-d, 0.0) / (h * h * w))
    g = tasks.check("E3.4-code-pn", lambda d, h, w: 0.0)  # wrong signature: a wrong case, not a crash
    assert not g and "raised TypeError" in g.message


def test_E3_8_code_wrench_reaction_right_and_wrong():
    right = lambda tau_C0, C0, C1, f0: -np.asarray(tau_C0) - np.cross(np.subtract(C0, C1), f0)
    assert tasks.check("E3.8-code-wrench-reaction", right)
    assert not tasks.check("E3.8-code-wrench-reaction", lambda tau_C0, C0, C1, f0: -np.asarray(tau_C0))


def test_E3_9_derive_one_step_readback_right_and_wrong():
    assert tasks.check("E3.9-derive-one-step-readback", lambda k, relaxation: 1 - (1 - relaxation) ** k)
    assert not tasks.check("E3.9-derive-one-step-readback", lambda k, relaxation: 1.0)  # "it reads m g"


def test_E3_5_exp_bounce_right_and_wrong():
    # A reading of the data with the same rule the task states (first rebound's apex):
    t = impulse.run("e3-bounce", e=0.6).table()
    on = t["restitution"] == 1
    v, z = t["vz_mps"][on], t["z_m"][on]
    up = int(np.argmax(v > 0))
    down = up + int(np.argmax(v[up:] <= 0))
    apex = z[up:down + 1].max()
    assert tasks.check("E3.5-exp-bounce", apex, e=0.6)
    assert not tasks.check("E3.5-exp-bounce", 0.5, e=0.6)  # the drop height: no loss at all
    with pytest.raises(ValueError, match=r"e must be a number in \[0.2, 0.9\]"):
        tasks.check("E3.5-exp-bounce", apex, e=1.5)


def test_ST_2_code_point_step_right_and_wrong():
    def step(m, q, v, h, g):
        free = v - h * g                  # velocity without contact
        if q + h * free >= 0:
            return [free, 0.0]
        v_plus = -q / h                   # lands exactly on the ground: q+ = 0
        return [v_plus, m * (v_plus - free)]
    assert tasks.check("ST.2-code-point-step", step)
    def velocity_level(m, q, v, h, g):    # the §6 question: only n.v+ >= 0, position ignored
        free = v - h * g
        return [max(free, 0.0), m * max(-free, 0.0)]
    assert not tasks.check("ST.2-code-point-step", velocity_level)


def test_ST_3_derive_average_force_right_and_wrong():
    assert tasks.check("ST.3-derive-average-force", lambda m, v, h: m * v / h)
    assert not tasks.check("ST.3-derive-average-force", lambda m, v, h: m * v)  # an impulse, not a force


def test_ST_4_exp_rod_impact_right_and_wrong():
    t = impulse.run("st-rod", h=0.01)["st-rod"]
    first = t["t_s"][np.flatnonzero(t["impulse_Ns"] > 0)[0]]
    assert tasks.check("ST.4-exp-rod-impact", first, h=0.01)
    assert not tasks.check("ST.4-exp-rod-impact", first + 0.05, h=0.01)
    with pytest.raises(ValueError, match=r"h must be a number in \[0.001, 0.02\] s"):
        tasks.check("ST.4-exp-rod-impact", first, h=0.5)


def test_tasks_three_new_kinds_per_chapter():
    for chapter in ("E1", "E3", "ST"):
        kinds = [t.kind for t in tasks.tasks(chapter)]
        assert len(kinds) >= 3 and {"code", "derive", "experiment"} <= set(kinds), chapter
