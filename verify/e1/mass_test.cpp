// Tests of lib/e1/mass.h, lib/e1/inertia_validity.h and the builder's mass accumulation (course E1 §3, §4).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <functional>

#include "e1/inertia_validity.h"
#include "e1/integrator.h"
#include "e1/mass.h"
#include "e1/model.h"
#include "support/generators.h"
#include "support/golden.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

const transform kI = transform_identity();

// Independent oracle: mass, COM and inertia of a solid by midpoint integration of its indicator
// function over a grid of n^3 cells spanning [-e, e] (density rho).
MassProperties integrate_solid(const std::function<bool(vec3)>& inside, vec3 e, real rho, int n) {
  double m = 0, cx = 0, cy = 0, cz = 0, I[3][3] = {};
  double dv = 8 * e.x * e.y * e.z / (double(n) * n * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        vec3 p{-e.x + (2 * i + 1) * e.x / n, -e.y + (2 * j + 1) * e.y / n, -e.z + (2 * k + 1) * e.z / n};
        if (!inside(p)) continue;
        double dm = rho * dv;
        m += dm;
        cx += dm * p.x;
        cy += dm * p.y;
        cz += dm * p.z;
        double r[3] = {p.x, p.y, p.z}, rr = dot(p, p);
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b) I[a][b] += dm * ((a == b ? rr : 0) - r[a] * r[b]);
      }
  MassProperties out;
  out.mass = m;
  out.com = {cx / m, cy / m, cz / m};
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) out.inertia.m[a][b] = I[a][b];
  return out;
}

void expect_mass_near(const MassProperties& a, const MassProperties& b, real rel) {
  EXPECT_NEAR(a.mass, b.mass, rel * b.mass);
  real scale = b.inertia.m[0][0] + b.inertia.m[1][1] + b.inertia.m[2][2];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(a.inertia.m[i][j], b.inertia.m[i][j], rel * scale) << i << j;
}

bool mat_near(const mat33& a, const mat33& b, real tol) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (std::abs(a.m[i][j] - b.m[i][j]) > tol) return false;
  return true;
}

MassProperties model_body(const Model& m, int b) {
  return {m.body_mass.to_host()[b], m.body_com.to_host()[b], m.body_inertia.to_host()[b]};
}

rc::Gen<vec3> half_extents() {
  return rc::gen::apply([](real x, real y, real z) { return vec3{x, y, z}; }, gen::in_range(0.01, 0.5),
                        gen::in_range(0.01, 0.5), gen::in_range(0.01, 0.5));
}

}  // namespace

// --- E1.3-box-mass-inertia / E1.3-box-example / E1.3-box-offset-example -------------------------------

TEST(E1_3_box_mass_inertia, OracleGridIntegrationOfEveryPrimitive) {
  const real rho = 700;
  vec3 h{0.2, 0.1, 0.05};
  expect_mass_near(box_mass_properties(rho, h.x, h.y, h.z),
                   integrate_solid([](vec3) { return true; }, h, rho, 40), 1e-3);
  const real r = 0.1, hh = 0.15;
  expect_mass_near(sphere_mass_properties(rho, r), integrate_solid([&](vec3 p) { return dot(p, p) <= r * r; },
                                                                   {r, r, r}, rho, 80), 5e-3);
  expect_mass_near(cylinder_mass_properties(rho, r, hh),
                   integrate_solid([&](vec3 p) { return p.x * p.x + p.y * p.y <= r * r; }, {r, r, hh}, rho, 80), 5e-3);
  auto in_capsule = [&](vec3 p) {
    real z = std::max(std::abs(p.z) - hh, real(0));
    return p.x * p.x + p.y * p.y + z * z <= r * r;
  };
  expect_mass_near(capsule_mass_properties(rho, r, hh), integrate_solid(in_capsule, {r, r, hh + r}, rho, 80), 5e-3);
}

