"""The API the course teaches, checked in one Newton release (verify/parity/README.md).

Reads verify/parity/course_api.toml (every Newton name the course uses) and, in the venv of one
Newton version, says for each name: present or absent, what it is (class, function, method,
property, attribute), its signature, each keyword argument the course passes (present in the
signature or not), and whether it is deprecated with the replacement its text names. Deprecation
is read three ways, each recorded with its source:

  runtime    the warnings a call emits in the probe below, which runs the course's own sequence
             (builder, finalize, request "force", sensor, contacts, collide, step, update_contacts,
             SensorContact.update, eval_rigid_contact_kinematics, eval_fk/eval_ik, the other solvers)
  warn       a warnings.warn(..., DeprecationWarning) in the function's own body (for a keyword
             argument: inside an `if` that tests that argument)
  docstring  a `.. deprecated::` note in the docstring

Usage: python newton_api.py COURSE_API.toml OUT.json   (run in a venv that has newton and warp-lang)
"""

import ast
import inspect
import json
import re
import sys
import textwrap
import tomllib
import traceback
import warnings

import numpy as np
import warp as wp

wp.config.quiet = True
import newton  # noqa: E402

RUNTIME = {}  # API name -> {"warnings": [...], "raised": "..."}


def record(name, fn):
    """Calls fn(), keeping the warnings it emits and the exception it raises under the API name."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn()
            raised = None
        except Exception as e:  # the course's claims include calls that raise
            out, raised = None, f"{type(e).__name__}: {e}"
    r = RUNTIME.setdefault(name, {"warnings": [], "raised": None})
    for w in caught:
        if issubclass(w.category, (DeprecationWarning, FutureWarning, PendingDeprecationWarning)):
            msg = f"{w.category.__name__}: {w.message}"
            if msg not in r["warnings"]:
                r["warnings"].append(msg)
    if raised and not r["raised"]:
        r["raised"] = raised
    return out


def probe():
    """The course's sequence on a tiny scene (a box on the ground, a pendulum link); returns the
    instances whose attributes the list names (Model, State, Control, Contacts, solvers, sensor)."""
    inst = {}
    b = record("ModelBuilder", lambda: newton.ModelBuilder(up_axis=newton.Axis.Z, gravity=(0.0, 0.0, -9.81)))
    cfg = record("ModelBuilder.ShapeConfig", lambda: newton.ModelBuilder.ShapeConfig(density=1000.0, mu=0.5))
    inst[newton.ModelBuilder.ShapeConfig] = cfg
    inst[newton.ModelBuilder] = b
    record("ModelBuilder.add_ground_plane", lambda: b.add_ground_plane())
    box = record("ModelBuilder.add_body", lambda: b.add_body(xform=wp.transform((0.0, 0.0, 0.099), wp.quat_identity()),
                                                             label="block"))
    record("ModelBuilder.add_shape_box", lambda: b.add_shape_box(box, hx=0.1, hy=0.1, hz=0.1, cfg=cfg))
    link = record("ModelBuilder.add_link", lambda: b.add_link(xform=wp.transform((1.0, 0.0, 1.0), wp.quat_identity())))
    record("ModelBuilder.add_shape_sphere", lambda: b.add_shape_sphere(link, radius=0.05, cfg=cfg))
    j = record("ModelBuilder.add_joint_revolute", lambda: b.add_joint_revolute(
        -1, link, parent_xform=wp.transform((1.0, 0.0, 1.5), wp.quat_identity()),
        child_xform=wp.transform((0.0, 0.0, 0.5), wp.quat_identity()), axis=(0.0, 1.0, 0.0)))
    record("ModelBuilder.add_articulation", lambda: b.add_articulation([j]))
    record("ModelBuilder.color", b.color)
    model = record("ModelBuilder.finalize", lambda: b.finalize(device="cpu"))
    inst[newton.Model] = model
    record("Model.request_contact_attributes", lambda: model.request_contact_attributes("force"))
    s0, s1 = record("Model.state", model.state), model.state()
    inst[newton.State] = s0
    ctl = record("Model.control", lambda: model.control())
    inst[newton.Control] = ctl
    sensor = record("sensors.SensorContact", lambda: newton.sensors.SensorContact(model, sensing_bodies=[box]))
    inst[newton.sensors.SensorContact] = sensor
    pipe = record("CollisionPipeline", lambda: newton.CollisionPipeline(model))
    contacts = record("CollisionPipeline.contacts", pipe.contacts)
    inst[newton.Contacts] = contacts
    record("CollisionPipeline.collide", lambda: pipe.collide(s0, contacts))
    xpbd = record("solvers.SolverXPBD", lambda: newton.solvers.SolverXPBD(model, iterations=4))
    inst[newton.solvers.SolverXPBD] = xpbd
    record("State.clear_forces", s0.clear_forces)
    record("solvers.SolverXPBD.step", lambda: xpbd.step(s0, s1, ctl, contacts, 1.0 / 240.0))
    record("solvers.SolverXPBD.update_contacts", lambda: xpbd.update_contacts(contacts))
    record("sensors.SensorContact.update", lambda: sensor.update(s1, contacts))
    n = contacts.rigid_contact_max
    record("eval_rigid_contact_kinematics", lambda: newton.eval_rigid_contact_kinematics(
        model, s1, contacts, out_distance=wp.empty(n, dtype=float, device="cpu"),
        out_point0_world=wp.empty(n, dtype=wp.vec3, device="cpu"), out_point1_world=wp.empty(n, dtype=wp.vec3, device="cpu")))
    record("eval_fk", lambda: newton.eval_fk(model, model.joint_q, model.joint_qd, s0))
    record("eval_ik", lambda: newton.eval_ik(model, s0, s0.joint_q, s0.joint_qd))
    record("State.assign", lambda: s1.assign(s0))
    semi = record("solvers.SolverSemiImplicit", lambda: newton.solvers.SolverSemiImplicit(model))
    record("solvers.SolverSemiImplicit.update_contacts", lambda: semi.update_contacts(contacts))
    feather = record("solvers.SolverFeatherstone", lambda: newton.solvers.SolverFeatherstone(model))
    record("solvers.SolverFeatherstone.update_contacts", lambda: feather.update_contacts(contacts))
    vbd = record("solvers.SolverVBD", lambda: newton.solvers.SolverVBD(model, iterations=2, rigid_compliant_alm=True))
    if vbd is not None:
        inst[newton.solvers.SolverVBD] = vbd
        q_prev = wp.clone(s0.body_q)
        pipe.collide(s0, contacts)
        record("solvers.SolverVBD.step", lambda: vbd.step(s0, s1, ctl, contacts, 1.0 / 240.0))
        record("solvers.SolverVBD.collect_rigid_contact_forces",
               lambda: vbd.collect_rigid_contact_forces(s1.body_q, q_prev, contacts, 1.0 / 240.0))
    mj = record("solvers.SolverMuJoCo", lambda: newton.solvers.SolverMuJoCo(model, use_mujoco_cpu=True))
    if mj is not None:
        record("solvers.SolverMuJoCo.update_contacts", lambda: mj.update_contacts(contacts))
    return inst


def message_of(node, glb):
    """The text of a warnings.warn message argument: a literal, an f-string (as written) or a
    module constant."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name) and isinstance(glb.get(node.id), str):
        return glb[node.id]
    if isinstance(node, ast.BinOp):
        return message_of(node.left, glb) + message_of(node.right, glb)
    return ast.unparse(node)


