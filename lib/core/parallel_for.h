// parallel_for: the only place that knows how to launch work on a backend.
//
//   parallel_for(device, n, IMPULSE_KERNEL((std::int64_t i), { ... }));
//
// f is what IMPULSE_KERNEL makes (core/hd.h): under nvcc a KernelPair, whose device half the GPU
// kernel runs and whose host half the CPU loop runs; otherwise one lambda. Any other callable works
// as well (both backends then run it; on the GPU it must be __host__ __device__ or __device__).
// On the CPU it is an OpenMP loop with a static schedule (serial below 1024 items, where waking the
// thread team costs more than the work; IMPULSE_SCHEDULE=parallel lowers that to 2), or, under
// IMPULSE_SCHEDULE=reverse or shuffle:SEED
// (core/schedule.h), one thread running the items backwards or in a seeded permutation; on the GPU
// a 1-D CUDA kernel of 256 threads a block. A release build does not wait for the kernel (errors
// surface at the step's readback, the next synchronous copy); a debug build synchronises after each
// launch so that an error names its launch. The body must not depend on iteration order (each i
// writes its own outputs); ordered sums live in reduce.h.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/alloc_count.h"
#include "core/device.h"
#include "core/hd.h"
#include "core/schedule.h"

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#endif

// Device code by construction: in a CUDA build a translation unit that can launch work must be
// compiled by nvcc (lib/CMakeLists.txt selects every library source that reaches this header).
// One compiled by the host compiler would build and fail only at run time on a GPU, so it stops
// the build here instead. A test that launches on the CPU only says so with
// IMPULSE_HOST_ONLY_PARALLEL_FOR.
#if defined(IMPULSE_WITH_CUDA) && !defined(__CUDACC__) && !defined(IMPULSE_HOST_ONLY_PARALLEL_FOR)
#error "core/parallel_for.h in a CUDA build must be compiled by nvcc (see lib/CMakeLists.txt)"
#endif

namespace impulse {

#if defined(__CUDACC__)
template <class F>
__global__ void parallel_for_kernel(std::int64_t n, F f) {
  std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) f(i);
}
#endif

namespace detail {
// The half of a launch body that each backend runs: a KernelPair's own, any other callable itself.
template <class F>
const F& device_half(const F& f) { return f; }
template <class D, class H>
const D& device_half(const KernelPair<D, H>& f) { return f.device; }
template <class F>
const F& host_half(const F& f) { return f; }
template <class D, class H>
const H& host_half(const KernelPair<D, H>& f) { return f.host; }

// The GPU launch of both loops below: true when it ran there.
template <class F>
bool launch_on_device(Device d, std::int64_t n, const F& f) {
  if (d != Device::cuda) return false;
#if defined(__CUDACC__)
  const int block = 256;
  std::int64_t grid = (n + block - 1) / block;
  parallel_for_kernel<<<static_cast<unsigned>(grid), block>>>(n, device_half(f));
  cudaError_t e = cudaGetLastError();  // a launch that could not start (no wait)
#if !defined(NDEBUG)
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
#endif
  if (e != cudaSuccess) throw std::runtime_error(std::string("parallel_for on cuda: ") + cudaGetErrorString(e));
  return true;
#else
  throw std::runtime_error("parallel_for on cuda: this translation unit was not compiled by nvcc");
#endif
}

/// The CPU loop under a reverse or shuffled schedule: one thread, every item once. True when it ran.
template <class F>
bool run_rescheduled(std::int64_t n, const F& f) {
  const Schedule& s = cpu_schedule();
  if (s.kind == ScheduleKind::ordered || s.kind == ScheduleKind::parallel) return false;
  if (s.kind == ScheduleKind::reverse) {
    for (std::int64_t k = n - 1; k >= 0; --k) f(k);
    return true;
  }
  const std::uint64_t launch = launch_count();
  for (std::int64_t k = 0; k < n; ++k) f(shuffled_item(s.seed, launch, n, k));
  return true;
}
}  // namespace detail

/// where: the launch's name in the counts of core/alloc_count.h (the calling function and line).
template <class F>
void parallel_for(Device d, std::int64_t n, const F& f, LaunchSite where = LaunchSite()) {
  if (n <= 0) return;
  count_launch(where);
  if (detail::launch_on_device(d, n, f)) return;
  const auto& body = detail::host_half(f);
  if (detail::run_rescheduled(n, body)) return;
#pragma omp parallel for schedule(static) if (n >= cpu_schedule().team_threshold())
  for (std::int64_t i = 0; i < n; ++i) body(i);
}

/// parallel_for for items of very different cost (the narrow phase: a sphere pair is a few
/// flops, a box pair a clipping of faces): on the CPU threads take chunks of 16 items as they
/// finish, so no thread waits on a static share that happens to hold the expensive items. The
/// same contract (each i writes its own outputs), so results do not depend on the schedule; the
/// GPU launch is the same as parallel_for's.
template <class F>
void parallel_for_uneven(Device d, std::int64_t n, const F& f, LaunchSite where = LaunchSite()) {
  if (n <= 0) return;
  count_launch(where);
  if (detail::launch_on_device(d, n, f)) return;
  const auto& body = detail::host_half(f);
  if (detail::run_rescheduled(n, body)) return;
#pragma omp parallel for schedule(dynamic, 16) if (n >= cpu_schedule().team_threshold())
  for (std::int64_t i = 0; i < n; ++i) body(i);
}

}  // namespace impulse
