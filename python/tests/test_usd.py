"""ModelBuilder.add_usd on stages the tests write with OpenUSD (pxr, PyPI usd-core): the course's
E1.4 USD rules (seed 003 L175-L189; inventory E1.4-importer-table, E1.4-usd-units, E1.11-ex7).
Skipped, saying why, where usd-core is not installed (./run python's venv has it)."""
import warnings

import numpy as np
import pytest

import impulse

pxr = pytest.importorskip("pxr", reason="OpenUSD's Python package (usd-core) is not installed; ./run build puts it in build/venv")
from pxr import Gf, Usd, UsdGeom, UsdPhysics  # noqa: E402


def stage_with_box(tmp_path, *, meters_per_unit=None, up="Z", pos=(0.0, 0.0, 1.0), visual_sphere=False):
    path = str(tmp_path / "scene.usda")
    stage = Usd.Stage.CreateNew(path)
    UsdGeom.SetStageUpAxis(stage, up)
    if meters_per_unit is not None:
        UsdGeom.SetStageMetersPerUnit(stage, meters_per_unit)
    body = UsdGeom.Xform.Define(stage, "/box")
    body.AddTranslateOp().Set(Gf.Vec3d(*pos))
    UsdPhysics.RigidBodyAPI.Apply(body.GetPrim())
    cube = UsdGeom.Cube.Define(stage, "/box/collider")
    cube.GetSizeAttr().Set(0.2)            # edge 0.2: half extent 0.1
    UsdPhysics.CollisionAPI.Apply(cube.GetPrim())
    if visual_sphere:
        UsdGeom.Sphere.Define(stage, "/box/look").GetRadiusAttr().Set(0.3)
    stage.GetRootLayer().Save()
    return path


def test_E1_4_usd_units_warn_and_convert_nothing(tmp_path):
    # E1.4-usd-units / E1.11-ex7: a centimetre stage imports with a warning naming the value, and the
    # final shape and mass fields show that nothing was converted (not the return value).
    b = impulse.ModelBuilder()
    with pytest.warns(UserWarning, match=r"metersPerUnit=0\.01 is not 1\.0"):
        rec = b.add_usd(stage_with_box(tmp_path, meters_per_unit=0.01))
    assert rec["linear_unit"] == pytest.approx(0.01) and rec["mass_unit"] == 1.0
    assert b.shape_scale[rec["path_shape_map"]["/box/collider"]] == pytest.approx([0.1, 0.1, 0.1])
    model = b.finalize()
    assert model.body_mass.numpy()[0] == pytest.approx(1000.0 * 0.2 ** 3)   # 8 kg of authored metres, as authored
    with warnings.catch_warnings():
        warnings.simplefilter("error")        # a metre stage imports without any warning
        impulse.ModelBuilder().add_usd(stage_with_box(tmp_path / ".." / tmp_path.name, meters_per_unit=1.0))


def test_E1_4_usd_collision_against_visual_prims(tmp_path):
    src = stage_with_box(tmp_path, visual_sphere=True)
    b = impulse.ModelBuilder()
    rec = b.add_usd(src)
    collider, look = rec["path_shape_map"]["/box/collider"], rec["path_shape_map"]["/box/look"]
    assert b.shape_flags[collider] & 2 and not b.shape_flags[look] & 2   # COLLIDE_SHAPES on the collider only
    assert b.finalize().body_mass.numpy()[0] == pytest.approx(8.0)        # the visual sphere adds no mass
    b2 = impulse.ModelBuilder()
    rec2 = b2.add_usd(src, load_visual_shapes=False)
    assert list(rec2["path_shape_map"]) == ["/box/collider"] and b2.shape_count == 1


def test_E1_4_usd_up_axis_rotated_or_applied(tmp_path):
    src = stage_with_box(tmp_path, up="Y", pos=(0.0, 1.0, 0.0))
    b = impulse.ModelBuilder()                       # Z-up: the Y-up stage is turned onto it
    rec = b.add_usd(src)
    assert rec["up_axis"] == "Y"
    q = b.finalize().body_q.numpy()[0]
    assert q[:3] == pytest.approx([0.0, 0.0, 1.0], abs=1e-12)
    b2 = impulse.ModelBuilder()
    b2.add_usd(src, apply_up_axis_from_stage=True)   # the stage's axis becomes the builder's
    assert b2.up_axis == 1 and b2.gravity == pytest.approx([0.0, -9.81, 0.0])
    assert b2.finalize().body_q.numpy()[0][:3] == pytest.approx([0.0, 1.0, 0.0], abs=1e-12)


def test_E1_4_usd_revolute_joint_and_path_record(tmp_path):
    path = str(tmp_path / "hinge.usda")
    stage = Usd.Stage.CreateNew(path)
    UsdGeom.SetStageUpAxis(stage, "Z")
    link = UsdGeom.Xform.Define(stage, "/arm")
    link.AddTranslateOp().Set(Gf.Vec3d(0.5, 0.0, 1.0))
    UsdPhysics.RigidBodyAPI.Apply(link.GetPrim())
    UsdPhysics.CollisionAPI.Apply(UsdGeom.Sphere.Define(stage, "/arm/bob").GetPrim())
    UsdGeom.Sphere(stage.GetPrimAtPath("/arm/bob")).GetRadiusAttr().Set(0.05)
    hinge = UsdPhysics.RevoluteJoint.Define(stage, "/hinge")
    hinge.GetBody1Rel().SetTargets(["/arm"])
    hinge.GetAxisAttr().Set("Y")
    hinge.GetLocalPos0Attr().Set(Gf.Vec3f(0.0, 0.0, 1.0))
    hinge.GetLocalPos1Attr().Set(Gf.Vec3f(-0.5, 0.0, 0.0))
    stage.GetRootLayer().Save()
    b = impulse.ModelBuilder()
    rec = b.add_usd(path)
    assert rec["path_body_map"] == {"/arm": 0} and rec["path_joint_map"] == {"/hinge": 0}
    model = b.finalize()
    assert model.joint_type.numpy().tolist() == [int(impulse.JointType.REVOLUTE)]
    assert (model.joint_coord_count, model.joint_dof_count) == (1, 1)
    assert model.body_mass.numpy()[0] == pytest.approx(1000.0 * 4.0 / 3.0 * np.pi * 0.05 ** 3)
