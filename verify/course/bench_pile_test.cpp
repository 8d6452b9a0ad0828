// The whole-step pile benchmark (lib/bench/bench_pile.h): its quality definitions against
// closed forms, the shared layout rule, and one vs two threads bitwise. No wall-clock assertion.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "bench/bench_pile.h"
#include "bench/pile_overlap.h"

using namespace impulse;
using namespace impulse::course;

// A cube of half extent a turned 45 degrees about x: its lowest corners lie a sqrt(2) below the
// centre, so at height z its ground penetration is a sqrt(2) - z.
TEST(PileBench, OracleBoxPenetrationTurnedCube) {
  const PileSpec s = pile_spec("boxes");
  const real a = s.size, z = real(0.1);
  const real c = std::cos(real(M_PI) / 8), sn = std::sin(real(M_PI) / 8);
  const transform X{{0, 0, z}, quat{sn, 0, 0, c}};
  EXPECT_NEAR(pile_ground_penetration(s, X), a * std::sqrt(real(2)) - z, 1e-12);
  const transform up{{0, 0, a + real(0.01)}, quat_identity()};
  EXPECT_EQ(pile_ground_penetration(s, up), 0);
}

TEST(PileBench, OracleSpherePenetration) {
  const PileSpec s = pile_spec("spheres");
  EXPECT_NEAR(pile_ground_penetration(s, {{1, 2, s.size - real(0.003)}, quat_identity()}), 0.003, 1e-12);
}

// Body-body depth (pile_overlap.h) against closed forms: two spheres 2 r - d; two aligned cubes
// offset along x by d overlap 2 a - d; a cube turned 45 degrees about z reaches a sqrt(2) along x,
// so beside an aligned one the depth is a + a sqrt(2) - d (the least of the 15 axes' overlaps).
TEST(PileBench, OracleBodyBodyDepth) {
  const double r = 0.1, a = 0.1;
  const std::vector<transform> spheres = {{{0, 0, 0}, quat_identity()}, {{real(0.19), 0, 0}, quat_identity()},
                                          {{real(5), 0, 0}, quat_identity()}};
  const PileOverlap o = pile_overlap("spheres", r, spheres);
  EXPECT_EQ(o.pairs, 1);
  EXPECT_NEAR(o.max_depth, 0.01, 1e-12);
  EXPECT_NEAR(box_box_depth(a, {{0, 0, 0}, quat_identity()}, {{real(0.17), real(0.05), 0}, quat_identity()}), 0.03,
              1e-12);
  const real c = std::cos(real(M_PI) / 8), sn = std::sin(real(M_PI) / 8);
  const transform turned{{real(0.2), 0, 0}, quat{0, 0, sn, c}};
  EXPECT_NEAR(box_box_depth(a, {{0, 0, 0}, quat_identity()}, turned), a + a * std::sqrt(2.0) - 0.2, 1e-12);
  EXPECT_EQ(box_box_depth(a, {{0, 0, 0}, quat_identity()}, {{real(0.21), 0, 0}, quat_identity()}), 0);
  // cubes beyond the grid's reach 2 sqrt(3) a in a row: no pair
  EXPECT_EQ(pile_overlap("boxes", a, {{{0, 0, 0}, quat_identity()}, {{real(0.4), 0, 0}, quat_identity()}}).pairs, 0);
}

// The frame loop: one frame of N substeps of H / N through simulate_frame, colliding every substep
// or once a frame, is bitwise equal on one and two threads, and N substeps advance the same
// simulated time as N frames of H / N with one substep each (the same calls in the same order).
TEST(E3_7_determinism, DeterminismPileSubstepsOneAndTwoThreadsBitwise) {
  const PileSpec s = pile_spec("spheres");
  for (bool once : {false, true}) {
    PileRunOptions o;
    o.n = 1200;
    o.steps = 2;
    o.iterations = 1;
    o.substeps = 3;
    o.collide_once = once;
    o.h = s.h;
    o.compare_threads = true;
    const PileRunResult r = run_pile(s, o);
    EXPECT_EQ(r.bitwise_equal, 1) << once;
  }
  PileRunOptions f;
  f.n = 300;
  f.steps = 2;
  f.iterations = 2;
  f.substeps = 3;
  f.h = s.h;
  f.compare_threads = false;
  PileRunOptions g = f;
  g.steps = 6;
  g.substeps = 1;
  g.h = s.h / 3;
  const PileRunResult a = run_pile(s, f), b = run_pile(s, g);
  ASSERT_EQ(a.final_body_q.size(), b.final_body_q.size());
  EXPECT_EQ(std::memcmp(a.final_body_q.data(), b.final_body_q.data(), sizeof(transform) * a.final_body_q.size()), 0);
}

// Densities of pile.toml: the heavy-on-light stack's upper cube is 100 times as dense (and, the
// cubes being equal, as heavy) as the lower; the piles and the tall stack are uniform.
TEST(PileBench, HeavyOnLightIsAMassRatioOfAHundred) {
  const PileSpec h = pile_spec("heavy");
  EXPECT_EQ(pile_positions(h, 2)[1].x, pile_positions(h, 2)[0].x);  // one column
  EXPECT_DOUBLE_EQ(pile_density(h, 1, 2), 100 * pile_density(h, 0, 2));
  const PileSpec st = pile_spec("stack");
  for (int i = 0; i < 20; ++i) EXPECT_EQ(pile_density(st, i, 20), st.density);
  const PileSpec b = pile_spec("boxes");
  EXPECT_EQ(pile_density(b, 999, 1000), pile_density(b, 0, 1000));
}

// The layout rule of pile.toml, evaluated by hand for the first bodies of each layer.
TEST(PileBench, LayoutRuleFirstBodiesOfEachLayer) {
  const PileSpec s = pile_spec("spheres");
  const std::vector<vec3> p = pile_positions(s, 8);  // 4 per layer, side 2
  ASSERT_EQ(p.size(), 8u);
  EXPECT_DOUBLE_EQ(p[0].x, 0);
  EXPECT_DOUBLE_EQ(p[1].x, s.pitch);
  EXPECT_DOUBLE_EQ(p[2].y, s.pitch);
  EXPECT_DOUBLE_EQ(p[4].x, s.shift);
  EXPECT_DOUBLE_EQ(p[4].z, s.z0 + s.rise);
}

TEST(PileBench, RefusesBadOptions) {
  PileRunOptions o;
  o.h = pile_spec("boxes").h;
  o.n = 0;
  EXPECT_THROW(run_pile(pile_spec("boxes"), o), std::invalid_argument);
  EXPECT_THROW(pile_spec("cones"), std::invalid_argument);
}

// 1 and 2 OpenMP threads: bitwise equal poses and twists after a few whole steps. N is large
// enough that the body and contact loops run in parallel (parallel_for splits from 1024 up).
TEST(E3_7_determinism, DeterminismPileOneAndTwoThreadsBitwise) {
  for (const char* kind : {"spheres", "boxes"}) {
    const PileSpec s = pile_spec(kind);
    PileRunOptions o;
    o.n = 1200;
    o.steps = 4;
    o.iterations = 2;
    o.h = s.h;
    o.compare_threads = true;
    const PileRunResult r = run_pile(s, o);
    EXPECT_EQ(r.bitwise_equal, 1) << kind;
    EXPECT_GT(r.contacts_per_step, 1024) << kind;
  }
}
