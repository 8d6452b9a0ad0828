"""The Newton half of the parity suite (verify/parity/README.md).

Reads the same case file as parity_impulse (verify/parity/cases/*.toml), builds each case's scene
with Newton's own API (ModelBuilder.add_body / add_link / add_shape_* / add_joint_* / finalize,
CollisionPipeline.collide, the solvers' step, update_contacts, eval_fk / eval_ik) on Warp's CPU
device, and writes {case name: {quantity: [numbers...]}} as JSON, the keys parity_impulse prints.

Usage: python newton_side.py CASES.toml OUT.json [ONLY]   (in a venv that has newton and warp-lang)
ONLY, a comma-separated list of case names, runs those cases alone.
"""

import json
import sys
import tomllib
import traceback

import numpy as np
import warp as wp

wp.config.quiet = True
import newton  # noqa: E402


class CaseError(Exception):
    pass


def xform(t, pos_key="pos", rot_key="rot"):
    p = t.get(pos_key, [0.0, 0.0, 0.0])
    q = t.get(rot_key, [0.0, 0.0, 0.0, 1.0])
    q = np.asarray(q, dtype=float)
    q = q / np.linalg.norm(q)
    return wp.transform(wp.vec3(*p), wp.quat(*q))


def shape_config(s):
    cfg = newton.ModelBuilder.ShapeConfig()
    for key in ("density", "mu", "restitution", "ke", "kd", "kf", "ka", "mu_torsional", "mu_rolling", "margin"):
        if key in s:
            setattr(cfg, key, float(s[key]))
    if "gap" in s:
        cfg.gap = float(s["gap"])
    if "collision_group" in s:
        cfg.collision_group = int(s["collision_group"])
    if not s.get("collide", True):
        cfg.has_shape_collision = False
        cfg.has_particle_collision = False
    return cfg


def add_shape(b, body, s):
    kind = s["type"]
    size = s.get("size", [])
    cfg = shape_config(s)
    X = xform(s)
    if kind == "box":
        b.add_shape_box(body, xform=X, hx=size[0], hy=size[1], hz=size[2], cfg=cfg)
    elif kind == "sphere":
        b.add_shape_sphere(body, xform=X, radius=size[0], cfg=cfg)
    elif kind == "capsule":
        b.add_shape_capsule(body, xform=X, radius=size[0], half_height=size[1], cfg=cfg)
    elif kind == "cylinder":
        b.add_shape_cylinder(body, xform=X, radius=size[0], half_height=size[1], cfg=cfg)
    elif kind == "cone":
        b.add_shape_cone(body, xform=X, radius=size[0], half_height=size[1], cfg=cfg)
    elif kind == "plane":
        b.add_shape_plane(body=body, xform=X, width=0.0, length=0.0, cfg=cfg)
    elif kind == "mesh":
        mesh = newton.Mesh(np.asarray(s["vertices"], dtype=np.float32), np.asarray(s["indices"], dtype=np.int32))
        b.add_shape_mesh(body, xform=X, mesh=mesh, cfg=cfg)
    else:
        raise CaseError(f"unknown shape type '{kind}'")


