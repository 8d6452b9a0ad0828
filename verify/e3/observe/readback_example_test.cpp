// E3 §7-§9: the minimal readback example, the geometry snapshot and its mixed sampling, the frozen
// contact kinematics, and the tables that tie the readback caveats together.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include "course/registry.h"
#include "e1/model.h"
#include "e1/spatial_shift.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/contacts/contact_materials.h"
#include "course/e3/readback_example.h"
#include "e3/solvers/xpbd/solver_xpbd.h"
#include "support/generators.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

constexpr real kG = 9.81;

struct TwoSpheres {  // two spheres resting on the ground, apart from each other
  Model model;
  TwoSpheres() : model(build()) {}
  static Model build() {
    ModelBuilder b;
    b.add_ground_plane();
    for (int i = 0; i < 2; ++i) {
      int body = b.add_body({vec3{real(i), 0, 0.09}, quat_identity()});  // 1 cm into the ground
      b.add_shape_sphere(body, transform_identity(), 0.1);
    }
    return b.finalize();
  }
};

}  // namespace

// The order of the example, and what its single step reads: a touching sphere (d = 0) is pulled
// g h^2 into the ground by the prediction, and each of the k iterations removes the fraction
// relaxation of what is left, so the readback is (1 - (1 - 0.8)^k) m g, not m g. Scope: one
// contact whose lever arm is parallel to the normal (a sphere on a plane, r x n = 0, w = 1/m); a box
// on four corners reads back about 0.24 m g after one step at k = 2 (verify/parity,
// xpbd-box-single-step-readback, in impulse and in Newton 1.6.1).
TEST(E3_9_readback_example_contract, SimOrderAndSingleStepReadback) {
  for (int k = 1; k <= 3; ++k) {
    ReadbackExampleOptions o;
    o.iterations = k;
    ReadbackObservation r = run_readback_example(o);
    std::vector<std::string> order{"request", "create", "collide", "overflow-check", "step", "update", "copy"};
    EXPECT_EQ(r.stages, order);
    ASSERT_EQ(r.count, 1);
    EXPECT_DOUBLE_EQ(r.dt_s, o.dt);
    EXPECT_DOUBLE_EQ(r.t_s, o.dt);  // the observation belongs to the end of the step
    real expected = (1 - std::pow(1 - 0.8, k)) * r.mass_kg * kG;
    EXPECT_NEAR(-r.force[0].lin.z, expected, 1e-9 * expected) << k;  // body1 (sphere) on body0 (ground)
    EXPECT_NEAR(r.sensor_net_force_N.z, expected, 1e-9 * expected);  // the sensor's sign is the sphere's
    EXPECT_EQ(r.geometry.distance_m[0], 0.0);                        // the record samples the input state
  }
}

TEST(E3_9_snapshot_function, GoldenLengthsDistancesAndOverflow) {
  TwoSpheres s;
  CollisionPipeline pipeline(s.model);
  Contacts c(s.model.device, pipeline.rigid_contact_max());
  State st = s.model.state();
  pipeline.collide(st.body_q.view(), c);
  ContactGeometrySnapshot snap = snapshot_contact_geometry(s.model, st.body_q.view(), c);
  ASSERT_EQ(snap.count, 2);
  EXPECT_EQ(snap.distance_m.size(), 2u);
  EXPECT_EQ(snap.point0_world_m.size(), 2u);
  EXPECT_EQ(snap.point1_world_m.size(), 2u);
  EXPECT_EQ(snap.normal_world.size(), 2u);
  for (real d : snap.distance_m) EXPECT_NEAR(d, -0.01, 1e-12);  // the gap function d of E3.2
  // a record too small for the scene overflows, and the snapshot refuses it
  CollisionPipelineOptions small;
  small.rigid_contact_max = 1;
  CollisionPipeline p1(s.model, small);
  Contacts tiny(s.model.device, 1);
  p1.collide(st.body_q.view(), tiny);
  EXPECT_THROW(snapshot_contact_geometry(s.model, st.body_q.view(), tiny), std::runtime_error);
}

