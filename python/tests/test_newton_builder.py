"""Newton 1.6.1's builder from Python (issue 23): names, keyword-only arguments, Warp-like values
as tuples and NumPy arrays, the checks that name the argument, FK/IK, the force-column request
rule, the importers, and the one-line refusal of a Python the module cannot load in."""
import math
import pathlib
import subprocess

import numpy as np
import pytest

import impulse
import impulse as newton
from impulse import wp

PACKAGE = pathlib.Path(impulse.__file__).resolve().parent.parent


def test_E1_2_builder_takes_newton_keywords_and_warp_like_values():
    b = newton.ModelBuilder()
    body = b.add_body(xform=wp.transform(wp.vec3(0, 0, 1), wp.quat_identity()), mass=0.5,
                      com=(0.0, 0.0, 0.1), inertia=np.eye(3) * 1e-3, label="base")
    with pytest.raises(TypeError):
        b.add_body((0, 0, 1, 0, 0, 0, 1))               # keyword-only, as Newton's
    b.add_shape_box(body, hx=0.1, hy=0.05, hz=0.025)  # 1 kg at 1000 kg/m^3 (course E1 §3)
    b.add_shape_capsule(-1, xform=np.array([1.0, 0, 0, 0, 0, 0, 1]), radius=0.05, half_height=0.2)
    b.add_shape_cylinder(-1, xform=[2.0, 0, 0, 0, 0, 0, 1], radius=0.05, half_height=0.2)
    m = b.finalize(device="cpu")
    assert m.body_mass.numpy()[0] == pytest.approx(1.5)
    # explicit COM (0, 0, 0.1) with 0.5 kg and the box's 1 kg at the origin: c = 0.05 / 1.5
    assert m.body_com.numpy()[0] == pytest.approx([0.0, 0.0, 0.05 / 1.5])
    assert m.body_label == ["base"]
    assert (m.joint_coord_count, m.joint_dof_count) == (7, 6)       # the FREE joint add_body makes
    with pytest.raises(ValueError, match="finalize: device must be 'cpu'"):
        b.finalize(device="cuda:0")


def test_E3_3_shape_config_fields_reach_the_model_per_shape():
    b = newton.ModelBuilder()
    cfg = newton.ModelBuilder.ShapeConfig(mu=0.3, ke=1e4, kd=50.0, restitution=0.2, margin=0.001, gap=0.02,
                                          collision_group=3, is_static=True)
    s = b.add_shape_sphere(-1, radius=0.1, cfg=cfg)
    g = b.add_ground_plane(cfg=newton.ModelBuilder.ShapeConfig(mu=0.9))
    m = b.finalize()
    assert m.shape_material_mu.numpy()[[s, g]].tolist() == pytest.approx([0.3, 0.9])
    assert (m.shape_material_ke.numpy()[s], m.shape_material_kd.numpy()[s]) == (1e4, 50.0)
    assert m.shape_material_restitution.numpy()[s] == pytest.approx(0.2)
    assert (m.shape_margin.numpy()[s], m.shape_gap.numpy()[s]) == pytest.approx((0.001, 0.02))
    assert m.shape_collision_group.numpy()[s] == 3
    with pytest.raises(ValueError, match="ShapeConfig: no field 'friction'"):
        newton.ModelBuilder.ShapeConfig(friction=0.5)
    assert not m.shape_material_mu.numpy().flags.writeable     # a finalized Model is read-only


def test_E1_2_plane_from_its_equation():
    b = newton.ModelBuilder()
    s = b.add_shape_plane((0.0, 1.0, 0.0, -2.0), width=0.0, length=0.0)  # y = 2, normal +y
    X = b.finalize().shape_transform.numpy()[s]
    assert X[:3] == pytest.approx([0.0, 2.0, 0.0])
    assert wp.quat_rotate(X[3:], (0, 0, 1)) == pytest.approx([0.0, 1.0, 0.0])


