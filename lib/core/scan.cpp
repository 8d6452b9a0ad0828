#include "core/scan.h"

#include <algorithm>
#include <stdexcept>
#include <string>

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
  parallel_for(Device::cuda, 1, IMPULSE_LAMBDA(std::int64_t) { o[0] = 0; });
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
  std::sort(keys.data, keys.data + keys.size);
}

std::int64_t launch_extent(Device d, View<const int> count, std::int64_t capacity) {
  if (d == Device::cuda || cpu_schedule().capacity) return capacity;
  const std::int64_t n = count[0];
  return n < 0 ? 0 : (n > capacity ? capacity : n);
}

}  // namespace impulse
