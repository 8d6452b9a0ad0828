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

}  // namespace impulse
