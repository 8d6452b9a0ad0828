#!/usr/bin/env python3
"""The pile of bench/peers/scenes/pile.toml in Newton (PyPI `newton`, Warp's CPU device, float32).

The same scene, algorithm and settings as `impulse bench e3-pile-*`: a ground plane and one free
body per sphere or cube (ModelBuilder.add_body + add_shape_*, the file's density, mu and rolling
friction, torsional friction 0), the builder's rigid_gap from the file's gap, CollisionPipeline
with the sweep-and-prune broad phase, SolverXPBD at the file's impulse_iterations (Newton's
defaults otherwise, as impulse's SolverXPBD), contact forces requested and read back by
update_contacts each step, as impulse's bench does. Per step: collide, then clear_forces + step,
then update_contacts, each timed (Warp's CPU launches return when the kernel is done). Layout,
quality and the timed loop: pile_measure.py.

    newton_pile.py --scene pile.toml --kind spheres|boxes|stack|heavy --n N [--steps S] [--iterations I]
"""
import contextlib
import json
import sys
import time

import numpy as np
import warp as wp
import newton  # noqa: E402

from pile_measure import density, pile_arguments, positions, run  # noqa: E402


def build(c, s, kind, n):
    b = newton.ModelBuilder(up_axis=newton.Axis.Z, gravity=(0.0, 0.0, -c["gravity"]))
    b.rigid_gap = s["gap"]
    cfg = newton.ModelBuilder.ShapeConfig(density=c["density"], mu=c["mu"], mu_torsional=0.0,
                                          mu_rolling=s.get("mu_rolling", 0.0))
    b.add_ground_plane(cfg=cfg)
    for i, (x, y, z) in enumerate(positions(s, n)):
        cfg.density = density(c, s, i, n)
        body = b.add_body(xform=wp.transform(wp.vec3(x, y, z), wp.quat_identity()))
        if kind == "spheres":
            b.add_shape_sphere(body, radius=s["radius"], cfg=cfg)
        else:
            b.add_shape_box(body, hx=s["half"], hy=s["half"], hz=s["half"], cfg=cfg)
    return b.finalize(device="cpu")


def main():
    """Prints one JSON object on stdout; Warp's own messages go to stderr."""
    with contextlib.redirect_stdout(sys.stderr):
        out = measure()
    print(json.dumps(out))


def measure():
    a, c, s, steps, iterations = pile_arguments("newton_pile", "impulse_iterations")
    h = c["h"]
    model = build(c, s, a.kind, a.n)
    model.request_contact_attributes("force")
    pipe = newton.CollisionPipeline(model, broad_phase="sap")
    contacts = pipe.contacts()
    solver = newton.solvers.SolverXPBD(model, iterations=iterations)
    control = model.control()
    states = [model.state(), model.state()]
    mass = model.body_mass.numpy().astype(float)

    def step():
        s0, s1 = states
        t0 = time.perf_counter()
        pipe.collide(s0, contacts)
        t1 = time.perf_counter()
        s0.clear_forces()
        solver.step(s0, s1, control, contacts, h)
        t2 = time.perf_counter()
        solver.update_contacts(contacts)
        t3 = time.perf_counter()
        states.reverse()
        return {"collide": t1 - t0, "solve": t2 - t1, "readback": t3 - t2}

    def state():
        q = states[0].body_q.numpy().astype(float)  # position, then quaternion (x, y, z, w)
        return np.concatenate([q[:, 0:3], q[:, 6:7], q[:, 3:6]], axis=1), states[0].body_qd.numpy().astype(float)

    out = run(c, s, a.kind, a.n, steps, step, state, mass, lambda: int(contacts.rigid_contact_count.numpy()[0]))
    return {"engine": "newton", "iterations": iterations, **out, "precision": "float32",
            "newton_version": newton.__version__, "warp_version": wp.config.version}


if __name__ == "__main__":
    main()
