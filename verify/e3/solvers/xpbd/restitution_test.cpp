// Tests of the restitution pass of SolverXPBD (course E3 §5) and its absence from the readback.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "course/e3/xpbd_demos.h"
#include "support/generators.h"

using namespace impulse;

namespace {

constexpr real kH = real(1) / 600;  // [s]

template <class T>
bool bitwise_equal(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), sizeof(T) * a.size()) == 0);
}

// A cube pressed 5 mm into the plane at rest: the projection pushes it out with an upward velocity
// (over-separation) that the restitution pass may take back.
struct PressedBox {
  std::vector<spatial_vector> qd;
  std::vector<spatial_vector> impulse;
  XpbdStepTrace trace;
};
PressedBox pressed_box_step(bool restitution, real e) {
  FixtureOptions fx;
  fx.restitution = e;
  XpbdWorld w(demo_box_on_plane(real(0.5), real(-0.005)), 64, fx);
  w.solver->enable_restitution = restitution;
  w.step(kH);
  return {w.state_0->body_qd.to_host(), w.solver->contact_impulse().to_host(), w.solver->trace()};
}

}  // namespace

TEST(E3_5_restitution_gate, SimDisabledPassIgnoresTheCoefficient) {
  std::vector<spatial_vector> v[2];
  for (int k = 0; k < 2; ++k) {
    FixtureOptions fx;
    fx.restitution = k;
    XpbdWorld w(demo_sphere_drop(real(0.1), real(0.2)), 16, fx);
    for (int s = 0; s < 200; ++s) w.step(kH);
    EXPECT_FALSE(w.solver->trace().restitution_ran);
    v[k] = w.state_0->body_qd.to_host();
  }
  EXPECT_TRUE(bitwise_equal(v[0], v[1]));
}

TEST(E3_5_restitution_record, SimOneManifoldPerBodyPair) {
  XpbdWorld w(demo_pyramid(), 256);
  w.solver->enable_restitution = true;
  for (int s = 0; s < 60; ++s) w.step(kH);
  // ground-0, ground-1, ground-2, 0-3, 1-3, 1-4, 2-4, 3-5, 4-5
  EXPECT_EQ(w.solver->trace().restitution_manifolds, 9);
  EXPECT_EQ(w.solver->trace().restitution_max_manifold_size, 4);
}

RC_GTEST_PROP(E3_5_manifold_cap, AtMostTwelveDeepestFirstDeterministic, ()) {
  int n = *rc::gen::inRange(1, 40);
  std::vector<real> depth;
  std::vector<vec3> pts;
  for (int i = 0; i < n; ++i) {
    depth.push_back(*gen::in_range(-0.01, 0));
    pts.push_back(*gen::vector(1));
  }
  auto a = select_manifold_contacts(depth, pts, 12), b = select_manifold_contacts(depth, pts, 12);
  RC_ASSERT(a == b);
  RC_ASSERT(int(a.size()) == std::min(n, 12));
  RC_ASSERT(std::is_sorted(a.begin(), a.end()));
  RC_ASSERT(std::adjacent_find(a.begin(), a.end()) == a.end());
  int deepest = int(std::min_element(depth.begin(), depth.end()) - depth.begin());
  RC_ASSERT(std::find(a.begin(), a.end(), deepest) != a.end());
}

// Oracle: the host selection the pass ran before it became device code, written again here with
// std containers (distances kept per candidate from +inf, std::min, a final std::sort); the device
// routine the pass now runs per manifold must choose the same positions.
RC_GTEST_PROP(E3_5_manifold_cap, DeviceSelectionEqualsTheHostSelection, ()) {
  const int n = *rc::gen::inRange(1, 40);
  const int cap = *rc::gen::inRange(1, 14);
  std::vector<real> depth;
  std::vector<vec3> pts;
  for (int i = 0; i < n; ++i) {
    depth.push_back(*rc::gen::element(real(-0.01), real(-0.005), real(0)) * *gen::in_range(0.5, 1));
    pts.push_back(*gen::vector(1));
  }
  std::vector<int> oracle;
  if (n <= cap) {
    for (int i = 0; i < n; ++i) oracle.push_back(i);
  } else {
    const int deepest = int(std::min_element(depth.begin(), depth.end()) - depth.begin());
    std::vector<real> mind(std::size_t(n), std::numeric_limits<real>::infinity());
    std::vector<bool> taken(std::size_t(n), false);
    oracle.push_back(deepest);
    taken[std::size_t(deepest)] = true;
    while (int(oracle.size()) < cap) {
      const int last = oracle.back();
      int best = -1;
      for (int i = 0; i < n; ++i) {
        if (taken[std::size_t(i)]) continue;
        mind[std::size_t(i)] = std::min(mind[std::size_t(i)], length(pts[std::size_t(i)] - pts[std::size_t(last)]));
        if (best < 0 || mind[std::size_t(i)] > mind[std::size_t(best)]) best = i;
      }
      taken[std::size_t(best)] = true;
      oracle.push_back(best);
    }
    std::sort(oracle.begin(), oracle.end());
  }
  std::vector<real> mind(static_cast<std::size_t>(n));
  std::vector<int> taken(static_cast<std::size_t>(n)), chosen(static_cast<std::size_t>(std::min(n, cap)));
  const int m = select_manifold_candidates(
      n, [&](int i) { return depth[std::size_t(i)]; }, [&](int i) { return pts[std::size_t(i)]; }, cap, mind.data(),
      taken.data(), chosen.data());
  chosen.resize(std::size_t(m));
  RC_ASSERT(chosen == oracle);
}

