"""The course's statements about Newton's MuJoCo adapter, run in one Newton release.

impulse has no MuJoCo backend, so these are claims about Newton itself (E3 §6, §8), checked where
they live: in the venv of each Newton version of the parity suite, with the `mujoco` package that
version pins, on the CPU. Each claim gives what was observed and whether the course's sentence
holds on that version:

  E3.6-mujoco-branches     SolverMuJoCo.step has a CPU branch (MuJoCo C's mj_step) and a
                           MuJoCo-Warp branch; the five settings the course says to report
                           (use_mujoco_cpu, use_mujoco_contacts, solver, integrator, cone) as the
                           built MuJoCo model holds them, with the default integrator implicitfast
                           (E3.6-mujoco-integrator-default)
  E3.6-mujoco-ke-mapping   shape ke/kd become the built model's geom_solref, and that is not the
                           spring f = ke d + kd v: a box resting on the ground sinks by a depth that
                           does not follow m g / ke; kf reaches nothing in the CPU model
  E3.8-mujoco-cpu-update   on the CPU branch update_contacts raises NotImplementedError

Usage: python newton_claims.py OUT.json   (run in a venv that has newton, warp-lang and mujoco)
"""

import json
import math
import sys
import time
import traceback
import warnings

import numpy as np
import warp as wp

wp.config.quiet = True
import newton  # noqa: E402

G = 9.81   # [m/s^2]
H = 0.002  # [s] the step of every run here


def box_on_ground(mass, ke, kd, kf=0.0):
    """A 0.1 m cube of the given mass [kg] resting on the ground plane; both shapes carry ke [N/m],
    kd [N s/m] and kf, so MuJoCo's solref mixing has one value to mix."""
    b = newton.ModelBuilder(gravity=(0.0, 0.0, -G))
    cfg = newton.ModelBuilder.ShapeConfig(ke=ke, kd=kd, kf=kf, mu=0.5)
    cfg.density = mass / 0.1**3
    b.add_ground_plane(cfg=cfg)
    body = b.add_body(xform=wp.transform((0.0, 0.0, 0.05), wp.quat_identity()))
    b.add_shape_box(body, hx=0.05, hy=0.05, hz=0.05, cfg=cfg)
    return b.finalize(device="cpu")


def settings(solver):
    """The five settings the course says to report, as the built MuJoCo model holds them."""
    import mujoco

    opt = solver.mj_model.opt
    return {
        "use_mujoco_cpu": bool(solver.use_mujoco_cpu),
        "use_mujoco_contacts": bool(getattr(solver, "_use_mujoco_contacts", True)),
        "solver": mujoco.mjtSolver(int(opt.solver)).name.removeprefix("mjSOL_").lower(),
        "integrator": mujoco.mjtIntegrator(int(opt.integrator)).name.removeprefix("mjINT_").lower(),
        "cone": mujoco.mjtCone(int(opt.cone)).name.removeprefix("mjCONE_").lower(),
    }


def run_cpu(model, steps):
    """Steps SolverMuJoCo's CPU branch, counting MuJoCo C's mj_step calls; returns the solver,
    the count and the box's final height [m]."""
    solver = newton.solvers.SolverMuJoCo(model, use_mujoco_cpu=True)
    mj = solver._mujoco
    calls = [0]
    real_step = mj.mj_step

    def counted(*a):
        calls[0] += 1
        return real_step(*a)

    s0, s1, ctl = model.state(), model.state(), model.control()
    mj.mj_step = counted
    try:
        for _ in range(steps):
            solver.step(s0, s1, ctl, None, H)
            s0, s1 = s1, s0
    finally:
        mj.mj_step = real_step
    return solver, calls[0], float(s0.body_q.numpy()[0][2]), s0