RC_GTEST_PROP(E1_3_box_mass_inertia, MassIsEightRhoHxHyHzAndTriangleHolds, ()) {
  vec3 h = *half_extents();
  real rho = *gen::in_range(100, 10000);
  MassProperties p = box_mass_properties(rho, h.x, h.y, h.z);
  RC_ASSERT(std::abs(p.mass - 8 * rho * h.x * h.y * h.z) <= 1e-12 * p.mass);
  RC_ASSERT(check_inertia(p.inertia).ok());
}

TEST(E1_3_box_example, GoldenCourseBoxThroughTheBuilder) {
  golden::expect_course_values("E1.3-box-example");
  ModelBuilder b;
  int body = b.add_body();
  b.add_shape_box(body, kI, 0.10, 0.05, 0.025);
  MassProperties p = model_body(b.finalize(), body);
  EXPECT_NEAR(p.mass, 1.0, 1e-12);
  EXPECT_NEAR(p.inertia.m[0][0], 0.00104167, 1e-5 * 0.00104167);
  EXPECT_NEAR(p.inertia.m[1][1], 0.00354167, 1e-5 * 0.00354167);
  EXPECT_NEAR(p.inertia.m[2][2], 0.00416667, 1e-5 * 0.00416667);
}

TEST(E1_3_box_offset_example, GoldenOffsetMovesTheComButAddsNoParallelAxisTerm) {
  golden::expect_course_values("E1.3-box-offset-example");
  ModelBuilder b;
  int body = b.add_body();
  b.add_shape_box(body, {vec3{0.10, 0, 0}, quat_identity()}, 0.10, 0.05, 0.025);
  MassProperties p = model_body(b.finalize(), body);
  EXPECT_VEC3_NEAR(p.com, (vec3{0.10, 0, 0}), 1e-15);
  EXPECT_NEAR(p.inertia.m[1][1], 0.00354167, 1e-5 * 0.00354167);
  EXPECT_NEAR(p.inertia.m[2][2], 0.00416667, 1e-5 * 0.00416667);
}

// --- E1.3-default-density / E1.3-explicit-plus-shape / E1.3-mass-accumulation / E1.3-lock-inertia -----

TEST(E1_3_default_density, DefaultDensityIs1000) {
  EXPECT_EQ(ShapeConfig{}.density, 1000);
  ModelBuilder b;
  int body = b.add_body();
  b.add_shape_box(body, kI, 0.10, 0.05, 0.025);
  EXPECT_NEAR(b.finalize().body_mass.to_host()[body], 1.0, 1e-12);
}

TEST(E1_3_explicit_plus_shape, GoldenExplicitTwoKilogramsPlusBoxIsThree) {
  ModelBuilder b;
  int body = b.add_body(kI, {2, {}, mat33_diag({0.01, 0.01, 0.01})});
  b.add_shape_box(body, kI, 0.10, 0.05, 0.025);
  EXPECT_NEAR(b.finalize().body_mass.to_host()[body], 3.0, 1e-12);
}

TEST(E1_3_mass_accumulation, EachNegatedConditionAloneAddsNothing) {
  const MassProperties base{2, {0.1, 0, 0}, mat33_diag({0.01, 0.02, 0.02})};
  const transform at{vec3{0, 0.2, 0}, quat_identity()};
  auto build = [&](ShapeConfig cfg, bool lock, bool attach) {
    ModelBuilder b;
    int body = b.add_body(kI, base, lock);
    b.add_shape_box(attach ? body : -1, at, 0.1, 0.05, 0.025, cfg);
    return model_body(b.finalize(), body);
  };
  ShapeConfig normal, is_static, no_density;
  is_static.is_static = true;
  no_density.density = 0;
  for (const MassProperties& p : {build(is_static, false, true), build(no_density, false, true), build(normal, false, false),
                                  build(normal, true, true)}) {
    EXPECT_EQ(p.mass, base.mass);
    EXPECT_VEC3_NEAR(p.com, base.com, 0);
    EXPECT_TRUE(mat_near(p.inertia, base.inertia, 0));
  }
  EXPECT_NEAR(build(normal, false, true).mass, base.mass + 1000 * 8 * 0.1 * 0.05 * 0.025, 1e-12);
}

