# The course's E3 box drop with contact readback (E3.4-xpbd-pn, E3 §8; seed 000), in Newton 1.6.1's
# own API: the section 3 box (1 kg) dropped from 0.2 m onto the ground with ShapeConfig materials,
# XPBD with 4 iterations at 240 Hz; every step collide -> step -> update_contacts, the vertical
# support force read back from contacts.force and through SensorContact (made before the record, so
# the record has its force column: E3.8-sensor-order). Prints one line: RESULT {json}.
import json

import warp as wp
import newton

builder = newton.ModelBuilder()
body = builder.add_body(xform=wp.transform(wp.vec3(0.0, 0.0, 0.2), wp.quat_identity()))
builder.add_shape_box(body, hx=0.1, hy=0.05, hz=0.025, cfg=newton.ModelBuilder.ShapeConfig(mu=0.6, restitution=0.0))
builder.add_ground_plane(cfg=newton.ModelBuilder.ShapeConfig(mu=0.9))
model = builder.finalize(device="cpu")

sensor = newton.sensors.SensorContact(model, sensing_bodies=[body])
pipeline = newton.CollisionPipeline(model)
contacts = pipeline.contacts()
solver = newton.solvers.SolverXPBD(model, iterations=4)
state_0, state_1 = model.state(), model.state()
control = model.control()
h = 1.0 / 240.0
shape_body = model.shape_body.numpy()
z, fz, sensor_fz, count = [], [], [], []
for _ in range(120):
    pipeline.collide(state_0, contacts)
    state_0.clear_forces()
    solver.step(state_0, state_1, control, contacts, h)
    n = int(contacts.rigid_contact_count.numpy()[0])
    f = total = 0.0
    if n > 0:
        solver.update_contacts(contacts)
        force = contacts.force.numpy()[:n]
        s0, s1 = contacts.rigid_contact_shape0.numpy()[:n], contacts.rigid_contact_shape1.numpy()[:n]
        for i in range(n):
            f += force[i][2] if shape_body[s0[i]] == body else 0.0
            f -= force[i][2] if shape_body[s1[i]] == body else 0.0
        sensor.update(state_1, contacts)
        total = float(sensor.total_force.numpy()[0][2])
    state_0, state_1 = state_1, state_0
    z.append(float(state_0.body_q.numpy()[body][2]))
    fz.append(float(f))
    sensor_fz.append(total)
    count.append(n)
print("RESULT " + json.dumps({"z": z, "fz": fz, "sensor_fz": sensor_fz, "contact_count": count,
                              "body_mass": model.body_mass.numpy().astype(float).tolist()}))
