// Tests of lib/e3/collision/filter.h (course E3 §2, the filter table): the world and group rules, same-body,
// exclusion and joint filters, alone and through the whole pipeline, against an oracle that
// restates the course's table in another form.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>
#include <utility>

#include "e3/collision/collision_pipeline.h"
#include "e3/collision/filter.h"
#include "support/generators.h"

using namespace impulse;

namespace {

// The course's table, written as a lookup on signs.
bool oracle_group(int g0, int g1) {
  if (g0 == 0 || g1 == 0) return false;
  const bool p0 = g0 > 0, p1 = g1 > 0;
  if (p0 != p1) return true;        // one positive, one negative
  return p0 ? g0 == g1 : g0 != g1;  // both positive: same group; both negative: different groups
}
bool oracle_world(int w0, int w1) { return w0 == -1 || w1 == -1 || w0 == w1; }

struct RandomScene {
  ModelBuilder b;
  std::set<std::pair<int, int>> expected;  // pairs that must produce a contact
  int shapes = 0;
};

// n overlapping spheres (all within 0.1 m of the origin, radius 0.3 m) on random bodies, worlds,
// groups, exclusion pairs and joints; every pair that passes the filters touches.
RandomScene random_filter_scene() {
  RandomScene s;
  const int bodies = *rc::gen::inRange(1, 5);
  const MassProperties unit{1, vec3{}, mat33_diag({1, 1, 1})};  // a body may end up without shapes
  for (int i = 0; i < bodies; ++i) s.b.add_link({*gen::vector(0.05), quat_identity()}, unit);
  const int n = *rc::gen::inRange(2, 12);
  std::vector<int> body(n), world(n), group(n);
  for (int i = 0; i < n; ++i) {
    ShapeConfig cfg;
    s.b.current_world = world[i] = *rc::gen::inRange(-1, 3);
    cfg.collision_group = group[i] = *rc::gen::inRange(-3, 4);
    const transform X{*gen::vector(0.05), quat_identity()};
    body[i] = *rc::gen::inRange(-1, bodies);
    s.b.add_shape_sphere(body[i], X, 0.3, cfg);
  }
  std::set<std::pair<int, int>> excluded;
  const int ne = *rc::gen::inRange(0, 4);
  for (int k = 0; k < ne; ++k) {
    const int a = *rc::gen::inRange(0, n), c = *rc::gen::inRange(0, n);
    if (a == c) continue;
    s.b.add_shape_collision_filter_pair(a, c);
    excluded.insert({std::min(a, c), std::max(a, c)});
  }
  // A tree of joints: body c > 0 may hang from a body below it; a joint with a parent body filters
  // the pair (a joint from the world, parent -1, filters nothing, as in Newton).
  std::set<std::pair<int, int>> joint;
  for (int child = 1; child < bodies; ++child) {
    const int parent = *rc::gen::inRange(-2, child);  // -2: no joint
    if (parent == -2) continue;
    s.b.add_joint_ball(parent, child);
    if (parent >= 0) joint.insert({parent, child});
  }
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      const bool pass = oracle_world(world[i], world[j]) && oracle_group(group[i], group[j]) && body[i] != body[j] &&
                        !excluded.count({i, j}) && !joint.count({std::min(body[i], body[j]), std::max(body[i], body[j])});
      if (pass) s.expected.insert({i, j});
    }
  s.shapes = n;
  return s;
}

std::set<std::pair<int, int>> contact_pairs(const Model& m, const std::vector<transform>& q, BroadPhaseMode mode) {
  CollisionPipelineOptions o;
  o.broad_phase = mode;
  CollisionPipeline p(m, o);
  Contacts c = p.contacts();
  p.collide({q.data(), static_cast<std::int64_t>(q.size())}, c);
  const int n = c.checked_count();
  std::vector<int> s0 = c.rigid_contact_shape0.to_host(), s1 = c.rigid_contact_shape1.to_host();
  std::set<std::pair<int, int>> out;
  for (int i = 0; i < n; ++i) out.insert({s0[i], s1[i]});
  return out;
}

}  // namespace

// --- E3.2-collision-group ------------------------------------------------------------------------

TEST(E3_2_collision_group, GoldenCourseTable) {
  // seed 000 L47-L51 via the inventory's table.
  EXPECT_TRUE(test_group_pair(1, 1));
  EXPECT_FALSE(test_group_pair(1, 2));
  EXPECT_TRUE(test_group_pair(1, -1));
  EXPECT_FALSE(test_group_pair(-1, -1));
  EXPECT_TRUE(test_group_pair(-1, -2));
  EXPECT_FALSE(test_group_pair(0, 0));
  EXPECT_FALSE(test_group_pair(0, -1));
  EXPECT_FALSE(test_group_pair(0, 1));
}

