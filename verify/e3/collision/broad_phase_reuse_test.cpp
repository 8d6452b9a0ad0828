// Tests of lib/e3/collision/broad_phase_reuse.h (CollisionPipelineOptions::broad_phase_reuse): the
// record of a collide with the reused candidate list is bitwise the record of the broad phase run
// afresh, at every substep of a pile stepped through the course's frame loop (E1 §7), for every
// broad phase, under the GPU's launch extents, and where the reuse must fall back; and the reuse
// copies nothing to the host and allocates nothing after its first collide.
#include <gtest/gtest.h>
#include <omp.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/alloc_count.h"
#include "core/host_copies.h"
#include "core/schedule.h"
#include "e1/model.h"
#include "e1/time_loop.h"
#include "e3/collision/broad_phase_reuse.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/contacts/contact_materials.h"
#include "e3/solvers/xpbd/solver_xpbd.h"
#include "support/generators.h"
#include "support/seeded_uniform.h"

using namespace impulse;

namespace {

// A heap of boxes, spheres, capsules, cylinders and hulls on a ground plane: dynamic bodies in
// layers of 4 x 5 columns 0.2 m apart, each placed and turned at random (seeded), a few centimetres
// above what they land on, so that they fall, land on each other and settle.
Model falling_heap(int n, unsigned seed) {
  ModelBuilder b;
  b.add_ground_plane();
  test::SeededUniform rnd(seed);
  const std::vector<vec3> hull = {{0.1, 0, 0}, {-0.08, 0.09, 0}, {-0.08, -0.09, 0.02}, {0, 0, 0.12}, {0.02, 0.01, -0.1}};
  for (int i = 0; i < n; ++i) {
    const int layer = i / 20, k = i % 20;
    const vec3 at{(k % 5) * real(0.2) + real(0.02) * rnd(), (k / 5) * real(0.2) + real(0.02) * rnd(),
                  real(0.12) + layer * real(0.22) + real(0.03) * rnd()};
    const int body = b.add_body({at, quat_from_axis_angle({rnd() - 0.5, rnd() - 0.5, rnd() + 0.1}, 6 * rnd())});
    ShapeConfig o;
    o.gap = 0.01;
    switch (i % 5) {  // each shape within 0.1 m of its body's origin
      case 0: b.add_shape_box(body, transform_identity(), 0.03 + 0.025 * rnd(), 0.03 + 0.025 * rnd(), 0.03 + 0.025 * rnd(), o); break;
      case 1: b.add_shape_sphere(body, transform_identity(), 0.04 + 0.04 * rnd(), o); break;
      case 2: b.add_shape_capsule(body, transform_identity(), 0.03 + 0.02 * rnd(), 0.03 + 0.02 * rnd(), o); break;
      case 3: b.add_shape_cylinder(body, transform_identity(), 0.04 + 0.02 * rnd(), 0.03 + 0.02 * rnd(), o); break;
      case 4: b.add_shape_convex_hull(body, transform_identity(), hull, {0.5 + 0.3 * rnd(), 0.5 + 0.3 * rnd(), 0.5 + 0.3 * rnd()}, o); break;
    }
  }
  return b.finalize();
}

// The record's rows up to its count, byte for byte (every column collide writes and the XPBD
// materials, filled as the solver reads them), its count, collide_status and the broad phase's pairs.
struct RecordBytes {
  int count = 0;
  std::vector<int> status;
  std::vector<std::int64_t> pairs;
  std::vector<unsigned char> rows;
};
template <class T>
void append_rows(std::vector<unsigned char>& out, const Buffer<T>& column, int count) {
  const std::vector<T> v = column.to_host();
  const unsigned char* p = reinterpret_cast<const unsigned char*>(v.data());
  out.insert(out.end(), p, p + sizeof(T) * std::size_t(count));
}
RecordBytes record_bytes(const CollisionPipeline& p, const Contacts& c) {
  RecordBytes r;
  r.count = c.count();
  r.status = c.collide_status.to_host();
  r.pairs = p.last_candidate_pairs();
  const int rows = std::min(std::max(r.count, 0), c.rigid_contact_max);
  // What collide writes, then what fill_contact_materials writes for XPBD (the penalty columns
  // ke, kd, kf, ka keep whatever they held).
  append_rows(r.rows, c.rigid_contact_shape0, rows);
  append_rows(r.rows, c.rigid_contact_shape1, rows);
  for (const Buffer<vec3>* v : {&c.rigid_contact_point0, &c.rigid_contact_point1, &c.rigid_contact_normal,
                                &c.rigid_contact_offset0, &c.rigid_contact_offset1})
    append_rows(r.rows, *v, rows);
  for (const Buffer<real>* v : {&c.rigid_contact_margin0, &c.rigid_contact_margin1, &c.rigid_contact_stiffness,
                                &c.rigid_contact_damping, &c.rigid_contact_friction, &c.rigid_contact_mu,
                                &c.rigid_contact_mu_torsional, &c.rigid_contact_mu_rolling, &c.rigid_contact_restitution})
    append_rows(r.rows, *v, rows);
  append_rows(r.rows, c.rigid_contact_match_index, rows);
  append_rows(r.rows, c.rigid_contact_route, rows);
  return r;
}
bool same_bytes(const RecordBytes& a, const RecordBytes& b) {
  return a.count == b.count && a.status == b.status && a.pairs == b.pairs && a.rows == b.rows;
}

// The course's frame loop (E1 §7, simulate_frame) with E3's collide before each step: two
// pipelines, reuse off (the reference, whose record the solver steps with) and reuse on, collide
// the same input state at every substep, and their records are compared byte for byte.
struct TwoPipelines {
  const Model& m;
  CollisionPipeline fresh, reused;
  Contacts c_fresh, c_reused;
  SolverXPBD solver;
  bool speculative = false;
  int collides = 0, differing = 0, first_differing = -1;
  std::uint64_t copies_in_reused_collide = 0, allocations_in_reused_collide = 0;

