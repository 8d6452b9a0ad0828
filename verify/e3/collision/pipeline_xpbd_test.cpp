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

namespace {

// A pile of 0.2 m cubes laid out as e3-pile-boxes (bench/peers/scenes/pile.toml: two layers of
// side x side cubes at a pitch of 0.3 m, the upper layer shifted by 0.05 m in x and y, each cube
// 1 mm above the ground or the cube under it; 1000 kg/m^3, mu 0.5, gap 0.01 m, h = 1/600 s,
// 4 iterations), its first cube's centre at (at.x, at.y), stepped 0.5 s (300 steps). Measured from
// the poses: the most kinetic energy and the most mechanical energy (kinetic + m g z) gained over
// the start at any step, and at the end the deepest sink of an upper cube into the one under it
// and of a cube into the ground, and the records between two cubes.
struct PileRun {
  real ke_end = 0;        // [J]
  real gain_max = 0;      // max over steps of E(t) - E(0), E = sum 1/2 m v^2 + 1/2 I w^2 + m g z [J]
  real sink_max = 0;      // [m] upper cube into the cube under it
  real ground_max = 0;    // [m] lowest corner below z = 0
  real energy_scale = 0;  // sum m g (1 mm + 1 mm per layer below): what the start gaps release [J]
  int between = 0;        // records of a cube pair at the end
  int cubes = 0;
};

PileRun settle_pile(vec3 at, int side) {
  const real a = 0.1, pitch = 0.3, shift = 0.05;
  ModelBuilder b(Axis::z, vec3{0, 0, -kG});
  b.rigid_gap = 0.01;
  b.add_ground_plane();
  ShapeConfig cfg;
  cfg.mu = 0.5;
  cfg.mu_torsional = 0;
  cfg.mu_rolling = 0;
  PileRun r;
  for (int layer = 0; layer < 2; ++layer)
    for (int k = 0; k < side * side; ++k) {
      const real sh = layer ? shift : 0;
      const vec3 p{at.x + (k % side) * pitch + sh, at.y + (k / side) * pitch + sh, real(0.101) + layer * real(0.201)};
      b.add_shape_box(b.add_body({p, quat_identity()}), transform_identity(), a, a, a, cfg);
    }
  Model m = b.finalize();
  r.cubes = m.body_count;
  CollisionPipeline pipeline(m);
  Contacts contacts(m, pipeline.rigid_contact_max());
  SolverXPBD solver(m, 4);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  const std::vector<real> mass = m.body_mass.to_host();
  // E = sum 1/2 m |v|^2 + 1/2 I |w|^2 + m g z, cube I = 2/3 m a^2 (in double)
  auto energy = [&](const State& st, double* kinetic) {
    const std::vector<transform> X = st.body_q.to_host();
    const std::vector<spatial_vector> qd = st.body_qd.to_host();
    double ke = 0, pe = 0;
    for (int i = 0; i < m.body_count; ++i) {
      ke += 0.5 * mass[i] * (dot(qd[i].lin, qd[i].lin) + 2.0 / 3 * a * a * dot(qd[i].ang, qd[i].ang));
      pe += double(mass[i]) * kG * double(X[i].p.z);
    }
    if (kinetic) *kinetic = ke;
    return ke + pe;
  };
  const double e0 = energy(s0, nullptr);
  for (int i = 0; i < m.body_count; ++i) r.energy_scale += mass[i] * kG * real(i < side * side ? 0.001 : 0.002);
  const real h = 1.0 / 600;
  for (int i = 0; i < 300; ++i) {
    pipeline.collide(s0.body_q.view(), contacts);
    fill_contact_materials(m, SolverPath::xpbd, contacts);
    ContactsView v = contacts.view();
    solver.step(s0, s1, c, &v, h);
    std::swap(s0, s1);
    double ke = 0;
    r.gain_max = std::max(r.gain_max, real(energy(s0, &ke) - e0));
    r.ke_end = real(ke);
  }
  const std::vector<transform> X = s0.body_q.to_host();
  auto lowest = [&](int i) {  // lowest / highest corner height of cube i [m]
    real lo = 1e9, hi = -1e9;
    for (int k = 0; k < 8; ++k) {
      const real z = transform_point(X[i], {(k & 1) ? a : -a, (k & 2) ? a : -a, (k & 4) ? a : -a}).z;
      lo = std::min(lo, z), hi = std::max(hi, z);
    }
    return std::pair<real, real>{lo, hi};
  };
  for (int i = 0; i < m.body_count; ++i) {
    r.ground_max = std::max(r.ground_max, -lowest(i).first);
    if (i >= side * side) r.sink_max = std::max(r.sink_max, lowest(i - side * side).second - lowest(i).first);
  }
  const std::vector<int> s0s = contacts.rigid_contact_shape0.to_host(), s1s = contacts.rigid_contact_shape1.to_host();
  const std::vector<int> body = m.shape_body.to_host();
  for (int i = 0; i < contacts.checked_count(); ++i)
    if (body[s0s[i]] >= 0 && body[s1s[i]] >= 0) ++r.between;
  return r;
}

}  // namespace

