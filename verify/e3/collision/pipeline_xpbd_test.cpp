// The whole chain on an E1 Model: CollisionPipeline(model)::collide -> Contacts ->
// fill_contact_materials -> SolverXPBD::step -> update_contacts.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>
#include <cstring>

#include "e1/integrator.h"
#include "e1/model.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/contacts/contact_materials.h"
#include "e3/solvers/xpbd/solver_xpbd.h"
#include "support/generators.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

constexpr real kG = 9.81;

// A 1 kg box (half extents 0.1, 0.05, 0.025 m at 1000 kg/m^3, the course's E1 §3 box) above the ground.
struct BoxOnGround {
  Model model;
  explicit BoxOnGround(real z) : model(build(z)) {}
  static Model build(real z) {
    ModelBuilder b;
    b.add_ground_plane();
    int body = b.add_body({vec3{0, 0, z}, quat_identity()});
    b.add_shape_box(body, transform_identity(), 0.1, 0.05, 0.025);
    return b.finalize();
  }
};

// Total vertical force of the ground on the box from a readback record (force is body1's on body0).
real box_support_force(const Contacts& c, const Model& m) {
  std::vector<int> s0 = c.rigid_contact_shape0.to_host(), body = m.shape_body.to_host();
  std::vector<spatial_vector> f = c.force.to_host();
  real total = 0;
  for (int i = 0; i < c.checked_count(); ++i) total += body[s0[i]] >= 0 ? f[i].lin.z : -f[i].lin.z;
  return total;
}

}  // namespace

TEST(E3_2_xpbd_activation, SimRestingBoxIsHeldAndTheReadbackCarriesItsWeight) {
  BoxOnGround s(0.2);
  CollisionPipeline pipeline(s.model);
  Contacts contacts(s.model, pipeline.rigid_contact_max(), /*request_force=*/true);
  SolverXPBD solver(s.model, 4);
  State s0 = s.model.state(), s1 = s.model.state();
  Control c = s.model.control();
  const real h = 1.0 / 240;
  real support = 0;
  int contact_rows = 0;
  for (int i = 0; i < 480; ++i) {  // 2 s: fall 0.175 m, settle
    pipeline.collide(s0.body_q.view(), contacts);
    fill_contact_materials(s.model, SolverPath::xpbd, contacts);
    ContactsView v = contacts.view();
    solver.step(s0, s1, c, &v, h);
    solver.update_contacts(v);
    support = box_support_force(contacts, s.model);
    contact_rows = contacts.checked_count();
    std::swap(s0, s1);
  }
  transform X = s0.body_q.to_host()[0];
  spatial_vector qd = s0.body_qd.to_host()[0];
  real m = s.model.body_mass.to_host()[0];
  EXPECT_NEAR(m, 1.0, 1e-12);
  EXPECT_NEAR(X.p.z, 0.025, 2e-3);          // resting on its face: the COM at hz above the ground
  EXPECT_LT(length(qd.lin), 1e-2);          // at rest
  EXPECT_GE(contact_rows, 4);               // a face contact, reduced to a bounded manifold
  EXPECT_NEAR(support, m * kG, 0.02 * m * kG);  // sum F_z = m g (one side counted: scale 1/N)
}

// A record inside the gap (0 <= d <= gap0 + gap1) gets no XPBD normal correction: the sphere falls
// exactly as the bare predictor says; with penetration the correction is positive.
TEST(E3_2_xpbd_activation, SimRecordInsideTheGapDoesNotPush) {
  ModelBuilder b;
  b.add_ground_plane();
  int body = b.add_body({vec3{0, 0, 0.15}, quat_identity()});
  b.add_shape_sphere(body, transform_identity(), 0.1);
  Model m = b.finalize();
  CollisionPipeline pipeline(m);  // default gap 0.1 m per shape
  Contacts contacts(m, pipeline.rigid_contact_max(), true);
  State s0 = m.state(), s1 = m.state(), p1 = m.state();
  Control c = m.control();
  pipeline.collide(s0.body_q.view(), contacts);
  fill_contact_materials(m, SolverPath::xpbd, contacts);
  ASSERT_EQ(contacts.checked_count(), 1);  // d = 0.05 m: separated, but inside the gap
  ContactsView v = contacts.view();
  SolverXPBD solver(m);
  solver.step(s0, s1, c, &v, 0.01);
  SolverRigidPredictor(m).step(s0, p1, c, 0.01);
  EXPECT_EQ(s1.body_q.to_host()[0].p.z, p1.body_q.to_host()[0].p.z);
  EXPECT_EQ(solver.contact_impulse().to_host()[0].lin.z, 0.0);

  std::vector<transform> sunk{{vec3{0, 0, 0.09}, quat_identity()}};  // 1 cm of penetration
  s0.body_q.copy_from_host(sunk.data());
  pipeline.collide(s0.body_q.view(), contacts);
  fill_contact_materials(m, SolverPath::xpbd, contacts);
  v = contacts.view();
  solver.step(s0, s1, c, &v, 0.01);
  SolverRigidPredictor(m).step(s0, p1, c, 0.01);
  EXPECT_NE(solver.contact_impulse().to_host()[0].lin.z, 0.0);
  EXPECT_GT(s1.body_q.to_host()[0].p.z, p1.body_q.to_host()[0].p.z + 1e-3);  // pushed out of the ground
}