def test_E1_5_joints_eval_fk_and_eval_ik_round_trip():
    b = newton.ModelBuilder()
    a = b.add_link(xform=wp.transform((0.25, 0, 1), wp.quat_identity()))
    c = b.add_link(xform=wp.transform((0.75, 0, 1), wp.quat_identity()))
    d = b.add_link()
    for link in (a, c, d):
        b.add_shape_sphere(link, radius=0.05)
    j0 = b.add_joint_revolute(-1, a, parent_xform=wp.transform((0, 0, 1), wp.quat_identity()),
                              child_xform=wp.transform((-0.25, 0, 0), wp.quat_identity()), axis=newton.Axis.Y)
    j1 = b.add_joint_prismatic(a, c, parent_xform=wp.transform((0.25, 0, 0), wp.quat_identity()),
                               child_xform=wp.transform((-0.25, 0, 0), wp.quat_identity()), axis="x")
    j2 = b.add_joint_d6(c, d, linear_axes=[newton.ModelBuilder.JointDofConfig(axis=(0, 0, 1))],
                        angular_axes=[newton.ModelBuilder.JointDofConfig(axis=wp.vec3(1, 0, 0))])
    b.add_articulation([j0, j1, j2])
    m = b.finalize()
    assert m.joint_type.numpy().tolist() == [newton.JointType.REVOLUTE, newton.JointType.PRISMATIC, newton.JointType.D6]
    assert (m.joint_coord_count, m.joint_dof_count) == (4, 4)
    s = m.state()
    q, qd = np.array([0.3, 0.1, 0.05, -0.2]), np.array([0.5, -0.2, 0.1, 0.4])
    newton.eval_fk(m, q, qd, s)
    # the first link's origin: the hinge at (0, 0, 1), 0.25 m along x turned 0.3 rad about y
    assert s.body_q.numpy()[a][:3] == pytest.approx([0.25 * math.cos(0.3), 0.0, 1.0 - 0.25 * math.sin(0.3)])
    iq, iqd = wp.zeros(4), wp.zeros(4)
    newton.eval_ik(m, s, iq, iqd)
    assert iq.numpy() == pytest.approx(q, abs=1e-12) and iqd.numpy() == pytest.approx(qd, abs=1e-12)


def test_E1_2_joint_features_the_engine_lacks_are_refused_not_ignored():
    b = newton.ModelBuilder()
    a = b.add_link()
    with pytest.raises(NotImplementedError, match=r"JointDofConfig.limit_lower=-1.0: impulse's joints have no limit_lower"):
        b.add_joint_revolute(-1, a, axis=newton.ModelBuilder.JointDofConfig(axis=(0, 1, 0), limit_lower=-1.0))
    with pytest.raises(TypeError):
        b.add_joint_revolute(-1, a, axis=(0, 1, 0), target_ke=100.0)
    with pytest.raises(NotImplementedError, match="collision_filter_parent=False"):
        b.add_joint_ball(-1, a, collision_filter_parent=False)
    with pytest.raises(ValueError, match=r"add_joint_revolute: child must be in \[0, 1\), got 4"):
        b.add_joint_revolute(-1, 4, axis=(0, 1, 0))
    with pytest.raises(ValueError, match=r"add_joint_revolute: axis must be 'x', 'y', 'z' or 3 numbers, got 'q'"):
        b.add_joint_revolute(-1, a, axis="q")
    with pytest.raises(ValueError, match=r"parent_xform must be 7 numbers .*got 3"):
        b.add_joint_fixed(-1, a, parent_xform=(0, 0, 1))


def test_E3_8_sensor_made_after_the_record_finds_no_force_column():
    # E3.8-sensor-order: the sensor requests the force column; a record made before it has none.
    def scene():
        b = newton.ModelBuilder()
        body = b.add_body(xform=(0, 0, 0.02, 0, 0, 0, 1))
        b.add_shape_box(body, hx=0.1, hy=0.05, hz=0.025)
        b.add_ground_plane()
        return b.finalize(), body

    m, body = scene()
    pipe = newton.CollisionPipeline(m)
    early = pipe.contacts()
    sensor = newton.sensors.SensorContact(m, sensing_bodies=[body])
    late = pipe.contacts()
    solver = newton.solvers.SolverXPBD(m, iterations=4)
    s0, s1, c = m.state(), m.state(), m.control()
    pipe.collide(s0, late)
    solver.step(s0, s1, c, late, 1 / 240)
    solver.update_contacts(late)
    sensor.update(s1, late)
    assert sensor.total_force.numpy()[0][2] > 0
    with pytest.raises(ValueError, match="contacts has no force column"):
        solver.update_contacts(early)
    assert late.rigid_contact_count.numpy()[0] == int(late.rigid_contact_count) > 0


URDF = """<robot name="r"><link name="base"><inertial><origin xyz="0.1 0 0"/><mass value="1"/>
<inertia ixx="0.00104167" iyy="0.00354167" izz="0.00416667" ixy="0" ixz="0" iyz="0"/></inertial></link></robot>"""