  TwoPipelines(const Model& model, CollisionPipelineOptions o)
      : m(model),
        fresh(model, off(o)),
        reused(model, on(o)),
        c_fresh(fresh.contacts()),
        c_reused(reused.contacts()),
        solver(model, 4) {
    speculative = o.speculative_contact_gap_max > 0;
  }
  static CollisionPipelineOptions off(CollisionPipelineOptions o) {
    o.broad_phase_reuse = false;
    return o;
  }
  static CollisionPipelineOptions on(CollisionPipelineOptions o) {
    o.broad_phase_reuse = true;
    return o;
  }

  void step(State& in, State& out, Control& control, real h) {
    const View<const spatial_vector> qd = speculative ? View<const spatial_vector>(in.body_qd.view()) : View<const spatial_vector>{};
    fresh.collide(in.body_q.view(), c_fresh, qd, speculative ? h : 0);
    const std::uint64_t copies = host_copy_count(), allocations = allocation_count();
    reused.collide(in.body_q.view(), c_reused, qd, speculative ? h : 0);
    if (collides > 0) {  // the first collide sizes the broad phases' working arrays
      copies_in_reused_collide += host_copy_count() - copies;
      allocations_in_reused_collide += allocation_count() - allocations;
    }
    fill_contact_materials(m, SolverPath::xpbd, c_fresh);
    fill_contact_materials(m, SolverPath::xpbd, c_reused);
    if (!same_bytes(record_bytes(fresh, c_fresh), record_bytes(reused, c_reused))) {
      ++differing;
      if (first_differing < 0) first_differing = collides;
    }
    ++collides;
    const ContactsView v = c_fresh.view();
    solver.step(in, out, control, &v, h);
  }
};

struct RunSummary {
  int collides = 0, differing = 0, first_differing = -1, contacts_at_end = 0;
  std::int64_t rebuilds = 0, fallbacks = 0;
  std::uint64_t copies = 0, allocations = 0;
};

// frames frames of 1/60 s in `substeps` substeps each.
RunSummary run_heap(Model& m, CollisionPipelineOptions o, int frames, int substeps) {
  TwoPipelines two(m, o);
  State a = m.state(), b = m.state();
  State *s0 = &a, *s1 = &b;
  Control control = m.control();
  FrameConfig f;
  f.frame_dt = real(1) / 60;
  f.substeps = substeps;
  real t = 0;
  for (int k = 0; k < frames; ++k)
    simulate_frame(two, s0, s1, control, f, t, [](State&, real) {}, [](Control&, real) {});
  RunSummary r;
  r.collides = two.collides;
  r.differing = two.differing;
  r.first_differing = two.first_differing;
  r.contacts_at_end = two.c_fresh.count();
  r.rebuilds = two.reused.broad_phase_rebuild_count();
  r.fallbacks = two.reused.broad_phase_fallback_count();
  r.copies = two.copies_in_reused_collide;
  r.allocations = two.allocations_in_reused_collide;
  return r;
}

void expect_identical_with_reuse(const RunSummary& r, const std::string& what) {
  EXPECT_EQ(r.differing, 0) << what << ": " << r.differing << " of " << r.collides
                            << " records differ, the first at collide " << r.first_differing;
  EXPECT_GT(r.contacts_at_end, 20) << what << ": the heap is in contact";
  // Both paths ran: collides that rebuilt the candidates and collides that only filtered them.
  EXPECT_GE(r.rebuilds, 2) << what;
  EXPECT_LT(r.rebuilds, r.collides / 2) << what << ": most collides reuse the candidates";
  EXPECT_EQ(r.fallbacks, 0) << what;
  EXPECT_EQ(r.copies, 0u) << what << ": a collide copies nothing to the host";
  EXPECT_EQ(r.allocations, 0u) << what << ": nothing allocated after the first collide";
}

const char* mode_name(BroadPhaseMode mode) {
  return mode == BroadPhaseMode::nxn ? "nxn" : mode == BroadPhaseMode::sap ? "sap" : "explicit";
}

// Restores the CPU schedule when a test ends.
struct ScheduleScope {
  Schedule saved;
  explicit ScheduleScope(const Schedule& s) : saved(set_cpu_schedule(s)) {}
  ~ScheduleScope() { set_cpu_schedule(saved); }
};

}  // namespace