def claim_branches():
    model = box_on_ground(1.0, 1e4, 100.0)
    solver, calls, _, _ = run_cpu(model, 10)
    cpu = settings(solver)
    obs = {"cpu_branch": cpu, "cpu_mj_step_calls_per_10_steps": calls}
    # The Warp branch, built on the CPU device. Its MuJoCo-Warp step is replaced by a counter (run
    # for real it would compile MuJoCo-Warp's kernels for the CPU, minutes per release): what is
    # observed is the branch step() takes, not MuJoCo-Warp's physics.
    try:
        warp_solver = newton.solvers.SolverMuJoCo(model, use_mujoco_cpu=False)
        mj = warp_solver._mujoco
        warp_calls, cpu_calls, real_step = [0], [0], mj.mj_step
        warp_solver._mujoco_warp_step = lambda: warp_calls.__setitem__(0, warp_calls[0] + 1)
        mj.mj_step = lambda *a: cpu_calls.__setitem__(0, cpu_calls[0] + 1)
        try:
            s0, s1 = model.state(), model.state()
            warp_solver.step(s0, s1, model.control(), None, H)
        finally:
            mj.mj_step = real_step
        obs["warp_branch"] = {"use_mujoco_cpu": bool(warp_solver.use_mujoco_cpu), "mujoco_warp_step_calls": warp_calls[0],
                              "mj_step_calls": cpu_calls[0]}
    except Exception as e:  # a version that cannot build it on the CPU says so
        obs["warp_branch"] = {"error": f"{type(e).__name__}: {e}"}
    wb = obs["warp_branch"]
    holds = calls == 10 and cpu["use_mujoco_cpu"] and wb.get("mujoco_warp_step_calls") == 1 and wb.get("mj_step_calls") == 0
    warp_text = (f"{wb['mujoco_warp_step_calls']} MuJoCo-Warp step and {wb['mj_step_calls']} mj_step per step"
                 if "error" not in wb else "cannot be built here: " + wb["error"])
    text = (f"use_mujoco_cpu=True steps through MuJoCo C's mj_step ({calls} calls in 10 steps); use_mujoco_cpu=False "
            f"takes the MuJoCo-Warp branch ({warp_text}). The CPU branch's settings: solver {cpu['solver']}, "
            f"integrator {cpu['integrator']}, cone {cpu['cone']}, use_mujoco_contacts {cpu['use_mujoco_contacts']}")
    return {"holds": bool(holds), "observed": obs, "text": text,
            "also": {"E3.6-mujoco-integrator-default": cpu["integrator"] == "implicitfast"}}


def claim_ke_mapping():
    rows = []
    for mass, ke, kd in ((1.0, 1e4, 100.0), (4.0, 1e4, 100.0), (1.0, 4e4, 100.0)):
        model = box_on_ground(mass, ke, kd)
        solver, _, z, state = run_cpu(model, 1000)  # 2 s: settled
        solref = np.asarray(solver.mj_model.geom_solref, dtype=float)
        depth = 0.05 - z  # [m] the cube's bottom below the ground
        rows.append({"mass_kg": mass, "ke": ke, "kd": kd, "geom_solref": solref[-1].tolist(),
                     "convert_solref": [2.0 / kd, kd / 2.0 / math.sqrt(ke)],
                     "resting_depth_m": depth, "spring_depth_m": mass * G / ke})
    kf = []
    for value in (0.0, 1e3):
        s = newton.solvers.SolverMuJoCo(box_on_ground(1.0, 1e4, 100.0, kf=value), use_mujoco_cpu=True).mj_model
        kf.append(np.concatenate([np.ravel(s.geom_solref), np.ravel(s.geom_solimp), np.ravel(s.geom_friction),
                                  np.ravel(s.geom_condim).astype(float)]))
    kf_reaches = bool(np.any(kf[0] != kf[1]))
    solref_is_formula = all(np.allclose(r["geom_solref"], r["convert_solref"], rtol=1e-6) for r in rows)
    solref_mass_free = np.allclose(rows[0]["geom_solref"], rows[1]["geom_solref"])
    ratio_mass = rows[1]["resting_depth_m"] / rows[0]["resting_depth_m"]
    ratio_ke = rows[2]["resting_depth_m"] / rows[0]["resting_depth_m"]
    # f = ke d would make the depth 4x for 4x the mass and 1/4 for 4x the stiffness
    not_a_spring = abs(ratio_mass - 4.0) > 0.4 or abs(ratio_ke - 0.25) > 0.025 or \
        abs(rows[0]["resting_depth_m"] / rows[0]["spring_depth_m"] - 1) > 0.1
    text = (f"geom_solref = (2/kd, kd/(2 sqrt(ke))) = ({rows[0]['geom_solref'][0]:.4g} s, {rows[0]['geom_solref'][1]:.4g}) "
            f"for ke = 1e4 N/m, kd = 100 N s/m, the same for 1 kg and 4 kg; a resting cube sinks "
            f"{rows[0]['resting_depth_m'] * 1e3:.3g} mm at 1 kg (m g/ke = {rows[0]['spring_depth_m'] * 1e3:.3g} mm), "
            f"x{ratio_mass:.3g} at 4 kg, x{ratio_ke:.3g} at 4 ke; kf changes {'something' if kf_reaches else 'nothing'} in the CPU model")
    return {"holds": bool(not_a_spring and solref_mass_free and not kf_reaches), "text": text,
            "observed": {"rows": rows, "solref_is_convert_solref": bool(solref_is_formula),
                         "solref_independent_of_mass": bool(solref_mass_free), "depth_ratio_4x_mass": ratio_mass,
                         "depth_ratio_4x_ke": ratio_ke, "kf_changes_cpu_model": kf_reaches}}


