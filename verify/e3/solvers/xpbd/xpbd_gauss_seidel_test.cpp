// Tests of SolverXPBD's two extensions beyond the course (lib/e3/solvers/xpbd/solver_xpbd.h):
// rigid_contact_gauss_seidel (contact rows by colour, each applied at once) and contact_warm_start
// (impulses accumulated, clamped and carried to the next step: xpbd_contact_delta_accumulated).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <vector>

#include "e1/model.h"
#include "e3/solvers/xpbd/solver_xpbd.h"
#include "support/generators.h"
#include "support/tolerance.h"
#include "support/xpbd_scene.h"

using namespace impulse;
using impulse::test::XpbdScene;

namespace {

constexpr real kG = 9.81;

// One body B (random inverse mass and inertia) touching the static world A at one point, with
// depth > 0 of penetration along a random normal n; p1 on B's body frame, p0 on the world.
struct OneRow {
  XpbdSide A, B;
  vec3 p0, p1, n;
  real depth;
};

OneRow random_row(real depth) {
  OneRow r;
  r.B.body = 0;
  r.B.X = {vec3{*gen::in_range(-1, 1), *gen::in_range(-1, 1), *gen::in_range(-1, 1)}, *gen::unit_quat()};
  r.B.com = r.B.X.p;
  r.B.inv_m = *gen::in_range(0.1, 10);
  const mat33 R = quat_to_mat33(*gen::unit_quat());
  r.B.inv_I = R * mat33_diag({*gen::in_range(0.1, 10), *gen::in_range(0.1, 10), *gen::in_range(0.1, 10)}) * transpose(R);
  r.p1 = {*gen::in_range(-0.2, 0.2), *gen::in_range(-0.2, 0.2), *gen::in_range(-0.2, 0.2)};
  r.n = *gen::unit_vector();
  r.depth = depth;
  r.p0 = transform_point(r.B.X, r.p1) + depth * r.n;  // d = n . (x_B - x_A) = -depth
  return r;
}

// Two layers of 0.1 m spheres, the upper one in the hollows of the lower (the e3-pile-spheres rule).
Model sphere_pile(int side) {
  ModelBuilder b(Axis::z, vec3{0, 0, -kG});
  b.rigid_gap = 0.01;
  b.add_ground_plane();
  ShapeConfig cfg;
  cfg.mu = 0.5;
  cfg.mu_rolling = 0.03;
  for (int layer = 0; layer < 2; ++layer)
    for (int k = 0; k < side * side; ++k) {
      const real s = layer ? real(0.1) : real(0);
      b.add_shape_sphere(b.add_body({vec3{(k % side) * real(0.2) + s, (k / side) * real(0.2) + s,
                                          real(0.1) + layer * real(0.1434)},
                                     quat_identity()}),
                         transform_identity(), 0.1, cfg);
    }
  return b.finalize();
}

}  // namespace

// From nothing accumulated (p = 0, t = 0), the accumulated row's first correction is the course's
// row (E3.4-friction-anchor): the same normal impulse and the same deltas on both sides, with and
// without friction (the friction limit mu p' is then this correction's mu p_n).
RC_GTEST_PROP(E3_xpbd_accumulated, FromNothingAccumulatedItIsTheCoursesRow, ()) {
  const OneRow r = random_row(*gen::in_range(1e-5, 1e-2));
  const real mu = *rc::gen::element(real(0), real(0.5)), h = *gen::in_range(1e-4, 1e-2);
  const vec3 o{};
  const XpbdContactDelta course = xpbd_contact_delta(r.A, r.B, r.p0, r.p1, o, o, r.n, 0, 0, mu, 0, 0, 0.8, h);
  real p = 0;
  vec3 t{};
  const XpbdContactDelta acc = xpbd_contact_delta_accumulated(r.A, r.B, r.p0, r.p1, o, o, r.n, 0, 0, mu, 0, 0, 0.8, h, p, t);
  RC_ASSERT(course.active == 1 && acc.active == 1);
  const real scale = std::abs(course.p_n) + real(1e-30);
  RC_ASSERT(std::abs(acc.p_n - course.p_n) <= 1e-12 * scale);
  RC_ASSERT(std::abs(p - course.p_n) <= 1e-12 * scale);
  RC_ASSERT(length(acc.dB.lin - course.dB.lin) <= 1e-9 * scale);
  RC_ASSERT(length(acc.dB.ang - course.dB.ang) <= 1e-9 * scale);
  RC_ASSERT(length(acc.dA.lin - course.dA.lin) <= 1e-9 * scale);
}

