// Tests of SolverXPBD::contact_manifold_sweeps (lib/e3/solvers/xpbd/xpbd_step.h, xpbd_manifold_delta):
// the Gauss-Seidel pass solving the rows of one shape pair together, impulse's extension.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <vector>

#include "e1/model.h"
#include "e3/solvers/xpbd/solver_xpbd.h"
#include "support/generators.h"
#include "support/xpbd_scene.h"

using namespace impulse;
using impulse::test::XpbdScene;
using impulse::test::box_pile;
using impulse::test::column;

namespace {

// A cube of half extent a on the static world along a random normal n: its four lower corners
// (body frame (+-a, +-a, -a) turned so that -z maps to -n) each `depth` into the world, in a random
// order; isotropic inertia I = 2/3 m a^2 (E3 pile definition), random mass, pose and h.
struct Face {
  XpbdSide A, B;
  XpbdManifoldRow rows[4];
  real depth, h, a;
};

Face random_face() {
  Face f;
  f.a = *gen::in_range(0.05, 0.5);
  f.depth = *gen::in_range(1e-5, 1e-2);
  f.h = *gen::in_range(1e-4, 1e-2);
  const quat q = *gen::unit_quat();
  f.B.body = 0;
  f.B.X = {vec3{*gen::in_range(-1, 1), *gen::in_range(-1, 1), *gen::in_range(-1, 1)}, q};
  f.B.com = f.B.X.p;
  const real m = *gen::in_range(0.1, 100);
  f.B.inv_m = 1 / m;
  f.B.inv_I = mat33_diag(vec3{1, 1, 1} * (real(1.5) / (m * f.a * f.a)));
  const vec3 n = quat_rotate(q, vec3{0, 0, 1});  // from the world (A) to the cube (B)
  int order[4] = {0, 1, 2, 3};
  for (int i = 3; i > 0; --i) std::swap(order[i], order[*rc::gen::inRange(0, i + 1)]);
  for (int i = 0; i < 4; ++i) {
    const int c = order[i];
    XpbdManifoldRow& r = f.rows[i];
    r.p1 = {(c & 1) ? f.a : -f.a, (c & 2) ? f.a : -f.a, -f.a};
    r.n = n;
    r.p0 = transform_point(f.B.X, r.p1) + f.depth * n;  // d = n . (x_B - x_A) = -depth
  }
  return f;
}

}  // namespace

// One row in one sweep, frictionless, is the accumulated row (xpbd_contact_delta_accumulated): the
// same normal impulse and the same impulses on both sides, from nothing and from a carried impulse.
RC_GTEST_PROP(E3_xpbd_manifold, OneRowInOneSweepIsTheAccumulatedRow, ()) {
  const Face f = random_face();
  const real carried = *rc::gen::element(real(0), real(1));
  const real p_in = carried * *gen::in_range(0, 10);
  real p_row = p_in, p_block = p_in;
  vec3 t_row{}, t_block{};
  const XpbdManifoldRow& r = f.rows[0];
  const XpbdContactDelta row = xpbd_contact_delta_accumulated(f.A, f.B, r.p0, r.p1, r.o0, r.o1, r.n, 0, 0, 0, 0, 0,
                                                               0.8, f.h, p_row, t_row);
  XpbdContactDelta block;
  xpbd_manifold_delta(f.A, f.B, 1, f.rows, 0.8, f.h, 1, &p_block, &t_block, &block);
  const real scale = std::abs(p_row) + std::abs(p_in) + real(1e-30);
  RC_ASSERT(block.active == row.active);
  RC_ASSERT(std::abs(p_block - p_row) <= 1e-12 * scale);
  RC_ASSERT(length(block.dB.lin - row.dB.lin) <= 1e-12 * scale);
  RC_ASSERT(length(block.dB.ang - row.dB.ang) <= 1e-12 * scale * f.a);
  RC_ASSERT(length(block.dA.lin - row.dA.lin) <= 1e-12 * scale);
  // A is the world at the origin: its arm is the contact point itself (up to about 2.3 m here)
  RC_ASSERT(length(block.dA.ang - row.dA.ang) <= 1e-12 * scale * (f.a + length(r.p0)));
}

// A cube face sunk evenly by depth: solved together, the four corners lift it without turning it.
// Analytic: by symmetry the block's solution is a translation along n whose linearised size is the
// relaxed correction, h inv_m P_n = relaxation depth, with no angular impulse about the COM. The
// same four rows solved one by one (the rows' Gauss-Seidel) turn the cube: each corner lifts its
// own side first.
RC_GTEST_PROP(E3_xpbd_manifold, AnEvenlySunkFaceRisesWithoutTurning, ()) {
  const Face f = random_face();
  const vec3 n = f.rows[0].n;
  real p[4] = {0, 0, 0, 0};
  vec3 t[4] = {};
  XpbdContactDelta out[4];
  xpbd_manifold_delta(f.A, f.B, 4, f.rows, 0.8, f.h, 64, p, t, out);
  vec3 lin{}, ang{};
  for (const XpbdContactDelta& o : out) {
    lin += o.dB.lin;
    ang += o.dB.ang;
  }
  const real want = real(0.8) * f.depth / (f.h * f.B.inv_m);  // P_n [N s]
  RC_ASSERT(std::abs(dot(lin, n) - want) <= 1e-6 * want);
  RC_ASSERT(length(lin - dot(lin, n) * n) <= 1e-9 * want);
  RC_ASSERT(length(ang) <= 1e-6 * want * f.a);
  // The rows one by one, each on the poses the earlier rows left (linearised the same way).
  vec3 ang_rows{};
  XpbdSide B = f.B;
  for (int i = 0; i < 4; ++i) {
    real p1 = 0;
    vec3 t1{};
    const XpbdManifoldRow& r = f.rows[i];
    const XpbdContactDelta d = xpbd_contact_delta_accumulated(f.A, B, r.p0, r.p1, r.o0, r.o1, r.n, 0, 0, 0, 0, 0, 0.8,
                                                               f.h, p1, t1);
    spatial_vector v{};
    xpbd_apply_body_delta(B.X, v, vec3{}, mat33_diag(vec3{1, 1, 1} / f.B.inv_I.m[0][0]), f.B.inv_I, f.B.inv_m, d.dB, 1,
                          f.h);
    B.com = B.X.p;
    B.inv_I = world_inv_inertia(B.X.q, f.B.inv_I);
    ang_rows += d.dB.ang;
  }
  RC_ASSERT(length(ang_rows) > 1e-3 * want * f.a);
}