// distance comes from the State passed in, normals and the set from the last collide.
RC_GTEST_PROP(E3_9_mixed_sampling, MovingABodyChangesDistanceNotNormalsOrCount, ()) {
  TwoSpheres s;
  CollisionPipeline pipeline(s.model);
  Contacts c(s.model.device, pipeline.rigid_contact_max());
  State st = s.model.state();
  pipeline.collide(st.body_q.view(), c);
  ContactGeometrySnapshot before = snapshot_contact_geometry(s.model, st.body_q.view(), c);
  std::vector<transform> q = st.body_q.to_host();
  vec3 move = *gen::vector(0.05);
  q[0].p += move;
  Buffer<transform> moved(Device::cpu, q);
  ContactGeometrySnapshot after = snapshot_contact_geometry(s.model, moved.view(), c);
  RC_ASSERT(after.count == before.count);
  for (int i = 0; i < before.count; ++i) RC_ASSERT(tol::near(after.normal_world[i], before.normal_world[i], 0.0));
  RC_PRE(std::abs(move.z) > 1e-4);
  RC_ASSERT(std::abs(after.distance_m[0] - before.distance_m[0]) > 0 ||
            std::abs(after.distance_m[1] - before.distance_m[1]) > 0);
}

// With the set and normals frozen, the distance is an affine function of each body's translation:
// its finite-difference gradient is +n for the body of side 1 and -n for the body of side 0.
RC_GTEST_PROP(E3_7_kinematics_gradient, FrozenNormalGradientMatchesFiniteDifference, ()) {
  TwoSpheres s;
  CollisionPipeline pipeline(s.model);
  Contacts c(s.model.device, pipeline.rigid_contact_max());
  State st = s.model.state();
  pipeline.collide(st.body_q.view(), c);
  std::vector<transform> q0 = st.body_q.to_host();
  std::vector<int> s0 = c.rigid_contact_shape0.to_host(), s1 = c.rigid_contact_shape1.to_host();
  std::vector<int> shape_body = s.model.shape_body.to_host();
  ContactGeometrySnapshot base = snapshot_contact_geometry(s.model, st.body_q.view(), c);
  int row = *rc::gen::inRange(0, base.count);
  int body = shape_body[s1[row]] >= 0 ? shape_body[s1[row]] : shape_body[s0[row]];
  real sign = shape_body[s1[row]] == body ? 1 : -1;
  vec3 dir = *gen::unit_vector();
  const real eps = 1e-6;
  std::vector<transform> qp = q0, qm = q0;
  qp[body].p += eps * dir;
  qm[body].p -= eps * dir;
  Buffer<transform> bp(Device::cpu, qp), bm(Device::cpu, qm);
  ContactGeometrySnapshot plus = snapshot_contact_geometry(s.model, bp.view(), c);
  ContactGeometrySnapshot minus = snapshot_contact_geometry(s.model, bm.view(), c);
  real fd = (plus.distance_m[row] - minus.distance_m[row]) / (2 * eps);
  RC_ASSERT(std::abs(fd - sign * dot(base.normal_world[row], dir)) < 1e-6);
  RC_ASSERT(plus.count == base.count && minus.count == base.count);  // the set never moves with the pose
}

// The gradient reaches the orientation as well. Turning body b by a small angle theta about a unit
// axis a (through its origin x_b) moves its core point p by theta a x (p - x_b), so with the row's
// normal frozen
//   dd/dtheta = sign * n . (a x (p - x_b))          sign = +1 for side 1, -1 for side 0
// A box resting on the ground has lever arms with horizontal parts, so this is not zero.
RC_GTEST_PROP(E3_7_kinematics_gradient, FrozenNormalRotationGradientMatchesFiniteDifference, ()) {
  ModelBuilder b;
  b.add_ground_plane();
  int box = b.add_body({vec3{0, 0, 0.0249}, quat_identity()});  // 0.1 mm into the ground
  b.add_shape_box(box, transform_identity(), 0.1, 0.05, 0.025);
  Model m = b.finalize();
  CollisionPipeline pipeline(m);
  Contacts c(m.device, pipeline.rigid_contact_max());
  State st = m.state();
  pipeline.collide(st.body_q.view(), c);
  ContactGeometrySnapshot base = snapshot_contact_geometry(m, st.body_q.view(), c);
  RC_ASSERT(base.count >= 4);
  std::vector<int> s1 = c.rigid_contact_shape1.to_host(), shape_body = m.shape_body.to_host();
  std::vector<transform> q0 = st.body_q.to_host();
  int row = *rc::gen::inRange(0, base.count);
  bool on_side1 = shape_body[s1[row]] == box;
  vec3 p = on_side1 ? base.point1_world_m[row] : base.point0_world_m[row];
  vec3 axis = *gen::unit_vector();
  const real eps = 1e-6;
  std::vector<transform> qp = q0, qm = q0;
  qp[box].q = quat_mul(quat_from_axis_angle(axis, eps), q0[box].q);
  qm[box].q = quat_mul(quat_from_axis_angle(axis, -eps), q0[box].q);
  Buffer<transform> bp(Device::cpu, qp), bm(Device::cpu, qm);
  ContactGeometrySnapshot plus = snapshot_contact_geometry(m, bp.view(), c);
  ContactGeometrySnapshot minus = snapshot_contact_geometry(m, bm.view(), c);
  real fd = (plus.distance_m[row] - minus.distance_m[row]) / (2 * eps);
  real analytic = (on_side1 ? 1 : -1) * dot(base.normal_world[row], cross(axis, p - q0[box].p));
  RC_ASSERT(std::abs(fd - analytic) < 1e-6);
  for (int i = 0; i < base.count; ++i) RC_ASSERT(tol::near(plus.normal_world[i], base.normal_world[i], 0.0));
}

