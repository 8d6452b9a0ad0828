"""ModelBuilder.add_usd through OpenUSD's own Python package (pxr, PyPI usd-core), with the
course's E1.4 USD rules (seed 003 L175-L189; inventory E1.4-importer-table, E1.4-usd-units):

- stage units: the rigid-body path reads metersPerUnit and kilogramsPerUnit and converts nothing;
  a stage whose units are not 1.0 imports as authored, with one warning per unit naming the value
  found (Newton 1.6.1's legacy rigid path does the same; "metadata was read" is not "converted");
- up axis: apply_up_axis_from_stage=True makes the stage's up axis the builder's (gravity turned
  with it); otherwise the stage is rotated so that its up axis lies along the builder's;
- collision against visual prims: a gprim with UsdPhysics.CollisionAPI is a collider; one without
  it is a visual shape (no collision, no mass) when load_visual_shapes, else skipped;
- the record: the returned dict maps prim paths to body, shape and joint IDs and carries the
  stage's units and up axis; every import warning goes through Python's warnings.

Supported prims: rigid bodies (UsdPhysics.RigidBodyAPI, MassAPI mass/density), Cube, Sphere,
Capsule and Cylinder gprims (axis Z, X or Y), revolute, prismatic, spherical and fixed joints. Any
other prim type that carries CollisionAPI is refused with NotImplementedError naming its path.
"""
import math
import warnings

import numpy as np

_AXES = {"X": (1.0, 0.0, 0.0), "Y": (0.0, 1.0, 0.0), "Z": (0.0, 0.0, 1.0)}


def _pxr():
    try:
        from pxr import Gf, Usd, UsdGeom, UsdPhysics
    except ImportError as e:
        raise ImportError("add_usd needs OpenUSD's Python package (PyPI usd-core); ./run python has it "
                          "(python/requirements.txt)") from e
    return Gf, Usd, UsdGeom, UsdPhysics


def _quat_xyzw(gf_quat):
    im = gf_quat.GetImaginary()
    return np.array([im[0], im[1], im[2], gf_quat.GetReal()])


def _qmul(a, b):
    """Hamilton product of (x, y, z, w) quaternions."""
    av, aw, bv, bw = a[:3], a[3], b[:3], b[3]
    return np.concatenate([aw * bv + bw * av + np.cross(av, bv), [aw * bw - av @ bv]])


def _rotate(q, v):
    t = 2.0 * np.cross(q[:3], v)
    return v + q[3] * t + np.cross(q[:3], t)


def _compose(a, b):
    """Transform a * b, each (p, q)."""
    return a[0] + _rotate(a[1], b[0]), _qmul(a[1], b[1])


def _inverse(a):
    qi = np.array([-a[1][0], -a[1][1], -a[1][2], a[1][3]])
    return -_rotate(qi, a[0]), qi


def _axis_turn(axis):
    """The rotation taking +z to the gprim's axis (capsule and cylinder are along z in the engine)."""
    if axis == "X":
        return np.array([0.0, math.sin(math.pi / 4), 0.0, math.cos(math.pi / 4)])
    if axis == "Y":
        return np.array([-math.sin(math.pi / 4), 0.0, 0.0, math.cos(math.pi / 4)])
    return np.array([0.0, 0.0, 0.0, 1.0])


def _up_turn(stage_up, builder_up):
    """The rotation taking the stage's up axis onto the builder's (identity when they agree)."""
    a, b = np.array(_AXES[stage_up]), np.array(_AXES[builder_up])
    c = np.cross(a, b)
    if np.linalg.norm(c) < 1e-12:
        return np.array([0.0, 0.0, 0.0, 1.0])
    return np.concatenate([c * math.sin(math.pi / 4) / np.linalg.norm(c), [math.cos(math.pi / 4)]])


