// Launch sites of the broad-phase reuse (see broad_phase_reuse.h). Every stage writes by index and
// the filter places its pairs by an exclusive scan, so the result does not depend on the schedule.
#include "e3/collision/broad_phase_reuse.h"

#include <climits>
#include <cstdint>
#include <cmath>
#include <limits>
#include <vector>

#include "core/first_flagged.h"
#include "core/parallel_for.h"
#include "core/scan.h"

namespace impulse {

BroadPhaseReuse::BroadPhaseReuse(const Model& m, std::int64_t candidate_capacity) {
  const Device d = m.device;
  const std::int64_t n = m.shape_count;
  const real nan = std::numeric_limits<real>::quiet_NaN();
  const aabb unset{{nan, nan, nan}, {nan, nan, nan}};
  fat = Buffer<aabb>(d, std::vector<aabb>(std::size_t(n), unset));
  escaped = Buffer<int>(d, n);
  non_finite = Buffer<int>(d, n);
  blocks = Buffer<int>(d, first_flagged_blocks(n));
  first_escaped = Buffer<int>(d, std::vector<int>{-1});
  first_non_finite = Buffer<int>(d, std::vector<int>{-1});
  rebuild = Buffer<int>(d, std::vector<int>{0});
  fallback = Buffer<int>(d, std::vector<int>{0});
  passes = Buffer<std::int64_t>(d, std::vector<std::int64_t>{0, 0});
  candidates = BroadPhaseScratch(d, candidate_capacity);
  keep = Buffer<int>(d, candidate_capacity);
  keep_offset = Buffer<std::int64_t>(d, candidate_capacity + 1);
}

void check_grown_aabbs(Device d, View<const aabb> tight, BroadPhaseReuse& r) {
  View<const aabb> fat = r.fat.view();
  View<int> esc{r.escaped.data(), tight.size}, bad{r.non_finite.data(), tight.size};
  parallel_for(d, tight.size, IMPULSE_KERNEL((std::int64_t s), {
    esc[s] = aabb_contains(fat[s], tight[s]) ? 0 : 1;
    bad[s] = aabb_finite(tight[s]) ? 0 : 1;
  }));
  first_flagged(d, View<const int>(esc), r.blocks.view(), r.first_escaped.view());
  first_flagged(d, View<const int>(bad), r.blocks.view(), r.first_non_finite.view());
  // A rebuild whose candidates overflowed left an incomplete list: rebuild again.
  View<const int> first = r.first_escaped.view(), found = r.candidates.found.view();
  const std::int64_t cap = r.candidates.pair_capacity;
  View<int> gate = r.rebuild.view();
  View<std::int64_t> passes = r.passes.view();
  parallel_for(d, 1, IMPULSE_KERNEL((std::int64_t), {
    const int open = first[0] >= 0 || found[0] > cap ? 1 : 0;
    gate[0] = open;
    passes[0] += open;
  }));
}

void grow_aabbs(Device d, View<const aabb> tight, real margin, BroadPhaseReuse& r) {
  // F = [T.lo - margin, T.hi + margin] per axis (an unbounded plane's +-1e30 stays +-1e30).
  const LaunchGate gate = r.rebuild_gate();
  View<aabb> fat{r.fat.data(), tight.size};
  const vec3 g{margin, margin, margin};
  parallel_for(d, gate.extent(d, tight.size), IMPULSE_KERNEL((std::int64_t s), {
    if (gate.closed()) return;
    fat[s] = {tight[s].lo - g, tight[s].hi + g};
  }));
}

void filter_candidate_pairs(Device d, View<const aabb> tight, BroadPhaseReuse& r, BroadPhaseScratch& out) {
  // Over the candidates' launch extent (their count on the CPU, their capacity on a GPU): keep[k]
  // = 1 where candidate k's tight AABBs overlap; an exclusive scan places the kept ones in order.
  const std::int64_t nc = r.candidates.launch(d);
  View<const std::int64_t> cand{r.candidates.pairs.data(), nc};
  View<const int> cfound = r.candidates.found.view();
  View<int> keep{r.keep.data(), nc};
  parallel_for(d, nc, IMPULSE_KERNEL((std::int64_t k), {
    keep[k] = k < cfound[0] && aabb_overlap(tight[pair_key_first(cand[k])], tight[pair_key_second(cand[k])]) ? 1 : 0;
  }));
  exclusive_scan(d, View<const int>(keep), View<std::int64_t>{r.keep_offset.data(), nc + 1});
  View<const std::int64_t> off{r.keep_offset.data(), nc + 1};
  View<const int> kept = keep;
  const std::int64_t cap = out.pair_capacity;
  View<std::int64_t> pairs = out.pairs.view();
  parallel_for(d, nc, IMPULSE_KERNEL((std::int64_t k), {
    if (kept[k] && off[k] < cap) pairs[off[k]] = cand[k];
  }));
  View<int> found = out.found.view();
  parallel_for(d, 1, IMPULSE_KERNEL((std::int64_t), {
    found[0] = off[nc] < std::int64_t(INT_MAX) ? static_cast<int>(off[nc]) : INT_MAX;
  }));
  // Past the count, over out's launch extent, the largest key, as sort_found_pairs leaves a sweep's
  // result: a closed fallback sweep on a GPU sorts that extent again, which then changes nothing.
  View<std::int64_t> tail{out.pairs.data(), out.launch(d)};
  View<const int> n_out = out.found.view();
  parallel_for(d, tail.size, IMPULSE_KERNEL((std::int64_t k), {
    if (k >= n_out[0]) tail[k] = INT64_MAX;
  }));
}

void check_broad_phase_fallback(Device d, BroadPhaseReuse& r, const BroadPhaseScratch& out,
                                View<const int> collide_status) {
  View<const int> cfound = r.candidates.found.view(), found = out.found.view(),
                  bad = r.first_non_finite.view();
  const std::int64_t ccap = r.candidates.pair_capacity, cap = out.pair_capacity;
  View<int> gate = r.fallback.view();
  View<std::int64_t> passes = r.passes.view();
  parallel_for(d, 1, IMPULSE_KERNEL((std::int64_t), {
    const int open = cfound[0] > ccap || found[0] > cap || collide_status[0] >= 0 || bad[0] >= 0 ? 1 : 0;
    gate[0] = open;
    passes[1] += open;
  }));
}

}  // namespace impulse
