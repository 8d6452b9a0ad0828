// The course's §9 troubleshooting table, one test per row: the wrong way shows the symptom, the right
// way removes it (course E1 §9), plus the §9 minimal example and the §2 units table.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "e1/integrator.h"
#include "e1/kinematics.h"
#include "e1/model.h"
#include "e1/solver_joint.h"
#include "e1/spatial_shift.h"
#include "e1/time_loop.h"
#include "support/generators.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

const transform kI = transform_identity();

Model course_box_model(vec3 shape_offset = {0.1, 0, 0}) {
  ModelBuilder b;
  b.add_ground_plane();
  int body = b.add_body({vec3{0, 0, 1}, quat_identity()}, {}, false, false, "block");
  b.add_shape_box(body, {shape_offset, quat_identity()}, 0.10, 0.05, 0.025);
  return b.finalize();
}

}  // namespace

TEST(E1_9_troubleshooting_table, Row1SizeOff1000TimesFromMillimetresReadAsMetres) {
  ModelBuilder wrong, right;
  int a = wrong.add_body(), b = right.add_body();
  wrong.add_shape_box(a, kI, 100, 50, 25);                  // the file's millimetres taken as metres
  right.add_shape_box(b, kI, 100 * 1e-3, 50 * 1e-3, 25 * 1e-3);  // converted once
  EXPECT_NEAR(wrong.finalize().body_mass.to_host()[0], 1e9, 1);
  EXPECT_NEAR(right.finalize().body_mass.to_host()[0], 1.0, 1e-12);
}

TEST(E1_9_troubleshooting_table, Row2ComAwayFromTheOriginIsTheMassDistribution) {
  Model m = course_box_model();
  EXPECT_VEC3_NEAR(m.body_com.to_host()[0], (vec3{0.1, 0, 0}), 1e-15);  // relative to the body origin
}

TEST(E1_9_troubleshooting_table, Row3MassGrowsWhenAHullIsAddedToAnExplicitMass) {
  for (bool lock : {false, true}) {
    ModelBuilder b;
    int body = b.add_body(kI, {1, {}, mat33_diag({0.00104167, 0.00354167, 0.00416667})}, lock);
    b.add_shape_box(body, kI, 0.10, 0.05, 0.025);  // the collision hull, default density
    EXPECT_NEAR(b.finalize().body_mass.to_host()[0], lock ? 1.0 : 2.0, 1e-12);
  }
}

TEST(E1_9_troubleshooting_table, Row4SettingQDoesNotMoveBodiesUntilFk) {
  Model m = course_box_model();
  State s = m.state();
  std::vector<real> q = s.joint_q.to_host();
  q[0] = 3;
  s.joint_q.copy_from_host(q.data());
  EXPECT_EQ(s.body_q.to_host()[0].p.x, 0);  // generalised q changed, maximal pose not synced
  eval_fk(m, s.joint_q.view(), s.joint_qd.view(), s);
  EXPECT_EQ(s.body_q.to_host()[0].p.x, 3);
}

TEST(E1_9_troubleshooting_table, Row5SlicingQdWithQsIndicesReadsTheWrongDof) {
  ModelBuilder b;
  int base = b.add_link(kI, {1, {}, mat33_identity()}), arm = b.add_link(kI, {1, {}, mat33_identity()});
  int j0 = b.add_joint_free(base);
  int j1 = b.add_joint_revolute(base, arm, kI, kI, {0, 0, 1});
  b.add_articulation({j0, j1});
  Model m = b.finalize();
  std::vector<real> qd(m.joint_dof_count);
  for (int k = 0; k < m.joint_dof_count; ++k) qd[k] = k;  // the hinge's rate is qd[6] = 6
  int q_start = m.joint_q_start.to_host()[j1], qd_start = m.joint_qd_start.to_host()[j1];
  EXPECT_EQ(q_start, 7);
  EXPECT_EQ(qd_start, 6);
  EXPECT_GE(q_start, m.joint_dof_count);  // q's index used on qd runs past its end
  EXPECT_EQ(qd[qd_start], 6);
}

TEST(E1_9_troubleshooting_table, Row6SavedPreviousFrameThatIsAnAlias) {
  Model m = course_box_model();
  SolverRigidPredictor solver(m);
  Control c = m.control();
  State a = m.state(), b = m.state();
  State *s0 = &a, *s1 = &b;
  State* saved = s0;  // "saved = state_0"
  State snapshot = m.state();
  snapshot.assign(*s0);
  for (int i = 0; i < 2; ++i) {
    solver.step(*s0, *s1, c, 0.01);
    std::swap(s0, s1);
  }
  EXPECT_EQ(saved, s0);  // the same object, now holding the newest state
  EXPECT_NE(saved->body_q.to_host()[0].p.z, snapshot.body_q.to_host()[0].p.z);
  EXPECT_EQ(snapshot.body_q.to_host()[0].p.z, 1);
}

TEST(E1_9_troubleshooting_table, Row7KinematicBodyWithVelocityDoesNotMoveByItself) {
  ModelBuilder b;
  int body = b.add_body(kI, {}, false, true);
  Model m = b.finalize();
  SolverRigidPredictor solver(m);
  Control c = m.control();
  State s0 = m.state(), s1 = m.state();
  std::vector<spatial_vector> v{{{1, 0, 0}, {}}};
  s0.body_qd.copy_from_host(v.data());
  solver.step(s0, s1, c, 0.1);
  EXPECT_EQ(s1.body_q.to_host()[body].p.x, 0);  // pass-through
  // The user drives it: pose and a consistent velocity, every step.
  std::vector<transform> q{{vec3{0.1, 0, 0}, quat_identity()}};
  s1.body_q.copy_from_host(q.data());
  solver.step(s1, s0, c, 0.1);
  EXPECT_EQ(s0.body_q.to_host()[body].p.x, 0.1);
}