def build(c):
    kwargs = {}
    if "gravity" in c:
        kwargs["gravity"] = wp.vec3(*c["gravity"])
    b = newton.ModelBuilder(**kwargs)
    if "rigid_gap" in c:
        b.rigid_gap = float(c["rigid_gap"])
    if c.get("ground", False):
        b.add_ground_plane()
    for s in c.get("shape", []):
        add_shape(b, -1, s)
    for body in c.get("body", []):
        I = body.get("inertia")
        args = dict(
            xform=xform(body),
            mass=float(body.get("mass", 0.0)),
            com=wp.vec3(*body.get("com", [0.0, 0.0, 0.0])),
            lock_inertia=bool(body.get("lock_inertia", False)),
            is_kinematic=bool(body.get("kinematic", False)),
        )
        if I is not None:
            args["inertia"] = wp.mat33(*I)
        bid = b.add_body(**args) if body.get("free", True) else b.add_link(**args)
        for s in body.get("shape", []):
            add_shape(b, bid, s)
    joints = []
    for j in c.get("joint", []):
        kind = j["type"]
        parent, child = int(j.get("parent", -1)), int(j.get("child", 0))
        Xp, Xc = xform(j, "parent_pos", "parent_rot"), xform(j, "child_pos", "child_rot")
        axis = wp.vec3(*j.get("axis", [1.0, 0.0, 0.0]))
        common = dict(parent_xform=Xp, child_xform=Xc)
        if "collision_filter_parent" in j:
            common["collision_filter_parent"] = bool(j["collision_filter_parent"])
        if kind == "revolute":
            jid = b.add_joint_revolute(parent, child, axis=axis, **common)
        elif kind == "prismatic":
            jid = b.add_joint_prismatic(parent, child, axis=axis, **common)
        elif kind == "ball":
            jid = b.add_joint_ball(parent, child, **common)
        elif kind == "fixed":
            jid = b.add_joint_fixed(parent, child, **common)
        elif kind == "free":
            jid = b.add_joint_free(child, parent=parent, **common)
        elif kind == "distance":
            jid = b.add_joint_distance(
                parent, child, min_distance=j.get("min_distance", -1.0), max_distance=j.get("max_distance", -1.0), **common
            )
        elif kind == "d6":
            lin = [newton.ModelBuilder.JointDofConfig(axis=wp.vec3(*a)) for a in j.get("linear_axes", [])]
            ang = [newton.ModelBuilder.JointDofConfig(axis=wp.vec3(*a)) for a in j.get("angular_axes", [])]
            jid = b.add_joint_d6(parent, child, linear_axes=lin, angular_axes=ang, **common)
        else:
            raise CaseError(f"unknown joint type '{kind}'")
        joints.append(jid)
    if joints:
        b.add_articulation(joints)
    if c.get("solver", {}).get("type") == "vbd":
        b.color()  # SolverVBD needs the body coloring (its Gauss-Seidel order) before finalize
    model = b.finalize(device="cpu")
    return b, model


def put_q(out, X):
    X = np.asarray(X, dtype=float)
    q = X[3:7] if X[6] >= 0 else -X[3:7]
    out.extend(X[:3].tolist() + q.tolist())


def series(a):
    return np.asarray(a, dtype=float).ravel().tolist()


def pipeline(c, model):
    p = c.get("pipeline", {})
    kwargs = {}
    if "broad_phase" in p:
        kwargs["broad_phase"] = p["broad_phase"]
    if "rigid_contact_max" in p:
        kwargs["rigid_contact_max"] = int(p["rigid_contact_max"])
    return newton.CollisionPipeline(model, **kwargs)


def contact_rows(model, contacts, body_q):
    n = int(contacts.rigid_contact_count.numpy()[0])
    n = min(n, contacts.rigid_contact_max)
    S0 = contacts.rigid_contact_shape0.numpy()[:n]
    S1 = contacts.rigid_contact_shape1.numpy()[:n]
    P0 = contacts.rigid_contact_point0.numpy()[:n].astype(float)
    P1 = contacts.rigid_contact_point1.numpy()[:n].astype(float)
    N = contacts.rigid_contact_normal.numpy()[:n].astype(float)
    M0 = contacts.rigid_contact_margin0.numpy()[:n].astype(float)
    M1 = contacts.rigid_contact_margin1.numpy()[:n].astype(float)
    shape_body = model.shape_body.numpy()
    rows = []

    def world(b, p):
        if b < 0:
            return p
        X = body_q[b]
        q = wp.quat(*X[3:7])
        return np.asarray(wp.quat_rotate(q, wp.vec3(*p)), dtype=float) + X[:3]

    for i in range(n):
        s0, s1 = int(S0[i]), int(S1[i])
        p0, p1, nrm = world(shape_body[s0], P0[i]), world(shape_body[s1], P1[i]), N[i]
        d = float(np.dot(nrm, p1 - p0) - (M0[i] + M1[i]))
        if s0 > s1:
            s0, s1, p0, p1, nrm = s1, s0, p1, p0, -nrm
        rows.append((s0, s1, d, nrm, p0, p1))

    def key(r):
        mid = 0.5 * (r[4] + r[5])
        return (r[0], r[1], *[int(np.round(v * 1e4)) for v in mid])

    rows.sort(key=key)
    return rows


