// Tests of lib/e3/collision/collision_pipeline.h, lib/e3/contacts/contacts.h and the broad phases (course E3 §2):
// the call boundary and stage order, the record's fields and life (clear, overflow, matching), the
// broad-phase oracle, planes and meshes, determinism and bad input.
#include <gtest/gtest.h>
#include <omp.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <utility>

#include "core/device.h"
#include "e3/collision/collision_kernels.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/contacts/materials.h"
#include "support/generators.h"
#include "support/seeded_uniform.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

View<const transform> view_of(const std::vector<transform>& q) { return {q.data(), static_cast<std::int64_t>(q.size())}; }

struct Record {
  int count;
  std::vector<int> s0, s1;
  std::vector<vec3> p0, p1, n, o0, o1;
  std::vector<real> m0, m1;
};
Record read(const Contacts& c) {
  Record r;
  r.count = c.count();
  r.s0 = c.rigid_contact_shape0.to_host(), r.s1 = c.rigid_contact_shape1.to_host();
  r.p0 = c.rigid_contact_point0.to_host(), r.p1 = c.rigid_contact_point1.to_host();
  r.n = c.rigid_contact_normal.to_host(), r.o0 = c.rigid_contact_offset0.to_host(), r.o1 = c.rigid_contact_offset1.to_host();
  r.m0 = c.rigid_contact_margin0.to_host(), r.m1 = c.rigid_contact_margin1.to_host();
  return r;
}

// One collide of the scene b at its bodies' poses: the contact geometry and the raw record.
std::pair<ContactGeometrySnapshot, Record> collide_scene(const ModelBuilder& b) {
  const Model m = b.finalize();
  const std::vector<transform> q = b.body_q;
  CollisionPipeline p(m);
  Contacts c = p.contacts();
  p.collide(view_of(q), c);
  return {snapshot_contact_geometry(m, view_of(q), c), read(c)};
}

// Two spheres (radii 0.3 and 0.2) on two bodies, centres dx apart along x.
struct SpherePair {
  ModelBuilder b;
  Model m;
  std::vector<transform> q;
  SpherePair(real dx, real gap = 0.01, real margin0 = 0, real margin1 = 0) {
    ShapeConfig o;
    o.gap = gap;
    o.margin = margin0;
    b.add_shape_sphere(b.add_link(), transform_identity(), 0.3, o);
    o.margin = margin1;
    b.add_shape_sphere(b.add_link({{dx, 0, 0}, quat_identity()}), transform_identity(), 0.2, o);
    m = b.finalize();
    q = b.body_q;
  }
};

// A pile of random boxes, spheres, capsules, cylinders and hulls over a ground plane.
struct Pile {
  ModelBuilder b;
  Model m;
  std::vector<transform> q;
};
Pile make_pile(int n, unsigned seed, real spread = 1.0) {
  Pile p;
  p.b.add_shape_plane(-1);
  test::SeededUniform rnd(seed);
  const std::vector<vec3> hull = {{0.1, 0, 0}, {-0.08, 0.09, 0}, {-0.08, -0.09, 0.02}, {0, 0, 0.12}, {0.02, 0.01, -0.1}};
  for (int i = 0; i < n; ++i) {
    const int body = p.b.add_link({{spread * rnd(), spread * rnd(), 0.05 + 0.5 * spread * rnd()},
                                   quat_from_axis_angle({rnd() - 0.5, rnd() - 0.5, rnd() + 0.1}, 6 * rnd())});
    ShapeConfig o;
    o.gap = 0.02;
    switch (i % 5) {
      case 0: p.b.add_shape_box(body, transform_identity(), 0.05 + 0.1 * rnd(), 0.05 + 0.1 * rnd(), 0.05 + 0.1 * rnd(), o); break;
      case 1: p.b.add_shape_sphere(body, transform_identity(), 0.05 + 0.1 * rnd(), o); break;
      case 2: p.b.add_shape_capsule(body, transform_identity(), 0.04 + 0.05 * rnd(), 0.05 + 0.1 * rnd(), o); break;
      case 3: p.b.add_shape_cylinder(body, transform_identity(), 0.05 + 0.05 * rnd(), 0.05 + 0.1 * rnd(), o); break;
      case 4: p.b.add_shape_convex_hull(body, transform_identity(), hull, {1 + rnd(), 1 + rnd(), 1 + rnd()}, o); break;
    }
  }
  p.m = p.b.finalize();
  p.q = p.b.body_q;
  return p;
}

Record collide(const Model& m, const std::vector<transform>& q, CollisionPipelineOptions o = {}) {
  CollisionPipeline p(m, o);
  Contacts c = p.contacts();
  p.collide(view_of(q), c);
  return read(c);
}

}  // namespace

// --- E3.2-pipeline-api ---------------------------------------------------------------------------

TEST(E3_2_pipeline_api, PipelineContactsCollideSetsTheCount) {
  SpherePair s(0.45);  // 0.05 m overlap
  CollisionPipeline pipeline(s.m);
  Contacts contacts = pipeline.contacts();
  EXPECT_EQ(contacts.rigid_contact_max, pipeline.rigid_contact_max());
  EXPECT_EQ(contacts.count(), 0);
  pipeline.collide(view_of(s.q), contacts);
  EXPECT_EQ(contacts.checked_count(), 1);
}

// --- E3.2-pipeline-order -------------------------------------------------------------------------

TEST(E3_2_pipeline_order, StagesRunInTheCoursesOrderAndFilteredPairsNeverReachTheNarrowPhase) {
  ModelBuilder b;
  const int b0 = b.add_link(), b1 = b.add_link();
  const int s0 = b.add_shape_sphere(b0, transform_identity(), 0.3), s1 = b.add_shape_sphere(b1, transform_identity(), 0.3), s2 = b.add_shape_sphere(b1, transform_identity(), 0.3);
  b.add_shape_collision_filter_pair(s0, s1);
  const Model m = b.finalize();
  CollisionPipelineOptions o;
  o.contact_matching = ContactMatching::latest;
  CollisionPipeline p(m, o);
  Contacts c = p.contacts();
  p.collide(view_of(b.body_q), c);
  const std::vector<std::string> want = {"clear", "update_aabb", "filter", "broad_phase", "narrow_phase",
                                         "reduction", "matching", "contacts"};
  EXPECT_EQ(p.last_stages(), want);
  const std::vector<std::int64_t> cand = p.last_candidate_pairs();
  EXPECT_EQ(cand, std::vector<std::int64_t>{pair_key(s0, s2)});  // s0-s1 excluded, s1-s2 same body
}

