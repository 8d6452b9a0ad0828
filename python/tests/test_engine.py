"""The engine with Newton's names, from Python: ModelBuilder -> finalize -> CollisionPipeline ->
SolverXPBD.step -> update_contacts, checked against analytic results and against the C++ scene
that runs the same chain (e3-box-drop)."""
import numpy as np
import pytest

import impulse

G = 9.81  # [m/s^2] ModelBuilder's default gravity


def _box_on_ground(z0):
    # The course's 1 kg box (E1 §3): half extents 0.1 x 0.05 x 0.025 m at 1000 kg/m^3.
    b = impulse.ModelBuilder()
    b.add_ground_plane()
    body = b.add_body(xform=(0, 0, z0, 0, 0, 0, 1))
    b.add_shape_box(body, hx=0.1, hy=0.05, hz=0.025)
    return b.finalize()


def _settle(model, solver, steps, h=1e-3, request_force=False):
    # collide -> step -> swap, the loop of E3 §9, for steps steps of h [s]; returns the last State
    # and the Contacts record of the last collide.
    pipeline = impulse.CollisionPipeline(model)
    contacts = pipeline.contacts(request_force=request_force)
    s0, s1, c = model.state(), model.state(), model.control()
    for _ in range(steps):
        pipeline.collide(s0, contacts)
        solver.step(s0, s1, c, contacts, h)
        s0, s1 = s1, s0
    return s0, contacts


def test_E1_3_box_mass_through_model_arrays():
    model = _box_on_ground(0.2)
    # E1 §3: m = 8 rho hx hy hz = 8 * 1000 * 0.1 * 0.05 * 0.025 = 1 kg; I_zz = m (hx^2 + hy^2) / 3
    assert model.body_mass[0] == pytest.approx(1.0, rel=1e-12)
    assert model.body_inertia[0, 2, 2] == pytest.approx((0.1**2 + 0.05**2) / 3, rel=1e-12)
    with pytest.raises(ValueError):
        model.body_mass[0] = 2.0  # Model arrays are read-only views


def test_E1_10_free_fall_matches_semi_implicit_euler():
    # No contacts: v_k = -g k h, z_k = z0 - g h^2 k (k + 1) / 2 (velocity first, then position).
    b = impulse.ModelBuilder()
    body = b.add_body(xform=(0, 0, 10.0, 0, 0, 0, 1))
    b.add_shape_sphere(body, radius=0.1)
    model = b.finalize()
    s0, s1, c = model.state(), model.state(), model.control()
    solver = impulse.solvers.SolverXPBD(model, iterations=2)
    h, n = 0.01, 50
    for _ in range(n):
        solver.step(s0, s1, c, None, h)
        s0, s1 = s1, s0
    assert s0.body_q[0, 2] == pytest.approx(10.0 - G * h * h * n * (n + 1) / 2, abs=1e-12)
    assert s0.body_qd[0, 2] == pytest.approx(-G * h * n, abs=1e-12)


def _drop(model, h, steps, iterations=4, **solver_options):
    model.request_contact_attributes("force")  # Newton's rule: before the record is made (E3.8)
    pipeline = impulse.CollisionPipeline(model)
    contacts = pipeline.contacts()
    solver = impulse.SolverXPBD(model, iterations=iterations, **solver_options)
    s0, s1, c = model.state(), model.state(), model.control()
    shape_body = model.shape_body
    rows = []
    for k in range(steps):
        pipeline.collide(s0, contacts)
        solver.step(s0, s1, c, contacts, h)
        solver.update_contacts(contacts)
        n = contacts.rigid_contact_count
        f = contacts.force[:n, 2]
        sign = np.where(shape_body[contacts.rigid_contact_shape0[:n]] >= 0, 1.0, -1.0)
        s0, s1 = s1, s0
        rows.append(((k + 1) * h, s0.body_q[0, 2], float(np.sum(sign * f))))
    return np.array(rows)