// E1.1-contacts-sample / E1.7-sample-phase: contacts are a sample of the state they were collided
// on. They match that state's geometry, a step does not change them, and the post-step state needs
// its own collide.
TEST(E1_1_contacts_sample, ContactsDescribeTheCollidedStateNotTheStepped) {
  BoxOnGround s(0.0);  // the box starts 2.5 cm into the ground
  CollisionPipeline pipeline(s.model);
  Contacts contacts(s.model, pipeline.rigid_contact_max(), true);
  State s0 = s.model.state(), s1 = s.model.state();
  Control c = s.model.control();
  pipeline.collide(s0.body_q.view(), contacts);
  fill_contact_materials(s.model, SolverPath::xpbd, contacts);
  auto normals_before = contacts.rigid_contact_normal.to_host();
  auto points_before = contacts.rigid_contact_point0.to_host();
  int n_before = contacts.checked_count();
  ContactsView v = contacts.view();
  SolverXPBD(s.model).step(s0, s1, c, &v, 0.01);
  // the record still describes state_in (E1.7-sample-phase) ...
  EXPECT_EQ(contacts.checked_count(), n_before);
  auto normals_after = contacts.rigid_contact_normal.to_host();
  auto points_after = contacts.rigid_contact_point0.to_host();
  for (int i = 0; i < n_before; ++i) {
    EXPECT_EQ(std::memcmp(&normals_before[i], &normals_after[i], sizeof(vec3)), 0);
    EXPECT_EQ(std::memcmp(&points_before[i], &points_after[i], sizeof(vec3)), 0);
  }
  // ... whose geometry it matches: the box's bottom face is 2.5 cm below the ground in state_in.
  ContactGeometrySnapshot snap = snapshot_contact_geometry(s.model, s0.body_q.view(), contacts);
  ASSERT_EQ(snap.count, n_before);
  for (real d : snap.distance_m) EXPECT_NEAR(d, -0.025, 1e-9);
  // the stepped state has moved: the old record's rows no longer describe it.
  ContactGeometrySnapshot after = snapshot_contact_geometry(s.model, s1.body_q.view(), contacts);
  EXPECT_GT(after.distance_m[0], snap.distance_m[0] + 1e-4);
}

TEST(E1_7_sample_phase, CollideAgainForPostStepGeometry) {
  BoxOnGround s(0.0);
  CollisionPipeline pipeline(s.model);
  Contacts in(s.model, pipeline.rigid_contact_max(), true), out(s.model, pipeline.rigid_contact_max());
  State s0 = s.model.state(), s1 = s.model.state();
  Control c = s.model.control();
  pipeline.collide(s0.body_q.view(), in);
  fill_contact_materials(s.model, SolverPath::xpbd, in);
  ContactsView v = in.view();
  SolverXPBD solver(s.model);
  solver.step(s0, s1, c, &v, 0.01);
  solver.update_contacts(v);  // the solve's forces come from the solver's observation interface
  pipeline.collide(s1.body_q.view(), out);
  ContactGeometrySnapshot a = snapshot_contact_geometry(s.model, s0.body_q.view(), in);
  ContactGeometrySnapshot b = snapshot_contact_geometry(s.model, s1.body_q.view(), out);
  ASSERT_FALSE(b.distance_m.empty());
  EXPECT_NE(a.distance_m[0], b.distance_m[0]);  // pre-step and post-step samples are different phases
  EXPECT_GT(std::abs(in.force.to_host()[0].lin.z), 0.0);
}

