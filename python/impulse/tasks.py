"""Exercises that make students work, graded by the engine through this module.

Three kinds, at least three of each chapter:
  code        write a Python function; it is compared with the course calculator (impulse.calc,
              the same lib/ function the engine calls) on seeded random cases from the item's
              physical domain;
  derive      give a closed-form result as a Python function of the named symbols; it is checked
              at random inputs against what the engine computes (a calculator or a simulation);
  experiment  run a scene with a parameter of your choice and read a number off its data; the
              checker reruns the scene with that parameter and compares.

    import impulse.tasks as tasks
    tasks.show("E3.4-code-pn")
    tasks.check("E3.4-code-pn", lambda d, h, w, relaxation: relaxation * max(-d, 0) / (h * w))

check() returns a Grade that is truthy when correct and names the first failing case otherwise.
"""
import inspect
import math
import random

import numpy as np

from .course import calc
from .scenes import run


class Task:
    def __init__(self, id, chapter, kind, title, statement, grade):
        self.id, self.chapter, self.kind, self.title, self.statement = id, chapter, kind, title, statement
        self._grade = grade

    def __repr__(self):
        return f"{self.id} ({self.chapter}, {self.kind}): {self.title}\n{self.statement}"


class Grade:
    def __init__(self, task_id, correct, cases, message):
        self.id, self.correct, self.cases, self.message = task_id, correct, cases, message

    def __bool__(self):
        return self.correct

    def __repr__(self):
        return f"{self.id}: {'correct' if self.correct else 'not correct'} ({self.cases} cases) {self.message}".rstrip()


def _close(got, want, rel=1e-6, abs_=1e-9):
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    return got.shape == want.shape and bool(np.all(np.abs(got - want) <= abs_ + rel * np.abs(want)))


def _call(fn, kwargs):
    try:
        return np.asarray(fn(**kwargs), dtype=float), None
    except Exception as e:  # a student's function may raise anything; report it as a wrong case
        return None, f"your function raised {type(e).__name__}: {e}"


def _against(fn, cases, reference, rel=1e-6, abs_=1e-9):
    """Compares fn(**case) with reference(case) for every case; returns a Grade's fields."""
    for case in cases:
        got, err = _call(fn, case)
        want = np.asarray(reference(case), dtype=float)
        if err or not _close(got, want, rel, abs_):
            shown = ", ".join(f"{k}={np.round(v, 6).tolist() if isinstance(v, (list, np.ndarray)) else round(v, 6)}"
                              for k, v in case.items())
            return False, err or f"at {shown}: got {None if got is None else got.tolist()}, expected {want.tolist()}"
    return True, ""


def _rng(task_id):
    return random.Random(task_id)  # seeded by the task: the same cases every time


def _unit_quat(r):
    q = np.array([r.gauss(0, 1) for _ in range(4)])
    return (q / np.linalg.norm(q)).tolist()


def _vec(r, lo, hi):
    return [r.uniform(lo, hi) for _ in range(3)]


# --- E1 -----------------------------------------------------------------------------------------

def _e1_box(fn, task_id):
    r = _rng(task_id)
    cases = [dict(hx=r.uniform(0.01, 1), hy=r.uniform(0.01, 1), hz=r.uniform(0.01, 1), density=r.uniform(100, 8000))
             for _ in range(20)]
    def ref(c):
        out = calc("E1.3-box-mass-inertia", **c)
        return [out.mass, *out.I_diag]
    return cases, ref


def _e1_origin(fn, task_id):
    r = _rng(task_id)
    cases = [dict(v_C=_vec(r, -2, 2), omega=_vec(r, -5, 5), q=_unit_quat(r), c_B=_vec(r, -0.5, 0.5)) for _ in range(20)]
    return cases, lambda c: calc("E1.6-origin-velocity", **c).v_B


