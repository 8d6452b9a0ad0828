// Tests of lib/e3/contacts/materials.h (course E3 §3) and of exercise E3.10-ex1.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include "course/exercises.h"
#include "e3/contacts/materials.h"
#include "support/generators.h"
#include "support/golden.h"

using namespace impulse;

namespace {

rc::Gen<ShapeMaterial> gen_material() {
  return rc::gen::apply(
      [](real ke, real kd, real kf, real ka, real mu, real e, real t, real r, real kh) {
        ShapeMaterial m;
        m.ke = ke, m.kd = kd, m.kf = kf, m.ka = ka, m.mu = mu, m.restitution = e, m.mu_torsional = t,
        m.mu_rolling = r, m.kh = kh;
        return m;
      },
      gen::in_range(0, 1e5), gen::in_range(0, 1e3), gen::in_range(0, 1e4), gen::in_range(0, 0.01), gen::in_range(0, 2),
      gen::in_range(0, 1), gen::in_range(0, 0.05), gen::in_range(0, 0.01), gen::in_range(1e5, 1e11));
}

ShapeMaterial with_mu(real mu) {
  ShapeMaterial m;
  m.mu = mu;
  return m;
}

}  // namespace

// --- E3.3-shapeconfig-units ----------------------------------------------------------------------

TEST(E3_3_shapeconfig_units, DefaultsAreNewtonsShapeConfig) {
  const ShapeMaterial m;  // builder.py:501-571 via newton-source-notes (c)
  EXPECT_EQ(m.ke, 2.5e3);
  EXPECT_EQ(m.kd, 100.0);
  EXPECT_EQ(m.kf, 1000.0);
  EXPECT_EQ(m.ka, 0.0);
  EXPECT_EQ(m.mu, 1.0);
  EXPECT_EQ(m.restitution, 0.0);
  EXPECT_EQ(m.mu_torsional, 0.005);
  EXPECT_EQ(m.mu_rolling, 0.0001);
  EXPECT_EQ(m.kh, 1.0e10);
}

TEST(E3_3_shapeconfig_units, TorsionalFrictionTimesNormalImpulseIsAnAngularImpulse) {
  // mu_torsional [m] * p_n [N s] = [N m s]: a 0.005 m torsional coefficient and 2 N s normal
  // impulse cap the torsional angular impulse at 0.01 N m s.
  const ShapeMaterial a, b;
  EXPECT_NEAR(xpbd_friction_mix(a, b).mu_torsional * 2.0, 0.01, 1e-15);
}

// --- E3.3-material-table -------------------------------------------------------------------------

TEST(E3_3_material_table, EachPathUsesItsOwnRow) {
  const ShapeMaterial a = with_mu(0.2), b = with_mu(0.8);
  EXPECT_DOUBLE_EQ(combined_mu(SolverPath::xpbd, a, b), xpbd_friction_mix(a, b).mu);
  EXPECT_DOUBLE_EQ(combined_mu(SolverPath::semi_implicit, a, b), penalty_mix(a, b, {}).mu);
  EXPECT_DOUBLE_EQ(combined_mu(SolverPath::featherstone, a, b), penalty_mix(a, b, {}).mu);
  EXPECT_DOUBLE_EQ(combined_mu(SolverPath::vbd, a, b), vbd_mix(a, b).mu);
  EXPECT_DOUBLE_EQ(combined_mu(SolverPath::mujoco, a, b), mujoco_mix(a, b).friction[0]);
  EXPECT_DOUBLE_EQ(combined_mu(SolverPath::kamino, a, b), kamino_mix(a, b).mu);
  // Kamino's restitution default (min) is not XPBD's rule (mean).
  ShapeMaterial c, d;
  c.restitution = 0.2, d.restitution = 0.8;
  EXPECT_NE(kamino_mix(c, d).restitution, xpbd_restitution_mix(c, d));
}