// --- E3.2-collide-uses-passed-state --------------------------------------------------------------

TEST(E3_2_collide_uses_passed_state, MovingABodyAwayInTheGivenStateRemovesItsContacts) {
  SpherePair s(0.45);
  CollisionPipeline p(s.m);
  Contacts c = p.contacts();
  p.collide(view_of(s.q), c);
  ASSERT_EQ(c.count(), 1);
  std::vector<transform> far = s.q;
  far[1].p = {10, 0, 0};
  p.collide(view_of(far), c);
  EXPECT_EQ(c.count(), 0);
  p.collide(view_of(s.q), c);  // and back: the record follows the state it is given
  EXPECT_EQ(c.count(), 1);
}

// --- E3.2-broadphase-modes -----------------------------------------------------------------------

RC_GTEST_PROP(E3_2_broadphase_modes, NxnSapExplicitEqualBruteForceOracle, ()) {
  // Random spheres and boxes with random worlds and groups; the oracle tests every pair with AABBs
  // computed here from the shape sizes and the course's filter table. About one shape in four is
  // the second of an exactly touching pair: both axis-aligned, every size, gap, margin and
  // coordinate a multiple of 1/256 (so every AABB bound is exact in floating point), the second
  // placed so that its AABB's lower face lies on the first's upper face along one axis. Touching
  // AABBs overlap (E3.2: the broad phase keeps lo <= hi pairs), so a boundary rule of `<` fails here.
  ModelBuilder b;
  const int n = *rc::gen::inRange(2, 40);
  std::vector<aabb> box(n);
  std::vector<int> world(n), group(n), body(n);
  auto dyadic = [](int lo, int hi) { return rc::gen::map(rc::gen::inRange(lo, hi + 1), [](int k) { return real(k) / 256; }); };
  int touching = 0;
  std::vector<bool> exact_aabb(n, false);  // AABB bounds on the 1/256 grid, axis-aligned
  for (int i = 0; i < n; ++i) {
    const bool touch = i > 0 && exact_aabb[i - 1] && *rc::gen::inRange(0, 2) == 0;
    ShapeConfig o;
    b.current_world = world[i] = *rc::gen::inRange(-1, 2);
    o.collision_group = group[i] = *rc::gen::inRange(-2, 3);
    const bool sphere = *rc::gen::arbitrary<bool>();
    if (touch) {
      // Shape i against shape i - 1 (exact too), on one axis.
      o.gap = *dyadic(0, 12);
      o.margin = *dyadic(0, 5);
      const real g = o.gap + o.margin;
      const vec3 h = sphere ? vec3{1, 1, 1} * *dyadic(13, 100) : vec3{*dyadic(13, 100), *dyadic(13, 100), *dyadic(13, 100)};
      const aabb& prev = box[i - 1];
      const int axis = *rc::gen::inRange(0, 3);
      vec3 c = (prev.lo + prev.hi) * real(0.5);
      const vec3 e = h + vec3{g, g, g};
      if (axis == 0) c.x = prev.hi.x + e.x;
      if (axis == 1) c.y = prev.hi.y + e.y;
      if (axis == 2) c.z = prev.hi.z + e.z;
      body[i] = b.add_link({c, quat_identity()});
      if (sphere)
        b.add_shape_sphere(body[i], transform_identity(), h.x, o);
      else
        b.add_shape_box(body[i], transform_identity(), h.x, h.y, h.z, o);
      box[i] = {c - e, c + e};
      exact_aabb[i] = true;
      ++touching;
      continue;
    }
    // Shapes that may start a touching pair are placed exactly: axis-aligned, on the 1/256 grid.
    const bool exact = exact_aabb[i] = *rc::gen::inRange(0, 2) == 0;
    const transform X = exact ? transform{vec3{*dyadic(-384, 384), *dyadic(-384, 384), *dyadic(-384, 384)}, quat_identity()}
                              : *gen::rigid_transform(1.5);
    o.gap = exact ? *dyadic(0, 12) : *gen::in_range(0, 0.05);
    o.margin = exact ? *dyadic(0, 5) : *gen::in_range(0, 0.02);
    body[i] = b.add_link(X);
    const real g = o.gap + o.margin;
    if (sphere) {
      const real r = exact ? *dyadic(13, 100) : *gen::in_range(0.05, 0.4);
      b.add_shape_sphere(body[i], transform_identity(), r, o);
      box[i] = {X.p - vec3{r + g, r + g, r + g}, X.p + vec3{r + g, r + g, r + g}};
    } else {
      const vec3 h = exact ? vec3{*dyadic(13, 100), *dyadic(13, 100), *dyadic(13, 100)}
                           : vec3{*gen::in_range(0.05, 0.4), *gen::in_range(0.05, 0.4), *gen::in_range(0.05, 0.4)};
      b.add_shape_box(body[i], transform_identity(), h.x, h.y, h.z, o);
      const mat33 R = quat_to_mat33(X.q);
      vec3 e{};
      for (int k = 0; k < 3; ++k) {
        const real ek = std::abs(R.m[k][0]) * h.x + std::abs(R.m[k][1]) * h.y + std::abs(R.m[k][2]) * h.z + g;
        (k == 0 ? e.x : k == 1 ? e.y : e.z) = ek;
      }
      box[i] = {X.p - e, X.p + e};
    }
  }
  RC_TAG(touching > 0 ? "with touching pairs" : "no touching pair");
  std::vector<std::int64_t> oracle;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      const bool overlap = box[i].lo.x <= box[j].hi.x + 1e-12 && box[j].lo.x <= box[i].hi.x + 1e-12 &&
                           box[i].lo.y <= box[j].hi.y + 1e-12 && box[j].lo.y <= box[i].hi.y + 1e-12 &&
                           box[i].lo.z <= box[j].hi.z + 1e-12 && box[j].lo.z <= box[i].hi.z + 1e-12;
      const bool worlds = world[i] == -1 || world[j] == -1 || world[i] == world[j];
      const bool groups = group[i] != 0 && group[j] != 0 &&
                          ((group[i] > 0) != (group[j] > 0) || (group[i] > 0 ? group[i] == group[j] : group[i] != group[j]));
      if (overlap && worlds && groups) oracle.push_back(pair_key(i, j));
    }
  const Model m = b.finalize();
  for (BroadPhaseMode mode : {BroadPhaseMode::nxn, BroadPhaseMode::sap, BroadPhaseMode::explicit_pairs}) {
    CollisionPipelineOptions o;
    o.broad_phase = mode;
    CollisionPipeline p(m, o);
    Contacts c = p.contacts();
    p.collide(view_of(b.body_q), c);
    RC_ASSERT(p.last_candidate_pairs() == oracle);
  }
}