def add_usd(builder, source, *, xform=None, floating=None, apply_up_axis_from_stage=False, root_path="/",
            load_visual_shapes=True, verbose=False):
    """Imports a USD stage (file name or Usd.Stage) into builder; returns the import record."""
    Gf, Usd, UsdGeom, UsdPhysics = _pxr()
    stage = Usd.Stage.Open(source) if isinstance(source, str) else source
    if stage is None:
        raise ValueError(f"add_usd: source must be a USD file or a Usd.Stage, got {source!r}")
    record = {"path_body_map": {}, "path_shape_map": {}, "path_joint_map": {}}

    linear_unit = UsdGeom.GetStageMetersPerUnit(stage) if UsdGeom.StageHasAuthoredMetersPerUnit(stage) else 1.0
    mass_unit = UsdPhysics.GetStageKilogramsPerUnit(stage) if UsdPhysics.StageHasAuthoredKilogramsPerUnit(stage) else 1.0
    record["linear_unit"], record["mass_unit"] = linear_unit, mass_unit
    if not math.isclose(mass_unit, 1.0):
        warnings.warn(f"add_usd: kilogramsPerUnit={mass_unit} is not 1.0: the rigid-body path converts no masses; "
                      f"author the stage in kg and set kilogramsPerUnit to 1.0", stacklevel=2)
    if not math.isclose(linear_unit, 1.0):
        warnings.warn(f"add_usd: metersPerUnit={linear_unit} is not 1.0: the rigid-body path converts no lengths; "
                      f"author the stage in m and set metersPerUnit to 1.0", stacklevel=2)

    stage_up = str(UsdGeom.GetStageUpAxis(stage)).upper()
    record["up_axis"] = stage_up
    builder_up = "XYZ"[builder.up_axis]
    if apply_up_axis_from_stage and stage_up != builder_up:
        g = float(np.linalg.norm(builder.gravity))
        builder.up_axis = stage_up.lower()
        builder.gravity = tuple(-g * np.array(_AXES[stage_up]))
        builder_up = stage_up
    root = (np.zeros(3), _up_turn(stage_up, builder_up))
    if xform is not None:
        x = np.asarray(xform, dtype=float).ravel()
        root = _compose((x[:3], x[3:7] / np.linalg.norm(x[3:7])), root)

    cache = UsdGeom.XformCache()

    def world(prim):
        t = Gf.Transform(cache.GetLocalToWorldTransform(prim))
        p = np.array(t.GetTranslation(), dtype=float)
        q = _quat_xyzw(t.GetRotation().GetQuat())
        return _compose(root, (p, q)), np.array(t.GetScale(), dtype=float)

    prims = [p for p in Usd.PrimRange(stage.GetPrimAtPath(root_path))]
    bodies = [p for p in prims if p.HasAPI(UsdPhysics.RigidBodyAPI)]
    joints = [p for p in prims if p.IsA(UsdPhysics.Joint)]
    jointed = set()
    for j in joints:
        for rel in (UsdPhysics.Joint(j).GetBody0Rel(), UsdPhysics.Joint(j).GetBody1Rel()):
            jointed.update(str(t) for t in rel.GetTargets())

    for prim in bodies:
        X, _ = world(prim)
        kw = dict(xform=np.concatenate(X), label=str(prim.GetPath()))
        mass_api = UsdPhysics.MassAPI(prim)
        if prim.HasAPI(UsdPhysics.MassAPI) and mass_api.GetMassAttr().HasAuthoredValue():
            kw["mass"] = float(mass_api.GetMassAttr().Get())
        free = str(prim.GetPath()) not in jointed and floating is not False
        record["path_body_map"][str(prim.GetPath())] = (builder.add_body if free else builder.add_link)(**kw)

    def owner(prim):
        p = prim
        while p and p.GetPath() != p.GetPath().absoluteRootPath:
            if str(p.GetPath()) in record["path_body_map"]:
                return p, record["path_body_map"][str(p.GetPath())]
            p = p.GetParent()
        return None, -1

    from . import ShapeConfig
    for prim in prims:
        if not prim.IsA(UsdGeom.Gprim):
            continue
        collides = prim.HasAPI(UsdPhysics.CollisionAPI)
        if not collides and not load_visual_shapes:
            continue
        body_prim, body = owner(prim)
        X, scale = world(prim)
        if body_prim is not None:
            X = _compose(_inverse(world(body_prim)[0]), X)
        cfg = ShapeConfig()
        if collides:
            density = UsdPhysics.MassAPI(prim).GetDensityAttr().Get() if prim.HasAPI(UsdPhysics.MassAPI) else None
            if density:
                cfg.density = float(density)
        else:
            cfg.density, cfg.has_shape_collision = 0.0, False
        path = str(prim.GetPath())
        if prim.IsA(UsdGeom.Cube):
            h = 0.5 * UsdGeom.Cube(prim).GetSizeAttr().Get() * scale
            s = builder.add_shape_box(body, xform=np.concatenate(X), hx=h[0], hy=h[1], hz=h[2], cfg=cfg, label=path)
        elif prim.IsA(UsdGeom.Sphere):
            r = UsdGeom.Sphere(prim).GetRadiusAttr().Get() * float(np.max(scale))
            s = builder.add_shape_sphere(body, xform=np.concatenate(X), radius=r, cfg=cfg, label=path)
        elif prim.IsA(UsdGeom.Capsule) or prim.IsA(UsdGeom.Cylinder):
            g = UsdGeom.Capsule(prim) if prim.IsA(UsdGeom.Capsule) else UsdGeom.Cylinder(prim)
            axis = str(g.GetAxisAttr().Get())
            Xa = (X[0], _qmul(X[1], _axis_turn(axis)))
            r, hh = g.GetRadiusAttr().Get() * float(np.max(scale)), 0.5 * g.GetHeightAttr().Get() * float(np.max(scale))
            add = builder.add_shape_capsule if prim.IsA(UsdGeom.Capsule) else builder.add_shape_cylinder
            s = add(body, xform=np.concatenate(Xa), radius=r, half_height=hh, cfg=cfg, label=path)
        elif collides:
            raise NotImplementedError(f"add_usd: {path}: collider prim type {prim.GetTypeName()} is not imported "
                                      f"(Cube, Sphere, Capsule, Cylinder are)")
        else:
            continue
        record["path_shape_map"][path] = s
        if verbose:
            print(f"add_usd: {path} -> shape {s} ({'collider' if collides else 'visual'})")

    ids = []
    for prim in joints:
        j = UsdPhysics.Joint(prim)
        ends = []
        for rel in (j.GetBody0Rel(), j.GetBody1Rel()):
            t = rel.GetTargets()
            ends.append(record["path_body_map"].get(str(t[0]), -1) if t else -1)

        def local(pos, rot):
            p = np.array(pos.Get() if pos.HasAuthoredValue() else (0, 0, 0), dtype=float)
            q = _quat_xyzw(rot.Get()) if rot.HasAuthoredValue() else np.array([0.0, 0.0, 0.0, 1.0])
            return p, q

        Xp, Xc = local(j.GetLocalPos0Attr(), j.GetLocalRot0Attr()), local(j.GetLocalPos1Attr(), j.GetLocalRot1Attr())
        if ends[0] < 0:
            Xp = _compose(root, Xp)
        kw = dict(parent_xform=np.concatenate(Xp), child_xform=np.concatenate(Xc), label=str(prim.GetPath()))
        if prim.IsA(UsdPhysics.RevoluteJoint):
            jid = builder.add_joint_revolute(ends[0], ends[1], axis=str(UsdPhysics.RevoluteJoint(prim).GetAxisAttr().Get()).lower(), **kw)
        elif prim.IsA(UsdPhysics.PrismaticJoint):
            jid = builder.add_joint_prismatic(ends[0], ends[1], axis=str(UsdPhysics.PrismaticJoint(prim).GetAxisAttr().Get()).lower(), **kw)
        elif prim.IsA(UsdPhysics.SphericalJoint):
            jid = builder.add_joint_ball(ends[0], ends[1], **kw)
        elif prim.IsA(UsdPhysics.FixedJoint):
            jid = builder.add_joint_fixed(ends[0], ends[1], **kw)
        else:
            raise NotImplementedError(f"add_usd: {prim.GetPath()}: joint type {prim.GetTypeName()} is not imported")
        record["path_joint_map"][str(prim.GetPath())] = jid
        ids.append(jid)
    if ids:
        builder.add_articulation(ids)
    return record