TEST(E3_2_collision_group, ExhaustiveSymmetricAndEqualToTheTable) {
  for (int a = -3; a <= 3; ++a)
    for (int b = -3; b <= 3; ++b) {
      EXPECT_EQ(test_group_pair(a, b), test_group_pair(b, a)) << a << ", " << b;
      EXPECT_EQ(test_group_pair(a, b), oracle_group(a, b)) << a << ", " << b;
    }
  // Not a bit mask: groups 1 and 3 share bit 0 but do not collide.
  EXPECT_FALSE(test_group_pair(1, 3));
}

// --- E3.2-shape-world ----------------------------------------------------------------------------

RC_GTEST_PROP(E3_2_shape_world, DifferentNonNegativeWorldsNeverPassAndMinusOneDefersToGroups, ()) {
  const int w0 = *rc::gen::inRange(-1, 4), w1 = *rc::gen::inRange(-1, 4);
  const int g0 = *rc::gen::inRange(-3, 4), g1 = *rc::gen::inRange(-3, 4);
  const bool r = test_world_and_group_pair(w0, w1, g0, g1);
  if (w0 >= 0 && w1 >= 0 && w0 != w1) RC_ASSERT(!r);
  else RC_ASSERT(r == test_group_pair(g0, g1));
}

TEST(E3_2_shape_world, WorldBelowMinusOneIsAnErrorNamingTheShape) {
  ModelBuilder b;
  b.current_world = -2;
  try {
    b.add_shape_sphere(-1, transform_identity(), 0.1, {}, "ball");
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'ball'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("below -1"), std::string::npos) << e.what();
  }
}

// --- E3.2-same-body-filter -----------------------------------------------------------------------

TEST(E3_2_same_body_filter, OneBodyExclusionsAndJointsGiveNoContacts) {
  ModelBuilder b;
  const transform I = transform_identity();
  const int b0 = b.add_link(), b1 = b.add_link(), b2 = b.add_link();
  const int s0 = b.add_shape_sphere(b0, I, 0.3), s1 = b.add_shape_sphere(b0, I, 0.3);  // one body: filtered
  const int s2 = b.add_shape_sphere(b1, I, 0.3);
  const int s3 = b.add_shape_sphere(b2, I, 0.3);
  b.add_shape_collision_filter_pair(s0, s2);  // explicit exclusion
  b.add_joint_ball(b0, b2);                    // joint parent/child: b0-b2 filtered
  const Model m = b.finalize();
  const auto pairs = contact_pairs(m, b.body_q, BroadPhaseMode::nxn);
  EXPECT_FALSE(pairs.count({s0, s1}));
  EXPECT_FALSE(pairs.count({s0, s2}));
  EXPECT_FALSE(pairs.count({s0, s3}));
  EXPECT_FALSE(pairs.count({s1, s3}));
  EXPECT_TRUE(pairs.count({s1, s2}));
  EXPECT_TRUE(pairs.count({s2, s3}));
  EXPECT_EQ(pairs.size(), 2u);
}

TEST(E3_2_same_body_filter, ExclusionWinsWhateverTheWorldAndGroup) {
  ModelBuilder b;
  ShapeConfig cfg;
  b.current_world = 0;
  cfg.collision_group = -1;
  const int s0 = b.add_shape_sphere(b.add_link(), transform_identity(), 0.3, cfg);
  cfg.collision_group = 1;
  const int s1 = b.add_shape_sphere(b.add_link(), transform_identity(), 0.3, cfg);
  b.add_shape_collision_filter_pair(s1, s0);
  EXPECT_TRUE(contact_pairs(b.finalize(), b.body_q, BroadPhaseMode::sap).empty());
}

TEST(E3_2_same_body_filter, TwoStaticShapesAreFilteredAsInNewton) {
  // The course speaks of non-static bodies; Newton also files every pair of body -1 shapes.
  ModelBuilder b;
  b.add_shape_sphere(-1, transform_identity(), 0.3);
  b.add_shape_box(-1, transform_identity(), 0.2, 0.2, 0.2);
  EXPECT_TRUE(contact_pairs(b.finalize(), b.body_q, BroadPhaseMode::nxn).empty());
}

// --- E3.2-filter-table ---------------------------------------------------------------------------

RC_GTEST_PROP(E3_2_filter_table, TruthTableOverRandomWorldsGroupsBodiesAndPairs, ()) {
  RandomScene s = random_filter_scene();
  const Model m = s.b.finalize();
  for (BroadPhaseMode mode : {BroadPhaseMode::nxn, BroadPhaseMode::sap, BroadPhaseMode::explicit_pairs})
    RC_ASSERT(contact_pairs(m, s.b.body_q, mode) == s.expected);
}