// A cube 100 times as heavy on a light one (e3-pile-heavy), 16 iterations, h = 1/600 s, 1 s:
// solved a pair at a time the light cube stays under the heavy one, level and at rest, and the
// ground carries both weights (statics: sum F_z = (m1 + m2) g, to the 1e-3 the unconverged pass
// leaves). Row by row (sweeps 0) the light cube rocked at several rad/s and the pair walked away.
TEST(E3_xpbd_manifold, SimHeavyOnLightStaysPutSolvedAPairAtATime) {
  const real h = real(1) / 600;
  for (int sweeps : {8, 0}) {
    XpbdScene s(column(2, 100), 16, true, false, sweeps);
    for (int i = 0; i < 600; ++i) s.step(h);
    const std::vector<transform> q = s.s0.body_q.to_host();
    const std::vector<spatial_vector> v = s.s0.body_qd.to_host();
    const real drift = std::max(length(vec3{q[0].p.x, q[0].p.y, 0}), length(vec3{q[1].p.x, q[1].p.y, 0}));
    if (sweeps == 0) {
      EXPECT_GT(drift, 1e-2) << "the rows one by one walked the pair away";
      continue;
    }
    EXPECT_LT(drift, 1e-4);
    for (int b = 0; b < 2; ++b) {
      EXPECT_LT(2 * std::abs(std::asin(std::min(real(1), length(vec3{q[b].q.x, q[b].q.y, 0})))), 1e-4) << b;
      EXPECT_LT(length(v[b].lin) + real(0.1) * length(v[b].ang), 1e-3) << b;
    }
    EXPECT_NEAR(s.ground_support(), s.weight(), 1e-3 * s.weight());
  }
}

// The colouring under manifold sweeps: the first row of each shape pair's run is coloured, the
// others are not (-2) and follow it, and no two coloured rows of a colour (the overflow aside) move
// the same body, on a box pile where a cube has up to eight pairs.
TEST(E3_xpbd_manifold, OnlyEachPairsFirstRowIsColouredAndColoursShareNoBody) {
  XpbdScene s(box_pile(5), 4, true, false, 4);
  for (int i = 0; i < 10; ++i) s.step(real(1) / 600);
  const int rows = s.contacts.checked_count();
  const std::vector<int> colour = s.solver.contact_colour().to_host();
  const std::vector<int> s0 = s.contacts.rigid_contact_shape0.to_host(), s1 = s.contacts.rigid_contact_shape1.to_host();
  const std::vector<int> body = s.model.shape_body.to_host();
  std::vector<std::vector<int>> taken(SolverXPBD::contact_colours, std::vector<int>(s.model.body_count, 0));
  int heads = 0;
  for (int i = 0; i < rows; ++i) {
    const bool head = i == 0 || s0[i - 1] != s0[i] || s1[i - 1] != s1[i];
    if (!head) {
      EXPECT_EQ(colour[i], -2) << i;
      continue;
    }
    ++heads;
    ASSERT_GE(colour[i], 0) << i;
    ASSERT_LE(colour[i], SolverXPBD::contact_colours) << i;
    if (colour[i] == SolverXPBD::contact_colours) continue;
    for (int b : {body[s0[i]], body[s1[i]]})
      if (b >= 0) EXPECT_EQ(taken[colour[i]][b]++, 0) << "row " << i << " body " << b << " colour " << colour[i];
  }
  EXPECT_GT(rows, 3 * heads);  // faces: about four rows a pair
  EXPECT_GE(heads, 50);        // every cube on the ground, the upper ones on four below
}

// Manifold sweeps on a box pile, stepped on 1 and on 2 threads: bitwise the same poses and twists.
TEST(E3_xpbd_manifold, DeterminismAcrossThreadCounts) {
  EXPECT_TRUE(test::bitwise_same_on_one_and_two_threads([] { return box_pile(4); }, 4, true, false, 4, 60));
}

// The option is checked when a step starts: sweeps without Gauss-Seidel, and outside [0, 64].
TEST(E3_xpbd_manifold, BadSweepsAreRefusedByName) {
  XpbdScene s(column(1, 1), 2, true, false, 4);
  s.solver.rigid_contact_gauss_seidel = false;
  EXPECT_TRUE(s.step_refuses("contact_manifold_sweeps needs rigid_contact_gauss_seidel"));
  s.solver.rigid_contact_gauss_seidel = true;
  s.solver.contact_manifold_sweeps = 65;
  EXPECT_TRUE(s.step_refuses("contact_manifold_sweeps must be a whole number in [0, 64] (got 65)"));
  s.solver.contact_manifold_sweeps = -1;
  EXPECT_TRUE(s.step_refuses("contact_manifold_sweeps must be a whole number in [0, 64] (got -1)"));
  s.solver.contact_manifold_sweeps = 4;
  EXPECT_NO_THROW(s.step(real(1) / 600));
}