TEST(E3_broadphase_reuse, SimRecordsBitwiseEqualOverAFallingHeapForEveryBroadPhase) {
  Model m = falling_heap(60, 3);
  for (BroadPhaseMode mode : {BroadPhaseMode::sap, BroadPhaseMode::nxn, BroadPhaseMode::explicit_pairs}) {
    CollisionPipelineOptions o;
    o.broad_phase = mode;
    expect_identical_with_reuse(run_heap(m, o, 24, 8), mode_name(mode));
  }
}

RC_GTEST_PROP(E3_broadphase_reuse, RecordsBitwiseEqualWhenOneBodyAtATimeMovesAnywhere, ()) {
  // Scripted poses, no solver: at each collide one body jumps by up to 0.15 m along every axis
  // (its neighbours are 0.2 m away) and turns, or nudges by up to 2 cm, so that shapes leave their
  // grown AABBs through any face, or stay inside, while the others stay put, and new pairs appear
  // on every side.
  Model m = falling_heap(*rc::gen::inRange(2, 31), *rc::gen::inRange(0, 1000));
  CollisionPipelineOptions o;
  o.broad_phase = *rc::gen::element(BroadPhaseMode::nxn, BroadPhaseMode::sap, BroadPhaseMode::explicit_pairs);
  o.broad_phase_reuse_margin = *gen::in_range(0, 0.05);
  CollisionPipeline fresh(m, TwoPipelines::off(o)), reused(m, TwoPipelines::on(o));
  Contacts a = fresh.contacts(), b = reused.contacts();
  std::vector<transform> q = m.state().body_q.to_host();
  for (int k = 0; k < 24; ++k) {
    if (k > 0) {
      transform& X = q[std::size_t(*rc::gen::inRange(0, m.body_count))];
      const real reach = *rc::gen::element(real(0.15), real(0.02));
      X.p = X.p + *gen::vector(reach);
      X.q = quat_mul(quat_from_axis_angle(*gen::unit_vector(), *gen::in_range(-3 * reach, 3 * reach)), X.q);
    }
    const Buffer<transform> qb(m.device, q);
    fresh.collide(qb.view(), a);
    reused.collide(qb.view(), b);
    fill_contact_materials(m, SolverPath::xpbd, a);
    fill_contact_materials(m, SolverPath::xpbd, b);
    RC_ASSERT(same_bytes(record_bytes(fresh, a), record_bytes(reused, b)));
  }
  RC_TAG(reused.broad_phase_rebuild_count() < 12 ? "most collides reused" : "most collides rebuilt");
}