TEST(E3_2_broadphase_modes, SameContactsFromEveryMode) {
  Pile p = make_pile(40, 7, 0.6);
  CollisionPipelineOptions o;
  o.broad_phase = BroadPhaseMode::nxn;
  const Record a = collide(p.m, p.q, o);
  o.broad_phase = BroadPhaseMode::sap;
  const Record b = collide(p.m, p.q, o);
  o.broad_phase = BroadPhaseMode::explicit_pairs;
  const Record c = collide(p.m, p.q, o);
  ASSERT_GT(a.count, 10);
  EXPECT_EQ(a.count, b.count);
  EXPECT_EQ(a.count, c.count);
  for (int i = 0; i < a.count; ++i) {
    EXPECT_EQ(a.s0[i], b.s0[i]);
    EXPECT_EQ(a.s1[i], c.s1[i]);
    EXPECT_EQ(a.p0[i].x, b.p0[i].x);
    EXPECT_EQ(a.n[i].z, c.n[i].z);
  }
}

TEST(E3_2_broadphase_modes, ParseNamesTheBadMode) {
  EXPECT_EQ(parse_broad_phase_mode("sap"), BroadPhaseMode::sap);
  EXPECT_THROW(parse_broad_phase_mode("bvh"), std::invalid_argument);
}

// --- E3.2-writer-accept --------------------------------------------------------------------------

RC_GTEST_PROP(E3_2_writer_accept, RecordExistsIffDAtMostTheSummedGap, ()) {
  const real gap = *gen::in_range(0, 0.05);
  const real dx = *gen::in_range(0.3, 0.7);
  SpherePair s(dx, gap);
  const real d = dx - 0.5;  // analytic sphere-sphere gap function
  const Record r = collide(s.m, s.q);
  RC_ASSERT((r.count == 1) == writer_accepts(d, gap + gap));
}

TEST(E3_2_writer_accept, TheBoundaryIsInclusive) {
  // Radii 0.3 and 0.2, centres 0.75 m apart, gaps 0.125 each: d = 0.25 = gap0 + gap1 exactly
  // (every number here is exact in binary floating point).
  SpherePair s(0.75, 0.125);
  EXPECT_EQ(collide(s.m, s.q).count, 1);
  SpherePair t(0.75 + 1.0 / 1024, 0.125);
  EXPECT_EQ(collide(t.m, t.q).count, 0);
  EXPECT_TRUE(writer_accepts(0.25, 0.25));
  EXPECT_FALSE(writer_accepts(0.25 + 1e-12, 0.25));
}

// --- E3.2-gap ------------------------------------------------------------------------------------

TEST(E3_2_gap, UnsetGapIsTheBuildersRigidGapAndSeparatedRecordsAreKept) {
  ModelBuilder b;
  b.rigid_gap = 0.05;
  b.add_shape_sphere(b.add_link(), transform_identity(), 0.3);
  b.add_shape_sphere(b.add_link({{0.58, 0, 0}, quat_identity()}), transform_identity(), 0.2);  // d = +0.08 <= 0.05 + 0.05
  const Model m = b.finalize();
  EXPECT_EQ(m.shape_gap.to_host(), (std::vector<real>{0.05, 0.05}));
  CollisionPipeline p(m);
  Contacts c = p.contacts();
  const std::vector<transform> q = b.body_q;
  p.collide(view_of(q), c);
  const ContactGeometrySnapshot snap = snapshot_contact_geometry(m, view_of(q), c);
  ASSERT_EQ(snap.count, 1);
  EXPECT_NEAR(snap.distance_m[0], 0.08, 1e-12);  // a record of a separated pair
}

// --- E3.2-speculative-gap ------------------------------------------------------------------------

RC_GTEST_PROP(E3_2_speculative_gap, BoundedByBaseAndCapAndMonotone, ()) {
  const real g = *gen::in_range(0, 0.1), v = *gen::in_range(0, 20), dt = *gen::in_range(0, 0.02),
             cap = *gen::in_range(0, 0.2), dv = *gen::in_range(0, 5);
  const real e = speculative_gap(g, v, dt, cap);
  RC_ASSERT(e >= g && e <= g + cap);
  RC_ASSERT(speculative_gap(g, v + dv, dt, cap) >= e);
  RC_ASSERT(speculative_gap(g, v, dt + 0.001, cap) >= e);
}

TEST(E3_2_speculative_gap, AFastApproachIsDetectedOnlyWithTheOption) {
  SpherePair s(0.6, 0.0);  // d = 0.1 m, no gap
  std::vector<spatial_vector> qd(2);
  qd[1].lin = {-20, 0, 0};  // 20 m/s toward body 0: closes 0.2 m in 0.01 s
  CollisionPipelineOptions o;
  CollisionPipeline plain(s.m, o);
  Contacts c = plain.contacts();
  plain.collide(view_of(s.q), c, {qd.data(), 2}, 0.01);
  EXPECT_EQ(c.count(), 0);
  o.speculative_contact_gap_max = 0.15;
  CollisionPipeline spec(s.m, o);
  spec.collide(view_of(s.q), c, {qd.data(), 2}, 0.01);
  EXPECT_EQ(c.count(), 1);
  o.speculative_contact_gap_max = 0.05;  // the cap stops it
  CollisionPipeline capped(s.m, o);
  capped.collide(view_of(s.q), c, {qd.data(), 2}, 0.01);
  EXPECT_EQ(c.count(), 0);
}

// --- E3.2-record-table and the field rules --------------------------------------------------------

