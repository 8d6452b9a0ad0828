// Lemke's pivot path (LcpOptions::trace): a 2 x 2 path worked by hand, and the path on the
// four-ball pile's 70 x 70 contact LCP checked against the rules of the method.
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "st/experiments.h"
#include "st/lcp.h"

using namespace impulse::st;

// M = [[2, 1], [1, 2]], q = (-5, -6), variables w1, w2, z1, z2, z0 = 0..4. By hand:
//   1. z0 enters at max(-q) = 6; w2 (the most negative q) leaves.
//   2. its complement z2 enters: z0 = 6 - 2 z2 and w1 = 1 - z2, so w1 leaves at z2 = 1, z0 = 4.
//   3. z1 enters: with w1 = w2 = 0, z2 = 1 + z1 and z0 = 4 - 3 z1, so z0 leaves at z1 = 4/3.
// The solution is z = (4/3, 7/3).
TEST(ST_3_lemke_lexicographic, GoldenTwoByTwoPivotPathByHand) {
  Eigen::MatrixXd M(2, 2);
  M << 2, 1, 1, 2;
  const Eigen::VectorXd q = (Eigen::VectorXd(2) << -5, -6).finished();
  LcpOptions opt;
  opt.trace = true;
  const LcpResult r = solve_lcp(M, q, opt);
  ASSERT_EQ(r.status, LcpStatus::solved);
  ASSERT_EQ(r.trace.size(), 3u);
  EXPECT_EQ(r.trace[0].entering, 4);
  EXPECT_EQ(r.trace[0].leaving, 1);
  EXPECT_NEAR(r.trace[0].z0, 6, 1e-12);
  EXPECT_EQ(r.trace[1].entering, 3);
  EXPECT_EQ(r.trace[1].leaving, 0);
  EXPECT_NEAR(r.trace[1].z0, 4, 1e-12);
  EXPECT_EQ(r.trace[2].entering, 2);
  EXPECT_EQ(r.trace[2].leaving, 4);
  EXPECT_EQ(r.trace[2].z0, 0);
  EXPECT_NEAR(r.z(0), 4.0 / 3, 1e-12);
  EXPECT_NEAR(r.z(1), 7.0 / 3, 1e-12);
  EXPECT_TRUE(solve_lcp(M, q).trace.empty());  // recorded only on request
}

// The rules every path obeys: z0 enters first and in place of the most negative q; each later
// entering variable is the complement of the one that left before; the last pivot removes z0.
TEST(ST_3_lemke_lexicographic, SimFourBallPathFollowsTheComplementRule) {
  const ContactLcp L = four_ball_seven_contact_lcp(BallsSetup{}, 0.005, 8);
  const int n = int(L.b.size());
  ASSERT_EQ(n, 70);
  LcpOptions opt;
  opt.trace = true;
  const LcpResult r = solve_lcp(L.A, L.b, opt);
  ASSERT_EQ(r.status, LcpStatus::solved);
  ASSERT_EQ(int(r.trace.size()), r.pivots);
  Eigen::Index most_negative = 0;
  L.b.minCoeff(&most_negative);
  EXPECT_EQ(r.trace.front().entering, 2 * n);
  EXPECT_EQ(r.trace.front().leaving, int(most_negative));
  EXPECT_NEAR(r.trace.front().z0, -L.b.minCoeff(), 1e-12 * (1 + std::abs(L.b.minCoeff())));
  for (std::size_t i = 1; i < r.trace.size(); ++i) {
    const int left = r.trace[i - 1].leaving;
    EXPECT_EQ(r.trace[i].entering, left < n ? left + n : left - n) << i;
    EXPECT_GE(r.trace[i].z0, 0) << i;
  }
  EXPECT_EQ(r.trace.back().leaving, 2 * n);
}