def deprecation_warns(fn):
    """[(message, the source of the enclosing `if` tests)] for each warnings.warn(...,
    DeprecationWarning) in fn's own body."""
    try:
        src = textwrap.dedent(inspect.getsource(fn))
        tree = ast.parse(src)
    except (OSError, TypeError, SyntaxError):
        return []
    glb = getattr(fn, "__globals__", {})
    found = []

    def visit(node, tests):
        if isinstance(node, ast.If):
            tests = tests + [ast.unparse(node.test)]
        if isinstance(node, ast.Call) and ast.unparse(node.func) in ("warnings.warn", "warn"):
            cat = [ast.unparse(a) for a in node.args[1:2]] + [ast.unparse(k.value) for k in node.keywords if k.arg == "category"]
            if any("Deprecation" in c for c in cat) and node.args:
                found.append((message_of(node.args[0], glb), " ".join(tests)))
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and child is not tree.body[0]:
                continue
            visit(child, tests)

    visit(tree, [])
    return found


# A `.. deprecated::` note of the object itself starts a line of the cleaned docstring; one indented
# under "Args:" belongs to a parameter.
DOC_DEPRECATED = re.compile(r"^\.\. deprecated::[ \t]*([0-9.]+)[ \t]*\n(?:[ \t]*\n)?((?:[ \t]*\S.*\n?)*)", re.M)


