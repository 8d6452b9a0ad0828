// build_segments (core/segments.h) on a device, into arrays its caller keeps: the per-key CSR
// layout of a per-step list (e.g. contact rows by body) without an allocation or a host round trip.
#pragma once

#include <cstdint>

#include "core/buffer.h"
#include "core/parallel_for.h"
#include "core/scan.h"

namespace impulse {

/// *p += v as one atomic operation; returns the value before.
IMPULSE_HD inline std::int64_t atomic_add_int64(std::int64_t* p, std::int64_t v) {
#if defined(__CUDA_ARCH__)
  return std::int64_t(atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v)));
#else
  return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
#endif
}

/// Groups positions e in [0, keys.size) by keys[e], as build_segments does: start (key_count + 1
/// entries) and entry (at least keys.size entries); segment k lists the positions of key k in
/// increasing order; negative keys are skipped. Precondition (the caller's): every key <
/// key_count. fill: key_count entries of scratch.
/// One path on every backend: counts per key with atomic adds (exact integers), the exclusive scan
/// of core/scan.h, a scatter with atomic adds, then each segment sorted by position, so the result
/// does not depend on the order the atomics ran in (the shuffled CPU schedules check it).
inline void build_segments_on(Device d, int key_count, View<const int> keys, View<std::int64_t> start,
                              View<std::int64_t> entry, View<std::int64_t> fill) {
  parallel_for(d, key_count, IMPULSE_KERNEL((std::int64_t k), { fill[k] = 0; }));
  parallel_for(d, keys.size, IMPULSE_KERNEL((std::int64_t e), {
    if (keys[e] >= 0) atomic_add_int64(&fill[keys[e]], 1);
  }));
  exclusive_scan(d, View<const std::int64_t>{fill.data, key_count}, View<std::int64_t>{start.data, std::int64_t(key_count) + 1});
  parallel_for(d, key_count, IMPULSE_KERNEL((std::int64_t k), { fill[k] = start[k]; }));
  parallel_for(d, keys.size, IMPULSE_KERNEL((std::int64_t e), {
    if (keys[e] >= 0) entry[atomic_add_int64(&fill[keys[e]], 1)] = e;
  }));
  // Insertion sort of each segment (a body's handful of rows) restores the position order.
  parallel_for(d, key_count, IMPULSE_KERNEL((std::int64_t k), {
    for (std::int64_t a = start[k] + 1; a < start[k + 1]; ++a) {
      const std::int64_t x = entry[a];
      std::int64_t b = a;
      for (; b > start[k] && entry[b - 1] > x; --b) entry[b] = entry[b - 1];
      entry[b] = x;
    }
  }));
}

}  // namespace impulse