def test_E3_8_update_contacts_support_equals_weight_at_rest():
    # Statics: a box at rest on the ground is held by sum F_z = m g (E3 §8 readback).
    rows = _drop(_box_on_ground(0.2), 1 / 240, 360)
    assert rows[-1, 2] == pytest.approx(1.0 * G, rel=1e-3)
    assert rows[-1, 1] == pytest.approx(0.025, abs=2e-3)  # resting on its half height hz


def test_xpbd_gauss_seidel_warm_start_holds_the_box_and_reads_back_its_weight():
    # impulse's extension: contact rows by colour with impulses carried over (xpbd_contact_delta_accumulated).
    # At rest the carried impulse is the weight's: sum F_z = m g to rounding, not to a tolerance of
    # the solve, and the box does not sink (its COM at hz = 0.025 m).
    rows = _drop(_box_on_ground(0.2), 1 / 240, 360, iterations=2, rigid_contact_gauss_seidel=True,
                 contact_warm_start=True)
    assert rows[-1, 2] == pytest.approx(1.0 * G, rel=1e-9)
    assert rows[-1, 1] == pytest.approx(0.025, abs=1e-9)
    with pytest.raises(ValueError, match="contact_warm_start needs rigid_contact_gauss_seidel"):
        impulse.SolverXPBD(_box_on_ground(0.2), contact_warm_start=True)


def test_xpbd_manifold_sweeps_hold_the_box_and_are_checked_by_name():
    # impulse's extension: a shape pair's rows solved together (xpbd_manifold_delta). The box rests
    # on its face at its half height and the readback carries its weight (statics, to the 1e-3 the
    # unconverged pass leaves).
    rows = _drop(_box_on_ground(0.2), 1 / 240, 360, iterations=8, rigid_contact_gauss_seidel=True,
                 contact_manifold_sweeps=4)
    assert rows[-1, 2] == pytest.approx(1.0 * G, rel=1e-3)
    assert rows[-1, 1] == pytest.approx(0.025, abs=1e-4)
    with pytest.raises(ValueError, match="contact_manifold_sweeps needs rigid_contact_gauss_seidel"):
        impulse.SolverXPBD(_box_on_ground(0.2), contact_manifold_sweeps=4)
    with pytest.raises(ValueError, match=r"contact_manifold_sweeps must be a whole number in \[0, 64\], got 65"):
        impulse.SolverXPBD(_box_on_ground(0.2), rigid_contact_gauss_seidel=True, contact_manifold_sweeps=65)


def test_xpbd_linearised_pass_holds_the_box_and_is_checked_by_name():
    # impulse's extension: the step's rows linearised once, the box moved once after the iterations
    # (xpbd_linear_row). Warm-started, the box comes to rest at its half height and the readback to
    # its weight; unlike the pass on poses (exact to rounding above), the last of the drop dies out
    # over some steps (with 8 iterations ~2e-9 m above the rest height after 1.5 s, falling ~7 % a
    # step, and the weight to ~1e-6).
    rows = _drop(_box_on_ground(0.2), 1 / 240, 360, iterations=8, rigid_contact_gauss_seidel=True,
                 contact_warm_start=True, contact_linearised=True)
    assert rows[-1, 2] == pytest.approx(1.0 * G, rel=3e-6)
    assert rows[-1, 1] == pytest.approx(0.025, abs=1e-8)
    assert impulse.SolverXPBD(_box_on_ground(0.2), rigid_contact_gauss_seidel=True,
                              contact_linearised=True).contact_linearised
    with pytest.raises(ValueError, match="contact_linearised needs rigid_contact_gauss_seidel"):
        impulse.SolverXPBD(_box_on_ground(0.2), contact_linearised=True)