def claim_cpu_update():
    model = box_on_ground(1.0, 1e4, 100.0)
    model.request_contact_attributes("force")
    solver = newton.solvers.SolverMuJoCo(model, use_mujoco_cpu=True)
    s0, s1, ctl = model.state(), model.state(), model.control()
    contacts = newton.CollisionPipeline(model).contacts()
    solver.step(s0, s1, ctl, None, H)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            solver.update_contacts(contacts)
            raised = None
        except Exception as e:
            raised = type(e).__name__
    warned = [str(w.message) for w in caught if issubclass(w.category, (DeprecationWarning, FutureWarning))]
    text = f"update_contacts on the CPU branch {'raises ' + raised if raised else 'returns without raising'}"
    if not raised and hasattr(solver, "_populate_mjc_contact_observables"):
        text += " (this release exports MuJoCo C's contacts there: SolverMuJoCo._populate_mjc_contact_observables)"
    if warned:
        text += f"; it also warns: {warned[0]}"
    return {"holds": raised == "NotImplementedError", "text": text, "observed": {"raised": raised, "warnings": warned}}


CLAIMS = {
    "E3.6-mujoco-branches": ("SolverMuJoCo.step has two branches, CPU mj_step and MuJoCo-Warp; report use_mujoco_cpu, "
                             "use_mujoco_contacts, solver, integrator and cone", claim_branches),
    "E3.6-mujoco-ke-mapping": ("mapping ke/kd into MuJoCo is not a drop-in f = ke d + kd v; the CPU path behaves "
                               "differently from the force-space path", claim_ke_mapping),
    "E3.8-mujoco-cpu-update": ("in the CPU branch, update_contacts raises NotImplementedError", claim_cpu_update),
}


def main():
    if len(sys.argv) != 2:
        print("usage: newton_claims.py OUT.json", file=sys.stderr)
        return 2
    wp.init()
    out = {"_newton_version": newton.__version__, "claims": {}}
    import mujoco

    out["_mujoco_version"] = mujoco.__version__
    for ident, (claim, fn) in CLAIMS.items():
        try:
            r = fn()
        except Exception as e:  # a claim that cannot run is reported, with Newton's error
            r = {"holds": None, "text": f"could not run: {type(e).__name__}: {e}", "trace": traceback.format_exc(limit=4)}
        r["claim"] = claim
        out["claims"][ident] = r
    with open(sys.argv[1], "w") as f:
        json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
