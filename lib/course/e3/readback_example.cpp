#include "course/e3/readback_example.h"

#include "e1/model.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/contacts/contact_materials.h"
#include "e3/observe/sensor_contact.h"
#include "e3/solvers/xpbd/solver_xpbd.h"

namespace impulse {

ReadbackObservation run_readback_example(const ReadbackExampleOptions& o) {
  ReadbackObservation obs;
  ModelBuilder b;
  ShapeConfig ground;
  ground.mu = o.mu;
  b.add_ground_plane(0, ground);
  ShapeConfig cfg;
  cfg.density = o.density;
  cfg.mu = o.mu;
  int body = b.add_body({vec3{0, 0, o.radius}, quat_identity()});
  b.add_shape_sphere(body, transform_identity(), o.radius, cfg);
  Model m = b.finalize();
  CollisionPipelineOptions po;
  po.rigid_contact_max = o.rigid_contact_max;
  CollisionPipeline pipeline(m, po);

  // 1. the force attribute is requested before the record exists (the sensor does it)
  ContactAttributes attributes;
  SensorContact sensor(m, attributes, {body});
  obs.stages.push_back("request");
  // 2. the record, sized explicitly, with force storage because it was requested
  Contacts contacts(m, pipeline.rigid_contact_max(), attributes.force);
  obs.stages.push_back("create");
  State s0 = m.state(), s1 = m.state();
  Control control = m.control();
  SolverXPBD solver(m, o.iterations);
  solver.enable_restitution = false;
  // 3. collide on the input state, 4. refuse an incomplete record before solving
  pipeline.collide(s0.body_q.view(), contacts);
  fill_contact_materials(m, SolverPath::xpbd, contacts);
  obs.stages.push_back("collide");
  obs.count = contacts.checked_count();
  obs.stages.push_back("overflow-check");
  // 5. one step, 6. the readback of that step
  ContactsView v = contacts.view();
  solver.step(s0, s1, control, &v, o.dt);
  obs.stages.push_back("step");
  solver.update_contacts(v);
  sensor.update(v, s1);
  obs.stages.push_back("update");
  // 7. copy everything out before anything collides again
  std::vector<spatial_vector> f = contacts.force.to_host();
  obs.force.assign(f.begin(), f.begin() + obs.count);
  obs.sensor_net_force_N = sensor.net_force[0];
  obs.geometry = snapshot_contact_geometry(m, s0.body_q.view(), contacts);
  obs.mass_kg = m.body_mass.to_host()[0];
  obs.dt_s = o.dt;
  obs.t_s = o.dt;
  obs.stages.push_back("copy");
  return obs;
}

}  // namespace impulse
