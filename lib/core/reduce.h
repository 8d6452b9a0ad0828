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

namespace impulse {

/// out[s] = sum_{k = start[s]}^{start[s+1]-1} values[k], summed in increasing k.
/// start has segment_count + 1 entries, non-decreasing, start[0] = 0 and start[last] = values.size.
template <class T>
void segmented_sum(Device d, View<const T> values, View<const std::int64_t> start, View<T> out) {
  parallel_for(d, out.size, IMPULSE_KERNEL((std::int64_t s), {
    T acc{};
    for (std::int64_t k = start[s]; k < start[s + 1]; ++k) acc = acc + values[k];
    out[s] = acc;
  }));
}

}  // namespace impulse
