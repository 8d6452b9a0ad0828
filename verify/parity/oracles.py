"""Other oracles of the field, in the parity report: Pinocchio and MuJoCo (verify/parity/README.md).

  Pinocchio (pin): on random kinematic trees of REVOLUTE and PRISMATIC joints with rotated joint
    frames and explicit inertias, impulse's joint-space mass matrix H(q) against pinocchio.crba,
    its forward dynamics qdd(q, qd) against pinocchio.aba, and the residual of pinocchio.rnea at
    impulse's qdd (inverse dynamics must give zero joint force).            (E1.5-generalized-solvers,
    E3.6-featherstone)
  MuJoCo (mujoco): the pendulum and the 3-link chain stepped with MuJoCo's euler, rk4, implicit
    and implicitfast integrators against impulse's SolverGeneralizedIntegrator, both in float64.
                                                                             (E3.6-integrator-table)

The scenes are written once, as parity cases (build/parity/oracle_cases.toml, from a fixed seed);
parity_impulse reads that file, and this script builds the Pinocchio model and the MJCF from the
same tables. Usage (./run parity does this, in the oracles venv):
  oracles.py --impulse build/bin/parity_impulse --out build/parity
Appends its entries to OUT/report.json (newton_version = "pinocchio X" / "mujoco X") and prints one
line per entry and a closing `oracles: N agree, N differ` line. Exit 1 on a difference.
"""

import argparse
import json
import os
import subprocess
import sys
import tomllib

import numpy as np

SEED = 20261201
TREES = 6


def quat_mul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return np.array([aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz])


def quat_matrix(q):
    x, y, z, w = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def toml_list(v):
    return "[" + ", ".join(repr(float(x)) for x in v) + "]"


def random_tree_cases(rng):
    """Random trees written as parity cases (explicit inertias, no shapes)."""
    out = []
    for t in range(TREES):
        n = int(rng.integers(2, 7))
        lines = [f'[[case]]\nname = "pinocchio-tree-{t}"\nid = "E3.6-featherstone"\nkind = "dynamics"']
        q, qd = [], []
        # Depth-first numbering (each body's parent is the previous body or one of its ancestors):
        # Pinocchio's CRBA assumes every subtree's DOFs are contiguous, as they are in depth-first order.
        parents, path = [], []
        for i in range(n):
            keep = int(rng.integers(0, len(path) + 1))
            path = path[:keep]
            parents.append(path[-1] if path else -1)
            path.append(i)
        for i in range(n):
            m = float(rng.uniform(0.5, 3.0))
            # a physical inertia: a solid box's principal moments, turned by a random rotation
            a, b_, c_ = rng.uniform(0.05, 0.4, size=3)
            R, _ = np.linalg.qr(rng.normal(size=(3, 3)))
            I = R @ np.diag([m / 12 * (b_ * b_ + c_ * c_), m / 12 * (a * a + c_ * c_), m / 12 * (a * a + b_ * b_)]) @ R.T
            com = rng.uniform(-0.2, 0.2, size=3)
            lines.append(f"[[case.body]]\nfree = false\nlock_inertia = true\nmass = {m!r}\ncom = {toml_list(com)}\n"
                         f"inertia = {toml_list(I.ravel())}")
        for i in range(n):
            kind = "revolute" if rng.uniform() < 0.7 else "prismatic"
            axis = rng.normal(size=3)
            axis /= np.linalg.norm(axis)
            def rq():
                v = rng.normal(size=4)
                return v / np.linalg.norm(v)
            lines.append(f'[[case.joint]]\ntype = "{kind}"\nparent = {parents[i]}\nchild = {i}\naxis = {toml_list(axis)}\n'
                         f"parent_pos = {toml_list(rng.uniform(-0.4, 0.4, size=3))}\nparent_rot = {toml_list(rq())}\n"
                         f"child_pos = {toml_list(rng.uniform(-0.3, 0.3, size=3))}\nchild_rot = {toml_list(rq())}")
            q.append(float(rng.uniform(-1.5, 1.5)))
            qd.append(float(rng.uniform(-2, 2)))
        lines.insert(1, f"joint_q = {toml_list(q)}\njoint_qd = {toml_list(qd)}")
        lines.append('[[case.compare]]\nquantity = "mass_matrix"\ntolerance = 1e-10\n'
                     'reason = "both float64; H entries of order 1 kg m^2 through a few products: 1e-13 expected"')
        lines.append('[[case.compare]]\nquantity = "qdd"\ntolerance = 1e-8\n'
                     'reason = "both float64; a solve with H of condition number up to 1e4 loses 4 digits"')
        out.append("\n".join(lines))
    return out


