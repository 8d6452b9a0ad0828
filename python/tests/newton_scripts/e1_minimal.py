# The course's E1 minimal example (E1.8-minimal-example, E1.9-example-spec; seed 003 L362-L366), in
# Newton 1.6.1's own API: one free body with an eccentric primitive (the section 3 box, half extents
# (0.10, 0.05, 0.025) m at 1000 kg/m^3, offset 0.1 m so body_com differs from the body origin) and
# the ground; the t = 0 State saved; frames of an ordinary double-buffer XPBD loop with contacts;
# then both buffers restored, Control, Contacts and the solver rebuilt and the clock set to zero, and
# the first frame run again. Prints one line: RESULT {json}.
import json

import warp as wp
import newton

builder = newton.ModelBuilder()
body = builder.add_body(xform=wp.transform(wp.vec3(0.0, 0.0, 0.3), wp.quat_from_axis_angle(wp.vec3(1.0, 0.0, 0.0), 0.2)))
builder.add_shape_box(body, xform=wp.transform(wp.vec3(0.1, 0.0, 0.0), wp.quat_identity()), hx=0.10, hy=0.05, hz=0.025,
                      cfg=newton.ModelBuilder.ShapeConfig(density=1000.0))
builder.add_ground_plane()
model = builder.finalize(device="cpu")

fps, substeps = 60, 4
h = 1.0 / fps / substeps


def run_frames(frames):
    state_0, state_1 = model.state(), model.state()
    state_0.assign(snapshot)
    state_1.assign(snapshot)
    control = model.control()
    pipeline = newton.CollisionPipeline(model)
    contacts = pipeline.contacts()
    solver = newton.solvers.SolverXPBD(model, iterations=4, angular_damping=0.0)
    clock = 0.0
    z = []
    for _ in range(frames):
        for _ in range(substeps):
            pipeline.collide(state_0, contacts)
            state_0.clear_forces()
            solver.step(state_0, state_1, control, contacts, h)
            state_0, state_1 = state_1, state_0
            clock += h
        z.append(float(state_0.body_q.numpy()[body][2]))
    return state_0, clock, z


snapshot = model.state()
first, clock, z = run_frames(30)
again, clock_again, z_again = run_frames(1)
print("RESULT " + json.dumps({
    "body_mass": model.body_mass.numpy().astype(float).tolist(),
    "body_com": model.body_com.numpy().astype(float).ravel().tolist(),
    "body_inertia": model.body_inertia.numpy().astype(float).ravel().tolist(),
    "coord_dof": [int(model.joint_coord_count), int(model.joint_dof_count)],
    "z": z,
    "body_q": first.body_q.numpy().astype(float).ravel().tolist(),
    "clock": clock,
    "first_frame_again": z_again,
    "snapshot_unchanged": snapshot.body_q.numpy().astype(float).ravel().tolist(),
}))