TEST(E3_2_record_table, EveryFieldHasOneRowPerSlot) {
  Contacts c(Device::cpu, 17);
  for (std::int64_t n : {c.rigid_contact_shape0.size(), c.rigid_contact_shape1.size(), c.rigid_contact_point0.size(),
                         c.rigid_contact_point1.size(), c.rigid_contact_normal.size(), c.rigid_contact_offset0.size(),
                         c.rigid_contact_offset1.size(), c.rigid_contact_margin0.size(), c.rigid_contact_margin1.size(),
                         c.rigid_contact_stiffness.size(), c.rigid_contact_damping.size(), c.rigid_contact_friction.size()})
    EXPECT_EQ(n, 17);
}

TEST(E3_2_field_count, OneElementAndIndependentOfCapacity) {
  Pile p = make_pile(20, 3, 0.5);
  CollisionPipelineOptions o;
  o.rigid_contact_max = 500;
  CollisionPipeline a(p.m, o);
  Contacts ca = a.contacts();
  a.collide(view_of(p.q), ca);
  o.rigid_contact_max = 5000;
  CollisionPipeline b(p.m, o);
  Contacts cb = b.contacts();
  b.collide(view_of(p.q), cb);
  EXPECT_EQ(ca.rigid_contact_count.size(), 1);
  EXPECT_EQ(ca.count(), cb.count());
}

RC_GTEST_PROP(E3_2_field_shape, BodiesOfEveryRowAreStaticOrValid, ()) {
  Pile p = make_pile(15, *rc::gen::inRange(0, 1000), 0.5);
  const Record r = collide(p.m, p.q);
  const std::vector<int> body = p.m.shape_body.to_host();
  for (int i = 0; i < r.count; ++i)
    for (int s : {r.s0[i], r.s1[i]}) RC_ASSERT(body[s] == -1 || (body[s] >= 0 && body[s] < p.m.body_count));
}

RC_GTEST_PROP(E3_2_field_point, BodyFramePointsReproduceTheDetectorsDistance, ()) {
  // Oracle: d from the narrow phase in world frame (no record) vs eval_rigid_contact_kinematics.
  Pile p = make_pile(12, *rc::gen::inRange(0, 1000), 0.5);
  CollisionPipeline pipe(p.m);
  Contacts c = pipe.contacts();
  pipe.collide(view_of(p.q), c);
  const ContactGeometrySnapshot snap = snapshot_contact_geometry(p.m, view_of(p.q), c);
  const ShapeView sv = shape_view(p.m);
  const Record r = read(c);
  for (int i = 0; i < snap.count; ++i) {
    const int a = r.s0[i], b = r.s1[i];
    PairContacts pc = collide_shape_pair(sv, a, b, shape_world_pose(sv, view_of(p.q), a),
                                         shape_world_pose(sv, view_of(p.q), b), sv.gap[a] + sv.gap[b]);
    bool found = false;
    for (int k = 0; k < pc.count; ++k)
      found = found || std::abs(contact_surface_separation(pc.c[k].a, pc.c[k].b, pc.c[k].n, r.m0[i], r.m1[i]) -
                                snap.distance_m[i]) <= 1e-12;
    RC_ASSERT(found);
  }
}

RC_GTEST_PROP(E3_2_field_normal, UnitAndFromShape0ToShape1, ()) {
  Pile p = make_pile(15, *rc::gen::inRange(0, 1000), 0.5);
  const Record r = collide(p.m, p.q);
  for (int i = 0; i < r.count; ++i) RC_ASSERT(std::abs(length(r.n[i]) - 1) <= 1e-9);
  const vec3 c1 = *gen::vector(1);
  SpherePair s(0.45);
  std::vector<transform> q = s.q;
  q[1].p = q[0].p + 0.45 * normalize(c1 + vec3{0.01, 0, 0});
  const Record rs = collide(s.m, q);
  RC_ASSERT(rs.count == 1);
  RC_ASSERT(tol::near(rs.n[0], normalize(q[1].p - q[0].p), 1e-12));
}

RC_GTEST_PROP(E3_2_field_offset, BodyFrameOffsetsTurnWithTheBody, ()) {
  SpherePair s(0.45, 0.01, 0.01, 0.02);
  const quat R = *gen::unit_quat();
  std::vector<transform> q = s.q;
  q[0].q = R;  // spinning a sphere about its centre leaves the contact, not the body-frame offset
  const Record r = collide(s.m, q);
  RC_ASSERT(r.count == 1);
  RC_ASSERT(tol::near(quat_rotate(R, r.o0[0]), (0.3 + 0.01) * r.n[0], 1e-12));
  RC_ASSERT(tol::near(r.o1[0], -(0.2 + 0.02) * r.n[0], 1e-12));
}

TEST(E3_2_field_margin, SphereThicknessIsRadiusPlusMargin) {
  SpherePair s(0.45, 0.01, 0.004, 0.003);
  const Record r = collide(s.m, s.q);
  ASSERT_EQ(r.count, 1);
  EXPECT_DOUBLE_EQ(r.m0[0], 0.304);
  EXPECT_DOUBLE_EQ(r.m1[0], 0.203);
  EXPECT_NE(r.m0[0], s.m.shape_margin.to_host()[0]);
}

TEST(E3_2_field_overrides, WrittenAsUnsetAndUnsetEqualsNoOverride) {
  SpherePair s(0.45);
  CollisionPipeline p(s.m);
  Contacts c = p.contacts();
  p.collide(view_of(s.q), c);
  ASSERT_EQ(c.count(), 1);
  const ContactOverrides o{c.rigid_contact_stiffness.to_host()[0], c.rigid_contact_damping.to_host()[0],
                           c.rigid_contact_friction.to_host()[0]};
  EXPECT_EQ(o.stiffness, 0);
  EXPECT_EQ(o.damping, 0);
  EXPECT_EQ(o.friction, 0);
  ShapeMaterial a, b;
  a.mu = 0.2, b.mu = 0.8;
  const PenaltyContactMaterial with = penalty_mix(a, b, o), without = penalty_mix(a, b, ContactOverrides{});
  EXPECT_EQ(with.ke, without.ke);
  EXPECT_EQ(with.kd, without.kd);
  EXPECT_EQ(with.mu, without.mu);
}