PENDULUM = '''[[case]]
name = "mujoco-{integ}-pendulum"
id = "E3.6-integrator-table"
kind = "simulate"
collide = false
[case.solver]
type = "mujoco"
integrator = "{integ}"
h = 0.002
steps = 500
[[case.body]]
free = false
pos = [0.5, 0, 1]
lock_inertia = true
mass = 1.0
inertia = [0.001, 0, 0, 0, 0.001, 0, 0, 0, 0.001]
[[case.joint]]
type = "revolute"
parent = -1
child = 0
parent_pos = [0, 0, 1]
child_pos = [-0.5, 0, 0]
axis = [0, 1, 0]
[[case.compare]]
quantity = "z"
tolerance = 1e-9
reason = "both float64 over 500 steps of the same update: roundoff of 1e-16 per step"
'''

CHAIN = '''[[case]]
name = "mujoco-{integ}-chain"
id = "E3.6-integrator-table"
kind = "simulate"
collide = false
trace_body = 2
[case.solver]
type = "mujoco"
integrator = "{integ}"
h = 0.002
steps = 250
''' + "".join(f'''[[case.body]]
free = false
pos = [{0.3 * i + 0.15}, 0, 1]
lock_inertia = true
mass = 0.5
inertia = [0.0002, 0, 0, 0, 0.004, 0, 0, 0, 0.004]
[[case.joint]]
type = "revolute"
parent = {i - 1}
child = {i}
parent_pos = {"[0, 0, 1]" if i == 0 else "[0.15, 0, 0]"}
child_pos = [-0.15, 0, 0]
axis = [0, 1, 0]
''' for i in range(3)) + '''[[case.compare]]
quantity = "z"
tolerance = 1e-7
reason = "both float64; a triple pendulum amplifies 1e-16 roundoff by its Lyapunov growth over 0.5 s"
'''


def pin_model(pin, c):
    """Pinocchio model of a parity case: each Pinocchio body frame is the impulse joint's child frame."""
    model = pin.Model()
    model.gravity.linear = np.array([0.0, 0.0, -9.81])
    bodies, joints = c["body"], c["joint"]
    child_joint = {j["child"]: k for k, j in enumerate(joints)}
    pin_joint = {}
    for k, j in enumerate(joints):
        Xp = pin.SE3(quat_matrix(np.array(j.get("parent_rot", [0, 0, 0, 1.0])) / np.linalg.norm(j.get("parent_rot", [0, 0, 0, 1.0]))),
                     np.array(j.get("parent_pos", [0, 0, 0.0])))
        parent = j["parent"]
        if parent >= 0:
            pj = joints[child_joint[parent]]
            Xc_parent = pin.SE3(quat_matrix(np.array(pj.get("child_rot", [0, 0, 0, 1.0])) / np.linalg.norm(pj.get("child_rot", [0, 0, 0, 1.0]))),
                                np.array(pj.get("child_pos", [0, 0, 0.0])))
            placement = Xc_parent.inverse() * Xp
            parent_id = pin_joint[parent]
        else:
            placement = Xp
            parent_id = 0
        axis = np.array(j["axis"], dtype=float)
        axis /= np.linalg.norm(axis)
        jm = pin.JointModelRevoluteUnaligned(axis) if j["type"] == "revolute" else pin.JointModelPrismaticUnaligned(axis)
        jid = model.addJoint(parent_id, jm, placement, f"j{k}")
        pin_joint[j["child"]] = jid
        b = bodies[j["child"]]
        Xc = pin.SE3(quat_matrix(np.array(j.get("child_rot", [0, 0, 0, 1.0])) / np.linalg.norm(j.get("child_rot", [0, 0, 0, 1.0]))),
                     np.array(j.get("child_pos", [0, 0, 0.0])))
        R = Xc.rotation.T  # body axes -> child joint frame
        com = R @ (np.array(b.get("com", [0, 0, 0.0])) - Xc.translation)
        I = R @ np.array(b["inertia"], dtype=float).reshape(3, 3) @ R.T
        model.appendBodyToJoint(jid, pin.Inertia(b["mass"], com, I), pin.SE3.Identity())
    return model