TEST(E1_3_lock_inertia, LockedBodyIgnoresLaterShapesButFixedJointCollapseStillMerges) {
  const MassProperties base{2, {0.1, 0, 0}, mat33_diag({0.01, 0.02, 0.02})};
  ModelBuilder b;
  int parent = b.add_body(kI, base, true);
  b.add_shape_box(parent, kI, 0.1, 0.1, 0.1);
  MassProperties locked = b.body_mass_properties[parent];
  EXPECT_EQ(locked.mass, base.mass);
  EXPECT_VEC3_NEAR(locked.com, base.com, 0);
  EXPECT_TRUE(mat_near(locked.inertia, base.inertia, 0));
  int child = b.add_link({vec3{0, 0, 0.5}, quat_identity()});
  b.add_shape_sphere(child, kI, 0.05);
  real child_mass = b.body_mass_properties[child].mass;
  int j = b.add_joint_fixed(parent, child, {vec3{0, 0, 0.5}, quat_identity()}, kI);
  b.add_articulation({j});
  std::vector<int> remap = b.collapse_fixed_joints();
  EXPECT_EQ(remap[child], -1);
  EXPECT_EQ(b.body_count(), 1);
  EXPECT_NEAR(b.finalize().body_mass.to_host()[0], base.mass + child_mass, 1e-12);
}

// --- E1.3-parallel-axis / E1.3-no-diag-scaling / E1.3-combined-com / E1.3-inertia-frame -------------

TEST(E1_3_parallel_axis, GoldenPointMassAtUnitDistance) { golden::expect_course_values("E1.3-parallel-axis"); }

RC_GTEST_PROP(E1_3_parallel_axis, SymmetricTraceAndPsdShift, ()) {
  vec3 h = *half_extents(), d = *gen::vector(1);
  quat q = *gen::unit_quat();
  MassProperties p = box_mass_properties(1000, h.x, h.y, h.z);
  mat33 R = quat_to_mat33(q);
  mat33 I_O = inertia_transform(p.inertia, R, p.mass, d);
  mat33 rot = inertia_transform(p.inertia, R, 0, {});
  real tr = I_O.m[0][0] + I_O.m[1][1] + I_O.m[2][2], tr_c = p.inertia.m[0][0] + p.inertia.m[1][1] + p.inertia.m[2][2];
  RC_ASSERT(std::abs(tr - (tr_c + 2 * p.mass * dot(d, d))) <= 1e-9 * tr);
  Eigen::Matrix3d diff;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      RC_ASSERT(std::abs(I_O.m[i][j] - I_O.m[j][i]) <= 1e-12 * tr);
      diff(i, j) = I_O.m[i][j] - rot.m[i][j];
    }
  RC_ASSERT(Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(diff).eigenvalues()(0) >= -1e-12 * tr);
}

RC_GTEST_PROP(E1_3_no_diag_scaling, OffsetAlongXLeavesIxxAndAddsMd2ToTheOthers, ()) {
  vec3 h = *half_extents();
  real dx = *gen::in_range(-1, 1);
  MassProperties p = box_mass_properties(1000, h.x, h.y, h.z);
  mat33 I = inertia_transform(p.inertia, mat33_identity(), p.mass, {dx, 0, 0});
  RC_ASSERT(std::abs(I.m[0][0] - p.inertia.m[0][0]) <= 1e-15);
  RC_ASSERT(std::abs(I.m[1][1] - (p.inertia.m[1][1] + p.mass * dx * dx)) <= 1e-12 * I.m[1][1]);
  RC_ASSERT(std::abs(I.m[2][2] - (p.inertia.m[2][2] + p.mass * dx * dx)) <= 1e-12 * I.m[2][2]);
}