RC_GTEST_PROP(E3_3_material_table, EveryRuleIsSymmetricUnderSwappingSides, ()) {
  const ShapeMaterial a = *gen_material(), b = *gen_material();
  for (SolverPath p : {SolverPath::xpbd, SolverPath::semi_implicit, SolverPath::featherstone, SolverPath::vbd,
                       SolverPath::mujoco, SolverPath::kamino})
    RC_ASSERT(combined_mu(p, a, b) == combined_mu(p, b, a));
}

// --- E3.3-xpbd-friction-mix ----------------------------------------------------------------------

TEST(E3_3_xpbd_friction_mix, GoldenCourseValues) { golden::expect_course_values("E3.3-xpbd-friction-mix"); }

RC_GTEST_PROP(E3_3_xpbd_friction_mix, IgnoresStiffnessDampingAndAdhesion, ()) {
  ShapeMaterial a = *gen_material(), b = *gen_material();
  const XpbdContactMaterial m = xpbd_friction_mix(a, b);
  a.ke = *gen::in_range(0, 1e7), a.kd = *gen::in_range(0, 1e4), b.kf = *gen::in_range(0, 1e4), b.ka = 0.5;
  const XpbdContactMaterial m2 = xpbd_friction_mix(a, b);
  RC_ASSERT(m.mu == m2.mu && m.mu_torsional == m2.mu_torsional && m.mu_rolling == m2.mu_rolling);
  RC_ASSERT(m.mu == real(0.5) * (a.mu + b.mu));
}

// --- E3.3-xpbd-restitution-mix -------------------------------------------------------------------

TEST(E3_3_xpbd_restitution_mix, GoldenCourseValues) { golden::expect_course_values("E3.3-xpbd-restitution-mix"); }

RC_GTEST_PROP(E3_3_xpbd_restitution_mix, MeanLiesBetweenTheSides, ()) {
  const ShapeMaterial a = *gen_material(), b = *gen_material();
  const real e = xpbd_restitution_mix(a, b);
  RC_ASSERT(e >= std::min(a.restitution, b.restitution) && e <= std::max(a.restitution, b.restitution));
}

// --- E3.3-penalty-mix ----------------------------------------------------------------------------

TEST(E3_3_penalty_mix, GoldenCourseValues) { golden::expect_course_values("E3.3-penalty-mix"); }

RC_GTEST_PROP(E3_3_penalty_mix, PositiveOverridesReplaceAndZeroMeansUnset, ()) {
  const ShapeMaterial a = *gen_material(), b = *gen_material();
  const PenaltyContactMaterial base = penalty_mix(a, b, {});
  RC_ASSERT(base.ke == real(0.5) * (a.ke + b.ke) && base.kd == real(0.5) * (a.kd + b.kd));
  RC_ASSERT(base.kf == real(0.5) * (a.kf + b.kf) && base.ka == real(0.5) * (a.ka + b.ka));
  RC_ASSERT(base.mu == real(0.5) * (a.mu + b.mu));
  const real s = *gen::in_range(0, 1e5), kd = *gen::in_range(0, 100), c = *gen::in_range(0, 2);
  const PenaltyContactMaterial o = penalty_mix(a, b, {s, kd, c});
  RC_ASSERT(o.ke == (s > 0 ? s : base.ke));
  RC_ASSERT(o.kd == (kd > 0 ? kd : base.kd));
  RC_ASSERT(o.mu == (c > 0 ? c * base.mu : base.mu));
  RC_ASSERT(o.kf == base.kf && o.ka == base.ka);
}

// --- E3.3-vbd-mix --------------------------------------------------------------------------------

TEST(E3_3_vbd_mix, GoldenCourseValues) { golden::expect_course_values("E3.3-vbd-mix"); }

TEST(E3_3_vbd_mix, GoldenGeometricMeans) {
  EXPECT_NEAR(vbd_mix(with_mu(0.2), with_mu(0.8)).mu, 0.4, 1e-15);
  EXPECT_NEAR(vbd_mix(with_mu(0.25), with_mu(1.0)).mu, 0.5, 1e-15);
}