def mjcf(c):
    """MJCF of a chain case: MuJoCo body frame = impulse body frame (at q = 0)."""
    sv = c["solver"]
    bodies, joints = c["body"], c["joint"]
    by_child = {j["child"]: j for j in joints}

    def body_xml(i):
        j = by_child[i]
        Xp_p, Xc_p = np.array(j.get("parent_pos", [0, 0, 0.0])), np.array(j.get("child_pos", [0, 0, 0.0]))
        pos = Xp_p - Xc_p  # frames unrotated in these cases
        b = bodies[i]
        I = np.array(b["inertia"], dtype=float).reshape(3, 3)
        kids = "".join(body_xml(k) for k, jj in by_child.items() if jj["parent"] == i)
        return (f'<body name="b{i}" pos="{pos[0]} {pos[1]} {pos[2]}">'
                f'<joint type="hinge" axis="{" ".join(map(str, j["axis"]))}" pos="{Xc_p[0]} {Xc_p[1]} {Xc_p[2]}"/>'
                f'<inertial pos="{" ".join(map(str, b.get("com", [0, 0, 0])))}" mass="{b["mass"]}" '
                f'fullinertia="{I[0,0]} {I[1,1]} {I[2,2]} {I[0,1]} {I[0,2]} {I[1,2]}"/>{kids}</body>')

    roots = "".join(body_xml(i) for i, j in by_child.items() if j["parent"] == -1)
    return (f'<mujoco><option timestep="{sv["h"]}" integrator="{ {"euler": "Euler", "rk4": "RK4"}.get(sv["integrator"], sv["integrator"]) }" gravity="0 0 -9.81">'
            f'<flag contact="disable"/></option><worldbody>{roots}</worldbody></mujoco>')


def entry(c, cmp, oracle, a, b, verdict, reason, diff):
    return {"id": c["id"], "case": c["name"], "claim": c.get("claim", ""), "newton_version": oracle,
            "quantity": cmp["quantity"], "reduce": "max_abs", "tolerance": cmp["tolerance"],
            "tolerance_reason": cmp["reason"], "impulse": a, "newton": b, "difference": diff,
            "verdict": verdict, "reason": reason}