TEST(E1_9_troubleshooting_table, Row8BaseResetIsNotAGeneralReset) {
  ModelBuilder b;
  int base = b.add_link(kI, {1, {}, mat33_identity()});
  b.add_articulation({b.add_joint_revolute(-1, base, kI, kI, {0, 0, 1})});
  Model m = b.finalize();
  State s = m.state();
  std::vector<real> q{0.7};
  s.joint_q.copy_from_host(q.data());
  SolverRigidPredictor(m).reset(s);
  EXPECT_EQ(s.joint_q.to_host()[0], 0.7);  // base reset: nothing changed
  SolverJointIntegrator(m).reset(s);
  EXPECT_EQ(s.joint_q.to_host()[0], 0);    // this backend's own reset contract
}

TEST(E1_9_troubleshooting_table, Row9MoreIterationsIsNotFasterTime) {
  // Counting iterations as substeps would advance 8 * 0.02 s per frame; the clock moves N h = H.
  real t = 0;
  const int substeps = 5;
  for (int i = 0; i < substeps; ++i) t += substep_dt(0.02, substeps);
  EXPECT_NEAR(t, 0.02, 1e-15);
}

TEST(E1_9_troubleshooting_table, Row10TorqueSignOfAReferencePointShift) {
  vec3 f{0, 10, 0}, r{0.2, 0, 0}, tau_C{0, 0, 2};
  EXPECT_VEC3_NEAR(shift_torque(tau_C, f, r), (vec3{}), 1e-15);  // right: tau - r x f
  EXPECT_VEC3_NEAR(tau_C + cross(r, f), (vec3{0, 0, 4}), 1e-15);  // the primer's plus sign doubles it
}

// --- E1.9-example-spec ---------------------------------------------------------------------------------

TEST(E1_9_example_spec, GoldenMinimalExampleLayoutMassAndCom) {
  Model m = course_box_model();
  EXPECT_EQ(m.joint_coord_count, 7);
  EXPECT_EQ(m.joint_dof_count, 6);
  EXPECT_EQ(m.shape_body.to_host()[0], -1);  // the ground
  EXPECT_NEAR(m.body_mass.to_host()[0], 1.0, 1e-12);
  mat33 I = m.body_inertia.to_host()[0];
  EXPECT_NEAR(I.m[0][0], 0.00104167, 1e-5 * 0.00104167);
  EXPECT_NEAR(I.m[1][1], 0.00354167, 1e-5 * 0.00354167);
  EXPECT_NEAR(I.m[2][2], 0.00416667, 1e-5 * 0.00416667);
  vec3 c = m.body_com.to_host()[0];
  EXPECT_GT(length(c), 0);
  EXPECT_EQ(SolverRigidPredictor(m).angular_damping, 0);
}

// --- E1.2-units-table ---------------------------------------------------------------------------------

RC_GTEST_PROP(E1_2_units_table, QuaternionSignInvarianceAndRevoluteCoordinateInRadians, ()) {
  quat q = *gen::unit_quat();
  vec3 v = *gen::vector(3);
  RC_ASSERT(tol::near(quat_rotate(q, v), quat_rotate(quat_negate(q), v), 1e-12));
  real angle = *gen::in_range(-3, 3);
  JointAxes ax;
  ax.n_ang = 1;
  ax.axis[0] = {0, 0, 1};
  transform X = joint_transform(JointType::revolute, &angle, ax);
  RC_ASSERT(std::abs(2 * std::atan2(X.q.z, X.q.w) - angle) < 1e-12);  // joint_q is in rad
}

// --- E1.4-asset-record ---------------------------------------------------------------------------------

// An asset file is allowed only with a record: a row naming it (path relative to the record) in an
// ASSETS.md of its folder or of a folder above it (verify/fuzz/corpus/ASSETS.md is one).
static bool has_asset_record(const std::filesystem::path& root, const std::filesystem::path& file) {
  for (std::filesystem::path dir = file.parent_path(); dir.string().size() >= root.string().size(); dir = dir.parent_path()) {
    const std::filesystem::path record = dir / "ASSETS.md";
    if (std::filesystem::exists(record)) {
      std::ifstream f(record);
      const std::string text((std::istreambuf_iterator<char>(f)), {});
      if (text.find("| " + std::filesystem::relative(file, dir).generic_string() + " |") != std::string::npos) return true;
    }
    if (dir == root) break;
  }
  return false;
}

TEST(E1_4_asset_record, RepositoryShipsNoThirdPartyAssets) {
  const std::filesystem::path root = IMPULSE_SOURCE_DIR;
  const char* asset_ext[] = {".urdf", ".mjcf", ".usd", ".usda", ".usdc", ".obj", ".stl", ".dae", ".glb", ".gltf"};
  for (const char* dir : {"lib", "verify", "golden", "exercises", "docs", "chapters"}) {
    if (!std::filesystem::exists(root / dir)) continue;
    for (const auto& e : std::filesystem::recursive_directory_iterator(root / dir)) {
      std::string ext = e.path().extension().string();
      for (const char* a : asset_ext)
        if (ext == a) EXPECT_TRUE(has_asset_record(root, e.path())) << e.path() << ": assets need a record (source, licence, units) in an ASSETS.md first";
    }
  }
}
