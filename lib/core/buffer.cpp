#include "core/buffer.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include "core/alloc_count.h"
#include "core/host_copies.h"

#if defined(IMPULSE_WITH_CUDA)
#include <cuda_runtime.h>
#endif

namespace impulse {

#if defined(IMPULSE_WITH_CUDA)
static void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
#endif

static void require_cuda(Device d) {
  if (d == Device::cuda && !cuda_built())
    throw std::runtime_error("a cuda buffer was requested but this build has no CUDA support");
}

void* device_alloc(Device d, std::size_t bytes) {
  require_cuda(d);
  count_allocation();  // lib/core/alloc_count.h: the benchmarks report allocations per step
  if (d == Device::cpu) {
    // 64-byte alignment keeps SoA arrays friendly to vector loads.
    std::size_t rounded = (bytes + 63) / 64 * 64;
    void* p = std::aligned_alloc(64, rounded);
    if (!p) throw std::bad_alloc();
    return p;
  }
#if defined(IMPULSE_WITH_CUDA)
  void* p = nullptr;
  cuda_check(cudaMalloc(&p, bytes), "cudaMalloc");
  return p;
#else
  return nullptr;
#endif
}

void device_free(Device d, void* p) {
  if (d == Device::cpu) {
    std::free(p);
    return;
  }
#if defined(IMPULSE_WITH_CUDA)
  cudaFree(p);
#endif
}

namespace {
// The copy itself, counted or not by its callers.
void copy_bytes(void* dst, Device dst_dev, const void* src, Device src_dev, std::size_t bytes) {
  if (bytes == 0) return;
  if (dst_dev == Device::cpu && src_dev == Device::cpu) {
    std::memcpy(dst, src, bytes);
    return;
  }
  require_cuda(Device::cuda);
#if defined(IMPULSE_WITH_CUDA)
  cudaMemcpyKind kind = dst_dev == Device::cpu ? cudaMemcpyDeviceToHost
                        : src_dev == Device::cpu ? cudaMemcpyHostToDevice
                                                 : cudaMemcpyDeviceToDevice;
  cuda_check(cudaMemcpy(dst, src, bytes, kind), "cudaMemcpy");
#endif
}
}  // namespace

// A copy with a side on the host (Device::cpu) counts as a host copy (core/host_copies.h).
void device_copy(void* dst, Device dst_dev, const void* src, Device src_dev, std::size_t bytes) {
  if (bytes == 0) return;
  if (dst_dev == Device::cpu || src_dev == Device::cpu) count_host_copy();
  copy_bytes(dst, dst_dev, src, src_dev, bytes);
}

void copy_on_device(Device d, void* dst, const void* src, std::size_t bytes) { copy_bytes(dst, d, src, d, bytes); }

}  // namespace impulse