def docstring_deprecation(obj):
    doc = inspect.getdoc(obj) or ""
    m = DOC_DEPRECATED.search(doc)
    if not m:
        return None
    return {"since": m.group(1), "text": " ".join(m.group(2).split())}


def resolve(name, inst):
    """(object, kind, owner class or None); object None when absent."""
    obj, owner = newton, None
    for part in name.split("."):
        if isinstance(obj, type):
            try:
                static = inspect.getattr_static(obj, part)
            except AttributeError:
                static = None
            if static is not None:
                owner = obj
                if isinstance(static, property):
                    obj = static
                    continue
                obj = getattr(obj, part)
                continue
            i = inst.get(obj)
            if i is not None and hasattr(i, part):
                return getattr(i, part), "attribute", obj
            return None, None, obj
        if not hasattr(obj, part):
            return None, None, owner
        owner, obj = None, getattr(obj, part)
    if isinstance(obj, property):
        return obj, "property", owner
    if inspect.isclass(obj):
        return obj, "class", owner
    if inspect.isfunction(obj) or inspect.ismethod(obj) or inspect.isbuiltin(obj):
        return obj, ("method" if owner is not None else "function"), owner
    return obj, "attribute", owner


def signature_of(obj, kind):
    target = obj.__init__ if kind == "class" else obj
    try:
        return str(inspect.signature(target))
    except (TypeError, ValueError):
        return None


def check(entry, inst):
    name = entry["name"]
    obj, kind, owner = resolve(name, inst)
    out = {"present": obj is not None or kind is not None, "kind": kind, "signature": None, "kwargs": {},
           "deprecations": [], "runtime": RUNTIME.get(name)}
    if not out["present"]:
        return out
    fn = obj.fget if kind == "property" else (obj.__init__ if kind == "class" else obj)
    if kind in ("class", "method", "function"):
        out["signature"] = signature_of(obj, kind)
    params = {}
    try:
        params = dict(inspect.signature(fn).parameters) if callable(fn) else {}
    except (TypeError, ValueError):
        pass
    var_kw = any(p.kind == inspect.Parameter.VAR_KEYWORD for p in params.values())
    warns = deprecation_warns(fn) if callable(fn) else []
    for kw in entry.get("kwargs", []):
        k = {"present": kw in params, "through_kwargs": kw not in params and var_kw, "deprecations": []}
        for msg, tests in warns:
            if re.search(r"\b" + re.escape(kw) + r"\b", tests):
                k["deprecations"].append({"source": "warn", "text": msg})
        out["kwargs"][kw] = k
    for msg, tests in warns:
        if not tests:  # an unconditional warning deprecates the name itself
            out["deprecations"].append({"source": "warn", "text": msg})
    doc = docstring_deprecation(obj if kind != "attribute" else None) if kind != "attribute" else None
    if doc:
        out["deprecations"].append({"source": "docstring", "since": doc["since"], "text": doc["text"]})
    if getattr(fn, "__deprecated__", None):
        out["deprecations"].append({"source": "decorator", "text": str(fn.__deprecated__)})
    for w in (out["runtime"] or {}).get("warnings", []):
        if w.startswith(("DeprecationWarning", "FutureWarning", "PendingDeprecationWarning")):
            out["deprecations"].append({"source": "runtime", "text": w.split(": ", 1)[1]})
    return out


def main():
    if len(sys.argv) != 3:
        print("usage: newton_api.py COURSE_API.toml OUT.json", file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as f:
        names = tomllib.load(f)["api"]
    wp.init()
    try:
        inst = probe()
        probe_error = None
    except Exception as e:  # the names are still checked statically
        inst, probe_error = {}, f"{type(e).__name__}: {e}\n{traceback.format_exc(limit=4)}"
    out = {"_newton_version": newton.__version__, "_warp_version": wp.__version__, "probe_error": probe_error,
           "names": {e["name"]: check(e, inst) for e in names}}
    with open(sys.argv[2], "w") as f:
        json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