TEST(E3_broadphase_reuse, SimRecordsBitwiseEqualWithSpeculativeWideningAndAZeroMargin) {
  // The speculative gap widens each tight AABB by |v| h: the grown AABBs must hold the widened ones.
  Model m = falling_heap(60, 5);
  CollisionPipelineOptions o;
  o.speculative_contact_gap_max = 0.02;
  o.broad_phase_reuse_margin = 0.02;
  expect_identical_with_reuse(run_heap(m, o, 24, 8), "speculative");
  // Margin 0: the candidates are exactly the pairs, reused only while nothing moves at all.
  o.broad_phase_reuse_margin = 0;
  const RunSummary r = run_heap(m, o, 6, 4);
  EXPECT_EQ(r.differing, 0);
  EXPECT_EQ(r.fallbacks, 0);
}

TEST(E3_broadphase_reuse, SimRecordsBitwiseEqualUnderGpuLaunchExtentsAndAShuffledSchedule) {
  // +capacity: every gated pass launches over its full extent on the CPU, as on a GPU, so a closed
  // rebuild runs every launch (each item returns) and its sorts and scans see what the last open
  // rebuild left; the shuffled schedule runs each launch's items in a seeded order.
  Model m = falling_heap(40, 11);
  ScheduleScope scope(parse_schedule("shuffle:7+capacity"));
  for (BroadPhaseMode mode : {BroadPhaseMode::sap, BroadPhaseMode::nxn}) {
    CollisionPipelineOptions o;
    o.broad_phase = mode;
    expect_identical_with_reuse(run_heap(m, o, 12, 8), std::string("capacity schedule, ") + mode_name(mode));
  }
}

TEST(E3_broadphase_reuse, DeterminismOneAndTwoThreadsGiveTheSameRecordAndRebuilds) {
  Model m = falling_heap(60, 13);
  CollisionPipelineOptions o;
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const RunSummary one = run_heap(m, o, 12, 8);
  omp_set_num_threads(2);
  const RunSummary two = run_heap(m, o, 12, 8);
  omp_set_num_threads(threads);
  EXPECT_EQ(one.differing, 0);
  EXPECT_EQ(two.differing, 0);
  EXPECT_EQ(one.rebuilds, two.rebuilds);
}

TEST(E3_broadphase_reuse, CandidateOverflowFallsBackToTheFreshBroadPhaseWithTheSameRecord) {
  // A margin as wide as the heap makes nearly every pair a candidate: more than twice
  // shape_pairs_max, so each collide rebuilds, overflows and runs the broad phase afresh.
  Model m = falling_heap(40, 17);
  CollisionPipelineOptions o;
  o.shape_pairs_max = 200;
  o.broad_phase_reuse_margin = 1.0;
  const RunSummary r = run_heap(m, o, 4, 4);
  EXPECT_EQ(r.differing, 0);
  EXPECT_EQ(r.fallbacks, r.collides);
  EXPECT_EQ(r.rebuilds, r.collides);
  EXPECT_EQ(r.copies, 0u);
}