// Oracle: two boxes assembled by the builder agree with the manual sum written out term by term.
RC_GTEST_PROP(E1_3_combined_com, BuilderMatchesManualSumOfTwoRotatedBoxes, ()) {
  vec3 h1 = *half_extents(), h2 = *half_extents();
  transform x1 = *gen::rigid_transform(0.5), x2 = *gen::rigid_transform(0.5);
  ModelBuilder b;
  int body = b.add_body();
  b.add_shape_box(body, x1, h1.x, h1.y, h1.z);
  b.add_shape_box(body, x2, h2.x, h2.y, h2.z, ShapeConfig{500});
  MassProperties got = model_body(b.finalize(), body);
  real m1 = 8000 * h1.x * h1.y * h1.z, m2 = 4000 * h2.x * h2.y * h2.z, m = m1 + m2;
  vec3 c = (m1 * x1.p + m2 * x2.p) / m;
  auto part = [&](real mi, vec3 h, const transform& x) {
    mat33 R = quat_to_mat33(x.q);
    mat33 Ic = mat33_diag({mi / 3 * (h.y * h.y + h.z * h.z), mi / 3 * (h.x * h.x + h.z * h.z), mi / 3 * (h.x * h.x + h.y * h.y)});
    mat33 I = R * Ic * transpose(R);
    vec3 d = x.p - c;
    real dv[3] = {d.x, d.y, d.z};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) I.m[i][j] += mi * ((i == j ? dot(d, d) : 0) - dv[i] * dv[j]);
    return I;
  };
  mat33 I = part(m1, h1, x1) + part(m2, h2, x2);
  RC_ASSERT(std::abs(got.mass - m) <= 1e-12 * m);
  RC_ASSERT(tol::near(got.com, c, 1e-12));
  RC_ASSERT(mat_near(got.inertia, I, 1e-9 * (I.m[0][0] + I.m[1][1] + I.m[2][2])));
}

RC_GTEST_PROP(E1_3_inertia_frame, BodyInertiaIsPoseIndependentAndTheStepIsEquivariant, ()) {
  vec3 h = *half_extents();
  quat Q = *gen::unit_quat();
  transform pose = *gen::rigid_transform(1);
  vec3 w = *gen::vector(5), tau = *gen::vector(1);
  ModelBuilder b1, b2;
  int body1 = b1.add_body(pose), body2 = b2.add_body({quat_rotate(Q, pose.p), quat_mul(Q, pose.q)});
  b1.add_shape_box(body1, kI, h.x, h.y, h.z);
  b2.add_shape_box(body2, kI, h.x, h.y, h.z);
  Model m1 = b1.finalize(), m2 = b2.finalize();
  RC_ASSERT(mat_near(m1.body_inertia.to_host()[0], m2.body_inertia.to_host()[0], 0));
  mat33 I = m1.body_inertia.to_host()[0], Iinv = m1.body_inv_inertia.to_host()[0];
  vec3 w1 = angular_update(pose.q, w, tau, I, Iinv, 0.01);
  vec3 w2 = angular_update(quat_mul(Q, pose.q), quat_rotate(Q, w), quat_rotate(Q, tau), I, Iinv, 0.01);
  RC_ASSERT(tol::near(quat_rotate(Q, w1), w2, 1e-9 * (1 + length(w1))));
}

// --- E1.3-inertia-validity / E1.3-inertia-corrections ------------------------------------------------

RC_GTEST_PROP(E1_3_inertia_validity, PrimitivesAndCompositionsAreSpdAndSatisfyTheTriangle, ()) {
  ModelBuilder b;
  int body = b.add_body();
  int n = *rc::gen::inRange(1, 4);
  for (int i = 0; i < n; ++i) {
    transform x = *gen::rigid_transform(0.3);
    real r = *gen::in_range(0.01, 0.2), hh = *gen::in_range(0.01, 0.3);
    switch (*rc::gen::inRange(0, 4)) {
      case 0: { vec3 h = *half_extents(); b.add_shape_box(body, x, h.x, h.y, h.z); break; }
      case 1: b.add_shape_sphere(body, x, r); break;
      case 2: b.add_shape_capsule(body, x, r, hh); break;
      default: b.add_shape_cylinder(body, x, r, hh); break;
    }
  }
  InertiaCheck c = check_inertia(b.finalize().body_inertia.to_host()[0]);
  RC_ASSERT(c.ok());
}

