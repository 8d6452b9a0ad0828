#include "core/scan.h"
#include "core/sort_pairs.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/buffer_grow.h"
#include "core/parallel_for.h"

#if defined(__CUDACC__)
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#endif

namespace impulse {

namespace {

template <class T>
void check_sizes(View<const T> counts, View<std::int64_t> offsets) {
  if (offsets.size < counts.size + 1)
    throw std::invalid_argument("exclusive_scan: offsets holds " + std::to_string(offsets.size) +
                                " entries, fewer than counts + 1 = " + std::to_string(counts.size + 1));
}

#if defined(__CUDACC__)
// CUB's scratch, kept for the process and grown geometrically: a launch allocates only when a
// larger array than any before arrives.
void* cub_scratch(std::size_t bytes) {
  static Buffer<unsigned char>* scratch = new Buffer<unsigned char>();
  grow_to(*scratch, Device::cuda, std::int64_t(bytes));
  return scratch->data();
}

void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

template <class T>
void scan_on_gpu(View<const T> counts, View<std::int64_t> offsets) {
  View<std::int64_t> o = offsets;
  parallel_for(Device::cuda, 1, IMPULSE_KERNEL((std::int64_t), { o[0] = 0; }));
  if (counts.size == 0) return;
  const cuda::std::plus<std::int64_t> plus{};
  std::size_t bytes = 0;
  cuda_check(cub::DeviceScan::InclusiveScan(nullptr, bytes, counts.data, offsets.data + 1, plus, counts.size),
             "exclusive_scan (CUB)");
  cuda_check(cub::DeviceScan::InclusiveScan(cub_scratch(bytes), bytes, counts.data, offsets.data + 1, plus, counts.size),
             "exclusive_scan (CUB)");
}
#endif

template <class T>
void scan(Device d, View<const T> counts, View<std::int64_t> offsets, LaunchSite where) {
  check_sizes(counts, offsets);
  count_launch(where);
  if (d == Device::cuda) {
#if defined(__CUDACC__)
    scan_on_gpu(counts, offsets);
    return;
#else
    throw std::runtime_error("exclusive_scan on cuda: this build has no CUDA support");
#endif
  }
  std::int64_t total = 0;
  for (std::int64_t i = 0; i < counts.size; ++i) {
    offsets[i] = total;
    total += counts[i];
  }
  offsets[counts.size] = total;
}

/// Ascending order of keys on the CPU by least-significant-digit radix sort, 11 bits a pass on the
/// key's bits with its sign bit flipped (then unsigned order is signed order); a pass whose digit is
/// the same for every key is skipped, so a pair list of up to 2^11 shapes takes about two passes
/// instead of std::sort's n log n comparisons. Sorted keys are one array whatever the method, so the
/// result is std::sort's. The scratch is kept and grown, like sort_pairs'.
void radix_sort_keys(View<std::int64_t> keys) {
  constexpr int kBits = 11, kBuckets = 1 << kBits;
  const std::size_t n = std::size_t(keys.size);
  const std::uint64_t flip = std::uint64_t(1) << 63;
  static thread_local std::vector<std::uint64_t> a, b;
  if (a.size() < n) a.resize(n), b.resize(n);
  std::uint64_t all_or = 0, all_and = ~std::uint64_t(0);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = std::uint64_t(keys[std::int64_t(i)]) ^ flip;
    all_or |= a[i];
    all_and &= a[i];
  }
  const std::uint64_t varying = all_or ^ all_and;  // bits that differ between some two keys
  std::size_t count[kBuckets];
  for (int shift = 0; shift < 64; shift += kBits) {
    if (((varying >> shift) & (kBuckets - 1)) == 0) continue;
    std::fill(count, count + kBuckets, std::size_t(0));
    for (std::size_t i = 0; i < n; ++i) ++count[(a[i] >> shift) & (kBuckets - 1)];
    std::size_t sum = 0;
    for (int d = 0; d < kBuckets; ++d) {
      const std::size_t c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (std::size_t i = 0; i < n; ++i) b[count[(a[i] >> shift) & (kBuckets - 1)]++] = a[i];
    a.swap(b);
  }
  for (std::size_t i = 0; i < n; ++i) keys[std::int64_t(i)] = std::int64_t(a[i] ^ flip);
}

}  // namespace

void exclusive_scan(Device d, View<const std::int64_t> counts, View<std::int64_t> offsets,
                    LaunchSite where) {
  scan(d, counts, offsets, where);
}
void exclusive_scan(Device d, View<const int> counts, View<std::int64_t> offsets, LaunchSite where) {
  scan(d, counts, offsets, where);
}

void sort_keys(Device d, View<std::int64_t> keys, LaunchSite where) {
  if (keys.size <= 1) return;
  count_launch(where);
  if (d == Device::cuda) {
#if defined(__CUDACC__)
    static Buffer<std::int64_t>* alt = new Buffer<std::int64_t>();
    grow_to(*alt, Device::cuda, keys.size);
    cub::DoubleBuffer<std::int64_t> db(keys.data, alt->data());
    std::size_t bytes = 0;
    cuda_check(cub::DeviceRadixSort::SortKeys(nullptr, bytes, db, keys.size), "sort_keys (CUB)");
    cuda_check(cub::DeviceRadixSort::SortKeys(cub_scratch(bytes), bytes, db, keys.size), "sort_keys (CUB)");
    if (db.Current() != keys.data)
      cuda_check(cudaMemcpyAsync(keys.data, db.Current(), sizeof(std::int64_t) * keys.size, cudaMemcpyDeviceToDevice),
                 "sort_keys (copy back)");
    return;
#else
    throw std::runtime_error("sort_keys on cuda: this build has no CUDA support");
#endif
  }
  radix_sort_keys(keys);
}

void sort_pairs(Device d, View<std::int64_t> keys, View<int> values, LaunchSite where) {
  const std::int64_t n = keys.size;
  if (values.size < n)
    throw std::invalid_argument("sort_pairs: values holds " + std::to_string(values.size) + " entries, fewer than keys = " +
                                std::to_string(n));
  if (n <= 1) return;
  count_launch(where);
  if (d == Device::cuda) {
#if defined(__CUDACC__)
    static Buffer<std::int64_t>* alt_keys = new Buffer<std::int64_t>();
    static Buffer<int>* alt_values = new Buffer<int>();
    grow_to(*alt_keys, Device::cuda, n);
    grow_to(*alt_values, Device::cuda, n);
    cub::DoubleBuffer<std::int64_t> k(keys.data, alt_keys->data());
    cub::DoubleBuffer<int> v(values.data, alt_values->data());
    std::size_t bytes = 0;
    cuda_check(cub::DeviceRadixSort::SortPairs(nullptr, bytes, k, v, n), "sort_pairs (CUB)");
    cuda_check(cub::DeviceRadixSort::SortPairs(cub_scratch(bytes), bytes, k, v, n), "sort_pairs (CUB)");
    if (k.Current() != keys.data)
      cuda_check(cudaMemcpyAsync(keys.data, k.Current(), sizeof(std::int64_t) * n, cudaMemcpyDeviceToDevice),
                 "sort_pairs (copy back)");
    if (v.Current() != values.data)
      cuda_check(cudaMemcpyAsync(values.data, v.Current(), sizeof(int) * n, cudaMemcpyDeviceToDevice),
                 "sort_pairs (copy back)");
    return;
#else
    throw std::runtime_error("sort_pairs on cuda: this build has no CUDA support");
#endif
  }
  // (key, position) sorted lexicographically is the stable order; the scratch is kept and grown.
  static thread_local std::vector<std::pair<std::int64_t, std::int64_t>> order;
  static thread_local std::vector<int> moved;
  if (std::int64_t(order.size()) < n) order.resize(std::size_t(n)), moved.resize(std::size_t(n));
  for (std::int64_t i = 0; i < n; ++i) order[std::size_t(i)] = {keys[i], i};
  std::sort(order.begin(), order.begin() + n);
  for (std::int64_t i = 0; i < n; ++i) moved[std::size_t(i)] = values[order[std::size_t(i)].second];
  for (std::int64_t i = 0; i < n; ++i) keys[i] = order[std::size_t(i)].first, values[i] = moved[std::size_t(i)];
}

std::int64_t launch_extent(Device d, View<const int> count, std::int64_t capacity) {
  if (d == Device::cuda || cpu_schedule().capacity) return capacity;
  const std::int64_t n = count[0];
  return n < 0 ? 0 : (n > capacity ? capacity : n);
}

}  // namespace impulse
