// Primitives over device arrays that every engine pass calls instead of knowing its backend: the
// exclusive prefix sum, the sort of integer keys, the extent of a pass over a record whose row
// count stays on the device, and the one-value readback. On a GPU the scan and the sort are CUB's
// (shipped with the CUDA toolkit; their scratch is kept and grown, never freed); on the CPU the same
// contract with plain loops.
#pragma once

#include <cstdint>

#include "core/alloc_count.h"
#include "core/buffer.h"

namespace impulse {

/// offsets[0] = 0 and offsets[i + 1] = counts[0] + ... + counts[i] for i in [0, n), n = counts.size;
/// offsets holds n + 1 entries, so offsets[n] is the total, written on the device (no readback).
/// The counts are integers, so the sums are exact and do not depend on the order of additions.
/// where: the launch's name (core/alloc_count.h).
void exclusive_scan(Device d, View<const std::int64_t> counts, View<std::int64_t> offsets,
                    LaunchSite where = LaunchSite());
void exclusive_scan(Device d, View<const int> counts, View<std::int64_t> offsets,
                    LaunchSite where = LaunchSite());

/// The value at v[i] of an array on device d, read on the host (one copy on a GPU, a load on the CPU).
template <class T>
T read_one(Device d, View<const T> v, std::int64_t i) {
  T x{};
  device_copy(&x, Device::cpu, v.data + i, d, sizeof(T));
  return x;
}

/// Sorts keys[0, keys.size) ascending in place (CUB's radix sort on a GPU, std::sort on the CPU).
void sort_keys(Device d, View<std::int64_t> keys, LaunchSite where = LaunchSite());

/// Items a pass over a record's rows launches over when the row count lives on device d at
/// count[0]: the capacity on a GPU (the count is not read back; each item compares itself with
/// count[0] there), the count clamped to [0, capacity] on the CPU, where reading it costs nothing.
/// Under an IMPULSE_SCHEDULE with +capacity the CPU launches over the capacity too. The pass's body
/// must do nothing for an item at or past the count.
std::int64_t launch_extent(Device d, View<const int> count, std::int64_t capacity);

}  // namespace impulse