def test_xpbd_warm_start_scales_carry_a_share_and_are_checked_by_name():
    # contact_warm_start_scale: the share of the last step's impulses a row starts from (as Bullet's
    # m_warmstartingFactor). At 0.5 the rows must find the other half each step from the gap, so the
    # box, which the whole carried impulse holds exactly at its half height, rests a little below it
    # (about 1e-6 m with 4 iterations; at 2 it alternates +-0.4 % about its weight, a 2-cycle), and
    # the readback still carries its weight; the scales read back as set.
    drop = dict(iterations=4, rigid_contact_gauss_seidel=True, contact_warm_start=True)
    full = _drop(_box_on_ground(0.2), 1 / 240, 360, **drop)
    rows = _drop(_box_on_ground(0.2), 1 / 240, 360, contact_warm_start_scale=0.5,
                 contact_warm_start_friction_scale=0.25, **drop)
    assert full[-1, 1] == pytest.approx(0.025, abs=1e-12)
    assert 1e-7 < 0.025 - rows[-1, 1] < 1e-5
    assert rows[-1, 2] == pytest.approx(1.0 * G, rel=1e-6)
    assert rows[-2, 2] == pytest.approx(1.0 * G, rel=1e-6)
    s = impulse.SolverXPBD(_box_on_ground(0.2), contact_warm_start_scale=0.5, contact_warm_start_friction_scale=0.25)
    assert (s.contact_warm_start_scale, s.contact_warm_start_friction_scale) == (0.5, 0.25)
    with pytest.raises(ValueError, match=r"contact_warm_start_scale must be in \[0, 1\], got 1.5"):
        impulse.SolverXPBD(_box_on_ground(0.2), contact_warm_start_scale=1.5)
    with pytest.raises(ValueError, match=r"contact_warm_start_friction_scale must be in \[0, 1\], got -0.1"):
        impulse.SolverXPBD(_box_on_ground(0.2), contact_warm_start_friction_scale=-0.1)


def test_E3_9_python_chain_equals_the_cpp_scene_bitwise():
    # The same chain written twice, in Python here and in C++ in e3-box-drop: identical numbers.
    h = 1 / 240
    ours = _drop(_box_on_ground(0.2), h, 120)
    scene = impulse.run("e3-box-drop", z0=0.2, h=h, duration=120 * h, iterations=4)["e3-box-drop"]
    assert scene.rows == 120
    np.testing.assert_array_equal(ours[:, 1], scene["z_m"])
    np.testing.assert_array_equal(ours[:, 2], scene["support_N"])


def test_E1_2_state_arrays_are_views_not_copies():
    model = _box_on_ground(0.2)
    s = model.state()
    a, b = s.body_q, s.body_q
    assert np.shares_memory(a, b)  # two reads, one buffer
    a[0, 2] = 5.0  # a write through the view reaches the engine
    pipeline = impulse.CollisionPipeline(model)
    contacts = pipeline.contacts()
    pipeline.collide(s, contacts)
    assert contacts.rigid_contact_count == 0  # 5 m up: beyond the 0.1 m gap, no contact
    s.body_q[0, 2] = 0.02
    pipeline.collide(s, contacts)
    assert contacts.rigid_contact_count > 0


def test_E3_2_shape_pairs_max_is_the_broad_phase_capacity():
    # Newton's CollisionPipeline(shape_pairs_max=...): the broad phase's candidate-pair capacity,
    # None to estimate; the box on the ground is one pair, which a capacity of 1 holds.
    model = _box_on_ground(0.02)
    with pytest.raises(ValueError, match=r"shape_pairs_max must be None \(estimate\) or >= 1 \[pairs\], got 0"):
        impulse.CollisionPipeline(model, shape_pairs_max=0)
    pipeline = impulse.CollisionPipeline(model, shape_pairs_max=1)
    contacts = pipeline.contacts()
    s0, s1 = model.state(), model.state()
    pipeline.collide(s0, contacts)
    impulse.SolverXPBD(model).step(s0, s1, model.control(), contacts, 1e-3)
    assert contacts.rigid_contact_count > 0