def test_E1_4_add_urdf_and_add_mjcf_from_python():
    # E1.4-explicit-inertial-scale: explicit mass unchanged, COM x scale, inertia x scale^2
    b = newton.ModelBuilder()
    b.add_urdf(URDF, scale=2.0)
    m = b.finalize()
    assert m.body_mass.numpy()[0] == pytest.approx(1.0)
    assert m.body_com.numpy()[0] == pytest.approx([0.2, 0.0, 0.0])
    assert m.body_inertia.numpy()[0][0, 0] == pytest.approx(4 * 0.00104167)
    b = newton.ModelBuilder()
    b.add_mjcf('<mujoco><worldbody><body pos="0 0 1"><freejoint/><geom type="sphere" size="0.1"/></body></worldbody></mujoco>')
    m = b.finalize()
    assert m.body_mass.numpy()[0] == pytest.approx(1000 * 4 / 3 * math.pi * 0.1 ** 3)
    with pytest.raises(ValueError, match="add_urdf: source must be a readable file or the document's text"):
        newton.ModelBuilder().add_urdf("no_such_robot.urdf")


def test_E1_7_state_assign_copies_and_control_has_joint_f():
    b = newton.ModelBuilder()
    b.add_shape_sphere(b.add_body(xform=(0, 0, 1, 0, 0, 0, 1)), radius=0.1)
    m = b.finalize()
    s0, snap = m.state(), m.state()
    snap.assign(s0)
    s0.body_q[0, 2] = 5.0
    assert snap.body_q.numpy()[0, 2] == 1.0              # a copy, not another name for the buffer
    saved = wp.clone(s0.body_q)
    s0.body_q.assign(np.zeros((1, 7)))
    assert saved[0, 2] == 5.0
    assert m.control().joint_f.numpy().shape == (6,)


def test_cone_is_bound_exactly_when_the_engine_has_one():
    if not hasattr(newton.ModelBuilder, "add_shape_cone"):
        pytest.skip("the engine's ModelBuilder has no add_shape_cone yet (lib/e1/model.*); builder.cpp binds it when it does")
    b = newton.ModelBuilder()
    b.add_shape_cone(b.add_body(), radius=0.1, half_height=0.2)
    # m = rho pi r^2 (2 h) / 3
    assert b.finalize().body_mass.numpy()[0] == pytest.approx(1000 * math.pi * 0.01 * 0.4 / 3)


def _one_line(python, env_path):
    p = subprocess.run([python, "-c", "import impulse"], capture_output=True, text=True,
                       env={"PYTHONPATH": str(env_path), "PATH": "/usr/bin:/bin"})
    return p.returncode, p.stderr


@pytest.mark.parametrize("python", ["/root/.pyenv/versions/3.12.1/bin/python3", "/root/.pyenv/versions/3.11.7/bin/python3"])
def test_import_from_another_python_is_one_line(python):
    # 3.12: built for 3.11; pyenv's 3.11: no NumPy. Either way one line saying what to run.
    if not pathlib.Path(python).exists():
        pytest.skip(f"{python} is not on this machine")
    rc, err = _one_line(python, PACKAGE)
    if rc == 0:
        pytest.skip(f"{python} can load impulse here (same version, with NumPy)")
    assert len(err.strip().splitlines()) == 1, err
    assert "./run python" in err and ("built for Python" in err or "needs NumPy" in err)


def test_E3_2_static_mesh_from_newton_mesh_collides():
    # newton.Mesh(vertices, indices) on body -1: a 2 m square of two triangles at z = 0; a sphere of
    # radius 0.1 m resting 1 mm into it gives contact rows on the mesh shape.
    b = newton.ModelBuilder()
    square = newton.Mesh([(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0)], [0, 1, 2, 0, 2, 3])
    mesh = b.add_shape_mesh(-1, mesh=square)
    ball = b.add_body(xform=(0.2, 0.1, 0.099, 0, 0, 0, 1))
    b.add_shape_sphere(ball, radius=0.1)
    m = b.finalize()
    assert m.shape_type.numpy()[mesh] == 6                      # MESH, collided triangle by triangle
    pipe = newton.CollisionPipeline(m)
    contacts = pipe.contacts()
    pipe.collide(m.state(), contacts)
    n = contacts.rigid_contact_count
    assert n > 0 and set(contacts.rigid_contact_shape0.numpy()[:n]) | set(contacts.rigid_contact_shape1.numpy()[:n]) == {0, 1}
    with pytest.raises(ValueError, match="Mesh: indices must be 3 per triangle, got 4"):
        newton.Mesh([(0, 0, 0)], [0, 1, 2, 3])


def test_E1_2_gravity_scalar_times_up_axis_or_vector_as_given():
    # course E1 §2 (seed 003 L87): explicit gravity is not tied to the up axis; Newton's scalar is
    # gravity times the up vector
    assert newton.ModelBuilder("y", -9.81).finalize().gravity == pytest.approx([0.0, -9.81, 0.0])
    assert newton.ModelBuilder(up_axis=newton.Axis.X).finalize().gravity == pytest.approx([-9.81, 0.0, 0.0])
    assert newton.ModelBuilder(gravity=(1.0, 2.0, 3.0)).finalize().gravity == pytest.approx([1.0, 2.0, 3.0])
