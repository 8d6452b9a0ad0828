#include "core/device.h"
#include "core/threads.h"

#include <stdexcept>

#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(IMPULSE_WITH_CUDA)
#include <cuda_runtime.h>
#endif

namespace impulse {

bool cuda_built() {
#if defined(IMPULSE_WITH_CUDA)
  return true;
#else
  return false;
#endif
}

int cuda_device_count() {
#if defined(IMPULSE_WITH_CUDA)
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error
    return 0;
  }
  return n;
#else
  return 0;
#endif
}

Device select_device(const std::string& name) {
  if (name == "cpu") return Device::cpu;
  if (name == "auto") return (cuda_built() && cuda_device_count() > 0) ? Device::cuda : Device::cpu;
  if (name == "cuda") {
    if (!cuda_built())
      throw std::runtime_error("device 'cuda': this build has no CUDA support (nvcc was not found when it was configured)");
    if (cuda_device_count() == 0)
      throw std::runtime_error("device 'cuda': built with CUDA, but no CUDA GPU is present on this machine");
    return Device::cuda;
  }
  throw std::invalid_argument("device '" + name + "' is not one of cpu, cuda, auto");
}

const char* device_name(Device d) { return d == Device::cuda ? "cuda" : "cpu"; }

int cpu_threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

void set_cpu_threads(int n) {
  if (n < 1) throw std::invalid_argument("set_cpu_threads: n must be >= 1, got " + std::to_string(n));
#ifdef _OPENMP
  omp_set_num_threads(n);
#endif
}

std::string backend_summary() {
  std::string s = "cpu (" + std::to_string(cpu_threads()) + " OpenMP threads); cuda: ";
  if (!cuda_built()) return s + "not built";
  int n = cuda_device_count();
  return s + "built, " + std::to_string(n) + (n == 1 ? " GPU" : " GPUs") + " present";
}

}  // namespace impulse