// Kamino converts with the COM of the State it is given: a COM shifted by dC changes the torque by
// (-dC) x f, exactly the E3.8 point transfer.
RC_GTEST_PROP(E3_8_kamino_wrench_conversion, ShiftedComChangesTorqueByTheTransfer, ()) {
  vec3 tau_P = *gen::vector(5), P = *gen::vector(2), C = *gen::vector(2), dC = *gen::vector(0.5), f = *gen::vector(20);
  vec3 right = wrench_torque_at_com(tau_P, P, C, f), shifted = wrench_torque_at_com(tau_P, P, C + dC, f);
  RC_ASSERT(tol::near(shifted - right, cross(-dC, f), 1e-9));
}

// The four force objects of §8 are different things: body_f is the user's input and stays as
// given, the contact readback carries the ground's reaction to weight plus that push.
TEST(E3_8_four_objects_table, SimBodyFIsAnInputAndContactsForceTheReaction) {
  ModelBuilder b;
  b.add_ground_plane();
  int body = b.add_body({vec3{0, 0, 0.0249}, quat_identity()});
  b.add_shape_box(body, transform_identity(), 0.1, 0.05, 0.025);
  Model m = b.finalize();
  CollisionPipeline pipeline(m);
  Contacts contacts(m, pipeline.rigid_contact_max(), true);
  SolverXPBD solver(m, 4);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  const spatial_vector push{{0, 0, -5}, {}};  // 5 N down, at the COM
  real support = 0;
  for (int i = 0; i < 600; ++i) {
    std::vector<spatial_vector> f{push};
    s0.body_f.copy_from_host(f.data());
    pipeline.collide(s0.body_q.view(), contacts);
    fill_contact_materials(m, SolverPath::xpbd, contacts);
    ContactsView v = contacts.view();
    solver.step(s0, s1, c, &v, 1.0 / 240);
    solver.update_contacts(v);
    EXPECT_EQ(s0.body_f.to_host()[0].lin.z, -5.0);  // the input was not replaced by a reaction
    support = 0;
    std::vector<spatial_vector> fc = contacts.force.to_host();
    for (int k = 0; k < contacts.checked_count(); ++k) support -= fc[k].lin.z;  // ground is shape0
    std::swap(s0, s1);
  }
  EXPECT_NEAR(support, m.body_mass.to_host()[0] * kG + 5, 0.02 * (kG + 5));
}

// Each row of the §10 pitfalls table is demonstrated by the rules it links; all of them must be
// implemented and tested here.
TEST(E3_10_pitfalls_table, EveryRowsLinkedRuleIsImplemented) {
  const char* linked[] = {"E3.3-xpbd-friction-mix", "E3.2-xpbd-activation",      "E3.3-penalty-mix",
                          "E3.7-h-vs-iterations",   "E3.8-wrench-reaction",      "E3.4-contact-weighting",
                          "E3.5-readback-excludes-restitution", "E3.2-matching-not-warmstart",
                          "E3.7-kinematics-gradient"};
  for (const char* id : linked) {
    const course::Item* it = course::registry().find(id);
    ASSERT_NE(it, nullptr) << id;
    EXPECT_EQ(it->status, course::Status::implemented) << id;
  }
}
