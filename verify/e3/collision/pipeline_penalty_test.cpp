// The penalty solvers on the real collision pipeline: ModelBuilder -> Model -> CollisionPipeline::
// collide -> Contacts -> fill_contact_materials (lib/e3/contacts/contact_materials.h) -> SolverSemiImplicit /
// SolverFeatherstone / SolverVBD::step, checked against the penalty law's rest depth and against
// the analytic ground fixture on the same scene.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "core/device.h"
#include "e1/model.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/contacts/contact_materials.h"
#include "course/e3/penalty_contact_fixture.h"
#include "e3/solvers/generalized/solver_featherstone.h"
#include "e3/solvers/padmm/solver_padmm.h"
#include "course/e3/solver_fixture_scenes.h"
#include "e3/solvers/penalty/solver_semi_implicit.h"
#include "e3/solvers/vbd/vbd_rigid.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

constexpr real kG = 9.81;
constexpr real kHalf = 0.1;  // [m] half extent of the 1 kg cube

enum class Kind { semi_implicit, featherstone, vbd };

const char* kind_name(Kind k) {
  return k == Kind::semi_implicit ? "SemiImplicit" : k == Kind::featherstone ? "Featherstone" : "VBD";
}

// One step function per solver, with the contact view it is given.
std::function<void(State&, State&, const Control&, const ContactsView*, real)> make_stepper(Kind k,
                                                                                                   const Model& m) {
  if (k == Kind::semi_implicit) {
    auto s = std::make_shared<SolverSemiImplicit>(m);
    return [s](State& a, State& b, const Control& c, const ContactsView* v, real h) { s->step(a, b, c, v, h); };
  }
  if (k == Kind::featherstone) {
    auto s = std::make_shared<SolverFeatherstone>(m);
    return [s](State& a, State& b, const Control& c, const ContactsView* v, real h) { s->step(a, b, c, v, h); };
  }
  auto s = std::make_shared<SolverVBD>(m);
  return [s](State& a, State& b, const Control& c, const ContactsView* v, real h) { s->step(a, b, c, v, h); };
}

struct Rest {
  real z = 0;           // [m] COM height at the end
  real speed = 0;       // [m/s] COM speed at the end
  int penetrating = 0;  // rows with a negative gap at the end
};

// A 1 kg cube released 5 mm above the ground, stepped for 1.5 s with contacts from the pipeline
// (or, with fixture = true, from the analytic ground fixture), shape material: Newton's defaults.
Rest drop_cube(Kind k, bool fixture, real h, Device d = Device::cpu) {
  Model m = ground_box_model(1, {kHalf, kHalf, kHalf}, {0, 0, kHalf + 0.005}, d);
  CollisionPipeline pipeline(m);
  Contacts contacts = pipeline.contacts();
  const SolverPath path = k == Kind::vbd ? SolverPath::vbd : SolverPath::semi_implicit;
  const ShapeConfig mat;  // the defaults ground_box_model gave both shapes (Newton's ShapeConfig)
  GroundContactFixture fx(m.device, 16, 0.01, PenaltyMaterial{mat.ke, mat.kd, mat.kf, mat.ka, mat.mu});
  auto step = make_stepper(k, m);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  const int n = int(1.5 / h);
  for (int i = 0; i < n; ++i) {
    ContactsView v;
    if (fixture) {
      fx.generate(m, s0);
      v = fx.view();
    } else {
      pipeline.collide(s0.body_q.view(), contacts);
      fill_contact_materials(m, path, contacts);
      v = contacts.view();
    }
    step(s0, s1, c, &v, h);
    std::swap(s0, s1);
  }
  Rest r;
  transform X = s0.body_q.to_host()[0];
  r.z = X.p.z;
  r.speed = length(s0.body_qd.to_host()[0].lin);
  if (!fixture) {
    pipeline.collide(s0.body_q.view(), contacts);
    ContactGeometrySnapshot g = snapshot_contact_geometry(m, s0.body_q.view(), contacts);
    for (real d : g.distance_m) r.penetrating += d < 0;
  }
  return r;
}

}  // namespace

// Through the real pipeline a resting cube sinks to the penalty law's depth: n penetrating corner
// rows share the weight, each a spring ke d (damping and friction vanish at rest), so
// d = m g / (n ke) = 9.81 / (4 x 2500) = 0.981 mm with Newton's default ke = 2.5e3 N/m on both
// shapes. VBD reaches the same depth with its material k (the multiplier history restores it).
// The fixture path (closed-form corner contacts) lands at the same height.
TEST(E3_6_shared_penalty_kernel, SimCubeRestsAtPenaltyDepthThroughThePipeline) {
  for (Kind k : {Kind::semi_implicit, Kind::featherstone, Kind::vbd}) {
    const real h = k == Kind::vbd ? 1e-2 : 1e-3;
    Rest pipe = drop_cube(k, false, h), fix = drop_cube(k, true, h);
    ASSERT_EQ(pipe.penetrating, 4) << kind_name(k);
    const real depth = 1 * kG / (pipe.penetrating * ShapeMaterial{}.ke);
    EXPECT_NEAR(kHalf - pipe.z, depth, 0.01 * depth) << kind_name(k);
    EXPECT_LT(pipe.speed, 1e-4) << kind_name(k);
    EXPECT_NEAR(pipe.z, fix.z, 1e-7) << kind_name(k);
  }
}