TEST(E3_5_manifold_cap, SimManifoldsNeverExceedTwelve) {
  // A sphere pile: every manifold is one sphere pair (1 record), the cap holds trivially; a box
  // resting on a plane gives 4. The property above covers larger candidate sets.
  XpbdWorld w(demo_sphere_pile(20, real(0.1), 2), 512);
  w.solver->enable_restitution = true;
  for (int s = 0; s < 30; ++s) w.step(kH);
  EXPECT_LE(w.solver->trace().restitution_max_manifold_size, SolverXPBD::restitution_manifold_max_contacts);
  EXPECT_GT(w.solver->trace().restitution_manifolds, 0);
}

TEST(E3_5_iteration_counts, GoldenEightSweepsTwoOuterByDefault) {
  Model m = demo_box_on_plane().finalize();
  SolverXPBD s(m);
  EXPECT_EQ(s.rigid_contact_restitution_iterations, 2);
  EXPECT_EQ(SolverXPBD::restitution_inner_iterations, 8);
  EXPECT_EQ(SolverXPBD::restitution_manifold_max_contacts, 12);
  EXPECT_EQ(pressed_box_step(true, 0).trace.restitution_sweeps, 16);
}

TEST(E3_5_pgs_bounds, BoundedNegativeFirstThenNonNegative) {
  EXPECT_EQ(restitution_pgs_increment(0, 0, 1, 1, -0.3), -0.3);  // pull limited by the first-outer bound
  EXPECT_EQ(restitution_pgs_increment(0, 0, 1, 1, 0), 0);        // later outers: no pull at all
  EXPECT_EQ(restitution_pgs_increment(0.5, 0, 1, 1, 0), -0.5);   // an accumulated push can be taken back to 0
  EXPECT_EQ(restitution_pgs_increment(0, 2, 1, 0.5, 0), 2);      // push: (target - v) / w
}

TEST(E3_5_pgs_bounds, SimFirstOuterPullsLaterOutersOnlyPush) {
  PressedBox r = pressed_box_step(true, 0);
  ASSERT_EQ(r.trace.restitution_lambda_min_per_outer.size(), 2u);
  EXPECT_LT(r.trace.restitution_lambda_min_per_outer[0], 0);  // removes the projection's over-separation
  EXPECT_GE(r.trace.restitution_lambda_min_per_outer[1], 0);
}

TEST(E3_5_e_zero_still_acts, SimEnabledPassWithZeroRestitutionChangesVelocities) {
  PressedBox off = pressed_box_step(false, 0), on = pressed_box_step(true, 0);
  EXPECT_GT(off.qd[0].lin.z, 0.1);                        // the projection launched the box upward
  EXPECT_LT(on.qd[0].lin.z, off.qd[0].lin.z - 0.1);       // e = 0, yet the pass took most of it back
}

// Oracle: one head-on collision of two equal spheres (2 mm overlap, 1 m/s each, no gravity), built
// twice with the same bodies and the shapes added in the other order; in the second build each
// row's shape0 lies on the pair's second body (the manifold's flipped side). The restitution pass
// must give each sphere the same velocity either way (to rounding: the rows' arithmetic differs).
TEST(E3_5_restitution_record, SimShapeOrderDoesNotChangeTheBounce) {
  std::vector<spatial_vector> v[2];
  for (int order = 0; order < 2; ++order) {
    ModelBuilder b;
    b.gravity = vec3{0, 0, 0};
    const int left = b.add_body({{-0.099, 0, 0}, quat_identity()});
    const int right = b.add_body({{0.099, 0, 0}, quat_identity()});
    b.add_shape_sphere(order ? right : left, transform_identity(), 0.1);
    b.add_shape_sphere(order ? left : right, transform_identity(), 0.1);
    FixtureOptions fx;
    fx.restitution = real(0.5);
    fx.mu = 0;
    XpbdWorld w(b, 16, fx);
    w.solver->enable_restitution = true;
    const std::vector<spatial_vector> qd{{{1, 0, 0}, {0, 0, 0}}, {{-1, 0, 0}, {0, 0, 0}}};
    w.state_0->body_qd.copy_from_host(qd.data());
    w.step(kH);
    ASSERT_TRUE(w.solver->trace().restitution_ran);
    ASSERT_EQ(w.solver->trace().restitution_manifolds, 1);
    v[order] = w.state_0->body_qd.to_host();
  }
  EXPECT_LT(v[0][0].lin.x, 0);  // the spheres separate
  for (int body = 0; body < 2; ++body) {
    EXPECT_NEAR(v[0][body].lin.x, v[1][body].lin.x, 1e-9) << body;
    EXPECT_NEAR(v[0][body].lin.y, v[1][body].lin.y, 1e-9) << body;
    EXPECT_NEAR(v[0][body].ang.z, v[1][body].ang.z, 1e-9) << body;
  }
}