TEST(E3_broadphase_reuse, RefusedCollidesReportTheSameStatusAndPairs) {
  // Pair overflow (more pairs than shape_pairs_max) and a non-finite pose: the step's readback
  // refuses both records; with the reuse they carry the same status, pairs and rows as without.
  Model m = falling_heap(40, 19);
  State s = m.state();
  for (int variant = 0; variant < 2; ++variant) {
    CollisionPipelineOptions o;
    o.shape_pairs_max = variant == 0 ? 3 : -1;
    CollisionPipeline fresh(m, TwoPipelines::off(o)), reused(m, TwoPipelines::on(o));
    Contacts a = fresh.contacts(), b = reused.contacts();
    std::vector<transform> q = s.body_q.to_host();
    for (int k = 0; k < 3; ++k) {  // a first collide, then one that reuses (nothing moved), then a bad pose
      if (variant == 1 && k == 2) q[7].p.x = std::numeric_limits<real>::quiet_NaN();
      const Buffer<transform> qb(m.device, q);
      fresh.collide(qb.view(), a);
      reused.collide(qb.view(), b);
      fill_contact_materials(m, SolverPath::xpbd, a);
      fill_contact_materials(m, SolverPath::xpbd, b);
      const RecordBytes ra = record_bytes(fresh, a), rb = record_bytes(reused, b);
      EXPECT_TRUE(same_bytes(ra, rb)) << "variant " << variant << " collide " << k;
      if (variant == 0) EXPECT_GT(ra.status[1], ra.status[2]) << "the pairs overflow";
    }
    EXPECT_EQ(a.collide_status.to_host()[0], variant == 1 ? 7 : -1);
    EXPECT_EQ(reused.broad_phase_fallback_count(), variant == 0 ? 3 : 1);
  }
}

TEST(E3_broadphase_reuse, OnByDefaultAndANegativeMarginIsRefusedNamingIt) {
  // impulse's default (a pure speed option, the records are the fresh broad phase's): the first
  // collide builds the candidate list; false runs the broad phase afresh, as Newton 1.6.1 does.
  Model m = falling_heap(5, 23);
  EXPECT_TRUE(CollisionPipelineOptions{}.broad_phase_reuse);
  State s = m.state();
  CollisionPipeline plain(m);
  Contacts c = plain.contacts();
  plain.collide(s.body_q.view(), c);
  plain.collide(s.body_q.view(), c);
  EXPECT_EQ(plain.broad_phase_rebuild_count(), 1);  // built once, then reused (nothing moved)
  CollisionPipelineOptions off;
  off.broad_phase_reuse = false;
  CollisionPipeline fresh(m, off);
  Contacts f = fresh.contacts();
  fresh.collide(s.body_q.view(), f);
  EXPECT_EQ(fresh.broad_phase_rebuild_count(), 0);
  CollisionPipelineOptions o;
  o.broad_phase_reuse = true;
  o.broad_phase_reuse_margin = -0.01;
  try {
    CollisionPipeline p(m, o);
    FAIL() << "a negative margin was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("broad_phase_reuse_margin must be >= 0 m"), std::string::npos) << e.what();
  }
  o.broad_phase_reuse_margin = std::numeric_limits<real>::quiet_NaN();
  EXPECT_THROW(CollisionPipeline(m, o), std::invalid_argument);
}

TEST(E3_broadphase_reuse, GrownAabbsHoldTheirTightOnesAndContainmentIsInclusive) {
  const aabb outer{{0, 0, 0}, {1, 1, 1}};
  EXPECT_TRUE(aabb_contains(outer, outer));  // touching bounds are inside
  EXPECT_TRUE(aabb_contains(outer, aabb{{0.5, 0, 0.2}, {1, 0.5, 0.3}}));
  EXPECT_FALSE(aabb_contains(outer, aabb{{0.5, 0, 0.2}, {1.0000001, 0.5, 0.3}}));
  EXPECT_FALSE(aabb_contains(outer, aabb{{-1e-12, 0, 0}, {1, 1, 1}}));
  const real nan = std::numeric_limits<real>::quiet_NaN();
  EXPECT_FALSE(aabb_contains(aabb{{nan, nan, nan}, {nan, nan, nan}}, outer));  // the unset grown AABB holds nothing
  EXPECT_TRUE(aabb_finite(aabb{{-1e30, -1e30, -1e30}, {1e30, 1e30, 1e30}}));      // a plane's
  EXPECT_FALSE(aabb_finite(aabb{{0, 0, 0}, {std::numeric_limits<real>::infinity(), 0, 0}}));
  EXPECT_FALSE(aabb_finite(aabb{{0, nan, 0}, {1, 1, 1}}));
}