// The record's per-row material: penalty_mix with the record's per-contact overrides (0 = unset)
// on the SemiImplicit/Featherstone path, vbd_mix without overrides on the VBD path.
TEST(E3_3_penalty_mix, SimPipelineRowsTakeTheMixAndTheOverrides) {
  // The ground (shape 0) and the box (shape 1) with materials of their own, from the builder.
  ModelBuilder b;
  ShapeConfig ground, box;
  ground.ke = 1e3;
  ground.mu = 0.25;
  box.ke = 3e3;
  box.mu = 1.0;
  b.add_shape_plane(-1, transform_identity(), 0, 0, ground);
  const int body = b.add_body({vec3{0, 0, kHalf - 0.001}, quat_identity()});
  b.add_shape_box(body, transform_identity(), kHalf, kHalf, kHalf, box);
  Model m = b.finalize();
  CollisionPipeline pipeline(m);
  Contacts contacts = pipeline.contacts();
  pipeline.collide(m.body_q.view(), contacts);
  const int n = contacts.checked_count();
  ASSERT_GE(n, 2);
  std::vector<real> stiffness = contacts.rigid_contact_stiffness.to_host();
  stiffness[0] = 7e3;  // a per-contact override on row 0 only
  contacts.rigid_contact_stiffness.copy_from_host(stiffness.data());
  fill_contact_materials(m, SolverPath::semi_implicit, contacts);
  auto ke_p = contacts.rigid_contact_ke.to_host(), mu_p = contacts.rigid_contact_mu.to_host();
  fill_contact_materials(m, SolverPath::vbd, contacts);
  auto ke_v = contacts.rigid_contact_ke.to_host(), mu_v = contacts.rigid_contact_mu.to_host();
  EXPECT_EQ(ke_p[0], 7e3);
  EXPECT_EQ(ke_p[1], 2e3);
  EXPECT_EQ(mu_p[1], 0.625);
  EXPECT_EQ(ke_v[0], 2e3);  // VBD ignores the override
  EXPECT_EQ(mu_v[1], 0.5);  // sqrt(0.25 x 1)
  EXPECT_THROW(fill_contact_materials(m, SolverPath::mujoco, contacts), std::invalid_argument);
  Contacts foreign(m.device, pipeline.rigid_contact_max());  // made for no Model
  EXPECT_THROW(fill_contact_materials(m, SolverPath::vbd, foreign), std::invalid_argument);
}

// An overflowed record is filled up to its capacity and refused by every penalty solver before it
// reads rows that were never written.
TEST(E3_2_overflow_policy, PenaltySolversRefuseAnOverflowedRecord) {
  Model m = ground_box_model(1, {kHalf, kHalf, kHalf}, {0, 0, kHalf - 0.001});
  CollisionPipeline pipeline(m);
  Contacts small(m, 2);
  pipeline.collide(m.body_q.view(), small);
  ASSERT_TRUE(small.overflowed());
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  for (Kind k : {Kind::semi_implicit, Kind::featherstone, Kind::vbd}) {
    fill_contact_materials(m, k == Kind::vbd ? SolverPath::vbd : SolverPath::semi_implicit, small);
    ContactsView v = small.view();
    EXPECT_THROW(make_stepper(k, m)(s0, s1, c, &v, 1e-3), std::invalid_argument) << kind_name(k);
  }
  ContactsView v = small.view();
  SolverPADMM padmm(m);
  EXPECT_THROW(padmm.step(s0, s1, c, &v, 1e-3), std::invalid_argument);
}

// The one record knows the Model it was made for; every solver refuses a record of another Model
// (SolverXPBD's refusal is checked with its other bad input, solver_xpbd_test.cpp).
TEST(ContactsView, PenaltySolversRefuseAForeignRecord) {
  Model m = ground_box_model(1, {kHalf, kHalf, kHalf}, {0, 0, kHalf - 0.001});
  Model other = ground_box_model(1, {kHalf, kHalf, kHalf}, {0, 0, kHalf - 0.001});
  CollisionPipeline pipeline(other);
  Contacts foreign = pipeline.contacts();
  pipeline.collide(other.body_q.view(), foreign);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  for (Kind k : {Kind::semi_implicit, Kind::featherstone, Kind::vbd}) {
    fill_contact_materials(other, k == Kind::vbd ? SolverPath::vbd : SolverPath::semi_implicit, foreign);
    ContactsView v = foreign.view();
    EXPECT_THROW(make_stepper(k, m)(s0, s1, c, &v, 1e-3), std::invalid_argument) << kind_name(k);
    State o0 = other.state(), o1 = other.state();
    Control oc = other.control();
    make_stepper(k, other)(o0, o1, oc, &v, 1e-3);  // the Model it was made for takes it
  }
  ContactsView v = foreign.view();
  SolverPADMM padmm(m);
  EXPECT_THROW(padmm.step(s0, s1, c, &v, 1e-3), std::invalid_argument);
}


// The pipeline route on the GPU (collide, fill_contact_materials, SolverSemiImplicit) ends
// where the CPU route ends, within rounding (skips without a GPU).
TEST(E3_6_shared_penalty_kernel, GpuPipelineRouteMatchesCpu) {
  if (!cuda_built() || cuda_device_count() == 0) GTEST_SKIP() << "no CUDA GPU in this build/machine";
  Rest cpu = drop_cube(Kind::semi_implicit, false, 1e-3), gpu = drop_cube(Kind::semi_implicit, false, 1e-3, Device::cuda);
  EXPECT_NEAR(cpu.z, gpu.z, 1e-10);
  EXPECT_EQ(cpu.penetrating, gpu.penetrating);
}