TEST(E3_5_readback_excludes_restitution, SimReadbackIdenticalWithAndWithoutThePass) {
  PressedBox off = pressed_box_step(false, real(0.5)), on = pressed_box_step(true, real(0.5));
  EXPECT_TRUE(bitwise_equal(off.impulse, on.impulse));
  EXPECT_FALSE(bitwise_equal(off.qd, on.qd));
}

// The bounce: a sphere dropped onto the plane. Over the impact, the momentum change equals the
// readback's impulse plus gravity's plus the restitution pass's; the readback alone misses the last.
TEST(E3_5_readback_excludes_restitution, SimBounceReadbackMissesTheRestitutionImpulse) {
  for (bool restitution : {false, true}) {
    FixtureOptions fx;
    fx.restitution = real(0.5);
    fx.mu = 0;
    XpbdWorld w(demo_sphere_drop(real(0.1), real(0.2)), 16, fx);
    w.solver->enable_restitution = restitution;
    real m = w.model->body_mass.to_host()[0];
    real p_readback = 0, p_restitution = 0, p_gravity = 0, v_impact = 0;
    real v0 = w.state_0->body_qd.to_host()[0].lin.z;
    int contact_steps = 0;
    for (int s = 0; s < 240; ++s) {
      real v_before = w.state_0->body_qd.to_host()[0].lin.z;
      w.step(kH);
      real f = w.contact_force_on(0).z;
      if (f != 0 && contact_steps++ == 0) v_impact = v_before;
      p_readback += f * kH;
      p_gravity -= m * real(9.81) * kH;
      if (w.solver->trace().restitution_ran) p_restitution += m * w.solver->trace().restitution_body_dv[0].lin.z;
    }
    real dp = m * (w.state_0->body_qd.to_host()[0].lin.z - v0);
    ASSERT_GT(contact_steps, 0);
    // (tolerance: the 1e-4 m/s small-velocity clamp may zero a resting velocity once)
    EXPECT_NEAR(dp, p_readback + p_gravity + p_restitution, 2e-4 * m) << restitution;
    if (restitution) {
      EXPECT_GT(p_restitution, 0.3 * m * -v_impact);  // a sizeable share of the bounce is not in the readback
    } else {
      EXPECT_EQ(p_restitution, 0);
    }
  }
}

// K coincident ground planes, each on its own kinematic body: K manifolds act on the sphere with the
// same velocity delta. Averaged over the manifolds, the result equals the single-plane one (a sum
// would multiply the bounce by K). The position pass is the same too: K equal corrections / N = K.
TEST(E3_5_manifold_average, SimCoincidentManifoldsAverageToOne) {
  std::vector<spatial_vector> v[2];
  for (int K = 1; K <= 2; ++K) {
    ModelBuilder b;
    for (int k = 0; k < K; ++k) {
      int ground = b.add_body(transform_identity(), {}, false, true);
      b.add_shape_plane(ground);
    }
    int s = b.add_body({{0, 0, real(0.3)}, quat_identity()});
    b.add_shape_sphere(s, transform_identity(), real(0.1));
    FixtureOptions fx;
    fx.restitution = real(0.5);
    fx.mu = 0;
    XpbdWorld w(b, 16, fx);
    w.solver->enable_restitution = true;
    int manifolds = 0;
    for (int step = 0; step < 150; ++step) {
      w.step(kH);
      manifolds = std::max(manifolds, w.solver->trace().restitution_manifolds);
    }
    EXPECT_EQ(manifolds, K);
    v[K - 1] = {w.state_0->body_qd.to_host()[K]};
  }
  EXPECT_NEAR(v[0][0].lin.z, v[1][0].lin.z, 1e-12);
  EXPECT_GT(v[0][0].lin.z, 0.5);  // it bounced
}
