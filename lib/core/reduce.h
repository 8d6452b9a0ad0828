// Deterministic ordered segmented sums.
//
// Where the course describes Jacobi accumulation with atomics (e.g. XPBD contact deltas summed per
// body), the engine instead sorts contributions by segment and sums each segment in index order,
// one segment per thread. The floating-point result therefore does not depend on thread count or
// scheduling: bitwise identical for any number of CPU threads, and run to run on the GPU.
#pragma once

#include <cstdint>

#include "core/buffer.h"
#include "core/parallel_for.h"
#include "core/spatial.h"

namespace impulse {

/// acc += x, the addition of the sums below: acc + x for a type with operator+, component by
/// component for a spatial vector (linear part, then angular part).
template <class T>
IMPULSE_HD inline void segment_add(T& acc, const T& x) {
  acc = acc + x;
}
IMPULSE_HD inline void segment_add(spatial_vector& acc, const spatial_vector& x) {
  acc.lin += x.lin;
  acc.ang += x.ang;
}

/// out[s] = sum_{k = start[s]}^{start[s+1]-1} values[k], summed in increasing k.
/// start has segment_count + 1 entries, non-decreasing, start[0] = 0 and start[last] = values.size.
template <class T>
void segmented_sum(Device d, View<const T> values, View<const std::int64_t> start, View<T> out,
                   LaunchSite where = LaunchSite()) {
  parallel_for(d, out.size, IMPULSE_KERNEL((std::int64_t s), {
    T acc{};
    for (std::int64_t k = start[s]; k < start[s + 1]; ++k) segment_add(acc, values[k]);
    out[s] = acc;
  }), where);
}

/// out[s] += value(entry[k]) for k = start[s] .. start[s+1]-1, added one by one in increasing k onto
/// out[s]'s old value: the segmented sum over entries gathered through a grouped index (start,
/// entry as core/segments_device.h's build_segments_on writes them) into an array that already
/// holds a partial sum. value: a copyable functor with an IMPULSE_HD operator()(std::int64_t e)
/// returning T (it runs on the device).
template <class T, class Value>
void segmented_sum_into(Device d, View<const std::int64_t> start, View<const std::int64_t> entry, const Value& value,
                        View<T> out, LaunchSite where = LaunchSite()) {
  parallel_for(d, out.size, IMPULSE_KERNEL((std::int64_t s), {
    T acc = out[s];
    for (std::int64_t k = start[s]; k < start[s + 1]; ++k) segment_add(acc, value(entry[k]));
    out[s] = acc;
  }), where);
}

/// value for a grouped index of two-sided items (build_segments_on's entry e = item << 1 | side):
/// item e >> 1's side0 or side1 value.
struct TwoSidedEntry {
  View<const spatial_vector> side0, side1;
  IMPULSE_HD spatial_vector operator()(std::int64_t e) const { return (e & 1) ? side1[e >> 1] : side0[e >> 1]; }
};

/// keep for segmented_sum_where when every entry counts.
struct KeepEveryEntry {
  IMPULSE_HD bool operator()(std::int64_t) const { return true; }
};

/// The masked segmented sum over a grouped index, used where it is made: one item per segment s
///   acc = sum of value(e) over e = entry[k], k = start[s] .. start[s+1]-1, keep(e), added one by one
///         in increasing k onto T{};   N = the number of entries kept
/// then finish(s, acc, N) in the same item. keep, value, finish: copyable functors with IMPULSE_HD
/// operator()s (they run on the device): keep(e) -> bool, value(e) -> T, finish(s, const T&, int).
/// A mean over the entries that fired (XPBD's weighted deltas: only the active contact rows, averaged
/// by their count and applied to the body) thus needs no extra launch and no per-segment arrays.
template <class T, class Keep, class Value, class Finish>
void segmented_sum_where(Device d, std::int64_t segments, View<const std::int64_t> start, View<const std::int64_t> entry,
                         const Keep& keep, const Value& value, const Finish& finish, LaunchSite where = LaunchSite()) {
  parallel_for(d, segments, IMPULSE_KERNEL((std::int64_t s), {
    T acc{};
    int N = 0;
    for (std::int64_t k = start[s]; k < start[s + 1]; ++k) {
      const std::int64_t e = entry[k];
      if (!keep(e)) continue;
      segment_add(acc, value(e));
      ++N;
    }
    finish(s, acc, N);
  }), where);
}

}  // namespace impulse