def measure_collide(c, model):
    pipe = pipeline(c, model)
    contacts = pipe.contacts()
    state = model.state()
    pipe.collide(state, contacts)
    body_q = state.body_q.numpy().astype(float)
    rows = contact_rows(model, contacts, body_q)
    out = {"contact_count": [float(contacts.rigid_contact_count.numpy()[0])]}
    out["contact_pairs"] = [float(v) for r in rows for v in r[:2]]
    out["contact_depth"] = [r[2] for r in rows]
    out["contact_min_depth"] = [min([0.0] + out["contact_depth"])]
    out["contact_normal"] = [float(v) for r in rows for v in r[3]]
    out["contact_point"] = [float(v) for r in rows for v in 0.5 * (r[4] + r[5])]
    return out


def force_z_on(model, contacts, b):
    n = int(contacts.rigid_contact_count.numpy()[0])
    S0 = contacts.rigid_contact_shape0.numpy()[:n]
    S1 = contacts.rigid_contact_shape1.numpy()[:n]
    F = contacts.force.numpy()[:n].astype(float)
    shape_body = model.shape_body.numpy()
    fz = 0.0
    for i in range(n):
        if shape_body[S0[i]] == b:
            fz += F[i][2]
        if shape_body[S1[i]] == b:
            fz -= F[i][2]
    return fz


def make_solver(sv, model):
    kind = sv.get("type", "xpbd")
    if kind == "xpbd":
        kw = dict(iterations=int(sv.get("iterations", 2)))
        for key in ("rigid_contact_relaxation", "angular_damping"):
            if key in sv:
                kw[key] = float(sv[key])
        for key in ("rigid_contact_con_weighting", "enable_restitution"):
            if key in sv:
                kw[key] = bool(sv[key])
        return newton.solvers.SolverXPBD(model, **kw)
    if kind == "semi_implicit":
        kw = {}
        if "angular_damping" in sv:
            kw["angular_damping"] = float(sv["angular_damping"])
        return newton.solvers.SolverSemiImplicit(model, **kw)
    if kind == "featherstone":
        return newton.solvers.SolverFeatherstone(model)
    if kind == "vbd":
        # rigid_compliant_alm left unset on purpose: its default (the legacy path in 1.6) is what a
        # course reader gets; Newton warns that the default will change.
        kw = {}
        if "rigid_compliant_alm" in sv:
            kw["rigid_compliant_alm"] = bool(sv["rigid_compliant_alm"])
        return newton.solvers.SolverVBD(model, iterations=int(sv.get("iterations", 10)), **kw)
    if kind == "mujoco":
        return newton.solvers.SolverMuJoCo(model, use_mujoco_cpu=True, integrator=sv.get("integrator", "implicitfast"))
    raise CaseError(f"unknown solver '{kind}'")


def measure_simulate(c, model):
    sv = c["solver"]
    h = float(sv.get("h", 1.0 / 240.0))
    steps = int(sv.get("steps", 1))
    trace = int(c.get("trace_body", 0))
    kind = sv.get("type", "xpbd")
    collide = bool(c.get("collide", True))
    if kind == "xpbd":
        model.request_contact_attributes("force")
    s0, s1 = model.state(), model.state()
    bodies = c.get("body", [])
    if bodies:
        qd = s0.body_qd.numpy()
        jqd = s0.joint_qd.numpy()
        qd_start = model.joint_qd_start.numpy()
        jtype = model.joint_type.numpy()
        jchild = model.joint_child.numpy()
        for bi, body in enumerate(bodies):
            v = list(body.get("vel", [0.0, 0.0, 0.0])) + list(body.get("omega", [0.0, 0.0, 0.0]))
            qd[bi] = v
            for j in range(model.joint_count):
                if jchild[j] == bi and jtype[j] == int(newton.JointType.FREE):
                    jqd[qd_start[j] : qd_start[j] + 6] = v
        s0.body_qd.assign(qd)
        s0.joint_qd.assign(jqd)
    solver = make_solver(sv, model)
    ctl = model.control()
    sensor = newton.sensors.SensorContact(model, sensing_bodies=[trace]) if kind == "xpbd" else None
    pipe = pipeline(c, model)
    contacts = pipe.contacts()
    z, x, count, fz, sensor_fz, vz = [], [], [], [], [], []
    vz0 = float(s0.body_qd.numpy()[trace][2])
    for _ in range(steps):
        if collide:
            pipe.collide(s0, contacts)
        s0.clear_forces()
        solver.step(s0, s1, ctl, contacts if collide else None, h)
        n = int(contacts.rigid_contact_count.numpy()[0]) if collide else 0
        if kind == "xpbd":
            if n > 0:
                solver.update_contacts(contacts)
                fz.append(force_z_on(model, contacts, trace))
                sensor.update(s1, contacts)
                sensor_fz.append(float(sensor.total_force.numpy()[0][2]))
            else:
                fz.append(0.0)
                sensor_fz.append(0.0)
        count.append(float(n))
        s0, s1 = s1, s0
        X = s0.body_q.numpy()[trace].astype(float)
        z.append(float(X[2]))
        x.append(float(X[0]))
        vz.append(float(s0.body_qd.numpy()[trace][2]))
    q = []
    for X in s0.body_q.numpy().astype(float):
        put_q(q, X)
    out = {"z": z, "x": x, "contact_count": count, "body_q": q, "body_qd": series(s0.body_qd.numpy()), "vz": vz}
    if fz:
        # momentum change - gravity's impulse - the readback's impulse, per step [N s]
        g = model.gravity.numpy().reshape(-1, 3)[0] if hasattr(model.gravity, "numpy") else model.gravity
        mass, gz = float(model.body_mass.numpy()[trace]), float(g[2])
        out["readback_gap"] = [mass * (v - (vz[i - 1] if i else vz0)) - mass * gz * h - f * h
                               for i, (v, f) in enumerate(zip(vz, fz))]
        out["fz"] = fz
        out["sensor_fz"] = sensor_fz
    return out