TEST(E3_2_field_force, AllocatedOnlyWhenRequestedBeforehand) {
  SpherePair s(0.45);
  EXPECT_FALSE(CollisionPipeline(s.m).contacts().has_force());
  CollisionPipelineOptions o;
  o.request_contact_force = true;
  Contacts c = CollisionPipeline(s.m, o).contacts();
  EXPECT_TRUE(c.has_force());
  EXPECT_EQ(c.force.size(), c.rigid_contact_max);
}

// --- E3.2-clear ----------------------------------------------------------------------------------

TEST(E3_2_clear, ResetsTheCountOnlyAndStaleRowsAreNotRead) {
  SpherePair s(0.45);
  CollisionPipeline p(s.m);
  Contacts c = p.contacts();
  p.collide(view_of(s.q), c);
  const Record before = read(c);
  c.clear();
  EXPECT_EQ(c.count(), 0);
  const Record after = read(c);
  EXPECT_EQ(after.s0[0], before.s0[0]);  // the row is still there ...
  EXPECT_EQ(after.p0[0].x, before.p0[0].x);
  Buffer<real> d(Device::cpu, c.rigid_contact_max);
  Buffer<vec3> a(Device::cpu, c.rigid_contact_max), b(Device::cpu, c.rigid_contact_max);
  std::vector<real> sentinel(c.rigid_contact_max, -7);
  d.copy_from_host(sentinel.data());
  eval_rigid_contact_kinematics(s.m, view_of(s.q), c, d.view(), a.view(), b.view());
  EXPECT_EQ(d.to_host()[0], -7);  // ... but no reader touches it
  EXPECT_EQ(snapshot_contact_geometry(s.m, view_of(s.q), c).count, 0);
}

// --- E3.2-overflow-count / overflow-policy / verify-buffers --------------------------------------

TEST(E3_2_overflow_count, CountExceedsCapacityAndOnlyTheFirstRowsAreWritten) {
  Pile p = make_pile(30, 11, 0.5);
  const Record full = collide(p.m, p.q);
  ASSERT_GT(full.count, 8);
  CollisionPipelineOptions o;
  o.rigid_contact_max = 5;
  CollisionPipeline pipe(p.m, o);
  Contacts c = pipe.contacts();
  pipe.collide(view_of(p.q), c);
  EXPECT_EQ(c.count(), full.count);  // not clamped
  EXPECT_TRUE(c.overflowed());
  const Record r = read(c);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(r.s0[i], full.s0[i]);
    EXPECT_EQ(r.p1[i].y, full.p1[i].y);
  }
}

TEST(E3_2_overflow_policy, ReadersRefuseAnIncompleteRecordAndAcceptAFullOne) {
  SpherePair s(0.45);
  CollisionPipelineOptions o;
  o.rigid_contact_max = 0;
  CollisionPipeline p(s.m, o);
  Contacts c = p.contacts();
  p.collide(view_of(s.q), c);
  EXPECT_EQ(c.count(), 1);
  try {
    c.checked_count();
    FAIL() << "expected an overflow error";
  } catch (const std::runtime_error& e) {
    const std::string w = e.what();
    EXPECT_NE(w.find("Contact overflow"), std::string::npos);
    EXPECT_NE(w.find("rigid_contact_count = 1"), std::string::npos);
    EXPECT_NE(w.find("rigid_contact_max = 0"), std::string::npos);
    EXPECT_NE(w.find("Raise rigid_contact_max"), std::string::npos);
  }
  EXPECT_THROW(snapshot_contact_geometry(s.m, view_of(s.q), c), std::runtime_error);
  o.rigid_contact_max = 1;  // count == capacity is complete
  CollisionPipeline q(s.m, o);
  Contacts d = q.contacts();
  q.collide(view_of(s.q), d);
  EXPECT_EQ(d.checked_count(), 1);
}

TEST(E3_2_overflow_policy, NegativeCapacityIsAnError) {
  EXPECT_THROW(Contacts(Device::cpu, -1), std::invalid_argument);
  SpherePair s(0.45);
  CollisionPipelineOptions o;
  o.rigid_contact_max = -5;
  EXPECT_THROW(CollisionPipeline(s.m, o), std::invalid_argument);
}

TEST(E3_2_verify_buffers, WarnsWithoutReallocatingOrRollingBack) {
  SpherePair s(0.45);
  std::ostringstream log;
  CollisionPipelineOptions o;
  o.rigid_contact_max = 0;
  o.verify_buffers = true;
  o.diagnostics = &log;
  CollisionPipeline p(s.m, o);
  Contacts c = p.contacts();
  p.collide(view_of(s.q), c);
  EXPECT_NE(log.str().find("warning: Contact overflow"), std::string::npos) << log.str();
  EXPECT_EQ(c.rigid_contact_max, 0);
  EXPECT_EQ(c.count(), 1);
}

// --- E3.2-contact-matching / matching-not-warmstart ----------------------------------------------

TEST(E3_2_contact_matching, LatestMatchesTheSameGeometryAndKeepsTheContactSet) {
  Pile p = make_pile(20, 5, 0.5);
  CollisionPipelineOptions o;
  const Record plain = collide(p.m, p.q, o);
  o.contact_matching = ContactMatching::latest;
  CollisionPipeline pipe(p.m, o);
  Contacts c = pipe.contacts();
  pipe.collide(view_of(p.q), c);
  const Record first = read(c);
  ASSERT_EQ(first.count, plain.count);  // same multiset, same (sorted) order
  for (int i = 0; i < first.count; ++i) EXPECT_EQ(first.p0[i].x, plain.p0[i].x);
  EXPECT_EQ(c.rigid_contact_match_index.to_host()[0], -1);  // no history yet
  pipe.collide(view_of(p.q), c);  // same state: every row matches itself
  const std::vector<int> idx = c.rigid_contact_match_index.to_host();
  for (int i = 0; i < first.count; ++i) EXPECT_EQ(idx[i], i);
}