def _free_fall_z(z0, h, k):
    """The engine's answer: a free body stepped k times by SolverXPBD (no contacts)."""
    from . import ModelBuilder, SolverXPBD
    b = ModelBuilder()
    body = b.add_body(xform=(0, 0, z0, 0, 0, 0, 1))
    b.add_shape_sphere(body, radius=0.1)
    model = b.finalize()
    s0, s1, c = model.state(), model.state(), model.control()
    solver = SolverXPBD(model)
    for _ in range(k):
        solver.step(s0, s1, c, None, h)
        s0, s1 = s1, s0
    return s0.body_q[0, 2]


def _e1_free_fall(fn, task_id):
    r = _rng(task_id)
    cases = [dict(z0=r.uniform(0, 10), h=r.choice([1 / 60, 1 / 240, 0.01, 0.05]), k=r.randint(1, 40), g=9.81)
             for _ in range(8)]
    return cases, lambda c: _free_fall_z(c["z0"], c["h"], c["k"])


def _e1_frames_zero(answer, px):
    if not (isinstance(px, (int, float)) and math.isfinite(px) and -0.2 <= px <= 0.4):
        raise ValueError(f"E1.6-exp-frames: px must be a number in [-0.2, 0.4] m (the scene's line), got {px!r}")
    t = run("e1-frames", px=px).table()
    x, tau = t["x_m"], t["tau_z_Nm"]
    i = int(np.argmin(np.abs(tau)))
    return _close(answer, x[i], rel=0, abs_=0.011), f"the data's zero is at x = {x[i]:.3f} m"


# --- E3 -----------------------------------------------------------------------------------------

def _e3_pn(fn, task_id):
    r = _rng(task_id)
    cases = [dict(d=r.uniform(-0.01, 0.005), h=r.choice([1 / 60, 1 / 240, 1e-3]), w=r.uniform(0.1, 10),
                  relaxation=r.uniform(0.1, 1)) for _ in range(30)]
    return cases, lambda c: calc("E3.4-xpbd-pn", **c).p_n


def _e3_reaction(fn, task_id):
    r = _rng(task_id)
    cases = [dict(tau_C0=_vec(r, -2, 2), C0=_vec(r, -1, 1), C1=_vec(r, -1, 1), f0=_vec(r, -5, 5)) for _ in range(20)]
    return cases, lambda c: calc("E3.8-wrench-reaction", **c).tau_C1


def _one_step_readback(k):
    """The engine's answer: the §9 readback example, one step with k iterations, in units of m g."""
    from . import CollisionPipeline, ModelBuilder, SolverXPBD
    b = ModelBuilder()
    b.add_ground_plane()
    ball = b.add_body(xform=(0, 0, 0.1, 0, 0, 0, 1))
    b.add_shape_sphere(ball, radius=0.1)
    model = b.finalize()
    model.request_contact_attributes("force")
    pipe = CollisionPipeline(model, rigid_contact_max=8)
    contacts = pipe.contacts()
    solver = SolverXPBD(model, iterations=k)
    s0, s1, c = model.state(), model.state(), model.control()
    pipe.collide(s0, contacts)
    solver.step(s0, s1, c, contacts, 1 / 600)
    solver.update_contacts(contacts)
    n = contacts.rigid_contact_count
    sign = np.where(model.shape_body[contacts.rigid_contact_shape0[:n]] >= 0, 1.0, -1.0)
    return float(np.sum(sign * contacts.force[:n, 2])) / (model.body_mass[0] * 9.81)


def _e3_readback(fn, task_id):
    cases = [dict(k=k, relaxation=0.8) for k in (1, 2, 3, 5)]
    return cases, lambda c: _one_step_readback(c["k"])


