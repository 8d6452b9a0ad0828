# A double pendulum in Newton 1.6.1's own API (course E1 §2, §5: add_link, add_joint_revolute,
# add_articulation, eval_fk / eval_ik; E3 §6 Featherstone): two 0.3 m links on revolute joints about
# y, released from joint angles (0.4, -0.3) rad through eval_fk, stepped in generalized coordinates,
# then eval_ik read back. Prints one line: RESULT {json}.
import json

import numpy as np
import warp as wp
import newton

L = 0.3
builder = newton.ModelBuilder()
link = []
for i in range(2):
    b = builder.add_link(xform=wp.transform(wp.vec3((2 * i + 1) * L / 2, 0.0, 1.0), wp.quat_identity()))
    builder.add_shape_capsule(b, xform=wp.transform(wp.vec3(0.0, 0.0, 0.0), wp.quat_from_axis_angle(wp.vec3(0.0, 1.0, 0.0), 1.5707963267948966)),
                              radius=0.02, half_height=L / 2 - 0.02)
    link.append(b)
j0 = builder.add_joint_revolute(-1, link[0], parent_xform=wp.transform(wp.vec3(0.0, 0.0, 1.0), wp.quat_identity()),
                                child_xform=wp.transform(wp.vec3(-L / 2, 0.0, 0.0), wp.quat_identity()), axis=wp.vec3(0.0, 1.0, 0.0))
j1 = builder.add_joint_revolute(link[0], link[1], parent_xform=wp.transform(wp.vec3(L / 2, 0.0, 0.0), wp.quat_identity()),
                                child_xform=wp.transform(wp.vec3(-L / 2, 0.0, 0.0), wp.quat_identity()), axis=wp.vec3(0.0, 1.0, 0.0))
builder.add_articulation([j0, j1])
model = builder.finalize(device="cpu")

state_0, state_1 = model.state(), model.state()
q0 = np.array([0.4, -0.3])
state_0.joint_q.assign(q0)
state_0.joint_qd.assign(np.zeros(2))
newton.eval_fk(model, state_0.joint_q, state_0.joint_qd, state_0)
fk_body_q = state_0.body_q.numpy().astype(float).ravel().tolist()

control = model.control()
solver = newton.solvers.SolverFeatherstone(model)
h = 1e-3
tip_z, angles = [], []
for _ in range(400):
    state_0.clear_forces()
    solver.step(state_0, state_1, control, None, h)
    state_0, state_1 = state_1, state_0
    tip_z.append(float(state_0.body_q.numpy()[link[1]][2]))
    angles.append(state_0.joint_q.numpy().astype(float).tolist())

iq = wp.zeros(model.joint_coord_count, dtype=wp.float32, device="cpu")
iqd = wp.zeros(model.joint_dof_count, dtype=wp.float32, device="cpu")
newton.eval_ik(model, state_0, iq, iqd)
print("RESULT " + json.dumps({
    "fk_body_q": fk_body_q,
    "link_z": tip_z,
    "joint_q": [a for qs in angles for a in qs],
    "ik_joint_q": iq.numpy().astype(float).tolist(),
    "ik_joint_qd": iqd.numpy().astype(float).tolist(),
    "body_mass": model.body_mass.numpy().astype(float).tolist(),
}))
