// Tests of SolverXPBD::contact_linearised (lib/e3/solvers/xpbd/xpbd_step.h: xpbd_linearise_row,
// xpbd_linear_row, xpbd_move_body): the Gauss-Seidel pass on rows linearised once per step, the
// bodies moved once after the iterations, impulse's extension.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "e1/model.h"
#include "e3/solvers/xpbd/solver_xpbd.h"
#include "support/generators.h"
#include "support/xpbd_scene.h"

using namespace impulse;
using impulse::test::box_pile;
using impulse::test::column;
using impulse::test::XpbdScene;

namespace {

constexpr real kG = 9.81;

// One body B (random inverse mass and inertia, random pose) touching the static world A at one
// point, `depth` into it along a random normal n, the world's point also shifted by `slide` in the
// tangent plane (a slip for friction to remove).
struct Touch {
  XpbdSide A, B;
  XpbdManifoldRow row;
};

Touch random_touch(real depth, real slide, real mu) {
  Touch c;
  c.B.body = 0;
  c.B.X = {vec3{*gen::in_range(-1, 1), *gen::in_range(-1, 1), *gen::in_range(-1, 1)}, *gen::unit_quat()};
  c.B.com = c.B.X.p;
  c.B.inv_m = *gen::in_range(0.1, 10);
  const mat33 R = quat_to_mat33(*gen::unit_quat());
  c.B.inv_I = R * mat33_diag({*gen::in_range(0.1, 10), *gen::in_range(0.1, 10), *gen::in_range(0.1, 10)}) * transpose(R);
  XpbdManifoldRow& r = c.row;
  r.p1 = {*gen::in_range(-0.2, 0.2), *gen::in_range(-0.2, 0.2), *gen::in_range(-0.2, 0.2)};
  r.n = *gen::unit_vector();
  const vec3 any = *gen::unit_vector();
  const vec3 side = cross(r.n, any);
  const vec3 tangent = length(side) > 1e-3 ? side / length(side) : vec3{};
  r.p0 = transform_point(c.B.X, r.p1) + depth * r.n + slide * tangent;  // d = -depth
  r.mu = mu;
  return c;
}

}  // namespace

// From rest (no move since the row was linearised), one pass at rate = relaxation and keep = 0 is
// the accumulated row's correction (xpbd_contact_delta_accumulated): the same normal and friction
// impulses, and B moved by h inv_m P and h inv_I L of that row's impulse on B. Two cases: a
// frictionless row sunk by some depth, with or without a carried impulse; and a sliding row just
// touching (d = 0) that holds a carried impulse, whose friction alone acts (when a pass also pushes
// along n, its friction sees the slip that push's turn gives the anchors, which the accumulated row,
// reading one pose, does not).
RC_GTEST_PROP(E3_xpbd_linearised, OnePassFromRestIsTheAccumulatedRow, ()) {
  const bool sliding = *rc::gen::arbitrary<bool>();
  const real mu = sliding ? real(0.5) : real(0);
  const Touch c = sliding ? random_touch(0, *gen::in_range(1e-5, 1e-3), mu) : random_touch(*gen::in_range(1e-5, 1e-2), 0, 0);
  const real h = *gen::in_range(1e-4, 1e-2);
  const real p_in = sliding ? *gen::in_range(1, 10) : *rc::gen::element(real(0), real(1)) * *gen::in_range(0, 10);
  real p_row = p_in, p_lin = p_in;
  vec3 t_row{}, t_lin{};
  const XpbdManifoldRow& r = c.row;
  const XpbdContactDelta row = xpbd_contact_delta_accumulated(c.A, c.B, r.p0, r.p1, r.o0, r.o1, r.n, 0, 0, mu, 0, 0,
                                                               0.8, h, p_row, t_row);
  const XpbdLinearRow l = xpbd_linearise_row(c.A, c.B, r, h);
  spatial_vector mA{}, mB{};
  const bool moved = xpbd_linear_row(l, 0, 0.8, h, p_lin, t_lin, mA, mB);
  const real scale = p_row + p_in + real(1e-30);
  RC_ASSERT(moved == (row.active == 1));
  RC_ASSERT(std::abs(p_lin - p_row) <= 1e-12 * scale);
  RC_ASSERT(length(t_lin - t_row) <= 1e-9 * scale);
  RC_ASSERT(length(mB.lin - h * c.B.inv_m * row.dB.lin) <= 1e-9 * h * c.B.inv_m * scale);
  RC_ASSERT(length(mB.ang - h * (c.B.inv_I * row.dB.ang)) <= 1e-9 * h * 10 * scale);
  RC_ASSERT(length(mA.lin) == 0 && length(mA.ang) == 0);  // the world does not move
}