def _e3_bounce_apex(answer, e):
    if not (isinstance(e, (int, float)) and 0.2 <= e <= 0.9):
        raise ValueError(f"E3.5-exp-bounce: e must be a number in [0.2, 0.9], got {e!r}")
    t = run("e3-bounce", e=e).table()
    on = t["restitution"] == 1
    z, v, tt = t["z_m"][on], t["vz_mps"][on], t["t_s"][on]
    first_up = int(np.argmax(v > 0))              # the first rebound starts here
    down_again = first_up + int(np.argmax(v[first_up:] <= 0))
    apex = z[first_up:down_again + 1].max()
    return _close(answer, apex, rel=0.02, abs_=1e-3), f"the data's first apex is {apex:.4f} m (e^2 h0 = {e * e * 0.5:.4f} m)"


# --- ST -----------------------------------------------------------------------------------------

def _st_point_step(fn, task_id):
    r = _rng(task_id)
    cases = [dict(m=r.uniform(0.1, 10), q=r.uniform(0, 0.05), v=r.uniform(-3, 1), h=r.choice([0.01, 0.02, 0.005]),
                  g=r.choice([9.81, 10.0])) for _ in range(30)]
    def ref(c):
        out = calc("ST.2-bounce-example", **c)
        return [out.v_plus, out.p]
    return cases, ref


def _st_block(fn, task_id):
    r = _rng(task_id)
    cases = [dict(m=r.uniform(0.1, 10), v=r.uniform(0.1, 5), h=r.choice([0.1, 0.01, 0.001])) for _ in range(20)]
    return cases, lambda c: calc("ST.3-block-impulse-example", **c).F_avg


def _st_rod_impact(answer, h):
    if not (isinstance(h, (int, float)) and 0.001 <= h <= 0.02):
        raise ValueError(f"ST.4-exp-rod-impact: h must be a number in [0.001, 0.02] s, got {h!r}")
    t = run("st-rod", h=h)["st-rod"]
    hit = np.flatnonzero(t["impulse_Ns"] > 0)
    first = t["t_s"][hit[0]]
    return _close(answer, first, rel=0, abs_=h / 2 + 1e-12), f"the data's first impact is at t = {first:.4f} s"


TASKS = {t.id: t for t in [
    Task("E1.3-code-box-inertia", "E1", "code", "mass and principal inertia of a solid box",
         "Write box(hx, hy, hz, density) returning [m, I_xx, I_yy, I_zz] [kg, kg m^2] of a solid box of half\n"
         "extents hx, hy, hz [m] about its centre (E1 §3).", _e1_box),
    Task("E1.6-code-origin-velocity", "E1", "code", "velocity of the body origin from the COM velocity",
         "Write v_B(v_C, omega, q, c_B) returning the world velocity [m/s] of the body origin, given the COM\n"
         "velocity v_C [m/s], omega [rad/s], the orientation q = (x, y, z, w) and the COM c_B in body\n"
         "coordinates [m] (E1 §6). Rotate c_B yourself.", _e1_origin),
    Task("E1.10-derive-free-fall", "E1", "derive", "where the integrator puts a falling body after k steps",
         "Derive z after k steps of the E1 §10 predictor (velocity first, then position) from rest at z0 with\n"
         "step h and gravity g. Give it as z(z0, h, k, g). It is checked against SolverXPBD runs.", _e1_free_fall),
    Task("E1.6-exp-frames", "E1", "experiment", "where the torque of a force vanishes",
         "Run impulse.run('e1-frames', px=...) with a point of application px of your choice in [-0.2, 0.4] m,\n"
         "and read off the x [m] of the reference point where tau_z is zero. Check with check(id, x, px=...).",
         _e1_frames_zero),
    Task("E3.4-code-pn", "E3", "code", "the XPBD normal correction",
         "Write p_n(d, h, w, relaxation) returning the normal impulse [N s] of E3 §4 for a gap d [m], step\n"
         "h [s], inverse effective mass w [1/kg] and relaxation [-]; mind the branch d >= 0.", _e3_pn),
    Task("E3.8-code-wrench-reaction", "E3", "code", "the reaction torque at the other COM",
         "Write tau_C1(tau_C0, C0, C1, f0) returning the torque [N m] on body 1 about its COM C1, given the\n"
         "wrench (f0, tau_C0) on body 0 about C0 (E3 §8). Negating is not enough.", _e3_reaction),
    Task("E3.9-derive-one-step-readback", "E3", "derive", "what one step reads back from a touching sphere",
         "A sphere rests touching the ground (d = 0). Derive the readback of one XPBD step with k iterations\n"
         "and the given relaxation, in units of m g, as F(k, relaxation). It is checked against the §9\n"
         "example run through CollisionPipeline, SolverXPBD.step and update_contacts.", _e3_readback),
    Task("E3.5-exp-bounce", "E3", "experiment", "how high a sphere rebounds with restitution",
         "Run impulse.run('e3-bounce', e=...) with a restitution e of your choice in [0.2, 0.9] and read off\n"
         "the apex height [m] of the first rebound with the restitution pass on. Compare it with e^2 h0.\n"
         "Check with check(id, apex, e=...).", _e3_bounce_apex),
    Task("ST.2-code-point-step", "ST", "code", "one Stewart-Trinkle step of the vertical point",
         "Write step(m, q, v, h, g) returning [v_plus, p] [m/s, N s] of one step of ST §2:\n"
         "v+ = v - h g + p/m, q+ = q + h v+, 0 <= q+ perp p >= 0.", _st_point_step),
    Task("ST.3-derive-average-force", "ST", "derive", "the average force that stops a block in one step",
         "A block of mass m moving down at speed v onto a table is stopped within one step h. Derive the\n"
         "average contact force [N] as F(m, v, h); it is checked against the ST time stepping.", _st_block),
    Task("ST.4-exp-rod-impact", "ST", "experiment", "when the paper's rod first strikes the table",
         "Run impulse.run('st-rod', h=...) with a step h of your choice in [0.001, 0.02] s and read off the\n"
         "time [s] of the first step with a contact impulse. Check with check(id, t, h=...).", _st_rod_impact),
]}