def test_E1_1_engine_bad_arguments_raise_value_error_naming_them():
    b = impulse.ModelBuilder()
    with pytest.raises(ValueError, match=r"hx must be a finite number > 0 \[m\], got -1"):
        b.add_shape_box(-1, hx=-1.0)
    with pytest.raises(ValueError, match=r"xform must be 7 numbers"):
        b.add_body(xform=(0, 0, 1))
    with pytest.raises(ValueError, match=r"body must be -1 \(world\) or in \[0, 0\), got 3"):
        b.add_shape_sphere(3, radius=0.1)
    with pytest.raises(ValueError, match=r"up_axis must be"):
        impulse.ModelBuilder(up_axis="w")
    body = b.add_body()
    b.add_shape_sphere(body, radius=0.1)
    model = b.finalize()
    with pytest.raises(ValueError, match=r"iterations must be >= 1"):
        impulse.SolverXPBD(model, iterations=0)
    with pytest.raises(ValueError, match=r"ShapeConfig.restitution = 1.5 is outside \[0, 1\]"):
        b.add_shape_sphere(body, radius=0.1, cfg=impulse.ShapeConfig(restitution=1.5))
    solver = impulse.SolverXPBD(model)
    s0, s1 = model.state(), model.state()
    with pytest.raises(ValueError, match=r"dt must be a finite number > 0 \[s\], got 0"):
        solver.step(s0, s1, model.control(), None, 0.0)


def test_E3_6_semi_implicit_penalty_rest_depth_and_no_force_readback():
    # The same chain with the penalty solver of E3 §6. At rest the four corner springs carry m g, so
    # the box sinks by m g / (4 ke) with ke = 2.5e3 N/m (Newton's default). And, as the course says
    # of this solver, it has no per-contact force producer: update_contacts refuses to fill force.
    model = _box_on_ground(0.03)
    solver = impulse.solvers.SolverSemiImplicit(model)
    s0, contacts = _settle(model, solver, 2000)
    assert 0.025 - s0.body_q[0, 2] == pytest.approx(1.0 * G / (4 * 2.5e3), rel=0.05)
    assert abs(s0.body_qd[0, 2]) < 1e-4
    with pytest.raises(NotImplementedError, match="no per-contact force producer"):
        solver.update_contacts(contacts)
    with pytest.raises(ValueError, match=r"friction_smoothing must be a finite number > 0 \[m/s\], got 0"):
        impulse.SolverSemiImplicit(model, friction_smoothing=0.0)


@pytest.mark.parametrize("name", ["SolverFeatherstone", "SolverVBD", "SolverPADMM"])
def test_E3_6_summary_table_every_solver_rests_a_box_through_the_pipeline(name):
    # The other solvers of E3 §6 through the same Newton-named calls: a 0.05 m box dropped from 5 mm
    # above its resting height comes to rest on the ground (centre within 1 mm of 0.025 m, the
    # penalty and compliant sides sink by under 1 mm here) and stays upright.
    model = _box_on_ground(0.03)
    solver = getattr(impulse.solvers, name)(model)
    s0, contacts = _settle(model, solver, 1500, request_force=True)
    assert s0.body_q[0, 2] == pytest.approx(0.025, abs=1e-3)
    assert np.linalg.norm(s0.body_qd[0]) < 1e-2
    assert abs(s0.body_q[0, 6]) == pytest.approx(1.0, abs=1e-6)  # quaternion w: no tipping
    if name == "SolverPADMM":
        status = solver.status[0]
        assert status.iterations >= 1 and status.r_p >= 0
        assert repr(status).startswith(f"PADMMStatus(converged={status.converged}, iterations={status.iterations}, r_p=")
        solver.update_contacts(contacts, s0)
        total_fz = sum(contacts.force[i, 2] for i in range(contacts.rigid_contact_count))
        assert abs(total_fz) == pytest.approx(1.0 * G, rel=0.05)  # the ground carries m g
    elif name == "SolverVBD":
        with pytest.raises(NotImplementedError, match=r"collect_rigid_contact_forces\(state, contacts, dt\)"):
            solver.update_contacts(contacts)
        # VBD's own readback: the ground carries m g, pushing the box (body1 or body0) up.
        f = solver.collect_rigid_contact_forces(s0, contacts, 1e-3)
        up = sum(fz if b1 == 0 else -fz for b1, fz in zip(f["body1"], f["force_on_body1"][:, 2]))
        assert up == pytest.approx(1.0 * G, rel=0.05)
    else:
        with pytest.raises(NotImplementedError, match="no per-contact force producer"):
            solver.update_contacts(contacts)