TEST(E1_3_inertia_validity, RejectsNegativeAndTriangleViolatingInertia) {
  EXPECT_FALSE(check_inertia(mat33_diag({1, 1, -0.1})).positive_definite);
  EXPECT_FALSE(check_inertia(mat33_diag({1, 1, 2.5})).triangle);
  EXPECT_TRUE(check_inertia(mat33_diag({1, 1, 2})).ok());  // the thin-plate limit
}

TEST(E1_3_inertia_corrections, BalanceInertiaChangesTheModelAndKeepsTheInput) {
  const mat33 input = mat33_diag({0.1, 0.1, 0.5});
  ModelBuilder b;
  b.add_body(kI, {1, {}, input}, false, false, "bad");
  EXPECT_THROW(b.finalize(), std::invalid_argument);
  b.balance_inertia = true;
  Model m = b.finalize();
  ASSERT_EQ(m.corrections.size(), 1u);
  EXPECT_EQ(m.corrections[0].body, 0);
  EXPECT_TRUE(mat_near(m.corrections[0].before, input, 0));
  EXPECT_TRUE(mat_near(b.body_mass_properties[0].inertia, input, 0));
  mat33 out = m.body_inertia.to_host()[0];
  EXPECT_FALSE(mat_near(out, input, 1e-6));
  EXPECT_TRUE(check_inertia(out).ok());
  EXPECT_NEAR(out.m[2][2], 0.5, 1e-12);
}

TEST(E1_3_inertia_corrections, BoundMassAndBoundInertiaAreRecordedWithBothValues) {
  ModelBuilder b;
  b.add_body(kI, {0.01, {}, mat33_diag({1e-7, 2e-3, 2e-3})}, false, false, "light");
  b.add_body(kI, {2, {}, mat33_diag({0.1, 0.1, 0.1})}, false, false, "fine");
  b.bound_mass = 0.1;
  b.bound_inertia = 1e-4;
  Model m = b.finalize();
  ASSERT_EQ(m.corrections.size(), 2u);  // the second body needs nothing
  EXPECT_EQ(m.corrections[0].field, "mass (bound_mass)");
  EXPECT_EQ(m.corrections[0].mass_before, 0.01);
  EXPECT_EQ(m.corrections[0].mass_after, 0.1);
  EXPECT_EQ(m.corrections[1].field, "inertia (bound_inertia)");
  EXPECT_EQ(m.corrections[1].before.m[0][0], 1e-7);
  EXPECT_NEAR(m.corrections[1].after.m[0][0], 1e-4, 1e-15);
  EXPECT_EQ(m.body_mass.to_host()[0], 0.1);
  EXPECT_EQ(m.body_mass.to_host()[1], 2);
  EXPECT_EQ(b.body_mass_properties[0].mass, 0.01);  // the builder keeps the input
}

// --- E1.4-scaling-laws -----------------------------------------------------------------------------

RC_GTEST_PROP(E1_4_scaling_laws, DensityKeptGivesS3AndS5MassKeptGivesS2, ()) {
  vec3 h = *half_extents();
  real s = *gen::in_range(0.1, 5);
  MassProperties p = box_mass_properties(1000, h.x, h.y, h.z);
  MassProperties big = box_mass_properties(1000, s * h.x, s * h.y, s * h.z);
  MassProperties by_density = scale_mass_properties(p, s, true), by_mass = scale_mass_properties(p, s, false);
  RC_ASSERT(std::abs(by_density.mass - big.mass) <= 1e-12 * big.mass);
  RC_ASSERT(mat_near(by_density.inertia, big.inertia, 1e-12 * big.inertia.m[2][2]));
  RC_ASSERT(by_mass.mass == p.mass);
  RC_ASSERT(std::abs(by_mass.inertia.m[0][0] - s * s * p.inertia.m[0][0]) <= 1e-12 * by_mass.inertia.m[0][0]);
}

TEST(E1_4_scaling_laws, GoldenExerciseTwoNumbers) { golden::expect_course_values("E1.4-scaling-laws"); }