// Analytic: a lone frictionless row's linearised gap changes by h w dp when its impulse changes by
// dp (w = 1/m + (r x n)^T inv_I (r x n), E3.4-xpbd-w), so each pass at rate rho leaves
// d_k = (1 - rho)^k d_0 of the gap, and the impulse grows to (1 - (1 - rho)^k) (-d_0) / (h w).
RC_GTEST_PROP(E3_xpbd_linearised, PassesShrinkALoneRowsGapGeometrically, ()) {
  const Touch c = random_touch(*gen::in_range(1e-5, 1e-2), 0, 0);
  const real h = *gen::in_range(1e-4, 1e-2), rho = *gen::in_range(0.05, 1);
  const int k = *rc::gen::inRange(1, 8);
  const XpbdLinearRow l = xpbd_linearise_row(c.A, c.B, c.row, h);
  real p = 0;
  vec3 t{};
  spatial_vector mA{}, mB{};
  for (int i = 0; i < k; ++i) xpbd_linear_row(l, 0, rho, h, p, t, mA, mB);
  const vec3 r_b = transform_point(c.B.X, c.row.p1) - c.B.com;
  const real w = c.B.inv_m + dot(cross(r_b, c.row.n), c.B.inv_I * cross(r_b, c.row.n));
  const real d0 = dot(c.row.n, transform_point(c.B.X, c.row.p1) - c.row.p0);
  const real d = d0 + dot(c.row.n, mB.lin) + dot(cross(r_b, c.row.n), mB.ang);
  const real keep = std::pow(1 - rho, real(k));
  RC_ASSERT(std::abs(d - keep * d0) <= 1e-9 * std::abs(d0));
  RC_ASSERT(std::abs(p - (1 - keep) * (-d0) / (h * w)) <= 1e-9 * (-d0) / (h * w));
}

// A two-layer pile of 32 cubes (the e3-pile-boxes rule, 4 x 4 a layer), warm-started, 16
// iterations, h = 1/600 s, 1 s. Analytic: at rest the ground carries the pile's weight, sum m g,
// every cube stays level and nothing moves. The linearised pass reads back the weight to 1e-4, holds
// the cubes on the ground to 1e-6 m, level to 1e-4 rad, at rest to 1e-4 m/s.
TEST(E3_xpbd_linearised, SimBoxPileRestsLevelAndTheReadbackCarriesItsWeight) {
  const real h = real(1) / 600;
  XpbdScene s(box_pile(4), 16, true, true, 0, true);
  for (int i = 0; i < 600; ++i) s.step(h);
  const real weight = s.weight();
  EXPECT_NEAR(weight, 32 * 8.0 * kG, 1e-9 * weight);  // 0.2 m cubes of 1000 kg/m^3
  EXPECT_NEAR(s.ground_support(), weight, 1e-4 * weight);
  const std::vector<transform> q = s.s0.body_q.to_host();
  for (int b = 0; b < 16; ++b) EXPECT_GT(q[b].p.z, real(0.1) - 1e-6) << b;  // the lower layer on the ground
  for (const transform& X : q) EXPECT_LT(2 * std::asin(std::min(real(1), length(vec3{X.q.x, X.q.y, 0}))), 1e-4);
  for (const spatial_vector& v : s.s0.body_qd.to_host()) EXPECT_LT(length(v.lin) + real(0.1) * length(v.ang), 1e-4);
}

// A cube 100 times as heavy on a light one (e3-pile-heavy), 16 iterations, a pair's rows swept 8
// times, no warm start, 1 s: the pair stays put, level and at rest, and the ground carries both
// weights (sum F_z = (m1 + m2) g to 1e-3). (Warm-started, the carried impulses wind up here as in
// the pass on poses: docs/guide/design.md.)
TEST(E3_xpbd_linearised, SimHeavyOnLightStaysPut) {
  const real h = real(1) / 600;
  XpbdScene s(column(2, 100), 16, true, false, 8, true);
  for (int i = 0; i < 600; ++i) s.step(h);
  const std::vector<transform> q = s.s0.body_q.to_host();
  const std::vector<spatial_vector> v = s.s0.body_qd.to_host();
  for (int b = 0; b < 2; ++b) {
    EXPECT_LT(length(vec3{q[b].p.x, q[b].p.y, 0}), 1e-4) << b;
    EXPECT_LT(2 * std::abs(std::asin(std::min(real(1), length(vec3{q[b].q.x, q[b].q.y, 0})))), 1e-4) << b;
    EXPECT_LT(length(v[b].lin) + real(0.1) * length(v[b].ang), 1e-3) << b;
  }
  EXPECT_NEAR(s.ground_support(), s.weight(), 1e-3 * s.weight());
}

// The linearised pass on a box pile, stepped on 1 and on 2 threads: bitwise the same poses and twists.
TEST(E3_xpbd_linearised, DeterminismAcrossThreadCounts) {
  EXPECT_TRUE(test::bitwise_same_on_one_and_two_threads([] { return box_pile(4); }, 4, true, true, 0, 60, true));
}

// The option is checked when a step starts: the linearised pass without Gauss-Seidel is refused by name.
TEST(E3_xpbd_linearised, WithoutGaussSeidelItIsRefusedByName) {
  XpbdScene s(column(1, 1), 2, false, false, 0, true);
  EXPECT_TRUE(s.step_refuses("contact_linearised needs rigid_contact_gauss_seidel"));
  s.solver.rigid_contact_gauss_seidel = true;
  EXPECT_NO_THROW(s.step(real(1) / 600));
}