def test_E3_6_summary_table_bad_solver_arguments_name_the_argument():
    model = _box_on_ground(0.03)
    with pytest.raises(ValueError, match="update_mass_matrix_interval must be >= 1, got 0"):
        impulse.SolverFeatherstone(model, update_mass_matrix_interval=0)
    with pytest.raises(ValueError, match=r"rho must be a finite number > 0 \[N/m\], got -1"):
        impulse.SolverVBD(model, rho=-1.0)
    with pytest.raises(ValueError, match="max_iterations must be >= 1, got 0"):
        impulse.SolverPADMM(model, max_iterations=0)
    with pytest.raises(ValueError, match=r"dual_tolerance must be a finite number > 0 \[m/s\], got nan"):
        impulse.SolverPADMM(model, dual_tolerance=float("nan"))


def test_E3_8_messages_name_python_calls_and_classes_their_public_names():
    # A record made without its force column: the message names the Python call that makes one,
    # not the C++ request_contact_attributes.
    model = _box_on_ground(0.03)
    solver = impulse.SolverXPBD(model)
    s0, contacts = _settle(model, solver, 5, request_force=False)
    with pytest.raises(ValueError, match=r"pipeline.contacts\(request_force=True\)") as e:
        solver.update_contacts(contacts)
    # the Python calls, not the C++ free function request_contact_attributes(attributes, name)
    assert 'model.request_contact_attributes("force")' in str(e.value)
    assert "request_contact_attributes(attributes" not in str(e.value)
    for cls in (impulse.ModelBuilder, impulse.Model, impulse.State, impulse.SolverXPBD, impulse.SolverVBD,
                impulse.CollisionPipeline, impulse.Contacts, impulse.PADMMStatus):
        assert cls.__module__ == "impulse", cls
    assert "_core" not in impulse.SolverXPBD.step.__doc__


def test_import_from_another_python_names_the_built_version(monkeypatch):
    import sys
    monkeypatch.setattr(sys, "version_info", (3, 99, 0))
    with pytest.raises(ImportError, match=r"built for Python 3\.\d+, this is Python 3\.99 .*-DPython_EXECUTABLE="):
        impulse._check_built_for_this_python()


def test_broadphase_reuse_option_gives_the_same_contacts_and_refuses_a_negative_margin():
    # CollisionPipelineOptions::broad_phase_reuse from Python: a box settling on the ground steps
    # through the same contacts with the reuse on as without it (the C++ suite E3_broadphase_reuse
    # compares the records byte for byte).
    model = _box_on_ground(0.02)
    with pytest.raises(ValueError, match=r"broad_phase_reuse_margin must be >= 0 \[m\], got -0.01"):
        impulse.CollisionPipeline(model, broad_phase_reuse=True, broad_phase_reuse_margin=-0.01)
    counts = []
    for reuse in (False, True):
        pipeline = impulse.CollisionPipeline(model, broad_phase_reuse=reuse, broad_phase_reuse_margin=0.005)
        contacts = pipeline.contacts()
        solver = impulse.SolverXPBD(model)
        s0, s1 = model.state(), model.state()
        run = []
        for _ in range(20):
            pipeline.collide(s0, contacts)
            solver.step(s0, s1, model.control(), contacts, 1e-3)
            run.append(contacts.rigid_contact_count)
            s0, s1 = s1, s0
        counts.append(run)
    assert counts[0] == counts[1] and max(counts[0]) > 0