// E3.1-local-linearization: orientations are integrated by the quaternion map, never by adding
// h omega to quaternion components, so they stay unit for any omega and h.
RC_GTEST_PROP(E3_1_local_linearization, QuaternionUpdateStaysUnit, ()) {
  quat q = *gen::unit_quat();
  vec3 w = *gen::vector(50);
  real h = *gen::in_range(1e-4, 0.05);
  for (int k = 0; k < 20; ++k) q = quat_update(q, w, h);
  RC_ASSERT(std::abs(quat_norm(q) - 1) < 1e-12);
}

// Two 0.2 m cubes stacked as the two-body e3-pile-boxes (bench/peers/scenes/pile.toml: 1 mm above
// the ground and apart, the upper one overhanging by 0.05 m, gap 0.01 m, mu 0.5, h = 1/600 s,
// 4 iterations) settle in 0.5 s: at rest, the upper cube on the lower one's face by four contacts.
// Analytic bounds: a cube of 8 kg at rest has no kinetic energy, and 4 iterations leave a sink of
// well under a millimetre (double: ~1e-4 m). In float32 this pair blew up (KE ~5e4 J) when GJK read
// the sinking faces as separated (collision/geometry.h, gjk_distance's overlap threshold).
TEST(E3_2_xpbd_activation, SimTwoStackedCubesSettleOnFourContactsAndDoNotSink) {
  ModelBuilder b(Axis::z, vec3{0, 0, -kG});
  b.rigid_gap = 0.01;
  b.add_ground_plane();
  ShapeConfig cfg;
  cfg.mu = 0.5;
  cfg.mu_torsional = 0;
  cfg.mu_rolling = 0;
  const int lower = b.add_body({vec3{0, 0, 0.101}, quat_identity()});
  b.add_shape_box(lower, transform_identity(), 0.1, 0.1, 0.1, cfg);
  const int upper = b.add_body({vec3{0.05, 0.05, 0.302}, quat_identity()});
  b.add_shape_box(upper, transform_identity(), 0.1, 0.1, 0.1, cfg);
  Model m = b.finalize();
  CollisionPipeline pipeline(m);
  Contacts contacts(m, pipeline.rigid_contact_max());
  SolverXPBD solver(m, 4);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  const real h = 1.0 / 600;
  for (int i = 0; i < 300; ++i) {
    pipeline.collide(s0.body_q.view(), contacts);
    fill_contact_materials(m, SolverPath::xpbd, contacts);
    ContactsView v = contacts.view();
    solver.step(s0, s1, c, &v, h);
    std::swap(s0, s1);
  }
  const std::vector<transform> X = s0.body_q.to_host();
  const std::vector<spatial_vector> qd = s0.body_qd.to_host();
  const std::vector<real> mass = m.body_mass.to_host();
  real ke = 0;  // 1/2 m |v|^2 + 1/2 I |w|^2, cube I = 2/3 m a^2
  for (int i = 0; i < 2; ++i)
    ke += real(0.5) * mass[i] * (dot(qd[i].lin, qd[i].lin) + real(2.0 / 3 * 0.01) * dot(qd[i].ang, qd[i].ang));
  real lower_top = -1e9, upper_bottom = 1e9;  // over the eight corners of each cube [m]
  for (int k = 0; k < 8; ++k) {
    const vec3 corner{(k & 1) ? 0.1 : -0.1, (k & 2) ? 0.1 : -0.1, (k & 4) ? 0.1 : -0.1};
    lower_top = std::max(lower_top, transform_point(X[lower], corner).z);
    upper_bottom = std::min(upper_bottom, transform_point(X[upper], corner).z);
  }
  const std::vector<int> s0s = contacts.rigid_contact_shape0.to_host(), s1s = contacts.rigid_contact_shape1.to_host();
  const std::vector<int> body = m.shape_body.to_host();
  int between = 0;  // records of the cube pair
  for (int i = 0; i < contacts.checked_count(); ++i)
    if (body[s0s[i]] >= 0 && body[s1s[i]] >= 0) ++between;
  EXPECT_LT(ke, 1e-3);
  EXPECT_LT(lower_top - upper_bottom, 1e-3);   // sink of the upper cube into the lower [m]
  EXPECT_NEAR(X[upper].p.z, 0.3, 2e-3);        // resting on the lower cube's face
  EXPECT_EQ(between, 4);
}