RC_GTEST_PROP(E3_3_vbd_mix, GeometricMeanAtMostArithmeticAndZeroIfEitherIsZero, ()) {
  const ShapeMaterial a = *gen_material(), b = *gen_material();
  RC_ASSERT(vbd_mix(a, b).mu <= real(0.5) * (a.mu + b.mu) + 1e-15);
  RC_ASSERT(vbd_mix(a, with_mu(0)).mu == 0);
}

// --- E3.3-mujoco-mix -----------------------------------------------------------------------------

TEST(E3_3_mujoco_mix, GoldenCourseValues) { golden::expect_course_values("E3.3-mujoco-mix"); }

RC_GTEST_PROP(E3_3_mujoco_mix, EqualPriorityTakesTheLargerFrictionComponents, ()) {
  const ShapeMaterial a = *gen_material(), b = *gen_material();
  const MujocoContactMaterial m = mujoco_mix(a, b);
  RC_ASSERT(m.friction[0] >= a.mu && m.friction[0] >= b.mu);
  RC_ASSERT(m.friction[1] >= a.mu_torsional && m.friction[1] >= b.mu_torsional);
  RC_ASSERT(m.friction[2] >= a.mu_rolling && m.friction[2] >= b.mu_rolling);
  RC_ASSERT(m.mix == real(0.5));  // default solmix 1 and 1
}

TEST(E3_3_mujoco_mix, SolrefMixesWhenPositiveElseComponentwiseMin) {
  ShapeMaterial a, b;
  a.solmix = 3, b.solmix = 1;
  a.solref[0] = 0.02, a.solref[1] = 1.0, b.solref[0] = 0.06, b.solref[1] = 0.5;
  MujocoContactMaterial m = mujoco_mix(a, b);
  EXPECT_NEAR(m.solref[0], 0.75 * 0.02 + 0.25 * 0.06, 1e-15);
  EXPECT_NEAR(m.solref[1], 0.75 * 1.0 + 0.25 * 0.5, 1e-15);
  b.solref[0] = -100, b.solref[1] = -2;  // a direct (negative) solref: component-wise min
  m = mujoco_mix(a, b);
  EXPECT_EQ(m.solref[0], -100);
  EXPECT_EQ(m.solref[1], -2);
}

// --- E3.3-kamino-mix -----------------------------------------------------------------------------

TEST(E3_3_kamino_mix, GoldenCourseValues) { golden::expect_course_values("E3.3-kamino-mix"); }

RC_GTEST_PROP(E3_3_kamino_mix, ModesAreIndependent, ()) {
  ShapeMaterial a = *gen_material(), b = *gen_material();
  const KaminoContactMaterial m = kamino_mix(a, b, MixMode::max, MixMode::average);
  RC_ASSERT(m.mu == std::max(a.mu, b.mu));
  RC_ASSERT(m.restitution == real(0.5) * (a.restitution + b.restitution));
}

// --- E3.3-mu-example and E3.10-ex1-mu-combination -----------------------------------------------

TEST(E3_3_mu_example, GoldenCourseValues) { golden::expect_course_values("E3.3-mu-example"); }

TEST(E3_10_ex1_mu_combination, ExerciseKeyEqualsCourseAnswer) {
  const course::Exercise* e = course::find_exercise("E3.10-ex1-mu-combination");
  ASSERT_NE(e, nullptr);
  ASSERT_EQ(e->parts.size(), 3u);
  for (const course::AnswerPart& p : e->parts) {
    const std::vector<double> key = course::answer_key(p);
    ASSERT_EQ(key.size(), p.course.size()) << p.name;
    for (std::size_t i = 0; i < key.size(); ++i) EXPECT_NEAR(key[i], p.course[i], 1e-12) << p.name;
  }
}

// --- E3.3-hydro-Fagg, keq, kh-series, consumers --------------------------------------------------