// Apart (d > 0) with an impulse carried in, the row gives back at most what it holds and never goes
// below zero: p' = max(0, p - relaxation d / (h w)), and B gets n (p' - p).
RC_GTEST_PROP(E3_xpbd_accumulated, ApartTheCarriedImpulseShrinksToZeroAndNoFurther, ()) {
  const OneRow r = random_row(-*gen::in_range(1e-6, 1e-3));  // d = +gap
  const real h = *gen::in_range(1e-4, 1e-2), p_in = *gen::in_range(0, 10);
  const vec3 o{};
  real p = p_in;
  vec3 t{};
  const XpbdContactDelta acc = xpbd_contact_delta_accumulated(r.A, r.B, r.p0, r.p1, o, o, r.n, 0, 0, 0, 0, 0, 0.8, h, p, t);
  const vec3 r_b = transform_point(r.B.X, r.p1) - r.B.com;
  const real w = xpbd_inverse_effective_mass(0, mat33{}, vec3{}, r.B.inv_m, r.B.inv_I, r_b, r.n);
  const real want = std::max(real(0), p_in - real(0.8) * (-r.depth) / (h * w));
  // d is read back from points up to 2 m from the origin: its rounding, ~1e-15 m, over h w
  const real tol = 1e-12 * (p_in + 1) + 1e-14 / (h * w);
  RC_ASSERT(p >= 0);
  RC_ASSERT(std::abs(p - want) <= tol);
  RC_ASSERT(length(acc.dB.lin - (p - p_in) * r.n) <= tol);
}

// The colouring: every row of the record has one colour, and no two rows of a colour (the serial
// overflow colour aside) move the same body, on a pile where a sphere has up to nine rows.
TEST(E3_xpbd_gauss_seidel, ColoursNeverShareAMovingBody) {
  XpbdScene s(sphere_pile(8), 2, true, false);
  for (int i = 0; i < 20; ++i) s.step(real(1) / 600);
  const int rows = s.contacts.checked_count();
  ASSERT_GT(rows, 128);
  const std::vector<int> colour = s.solver.contact_colour().to_host();
  const std::vector<int> s0 = s.contacts.rigid_contact_shape0.to_host(), s1 = s.contacts.rigid_contact_shape1.to_host();
  const std::vector<int> body = s.model.shape_body.to_host();
  std::vector<std::vector<int>> taken(SolverXPBD::contact_colours, std::vector<int>(s.model.body_count, 0));
  int most = 0;
  for (int i = 0; i < rows; ++i) {
    ASSERT_GE(colour[i], 0) << i;
    ASSERT_LE(colour[i], SolverXPBD::contact_colours) << i;
    if (colour[i] == SolverXPBD::contact_colours) continue;
    most = std::max(most, colour[i] + 1);
    for (int b : {body[s0[i]], body[s1[i]]})
      if (b >= 0) EXPECT_EQ(taken[colour[i]][b]++, 0) << "row " << i << " body " << b << " colour " << colour[i];
  }
  EXPECT_LE(most, 20);  // a greedy colouring of rows with at most 9 per sphere needs at most 17
}