TEST(E3_2_contact_matching, StickyReplaysTheOldGeometryUntilReset) {
  SpherePair s(0.45);
  CollisionPipelineOptions o;
  o.contact_matching = ContactMatching::sticky;
  CollisionPipeline pipe(s.m, o);
  Contacts c = pipe.contacts();
  pipe.collide(view_of(s.q), c);
  const vec3 p0 = c.rigid_contact_point0.to_host()[0];
  std::vector<transform> moved = s.q;
  moved[1].p = {0.45, 0.003, 0};  // a small slide: matched, the previous points are replayed
  pipe.collide(view_of(moved), c);
  EXPECT_EQ(c.rigid_contact_match_index.to_host()[0], 0);
  EXPECT_EQ(c.rigid_contact_point0.to_host()[0].y, p0.y);
  EXPECT_EQ(c.rigid_contact_normal.to_host()[0].y, 0);
  pipe.reset_matching();  // after a reset nothing from before is replayed
  pipe.collide(view_of(moved), c);
  EXPECT_EQ(c.rigid_contact_match_index.to_host()[0], -1);
  EXPECT_GT(c.rigid_contact_normal.to_host()[0].y, 0);
  EXPECT_THROW(parse_contact_matching("warm"), std::invalid_argument);
}

TEST(E3_2_matching_not_warmstart, AMatchFollowsGeometryNotTheRowIndex) {
  // Frame 1: one contact (shapes 1-2). Frame 2: a new pair (0-1) sorts first, so the old contact
  // moves to row 1; its match index says "row 0 last frame". The row index is not an ID, and the
  // pipeline keeps nothing but geometry between frames.
  ModelBuilder b;
  const int b0 = b.add_link({{-5, 0, 0}, quat_identity()}), b1 = b.add_link(), b2 = b.add_link({{0.45, 0, 0}, quat_identity()});
  b.add_shape_sphere(b0, transform_identity(), 0.3);
  b.add_shape_sphere(b1, transform_identity(), 0.3);
  b.add_shape_sphere(b2, transform_identity(), 0.2);
  const Model m = b.finalize();
  CollisionPipelineOptions o;
  o.contact_matching = ContactMatching::latest;
  CollisionPipeline pipe(m, o);
  Contacts c = pipe.contacts();
  std::vector<transform> q = b.body_q;
  pipe.collide(view_of(q), c);
  ASSERT_EQ(c.count(), 1);
  q[0].p = {-0.5, 0, 0};
  pipe.collide(view_of(q), c);
  ASSERT_EQ(c.count(), 2);
  const std::vector<int> idx = c.rigid_contact_match_index.to_host(), s0 = c.rigid_contact_shape0.to_host();
  EXPECT_EQ(s0[0], 0);
  EXPECT_EQ(idx[0], -1);
  EXPECT_EQ(s0[1], 1);
  EXPECT_EQ(idx[1], 0);
}

// Oracle: the host matching the pipeline ran before it became a device pass, written again here
// (every row against every previous row of its pair, a global used flag, in row order), applied to
// the records of a pipeline without matching; the device pass must give the same indices and,
// sticky, the same replayed geometry, frame after frame (the history carries the replayed rows).
RC_GTEST_PROP(E3_2_contact_matching, DevicePassEqualsTheHostGreedyMatching, ()) {
  const int n = *rc::gen::inRange(4, 25);
  Pile p = make_pile(n, *rc::gen::inRange(1u, 1000u), 0.5);
  const bool sticky = *rc::gen::arbitrary<bool>();
  const real r = *rc::gen::element(real(0.005), real(0.02), real(0.1));
  CollisionPipelineOptions plain_o, match_o;
  match_o.contact_matching = sticky ? ContactMatching::sticky : ContactMatching::latest;
  match_o.contact_matching_distance = r;
  CollisionPipeline plain(p.m, plain_o), matched(p.m, match_o);
  Contacts cp = plain.contacts(), cm = matched.contacts();
  Record prev;
  prev.count = 0;
  std::vector<transform> q = p.q;
  std::uint64_t seed = 7;
  int matches = 0;
  for (int frame = 0; frame < 4; ++frame) {
    plain.collide(view_of(q), cp);
    matched.collide(view_of(q), cm);
    Record raw = read(cp);
    const Record got = read(cm);
    RC_ASSERT(raw.count == got.count);
    std::vector<int> idx(std::size_t(cm.rigid_contact_max), -1);
    std::vector<char> used(std::size_t(prev.count), 0);
    for (int i = 0; i < raw.count; ++i) {
      int best = -1;
      real bd = r;
      for (int j = 0; j < prev.count; ++j) {
        if (used[j] || prev.s0[j] != raw.s0[i] || prev.s1[j] != raw.s1[i]) continue;
        const real d = length(prev.p0[j] - raw.p0[i]);
        if (d < bd || (best < 0 && d <= bd)) bd = d, best = j;
      }
      idx[i] = best;
      if (best < 0) continue;
      used[best] = 1;
      ++matches;
      if (sticky)
        raw.p0[i] = prev.p0[best], raw.p1[i] = prev.p1[best], raw.n[i] = prev.n[best], raw.o0[i] = prev.o0[best],
        raw.o1[i] = prev.o1[best];
    }
    RC_ASSERT(cm.rigid_contact_match_index.to_host() == idx);
    for (int i = 0; i < raw.count; ++i) {
      RC_ASSERT(std::memcmp(&raw.p0[i], &got.p0[i], sizeof(vec3)) == 0);
      RC_ASSERT(std::memcmp(&raw.p1[i], &got.p1[i], sizeof(vec3)) == 0);
      RC_ASSERT(std::memcmp(&raw.n[i], &got.n[i], sizeof(vec3)) == 0);
      RC_ASSERT(std::memcmp(&raw.o0[i], &got.o0[i], sizeof(vec3)) == 0);
      RC_ASSERT(std::memcmp(&raw.o1[i], &got.o1[i], sizeof(vec3)) == 0);
    }
    prev = raw;
    for (transform& x : q) {  // small random slides: some rows stay within r, some leave it
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      x.p.x += 0.01 * (real((seed >> 11) % 1000) / 1000 - 0.5);
    }
  }
  RC_TAG(matches > 0 ? "some rows matched" : "nothing matched");
}

// --- E3.2-hydro-preconditions --------------------------------------------------------------------