def tasks(chapter=None, kind=None):
    """The tasks, optionally of one chapter and one kind."""
    if chapter not in (None, "E1", "E3", "ST"):
        raise ValueError(f"chapter must be 'E1', 'E3' or 'ST', got {chapter!r}")
    if kind not in (None, "code", "derive", "experiment"):
        raise ValueError(f"kind must be 'code', 'derive' or 'experiment', got {kind!r}")
    return [t for t in TASKS.values() if chapter in (None, t.chapter) and kind in (None, t.kind)]


def show(task_id):
    if task_id not in TASKS:
        raise ValueError(f"unknown task {task_id!r}; tasks: {', '.join(TASKS)}")
    return TASKS[task_id]


def check(task_id, answer, **parameters):
    """Grades a task: a function for code and derive tasks, a number (and the parameter you chose)
    for experiments."""
    t = show(task_id)
    if t.kind in ("code", "derive"):
        if not callable(answer):
            raise ValueError(f"{task_id}: answer must be a Python function, got {type(answer).__name__}")
        if parameters:
            raise ValueError(f"{task_id}: a {t.kind} task takes no parameters, got {', '.join(parameters)}")
        cases, reference = t._grade(answer, task_id)
        ok, message = _against(answer, cases, reference)
        return Grade(task_id, ok, len(cases), message)
    if isinstance(answer, bool) or not isinstance(answer, (int, float)) or not math.isfinite(answer):
        raise ValueError(f"{task_id}: answer must be a finite number, got {answer!r}")
    wanted = [p for p in inspect.signature(t._grade).parameters if p != "answer"]
    if sorted(parameters) != sorted(wanted):
        raise ValueError(f"{task_id}: give the parameter you chose as {', '.join(w + '=...' for w in wanted)}, "
                         f"got {', '.join(parameters) or 'none'}")
    ok, message = t._grade(answer, **parameters)
    return Grade(task_id, ok, 1, message)