RC_GTEST_PROP(E3_3_hydro_Fagg, LinearInPressureAndFlatPatchGivesPTimesA, ()) {
  const int n = *rc::gen::inRange(1, 8);
  std::vector<real> A(n), p(n), p2(n);
  std::vector<vec3> nrm(n);
  const real s = *gen::in_range(0, 10);
  for (int i = 0; i < n; ++i) A[i] = *gen::in_range(0, 1e-3), p[i] = *gen::in_range(0, 1e6), nrm[i] = *gen::unit_vector();
  for (int i = 0; i < n; ++i) p2[i] = s * p[i];
  const vec3 F = hydro_force_aggregate(A.data(), p.data(), nrm.data(), n);
  const vec3 F2 = hydro_force_aggregate(A.data(), p2.data(), nrm.data(), n);
  RC_ASSERT(length(F2 - s * F) <= 1e-9 * (1 + length(F2)));
  // A flat patch: all normals equal, uniform pressure: ||F|| = p * sum A.
  std::vector<vec3> same(n, nrm[0]);
  std::vector<real> uni(n, p[0]);
  real area = 0;
  for (real x : A) area += x;
  RC_ASSERT(std::abs(length(hydro_force_aggregate(A.data(), uni.data(), same.data(), n)) - p[0] * area) <=
            1e-9 * (1 + p[0] * area));
}

RC_GTEST_PROP(E3_3_hydro_keq, PositiveAndScalesWithPressure, ()) {
  const vec3 F = *gen::vector(100);
  const real depth[3] = {*gen::in_range(1e-4, 1e-2), *gen::in_range(1e-4, 1e-2), *gen::in_range(1e-4, 1e-2)};
  const real s = *gen::in_range(0.1, 10);
  const real k = hydro_equivalent_stiffness(F, depth, 3);
  RC_ASSERT(k >= 0);
  RC_ASSERT(std::abs(hydro_equivalent_stiffness(s * F, depth, 3) - s * k) <= 1e-9 * (1 + s * k));
  RC_ASSERT(std::abs(k * (depth[0] + depth[1] + depth[2]) - length(F)) <= 1e-9 * (1 + length(F)));
}

TEST(E3_3_hydro_kh_series, GoldenCourseValues) { golden::expect_course_values("E3.3-hydro-kh-series"); }

RC_GTEST_PROP(E3_3_hydro_kh_series, SymmetricBelowTheSofterSideAndTendsToIt, ()) {
  const real a = *gen::in_range(1e3, 1e11), b = *gen::in_range(1e3, 1e11);
  RC_ASSERT(hydro_kh_series(a, b) == hydro_kh_series(b, a));
  RC_ASSERT(hydro_kh_series(a, b) <= std::min(a, b) * (1 + 1e-15));
  RC_ASSERT(std::abs(hydro_kh_series(a, 1e30) - a) <= 1e-12 * a);
  RC_ASSERT(hydro_kh_series(0, 0) == 0);
}

TEST(E3_3_hydro_consumers, OnlyPenaltyPathsAndMujocoWithNewtonContactsReadStiffness) {
  EXPECT_FALSE(consumes_contact_stiffness(SolverPath::xpbd));
  EXPECT_TRUE(consumes_contact_stiffness(SolverPath::semi_implicit));
  EXPECT_TRUE(consumes_contact_stiffness(SolverPath::featherstone));
  EXPECT_TRUE(consumes_contact_stiffness(SolverPath::mujoco, false));
  EXPECT_FALSE(consumes_contact_stiffness(SolverPath::mujoco, true));
  EXPECT_FALSE(consumes_contact_stiffness(SolverPath::vbd));
  EXPECT_FALSE(consumes_contact_stiffness(SolverPath::kamino));
}

RC_GTEST_PROP(E3_3_hydro_consumers, XpbdMaterialDoesNotDependOnShapeStiffness, ()) {
  ShapeMaterial a = *gen_material(), b = *gen_material();
  const XpbdContactMaterial m = xpbd_friction_mix(a, b);
  a.kh = *gen::in_range(1, 1e12), a.ke = *gen::in_range(0, 1e9);
  RC_ASSERT(xpbd_friction_mix(a, b).mu == m.mu);
  // A penalty path does see the same stiffness change.
  ShapeMaterial c = a;
  c.ke = a.ke + 1;
  RC_ASSERT(penalty_mix(c, b, {}).ke != penalty_mix(a, b, {}).ke);
}