// The colouring is kept from step to step while the record holds the same shape pairs in the same
// rows, and made afresh otherwise: at every step of a pile that falls, lands and comes to rest
// (its pairs change, then stay), the colours equal those a fresh solver makes of the same record,
// with rows one by one and with a pair's rows together.
TEST(E3_xpbd_gauss_seidel, AKeptColouringIsTheFreshOne) {
  for (int sweeps : {0, 2}) {
    XpbdScene s(sphere_pile(4), 2, true, true, sweeps);
    State scratch = s.model.state();
    int kept = 0;
    std::vector<int> last;
    for (int step = 0; step < 240; ++step) {
      s.pipeline.collide(s.s0.body_q.view(), s.contacts);
      fill_contact_materials(s.model, SolverPath::xpbd, s.contacts);
      ContactsView v = s.contacts.view();
      SolverXPBD fresh(s.model, 2);
      fresh.rigid_contact_gauss_seidel = true;
      fresh.contact_manifold_sweeps = sweeps;
      fresh.step(s.s0, scratch, s.control, &v, real(1) / 600);
      s.solver.step(s.s0, s.s1, s.control, &v, real(1) / 600);
      std::swap(s.s0, s.s1);
      const int n = s.contacts.checked_count();
      const std::vector<int> a = s.solver.contact_colour().to_host(), b = fresh.contact_colour().to_host();
      ASSERT_TRUE(std::equal(a.begin(), a.begin() + n, b.begin())) << "step " << step << " sweeps " << sweeps;
      std::vector<int> pairs = s.contacts.rigid_contact_shape0.to_host();
      pairs.resize(n);
      kept += pairs == last ? 1 : 0;
      last = pairs;
    }
    EXPECT_GT(kept, 100) << "the resting pile kept its rows";  // the kept path was taken
  }
}

// Gauss-Seidel by colour with warm start, stepped on 1 and on 2 threads: bitwise the same poses and
// twists (the colours and each colour's rows do not depend on the schedule).
TEST(E3_xpbd_gauss_seidel, DeterminismAcrossThreadCounts) {
  EXPECT_TRUE(test::bitwise_same_on_one_and_two_threads([] { return sphere_pile(6); }, 2, true, true, 0, 120));
}

// A two-layer pile of 72 spheres (the e3-pile-spheres rule, 6 x 6 a layer), 2 iterations,
// h = 1/600 s, 1 s. Analytic: at rest the ground carries the pile's weight, sum m g, and nothing
// moves. Gauss-Seidel with warm start holds every sphere on the ground to 1e-8 m and reads back the
// weight to 1e-4; the course's Jacobi pass at the same cost leaves the bottom layer sunk by
// micrometres (each step's g h^2 is pushed out again, nothing is carried over).
TEST(E3_xpbd_gauss_seidel, SimWarmStartedPileRestsAndTheReadbackCarriesItsWeight) {
  const real h = real(1) / 600;
  XpbdScene warm(sphere_pile(6), 2, true, true), course(sphere_pile(6), 2, false, false);
  for (int i = 0; i < 600; ++i) {
    warm.step(h);
    course.step(h);
  }
  const real weight = warm.weight();
  EXPECT_NEAR(weight, 72 * 1000 * (4.0 / 3) * 3.14159265358979 * 1e-3 * kG, 1e-6 * weight);
  EXPECT_NEAR(warm.ground_support(), weight, 1e-4 * weight);
  auto ground_penetration = [](const State& st) {
    real worst = 0;
    for (const transform& X : st.body_q.to_host()) worst = std::max(worst, real(0.1) - X.p.z);
    return worst;
  };
  EXPECT_LT(ground_penetration(warm.s0), 1e-8);
  for (const spatial_vector& v : warm.s0.body_qd.to_host()) EXPECT_LT(length(v.lin) + 0.1 * length(v.ang), 1e-4);
  EXPECT_GT(ground_penetration(course.s0), 1e-6);
}

// The options are checked when a step starts: a warm start without Gauss-Seidel, a scale outside
// [0, 1] and a non-positive matching distance are refused with a message naming them.
TEST(E3_xpbd_gauss_seidel, BadOptionsAreRefusedByName) {
  XpbdScene s(sphere_pile(1), 2, false, true);
  EXPECT_TRUE(s.step_refuses("contact_warm_start needs rigid_contact_gauss_seidel"));
  s.solver.rigid_contact_gauss_seidel = true;
  s.solver.contact_warm_start_scale = real(1.5);
  EXPECT_TRUE(s.step_refuses("contact_warm_start_scale must be in [0, 1]"));
  s.solver.contact_warm_start_scale = 1;
  s.solver.contact_warm_start_friction_scale = real(-0.1);
  EXPECT_TRUE(s.step_refuses("contact_warm_start_friction_scale must be in [0, 1]"));
  s.solver.contact_warm_start_friction_scale = 1;
  s.solver.contact_warm_start_distance = 0;
  EXPECT_TRUE(s.step_refuses("contact_warm_start_distance must be a finite number > 0 m"));
  s.solver.contact_warm_start_distance = real(0.01);
  EXPECT_NO_THROW(s.step(real(1) / 600));
}