TEST(E3_2_hydro_preconditions, PlaneFlagIsSwitchedOffAndBothSidesMustQualify) {
  ModelBuilder b;
  ShapeConfig o;
  o.is_hydroelastic = true;
  EXPECT_NO_THROW(b.add_shape_plane(-1, transform_identity(), 0, 0, o));  // accepted, with the flag off
  EXPECT_EQ(geometry_route(SHAPE_PLANE, SHAPE_BOX, true, true), GeometryRoute::plane_convex);
  EXPECT_EQ(geometry_route(SHAPE_BOX, SHAPE_BOX, true, false), GeometryRoute::convex);
  EXPECT_EQ(geometry_route(SHAPE_BOX, SHAPE_SPHERE, true, true), GeometryRoute::hydroelastic);
  // A hydroelastic primitive needs an SDF resolution (Newton's ShapeConfig.validate) ...
  EXPECT_THROW(b.add_shape_box(-1, transform_identity(), 0.1, 0.1, 0.1, o), std::invalid_argument);
  // ... and is then accepted: route (c) is built (hydroelastic_contact.h).
  o.sdf_max_resolution = 64;
  EXPECT_NO_THROW(b.add_shape_box(-1, transform_identity(), 0.1, 0.1, 0.1, o));
}

// --- planes and meshes (E3.2-geometry-routes) -----------------------------------------------------

// rigid_contact_route names the route that wrote each row: one scene with a route (a) primitive pair
// (1 convex) and a plane pair (2 plane_convex), a static-mesh pair (3 mesh_bvh, route b) and a
// hydroelastic pair (4 hydroelastic, route c), far enough apart that only these four pairs touch.
TEST(E3_2_geometry_routes, EveryRowRecordsTheRouteThatWroteIt) {
  ModelBuilder b;
  b.add_shape_plane(-1);                                                                             // shape 0
  b.add_shape_box(b.add_link({{0, 0, 0.099}, quat_identity()}), transform_identity(), 0.1, 0.1, 0.1);  // 1
  b.add_shape_sphere(b.add_link({{0, 0, 2}, quat_identity()}), transform_identity(), 0.3);            // 2
  b.add_shape_sphere(b.add_link({{0.49, 0, 2}, quat_identity()}), transform_identity(), 0.2);         // 3
  const std::vector<vec3> v{{4, -1, 2}, {6, -1, 2}, {6, 1, 2}, {4, 1, 2}};
  b.add_shape_mesh(-1, transform_identity(), v, {0, 1, 2, 0, 2, 3});                                  // 4
  b.add_shape_sphere(b.add_link({{5, 0, 2.095}, quat_identity()}), transform_identity(), 0.1);        // 5
  ShapeConfig h;
  h.is_hydroelastic = true;
  h.sdf_max_resolution = 64;
  b.add_shape_box(-1, {{-5, 0, 1.5}, quat_identity()}, 1, 1, 0.5, h);                                // 6
  b.add_shape_sphere(b.add_link({{-5, 0, 2.09}, quat_identity()}), transform_identity(), 0.1, h);     // 7
  const Model m = b.finalize();
  CollisionPipeline p(m);
  Contacts c = p.contacts();
  p.collide(view_of(b.body_q), c);
  const Record r = read(c);
  const std::vector<int> route = c.rigid_contact_route.to_host();
  std::map<std::pair<int, int>, int> expect{{{0, 1}, 2}, {{2, 3}, 1}, {{4, 5}, 3}, {{6, 7}, 4}}, rows;
  for (int i = 0; i < r.count; ++i) {
    const std::pair<int, int> pair{r.s0[i], r.s1[i]};
    ASSERT_EQ(expect.count(pair), 1u) << "unexpected pair " << pair.first << ", " << pair.second;
    EXPECT_EQ(route[i], expect[pair]) << "row " << i << " of pair " << pair.first << ", " << pair.second;
    ++rows[pair];
  }
  for (const auto& [pair, want] : expect) EXPECT_GE(rows[pair], 1) << "no row for route " << want;
}

TEST(E3_2_geometry_routes, BoxOnAPlaneGivesFourCornersAndCapsuleTwo) {
  ModelBuilder b;
  b.add_shape_plane(-1);
  b.add_shape_box(b.add_link({{0, 0, 0.099}, quat_identity()}), transform_identity(), 0.2, 0.1, 0.1);
  b.add_shape_capsule(b.add_link({{2, 0, 0.05}, quat_from_axis_angle({1, 0, 0}, 1.5707963267948966)}), transform_identity(), 0.05, 0.3);
  const auto [s, r] = collide_scene(b);
  int box = 0, cap = 0;
  for (int i = 0; i < s.count; ++i) {
    EXPECT_EQ(r.s0[i], 0);  // the plane is shape0: the normal points up, from plane to body
    EXPECT_VEC3_NEAR(s.normal_world[i], (vec3{0, 0, 1}), 1e-12);
    if (r.s1[i] == 1) {
      ++box;
      EXPECT_NEAR(s.distance_m[i], -0.001, 1e-12);
    }
    if (r.s1[i] == 2) {
      ++cap;
      EXPECT_NEAR(s.distance_m[i], 0.0, 1e-12);
    }
  }
  EXPECT_EQ(box, 4);
  EXPECT_EQ(cap, 2);
}

TEST(E3_2_geometry_routes, OracleSphereAndBoxOnATriangleMeshMatchTheAnalyticPlane) {
  // A 4 x 4 m square at z = 0 made of 2 * 8 * 8 triangles: a sphere and a box resting on it see the
  // same distance as on the plane z = 0 (analytic), through the mesh BVH.
  std::vector<vec3> v;
  std::vector<int> t;
  const int N = 8;
  for (int j = 0; j <= N; ++j)
    for (int i = 0; i <= N; ++i) v.push_back({-2 + 4.0 * i / N, -2 + 4.0 * j / N, 0});
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) {
      const int a = j * (N + 1) + i;
      t.insert(t.end(), {a, a + 1, a + N + 2, a, a + N + 2, a + N + 1});
    }
  ModelBuilder b;
  b.add_shape_mesh(-1, transform_identity(), v, t);
  b.add_shape_sphere(b.add_link({{0.13, 0.37, 0.095}, quat_identity()}), transform_identity(), 0.1);
  b.add_shape_box(b.add_link({{-1.1, 0.6, 0.148}, quat_from_axis_angle({0, 0, 1}, 0.4)}), transform_identity(), 0.15, 0.15, 0.15);
  const auto [s, r] = collide_scene(b);
  int sphere = 0, box = 0;
  for (int i = 0; i < s.count; ++i) {
    EXPECT_VEC3_NEAR(s.normal_world[i], (vec3{0, 0, 1}), 1e-9);
    if (r.s1[i] == 1) {
      ++sphere;
      EXPECT_NEAR(s.distance_m[i], -0.005, 1e-9);
    }
    if (r.s1[i] == 2) {
      ++box;
      EXPECT_NEAR(s.distance_m[i], -0.002, 1e-9);
    }
  }
  EXPECT_GE(sphere, 1);
  EXPECT_GE(box, 3);
  EXPECT_LE(box, kMaxPairContacts);
}

