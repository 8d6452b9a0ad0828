// Broad-phase reuse across collides (CollisionPipelineOptions::broad_phase_reuse): a candidate pair
// list made from AABBs grown by a margin (a Verlet list of shape pairs; the "fat AABB" of Box2D's
// dynamic tree, box2d src/body.c and src/constants.h B2_AABB_MARGIN, and of Bullet's
// btDbvtBroadphase, btDbvt::update "if (leaf->volume.Contain(volume)) return false" with
// DBVT_BP_MARGIN), kept while every shape's tight AABB stays inside its grown one, and filtered at
// each collide with the broad phase's own overlap test on the tight AABBs.
//
// Why the pairs are the broad phase's own, bit for bit. Let T_s be shape s's tight AABB of this
// collide and F_s its grown AABB of the last rebuild, with T_s inside F_s for every s (checked
// with exact comparisons, no arithmetic):
//   F_s.lo <= T_s.lo and T_s.hi <= F_s.hi                                   (per axis)
//   overlap(T_a, T_b) = T_a.lo <= T_b.hi and T_b.lo <= T_a.hi               (per axis)
//   => F_a.lo <= T_a.lo <= T_b.hi <= F_b.hi (and the same with a, b swapped) => overlap(F_a, F_b)
// So every pair the broad phase finds on T is among the candidates the same broad phase found on F
// (same filters, every world's segment), and keeping the candidates whose T overlap, in candidate
// order (canonical (s0, s1) order, as every broad phase writes it), gives exactly its sorted list.
// Where the filtered list cannot stand for it (the candidates overflowed their capacity, the pairs
// overflow shape_pairs_max, a pose or a tight AABB is not finite) the ordinary broad phase runs on
// T instead (the fallback), so even a refused collide reports the same pairs and counts.
//
// Every decision is a flag on the device (a LaunchGate): no host copy, as the step's one readback
// allows. On the CPU a closed gate's launches take no items; on a GPU they run and return at once.
#pragma once

#include <cstdint>

#include "core/buffer.h"
#include "core/hd.h"
#include "e1/model.h"
#include "e3/collision/collision_kernels.h"

namespace impulse {

/// Whether box a holds box b (every bound of b within a's, inclusive); false when either has a NaN.
IMPULSE_HD inline bool aabb_contains(const aabb& a, const aabb& b) {
  return a.lo.x <= b.lo.x && a.lo.y <= b.lo.y && a.lo.z <= b.lo.z && b.hi.x <= a.hi.x && b.hi.y <= a.hi.y &&
         b.hi.z <= a.hi.z;
}

/// Whether every bound of b is finite (x - x is NaN for inf and NaN).
IMPULSE_HD inline bool aabb_finite(const aabb& b) {
  return b.lo.x - b.lo.x == 0 && b.lo.y - b.lo.y == 0 && b.lo.z - b.lo.z == 0 && b.hi.x - b.hi.x == 0 &&
         b.hi.y - b.hi.y == 0 && b.hi.z - b.hi.z == 0;
}

/// The reuse's device state, kept by the pipeline between collides and allocated once.
struct BroadPhaseReuse {
  BroadPhaseReuse() = default;
  /// For m's shapes and candidate_capacity candidate pairs. The grown AABBs start as NaN, which
  /// holds nothing, so the first collide rebuilds.
  BroadPhaseReuse(const Model& m, std::int64_t candidate_capacity);

  Buffer<aabb> fat;                      // [m] (shape_count) tight AABB at the last rebuild, grown by the margin
  Buffer<int> escaped, non_finite;       // (shape_count) per shape: tight AABB outside fat / not finite
  Buffer<int> blocks;                    // first_flagged's scratch over the shapes
  Buffer<int> first_escaped, first_non_finite;  // (1) first flagged shape or -1
  Buffer<int> rebuild, fallback;         // (1) the two gates, 0 or 1
  Buffer<std::int64_t> passes;           // (2) rebuilds and fallbacks since construction [-]
  BroadPhaseScratch candidates;          // the candidate pairs of the last rebuild and their count
  Buffer<int> keep;                      // (candidate capacity) 1 where a candidate's tight AABBs overlap
  Buffer<std::int64_t> keep_offset;      // (candidate capacity + 1) exclusive scan of keep

  LaunchGate rebuild_gate() const { return {rebuild.view()}; }
  LaunchGate fallback_gate() const { return {fallback.view()}; }
};

/// Stage "reuse check": per shape whether its tight AABB left its grown one and whether it is
/// finite; rebuild[0] = 1 when a shape left (a NaN grown AABB counts as left) or the last rebuild's
/// candidates overflowed their capacity, else 0; passes[0] counts the rebuilds.
void check_grown_aabbs(Device d, View<const aabb> tight, BroadPhaseReuse& r);

/// Stage "rebuild", gated by rebuild[0]: every shape's grown AABB is its tight one grown by margin
/// [m] on each side (then the caller runs its broad phase on them into r.candidates, same gate).
void grow_aabbs(Device d, View<const aabb> tight, real margin, BroadPhaseReuse& r);

/// Stage "filter": the candidates whose tight AABBs overlap (aabb_overlap, the broad phases' test),
/// compacted in candidate order into out.pairs (at most out.pair_capacity written), their number
/// in out.found[0] (saturated at INT_MAX), as a broad phase leaves its result.
void filter_candidate_pairs(Device d, View<const aabb> tight, BroadPhaseReuse& r, BroadPhaseScratch& out);

/// Stage "fallback check": fallback[0] = 1 when the filtered pairs cannot stand for the broad
/// phase's (candidates past their capacity, out.found past shape_pairs_max, a non-finite body
/// pose in collide_status[0] or a non-finite tight AABB), else 0; passes[1] counts the fallbacks.
/// The caller then runs its broad phase on the tight AABBs into out under that gate.
void check_broad_phase_fallback(Device d, BroadPhaseReuse& r, const BroadPhaseScratch& out,
                                View<const int> collide_status);

}  // namespace impulse