// Two 0.2 m cubes stacked as the two-body e3-pile-boxes settle in 0.5 s: at rest, the upper cube on
// the lower one's face by four contacts. Analytic bounds: a cube of 8 kg at rest has no kinetic
// energy, and 4 iterations leave a sink of well under a millimetre (double: ~1e-4 m). In float32
// this pair blew up (KE ~5e4 J) when GJK read the sinking faces as separated (collision/geometry.h,
// gjk_distance's overlap threshold).
TEST(E3_2_xpbd_activation, SimTwoStackedCubesSettleOnFourContactsAndDoNotSink) {
  const PileRun r = settle_pile({0, 0, 0}, 1);
  EXPECT_LT(r.ke_end, 1e-3);
  EXPECT_LT(r.sink_max, 1e-3);  // sink of the upper cube into the lower [m]
  EXPECT_LT(r.ground_max, 1e-3);
  EXPECT_EQ(r.between, 4);
}

// The same pile, 4 x 4 cubes a layer, wherever it lies in a 30 m scene (the 10^4-cube e3-pile-boxes
// spans 21 m by 21 m): issue 26, where float32 reached 2e4 J and 14-29 mm of overlap there and not
// at the origin. The bounds are physical, not fitted: a pile that only falls and rubs gains no
// mechanical energy (kinetic + potential) over its start beyond what the solver's push out of a
// sink may add, m g sink per cube with sink below the 1 mm asserted; its kinetic energy can never
// exceed the potential energy its start gaps release (sum m g 1 or 2 mm, energy_scale), and at rest
// after 0.5 s it is a hundredth of that. Every contact between two cubes is a face on a face
// (4 records a pair, 16 pairs). In float32 before the narrow phase worked in the pair's frame
// (collide_shape_pair), the normals of the nearly touching faces tilted by rounding / distance and
// the pile at (21, 21) m gained 4.9e3 J (at (-30, 30) m 3.7e4 J) with cubes sunk 0.17 m and 3.5 m;
// at the origin and at (7, 7) m it passed.
TEST(E3_2_xpbd_activation, SimBoxPileSettlesWhereverItLiesInA30mScene) {
  for (vec3 at : {vec3{0, 0, 0}, vec3{7, 7, 0}, vec3{21, 21, 0}, vec3{30, -12, 0}, vec3{-30, 30, 0}}) {
    SCOPED_TRACE(testing::Message() << "pile at " << at.x << ", " << at.y << " m");
    const PileRun r = settle_pile(at, 4);
    ASSERT_EQ(r.cubes, 32);
    EXPECT_LT(r.gain_max, real(r.cubes) * 8 * kG * real(1e-3));  // m g 1 mm per cube of 8 kg
    EXPECT_LT(r.ke_end, real(0.01) * r.energy_scale);
    EXPECT_LT(r.sink_max, 1e-3);
    EXPECT_LT(r.ground_max, 1e-3);
    EXPECT_EQ(r.between, 4 * 16);
  }
}
