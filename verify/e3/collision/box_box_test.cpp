// The box-box axis test (lib/e3/collision/box_box.h) against EPA, the course's route (a), as the
// oracle: the same depth and normal on random overlapping boxes, witnesses on the boxes, and the
// same contact points through convex_contact_candidates.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "e3/collision/box_box.h"
#include "e3/collision/narrow_phase.h"

using namespace impulse;

namespace {

quat random_rotation(std::mt19937& rng, real amplitude) {
  std::uniform_real_distribution<double> u(-1, 1);
  const quat q{amplitude * u(rng), amplitude * u(rng), amplitude * u(rng), 1};
  const real l = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  return {q.x / l, q.y / l, q.z / l, q.w / l};
}

ConvexCore box(vec3 half, transform X) {
  ConvexCore c;
  c.type = SHAPE_BOX;
  c.scale = half;
  c.X = X;
  return c;
}

// Distance of world point x outside box c (0 inside) [m].
real outside(const ConvexCore& c, vec3 x) {
  const vec3 l = quat_rotate_inv(c.X.q, x - c.X.p);
  const real dx = std::max(std::abs(l.x) - c.scale.x, real(0)), dy = std::max(std::abs(l.y) - c.scale.y, real(0)),
             dz = std::max(std::abs(l.z) - c.scale.z, real(0));
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

}  // namespace

TEST(E3_2_geometry_routes, BoxBoxAxesGiveEpasDepthAndNormal) {
  // Random sizes and poses, tilted a little (resting piles) and anyhow; every pair GJK calls
  // overlapping. EPA's depth is accurate to its stopping tolerance (about 1e-10 m here).
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  int checked = 0, edges = 0;
  for (int t = 0; t < 4000; ++t) {
    const real amp = t % 2 ? real(1) : real(1e-4);
    const ConvexCore A =
        box({0.5 + 0.3 * u(rng), 0.5 + 0.3 * u(rng), 0.5 + 0.3 * u(rng)}, {{0, 0, 0}, random_rotation(rng, amp)});
    const ConvexCore B = box({0.5 + 0.3 * u(rng), 0.5 + 0.3 * u(rng), 0.5 + 0.3 * u(rng)},
                             {{0.6 * u(rng), 0.6 * u(rng), 0.9 + 0.3 * u(rng)}, random_rotation(rng, amp)});
    const GjkResult g = gjk_distance(A, B);
    if (!g.overlap) continue;
    const EpaResult e = epa_penetration(A, B, g);
    ASSERT_TRUE(e.ok);
    BoxBoxPenetration bb;
    ASSERT_TRUE(box_box_penetration(A, B, bb)) << t;
    EXPECT_NEAR(bb.depth, e.depth, 1e-9) << t;
    EXPECT_LT(length(bb.normal - e.normal), 1e-6) << t;
    // the witnesses: on (not outside) their boxes, the depth apart along the normal
    EXPECT_LT(outside(A, bb.point_a), 1e-9) << t;
    EXPECT_LT(outside(B, bb.point_b), 1e-9) << t;
    EXPECT_NEAR(dot(bb.normal, bb.point_b - bb.point_a), -bb.depth, 1e-9) << t;
    edges += bb.face ? 0 : 1;
    ++checked;
  }
  EXPECT_GT(checked, 2500);
  EXPECT_GT(edges, 50);  // the edge-edge axes were exercised
}

TEST(E3_2_geometry_routes, BoxBoxApartIsNoneAndTiedFacesWitnessesLieOnBoth) {
  // Boxes 1 mm apart along x: false, and convex_contact_candidates takes GJK, whose points are the
  // gap apart (within the 1 cm accepted, the faces' four corners).
  const ConvexCore A = box({0.5, 0.5, 0.5}, {{0, 0, 0}, quat{0, 0, 0, 1}});
  const ConvexCore B = box({0.5, 0.5, 0.5}, {{1.001, 0.2, 0.1}, quat{0, 0, 0, 1}});
  BoxBoxPenetration bb;
  EXPECT_FALSE(box_box_penetration(A, B, bb));
  PairContact gap[64];
  const int gap_count = convex_contact_candidates(A, B, 0, real(0.01), gap, 64);
  EXPECT_EQ(gap_count, 4);
  for (int i = 0; i < gap_count; ++i) EXPECT_NEAR(gap[i].s, 0.001, 1e-12);
  // and 1 mm into each other: depth 1 mm along +x, a face
  const ConvexCore C = box({0.5, 0.5, 0.5}, {{0.999, 0.2, 0.1}, quat{0, 0, 0, 1}});
  ASSERT_TRUE(box_box_penetration(A, C, bb));
  EXPECT_NEAR(bb.depth, 0.001, 1e-12);
  EXPECT_NEAR(bb.normal.x, 1, 1e-12);
  EXPECT_TRUE(bb.face);
  // Faces parallel (a tie of B's support corners): the witnesses are in both faces, though the
  // centre of B's face overhangs A's (the pyramid's middle cube on a bottom one, lib/course/e3).
  const ConvexCore D = box({0.5, 0.5, 0.5}, {{0.6, 0.3, 0.999}, quat{0, 0, 0, 1}});
  ASSERT_TRUE(box_box_penetration(A, D, bb));
  EXPECT_NEAR(bb.depth, 0.001, 1e-12);
  EXPECT_LT(outside(A, bb.point_a), 1e-12);
  EXPECT_LT(outside(D, bb.point_b), 1e-12);
}

TEST(E3_2_geometry_routes, BoxBoxRestingFacesPointsAreTheClippedFacesAndEpas) {
  // A cube resting on another with an overhang (the box pile's layout, bench/peers/scenes/pile.toml),
  // both tilted by up to 1e-5 rad and 1e-9 rad from each other, 10 nm deep. The two face axes then
  // tie to about 1e-10 m, and the axes' depth may be an overhanging corner's, off the other face and
  // deeper than every clipped point. The candidates must be the clipped faces alone, in their order:
  // a fifth point added and dropped on such a tie reordered the rows step after step, and the
  // Gauss-Seidel pile never came to rest (about half of these poses did it). They are also EPA's
  // manifold's points.
  std::mt19937 rng(5);
  int checked = 0;
  for (int t = 0; t < 200; ++t) {
    const quat qa = random_rotation(rng, 1e-5);
    const ConvexCore A = box({0.1, 0.1, 0.1}, {{0, 0, 0.1}, qa});
    ConvexCore B = box({0.1, 0.1, 0.1}, {{0, 0, 0}, quat_mul(qa, random_rotation(rng, 1e-9))});
    B.X.p = transform_point(A.X, vec3{0.05, 0.05, 0.2 - 1e-8});
    BoxBoxPenetration bb;
    ASSERT_TRUE(box_box_penetration(A, B, bb)) << t;
    ASSERT_TRUE(bb.face) << t;
    PairContact c[64], clipped[64];
    const int count = convex_contact_candidates(A, B, 0, real(0.01), c, 64);
    const int clip_count = manifold_points(A, B, bb.normal, bb.point_a, 0, real(0.01), clipped, 64);
    ASSERT_EQ(count, clip_count) << t;
    for (int i = 0; i < count; ++i) EXPECT_EQ(length(c[i].a - clipped[i].a), 0) << "point " << i << " of pose " << t;
    const GjkResult g = gjk_distance(A, B);
    ASSERT_TRUE(g.overlap);
    const EpaResult e = epa_penetration(A, B, g);
    PairContact ce[64];
    const int ne = manifold_with_deepest(A, B, e.normal, e.point_a, e.point_b, -e.depth, 0, real(0.01), ce, 64);
    for (int i = 0; i < count; ++i) {
      real nearest = 1e30;
      for (int j = 0; j < ne; ++j) nearest = std::min(nearest, length(c[i].a - ce[j].a));
      EXPECT_LT(nearest, 1e-6) << "point " << i << " of pose " << t;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 200);
}
