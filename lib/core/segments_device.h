// build_segments (core/segments.h) on a device, into arrays its caller keeps: the per-key CSR
// layout of a per-step list (e.g. contact rows by body) without an allocation or a host round trip.
#pragma once

#include <cstdint>

#include "core/buffer.h"
#include "core/parallel_for.h"

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
/// On the CPU, where device memory is host memory, it is build_segments' one ordered pass. On a
/// GPU: counts per key with atomic adds (exact integers), an ordered prefix sum (one thread, over
/// the keys), a scatter with atomic adds, then each segment sorted by position, so the result is
/// the same as the CPU's and does not depend on the order the atomics ran in.
inline void build_segments_on(Device d, int key_count, View<const int> keys, View<std::int64_t> start,
                              View<std::int64_t> entry, View<std::int64_t> fill) {
  if (d == Device::cpu) {
    for (int k = 0; k <= key_count; ++k) start[k] = 0;
    for (std::int64_t e = 0; e < keys.size; ++e)
      if (keys[e] >= 0) ++start[keys[e] + 1];
    for (int k = 0; k < key_count; ++k) start[k + 1] += start[k];
    for (int k = 0; k < key_count; ++k) fill[k] = start[k];
    for (std::int64_t e = 0; e < keys.size; ++e)
      if (keys[e] >= 0) entry[fill[keys[e]]++] = e;
    return;
  }
  parallel_for(d, std::int64_t(key_count) + 1, IMPULSE_LAMBDA(std::int64_t k) { start[k] = 0; });
  parallel_for(d, keys.size, IMPULSE_LAMBDA(std::int64_t e) {
    if (keys[e] >= 0) atomic_add_int64(&start[keys[e] + 1], 1);
  });
  parallel_for(d, 1, IMPULSE_LAMBDA(std::int64_t) {
    for (int k = 0; k < key_count; ++k) start[k + 1] += start[k];
  });
  parallel_for(d, key_count, IMPULSE_LAMBDA(std::int64_t k) { fill[k] = start[k]; });
  parallel_for(d, keys.size, IMPULSE_LAMBDA(std::int64_t e) {
    if (keys[e] >= 0) entry[atomic_add_int64(&fill[keys[e]], 1)] = e;
  });
  // Insertion sort of each segment (a body's handful of rows) restores the position order.
  parallel_for(d, key_count, IMPULSE_LAMBDA(std::int64_t k) {
    for (std::int64_t a = start[k] + 1; a < start[k + 1]; ++a) {
      const std::int64_t x = entry[a];
      std::int64_t b = a;
      for (; b > start[k] && entry[b - 1] > x; --b) entry[b] = entry[b - 1];
      entry[b] = x;
    }
  });
}

}  // namespace impulse