def compare(c, cmp, oracle, a, b):
    a, b = list(map(float, a)), list(map(float, b))
    if len(a) != len(b):
        return entry(c, cmp, oracle, a, b, "differ", f"lengths differ: impulse {len(a)}, {oracle} {len(b)}", None)
    d = max((abs(x - y) for x, y in zip(a, b)), default=0.0)
    ok = d <= float(cmp["tolerance"])
    return entry(c, cmp, oracle, a, b, "agree" if ok else "differ",
                 f"|difference| {d:.3g} {'<=' if ok else '>'} {float(cmp['tolerance']):.3g}", d)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--impulse", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    import mujoco
    import pinocchio as pin

    rng = np.random.default_rng(SEED)
    text = "# Oracle cases, generated by verify/parity/oracles.py (seed %d); regenerated on every run.\n\n" % SEED
    text += "\n\n".join(random_tree_cases(rng)) + "\n\n"
    for integ in ("euler", "rk4", "implicit", "implicitfast"):
        text += PENDULUM.format(integ=integ) + "\n" + CHAIN.format(integ=integ) + "\n"
    os.makedirs(args.out, exist_ok=True)
    case_file = os.path.join(args.out, "oracle_cases.toml")
    with open(case_file, "w") as f:
        f.write(text)
    imp_file = os.path.join(args.out, "impulse-oracles.json")
    p = subprocess.run([args.impulse, case_file, imp_file])
    if p.returncode != 0:
        print(f"oracles: parity_impulse failed on {case_file} (exit {p.returncode})", file=sys.stderr)
        return 2
    with open(imp_file) as f:
        imp = json.load(f)
    with open(case_file, "rb") as f:
        cases = tomllib.load(f)["case"]

    entries = []
    pin_name, mj_name = f"pinocchio {pin.__version__}", f"mujoco {mujoco.__version__}"
    for c in cases:
        got = imp[c["name"]]
        if "error" in got:
            for cmp in c["compare"]:
                entries.append(entry(c, cmp, "oracle", None, None, "not_comparable", got["error"], None))
            continue
        if c["kind"] == "dynamics":
            model = pin_model(pin, c)
            data = model.createData()
            q, v = np.array(c["joint_q"]), np.array(c["joint_qd"])
            H = pin.crba(model, data, q)
            H = np.triu(H) + np.triu(H, 1).T
            qdd = pin.aba(model, data, q, v, np.zeros(model.nv))
            ref = {"mass_matrix": H.ravel().tolist(), "qdd": qdd.tolist()}
            for cmp in c["compare"]:
                entries.append(compare(c, cmp, pin_name, got[cmp["quantity"]], ref[cmp["quantity"]]))
            tau = pin.rnea(model, data, q, v, np.array(got["qdd"]))
            rn = {"quantity": "rnea_residual", "tolerance": 1e-8,
                  "reason": "inverse dynamics at impulse's qdd must give zero joint force; float64"}
            entries.append(compare(c, rn, pin_name, tau.tolist(), [0.0] * len(tau)))
        else:
            m = mujoco.MjModel.from_xml_string(mjcf(c))
            d = mujoco.MjData(m)
            trace = int(c.get("trace_body", 0))
            z = []
            for _ in range(int(c["solver"]["steps"])):
                mujoco.mj_step(m, d)
                mujoco.mj_kinematics(m, d)  # xpos after mj_step is that of the step's start
                z.append(float(d.xpos[trace + 1][2]))
            for cmp in c["compare"]:
                entries.append(compare(c, cmp, mj_name, got[cmp["quantity"]], z))

    report_path = os.path.join(args.out, "report.json")
    report = {"entries": []}
    if os.path.exists(report_path):
        with open(report_path) as f:
            report = json.load(f)
    report["entries"] = [e for e in report["entries"] if not e["newton_version"].startswith(("pinocchio", "mujoco"))]
    report["entries"] += entries
    report.setdefault("oracles", {})["pinocchio"] = pin.__version__
    report["oracles"]["mujoco"] = mujoco.__version__
    with open(report_path, "w") as f:
        json.dump(report, f, indent=1)
    counts = {"agree": 0, "differ": 0, "not_comparable": 0}
    for e in entries:
        counts[e["verdict"]] += 1
        mark = {"agree": "ok  ", "differ": "DIFF", "not_comparable": "n/c "}[e["verdict"]]
        print(f"  {mark} {e['newton_version']:16} {e['case']:30} {e['quantity']:15} {e['id']:26} {e['reason']}")
    print(f"oracles: {counts['agree']} agree, {counts['differ']} differ, {counts['not_comparable']} not comparable"
          f"   (Pinocchio {pin.__version__}, MuJoCo {mujoco.__version__})")
    return 1 if counts["differ"] else 0


if __name__ == "__main__":
    sys.exit(main())