TEST(E3_2_geometry_routes, OracleSphereOnAMeshRidgeThroughThePipeline) {
  // A 1 m box made of 12 triangles and a sphere (r = 0.1 m) leaning on its top edge x = z = 0.5,
  // 1 mm into it along the bisector: the record holds one row, the mesh as shape0, the normal
  // (1, 0, 1)/sqrt 2 from the mesh to the sphere and d = -1 mm (analytic).
  std::vector<vec3> v;
  for (int i = 0; i < 8; ++i) v.push_back({(i & 1) ? 0.5 : -0.5, (i & 2) ? 0.5 : -0.5, (i & 4) ? 0.5 : -0.5});
  const std::vector<int> t = {0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
                              2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5};
  const vec3 u = normalize(vec3{1, 0, 1});
  ModelBuilder b;
  b.add_shape_mesh(-1, transform_identity(), v, t);
  b.add_shape_sphere(b.add_link({vec3{0.5, 0.2, 0.5} + 0.099 * u, quat_identity()}), transform_identity(), 0.1);
  const auto [s, r] = collide_scene(b);
  ASSERT_EQ(s.count, 1);
  EXPECT_EQ(r.s0[0], 0);
  EXPECT_VEC3_NEAR(s.normal_world[0], u, 1e-9);
  EXPECT_NEAR(s.distance_m[0], -0.001, 1e-9);
  EXPECT_VEC3_NEAR(r.p0[0], (vec3{0.5, 0.2, 0.5}), 1e-9);  // static shape: world frame
  EXPECT_VEC3_NEAR(r.p1[0], (vec3{0, 0, 0}), 1e-9);        // the sphere's centre in its body frame
}

TEST(E3_2_geometry_routes, DegenerateShapesAreErrorsNamingTheShape) {
  ModelBuilder b;
  const int body = b.add_link(transform_identity(), {1, vec3{}, mat33_diag({1, 1, 1})});
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([&] { b.add_shape_sphere(body, transform_identity(), 0, {}, "wheel"); }).find("shape 0 (sphere, 'wheel'): radius"),
            std::string::npos);
  EXPECT_NE(message([&] { b.add_shape_box(body, transform_identity(), 0.1, 0, 0.1); }).find("half extent"), std::string::npos);
  EXPECT_NE(message([&] { b.add_shape_cylinder(body, transform_identity(), 0.1, -1); }).find("cylinder"), std::string::npos);
  EXPECT_NE(message([&] { b.add_shape_mesh(-1, transform_identity(), {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}, {0, 1, 2}); }).find("triangle 0 is degenerate"),
            std::string::npos);
  EXPECT_NE(message([&] { b.add_shape_convex_hull(body, transform_identity(), {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}); }).find("coplanar"),
            std::string::npos);
  transform bad{{std::nan(""), 0, 0}, quat_identity()};
  EXPECT_NE(message([&] { b.add_shape_sphere(body, bad, 0.1); }).find("not finite"), std::string::npos);
  b.add_link(bad, {}, false, false, "arm");
  EXPECT_NE(message([&] { b.finalize(); }).find("body 1 'arm'"), std::string::npos);
  // A non-finite pose given to collide names the body, at the readback (collide copies nothing back).
  SpherePair s(0.45);
  CollisionPipeline p(s.m);
  Contacts c = p.contacts();
  std::vector<transform> q = s.q;
  q[1].q.w = INFINITY;
  EXPECT_NE(message([&] {
              p.collide(view_of(q), c);
              c.checked_count();
            }).find("collide: body 1 has a non-finite pose"),
            std::string::npos);
}

// --- determinism and GPU parity --------------------------------------------------------------------

TEST(E3_2_reduction, DeterminismOneAndTwoThreadsGiveIdenticalRecords) {
  Pile p = make_pile(60, 13, 0.8);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const Record a = collide(p.m, p.q);
  omp_set_num_threads(2);
  const Record b = collide(p.m, p.q);
  omp_set_num_threads(threads);
  ASSERT_EQ(a.count, b.count);
  ASSERT_GT(a.count, 20);
  for (int i = 0; i < a.count; ++i) {
    EXPECT_EQ(a.s0[i], b.s0[i]);
    EXPECT_EQ(a.s1[i], b.s1[i]);
    EXPECT_EQ(0, std::memcmp(&a.p0[i], &b.p0[i], sizeof(vec3)));
    EXPECT_EQ(0, std::memcmp(&a.p1[i], &b.p1[i], sizeof(vec3)));
    EXPECT_EQ(0, std::memcmp(&a.n[i], &b.n[i], sizeof(vec3)));
  }
}

TEST(E3_2_pipeline_api, GpuRecordMatchesCpu) {
  if (!cuda_built() || cuda_device_count() == 0) GTEST_SKIP() << "no CUDA GPU";
  Pile p = make_pile(60, 13, 0.8);
  const Record a = collide(p.m, p.q);
  Model g = p.b.finalize(Device::cuda);
  Buffer<transform> q(Device::cuda, p.q);
  CollisionPipeline pipe(g);
  Contacts c = pipe.contacts();
  pipe.collide(q.view(), c);
  const Record b = read(c);
  ASSERT_EQ(a.count, b.count);
  for (int i = 0; i < a.count; ++i) {
    EXPECT_EQ(a.s0[i], b.s0[i]);
    EXPECT_EQ(a.s1[i], b.s1[i]);
    EXPECT_TRUE(tol::near(a.p0[i], b.p0[i], 1e-9));
    EXPECT_TRUE(tol::near(a.n[i], b.n[i], 1e-9));
  }
}