def measure(c):
    kind = c.get("kind")
    builder, model = build(c)
    if kind == "layout":
        return {
            "joint_q_start": series(model.joint_q_start.numpy()),
            "joint_qd_start": series(model.joint_qd_start.numpy()),
            "coord_counts": [float(model.joint_coord_count), float(model.joint_dof_count)],
        }
    if kind == "mass":
        return {
            "body_mass": series(model.body_mass.numpy()),
            "body_com": series(model.body_com.numpy()),
            "body_inertia": series(model.body_inertia.numpy()),
        }
    if kind in ("fk", "ik"):
        q = np.asarray(c.get("joint_q", model.joint_q.numpy()), dtype=np.float32)
        qd = np.asarray(c.get("joint_qd", model.joint_qd.numpy()), dtype=np.float32)
        if q.size != model.joint_coord_count or qd.size != model.joint_dof_count:
            raise CaseError("joint_q/joint_qd sizes do not match the model")
        state = model.state()
        jq, jqd = wp.array(q, dtype=wp.float32, device="cpu"), wp.array(qd, dtype=wp.float32, device="cpu")
        newton.eval_fk(model, jq, jqd, state)
        if kind == "fk":
            out = []
            for X in state.body_q.numpy().astype(float):
                put_q(out, X)
            return {"body_q": out, "body_qd": series(state.body_qd.numpy())}
        iq = wp.zeros(model.joint_coord_count, dtype=wp.float32, device="cpu")
        iqd = wp.zeros(model.joint_dof_count, dtype=wp.float32, device="cpu")
        newton.eval_ik(model, state, iq, iqd)
        return {"joint_q": series(iq.numpy()), "joint_qd": series(iqd.numpy())}
    if kind == "collide":
        return measure_collide(c, model)
    if kind == "simulate":
        return measure_simulate(c, model)
    raise CaseError(f"unknown kind '{kind}'")


def main():
    if len(sys.argv) not in (3, 4):
        print("usage: newton_side.py CASES.toml OUT.json [ONLY]", file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as f:
        doc = tomllib.load(f)
    if len(sys.argv) == 4:
        only = set(sys.argv[3].split(","))
        doc["case"] = [c for c in doc.get("case", []) if c["name"] in only]
    wp.init()
    out = {"_newton_version": newton.__version__, "_warp_version": wp.__version__}
    for c in doc.get("case", []):
        try:
            out[c["name"]] = measure(c)
        except Exception as e:  # one engine lacking a feature is a verdict, not a crash of the suite
            out[c["name"]] = {"error": f"{type(e).__name__}: {e}", "trace": traceback.format_exc(limit=3)}
    with open(sys.argv[2], "w") as f:
        json.dump(out, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
